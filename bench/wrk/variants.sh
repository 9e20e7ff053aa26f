#!/usr/bin/env bash
# One build, several variants of its settings, each on a fresh server after the same warm-up, so that
# options are compared within one quiet window without rebuilding between them:
#
#   bench/wrk/variants.sh <name>[:<setting>=<value>[,<setting>=<value>...]] ...
#
# Two pairs are not server settings: `jdk=<java home>` runs that variant's server on another JDK, and
# `jvm=<option>` (repeatable) adds one JVM option to JAVA_OPTS for that variant, e.g.
# 'jdk25:jdk=/usr/lib/jvm/temurin-25-jdk-amd64,jvm=-XX:CICompilerCount=3'.
#
# The variant named `azurite` is the emulator instead (Azurite 3.35 in memory, installed from npm
# into bench/.azurite as compare.sh does; AZURITE_DIR picks another installation), measured the same
# way, so that every run has its side-by-side figures.
#
# e.g.  bench/wrk/variants.sh base 'linger1:ingest.linger.ms=1' 'threads1:stream-threads=1,responder-threads=2'
#
# A setting is any server setting or pass-through (kafka.*, streams.*, ingest.*, broker.*), given to
# the server as -Dtablestream.<setting>=<value>. For each variant: a new data directory and port, the
# server started with `java $JAVA_OPTS` (default -Xmx1g, C1 and C2) from a copy of the build taken when
# the script starts, ENTITIES loaded (load.py), WARM_WRITES s of 16 writes in flight and WARM_READS s of
# 16 point reads (unmeasured), then measured with cpu-per-op.sh: writes 16 in flight (W16 s), writes
# one in flight (W1 s), point reads 16 connections (G16 s). Then the server is stopped and its data
# deleted. One line per variant and measure: rate, p50, p99, server CPU per request; for the 16
# writers also the commands the command log sent per write and the CPU by group of threads
# (threads.py: HTTP, responders, stream threads, producers, broker, GC, JIT) per write.
#
# Two more measures, each when asked for: FEED=<seconds> the change feed's latency (feed-latency.py:
# from a write's answer to its change in a long-polling reader's answer), alone and beside 16 writers;
# CRASH=1 a kill -9 of the server with 16 writes in flight, then the same server started again on
# its data: seconds to ready and to having replayed the commands answered but not yet committed
# (caught-up.py); IDLE=<seconds> the server's CPU at rest after the measures (no request at all), in
# ms of CPU per second, by group of threads too, and the server's threads' wake-ups a second (their
# voluntary context switches; each thread's in <variant>-idle-threads.txt, threads.py each);
# WGAP=<seconds> writes one in flight with GAP ms (20) between an answer and the next request: a
# low-rate client, where the server's cost per second at rest is part of every write's CPU.
# A measure given 0 seconds (W16=0, ...) is skipped.
#
# Environment: ENTITIES (100000), WARM_WRITES (120), WARM_READS (20), W16 (20), W1 (10), G16 (10),
# JAVA_OPTS (-Xmx1g), BUILD (a build copy made by copy-build.sh; unset: this work tree's), PROFILE_ALL (empty; cpu or alloc: async-profiler over the 16-writer measure of
# every variant, its collapsed stacks beside the results; a variant's own profile=cpu|alloc does it
# for that variant alone; needs ASYNC_PROFILER, the path of libasyncProfiler.so; PROFILE_READS=1
# profiles the point-read measure too, into <variant>-reads-<event>.collapsed),
# OUT (bench/target/variants/<time>). Needs wrk and Python 3. Run it under a quiet machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ENTITIES=${ENTITIES:-100000} WARM_WRITES=${WARM_WRITES:-120} WARM_READS=${WARM_READS:-20}
W16=${W16:-20} W1=${W1:-10} G16=${G16:-10} FEED=${FEED:-0} CRASH=${CRASH:-} IDLE=${IDLE:-0}
WGAP=${WGAP:-0} GAP=${GAP:-20}
JAVA_OPTS=${JAVA_OPTS:--Xmx1g}
OUT=${OUT:-$root/bench/target/variants/$(date +%Y%m%d-%H%M%S)}
# the account SAS and table that put.lua and get.lua read (cpu-per-op.sh makes the same when unset)
export SAS=${SAS:-$(python3 "$here/sas.py")} TABLE=${TABLE:-bench}
mkdir -p "$OUT/lib"
source "$root/scripts/ready.sh"

# A copy of the build as it is now: rebuilding meanwhile changes no variant. BUILD names a copy made
# earlier by copy-build.sh instead (another build, e.g. main's, run with the same script).
if [ -n "${BUILD:-}" ]; then
  cp_line=$(cat "$BUILD/classpath.txt")
  cp "$BUILD/build.txt" "$OUT/build.txt"
else
  "$here/copy-build.sh" "$root" "$OUT/lib"
  cp_line=$(cat "$OUT/lib/classpath.txt")
  cp "$OUT/lib/build.txt" "$OUT/build.txt"
fi

source "$here/server-process.sh"

# Commands the instance's command log has sent so far (its producer's record-send-total, from /_metrics).
commands_sent() {
  python3 - "$1/_metrics" <<'PY'
import sys, urllib.request
total = 0.0
for line in urllib.request.urlopen(sys.argv[1]).read().decode().splitlines():
    if line.startswith("kafka_producer_record_send_total{") and "tablestream-ingest-" in line:
        total += float(line.rsplit(" ", 1)[1])
print(int(total))
PY
  [ $? -eq 0 ] || echo 0
}

profile() { # start|stop <file>
  [ -n "${PROFILE:-}" ] || return 0
  if [ "$1" = start ]; then "$here/profile.sh" "$server_pid" start "$PROFILE"; else "$here/profile.sh" "$server_pid" stop "$2"; fi
}

# The variant's server on its port and data directory, its output appended to $1.
start_tablestream() {
  # shellcheck disable=SC2086
  "${java_home:+$java_home/bin/}java" $JAVA_OPTS "${jvm_opts[@]}" -Dtablestream.port=$port -Dtablestream.data-dir="$data" -Dtablestream.console=off \
      "${props[@]}" -cp "$cp_line" io.tablestream.server.Main >> "$1" 2>&1 &
  server_pid=$!
}

# A measure of wrk with cpu-per-op.sh, or "skipped" when its seconds are 0.
measure() { # <script> <connections> <seconds>
  if [ "$3" -gt 0 ]; then "$here/cpu-per-op.sh" "$server_pid" "$base" "$@"; else echo skipped; fi
}

azurite_dir=${AZURITE_DIR:-$root/bench/.azurite}
start_azurite() { # <port> <log>
  if [ ! -x "$azurite_dir/node_modules/.bin/azurite-table" ]; then
    mkdir -p "$azurite_dir"
    npm install --prefix "$azurite_dir" --no-audit --no-fund --loglevel=error azurite@3.35.0 >&2
  fi
  NODE_OPTIONS=--max-old-space-size=8192 "$azurite_dir/node_modules/.bin/azurite-table" --inMemoryPersistence \
      --loose --skipApiVersionCheck --silent --disableTelemetry --tableHost 127.0.0.1 --tablePort "$1" > "$2" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 300); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    kill -0 "$server_pid" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}

for spec in "$@"; do
  name=${spec%%:*}
  settings=""; [ "$spec" != "$name" ] && settings=${spec#*:}
  props=() jvm_opts=() java_home=""
  IFS=',' read -r -a pairs <<< "$settings"
  PROFILE=${PROFILE_ALL:-}
  for pair in "${pairs[@]}"; do
    case $pair in
      '') ;;
      profile=*) PROFILE=${pair#profile=} ;;
      jdk=*) java_home=${pair#jdk=} ;;
      jvm=*) jvm_opts+=("${pair#jvm=}") ;;
      *) props+=("-Dtablestream.$pair") ;;
    esac
  done
  data=$OUT/data-$name
  rm -rf "$data"
  port=$((20000 + RANDOM % 10000))
  base=http://127.0.0.1:$port
  if [ "$name" = azurite ]; then
    start_azurite "$port" "$OUT/$name.log" || { echo "azurite: did not start (log: $OUT/$name.log)"; stop_server; continue; }
  else
    start_tablestream "$OUT/$name.log"
  fi
  if [ "$name" != azurite ] && ! await_ready 127.0.0.1 "$port" "$server_pid" 180; then
    echo "$name: the server did not get ready (log: $OUT/$name.log)"; stop_server; continue
  fi
  python3 "$here/load.py" "$base" bench "$ENTITIES" > /dev/null
  [ "$WARM_WRITES" -eq 0 ] || wrk -t2 -c16 -d"${WARM_WRITES}s" -s "$here/put.lua" "$base" > /dev/null
  [ "$WARM_READS" -eq 0 ] || ENTITIES=$ENTITIES wrk -t2 -c16 -d"${WARM_READS}s" -s "$here/get.lua" "$base" > /dev/null
  profile start
  sent_before=$(commands_sent "$base" 2>/dev/null || echo 0)
  [ "$name" = azurite ] || python3 "$here/threads.py" snapshot "$server_pid" "$OUT/$name-threads-before.json" || true
  w16=$(measure put.lua 16 "$W16")
  [ "$name" = azurite ] || python3 "$here/threads.py" snapshot "$server_pid" "$OUT/$name-threads-after.json" || true
  sent=$(( $(commands_sent "$base" 2>/dev/null || echo 0) - sent_before ))
  profile stop "$OUT/$name-$PROFILE.collapsed"
  writes=$(sed -n 's/.* \([0-9]*\) requests.*/\1/p' <<< "$w16")
  w16="$w16, $(awk -v s="$sent" -v w="$writes" 'BEGIN { printf "%.2f commands per write", w ? s / w : 0 }')"
  by_thread=""
  [ "$name" = azurite ] || by_thread=$(python3 "$here/threads.py" diff "$OUT/$name-threads-before.json" \
      "$OUT/$name-threads-after.json" "$writes" 2>/dev/null || true)
  w1=$(measure put.lua 1 "$W1")
  wgap=$(GAP_MS=$GAP measure put.lua 1 "$WGAP")
  [ -z "${PROFILE_READS:-}" ] || profile start
  g16=$(ENTITIES=$ENTITIES measure get.lua 16 "$G16")
  [ -z "${PROFILE_READS:-}" ] || profile stop "$OUT/$name-reads-$PROFILE.collapsed"
  feed_alone="" feed_loaded="" crash="" idle=""
  if [ "$IDLE" -gt 0 ]; then
    sleep 3 # the last measure's requests are done
    [ "$name" = azurite ] || python3 "$here/threads.py" snapshot "$server_pid" "$OUT/$name-idle-before.json" || true
    ticks_before=$(awk '{print $14 + $15}' "/proc/$server_pid/stat")
    sleep "$IDLE"
    ticks_after=$(awk '{print $14 + $15}' "/proc/$server_pid/stat")
    idle=$(awk -v t="$((ticks_after - ticks_before))" -v hz="$(getconf CLK_TCK)" -v s="$IDLE" \
        'BEGIN { printf "%.0f ms of CPU per second", t * 1000 / hz / s }')
    if [ "$name" != azurite ]; then
      python3 "$here/threads.py" snapshot "$server_pid" "$OUT/$name-idle-after.json" || true
      # per "operation" of a millisecond: the groups' ms of CPU per second
      idle+=", by group (ms per s): $(python3 "$here/threads.py" diff "$OUT/$name-idle-before.json" \
          "$OUT/$name-idle-after.json" "$((IDLE * 1000))" 2>/dev/null | sed 's/^per thread group, us per operation: //' || true)"
      python3 "$here/threads.py" each "$OUT/$name-idle-before.json" "$OUT/$name-idle-after.json" "$IDLE" \
          > "$OUT/$name-idle-threads.txt" 2>&1 || true
      idle+=", $(awk 'NR == 2 { printf "%s wake-ups a second in %s threads", $1, $4 }' "$OUT/$name-idle-threads.txt")"
    fi
  fi
  if [ "$FEED" -gt 0 ] && [ "$name" != azurite ]; then
    feed_alone=$(python3 "$here/feed-latency.py" "$base" feedprobe "$FEED" 2>&1 || true)
    wrk -t2 -c16 -d"$((FEED + 2))s" -s "$here/put.lua" "$base" > /dev/null &
    load_pid=$!
    sleep 1
    feed_loaded=$(python3 "$here/feed-latency.py" "$base" feedprobe "$FEED" 2>&1 || true)
    wait "$load_pid" || true
  fi
  if [ -n "$CRASH" ] && [ "$name" != azurite ]; then
    # kill -9 with 16 writes in flight, then the same server again on its data: time to ready and
    # to have replayed what was answered but not committed
    wrk -t2 -c16 -d8s -s "$here/put.lua" "$base" > /dev/null 2>&1 &
    load_pid=$!
    sleep 5
    kill -KILL "$server_pid"; wait "$server_pid" 2>/dev/null || true
    wait "$load_pid" 2>/dev/null || true
    started=$(date +%s.%N)
    start_tablestream "$OUT/$name.log"
    if await_ready 127.0.0.1 "$port" "$server_pid" 180; then
      crash="ready $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s after the restart, "
      crash+=$(python3 "$here/caught-up.py" "$base" 60 2>&1 || true)
    else
      crash="not ready within 180 s after the restart"
    fi
  fi
  {
    echo "$name ($settings; $("${java_home:+$java_home/bin/}java" -version 2>&1 | head -1)) load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "  writes 16 in flight: $w16"
    [ -z "$by_thread" ] || echo "    $by_thread"
    echo "  writes 1 in flight:  $w1"
    [ "$wgap" = skipped ] || echo "  writes 1 in flight, ${GAP} ms between: $wgap"
    echo "  point GET 16 conns:  $g16"
    [ -z "$idle" ] || echo "  at rest (${IDLE} s):    $idle"
    [ -z "$feed_alone" ] || echo "  change feed, alone:  $feed_alone"
    [ -z "$feed_loaded" ] || echo "  change feed, beside 16 writers: $feed_loaded"
    [ -z "$crash" ] || echo "  kill -9 beside 16 writers, restart: $crash"
  } | tee -a "$OUT/results.txt"
  stop_server
  rm -rf "$data"
done
echo "results: $OUT/results.txt"
