#!/usr/bin/env bash
# What a partition costs: for each partition count, a server on a fresh data directory (started as
# run-server.sh starts it; JAVA_OPTS default -Xmx1g), measured for start-up to ready, idle CPU and
# RSS once ready, then the lean client's inserts and point reads (16 in flight) with the server's CPU
# per request. Needs only a JDK 17.
#
#   bench/partitions.sh [counts...]        default: 4 8 16 32
#
# Environment: PORT (10002), IDLE_SECONDS (20), DURATION (10), SKIP_BUILD=1.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ready.sh
PORT=${PORT:-10002}
COUNTS=${*:-4 8 16 32}
if [ "${SKIP_BUILD:-}" != 1 ]; then
  ./mvnw -q -B -pl server,bench -am package -DskipTests
fi
DIR=$(mktemp -d /tmp/tablestream-partitions.XXXXXX)
trap 'kill -9 ${PID:-0} 2>/dev/null || true; rm -rf "$DIR"' EXIT
cpu_ms() { awk '{ print ($14 + $15) * 10 }' "/proc/$1/stat"; }
for n in $COUNTS; do
  rm -rf "$DIR/data"
  t0=$(date +%s.%N)
  TABLESTREAM_PORT=$PORT TABLESTREAM_DATA_DIR=$DIR/data TABLESTREAM_PARTITIONS=$n java ${JAVA_OPTS:--Xmx1g} \
    -cp "server/target/classes:$(cat server/target/classpath.txt)" io.tablestream.server.Main >"$DIR/server-$n.log" 2>&1 &
  PID=$!
  await_ready 127.0.0.1 "$PORT" "$PID" 600 || { echo "partitions $n: not ready (see $DIR/server-$n.log)"; exit 1; }
  ready=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  sleep 5
  c0=$(cpu_ms "$PID")
  sleep "${IDLE_SECONDS:-20}"
  idle=$(awk -v c="$(($(cpu_ms "$PID") - c0))" -v s="${IDLE_SECONDS:-20}" 'BEGIN { printf "%.1f", c / s / 10 }')
  rss=$(awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$PID/status")
  echo "PARTITIONS $n ready_s $ready idle_cpu_percent $idle idle_rss_mib $rss"
  java -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.lean.LeanLoad \
    --endpoint "http://127.0.0.1:$PORT/devstoreaccount1" --target "partitions-$n" --workloads insert,read \
    --concurrency 16 --duration "${DURATION:-10}" --warmup 3 --server-pid "$PID" 2>/dev/null \
    | sed "s/^/PARTITIONS $n /"
  kill -TERM "$PID"
  wait "$PID" 2>/dev/null || true
done
