#!/usr/bin/env bash
# Sequential writes with client and server state crossed, in one run: is a sequential SDK write slow
# because of the SDK's client or because of the server it meets?
#
#   bench/crossing.sh [<phase>...]
#
# One Tablestream as run-server.sh starts it (build and ./run-server.sh --prepare before), idle until
# START_AGE s after ready (Azurite, in memory, measured meanwhile by the SDK driver in AZURITE_PHASES,
# then stopped), then the phases in order, each between snapshots of the server's own timers
# (timers.py: tablestream_*_seconds from /_metrics), its threads' CPU (threads.py), the machine's and
# the server's CPU, its JIT's compilations (jstat -compiler), and its stores' flushes, compactions and
# level-0 files and its topics' segments (disk.py, from the data directory). A phase is one of:
#   sdk           the SDK driver in a new JVM: a table of SIZE entities by transactions of 100, then
#                 sequential inserts and merges (WARMUP s unmeasured, DURATION s measured each)
#   sdk-warm      the same, the driver's JVM warmed first for CLIENT_WARMUP s against a stand-in endpoint
#                 of its own (--client-warmup: nothing of it reaches the server)
#   sdk-warm:<w>  sdk-warm with the driver's workloads <w> instead (e.g. sdk-warm:merge: merges the first
#                 workload after the load; the driver runs its workloads in its own order)
#   sdk-long      the SDK driver, inserts only, after LONG_WARMUP s of its own inserts unmeasured
#   lone-sdkkeys  wrk, one connection, POST inserts with the SDK driver's keys (insert-0000.., SIZE/100 of them), W1 s
#   lone-wrkkeys  the same with wrk's usual keys (1,000 PartitionKeys), W1 s
#   gap<ms>       lone-sdkkeys with <ms> milliseconds between an answer and the next request
#   wrk16         W16 s of wrk, 16 connections, insert-or-replace of new keys (put.lua)
#   load          a table of SIZE entities (bench/wrk/load.py: transactions of 100, 4 in flight), named
#                 load<n> after the phase's number n
#   merges        wrk, one connection, W1 s of Merge Entity of the last loaded table's entities (merge.lua)
#   idle<s>       no requests for <s> seconds: what the server does meanwhile (its CPU by group of threads,
#                 and each thread's CPU and wake-ups a second: threads.py each)
#   profiled-idle<s>  idle<s> with async-profiler (ASYNC_PROFILER) in CPU mode on the server, by thread,
#                 into <n>-profiled-idle<s>-server-cpu.collapsed (attached before the phase's first
#                 snapshot, stopped after its last: the profiler's own sampling is in the phase's figures)
#   codelist      no requests: the server's compiled code (jcmd Compiler.codelist) into codelist-<n>.txt
#   profiled      sdk-warm with inserts only, async-profiler (ASYNC_PROFILER) in wall-clock mode on the
#                 server and in CPU mode in the driver's JVM
#   spin-<phase>  the phase with one busy loop per core at the lowest priority (SCHED_IDLE, `chrt -i 0`:
#                 any other thread takes its core at once), so that no core idles meanwhile; the
#                 machine's busy share then counts them
#   poll-<phase>  the phase with the guest's halt polling on (a virtual machine with the haltpoll idle
#                 driver: /sys/module/haltpoll/parameters/guest_halt_poll_ns set to HALT_POLL_NS, 5000000,
#                 meanwhile, then put back): an idle core polls that long before it halts
# The default phases (the first run of 2026-11-28 evening in docs/performance.md):
#   sdk lone-sdkkeys lone-wrkkeys sdk codelist sdk-long wrk16 sdk codelist lone-sdkkeys lone-wrkkeys
# with AZURITE_PHASES "sdk sdk-long".
#
# Environment: EACH_THREAD (set: every phase, not only idle ones, shows each thread's CPU and wake-ups),
# START_AGE (120), SIZE (10000), DURATION (10), WARMUP (3), CLIENT_WARMUP (30), LONG_WARMUP
# (30), W1 (10), W16 (60), AZURITE_PHASES ("sdk sdk-long"; empty: no Azurite), ASYNC_PROFILER (the path
# of libasyncProfiler.so, for profiled), OUT (bench/target/crossing/<time>). Needs wrk, Python 3 and
# /usr/bin/time. Builds nothing. Run it on a quiet machine (about 7.5 minutes with the defaults).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
RUN_DIR=${OUT:-$ROOT/bench/target/crossing/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$RUN_DIR"
source bench/servers.sh
ts_script="" spinners=() halt_poll_file=/sys/module/haltpoll/parameters/guest_halt_poll_ns halt_poll_was=""
trap 'stop_spinners; stop_halt_poll; bench_cleanup; SCRIPT_PID=$ts_script stop_server' EXIT
trap 'exit 130' INT TERM
START_AGE=${START_AGE:-120} SIZE=${SIZE:-10000} DURATION=${DURATION:-10} WARMUP=${WARMUP:-3}
LONG_WARMUP=${LONG_WARMUP:-30} W1=${W1:-10} W16=${W16:-60} CLIENT_WARMUP=${CLIENT_WARMUP:-30}
AZURITE_PHASES=${AZURITE_PHASES-sdk sdk-long}
[ $# -gt 0 ] || set -- sdk lone-sdkkeys lone-wrkkeys sdk codelist sdk-long wrk16 sdk codelist lone-sdkkeys lone-wrkkeys
export SAS=${SAS:-$(python3 bench/wrk/sas.py)} TABLE=bench
client_java=$(command -v java)
source scripts/java.sh
find_jdk # the server's JDK (run-server.sh finds the same): its jcmd reads the server's threads and code
export PATH=$JAVA_HOME/bin:$PATH
exec > >(tee "$RUN_DIR/summary.txt") 2>&1

# the machine's busy and total CPU ticks so far (all cores)
machine_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat; }

# start_spinners / stop_spinners: a busy loop per core at SCHED_IDLE priority, and their end
start_spinners() {
  for _ in $(seq 1 "$(nproc)"); do
    chrt -i 0 bash -c 'while :; do :; done' &
    spinners+=($!)
  done
}
stop_spinners() {
  local p
  for p in "${spinners[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${spinners[@]}"; do wait "$p" 2>/dev/null || true; done
  spinners=()
}

# start_halt_poll / stop_halt_poll: the guest's halt polling set to HALT_POLL_NS, and put back
start_halt_poll() {
  [ -w "$halt_poll_file" ] || { echo "poll: $halt_poll_file is not writable here; the phase runs without"; return 0; }
  halt_poll_was=$(cat "$halt_poll_file")
  echo "${HALT_POLL_NS:-5000000}" >"$halt_poll_file"
}
stop_halt_poll() {
  [ -z "$halt_poll_was" ] || echo "$halt_poll_was" >"$halt_poll_file"
  halt_poll_was=""
}

# sdk <name> <driver options...>: the SDK workload driver in a new JVM, timed by /usr/bin/time
sdk() {
  local name=$1 endpoint=$2
  shift 2
  # the server's threads and timers once the driver's loading is over (its first workload begins)
  ( for _ in $(seq 1 1200); do grep -qE ': (insert|merge) \(' "$RUN_DIR/$name.out.err" 2>/dev/null && break; sleep 0.1; done
    [ "$endpoint" != "$base" ] || { python3 bench/wrk/timers.py snapshot "$base" "$RUN_DIR/$name-loaded-timers.json"
      python3 bench/wrk/threads.py snapshot "$SERVER_PID" "$RUN_DIR/$name-loaded-threads.json"; } ) &
  CLIENT_JAVA="/usr/bin/time -f client-cpu-user-s:%U,sys-s:%S,wall-s:%e ${SDK_JAVA:-$client_java}" \
    run_client "$RUN_DIR/$name.out" io.tablestream.bench.workload.WorkloadDriver --target "$name" \
    --endpoint "$endpoint/devstoreaccount1" --size "$SIZE" --server-pid "$SERVER_PID" --load-threads 4 "$@" || true
  wait
  grep -h -E '^(RESULT|FAILED)' "$RUN_DIR/$name.out" || true
  grep -h -o 'client-cpu.*' "$RUN_DIR/$name.out.err" || true
}

# lone <name> <PartitionKey prefix> <partitions> [<gap ms>]: wrk, one connection, POST inserts of new keys
lone() {
  METHOD=POST GAP_MS=${4:-0} PK_PREFIX=$2 PARTITIONS=$3 wrk -t1 -c1 -d"${W1}s" --latency -s bench/wrk/put.lua "$base" >"$RUN_DIR/$1.out"
  awk '/Requests\/sec/ { r = $2 } $1 == "50%" { p50 = $2 } $1 == "99%" { p99 = $2 } /unexpected/ { bad++ }
       END { printf "wrk one connection: %s/s p50 %s p99 %s, unexpected answers %d\n", r, p50, p99, bad }' "$RUN_DIR/$1.out"
}

# phase <name> <operations counted> <command...>: the command between snapshots; prints its output,
# the server's timers, its CPU by group of threads per counted request, and the machine's load
phase() {
  local name=$1 ops=$2 n m0 m1 busy total c0 c1 t0 t1 j0 j1 v0 v1 s0 s1
  shift 2
  echo "--- $name: from $(( ($(now_ms) - READY_EPOCH_MS) / 1000 )) s after ready (load average $(cut -d' ' -f1 /proc/loadavg))"
  python3 bench/wrk/timers.py snapshot "$base" "$RUN_DIR/$name-timers-before.json"
  python3 bench/wrk/threads.py snapshot "$SERVER_PID" "$RUN_DIR/$name-threads-before.json"
  python3 bench/wrk/disk.py snapshot "$data_dir" "$RUN_DIR/$name-disk-before.json"
  jstat -compiler "$SERVER_PID" | tail -n 1 >"$RUN_DIR/$name-jit-before.txt"
  read -r m0 total <<<"$(machine_ticks)"
  c0=$(cpu_ms "$SERVER_PID") t0=$(now_ms)
  "$@" | sed 's/^/    /'
  c1=$(cpu_ms "$SERVER_PID") t1=$(now_ms)
  read -r busy m1 <<<"$(machine_ticks)"
  python3 bench/wrk/threads.py snapshot "$SERVER_PID" "$RUN_DIR/$name-threads-after.json"
  python3 bench/wrk/timers.py snapshot "$base" "$RUN_DIR/$name-timers-after.json"
  jstat -compiler "$SERVER_PID" | tail -n 1 >"$RUN_DIR/$name-jit-after.txt"
  python3 bench/wrk/disk.py snapshot "$data_dir" "$RUN_DIR/$name-disk-after.json"
  echo "    machine: $(awk -v b="$((busy - m0))" -v t="$((m1 - total))" 'BEGIN { printf "%.2f", 2 * b / t }') of 2 cores busy; the server $(awk -v c="$((c1 - c0))" -v t="$((t1 - t0))" 'BEGIN { printf "%.2f", c / t }') of them, over $(( (t1 - t0) / 1000 )) s"
  echo "    server timers (count, mean, share at or under 0.5/1/2/5 ms):"
  python3 bench/wrk/timers.py diff "$RUN_DIR/$name-timers-before.json" "$RUN_DIR/$name-timers-after.json"
  if [ -f "$RUN_DIR/$name-loaded-timers.json" ]; then # an SDK phase: from the end of its loading on
    echo "    server timers once the driver's table was loaded:"
    python3 bench/wrk/timers.py diff "$RUN_DIR/$name-loaded-timers.json" "$RUN_DIR/$name-timers-after.json"
    cp "$RUN_DIR/$name-loaded-timers.json" "$RUN_DIR/$name-timers-before.json"
    cp "$RUN_DIR/$name-loaded-threads.json" "$RUN_DIR/$name-threads-before.json"
  fi
  # shellcheck disable=SC2086 # the operations are words
  n=$(python3 bench/wrk/timers.py count "$RUN_DIR/$name-timers-before.json" "$RUN_DIR/$name-timers-after.json" $ops)
  if [ "$n" -gt 0 ]; then
    echo "    server CPU, $n requests of $ops:"
    python3 bench/wrk/threads.py diff "$RUN_DIR/$name-threads-before.json" "$RUN_DIR/$name-threads-after.json" "$n" | sed 's/^/    /'
  else
    echo "    server CPU over the phase (µs in all):"
    python3 bench/wrk/threads.py diff "$RUN_DIR/$name-threads-before.json" "$RUN_DIR/$name-threads-after.json" 1 | sed 's/^/    /'
  fi
  if [ -z "$ops" ] || [ -n "${EACH_THREAD:-}" ]; then # what each thread woke up for
    echo "    each thread, over the phase:"
    python3 bench/wrk/threads.py each "$RUN_DIR/$name-threads-before.json" "$RUN_DIR/$name-threads-after.json" \
      "$(awk -v t="$((t1 - t0))" 'BEGIN { print t / 1000 }')" | sed 's/^/    /'
  fi
  read -r j0 _ v0 s0 _ <"$RUN_DIR/$name-jit-before.txt"
  read -r j1 _ v1 s1 _ <"$RUN_DIR/$name-jit-after.txt"
  echo "    JIT: $((j1 - j0)) compilations, $((v1 - v0)) invalidated, $(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.2f", b - a }') s compiling (jstat)"
  echo "    stores and topics (disk.py):"
  python3 bench/wrk/disk.py diff "$RUN_DIR/$name-disk-before.json" "$RUN_DIR/$name-disk-after.json"
}

# merges <name>: wrk, one connection, Merge Entity of the entities of the last table loaded
merges() {
  TABLE=$loaded ENTITIES=$SIZE wrk -t1 -c1 -d"${W1}s" --latency -s bench/wrk/merge.lua "$base" >"$RUN_DIR/$1.out"
  awk '/Requests\/sec/ { r = $2 } $1 == "50%" { p50 = $2 } $1 == "99%" { p99 = $2 } /unexpected/ { bad++ }
       END { printf "wrk one connection: %s/s p50 %s p99 %s, unexpected answers %d\n", r, p50, p99, bad }' "$RUN_DIR/$1.out"
}

echo "crossing: $(git -C "$ROOT" log -1 --format='%h %s' | cut -c1-80); load average $(cut -d' ' -f1-3 /proc/loadavg)"
port=$(free_port)
started=$(now_ms)
start_tablestream "$port" "$RUN_DIR/tablestream.log"
ts_pid=$SERVER_PID ts_ready=$READY_EPOCH_MS base=http://127.0.0.1:$port data_dir=${TEMP_DIRS[-1]} loaded=bench
sdk_opts=(--workloads insert,merge --duration "$DURATION" --warmup "$WARMUP")
long_opts=(--workloads insert --duration "$DURATION" --warmup "$LONG_WARMUP")
sdk_ops="INSERT_ENTITY MERGE_ENTITY GET_ENTITY" # the driver's reads: read-backs and the merges' targets
echo "Tablestream ready in $(( ts_ready - started )) ms (pid $ts_pid)"
if [ -n "$AZURITE_PHASES" ]; then
  sleep 10
  ts_script=$SCRIPT_PID SCRIPT_PID=""
  az_port=$(free_port)
  start_azurite "$az_port" "$RUN_DIR/azurite.log"
  echo "--- azurite (Tablestream idle meanwhile, from $(( ($(now_ms) - ts_ready) / 1000 )) s after its ready)"
  for kind in $AZURITE_PHASES; do
    case $kind in
      sdk) sdk azurite-sdk "http://127.0.0.1:$az_port" "${sdk_opts[@]}" ;;
      sdk-warm) sdk azurite-sdk-warm "http://127.0.0.1:$az_port" "${sdk_opts[@]}" --client-warmup "$CLIENT_WARMUP" ;;
      sdk-long) sdk azurite-sdk-long "http://127.0.0.1:$az_port" "${long_opts[@]}" ;;
      *) echo "unknown Azurite phase $kind" ;;
    esac | sed 's/^/    /'
  done
  stop_server
  SCRIPT_PID=$ts_script
fi
SERVER_PID=$ts_pid READY_EPOCH_MS=$ts_ready
python3 bench/wrk/load.py "$base" bench 1000 >/dev/null
wait_until_age "$START_AGE"
n=0
for kind in "$@"; do
  n=$((n + 1)) name=$n-$kind
  stop_spinners # (a phase that ended early, as profiled without ASYNC_PROFILER, left them on)
  stop_halt_poll
  case $kind in
    spin-*) start_spinners; kind=${kind#spin-} ;;
    poll-*) start_halt_poll; kind=${kind#poll-} ;;
  esac
  case $kind in
    sdk) phase "$name" "$sdk_ops" sdk "$name" "$base" "${sdk_opts[@]}" ;;
    sdk-warm) phase "$name" "$sdk_ops" sdk "$name" "$base" "${sdk_opts[@]}" --client-warmup "$CLIENT_WARMUP" ;;
    sdk-warm:*) name=$n-sdk-warm-${kind#sdk-warm:}
      phase "$name" "$sdk_ops" sdk "$name" "$base" "${sdk_opts[@]}" --workloads "${kind#sdk-warm:}" \
        --client-warmup "$CLIENT_WARMUP" ;;
    sdk-long) phase "$name" "$sdk_ops" sdk "$name" "$base" "${long_opts[@]}" ;;
    lone-sdkkeys) phase "$name" INSERT_ENTITY lone "$name" insert- $((SIZE / 100)) ;;
    lone-wrkkeys) phase "$name" INSERT_ENTITY lone "$name" w 1000 ;;
    gap[0-9]*) phase "$name" INSERT_ENTITY lone "$name" insert- $((SIZE / 100)) "${kind#gap}" ;;
    wrk16) phase "$name" INSERT_OR_REPLACE_ENTITY bench/wrk/cpu-per-op.sh "$SERVER_PID" "$base" put.lua 16 "$W16" ;;
    load)
      loaded=load$n
      phase "$name" BATCH python3 bench/wrk/load.py "$base" "$loaded" "$SIZE" ;;
    merges) phase "$name" MERGE_ENTITY merges "$name" ;;
    idle[0-9]*) phase "$name" "" sleep "${kind#idle}" ;;
    profiled-idle[0-9]*)
      [ -n "${ASYNC_PROFILER:-}" ] || { echo "profiled-idle: skipped (ASYNC_PROFILER unset)"; continue; }
      java bench/wrk/Attach.java "$SERVER_PID" "$ASYNC_PROFILER" "start,event=cpu,interval=1ms,threads" >/dev/null
      phase "$name" "" sleep "${kind#profiled-idle}"
      java bench/wrk/Attach.java "$SERVER_PID" "$ASYNC_PROFILER" "stop,collapsed,file=$RUN_DIR/$name-server-cpu.collapsed" >/dev/null ;;
    codelist) jcmd "$SERVER_PID" Compiler.codelist >"$RUN_DIR/codelist-$n.txt" 2>&1 || true ;;
    profiled)
      [ -n "${ASYNC_PROFILER:-}" ] || { echo "profiled: skipped (ASYNC_PROFILER unset)"; continue; }
      java bench/wrk/Attach.java "$SERVER_PID" "$ASYNC_PROFILER" "start,event=wall,interval=1ms,threads" >/dev/null
      SDK_JAVA="$client_java -agentpath:$ASYNC_PROFILER=start,event=cpu,interval=1ms,threads,collapsed,file=$RUN_DIR/$name-client-cpu.collapsed" \
        phase "$name" "$sdk_ops" sdk "$name" "$base" --workloads insert --duration "$DURATION" --warmup "$WARMUP" \
        --client-warmup "$CLIENT_WARMUP"
      java bench/wrk/Attach.java "$SERVER_PID" "$ASYNC_PROFILER" "stop,collapsed,file=$RUN_DIR/$name-server-wall.collapsed" >/dev/null ;;
    *) echo "unknown phase $kind" ;;
  esac
  stop_spinners
  stop_halt_poll
done
echo "CPU of the server's JIT threads so far: $(python3 - "$SERVER_PID" <<'PY'
import os, sys
pid, hz, c = sys.argv[1], os.sysconf("SC_CLK_TCK"), {}
for t in os.listdir("/proc/%s/task" % pid):
    try:
        name = open("/proc/%s/task/%s/comm" % (pid, t)).read().strip()
        f = open("/proc/%s/task/%s/stat" % (pid, t)).read().rsplit(")", 1)[1].split()
    except OSError:
        continue
    if "Compiler" in name:
        key = name.split()[0]
        c[key] = c.get(key, 0) + (int(f[11]) + int(f[12])) / hz
print(", ".join("%s %.1f s" % kv for kv in sorted(c.items())))
PY
)"
echo "Output and logs: $RUN_DIR"
