// corpus/cxx/overload_cast_clean.cpp — the same casts; the call resolves to the overload that
// moves the batch next to the weights. Clean.
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

static dt_tensor *place(const dt_tensor *t, dt_device d) { return dt_to_device(t, d); }
static dt_tensor *place(const dt_tensor *t, const dt_tensor *like) { return dt_to_device(t, dt_device_of(like)); }

int main() {
  const dt_tensor *w = dt_randn(dt_sim(0), 1, 2, kShape);
  void *slot = reinterpret_cast<void *>(const_cast<dt_tensor *>(w));
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
  dt_tensor *wt = static_cast<dt_tensor *>(slot);
  dt_tensor *xp = place(x, wt);
  dt_tensor *y = dt_matmul(xp, wt);
  dt_tensor *back = place(y, dt_cpu());
  std::printf("%lld %lld\n", (long long)dt_numel(y), (long long)dt_numel(back));
  dt_free(back);
  dt_free(y);
  dt_free(xp);
  dt_free(x);
  dt_free(wt);
  return 0;
}
