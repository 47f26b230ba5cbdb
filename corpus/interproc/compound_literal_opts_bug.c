// provenance: blind round field5
// Options passed as a compound literal to the training entry point; the validation set is
// built on the eval device (host cpu) and fed straight into the model on sim:0.
#include <dt/dt.h>
#include <stdio.h>

struct opts { dt_device dev; dt_device eval_dev; int steps; float lr; };
typedef struct { dt_tensor *w, *b; } linear;

static void lin_init(linear *l, dt_device d, int in, int out) {
  l->w = dt_randn(d, 5, 2, (const int64_t[]){in, out});
  l->b = dt_zeros(d, DT_FLOAT, 1, (const int64_t[]){out});
}

static dt_tensor *lin_fwd(const linear *l, const dt_tensor *x) {
  dt_tensor *mm = dt_matmul(x, l->w); // expect-error: backend-mismatch
  dt_tensor *y = dt_add(mm, l->b);
  dt_free(mm);
  return y;
}

static float validate(const linear *l, const struct opts *o) {
  dt_tensor *vx = dt_ones(o->eval_dev, DT_FLOAT, 2, (const int64_t[]){2, 3});
  dt_tensor *p = lin_fwd(l, vx);
  dt_tensor *hp = dt_to_device(p, dt_cpu());
  dt_tensor *m = dt_mean(hp);
  float v = 0;
  dt_read_floats(m, &v, 1);
  dt_free(m); dt_free(hp); dt_free(p); dt_free(vx);
  return v;
}

static int train(const struct opts *o) {
  linear l;
  lin_init(&l, o->dev, 3, 2);
  for (int s = 0; s < o->steps; s++) {
    dt_tensor *x = dt_ones(o->dev, DT_FLOAT, 2, (const int64_t[]){2, 3});
    dt_tensor *y = lin_fwd(&l, x);
    dt_free(y); dt_free(x);
  }
  printf("val %.3f\n", (double)validate(&l, o));
  dt_free(l.w); dt_free(l.b);
  return 0;
}

int main(void) {
  return train(&(struct opts){ .dev = dt_sim(0), .eval_dev = dt_cpu(), .steps = 2, .lr = 0.1f });
}
