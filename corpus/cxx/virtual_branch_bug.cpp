// corpus/cxx/virtual_branch_bug.cpp — a model picked at run time through a base pointer
// (`Module *m = argc > 1 ? &plain : &biased`): the virtual call runs whichever override the
// object it points to has. The biased one keeps its bias on the host while the input is on
// sim:0. Bug: backend-mismatch in Biased::forward.
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

struct Module {
  virtual ~Module() = default;
  virtual dt_tensor *forward(const dt_tensor *x) const = 0;
};

struct Plain : Module {
  dt_tensor *forward(const dt_tensor *x) const override { return dt_relu(x); }
};

struct Biased : Module {
  dt_tensor *b;
  explicit Biased(dt_device d) : b(dt_ones(d, DT_FLOAT, 2, kShape)) {}
  ~Biased() override { dt_free(b); }
  dt_tensor *forward(const dt_tensor *x) const override { return dt_add(x, b); } // expect-error: backend-mismatch
};

int main(int argc, char **argv) {
  (void)argv;
  Plain plain;
  Biased biased(dt_cpu());
  const Module *m = &plain;
  if (argc < 2) m = &biased;
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  dt_tensor *y = m->forward(x);
  std::printf("%lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  return 0;
}
