// corpus/interproc/array_initializer_cat_bug.c — a multimodal model concatenates image, text
// and metadata features listed in an array initializer; the metadata features were computed on
// the host. Bug: dt_cat checks every element: backend-mismatch.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *image_feat = dt_randn(dev, 1, 2, (const int64_t[]){2, 8});
  dt_tensor *text_feat = dt_randn(dev, 2, 2, (const int64_t[]){2, 4});
  static const float meta[4] = {0.0f, 1.0f, 1.0f, 0.0f};
  dt_tensor *meta_feat = dt_from_floats(dt_cpu(), meta, 2, (const int64_t[]){2, 2});

  dt_tensor *parts[] = {image_feat, text_feat, meta_feat};
  dt_tensor *fused = dt_cat(3, parts, 1); // expect-error: backend-mismatch
  printf("fused %lld\n", (long long)dt_numel(fused));
  dt_free(fused);
  dt_free(meta_feat);
  dt_free(text_feat);
  dt_free(image_feat);
  return 0;
}
