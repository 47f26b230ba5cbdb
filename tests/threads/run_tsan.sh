#!/bin/sh
# tests/threads/run_tsan.sh — configures and builds tests/threads/tsan (libdt and test_threads
# with -fsanitize=thread) with the C compiler given, then runs the test twice (the second time
# with a DT_REPORT log): it fails on a test failure or on any ThreadSanitizer report (exitcode 66,
# halt_on_error).
#   sh tests/threads/run_tsan.sh [CC] [BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cc=${1:-cc}
build=${2:-$here/../../build-tsan}
if [ ! -f "$build/CMakeCache.txt" ]; then
  mkdir -p "$build"
  cmake -S "$here/tsan" -B "$build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
fi
cmake --build "$build" -j 2 --target test_threads_tsan
# OpenBLAS's own worker threads are not instrumented: keep matrix products on the caller's thread.
# The cpu backend's own worker pool is: DT_NUM_THREADS (read before OPENBLAS_NUM_THREADS) runs it.
# The second run records every failure for a SARIF report (DT_REPORT), from all threads at once.
for report in "" "$build/threads-report.sarif"; do
  OPENBLAS_NUM_THREADS=1 DT_NUM_THREADS=4 DT_ON_ERROR= DT_REPORT="$report" \
  TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
    "$build/test_threads_tsan"
done
