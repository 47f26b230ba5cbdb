// corpus/cxx/virtual_branch_clean.cpp — a model picked at run time through a base pointer
// (`Module *m = argc > 1 ? &plain : &biased`): the virtual call runs whichever override the
// object it points to has. The biased one has its bias on sim:0 like the input; its
// constructor's default would be the host, which no object uses. Clean.
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
  explicit Biased(dt_device d = dt_cpu()) : b(dt_ones(d, DT_FLOAT, 2, kShape)) {}
  ~Biased() override { dt_free(b); }
  dt_tensor *forward(const dt_tensor *x) const override { return dt_add(x, b); }
};

int main(int argc, char **argv) {
  (void)argv;
  Plain plain;
  Biased biased(dt_sim(0));
  const Module *m = &plain;
  if (argc < 2) m = &biased;
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  dt_tensor *y = m->forward(x);
  std::printf("%lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  return 0;
}
