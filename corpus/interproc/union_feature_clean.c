// provenance: blind round field3
// Features in a tagged union; the encoder dispatches on the tag correctly (token ids are
// looked up on the host and turned into floats).
#include <dt/dt.h>
#include <stdio.h>
enum feat_kind { FEAT_DENSE, FEAT_TOKENS };
typedef struct {
  enum feat_kind tag;
  union { dt_tensor *dense; dt_tensor *ids; } u;
} feature;
static dt_tensor *encode(const feature *f, const dt_tensor *w, dt_device d) {
  if (f->tag == FEAT_DENSE) return dt_matmul(f->u.dense, w);
  int64_t ids[8]; float onehot[8 * 4] = {0};
  dt_read_ints(f->u.ids, ids, 8);
  for (int i = 0; i < 8; i++) onehot[i * 4 + ids[i]] = 1.0f;
  dt_tensor *x = dt_from_floats(d, onehot, 2, (const int64_t[]){8, 4});
  dt_tensor *h = dt_matmul(x, w);
  dt_free(x);
  return h;
}
int main(int argc, char **argv) {
  (void)argv;
  dt_device d = dt_sim(0);
  dt_tensor *w = dt_randn(d, 3, 2, (const int64_t[]){4, 3});
  feature f;
  if (argc > 1) {
    f.tag = FEAT_DENSE;
    f.u.dense = dt_randn(d, 9, 2, (const int64_t[]){8, 4});
  } else {
    f.tag = FEAT_TOKENS;
    f.u.ids = dt_from_ints(d, (const int64_t[]){1, 0, 2, 3, 1, 0, 0, 2}, 1, (const int64_t[]){8});
  }
  dt_tensor *h = encode(&f, w, d);
  printf("%lld\n", (long long)dt_numel(h));
  dt_free(h); dt_free(f.u.dense); dt_free(w);
  return 0;
}
