// provenance: blind round field6
// Linear regression trained for 12 steps on sim:0.  At step 9 the loop hands the data
// pipeline over to sim:1 ("the second card is free now"), but the weights stay on sim:0.
// The validation at step 10 and the final evaluation after the loop both build their batch
// on the data device, which by then is always sim:1.
#include <dt/dt.h>
#include <stdio.h>

#define STEPS 12
#define DIM 3
#define ROWS 4

typedef struct linreg {
  dt_device dev;
  dt_tensor *w; /* DIM x 1 */
} linreg;

typedef struct loader {
  dt_device dev;
  int cursor;
} loader;

static void linreg_init(linreg *m, dt_device d) {
  const int64_t s[2] = {DIM, 1};
  m->dev = d;
  m->w = dt_zeros(d, DT_FLOAT, 2, s);
}

static dt_tensor *next_x(loader *l) {
  float v[ROWS * DIM];
  const int64_t s[2] = {ROWS, DIM};
  for (int i = 0; i < ROWS * DIM; i++)
    v[i] = (float)((i + l->cursor) % 3);
  l->cursor++;
  return dt_from_floats(l->dev, v, 2, s);
}

static dt_tensor *next_y(loader *l) {
  float v[ROWS];
  const int64_t s[2] = {ROWS, 1};
  for (int i = 0; i < ROWS; i++)
    v[i] = (float)(i + l->cursor) * 0.5f;
  return dt_from_floats(l->dev, v, 2, s);
}

/* closed-form-free "training": w <- w - lr * X^T (X w - y) */
static void step(linreg *m, const dt_tensor *x, const dt_tensor *y) {
  dt_tensor *pred = dt_matmul(x, m->w);
  dt_tensor *err = dt_sub(pred, y);
  dt_tensor *xt = dt_transpose(x);
  dt_tensor *g = dt_matmul(xt, err);
  dt_tensor *gs = dt_mul_scalar(g, 0.01f);
  dt_tensor *nw = dt_sub(m->w, gs);
  dt_free(m->w);
  m->w = nw;
  dt_free(pred);
  dt_free(err);
  dt_free(xt);
  dt_free(g);
  dt_free(gs);
}

int main(void) {
  linreg m;
  linreg_init(&m, dt_sim(0));
  loader l = {dt_sim(0), 0};
  for (int s = 0; s < STEPS; s++) {
    if (s == 9)
      l.dev = dt_sim(1);
    if (s < 9) {
      dt_tensor *x = next_x(&l);
      dt_tensor *y = next_y(&l);
      step(&m, x, y);
      dt_free(x);
      dt_free(y);
    }
    if (s == 10) {
      dt_tensor *vx = next_x(&l);
      dt_tensor *vp = dt_matmul(vx, m.w); // expect-error: device-mismatch
      dt_free(vp);
      dt_free(vx);
    }
  }
  dt_tensor *ex = next_x(&l);
  dt_tensor *ey = next_y(&l);
  dt_tensor *ep = dt_matmul(ex, m.w); // expect-error: device-mismatch
  dt_tensor *loss = dt_mse_loss(ep, ey);
  float v = 0.0f;
  dt_read_floats(loss, &v, 1);
  printf("final loss %.4f\n", (double)v);
  dt_free(loss);
  dt_free(ep);
  dt_free(ex);
  dt_free(ey);
  dt_free(m.w);
  return 0;
}
