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
  /* Most blocks given to a contiguous map (0: max_blocks). A GPU runs a map fastest with one
     tile per block and no grid-stride loop (measured on an H200: 4.38 TB/s for an add of 256M
     floats against 4.17 TB/s with the grid capped at 32 blocks per SM). */
  int64_t max_map_blocks;
};

#endif /* DT_KERNELS_KENV_H */
