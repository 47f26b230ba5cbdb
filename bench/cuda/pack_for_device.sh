#!/bin/sh
# bench/cuda/pack_for_device.sh DIR — packs what a GPU machine without this project's build
# dependencies (OpenBLAS, cmocka) needs to run the cuda backend's tests and benchmarks: a Release
# build's test and bench programs, libdt and libdt_cuda.so, and the shared libraries they load,
# plus DIR/run.sh, which runs them and writes the result files (h200-*.txt) into $OUT (or /tmp).
# The lead's device runs of issue 4 used it: carry DIR, then `sh DIR/run.sh`. Since issue 25 it
# also packs bench_mlp and bench/runtime/mlp_torch.py: the MLP training step, dt against the
# hand-written cblas step on the host's cores (as OpenBLAS detects them, then with the core the
# CPU deserves) and against PyTorch eager on cuda:0 and on the cpu, in the same call; and
# bench/cuda/elementwise_torch.py: dt's element-wise kernels beside PyTorch's, same run.
set -eu
DIR=${1:-.gpu-run}
BUILD=${BUILD:-build-device}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
cmake --build "$BUILD" -j 2 --target dt dt_cuda test_backend_ops test_backend_transfer \
  test_backend_rules test_backend_autodiff test_ad_gradients test_ad_train bench_cuda_elementwise \
  bench_cuda_matmul bench_cuda_launch bench_cuda_dispatch bench_mlp
rm -rf "$DIR" && mkdir -p "$DIR/bin" "$DIR/lib"
for p in test_backend_ops test_backend_transfer test_backend_rules test_backend_autodiff \
  test_ad_gradients test_ad_train bench_cuda_elementwise bench_cuda_matmul bench_cuda_launch \
  bench_cuda_dispatch bench_mlp; do
  cp "$BUILD/bin/$p" "$DIR/bin/"
done
cp bench/runtime/mlp_torch.py bench/cuda/elementwise_torch.py "$DIR/"
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
# where the cuda plugin's dlopen finds libcublas: the toolkit, or PyTorch's pip package
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia.cublas as c; print(list(c.__path__)[0] + "/lib")' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$d"
done
O=${OUT:-/tmp}
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.mem --format=csv
  for t in backend_ops:cuda:0 backend_transfer:cuda:0 backend_rules:cuda:0 \
    backend_autodiff:cuda:0 ad_gradients:cuda ad_train:cuda; do
    echo "== test_${t%%:*} ${t#*:}"
    DT_ON_ERROR= ./bin/test_${t%%:*} "${t#*:}" >/tmp/t.log 2>&1; rc=$?
    grep -E "ERROR|FAIL|PASSED|SKIPPED" /tmp/t.log | head -20; echo "rc=$rc"
  done
} 2>&1 | tee "$O/h200-tests.txt"
# dt's element-wise kernels, then PyTorch's add, mul, sum and copy on the same GPU, same run
if command -v python3 >/dev/null; then
  python3 elementwise_torch.py --bench ./bin/bench_cuda_elementwise
else
  ./bin/bench_cuda_elementwise
fi 2>&1 | tee "$O/h200-elementwise.txt"
./bin/bench_cuda_matmul 2>&1 | tee "$O/h200-matmul.txt"
{ ./bin/bench_cuda_launch; ./bin/bench_cuda_dispatch; } 2>&1 | tee "$O/h200-launch.txt"
# issue 25: the MLP step, dt against the hand-written cblas step on the host's cores, first with
# the kernels OpenBLAS picks, then (when bench_mlp says they are below the CPU) with the right ones
{
  date -u; nproc; grep -m1 'model name' /proc/cpuinfo
  ./bin/bench_mlp 2>&1 | tee /tmp/mlp.log
  fix=$(sed -n 's/.*Set \(OPENBLAS_CORETYPE=[A-Za-z0-9]*\).*/\1/p' /tmp/mlp.log | head -1)
  if [ -n "$fix" ]; then echo "== again with $fix"; env "$fix" ./bin/bench_mlp; fi
} 2>&1 | tee "$O/h200-mlp-cpu.txt"
fix=$(sed -n 's/.*Set \(OPENBLAS_CORETYPE=[A-Za-z0-9]*\).*/\1/p' /tmp/mlp.log | head -1)
# dt against PyTorch eager, same run: cuda:0, then the cpu (with the right OpenBLAS kernels)
{
  python3 mlp_torch.py --bench ./bin/bench_mlp --device cuda:0
  env ${fix:-DT_BLAS_CHECK=1} python3 mlp_torch.py --bench ./bin/bench_mlp --device cpu
} 2>&1 | tee "$O/h200-mlp-torch.txt"
RUN
chmod +x "$DIR/run.sh"
du -sh "$DIR"
