// provenance: blind round field6
// A 24-stage inference pipeline split over two cards at a stage index given on the command
// line (--split K, default 24: everything on sim:0).  Stages before K run on sim:0, the rest
// on sim:1; each stage moves its input.  The output head was created on sim:0 "because the
// head is small" and is applied to the last stage's output without a move: fine when the
// split is 24 (no stage on sim:1), a device mismatch for any smaller split.
// run-args: --split 12
// (with no arguments the run is clean; --split 12 fails at the head)
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NST 24
#define W 2

static const int64_t WS[2] = {W, W};
static const int64_t XS[2] = {1, W};

typedef struct pstage {
  dt_device dev;
  dt_tensor *w;
} pstage;

static int parse_split(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], "--split") == 0)
      return atoi(argv[i + 1]);
  return NST;
}

static void build(pstage *st, int split) {
  for (int i = 0; i < NST; i++) {
    st[i].dev = i < split ? dt_sim(0) : dt_sim(1);
    dt_tensor *r = dt_randn(st[i].dev, (uint64_t)i, 2, WS);
    st[i].w = dt_mul_scalar(r, 0.7f);
    dt_free(r);
  }
}

static dt_tensor *run(const pstage *st, const dt_tensor *x) {
  dt_tensor *a = dt_to_device(x, st[0].dev);
  for (int i = 0; i < NST; i++) {
    dt_tensor *in = dt_to_device(a, st[i].dev);
    dt_tensor *h = dt_matmul(in, st[i].w);
    dt_tensor *o = dt_tanh(h);
    dt_free(in);
    dt_free(h);
    dt_free(a);
    a = o;
  }
  return a;
}

int main(int argc, char **argv) {
  int split = parse_split(argc, argv);
  pstage st[NST];
  build(st, split);
  const int64_t hs[2] = {W, 1};
  dt_tensor *head = dt_ones(dt_sim(0), DT_FLOAT, 2, hs);
  float xv[W] = {0.3f, -0.6f};
  dt_tensor *x = dt_from_floats(dt_cpu(), xv, 2, XS);
  dt_tensor *feat = run(st, x);
  dt_tensor *y = dt_matmul(feat, head); // expect-warning: device-mismatch
  float v = 0.0f;
  if (y != NULL)
    dt_read_floats(y, &v, 1);
  printf("split %d y %.4f\n", split, (double)v);
  dt_free(y);
  dt_free(feat);
  dt_free(x);
  dt_free(head);
  for (int i = 0; i < NST; i++)
    dt_free(st[i].w);
  return 0;
}
