// provenance: blind round d11
#pragma once
#include <dt/dt.h>

#include <string>

// Where each model replica goes. Read once from ROUTER_LAYOUT: "split" (default: the small
// model on sim:0, the large one on sim:1), "packed" (both on sim:0) or "host" (both on cpu).
struct DevicePolicy {
  dt_device small_model;
  dt_device large_model;
  dt_device host;
  std::string layout;
};

const DevicePolicy &device_policy();
std::string device_str(dt_device d);
