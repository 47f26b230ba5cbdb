// corpus/cxx/dtor_scope_bug.cpp — destructors that call the API run where their objects die:
// a Checkpoint's destructor compares the trained weight with a reference made on the host,
// and runs on the early return as on the normal one; a Run aggregate holding a Probe member
// dies at the end of its block (its implicit destructor runs the Probe's). The destructor's
// body sees the objects it is given there. Bugs: backend-mismatch, device-mismatch.
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

class Checkpoint {
 public:
  Checkpoint(const dt_tensor *w, dt_tensor *ref) : w_(w), ref_(ref) {}
  ~Checkpoint() {
    dt_tensor *delta = dt_sub(w_, ref_); // expect-error: backend-mismatch
    std::printf("delta %d\n", delta != nullptr);
    dt_free(delta);
    dt_free(ref_);
  }

 private:
  const dt_tensor *w_;
  dt_tensor *ref_;
};

struct Probe {
  dt_tensor *a;
  dt_tensor *b;
  ~Probe() {
    dt_tensor *s = dt_add(a, b); // expect-error: device-mismatch
    dt_free(s);
    dt_free(a);
    dt_free(b);
  }
};

struct Run {
  int id;
  Probe probe;
};

static int train(const dt_tensor *w, int steps) {
  Checkpoint ck(w, dt_zeros(dt_cpu(), DT_FLOAT, 2, kShape));
  if (steps < 100) return 0;
  std::printf("long run\n");
  return 1;
}

int main(int argc, char **argv) {
  (void)argv;
  dt_tensor *w = dt_randn(dt_sim(0), 1u, 2, kShape);
  int r = train(w, argc);
  {
    Run run{1, Probe{dt_ones(dt_sim(1), DT_FLOAT, 2, kShape), dt_ones(dt_sim(0), DT_FLOAT, 2, kShape)}};
    std::printf("run %d\n", run.id);
  }
  dt_free(w);
  return r;
}
