#!/bin/sh
# tests/wholedb/groups.sh — the analysis of a program's roots in independent groups (what a large
# program gets, so that -j threads can share the analysis) finds exactly what one engine finds,
# and with any -j: one database holding every program of corpus/flow and corpus/interproc (many
# mains and roots), analyzed in one group, in 3 groups on 1 thread and in 3 groups on 2 threads.
set -u
TAGCHECK=$1; SRC=$2; INC=$3; WORK=$4
rm -rf "$WORK" && mkdir -p "$WORK"
{
  echo "["
  sep=""
  for f in "$SRC"/corpus/flow/*.c "$SRC"/corpus/interproc/*.c; do
    printf '%s{"directory": "%s", "file": "%s", "arguments": ["cc", "-std=c11", "-I%s", "-c", "%s"]}\n' \
      "$sep" "$(dirname "$f")" "$f" "$INC" "$f"
    sep=","
  done
  echo "]"
} > "$WORK/compile_commands.json"
fail=0
run() { # run NAME GROUPS JOBS
  TAGCHECK_GROUPS=$2 TAGCHECK_STATS=1 "$TAGCHECK" -p "$WORK" --no-cache -j "$3" --format json \
    > "$WORK/$1.json" 2> "$WORK/$1.err"
  status=$?
  [ "$status" -eq 1 ] || { echo "$1: expected exit 1 (findings), got $status"; cat "$WORK/$1.err"; fail=1; }
}
run one 1 1
run three_j1 3 1
run three_j2 3 2
grep -q 'in 1 group;' "$WORK/one.err" || { echo "one: not one group"; cat "$WORK/one.err"; fail=1; }
grep -q 'in 3 groups;' "$WORK/three_j2.err" || { echo "three_j2: not 3 groups"; cat "$WORK/three_j2.err"; fail=1; }
grep -q '"rule' "$WORK/one.json" || { echo "no findings at all"; fail=1; }
cmp -s "$WORK/one.json" "$WORK/three_j1.json" || { echo "3 groups find something else than 1"; diff "$WORK/one.json" "$WORK/three_j1.json" | head -20; fail=1; }
cmp -s "$WORK/three_j1.json" "$WORK/three_j2.json" || { echo "-j 2 finds something else than -j 1"; diff "$WORK/three_j1.json" "$WORK/three_j2.json" | head -20; fail=1; }
exit $fail
