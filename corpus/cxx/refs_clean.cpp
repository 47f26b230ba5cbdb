// provenance: blind round cxx1
// References done right: a swap helper over `dt_tensor *&`, a reference to a std::array
// element rebinding a tensor to the model's device, `const auto &` to struct members, and a
// function that returns a reference to a member. The model starts on the host and is moved
// to sim:1 field by field through references; the data follows. Clean.
#include <dt/dt.h>

#include <array>
#include <cstdio>
#include <utility>

namespace net {

struct Block {
  dt_tensor *w = nullptr;
  dt_tensor *b = nullptr;
};

class Net {
 public:
  explicit Net(dt_device dev) : dev_(dev) {
    const int64_t wshape[] = {4, 4};
    const int64_t bshape[] = {1, 4};
    for (size_t i = 0; i < blocks_.size(); ++i) {
      blocks_[i].w = dt_randn(dt_cpu(), 40 + i, 2, wshape);
      blocks_[i].b = dt_full(dt_cpu(), 0.1f, 2, bshape);
    }
  }
  ~Net() {
    for (auto &blk : blocks_) {
      dt_free(blk.w);
      dt_free(blk.b);
    }
  }
  Block &block(size_t i) { return blocks_[i]; }
  const Block &block(size_t i) const { return blocks_[i]; }
  size_t depth() const { return blocks_.size(); }
  dt_device device() const { return dev_; }

 private:
  dt_device dev_;
  std::array<Block, 3> blocks_;
};

void rebind(dt_tensor *&slot, dt_device dev) {
  dt_tensor *moved = dt_to_device(slot, dev);
  std::swap(slot, moved);
  dt_free(moved);
}

void place(Net &net) {
  for (size_t i = 0; i < net.depth(); ++i) {
    Block &blk = net.block(i);
    auto &w = blk.w;
    rebind(w, net.device());
    rebind(net.block(i).b, net.device());
  }
}

dt_tensor *forward(const Net &net, dt_tensor *x) {
  dt_tensor *cur = dt_add_scalar(x, 0.0f);
  for (size_t i = 0; i < net.depth(); ++i) {
    const auto &blk = net.block(i);
    const auto &w = blk.w;
    dt_tensor *h = dt_matmul(cur, w);
    dt_tensor *hb = dt_add(h, blk.b);
    dt_tensor *act = dt_tanh(hb);
    dt_free(h);
    dt_free(hb);
    dt_free(cur);
    cur = act;
  }
  return cur;
}

}  // namespace net

int main() {
  net::Net n(dt_sim(1));
  net::place(n);
  const int64_t xshape[] = {2, 4};
  dt_tensor *host_x = dt_ones(dt_cpu(), DT_FLOAT, 2, xshape);
  dt_tensor *x = host_x;
  dt_tensor *&xr = x;
  xr = dt_to_device(host_x, n.device());
  dt_tensor *y = net::forward(n, x);
  dt_tensor *m = dt_mean(y);
  float v = 0.0f;
  dt_read_floats(m, &v, 1);
  std::printf("mean %.4f\n", v);
  dt_free(m);
  dt_free(y);
  dt_free(x);
  dt_free(host_x);
  return 0;
}
