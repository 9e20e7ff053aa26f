#!/usr/bin/env bash
# What a partition costs: for each partition count, a server on a fresh data directory started as
# run-server.sh starts it (its JDK, JVM options and ahead-of-time cache, made beforehand so that no
# start is a training run), measured for start-up to ready, then once ready and idle for
# IDLE_SECONDS its CPU, RSS, threads and open file descriptors, then the lean client's inserts and
# point reads (16 in flight, DURATION seconds each after 3 unmeasured) with the server's CPU per
# request, and its RSS after them.
#
#   bench/partitions.sh [counts...]        default: 4 8 16 32
#
# Environment: PORT (10002), IDLE_SECONDS (20), DURATION (10), SKIP_BUILD=1.
# Output: one PARTITIONS line per count and figure (start-up, idle, the lean client's RESULT and CPU
# lines), and the server logs in a directory under /tmp, deleted at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
RUN_DIR=$(mktemp -d /tmp/tablestream-partitions.XXXXXX)
source bench/servers.sh
trap 'bench_cleanup; rm -rf "$RUN_DIR"' EXIT
PORT=${PORT:-10002}
IDLE_SECONDS=${IDLE_SECONDS:-20}
COUNTS=${*:-4 8 16 32}
if [ "${SKIP_BUILD:-}" != 1 ]; then
  build_tablestream
fi
prepare_tablestream

status_field() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }

for n in $COUNTS; do
  t0=$(now_ms)
  TABLESTREAM_PARTITIONS=$n start_tablestream "$PORT" "$RUN_DIR/server-$n.log"
  ready=$(awk -v ms=$((READY_EPOCH_MS - t0)) 'BEGIN { printf "%.1f", ms / 1000 }')
  sleep 5
  c0=$(cpu_ms "$SERVER_PID")
  sleep "$IDLE_SECONDS"
  idle=$(awk -v ms=$(($(cpu_ms "$SERVER_PID") - c0)) -v s="$IDLE_SECONDS" 'BEGIN { printf "%.1f", ms / s / 10 }')
  echo "PARTITIONS $n ready_s $ready idle_cpu_percent $idle idle_rss_mib $(($(status_field "$SERVER_PID" VmRSS) / 1024))" \
    "threads $(status_field "$SERVER_PID" Threads) fds $(find "/proc/$SERVER_PID/fd" -mindepth 1 -maxdepth 1 | wc -l)"
  # what it holds: the embedded broker's partitions (of every topic but its own __*), the RocksDB stores, the disk
  data=${TEMP_DIRS[-1]}
  echo "PARTITIONS $n broker_partitions $(find "$data/kafka" -mindepth 1 -maxdepth 1 -type d -name '*-[0-9]*' ! -name '__*' | wc -l)" \
    "rocksdb_stores $(find "$data/streams" -mindepth 4 -maxdepth 4 -type d -path '*rocksdb/*' | wc -l) data_mib $(du -sm "$data" | cut -f1)"
  run_client "$RUN_DIR/lean-$n.out" io.tablestream.bench.lean.LeanLoad \
    --endpoint "http://127.0.0.1:$PORT/devstoreaccount1" --target "partitions-$n" --workloads insert,read \
    --concurrency 16 --duration "${DURATION:-10}" --warmup 3 --server-pid "$SERVER_PID"
  sed -n "s/^\(RESULT\|CPU\) /PARTITIONS $n &/p" "$RUN_DIR/lean-$n.out"
  echo "PARTITIONS $n loaded_rss_mib $(($(status_field "$SERVER_PID" VmRSS) / 1024))" \
    "threads $(status_field "$SERVER_PID" Threads) fds $(find "/proc/$SERVER_PID/fd" -mindepth 1 -maxdepth 1 | wc -l)"
  stop_server
  remove_temp_dirs
done
