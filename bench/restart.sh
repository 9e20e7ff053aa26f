#!/usr/bin/env bash
# Restart after kill -9, timed at a table size: a server on a fresh data directory, N entities
# loaded, then rounds of (writes in flight, kill -9, start again, time until every sampled entity
# reads back). Needs only a JDK 17.
#
#   bench/restart.sh [entities] [rounds]      default: 1000000 5
#
# Environment: JAVA_OPTS of the server (default: -Xmx1g -XX:TieredStopAtLevel=1, as run-server.sh),
# PORT (10002), SKIP_BUILD=1 to reuse the existing build, KEEP_DATA=1 to keep the data directory.
set -euo pipefail
cd "$(dirname "$0")/.."
ENTITIES=${1:-1000000}
ROUNDS=${2:-5}
if [ "${SKIP_BUILD:-}" != 1 ]; then
  ./mvnw -q -B -pl server,bench -am package -DskipTests
fi
DATA=$(mktemp -d /tmp/tablestream-restart.XXXXXX)/data
mkdir -p "$DATA"
[ "${KEEP_DATA:-}" = 1 ] || trap 'rm -rf "$(dirname "$DATA")"' EXIT
echo "Data and server logs in $(dirname "$DATA")"
java -Xmx1g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.lean.RestartAfterKill \
  --server-classpath "$PWD/server/target/classes:$(cat server/target/classpath.txt)" \
  --entities "$ENTITIES" --rounds "$ROUNDS" --data "$DATA" --port "${PORT:-10002}" \
  --java-opts "${JAVA_OPTS:--Xmx1g -XX:TieredStopAtLevel=1}"
