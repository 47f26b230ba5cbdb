#!/bin/sh
# `make demo`: runs tagcheck over the bundled corpus (buggy and clean programs, one compilation
# database covering all of them) and prints its findings, then runs the dt runtime example.
set -e
BUILD_DIR=${1:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
TAGCHECK="$BUILD_DIR/bin/tagcheck"
if [ ! -x "$TAGCHECK" ] || [ ! -x "$BUILD_DIR/bin/dt_demo" ]; then
  echo "demo.sh: $TAGCHECK or $BUILD_DIR/bin/dt_demo is missing; build first (make build)" >&2
  exit 2
fi
DB_DIR="$BUILD_DIR/demo"
mkdir -p "$DB_DIR"
# One entry per corpus source file, compiled with its own folder and the runtime headers on the
# include path (what a project's CMake would write with CMAKE_EXPORT_COMPILE_COMMANDS=ON).
{
  echo "["
  sep=""
  # corpus/ggml/ is written against ggml: tests/ggml checks it with rules/ggml.json
  find "$TOP/corpus" -path "$TOP/corpus/ggml" -prune -o -name '*.c' -print | LC_ALL=C sort |
  while read -r f; do
    d=$(dirname "$f")
    printf '%s{"directory": "%s", "file": "%s", "arguments": ["cc", "-std=c11", "-I%s", "-I%s/runtime/include", "-c", "%s"]}\n' \
      "$sep" "$d" "$f" "$d" "$TOP" "$f"
    sep=","
  done
  echo "]"
} > "$DB_DIR/compile_commands.json"
echo "== tagcheck -p $DB_DIR (every program of corpus/, buggy and clean)"
status=0
"$TAGCHECK" -p "$DB_DIR" --no-cache --root "$TOP" || status=$?
case $status in
  0|1) ;;
  *) echo "demo.sh: tagcheck exited with status $status" >&2; exit "$status" ;;
esac
echo
echo "== dt runtime example ($BUILD_DIR/bin/dt_demo)"
"$BUILD_DIR/bin/dt_demo"
