// corpus/ggml/env_device_scores_warn.c — a scorer whose backend is named by the environment
// (SCORER_DEVICE=CUDA0, through ggml_backend_init_by_name; the CPU backend when unset or not
// found). Its graph is allocated on that backend's buffer type. Bug on the GPU path: the best
// score is picked by reading probs->data from the host, first in the scan, then once more for
// the best value. The second read is the same mistake as the first (one finding).
// run-env: SCORER_DEVICE=CUDA0
#include <stdio.h>
#include <stdlib.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

enum { N_IN = 8, N_OUT = 4 };

static ggml_backend_t scorer_backend(void) {
  const char *name = getenv("SCORER_DEVICE");
  if (name && *name) {
    ggml_backend_t be = ggml_backend_init_by_name(name, NULL);
    if (be) return be;
    fprintf(stderr, "no device %s, using the CPU\n", name);
  }
  return ggml_backend_cpu_init();
}

static int best_score(const struct ggml_tensor *probs, float *best_value) {
  const float *p = (const float *)probs->data;
  int best = 0;
  for (int i = 1; i < N_OUT; i++) {
    if (p[i] > p[best]) best = i; // expect-warning: ggml-host-access
  }
  *best_value = p[best];
  return best;
}

int main(void) {
  ggml_backend_t be = scorer_backend();
  struct ggml_init_params wp = {ggml_tensor_overhead() * 2, NULL, true};
  struct ggml_context *wctx = ggml_init(wp);
  struct ggml_tensor *w = ggml_new_tensor_2d(wctx, GGML_TYPE_F32, N_IN, N_OUT);
  ggml_backend_buffer_t wbuf = ggml_backend_alloc_ctx_tensors(wctx, be);
  ggml_backend_tensor_memset(w, 0, 0, ggml_nbytes(w));

  struct ggml_init_params gp = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *gctx = ggml_init(gp);
  struct ggml_tensor *x = ggml_new_tensor_1d(gctx, GGML_TYPE_F32, N_IN);
  ggml_set_input(x);
  struct ggml_tensor *probs = ggml_soft_max(gctx, ggml_mul_mat(gctx, w, x));
  ggml_set_output(probs);
  struct ggml_cgraph *gf = ggml_new_graph(gctx);
  ggml_build_forward_expand(gf, probs);
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(be));
  if (!ggml_gallocr_alloc_graph(galloc, gf)) return 1;
  float in[N_IN] = {1, 0, 1, 0, 1, 0, 1, 0};
  ggml_backend_tensor_set(x, in, 0, sizeof in);
  ggml_backend_graph_compute(be, gf);
  float value = 0.0f;
  int best = best_score(probs, &value);
  printf("best %d (%f) on %s\n", best, value, ggml_backend_name(be));
  ggml_gallocr_free(galloc);
  ggml_free(gctx);
  ggml_backend_buffer_free(wbuf);
  ggml_free(wctx);
  ggml_backend_free(be);
  return 0;
}
