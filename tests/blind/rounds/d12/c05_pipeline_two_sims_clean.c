// provenance: blind round d12
// run-args: 4 swap
/* Pipeline-parallel training of a 4-block residual MLP split over two simulated
 * accelerators. Stage 0 holds the first blocks on autodiff<sim:0>, stage 1 the rest on
 * autodiff<sim:1> (or the other way round with "swap"). Activations cross the boundary with
 * dt_to_device between autodiff devices, so gradients flow back across it. Micro-batches
 * accumulate gradients before one step; the loss is read on the last stage. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 8
#define BLOCKS 4
#define MICRO 4
#define MB_SIZE 6

typedef struct {
  dt_tensor *w, *b;
  dt_tensor *acc_w, *acc_b;   /* gradient accumulators, plain on the stage's inner device */
  int stage;
} block_t;

typedef struct {
  dt_device dev[2];      /* autodiff devices of the two stages */
  block_t blocks[BLOCKS];
  int split;             /* blocks [0, split) on stage 0 */
} pipeline_t;

static void block_init(block_t *bk, dt_device ad, int stage, uint64_t seed) {
  int64_t ws[2] = {WIDTH, WIDTH}, bs[1] = {WIDTH};
  dt_tensor *r = dt_randn(dt_inner_device(ad), seed, 2, ws);
  dt_tensor *rs = dt_mul_scalar(r, 0.2f);
  bk->w = dt_require_grad(dt_from_inner(ad, rs));
  bk->b = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, bs));
  bk->acc_w = dt_zeros(dt_inner_device(ad), DT_FLOAT, 2, ws);
  bk->acc_b = dt_zeros(dt_inner_device(ad), DT_FLOAT, 1, bs);
  bk->stage = stage;
  dt_free(r);
  dt_free(rs);
}

static void pipeline_init(pipeline_t *p, int split, int swap) {
  p->dev[0] = dt_autodiff(swap ? dt_sim(1) : dt_sim(0));
  p->dev[1] = dt_autodiff(swap ? dt_sim(0) : dt_sim(1));
  p->split = split;
  for (int i = 0; i < BLOCKS; i++) {
    int st = i < split ? 0 : 1;
    block_init(&p->blocks[i], p->dev[st], st, 40 + i);
  }
}

static dt_tensor *block_forward(const block_t *bk, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, bk->w);
  dt_tensor *hb = dt_add(h, bk->b);
  dt_tensor *a = dt_tanh(hb);
  dt_tensor *y = dt_add(x, a);
  dt_free(h); dt_free(hb); dt_free(a);
  return y;
}

static dt_tensor *pipeline_forward(const pipeline_t *p, dt_tensor *x0) {
  dt_tensor *cur = dt_to_device(x0, p->dev[0]);
  for (int i = 0; i < BLOCKS; i++) {
    if (i == p->split) {
      dt_tensor *moved = dt_to_device(cur, p->dev[1]);
      dt_free(cur);
      cur = moved;
    }
    dt_tensor *nx = block_forward(&p->blocks[i], cur);
    dt_free(cur);
    cur = nx;
  }
  return cur;
}

static void accumulate(block_t *bk) {
  dt_tensor *gw = dt_grad(bk->w), *gb = dt_grad(bk->b);
  if (gw) {
    dt_tensor *n = dt_add(bk->acc_w, gw);
    dt_free(bk->acc_w);
    bk->acc_w = n;
    dt_free(gw);
  }
  if (gb) {
    dt_tensor *n = dt_add(bk->acc_b, gb);
    dt_free(bk->acc_b);
    bk->acc_b = n;
    dt_free(gb);
  }
}

static void apply_and_reset(block_t *bk, dt_device ad, float lr) {
  dt_tensor **params[2] = {&bk->w, &bk->b};
  dt_tensor **accs[2] = {&bk->acc_w, &bk->acc_b};
  for (int k = 0; k < 2; k++) {
    dt_tensor *in = dt_inner(*params[k]);
    dt_tensor *st = dt_mul_scalar(*accs[k], lr / MICRO);
    dt_tensor *nx = dt_sub(in, st);
    dt_tensor *zero = dt_mul_scalar(*accs[k], 0.0f);
    dt_free(*params[k]);
    *params[k] = dt_require_grad(dt_from_inner(ad, nx));
    dt_free(*accs[k]);
    *accs[k] = zero;
    dt_free(in); dt_free(st); dt_free(nx);
  }
}

static void micro_batch(float *x, float *y, int step, int mb) {
  for (int i = 0; i < MB_SIZE * WIDTH; i++) {
    float v = (float)((i * 31 + step * 7 + mb * 5) % 17) / 8.5f - 1.0f;
    x[i] = v;
    y[i] = 0.5f * v;
  }
}

int main(int argc, char **argv) {
  int split = argc > 1 ? atoi(argv[1]) : 2;
  if (split < 1 || split >= BLOCKS) split = 2;
  int swap = argc > 2 && strcmp(argv[2], "swap") == 0;
  pipeline_t pp;
  pipeline_init(&pp, split, swap);

  dt_device host_ad = dt_autodiff(dt_cpu());
  float x[MB_SIZE * WIDTH], y[MB_SIZE * WIDTH];
  int64_t s[2] = {MB_SIZE, WIDTH};
  for (int step = 0; step < 10; step++) {
    float total = 0.0f;
    for (int mb = 0; mb < MICRO; mb++) {
      micro_batch(x, y, step, mb);
      dt_tensor *xh = dt_from_floats(host_ad, x, 2, s);
      dt_tensor *yh = dt_from_floats(dt_cpu(), y, 2, s);
      dt_tensor *y_last_plain = dt_to_device(yh, dt_inner_device(pp.dev[1]));
      dt_tensor *y_last = dt_from_inner(pp.dev[1], y_last_plain);
      dt_tensor *out = pipeline_forward(&pp, xh);
      dt_tensor *loss = dt_mse_loss(out, y_last);
      float lv = 0.0f;
      dt_read_floats(loss, &lv, 1);
      total += lv;
      dt_backward(loss);
      for (int i = 0; i < BLOCKS; i++) accumulate(&pp.blocks[i]);
      dt_free(xh); dt_free(yh); dt_free(y_last_plain); dt_free(y_last);
      dt_free(out); dt_free(loss);
    }
    for (int i = 0; i < BLOCKS; i++)
      apply_and_reset(&pp.blocks[i], pp.dev[pp.blocks[i].stage], 0.2f);
    printf("step %d mean loss %.5f\n", step, total / MICRO);
  }
  for (int i = 0; i < BLOCKS; i++) {
    dt_free(pp.blocks[i].w); dt_free(pp.blocks[i].b);
    dt_free(pp.blocks[i].acc_w); dt_free(pp.blocks[i].acc_b);
  }
  return 0;
}
