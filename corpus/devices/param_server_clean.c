// provenance: blind round field5
// Parameter server on the host; workers on sim:0 and sim:1 pull, compute, and push back
// after moving the update to the server device (dt_device_of the server weights).
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *w; int version; } server;
typedef struct { dt_device dev; int id; } worker;

static dt_tensor *pull(const server *s, const worker *wk) { return dt_to_device(s->w, wk->dev); }

static dt_tensor *compute_update(const worker *wk, const dt_tensor *w) {
  dt_tensor *x = dt_full(wk->dev, (float)(wk->id + 1), 2, (const int64_t[]){2, 4});
  dt_tensor *xt = dt_transpose(x);
  dt_tensor *h = dt_matmul(x, w);
  dt_tensor *u = dt_matmul(xt, h);
  dt_free(h); dt_free(xt); dt_free(x);
  return u;
}

static void push(server *s, const dt_tensor *upd) {
  dt_tensor *hu = dt_to_device(upd, dt_device_of(s->w));
  dt_tensor *scaled = dt_mul_scalar(hu, 0.01f);
  dt_free(hu);
  dt_tensor *nw = dt_sub(s->w, scaled);
  dt_free(scaled);
  dt_free(s->w);
  s->w = nw;
  s->version++;
}

int main(void) {
  server s = { dt_randn(dt_cpu(), 9, 2, (const int64_t[]){4, 4}), 0 };
  worker ws[2] = { { dt_sim(0), 0 }, { dt_sim(1), 1 } };
  for (int round = 0; round < 2; round++)
    for (const worker *wk = ws; wk < ws + 2; wk++) {
      dt_tensor *local = pull(&s, wk);
      dt_tensor *u = compute_update(wk, local);
      push(&s, u);
      dt_free(u); dt_free(local);
    }
  printf("v%d\n", s.version);
  dt_free(s.w);
  return 0;
}
