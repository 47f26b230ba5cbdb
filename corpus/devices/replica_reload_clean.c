/* corpus/devices/replica_reload_clean.c — data-parallel replicas kept in an array: each step
   reads a replica's device, frees the replica (`memset(r, 0, sizeof *r)` through a pointer to
   its element) and loads it again on the same device. Zeroing replica 0 clears that replica
   only, so replica 1 still holds its autodiff device when its turn comes: no finding. */
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

static void reload_all(replica *reps, int n) {
  for (int k = 0; k < n; k++) {
    dt_device ad = reps[k].dev;
    replica_free(&reps[k]);
    replica_load(&reps[k], ad);
  }
}

int main(void) {
  replica reps[N_REPLICAS];
  for (int k = 0; k < N_REPLICAS; k++) replica_load(&reps[k], dt_autodiff(dt_sim(k)));
  reload_all(reps, N_REPLICAS);
  reload_all(reps, N_REPLICAS);
  for (int k = 0; k < N_REPLICAS; k++) {
    printf("replica %d: %lld\n", k, (long long)dt_numel(reps[k].param));
    dt_free(reps[k].param);
  }
  return 0;
}
