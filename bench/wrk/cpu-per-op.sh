#!/usr/bin/env bash
# The server's CPU per request, measured with wrk (no SDK, no per-request signing: an account SAS
# in the query string), against a running Table endpoint:
#
#   bench/wrk/cpu-per-op.sh <server pid> <base url> <script: put.lua|get.lua> <connections> <seconds>
#
# put.lua: Insert Or Replace Entity of a new key per request (1,000 PartitionKeys), 204 expected.
# get.lua: Get Entity of a random one of ENTITIES (default 100,000) loaded by load.py, 200 expected.
# Prints the rate, p50/p99, the requests, and the server process's user+system CPU over the run
# (from /proc/<pid>/stat; for Tablestream that includes its embedded broker) per request.
# Environment: TABLE (bench), SAS (made by sas.py for the emulator account when unset).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pid=$1 base=$2 script=$3 conns=$4 seconds=$5
export SAS=${SAS:-$(python3 "$here/sas.py")} TABLE=${TABLE:-bench}
threads=2; [ "$conns" -lt 2 ] && threads=1
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
before=$(cpu)
out=$(wrk -t"$threads" -c"$conns" -d"${seconds}s" --latency -s "$here/$script" "$base")
after=$(cpu)
requests=$(awk '/requests in/ {print $1}' <<<"$out")
unexpected=$(grep -c unexpected <<<"$out" || true)
awk -v r="$requests" -v b="$before" -v a="$after" -v hz="$(getconf CLK_TCK)" -v bad="$unexpected" \
    -v rate="$(awk '/Requests\/sec/ {print $2}' <<<"$out")" \
    -v p50="$(awk '$1 == "50%" {print $2}' <<<"$out")" -v p99="$(awk '$1 == "99%" {print $2}' <<<"$out")" \
    'BEGIN { printf "%s/s p50 %s p99 %s, %d requests, server CPU %.0f us per request, unexpected answers %d\n",
             rate, p50, p99, r, 1e6 * (a - b) / hz / r, bad }'
