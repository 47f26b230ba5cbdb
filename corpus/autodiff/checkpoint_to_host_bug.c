// corpus/autodiff/checkpoint_to_host_bug.c — saving a checkpoint: the tracked weights are
// moved to the plain host device to be written out. dt_to_device cannot cross between autodiff
// and plain devices (use dt_inner first, or move to dt_autodiff(dt_cpu())).
// Bug: autodiff-expected at dt_to_device.
#include <stdio.h>

#include <dt/dt.h>

static int save_checkpoint(const dt_tensor *w, const char *path) {
  dt_tensor *host = dt_to_device(w, dt_cpu()); // expect-error: autodiff-expected
  float buf[6];
  int rc = dt_read_floats(host, buf, 6);
  printf("would write %s: %f ...\n", path, (double)buf[0]);
  dt_free(host);
  return rc;
}

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){2, 3}));
  int rc = save_checkpoint(w, "model.ckpt");
  dt_free(w);
  return rc;
}
