#!/usr/bin/env bash
# Builds Tablestream and runs the jobs benchmark (see JobBenchmark: a restore of N rows into a new
# table, then a deletion by filter of D of them, with point-read latency before and meanwhile)
# against a server already running at the endpoint (./run-server.sh in another terminal: a million
# rows and their copy take about 2 GB of disk).
# Args: [--endpoint URL] [--entities 1000000] [--delete 250000] [--load bulk|batch]
#       [--steps restore,delete] (restore: stop after it; delete: delete from the loaded table itself)
#       [--table <an earlier run's table>]
#       [--server-pid <pid>] (the server's CPU time per entity)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -pl bench -am package -DskipTests
exec java -Xmx1g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.tablestream.bench.JobBenchmark "$@"
