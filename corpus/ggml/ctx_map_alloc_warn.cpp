// corpus/ggml/ctx_map_alloc_warn.cpp — ctx_map_alloc_clean.cpp's loader (one context per
// buffer type in a std::map, made on first use through try_emplace, allocated by one loop over
// the map), but the output projection is made in a context of its own "to keep it apart" that
// never enters the map: the loop allocates the layers' context only, and uploading the output
// weight fails (ggml: tensor buffer not set). The map's loop runs (it holds the layers'
// context), so the layers' uploads are clean. A warning: the get-or-create call in a loop
// may make a second context (whether try_emplace inserted is not known), and allocating one
// of two contexts says nothing of the output's.
#include <cstdio>
#include <map>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

namespace {

using ctx_map_t = std::map<ggml_backend_buffer_type_t, ggml_context *>;

ggml_context *ctx_for_buft(ctx_map_t &ctx_map, ggml_backend_buffer_type_t buft, int n_tensors) {
  auto r = ctx_map.try_emplace(buft, nullptr);
  if (r.second) {
    ggml_init_params params = {ggml_tensor_overhead() * (size_t)n_tensors, nullptr, true};
    r.first->second = ggml_init(params);
  }
  return r.first->second;
}

struct layer {
  ggml_tensor *w = nullptr;
  ggml_tensor *b = nullptr;
};

struct model {
  std::vector<layer> layers;
  ggml_tensor *out = nullptr;
  std::vector<ggml_context *> ctxs;
  std::vector<ggml_backend_buffer_t> bufs;
};

bool load(model &m, ggml_backend_t backend, int n_layer, int n_embd) {
  ctx_map_t ctx_map;
  ggml_backend_buffer_type_t buft = ggml_backend_get_default_buffer_type(backend);
  for (int il = 0; il < n_layer; ++il) {
    ggml_context *ctx = ctx_for_buft(ctx_map, buft, 2 * n_layer + 1);
    layer l;
    l.w = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, n_embd, n_embd);
    l.b = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, n_embd);
    m.layers.push_back(l);
  }
  ggml_init_params out_params = {ggml_tensor_overhead(), nullptr, true};
  ggml_context *out_ctx = ggml_init(out_params);
  m.out = ggml_new_tensor_1d(out_ctx, GGML_TYPE_F32, n_embd);
  for (auto &kv : ctx_map) {
    ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors_from_buft(kv.second, kv.first);
    if (buf == nullptr) {
      std::fprintf(stderr, "cannot allocate the weights\n");
      return false;
    }
    ggml_backend_buffer_set_usage(buf, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
    m.ctxs.push_back(kv.second);
    m.bufs.push_back(buf);
  }
  std::vector<float> ones((size_t)n_embd * n_embd, 1.0f);
  for (int il = 0; il < n_layer; ++il) {
    layer &l = m.layers[il];
    ggml_backend_tensor_set(l.w, ones.data(), 0, ggml_nbytes(l.w));
    ggml_backend_tensor_set(l.b, ones.data(), 0, ggml_nbytes(l.b));
  }
  ggml_backend_tensor_set(m.out, ones.data(), 0, ggml_nbytes(m.out)); // expect-warning: ggml-buffer-not-set
  return true;
}

}  // namespace

int main() {
  ggml_backend_t backend = ggml_backend_cpu_init();
  model m;
  if (!load(m, backend, 2, 4)) return 1;
  float back[4] = {0};
  ggml_backend_tensor_get(m.out, back, 0, sizeof back);
  std::printf("%.1f\n", back[0]);
  for (size_t i = 0; i < m.bufs.size(); ++i) ggml_backend_buffer_free(m.bufs[i]);
  for (auto it = m.ctxs.begin(); it != m.ctxs.end(); ++it) ggml_free(*it);
  ggml_backend_free(backend);
  return back[0] == 1.0f ? 0 : 1;
}
