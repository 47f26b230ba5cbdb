// provenance: blind round cxx1
// References: a `dt_tensor *&` out-parameter that moves a tensor in place, `const Model &`
// passed to an evaluation function, and `auto &` bound to an array member and to a struct
// member. The in-place mover is told sim:1 for the bias of layer 1 while the rest of the
// model lives on sim:0: the forward pass of layer 1 fails with device-mismatch.
#include <dt/dt.h>

#include <cstdio>

namespace model {

struct Layer {
  dt_tensor *w;
  dt_tensor *b;
};

struct Model {
  Layer layers[2];
  dt_device dev;
};

void move_in_place(dt_tensor *&t, dt_device d) {
  dt_tensor *moved = dt_to_device(t, d);
  dt_free(t);
  t = moved;
}

void init(Model &m, dt_device dev) {
  m.dev = dev;
  const int64_t wshape[] = {3, 3};
  const int64_t bshape[] = {3};
  for (int i = 0; i < 2; ++i) {
    auto &layer = m.layers[i];
    layer.w = dt_randn(dt_cpu(), 7 + static_cast<uint64_t>(i), 2, wshape);
    layer.b = dt_zeros(dt_cpu(), DT_FLOAT, 1, bshape);
  }
}

void to_device(Model &m) {
  for (auto &layer : m.layers) {
    move_in_place(layer.w, m.dev);
  }
  auto &first_bias = m.layers[0].b;
  move_in_place(first_bias, m.dev);
  // Copy-paste slip: the second bias goes to the other accelerator.
  dt_tensor *&second_bias = m.layers[1].b;
  move_in_place(second_bias, dt_sim(1));
}

dt_tensor *forward(const Model &m, const dt_tensor *x) {
  const Layer &l0 = m.layers[0];
  dt_tensor *h = dt_matmul(x, l0.w);
  dt_tensor *h1 = dt_add(h, l0.b);
  dt_free(h);
  const auto &l1 = m.layers[1];
  dt_tensor *g = dt_matmul(h1, l1.w);
  dt_tensor *out = dt_add(g, l1.b); // expect-error: device-mismatch
  dt_free(g);
  dt_free(h1);
  return out;
}

void release(Model &m) {
  for (auto &layer : m.layers) {
    dt_free(layer.w);
    dt_free(layer.b);
  }
}

}  // namespace model

int main() {
  model::Model m{};
  model::init(m, dt_sim(0));
  model::to_device(m);
  const int64_t xshape[] = {2, 3};
  dt_tensor *x = dt_ones(m.dev, DT_FLOAT, 2, xshape);
  const model::Model &view = m;
  dt_tensor *y = model::forward(view, x);
  std::printf("forward %s\n", y ? "ok" : "failed");
  dt_free(y);
  dt_free(x);
  model::release(m);
  return 0;
}
