#!/bin/sh
# tests/wholedb/run.sh — one compilation database holding two programs that both define main
# and make_weights: each program's calls must reach its own definitions, and each program's
# bug must be found (a database of a whole repository often holds several executables).
set -u
TAGCHECK=$1; SRC=$2; INC=$3; WORK=$4
rm -rf "$WORK" && mkdir -p "$WORK"
{
  echo "["
  sep=""
  for f in prog_a/main.c prog_a/model.c prog_b/main.c prog_b/model.c; do
    printf '%s{"directory": "%s", "file": "%s", "arguments": ["cc", "-I%s", "-c", "%s"]}\n' \
      "$sep" "$SRC" "$f" "$INC" "$f"
    sep=","
  done
  echo "]"
} > "$WORK/compile_commands.json"
out=$("$TAGCHECK" -p "$WORK" --no-cache -q --format json 2>&1)
status=$?
fail=0
[ "$status" -eq 1 ] || { echo "expected exit 1, got $status"; fail=1; }
echo "$out" | grep -q '"device-mismatch"' || { echo "program A's device-mismatch not found"; fail=1; }
echo "$out" | grep -q '"autodiff-expected"' || { echo "program B's autodiff-expected not found"; fail=1; }
echo "$out" | grep -q 'backend-mismatch\|autodiff-inner-backend' && { echo "a call reached the other program's definition"; fail=1; }
[ "$fail" -eq 0 ] || echo "$out"
exit $fail
