#!/bin/sh
# tests/install/install_test.sh BUILD_DIR C_COMPILER [EXTRA_CFLAGS] — installs libdt (component "dt") from
# BUILD_DIR into a temporary prefix, then builds and runs the consumer program once through
# pkg-config and once through CMake's find_package(dt) (shared and static). EXTRA_CFLAGS are the
# build's sanitizer flags, which a consumer of a sanitized libdt needs too.
set -eu
BUILD_DIR=$1
CC=$2
EXTRA=${3:-}
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PREFIX=$TMP/prefix

cmake --install "$BUILD_DIR" --prefix "$PREFIX" --component dt >/dev/null
for f in include/dt/dt.h include/dt/backend.h include/dt/rules.def include/dt/fingerprint.h include/dt/bytes.h include/dt/messages.def; do
  [ -f "$PREFIX/$f" ] || { echo "missing $f in the installed tree"; exit 1; }
done
PC=$(find "$PREFIX" -name dt.pc | head -n 1)
[ -n "$PC" ] || { echo "dt.pc was not installed"; exit 1; }
LIBDIR=$(dirname "$(dirname "$PC")")
for f in libdt.a libdt.so; do
  [ -e "$LIBDIR/$f" ] || { echo "missing $f in $LIBDIR"; exit 1; }
done

echo "== pkg-config"
export PKG_CONFIG_PATH="$(dirname "$PC")"
pkg-config --exists dt
# shellcheck disable=SC2046
# shellcheck disable=SC2086
"$CC" -std=c11 -Wall -Werror $EXTRA -o "$TMP/consumer_pc" "$HERE/consumer/consumer.c" \
  $(pkg-config --cflags --libs dt) -Wl,-rpath,"$(pkg-config --variable=libdir dt)"
"$TMP/consumer_pc"

echo "== cmake find_package(dt)"
cmake -S "$HERE/consumer" -B "$TMP/cmake-build" -DCMAKE_PREFIX_PATH="$PREFIX" \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$EXTRA" -DCMAKE_EXE_LINKER_FLAGS="$EXTRA" >/dev/null
cmake --build "$TMP/cmake-build" >/dev/null
"$TMP/cmake-build/consumer_shared"
"$TMP/cmake-build/consumer_static"
echo "install test: ok"
