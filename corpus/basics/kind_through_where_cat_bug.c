// provenance: blind round field3
// Label smoothing done with dt_where on the int labels (ignored positions get -1), then the
// per-batch label tensors are concatenated and read back as floats for a histogram.
#include <dt/dt.h>
#include <stdio.h>
static dt_tensor *mask_labels(const dt_tensor *labels, const dt_tensor *keep) {
  dt_tensor *neg = dt_full(dt_device_of(labels), -1.0f, 1, (const int64_t[]){3});
  dt_tensor *negi = dt_from_ints(dt_device_of(labels), (const int64_t[]){-1, -1, -1}, 1, (const int64_t[]){3});
  dt_tensor *out = dt_where(keep, labels, negi);
  dt_free(neg); dt_free(negi);
  return out;
}
int main(void) {
  dt_device d = dt_sim(1);
  dt_tensor *parts[2];
  for (int b = 0; b < 2; b++) {
    dt_tensor *labels = dt_from_ints(d, (const int64_t[]){b, 1, 2}, 1, (const int64_t[]){3});
    dt_tensor *score = dt_randn(d, (uint64_t)b, 1, (const int64_t[]){3});
    dt_tensor *zero = dt_zeros(d, DT_FLOAT, 1, (const int64_t[]){3});
    dt_tensor *keep = dt_greater(score, zero);
    parts[b] = mask_labels(labels, keep);
    dt_free(labels); dt_free(score); dt_free(zero); dt_free(keep);
  }
  dt_tensor *all = dt_cat(2, parts, 0);
  float hist[6];
  dt_read_floats(all, hist, 6); // expect-error: kind-mismatch
  printf("%f\n", hist[0]);
  return 0;
}
