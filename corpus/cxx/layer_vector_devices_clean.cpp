// corpus/cxx/layer_vector_devices_clean.cpp — a pipeline whose stages are kept as
// std::vector<std::unique_ptr<Stage>>, each on its own device (sim:0, sim:1, the cpu). An
// element read is one of stages placed differently, so which device the loop's stage is on is
// not guessed; each stage moves its input to its own device before using its weight, and the
// program is clean whichever stage runs. Clean.
#include <cstdio>
#include <memory>
#include <vector>

#include <dt/dt.h>

namespace {

class Stage {
 public:
  Stage(dt_device d, uint64_t seed) : dev_(d) {
    const int64_t shape[2] = {4, 4};
    w_ = dt_randn(d, seed, 2, shape);
  }
  ~Stage() { dt_free(w_); }
  Stage(const Stage &) = delete;
  Stage &operator=(const Stage &) = delete;

  dt_tensor *forward(dt_tensor *x) const {
    dt_tensor *here = dt_to_device(x, dev_);
    dt_tensor *y = dt_relu(dt_matmul(here, w_));
    dt_free(here);
    return y;
  }
  bool on_host() const { return dev_.backend == DT_BACKEND_CPU; }

 private:
  dt_device dev_;
  dt_tensor *w_;
};

}  // namespace

int main() {
  std::vector<std::unique_ptr<Stage>> stages;
  stages.push_back(std::make_unique<Stage>(dt_sim(0), 1));
  stages.push_back(std::make_unique<Stage>(dt_sim(1), 2));
  stages.push_back(std::make_unique<Stage>(dt_cpu(), 3));

  const int64_t xs[2] = {2, 4};
  dt_tensor *h = dt_ones(dt_cpu(), DT_FLOAT, 2, xs);
  for (const auto &stage : stages) {
    dt_tensor *next = stage->forward(h);
    dt_free(h);
    h = next;
  }
  for (size_t i = 0; i < stages.size(); i++)
    if (stages[i]->on_host()) std::printf("stage %zu runs on the host\n", i);
  dt_tensor *out = dt_to_device(h, dt_cpu());
  std::printf("out: %lld x %lld\n", (long long)dt_dim(out, 0), (long long)dt_dim(out, 1));
  dt_free(out);
  dt_free(h);
  return 0;
}
