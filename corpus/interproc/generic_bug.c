// provenance: blind round field6
// Type-generic constructors with C11 _Generic: MAKE(dev, buf, n) picks dt_from_floats or
// dt_from_ints from the element type of the host buffer, and DEVICE_OF_CFG(cfg) picks the
// device function from the type of a configuration struct.  The feature pipeline builds
// its token ids from an int64_t buffer (an int tensor) and adds them to float features.
#include <dt/dt.h>
#include <stdio.h>

#define N 4
static const int64_t S[1] = {N};

typedef struct host_cfg { int threads; } host_cfg;
typedef struct accel_cfg { int ordinal; } accel_cfg;

static dt_tensor *make_f(dt_device d, const float *v, int64_t n) {
  const int64_t s[1] = {n};
  return dt_from_floats(d, v, 1, s);
}
static dt_tensor *make_i(dt_device d, const int64_t *v, int64_t n) {
  const int64_t s[1] = {n};
  return dt_from_ints(d, v, 1, s);
}
static dt_device host_dev(host_cfg c) { (void)c; return dt_cpu(); }
static dt_device accel_dev(accel_cfg c) { return dt_sim(c.ordinal); }

#define MAKE(dev, buf, n) _Generic((buf), float *: make_f, const float *: make_f, \
                                   int64_t *: make_i, const int64_t *: make_i)(dev, buf, n)
#define DEVICE_OF_CFG(cfg) _Generic((cfg), host_cfg: host_dev, accel_cfg: accel_dev)(cfg)

int main(void) {
  accel_cfg acfg = {1};
  host_cfg hcfg = {4};
  dt_device dev = DEVICE_OF_CFG(acfg);   /* sim:1 */
  dt_device host = DEVICE_OF_CFG(hcfg);  /* cpu */

  float feats[N] = {0.5f, 1.5f, 2.5f, 3.5f};
  int64_t ids[N] = {3, 1, 4, 1};
  float scale[N] = {1, 1, 1, 1};

  dt_tensor *f = MAKE(dev, feats, N);
  dt_tensor *sc = MAKE(dev, scale, N);
  dt_tensor *t = MAKE(dev, ids, N);
  dt_tensor *fs = dt_mul(f, sc);
  dt_tensor *mixed = dt_add(fs, t); // expect-error: kind-mismatch

  /* host copy of the features, built through the host config */
  dt_tensor *hf = MAKE(host, feats, N);
  dt_tensor *back = dt_to_device(fs, host);
  dt_tensor *d = dt_sub(hf, back);
  dt_tensor *err = dt_sum(d);
  float e = 0.0f;
  dt_read_floats(err, &e, 1);
  printf("round trip error %.3f threads %d\n", (double)e, hcfg.threads);

  dt_tensor *wrong_place = MAKE(host, scale, N);
  dt_tensor *bad = dt_mul(wrong_place, f); // expect-error: backend-mismatch
  dt_free(bad);
  dt_free(wrong_place);
  dt_free(err);
  dt_free(d);
  dt_free(back);
  dt_free(hf);
  dt_free(mixed);
  dt_free(fs);
  dt_free(t);
  dt_free(sc);
  dt_free(f);
  (void)S;
  return 0;
}
