/* c06_eval_fallback_clean.c — batch inference for a two-layer binary classifier. The serving
 * device is cuda:0 when the machine has it, sim:1 otherwise; EVAL_ON_HOST=1 (environment)
 * or --host moves the whole evaluation to cpu. Weights are stored once on the serving device
 * and every consumer goes through to_eval(), which moves a tensor only when it is not on the
 * evaluation device yet. Predictions are thresholded with dt_greater and turned back into
 * floats with dt_where; labels are int tensors read back on the host and never mixed with
 * floats on the device. Correct on every path (also with cuda present). */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IN 4
#define HID 6
#define N_BATCHES 3
#define BS 8

typedef struct Classifier {
  dt_tensor *w1, *b1, *w2, *b2;
} Classifier;

typedef struct EvalStats {
  int64_t correct, seen;
  float loss_sum;
} EvalStats;

static dt_device serving_device(void) {
  if (dt_backend_available(DT_BACKEND_CUDA))
    return dt_cuda(0);
  return dt_sim(1);
}

static int eval_on_host(int argc, char **argv) {
  const char *env = getenv("EVAL_ON_HOST");
  if (env && strcmp(env, "1") == 0)
    return 1;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--host") == 0)
      return 1;
  return 0;
}

static dt_tensor *to_eval(dt_tensor *t, dt_device d) {
  if (dt_device_equal(dt_device_of(t), d))
    return t;
  dt_tensor *moved = dt_to_device(t, d);
  dt_free(t);
  return moved;
}

static void classifier_load(Classifier *c, dt_device d) {
  float w1[IN * HID], b1[HID], w2[HID], b2[1] = {-0.1f};
  for (int i = 0; i < IN * HID; i++)
    w1[i] = (float)((i * 5) % 7 - 3) * 0.2f;
  for (int i = 0; i < HID; i++) {
    b1[i] = 0.05f * (float)i;
    w2[i] = (i % 2) ? 0.4f : -0.3f;
  }
  c->w1 = dt_from_floats(d, w1, 2, (const int64_t[]){IN, HID});
  c->b1 = dt_from_floats(d, b1, 1, (const int64_t[]){HID});
  c->w2 = dt_from_floats(d, w2, 2, (const int64_t[]){HID, 1});
  c->b2 = dt_from_floats(d, b2, 1, (const int64_t[]){1});
}

static void classifier_place(Classifier *c, dt_device d) {
  dt_tensor **slots[] = {&c->w1, &c->b1, &c->w2, &c->b2};
  for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
    *slots[i] = to_eval(*slots[i], d);
}

static dt_tensor *classifier_prob(const Classifier *c, const dt_tensor *x) {
  dt_tensor *h0 = dt_matmul(x, c->w1);
  dt_tensor *h1 = dt_add(h0, c->b1);
  dt_tensor *h = dt_relu(h1);
  dt_tensor *z0 = dt_matmul(h, c->w2);
  dt_tensor *z = dt_add(z0, c->b2);
  dt_tensor *p = dt_sigmoid(z);
  dt_free(h0);
  dt_free(h1);
  dt_free(h);
  dt_free(z0);
  dt_free(z);
  return p;
}

/* A batch as it comes off the loader: features on the host, labels as ints. */
static void load_batch(int b, dt_tensor **x, dt_tensor **labels) {
  float xs[BS * IN];
  int64_t ys[BS];
  for (int i = 0; i < BS; i++) {
    float s = 0.0f;
    for (int j = 0; j < IN; j++) {
      xs[i * IN + j] = (float)((b * BS + i + 2 * j) % 6) * 0.3f - 0.7f;
      s += xs[i * IN + j];
    }
    ys[i] = s > 0.0f;
  }
  *x = dt_from_floats(dt_cpu(), xs, 2, (const int64_t[]){BS, IN});
  *labels = dt_from_ints(dt_cpu(), ys, 2, (const int64_t[]){BS, 1});
}

static void eval_batch(const Classifier *c, dt_device d, int b, EvalStats *st) {
  dt_tensor *x, *labels;
  load_batch(b, &x, &labels);
  x = to_eval(x, d);
  dt_tensor *p = classifier_prob(c, x);
  dt_tensor *half = dt_full(d, 0.5f, 2, (const int64_t[]){BS, 1});
  dt_tensor *one = dt_ones(d, DT_FLOAT, 2, (const int64_t[]){BS, 1});
  dt_tensor *zero = dt_zeros(d, DT_FLOAT, 2, (const int64_t[]){BS, 1});
  dt_tensor *pos = dt_greater(p, half);
  dt_tensor *hard = dt_where(pos, one, zero);
  float hv[BS], pv[BS];
  int64_t lv[BS];
  if (dt_read_floats(hard, hv, BS) == 0 && dt_read_floats(p, pv, BS) == 0 &&
      dt_read_ints(labels, lv, BS) == 0) {
    for (int i = 0; i < BS; i++) {
      st->correct += ((hv[i] > 0.5f) == (lv[i] != 0));
      float e = pv[i] - (float)lv[i];
      st->loss_sum += e * e;
    }
    st->seen += BS;
  }
  dt_free(x);
  dt_free(labels);
  dt_free(p);
  dt_free(half);
  dt_free(one);
  dt_free(zero);
  dt_free(pos);
  dt_free(hard);
}

int main(int argc, char **argv) {
  dt_device serve = serving_device();
  dt_device eval_dev = eval_on_host(argc, argv) ? dt_cpu() : serve;
  Classifier c;
  classifier_load(&c, serve);
  classifier_place(&c, eval_dev);

  EvalStats st = {0, 0, 0.0f};
  for (int b = 0; b < N_BATCHES; b++) {
    eval_batch(&c, eval_dev, b, &st);
    if (st.seen >= 16 && st.correct == 0) {
      fprintf(stderr, "model looks broken, stopping early\n");
      break;
    }
  }
  char name[32];
  dt_device_name(eval_dev, name, sizeof name);
  printf("%s: accuracy %lld/%lld, brier %.4f\n", name, (long long)st.correct,
         (long long)st.seen, st.seen ? st.loss_sum / (float)st.seen : 0.0f);
  dt_free(c.w1);
  dt_free(c.b1);
  dt_free(c.w2);
  dt_free(c.b2);
  return 0;
}
