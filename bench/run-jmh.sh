#!/usr/bin/env bash
# Builds Tablestream and runs the JMH microbenchmarks of core's hot paths (bench/src/main/java/
# io/tablestream/bench/jmh): $filter evaluation and parsing, the OData JSON codec (read an entity,
# write an entity and a feed of 100), the store key codec and the stored-entity codec.
# Defaults are short (1 fork, 2 x 1 s warm-up, 3 x 1 s measured: about two minutes in all).
# Arguments go to JMH: a benchmark regex (bench/run-jmh.sh Filter), -f/-wi/-i/-w/-r for longer
# runs, -prof gc for allocation rates, -h for the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -pl bench -am package -DskipTests
exec java -cp "bench/target/classes:$(cat bench/target/classpath.txt)" org.openjdk.jmh.Main "$@"
