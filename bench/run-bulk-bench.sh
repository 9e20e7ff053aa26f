#!/usr/bin/env bash
# Builds Tablestream and runs the bulk-write benchmark (see BulkBenchmark) against a server already
# running at the endpoint (./run-server.sh in another terminal; JAVA_OPTS=-Xmx1g for steady-state
# figures). Give --server-pid for the server's CPU per entity.
# Args: [--endpoint URL] [--entities 100000] [--requests 20] [--concurrency 2] [--warmup 3]
#       [--partition-keys 10000] [--mode replace] [--async false] [--server-pid PID]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -pl bench -am package -DskipTests
exec java -Xmx1g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.BulkBenchmark "$@"
