// corpus/cxx/std_array_bug.cpp — replicas held in a std::array member: each replica (a struct
// with a device and a unique_ptr weight) is set up by an index loop, read back by operator[],
// at(), front()/back() and range-for, loops bounded by size(). Replica 1 lives on sim:1, so
// summing its gradient into replica 0's without a copy fails on every run.
// Bugs: device-mismatch (twice).
#include <array>
#include <cstdio>
#include <memory>

#include <dt/dt.h>

struct FreeTensor {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using Owned = std::unique_ptr<dt_tensor, FreeTensor>;

static const int64_t kShape[1] = {3};

struct Replica {
  dt_device dev{};
  Owned w;
};

class Group {
 public:
  Group() {
    for (size_t r = 0; r < reps_.size(); ++r) {
      reps_[r].dev = dt_sim(static_cast<int>(r));
      reps_[r].w.reset(dt_ones(reps_[r].dev, DT_FLOAT, 1, kShape));
    }
  }

  float reduce() {
    std::array<Owned, 2> grads;
    for (size_t r = 0; r < reps_.size(); ++r) {
      Replica &rep = reps_.at(r);
      grads[r].reset(dt_mul_scalar(rep.w.get(), 0.5f));
    }
    Owned total(dt_add(grads[0].get(), grads[1].get())); // expect-error: device-mismatch
    float v[3] = {0, 0, 0};
    if (total) dt_read_floats(total.get(), v, 3);
    return v[0];
  }

  void sync() {
    Owned mixed(dt_sub(reps_.front().w.get(), reps_.back().w.get())); // expect-error: device-mismatch
    (void)mixed;
  }

  float norm() const {
    float sum = 0.0f;
    for (const Replica &rep : reps_) {
      float v[3] = {0, 0, 0};
      dt_read_floats(rep.w.get(), v, 3);
      sum += v[0] + v[1] + v[2];
    }
    return sum;
  }

 private:
  std::array<Replica, 2> reps_;
};

int main() {
  Group g;
  float a = g.reduce();
  g.sync();
  std::printf("%.2f %.2f\n", static_cast<double>(a), static_cast<double>(g.norm()));
  return 0;
}
