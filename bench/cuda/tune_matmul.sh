#!/bin/bash
# bench/cuda/tune_matmul.sh DIR NAME="FLAGS" ... — builds one bench_cuda_matmul per variant of
# runtime/kernels/matmul.cuh (FLAGS: -D overrides such as -DDT_K_MMF_BK=8), here where nvcc is
# and no GPU needs to be, into DIR/NAME, plus DIR/run.sh, which runs them all on a GPU machine
# in one go (one header line per variant, then its table). Carry DIR to the device, run
# `sh DIR/run.sh`. The variants tried on an H200 are in bench/results/h200-matmul-tuning.txt.
set -eu
DIR=$1
shift
NVCC=${NVCC:-nvcc}
ARCH=${ARCH:-sm_90}
mkdir -p "$DIR"
: > "$DIR/variants.txt"
build() { # NAME FLAGS
  "$NVCC" -std=c++17 -O3 -arch="$ARCH" -lineinfo $2 -Iruntime/include -Iruntime \
    -Iruntime/backends/cuda -o "$DIR/$1" bench/cuda/bench_cuda_matmul.cu \
    runtime/backends/cuda/cuda_backend.cu -lcublas -Xptxas -v 2>&1 |
    awk '/_Z15dt_k_matmul_f32/ {f = 1} f && /spill|registers/ {print; if (/registers/) f = 0}' \
      > "$DIR/$1.ptxas"
  printf '%s\t%s\t%s\n' "$1" "$2" "$(tr '\n' ' ' < "$DIR/$1.ptxas")" >> "$DIR/variants.txt"
}
for v in "$@"; do
  build "${v%%=*}" "${v#*=}" &
  # two builds at a time (the build machine's cores are shared)
  if [ "$(jobs -p | wc -l)" -ge 2 ]; then wait -n 2>/dev/null || wait; fi
done
wait
cat > "$DIR/run.sh" <<'RUN'
#!/bin/sh
# Runs every variant built by tune_matmul.sh, in the order listed in variants.txt.
cd "$(dirname "$0")"
while IFS="$(printf '\t')" read -r name flags ptxas; do
  echo "== $name: $flags ($ptxas)"
  ./"$name" | tail -n +4
done < variants.txt
RUN
cat "$DIR/variants.txt"
