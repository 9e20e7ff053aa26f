#!/usr/bin/env bash
# Builds Tablestream and runs the $count benchmark (see CountBenchmark) against a server already
# running at the endpoint (./run-server.sh in another terminal: a million rows take about 1 GB).
# Args: [--endpoint URL] [--entities 1000000] [--rounds 7] [--table <an earlier run's table>]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -pl bench -am package -DskipTests
exec java -Xmx1g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.CountBenchmark "$@"
