// corpus/cxx/overload_cast_bug.cpp — two overloads of `place`: one moves a tensor to a device,
// the other to the device of a reference tensor; handles pass through static_cast,
// const_cast and reinterpret_cast (an opaque `void *` slot) on the way. The overload the call
// resolves to keeps the host. Bug: backend-mismatch.
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

static dt_tensor *place(const dt_tensor *t, dt_device d) { return dt_to_device(t, d); }
static dt_tensor *place(const dt_tensor *t, const dt_tensor *like) { return dt_to_device(t, dt_device_of(like)); }

int main() {
  const dt_tensor *w = dt_randn(dt_sim(0), 1, 2, kShape);
  void *slot = reinterpret_cast<void *>(const_cast<dt_tensor *>(w));
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
  dt_tensor *xp = place(x, dt_cpu());
  dt_tensor *wt = static_cast<dt_tensor *>(slot);
  dt_tensor *y = dt_matmul(xp, wt); // expect-error: backend-mismatch
  dt_tensor *again = place(xp, wt);
  std::printf("%lld %lld\n", (long long)dt_numel(y), (long long)dt_numel(again));
  return 0;
}
