#!/bin/sh
# tests/wholedb/reach.sh — a program that names no described API function is not analyzed, and
# nothing is lost by it: a database of reach/plain.c (only C library functions the rules model)
# and reach/through_pointer.c (the API reached only through function designators) reports
# exactly one component skipped and the second program's backend mismatch found.
set -u
TAGCHECK=$1; SRC=$2; INC=$3; WORK=$4
rm -rf "$WORK" && mkdir -p "$WORK"
d="$SRC/tests/wholedb/reach"
{
  printf '['
  sep=""
  for f in "$d/plain.c" "$d/through_pointer.c"; do
    printf '%s{"directory": "%s", "file": "%s", "arguments": ["cc", "-std=c11", "-I%s", "-c", "%s"]}\n' \
      "$sep" "$d" "$f" "$INC" "$f"
    sep=","
  done
  printf ']\n'
} > "$WORK/compile_commands.json"
fail=0
TAGCHECK_STATS=1 "$TAGCHECK" -p "$WORK" --no-cache -q --format json -o "$WORK/out.json" \
  2> "$WORK/err"
status=$?
[ "$status" -eq 1 ] || { echo "expected exit 1 (a finding), got $status"; cat "$WORK/err"; fail=1; }
grep -q "stats: 1 component named no described function" "$WORK/err" ||
  { echo "plain.c's program should be skipped, and only it"; cat "$WORK/err"; fail=1; }
grep -q '"rule":[[:space:]]*"backend-mismatch"' "$WORK/out.json" ||
  { echo "through_pointer.c's backend mismatch is missing"; cat "$WORK/out.json"; fail=1; }
[ "$(grep -c '"rule":' "$WORK/out.json")" -eq 1 ] ||
  { echo "expected exactly one finding"; cat "$WORK/out.json"; fail=1; }
exit $fail
