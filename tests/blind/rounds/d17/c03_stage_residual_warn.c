/* c03_stage_residual_warn.c — a four-block residual MLP trained with per-layer placement.
 * A placement table maps each block to a stage device; with --split the last two blocks
 * run on autodiff<sim:1> (pipeline parallelism), otherwise everything is on autodiff<sim:0>.
 * The forward pass moves the activation whenever it crosses into a block on another device.
 * Mistake: the long skip connection (the projected input, kept from block 0) is added to the
 * final activation without being moved: with --split the final activation is on sim:1 and
 * the skip on sim:0, a device-mismatch. Without --split the run is clean.
 * run-args: --split */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_BLOCKS 4
#define WIDTH 6
#define IN 3
#define BATCH 4

typedef struct Block {
  dt_device dev;
  dt_tensor *w; /* [WIDTH, WIDTH] */
  dt_tensor *b; /* [WIDTH] */
} Block;

typedef struct Net {
  dt_device in_dev;
  dt_tensor *proj; /* [IN, WIDTH], on in_dev */
  Block blocks[N_BLOCKS];
  dt_tensor *head; /* [WIDTH, 1], on the last block's device */
} Net;

typedef struct Options {
  int split;
  int steps;
  float lr;
} Options;

static Options parse_options(int argc, char **argv) {
  Options o = {0, 3, 0.05f};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--split") == 0)
      o.split = 1;
    else if (strncmp(argv[i], "--steps=", 8) == 0)
      o.steps = atoi(argv[i] + 8);
  }
  return o;
}

static dt_tensor *leaf(dt_device ad, dt_tensor *plain, float scale) {
  dt_tensor *scaled = dt_mul_scalar(plain, scale);
  dt_tensor *t = dt_require_grad(dt_from_inner(ad, scaled));
  dt_free(plain);
  dt_free(scaled);
  return t;
}

static void net_init(Net *n, const dt_device *placement) {
  n->in_dev = placement[0];
  n->proj = leaf(n->in_dev, dt_randn(dt_inner_device(n->in_dev), 1, 2, (const int64_t[]){IN, WIDTH}), 0.5f);
  for (int i = 0; i < N_BLOCKS; i++) {
    Block *b = &n->blocks[i];
    b->dev = placement[i];
    dt_device in = dt_inner_device(b->dev);
    b->w = leaf(b->dev, dt_randn(in, 10 + (uint64_t)i, 2, (const int64_t[]){WIDTH, WIDTH}), 0.2f);
    b->b = leaf(b->dev, dt_zeros(in, DT_FLOAT, 1, (const int64_t[]){WIDTH}), 1.0f);
  }
  dt_device last = placement[N_BLOCKS - 1];
  n->head = leaf(last, dt_randn(dt_inner_device(last), 99, 2, (const int64_t[]){WIDTH, 1}), 0.3f);
}

static dt_tensor *follow(dt_tensor *h, dt_device d) {
  if (dt_device_equal(dt_device_of(h), d))
    return h;
  dt_tensor *moved = dt_to_device(h, d);
  dt_free(h);
  return moved;
}

static dt_tensor *block_forward(const Block *b, const dt_tensor *h) {
  dt_tensor *z = dt_matmul(h, b->w);
  dt_tensor *zb = dt_add(z, b->b);
  dt_tensor *a = dt_tanh(zb);
  dt_tensor *out = dt_add(a, h); /* the block's own residual: same device */
  dt_free(z);
  dt_free(zb);
  dt_free(a);
  return out;
}

static dt_tensor *net_forward(const Net *n, const dt_tensor *x) {
  dt_tensor *skip = dt_matmul(x, n->proj);
  dt_tensor *h = dt_mul_scalar(skip, 1.0f);
  for (int i = 0; i < N_BLOCKS; i++) {
    h = follow(h, n->blocks[i].dev);
    dt_tensor *next = block_forward(&n->blocks[i], h);
    dt_free(h);
    h = next;
  }
  dt_tensor *mixed = dt_add(h, skip); // expect-warning: device-mismatch
  dt_tensor *out = dt_matmul(mixed, n->head);
  dt_free(skip);
  dt_free(h);
  dt_free(mixed);
  return out;
}

static void sgd_param(dt_tensor **slot, float lr) {
  dt_tensor *g = dt_grad(*slot);
  if (!g)
    return;
  dt_device ad = dt_device_of(*slot);
  dt_tensor *inner = dt_inner(*slot);
  dt_tensor *step = dt_mul_scalar(g, lr);
  dt_tensor *next = dt_sub(inner, step);
  dt_free(*slot);
  *slot = dt_require_grad(dt_from_inner(ad, next));
  dt_free(g);
  dt_free(inner);
  dt_free(step);
  dt_free(next);
}

static void net_step(Net *n, float lr) {
  sgd_param(&n->proj, lr);
  for (int i = 0; i < N_BLOCKS; i++) {
    sgd_param(&n->blocks[i].w, lr);
    sgd_param(&n->blocks[i].b, lr);
  }
  sgd_param(&n->head, lr);
}

int main(int argc, char **argv) {
  Options opt = parse_options(argc, argv);
  dt_device stage0 = dt_autodiff(dt_sim(0));
  dt_device stage1 = opt.split ? dt_autodiff(dt_sim(1)) : stage0;
  dt_device placement[N_BLOCKS] = {stage0, stage0, stage1, stage1};

  Net net;
  net_init(&net, placement);

  float xs[BATCH * IN], ys[BATCH];
  for (int i = 0; i < BATCH; i++) {
    for (int j = 0; j < IN; j++)
      xs[i * IN + j] = (float)(i - j) * 0.25f;
    ys[i] = (float)i * 0.1f;
  }
  dt_device last = placement[N_BLOCKS - 1];
  dt_tensor *xp = dt_from_floats(dt_inner_device(net.in_dev), xs, 2, (const int64_t[]){BATCH, IN});
  dt_tensor *yp = dt_from_floats(dt_inner_device(last), ys, 2, (const int64_t[]){BATCH, 1});
  dt_tensor *x = dt_from_inner(net.in_dev, xp);
  dt_tensor *y = dt_from_inner(last, yp);

  for (int step = 0; step < opt.steps; step++) {
    dt_tensor *pred = net_forward(&net, x);
    dt_tensor *loss = dt_mse_loss(pred, y);
    if (dt_backward(loss) != 0)
      return 1;
    float l = 0.0f;
    dt_read_floats(loss, &l, 1);
    printf("step %d loss %.5f\n", step, l);
    net_step(&net, opt.lr);
    dt_free(pred);
    dt_free(loss);
  }
  dt_free(x);
  dt_free(y);
  dt_free(xp);
  dt_free(yp);
  return 0;
}
