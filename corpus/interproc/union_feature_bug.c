// provenance: blind round field3
// Features are either dense floats or token ids, stored in a union selected by a tag field.
// The encoder reads the dense member of a token-id feature: an int tensor into matmul.
#include <dt/dt.h>
#include <stdio.h>
enum feat_kind { FEAT_DENSE, FEAT_TOKENS };
typedef struct {
  enum feat_kind tag;
  union { dt_tensor *dense; dt_tensor *ids; } u;
} feature;
static feature make_tokens(dt_device d) {
  feature f;
  f.tag = FEAT_TOKENS;
  f.u.ids = dt_from_ints(d, (const int64_t[]){1, 0, 2, 1, 1, 0, 0, 2}, 2, (const int64_t[]){2, 4});
  return f;
}
int main(void) {
  dt_device d = dt_cpu();
  dt_tensor *w = dt_randn(d, 3, 2, (const int64_t[]){4, 3});
  feature f = make_tokens(d);
  dt_tensor *h = dt_matmul(f.u.dense, w); // expect-error: kind-mismatch
  printf("%p\n", (void *)h);
  dt_free(f.u.ids); dt_free(w);
  return 0;
}
