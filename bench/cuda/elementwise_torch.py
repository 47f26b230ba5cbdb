#!/usr/bin/env python3
"""bench/cuda/elementwise_torch.py — dt's element-wise cuda kernels against PyTorch's (issue 25).

In one run it runs bench_cuda_elementwise (dt's add, mul and sum of 256M floats and a
device-to-device cudaMemcpy of the same data), then times the same work through PyTorch eager on
the same GPU — torch.add and torch.mul into a preallocated output, torch.sum, and Tensor.copy_ as
PyTorch's copy baseline — and prints every figure in TB/s (bytes read + written, as
bench_cuda_elementwise counts them) with dt's bandwidth over PyTorch's (target: 1.0 or more).

  python3 bench/cuda/elementwise_torch.py --bench build/bin/bench_cuda_elementwise [--device cuda:0]

Without PyTorch, or without a GPU PyTorch can see, it says so and exits 0 (dt's figures are
still printed). Standard library and torch only.
"""
import argparse
import re
import subprocess
import sys

N = 256 << 20  # floats, as bench_cuda_elementwise
WARM, REPS = 3, 10  # as bench_cuda_elementwise's bc_time_ms

# bench_cuda_elementwise's lines, by what they name
DT_LINES = {
    "copy": re.compile(r"^cudaMemcpy device to device\s+([\d.]+) ms\s+([\d.]+) TB/s"),
    "add": re.compile(r"^add \(dt kernel.*?\)\s+([\d.]+) ms\s+([\d.]+) TB/s"),
    "mul": re.compile(r"^mul \(dt kernel.*?\)\s+([\d.]+) ms\s+([\d.]+) TB/s"),
    "sum": re.compile(r"^sum \(dt kernel.*?\)\s+([\d.]+) ms\s+([\d.]+) TB/s"),
}


def run_dt(bench):
    """dt's (ms, TB/s) per operation; bench_cuda_elementwise's output is passed through."""
    proc = subprocess.run([bench], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    found = {}
    for line in proc.stdout.splitlines():
        print(line)
        for name, pattern in DT_LINES.items():
            m = pattern.match(line)
            if m:
                found[name] = (float(m.group(1)), float(m.group(2)))
    if proc.returncode != 0:
        print(f"elementwise_torch.py: {bench} exited with {proc.returncode}")
    return found


def median_ms(torch, fn):
    """Median milliseconds of fn on the current stream, timed with CUDA events."""
    for _ in range(WARM):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(REPS):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def torch_figures(torch, device):
    """PyTorch's (ms, TB/s) per operation, and whether each result was right."""
    dev = torch.device(device)
    gen = torch.Generator(device=dev).manual_seed(0)
    a = torch.rand(N, device=dev, generator=gen)
    b = torch.rand(N, device=dev, generator=gen)
    c = torch.empty_like(a)
    nbytes = N * 4
    figures, checks = {}, {}
    work = {
        "copy": (lambda: c.copy_(a), 2),
        "add": (lambda: torch.add(a, b, out=c), 3),
        "mul": (lambda: torch.mul(a, b, out=c), 3),
        "sum": (lambda: a.sum(), 1),
    }
    for name, (fn, passes) in work.items():
        ms = median_ms(torch, fn)
        figures[name] = (ms, passes * nbytes / (ms * 1e-3) / 1e12)
    # the work was done: spot checks against the plain expressions
    checks["add"] = bool(torch.equal(torch.add(a, b, out=c)[:4096], a[:4096] + b[:4096]))
    checks["mul"] = bool(torch.equal(torch.mul(a, b, out=c)[:4096], a[:4096] * b[:4096]))
    want = a.double().sum().item()
    checks["sum"] = abs(a.sum().item() - want) <= 1e-5 * want + 1e-3
    checks["copy"] = bool(torch.equal(c.copy_(a), a))
    del a, b, c
    torch.cuda.empty_cache()
    return figures, checks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True, help="path to bench_cuda_elementwise")
    ap.add_argument("--device", default="cuda:0")
    args = ap.parse_args()

    dt = run_dt(args.bench)
    try:
        import torch
    except ImportError:
        print("elementwise_torch.py: PyTorch is not installed here; only dt's figures above")
        return 0
    if not torch.cuda.is_available():
        print("elementwise_torch.py: PyTorch sees no CUDA device; only dt's figures above")
        return 0
    torch.cuda.set_device(torch.device(args.device))
    theirs, checks = torch_figures(torch, args.device)
    print(f"\nPyTorch {torch.__version__} on {args.device} ({torch.cuda.get_device_name()}), "
          f"256M floats, median of {REPS}; TB/s = bytes read + written per second")
    print(f"{'work':8} {'dt ms':>9} {'dt TB/s':>8} {'PyTorch ms':>11} {'PyTorch TB/s':>13} "
          f"{'dt / PyTorch':>13}  PyTorch result")
    labels = {"copy": "copy (dt: cudaMemcpy; PyTorch: copy_)"}
    for name in ("copy", "add", "mul", "sum"):
        t_ms, t_bw = theirs[name]
        mine = dt.get(name)
        check = "checked" if checks[name] else "WRONG RESULT"
        if mine is None:
            print(f"{name:8} {'-':>9} {'-':>8} {t_ms:11.3f} {t_bw:13.3f} {'-':>13}  {check}")
            continue
        d_ms, d_bw = mine
        print(f"{name:8} {d_ms:9.3f} {d_bw:8.3f} {t_ms:11.3f} {t_bw:13.3f} {d_bw / t_bw:12.3f}x  "
              f"{check}  {labels.get(name, '')}")
        print(f"TORCH_ELEMENTWISE op={name} dt_tbs={d_bw:.4f} torch_tbs={t_bw:.4f} "
              f"ratio={d_bw / t_bw:.4f}")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
