// corpus/cxx/dtor_scope_clean.cpp — destructors that call the API, each given what it needs
// where its object dies: a Snapshot copies its weight to the host when it goes out of scope
// (at the end of a loop iteration, on `continue`, on `break` and on an early return), a
// move-only Tensor whose destructor frees and, when it still holds a tensor, logs its sum on
// its own device — the moved-from one holds none and does nothing — and a Pair aggregate whose
// implicit destructor runs its members' in reverse order. Clean.
#include <cstdio>
#include <utility>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

class Snapshot {
 public:
  explicit Snapshot(const dt_tensor *w) : w_(w) {}
  ~Snapshot() {
    dt_tensor *host = dt_to_device(w_, dt_cpu());
    dt_tensor *ones = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
    dt_tensor *d = dt_sub(host, ones);
    std::printf("snapshot %d\n", d != nullptr);
    dt_free(d);
    dt_free(ones);
    dt_free(host);
  }

 private:
  const dt_tensor *w_;
};

class Tensor {
 public:
  explicit Tensor(dt_tensor *t) : t_(t) {}
  Tensor(Tensor &&o) noexcept : t_(std::exchange(o.t_, nullptr)) {}
  Tensor(const Tensor &) = delete;
  ~Tensor() {
    if (!t_) return;
    dt_tensor *s = dt_sum(t_);
    dt_tensor *twice = dt_add(s, s);
    std::printf("sum %d\n", twice != nullptr);
    dt_free(twice);
    dt_free(s);
    dt_free(t_);
  }
  dt_tensor *get() const { return t_; }

 private:
  dt_tensor *t_;
};

struct Pair {
  Tensor first;
  Tensor second;
};

static int steps(const dt_tensor *w, int n) {
  for (int i = 0; i < n + 3; i++) {
    Snapshot s(w);
    if (i == 1) continue;
    if (i == 2) break;
    if (i > 5) return i;
  }
  Snapshot last(w);
  return 0;
}

int main(int argc, char **argv) {
  (void)argv;
  dt_tensor *w = dt_randn(dt_sim(1), 2u, 2, kShape);
  int r = steps(w, argc);
  Tensor a(dt_ones(dt_sim(0), DT_FLOAT, 2, kShape));
  Tensor b(std::move(a));
  {
    Pair p{Tensor(dt_ones(dt_sim(1), DT_FLOAT, 2, kShape)), Tensor(dt_zeros(dt_cpu(), DT_FLOAT, 2, kShape))};
    std::printf("pair %d\n", p.first.get() != nullptr);
  }
  std::printf("%d %d\n", b.get() != nullptr, a.get() == nullptr);
  dt_free(w);
  return r;
}
