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
exec java ${JAVA_OPTS:--Xmx1g -XX:TieredStopAtLevel=1} \
  -cp "server/target/classes:$(cat server/target/classpath.txt)" io.tablestream.server.Main "$@"
