#!/bin/sh
# scripts/quickstart.sh — the README's quick start, for a bare Debian 12 as root (or with sudo),
# with the checkout anywhere. POSIX sh only: a minimal Debian has no make or git.
#   sh scripts/quickstart.sh demo   installs what the demo needs, builds, installs tagcheck and
#                                   libdt under /usr/local, tells the story in one screen
#   sh scripts/quickstart.sh test   installs the test dependencies too, builds the tests, runs ctest
# The demo builds only libdt and tagcheck (no tests, no benchmarks); the test command adds them
# to the same build folder. Installers and builds write their logs under BUILD_DIR/logs/
# (default build/logs/); only a line per step is printed. BUILD_DIR, CMAKE_FLAGS and
# QUICKSTART_CTEST_ARGS (extra ctest arguments for `test`, e.g. "-L corpus") may be set in the
# environment.
set -eu
what=${1:-demo}
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$TOP/build}
CMAKE_FLAGS=${CMAKE_FLAGS:-}
QUICKSTART_CTEST_ARGS=${QUICKSTART_CTEST_ARGS:-}
LOGS="$BUILD_DIR/logs"
mkdir -p "$LOGS"
JOBS=$(nproc 2>/dev/null || echo 2)

step() { printf '%s\n' "$*"; }
fail() { # fail LOG WHAT
  echo "quickstart: $2 failed; the last lines of $1:" >&2
  tail -n 20 "$1" >&2
  exit 1
}

case "$what" in
  demo) SUITE="-DTC_BUILD_TESTS=OFF -DTC_BUILD_BENCH=OFF" ;;
  test) SUITE="-DTC_BUILD_TESTS=ON -DTC_BUILD_BENCH=ON" ;;
  *) echo "usage: sh scripts/quickstart.sh demo|test" >&2; exit 2 ;;
esac

step "[1/4] dependencies ($what) — log: $LOGS/deps.log"
sh "$TOP/scripts/install-deps.sh" "$what" > "$LOGS/deps.log" 2>&1 || fail "$LOGS/deps.log" "installing the dependencies"
step "[2/4] build — log: $LOGS/build.log"
# shellcheck disable=SC2086
{ cmake -S "$TOP" -B "$BUILD_DIR" $SUITE $CMAKE_FLAGS && cmake --build "$BUILD_DIR" -j "$JOBS"; } \
  > "$LOGS/build.log" 2>&1 || fail "$LOGS/build.log" "the build"

if [ "$what" = test ]; then
  step "[3/4] tests: ctest --output-on-failure -j $JOBS $QUICKSTART_CTEST_ARGS (in $BUILD_DIR)"
  # shellcheck disable=SC2086
  cd "$BUILD_DIR" && exec ctest --output-on-failure -j "$JOBS" $QUICKSTART_CTEST_ARGS
fi

step "[3/4] install under /usr/local (tagcheck, libdt, headers, rules) — log: $LOGS/install.log"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO cmake --install "$BUILD_DIR" > "$LOGS/install.log" 2>&1 || fail "$LOGS/install.log" "the install"
step "[4/4] the story"
exec sh "$TOP/scripts/demo.sh" "$BUILD_DIR"
