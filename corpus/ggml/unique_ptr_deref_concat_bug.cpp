// corpus/ggml/unique_ptr_deref_concat_bug.cpp — an audio encoder keeps its frame memory in a
// std::unique_ptr and builds each step's graph from `*mem`. Bug: the memory's frames are f16
// and the step's input f32; ggml_concat asserts both have one ggml_type.
#include <memory>

#include "ggml.h"

struct frame_memory {
  ggml_context *ctx = nullptr;
  ggml_tensor *frames = nullptr;
};

static std::unique_ptr<frame_memory> make_memory() {
  auto m = std::make_unique<frame_memory>();
  ggml_init_params params = {1 << 20, nullptr, true};
  m->ctx = ggml_init(params);
  m->frames = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F16, 6, 3);
  return m;
}

static ggml_tensor *step(ggml_context *ctx, const frame_memory &mem) {
  ggml_tensor *input = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 6, 4);
  return ggml_concat(ctx, mem.frames, input, 1); // expect-error: ggml-type-mismatch
}

int main() {
  std::unique_ptr<frame_memory> mem = make_memory();
  ggml_init_params params = {1 << 20, nullptr, true};
  ggml_context *ctx = ggml_init(params);
  ggml_tensor *all = step(ctx, *mem);
  ggml_free(ctx);
  ggml_free(mem->ctx);
  return all != nullptr ? 0 : 1;
}
