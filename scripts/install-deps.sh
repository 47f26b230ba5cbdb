#!/bin/sh
# scripts/install-deps.sh [demo|test] — installs the Debian 12 packages that are missing (as
# root or with sudo), only what the purpose needs:
#   demo  what building tagcheck and libdt and running the demo need (g++ for the C++ standard
#         library headers of the C++ corpus programs the demo analyzes); no Node.js
#   test  that plus what the test suite needs (the default): cmocka, fuzzing, valgrind, csmith,
#         Neovim, git, and Node.js with Microsoft's SARIF validator (npm ci in tests/report)
set -e
what=${1:-test}
PKGS="cmake make gcc g++ libc6-dev pkg-config python3 libclang-19-dev clang-19 libcjson-dev libopenblas-dev"
[ "$what" = test ] && PKGS="$PKGS libcmocka-dev git neovim libclang-rt-19-dev csmith libcsmith-dev valgrind"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
  echo "installing:$missing"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends $missing
else
  echo "every package is installed ($what)"
fi
[ "$what" = test ] || exit 0

# The SARIF validator that tests/report runs (Microsoft's @microsoft/sarif-multitool, pinned
# in tests/report/package-lock.json): Node.js and npm from Debian when missing, then `npm ci`.
# Without it the validator test fails (it never skips).
root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  node_pkgs=""
  command -v node >/dev/null 2>&1 || node_pkgs="nodejs"
  command -v npm >/dev/null 2>&1 || node_pkgs="$node_pkgs npm"
  echo "installing: $node_pkgs"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends $node_pkgs
fi
if [ ! -x "$root/tests/report/node_modules/.bin/sarif-multitool" ]; then
  echo "installing: @microsoft/sarif-multitool (npm ci in tests/report)"
  (cd "$root/tests/report" && npm ci --no-audit --no-fund --loglevel=error)
fi
