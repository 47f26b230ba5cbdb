// provenance: blind round field7
/* pipeline_2stage_bug.c — pipeline-parallel inference over two simulated accelerators.
 * Stage 0 runs on sim:0, stage 1 on sim:1; activations are copied between them per micro-batch.
 * A positional table is cached in a static on first use — on whichever device asked first —
 * and stage 1 later reuses it. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define D_MODEL 8
#define MB_ROWS 4
#define N_STAGES 2

typedef struct {
  const char *name;
  dt_device dev;
  dt_tensor *w;
  dt_tensor *b;
  int add_positions;
} stage;

typedef struct {
  stage stages[N_STAGES];
  int n_micro;
} pipeline;

static dt_tensor *g_positions; /* cached [MB_ROWS, D_MODEL] table */

static dt_tensor *positions_for(dt_device dev) {
  if (!g_positions) {
    float buf[MB_ROWS * D_MODEL];
    for (int r = 0; r < MB_ROWS; ++r)
      for (int c = 0; c < D_MODEL; ++c) buf[r * D_MODEL + c] = (float)((r + 1) * (c % 3)) * 0.01f;
    const int64_t sh[] = {MB_ROWS, D_MODEL};
    g_positions = dt_from_floats(dev, buf, 2, sh);
  }
  return g_positions;
}

static void stage_init(stage *s, const char *name, dt_device dev, uint64_t seed, int pos) {
  const int64_t sw[] = {D_MODEL, D_MODEL}, sb[] = {D_MODEL};
  s->name = name;
  s->dev = dev;
  dt_tensor *raw = dt_randn(dev, seed, 2, sw);
  s->w = dt_mul_scalar(raw, 0.2f);
  dt_free(raw);
  s->b = dt_full(dev, 0.01f, 1, sb);
  s->add_positions = pos;
}

static void stage_free(stage *s) {
  dt_free(s->w);
  dt_free(s->b);
}

static dt_tensor *stage_run(const stage *s, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, s->w);
  dt_tensor *hb = dt_add(h, s->b);
  dt_free(h);
  if (s->add_positions) {
    dt_tensor *pos = positions_for(s->dev);
    dt_tensor *hp = dt_add(hb, pos); // expect-error: device-mismatch
    dt_free(hb);
    hb = hp;
  }
  dt_tensor *out = dt_tanh(hb);
  dt_free(hb);
  return out;
}

static dt_tensor *embed_microbatch(int mb, dt_device dev) {
  float buf[MB_ROWS * D_MODEL];
  for (int i = 0; i < MB_ROWS * D_MODEL; ++i) buf[i] = (float)((i + mb * 5) % 13) / 13.0f;
  const int64_t sh[] = {MB_ROWS, D_MODEL};
  return dt_from_floats(dev, buf, 2, sh);
}

static dt_tensor *pipeline_forward(pipeline *p, int mb) {
  dt_tensor *act = embed_microbatch(mb, p->stages[0].dev);
  for (int s = 0; s < N_STAGES; ++s) {
    const stage *st = &p->stages[s];
    if (!dt_device_equal(dt_device_of(act), st->dev)) {
      dt_tensor *moved = dt_to_device(act, st->dev);
      dt_free(act);
      act = moved;
    }
    dt_tensor *next = stage_run(st, act);
    dt_free(act);
    act = next;
    if (!act) break;
  }
  return act;
}

static int parse_micro(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; ++i)
    if (argv[i][0] == '-' && argv[i][1] == 'm') return atoi(argv[i + 1]);
  return 3;
}

static void summarize(dt_tensor *const *outs, int n) {
  if (n <= 0) return;
  for (int i = 0; i < n; ++i)
    if (!outs[i]) {
      printf("micro-batch %d failed\n", i);
      return;
    }
  dt_tensor *all = dt_cat(n, outs, 0);
  dt_tensor *m = dt_mean(all);
  float v = 0.0f;
  if (dt_read_floats(m, &v, 1) == 0) printf("mean activation over %d micro-batches: %.4f\n", n, v);
  dt_free(m);
  dt_free(all);
}

/* host-side reference for one micro-batch through stage 0 only (no positions there) */
static float stage0_reference(const pipeline *p, int mb) {
  dt_tensor *x = embed_microbatch(mb, dt_cpu());
  dt_tensor *w = dt_to_device(p->stages[0].w, dt_cpu());
  dt_tensor *b = dt_to_device(p->stages[0].b, dt_cpu());
  dt_tensor *h = dt_matmul(x, w);
  dt_tensor *hb = dt_add(h, b);
  dt_tensor *y = dt_tanh(hb);
  dt_tensor *s = dt_sum(y);
  float v = 0.0f;
  dt_read_floats(s, &v, 1);
  dt_tensor *all[] = {x, w, b, h, hb, y, s};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) dt_free(all[i]);
  return v;
}

static float stage0_device(const pipeline *p, int mb) {
  dt_tensor *x = embed_microbatch(mb, p->stages[0].dev);
  dt_tensor *y = stage_run(&p->stages[0], x);
  dt_tensor *s = dt_sum(y);
  float v = 0.0f;
  dt_read_floats(s, &v, 1);
  dt_free(x);
  dt_free(y);
  dt_free(s);
  return v;
}

static void describe(const pipeline *p) {
  for (int s = 0; s < N_STAGES; ++s) {
    char nm[16];
    dt_device_name(p->stages[s].dev, nm, sizeof nm);
    printf("stage %d %-8s on %s%s\n", s, p->stages[s].name, nm, p->stages[s].add_positions ? " (+positions)" : "");
  }
}

int main(int argc, char **argv) {
  pipeline p;
  p.n_micro = parse_micro(argc, argv);
  if (p.n_micro < 1 || p.n_micro > 16) p.n_micro = 3;
  /* stage 0 warms the positional cache: it was the only user before the refactor */
  stage_init(&p.stages[0], "encoder", dt_sim(0), 11u, 0);
  stage_init(&p.stages[1], "decoder", dt_sim(1), 12u, 1);
  dt_tensor *warm = positions_for(p.stages[0].dev);
  printf("positions cached: %lld elements\n", (long long)dt_numel(warm));

  describe(&p);
  printf("stage 0 check: device %.5f host %.5f\n", stage0_device(&p, 0), stage0_reference(&p, 0));
  dt_tensor *outs[16] = {0};
  for (int mb = 0; mb < p.n_micro; ++mb) outs[mb] = pipeline_forward(&p, mb);
  summarize(outs, p.n_micro);

  for (int mb = 0; mb < p.n_micro; ++mb) dt_free(outs[mb]);
  for (int s = 0; s < N_STAGES; ++s) stage_free(&p.stages[s]);
  dt_free(g_positions);
  return 0;
}
