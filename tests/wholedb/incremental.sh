#!/bin/sh
# tests/wholedb/incremental.sh — a one-file change re-analyzes only what depends on it: a
# database of two multi-file programs (corpus/multi/pipeline_stages, corpus/multi/mlp_trainer)
# and the single-file programs of corpus/basics is analyzed with the cache; after a change to
# one file of pipeline_stages (a new function with a bug), exactly one component (that program)
# is analyzed again, every other comes from the cache, and the findings — the new one
# included — equal a run without the cache.
set -u
TAGCHECK=$1; SRC=$2; INC=$3; WORK=$4
rm -rf "$WORK" && mkdir -p "$WORK"
cp -r "$SRC/corpus/multi/pipeline_stages" "$SRC/corpus/multi/mlp_trainer" "$SRC/corpus/basics" \
  "$WORK/"
{
  echo "["
  sep=""
  for f in "$WORK"/pipeline_stages/*.c "$WORK"/mlp_trainer/*.c "$WORK"/basics/*.c; do
    d=$(dirname "$f")
    printf '%s{"directory": "%s", "file": "%s", "arguments": ["cc", "-std=c11", "-I%s", "-I%s", "-c", "%s"]}\n' \
      "$sep" "$d" "$f" "$d" "$INC" "$f"
    sep=","
  done
  echo "]"
} > "$WORK/compile_commands.json"
fail=0
run() { # run NAME [extra option]
  TAGCHECK_STATS=1 "$TAGCHECK" -p "$WORK" -q --format json -o "$WORK/$1.json" ${2:-} \
    2> "$WORK/$1.err"
  status=$?
  [ "$status" -eq 1 ] || { echo "$1: expected exit 1 (findings), got $status"; cat "$WORK/$1.err"; fail=1; }
}
components() { sed -n 's/.*; \([0-9]*\) components\{0,1\}, \([0-9]*\) from the cache$/\1 \2/p' "$WORK/$1.err"; }
run cold
set -- $(components cold)
total=${1:-0}
[ "$total" -ge 3 ] || { echo "expected several components, got '$total'"; cat "$WORK/cold.err"; fail=1; }
[ "${2:-x}" = 0 ] || { echo "cold run: nothing should come from the cache"; cat "$WORK/cold.err"; fail=1; }
run warm
[ "$(components warm)" = "$total $total" ] || { echo "warm run: everything from the cache expected"; cat "$WORK/warm.err"; fail=1; }
cmp -s "$WORK/cold.json" "$WORK/warm.json" || { echo "the cached findings differ"; fail=1; }
# a real change (a new bug, not only a comment) in one file of one program
target=$(ls "$WORK"/pipeline_stages/*.c | head -n 1)
cat >> "$target" <<'CODE'
void incremental_probe(void) {
  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){1});
  dt_tensor *b = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){1});
  dt_free(dt_add(a, b));
}
CODE
run changed
[ "$(components changed)" = "$total $((total - 1))" ] || { echo "changed: one component to analyze again expected"; cat "$WORK/changed.err"; fail=1; }
run nocache --no-cache
cmp -s "$WORK/changed.json" "$WORK/nocache.json" || { echo "with and without the cache differ"; diff "$WORK/changed.json" "$WORK/nocache.json" | head -20; fail=1; }
cmp -s "$WORK/cold.json" "$WORK/changed.json" && { echo "the new bug was not found (stale results?)"; fail=1; }
exit $fail
