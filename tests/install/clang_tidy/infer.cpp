// tests/install/clang_tidy/infer.cpp — a C++ unit with one device-mismatch.
#include <dt/dt.h>

namespace infer {
void run() {
  dt_tensor *a = dt_ones(dt_sim(0), DT_FLOAT, 0, nullptr);
  dt_tensor *b = dt_ones(dt_sim(1), DT_FLOAT, 0, nullptr);
  dt_free(dt_add(a, b)); // expect-error: device-mismatch
}
}  // namespace infer
