// provenance: blind round cxx1
// Models created with new and deleted with delete, through a base-class pointer. The runner
// swaps its model for a freshly constructed one on another accelerator (sim:1) to free
// sim:0, but keeps feeding the cached sim:0 prompt embedding: device-mismatch in forward().
#include <dt/dt.h>

#include <cstdio>

namespace lm {

class Model {
 public:
  virtual ~Model() = default;
  virtual dt_tensor *forward(const dt_tensor *x) const = 0;
  virtual dt_device device() const = 0;
};

class TinyLM : public Model {
 public:
  explicit TinyLM(dt_device dev) : dev_(dev) {
    const int64_t shape[] = {6, 6};
    w_ = dt_randn(dev_, 77, 2, shape);
  }
  ~TinyLM() override { dt_free(w_); }
  dt_tensor *forward(const dt_tensor *x) const override {
    dt_tensor *h = dt_matmul(x, w_); // expect-error: device-mismatch
    dt_tensor *y = dt_tanh(h);
    dt_free(h);
    return y;
  }
  dt_device device() const override { return dev_; }

 private:
  dt_device dev_;
  dt_tensor *w_;
};

class Runner {
 public:
  Runner() : model_(new TinyLM(dt_sim(0))) {
    const int64_t shape[] = {1, 6};
    prompt_ = dt_ones(model_->device(), DT_FLOAT, 2, shape);
  }
  ~Runner() {
    dt_free(prompt_);
    delete model_;
  }
  void relocate(dt_device dev) {
    Model *next = new TinyLM(dev);
    delete model_;
    model_ = next;
  }
  float generate() const {
    dt_tensor *y = model_->forward(prompt_);
    float out[6] = {0};
    if (y) dt_read_floats(y, out, 6);
    dt_free(y);
    return out[0];
  }

 private:
  Model *model_;
  dt_tensor *prompt_;
};

}  // namespace lm

int main() {
  lm::Runner *r = new lm::Runner();
  std::printf("first %.4f\n", r->generate());
  r->relocate(dt_sim(1));
  std::printf("second %.4f\n", r->generate());
  delete r;
  return 0;
}
