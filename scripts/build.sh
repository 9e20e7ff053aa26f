# Sourced by run-server.sh and run-cluster.sh: builds Tablestream (skipping tests) when a source
# changed since the last build (or there was none), showing one line per module; returns the build's
# status. The bench module is built too: the AOT cache's training run (scripts/aot-cache.sh) drives
# the server with its lean client. The bench scripts' own build touches the same stamp.

build_if_changed() {
  local stamp=server/target/run-server.built log=server/target/run-server-build.log status
  if [ ! -f "$stamp" ] || [ ! -f server/target/classpath.txt ] \
      || [ -n "$(find . -path ./data -prune -o -path '*/target' -prune -o -path '*/node_modules' -prune -o \
                   \( -name '*.java' -o -name 'pom.xml' -o -name '*.avsc' -o -path '*/src/main/resources/*' \) \
                   -newer "$stamp" -print -quit)" ]; then
    mkdir -p server/target
    if [ -f "$stamp" ]; then
      echo "Sources changed since the last build: rebuilding Tablestream..."
    else
      echo "Building Tablestream (the first build downloads Maven and the dependencies: a few minutes)..."
    fi
    # Maven's own output goes to $log; the screen gets one line per module and a count of downloads.
    set +e
    ./mvnw -B -pl server,bench -am package -DskipTests 2>&1 | tee "$log" | awk '
      /Downloaded from/ { n++; if (n % 50 == 0) { printf "  %d artifacts downloaded\n", n; fflush() } }
      /\] Building / && !/Building jar/ { sub(/.*\] /, "  "); print; fflush() }
      /BUILD (SUCCESS|FAILURE)/ { sub(/.*\] /, "  "); print; fflush() }'
    status=${PIPESTATUS[0]}
    set -e
    if [ "$status" -ne 0 ]; then
      echo "The build failed; its last lines (all of it: $log):"
      grep -E "ERROR|FAIL" "$log" | tail -20
      return "$status"
    fi
    touch "$stamp"
  fi
}
