#!/usr/bin/env bash
# Builds Tablestream (skipping tests) when its sources changed since the last build, and runs one
# server: the embedded Kafka broker, the stream processor and the Table service on
# http://127.0.0.1:10002/devstoreaccount1. Data lives in ./data.
# Settings: TABLESTREAM_* environment variables or --config file (see: ./run-server.sh --help).
# JAVA_OPTS replaces the JVM options (default: -Xmx1g -XX:TieredStopAtLevel=1, the C1 compiler only:
# half the CPU to get ready; use -Xmx1g alone for benchmarks, where C2's code is faster).
set -euo pipefail
cd "$(dirname "$0")"
stamp=server/target/run-server.built
log=server/target/run-server-build.log
if [ ! -f "$stamp" ] || [ ! -f server/target/classpath.txt ] \
    || [ -n "$(find . -path ./data -prune -o -path '*/target' -prune -o -path '*/node_modules' -prune -o \
                 \( -name '*.java' -o -name 'pom.xml' -o -name '*.avsc' -o -path '*/src/main/resources/*' \) \
                 -newer "$stamp" -print -quit)" ]; then
  mkdir -p server/target
  if [ -f "$stamp" ]; then
    echo "Sources changed since the last build: rebuilding Tablestream..."
  else
    echo "Building Tablestream (the first build downloads Maven and the dependencies: a few minutes)..."
  fi
  # Maven's own output goes to $log; the screen gets one line per module and a count of downloads.
  set +e
  ./mvnw -B -pl server -am package -DskipTests 2>&1 | tee "$log" | awk '
    /Downloaded from/ { n++; if (n % 50 == 0) { printf "  %d artifacts downloaded\n", n; fflush() } }
    /\] Building / && !/Building jar/ { sub(/.*\] /, "  "); print; fflush() }
    /BUILD (SUCCESS|FAILURE)/ { sub(/.*\] /, "  "); print; fflush() }'
  status=${PIPESTATUS[0]}
  set -e
  if [ "$status" -ne 0 ]; then
    echo "The build failed; its last lines (all of it: $log):"
    grep -E "ERROR|FAIL" "$log" | tail -20
    exit "$status"
  fi
  touch "$stamp"
fi
for arg in "$@"; do
  case "$arg" in --help | -h) exec java -cp "server/target/classes:$(cat server/target/classpath.txt)" \
    io.tablestream.server.Main --help ;; esac
done

# Where the instance will listen, to ask it whether it is ready: a -Dtablestream.* option, else the
# TABLESTREAM_* variable, else the --config file, else the default (the server's own order).
setting() {
  local name=$1 variable=$2 default=$3 value="" file="" previous=""
  value=$(printf '%s\n' ${JAVA_OPTS:-} | sed -n "s/^-Dtablestream\.$name=//p" | tail -n 1)
  [ -z "$value" ] && value=${!variable:-}
  if [ -z "$value" ]; then
    for arg in "$@"; do [ "$previous" = --config ] && file=$arg; previous=$arg; done
    [ -n "$file" ] && [ -f "$file" ] && value=$(sed -n "s/^[[:space:]]*$name[[:space:]]*[=:][[:space:]]*//p" "$file" | tail -n 1)
  fi
  echo "${value:-$default}"
}
source scripts/ready.sh
host=$(reach_host "$(setting host TABLESTREAM_HOST 127.0.0.1 "$@")")
port=$(setting port TABLESTREAM_PORT 10002 "$@")
READY_SCHEME=http
[ -n "$(setting tls-cert-file TABLESTREAM_TLS_CERT_FILE "" "$@")" ] && READY_SCHEME=https

java ${JAVA_OPTS:--Xmx1g -XX:TieredStopAtLevel=1} \
  -cp "server/target/classes:$(cat server/target/classpath.txt)" io.tablestream.server.Main "$@" &
pid=$!
# Ctrl-C and SIGTERM stop the server cleanly (its shutdown hook); the script ends with it.
trap 'kill -TERM "$pid" 2>/dev/null || true' INT TERM
if await_ready "$host" "$port" "$pid" 600; then
  echo "Tablestream is ready: $READY_SCHEME://$host:$port/devstoreaccount1 (GET /_health/ready answered 200; pid $pid)"
elif kill -0 "$pid" 2>/dev/null; then
  echo "Tablestream did not report ready on $READY_SCHEME://$host:$port/_health/ready within 600 s" >&2
fi
while kill -0 "$pid" 2>/dev/null; do wait "$pid" || true; done
wait "$pid" && status=0 || status=$?
exit "$status"
