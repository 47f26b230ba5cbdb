// corpus/cxx/swap_handle_bug.cpp — an owning label handle whose move assignment is written with
// std::swap (the moved-from handle takes the old tensor and frees it). The labels are loaded as
// integer class ids and swapped into the target, but the loss wants float targets. Bug:
// kind-mismatch where the float predictions meet the integer labels.
#include <cstdio>
#include <utility>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

class Labels {
 public:
  Labels() = default;
  explicit Labels(dt_tensor *t) : t_(t) {}
  Labels(Labels &&o) noexcept { std::swap(t_, o.t_); }
  Labels &operator=(Labels &&o) noexcept {
    std::swap(t_, o.t_);
    return *this;
  }
  Labels(const Labels &) = delete;
  Labels &operator=(const Labels &) = delete;
  ~Labels() { dt_free(t_); }
  const dt_tensor *get() const { return t_; }

 private:
  dt_tensor *t_ = nullptr;
};

static Labels load_labels() {
  const int64_t ids[4] = {0, 1, 1, 0};
  return Labels(dt_from_ints(dt_cpu(), ids, 2, kShape));
}

int main() {
  Labels y;
  y = load_labels();
  dt_tensor *pred = dt_zeros(dt_cpu(), DT_FLOAT, 2, kShape);
  dt_tensor *loss = dt_mse_loss(pred, y.get()); // expect-error: kind-mismatch
  std::printf("%lld\n", (long long)dt_numel(loss));
  dt_free(loss);
  dt_free(pred);
  return 0;
}
