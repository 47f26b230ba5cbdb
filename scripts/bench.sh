#!/bin/sh
# `make bench`: runs every benchmark program built under BUILD_DIR/bin (named bench_*); each
# prints its own ratios against a baseline measured in the same run.
BUILD_DIR=${1:-build}
status=0
found=0
for b in "$BUILD_DIR"/bin/bench_*; do
  [ -x "$b" ] || continue
  found=1
  echo "== $(basename "$b")"
  "$b" || status=1
done
if [ "$found" -eq 0 ]; then
  echo "bench.sh: no bench_* programs under $BUILD_DIR/bin" >&2
  exit 2
fi
exit $status
