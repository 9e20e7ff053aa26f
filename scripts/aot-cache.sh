# Sourced by run-server.sh and run-cluster.sh (after scripts/java.sh and scripts/ready.sh): the JVM's
# ahead-of-time cache, on a JDK 25 or later. A training run of the server records which classes it
# loads and links and how its methods behave (JEP 483, 514, 515); a server started with the cache
# finds its classes ready and compiles its hot code sooner. See docs/performance.md.
#
# One cache per build, JDK and JVM options: server/target/aot/<hash>.aot, the hash of the JDK's
# release file, the options (but the heap's size, which does not matter to the cache), the classpath
# and each jar's size and time. It is made the first time a
# server is started after a build (a training run: a server on a temporary data directory and port,
# the lean client's workloads against it for about a minute, then its stop, when the JVM writes the
# cache), and made again after the next build or a change of JDK. (The JVM checks the jars too, and
# runs without a cache that does not match them.) TABLESTREAM_AOT=off: neither made nor used.

# aot_cache_file <classpath> <options>: where the cache of this build, JDK and options lives.
aot_cache_file() {
  local classpath=$1 options=$2 hash
  hash=$({
    echo "$JAVA_HOME" "$(tr ' ' '\n' <<<"$options" | grep -v -e '^-Xmx' -e '^-Xms')"
    cat "$JAVA_HOME/release"
    tr ':' '\n' <<<"$classpath" | xargs stat -c '%n %s %Y'
  } | sha1sum | cut -c1-16)
  echo "server/target/aot/tablestream-$hash.aot"
}

# aot_wanted: whether this JDK has the cache and it is not turned off.
aot_wanted() {
  [ "${TABLESTREAM_AOT:-on}" != off ] && [ "${JAVA_FEATURE:-0}" -ge 25 ]
}

# aot_cache_option <classpath> <options>: -XX:AOTCache=<file> when wanted, after training it if it is
# missing; nothing when not wanted or the training failed (the server then starts without it, and
# later starts of the same build do not train again: <cache>.failed marks it).
aot_cache_option() {
  local classpath=$1 options=$2 cache
  aot_wanted || return 0
  cache=$(aot_cache_file "$classpath" "$options")
  if [ ! -s "$cache" ]; then
    [ -f "$cache.failed" ] && return 0
    train_aot_cache "$classpath" "$options" "$cache" >&2 || { touch "$cache.failed"; return 0; }
  fi
  echo "-XX:AOTCache=$cache"
}

# A free TCP port on 127.0.0.1, by trying random ones (bash alone).
aot_free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return 0; fi
  done
  return 1
}

# train_aot_cache <classpath> <options> <cache>: the training run; its server's and client's output in
# server/target/aot/training.log.
train_aot_cache() {
  local classpath=$1 options=$2 cache=$3 dir port pid log=server/target/aot/training.log started status=0
  mkdir -p server/target/aot
  dir=$(mktemp -d "${TMPDIR:-/tmp}/tablestream-aot.XXXXXX")
  port=$(aot_free_port) || { echo "no free port for the AOT training run" >&2; rm -rf "$dir"; return 1; }
  started=$SECONDS
  # the server appends to the log as its client does (writing from its own offset, it wrote over the
  # client's lines)
  : >"$log"
  echo "Training the JVM's ahead-of-time cache for this build and JDK $JAVA_FEATURE (once per build, about" \
    "two minutes; TABLESTREAM_AOT=off skips it)..."
  # none of the caller's settings: the training server is a throwaway one on its own data and port
  # shellcheck disable=SC2086 # the JVM options are words
  (for v in $(compgen -e | grep -E '^(TABLESTREAM_|KAFKA_)'); do unset "$v"; done
   export TABLESTREAM_PORT=$port TABLESTREAM_DATA_DIR=$dir/data
   exec "$JAVA_HOME/bin/java" $options -XX:AOTCacheOutput="$dir/cache.aot" -cp "$classpath" \
     io.tablestream.server.Main) >>"$log" 2>&1 &
  pid=$!
  if await_ready 127.0.0.1 "$port" "$pid" 300; then
    "$JAVA_HOME/bin/java" -Xmx512m -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
      io.tablestream.bench.lean.LeanLoad --target training --endpoint "http://127.0.0.1:$port/devstoreaccount1" \
      --size 2000 --workloads upsert-new,get,range,insert,upsert,merge,batch,async,read --concurrency 1,16 \
      --duration 3 --warmup 0 >>"$log" 2>&1 || status=$?
  else
    status=1
  fi
  # the JVM writes the cache as it exits (a child JVM assembles it): give it time
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ "$status" -eq 0 ] && [ -s "$dir/cache.aot" ]; then
    rm -f server/target/aot/*.aot server/target/aot/*.failed
    mv "$dir/cache.aot" "$cache"
    echo "AOT cache ready in $((SECONDS - started)) s: $cache ($(du -m "$cache" | cut -f1) MiB)"
  else
    echo "The AOT training run failed (see $log); starting without a cache" >&2
    status=1
  fi
  rm -rf "$dir"
  return "$status"
}
