// A layer's parameters are returned as a braced list of {name, tensor} pairs
// (`return {{"w", w}, {"b", b}};`, the std::vector initializer_list constructor), and the
// activations kept for logging are a `std::vector<dt_tensor *>{...}`. The body layer is made on
// autodiff<sim:0>, but the head was made on the plain sim:0 device: the SGD step over the
// head's parameters asks for the gradient of a plain tensor (every parameter of the list).
#include <dt/dt.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int kWidth = 3;

struct Named {
  std::string name;
  dt_tensor *value;
};

struct Layer {
  dt_tensor *w;
  dt_tensor *b;
};

std::vector<Named> parameters(const Layer &l) { return {{"w", l.w}, {"b", l.b}}; }

void sgd_step(const std::vector<Named> &params, float lr) {
  for (const Named &p : params) {
    dt_tensor *g = dt_grad(p.value); // expect-error: autodiff-expected
    if (g == nullptr) {
      std::printf("no gradient for %s: %s\n", p.name.c_str(), dt_last_error());
      continue;
    }
    dt_tensor *step = dt_mul_scalar(g, lr);
    dt_free(step);
    dt_free(g);
  }
}

}  // namespace

int main() {
  const dt_device ad = dt_autodiff(dt_sim(0));
  const int64_t shape[1] = {kWidth};
  Layer body{dt_require_grad(dt_randn(ad, 1, 1, shape)), dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, shape))};
  Layer head{dt_randn(dt_sim(0), 2, 1, shape), dt_zeros(dt_sim(0), DT_FLOAT, 1, shape)};
  dt_tensor *h = dt_add(body.w, body.b);
  std::vector<dt_tensor *> acts{h};
  dt_tensor *loss = dt_sum(acts[0]);
  dt_backward(loss);
  sgd_step(parameters(body), 0.1f);
  sgd_step(parameters(head), 0.1f);
  dt_free(loss);
  dt_free(h);
  for (Layer *l : {&body, &head}) {
    dt_free(l->w);
    dt_free(l->b);
  }
  return 0;
}
