// provenance: blind round cxx1
// Range-for over a std::vector of tensors that live on different devices (cpu, sim:0, sim:1):
// each element is moved to the accumulator's device inside the loop before the two meet, so
// every dt_add agrees. A std::array of shards is then concatenated after being gathered the
// same way. Clean, though the vector's elements disagree with each other.
#include <dt/dt.h>

#include <array>
#include <cstdio>
#include <vector>

static dt_tensor *gather_sum(const std::vector<dt_tensor *> &parts, dt_device dev) {
  const int64_t shape[] = {2, 2};
  dt_tensor *acc = dt_zeros(dev, DT_FLOAT, 2, shape);
  for (const auto &part : parts) {
    dt_tensor *local = dt_to_device(part, dev);
    dt_tensor *next = dt_add(acc, local);
    dt_free(local);
    dt_free(acc);
    acc = next;
  }
  return acc;
}

int main() {
  const int64_t shape[] = {2, 2};
  std::vector<dt_tensor *> parts;
  parts.push_back(dt_ones(dt_cpu(), DT_FLOAT, 2, shape));
  parts.push_back(dt_full(dt_sim(0), 2.0f, 2, shape));
  parts.push_back(dt_full(dt_sim(1), 3.0f, 2, shape));

  dt_tensor *on0 = gather_sum(parts, dt_sim(0));
  dt_tensor *on_host = gather_sum(parts, dt_cpu());

  std::array<dt_tensor *, 3> shards{};
  size_t i = 0;
  for (dt_tensor *p : parts) shards[i++] = dt_to_device(p, dt_sim(1));
  dt_tensor *joined = dt_cat(static_cast<int>(shards.size()), shards.data(), 0);

  float a[4], b[4], c[12];
  dt_read_floats(on0, a, 4);
  dt_read_floats(on_host, b, 4);
  dt_read_floats(joined, c, 12);
  std::printf("%.1f %.1f %.1f\n", a[0], b[3], c[11]);

  for (dt_tensor *s : shards) dt_free(s);
  for (dt_tensor *p : parts) dt_free(p);
  dt_free(joined);
  dt_free(on_host);
  dt_free(on0);
  return 0;
}
