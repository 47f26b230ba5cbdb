// corpus/autodiff/labels_on_train_device_bug.c — accuracy computation: the int labels were
// created on the autodiff training device (int tensors report that device), the predicted
// class ids on the plain inner device. Bug: dt_greater of autodiff and plain int tensors
// (autodiff-expected), even though int tensors never take part in the graph.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device train = dt_autodiff(dt_sim(1));
  static const int64_t labels_host[4] = {1, 0, 1, 1};
  static const int64_t preds_host[4] = {1, 1, 1, 0};
  dt_tensor *labels = dt_from_ints(train, labels_host, 1, (const int64_t[]){4});
  dt_tensor *preds = dt_from_ints(dt_inner_device(train), preds_host, 1, (const int64_t[]){4});
  dt_tensor *wrong = dt_greater(labels, preds); // expect-error: autodiff-expected
  printf("%lld\n", (long long)dt_numel(wrong));
  return 0;
}
