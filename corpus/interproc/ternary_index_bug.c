// provenance: blind round field6
// A layer-placement table filled at computed indices with conditional expressions:
// for layer i, slot 2*i+1 is the weight device (sim:1 for every third layer, sim:0
// otherwise) and slot 2*i is the activation device (cpu for odd layers, sim:0 for even).
// Then tensors are parked in acts[i ^ 1] = (i < 2) ? a : b.
// Layer 3's weight (slot 7, sim:1) is combined with layer 4's weight (slot 9, sim:0).
// acts[] is combined correctly (both entries come from the same side of the ?:).
#include <dt/dt.h>
#include <stdio.h>

#define LAYERS 6
#define N 4
static const int64_t S[1] = {N};

typedef struct plan {
  dt_device slot[2 * LAYERS];
} plan;

static void make_plan(plan *p) {
  for (int i = 0; i < LAYERS; i++) {
    p->slot[2 * i + 1] = (i % 3 == 0) ? dt_sim(1) : dt_sim(0);
    p->slot[2 * i] = (i & 1) ? dt_cpu() : dt_sim(0);
  }
}

static dt_tensor *weight_for(const plan *p, int layer) {
  return dt_full(p->slot[2 * layer + 1], (float)layer, 1, S);
}

static dt_tensor *act_for(const plan *p, int layer) {
  return dt_ones(p->slot[2 * layer], DT_FLOAT, 1, S);
}

int main(void) {
  plan p;
  make_plan(&p);

  /* layers 1 and 2: weights on sim:0 */
  dt_tensor *w1 = weight_for(&p, 1);
  dt_tensor *w2 = weight_for(&p, 2);
  dt_tensor *w12 = dt_add(w1, w2);

  /* layers 0 and 2: activations on sim:0 */
  dt_tensor *a0 = act_for(&p, 0);
  dt_tensor *a2 = act_for(&p, 2);
  dt_tensor *a02 = dt_mul(a0, a2);

  dt_tensor *sim1 = dt_ones(dt_sim(1), DT_FLOAT, 1, S);
  dt_tensor *acts[4];
  for (int i = 0; i < 4; i++)
    acts[i ^ 1] = (i < 2) ? w12 : sim1;
  /* acts[0], acts[1] are w12 (sim:0); acts[2], acts[3] are sim1 */
  dt_tensor *low = dt_add(acts[0], acts[1]);
  dt_tensor *high = dt_add(acts[2], acts[3]);

  dt_tensor *w3 = weight_for(&p, 3);
  dt_tensor *w4 = weight_for(&p, 4);
  dt_tensor *w34 = dt_add(w3, w4); // expect-error: device-mismatch

  float v[N];
  dt_read_floats(low, v, N);
  printf("low %.1f\n", (double)v[0]);
  dt_read_floats(high, v, N);
  printf("high %.1f\n", (double)v[0]);
  dt_read_floats(a02, v, N);
  printf("a02 %.1f\n", (double)v[0]);
  dt_tensor *all[] = {w1, w2, w12, a0, a2, a02, sim1, low, high, w3, w4, w34};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    dt_free(all[i]);
  return 0;
}
