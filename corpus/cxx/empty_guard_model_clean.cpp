// corpus/cxx/empty_guard_model_clean.cpp — a model that builds its stages only when it found an
// accelerator (`if (accels_.empty()) return;` in create()), and a caller that runs it only when
// ready() (`!accels_.empty()`). The test of empty() says on each side whether the container is
// empty, so the path with no accelerator never reaches the forward pass, where a stage-less
// model would leave the input on the host. Clean, whatever the command line says.
// run-args: --cpu-only
#include <cstdio>
#include <cstring>
#include <vector>

#include <dt/dt.h>

namespace {

const int64_t kShape[2] = {2, 4};
const int64_t kWeight[2] = {4, 4};

class Model {
 public:
  explicit Model(bool cpu_only) {
    if (!cpu_only)
      for (int i = 0; i < 2; i++) accels_.push_back(dt_sim(i));
    create();
  }
  ~Model() {
    for (dt_tensor *w : stages_) dt_free(w);
  }
  bool ready() const { return !accels_.empty(); }

  // the input moves to each stage's device; the last stage's output comes back on sim:1
  dt_tensor *forward(const dt_tensor *x) const {
    dt_tensor *h = dt_mul_scalar(x, 1.0f);
    for (size_t i = 0; i < stages_.size(); i++) {
      dt_tensor *here = dt_to_device(h, accels_[i]);
      dt_free(h);
      h = dt_relu(dt_matmul(here, stages_[i]));
      dt_free(here);
    }
    return h;
  }

 private:
  void create() {
    if (accels_.empty()) return;
    for (size_t i = 0; i < accels_.size(); i++) stages_.push_back(dt_randn(accels_[i], 10 + i, 2, kWeight));
  }

  std::vector<dt_device> accels_;
  std::vector<dt_tensor *> stages_;
};

}  // namespace

int main(int argc, char **argv) {
  bool cpu_only = argc > 1 && std::strcmp(argv[1], "--cpu-only") == 0;
  Model model(cpu_only);
  if (!model.ready()) {
    std::printf("no accelerator: nothing to run\n");
    return 0;
  }
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
  dt_tensor *y = model.forward(x);
  dt_tensor *bias = dt_ones(dt_sim(1), DT_FLOAT, 2, kShape);
  dt_tensor *out = dt_add(y, bias);
  std::printf("out: %lld x %lld\n", (long long)dt_dim(out, 0), (long long)dt_dim(out, 1));
  for (dt_tensor *t : {x, y, bias, out}) dt_free(t);
  return 0;
}
