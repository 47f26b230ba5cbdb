// provenance: blind round cxx1
// A data-augmentation helper keeps two factories: one captures the target device by value,
// the other by reference. The device variable is switched from sim:0 to sim:1 after the
// factories were made, so the by-reference factory builds its noise on sim:1 while the
// by-value one (and the model) stays on sim:0: adding the noise fails with device-mismatch.
#include <dt/dt.h>

#include <cstdio>
#include <vector>

namespace aug {

struct Augmenter {
  float scale;
  dt_tensor *operator()(dt_tensor *x, dt_tensor *noise) const {
    dt_tensor *scaled = dt_mul_scalar(noise, scale);
    dt_tensor *out = dt_add(x, scaled); // expect-error: device-mismatch
    dt_free(scaled);
    return out;
  }
};

template <typename MakeX, typename MakeNoise>
std::vector<dt_tensor *> make_batches(int n, MakeX make_x, MakeNoise make_noise, const Augmenter &augment) {
  std::vector<dt_tensor *> out;
  for (int i = 0; i < n; ++i) {
    dt_tensor *x = make_x(i);
    dt_tensor *noise = make_noise(i);
    out.push_back(augment(x, noise));
    dt_free(x);
    dt_free(noise);
  }
  return out;
}

}  // namespace aug

int main() {
  const int64_t shape[] = {2, 4};
  dt_device target = dt_sim(0);

  auto make_x = [target, &shape](int i) { return dt_full(target, static_cast<float>(i), 2, shape); };
  auto make_noise = [&target, &shape](int i) { return dt_randn(target, 100 + static_cast<uint64_t>(i), 2, shape); };

  // Later "configuration" picks another device for evaluation, but the factories were
  // already made: make_noise follows the change, make_x does not.
  target = dt_sim(1);

  aug::Augmenter augment{0.1f};
  std::vector<dt_tensor *> batches = aug::make_batches(3, make_x, make_noise, augment);
  for (dt_tensor *b : batches) {
    float first = 0.0f;
    if (b) {
      float buf[8];
      dt_read_floats(b, buf, 8);
      first = buf[0];
    }
    std::printf("batch first %.3f\n", first);
    dt_free(b);
  }
  return 0;
}
