// Parameters returned as a braced list of {name, tensor} pairs (the std::vector
// initializer_list constructor), shapes spelled `std::vector<int64_t>{...}`, a copy of the list
// (the copy constructor) and host buffers made with the (count, value) constructor. Every
// parameter is an autodiff tensor on sim:0 that took part in the loss, so the SGD step's
// gradients exist: nothing may be reported.
#include <dt/dt.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

struct Named {
  std::string name;
  dt_tensor *value;
};

struct Affine {
  dt_tensor *w;
  dt_tensor *b;
};

std::vector<Named> parameters(const Affine &a) { return {{"w", a.w}, {"b", a.b}}; }

float sgd_step(const std::vector<Named> &params, float lr) {
  float moved = 0.0f;
  for (const Named &p : params) {
    dt_tensor *g = dt_grad(p.value);
    if (g == nullptr) continue;
    dt_tensor *step = dt_mul_scalar(g, lr);
    dt_tensor *norm = dt_sum(step);
    float v = 0.0f;
    if (norm) dt_read_floats(norm, &v, 1);
    moved += v;
    dt_free(norm);
    dt_free(step);
    dt_free(g);
  }
  return moved;
}

}  // namespace

int main() {
  const dt_device ad = dt_autodiff(dt_sim(0));
  const std::vector<int64_t> shape{3};
  Affine layer{dt_require_grad(dt_randn(ad, 4, 1, shape.data())),
               dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, shape.data()))};
  std::vector<dt_tensor *> terms{layer.w, layer.b};
  dt_tensor *h = dt_add(terms[0], terms[1]);
  dt_tensor *loss = dt_sum(h);
  dt_backward(loss);
  const std::vector<Named> params = parameters(layer);
  const std::vector<Named> snapshot(params);
  std::vector<float> host(3, 0.0f);
  dt_read_floats(snapshot[0].value, host.data(), 3);
  std::printf("moved %.4f, w[0] %.4f\n", sgd_step(params, 0.1f), host[0]);
  dt_free(loss);
  dt_free(h);
  dt_free(layer.w);
  dt_free(layer.b);
  return 0;
}
