// corpus/basics/every_op_clean.c — a smoke test of the whole operation set on one device, the
// way a backend bring-up script exercises it: creation, arithmetic, reductions, reshapes,
// comparisons, selection, concatenation and host reads. Clean: every operand on sim:1, kinds
// as each operation accepts them.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(1);
  const int64_t m23[2] = {2, 3};
  const int64_t m32[2] = {3, 2};
  dt_tensor *a = dt_randn(dev, 3, 2, m23);
  dt_tensor *b = dt_ones(dev, DT_FLOAT, 2, m23);
  dt_tensor *c = dt_full(dev, 0.25f, 2, m32);
  static const int64_t iv[6] = {1, 2, 3, 4, 5, 6};
  dt_tensor *ia = dt_from_ints(dev, iv, 2, m23);
  dt_tensor *ib = dt_ones(dev, DT_INT, 2, m23);

  dt_tensor *s = dt_add(a, b);
  dt_tensor *d = dt_sub(s, b);
  dt_tensor *p = dt_mul(d, b);
  dt_tensor *q = dt_div(p, b);
  dt_tensor *mm = dt_matmul(q, c);          /* [2,2] */
  dt_tensor *sc = dt_add_scalar(mm, 1.0f);
  dt_tensor *sm = dt_mul_scalar(sc, 0.5f);
  dt_tensor *ng = dt_neg(sm);
  dt_tensor *ex = dt_exp(ng);
  dt_tensor *lg = dt_log(ex);
  dt_tensor *rl = dt_relu(lg);
  dt_tensor *sg = dt_sigmoid(rl);
  dt_tensor *th = dt_tanh(sg);
  dt_tensor *tot = dt_sum(th);
  dt_tensor *avg = dt_mean(th);
  dt_tensor *rows = dt_sum_dim(a, 1);       /* [2] */
  dt_tensor *flat = dt_reshape(a, 1, (const int64_t[]){6});
  dt_tensor *tr = dt_transpose(a);          /* [3,2] */
  dt_tensor *parts[2] = {a, b};
  dt_tensor *cat = dt_cat(2, parts, 0);     /* [4,3] */
  dt_tensor *gt = dt_greater(a, b);         /* bool */
  dt_tensor *sel = dt_where(gt, a, b);
  dt_tensor *loss = dt_mse_loss(sel, b);

  dt_tensor *isum = dt_add(ia, ib);
  dt_tensor *ibt = dt_transpose(ib);       /* [3,2] */
  dt_tensor *iprod = dt_matmul(ia, ibt);
  dt_tensor *itot = dt_sum(isum);
  dt_tensor *igt = dt_greater(ia, ib);
  dt_tensor *isel = dt_where(igt, ia, ib);

  float f = 0;
  int64_t n = 0;
  dt_read_floats(loss, &f, 1);
  dt_read_ints(itot, &n, 1);
  printf("loss %f, int total %lld, cat rows %lld, transpose %lldx%lld\n", (double)f,
         (long long)n, (long long)dt_dim(cat, 0), (long long)dt_dim(tr, 0),
         (long long)dt_dim(tr, 1));
  int64_t mask[6];
  dt_read_ints(igt, mask, 6);

  dt_tensor *all[] = {a, b, c, ia, ib, s, d, p, q, mm, sc, sm, ng, ex, lg, rl, sg, th, tot,
                      avg, rows, flat, tr, cat, gt, sel, loss, isum, ibt, iprod, itot, igt, isel};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
