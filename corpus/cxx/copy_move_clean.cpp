// corpus/cxx/copy_move_clean.cpp — the same copies and moves; the batch is made on the
// device the moved-into holder carries. Clean.
#include <cstdio>
#include <utility>

#include <dt/dt.h>

struct Params {
  dt_device dev;
  dt_tensor *w;
};

struct Holder {
  Params p;
  explicit Holder(Params q) : p(std::move(q)) {}
};

static const int64_t kShape[2] = {2, 2};

int main() {
  Params a{dt_sim(0), nullptr};
  a.w = dt_randn(a.dev, 1, 2, kShape);
  Params b = a;
  Params c{dt_cpu(), nullptr};
  c = b;
  Holder h(std::move(c));
  dt_tensor *x = dt_ones(h.p.dev, DT_FLOAT, 2, kShape);
  dt_tensor *y = dt_matmul(x, h.p.w);
  std::printf("%lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  dt_free(a.w);
  return 0;
}
