// corpus/cxx/new_default_args_clean.cpp — the same optimizer state, allocated with `new` on
// the gradients' device, named explicitly; the gradient helper's default device is the host,
// like the state's. Clean.
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

struct Momentum {
  dt_tensor *v;
  explicit Momentum(dt_device d = dt_cpu()) { v = dt_zeros(d, DT_FLOAT, 2, kShape); }
  ~Momentum() { dt_free(v); }
  dt_tensor *update(const dt_tensor *grad) { return dt_add(v, grad); }
};

static dt_tensor *make_grad(int seed, dt_device d = dt_cpu()) { return dt_randn(d, (uint64_t)seed, 2, kShape); }

int main() {
  Momentum *m = new Momentum();
  dt_tensor *g = make_grad(4);
  dt_tensor *v = m->update(g);
  Momentum *s = new Momentum(dt_sim(0));
  dt_tensor *g2 = make_grad(5, dt_sim(0));
  dt_tensor *v2 = s->update(g2);
  std::printf("%lld %lld\n", (long long)dt_numel(v), (long long)dt_numel(v2));
  delete s;
  delete m;
  return 0;
}
