/* corpus/devices/replica_reload_bug.c — data-parallel replicas kept in an array: the first
   replica is freed (`memset(r, 0, sizeof *r)` through a pointer to its element) and loaded
   again on the second device, while the batch stays where replica 0 was.
   Bug: device-mismatch in the forward pass of replica 0. */
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

enum { N_REPLICAS = 2 };

typedef struct {
  dt_device dev;
  dt_tensor *param;
} replica;

static const int64_t kShape[1] = {2};

static void replica_load(replica *r, dt_device ad) {
  r->dev = ad;
  dt_tensor *init = dt_zeros(dt_inner_device(ad), DT_FLOAT, 1, kShape);
  r->param = dt_from_inner(ad, init);
  dt_free(init);
}

static void replica_free(replica *r) {
  dt_free(r->param);
  memset(r, 0, sizeof *r);
}

int main(void) {
  replica reps[N_REPLICAS];
  for (int k = 0; k < N_REPLICAS; k++) replica_load(&reps[k], dt_autodiff(dt_sim(k)));
  dt_tensor *batch = dt_ones(reps[0].dev, DT_FLOAT, 1, kShape);
  replica_free(&reps[0]);
  replica_load(&reps[0], dt_autodiff(dt_sim(1)));
  dt_tensor *out = dt_mul(reps[0].param, batch); /* expect-error: device-mismatch */
  printf("%lld\n", (long long)dt_numel(out));
  dt_free(out);
  dt_free(batch);
  for (int k = 0; k < N_REPLICAS; k++) dt_free(reps[k].param);
  return 0;
}
