#!/bin/sh
# tests/report/run_validator.sh — the ctest entry of the SARIF validator test: produces SARIF
# logs (the report layer's sample, a merge of two shard logs, an empty report; and, when
# tagcheck is built, tagcheck's own SARIF on the whole corpus, on two shards of it merged with
# `tagcheck merge`, and on every buggy corpus program alone, merged into one log), then runs
# validate.sh on all of them (the per-program logs carry fix-its: result.fixes is validated).
# usage: run_validator.sh SARIF_SAMPLE_BIN VALIDATOR_ERRORS_BIN TAGCHECK_BIN_OR_EMPTY SOURCE_DIR
#                         OUT_DIR
set -u
sample=$1
counter=$2
tagcheck=$3
src=$4
out=$5
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out"
mkdir -p "$out"
"$sample" "$out" || { echo "FAIL: $sample could not write its logs" >&2; exit 1; }
logs="$out/sample.sarif $out/merged.sarif $out/empty.sarif"

if [ -n "$tagcheck" ] && [ -x "$tagcheck" ]; then
  # The real pipeline: every corpus program, whole and in two shards merged back.
  files=$(find "$src/corpus" -path "$src/corpus/ggml" -prune -o -name '*.c' -print | sort)
  if [ -z "$files" ]; then
    echo "FAIL: no corpus programs under $src/corpus" >&2
    exit 1
  fi
  inc="-I$src/runtime/include"
  # shellcheck disable=SC2086
  (cd "$src" && "$tagcheck" --no-cache --root "$src" --format sarif -o "$out/tagcheck.sarif" \
    $files -- $inc)
  rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 1 ] && [ $rc -ne 3 ]; then
    echo "FAIL: tagcheck --format sarif exited $rc" >&2
    exit 1
  fi
  logs="$logs $out/tagcheck.sarif"
  for k in 1 2; do
    # shellcheck disable=SC2086
    (cd "$src" && "$tagcheck" --no-cache --root "$src" --shard $k/2 --format sarif \
      -o "$out/tagcheck-shard$k.sarif" $files -- $inc)
    rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 1 ] && [ $rc -ne 3 ]; then
      echo "FAIL: tagcheck --shard $k/2 exited $rc" >&2
      exit 1
    fi
  done
  "$tagcheck" merge -o "$out/tagcheck-merged.sarif" "$out/tagcheck-shard1.sarif" \
    "$out/tagcheck-shard2.sarif" || { echo "FAIL: tagcheck merge failed" >&2; exit 1; }
  logs="$logs $out/tagcheck-merged.sarif"
  # Each buggy program on its own (so that helpers and mains of different programs do not
  # meet), all of them merged into one log: many findings with long code flows.
  mkdir -p "$out/programs"
  n=0
  for f in $(find "$src/corpus" -path "$src/corpus/ggml" -prune -o -name '*_bug.c' -print | sort); do
    n=$((n + 1))
    (cd "$(dirname "$f")" && "$tagcheck" --no-cache -q --root "$src" --format sarif \
      --rules "$src/rules/dt.json" -o "$out/programs/$n.sarif" "$f" -- $inc)
    rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 1 ] && [ $rc -ne 3 ]; then
      echo "FAIL: tagcheck exited $rc on $f" >&2
      exit 1
    fi
  done
  # shellcheck disable=SC2046
  "$tagcheck" merge -o "$out/tagcheck-programs.sarif" $(ls "$out"/programs/*.sarif) ||
    { echo "FAIL: tagcheck merge of the per-program logs failed" >&2; exit 1; }
  # the fix-its (result.fixes) are in what is validated, and survive the merge
  grep -q '"artifactChanges"' "$out/tagcheck-programs.sarif" ||
    { echo "FAIL: no result of the buggy programs carries a fix (result.fixes)" >&2; exit 1; }
  logs="$logs $out/tagcheck-programs.sarif"
  # Another API's rules (rules/ggml.json, with rule ids of its own) on its corpus, which
  # includes the real ggml headers (TC_GGML_DIR, or ../shared/ggml / shared/ggml next to the
  # project, as tests/ggml finds them).
  ggml_inc=""
  for d in "${TC_GGML_DIR:-}" "$src/../shared/ggml" "$src/shared/ggml"; do
    if [ -n "$d" ] && [ -f "$d/include/ggml.h" ]; then ggml_inc="$d/include"; break; fi
  done
  if [ -n "$ggml_inc" ]; then
    # shellcheck disable=SC2046
    (cd "$src" && "$tagcheck" --no-cache -q --root "$src" --rules "$src/rules/ggml.json" \
      --format sarif -o "$out/ggml.sarif" $(ls "$src"/corpus/ggml/*.c) -- -I"$ggml_inc")
    rc=$?
    if [ $rc -ne 1 ]; then
      echo "FAIL: tagcheck with rules/ggml.json exited $rc (expected 1: findings)" >&2
      exit 1
    fi
    logs="$logs $out/ggml.sarif"
  else
    echo "note: no ggml source tree next to the project: the ggml corpus's SARIF is not validated"
  fi
else
  echo "note: tagcheck is not built yet; validating the report layer's own logs only"
fi
# shellcheck disable=SC2086
sh "$here/validate.sh" "$counter" "$out/broken.sarif" $logs
