#!/usr/bin/env bash
# A young server through the official SDK, in several variants one after another: each a fresh
# Tablestream as run-server.sh starts it (or Azurite), optionally given some seconds of load by the
# lean client right after it reports ready, then measured by the SDK workload driver at each of
# SERVER_AGES seconds after ready (each time a table of SIZE entities loaded first, by transactions of
# 100 on 4 threads), with the CPU the JIT compiler threads used meanwhile.
#
#   bench/first-minute.sh <variant>...
#
# A variant is name:load:warm-up:options —
#   name      a label (azurite: Azurite in memory, the other fields ignored)
#   load      seconds of lean-client load right after ready (inserts, merges, transactions of 100 and
#             point reads, a quarter of the time each), as <seconds>[/<in flight>] (default 16 in
#             flight; e.g. 40/1: 40 s, one request at a time); 0: none
#   warm-up   the server's own warm-ups, as <before>[+<after>]: seconds before ready
#             (TABLESTREAM_WARM_UP_SECONDS) and after ready, until the first client request
#             (TABLESTREAM_WARM_UP_AFTER_READY_SECONDS); an empty part: the default (since 2026-11-29 the
#             default has a warm-up after ready: 0+0 is none at all)
#   options   the server's JVM options (JAVA_OPTS, as for run-server.sh); empty: the default. Each set
#             of options has its own AOT cache: run ./run-server.sh --prepare with those JAVA_OPTS first
#             (a training run deletes the caches of other options: copy them aside and back).
# e.g. bench/first-minute.sh azurite::: none:0:0+0: before:0:20+0: after:0:0+50: outside:20:0+0: \
#        'scaled:0:0+0:-Xmx1g -XX:CompileThresholdScaling=0.5'
#
# JIT=1: a JFR recording of each Tablestream variant from ready to its stop (the default settings, plus
# every compilation and deoptimization), <name>.jfr, and bench/wrk/jit.py's summary of it per age
# measured (<name>-jit.txt); the recording's JFR is started by jcmd at ready (a JFR option on the
# command line would disable the AOT cache: its module options differ from the training run's).
#
# Environment: SERVER_AGES=60 (e.g. "60 120 180"), SIZE=10000, WORKLOADS=insert,merge (the driver's), DURATION=10, WARMUP=3,
# CLIENT_WARMUP=30: seconds the driver first warms its own JVM against a stand-in endpoint inside it
# (--client-warmup), started that much earlier so that its first request reaches the server at the age
# given (0: a driver in a new JVM, as before 2026-11-28 evening, which measures mostly its own JIT).
# Prints per variant its time to ready and its warm-up's log line, then the driver's RESULT lines;
# output and logs in bench/target/first-minute/<time>/. Builds nothing: build and prepare before.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
RUN_DIR=$ROOT/bench/target/first-minute/$(date +%Y%m%d-%H%M%S)
mkdir -p "$RUN_DIR"
source bench/servers.sh
trap bench_cleanup EXIT
trap 'exit 130' INT TERM
SERVER_AGES=${SERVER_AGES:-60} SIZE=${SIZE:-10000} WORKLOADS=${WORKLOADS:-insert,merge}
DURATION=${DURATION:-10} WARMUP=${WARMUP:-3} CLIENT_WARMUP=${CLIENT_WARMUP:-30} JIT=${JIT:-0}
[ $# -gt 0 ] || { sed -n '2,30p' "$0" >&2; exit 2; }
[ -d "$AZURITE_DIR/node_modules/azurite" ] || install_azurite

# jit_cpu: "C1 <ms> C2 <ms> process <ms>": CPU so far of the server's C1 and C2 compiler threads and of
# the whole process (Azurite has neither compiler: zeros)
jit_cpu() {
  local c1=0 c2=0 t name ticks
  for t in /proc/"$SERVER_PID"/task/*; do
    name=$(cat "$t/comm" 2>/dev/null) || continue
    ticks=$(awk '{ sub(/.*\) /, ""); print $12 + $13 }' "$t/stat" 2>/dev/null) || continue
    case $name in C2\ Compiler*) c2=$((c2 + ticks)) ;; C1\ Compiler*) c1=$((c1 + ticks)) ;; esac
  done
  echo "C1 $((c1 * 10)) C2 $((c2 * 10)) process $(cpu_ms "$SERVER_PID") ms"
}

for variant in "$@"; do
  IFS=: read -r name load warm options <<<"$variant"
  port=$(free_port)
  started=$(now_ms)
  if [ "$name" = azurite ]; then
    load=0
    start_azurite "$port" "$RUN_DIR/$name.log"
  else
    unset JAVA_OPTS TABLESTREAM_WARM_UP_SECONDS TABLESTREAM_WARM_UP_AFTER_READY_SECONDS
    if [ -n "$options" ]; then export JAVA_OPTS=$options; fi
    before=${warm%%+*} after=""
    if [[ $warm == *+* ]]; then after=${warm#*+}; fi
    if [ -n "$before" ]; then export TABLESTREAM_WARM_UP_SECONDS=$before; fi
    if [ -n "$after" ]; then export TABLESTREAM_WARM_UP_AFTER_READY_SECONDS=$after; fi
    start_tablestream "$port" "$RUN_DIR/$name.log"
    unset JAVA_OPTS TABLESTREAM_WARM_UP_SECONDS TABLESTREAM_WARM_UP_AFTER_READY_SECONDS
    if [ "$JIT" = 1 ]; then
      server_jdk=$(dirname "$(dirname "$(readlink -f "/proc/$SERVER_PID/exe")")")
      "$server_jdk/bin/jcmd" "$SERVER_PID" JFR.start name=jit \
        settings=default 'jdk.Compilation#threshold=0ms' 'jdk.Deoptimization#enabled=true' \
        filename="$RUN_DIR/$name.jfr" dumponexit=true >"$RUN_DIR/$name-jfr.out" 2>&1 || echo "    no JFR recording" >&2
    fi
  fi
  {
    echo "--- $name: ready in $(( READY_EPOCH_MS - started )) ms (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    grep -h -o -e 'Warm-up: .*' -e 'Ready [0-9]* ms after the JVM started' "$RUN_DIR/$name.log" | sed 's/^/    /' || true
    echo "    CPU at ready: $(jit_cpu)"
  } | tee -a "$RUN_DIR/summary.txt"
  warm_up_lines=$(grep -c 'Warm-up: ' "$RUN_DIR/$name.log" || true)
  in_flight=16
  if [[ $load == */* ]]; then in_flight=${load#*/}; load=${load%/*}; fi
  if [ "${load:-0}" -gt 0 ]; then
    run_client "$RUN_DIR/$name-load.out" io.tablestream.bench.lean.LeanLoad --target "$name" \
      --endpoint "http://127.0.0.1:$port/devstoreaccount1" --workloads insert,merge,batch,read --concurrency "$in_flight" \
      --duration "$(awk -v s="$load" 'BEGIN { printf "%.2f", s / 4 }')" --warmup 0 || true
    echo "    load ended $(( ($(now_ms) - READY_EPOCH_MS) / 1000 )) s after ready" | tee -a "$RUN_DIR/summary.txt"
  fi
  for age in $SERVER_AGES; do
    wait_until_age "$(( age > CLIENT_WARMUP ? age - CLIENT_WARMUP : 0 ))"
    echo "    at $age s (the driver's own warm-up from $(( ($(now_ms) - READY_EPOCH_MS) / 1000 )) s): CPU before $(jit_cpu)" \
      | tee -a "$RUN_DIR/summary.txt"
    run_client "$RUN_DIR/$name-$age.out" io.tablestream.bench.workload.WorkloadDriver --target "$name" \
      --endpoint "http://127.0.0.1:$port/devstoreaccount1" --size "$SIZE" --server-pid "$SERVER_PID" \
      --duration "$DURATION" --warmup "$WARMUP" --workloads "$WORKLOADS" --load-threads 4 \
      --client-warmup "$CLIENT_WARMUP" || true
    echo "    ended $(( ($(now_ms) - READY_EPOCH_MS) / 1000 )) s after ready: CPU $(jit_cpu)" | tee -a "$RUN_DIR/summary.txt"
    grep -E '^(RESULT|FAILED)' "$RUN_DIR/$name-$age.out" | sed "s/^/    /" | tee -a "$RUN_DIR/summary.txt" || true
  done
  # a warm-up after ready logs its end later: when the first client request stopped it, or its time was up
  if [ "$name" != azurite ]; then
    grep -h -o 'Warm-up: .*' "$RUN_DIR/$name.log" | tail -n +"$(( warm_up_lines + 1 ))" | sed 's/^/    after ready: /' \
      | tee -a "$RUN_DIR/summary.txt" || true
  fi
  stop_server
  remove_temp_dirs
  if [ "$JIT" = 1 ] && [ -s "$RUN_DIR/$name.jfr" ]; then
    # from ready to the first request, then each age's measure (about 30 s: the table's load, the workloads)
    windows="" from=0
    for age in $SERVER_AGES; do windows="$windows --window $from:$age --window $age:$(( age + 35 ))"; from=$(( age + 35 )); done
    # shellcheck disable=SC2086 # the windows are words
    JAVA_HOME=$server_jdk python3 bench/wrk/jit.py "$RUN_DIR/$name.jfr" --zero "$(awk -v t="$READY_EPOCH_MS" 'BEGIN { printf "%.3f", t / 1000 }')" \
      $windows >"$RUN_DIR/$name-jit.txt" 2>&1 || true
    echo "    JIT: $RUN_DIR/$name-jit.txt" | tee -a "$RUN_DIR/summary.txt"
  fi
done
echo "Output and logs: $RUN_DIR"
