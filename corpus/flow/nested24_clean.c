// provenance: blind round field6
// The same 24-deep nesting, clean but hard: the model is copied by value (struct copy), the
// copy's innermost weight is replaced by a sim:0 tensor and its device field set to sim:0,
// while the original keeps its sim:1 weight.  Each copy is then used only with tensors
// created from its own innermost device field.  Conflating the copy with the original, or
// losing the field 24 levels down, would produce a false mismatch.
#include <dt/dt.h>
#include <stdio.h>

#define N 4
static const int64_t S[1] = {N};

typedef struct lvl00 {
  dt_device dev;
  dt_tensor *t;
} lvl00;

typedef struct lvl01 {
  lvl00 in;
  int tag;
} lvl01;

typedef struct lvl02 {
  lvl01 in;
  int tag;
} lvl02;

typedef struct lvl03 {
  lvl02 in;
  int tag;
} lvl03;

typedef struct lvl04 {
  lvl03 in;
  int tag;
} lvl04;

typedef struct lvl05 {
  lvl04 in;
  int tag;
} lvl05;

typedef struct lvl06 {
  lvl05 in;
  int tag;
} lvl06;

typedef struct lvl07 {
  lvl06 in;
  int tag;
} lvl07;

typedef struct lvl08 {
  lvl07 in;
  int tag;
} lvl08;

typedef struct lvl09 {
  lvl08 in;
  int tag;
} lvl09;

typedef struct lvl10 {
  lvl09 in;
  int tag;
} lvl10;

typedef struct lvl11 {
  lvl10 in;
  int tag;
} lvl11;

typedef struct lvl12 {
  lvl11 in;
  int tag;
  dt_tensor *aux;
} lvl12;

typedef struct lvl13 {
  lvl12 in;
  int tag;
} lvl13;

typedef struct lvl14 {
  lvl13 in;
  int tag;
} lvl14;

typedef struct lvl15 {
  lvl14 in;
  int tag;
} lvl15;

typedef struct lvl16 {
  lvl15 in;
  int tag;
} lvl16;

typedef struct lvl17 {
  lvl16 in;
  int tag;
} lvl17;

typedef struct lvl18 {
  lvl17 in;
  int tag;
} lvl18;

typedef struct lvl19 {
  lvl18 in;
  int tag;
} lvl19;

typedef struct lvl20 {
  lvl19 in;
  int tag;
} lvl20;

typedef struct lvl21 {
  lvl20 in;
  int tag;
} lvl21;

typedef struct lvl22 {
  lvl21 in;
  int tag;
} lvl22;

typedef struct lvl23 {
  lvl22 in;
  int tag;
} lvl23;

static void place(lvl23 *m, dt_device d, float v) {
  m->in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.dev = d;
  m->in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.t = dt_full(d, v, 1, S);
  m->in.in.in.in.in.in.in.in.in.in.in.aux = dt_ones(d, DT_FLOAT, 1, S);
}

static float score(const lvl23 *m) {
  dt_device d = m->in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.dev;
  dt_tensor *x = dt_full(d, 0.5f, 1, S);
  dt_tensor *h = dt_mul(x, m->in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.t);
  dt_tensor *o = dt_add(h, m->in.in.in.in.in.in.in.in.in.in.in.aux);
  dt_tensor *s = dt_sum(o);
  float r = 0.0f;
  dt_read_floats(s, &r, 1);
  dt_free(x);
  dt_free(h);
  dt_free(o);
  dt_free(s);
  return r;
}

int main(void) {
  lvl23 original = {0};
  place(&original, dt_sim(1), 3.0f);
  lvl23 replica = original;
  place(&replica, dt_sim(0), 1.0f);

  float a = score(&original);
  float b = score(&replica);

  /* gather the replica's weight onto the original's device and average */
  dt_tensor *moved = dt_to_device(replica.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.t, original.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.dev);
  dt_tensor *avg = dt_add(moved, original.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.t);
  dt_tensor *half = dt_mul_scalar(avg, 0.5f);
  float v[N];
  dt_read_floats(half, v, N);
  printf("scores %.1f %.1f avg %.1f\n", (double)a, (double)b, (double)v[0]);
  dt_free(half);
  dt_free(avg);
  dt_free(moved);
  dt_free(original.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.t);
  dt_free(original.in.in.in.in.in.in.in.in.in.in.in.aux);
  dt_free(replica.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.t);
  dt_free(replica.in.in.in.in.in.in.in.in.in.in.in.aux);
  return 0;
}
