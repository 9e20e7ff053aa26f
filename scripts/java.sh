# Sourced by run-server.sh, run-cluster.sh, the benchmarks and mvnw (so the README's test command and
# .ci/run): finds the JDK they all use, so that no JAVA_HOME needs setting by hand and the tests run
# on the JDK the server runs on. The newest JDK of feature version 25 or later wins
# (its ahead-of-time cache starts the server warm, see docs/performance.md); where there is none,
# any JDK 17 or later (the build's minimum).
#
# Looked at, in order: TABLESTREAM_JAVA_HOME (used as given, whatever its version), JAVA_HOME, the
# `java` on PATH, and every JDK under /usr/lib/jvm, /usr/local and /opt. Sets JAVA_HOME (exported)
# and JAVA_FEATURE (17, 21, 25, ...); returns 1, with a message, when no JDK 17 or later is found.

# The feature version of the JDK in directory $1 (from its `release` file), or nothing.
jdk_feature() {
  local version
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] && [ -f "$1/release" ] || return 0
  version=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release")
  [ -n "$version" ] && echo "$version"
}

find_jdk() {
  local candidates=() dir best="" best_feature=0 feature on_path
  if [ -n "${TABLESTREAM_JAVA_HOME:-}" ]; then
    feature=$(jdk_feature "$TABLESTREAM_JAVA_HOME")
    if [ -z "$feature" ]; then
      echo "TABLESTREAM_JAVA_HOME=$TABLESTREAM_JAVA_HOME is not a JDK (no bin/java, bin/javac and release)" >&2
      return 1
    fi
    export JAVA_HOME=$TABLESTREAM_JAVA_HOME
    JAVA_FEATURE=$feature
    return 0
  fi
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if on_path=$(command -v java 2>/dev/null); then
    on_path=$(readlink -f "$on_path")
    candidates+=("${on_path%/bin/java}")
  fi
  for dir in /usr/lib/jvm/* /usr/local/*jdk* /opt/*jdk* /opt/java/*; do
    [ -d "$dir" ] && candidates+=("$(readlink -f "$dir")")
  done
  for dir in "${candidates[@]}"; do
    feature=$(jdk_feature "$dir")
    [ -n "$feature" ] || continue
    # the first one found of the highest feature version
    if [ "$feature" -gt "$best_feature" ]; then best=$dir best_feature=$feature; fi
  done
  if [ "$best_feature" -lt 17 ]; then
    echo "No JDK 17 or later found (looked at JAVA_HOME, the java on PATH, /usr/lib/jvm, /usr/local, /opt);" \
      "install one, or point TABLESTREAM_JAVA_HOME at it" >&2
    return 1
  fi
  export JAVA_HOME=$best
  JAVA_FEATURE=$best_feature
}

# default_java_opts: the JVM options a server runs with unless JAVA_OPTS replaces them (after
# find_jdk): a 1 GiB heap, both JIT compilers (C1 alone is 1.3-1.4x slower warm) and the JVM's own
# choice of collector (G1 here), the fastest at steady state measured (docs/performance.md), with
# its concurrent marking started at a fixed 70 % of the heap: on JDK 25 G1's adaptive threshold ran
# a marking cycle about every second under writes, 30-40 us of CPU a write. On a JDK 25 or later,
# scripts/aot-cache.sh adds the ahead-of-time cache.
default_java_opts() {
  echo "-Xmx1g -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=70"
}
