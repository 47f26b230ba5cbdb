#!/bin/sh
# Installs the build and test dependencies that are missing (Debian 12, as root or with sudo).
set -e
PKGS="cmake make gcc pkg-config libclang-19-dev clang-19 libcjson-dev libopenblas-dev libcmocka-dev neovim"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing
