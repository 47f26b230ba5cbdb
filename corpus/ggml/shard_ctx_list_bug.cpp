// corpus/ggml/shard_ctx_list_bug.cpp — shard_ctx_list_clean.cpp's checkpoint, but the
// embedding is added to the first context after the loop that allocated the contexts: a tensor
// made in a context already allocated has no memory (ggml allocates the tensors a context holds
// when asked, not later ones), so uploading it fails (tensor buffer not set). The shards'
// uploads are clean: the loop over the non-empty vector ran.
#include <cstdio>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

namespace {

constexpr int kShards = 1;  // one file in this build of the checkpoint
constexpr int kWidth = 8;

struct shard {
  ggml_tensor *w = nullptr;
};

struct checkpoint {
  std::vector<ggml_context *> ctxs;
  std::vector<shard> shards;
  std::vector<ggml_backend_buffer_t> bufs;
  ggml_tensor *embd = nullptr;
};

bool open_checkpoint(checkpoint &ck, ggml_backend_t backend) {
  for (int s = 0; s < kShards; ++s) {
    ggml_init_params params = {ggml_tensor_overhead() * 4, nullptr, true};
    ck.ctxs.push_back(ggml_init(params));
    shard sh;
    sh.w = ggml_new_tensor_1d(ck.ctxs.back(), GGML_TYPE_F32, kWidth);
    ck.shards.push_back(sh);
  }
  for (size_t i = 0; i < ck.ctxs.size(); ++i) {
    ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ck.ctxs[i], backend);
    if (buf == nullptr) return false;
    ck.bufs.push_back(buf);
  }
  if (!ck.ctxs.empty()) ck.embd = ggml_new_tensor_1d(ck.ctxs.front(), GGML_TYPE_F32, kWidth);
  return true;
}

}  // namespace

int main() {
  ggml_backend_t backend = ggml_backend_cpu_init();
  checkpoint ck;
  if (!open_checkpoint(ck, backend)) {
    std::fprintf(stderr, "cannot allocate the checkpoint\n");
    return 1;
  }
  std::vector<float> data(kWidth, 2.0f);
  for (int s = 0; s < kShards; ++s)
    ggml_backend_tensor_set(ck.shards[s].w, data.data(), 0, ggml_nbytes(ck.shards[s].w));
  ggml_backend_tensor_set(ck.embd, data.data(), 0, ggml_nbytes(ck.embd)); // expect-error: ggml-buffer-not-set
  float back[kWidth] = {0};
  ggml_backend_tensor_get(ck.embd, back, 0, sizeof back);
  for (auto it = ck.bufs.begin(); it != ck.bufs.end(); ++it) ggml_backend_buffer_free(*it);
  for (ggml_context *ctx : ck.ctxs) ggml_free(ctx);
  ggml_backend_free(backend);
  std::printf("%.1f\n", back[0]);
  return back[0] == 2.0f ? 0 : 1;
}
