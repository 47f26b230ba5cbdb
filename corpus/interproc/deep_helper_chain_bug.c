// corpus/interproc/deep_helper_chain_bug.c — a device is passed down 48 nested helpers; the
// innermost adds a tensor made on that device to a bias the caller made on the cpu. main runs
// the chain with the cpu (passes) and with sim:1: for that calling context the add fails on
// every path, an error. No depth of calls below the analysis budget may lose the device.
#include <stdio.h>

#include <dt/dt.h>

static const dt_tensor *g_bias;

static dt_tensor *level48(dt_device d) {
  dt_tensor *x = dt_ones(d, DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *y = dt_add(x, g_bias); // expect-error: backend-mismatch
  dt_free(x);
  return y;
}
static dt_tensor *level47(dt_device d) { return level48(d); }
static dt_tensor *level46(dt_device d) { return level47(d); }
static dt_tensor *level45(dt_device d) { return level46(d); }
static dt_tensor *level44(dt_device d) { return level45(d); }
static dt_tensor *level43(dt_device d) { return level44(d); }
static dt_tensor *level42(dt_device d) { return level43(d); }
static dt_tensor *level41(dt_device d) { return level42(d); }
static dt_tensor *level40(dt_device d) { return level41(d); }
static dt_tensor *level39(dt_device d) { return level40(d); }
static dt_tensor *level38(dt_device d) { return level39(d); }
static dt_tensor *level37(dt_device d) { return level38(d); }
static dt_tensor *level36(dt_device d) { return level37(d); }
static dt_tensor *level35(dt_device d) { return level36(d); }
static dt_tensor *level34(dt_device d) { return level35(d); }
static dt_tensor *level33(dt_device d) { return level34(d); }
static dt_tensor *level32(dt_device d) { return level33(d); }
static dt_tensor *level31(dt_device d) { return level32(d); }
static dt_tensor *level30(dt_device d) { return level31(d); }
static dt_tensor *level29(dt_device d) { return level30(d); }
static dt_tensor *level28(dt_device d) { return level29(d); }
static dt_tensor *level27(dt_device d) { return level28(d); }
static dt_tensor *level26(dt_device d) { return level27(d); }
static dt_tensor *level25(dt_device d) { return level26(d); }
static dt_tensor *level24(dt_device d) { return level25(d); }
static dt_tensor *level23(dt_device d) { return level24(d); }
static dt_tensor *level22(dt_device d) { return level23(d); }
static dt_tensor *level21(dt_device d) { return level22(d); }
static dt_tensor *level20(dt_device d) { return level21(d); }
static dt_tensor *level19(dt_device d) { return level20(d); }
static dt_tensor *level18(dt_device d) { return level19(d); }
static dt_tensor *level17(dt_device d) { return level18(d); }
static dt_tensor *level16(dt_device d) { return level17(d); }
static dt_tensor *level15(dt_device d) { return level16(d); }
static dt_tensor *level14(dt_device d) { return level15(d); }
static dt_tensor *level13(dt_device d) { return level14(d); }
static dt_tensor *level12(dt_device d) { return level13(d); }
static dt_tensor *level11(dt_device d) { return level12(d); }
static dt_tensor *level10(dt_device d) { return level11(d); }
static dt_tensor *level9(dt_device d) { return level10(d); }
static dt_tensor *level8(dt_device d) { return level9(d); }
static dt_tensor *level7(dt_device d) { return level8(d); }
static dt_tensor *level6(dt_device d) { return level7(d); }
static dt_tensor *level5(dt_device d) { return level6(d); }
static dt_tensor *level4(dt_device d) { return level5(d); }
static dt_tensor *level3(dt_device d) { return level4(d); }
static dt_tensor *level2(dt_device d) { return level3(d); }
static dt_tensor *level1(dt_device d) { return level2(d); }

int main(void) {
  dt_tensor *bias = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){2});
  g_bias = bias;
  dt_tensor *a = level1(dt_cpu());
  dt_tensor *b = level1(dt_sim(1));
  printf("%p %p\n", (void *)a, (void *)b);
  dt_free(a);
  dt_free(bias);
  return 0;
}
