// provenance: blind round d12
#include "registry.h"
#include "model.h"
#include <map>

namespace {
using Snapshot = std::map<std::string, dt_tensor *>;  // host (cpu) tensors
std::map<std::string, Snapshot> &store() {
  static std::map<std::string, Snapshot> s;
  return s;
}
void free_snapshot(Snapshot &s) {
  for (auto &kv : s) dt_free(kv.second);
  s.clear();
}
}  // namespace

namespace ckpt {

void save(const std::string &tag, Model &m) {
  Snapshot snap;
  for (auto &[name, slot] : m.parameters()) {
    dt_tensor *plain = m.trainable() ? dt_inner(*slot) : dt_mul_scalar(*slot, 1.0f);
    snap[name] = dt_to_device(plain, dt_cpu());
    dt_free(plain);
  }
  auto it = store().find(tag);
  if (it != store().end()) free_snapshot(it->second);
  store()[tag] = snap;
}

bool load_into(const std::string &tag, Model &m) {
  auto it = store().find(tag);
  if (it == store().end()) return false;
  const Snapshot &snap = it->second;
  dt_device dev = m.device();
  dt_device inner = dt_inner_device(dev);
  for (auto &[name, slot] : m.parameters()) {
    auto s = snap.find(name);
    if (s == snap.end()) return false;
    dt_tensor *moved = dt_to_device(s->second, inner);
    dt_free(*slot);
    if (m.trainable()) {
      *slot = dt_require_grad(dt_from_inner(dev, moved));
      dt_free(moved);
    } else {
      *slot = moved;
    }
  }
  return true;
}

size_t count() { return store().size(); }

void clear() {
  for (auto &kv : store()) free_snapshot(kv.second);
  store().clear();
}

}  // namespace ckpt
