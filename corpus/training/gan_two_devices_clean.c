// corpus/training/gan_two_devices_clean.c — a toy adversarial setup split over two
// accelerators: the generator trains on autodiff<sim:0>, the discriminator on
// autodiff<sim:1>. Fake samples cross with dt_to_device between the two autodiff devices, so
// the gradient of the discriminator's verdict flows back into the generator. Clean.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device gen_dev = dt_autodiff(dt_sim(0));
  dt_device disc_dev = dt_autodiff(dt_sim(1));
  dt_tensor *g_w = dt_require_grad(dt_randn(gen_dev, 1, 2, (const int64_t[]){2, 3}));
  dt_tensor *d_w = dt_require_grad(dt_randn(disc_dev, 2, 2, (const int64_t[]){3, 1}));

  dt_tensor *z = dt_randn(gen_dev, 3, 2, (const int64_t[]){4, 2});
  dt_tensor *fake = dt_matmul(z, g_w);
  dt_tensor *fake_there = dt_to_device(fake, disc_dev);
  dt_tensor *score = dt_matmul(fake_there, d_w);
  dt_tensor *verdict = dt_sigmoid(score);
  dt_tensor *want_real = dt_ones(disc_dev, DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *g_loss = dt_mse_loss(verdict, want_real);
  dt_backward(g_loss);

  dt_tensor *gg = dt_grad(g_w);
  printf("generator gradient %s\n", gg ? "reached sim:0" : "missing");
  dt_tensor *all[] = {gg, g_loss, want_real, verdict, score, fake_there, fake, z, d_w, g_w};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
