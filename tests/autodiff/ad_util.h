/* tests/autodiff/ad_util.h — helpers shared by the autodiff tests: devices by name, host
 * random data, reading tensors back, live-object baselines and the finite-difference gradient
 * check (central differences against dt_backward's gradients). */
#ifndef AD_UTIL_H
#define AD_UTIL_H

#include <stdint.h>

#include <dt/dt.h>

/* Runtime counters (libdt internals, runtime/src/internal.h). */
int64_t dt__live_tensors(void);
int64_t dt__live_storages(void);
void dt__fail_alloc_after(int64_t n);

/* "cpu", "sim" (sim:0), "sim1" (sim:1) or "cuda" (cuda:0) → the plain device. */
int ad_device_by_name(const char *name, dt_device *out);

/* Deterministic pseudo-random floats in [lo, hi]; with away > 0, magnitudes in [away, hi] and a
   random sign (inputs of relu kept away from its kink). */
typedef struct ad_rng {
  uint64_t s;
} ad_rng;
float ad_uniform(ad_rng *r, float lo, float hi);
void ad_fill(ad_rng *r, float *v, int64_t n, float lo, float hi, float away);

/* The tensor's values (numel of them) in a malloc'd buffer; asserts the read succeeds. */
float *ad_read(const dt_tensor *t);
/* One float of a one-element tensor. */
float ad_scalar(const dt_tensor *t);

/* One input of a gradient check: its shape and the range of its values. */
typedef struct ad_input_spec {
  int rank;
  int64_t shape[4];
  float lo, hi, away;
} ad_input_spec;

/* The function under test: builds a result from the inputs (all on autodiff device ad) and
   frees its own intermediates. */
typedef dt_tensor *(*ad_fn)(dt_device ad, dt_tensor *const *in);

/* Checks the gradient of sum(fn(in) * w) for a random w against central finite differences,
   for every element of every input, on autodiff device ad; also that each gradient is a plain
   float tensor on ad's inner device shaped like its input, and that nothing leaks. */
void ad_gradcheck(dt_device ad, ad_fn fn, int n, const ad_input_spec *ins, uint64_t seed);

#endif /* AD_UTIL_H */
