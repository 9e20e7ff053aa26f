#!/usr/bin/env bash
# Tablestream side by side with the Azure emulator (Azurite), through the same workload driver
# (the official Azure Tables SDK for Java) and the same lean raw-HTTP client (LeanLoad: an account
# SAS, many requests in flight, no SDK cost). Needs only a JDK 17, Node 20 and npm.
#
#   bench/compare.sh [sizes...]          default: 100000 1000000
#
# For each size: a fresh in-memory Azurite, the driver and then the lean client against it, Azurite
# stopped; then a fresh Tablestream (new data directory), the same, Tablestream stopped; then a
# table of both, and under it each server's CPU per entity or request (its process's user and system
# CPU over the measured period) beside the cores the driver's JVM used meanwhile. Results and logs go to bench/target/compare/<time>/. The driver exits non-zero on any wrong
# answer; the script then reports FAILED for that run, carries on, and exits non-zero at the end.
#
# Environment (all optional):
#   DURATION=20 WARMUP=5      seconds of measuring / unmeasured warm-up per workload
#   WORKLOADS=all             or e.g. insert,read,full-scan (see the driver's --help)
#   LOAD_THREADS=4            threads loading the table
#   LEAN_WORKLOADS=insert,upsert,merge,batch,read   the lean client's workloads ('none' skips it)
#   LEAN_CONCURRENCY=1,16     requests the lean client keeps in flight (each workload at each)
#   TABLESTREAM_JAVA_OPTS     JVM options of the server (default: run-server.sh's, which starts it)
#   SERVER_AGE=0              seconds after a server reported ready before it is measured (e.g. 60: a
#                             server started a minute before)
#   DRIVER_JAVA_OPTS          JVM options of the driver (default -Xmx1g)
#   CLIENT_WARMUP=30          seconds the driver first warms its own JVM against a stand-in endpoint
#                             inside it (--client-warmup; nothing reaches the server), for both servers
#                             alike: a driver in a new JVM measures mostly its own JIT (docs/performance.md,
#                             "Sequential SDK writes: the driver's JVM, then the gaps between requests"); 0: none
#   AZURITE_NODE_OPTIONS      Node options of Azurite (default --max-old-space-size=8192: it keeps
#                             every entity on its JS heap, and Node's default ceiling is too low
#                             for a million)
#   SKIP_BUILD=1              reuse the existing build
#   SERVER_WARMUP=0           seconds of unmeasured lean writes (single inserts, single merges and
#                             transactions of 100, one in flight, a third of the time each) sent to
#                             each freshly started server before the driver, e.g. 120: a JVM server's
#                             first minutes of writes are mostly its JIT compiling (see
#                             docs/performance.md); 0 measures servers as they start
#   BASELINE=DIR              also measure the Tablestream built in DIR (another checkout, built with
#                             ./mvnw -pl server -am package -DskipTests), shown as a 'before' column
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

DURATION=${DURATION:-20}
WARMUP=${WARMUP:-5}
WORKLOADS=${WORKLOADS:-all}
LOAD_THREADS=${LOAD_THREADS:-4}
LEAN_WORKLOADS=${LEAN_WORKLOADS:-insert,upsert,merge,batch,read}
LEAN_CONCURRENCY=${LEAN_CONCURRENCY:-1,16}
SERVER_WARMUP=${SERVER_WARMUP:-0}
SERVER_AGE=${SERVER_AGE:-0}
DRIVER_JAVA_OPTS=${DRIVER_JAVA_OPTS:--Xmx1g}
CLIENT_WARMUP=${CLIENT_WARMUP:-30}
if [ $# -gt 0 ]; then SIZES=("$@"); else SIZES=(100000 1000000); fi
for s in "${SIZES[@]}"; do
  [[ $s =~ ^[1-9][0-9]*$ ]] || { echo "A size is a positive number of entities, not '$s'" >&2; exit 2; }
done

RUN_DIR=$ROOT/bench/target/compare/$(date +%Y%m%d-%H%M%S)
mkdir -p "$RUN_DIR"
source bench/servers.sh
[ -z "${TABLESTREAM_JAVA_OPTS:-}" ] || export JAVA_OPTS=$TABLESTREAM_JAVA_OPTS
DRIVER_PID=""
FAILURES=()

cleanup() {
  if [ -n "$DRIVER_PID" ]; then kill -TERM "$DRIVER_PID" 2>/dev/null || true; wait "$DRIVER_PID" 2>/dev/null || true; fi
  stop_server
  remove_temp_dirs
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# run_driver <target> <size> <port>: the driver against the server running now; its output in a file.
# (In the background and waited for, so that a signal reaches the traps at once.)
run_driver() {
  local target=$1 size=$2 port=$3 out=$RUN_DIR/$1-$2.out status=0
  echo "--- $target, $size entities (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  # shellcheck disable=SC2086 # the JVM options are words
  java $DRIVER_JAVA_OPTS -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
      io.tablestream.bench.workload.WorkloadDriver --target "$target" \
      --endpoint "http://127.0.0.1:$port/devstoreaccount1" --size "$size" --server-pid "$SERVER_PID" \
      --duration "$DURATION" --warmup "$WARMUP" --workloads "$WORKLOADS" --load-threads "$LOAD_THREADS" \
      --client-warmup "$CLIENT_WARMUP" > >(tee "$out") 2>&1 &
  DRIVER_PID=$!
  wait "$DRIVER_PID" || status=$?
  DRIVER_PID=""
  if [ "$status" -ne 0 ]; then
    FAILURES+=("$target at $size entities (driver exit $status; see $out)")
  fi
}

# run_lean <target> <size> <port>: the lean client against the server running now (a table of its own).
run_lean() {
  local target=$1 size=$2 port=$3 out=$RUN_DIR/$1-$2-lean.out status=0
  [ "$LEAN_WORKLOADS" != none ] || return 0
  echo "--- $target, lean client (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  # shellcheck disable=SC2086 # the JVM options are words
  java $DRIVER_JAVA_OPTS -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
      io.tablestream.bench.lean.LeanLoad --target "$target" --endpoint "http://127.0.0.1:$port/devstoreaccount1" \
      --workloads "$LEAN_WORKLOADS" --concurrency "$LEAN_CONCURRENCY" --duration "$DURATION" --warmup "$WARMUP" \
      --server-pid "$SERVER_PID" \
      > >(tee "$out") 2>&1 &
  DRIVER_PID=$!
  wait "$DRIVER_PID" || status=$?
  DRIVER_PID=""
  if [ "$status" -ne 0 ]; then
    FAILURES+=("$target lean client (exit $status; see $out)")
  fi
}

# warm_up <target> <port>: SERVER_WARMUP seconds of lean writes, not measured (output kept).
warm_up() {
  local target=$1 port=$2 third
  [ "$SERVER_WARMUP" -gt 0 ] || return 0
  third=$(( (SERVER_WARMUP + 2) / 3 ))
  echo "--- $target, warming up: ${SERVER_WARMUP} s of lean writes (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  # shellcheck disable=SC2086 # the JVM options are words
  java $DRIVER_JAVA_OPTS -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
      io.tablestream.bench.lean.LeanLoad --target "$target" --endpoint "http://127.0.0.1:$port/devstoreaccount1" \
      --workloads insert,merge,batch --concurrency 1 --duration "$third" --warmup 0 \
      >"$RUN_DIR/$target-warmup.out" 2>&1 &
  DRIVER_PID=$!
  wait "$DRIVER_PID" || FAILURES+=("$target warm-up (see $RUN_DIR/$target-warmup.out)")
  DRIVER_PID=""
}

# table <size>: the targets' RESULT and MEMORY lines side by side.
table() {
  local size=$1 files=() t
  for t in azurite baseline tablestream; do
    for f in "$RUN_DIR/$t-$size.out" "$RUN_DIR/$t-$size-lean.out"; do [ -f "$f" ] && files+=("$f"); done
  done
  awk -v size="$size" -v before="${BASELINE:+1}" '
    FNR == 1 { target = (FILENAME ~ /\/azurite-[0-9]+(-lean)?\.out$/) ? "a" \
                      : (FILENAME ~ /\/baseline-[0-9]+(-lean)?\.out$/) ? "b" : "t" }
    $1 == "RESULT" {
      w = ($3 == "lean") ? "lean " $4 : $4
      if (!(w in seen)) { seen[w] = 1; order[++n] = w; unit[w] = $8 }
      rate[target, w] = $5; lat[target, w] = sprintf("%.1f/%.1f", $6, $7)
      if ($3 != "lean" && NF >= 12) { if ($11 >= 0) scpu[target, w] = $11; dcores[target, w] = $12 }
    }
    $1 == "CPU" && $3 == "lean" { scpu[target, "lean " $4] = $8 }
    $1 == "MEMORY" && $5 != "n/a" { mem[target, $4] = $5; hwm[target, $4] = $6 }
    $1 == "FAILED" { failed[target] = 1 }
    function cell(t, w) {
      if ((t, w) in rate) return sprintf("%10.1f  %-13s", rate[t, w], lat[t, w])
      return sprintf("%10s  %-13s", (t in failed) ? "FAILED" : "-", "")
    }
    function cpucell(t, w) {
      return sprintf("%10s  %-13s", ((t, w) in scpu) ? sprintf("%.0f", scpu[t, w]) : "-", \
        ((t, w) in dcores) ? sprintf("%.2f", dcores[t, w]) : "")
    }
    function ratio(x, y) { return (x > 0 && y > 0) ? sprintf("%8.2fx", y / x) : sprintf("%9s", "-") }
    END {
      printf "\n== %s entities ==  rate (p50/p99 ms); ratio = Tablestream / Azurite\n", size
      printf "%-22s %-11s %10s  %-13s ", "workload", "unit", "Azurite", ""
      if (before) printf "%10s  %-13s ", "before", ""
      printf "%10s  %-13s %9s\n", "Tablestream", "", "ratio"
      for (i = 1; i <= n; i++) {
        w = order[i]
        printf "%-22s %-11s %s ", w, unit[w], cell("a", w)
        if (before) printf "%s ", cell("b", w)
        printf "%s %s\n", cell("t", w), ratio(rate["a", w], rate["t", w])
      }
      printf "%-22s %-11s %10s  %-13s ", "CPU per unit", "", "Azurite", "driver"
      if (before) printf "%10s  %-13s ", "before", "driver"
      printf "%10s  %-13s\n", "Tablestream", "driver"
      for (i = 1; i <= n; i++) {
        w = order[i]
        printf "%-22s %-11s %s ", w, "us, cores", cpucell("a", w)
        if (before) printf "%s ", cpucell("b", w)
        printf "%s\n", cpucell("t", w)
      }
      split("after-load end", phases, " ")
      for (i = 1; i <= 2; i++) {
        p = phases[i]
        printf "%-22s %-11s %10s  %-13s ", "RSS " p, "MiB", \
          ((("a", p) in mem) ? mem["a", p] : "-"), ((("a", p) in hwm) ? "(peak " hwm["a", p] ")" : "")
        if (before) printf "%10s  %-13s ", ((("b", p) in mem) ? mem["b", p] : "-"), \
          ((("b", p) in hwm) ? "(peak " hwm["b", p] ")" : "")
        printf "%10s  %-13s %s\n", ((("t", p) in mem) ? mem["t", p] : "-"), \
          ((("t", p) in hwm) ? "(peak " hwm["t", p] ")" : ""), ratio(mem["a", p], mem["t", p])
      }
    }' "${files[@]}"
}

if [ "${SKIP_BUILD:-}" != 1 ]; then
  echo "Building Tablestream and the driver..."
  build_tablestream
fi
install_azurite
prepare_tablestream
[ -z "${BASELINE:-}" ] || prepare_tablestream "$BASELINE"

{
  echo "Tablestream vs Azurite $AZURITE_VERSION, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo);" \
       "the drivers' $(java -version 2>&1 | head -n 1); node $(node --version)"
  echo "per workload: ${WARMUP} s warm-up, ${DURATION} s measured; workloads: $WORKLOADS; server, Azurite and" \
       "driver share the machine; server warm-up before the driver: ${SERVER_WARMUP} s; measured from" \
       "${SERVER_AGE} s after ready; Tablestream as run-server.sh starts it${TABLESTREAM_JAVA_OPTS:+, JAVA_OPTS=$TABLESTREAM_JAVA_OPTS}"
} | tee "$RUN_DIR/summary.txt"

for size in "${SIZES[@]}"; do
  port=$(free_port)
  start_azurite "$port" "$RUN_DIR/azurite-$size.log"
  warm_up azurite "$port"
  wait_until_age "$SERVER_AGE"
  run_driver azurite "$size" "$port"
  run_lean azurite "$size" "$port"
  stop_server

  if [ -n "${BASELINE:-}" ]; then
    port=$(free_port)
    start_tablestream "$port" "$RUN_DIR/baseline-$size.log" "$BASELINE"
    warm_up baseline "$port"
    wait_until_age "$SERVER_AGE"
    run_driver baseline "$size" "$port"
    run_lean baseline "$size" "$port"
    stop_server
  fi

  port=$(free_port)
  start_tablestream "$port" "$RUN_DIR/tablestream-$size.log"
  warm_up tablestream "$port"
  wait_until_age "$SERVER_AGE"
  run_driver tablestream "$size" "$port"
  run_lean tablestream "$size" "$port"
  stop_server

  table "$size" | tee -a "$RUN_DIR/summary.txt"
done

echo
echo "Results, driver output and server logs: $RUN_DIR"
if [ ${#FAILURES[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${FAILURES[@]}" | tee -a "$RUN_DIR/summary.txt"
  exit 1
fi
