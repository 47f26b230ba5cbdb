// corpus/flow/device_table_constant_index_bug.c — devices kept in a table indexed by named
// constants; the label tensor is created from the wrong slot (HOST instead of ACCEL), so it is
// on cpu while the predictions are on sim:0. The indices are constants: an error.
#include <stdio.h>

#include <dt/dt.h>

enum { HOST = 0, ACCEL = 1, N_DEVICES = 2 };

int main(void) {
  dt_device devices[N_DEVICES];
  devices[HOST] = dt_cpu();
  devices[ACCEL] = dt_sim(0);
  dt_tensor *pred = dt_randn(devices[ACCEL], 1, 2, (const int64_t[]){4, 1});
  dt_tensor *label = dt_ones(devices[HOST], DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *loss = dt_mse_loss(pred, label); // expect-error: backend-mismatch
  printf("%lld\n", (long long)dt_numel(loss));
  return 0;
}
