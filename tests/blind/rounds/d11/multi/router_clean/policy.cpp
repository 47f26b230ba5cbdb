// provenance: blind round d11
#include "policy.h"

#include <cstdlib>
#include <cstring>

static DevicePolicy make_policy() {
  DevicePolicy p;
  const char *e = std::getenv("ROUTER_LAYOUT");
  p.layout = e ? e : "split";
  p.host = dt_cpu();
  if (p.layout == "packed") {
    p.small_model = dt_sim(0);
    p.large_model = dt_sim(0);
  } else if (p.layout == "host") {
    p.small_model = dt_cpu();
    p.large_model = dt_cpu();
  } else {
    p.layout = "split";
    p.small_model = dt_sim(0);
    p.large_model = dt_sim(1);
  }
  return p;
}

const DevicePolicy &device_policy() {
  static const DevicePolicy policy = make_policy();
  return policy;
}

std::string device_str(dt_device d) {
  char buf[48];
  dt_device_name(d, buf, sizeof buf);
  return buf;
}
