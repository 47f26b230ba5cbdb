#!/bin/sh
# tests/install/clang_tidy_test.sh TAGCHECK DT_INCLUDE WORK — tagcheck standing in for clang-tidy
# in a CMake build: with --fail-on never the build succeeds and prints each unit's finding as it
# is compiled (C and C++), and a unit whose tags come from another unit is told the whole
# program needs -p; with the default, a finding fails the build, as clang-tidy's
# --warnings-as-errors does.
set -u
TAGCHECK=$1; INC=$2; WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$WORK" && mkdir -p "$WORK"
fail=0
cmake -S "$HERE/clang_tidy" -B "$WORK/report" -DDT_INCLUDE="$INC" \
  -DCMAKE_C_CLANG_TIDY="$TAGCHECK;--fail-on;never" -DCMAKE_CXX_CLANG_TIDY="$TAGCHECK;--fail-on;never" \
  > "$WORK/configure.log" 2>&1 || { cat "$WORK/configure.log"; exit 1; }
cmake --build "$WORK/report" > "$WORK/report.log" 2>&1 || { echo "the build failed with --fail-on never"; cat "$WORK/report.log"; fail=1; }
grep -q 'train.c:7:11: error: dt_mul: .*\[backend-mismatch\]' "$WORK/report.log" || { echo "train.c's finding missing"; cat "$WORK/report.log"; fail=1; }
grep -q 'infer.cpp:8:11: error: dt_add: .*\[device-mismatch\]' "$WORK/report.log" || { echo "infer.cpp's finding missing"; cat "$WORK/report.log"; fail=1; }
grep -q 'step.c:9:18: note: load_weights is defined in no file given, so its tags are unknown here: analyze the whole program with -p DIR' "$WORK/report.log" || { echo "step.c's unit is not told that its tags come from elsewhere"; cat "$WORK/report.log"; fail=1; }
cmake -S "$HERE/clang_tidy" -B "$WORK/strict" -DDT_INCLUDE="$INC" -DCMAKE_C_CLANG_TIDY="$TAGCHECK" \
  > "$WORK/configure2.log" 2>&1 || { cat "$WORK/configure2.log"; exit 1; }
if cmake --build "$WORK/strict" > "$WORK/strict.log" 2>&1; then
  echo "a finding should fail the build by default"; fail=1
fi
exit $fail
