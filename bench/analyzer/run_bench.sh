#!/bin/sh
# bench/analyzer/run_bench.sh — the analyzer benchmark on a generated project and, with
# --real DIR, on another compile database (each through `bench_analyzer -p`). bench_analyzer
# with no argument does more (ggml's real code and the generated project in one run, issue
# 26); this script is for a chosen database. --quick: a 12-unit project, one repetition.
#
#   run_bench.sh --tagcheck PATH --bench PATH --include DT_INCLUDE --work DIR
#                [--units N] [--reps N] [--real DIR] [--quick]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
units=120 reps=3 quick=0 real="" tagcheck="" bench="" include="" work=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tagcheck) tagcheck=$2; shift 2 ;;
    --bench) bench=$2; shift 2 ;;
    --include) include=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --units) units=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --real) real=$2; shift 2 ;;
    --quick) quick=1; units=12; reps=1; shift ;;
    *) echo "run_bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$tagcheck" ] && [ -n "$bench" ] && [ -n "$include" ] && [ -n "$work" ] || {
  echo "usage: run_bench.sh --tagcheck PATH --bench PATH --include DIR --work DIR [--quick]" >&2
  exit 2
}
rm -rf "$work/project"
python3 "$here/gen_project.py" "$work/project" --units "$units" --include "$include"
"$bench" --tagcheck "$tagcheck" -p "$work/project" --reps "$reps" --name "generated project"
if [ "$quick" = 0 ] && [ -n "$real" ]; then
  "$bench" --tagcheck "$tagcheck" -p "$real" --reps "$reps" --name "real code base ($real)"
fi
