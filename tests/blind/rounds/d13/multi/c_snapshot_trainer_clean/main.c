/* Trainer with named host snapshots: trains on TRAIN_DEVICE, switches the model and its Adam
 * state to SWITCH_DEVICE half-way, keeps the best snapshot by validation loss, and finally
 * restores the best snapshot into a fresh model on EVAL_DEVICE for the test pass.
 *
 *   env: TRAIN_DEVICE, SWITCH_DEVICE, EVAL_DEVICE (cpu|sim0|sim1|cuda)
 *   usage: main [EPOCHS] [SNAPSHOT_EVERY]
 */
// run-args: 8 2
// run-env: TRAIN_DEVICE=cpu SWITCH_DEVICE=sim1 EVAL_DEVICE=sim0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ckpt.h"
#include "device.h"
#include "model.h"
#include "optim.h"

#define BATCH 10
#define NIN 4
#define NOUT 2

static const int64_t WIDTHS[] = {NIN, 12, 12, NOUT};

static void data(int k, float *x, float *y) {
  for (int r = 0; r < BATCH; r++) {
    for (int c = 0; c < NIN; c++) x[r * NIN + c] = sinf(0.17f * (float)(k * BATCH + r) * (float)(c + 1));
    y[r * NOUT] = 0.5f * x[r * NIN] + 0.25f;
    y[r * NOUT + 1] = x[r * NIN + 1] * x[r * NIN + 2];
  }
}

static float loss_on(const Model *m, int k, int train, Adam *opt, Model *mm) {
  float x[BATCH * NIN], y[BATCH * NOUT], lv = 0.0f;
  data(k, x, y);
  dt_tensor *xt = dt_from_floats(m->ad, x, 2, (const int64_t[]){BATCH, NIN});
  dt_tensor *yt = dt_from_floats(m->ad, y, 2, (const int64_t[]){BATCH, NOUT});
  dt_tensor *out = model_forward(m, xt);
  dt_tensor *loss = dt_mse_loss(out, yt);
  dt_tensor *li = dt_inner(loss);
  dt_read_floats(li, &lv, 1);
  if (train) {
    dt_backward(loss);
    adam_step(opt, mm);
  }
  dt_free(li);
  dt_free(loss);
  dt_free(out);
  dt_free(xt);
  dt_free(yt);
  return lv;
}

int main(int argc, char **argv) {
  int epochs = argc > 1 ? atoi(argv[1]) : 6;
  int every = argc > 2 ? atoi(argv[2]) : 2;
  if (every < 1) every = 1;
  dt_device train_dev = device_from_env("TRAIN_DEVICE", dt_sim(0));
  dt_device switch_dev = device_from_env("SWITCH_DEVICE", train_dev);
  dt_device eval_dev = device_from_env("EVAL_DEVICE", dt_cpu());

  Model model;
  Adam opt;
  model_create(&model, train_dev, WIDTHS, 3);
  adam_create(&opt, &model, 0.02f);
  printf("training on %s\n", device_str(model.ad));

  for (int e = 1; e <= epochs; e++) {
    if (e == epochs / 2 + 1 && !dt_device_equal(switch_dev, dt_inner_device(model.ad))) {
      model_to(&model, switch_dev);
      adam_to(&opt, switch_dev);
      printf("epoch %d: switched to %s\n", e, device_str(model.ad));
    }
    float tl = 0.0f;
    for (int s = 0; s < 6; s++) tl += loss_on(&model, e * 10 + s, 1, &opt, &model);
    float vl = 0.0f;
    for (int s = 0; s < 2; s++) vl += loss_on(&model, 900 + s, 0, NULL, NULL);
    printf("epoch %d train %.4f val %.4f\n", e, tl / 6.0f, vl / 2.0f);
    if (e % every == 0) {
      char name[32];
      snprintf(name, sizeof name, "epoch-%d", e);
      if (ckpt_store(name, &model, vl) != 0) fprintf(stderr, "snapshot table full\n");
    }
  }

  const char *best = ckpt_best();
  if (!best) {
    printf("no snapshot taken\n");
  } else {
    Model test;
    model_create(&test, eval_dev, WIDTHS, 3);
    if (ckpt_restore(best, &test) != 0) {
      fprintf(stderr, "cannot restore %s\n", best);
      return 1;
    }
    float t = 0.0f;
    for (int s = 0; s < 3; s++) t += loss_on(&test, 2000 + s, 0, NULL, NULL);
    printf("best %s on %s: test %.4f\n", best, device_str(test.ad), t / 3.0f);
    model_destroy(&test);
  }
  ckpt_clear();
  adam_destroy(&opt);
  model_destroy(&model);
  return 0;
}
