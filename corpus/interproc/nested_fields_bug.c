// corpus/interproc/nested_fields_bug.c — the same nested layout, but the decoder is built from
// a second config struct whose device is sim:1 ("to balance memory") while the encoder and
// the input are on sim:0. The mismatch is inside linear_apply() when called for the decoder:
// an error at the helper's matmul (device-mismatch), with the call chain in the notes.
#include <stdio.h>

#include <dt/dt.h>

typedef struct linear {
  dt_tensor *w, *b;
} linear;
typedef struct placement {
  dt_device encoder_dev;
  dt_device decoder_dev;
} placement;
typedef struct seq_model {
  struct {
    linear proj;
  } enc;
  struct {
    linear out;
  } dec;
} seq_model;

static void linear_init(linear *l, dt_device dev, int in, int out) {
  l->w = dt_randn(dev, 5, 2, (const int64_t[]){in, out});
  l->b = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){out});
}

static dt_tensor *linear_apply(const linear *l, const dt_tensor *x) {
  dt_tensor *t = dt_matmul(x, l->w); // expect-error: device-mismatch
  dt_tensor *y = dt_add(t, l->b);
  dt_free(t);
  return y;
}

int main(void) {
  placement pl = {dt_sim(0), dt_sim(1)};
  seq_model m;
  linear_init(&m.enc.proj, pl.encoder_dev, 4, 4);
  linear_init(&m.dec.out, pl.decoder_dev, 4, 2);
  dt_tensor *x = dt_randn(pl.encoder_dev, 1, 2, (const int64_t[]){2, 4});
  dt_tensor *h = linear_apply(&m.enc.proj, x);
  dt_tensor *y = linear_apply(&m.dec.out, h);
  printf("y %lld\n", (long long)dt_numel(y));
  return 0;
}
