#!/bin/sh
# scripts/fresh-root-check.sh [DIR] — the README's quick start on a bare Debian 12, as a new user
# meets it: debootstraps a minimal Debian 12 root (--variant=minbase, what the debian:12 image
# is) into DIR (default /tmp/tagcheck-fresh-root), copies this checkout (its committed files)
# to /root/tagcheck inside, runs `sh scripts/quickstart.sh demo` there as root and checks the
# story: at most 100 lines, the headline finding, the runtime stopping at the same line,
# every annotated corpus bug reported; then that tagcheck is on PATH and that a program built
# with pkg-config starts. Needs root, the network to a Debian mirror and debootstrap; takes
# minutes. Not part of ctest (it needs the network); run it by hand before a release.
set -eu
ROOT=${1:-/tmp/tagcheck-fresh-root}
TOP=$(cd "$(dirname "$0")/.." && pwd)
command -v debootstrap >/dev/null 2>&1 || apt-get install -y -qq debootstrap >/dev/null
[ -x "$ROOT/bin/sh" ] || debootstrap --variant=minbase bookworm "$ROOT" http://deb.debian.org/debian >/dev/null
rm -rf "$ROOT/root/tagcheck"
mkdir -p "$ROOT/root/tagcheck"
(cd "$TOP" && git archive HEAD) | tar -x -C "$ROOT/root/tagcheck"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
mountpoint -q "$ROOT/dev" || mount --bind /dev "$ROOT/dev"
trap 'umount "$ROOT/proc" "$ROOT/dev" 2>/dev/null || true' EXIT
out="$ROOT/root/demo.out"
chroot "$ROOT" /bin/sh -c 'cd /root/tagcheck && sh scripts/quickstart.sh demo' > "$out" 2>&1 ||
  { cat "$out"; echo "fresh-root-check: the demo failed"; exit 1; }
fail=0
lines=$(wc -l < "$out")
[ "$lines" -le 100 ] || { echo "the demo printed $lines lines (more than 100)"; fail=1; }
grep -q 'from_inner_wrong_backend_bug.c:16:18: error: dt_from_inner' "$out" || { echo "no headline finding"; fail=1; }
grep -q '^corpus/autodiff/from_inner_wrong_backend_bug.c:16: dt_from_inner: .*\[autodiff-inner-backend\]' "$out" ||
  { echo "the runtime did not stop at the headline line"; fail=1; }
grep -q ' 0 missed; 0 findings no annotation expects' "$out" || { echo "the corpus summary disagrees"; fail=1; }
chroot "$ROOT" /bin/sh -c 'command -v tagcheck' >/dev/null || { echo "tagcheck is not on PATH"; fail=1; }
chroot "$ROOT" /bin/sh -c 'cd /tmp && printf "#include <dt/dt.h>\nint main(void){dt_free(dt_zeros(dt_cpu(), DT_FLOAT, 0, 0)); return 0;}\n" > pc.c &&
  cc pc.c $(pkg-config --cflags --libs dt) -o pc && ./pc' || { echo "a pkg-config program does not start"; fail=1; }
cat "$out"
[ "$fail" -eq 0 ] && echo "fresh-root-check: ok ($lines lines)"
exit "$fail"
