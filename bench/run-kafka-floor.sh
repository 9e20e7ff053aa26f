#!/usr/bin/env bash
# Builds the benchmarks and measures the CPU a single write's trip through Kafka costs at the least
# (the embedded broker and Kafka's clients alone; see KafkaFloor).
# Args: [inFlight=16] [seconds=15] [warmSeconds=20] [stages=ack,read,outputs; also batch, owner, owner-follow]
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${SKIP_BUILD:-}" ] || ./mvnw -q -B -pl bench -am package -DskipTests
exec java -Xmx1g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.KafkaFloor "$@"
