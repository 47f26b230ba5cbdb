// Shared declarations of the multi-file trainer: the run configuration, the model, the data
// loader, an inline transfer helper and the process-wide default device (extern global).
#pragma once

#include <dt/dt.h>

#include <string>
#include <vector>

namespace mt {

extern dt_device g_default_device;  // defined in main.cpp

struct RunConfig {
  dt_device model_dev = dt_sim(1);
  dt_device data_dev = dt_sim(1);
  int64_t batch = 4;
  int64_t features = 6;
  int64_t hidden = 8;
  std::string name = "default";
};

// Moves t to d and frees the original (the caller owns both).
inline dt_tensor *move_to(dt_tensor *t, dt_device d) {
  dt_tensor *m = dt_to_device(t, d);
  dt_free(t);
  return m;
}

class Model {
 public:
  explicit Model(const RunConfig &cfg);
  ~Model();
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;
  dt_tensor *forward(const dt_tensor *x) const;
  float loss(const dt_tensor *x, const dt_tensor *y) const;
  dt_device device() const { return dev_; }

 private:
  dt_device dev_;
  dt_tensor *w1_ = nullptr;
  dt_tensor *w2_ = nullptr;
};

struct Batch {
  dt_tensor *x;
  dt_tensor *y;
};

class Loader {
 public:
  explicit Loader(const RunConfig &cfg, int seed = 0);
  Batch next();
  static void release(Batch &b);
  dt_device device() const { return dev_; }

 private:
  dt_device dev_;
  int64_t batch_, features_;
  int counter_;
};

}  // namespace mt
