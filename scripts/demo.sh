#!/bin/sh
# `make demo`: runs the dt runtime example from BUILD_DIR (default: build). Later issues make it
# run the analyzer on the bundled corpus as well.
set -e
BUILD_DIR=${1:-build}
if [ ! -x "$BUILD_DIR/bin/dt_demo" ]; then
  echo "demo.sh: $BUILD_DIR/bin/dt_demo is missing; build first (make build)" >&2
  exit 2
fi
echo "== dt runtime example ($BUILD_DIR/bin/dt_demo)"
"$BUILD_DIR/bin/dt_demo"
