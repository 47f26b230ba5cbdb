// provenance: blind round field6
// A memory-aware placement planner for a 6-layer residual network.  Three device slots
// (sim:0 and sim:1 with 100 units each, the cpu with plenty) keep counters of used memory
// and layer counts; layers are placed first-fit by their parameter size.  With sizes
// 40, 40, 30, 50, 60, 20 the plan is: L0 sim:0, L1 sim:0, L2 sim:1, L3 sim:1, L4 cpu,
// L5 sim:0.  The forward pass moves each layer's input to the layer's device, but the
// residual connection from L1 into L4 adds L1's output (sim:0) to L4's output (cpu) as is.
// The report at the end also reads the planner's per-slot counters.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

#define NSLOTS 3
#define NLAYERS 6
#define W 4

typedef struct dev_slot {
  dt_device dev;
  int capacity;
  int used;
  int nlayers;
  int peak;
} dev_slot;

typedef struct layer_spec {
  int size;
  int slot;      /* filled by the planner */
  int skip_from; /* -1: no residual input */
} layer_spec;

typedef struct planner {
  dev_slot slots[NSLOTS];
  layer_spec layers[NLAYERS];
  int placed;
  int failed;
} planner;

typedef struct layer_rt {
  dt_device dev;
  dt_tensor *w;
  dt_tensor *b;
  dt_tensor *out;  /* kept for residual connections */
} layer_rt;

static const int64_t WS[2] = {W, W};
static const int64_t BS[1] = {W};
static const int64_t XS[2] = {1, W};

static void planner_init(planner *p) {
  memset(p, 0, sizeof *p);
  p->slots[0].dev = dt_sim(0);
  p->slots[0].capacity = 100;
  p->slots[1].dev = dt_sim(1);
  p->slots[1].capacity = 100;
  p->slots[2].dev = dt_cpu();
  p->slots[2].capacity = 1 << 20;
  static const int sizes[NLAYERS] = {40, 40, 30, 50, 60, 20};
  for (int i = 0; i < NLAYERS; i++) {
    p->layers[i].size = sizes[i];
    p->layers[i].slot = -1;
    p->layers[i].skip_from = -1;
  }
  p->layers[4].skip_from = 1;
  p->layers[5].skip_from = 3;
}

static int fits(const dev_slot *s, int size) {
  return s->used + size <= s->capacity;
}

static void take(dev_slot *s, int size) {
  s->used += size;
  s->nlayers++;
  if (s->used > s->peak)
    s->peak = s->used;
}

static void plan(planner *p) {
  for (int i = 0; i < NLAYERS; i++) {
    layer_spec *l = &p->layers[i];
    for (int k = 0; k < NSLOTS; k++) {
      if (fits(&p->slots[k], l->size)) {
        take(&p->slots[k], l->size);
        l->slot = k;
        p->placed++;
        break;
      }
    }
    if (l->slot < 0)
      p->failed++;
  }
}

static void build(const planner *p, layer_rt *rt) {
  for (int i = 0; i < NLAYERS; i++) {
    rt[i].dev = p->slots[p->layers[i].slot].dev;
    dt_tensor *w0 = dt_randn(rt[i].dev, (uint64_t)(i + 1), 2, WS);
    rt[i].w = dt_mul_scalar(w0, 0.5f);
    dt_free(w0);
    rt[i].b = dt_full(rt[i].dev, 0.01f * (float)i, 1, BS);
    rt[i].out = NULL;
  }
}

static void release(layer_rt *rt) {
  for (int i = 0; i < NLAYERS; i++) {
    dt_free(rt[i].w);
    dt_free(rt[i].b);
    dt_free(rt[i].out);
  }
}

static dt_tensor *dense(const layer_rt *l, const dt_tensor *x) {
  dt_tensor *in = dt_to_device(x, l->dev);
  dt_tensor *h = dt_matmul(in, l->w);
  dt_tensor *hb = dt_add(h, l->b);
  dt_tensor *a = dt_relu(hb);
  dt_free(in);
  dt_free(h);
  dt_free(hb);
  return a;
}

static dt_tensor *residual(const dt_tensor *main_path, const dt_tensor *skip) {
  return dt_add(main_path, skip); // expect-error: backend-mismatch
}

static dt_tensor *forward(const planner *p, layer_rt *rt, const dt_tensor *x) {
  const dt_tensor *cur = x;
  for (int i = 0; i < NLAYERS; i++) {
    dt_tensor *o = dense(&rt[i], cur);
    int from = p->layers[i].skip_from;
    if (from == 1) {
      dt_tensor *r = residual(o, rt[from].out);
      dt_free(o);
      o = r;
    } else if (from == 3) {
      /* L3 is on sim:1 and L5 on sim:0: this one is moved first */
      dt_tensor *moved = dt_to_device(rt[from].out, rt[i].dev);
      dt_tensor *r = dt_add(o, moved);
      dt_free(moved);
      dt_free(o);
      o = r;
    }
    rt[i].out = o;
    cur = o;
  }
  return dt_to_device(cur, dt_cpu());
}

static void report(const planner *p) {
  for (int k = 0; k < NSLOTS; k++) {
    char name[16];
    dt_device_name(p->slots[k].dev, name, sizeof name);
    printf("%-6s layers %d used %d peak %d\n", name, p->slots[k].nlayers, p->slots[k].used,
           p->slots[k].peak);
  }
  printf("placed %d failed %d\n", p->placed, p->failed);
}

/* invariants of a plan: every layer placed, no slot over capacity, counters consistent */
static int plan_valid(const planner *p) {
  int total = 0;
  for (int k = 0; k < NSLOTS; k++) {
    if (p->slots[k].used > p->slots[k].capacity)
      return 0;
    total += p->slots[k].nlayers;
  }
  for (int i = 0; i < NLAYERS; i++)
    if (p->layers[i].slot < 0 || p->layers[i].slot >= NSLOTS)
      return 0;
  return total == p->placed && p->failed == 0;
}

/* which layers share a device with their residual source */
static void describe_skips(const planner *p) {
  for (int i = 0; i < NLAYERS; i++) {
    int from = p->layers[i].skip_from;
    if (from < 0)
      continue;
    printf("skip %d -> %d: %s\n", from, i,
           p->layers[from].slot == p->layers[i].slot ? "same device" : "crosses devices");
  }
}

int main(void) {
  planner p;
  planner_init(&p);
  plan(&p);
  report(&p);
  printf("plan valid: %d\n", plan_valid(&p));
  describe_skips(&p);

  layer_rt rt[NLAYERS];
  build(&p, rt);
  float xv[W] = {0.5f, -0.25f, 1.0f, 0.75f};
  dt_tensor *x = dt_from_floats(dt_cpu(), xv, 2, XS);
  dt_tensor *y = forward(&p, rt, x);
  float out[W] = {0};
  if (y != NULL)
    dt_read_floats(y, out, W);
  printf("y[0] %.4f\n", (double)out[0]);
  dt_free(y);
  dt_free(x);
  release(rt);
  return 0;
}
