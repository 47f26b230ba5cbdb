/* tests/backends/bk_util.h — helpers shared by the backend tests: the device under test (from
 * the command line), random inputs made on cpu, moving them to the device, comparing a device
 * result with the cpu result, and skipping (never passing) when the device's backend is absent. */
#ifndef BK_UTIL_H
#define BK_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dt/dt.h"

/* ctest's SKIP_RETURN_CODE for these programs. */
#define BK_SKIP_CODE 77

typedef struct bk_rng {
  uint64_t s;
} bk_rng;
uint64_t bk_next(bk_rng *r);
float bk_uniform(bk_rng *r, float lo, float hi);
int64_t bk_int(bk_rng *r, int64_t lo, int64_t hi); /* inclusive */

/* The device under test: argv[1] ("sim:0", "sim:1", "cuda:0", "cpu"), default sim:0. */
extern dt_device bk_dev;
/* Parses a device name; returns 0 on success. */
int bk_parse_device(const char *s, dt_device *d);
/* Runs the group on bk_dev (parsed from argv). When bk_dev's backend is not available, every
   test reports itself skipped (each starts with BK_REQUIRE_DEVICE) and the program exits with
   BK_SKIP_CODE, so ctest shows SKIPPED. */
int bk_main(int argc, char **argv, const char *group, const struct CMUnitTest *tests, size_t n);
extern int bk_dev_available;
#define BK_REQUIRE_DEVICE() \
  do {                      \
    if (!bk_dev_available) skip(); \
  } while (0)

/* Inputs, made on cpu. */
dt_tensor *bk_rand_floats(bk_rng *r, int rank, const int64_t *shape, float lo, float hi);
dt_tensor *bk_rand_ints(bk_rng *r, int rank, const int64_t *shape, int64_t lo, int64_t hi);
dt_tensor *bk_rand_bools(bk_rng *r, int rank, const int64_t *shape);
/* A copy of t on d (asserts success). */
dt_tensor *bk_to(const dt_tensor *t, dt_device d);

/* Asserts that got (any device) equals want (cpu): same shape and kind; ints and bools exactly;
   floats within atol + rtol * |want| (NaN matches NaN, infinities match by sign). */
void bk_assert_same(const dt_tensor *want, const dt_tensor *got, double rtol, double atol,
                    const char *what);
/* The largest |x| of a float tensor (for tolerances of sums and products). */
double bk_max_abs(const dt_tensor *t);

/* Frees the tensors given, up to a NULL. */
void bk_free_all(dt_tensor *t, ...);

#endif /* BK_UTIL_H */
