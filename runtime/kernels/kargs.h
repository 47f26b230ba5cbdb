/* runtime/kernels/kargs.h — the argument structs of the kernels in runtime/kernels/, shared by
 * the kernels (device side) and the launcher (host side). Plain C, valid C++. Every pointer is
 * a device pointer of the backend that launches the kernel. */
#ifndef DT_KERNELS_KARGS_H
#define DT_KERNELS_KARGS_H

#include <stdint.h>

#include "dt/dt.h" /* DT_MAX_RANK */

/* Contiguous element-wise: out[i] = f(in0[i], in1[i]) for i < n (unary: in1 unused; scalar
   ops: s is the scalar). */
typedef struct dt_k_map_args {
  const void *in0, *in1;
  void *out;
  int64_t n;
  float s;
} dt_k_map_args;

/* Broadcast element-wise over a collapsed shape: the output is rows x inner (row-major); row r
   unravels over the outer dims oshape[0..orank) (last fastest), and input j's element for
   (r, c) is in[j][sum_d idx_d * ostride[j][d] + c * istride[j]]. */
typedef struct dt_k_bcast_args {
  const void *in[3];
  void *out;
  int64_t n, rows, inner;
  int orank;
  int64_t oshape[DT_MAX_RANK];
  int64_t ostride[3][DT_MAX_RANK];
  int64_t istride[3];
  int unit_inner; /* every input's istride is 1: the inner loop is a plain contiguous one */
} dt_k_bcast_args;

/* out[i] = the element whose bit pattern is `bits` (of the kernel's element size). */
typedef struct dt_k_fill_args {
  void *out;
  int64_t n;
  uint64_t bits;
} dt_k_fill_args;

/* Reduction of in viewed as [outer, len, inner] over len, split into `chunks` pieces of
   chunk_len: with chunks == 1, out[o, i] = finish(scale, sum); otherwise the partial sums go to
   out viewed as [outer, chunks, inner] and a second pass reduces them. in2 is the second
   operand of mse (in - in2)^2. */
typedef struct dt_k_reduce_args {
  const void *in, *in2;
  void *out;
  int64_t outer, len, inner;
  int64_t chunks, chunk_len;
  float scale;
} dt_k_reduce_args;

/* out[c, r] = in[r, c] for in of rows x cols. */
typedef struct dt_k_transpose_args {
  const void *in;
  void *out;
  int64_t rows, cols;
} dt_k_transpose_args;

/* A copy of `rows` runs of `run` contiguous elements: run r goes from in + r*src_pitch to
   out + r*dst_pitch (elements). */
typedef struct dt_k_runs_args {
  const void *in;
  void *out;
  int64_t rows, run, src_pitch, dst_pitch;
} dt_k_runs_args;

/* c[m, n] = a[m, k] x b[k, n], row-major, contiguous. vec: k and n are multiples of the
   kernel's load group and a, b are 16-byte aligned, so groups load whole (see matmul_tile.cuh). */
typedef struct dt_k_matmul_args {
  const void *a, *b;
  void *c;
  int64_t m, n, k;
  int vec;
} dt_k_matmul_args;

#endif /* DT_KERNELS_KARGS_H */
