/* runtime/src/rng.c — the host-side normal generator behind dt_randn: splitmix64 from the seed,
 * Box-Muller pairs in double precision. Values depend only on (seed, index), so every backend
 * receives the same numbers. */
#include <math.h>

#include "internal.h"

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void dt__randn_host(uint64_t seed, float *out, int64_t n) {
  const double two_pi = 6.283185307179586476925286766559;
  const double unit = 1.0 / 9007199254740992.0; /* 2^-53 */
  uint64_t state = seed;
  for (int64_t i = 0; i < n; i += 2) {
    const double u1 = (double)((splitmix64(&state) >> 11) + 1) * unit; /* (0, 1] */
    const double u2 = (double)(splitmix64(&state) >> 11) * unit;       /* [0, 1) */
    const double r = sqrt(-2.0 * log(u1));
    out[i] = (float)(r * cos(two_pi * u2));
    if (i + 1 < n) out[i + 1] = (float)(r * sin(two_pi * u2));
  }
}
