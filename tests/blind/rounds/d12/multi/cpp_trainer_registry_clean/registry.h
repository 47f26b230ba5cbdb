// provenance: blind round d12
#pragma once
#include <dt/dt.h>
#include <string>

class Model;

// Process-wide store of host checkpoints, keyed by tag.
namespace ckpt {
void save(const std::string &tag, Model &m);
bool load_into(const std::string &tag, Model &m);
size_t count();
void clear();
}  // namespace ckpt
