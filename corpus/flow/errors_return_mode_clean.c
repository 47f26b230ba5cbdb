// provenance: blind round field
// DT_ERRORS_RETURN mode: every call's result is checked; cuda is only used behind its guard.
#include <dt/dt.h>
#include <stdio.h>

#define TRY(expr) do { if ((expr) == NULL) { fprintf(stderr, "dt: %s\n", dt_last_error()); goto fail; } } while (0)

int main(void) {
  dt_set_error_mode(DT_ERRORS_RETURN);
  dt_device dev = dt_backend_available(DT_BACKEND_CUDA) ? dt_cuda(0) : dt_sim(1);
  dt_tensor *a = NULL, *b = NULL, *c = NULL;
  TRY(a = dt_full(dev, 2.0f, 2, (const int64_t[]){2, 2}));
  TRY(b = dt_full(dev, 3.0f, 2, (const int64_t[]){2, 2}));
  TRY(c = dt_matmul(a, b));
  float out[4];
  if (dt_read_floats(c, out, 4) != 0) goto fail;
  printf("c = %.1f (expect 12)\n", out[0]);
  dt_free(a); dt_free(b); dt_free(c);
  return out[0] == 12.0f ? 0 : 1;
fail:
  dt_free(a); dt_free(b); dt_free(c);
  return 1;
}
