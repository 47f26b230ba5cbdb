#!/bin/sh
# tests/install/tagcheck_install_test.sh BUILD_DIR — installs tagcheck (the default component:
# the binary, its rules, its man page) from BUILD_DIR into a temporary prefix and checks what a
# user finds there: bin/tagcheck runs, share/man/man1/tagcheck.1 is installed, man(1) renders it
# (when man is there), and it documents every option `tagcheck --help` lists.
set -eu
BUILD_DIR=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PREFIX=$TMP/prefix

cmake --install "$BUILD_DIR" --prefix "$PREFIX" --component Unspecified >/dev/null
BIN=$PREFIX/bin/tagcheck
[ -x "$BIN" ] || { echo "bin/tagcheck was not installed"; exit 1; }
"$BIN" --version | grep -q "clang version" || { echo "tagcheck --version names no libclang"; exit 1; }
MAN=$(find "$PREFIX" -path '*/man1/tagcheck.1' | head -n 1)
[ -n "$MAN" ] || { echo "the man page tagcheck.1 was not installed under man1/"; exit 1; }
for f in rules/dt.json rules/ggml.json; do
  [ -n "$(find "$PREFIX" -path "*/tagcheck/$f" | head -n 1)" ] || { echo "missing $f"; exit 1; }
done
if command -v man >/dev/null 2>&1; then
  MANPATH=$PREFIX/share/man man -P cat tagcheck >"$TMP/page.txt" 2>"$TMP/man.err" ||
    man -l -P cat "$MAN" >"$TMP/page.txt"
  grep -q "tagcheck" "$TMP/page.txt" || { echo "man tagcheck renders nothing"; exit 1; }
fi
# every option of --help is in the page (roff spells '-' as '\-')
missing=0
for opt in $("$BIN" --help 2>&1 | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
  roff=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
  if ! grep -q -- "$roff" "$MAN"; then
    echo "tagcheck.1 does not document $opt"
    missing=1
  fi
done
[ "$missing" -eq 0 ] || exit 1
echo "tagcheck installed: $BIN, $MAN"
