// provenance: blind round field3
// Per-stage devices: cuda where available, else the simulator; the analyzer is told cuda is
// unavailable here. Stages are filled from one helper and used consistently.
// tagcheck-args: --unavailable cuda
// run-if: !cuda
#include <dt/dt.h>
#include <stdio.h>
#define NS 2
static dt_device stage_device(int s) {
  return dt_backend_available(DT_BACKEND_CUDA) ? dt_cuda(s) : dt_sim(s);
}
int main(void) {
  dt_device st[NS];
  dt_tensor *w[NS];
  for (int s = 0; s < NS; s++) {
    st[s] = stage_device(s);
    w[s] = dt_randn(st[s], (uint64_t)s, 2, (const int64_t[]){3, 3});
  }
  dt_tensor *h = dt_randn(st[0], 4, 2, (const int64_t[]){1, 3});
  for (int s = 0; s < NS; s++) {
    dt_tensor *in = dt_to_device(h, st[s]);
    dt_tensor *o = dt_matmul(in, w[s]);
    dt_free(h); dt_free(in);
    h = o;
  }
  printf("%lld\n", (long long)dt_numel(h));
  return 0;
}
