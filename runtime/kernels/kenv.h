/* runtime/kernels/kenv.h — what a backend tells the kernel launcher (launch.h) about the device
 * it launches on. Plain C, valid C++. */
#ifndef DT_KERNELS_KENV_H
#define DT_KERNELS_KENV_H

#include <stddef.h>
#include <stdint.h>

typedef struct dt_k_env dt_k_env;
struct dt_k_env {
  int64_t max_blocks; /* most blocks given to a grid-stride kernel along x */
  /* Device memory for partial results, at least `bytes`, valid until the next run; NULL when
     it cannot be had. */
  void *(*scratch)(const dt_k_env *env, size_t bytes);
  void *device; /* the backend's per-device state */
};

#endif /* DT_KERNELS_KENV_H */
