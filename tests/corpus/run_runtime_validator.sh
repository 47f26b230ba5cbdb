#!/bin/sh
# tests/corpus/run_runtime_validator.sh — Microsoft's SARIF validator (tests/report/validate.sh:
# default rules and GitHub's) on the logs the runtime writes under DT_REPORT: a run with several
# failures in return mode, an aborted run and a clean run of runtime_sarif_sample.
# usage: run_runtime_validator.sh SAMPLE_BIN VALIDATOR_ERRORS_BIN SOURCE_DIR OUT_DIR
set -u
sample=$1
counter=$2
src=$3
out=$4
rm -rf "$out"
mkdir -p "$out"
for mode in return abort clean; do
  DT_REPORT="$out/runtime-$mode.sarif" DT_REPORT_ROOT="$src" "$sample" "$mode" \
    > "$out/$mode.stdout" 2> "$out/$mode.stderr"
  if [ ! -s "$out/runtime-$mode.sarif" ]; then
    echo "FAIL: runtime_sarif_sample $mode wrote no DT_REPORT log" >&2
    exit 1
  fi
done
# A log the validator must reject (no tool.driver.name, a result without message text), so a
# validator that silently does nothing cannot pass.
cat > "$out/broken.sarif" <<'JSON'
{"version": "2.1.0", "runs": [{"tool": {"driver": {}}, "results": [{"ruleId": "x", "message": {}}]}]}
JSON
exec sh "$src/tests/report/validate.sh" "$counter" "$out/broken.sarif" \
  "$out/runtime-return.sarif" "$out/runtime-abort.sarif" "$out/runtime-clean.sarif"
