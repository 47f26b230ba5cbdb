// corpus/cxx/fnptr_element_clean.cpp — heads in a std::vector of plain structs with an
// activation pointer and an optional post-processing pointer (NULL for some heads, so the
// element's pointer is "that function or NULL" and only called under `if (h.post)`). Every
// prediction is float and is scored against float targets. Clean.
#include <cstdio>
#include <vector>

#include <dt/dt.h>

struct Head {
  const char *name;
  dt_tensor *(*activate)(const dt_tensor *);
  dt_tensor *(*post)(const dt_tensor *);
};

static const int64_t kShape[2] = {2, 2};

int main() {
  std::vector<Head> heads;
  heads.push_back(Head{"plain", &dt_relu, nullptr});
  heads.push_back(Head{"squashed", &dt_relu, &dt_sigmoid});
  const float target_values[4] = {0.f, 1.f, 1.f, 0.f};
  dt_tensor *x = dt_randn(dt_cpu(), 12, 2, kShape);
  dt_tensor *targets = dt_from_floats(dt_cpu(), target_values, 2, kShape);
  for (const Head &h : heads) {
    dt_tensor *pred = h.activate(x);
    if (h.post) {
      dt_tensor *p = h.post(pred);
      dt_free(pred);
      pred = p;
    }
    dt_tensor *loss = dt_mse_loss(pred, targets);
    std::printf("%s %lld\n", h.name, (long long)dt_numel(loss));
    dt_free(loss);
    dt_free(pred);
  }
  dt_free(targets);
  dt_free(x);
  return 0;
}
