// provenance: blind round d12
// run-env: TRAIN_DEVICE=sim0 EVAL_DEVICE=cpu RESUME_DEVICE=sim1
#include "device.h"
#include <cstdlib>
#include <cstring>

dt_device parse_device(const char *name, dt_device fallback) {
  if (!name) return fallback;
  if (!std::strcmp(name, "cpu")) return dt_cpu();
  if (!std::strcmp(name, "sim0")) return dt_sim(0);
  if (!std::strcmp(name, "sim1")) return dt_sim(1);
  return fallback;
}

DeviceConfig DeviceConfig::from_env() {
  DeviceConfig c;
  c.train = parse_device(std::getenv("TRAIN_DEVICE"), dt_sim(0));
  c.eval = parse_device(std::getenv("EVAL_DEVICE"), dt_cpu());
  c.resume = parse_device(std::getenv("RESUME_DEVICE"), c.train);
  return c;
}

static std::string name_of(dt_device d) {
  char buf[32];
  dt_device_name(d, buf, sizeof buf);
  return buf;
}

std::string DeviceConfig::describe() const {
  return "train=" + name_of(train) + " eval=" + name_of(eval) + " resume=" + name_of(resume);
}
