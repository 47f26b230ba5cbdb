// main.cpp — multi_gan_bug: alternating updates. Real data is staged from the host onto the
// discriminator's device; the fake batch goes straight from the generator (sim:0) into the
// discriminator (sim:1). Smoothed labels are built next to the generator.
#include <cstdio>
#include <vector>

#include "nets.hpp"

namespace {

gan::Tensor real_batch(int it) {
  std::vector<float> v(gan::kBatch * gan::kData);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((static_cast<int>(i) + it) % 5) * 0.2f;
  std::array<int64_t, 2> s{gan::kBatch, gan::kData};
  return gan::Tensor(dt_from_floats(dt_cpu(), v.data(), 2, s.data()));
}

float read1(const gan::Tensor& t) {
  float v = -1.0f;
  if (t) dt_read_floats(t.get(), &v, 1);
  return v;
}

}  // namespace

int main() {
  gan::Generator g(dt_sim(0));
  gan::Discriminator d(dt_sim(1));
  std::array<int64_t, 2> sl{gan::kBatch, 1};
  gan::Tensor smooth(dt_full(g.device(), 0.9f, 2, sl.data()));

  for (int it = 0; it < 3; ++it) {
    gan::Tensor real_host = real_batch(it);
    gan::Tensor real = gan::move_to(real_host.get(), d.device());
    gan::Tensor d_real = d(real.get());
    gan::Tensor l_real(dt_mse_loss(d_real.get(), smooth.get())); // expect-error: device-mismatch

    gan::Tensor fake = g.sample(100u + static_cast<uint64_t>(it));
    gan::Tensor d_fake = d(fake.get());
    d.nudge(real.get(), 0.01f);
    std::printf("iter %d: D(real) loss %.4f, D(fake) %s\n", it, read1(l_real), d_fake ? "scored" : "failed");
  }
  return 0;
}
