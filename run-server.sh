#!/usr/bin/env bash
# Builds Tablestream (skipping tests) when its sources changed since the last build, and runs one
# server: the embedded Kafka broker, the stream processor and the Table service on
# http://127.0.0.1:10002/devstoreaccount1. Data lives in ./data.
# Settings: TABLESTREAM_* environment variables or --config file (see: ./run-server.sh --help).
# The JDK: the newest JDK 25 or later found, else a JDK 17 (scripts/java.sh; TABLESTREAM_JAVA_HOME
# picks one). JAVA_OPTS replaces the JVM options (default: scripts/java.sh's, -Xmx1g and G1's marking
# threshold). On a JDK 25 the server starts with the JVM's ahead-of-time cache, made by a training run
# after each build (scripts/aot-cache.sh; TABLESTREAM_AOT=off: none). --prepare builds and makes the cache, then exits.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/java.sh
find_jdk
source scripts/build.sh
build_if_changed
# The server's own jar (not target/classes: an ahead-of-time cache takes classes from jars only).
classpath="$(ls server/target/server-*.jar | head -n 1):$(cat server/target/classpath.txt)"
source scripts/ready.sh
source scripts/aot-cache.sh
options=${JAVA_OPTS:-$(default_java_opts)}
for arg in "$@"; do
  case "$arg" in
    --help | -h) exec "$JAVA_HOME/bin/java" -cp "$classpath" io.tablestream.server.Main --help ;;
    --prepare)
      aot_cache_option "$classpath" "$options" >/dev/null
      echo "Tablestream is built$(aot_wanted && [ -s "$(aot_cache_file "$classpath" "$options")" ] \
        && echo " and its AOT cache made") (JDK $JAVA_FEATURE at $JAVA_HOME; JVM options: $options)"
      exit 0 ;;
  esac
done
# ./run-server.sh repartition --partitions M: grows the stopped deployment (docs/operations.md), then ends.
if [ "${1:-}" = repartition ]; then
  exec "$JAVA_HOME/bin/java" $options -cp "$classpath" io.tablestream.server.Main "$@"
fi
aot=$(aot_cache_option "$classpath" "$options")

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
host=$(reach_host "$(setting host TABLESTREAM_HOST 127.0.0.1 "$@")")
port=$(setting port TABLESTREAM_PORT 10002 "$@")
READY_SCHEME=http
[ -n "$(setting tls-cert-file TABLESTREAM_TLS_CERT_FILE "" "$@")" ] && READY_SCHEME=https

# shellcheck disable=SC2086 # the JVM options are words
"$JAVA_HOME/bin/java" $options $aot -cp "$classpath" io.tablestream.server.Main "$@" &
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
