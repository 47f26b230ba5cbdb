/* runtime/backends/cpu/cpu_kernels.h — the cpu backend's kernels, one per family of dt_op,
 * shared by cpu_backend.c's dispatch. Each returns 0, or -1 for a kind it does not handle
 * (after cpu_set_error). Descriptors are fully resolved by the runtime (dt/backend.h). */
#ifndef DT_CPU_KERNELS_H
#define DT_CPU_KERNELS_H

#include "dt/backend.h"

/* The element-wise and reduction loops are compiled three times — AVX-512, AVX2 and the base
   x86-64 — and the loader picks the one this CPU runs (GCC's target_clones, an ifunc): the
   base ISA's 4-float vectors do a quarter of what AVX-512 does per instruction. Floating-point
   contraction stays off (ISO C11 mode), so every variant computes exactly the same values.
   Sanitizer builds keep one variant: the ifunc resolver runs while the program is being
   relocated, before a sanitizer's runtime is set up, and an instrumented resolver crashes. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define CPU_NO_VECTOR_CLONES 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CPU_NO_VECTOR_CLONES 1
#endif
#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_attribute) && \
    !defined(CPU_NO_VECTOR_CLONES)
#if __has_attribute(target_clones)
#define CPU_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
#endif
#ifndef CPU_VECTOR_CLONES
#define CPU_VECTOR_CLONES
#endif

int cpu_fill(const dt_op_desc *op);
int cpu_binary(const dt_op_desc *op);     /* ADD SUB MUL DIV GREATER */
int cpu_where(const dt_op_desc *op);
int cpu_scalar(const dt_op_desc *op);     /* ADD_SCALAR MUL_SCALAR */
int cpu_unary(const dt_op_desc *op);      /* NEG EXP LOG RELU SIGMOID TANH */
int cpu_sum_dim(const dt_op_desc *op);
int cpu_mse(const dt_op_desc *op);
int cpu_act_grad(const dt_op_desc *op); /* RELU_GRAD SIGMOID_GRAD TANH_GRAD */
int cpu_matmul(const dt_op_desc *op);
int cpu_transpose(const dt_op_desc *op);
int cpu_copy_slice(const dt_op_desc *op);

/* Records the calling thread's last failure text (returned by the iface's last_error). */
int cpu_set_error(const char *what, const dt_op_desc *op);

#endif /* DT_CPU_KERNELS_H */
