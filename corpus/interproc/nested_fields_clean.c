// corpus/interproc/nested_fields_clean.c — an encoder/decoder model with nested structs
// (model.enc.proj.w, model.dec.out.b) and the device kept in a nested config struct; init
// fills the nested fields through pointers to the sub-structs. Clean.
#include <stdio.h>

#include <dt/dt.h>

typedef struct linear {
  dt_tensor *w, *b;
} linear;
typedef struct encoder {
  linear proj;
  linear gate;
} encoder;
typedef struct decoder {
  linear out;
} decoder;
typedef struct model_config {
  struct {
    dt_device dev;
    int width;
  } hw;
} model_config;
typedef struct seq_model {
  model_config cfg;
  encoder enc;
  decoder dec;
} seq_model;

static void linear_init(linear *l, dt_device dev, int in, int out, uint64_t seed) {
  l->w = dt_randn(dev, seed, 2, (const int64_t[]){in, out});
  l->b = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){out});
}

static dt_tensor *linear_apply(const linear *l, const dt_tensor *x) {
  dt_tensor *t = dt_matmul(x, l->w);
  dt_tensor *y = dt_add(t, l->b);
  dt_free(t);
  return y;
}

static void model_init(seq_model *m) {
  int w = m->cfg.hw.width;
  linear_init(&m->enc.proj, m->cfg.hw.dev, w, w, 1);
  linear_init(&m->enc.gate, m->cfg.hw.dev, w, w, 2);
  linear_init(&m->dec.out, m->cfg.hw.dev, w, 2, 3);
}

static dt_tensor *model_forward(const seq_model *m, const dt_tensor *x) {
  dt_tensor *p = linear_apply(&m->enc.proj, x);
  dt_tensor *g0 = linear_apply(&m->enc.gate, x);
  dt_tensor *g = dt_sigmoid(g0);
  dt_tensor *h = dt_mul(p, g);
  dt_tensor *y = linear_apply(&m->dec.out, h);
  dt_free(h);
  dt_free(g);
  dt_free(g0);
  dt_free(p);
  return y;
}

int main(void) {
  seq_model m;
  m.cfg.hw.dev = dt_sim(1);
  m.cfg.hw.width = 4;
  model_init(&m);
  dt_tensor *x = dt_randn(m.cfg.hw.dev, 9, 2, (const int64_t[]){3, 4});
  dt_tensor *y = model_forward(&m, x);
  printf("y %lldx%lld\n", (long long)dt_dim(y, 0), (long long)dt_dim(y, 1));
  dt_free(y);
  dt_free(x);
  linear *ls[] = {&m.enc.proj, &m.enc.gate, &m.dec.out};
  for (int i = 0; i < 3; i++) {
    dt_free(ls[i]->w);
    dt_free(ls[i]->b);
  }
  return 0;
}
