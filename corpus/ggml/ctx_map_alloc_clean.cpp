// corpus/ggml/ctx_map_alloc_clean.cpp — a model loader in the style of llama.cpp's: one ggml
// context per buffer type, kept in a std::map and made on first use (get-or-create through
// try_emplace: `r.first->second = ggml_init(...)` only when `r.second`), every tensor made in
// the context of its buffer type, then one loop over the map allocating each context's tensors
// in a buffer of its type. The map is not empty when the loop runs (the weights' context was
// put in it), so the loop runs and every weight is in a buffer when it is uploaded.
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
  m.out = ggml_new_tensor_1d(ctx_for_buft(ctx_map, buft, 2 * n_layer + 1), GGML_TYPE_F32, n_embd);
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
  ggml_backend_tensor_set(m.out, ones.data(), 0, ggml_nbytes(m.out));
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
