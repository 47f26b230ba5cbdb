// provenance: blind round field6
// memcpy / memmove / memset over device values, handle arrays and structs holding them.
// Each step overwrites what a checker that ignores the memory functions would still
// believe: the device starts as sim:0 and is overwritten by memcpy with sim:1; the weight
// pair is swapped through a temporary with memcpy (handle and device travel together);
// a handle array is shifted with memmove so that its two live entries are on the same
// device; a struct is cleared with memset and refilled.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

#define N 4
static const int64_t S[1] = {N};

typedef struct placed {
  dt_tensor *t;
  dt_device dev;
} placed;

static placed make_placed(dt_device d, float v) {
  placed p;
  p.t = dt_full(d, v, 1, S);
  p.dev = d;
  return p;
}

int main(void) {
  /* 1. a device value overwritten through memcpy */
  dt_device dev = dt_sim(0);
  const dt_device eval_dev = dt_sim(1);
  memcpy(&dev, &eval_dev, sizeof dev);
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 1, S);
  dt_tensor *y = dt_full(dt_sim(1), 2.0f, 1, S);
  dt_tensor *xy = dt_add(x, y);

  /* 2. swap two placed weights through a temporary */
  placed a = make_placed(dt_cpu(), 1.0f);
  placed b = make_placed(dt_sim(0), 3.0f);
  placed tmp;
  memcpy(&tmp, &a, sizeof tmp);
  memcpy(&a, &b, sizeof a);
  memcpy(&b, &tmp, sizeof b);
  dt_tensor *ga = dt_ones(a.dev, DT_FLOAT, 1, S);   /* sim:0 */
  dt_tensor *ua = dt_mul(a.t, ga);
  dt_tensor *gb = dt_ones(b.dev, DT_FLOAT, 1, S);   /* cpu */
  dt_tensor *ub = dt_mul(b.t, gb);

  /* 3. a handle array: [cpu, sim:1, sim:1] shifted left by one -> [sim:1, sim:1, sim:1] */
  dt_tensor *win[3];
  win[0] = dt_zeros(dt_cpu(), DT_FLOAT, 1, S);
  win[1] = dt_full(dt_sim(1), 4.0f, 1, S);
  win[2] = dt_full(dt_sim(1), 5.0f, 1, S);
  dt_tensor *dropped = win[0];
  memmove(win, win + 1, 2 * sizeof win[0]);
  win[2] = dt_full(dt_sim(1), 6.0f, 1, S);
  dt_tensor *w01 = dt_add(win[0], win[1]);
  dt_tensor *w012 = dt_add(w01, win[2]);
  dt_tensor *wxy = dt_sub(w012, xy);

  /* 4. memset a struct, then refill it */
  placed c;
  memset(&c, 0, sizeof c);
  c.dev = b.dev;
  c.t = dt_full(c.dev, 7.0f, 1, S);
  dt_tensor *cb = dt_add(c.t, ub);

  float v[N];
  dt_read_floats(wxy, v, N);
  printf("wxy %.1f\n", (double)v[0]);
  dt_read_floats(cb, v, N);
  printf("cb %.1f\n", (double)v[0]);
  dt_read_floats(ua, v, N);
  printf("ua %.1f\n", (double)v[0]);

  dt_tensor *all[] = {x, y, xy, a.t, b.t, ga, ua, gb, ub, dropped, win[0], win[1], win[2],
                      w01, w012, wxy, c.t, cb};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    dt_free(all[i]);
  return 0;
}
