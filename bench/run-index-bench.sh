#!/usr/bin/env bash
# Builds Tablestream and runs the secondary-index benchmark (see IndexBenchmark) against a server
# already running at the endpoint (./run-server.sh in another terminal: its data directory grows by
# about 1 GB for a million rows).
# Args: [--endpoint URL] [--entities 1000000] [--lookups 2000] [--write-rate 10000] [--write-seconds 20]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -pl bench -am package -DskipTests
exec java -Xmx1g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.IndexBenchmark "$@"
