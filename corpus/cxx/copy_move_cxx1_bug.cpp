// provenance: blind round cxx1
// A checkpoint struct is copied into a "best" snapshot and moved into an "export" slot. The
// export's weight is moved to the host for saving, but evaluation afterwards uses the export's
// weight with the live sim:0 input: backend-mismatch.
#include <dt/dt.h>

#include <cstdio>
#include <string>
#include <utility>

struct Checkpoint {
  std::string tag;
  dt_tensor *weight;
  dt_tensor *bias;
  float score;
};

class Keeper {
 public:
  explicit Keeper(Checkpoint start) : best_(start) {}
  void offer(const Checkpoint &c) {
    if (c.score < best_.score) best_ = c;
  }
  const Checkpoint &best() const { return best_; }

 private:
  Checkpoint best_;
};

static dt_tensor *predict(const Checkpoint &c, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, c.weight); // expect-error: backend-mismatch
  dt_tensor *y = dt_add(h, c.bias);
  dt_free(h);
  return y;
}

int main() {
  const dt_device dev = dt_sim(0);
  const int64_t wshape[] = {2, 2};
  const int64_t bshape[] = {2};
  const int64_t xshape[] = {3, 2};
  Checkpoint live{"live", dt_randn(dev, 2, 2, wshape), dt_zeros(dev, DT_FLOAT, 1, bshape), 1.0f};
  Keeper keeper(live);
  Checkpoint second = live;
  second.tag = "second";
  second.score = 0.5f;
  keeper.offer(second);

  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, xshape);
  dt_tensor *y_best = predict(keeper.best(), x);

  Checkpoint exported = std::move(second);
  exported.tag = "export";
  exported.weight = dt_to_device(exported.weight, dt_cpu());
  exported.bias = dt_to_device(exported.bias, dt_cpu());
  std::printf("exported %s\n", exported.tag.c_str());

  dt_tensor *y_export = predict(exported, x);
  std::printf("%s %s\n", y_best ? "best ok" : "best failed", y_export ? "export ok" : "export failed");
  dt_free(y_export);
  dt_free(y_best);
  dt_free(x);
  dt_free(exported.weight);
  dt_free(exported.bias);
  dt_free(live.weight);
  dt_free(live.bias);
  return 0;
}
