// provenance: blind round field3
// Layer types in a table; a switch on the type picks the parameters' kind and device (the
// embedding's ids are ints on the host and are looked up there, dense layers run on sim:0).
#include <dt/dt.h>
#include <stdio.h>
typedef enum { L_EMBED, L_DENSE, L_ACT } ltype;
typedef struct { ltype type; dt_tensor *p; } layer;
static dt_tensor *apply(const layer *l, dt_tensor *h) {
  switch (l->type) {
  case L_EMBED: {
    dt_tensor *host = dt_to_device(h, dt_cpu());
    dt_tensor *rows = dt_matmul(host, l->p);
    dt_tensor *dev = dt_to_device(rows, dt_sim(0));
    dt_free(host); dt_free(rows);
    return dev;
  }
  case L_DENSE: return dt_matmul(h, l->p);
  case L_ACT: return dt_relu(h);
  }
  return NULL;
}
int main(void) {
  layer net[3] = {{L_EMBED, NULL}, {L_DENSE, NULL}, {L_ACT, NULL}};
  net[0].p = dt_randn(dt_cpu(), 1, 2, (const int64_t[]){5, 4});
  net[1].p = dt_randn(dt_sim(0), 2, 2, (const int64_t[]){4, 2});
  float onehot[10] = {0, 1, 0, 0, 0, 0, 0, 0, 1, 0};
  dt_tensor *h = dt_from_floats(dt_sim(0), onehot, 2, (const int64_t[]){2, 5});
  for (int i = 0; i < 3; i++) {
    dt_tensor *n = apply(&net[i], h);
    dt_free(h);
    h = n;
  }
  printf("%lld\n", (long long)dt_numel(h));
  return 0;
}
