// corpus/cxx/fnptr_element_bug.cpp — prediction heads kept in a std::vector of plain structs
// holding a name and a function pointer (the activation), pushed as braced temporaries. The
// zero-filled temporary used to make the pointer copied into the vector unknown, so the call
// through it was not followed; the float prediction is now scored against int class ids.
// Bug: kind-mismatch.
#include <cstdio>
#include <vector>

#include <dt/dt.h>

struct Head {
  const char *name;
  dt_tensor *(*activate)(const dt_tensor *);
};

static const int64_t kShape[2] = {2, 2};

int main() {
  std::vector<Head> heads;
  heads.push_back(Head{"relu", &dt_relu});
  const int64_t ids[4] = {0, 1, 1, 0};
  dt_tensor *x = dt_randn(dt_cpu(), 11, 2, kShape);
  dt_tensor *labels = dt_from_ints(dt_cpu(), ids, 2, kShape);
  for (const Head &h : heads) {
    dt_tensor *pred = h.activate(x);
    dt_tensor *loss = dt_mse_loss(pred, labels); // expect-error: kind-mismatch
    std::printf("%s %lld\n", h.name, (long long)dt_numel(loss));
    dt_free(loss);
    dt_free(pred);
  }
  dt_free(labels);
  dt_free(x);
  return 0;
}
