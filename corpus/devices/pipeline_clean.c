// provenance: blind round field7
/* pipeline_clean.c — a three-stage pipeline that hops sim:0 -> sim:1 -> sim:0, with the hop
 * done at each stage boundary from a table of stage descriptors. The number of micro-batches
 * comes from argv; all outputs are gathered on the last stage's device and concatenated
 * there. Skip connections are moved explicitly. Correct on every input. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define W 6
#define R 3
#define MAX_MB 32

typedef struct {
  int ordinal;
  float scale;
  int keep_skip; /* stash the input for the next stage's residual */
} stage_desc;

typedef struct {
  dt_device dev;
  dt_tensor *w;
  dt_tensor *b;
  int keep_skip;
} stage;

static const stage_desc k_layout[] = {{0, 0.3f, 1}, {1, 0.2f, 0}, {0, 0.25f, 0}};
#define N_ST ((int)(sizeof k_layout / sizeof k_layout[0]))

static stage g_stages[N_ST];

static void build_stages(void) {
  const int64_t sw[] = {W, W}, sb[] = {W};
  for (int i = 0; i < N_ST; ++i) {
    stage *s = &g_stages[i];
    s->dev = dt_sim(k_layout[i].ordinal);
    dt_tensor *r = dt_randn(s->dev, 40u + (uint64_t)i, 2, sw);
    s->w = dt_mul_scalar(r, k_layout[i].scale);
    dt_free(r);
    s->b = dt_zeros(s->dev, DT_FLOAT, 1, sb);
    s->keep_skip = k_layout[i].keep_skip;
  }
}

static void free_stages(void) {
  for (int i = 0; i < N_ST; ++i) {
    dt_free(g_stages[i].w);
    dt_free(g_stages[i].b);
  }
}

static dt_tensor *move_to(dt_tensor *t, dt_device d) {
  if (dt_device_equal(dt_device_of(t), d)) return t;
  dt_tensor *m = dt_to_device(t, d);
  dt_free(t);
  return m;
}

static dt_tensor *run_stage(const stage *s, const dt_tensor *x, const dt_tensor *skip) {
  dt_tensor *h = dt_matmul(x, s->w);
  dt_tensor *hb = dt_add(h, s->b);
  dt_free(h);
  if (skip) {
    dt_tensor *r = dt_add(hb, skip);
    dt_free(hb);
    hb = r;
  }
  dt_tensor *y = dt_relu(hb);
  dt_free(hb);
  return y;
}

static dt_tensor *host_batch(int mb) {
  float buf[R * W];
  for (int i = 0; i < R * W; ++i) buf[i] = (float)((i + 3 * mb) % 9) / 9.0f - 0.2f;
  const int64_t s[] = {R, W};
  return dt_from_floats(dt_cpu(), buf, 2, s);
}

static dt_tensor *forward(int mb) {
  dt_tensor *act = host_batch(mb);
  dt_tensor *skip = NULL;
  for (int i = 0; i < N_ST; ++i) {
    const stage *s = &g_stages[i];
    act = move_to(act, s->dev);
    if (skip) skip = move_to(skip, s->dev);
    dt_tensor *next = run_stage(s, act, skip);
    dt_free(skip);
    skip = NULL;
    if (s->keep_skip) skip = dt_to_device(act, s->dev);
    dt_free(act);
    act = next;
  }
  dt_free(skip);
  return act;
}

typedef struct {
  int stage;
  int64_t elements;
  float checksum;
} stage_probe;

/* runs one probe batch stage by stage and records what each stage produced */
static int profile(stage_probe *out, int cap) {
  dt_tensor *act = host_batch(99);
  int n = 0;
  for (int i = 0; i < N_ST && n < cap; ++i) {
    act = move_to(act, g_stages[i].dev);
    dt_tensor *next = run_stage(&g_stages[i], act, NULL);
    dt_tensor *s = dt_sum(next);
    out[n].stage = i;
    out[n].elements = dt_numel(next);
    out[n].checksum = 0.0f;
    dt_read_floats(s, &out[n].checksum, 1);
    ++n;
    dt_free(s);
    dt_free(act);
    act = next;
  }
  dt_free(act);
  return n;
}

/* moving a stage's weights to a new ordinal keeps the stage self-consistent */
static void relocate_stage(int i, int ordinal) {
  stage *s = &g_stages[i];
  dt_device d = dt_sim(ordinal);
  dt_tensor *w = dt_to_device(s->w, d);
  dt_tensor *b = dt_to_device(s->b, d);
  dt_free(s->w);
  dt_free(s->b);
  s->w = w;
  s->b = b;
  s->dev = d;
}

int main(int argc, char **argv) {
  int n_mb = argc > 1 ? atoi(argv[1]) : 4;
  if (n_mb < 1) n_mb = 1;
  if (n_mb > MAX_MB) n_mb = MAX_MB;
  build_stages();
  stage_probe probes[N_ST];
  int np = profile(probes, N_ST);
  for (int i = 0; i < np; ++i)
    printf("stage %d: %lld elements, checksum %.4f\n", probes[i].stage, (long long)probes[i].elements, probes[i].checksum);
  if (getenv("REBALANCE")) relocate_stage(1, 0);
  dt_tensor *outs[MAX_MB];
  dt_device sink = g_stages[N_ST - 1].dev;
  for (int mb = 0; mb < n_mb; ++mb) outs[mb] = move_to(forward(mb), sink);
  dt_tensor *all = dt_cat(n_mb, outs, 0);
  dt_tensor *colsum = dt_sum_dim(all, 0);
  dt_tensor *host = dt_to_device(colsum, dt_cpu());
  float v[W] = {0};
  if (dt_read_floats(host, v, W) == 0) {
    printf("%d micro-batches, %lld rows; column sums:", n_mb, (long long)dt_dim(all, 0));
    for (int i = 0; i < W; ++i) printf(" %.3f", v[i]);
    printf("\n");
  }
  for (int mb = 0; mb < n_mb; ++mb) dt_free(outs[mb]);
  dt_free(all);
  dt_free(colsum);
  dt_free(host);
  free_stages();
  return 0;
}
