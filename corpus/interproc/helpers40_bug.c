// provenance: blind round field6
// A device is threaded through 40 nested helpers (a deep "module tree" of wrappers, each
// adding a little work on the way back).  Level 40 creates the activation on the device it
// was given and adds a bias tensor that the caller created on the cpu.  main() runs the
// stack first with the cpu (fine), then with sim:1: for that calling context the add at
// level 40 always fails.  A second chain of 40 device-forwarding helpers returns the device
// it was given; main builds a weight on the result (sim:1) and multiplies it with a sim:0
// tensor.
#include <dt/dt.h>
#include <stdio.h>

#define N 4
static const int64_t S[1] = {N};

typedef struct ctx {
  const dt_tensor *bias;
  float scale;
  int depth;
} ctx;

static dt_tensor *layer40(dt_device d, ctx *c) {
  dt_tensor *x = dt_full(d, c->scale, 1, S);
  dt_tensor *y = dt_add(x, c->bias); // expect-error: backend-mismatch
  c->depth = 40;
  dt_free(x);
  return y;
}
static dt_tensor *layer39(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer40(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 39.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer38(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer39(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 38.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer37(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer38(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 37.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer36(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer37(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 36.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer35(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer36(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 35.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer34(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer35(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 34.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer33(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer34(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 33.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer32(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer33(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 32.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer31(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer32(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 31.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer30(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer31(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 30.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer29(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer30(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 29.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer28(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer29(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 28.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer27(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer28(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 27.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer26(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer27(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 26.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer25(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer26(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 25.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer24(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer25(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 24.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer23(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer24(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 23.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer22(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer23(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 22.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer21(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer22(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 21.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer20(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer21(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 20.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer19(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer20(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 19.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer18(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer19(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 18.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer17(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer18(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 17.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer16(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer17(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 16.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer15(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer16(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 15.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer14(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer15(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 14.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer13(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer14(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 13.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer12(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer13(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 12.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer11(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer12(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 11.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer10(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer11(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 10.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer09(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer10(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 9.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer08(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer09(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 8.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer07(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer08(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 7.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer06(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer07(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 6.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer05(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer06(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 5.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer04(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer05(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 4.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer03(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer04(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 3.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer02(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer03(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 2.0f);
  dt_free(r);
  return o;
}
static dt_tensor *layer01(dt_device d, ctx *c) {
  c->scale *= 1.01f;
  dt_tensor *r = layer02(d, c);
  dt_tensor *o = dt_add_scalar(r, 0.001f * 1.0f);
  dt_free(r);
  return o;
}

static dt_device fwd40(dt_device d) { return d; }
static dt_device fwd39(dt_device d) { return fwd40(d); }
static dt_device fwd38(dt_device d) { return fwd39(d); }
static dt_device fwd37(dt_device d) { return fwd38(d); }
static dt_device fwd36(dt_device d) { return fwd37(d); }
static dt_device fwd35(dt_device d) { return fwd36(d); }
static dt_device fwd34(dt_device d) { return fwd35(d); }
static dt_device fwd33(dt_device d) { return fwd34(d); }
static dt_device fwd32(dt_device d) { return fwd33(d); }
static dt_device fwd31(dt_device d) { return fwd32(d); }
static dt_device fwd30(dt_device d) { return fwd31(d); }
static dt_device fwd29(dt_device d) { return fwd30(d); }
static dt_device fwd28(dt_device d) { return fwd29(d); }
static dt_device fwd27(dt_device d) { return fwd28(d); }
static dt_device fwd26(dt_device d) { return fwd27(d); }
static dt_device fwd25(dt_device d) { return fwd26(d); }
static dt_device fwd24(dt_device d) { return fwd25(d); }
static dt_device fwd23(dt_device d) { return fwd24(d); }
static dt_device fwd22(dt_device d) { return fwd23(d); }
static dt_device fwd21(dt_device d) { return fwd22(d); }
static dt_device fwd20(dt_device d) { return fwd21(d); }
static dt_device fwd19(dt_device d) { return fwd20(d); }
static dt_device fwd18(dt_device d) { return fwd19(d); }
static dt_device fwd17(dt_device d) { return fwd18(d); }
static dt_device fwd16(dt_device d) { return fwd17(d); }
static dt_device fwd15(dt_device d) { return fwd16(d); }
static dt_device fwd14(dt_device d) { return fwd15(d); }
static dt_device fwd13(dt_device d) { return fwd14(d); }
static dt_device fwd12(dt_device d) { return fwd13(d); }
static dt_device fwd11(dt_device d) { return fwd12(d); }
static dt_device fwd10(dt_device d) { return fwd11(d); }
static dt_device fwd09(dt_device d) { return fwd10(d); }
static dt_device fwd08(dt_device d) { return fwd09(d); }
static dt_device fwd07(dt_device d) { return fwd08(d); }
static dt_device fwd06(dt_device d) { return fwd07(d); }
static dt_device fwd05(dt_device d) { return fwd06(d); }
static dt_device fwd04(dt_device d) { return fwd05(d); }
static dt_device fwd03(dt_device d) { return fwd04(d); }
static dt_device fwd02(dt_device d) { return fwd03(d); }
static dt_device fwd01(dt_device d) { return fwd02(d); }

static float total(const dt_tensor *t) {
  dt_tensor *s = dt_sum(t);
  float v = 0.0f;
  dt_read_floats(s, &v, 1);
  dt_free(s);
  return v;
}

int main(void) {
  dt_tensor *bias = dt_ones(dt_cpu(), DT_FLOAT, 1, S);
  ctx c = {bias, 1.0f, 0};
  dt_tensor *host = layer01(dt_cpu(), &c);
  printf("host stack %.4f depth %d\n", (double)total(host), c.depth);
  dt_free(host);

  ctx c2 = {bias, 1.0f, 0};
  dt_tensor *dev = layer01(dt_sim(1), &c2);
  dt_free(dev);

  dt_device e = fwd01(dt_sim(1));
  dt_tensor *w = dt_ones(e, DT_FLOAT, 1, S);
  dt_tensor *x = dt_full(dt_sim(0), 2.0f, 1, S);
  dt_tensor *wx = dt_mul(w, x); // expect-error: device-mismatch
  dt_free(wx);
  dt_free(w);
  dt_free(x);
  dt_free(bias);
  return 0;
}
