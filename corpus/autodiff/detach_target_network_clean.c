// corpus/autodiff/detach_target_network_clean.c — a target network for a value-learning loop:
// the target is computed from the same weights but detached (no gradient flows into it), int
// action ids and bool masks live on the autodiff device too, and dt_where picks values. Clean:
// detached tensors stay on the autodiff device; int/bool tensors report it as well.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){4, 2}));
  dt_tensor *s = dt_randn(ad, 2, 2, (const int64_t[]){5, 4});
  dt_tensor *s_next = dt_randn(ad, 3, 2, (const int64_t[]){5, 4});

  dt_tensor *q = dt_matmul(s, w);
  dt_tensor *q_next_t = dt_matmul(s_next, w);
  dt_tensor *q_next = dt_detach(q_next_t);
  dt_tensor *reward = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){5, 2});
  dt_tensor *disc = dt_mul_scalar(q_next, 0.9f);
  dt_tensor *target = dt_add(reward, disc);

  static const int64_t done_ids[5] = {0, 0, 1, 0, 1};
  dt_tensor *done = dt_from_ints(ad, done_ids, 1, (const int64_t[]){5});
  dt_tensor *zero_i = dt_zeros(ad, DT_INT, 1, (const int64_t[]){5});
  dt_tensor *is_done = dt_greater(done, zero_i);           /* bool, on the autodiff device */
  dt_tensor *done_col = dt_reshape(is_done, 2, (const int64_t[]){5, 1});
  dt_tensor *done_mask = dt_cat(2, (dt_tensor *const[]){done_col, done_col}, 1);
  dt_tensor *final_target = dt_where(done_mask, reward, target);

  dt_tensor *loss = dt_mse_loss(q, final_target);
  dt_backward(loss);
  dt_tensor *g = dt_grad(w);
  int64_t n_done = 0;
  dt_tensor *cnt = dt_sum(done);
  dt_read_ints(cnt, &n_done, 1);
  printf("episodes done: %lld, grad %s\n", (long long)n_done, g ? "ok" : "missing");

  dt_tensor *all[] = {cnt, g, loss, final_target, done_mask, done_col, is_done, zero_i, done,
                      target, disc, reward, q_next, q_next_t, q, s_next, s, w};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
