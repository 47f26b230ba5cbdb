// provenance: blind round cxx1
// Range-for over std::vector<dt_tensor*> and std::array. Parameters are moved to sim:0 in a
// range-for by reference, but the std::array of running statistics is iterated by value, so
// its elements stay on the host; the normalisation step then mixes sim:0 and cpu.
#include <dt/dt.h>

#include <array>
#include <cstdio>
#include <vector>

namespace {

std::vector<dt_tensor *> make_params(dt_device d) {
  const int64_t shape[] = {1, 4};
  std::vector<dt_tensor *> ps;
  for (uint64_t seed = 1; seed <= 3; ++seed) ps.push_back(dt_randn(d, seed, 2, shape));
  return ps;
}

}  // namespace

int main() {
  const dt_device accel = dt_sim(0);
  const int64_t shape[] = {1, 4};
  std::vector<dt_tensor *> params = make_params(dt_cpu());
  std::array<dt_tensor *, 2> stats = {dt_zeros(dt_cpu(), DT_FLOAT, 2, shape), dt_ones(dt_cpu(), DT_FLOAT, 2, shape)};

  for (auto &p : params) {
    dt_tensor *moved = dt_to_device(p, accel);
    dt_free(p);
    p = moved;
  }
  for (dt_tensor *s : stats) {
    dt_tensor *moved = dt_to_device(s, accel);
    dt_free(moved);  // the moved copy is dropped: `s` is a copy of the element
  }

  dt_tensor *total = dt_zeros(accel, DT_FLOAT, 2, shape);
  for (dt_tensor *p : params) {
    dt_tensor *next = dt_add(total, p);
    dt_free(total);
    total = next;
  }
  dt_tensor *centered = dt_sub(total, stats[0]); // expect-error: backend-mismatch
  dt_tensor *normed = dt_div(centered, stats[1]);
  std::printf("normed %s\n", normed ? "ok" : "failed");

  dt_free(normed);
  dt_free(centered);
  dt_free(total);
  for (dt_tensor *p : params) dt_free(p);
  for (dt_tensor *s : stats) dt_free(s);
  return 0;
}
