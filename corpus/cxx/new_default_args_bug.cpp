// corpus/cxx/new_default_args_bug.cpp — an optimizer state allocated with `new`, its
// constructor taking a default device argument (the host); the model lives on sim:0 and the
// state is made without naming a device. Bug: backend-mismatch in the update.
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

struct Momentum {
  dt_tensor *v;
  explicit Momentum(dt_device d = dt_cpu()) { v = dt_zeros(d, DT_FLOAT, 2, kShape); }
  ~Momentum() { dt_free(v); }
  dt_tensor *update(const dt_tensor *grad) { return dt_add(v, grad); } // expect-error: backend-mismatch
};

static dt_tensor *make_grad(int seed, dt_device d = dt_sim(0)) { return dt_randn(d, (uint64_t)seed, 2, kShape); }

int main() {
  Momentum *m = new Momentum();
  dt_tensor *g = make_grad(4);
  dt_tensor *v = m->update(g);
  std::printf("%lld\n", (long long)dt_numel(v));
  delete m;
  return 0;
}
