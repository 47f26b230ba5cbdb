// provenance: blind round field2
// Attention mask computed with sigmoid (float) and passed as the condition of dt_where.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_tensor *q, *k; } attn;
static dt_tensor *masked_scores(const attn *a, const dt_tensor *mask, float fill) {
  dt_tensor *kt = dt_transpose(a->k);
  dt_tensor *s = dt_matmul(a->q, kt);
  dt_tensor *f = dt_full(dt_device_of(s), fill, 2, (const int64_t[]){dt_dim(s, 0), dt_dim(s, 1)});
  dt_tensor *r = dt_where(mask, s, f); // expect-error: kind-mismatch
  dt_free(kt); dt_free(s); dt_free(f);
  return r;
}
int main(int argc, char **argv) {
  (void)argv;
  dt_device d = argc > 1 ? dt_sim(1) : dt_sim(0);
  attn a = { dt_randn(d, 1, 2, (const int64_t[]){3, 4}), dt_randn(d, 2, 2, (const int64_t[]){3, 4}) };
  dt_tensor *logits = dt_randn(d, 3, 2, (const int64_t[]){3, 3});
  dt_tensor *mask = dt_sigmoid(logits);
  dt_tensor *r = masked_scores(&a, mask, -1e9f);
  printf("%p\n", (void *)r);
  return 0;
}
