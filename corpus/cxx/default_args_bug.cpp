// provenance: blind round cxx1
// Default arguments and overloads: Linear(in, out, dev = dt_cpu()) and two make_input
// overloads, one with a device and one that defaults to the host. The decoder passes its
// device to every layer but the output projection, which silently takes the default (cpu);
// the decoder's activations are on sim:0, so the last matmul fails.
#include <dt/dt.h>

#include <cstdio>

namespace layers {

class Linear {
 public:
  Linear(int64_t in, int64_t out, dt_device dev = dt_cpu(), uint64_t seed = 1) : in_(in), out_(out) {
    const int64_t shape[] = {in_, out_};
    w_ = dt_randn(dev, seed, 2, shape);
  }
  ~Linear() { dt_free(w_); }
  Linear(const Linear &) = delete;
  Linear &operator=(const Linear &) = delete;
  dt_tensor *operator()(const dt_tensor *x) const { return dt_matmul(x, w_); } // expect-error: backend-mismatch
  int64_t in() const { return in_; }

 private:
  int64_t in_, out_;
  dt_tensor *w_;
};

}  // namespace layers

dt_tensor *make_input(int64_t rows, int64_t cols, dt_device dev) {
  const int64_t shape[] = {rows, cols};
  return dt_full(dev, 0.25f, 2, shape);
}

dt_tensor *make_input(int64_t rows, int64_t cols) { return make_input(rows, cols, dt_cpu()); }

class Decoder {
 public:
  explicit Decoder(dt_device dev) : dev_(dev), up_(4, 8, dev, 2), mid_(8, 8, dev, 3), out_(8, 2) {}
  dt_tensor *decode(const dt_tensor *z) const {
    dt_tensor *h1 = up_(z);
    dt_tensor *a1 = dt_relu(h1);
    dt_tensor *h2 = mid_(a1);
    dt_tensor *a2 = dt_relu(h2);
    dt_tensor *o = out_(a2);
    dt_free(h1);
    dt_free(a1);
    dt_free(h2);
    dt_free(a2);
    return o;
  }
  dt_device device() const { return dev_; }

 private:
  dt_device dev_;
  layers::Linear up_, mid_, out_;
};

int main() {
  // A host-only helper layer works with the host overload of make_input.
  layers::Linear probe(4, 4);
  dt_tensor *hx = make_input(2, 4);
  dt_tensor *hp = probe(hx);

  Decoder dec(dt_sim(0));
  dt_tensor *z = make_input(3, 4, dec.device());
  dt_tensor *y = dec.decode(z);
  std::printf("%s %s\n", hp ? "probe ok" : "probe failed", y ? "decoded" : "failed");
  dt_free(y);
  dt_free(z);
  dt_free(hp);
  dt_free(hx);
  return 0;
}
