// provenance: blind round field4
// X-macro layer table with a per-layer device column: the "out" layer is placed on the host
// by the table, but the forward chain never moves the activation.
#include <dt/dt.h>
#include <stdio.h>

#define LAYERS(X)           \
  X(embed, 4, 8, dt_sim(0)) \
  X(hidden, 8, 8, dt_sim(0)) \
  X(out, 8, 2, dt_cpu())

typedef struct {
#define FIELD(name, in, out, dev) dt_tensor *name;
  LAYERS(FIELD)
#undef FIELD
} model;

static void model_init(model *m) {
  uint64_t seed = 1;
#define INIT(name, in, out, dev) m->name = dt_randn(dev, seed++, 2, (const int64_t[]){in, out});
  LAYERS(INIT)
#undef INIT
}

static dt_tensor *linear(const dt_tensor *x, const dt_tensor *w) {
  return dt_matmul(x, w); // expect-error: backend-mismatch
}

int main(void) {
  model m;
  model_init(&m);
  dt_tensor *x = dt_randn(dt_sim(0), 9, 2, (const int64_t[]){3, 4});
  dt_tensor *h1 = linear(x, m.embed);
  dt_tensor *h2 = linear(h1, m.hidden);
  dt_tensor *y = linear(h2, m.out);
  printf("%p\n", (void *)y);
  return 0;
}
