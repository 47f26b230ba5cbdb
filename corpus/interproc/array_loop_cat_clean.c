// corpus/interproc/array_loop_cat_clean.c — a data loader fills an array of per-file shards in
// a loop, concatenates them into one batch with dt_cat, and feeds the batch to a model on the
// same device. Clean: every array element and the cat result share sim:0.
#include <stdio.h>

#include <dt/dt.h>

#define N_SHARDS 4

static dt_tensor *load_shard(int i, dt_device dev) {
  float rows[6];
  for (int k = 0; k < 6; k++) rows[k] = (float)(i * 6 + k) / 24.0f;
  dt_tensor *host = dt_from_floats(dt_cpu(), rows, 2, (const int64_t[]){2, 3});
  dt_tensor *d = dt_to_device(host, dev);
  dt_free(host);
  return d;
}

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *shards[N_SHARDS];
  for (int i = 0; i < N_SHARDS; i++) shards[i] = load_shard(i, dev);
  dt_tensor *batch = dt_cat(N_SHARDS, shards, 0); /* [8, 3] */
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){3, 1});
  dt_tensor *y = dt_matmul(batch, w);
  dt_tensor *m = dt_mean(y);
  float v = 0;
  dt_read_floats(m, &v, 1);
  printf("mean prediction %f over %lld rows\n", (double)v, (long long)dt_dim(batch, 0));
  dt_free(m);
  dt_free(y);
  dt_free(w);
  dt_free(batch);
  for (int i = 0; i < N_SHARDS; i++) dt_free(shards[i]);
  return 0;
}
