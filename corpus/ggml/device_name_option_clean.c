// corpus/ggml/device_name_option_clean.c — a runner whose devices come from an options struct
// filled with defaults (device names as a config file would give them): the loader is given the
// weights device's name as a parameter, the compute backend is made from the options' compute
// name. Clean: both defaults name "CUDA1", so the graph runs where its weights are.
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

struct options {
  const char *weights_device;
  const char *compute_device;
  int n_embd;
};

struct weights {
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *proj;
};

static void options_default(struct options *o) {
  o->weights_device = "CUDA1";
  o->compute_device = "CUDA1";
  o->n_embd = 8;
}

static int weights_load(struct weights *w, const char *device_name, int n) {
  ggml_backend_dev_t dev = ggml_backend_dev_by_name(device_name);
  if (!dev) return 0;
  struct ggml_init_params p = {ggml_tensor_overhead(), NULL, true};
  w->ctx = ggml_init(p);
  w->proj = ggml_new_tensor_2d(w->ctx, GGML_TYPE_F32, n, n);
  w->buf = ggml_backend_alloc_ctx_tensors_from_buft(w->ctx, ggml_backend_dev_buffer_type(dev));
  if (!w->buf) return 0;
  ggml_backend_buffer_clear(w->buf, 0);
  return 1;
}

int main(void) {
  struct options opt;
  options_default(&opt);
  struct weights w;
  if (!weights_load(&w, opt.weights_device, opt.n_embd)) return 1;
  ggml_backend_t be = ggml_backend_init_by_name(opt.compute_device, NULL);
  if (!be) return 1;
  struct ggml_init_params gp = {8 * ggml_tensor_overhead() + ggml_graph_overhead(), NULL, true};
  struct ggml_context *gctx = ggml_init(gp);
  struct ggml_tensor *x = ggml_new_tensor_1d(gctx, GGML_TYPE_F32, opt.n_embd);
  ggml_set_input(x);
  struct ggml_tensor *y = ggml_mul_mat(gctx, w.proj, x);
  struct ggml_cgraph *gf = ggml_new_graph(gctx);
  ggml_build_forward_expand(gf, y);
  ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(be));
  if (!ggml_gallocr_alloc_graph(ga, gf)) return 1;
  ggml_backend_tensor_memset(x, 0, 0, ggml_nbytes(x));
  if (ggml_backend_graph_compute(be, gf) != GGML_STATUS_SUCCESS) return 1;
  printf("done\n");
  ggml_gallocr_free(ga);
  ggml_free(gctx);
  ggml_backend_free(be);
  ggml_backend_buffer_free(w.buf);
  ggml_free(w.ctx);
  return 0;
}
