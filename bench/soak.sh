#!/usr/bin/env bash
# A soak: one server started as run-server.sh starts it (its JDK, JVM options and ahead-of-time
# cache; a fresh data directory), a table of SIZE entities loaded by the workload driver, then the
# driver's mixed-200t workload for DURATION seconds: 200 threads of the official Azure Tables SDK,
# each request a point read of a loaded entity (half) or a single write (insert, insert-or-replace,
# insert-or-merge), every answer checked. Every SAMPLE seconds the server's RSS, threads, open file
# descriptors, RocksDB memory and heap in use (its /_metrics), data directory and CPU; every
# INTERVAL seconds the reads' and writes' rates and p50/p99 over that interval. At the end, the
# summary: errors (every wrong answer stops the driver; server errors and transport errors counted,
# retried ones included), RSS, threads, descriptors and RocksDB memory after FLAT_AFTER seconds
# (smallest, largest, largest against smallest), and the server's CPU per request.
#
#   bench/soak.sh                       30 minutes
#   DURATION=120 bench/soak.sh          a smoke check
#
# Environment: DURATION (1800), SIZE (100000), SAMPLE (30), INTERVAL (60), FLAT_AFTER (300, or half
# the run when it is shorter), PORT (10002), SOAK_DIR (where the samples, the driver's output and
# the server's log are kept; default a new directory under /tmp), SKIP_BUILD=1.
# Exits 1 when the driver failed or any request met a server or transport error.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DURATION=${DURATION:-1800}
SIZE=${SIZE:-100000}
SAMPLE=${SAMPLE:-30}
INTERVAL=${INTERVAL:-60}
FLAT_AFTER=${FLAT_AFTER:-300}
[ "$DURATION" -gt "$FLAT_AFTER" ] || FLAT_AFTER=$((DURATION / 2))
PORT=${PORT:-10002}
RUN_DIR=${SOAK_DIR:-$(mktemp -d /tmp/tablestream-soak.XXXXXX)}
mkdir -p "$RUN_DIR"
source bench/servers.sh
SAMPLER_PID=""
trap '[ -n "$SAMPLER_PID" ] && kill "$SAMPLER_PID" 2>/dev/null; bench_cleanup' EXIT

if [ "${SKIP_BUILD:-}" != 1 ]; then
  build_tablestream
fi
prepare_tablestream
echo "Soak: $SIZE entities, then mixed-200t for $DURATION s; samples, driver output and server log in $RUN_DIR"
start_tablestream "$PORT" "$RUN_DIR/server.log"
DATA_DIR=${TEMP_DIRS[-1]} # start_tablestream's fresh data directory
echo "server ready (pid $SERVER_PID)"

# one sample: seconds since the workload began, RSS MiB, threads, open descriptors, RocksDB memory
# MiB, heap in use MiB, data directory MiB, server CPU s so far
sample() {
  local metrics
  metrics=$(curl -s -m 5 "http://127.0.0.1:$PORT/_metrics" || true)
  printf 'SAMPLE %d %s %s %s %s %s %s %s\n' $(($(now_ms) / 1000 - START_S)) \
    "$(awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$SERVER_PID/status")" \
    "$(awk '/^Threads/ { print $2 }' "/proc/$SERVER_PID/status")" \
    "$(find "/proc/$SERVER_PID/fd" -mindepth 1 -maxdepth 1 | wc -l)" \
    "$(awk '/^tablestream_rocksdb_memory_bytes/ { printf "%.0f", $NF / 1048576 }' <<<"$metrics")" \
    "$(awk '/^jvm_memory_used_bytes.*area="heap"/ { s += $NF } END { printf "%.0f", s / 1048576 }' <<<"$metrics")" \
    "$(du -sm "$DATA_DIR" 2>/dev/null | cut -f1)" \
    "$(awk -v ms="$(cpu_ms "$SERVER_PID")" 'BEGIN { printf "%.1f", ms / 1000 }')"
}

# the driver: the load, then the workload; the sampler starts when the workload does
java -Xmx1g -cp "$(bench_classpath)" io.tablestream.bench.workload.WorkloadDriver \
  --target soak --endpoint "http://127.0.0.1:$PORT/devstoreaccount1" --size "$SIZE" \
  --workloads mixed-200t --warmup 0 --duration "$DURATION" --interval "$INTERVAL" --server-pid "$SERVER_PID" \
  >"$RUN_DIR/driver.out" 2>"$RUN_DIR/driver.err" &
CLIENT_PID=$!
until grep -q 'mixed-200t (' "$RUN_DIR/driver.err" 2>/dev/null; do
  kill -0 "$CLIENT_PID" 2>/dev/null || break
  sleep 0.2
done
START_S=$(($(now_ms) / 1000))
CPU_START=$(cpu_ms "$SERVER_PID")
grep '^RESULT' "$RUN_DIR/driver.out" || true
echo "SAMPLE seconds rss_mib threads fds rocksdb_mib heap_mib data_mib cpu_s" | tee "$RUN_DIR/samples.txt"
(while kill -0 "$CLIENT_PID" 2>/dev/null; do sample | tee -a "$RUN_DIR/samples.txt"; sleep "$SAMPLE"; done) &
SAMPLER_PID=$!
status=0
wait "$CLIENT_PID" || status=$?
CLIENT_PID=""
CPU_END=$(cpu_ms "$SERVER_PID")
sample | tee -a "$RUN_DIR/samples.txt"
kill "$SAMPLER_PID" 2>/dev/null || true
wait "$SAMPLER_PID" 2>/dev/null || true
SAMPLER_PID=""
stop_server

echo
grep -E '^(INTERVAL|RESULT|MEMORY|FAILED)' "$RUN_DIR/driver.out" || true
grep -E 'server errors|^FAILED' "$RUN_DIR/driver.out" || true
[ "$status" -eq 0 ] || tail -n 20 "$RUN_DIR/driver.err" >&2
requests=$(awk '$1 == "RESULT" && $4 == "mixed-200t" { print $9 }' "$RUN_DIR/driver.out")
errors=$(sed -n 's/.*HTTP attempts, \([0-9]*\) server errors (5xx\/429), \([0-9]*\) transport errors.*/\1 \2/p' \
  "$RUN_DIR/driver.out")
echo "server log: $(grep -c ' ERROR ' "$RUN_DIR/server.log" || true) ERROR and $(grep -c ' WARN ' "$RUN_DIR/server.log" || true) WARN lines"
awk -v after="$FLAT_AFTER" -v requests="${requests:-0}" -v cpu_ms=$((CPU_END - CPU_START)) '
  $1 == "SAMPLE" && $2 ~ /^[0-9]+$/ {
    if (first == "") first = $0
    last = $0
    if ($2 >= after) {
      n++
      for (i = 3; i <= 6; i++) {
        if (n == 1 || $i < lo[i]) lo[i] = $i
        if (n == 1 || $i > hi[i]) hi[i] = $i
      }
    }
  }
  END {
    split("- - rss_mib threads fds rocksdb_mib", name, " ")
    printf "SOAK after %d s (%d samples):", after, n
    for (i = 3; i <= 6; i++) printf " %s %s..%s (+%.1f %%)", name[i], lo[i], hi[i], (lo[i] > 0 ? 100 * (hi[i] - lo[i]) / lo[i] : 0)
    printf "\n"
    if (requests > 0) printf "SOAK server CPU %.0f s for %d requests: %.0f us per request\n", cpu_ms / 1000, requests, 1000 * cpu_ms / requests
  }' "$RUN_DIR/samples.txt"
echo "SOAK errors: ${errors:-unknown} (server, transport); driver exit $status"
[ "$status" -eq 0 ] && [ "${errors:-x}" = "0 0" ]
