// provenance: blind round field4
// X-macro layer table: one list generates the struct fields, the init and the forward chain.
// Every layer lives on the model device; the ones on the "host" column are moved first.
#include <dt/dt.h>
#include <stdio.h>

#define LAYERS(X) \
  X(embed, 4, 8)  \
  X(hidden, 8, 8) \
  X(out, 8, 2)

typedef struct {
  dt_device dev;
#define FIELD(name, in, out) dt_tensor *name;
  LAYERS(FIELD)
#undef FIELD
} model;

static void model_init(model *m, dt_device dev) {
  uint64_t seed = 1;
  m->dev = dev;
#define INIT(name, in, out)                                                          \
  do {                                                                               \
    dt_tensor *host_ = dt_randn(dt_cpu(), seed++, 2, (const int64_t[]){in, out});    \
    m->name = dt_to_device(host_, dev);                                              \
    dt_free(host_);                                                                  \
  } while (0);
  LAYERS(INIT)
#undef INIT
}

static dt_tensor *model_fwd(const model *m, dt_tensor *x) {
  dt_tensor *h = x, *n;
#define FWD(name, in, out) n = dt_matmul(h, m->name); if (h != x) dt_free(h); h = n;
  LAYERS(FWD)
#undef FWD
  return h;
}

int main(void) {
  model m;
  model_init(&m, dt_sim(1));
  dt_tensor *x = dt_randn(dt_sim(1), 9, 2, (const int64_t[]){3, 4});
  dt_tensor *y = model_fwd(&m, x);
  printf("%lld %lld\n", (long long)dt_dim(y, 0), (long long)dt_dim(y, 1));
  return 0;
}
