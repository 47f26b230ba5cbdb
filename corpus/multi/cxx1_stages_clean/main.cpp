// Runs host inputs through encoder (sim:0) and head (sim:1): every stage input is hopped onto
// the stage's device first, and the result is brought back to the host to be read. Clean.
#include "stages.hpp"

#include <cstdio>
#include <vector>

int main() {
  std::vector<std::unique_ptr<ps::Stage>> stages;
  stages.push_back(ps::make_encoder(dt_sim(0), 5, 8));
  stages.push_back(ps::make_head(dt_sim(1), 8, 3));

  const int64_t xshape[] = {2, 5};
  float xs[10];
  for (int i = 0; i < 10; ++i) xs[i] = static_cast<float>(i % 4) * 0.3f;
  dt_tensor *cur = dt_from_floats(dt_cpu(), xs, 2, xshape);
  for (const auto &stage : stages) {
    dt_tensor *in = ps::hop(cur, *stage);
    dt_tensor *out = stage->run(in);
    dt_free(in);
    dt_free(cur);
    cur = out;
    std::printf("ran %s\n", stage->label().c_str());
  }
  dt_tensor *host = dt_to_device(cur, dt_cpu());
  const int64_t pshape[] = {2, 3};
  dt_tensor *ref = dt_full(dt_cpu(), 0.5f, 2, pshape);
  dt_tensor *margin = dt_sub(host, ref);
  float v[6];
  dt_read_floats(margin, v, 6);
  std::printf("margin %.4f\n", v[0]);
  dt_free(margin);
  dt_free(ref);
  dt_free(host);
  dt_free(cur);
  return 0;
}
