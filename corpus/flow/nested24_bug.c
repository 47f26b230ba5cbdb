// provenance: blind round field6
// A configuration/model object nested 24 structs deep (lvl23 wraps lvl22 ... wraps lvl00),
// the way generated "module" hierarchies look.  The innermost level holds the device and the
// weight; level 12 holds an auxiliary tensor.  init_model() places the weight (depth 23,
// through a pointer walk down the levels) on sim:1 and the auxiliary tensor on sim:0;
// forward() adds them.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

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

static lvl00 *innermost(lvl23 *m) {
  return &m->in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in;
}

static lvl12 *middle(lvl23 *m) {
  return &m->in.in.in.in.in.in.in.in.in.in.in;
}

static void init_model(lvl23 *m, dt_device weight_dev, dt_device aux_dev) {
  memset(m, 0, sizeof *m);
  lvl00 *core = innermost(m);
  core->dev = weight_dev;
  core->t = dt_full(core->dev, 2.0f, 1, S);
  middle(m)->aux = dt_ones(aux_dev, DT_FLOAT, 1, S);
  m->tag = 23;
  m->in.in.in.in.in.in.in.in.in.in.in.tag = 12;
}

static dt_tensor *forward(const lvl23 *m) {
  const dt_tensor *w = m->in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.t;
  const dt_tensor *a = m->in.in.in.in.in.in.in.in.in.in.in.aux;
  return dt_add(w, a); // expect-error: device-mismatch
}

static dt_tensor *forward_ok(const lvl23 *m) {
  const lvl00 *core = &m->in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in.in;
  dt_tensor *x = dt_ones(core->dev, DT_FLOAT, 1, S);
  dt_tensor *y = dt_mul(x, core->t);
  dt_free(x);
  return y;
}

int main(void) {
  lvl23 model;
  init_model(&model, dt_sim(1), dt_sim(0));
  dt_tensor *ok = forward_ok(&model);
  float v[N];
  dt_read_floats(ok, v, N);
  printf("tag %d/%d ok %.1f\n", model.tag, model.in.in.in.in.in.in.in.in.in.in.in.tag, (double)v[0]);
  dt_tensor *bad = forward(&model);
  dt_free(bad);
  dt_free(ok);
  dt_free(innermost(&model)->t);
  dt_free(middle(&model)->aux);
  return 0;
}
