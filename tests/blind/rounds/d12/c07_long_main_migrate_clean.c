// provenance: blind round d12
// run-env: TRAIN_DEVICE=sim0 MIGRATE_TO=sim1 ACCUM=3 CLIP=0.5
/* Autoencoder training written as one long main: configuration from the environment,
 * synthetic data, gradient accumulation, global-norm clipping, a cosine schedule, and a
 * mid-run migration of every parameter and optimizer buffer to another device
 * (MIGRATE_TO), as when a job is rescheduled onto a different accelerator. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define NP 4
#define IN 6
#define CODE 3
#define BATCH 8

static dt_device dev_from(const char *s, dt_device dflt) {
  if (!s) return dflt;
  if (!strcmp(s, "cpu")) return dt_cpu();
  if (!strcmp(s, "sim0")) return dt_sim(0);
  if (!strcmp(s, "sim1")) return dt_sim(1);
  return dflt;
}

int main(void) {
  dt_device base = dev_from(getenv("TRAIN_DEVICE"), dt_cpu());
  dt_device target = dev_from(getenv("MIGRATE_TO"), base);
  int accum = getenv("ACCUM") ? atoi(getenv("ACCUM")) : 2;
  float clip = getenv("CLIP") ? (float)atof(getenv("CLIP")) : 1.0f;
  const char *sched = getenv("SCHEDULE") ? getenv("SCHEDULE") : "cosine";
  if (accum < 1) accum = 1;
  int steps = 16;
  int migrate_at = steps / 2;
  float lr0 = 0.3f;

  dt_device ad = dt_autodiff(base);
  int64_t shapes[NP][2] = {{IN, CODE}, {1, CODE}, {CODE, IN}, {1, IN}};
  dt_tensor *params[NP];
  dt_tensor *accbuf[NP];
  dt_tensor *velocity[NP];
  for (int i = 0; i < NP; i++) {
    dt_tensor *init;
    if (i % 2 == 0) {
      dt_tensor *r = dt_randn(base, 500 + i, 2, shapes[i]);
      init = dt_mul_scalar(r, 0.4f);
      dt_free(r);
    } else {
      init = dt_zeros(base, DT_FLOAT, 2, shapes[i]);
    }
    params[i] = dt_require_grad(dt_from_inner(ad, init));
    accbuf[i] = dt_zeros(base, DT_FLOAT, 2, shapes[i]);
    velocity[i] = dt_zeros(base, DT_FLOAT, 2, shapes[i]);
    dt_free(init);
  }

  float data[64][IN];
  for (int n = 0; n < 64; n++) {
    float a = sinf(0.3f * n), b = cosf(0.17f * n);
    for (int j = 0; j < IN; j++) data[n][j] = (j % 2 ? a : b) * (1.0f + 0.1f * j);
  }

  int cursor = 0;
  float last_loss = 0.0f;
  for (int step = 0; step < steps; step++) {
    if (step == migrate_at && !dt_device_equal(target, base)) {
      char from[32], to[32];
      dt_device_name(base, from, sizeof from);
      dt_device_name(target, to, sizeof to);
      printf("migrating %s -> %s at step %d\n", from, to, step);
      dt_device new_ad = dt_autodiff(target);
      for (int i = 0; i < NP; i++) {
        dt_tensor *moved = dt_to_device(params[i], new_ad);
        dt_tensor *det = dt_detach(moved);
        dt_tensor *inner = dt_inner(det);
        dt_free(params[i]);
        params[i] = dt_require_grad(dt_from_inner(new_ad, inner));
        dt_free(moved);
        dt_free(det);
        dt_free(inner);
        dt_tensor *a2 = dt_to_device(accbuf[i], target);
        dt_tensor *v2 = dt_to_device(velocity[i], target);
        dt_free(accbuf[i]);
        dt_free(velocity[i]);
        accbuf[i] = a2;
        velocity[i] = v2;
      }
      base = target;
      ad = new_ad;
    }

    float step_loss = 0.0f;
    for (int micro = 0; micro < accum; micro++) {
      float xb[BATCH * IN];
      for (int b = 0; b < BATCH; b++) {
        memcpy(&xb[b * IN], data[cursor], sizeof data[cursor]);
        cursor = (cursor + 1) % 64;
      }
      int64_t xs[2] = {BATCH, IN};
      dt_tensor *x = dt_from_floats(ad, xb, 2, xs);
      dt_tensor *h = dt_matmul(x, params[0]);
      dt_tensor *hb = dt_add(h, params[1]);
      dt_tensor *code = dt_tanh(hb);
      dt_tensor *r = dt_matmul(code, params[2]);
      dt_tensor *rb = dt_add(r, params[3]);
      dt_tensor *loss = dt_mse_loss(rb, x);
      float lv = 0.0f;
      dt_read_floats(loss, &lv, 1);
      step_loss += lv / accum;
      if (dt_backward(loss) != 0) {
        fprintf(stderr, "backward: %s\n", dt_last_error());
        return 2;
      }
      for (int i = 0; i < NP; i++) {
        dt_tensor *g = dt_grad(params[i]);
        if (!g) continue;
        dt_tensor *n = dt_add(accbuf[i], g);
        dt_free(accbuf[i]);
        accbuf[i] = n;
        dt_free(g);
      }
      dt_free(x); dt_free(h); dt_free(hb); dt_free(code);
      dt_free(r); dt_free(rb); dt_free(loss);
    }
    last_loss = step_loss;

    /* global norm over the accumulated gradients, computed on the device */
    float sq_total = 0.0f;
    for (int i = 0; i < NP; i++) {
      dt_tensor *avg = dt_mul_scalar(accbuf[i], 1.0f / accum);
      dt_tensor *sq = dt_mul(avg, avg);
      dt_tensor *s = dt_sum(sq);
      float v = 0.0f;
      dt_read_floats(s, &v, 1);
      sq_total += v;
      dt_free(avg); dt_free(sq); dt_free(s);
    }
    float norm = sqrtf(sq_total);
    float scale = norm > clip ? clip / norm : 1.0f;

    float lr;
    switch (sched[0]) {
      case 'c':
        lr = lr0 * 0.5f * (1.0f + cosf(3.14159265f * step / steps));
        break;
      case 'l':
        lr = lr0 * (1.0f - (float)step / steps);
        break;
      case 's':
        lr = step < steps / 2 ? lr0 : lr0 * 0.1f;
        break;
      default:
        lr = lr0;
        break;
    }

    for (int i = 0; i < NP; i++) {
      dt_tensor *g = dt_mul_scalar(accbuf[i], scale / accum);
      dt_tensor *v9 = dt_mul_scalar(velocity[i], 0.8f);
      dt_tensor *vn = dt_add(v9, g);
      dt_tensor *st = dt_mul_scalar(vn, lr);
      dt_tensor *cur = dt_inner(params[i]);
      dt_tensor *nx = dt_sub(cur, st);
      dt_free(params[i]);
      params[i] = dt_require_grad(dt_from_inner(ad, nx));
      dt_free(velocity[i]);
      velocity[i] = vn;
      dt_tensor *z = dt_zeros(base, DT_FLOAT, 2, shapes[i]);
      dt_free(accbuf[i]);
      accbuf[i] = z;
      dt_free(g); dt_free(v9); dt_free(st); dt_free(cur); dt_free(nx);
    }
    printf("step %2d loss %.5f norm %.4f lr %.4f\n", step, step_loss, norm, lr);
  }

  /* final check on host copies of the weights */
  float wsum = 0.0f;
  for (int i = 0; i < NP; i++) {
    dt_tensor *in = dt_inner(params[i]);
    dt_tensor *h = dt_to_device(in, dt_cpu());
    dt_tensor *s = dt_sum(h);
    float v = 0.0f;
    dt_read_floats(s, &v, 1);
    wsum += v;
    dt_free(in); dt_free(h); dt_free(s);
  }
  printf("final loss %.5f, weight sum %.4f\n", last_loss, wsum);
  for (int i = 0; i < NP; i++) {
    dt_free(params[i]);
    dt_free(accbuf[i]);
    dt_free(velocity[i]);
  }
  return 0;
}
