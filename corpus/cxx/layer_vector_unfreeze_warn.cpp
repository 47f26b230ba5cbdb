// corpus/cxx/layer_vector_unfreeze_warn.cpp — a layer stack kept as
// std::vector<std::unique_ptr<Layer>>, built by std::make_unique in a loop plus a head with
// other sizes and no activation. Each element read is any of the layers; they differ in their
// flags and sizes but their weights are all on the inner device of one autodiff device, so a
// layer's weight is known whichever it is. A frozen layer (the freeze line comes from the
// command line) multiplies the tracked activations by its plain weight.
// Bug: a warning (autodiff-expected, only where a layer is frozen).
// run-args: --freeze 1
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <dt/dt.h>

namespace {

struct Free {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using Tensor = std::unique_ptr<dt_tensor, Free>;

class Layer {
 public:
  Layer(dt_device ad, int64_t in, int64_t out, uint64_t seed, bool act) : ad_(ad), act_(act) {
    const int64_t shape[2] = {in, out};
    w_ = Tensor(dt_randn(dt_inner_device(ad), seed, 2, shape));
  }
  void set_frozen(bool f) { frozen_ = f; }

  Tensor forward(dt_tensor *x) {
    dt_tensor *w = w_.get();
    if (!frozen_) {
      tracked_ = Tensor(dt_require_grad(dt_from_inner(ad_, w_.get())));
      w = tracked_.get();
    }
    Tensor z(dt_matmul(x, w)); // expect-warning: autodiff-expected
    return act_ ? Tensor(dt_tanh(z.get())) : std::move(z);
  }

 private:
  dt_device ad_;
  bool act_;
  bool frozen_ = false;
  Tensor w_, tracked_;
};

}  // namespace

int main(int argc, char **argv) {
  int freeze = 0;
  for (int i = 1; i + 1 < argc; i += 2)
    if (!std::strcmp(argv[i], "--freeze")) freeze = std::atoi(argv[i + 1]);
  const dt_device ad = dt_autodiff(dt_sim(1));
  std::vector<std::unique_ptr<Layer>> layers;
  for (int l = 0; l < 3; l++) layers.push_back(std::make_unique<Layer>(ad, 4, 4, 10 + (uint64_t)l, true));
  layers.push_back(std::make_unique<Layer>(ad, 4, 2, 20, false));
  for (size_t l = 0; l < layers.size(); l++) layers[l]->set_frozen((int)l < freeze);

  const int64_t xs[2] = {3, 4};
  Tensor h(dt_ones(ad, DT_FLOAT, 2, xs));
  for (auto &layer : layers) h = layer->forward(h.get());
  std::printf("out: %lld x %lld\n", (long long)dt_dim(h.get(), 0), (long long)dt_dim(h.get(), 1));
  return 0;
}
