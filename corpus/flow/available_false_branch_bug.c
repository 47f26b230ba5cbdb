// corpus/flow/available_false_branch_bug.c — the fallback branch (taken exactly when
// dt_backend_available(DT_BACKEND_CUDA) returned false) still uploads the model to cuda:0:
// on that path the allocation always fails (backend-unavailable, an error). On a machine with
// a GPU the branch never runs, so the oracle only runs this where cuda is absent.
// run-if: !cuda
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_tensor *w = dt_randn(dt_cpu(), 1, 2, (const int64_t[]){4, 4});
  dt_tensor *deployed;
  if (dt_backend_available(DT_BACKEND_CUDA)) {
    deployed = dt_to_device(w, dt_cuda(0));
  } else {
    fprintf(stderr, "no GPU: deploying on the default accelerator\n");
    deployed = dt_to_device(w, dt_cuda(0)); // expect-error: backend-unavailable
  }
  printf("deployed %lld weights\n", (long long)dt_numel(deployed));
  dt_free(deployed);
  dt_free(w);
  return 0;
}
