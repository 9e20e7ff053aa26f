#!/usr/bin/env bash
# The server's capacity, side by side with the Azure emulator (Azurite 3.35, in memory), in one run:
# the same table loaded into each, then the lean client (LeanLoad: raw HTTP, an account SAS, no SDK
# cost) measures each workload's rate, p50, p99 and the server's CPU per operation (the server
# process's user+system CPU from /proc over the measured period, divided by the operations; for
# Tablestream that process includes its embedded Kafka broker), and Kafka-native ingest
# (KafkaNativeIngest, Tablestream only). Tablestream is started exactly as run-server.sh starts it.
#
#   bench/capacity.sh [entities]       default 100000
#
# Environment (all optional):
#   AGE=60          measure from this many seconds after the server reported ready (the table's load
#                   happens in between, the rest of the time the server idles)
#   WARM=0          seconds after ready of unmeasured load (the same workloads, in turn) before
#                   measuring, instead of idling: WARM=300 measures a warm server (takes over AGE)
#   DURATION=10 WARMUP=2   seconds measured / unmeasured per workload
#   CONCURRENCY='get=1,16;range=4;upsert-new=1,16;batch=4;async=16'   requests in flight per workload
#   KAFKA_BATCHES=1000   commands of 100 inserts for Kafka-native ingest (0 skips it)
#   TARGETS='azurite tablestream'   SKIP_BUILD=1   TABLESTREAM_JAVA_OPTS (replaces run-server.sh's)
# Output: a table per target and ratios; everything under bench/target/capacity/<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ENTITIES=${1:-100000}
AGE=${AGE:-60}
WARM=${WARM:-0}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
CONCURRENCY=${CONCURRENCY:-get=1,16;range=4;upsert-new=1,16;batch=4;async=16}
KAFKA_BATCHES=${KAFKA_BATCHES:-1000}
TARGETS=${TARGETS:-azurite tablestream}
WORKLOADS=get,range,upsert-new,batch,async
RUN_DIR=$ROOT/bench/target/capacity/$(date +%Y%m%d-%H%M%S)
mkdir -p "$RUN_DIR"
source bench/servers.sh
[ -z "${TABLESTREAM_JAVA_OPTS:-}" ] || export JAVA_OPTS=$TABLESTREAM_JAVA_OPTS
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

if [ "${SKIP_BUILD:-}" != 1 ]; then
  echo "Building Tablestream and the benchmark tools..."
  build_tablestream
fi
install_azurite
prepare_tablestream
source scripts/java.sh
find_jdk
{
  echo "Capacity: Tablestream vs Azurite $AZURITE_VERSION, $(date -u +%Y-%m-%dT%H:%M:%SZ), $ENTITIES entities"
  echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), load average" \
       "$(cut -d' ' -f1-3 /proc/loadavg); node $(node --version); Tablestream as run-server.sh starts it (JDK" \
       "$JAVA_FEATURE${JAVA_OPTS:+, JAVA_OPTS=$JAVA_OPTS})"
  if [ "$WARM" -gt 0 ]; then
    echo "measured after ${WARM} s of load since ready (warm); ${WARMUP} s unmeasured + ${DURATION} s per workload"
  else
    echo "measured from ${AGE} s after ready; ${WARMUP} s unmeasured + ${DURATION} s per workload"
  fi
} | tee "$RUN_DIR/summary.txt"

for target in $TARGETS; do
  port=$(free_port)
  echo "--- $target (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  case $target in
    azurite) start_azurite "$port" "$RUN_DIR/azurite.log" ;;
    tablestream) start_tablestream "$port" "$RUN_DIR/tablestream.log" ;;
    *) echo "unknown target $target (azurite, tablestream)" >&2; exit 2 ;;
  esac
  if [ "$WARM" -gt 0 ]; then
    from=$(( READY_EPOCH_MS + WARM * 1000 )) warm=--warm-up-load
  else
    from=$(( READY_EPOCH_MS + AGE * 1000 )) warm=""
  fi
  run_client "$RUN_DIR/$target-lean.out" io.tablestream.bench.lean.LeanLoad --target "$target" \
      --endpoint "http://127.0.0.1:$port/devstoreaccount1" --size "$ENTITIES" --workloads "$WORKLOADS" \
      --concurrency "$CONCURRENCY" --duration "$DURATION" --warmup "$WARMUP" --clock-from "$READY_EPOCH_MS" \
      --measure-from "$from" $warm --server-pid "$SERVER_PID" || exit 1
  if [ "$target" = tablestream ] && [ "$KAFKA_BATCHES" -gt 0 ]; then
    broker=$(sed -n 's/.*Embedded Kafka broker running at \([0-9.:]*\).*/\1/p' "$RUN_DIR/tablestream.log" | head -n 1)
    run_client "$RUN_DIR/$target-kafka.out" io.tablestream.bench.KafkaNativeIngest --bootstrap "$broker" \
        --endpoint "http://127.0.0.1:$port/devstoreaccount1" --batches "$KAFKA_BATCHES" --server-pid "$SERVER_PID" || exit 1
  fi
  echo "    RSS at the end: $(awk '/VmRSS/ { printf "%d MiB", $2 / 1024 }' "/proc/$SERVER_PID/status")" \
    | tee "$RUN_DIR/$target-rss.out"
  stop_server
  remove_temp_dirs
done

# The table: per workload, each target's rate (p50/p99 ms) and server CPU per operation (µs; per
# entity for entities/s), and the ratio Tablestream / Azurite of the rates.
awk '
  FNR == 1 { t = (FILENAME ~ /azurite-/) ? "a" : "t" }
  $1 == "RESULT" && $3 == "lean" { w = $4; add(w, $8); rate[t, w] = $5
    lat[t, w] = ($6 == "-") ? "" : sprintf("%.2f/%.2f", $6, $7) }
  $1 == "CPU" && $3 == "lean" { cpu[t, $4] = $8 }
  $1 == "RESULT" && $2 == "kafka-native" { w = "kafka-native-" $4; add(w, $8); rate[t, w] = $5
    lat[t, w] = ($6 == "-") ? "" : sprintf("%.1f/%.1f", $6, $7) }
  $1 == "CPU" && $2 == "kafka-native" { cpu[t, "kafka-native-" $4] = $8 }
  function add(w, u) { if (!(w in seen)) { seen[w] = 1; order[++n] = w; unit[w] = u } }
  function cell(t, w) {
    if (!((t, w) in rate)) return sprintf("%9s %-13s %7s", "-", "", "")
    return sprintf("%9.0f %-13s %7s", rate[t, w], lat[t, w], ((t, w) in cpu) ? sprintf("%.0f", cpu[t, w]) : "")
  }
  END {
    printf "\n%-24s %-10s | %9s %-13s %7s | %9s %-13s %7s | %s\n", "workload", "unit", "Azurite", "p50/p99 ms", \
      "CPU us", "Tablestr.", "p50/p99 ms", "CPU us", "ratio"
    for (i = 1; i <= n; i++) {
      w = order[i]
      r = (rate["a", w] > 0 && rate["t", w] > 0) ? sprintf("%.2fx", rate["t", w] / rate["a", w]) : "-"
      printf "%-24s %-10s | %s | %s | %s\n", w, unit[w], cell("a", w), cell("t", w), r
    }
    print "CPU us: the server process'"'"'s user+system CPU per operation (per entity for entities/s) over the"
    print "measured period; Tablestream'"'"'s process includes its embedded Kafka broker. async: Prefer: respond-async"
    print "inserts (Azurite ignores the preference and answers after the write); async-applied: until a read"
    print "carrying every answered session token was served."
  }' "$RUN_DIR"/*-lean.out $(ls "$RUN_DIR"/*-kafka.out 2>/dev/null) | tee -a "$RUN_DIR/summary.txt"
cat "$RUN_DIR"/*-rss.out >>"$RUN_DIR/summary.txt"
echo
echo "Results and server logs: $RUN_DIR"
