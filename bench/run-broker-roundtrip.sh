#!/usr/bin/env bash
# Builds the benchmarks and measures the embedded broker's round trips alone (see BrokerRoundTrip).
# Args: [records=40000]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -pl bench -am package -DskipTests
exec java -Xmx1g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.BrokerRoundTrip "$@"
