#!/usr/bin/env bash
# Point reads (Get Entity) of one or more builds, one after another on a quiet machine, each on a
# fresh server after the same load and warm-up, beside the floor of the HTTP stack:
#
#   bench/wrk/reads.sh <name>=<build copy> ...
#
# A build copy is a directory made by copy-build.sh (its classpath.txt); `<name>=.` copies this work
# tree's build first. For each: a server (`java $JAVA_OPTS ... Main`, new data directory and port),
# ENTITIES loaded (load.py), WARM s of 16 point reads (unmeasured), then with cpu-per-op.sh: point
# reads 16 connections (G16 s) and 1 connection (G1 s), `GET /_health/live` 16 connections (LIVE s);
# with PROFILE=cpu, alloc or 'cpu alloc' (needs ASYNC_PROFILER) a further PROFILE_S s, each event in turn, of 16-connection point reads
# under async-profiler, its collapsed stacks beside the results. With BARE=1, before the builds, the
# floor: `GET /_health/live` answered by a bare Jetty handler and by one Javalin route (BareHttp.java,
# on the first build's classpath), WARM s then LIVE s at 16 connections each.
#
# Environment: ENTITIES (100000), WARM (60), G16 (15), G1 (10), LIVE (10), PROFILE, PROFILE_S (20),
# BARE, JAVA_OPTS (-Xmx1g), OPTS_<name> (more JVM options for that build alone, e.g. a setting:
# OPTS_r8=-Dtablestream.http-reserved-threads=8, so one build copy runs as two), OUT
# (bench/target/reads/<time>). Needs wrk and Python 3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ENTITIES=${ENTITIES:-100000} WARM=${WARM:-60} G16=${G16:-15} G1=${G1:-10} LIVE=${LIVE:-10}
PROFILE=${PROFILE:-} PROFILE_S=${PROFILE_S:-20} BARE=${BARE:-} JAVA_OPTS=${JAVA_OPTS:--Xmx1g}
OUT=${OUT:-$root/bench/target/reads/$(date +%Y%m%d-%H%M%S)}
export SAS=${SAS:-$(python3 "$here/sas.py")} TABLE=${TABLE:-bench} ENTITIES
mkdir -p "$OUT"
source "$root/scripts/ready.sh"

source "$here/server-process.sh"

builds=()
for spec in "$@"; do
  name=${spec%%=*} dir=${spec#*=}
  if [ "$dir" = . ]; then dir=$OUT/lib-$name; "$here/copy-build.sh" "$root" "$dir"; fi
  builds+=("$name=$dir")
done

if [ -n "$BARE" ]; then
  for kind in jetty javalin; do
    port=$((20000 + RANDOM % 10000))
    # shellcheck disable=SC2086
    java $JAVA_OPTS -cp "$(cat "${builds[0]#*=}/classpath.txt")" "$here/BareHttp.java" "$kind" "$port" \
        > "$OUT/bare-$kind.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 300); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.2; done
    wrk -t2 -c16 -d"${WARM}s" -s "$here/live.lua" "http://127.0.0.1:$port" > /dev/null
    echo "bare $kind, /_health/live 16 conns: $("$here/cpu-per-op.sh" "$server_pid" "http://127.0.0.1:$port" live.lua 16 "$LIVE")" \
        | tee -a "$OUT/results.txt"
    stop_server
  done
fi

for spec in "${builds[@]}"; do
  name=${spec%%=*} dir=${spec#*=}
  data=$OUT/data-$name
  rm -rf "$data"
  port=$((20000 + RANDOM % 10000))
  base=http://127.0.0.1:$port
  opts_of_build=OPTS_$name
  # shellcheck disable=SC2086
  java $JAVA_OPTS ${!opts_of_build:-} -Dtablestream.port=$port -Dtablestream.data-dir="$data" -Dtablestream.console=off \
      -cp "$(cat "$dir/classpath.txt")" io.tablestream.server.Main >> "$OUT/$name.log" 2>&1 &
  server_pid=$!
  if ! await_ready 127.0.0.1 "$port" "$server_pid" 180; then
    echo "$name: the server did not get ready (log: $OUT/$name.log)"; stop_server; continue
  fi
  python3 "$here/load.py" "$base" "$TABLE" "$ENTITIES" > /dev/null
  wrk -t2 -c16 -d"${WARM}s" -s "$here/get.lua" "$base" > /dev/null
  g16=$("$here/cpu-per-op.sh" "$server_pid" "$base" get.lua 16 "$G16")
  g1=$("$here/cpu-per-op.sh" "$server_pid" "$base" get.lua 1 "$G1")
  live=$("$here/cpu-per-op.sh" "$server_pid" "$base" live.lua 16 "$LIVE")
  for event in $PROFILE; do
    "$here/profile.sh" "$server_pid" start "$event"
    wrk -t2 -c16 -d"${PROFILE_S}s" -s "$here/get.lua" "$base" > /dev/null
    "$here/profile.sh" "$server_pid" stop "$OUT/$name-$event.collapsed"
  done
  {
    echo "$name ($(cat "$dir/build.txt" | cut -c1-80)${!opts_of_build:+, ${!opts_of_build}}) load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "  point GET 16 conns:  $g16"
    echo "  point GET 1 conn:    $g1"
    echo "  /_health/live 16 conns: $live"
  } | tee -a "$OUT/results.txt"
  stop_server
  rm -rf "$data"
done
echo "results: $OUT/results.txt"
