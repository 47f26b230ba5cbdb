#!/usr/bin/env python3
"""bench/runtime/mlp_torch.py — dt against PyTorch eager on the same training step (issue 25).

The step: a 3-layer perceptron (linear, relu, linear, relu, linear, sigmoid), MSE loss,
backward, SGD, FP32 (TF32 off), the loss read back every step as dt's step does. In one run it
measures PyTorch here and runs bench_mlp (dt, and on the cpu the hand-written cblas step) with
the same shapes, then prints dt's speed over PyTorch's per size (above 1: dt is faster).

  python3 bench/runtime/mlp_torch.py --bench build/bin/bench_mlp [--device cpu|cuda:0]
      [--sizes B:I-H-O,...] [--seconds S]

Without PyTorch it says so and exits 0 (the dt figures are still printed).
"""
import argparse
import os
import re
import subprocess
import sys
import time

DEFAULT_SIZES = {
    "cpu": "256:2-32-1,1024:256-1024-16",
    "cuda": "256:2-32-1,4096:1024-4096-64,65536:1024-4096-64",
}


def parse_sizes(text):
    sizes = []
    for tok in text.split(","):
        m = re.fullmatch(r"(\d+):(\d+)-(\d+)-(\d+)", tok.strip())
        if not m:
            sys.exit(f"mlp_torch.py: bad size {tok!r} (want B:I-H-O)")
        sizes.append(tuple(int(g) for g in m.groups()))
    return sizes


def torch_step_ms(torch, device, batch, n_in, hidden, n_out, seconds):
    """Median milliseconds of one PyTorch eager training step."""
    torch.manual_seed(0)
    dev = torch.device(device)
    model = torch.nn.Sequential(
        torch.nn.Linear(n_in, hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, n_out), torch.nn.Sigmoid()).to(dev)
    x = torch.randn(batch, n_in, device=dev)
    y = (torch.randn(batch, n_out, device=dev) > 0).float() * 0.8 + 0.1
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    loss_fn = torch.nn.MSELoss()

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        return loss.item()  # waits for the device, as dt_read_floats does

    for _ in range(3):
        step()
    t0 = time.perf_counter()
    step()
    one = max(time.perf_counter() - t0, 1e-7)
    reps = 7
    steps = max(1, min(2000, int(seconds / reps / one)))
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(steps):
            step()
        times.append((time.perf_counter() - t0) / steps)
    times.sort()
    return times[len(times) // 2] * 1e3, steps


def run_dt(bench, device, sizes, seconds):
    """bench_mlp's RESULT lines, keyed by size; its other output is passed through."""
    spec = ",".join(f"{b}:{i}-{h}-{o}" for b, i, h, o in sizes)
    cmd = [bench, "--device", device, "--sizes", spec, "--seconds", str(seconds)]
    if not device.startswith("cpu"):
        cmd.append("--no-hand")
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
    results = {}
    for line in out.splitlines():
        if line.startswith("RESULT "):
            kv = dict(f.split("=", 1) for f in line.split()[1:])
            key = tuple(int(kv[k]) for k in ("batch", "in", "hidden", "out"))
            results[key] = kv
        else:
            print(line)
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True, help="path to bench_mlp")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--sizes")
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    kind = "cuda" if args.device.startswith("cuda") else "cpu"
    sizes = parse_sizes(args.sizes or DEFAULT_SIZES[kind])

    dt = run_dt(args.bench, args.device, sizes, args.seconds)
    try:
        import torch
    except ImportError:
        print("mlp_torch.py: PyTorch is not installed here; only dt's figures above")
        return 0
    if kind == "cuda" and not torch.cuda.is_available():
        print("mlp_torch.py: PyTorch sees no CUDA device; only dt's figures above")
        return 0
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    where = (torch.cuda.get_device_name(0) if kind == "cuda"
             else f"{torch.get_num_threads()} threads, {os.cpu_count()} cpus")
    print(f"PyTorch {torch.__version__} on {args.device} ({where}); TF32 off")
    print(f"{'size (batch, in-hidden-out)':32} {'dt ms':>10} {'PyTorch ms':>11} "
          f"{'dt speed / PyTorch':>19} {'dt / hand':>10}  OpenBLAS core, threads")
    for b, i, h, o in sizes:
        t_ms, steps = torch_step_ms(torch, args.device, b, i, h, o, args.seconds)
        r = dt.get((b, i, h, o))
        if r is None:
            print(f"{b}, {i}-{h}-{o}: dt gave no figure")
            continue
        dt_ms = float(r["dt_ms"])
        hand = f"{float(r['ratio']):.3f}" if kind == "cpu" else "-"
        print(f"{f'{b}, {i}-{h}-{o}':32} {dt_ms:10.4f} {t_ms:11.4f} {t_ms / dt_ms:18.2f}x "
              f"{hand:>10}  {r['core']}, {r['threads']}")
        print(f"TORCH device={args.device} batch={b} in={i} hidden={h} out={o} dt_ms={dt_ms:.6f} "
              f"torch_ms={t_ms:.6f} speedup={t_ms / dt_ms:.4f} torch_steps={steps}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
