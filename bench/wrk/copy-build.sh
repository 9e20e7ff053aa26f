#!/usr/bin/env bash
# A copy of the server build of a work tree, so that benchmarks run what was built when they started
# (rebuilding meanwhile changes nothing) and two builds can run side by side:
#
#   bench/wrk/copy-build.sh <work tree> <dir>
#
# Copies server/target/server-*.jar and the work tree's own module jars from server/target/classpath.txt
# into <dir> and writes <dir>/classpath.txt (the copies, then the Maven repository's jars in place)
# and <dir>/build.txt (the commit it was built from).
set -euo pipefail
root=$(cd "$1" && pwd) out=$2
mkdir -p "$out"
cp "$root"/server/target/server-*.jar "$out/"
cp_line=$(cd "$out" && pwd)/$(basename "$root"/server/target/server-*.jar)
for entry in $(tr ':' ' ' < "$root/server/target/classpath.txt"); do
  case $entry in
    "$root"/*) cp "$entry" "$out/"; cp_line=$cp_line:$(cd "$out" && pwd)/$(basename "$entry") ;;
    *) cp_line=$cp_line:$entry ;;
  esac
done
echo "$cp_line" > "$out/classpath.txt"
git -C "$root" log -1 --format='build: %h %s' > "$out/build.txt"
