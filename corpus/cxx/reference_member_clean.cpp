// A class holding its model through a reference data member (`Model &model_`, bound in the
// constructor's initializer list), the way evaluators and samplers borrow a model they do not
// own. The model lives on sim:0; the evaluation batch is read on the host, and the evaluator
// moves it to the borrowed weight's device before the product.
#include <dt/dt.h>

#include <cstdio>

struct Model {
  dt_tensor *w = nullptr;
  explicit Model(dt_device d) {
    const int64_t shape[] = {4, 4};
    w = dt_randn(d, 11, 2, shape);
  }
  ~Model() { dt_free(w); }
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;
};

class Evaluator {
 public:
  explicit Evaluator(Model &model) : model_(model) {}
  float score(const dt_tensor *batch) const {
    dt_tensor *x = dt_to_device(batch, dt_device_of(model_.w));
    dt_tensor *y = dt_matmul(x, model_.w);
    dt_free(x);
    dt_tensor *total = dt_sum(y);
    float out = 0.0f;
    dt_read_floats(total, &out, 1);
    dt_free(total);
    dt_free(y);
    return out;
  }

 private:
  Model &model_;
};

int main() {
  Model m(dt_sim(0));
  Evaluator ev(m);
  const int64_t shape[] = {4, 4};
  dt_tensor *batch = dt_ones(dt_cpu(), DT_FLOAT, 2, shape);
  std::printf("%f\n", static_cast<double>(ev.score(batch)));
  dt_free(batch);
  return 0;
}
