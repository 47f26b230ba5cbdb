#!/bin/sh
# fuzz/run.sh — builds the libFuzzer fuzzers (fuzz/CMakeLists.txt, clang-19) and runs each
# harness of fuzz/harnesses.txt for a while, starting from its seeds and kept crashers.
#   sh fuzz/run.sh [--seconds N] [--build DIR] [--work DIR] [--jobs N] [HARNESS...]
# (--jobs N: N fuzzing processes per harness, libFuzzer's -fork=N; paths without spaces.)
# Defaults: 5 seconds each (the CI run), build-fuzz/, build-fuzz/work/. New inputs go to
# WORK/NAME/corpus (the committed seeds are never modified); a crash, leak or timeout leaves its
# input in WORK/NAME/artifacts/ and the script fails: keep that file under
# fuzz/regressions/NAME/ (it is then replayed by the fuzz.replay.NAME test) and fix the bug.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=5
build="$root/build-fuzz"
work=""
jobs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ -n "$work" ] || work="$build/work"
cc=${FUZZ_CC:-}
if [ -z "$cc" ]; then
  for c in clang-19 clang; do
    if command -v "$c" >/dev/null 2>&1; then cc=$c; break; fi
  done
fi
[ -n "$cc" ] || { echo "run.sh: clang-19 not found (scripts/install-deps.sh installs it)" >&2; exit 1; }

if [ ! -f "$build/CMakeCache.txt" ]; then
  mkdir -p "$build"
  CC=$cc cmake -S "$root/fuzz" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/configure.log" 2>&1 ||
    { cat "$build/configure.log" >&2; exit 1; }
fi
harnesses="$*"
[ -n "$harnesses" ] || harnesses=$(grep -v '^#' "$root/fuzz/harnesses.txt" | awk 'NF {print $1}')
targets=""
for h in $harnesses; do targets="$targets fuzz_$h"; done
cmake --build "$build" -j 2 --target $targets

passed=0
failed=0
for h in $harnesses; do
  seeds="$root/fuzz/corpus/$h $root/fuzz/regressions/$h"
  for extra in $(awk -v h="$h" '$1 == h {for (i = 2; i <= NF; i++) print $i}' "$root/fuzz/harnesses.txt"); do
    seeds="$seeds $root/$extra"
  done
  mkdir -p "$work/$h/corpus" "$work/$h/artifacts"
  echo "== fuzz_$h: $seconds s"
  parallel=""
  [ "$jobs" -gt 1 ] && parallel="-fork=$jobs"
  # shellcheck disable=SC2086
  if (cd "$work/$h" && "$build/fuzz_$h" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2560 \
       $parallel -print_final_stats=1 -artifact_prefix="$work/$h/artifacts/" \
       "$work/$h/corpus" $seeds 2>"$work/$h/log"); then
    tail -n 12 "$work/$h/log" | grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' || true
    passed=$((passed + 1))
  else
    tail -n 60 "$work/$h/log"
    echo "fuzz_$h FAILED: the input is in $work/$h/artifacts/ — keep it under fuzz/regressions/$h/"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
