// corpus/ggml/sched_output_read_warn.c — a regressor run through ggml_backend_sched over the
// GPU (when there is one) and the CPU; the output node is pinned to the first backend
// (ggml_backend_sched_set_tensor_backend): the GPU unless --cpu is given.
// The prediction is then read through ggml_get_data_f32, a host pointer: right on the CPU,
// device memory on the GPU. Which one depends on the flag: a warning.
#include <stdio.h>
#include <string.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#define N_IN 4

struct runner {
  ggml_backend_t backends[2];
  int n_backends;
  ggml_backend_sched_t sched;
};

static int runner_init(struct runner *r, int cpu_only) {
  r->n_backends = 0;
  if (!cpu_only) {
    ggml_backend_t gpu = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, NULL);
    if (gpu) r->backends[r->n_backends++] = gpu;
  }
  r->backends[r->n_backends++] = ggml_backend_cpu_init();
  r->sched = ggml_backend_sched_new(r->backends, NULL, r->n_backends, GGML_DEFAULT_GRAPH_SIZE,
                                    false, true);
  return r->sched != NULL;
}

static float predict(struct runner *r, const float *features) {
  struct ggml_init_params p = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(p);
  struct ggml_tensor *x = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, N_IN);
  ggml_set_input(x);
  struct ggml_tensor *y = ggml_sum(ctx, ggml_relu(ctx, x));
  ggml_set_output(y);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, y);
  ggml_backend_sched_reset(r->sched);
  ggml_backend_sched_set_tensor_backend(r->sched, y, r->backends[0]); /* the fastest one */
  if (!ggml_backend_sched_alloc_graph(r->sched, gf)) {
    ggml_free(ctx);
    return 0.0f;
  }
  ggml_backend_tensor_set(x, features, 0, sizeof(float) * N_IN);
  ggml_backend_sched_graph_compute(r->sched, gf);
  float out = ggml_get_data_f32(y)[0]; // expect-warning: ggml-host-access
  ggml_free(ctx);
  return out;
}

int main(int argc, char **argv) {
  struct runner r;
  if (!runner_init(&r, argc > 1 && strcmp(argv[1], "--cpu") == 0)) return 1;
  const float f[N_IN] = {0.5f, -1.0f, 2.0f, 0.25f};
  printf("prediction %.3f\n", predict(&r, f));
  ggml_backend_sched_free(r.sched);
  for (int i = 0; i < r.n_backends; i++) ggml_backend_free(r.backends[i]);
  return 0;
}
