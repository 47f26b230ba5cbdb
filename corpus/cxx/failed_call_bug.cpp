// corpus/cxx/failed_call_bug.cpp — what a failed call leaves behind. dt returns NULL from a
// tensor call whose check fails, so forward()'s `if (!h) return nullptr;` returns and the
// update guarded by its result is never reached (its matmul would fail the same way: no
// second finding). A device call that fails gives its device back (dt_autodiff returns the
// autodiff device it was given), so the plain inner device made from it, and the tensor made
// there, are known: asking that tensor for gradients is a mistake of its own.
// Bugs: backend-mismatch, autodiff-nested, autodiff-expected.
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

static dt_tensor *forward(const dt_tensor *x, const dt_tensor *w) {
  dt_tensor *h = dt_matmul(x, w); // expect-error: backend-mismatch
  if (!h) return nullptr;
  dt_tensor *y = dt_add(h, w);
  dt_free(h);
  return y;
}

static void update(const dt_tensor *x, const dt_tensor *w) {
  dt_tensor *h = dt_matmul(x, w);
  dt_free(h);
}

int main() {
  dt_tensor *w = dt_randn(dt_sim(0), 1u, 2, kShape);
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
  dt_tensor *y = forward(x, w);
  if (y) update(x, w);
  dt_device once = dt_autodiff(dt_sim(1));
  dt_device ad = dt_autodiff(once); // expect-error: autodiff-nested
  dt_tensor *z = dt_zeros(dt_inner_device(ad), DT_FLOAT, 2, kShape);
  dt_tensor *t = dt_require_grad(z); // expect-error: autodiff-expected
  std::printf("%d %d\n", y != nullptr, t != nullptr);
  dt_free(y);
  dt_free(z);
  dt_free(x);
  dt_free(w);
  return 0;
}
