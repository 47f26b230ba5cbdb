// provenance: regression (a class inheriting its constructors made its stages' devices known,
// and corpus/cxx/stage_pipeline_clean.cpp then met a path that does not run)
// A runner keeps one scratch tensor per device in a std::map keyed by the device's name, made
// on first use: `if (!scratch_.count(k)) scratch_.emplace(k, ...)`. The map starts empty, so
// the first stage's test says "absent" and inserts; a lookup by a name the analysis cannot
// spell finds one of the scratches, which one not followed. Correct on every input.
#include <dt/dt.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct Free {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using Tensor = std::unique_ptr<dt_tensor, Free>;

static std::string key_of(dt_device d) {
  char b[32];
  dt_device_name(d, b, sizeof b);
  return b;
}

class Runner {
 public:
  void add(dt_device d) {
    const std::string k = key_of(d);
    if (!scratch_.count(k)) {
      const int64_t s[1] = {4};
      scratch_.emplace(k, Tensor(dt_full(d, 0.5f, 1, s)));
    }
    devices_.push_back(d);
  }
  const dt_tensor *scratch(dt_device d) const { return scratch_.at(key_of(d)).get(); }
  float run() const {
    float total = 0.0f;
    for (const dt_device &d : devices_) {
      const int64_t s[1] = {4};
      Tensor x(dt_ones(d, DT_FLOAT, 1, s));
      Tensor y(dt_mul(x.get(), scratch_.at(key_of(d)).get()));
      Tensor sum(dt_sum(y.get()));
      float v = 0.0f;
      dt_read_floats(sum.get(), &v, 1);
      total += v;
    }
    return total;
  }

 private:
  std::map<std::string, Tensor> scratch_;
  std::vector<dt_device> devices_;
};

int main() {
  Runner r;
  r.add(dt_sim(1));
  r.add(dt_cpu());
  std::printf("total %.2f\n", r.run());
  const int64_t s[1] = {4};
  Tensor x(dt_ones(dt_sim(1), DT_FLOAT, 1, s));
  Tensor y(dt_mul(x.get(), r.scratch(dt_sim(1))));
  std::printf("%s\n", y ? "ok" : "failed");
  return 0;
}
