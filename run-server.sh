#!/usr/bin/env bash
# Builds Tablestream (skipping tests) and runs one server: the embedded Kafka broker, the stream
# processor and the Table service on http://127.0.0.1:10002/devstoreaccount1. Data lives in ./data.
# Settings: TABLESTREAM_* environment variables or --config file (see: ./run-server.sh --help).
set -euo pipefail
cd "$(dirname "$0")"
./mvnw -q -B -pl server -am package -DskipTests
exec java ${JAVA_OPTS:--Xmx1g} -cp "server/target/classes:$(cat server/target/classpath.txt)" io.tablestream.server.Main "$@"
