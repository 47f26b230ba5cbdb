// corpus/flow/pointer_swap_bug.c — double buffering through pointers: `front` and `back` are
// swapped via a helper taking `dt_tensor **`. The back buffer was allocated on the host, so
// after the swap the "front" activations used with the device weights are on cpu.
// Bug: backend-mismatch at the matmul after the swap.
#include <stdio.h>

#include <dt/dt.h>

static void swap_buffers(dt_tensor **a, dt_tensor **b) {
  dt_tensor *t = *a;
  *a = *b;
  *b = t;
}

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){4, 4});
  dt_tensor *front = dt_randn(dev, 2, 2, (const int64_t[]){1, 4});
  dt_tensor *back = dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){1, 4});

  dt_tensor *y = dt_matmul(front, w);
  dt_free(y);
  swap_buffers(&front, &back);
  dt_tensor *y2 = dt_matmul(front, w); // expect-error: backend-mismatch
  printf("y2 %lld\n", (long long)dt_numel(y2));
  dt_free(y2);
  dt_free(front);
  dt_free(back);
  dt_free(w);
  return 0;
}
