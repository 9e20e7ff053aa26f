#!/usr/bin/env bash
# Builds Tablestream and runs the processor benchmark on the embedded broker (see ProcessorBenchmark).
# Args: [loneCommands=2000] [batches=2000] [inFlight=64] [commitIntervalMs=10]
# BENCH_OPTS: JVM options, e.g. '-Dbench.awaited=false -Dbench.asyncRounds=2' (the async batches alone, twice:
# the first round warms the JIT up) or '-Dbench.streams.<setting>=<value>' (a Kafka Streams setting).
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -pl bench -am package -DskipTests
exec java -Xmx2g ${BENCH_OPTS:-} -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.ProcessorBenchmark "$@"
