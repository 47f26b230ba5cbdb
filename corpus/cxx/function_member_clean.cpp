// corpus/cxx/function_member_clean.cpp — a trainer that keeps its forward and loss callbacks as
// std::function members, moved in from by-value parameters (`fwd_(std::move(fwd))`), and a
// loss swapped later by assigning another std::function. Each copy or move holds the same
// lambda. The batch is made where the weights live: no finding.
#include <cstdio>
#include <functional>
#include <utility>

#include <dt/dt.h>

static const int64_t kShape[1] = {4};

using ForwardFn = std::function<dt_tensor *(dt_tensor *)>;
using LossFn = std::function<dt_tensor *(dt_tensor *)>;

class Trainer {
 public:
  Trainer(ForwardFn fwd, LossFn loss) : fwd_(std::move(fwd)), loss_(std::move(loss)) {}
  void set_loss(const LossFn &loss) { loss_ = loss; }
  long long step(dt_tensor *x) {
    dt_tensor *pred = fwd_(x);
    dt_tensor *loss = loss_(pred);
    long long n = (long long)dt_numel(loss);
    dt_free(loss);
    dt_free(pred);
    return n;
  }

 private:
  ForwardFn fwd_;
  LossFn loss_;
};

int main() {
  dt_tensor *w = dt_randn(dt_sim(0), 5, 1, kShape);
  ForwardFn fwd = [&w](dt_tensor *x) { return dt_mul(x, w); };
  LossFn sum = [](dt_tensor *p) { return dt_sum(p); };
  Trainer t(fwd, sum);
  LossFn mean = [](dt_tensor *p) { return dt_mean(p); };
  t.set_loss(mean);
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 1, kShape);
  std::printf("%lld\n", t.step(x));
  dt_free(x);
  dt_free(w);
  return 0;
}
