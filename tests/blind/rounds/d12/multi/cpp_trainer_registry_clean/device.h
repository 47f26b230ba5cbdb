// provenance: blind round d12
#pragma once
#include <dt/dt.h>
#include <string>

struct DeviceConfig {
  dt_device train;     // plain device the trainer's autodiff wraps
  dt_device eval;      // plain device for evaluation
  dt_device resume;    // device the second phase continues on
  static DeviceConfig from_env();
  std::string describe() const;
};

dt_device parse_device(const char *name, dt_device fallback);
