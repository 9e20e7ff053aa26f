#!/usr/bin/env bash
# async-profiler in a running JVM (ASYNC_PROFILER: the path of libasyncProfiler.so, from
# tools.profiler:async-profiler on Maven Central), loaded with Attach.java:
#
#   bench/wrk/profile.sh <pid> start <cpu|alloc>     CPU every 1 ms (kernel stacks too) or every 512 KiB allocated, per thread
#   bench/wrk/profile.sh <pid> stop <file>           its collapsed stacks into <file>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pid=$1 what=$2 arg=$3
: "${ASYNC_PROFILER:?the path of libasyncProfiler.so}"
if [ "$what" = start ]; then
  java "$here/Attach.java" "$pid" "$ASYNC_PROFILER" \
      "start,event=$arg,interval=$([ "$arg" = cpu ] && echo 1ms || echo 512k),threads" >/dev/null
else
  java "$here/Attach.java" "$pid" "$ASYNC_PROFILER" "stop,collapsed,file=$arg" >/dev/null
fi
