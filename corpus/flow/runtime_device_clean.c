// provenance: blind round field7
/* runtime_device_clean.c — the device is chosen at run time (argv, then env, then a default),
 * and every tensor of the run is created on it or moved to it before use. A reference model is
 * also built on the host with the same helper, and the two are compared through host reads.
 * Branches on the same flag are correlated: when the batch is staged on the host, it is moved
 * before use. Correct on every input. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IN 4
#define HID 6
#define OUT 3
#define ROWS 5

typedef enum { PLACE_CPU, PLACE_SIM0, PLACE_SIM1 } placement;

typedef struct {
  dt_device dev;
  dt_tensor *l1, *l2, *bias;
} net;

typedef struct {
  placement where;
  int stage_on_host;
  int repeats;
} settings;

static placement parse_placement(const char *s) {
  if (!s) return PLACE_SIM0;
  if (!strcmp(s, "cpu")) return PLACE_CPU;
  if (!strcmp(s, "sim1")) return PLACE_SIM1;
  return PLACE_SIM0;
}

static dt_device device_for(placement p) {
  switch (p) {
  case PLACE_CPU: return dt_cpu();
  case PLACE_SIM0: return dt_sim(0);
  case PLACE_SIM1: return dt_sim(1);
  }
  return dt_cpu();
}

static settings read_settings(int argc, char **argv) {
  settings s;
  const char *where = argc > 1 ? argv[1] : getenv("NET_DEVICE");
  s.where = parse_placement(where);
  s.stage_on_host = getenv("STAGE_ON_HOST") != NULL || (argc > 2 && !strcmp(argv[2], "stage"));
  s.repeats = argc > 3 ? atoi(argv[3]) : 2;
  if (s.repeats < 1 || s.repeats > 8) s.repeats = 2;
  return s;
}

static float weight_value(int i, int salt) { return 0.1f * (float)(((i + 1) * (salt + 3)) % 7) - 0.3f; }

static void net_build(net *n, dt_device dev) {
  float w1[IN * HID], w2[HID * OUT], b[OUT];
  for (int i = 0; i < IN * HID; ++i) w1[i] = weight_value(i, 1);
  for (int i = 0; i < HID * OUT; ++i) w2[i] = weight_value(i, 2);
  for (int i = 0; i < OUT; ++i) b[i] = 0.05f * (float)i;
  const int64_t s1[] = {IN, HID}, s2[] = {HID, OUT}, s3[] = {OUT};
  n->dev = dev;
  n->l1 = dt_from_floats(dev, w1, 2, s1);
  n->l2 = dt_from_floats(dev, w2, 2, s2);
  n->bias = dt_from_floats(dev, b, 1, s3);
}

static void net_free(net *n) {
  dt_free(n->l1);
  dt_free(n->l2);
  dt_free(n->bias);
}

static dt_tensor *net_run(const net *n, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, n->l1);
  dt_tensor *a = dt_sigmoid(h);
  dt_tensor *o = dt_matmul(a, n->l2);
  dt_tensor *y = dt_add(o, n->bias);
  dt_free(h);
  dt_free(a);
  dt_free(o);
  return y;
}

static dt_tensor *load_batch(dt_device dev, int k) {
  float buf[ROWS * IN];
  for (int i = 0; i < ROWS * IN; ++i) buf[i] = (float)((i * 5 + k) % 8) / 8.0f;
  const int64_t s[] = {ROWS, IN};
  return dt_from_floats(dev, buf, 2, s);
}

static float max_abs_diff(const dt_tensor *a, const dt_tensor *b) {
  float x[ROWS * OUT], y[ROWS * OUT];
  if (dt_read_floats(a, x, ROWS * OUT) || dt_read_floats(b, y, ROWS * OUT)) return -1.0f;
  float m = 0.0f;
  for (int i = 0; i < ROWS * OUT; ++i) {
    float d = x[i] - y[i];
    if (d < 0) d = -d;
    if (d > m) m = d;
  }
  return m;
}

/* moving a whole net keeps it self-consistent; used to hand the net back to the host */
static void net_to(net *n, dt_device d) {
  dt_tensor *a = dt_to_device(n->l1, d), *b = dt_to_device(n->l2, d), *c = dt_to_device(n->bias, d);
  net_free(n);
  n->l1 = a;
  n->l2 = b;
  n->bias = c;
  n->dev = d;
}

int main(int argc, char **argv) {
  settings s = read_settings(argc, argv);
  dt_device dev = device_for(s.where);
  char name[32];
  dt_device_name(dev, name, sizeof name);

  net ref, run;
  net_build(&ref, dt_cpu());
  net_build(&run, dev);

  float worst = 0.0f;
  for (int k = 0; k < s.repeats; ++k) {
    dt_tensor *staged = load_batch(s.stage_on_host ? dt_cpu() : dev, k);
    dt_tensor *x = staged;
    if (s.stage_on_host) x = dt_to_device(staged, dev);
    dt_tensor *y = net_run(&run, x);

    dt_tensor *xr = load_batch(dt_cpu(), k);
    dt_tensor *yr = net_run(&ref, xr);
    dt_tensor *yh = dt_to_device(y, dt_cpu());
    dt_tensor *diff = dt_sub(yh, yr);
    dt_tensor *sq = dt_mul(diff, diff);
    dt_tensor *tot = dt_sum(sq);
    float t = 0.0f;
    dt_read_floats(tot, &t, 1);
    float m = max_abs_diff(y, yr);
    if (m > worst) worst = m;
    printf("batch %d on %s: sq err %.6f\n", k, name, t);

    if (s.stage_on_host) dt_free(x);
    dt_free(staged);
    dt_free(y);
    dt_free(xr);
    dt_free(yr);
    dt_free(yh);
    dt_free(diff);
    dt_free(sq);
    dt_free(tot);
  }
  net_to(&run, dt_cpu());
  {
    dt_tensor *x = load_batch(run.dev, 0);
    dt_tensor *y = net_run(&run, x);
    dt_tensor *yr = net_run(&ref, x);
    printf("after moving back to the host: %g\n", max_abs_diff(y, yr));
    dt_free(x);
    dt_free(y);
    dt_free(yr);
  }
  printf("max deviation from host reference: %g\n", worst);
  net_free(&ref);
  net_free(&run);
  return 0;
}
