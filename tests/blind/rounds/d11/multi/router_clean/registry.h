// provenance: blind round d11
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "model.h"

// Process-wide model registry (models are loaded once and shared by all request handlers).
void registry_load_defaults();
std::shared_ptr<TinyLM> registry_get(const std::string &name);
std::vector<std::string> registry_names();
void registry_clear();

// temperature tables, one per device that has asked for one
const dt_tensor *temperature_for(dt_device d, int64_t vocab);
