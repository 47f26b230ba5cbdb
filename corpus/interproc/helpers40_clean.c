// provenance: blind round field6
// 40 nested helpers each change the device they pass on: odd levels wrap it in autodiff,
// even levels strip the wrapper again (dt_inner_device).  Level 40 receives a plain device
// (20 wraps, 20 strips) and builds the output there; the ordinal picked by main (sim:1) is
// kept all the way down.  On the way back, level 20 (which holds autodiff<sim:1>) records
// a tracked tensor in the context; main combines it with a tensor made on
// dt_autodiff(dt_sim(1)).  Clean: the parity and the ordinal must both survive 40 calls.
#include <dt/dt.h>
#include <stdio.h>

#define N 3
static const int64_t S[1] = {N};

typedef struct trace {
  dt_tensor *mid;   /* set by level 20, on autodiff<sim:1> */
  int levels;
} trace;

static dt_tensor *level40(dt_device d, trace *t) {
  t->levels++;
  return dt_full(dt_inner_device(d), 40.0f, 1, S);
}

static dt_tensor *level39(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level40(next, t);
}

static dt_tensor *level38(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level39(next, t);
}

static dt_tensor *level37(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level38(next, t);
}

static dt_tensor *level36(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level37(next, t);
}

static dt_tensor *level35(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level36(next, t);
}

static dt_tensor *level34(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level35(next, t);
}

static dt_tensor *level33(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level34(next, t);
}

static dt_tensor *level32(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level33(next, t);
}

static dt_tensor *level31(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level32(next, t);
}

static dt_tensor *level30(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level31(next, t);
}

static dt_tensor *level29(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level30(next, t);
}

static dt_tensor *level28(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level29(next, t);
}

static dt_tensor *level27(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level28(next, t);
}

static dt_tensor *level26(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level27(next, t);
}

static dt_tensor *level25(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level26(next, t);
}

static dt_tensor *level24(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level25(next, t);
}

static dt_tensor *level23(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level24(next, t);
}

static dt_tensor *level22(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level23(next, t);
}

static dt_tensor *level21(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level22(next, t);
}

static dt_tensor *level20(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  t->mid = dt_ones(d, DT_FLOAT, 1, S);
  return level21(next, t);
}

static dt_tensor *level19(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level20(next, t);
}

static dt_tensor *level18(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level19(next, t);
}

static dt_tensor *level17(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level18(next, t);
}

static dt_tensor *level16(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level17(next, t);
}

static dt_tensor *level15(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level16(next, t);
}

static dt_tensor *level14(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level15(next, t);
}

static dt_tensor *level13(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level14(next, t);
}

static dt_tensor *level12(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level13(next, t);
}

static dt_tensor *level11(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level12(next, t);
}

static dt_tensor *level10(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level11(next, t);
}

static dt_tensor *level09(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level10(next, t);
}

static dt_tensor *level08(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level09(next, t);
}

static dt_tensor *level07(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level08(next, t);
}

static dt_tensor *level06(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level07(next, t);
}

static dt_tensor *level05(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level06(next, t);
}

static dt_tensor *level04(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level05(next, t);
}

static dt_tensor *level03(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level04(next, t);
}

static dt_tensor *level02(dt_device d, trace *t) {
  dt_device next = dt_inner_device(d);
  t->levels++;
  return level03(next, t);
}

static dt_tensor *level01(dt_device d, trace *t) {
  dt_device next = dt_autodiff(d);
  t->levels++;
  return level02(next, t);
}

int main(void) {
  trace t = {NULL, 0};
  dt_tensor *out = level01(dt_sim(1), &t);
  dt_tensor *ref = dt_ones(dt_sim(1), DT_FLOAT, 1, S);
  dt_tensor *sum = dt_add(out, ref);
  dt_tensor *ad = dt_ones(dt_autodiff(dt_sim(1)), DT_FLOAT, 1, S);
  dt_tensor *mix = dt_mul(t.mid, ad);
  dt_tensor *m = dt_mean(mix);
  float v = 0.0f, w[N];
  dt_read_floats(m, &v, 1);
  dt_read_floats(sum, w, N);
  printf("levels %d mean %.2f out %.1f\n", t.levels, (double)v, (double)w[0]);
  dt_free(m);
  dt_free(mix);
  dt_free(ad);
  dt_free(sum);
  dt_free(ref);
  dt_free(out);
  dt_free(t.mid);
  return 0;
}
