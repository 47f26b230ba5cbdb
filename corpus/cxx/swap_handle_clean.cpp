// corpus/cxx/swap_handle_clean.cpp — an owning target handle whose move assignment is written
// with std::swap (the moved-from handle takes the old tensor and frees it), a std::swap of two
// handles and a std::iter_swap of two array slots. The first target (integer class ids, never
// given to the loss) is replaced by float targets before the loss; the swaps leave the CPU
// buffer in the slot the loss reads: each swap keeps each tensor with its tag. Clean.
#include <algorithm>
#include <cstdio>
#include <utility>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

class Targets {
 public:
  Targets() = default;
  explicit Targets(dt_tensor *t) : t_(t) {}
  Targets(Targets &&o) noexcept { std::swap(t_, o.t_); }
  Targets &operator=(Targets &&o) noexcept {
    std::swap(t_, o.t_);
    return *this;
  }
  Targets(const Targets &) = delete;
  Targets &operator=(const Targets &) = delete;
  ~Targets() { dt_free(t_); }
  const dt_tensor *get() const { return t_; }

 private:
  dt_tensor *t_ = nullptr;
};

int main() {
  const int64_t ids[4] = {0, 1, 1, 0};
  Targets y(dt_from_ints(dt_cpu(), ids, 2, kShape));
  std::printf("%lld ids\n", (long long)dt_numel(y.get()));
  y = Targets(dt_ones(dt_cpu(), DT_FLOAT, 2, kShape));
  dt_tensor *front = dt_zeros(dt_sim(0), DT_FLOAT, 2, kShape);
  dt_tensor *back = dt_zeros(dt_cpu(), DT_FLOAT, 2, kShape);
  std::swap(front, back); // front is now the cpu one
  dt_tensor *pair[2] = {back, front};
  std::iter_swap(&pair[0], &pair[1]); // pair[0] is the cpu one again
  dt_tensor *loss = dt_mse_loss(pair[0], y.get());
  std::printf("%lld\n", (long long)dt_numel(loss));
  dt_free(loss);
  dt_free(front);
  dt_free(back);
  return 0;
}
