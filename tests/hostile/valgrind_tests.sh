#!/bin/sh
# tests/hostile/valgrind_tests.sh — runs each test program given under valgrind memcheck
# (invalid reads and writes, uses of uninitialised values, definite leaks: --error-exitcode=1).
# The simulated devices get a small arena (DT_SIM_MEMORY): valgrind is slow on the default
# reservation, which is sized from the machine's memory.
#   sh tests/hostile/valgrind_tests.sh PROGRAM...
set -u
command -v valgrind >/dev/null 2>&1 || { echo "valgrind not found (scripts/install-deps.sh)"; exit 1; }
passed=0
failed=0
for prog in "$@"; do
  if DT_SIM_MEMORY=64M DT_SIM_THREADS=2 OPENBLAS_NUM_THREADS=1 DT_ON_ERROR= \
     valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
       --show-leak-kinds=definite "$prog" >"$prog.valgrind.log" 2>&1; then
    echo "ok   $prog"
    passed=$((passed + 1))
  else
    echo "FAIL $prog (valgrind or the test failed):"
    tail -n 80 "$prog.valgrind.log"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
