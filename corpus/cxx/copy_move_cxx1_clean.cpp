// provenance: blind round cxx1
// Aggregates holding tensor handles, copied and moved. A Batch is copied (both copies share
// the cpu handles), then the original's fields are re-pointed at sim:0 copies; the copy still
// holds the cpu handles and is only ever combined with cpu tensors. A moved-into Batch keeps
// the sim:0 handles and is used with the sim:0 model. Clean.
#include <dt/dt.h>

#include <cstdio>
#include <utility>
#include <vector>

struct Batch {
  dt_tensor *x = nullptr;
  dt_tensor *y = nullptr;
  int id = 0;
};

struct Linear {
  dt_tensor *w = nullptr;
  dt_tensor *b = nullptr;
};

static Linear make_linear(dt_device dev, uint64_t seed) {
  const int64_t wshape[] = {3, 1};
  const int64_t bshape[] = {1};
  Linear l;
  l.w = dt_randn(dev, seed, 2, wshape);
  l.b = dt_zeros(dev, DT_FLOAT, 1, bshape);
  return l;
}

static float loss_of(const Linear &l, const Batch &batch) {
  dt_tensor *h = dt_matmul(batch.x, l.w);
  dt_tensor *p = dt_add(h, l.b);
  dt_tensor *loss = dt_mse_loss(p, batch.y);
  float v = 0.0f;
  dt_read_floats(loss, &v, 1);
  dt_free(loss);
  dt_free(p);
  dt_free(h);
  return v;
}

int main() {
  const dt_device host = dt_cpu();
  const dt_device accel = dt_sim(0);
  const int64_t xshape[] = {4, 3};
  const int64_t yshape[] = {4, 1};

  Batch original;
  original.x = dt_randn(host, 1, 2, xshape);
  original.y = dt_ones(host, DT_FLOAT, 2, yshape);
  original.id = 1;

  Batch host_copy = original;  // copy: shares the cpu handles
  Batch moved_src = original;
  moved_src.x = dt_to_device(original.x, accel);
  moved_src.y = dt_to_device(original.y, accel);
  Batch on_accel(std::move(moved_src));  // move: takes the sim:0 handles

  Linear host_model = make_linear(host, 9);
  Linear accel_model = make_linear(accel, 9);
  Linear accel_copy{accel_model};

  std::vector<Batch> history;
  history.push_back(host_copy);
  history.emplace_back(std::move(on_accel));

  float l_host = loss_of(host_model, history[0]);
  float l_accel = loss_of(accel_copy, history[1]);
  std::printf("host %.4f accel %.4f\n", l_host, l_accel);

  Batch assigned;
  assigned = history[1];
  float l_again = loss_of(accel_model, assigned);
  std::printf("again %.4f\n", l_again);

  dt_free(history[1].x);
  dt_free(history[1].y);
  dt_free(original.x);
  dt_free(original.y);
  dt_free(host_model.w);
  dt_free(host_model.b);
  dt_free(accel_model.w);
  dt_free(accel_model.b);
  return 0;
}
