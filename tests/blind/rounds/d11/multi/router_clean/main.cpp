// provenance: blind round d11
// Request router: two language-model replicas placed by a device policy (policy.cpp), loaded
// into a global registry (registry.cpp), scored by TinyLM (model.cpp). Each request names a
// model; sampling happens on the host.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "policy.h"
#include "registry.h"

struct Request {
  std::string model;
  std::vector<int> prompt;
  int max_new;
};

static int greedy(const dt_tensor *logits, int64_t vocab, dt_device host) {
  dt_tensor *h = dt_to_device(logits, host);
  std::vector<float> buf((size_t)vocab);
  dt_read_floats(h, buf.data(), vocab);
  dt_free(h);
  int best = 0;
  for (int i = 1; i < (int)vocab; i++)
    if (buf[(size_t)i] > buf[(size_t)best]) best = i;
  return best;
}

static std::vector<int> serve(const Request &r) {
  auto model = registry_get(r.model);
  const DevicePolicy &p = device_policy();
  std::vector<int> ctx = r.prompt;
  for (int i = 0; i < r.max_new; i++) {
    dt_tensor *logits = model->next_logits(ctx);
    const dt_tensor *temp = temperature_for(model->device(), model->vocab());
    dt_tensor *scaled = dt_div(logits, temp);
    ctx.push_back(greedy(scaled, model->vocab(), p.host));
    dt_free(logits);
    dt_free(scaled);
  }
  return ctx;
}

int main() {
  const DevicePolicy &p = device_policy();
  std::printf("layout %s: small on %s, large on %s\n", p.layout.c_str(),
              device_str(p.small_model).c_str(), device_str(p.large_model).c_str());
  registry_load_defaults();

  std::vector<Request> queue = {
      {"small", {1, 2, 3}, 4},
      {"large", {4, 5}, 3},
      {"small", {7}, 2},
      {"large", {9, 9, 1, 0}, 5},
  };
  int served = 0;
  for (const Request &r : queue) {
    try {
      std::vector<int> out = serve(r);
      std::printf("%-5s:", r.model.c_str());
      for (int t : out) std::printf(" %d", t);
      std::printf("\n");
      served++;
    } catch (const std::out_of_range &e) {
      std::fprintf(stderr, "rejected: %s\n", e.what());
    }
  }
  for (const std::string &n : registry_names()) std::printf("model %s loaded\n", n.c_str());
  registry_clear();
  return served == (int)queue.size() ? 0 : 1;
}
