#!/bin/sh
# tests/report/validate.sh — runs Microsoft's SARIF validator (@microsoft/sarif-multitool, pinned
# in tests/report/package.json, installed by scripts/install-deps.sh) on SARIF logs, with its
# default rules and with --rule-kind Gh (GitHub's ingestion rules), and fails on any error. The
# validator's exit status is 0 even when it finds errors, so its own output log is read. A
# deliberately broken log must produce errors in both modes: proof the validator really ran.
# A validator that cannot run is a FAILURE, never a skip.
# usage: validate.sh VALIDATOR_ERRORS_BIN BROKEN.sarif LOG.sarif...
set -u
here=$(cd "$(dirname "$0")" && pwd)
tool="$here/node_modules/.bin/sarif-multitool"
if [ ! -x "$tool" ]; then
  echo "FAIL: $tool not found: run scripts/install-deps.sh (npm ci in tests/report)" >&2
  exit 1
fi
counter=$1
shift
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

# count_errors LOG MODE: prints the number of error-level results the validator reported.
count_errors() {
  log=$1
  mode=$2
  out="$work/out.sarif"
  rm -f "$out"
  # The npm wrapper runs the tool through a shell: keep the arguments free of spaces.
  cp "$log" "$work/in.sarif"
  if [ "$mode" = default ]; then
    set --
  else
    set -- --rule-kind "$mode"
  fi
  (cd "$here" && npx --no-install @microsoft/sarif-multitool validate "$work/in.sarif" "$@" \
    -o "$out" --log ForceOverwrite) > "$work/console.txt" 2>&1
  if [ ! -s "$out" ]; then
    echo "FAIL: the validator wrote no log for $log ($mode):" >&2
    cat "$work/console.txt" >&2
    echo -1
    return
  fi
  if ! "$counter" "$out"; then
    echo "FAIL: cannot read the validator's log for $log ($mode)" >&2
    echo -1
    return
  fi
  grep -E ": (error|warning) " "$work/console.txt" >&2
}

status=0
broken=$1
shift
for mode in default Gh; do
  n=$(count_errors "$broken" "$mode")
  if [ "$n" -le 0 ]; then
    echo "FAIL: the validator ($mode) found no error in the broken log $broken" >&2
    status=1
  else
    echo "ok: validator ($mode) rejects the broken log ($n errors)"
  fi
done
for log in "$@"; do
  for mode in default Gh; do
    n=$(count_errors "$log" "$mode")
    if [ "$n" -ne 0 ]; then
      echo "FAIL: $log: $n validator errors ($mode rules)" >&2
      status=1
    else
      echo "ok: $log passes the validator ($mode rules)"
    fi
  done
done
exit $status
