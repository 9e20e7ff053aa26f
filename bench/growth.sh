#!/usr/bin/env bash
# The cost curve: one table grown step by step (100,000, 1,000,000, ... entities of about 200 bytes,
# 100 per PartitionKey, so 1,000 PartitionKeys at 100,000), one server started as run-server.sh
# starts it (the same JDK, scripts/java.sh, the same JVM options, JAVA_OPTS replacing them, the same
# jar and main class; no ahead-of-time cache), and at each size: load rate,
# RSS, disk per entity (broker log and RocksDB apart), point GET p50/p99 and rate, 100-row range
# queries, a full scan's rate, $count of the table, restart to ready after kill -9, and the rebuild
# of every store from Kafka after the stores' directory is deleted. Needs a JDK 17 or later.
#
#   bench/growth.sh all 100000 1000000    every step below, for each size in turn, then the chart
#   bench/growth.sh load <size>           grow the table to <size> (server started, loaded, stopped)
#   bench/growth.sh measure               measure at the current size (server started, measured, stopped)
#                                         = measure-reads (all but the rebuild), then rebuild
#   bench/growth.sh restart               restart after kill -9 at the current size, ROUNDS (2) times
#                                         started as here and as run-server.sh starts it (AOT cache)
#   bench/growth.sh chart [file.svg]      the table (markdown) and the chart of every size measured
#   bench/growth.sh clean                 delete the data directory and the results
#
# The steps are separate so that loading (long) and measuring (short) can run at different times.
# LOADER=bulk (the default) loads through the bulk NDJSON endpoint ($bulk, mode=insert: requests of
# 40,000 entities, 2 in flight); LOADER=batch through entity-group transactions of 100 (8 in flight),
# about ten times slower. The entities and their keys are the same either way.
# Environment: GROWTH_DIR (default /tmp/tablestream-growth: data, results, server logs), JAVA_OPTS of
# the server (default -Xmx1g), PORT (default 10002), DURATION seconds per timed figure (10) after
# WARMUP seconds of the same requests unmeasured (10: the server was just started),
# SCAN_SECONDS (60: a longer full scan is reported as the rate of its first part), SKIP_BUILD=1.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ready.sh
source scripts/java.sh
find_jdk
DIR=${GROWTH_DIR:-/tmp/tablestream-growth}
DATA=$DIR/data
RESULTS=$DIR/results.txt
PORT=${PORT:-10002}
ENDPOINT=http://127.0.0.1:$PORT/devstoreaccount1
case "${1:-}" in load | measure | measure-reads | rebuild | restart | all) mkdir -p "$DIR" ;; esac

build() {
  if [ "${SKIP_BUILD:-}" != 1 ] && [ -z "${BUILT:-}" ]; then
    ./mvnw -q -B -pl server,bench -am package -DskipTests
    BUILT=1
  fi
}

bench() {
  java -Xmx512m -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.lean.GrowthBenchmark \
    --endpoint "$ENDPOINT" --table Growth "$@"
}

size() { cat "$DIR/size" 2>/dev/null || echo 0; }

# The table's size, for a step that needs a table loaded (stops the script if none is).
loaded_size() {
  local n
  n=$(size)
  [ "$n" -gt 0 ] || { echo "load first: bench/growth.sh load <size>" >&2; exit 2; }
  echo "$n"
}

# Starts the server on $DATA; sets PID (the server's JVM), and READY to the seconds it took to report
# ready. With START=run-server, through run-server.sh itself (its ahead-of-time cache included).
start() {
  local t0 t1 launcher
  t0=$(date +%s.%N)
  if [ "${START:-java}" = run-server ]; then
    TABLESTREAM_PORT=$PORT TABLESTREAM_DATA_DIR=$DATA ./run-server.sh >>"$DIR/server.log" 2>&1 &
    launcher=$!
    until PID=$(pgrep -P "$launcher" java); do
      kill -0 "$launcher" 2>/dev/null || { echo "run-server.sh ended (see $DIR/server.log)" >&2; exit 1; }
      sleep 0.05
    done
  else
    # shellcheck disable=SC2086 # the JVM options are words
    TABLESTREAM_PORT=$PORT TABLESTREAM_DATA_DIR=$DATA "$JAVA_HOME/bin/java" ${JAVA_OPTS:-$(default_java_opts)} \
      -cp "$(ls server/target/server-*.jar | head -n 1):$(cat server/target/classpath.txt)" io.tablestream.server.Main \
      >>"$DIR/server.log" 2>&1 &
    PID=$!
  fi
  if ! await_ready 127.0.0.1 "$PORT" "$PID" 900; then
    echo "the server did not get ready (see $DIR/server.log)" >&2
    kill -9 "$PID" 2>/dev/null || true
    exit 1
  fi
  t1=$(date +%s.%N)
  READY=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
}

stop() {
  kill -TERM "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
}

# Bytes the broker keeps for the partitions of the topics matching $1 (a glob of partition directories).
topic_bytes() {
  find "$DATA/kafka" -mindepth 1 -maxdepth 3 -type d -name "$1" -print0 | du -sc -B1 --files0-from=- 2>/dev/null \
    | awk 'END { printf "%.0f", $1 }'
}

rss_mib() { awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$PID/status"; }

record() { echo "GROWTH $*" | tee -a "$RESULTS"; }

load() {
  local to=$1 from
  from=$(size)
  [ "$to" -gt "$from" ] || { echo "the table already holds $from entities" >&2; return 0; }
  build
  start
  trap 'kill -9 $PID 2>/dev/null || true' EXIT
  bench --phase load --loader "${LOADER:-bulk}" --from "$from" --to "$to" --server-pid "$PID" | tee -a "$RESULTS"
  echo "$to" >"$DIR/size"
  record "$to" rss-after-load "$(rss_mib)" MiB
  stop
  trap - EXIT
}

measure() {
  local n
  n=$(loaded_size)
  build
  start
  trap 'kill -9 $PID 2>/dev/null || true' EXIT
  bench --phase measure --to "$n" --server-pid "$PID" --duration "${DURATION:-10}" --warmup "${WARMUP:-10}" \
    --scan-seconds "${SCAN_SECONDS:-60}" | tee -a "$RESULTS"
  record "$n" rss "$(rss_mib)" MiB
  # a running RocksDB holds preallocated space (files being written are fallocated ahead): its
  # figure while running, then every figure of the disk after a clean stop
  record "$n" disk-rocksdb-running-per-entity "$(($(du -s -B1 "$DATA/streams" | cut -f1) / n))" bytes
  # restart to ready after kill -9
  kill -9 "$PID"
  wait "$PID" 2>/dev/null || true
  start
  record "$n" restart-after-kill "$READY" s
  stop
  local kafka streams
  kafka=$(du -s -B1 "$DATA/kafka" | cut -f1)
  streams=$(du -s -B1 "$DATA/streams" | cut -f1)
  record "$n" disk-broker-per-entity "$((kafka / n))" bytes
  record "$n" disk-rocksdb-per-entity "$((streams / n))" bytes
  # the broker's share by topic: the command log, the change feed, the stores' changelogs
  record "$n" disk-commands-per-entity "$(($(topic_bytes 'tablestream.commands-*') / n))" bytes
  record "$n" disk-changes-per-entity "$(($(topic_bytes 'tablestream.changes-*') / n))" bytes
  record "$n" disk-changelogs-per-entity "$(($(topic_bytes '*-changelog-*') / n))" bytes
  trap - EXIT
}

# Every store rebuilt from Kafka: the stores' directory deleted (the server stopped), then a start.
rebuild() {
  local n
  n=$(loaded_size)
  build
  rm -rf "$DATA/streams"
  start
  trap 'kill -9 $PID 2>/dev/null || true' EXIT
  record "$n" rebuild "$READY" s "($(awk -v n="$n" -v s="$READY" 'BEGIN { printf "%.0f", n / s }') entities/s)"
  record "$n" rss-after-rebuild "$(rss_mib)" MiB
  stop
  trap - EXIT
}

# Restart after kill -9, ROUNDS (2) times each way in turn: started as this benchmark starts the
# server (START=java: no ahead-of-time cache) and through run-server.sh (with its cache, made first).
# Each round: a start, 10 s of idle, kill -9, and the start timed.
restart() {
  local n round how
  n=$(loaded_size)
  build
  ./run-server.sh --prepare
  trap 'kill -9 $PID 2>/dev/null || true' EXIT
  for round in $(seq 1 "${ROUNDS:-2}"); do
    for how in java run-server; do
      START=$how start
      sleep 10
      kill -9 "$PID"
      wait 2>/dev/null || true
      START=$how start
      record "$n" "restart-after-kill-$how" "$READY" s
      stop
      wait 2>/dev/null || true
    done
  done
  trap - EXIT
}

chart() {
  build
  java -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.lean.GrowthChart \
    "$RESULTS" "${1:-docs/growth.svg}"
}

case "${1:-}" in
  load) load "$2" ;;
  measure) measure; rebuild ;;
  measure-reads) measure ;;
  rebuild) rebuild ;;
  restart) restart ;;
  chart) chart "${2:-}" ;;
  clean) rm -rf "$DATA" "$RESULTS" "$DIR/size" "$DIR/server.log" ;;
  all)
    shift
    for s in "$@"; do load "$s"; measure; rebuild; done
    chart ;;
  *) sed -n '2,26p' "$0"; exit 2 ;;
esac
