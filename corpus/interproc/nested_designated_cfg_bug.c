// provenance: blind round field5
// Config with nested designated initializers spelling devices as struct literals, passed
// around as a const pointer. Data lives on sim:0, the model on sim:1.
#include <dt/dt.h>
#include <stdio.h>

struct model_cfg { dt_device dev; int hidden; float init_scale; };
struct data_cfg { dt_device dev; int batch; int features; };
struct cfg { struct model_cfg model; struct data_cfg data; const char *name; };

static const struct cfg CFG = {
  .name = "tiny",
  .model = { .dev = { .backend = DT_BACKEND_SIM, .ordinal = 1, .autodiff = 0 }, .hidden = 8, .init_scale = 0.1f },
  .data = { .dev = { DT_BACKEND_SIM, 0, 0 }, .batch = 4, .features = 3 },
};

typedef struct { dt_tensor *w; } model;

static void model_init(model *m, const struct cfg *c) {
  dt_tensor *r = dt_randn(c->model.dev, 42, 2, (const int64_t[]){c->data.features, c->model.hidden});
  m->w = dt_mul_scalar(r, c->model.init_scale);
  dt_free(r);
}

static dt_tensor *batch(const struct cfg *c, int i) {
  return dt_full(c->data.dev, (float)i, 2, (const int64_t[]){c->data.batch, c->data.features});
}

int main(void) {
  const struct cfg *c = &CFG;
  model m;
  model_init(&m, c);
  for (int i = 0; i < 2; i++) {
    dt_tensor *x = batch(c, i);
    dt_tensor *h = dt_matmul(x, m.w); // expect-error: device-mismatch
    dt_free(h); dt_free(x);
  }
  dt_free(m.w);
  printf("%s\n", c->name);
  return 0;
}
