// corpus/cxx/references_bug.cpp — a model held in a struct with an array of layers; helpers
// take it by reference (`Model &`, `const Model &`), an out-parameter by reference to a handle
// (`dt_tensor *&`), and `const auto &` binds an array member. The bias of layer 1 was made on
// sim:0 by a reference helper. Bug: device-mismatch in the forward pass.
#include <cstdio>

#include <dt/dt.h>

struct Layer {
  dt_tensor *w;
  dt_tensor *b;
};

struct Model {
  Layer layers[2];
  dt_device dev;
};

static const int64_t kShape[2] = {2, 2};

static void make_bias(dt_tensor *&out, dt_device d) { out = dt_zeros(d, DT_FLOAT, 2, kShape); }

static void init(Model &m, dt_device d) {
  m.dev = d;
  for (auto &l : m.layers) l.w = dt_randn(d, 1, 2, kShape);
  make_bias(m.layers[0].b, d);
  make_bias(m.layers[1].b, dt_sim(0));
}

static dt_tensor *forward(const Model &m, dt_tensor *x) {
  const auto &ls = m.layers;
  dt_tensor *h = dt_matmul(x, ls[0].w);
  dt_tensor *h2 = dt_add(h, ls[0].b);
  dt_tensor *h3 = dt_matmul(h2, ls[1].w);
  dt_tensor *y = dt_add(h3, ls[1].b); // expect-error: device-mismatch
  dt_free(h);
  dt_free(h2);
  dt_free(h3);
  return y;
}

int main() {
  Model m;
  init(m, dt_sim(1));
  dt_tensor *x = dt_ones(m.dev, DT_FLOAT, 2, kShape);
  dt_tensor *y = forward(m, x);
  std::printf("%lld\n", (long long)dt_numel(y));
  return 0;
}
