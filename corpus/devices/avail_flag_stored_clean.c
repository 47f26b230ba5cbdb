// provenance: blind round field4
// cuda availability probed once in init(), stored in a runtime struct, consulted by the
// device picker in another function. Every allocation is on a device the picker returned.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { int has_cuda; int has_sim; dt_device main_dev; } runtime_info;

static void probe(runtime_info *ri) {
  ri->has_cuda = dt_backend_available(DT_BACKEND_CUDA);
  ri->has_sim = dt_backend_available(DT_BACKEND_SIM);
}

static dt_device pick(const runtime_info *ri) {
  if (ri->has_cuda) return dt_cuda(0);
  if (ri->has_sim) return dt_sim(0);
  return dt_cpu();
}

static float train(dt_device d) {
  dt_tensor *w = dt_randn(d, 1, 2, (const int64_t[]){3, 3});
  dt_tensor *x = dt_randn(d, 2, 2, (const int64_t[]){2, 3});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *l = dt_mean(y);
  float v = 0;
  dt_read_floats(l, &v, 1);
  dt_free(w); dt_free(x); dt_free(y); dt_free(l);
  return v;
}

int main(void) {
  runtime_info ri;
  probe(&ri);
  ri.main_dev = pick(&ri);
  char name[32];
  dt_device_name(ri.main_dev, name, sizeof name);
  printf("%s %.3f\n", name, (double)train(ri.main_dev));
  return 0;
}
