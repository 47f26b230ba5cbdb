#!/bin/sh
# tests/wholedb/cache_links.sh — a unit whose header is found through a link and ".." (as
# libclang names libstdc++'s headers: "/../lib/gcc/…/12/../../../../include/c++/12/…" with
# /lib a link to usr/lib) is cached like any other: the path the cache records is the file the
# system opens, so an unchanged tree's second run takes the unit's IR from the cache.
set -u
TAGCHECK=$1; WORK=$2
rm -rf "$WORK" && mkdir -p "$WORK/a/b/c" "$WORK/a/inc" "$WORK/src"
ln -s "$WORK/a/b/c" "$WORK/src/lnk"
# "lnk/../../inc" from src/ is "$WORK/a/inc" for the system; lexically it is "$WORK/inc"
printf 'static inline int twice(int x) { return 2 * x; }\n' > "$WORK/a/inc/helper.h"
printf '#include "lnk/../../inc/helper.h"\nint main(void) { return twice(1) - 2; }\n' \
  > "$WORK/src/main.c"
printf '[{"directory": "%s", "file": "%s", "arguments": ["cc", "-c", "%s"]}]\n' \
  "$WORK/src" "$WORK/src/main.c" "$WORK/src/main.c" > "$WORK/compile_commands.json"
fail=0
for run in cold warm; do
  "$TAGCHECK" -p "$WORK" 2> "$WORK/$run.err" > /dev/null
  status=$?
  [ "$status" -eq 0 ] || { echo "$run run: expected exit 0, got $status"; cat "$WORK/$run.err"; fail=1; }
done
grep -q "in 1 unit (1 from cache)" "$WORK/warm.err" ||
  { echo "warm run: the unit's IR should come from the cache"; cat "$WORK/warm.err"; fail=1; }
exit $fail
