// provenance: blind round g9
// An ESRGAN-style 2x upscaler run tile by tile (stable-diffusion.cpp's sd_tiling): the image
// is cut into overlapping tiles on the host, each tile goes through the network on the best
// backend, and the results are blended back. A second copy of the network is cloned onto
// the CPU backend with ggml_backend_tensor_copy and checks one tile against the GPU result.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml.h"

namespace {

constexpr int kTile = 8, kOverlap = 2, kCh = 3, kHidden = 8, kScale = 2;

struct Image {
  int w = 0, h = 0;
  std::vector<float> px;  // planar [c][y][x]
  Image(int w_, int h_) : w(w_), h(h_), px(static_cast<size_t>(w_) * h_ * kCh, 0.0f) {}
  float &at(int c, int y, int x) { return px[(static_cast<size_t>(c) * h + y) * w + x]; }
  float at(int c, int y, int x) const { return px[(static_cast<size_t>(c) * h + y) * w + x]; }
};

class Upscaler {
 public:
  explicit Upscaler(ggml_backend_t backend) : backend_(backend) {
    ggml_init_params p = {ggml_tensor_overhead() * 8, nullptr, true};
    ctx_.reset(ggml_init(p));
    conv_first_w_ = ggml_new_tensor_4d(ctx_.get(), GGML_TYPE_F16, 3, 3, kCh, kHidden);
    conv_first_b_ = ggml_new_tensor_4d(ctx_.get(), GGML_TYPE_F32, 1, 1, kHidden, 1);
    conv_body_w_ = ggml_new_tensor_4d(ctx_.get(), GGML_TYPE_F16, 3, 3, kHidden, kHidden);
    conv_body_b_ = ggml_new_tensor_4d(ctx_.get(), GGML_TYPE_F32, 1, 1, kHidden, 1);
    conv_last_w_ = ggml_new_tensor_4d(ctx_.get(), GGML_TYPE_F16, 3, 3, kHidden, kCh);
    conv_last_b_ = ggml_new_tensor_4d(ctx_.get(), GGML_TYPE_F32, 1, 1, kCh, 1);
    buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_));
    galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_)));
  }

  void randomize(uint32_t seed) {
    for_each_weight([&seed](ggml_tensor *t) {
      std::vector<float> v(ggml_nelements(t));
      for (float &x : v) x = (static_cast<float>((seed = seed * 1664525u + 1013904223u) >> 16) / 65536.0f - 0.5f) * 0.5f;
      if (t->type == GGML_TYPE_F16) {
        std::vector<ggml_fp16_t> h(v.size());
        ggml_fp32_to_fp16_row(v.data(), h.data(), static_cast<int64_t>(v.size()));
        ggml_backend_tensor_set(t, h.data(), 0, ggml_nbytes(t));
      } else {
        ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
      }
    });
  }

  // the same network on another backend, weights copied through the backend API
  std::unique_ptr<Upscaler> clone_to(ggml_backend_t other) const {
    auto copy = std::make_unique<Upscaler>(other);
    std::vector<ggml_tensor *> dst;
    copy->for_each_weight([&dst](ggml_tensor *t) { dst.push_back(t); });
    size_t i = 0;
    for_each_weight([&](ggml_tensor *t) { ggml_backend_tensor_copy(t, dst[i++]); });
    return copy;
  }

  // tile: kCh planes of kTile x kTile; returns kCh planes of (kScale*kTile)^2
  std::vector<float> run_tile(const std::vector<float> &tile) {
    ggml_init_params p = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(p));
    ggml_cgraph *gf = ggml_new_graph(ctx.get());
    ggml_tensor *x = ggml_new_tensor_4d(ctx.get(), GGML_TYPE_F32, kTile, kTile, kCh, 1);
    ggml_set_input(x);
    auto conv = [&](ggml_tensor *in, ggml_tensor *w, ggml_tensor *b) {
      return ggml_add(ctx.get(), ggml_conv_2d(ctx.get(), w, in, 1, 1, 1, 1, 1, 1), b);
    };
    ggml_tensor *feat = ggml_leaky_relu(ctx.get(), conv(x, conv_first_w_, conv_first_b_), 0.2f, false);
    feat = ggml_add(ctx.get(), feat, ggml_leaky_relu(ctx.get(), conv(feat, conv_body_w_, conv_body_b_), 0.2f, false));
    feat = ggml_upscale(ctx.get(), feat, kScale, GGML_SCALE_MODE_NEAREST);
    ggml_tensor *y = ggml_add(ctx.get(), conv(feat, conv_last_w_, conv_last_b_), ggml_upscale(ctx.get(), x, kScale, GGML_SCALE_MODE_NEAREST));
    ggml_set_output(y);
    ggml_build_forward_expand(gf, y);

    if (!ggml_gallocr_alloc_graph(galloc_.get(), gf)) return {};
    ggml_backend_tensor_set(x, tile.data(), 0, ggml_nbytes(x));
    if (ggml_backend_graph_compute(backend_, gf) != GGML_STATUS_SUCCESS) return {};
    std::vector<float> out(ggml_nelements(y));
    ggml_backend_tensor_get(y, out.data(), 0, ggml_nbytes(y));
    return out;
  }

 private:
  void for_each_weight(const std::function<void(ggml_tensor *)> &f) const {
    for (ggml_tensor *t : {conv_first_w_, conv_first_b_, conv_body_w_, conv_body_b_, conv_last_w_, conv_last_b_}) f(t);
  }

  ggml_backend_t backend_;
  ggml_context_ptr ctx_;
  ggml_backend_buffer_ptr buf_;
  ggml_gallocr_ptr galloc_;
  ggml_tensor *conv_first_w_, *conv_first_b_, *conv_body_w_, *conv_body_b_, *conv_last_w_, *conv_last_b_;
};

struct TileRect {
  int x0, y0;  // in the input image
};

std::vector<TileRect> plan_tiles(int w, int h) {
  std::vector<TileRect> tiles;
  const int step = kTile - 2 * kOverlap;
  for (int y = 0;; y += step) {
    int ty = std::min(y, h - kTile);
    for (int x = 0;; x += step) {
      int tx = std::min(x, w - kTile);
      tiles.push_back({tx, ty});
      if (tx == w - kTile) break;
    }
    if (ty == h - kTile) break;
  }
  return tiles;
}

std::vector<float> cut(const Image &img, const TileRect &r) {
  std::vector<float> t(static_cast<size_t>(kTile) * kTile * kCh);
  for (int c = 0; c < kCh; c++)
    for (int y = 0; y < kTile; y++)
      for (int x = 0; x < kTile; x++) t[(static_cast<size_t>(c) * kTile + y) * kTile + x] = img.at(c, r.y0 + y, r.x0 + x);
  return t;
}

}  // namespace

int main() {
  ggml_backend_ptr best(ggml_backend_init_best());
  ggml_backend_ptr cpu(ggml_backend_cpu_init());
  if (!best || !cpu) return 1;
  Upscaler net(best.get());
  net.randomize(4242);

  Image in(20, 14);
  for (int c = 0; c < kCh; c++)
    for (int y = 0; y < in.h; y++)
      for (int x = 0; x < in.w; x++) in.at(c, y, x) = 0.5f + 0.4f * std::sin(0.4f * x + 0.3f * y + c);

  Image out(in.w * kScale, in.h * kScale), weight(in.w * kScale, in.h * kScale);
  const std::vector<TileRect> tiles = plan_tiles(in.w, in.h);
  const int ot = kTile * kScale;
  std::vector<float> first;
  for (const TileRect &r : tiles) {
    std::vector<float> res = net.run_tile(cut(in, r));
    if (res.empty()) return 1;
    if (first.empty()) first = res;
    for (int c = 0; c < kCh; c++)
      for (int y = 0; y < ot; y++)
        for (int x = 0; x < ot; x++) {
          out.at(c, r.y0 * kScale + y, r.x0 * kScale + x) += res[(static_cast<size_t>(c) * ot + y) * ot + x];
          weight.at(c, r.y0 * kScale + y, r.x0 * kScale + x) += 1.0f;
        }
  }
  double mean = 0;
  for (size_t i = 0; i < out.px.size(); i++) mean += out.px[i] / weight.px[i];
  std::printf("%s: %zu tiles, %dx%d -> %dx%d, mean %.4f\n", ggml_backend_name(best.get()), tiles.size(), in.w, in.h, out.w, out.h,
              mean / static_cast<double>(out.px.size()));

  std::unique_ptr<Upscaler> ref = net.clone_to(cpu.get());
  std::vector<float> check = ref->run_tile(cut(in, tiles.front()));
  float diff = 0;
  for (size_t i = 0; i < check.size() && i < first.size(); i++) diff = std::max(diff, std::fabs(check[i] - first[i]));
  std::printf("cpu reference, first tile: max |diff| %.6f\n", diff);
  return check.size() == first.size() && diff < 1e-3f ? 0 : 2;
}
