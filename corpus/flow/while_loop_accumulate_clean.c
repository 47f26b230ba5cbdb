// provenance: blind round field
// Epoch loop with a while over batches; running loss kept as a tensor on the training device.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { const float *data; int n, pos, bs; dt_device dev; } batcher;

static dt_tensor *next(batcher *b) {
  if (b->pos + b->bs > b->n) return NULL;
  dt_tensor *t = dt_from_floats(b->dev, b->data + b->pos, 2, (const int64_t[]){b->bs, 1});
  b->pos += b->bs;
  return t;
}

int main(void) {
  float data[12];
  for (int i = 0; i < 12; i++) data[i] = (float)i;
  dt_device dev = dt_sim(1);
  batcher b = { data, 12, 0, 4, dev };
  dt_tensor *running = dt_zeros(dev, DT_FLOAT, 0, NULL);
  dt_tensor *batch;
  while ((batch = next(&b)) != NULL) {
    dt_tensor *s = dt_sum(batch);
    dt_tensor *r = dt_add(running, s);
    dt_free(running); dt_free(s); dt_free(batch);
    running = r;
  }
  float v;
  dt_read_floats(running, &v, 1);
  printf("total %.0f (expect 66)\n", v);
  dt_free(running);
  return v == 66.0f ? 0 : 1;
}
