#!/usr/bin/env bash
# How fast a freshly started Tablestream gets to its warm speed: starts the server exactly as
# run-server.sh does (its JDK, JVM options and ahead-of-time cache; JAVA_OPTS and
# TABLESTREAM_JAVA_HOME change them as they change run-server.sh's) on a fresh data directory, and
# from the moment it reports ready keeps the lean client (LeanLoad: raw HTTP, an account SAS) busy
# with slices of insert-or-replace of new keys and point reads, 16 in flight, in turn. Prints the
# time to ready, the server's CPU to get there, and each workload's rate and server CPU per request
# over 0-60 s, 40-60 s and 60-120 s after ready and over the last 60 s of the run (warm).
#
#   bench/warmup.sh [seconds]          default 360 (seconds of load after ready)
#
# Environment: LABEL (a name for the summary line), SLICE=5 (seconds per slice, the first of them
# unmeasured), CONCURRENCY=16, WORKLOADS=upsert-new,read, SKIP_BUILD=1, CLIENT_JAVA=java (the
# client's JVM, the same whatever the server runs on). Output and the server's log:
# bench/target/warmup/<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECONDS_OF_LOAD=${1:-360}
SLICE=${SLICE:-5}
CONCURRENCY=${CONCURRENCY:-16}
WORKLOADS=${WORKLOADS:-upsert-new,read}
LABEL=${LABEL:-${JAVA_OPTS:-default options}}
RUN_DIR=$ROOT/bench/target/warmup/$(date +%Y%m%d-%H%M%S)
mkdir -p "$RUN_DIR"
source bench/servers.sh
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

if [ "${SKIP_BUILD:-}" != 1 ]; then
  build_tablestream
fi
prepare_tablestream

workloads=$(( $(tr -cd , <<<"$WORKLOADS" | wc -c) + 1 ))
rounds=$(( (SECONDS_OF_LOAD + SLICE * workloads - 1) / (SLICE * workloads) ))
port=$(free_port)
started=$(now_ms)
start_tablestream "$port" "$RUN_DIR/tablestream.log"
cpu_at_ready=$(cpu_ms "$SERVER_PID")
jvm_ready=$(sed -n 's/.*Ready \([0-9]*\) ms after the JVM started.*/\1/p' "$RUN_DIR/tablestream.log" | head -n 1)
run_client "$RUN_DIR/lean.out" io.tablestream.bench.lean.LeanLoad --target tablestream \
    --endpoint "http://127.0.0.1:$port/devstoreaccount1" --workloads "$WORKLOADS" --concurrency "$CONCURRENCY" \
    --duration $((SLICE - 1)) --warmup 1 --rounds "$rounds" --clock-from "$READY_EPOCH_MS" \
    --server-pid "$SERVER_PID" || exit 1
rss=$(awk '/VmRSS/ { printf "%d", $2 / 1024 }' "/proc/$SERVER_PID/status")

awk -v label="$LABEL" -v ready="$(( READY_EPOCH_MS - started ))" -v jvm="${jvm_ready:-?}" \
    -v cpu="$cpu_at_ready" -v rss="$rss" '
  $1 == "RESULT" { w = $4; sub(/-c[0-9]+$/, "", w); name[++n] = w; req[n] = $9; secs[n] = $10; from[n] = $11
                   if ($12 > end) end = $12 }
  $1 == "CPU" { cpu_of[n] = $5 }
  function window(w, lo, hi,   i, r, s, c) {
    for (i = 1; i <= n; i++) if (name[i] == w && from[i] >= lo && from[i] < hi) { r += req[i]; s += secs[i]; c += cpu_of[i] }
    return s > 0 ? sprintf("%7.0f/s %5.0f us", r / s, c * 1000 / r) : sprintf("%16s", "-")
  }
  END {
    printf "WARMUP %s | ready %.1f s (JVM %.1f s), %.1f s CPU, RSS at end %d MiB\n", label, ready / 1000, jvm / 1000, cpu / 1000, rss
    for (i = 1; i <= n; i++) if (!(name[i] in seen)) { seen[name[i]] = 1; order[++k] = name[i] }
    for (j = 1; j <= k; j++)
      printf "  %-10s 0-60 s %s | 40-60 s %s | 60-120 s %s | warm (%.0f-%.0f s) %s\n", order[j],
        window(order[j], 0, 60), window(order[j], 40, 60), window(order[j], 60, 120), end - 60, end,
        window(order[j], end - 60, 1e9)
  }' "$RUN_DIR/lean.out" | tee "$RUN_DIR/summary.txt"
