#!/usr/bin/env python3
# bench/analyzer/gen_project.py — writes a large synthetic C project that uses the dt API
# everywhere (model structs with arrays of tensors and device fields, helpers in shared headers,
# training loops, switches over configurations, compound literals, autodiff, calls across
# files) plus its compile_commands.json, for the analyzer benchmark (issues 6, 7, 12).
#
#   gen_project.py OUT_DIR --units N --include DT_INCLUDE_DIR [--seed S]
#
# Every unit is valid C11 (the benchmark checks that no unit fails to parse). Deterministic for
# a given seed, so runs on different days compare the same code.
import argparse
import json
import os
import random

HEADER_MODEL = """\
/* model.h — shared model structures and small inline helpers (generated). */
#ifndef BENCH_MODEL_H
#define BENCH_MODEL_H
#include <stddef.h>
#include <stdint.h>
#include <dt/dt.h>

#define BENCH_LAYERS 4
#define BENCH_CHECK(t) do { if (!(t)) { return NULL; } } while (0)

typedef enum bench_mode { MODE_TRAIN = 0, MODE_EVAL = 1, MODE_EXPORT = 2 } bench_mode;

typedef struct layer {
  dt_tensor *w;
  dt_tensor *b;
  dt_device dev;
  int in, out;
} layer;

typedef struct model {
  layer layers[BENCH_LAYERS];
  int n_layers;
  dt_device dev;
  dt_device host;
  bench_mode mode;
  float lr;
} model;

typedef struct batch {
  dt_tensor *x;
  dt_tensor *y;
  int64_t rows;
} batch;

static inline dt_tensor *bench_affine(const layer *l, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, l->w);
  dt_tensor *o = dt_add(h, l->b);
  dt_free(h);
  return o;
}

static inline dt_tensor *bench_act(dt_tensor *x, int kind) {
  dt_tensor *r = NULL;
  switch (kind) {
  case 0: r = dt_relu(x); break;
  case 1: r = dt_sigmoid(x); break;
  case 2: r = dt_tanh(x); break;
  default: r = dt_neg(x); break;
  }
  dt_free(x);
  return r;
}

static inline dt_device bench_pick(int accel, int ordinal) {
  if (accel && dt_backend_available(DT_BACKEND_SIM)) return dt_sim(ordinal);
  return dt_cpu();
}

#endif
"""


def api_header(units):
    lines = ["/* api.h — functions every unit exports (generated). */",
             "#ifndef BENCH_API_H", "#define BENCH_API_H", '#include "model.h"', ""]
    for i in range(units):
        lines.append(f"void init_{i}(model *m, dt_device dev, uint64_t seed);")
        lines.append(f"dt_tensor *forward_{i}(const model *m, const dt_tensor *x);")
        lines.append(f"dt_tensor *loss_{i}(const model *m, const batch *b);")
        lines.append(f"int train_{i}(model *m, batch *batches, int n_batches, int epochs);")
    lines += ["", "#endif", ""]
    return "\n".join(lines)


def unit_source(i, units, rng):
    peer = (i * 7 + 3) % units
    other = (i * 13 + 5) % units
    act = rng.randrange(4)
    hidden = rng.choice([8, 16, 32, 64])
    lines = [
        f"/* unit_{i}.c — generated benchmark unit {i}. */",
        "#include <stdio.h>",
        "#include <stdlib.h>",
        "#include <string.h>",
        '#include "api.h"',
        "",
        f"static const int64_t k_shape_{i}[2] = {{{hidden}, {hidden}}};",
        f"static dt_device g_default_{i} = {{DT_BACKEND_CPU, 0, 0}};",
        f"static int g_calls_{i};",
        "",
        f"void init_{i}(model *m, dt_device dev, uint64_t seed) {{",
        "  memset(m, 0, sizeof *m);",
        "  m->dev = dev;",
        "  m->host = dt_cpu();",
        f"  m->n_layers = {1 + i % 4};",
        f"  m->lr = 0.0{1 + i % 9}f;",
        "  for (int l = 0; l < m->n_layers; l++) {",
        "    layer *ly = &m->layers[l];",
        "    ly->dev = dev;",
        f"    ly->in = {hidden};",
        f"    ly->out = {hidden};",
        "    ly->w = dt_randn(dev, seed + (uint64_t)l, 2, (const int64_t[]){ly->in, ly->out});",
        "    ly->b = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){ly->out});",
        "  }",
        f"  g_calls_{i}++;",
        "}",
        "",
        f"dt_tensor *forward_{i}(const model *m, const dt_tensor *x) {{",
        "  dt_tensor *h = dt_detach(x);",
        "  for (int l = 0; l < m->n_layers; l++) {",
        "    dt_tensor *z = bench_affine(&m->layers[l], h);",
        "    dt_free(h);",
        f"    h = bench_act(z, {act});",
        "    BENCH_CHECK(h);",
        "  }",
        "  return h;",
        "}",
        "",
        f"dt_tensor *loss_{i}(const model *m, const batch *b) {{",
        f"  dt_tensor *pred = forward_{i}(m, b->x);",
        "  if (!pred) return NULL;",
        "  dt_tensor *loss = dt_mse_loss(pred, b->y);",
        "  dt_free(pred);",
        "  return loss;",
        "}",
        "",
        f"static dt_tensor *stack_{i}(dt_tensor *const *parts, int n) {{",
        "  dt_tensor *cols[8];",
        "  int k = 0;",
        "  for (int j = 0; j < n && k < 8; j++) cols[k++] = parts[j];",
        "  return dt_cat(k, cols, 1);",
        "}",
        "",
        f"static void sgd_{i}(model *m, float scale) {{",
        "  for (int l = 0; l < m->n_layers; l++) {",
        "    layer *ly = &m->layers[l];",
        "    dt_tensor *step = dt_mul_scalar(ly->w, -scale * m->lr);",
        "    dt_tensor *next = dt_add(ly->w, step);",
        "    dt_free(step);",
        "    dt_free(ly->w);",
        "    ly->w = next;",
        "  }",
        "}",
        "",
        f"int train_{i}(model *m, batch *batches, int n_batches, int epochs) {{",
        "  float total = 0;",
        "  for (int e = 0; e < epochs; e++) {",
        "    for (int k = 0; k < n_batches; k++) {",
        "      batch *b = &batches[k];",
        f"      dt_tensor *loss = loss_{i}(m, b);",
        "      if (!loss) continue;",
        "      float v = 0;",
        "      if (dt_read_floats(loss, &v, 1) != 0) { dt_free(loss); return -1; }",
        "      total += v;",
        "      dt_free(loss);",
        "      switch (m->mode) {",
        f"      case MODE_TRAIN: sgd_{i}(m, 1.0f); break;",
        "      case MODE_EVAL: break;",
        "      case MODE_EXPORT:",
        "      default: e = epochs; break;",
        "      }",
        "    }",
        "  }",
        "  return total > 1e9f ? 1 : 0;",
        "}",
        "",
        f"static batch make_batch_{i}(dt_device dev, int64_t rows, uint64_t seed) {{",
        f"  batch b = {{.x = dt_randn(dev, seed, 2, (const int64_t[]){{rows, {hidden}}}),",
        f"             .y = dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){{rows, {hidden}}}),",
        "             .rows = rows};",
        "  return b;",
        "}",
        "",
        f"int run_{i}(int argc, char **argv) {{",
        "  int accel = argc > 1 && strcmp(argv[1], \"--sim\") == 0;",
        f"  dt_device dev = bench_pick(accel, {i % 2});",
        "  model m;",
        f"  init_{i}(&m, dev, {i}u);",
        f"  batch batches[3];",
        "  for (int k = 0; k < 3; k++)",
        f"    batches[k] = make_batch_{i}(dev, 4 + k, (uint64_t)k);",
        f"  int rc = train_{i}(&m, batches, 3, 2);",
        f"  model peer;",
        f"  init_{peer}(&peer, dev, {peer}u);",
        f"  dt_tensor *a = forward_{peer}(&peer, batches[0].x);",
        f"  dt_tensor *b = forward_{i}(&m, batches[1].x);",
        "  dt_tensor *parts[2] = {a, b};",
        f"  dt_tensor *both = a && b ? stack_{i}(parts, 2) : NULL;",
        "  if (both) {",
        "    dt_tensor *s = dt_sum(both);",
        "    float v;",
        "    dt_read_floats(s, &v, 1);",
        "    printf(\"%f\\n\", (double)v);",
        "    dt_free(s);",
        "  }",
        "  dt_free(both);",
        "  dt_free(a);",
        "  dt_free(b);",
        f"  dt_device ad = dt_autodiff(g_default_{i});",
        f"  dt_tensor *p = dt_require_grad(dt_randn(ad, 7, 2, k_shape_{i}));",
        f"  dt_tensor *q = dt_randn(ad, 8, 2, k_shape_{i});",
        "  dt_tensor *pq = dt_matmul(p, q);",
        "  dt_tensor *l2 = dt_mean(pq);",
        "  if (dt_backward(l2) == 0) {",
        "    dt_tensor *g = dt_grad(p);",
        "    dt_free(g);",
        "  }",
        "  dt_free(l2); dt_free(pq); dt_free(q); dt_free(p);",
        f"  if (rc == 0) rc = train_{other}(&peer, batches, 3, 1);",
        "  for (int k = 0; k < 3; k++) { dt_free(batches[k].x); dt_free(batches[k].y); }",
        "  for (int l = 0; l < m.n_layers; l++) { dt_free(m.layers[l].w); dt_free(m.layers[l].b); }",
        "  for (int l = 0; l < peer.n_layers; l++) { dt_free(peer.layers[l].w); dt_free(peer.layers[l].b); }",
        "  return rc;",
        "}",
        "",
    ]
    # filler helpers: more realistic bulk (struct walks, branches, loops over devices)
    n_helpers = rng.randrange(6, 10)
    for h in range(n_helpers):
        lines += [
            f"static dt_tensor *helper_{i}_{h}(const model *m, dt_tensor *x, int flags) {{",
            "  dt_tensor *acc = dt_mul_scalar(x, 1.0f);",
            f"  for (int r = 0; r < {2 + h % 3}; r++) {{",
            "    dt_tensor *t = NULL;",
            "    if (flags & 1) t = dt_relu(acc);",
            "    else if (flags & 2) t = dt_sigmoid(acc);",
            "    else t = dt_tanh(acc);",
            "    dt_free(acc);",
            "    acc = t;",
            "    if (!acc) break;",
            "  }",
            "  if (m->n_layers > 0 && acc) {",
            "    dt_tensor *o = bench_affine(&m->layers[0], acc);",
            "    dt_free(acc);",
            "    acc = o;",
            "  }",
            "  return acc;",
            "}",
            "",
        ]
    lines += [
        f"int drive_{i}(const model *m, dt_tensor *x) {{",
        "  int n = 0;",
    ]
    for h in range(n_helpers):
        lines.append(f"  {{ dt_tensor *r = helper_{i}_{h}(m, x, {h}); n += r != NULL; dt_free(r); }}")
    lines += ["  return n;", "}", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out")
    ap.add_argument("--units", type=int, default=120)
    ap.add_argument("--include", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compiler", default="gcc")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    out = os.path.abspath(a.out)
    a.include = os.path.abspath(a.include)
    os.makedirs(os.path.join(out, "include"), exist_ok=True)
    os.makedirs(os.path.join(out, "src"), exist_ok=True)
    with open(os.path.join(out, "include", "model.h"), "w") as f:
        f.write(HEADER_MODEL)
    with open(os.path.join(out, "include", "api.h"), "w") as f:
        f.write(api_header(a.units))
    entries = []
    total = 0
    for i in range(a.units):
        src = unit_source(i, a.units, rng)
        total += src.count("\n")
        name = f"unit_{i}.c"
        with open(os.path.join(out, "src", name), "w") as f:
            f.write(src)
        # gcc-style command lines as a real build would write them, relative paths included
        entries.append({
            "directory": os.path.join(out, "build"),
            "file": f"../src/{name}",
            "command": f"{a.compiler} -std=gnu11 -O2 -g -Wall -Wextra -fno-strict-aliasing "
                       f"-I../include -I{a.include} -DBENCH_UNIT={i} -MD -MF unit_{i}.d "
                       f"-c ../src/{name} -o unit_{i}.o",
        })
    os.makedirs(os.path.join(out, "build"), exist_ok=True)
    with open(os.path.join(out, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    print(f"{a.units} units, {total} lines in {out}")


if __name__ == "__main__":
    main()
