#!/bin/sh
# scripts/demo.sh BUILD_DIR — the demo's story in one screen: the headline program's bug found
# by tagcheck before it runs (the finding and its trace), the runtime stopping at the same line
# with the same rule when it runs anyway, then one tagcheck run over the whole bundled corpus
# summed up per rule against the programs' annotations, and where to go next.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=$(cd "${1:-build}" && pwd)
TAGCHECK="$BUILD_DIR/bin/tagcheck"
command -v tagcheck >/dev/null 2>&1 && TAGCHECK=tagcheck # the installed one, when installed
if ! "$TAGCHECK" --version >/dev/null 2>&1; then
  echo "demo.sh: $TAGCHECK is missing; build first (sh scripts/quickstart.sh demo)" >&2
  exit 2
fi
WORK="$BUILD_DIR/demo"
mkdir -p "$WORK"
HEADLINE=corpus/autodiff/from_inner_wrong_backend_bug.c

echo
echo "== Before it runs: tagcheck $HEADLINE"
(cd "$TOP" && "$TAGCHECK" --no-cache "$HEADLINE") || true

echo
echo "== When it runs anyway: the runtime stops at the same line, with the same rule"
(cd "$TOP" && cc -std=c11 -Iruntime/include "$HEADLINE" -o "$WORK/headline" \
  -L"$BUILD_DIR/lib" -Wl,-rpath,"$BUILD_DIR/lib" -ldt) 2> "$WORK/cc.log" ||
  { echo "demo.sh: cc failed (see $WORK/cc.log)" >&2; exit 1; }
(cd "$TOP" && "$WORK/headline" 2>&1 | sed -n '1p') 2>/dev/null || true

echo
echo "== The bundled corpus: buggy and clean programs, analyzed as a project would be"
python3 "$TOP/scripts/demo_summary.py" "$TAGCHECK" "$TOP" "$WORK"
echo "  (every program is also built and run against libdt by 'ctest -L corpus': the runtime"
echo "   must stop at each annotated line with that rule, and clean programs must run clean)"

echo
echo "== Next"
echo "  try a project:  cd examples/train && cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON && tagcheck -p build"
echo "  your project:   tagcheck -p build              (a compile_commands.json in build/)"
echo "  one finding:    tagcheck -p build src/train.c  (its whole program, what touches the file)"
echo "  CI and SARIF:   docs/ci.md      editors: docs/editors.md      other APIs: docs/rules.md"
echo "  the test suite: sh scripts/quickstart.sh test"
