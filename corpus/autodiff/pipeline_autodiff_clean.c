// provenance: blind round field
// Two pipeline stages on autodiff<sim:0> and autodiff<sim:1>; activations moved explicitly; the
// gradient flows back across the move to stage 0's weights.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device dev; dt_tensor *w; } stage;

static dt_tensor *stage_forward(const stage *s, const dt_tensor *x) {
  dt_tensor *xin = dt_to_device(x, s->dev);
  dt_tensor *h = dt_matmul(xin, s->w);
  dt_free(xin);
  return h;
}

int main(void) {
  stage st[2];
  for (int i = 0; i < 2; i++) {
    st[i].dev = dt_autodiff(dt_sim(i));
    st[i].w = dt_require_grad(dt_full(st[i].dev, 0.5f, 2, (const int64_t[]){2, 2}));
  }
  dt_tensor *x = dt_from_floats(st[0].dev, (const float[]){1, 2}, 2, (const int64_t[]){1, 2});
  dt_tensor *h = stage_forward(&st[0], x);   /* [1.5, 1.5] */
  dt_tensor *y = stage_forward(&st[1], h);   /* [1.5, 1.5] */
  dt_tensor *loss = dt_sum(y);               /* 3 */
  dt_backward(loss);
  dt_tensor *g0 = dt_grad(st[0].w);
  float g[4], l;
  dt_read_floats(g0, g, 4);
  dt_read_floats(loss, &l, 1);
  /* dL/dW0[i][j] = x[i] * sum_k W1[j][k] = x[i] * 1.0 */
  printf("loss %.2f grad0 %.2f %.2f %.2f %.2f\n", l, g[0], g[1], g[2], g[3]);
  int ok = l == 3.0f && g[0] == 1.0f && g[1] == 1.0f && g[2] == 2.0f && g[3] == 2.0f;
  dt_free(g0); dt_free(loss); dt_free(y); dt_free(h); dt_free(x);
  dt_free(st[0].w); dt_free(st[1].w);
  return ok ? 0 : 1;
}
