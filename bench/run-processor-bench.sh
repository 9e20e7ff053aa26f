#!/usr/bin/env bash
# Builds Tablestream and runs the processor benchmark on the embedded broker (see ProcessorBenchmark).
# Args: [loneCommands=2000] [batches=2000] [inFlight=64] [commitIntervalMs=10]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -pl bench -am package -DskipTests
exec java -Xmx2g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.ProcessorBenchmark "$@"
