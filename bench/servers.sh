# Sourced by the side-by-side benchmarks (compare.sh, capacity.sh, warmup.sh): starting and stopping
# the servers they measure, Azurite and Tablestream, and the tools they run. Expects ROOT (the
# checkout) and RUN_DIR (where logs go) to be set; sets SERVER_PID to the server's process (the one
# whose CPU time and memory are measured).

AZURITE_VERSION=3.35.0 # 3.37 needs Node >= 22
AZURITE_DIR=$ROOT/bench/.azurite
AZURITE_NODE_OPTIONS=${AZURITE_NODE_OPTIONS:---max-old-space-size=8192}
SERVER_PID=""
SCRIPT_PID=""
READY_EPOCH_MS=""
TEMP_DIRS=()

CLIENT_PID=""

# bench_cleanup: stops a client still running and the server, removes the data directories (the
# scripts' EXIT trap).
bench_cleanup() {
  if [ -n "$CLIENT_PID" ]; then kill -TERM "$CLIENT_PID" 2>/dev/null || true; wait "$CLIENT_PID" 2>/dev/null || true; fi
  stop_server
  remove_temp_dirs
}

# run_client <output> <class> <arguments...>: a bench tool (CLIENT_JAVA, default java), in the
# background and waited for, so that a signal reaches the traps at once; its stderr in <output>.err.
# Returns the tool's status, with the end of its output on a failure.
run_client() {
  local out=$1 status=0
  shift
  ${CLIENT_JAVA:-java} -Xmx1g -cp "$(bench_classpath)" "$@" >"$out" 2>"$out.err" &
  CLIENT_PID=$!
  wait "$CLIENT_PID" || status=$?
  CLIENT_PID=""
  if [ "$status" -ne 0 ]; then
    echo "FAILED: $1 (exit $status); the end of $out and $out.err:" >&2
    tail -n 5 "$out" "$out.err" >&2
  fi
  return "$status"
}

# bench_classpath: the classpath of the bench tools (LeanLoad, WorkloadDriver, KafkaNativeIngest).
bench_classpath() {
  echo "$ROOT/bench/target/classes:$(cat "$ROOT/bench/target/classpath.txt")"
}

install_azurite() {
  local installed
  installed=$(node -p "try { require('$AZURITE_DIR/node_modules/azurite/package.json').version } catch (e) { '' }")
  if [ "$installed" != "$AZURITE_VERSION" ]; then
    echo "Installing Azurite $AZURITE_VERSION into $AZURITE_DIR..."
    mkdir -p "$AZURITE_DIR"
    npm install --prefix "$AZURITE_DIR" --no-audit --no-fund --loglevel=error "azurite@$AZURITE_VERSION"
  fi
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

now_ms() {
  date +%s%3N
}

# stop_server: SIGTERM to the server (or to the run-server.sh that runs it), SIGKILL after 30 s.
stop_server() {
  local pid=${SCRIPT_PID:-$SERVER_PID}
  SERVER_PID=""
  SCRIPT_PID=""
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    sleep 0.5
  done
  echo "process $pid did not stop within 30 s: killing it" >&2
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

remove_temp_dirs() {
  for d in "${TEMP_DIRS[@]}"; do rm -rf "$d"; done
  TEMP_DIRS=()
}

# wait_for_port <port> <what> <log>: until something accepts connections there, or the server died.
wait_for_port() {
  local port=$1 what=$2 log=$3
  for _ in $(seq 1 600); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "$what exited before serving; its log ($log):" >&2
      tail -n 30 "$log" >&2
      return 1
    fi
    sleep 0.5
  done
  echo "$what did not open port $port within 300 s; see $log" >&2
  return 1
}

# start_azurite <port> <log>: a fresh in-memory Azurite; READY_EPOCH_MS when it accepts connections.
start_azurite() {
  local port=$1 log=$2
  (cd "$RUN_DIR" && NODE_OPTIONS="$AZURITE_NODE_OPTIONS" exec "$AZURITE_DIR/node_modules/.bin/azurite-table" \
      --inMemoryPersistence --loose --skipApiVersionCheck --silent --disableTelemetry \
      --tableHost 127.0.0.1 --tablePort "$port") >"$log" 2>&1 &
  SERVER_PID=$!
  wait_for_port "$port" Azurite "$log"
  READY_EPOCH_MS=$(now_ms)
}

# start_tablestream <port> <log> [<checkout>]: Tablestream exactly as <checkout>/run-server.sh
# (default: this one) starts it, its JDK and JVM options included (JAVA_OPTS, when set, replaces
# them, as for run-server.sh), on a fresh data directory; returns once it reports ready, with
# SERVER_PID its Java process and READY_EPOCH_MS the time it was ready.
start_tablestream() {
  local port=$1 log=$2 root=${3:-$ROOT} data
  data=$(mktemp -d "${TMPDIR:-/tmp}/tablestream-bench.XXXXXX")
  TEMP_DIRS+=("$data")
  (export TABLESTREAM_PORT=$port TABLESTREAM_DATA_DIR=$data
   exec "$root/run-server.sh") >"$log" 2>&1 &
  SCRIPT_PID=$!
  for _ in $(seq 1 3000); do
    if grep -q "^Tablestream is ready" "$log" 2>/dev/null; then
      READY_EPOCH_MS=$(now_ms)
      SERVER_PID=$(sed -n 's/^Tablestream is ready.*; pid \([0-9]*\))$/\1/p' "$log" | head -n 1)
      [ -n "$SERVER_PID" ] && return 0
      # an older run-server.sh does not print its server's pid: its only child is the server
      SERVER_PID=$(pgrep -P "$SCRIPT_PID" java | head -n 1)
      return 0
    fi
    if ! kill -0 "$SCRIPT_PID" 2>/dev/null; then
      echo "Tablestream exited before it was ready; its log ($log):" >&2
      tail -n 30 "$log" >&2
      return 1
    fi
    sleep 0.2
  done
  echo "Tablestream was not ready within 600 s; see $log" >&2
  return 1
}

# wait_until_age <seconds>: until the server has been ready that long (no-op if it has).
wait_until_age() {
  local left
  left=$(( READY_EPOCH_MS + $1 * 1000 - $(now_ms) ))
  [ "$left" -le 0 ] || sleep "$(awk -v ms="$left" 'BEGIN { printf "%.3f", ms / 1000 }')"
}

# cpu_ms <pid>: the process's user+system CPU time so far, in milliseconds.
cpu_ms() {
  awk '{ sub(/.*\) /, ""); print ($12 + $13) * 10 }' "/proc/$1/stat"
}

# build_tablestream: the server and the bench tools (run-server.sh then finds its build up to date).
build_tablestream() {
  (cd "$ROOT" && ./mvnw -q -B -pl bench,server -am package -DskipTests && touch server/target/run-server.built)
}

# prepare_tablestream [<checkout>]: what run-server.sh does before it starts a server (a build if a
# source changed, the JVM's ahead-of-time cache if it is missing), so that none of it is timed.
prepare_tablestream() {
  local root=${1:-$ROOT}
  if grep -q -- '--prepare' "$root/run-server.sh"; then
    "$root/run-server.sh" --prepare
  fi
}
