// corpus/cxx/copy_move_bug.cpp — a parameter bundle copied and moved around as a value type:
// copy-construction, copy-assignment, std::move into a vector-free holder. The bundle's
// device comes along with every copy; the batch is on the host. Bug: backend-mismatch.
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
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
  dt_tensor *y = dt_matmul(x, h.p.w); // expect-error: backend-mismatch
  std::printf("%lld\n", (long long)dt_numel(y));
  return 0;
}
