// nets.hpp — generator and discriminator of a toy GAN placed on two accelerators
// (multi_gan_bug). The generator lives on sim:0, the discriminator on sim:1.
#pragma once
#include <dt/dt.h>

#include <array>
#include <memory>
#include <vector>

namespace gan {

struct Free {
  void operator()(dt_tensor* t) const { dt_free(t); }
};
using Tensor = std::unique_ptr<dt_tensor, Free>;

constexpr int kNoise = 3;
constexpr int kData = 4;
constexpr int kHidden = 6;
constexpr int kBatch = 5;

class Network {
 public:
  explicit Network(dt_device d) : dev_(d) {}
  virtual ~Network() = default;
  virtual Tensor operator()(const dt_tensor* x) const = 0;
  dt_device device() const { return dev_; }

 protected:
  Tensor param(uint64_t seed, int r, int c, float scale) const;
  dt_device dev_;
};

class Generator : public Network {
 public:
  explicit Generator(dt_device d);
  Tensor operator()(const dt_tensor* z) const override;
  Tensor sample(uint64_t seed) const;

 private:
  Tensor w1_, w2_;
};

class Discriminator : public Network {
 public:
  explicit Discriminator(dt_device d);
  Tensor operator()(const dt_tensor* x) const override;
  void nudge(const dt_tensor* x, float lr);

 private:
  Tensor w1_, w2_;
};

inline Tensor move_to(const dt_tensor* t, dt_device d) { return Tensor(dt_to_device(t, d)); }

}  // namespace gan
