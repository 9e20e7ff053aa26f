#!/usr/bin/env bash
# Builds Tablestream and runs the prefix-query benchmark (see PrefixBenchmark: startswith against the
# equivalent ge/lt range) against a server already running at the endpoint (./run-server.sh in
# another terminal). Give --server-pid for the server's CPU per query.
# Args: [--endpoint URL] [--partition-keys 1000] [--queries 500] [--server-pid PID]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -pl bench -am package -DskipTests
exec java -Xmx1g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.PrefixBenchmark "$@"
