/* runtime/backends/cpu/cpu_blas.c — detects an OpenBLAS that runs kernels below this CPU (issue
 * 25: Debian's OpenBLAS 0.3.21 took a virtualized AVX-512 Xeon with a generic model name for a
 * "Prescott" and ran 4.6x slower than with OPENBLAS_CORETYPE=SkylakeX). The core's vector level
 * comes from its name, the CPU's from cpuid (__builtin_cpu_supports). */
#include "cpu_blas.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *openblas_get_corename(void);
char *openblas_get_config(void);

typedef enum vec_level { VEC_SSE = 0, VEC_AVX = 1, VEC_AVX2 = 2, VEC_AVX512 = 3 } vec_level;

static const char *const level_name[] = {"SSE", "AVX", "AVX2+FMA", "AVX-512"};
/* the core to ask for at each level (what OPENBLAS_CORETYPE accepts) */
static const char *const level_core[] = {"Prescott", "Sandybridge", "Haswell", "SkylakeX"};

/* The vector level of the kernels OpenBLAS picked, from the core name. */
static vec_level core_level(const char *core) {
  static const char *const avx512[] = {"skylakex", "cooperlake", "sapphirerapids"};
  static const char *const avx2[] = {"haswell", "zen", "excavator"};
  static const char *const avx[] = {"sandybridge", "bulldozer", "piledriver", "steamroller"};
  char c[64];
  size_t i = 0;
  for (; core[i] != '\0' && i + 1 < sizeof c; i++)
    c[i] = (char)(core[i] >= 'A' && core[i] <= 'Z' ? core[i] - 'A' + 'a' : core[i]);
  c[i] = '\0';
  for (size_t k = 0; k < sizeof avx512 / sizeof avx512[0]; k++)
    if (strcmp(c, avx512[k]) == 0) return VEC_AVX512;
  for (size_t k = 0; k < sizeof avx2 / sizeof avx2[0]; k++)
    if (strcmp(c, avx2[k]) == 0) return VEC_AVX2;
  for (size_t k = 0; k < sizeof avx / sizeof avx[0]; k++)
    if (strcmp(c, avx[k]) == 0) return VEC_AVX;
  return VEC_SSE;
}

/* The CPU's vector level, from cpuid. */
static vec_level cpu_level(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
    return VEC_AVX512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return VEC_AVX2;
  if (__builtin_cpu_supports("avx")) return VEC_AVX;
#endif
  return VEC_SSE;
}

const char *dt__cpu_blas_core(void) {
  const char *core = openblas_get_corename();
  return core != NULL ? core : "unknown";
}

int dt__cpu_blas_check(char *msg, size_t n) {
#if defined(__x86_64__) || defined(__i386__)
  const char *core = dt__cpu_blas_core();
  const vec_level have = cpu_level(), used = core_level(core);
  const char *config = openblas_get_config();
  const int dynamic = config != NULL && strstr(config, "DYNAMIC_ARCH") != NULL;
  if (used >= have) {
    snprintf(msg, n, "core %s (%s kernels) fits this CPU (%s)", core, level_name[used],
             level_name[have]);
    return 0;
  }
  if (dynamic)
    snprintf(msg, n,
             "OpenBLAS runs its \"%s\" kernels (%s) on a CPU with %s: matrix products run several "
             "times slower than they can. Set OPENBLAS_CORETYPE=%s in the environment to fix it "
             "(DT_BLAS_CHECK=0 silences this warning)",
             core, level_name[used], level_name[have], level_core[have]);
  else
    snprintf(msg, n,
             "OpenBLAS was built for \"%s\" (%s) only, and this CPU has %s: matrix products run "
             "several times slower than they can. Use an OpenBLAS built with DYNAMIC_ARCH=1 or "
             "TARGET=%s (DT_BLAS_CHECK=0 silences this warning)",
             core, level_name[used], level_name[have], level_core[have]);
  return 1;
#else
  snprintf(msg, n, "core %s (not an x86 CPU: not checked)", dt__cpu_blas_core());
  return 0;
#endif
}

static void warn(void) {
  const char *env = getenv("DT_BLAS_CHECK");
  if (env != NULL && strcmp(env, "0") == 0) return;
  char msg[512];
  if (dt__cpu_blas_check(msg, sizeof msg)) fprintf(stderr, "dt: warning: %s\n", msg);
}

void dt__cpu_blas_warn_once(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, warn);
}
