/* bench/runtime/bench_cpu.c — the cpu backend's benchmark: prints ratios against baselines
 * measured in the same run (SPEC §6):
 *   dt_matmul vs cblas_sgemm on the same buffers, n = 256, 512, 1024 (target >= 0.95 at 1024);
 *   dt_add on 4M floats vs a plain C loop that allocates its own output (target <= 1.10);
 *   nanoseconds per operation on one-element tensors (aim < 200 ns), and the precheck's share;
 *   a query's cost (one handle check).
 * Each figure is the best of several interleaved repetitions (the order alternating), so both
 * sides see the same noise; minor page faults per call are printed beside the element-wise
 * ratio, since fresh output pages can cost more than the loop itself.
 * Usage: bench_cpu [--quick] */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "dt/dt.h"
#include "internal.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile float g_sink;

static long minor_faults(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt;
}

static const float *data_of(const dt_tensor *t) { return dt__resolve_fast(t)->storage->data; }

static void bench_matmul(int64_t n, int reps) {
  dt_tensor *a = dt_randn(dt_cpu(), 1, 2, (const int64_t[]){n, n});
  dt_tensor *b = dt_randn(dt_cpu(), 2, 2, (const int64_t[]){n, n});
  float *c = malloc(sizeof(float) * (size_t)(n * n));
  if (!a || !b || !c) {
    fprintf(stderr, "bench_cpu: allocation failed\n");
    exit(1);
  }
  double best_blas = 1e30, best_dt = 1e30;
  for (int r = 0; r < 2 * reps; r++) {
    double t0 = now();
    if (r % 2 == 0) {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (blasint)n, (blasint)n, (blasint)n,
                  1.0f, data_of(a), (blasint)n, data_of(b), (blasint)n, 0.0f, c, (blasint)n);
      g_sink = c[0];
      if (now() - t0 < best_blas) best_blas = now() - t0;
    } else {
      dt_tensor *p = dt_matmul(a, b);
      double t1 = now();
      g_sink = data_of(p)[0];
      dt_free(p);
      if (t1 - t0 < best_dt) best_dt = t1 - t0;
    }
  }
  const double flops = 2.0 * (double)n * (double)n * (double)n;
  printf("matmul n=%-5lld  cblas_sgemm %8.2f GFLOP/s   dt_matmul %8.2f GFLOP/s   ratio %.3f%s\n",
         (long long)n, flops / best_blas * 1e-9, flops / best_dt * 1e-9, best_blas / best_dt,
         n == 1024 ? "  (target >= 0.95)" : "");
  free(c);
  dt_free(a);
  dt_free(b);
}

/* The baseline: a plain loop that allocates its own output, as a user would write it. */
static float *plain_add(const float *a, const float *b, int64_t n) {
  float *out = malloc(sizeof(float) * (size_t)n);
  if (out == NULL) return NULL;
  for (int64_t i = 0; i < n; i++) out[i] = a[i] + b[i];
  return out;
}

static void bench_add(int64_t n, int reps) {
  dt_tensor *a = dt_randn(dt_cpu(), 3, 1, &n), *b = dt_randn(dt_cpu(), 4, 1, &n);
  double best_loop = 1e30, best_dt = 1e30;
  long faults_loop = 0, faults_dt = 0;
  for (int r = 0; r < 2 * reps; r++) {
    const long f0 = minor_faults();
    double t0 = now();
    if (r % 2 == 0) {
      float *o = plain_add(data_of(a), data_of(b), n);
      const double t = now() - t0;
      faults_loop += minor_faults() - f0;
      g_sink = o[n - 1];
      free(o);
      if (t < best_loop) best_loop = t;
    } else {
      dt_tensor *s = dt_add(a, b);
      const double t = now() - t0;
      faults_dt += minor_faults() - f0;
      g_sink = data_of(s)[n - 1];
      dt_free(s);
      if (t < best_dt) best_dt = t;
    }
  }
  const double gb = 3.0 * 4.0 * (double)n * 1e-9;
  printf("add %lld floats  plain loop %7.2f GB/s   dt_add %7.2f GB/s   time ratio dt/loop %.3f  "
         "(target <= 1.10); page faults per call: loop %ld, dt %ld\n",
         (long long)n, gb / best_loop, gb / best_dt, best_dt / best_loop, faults_loop / reps,
         faults_dt / reps);
  dt_free(a);
  dt_free(b);
}

static void bench_tiny(int64_t iters) {
  dt_tensor *a = dt_full(dt_cpu(), 1.0f, 0, NULL), *b = dt_full(dt_cpu(), 2.0f, 0, NULL);
  const dt_tensor *hs[2] = {a, b}, *ts[2];
  const dt_site site = {__FILE__, __LINE__, "bench"};
  double best_op = 1e30, best_check = 1e30, best_alloc = 1e30, best_query = 1e30;
  for (int r = 0; r < 5; r++) {
    double t0 = now();
    for (int64_t i = 0; i < iters; i++) dt_free(dt_add(a, b));
    double t1 = now();
    int bad = 0;
    for (int64_t i = 0; i < iters; i++)
      bad += dt__precheck(&site, 2, hs, ts, DT_KINDS_NUMERIC) != DT_OK;
    double t2 = now();
    for (int64_t i = 0; i < iters; i++)
      dt__tensor_free(dt__tensor_new(&site, dt_cpu(), DT_FLOAT, 0, NULL));
    double t3 = now();
    for (int64_t i = 0; i < iters; i++) bad += dt_numel(a) != 1;
    double t4 = now();
    if (bad) fprintf(stderr, "bench_cpu: precheck failed\n");
    if (t1 - t0 < best_op) best_op = t1 - t0;
    if (t2 - t1 < best_check) best_check = t2 - t1;
    if (t3 - t2 < best_alloc) best_alloc = t3 - t2;
    if (t4 - t3 < best_query) best_query = t4 - t3;
  }
  const double op = best_op / (double)iters * 1e9;
  printf("one-element dt_add + dt_free: %.1f ns per op  (aim < 200 ns); of which precheck %.1f ns "
         "(%.1f%%), tensor allocation + free %.1f ns\n",
         op, best_check / (double)iters * 1e9, 100.0 * best_check / best_op,
         best_alloc / (double)iters * 1e9);
  printf("dt_numel (one handle check, status reset): %.1f ns per call\n",
         best_query / (double)iters * 1e9);
  dt_free(a);
  dt_free(b);
}

int main(int argc, char **argv) {
  const int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  dt_set_error_mode(DT_ERRORS_ABORT);
  const int64_t sizes[3] = {256, 512, 1024};
  for (int i = 0; i < 3; i++) bench_matmul(sizes[i], quick ? 3 : (i == 2 ? 10 : 20));
  bench_add((int64_t)4 << 20, quick ? 5 : 30);
  bench_tiny(quick ? 100000 : 1000000);
  return 0;
}
