#!/bin/sh
# bench/cuda/pack_for_device.sh DIR — packs what a GPU machine without this project's build
# dependencies (OpenBLAS, cmocka) needs to run the cuda backend's tests and benchmarks: a Release
# build's test and bench programs, libdt and libdt_cuda.so, and the shared libraries they load,
# plus DIR/run.sh, which runs them and writes the result files (h200-*.txt) into $OUT (or /tmp).
# The lead's device runs of issue 4 used it: carry DIR, then `sh DIR/run.sh`.
set -eu
DIR=${1:-.gpu-run}
BUILD=${BUILD:-build-device}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
cmake --build "$BUILD" -j 2 --target dt dt_cuda test_backend_ops test_backend_transfer \
  test_backend_rules test_backend_autodiff bench_cuda_elementwise bench_cuda_matmul \
  bench_cuda_launch bench_cuda_dispatch
rm -rf "$DIR" && mkdir -p "$DIR/bin" "$DIR/lib"
for p in test_backend_ops test_backend_transfer test_backend_rules test_backend_autodiff \
  bench_cuda_elementwise bench_cuda_matmul bench_cuda_launch bench_cuda_dispatch; do
  cp "$BUILD/bin/$p" "$DIR/bin/"
done
cp -P "$BUILD"/lib/libdt.so* "$BUILD/lib/libdt_cuda.so" "$DIR/lib/"
# the host libraries the programs load that a CUDA image may lack (not the CUDA ones)
ldd "$DIR"/bin/* | awk '/openblas|cmocka|gfortran|quadmath/ {print $3}' | sort -u |
  while read -r lib; do cp -L "$lib" "$DIR/lib/"; done
strip "$DIR"/bin/* "$DIR"/lib/libdt.so.*.*.* "$DIR/lib/libdt_cuda.so" 2>/dev/null || true
cat > "$DIR/run.sh" <<'RUN'
#!/bin/sh
# Runs the cuda backend's tests and benchmarks; result files go to $OUT (or /tmp).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
O=${OUT:-/tmp}
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.mem --format=csv
  for t in ops transfer rules autodiff; do
    echo "== test_backend_$t cuda:0"
    DT_ON_ERROR= ./bin/test_backend_$t cuda:0 >/tmp/t.log 2>&1; rc=$?
    grep -E "ERROR|FAIL|PASSED|SKIPPED" /tmp/t.log | head -20; echo "rc=$rc"
  done
} 2>&1 | tee "$O/h200-tests.txt"
./bin/bench_cuda_elementwise 2>&1 | tee "$O/h200-elementwise.txt"
./bin/bench_cuda_matmul 2>&1 | tee "$O/h200-matmul.txt"
{ ./bin/bench_cuda_launch; ./bin/bench_cuda_dispatch; } 2>&1 | tee "$O/h200-launch.txt"
RUN
chmod +x "$DIR/run.sh"
du -sh "$DIR"
