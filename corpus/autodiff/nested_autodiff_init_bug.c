// provenance: blind round field2
// A sub-module wraps the device it is given in autodiff again; the parent already did.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; dt_tensor *emb; } embedding;
typedef struct { dt_device dev; embedding emb; } encoder;
static void embedding_init(embedding *e, dt_device d) {
  e->dev = dt_autodiff(d); // expect-error: autodiff-nested
  e->emb = dt_randn(e->dev, 1, 2, (const int64_t[]){10, 4});
}
static void encoder_init(encoder *enc, dt_device base) {
  enc->dev = dt_autodiff(base);
  embedding_init(&enc->emb, enc->dev);
}
int main(void) {
  encoder enc;
  encoder_init(&enc, dt_sim(0));
  printf("%p\n", (void *)enc.emb.emb);
  return 0;
}
