#!/usr/bin/env bash
# Builds Tablestream and runs the cross-partition transaction benchmark (see TransactionBenchmark)
# against a server already running at the endpoint (./run-server.sh in another terminal).
# Args: [--endpoint URL] [--transactions 300] [--parts 10]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -pl bench -am package -DskipTests
exec java -Xmx512m -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.TransactionBenchmark "$@"
