/* runtime/backends/cpu/cpu_parallel.h — the cpu backend's worker threads for large element-wise
 * and reduction loops (OpenBLAS already spreads the matrix products). */
#ifndef DT_CPU_PARALLEL_H
#define DT_CPU_PARALLEL_H

#include <stdint.h>

/* Work on the items [begin, end) of a loop. */
typedef void (*cpu_range_fn)(void *ctx, int64_t begin, int64_t end);

/* Runs fn over [0, n) split into contiguous ranges of at least `grain` items, one per thread
   (the caller's thread takes one). Serial when n < 2 * grain, when one thread is configured, or
   while another thread's loop holds the workers. Returns when every range is done. */
void cpu_parallel_for(int64_t n, int64_t grain, cpu_range_fn fn, void *ctx);

/* Threads the loops use: DT_NUM_THREADS, else OMP_NUM_THREADS, else OPENBLAS_NUM_THREADS, else
   the online processors (at most 64). */
int cpu_thread_count(void);

/* Items worth a thread of their own in a memory-bound loop (elements of 4 bytes): 64 Ki, so
   that a layer's [1024, 1024] activations (1 Mi elements) reach 16 threads rather than 8 (PyTorch
   splits its element-wise loops at 32 Ki). */
#define CPU_PARALLEL_GRAIN ((int64_t)1 << 16)

#endif /* DT_CPU_PARALLEL_H */
