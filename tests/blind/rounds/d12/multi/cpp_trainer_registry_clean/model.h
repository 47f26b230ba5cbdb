// provenance: blind round d12
#pragma once
#include <dt/dt.h>
#include <map>
#include <memory>
#include <string>
#include <vector>

class Module {
 public:
  virtual ~Module() = default;
  virtual dt_tensor *forward(const dt_tensor *x) const = 0;
  virtual void collect(const std::string &prefix, std::map<std::string, dt_tensor **> &out) = 0;
};

class Dense : public Module {
 public:
  Dense(dt_device dev, int64_t in, int64_t out, uint64_t seed);
  ~Dense() override;
  dt_tensor *forward(const dt_tensor *x) const override;
  void collect(const std::string &prefix, std::map<std::string, dt_tensor **> &out) override;

 private:
  dt_tensor *w_ = nullptr, *b_ = nullptr;
};

class Act : public Module {
 public:
  dt_tensor *forward(const dt_tensor *x) const override { return dt_tanh(x); }
  void collect(const std::string &, std::map<std::string, dt_tensor **> &) override {}
};

// A stack of modules on one device: autodiff (trainable) or plain (inference).
class Model {
 public:
  Model(dt_device dev, int in, int hidden, int out);
  dt_tensor *forward(const dt_tensor *x) const;
  std::map<std::string, dt_tensor **> parameters();
  dt_device device() const { return dev_; }
  bool trainable() const { return dev_.autodiff != 0; }

 private:
  dt_device dev_;
  std::vector<std::unique_ptr<Module>> mods_;
};
