/* runtime/backends/cpu/cpu_blas.h — whether OpenBLAS runs kernels that fit this CPU: its core
 * name (openblas_get_corename) against the instruction sets the CPU has, the advice that fixes a
 * mismatch (OPENBLAS_CORETYPE=...), and the one-time warning the cpu backend prints. */
#ifndef DT_CPU_BLAS_H
#define DT_CPU_BLAS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* OpenBLAS's core name ("Haswell", "SkylakeX", "Prescott"...). */
const char *dt__cpu_blas_core(void);

/* 1 when OpenBLAS's kernels use fewer of the CPU's instructions than it has (an AVX-512 CPU run
   with "Prescott" kernels), with the reason and the fix written into msg; 0 when they fit (msg
   then says what was checked). */
int dt__cpu_blas_check(char *msg, size_t n);

/* Prints the mismatch warning to stderr once per process, unless DT_BLAS_CHECK=0. */
void dt__cpu_blas_warn_once(void);

#ifdef __cplusplus
}
#endif

#endif /* DT_CPU_BLAS_H */
