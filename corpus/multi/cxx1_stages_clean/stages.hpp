// Declarations for a two-accelerator inference pipeline: an abstract Stage, factories defined
// in encoder.cpp and head.cpp, and an inline hop() that moves an activation onto a stage's
// device before the stage runs.
#pragma once

#include <dt/dt.h>

#include <memory>
#include <string>

namespace ps {

class Stage {
 public:
  explicit Stage(dt_device dev) : dev_(dev) {}
  virtual ~Stage() = default;
  virtual dt_tensor *run(const dt_tensor *x) const = 0;
  virtual std::string label() const = 0;
  dt_device device() const { return dev_; }

 protected:
  dt_device dev_;
};

std::unique_ptr<Stage> make_encoder(dt_device dev, int64_t in, int64_t width);
std::unique_ptr<Stage> make_head(dt_device dev, int64_t width, int64_t classes);

inline dt_tensor *hop(const dt_tensor *x, const Stage &to) { return dt_to_device(x, to.device()); }

}  // namespace ps
