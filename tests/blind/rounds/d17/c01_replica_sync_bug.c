/* c01_replica_sync_bug.c — data-parallel training of a two-layer regressor on two replicas,
 * autodiff<sim:0> and autodiff<sim:1>, taken from a table of device ordinals. Replica 0 is
 * initialised and its weights are broadcast to replica 1; each replica runs forward and
 * backward on its own shard; an all-reduce averages the gradients and scatters the average
 * back; each replica then takes an SGD step on its own device.
 * Mistake: the all-reduce sums replica r's gradient (a plain tensor on sim:r) into the running
 * sum, which lives on sim:0, without moving it first: device-mismatch on every step. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_REPLICAS 2
#define N_PARAMS 4
#define IN 4
#define HID 8
#define BATCH 6
#define STEPS 3

typedef struct Mlp {
  dt_tensor *w1, *b1, *w2, *b2;
} Mlp;

typedef struct Replica {
  dt_device dev;                /* autodiff<sim:k> */
  Mlp model;
  dt_tensor *grads[N_PARAMS];   /* plain, on the replica's inner device */
  dt_tensor *x, *y;             /* this replica's shard */
  float last_loss;
} Replica;

static const int REPLICA_ORDINALS[N_REPLICAS] = {0, 1};
static const char *PARAM_NAMES[N_PARAMS] = {"w1", "b1", "w2", "b2"};

static dt_tensor **mlp_slot(Mlp *m, int i) {
  switch (i) {
  case 0: return &m->w1;
  case 1: return &m->b1;
  case 2: return &m->w2;
  default: return &m->b2;
  }
}

/* A trainable leaf on the autodiff device `ad`, from a plain tensor on its inner device. */
static dt_tensor *make_leaf(dt_device ad, dt_tensor *plain) {
  dt_tensor *t = dt_from_inner(ad, plain);
  dt_free(plain);
  return dt_require_grad(t);
}

static void mlp_init(Mlp *m, dt_device ad, uint64_t seed) {
  dt_device in = dt_inner_device(ad);
  dt_tensor *w1 = dt_randn(in, seed, 2, (const int64_t[]){IN, HID});
  dt_tensor *w2 = dt_randn(in, seed + 1, 2, (const int64_t[]){HID, 1});
  m->w1 = make_leaf(ad, dt_mul_scalar(w1, 0.3f));
  m->w2 = make_leaf(ad, dt_mul_scalar(w2, 0.3f));
  m->b1 = make_leaf(ad, dt_zeros(in, DT_FLOAT, 1, (const int64_t[]){HID}));
  m->b2 = make_leaf(ad, dt_zeros(in, DT_FLOAT, 1, (const int64_t[]){1}));
  dt_free(w1);
  dt_free(w2);
}

/* Broadcast: every parameter of `src` copied to `dst`'s device as a fresh leaf. */
static void mlp_broadcast(const Mlp *src, Mlp *dst, dt_device ad) {
  Mlp *s = (Mlp *)src;
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor *inner = dt_inner(*mlp_slot(s, i));
    dt_tensor *moved = dt_to_device(inner, dt_inner_device(ad));
    *mlp_slot(dst, i) = make_leaf(ad, moved);
    dt_free(inner);
  }
}

static dt_tensor *mlp_forward(const Mlp *m, const dt_tensor *x) {
  dt_tensor *h0 = dt_matmul(x, m->w1);
  dt_tensor *h1 = dt_add(h0, m->b1);
  dt_tensor *h = dt_relu(h1);
  dt_tensor *o0 = dt_matmul(h, m->w2);
  dt_tensor *out = dt_add(o0, m->b2);
  dt_free(h0);
  dt_free(h1);
  dt_free(h);
  dt_free(o0);
  return out;
}

static void load_shard(Replica *r, int shard) {
  float xs[BATCH * IN], ys[BATCH];
  for (int i = 0; i < BATCH; i++) {
    float acc = 0.0f;
    for (int j = 0; j < IN; j++) {
      xs[i * IN + j] = (float)((i + shard * BATCH) % 5) * 0.1f - 0.2f * (float)j;
      acc += xs[i * IN + j] * (float)(j + 1);
    }
    ys[i] = 0.5f * acc;
  }
  dt_device in = dt_inner_device(r->dev);
  r->x = make_leaf(r->dev, dt_from_floats(in, xs, 2, (const int64_t[]){BATCH, IN}));
  r->y = dt_from_inner(r->dev, dt_from_floats(in, ys, 2, (const int64_t[]){BATCH, 1}));
}

static void replica_backward(Replica *r) {
  dt_tensor *pred = mlp_forward(&r->model, r->x);
  dt_tensor *loss = dt_mse_loss(pred, r->y);
  dt_backward(loss);
  float v = 0.0f;
  if (dt_read_floats(loss, &v, 1) == 0)
    r->last_loss = v;
  for (int i = 0; i < N_PARAMS; i++) {
    dt_free(r->grads[i]);
    r->grads[i] = dt_grad(*mlp_slot(&r->model, i));
  }
  dt_free(pred);
  dt_free(loss);
}

/* Average each gradient over the replicas and hand every replica its own copy. */
static void allreduce_grads(Replica *reps, int n) {
  for (int p = 0; p < N_PARAMS; p++) {
    dt_tensor *sum = dt_mul_scalar(reps[0].grads[p], 1.0f);
    for (int r = 1; r < n; r++) {
      dt_tensor *next = dt_add(sum, reps[r].grads[p]); // expect-error: device-mismatch
      dt_free(sum);
      sum = next;
    }
    dt_tensor *avg = dt_mul_scalar(sum, 1.0f / (float)n);
    dt_free(sum);
    for (int r = 0; r < n; r++) {
      dt_free(reps[r].grads[p]);
      reps[r].grads[p] = dt_to_device(avg, dt_inner_device(reps[r].dev));
    }
    dt_free(avg);
  }
}

static void sgd_step(Replica *r, float lr) {
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor **slot = mlp_slot(&r->model, i);
    dt_tensor *inner = dt_inner(*slot);
    dt_tensor *delta = dt_mul_scalar(r->grads[i], lr);
    dt_tensor *next = dt_sub(inner, delta);
    dt_free(*slot);
    *slot = make_leaf(r->dev, next);
    dt_free(inner);
    dt_free(delta);
  }
}

int main(void) {
  Replica reps[N_REPLICAS];
  memset(reps, 0, sizeof reps);
  for (int k = 0; k < N_REPLICAS; k++) {
    reps[k].dev = dt_autodiff(dt_sim(REPLICA_ORDINALS[k]));
    load_shard(&reps[k], k);
  }
  mlp_init(&reps[0].model, reps[0].dev, 42);
  for (int k = 1; k < N_REPLICAS; k++)
    mlp_broadcast(&reps[0].model, &reps[k].model, reps[k].dev);

  for (int step = 0; step < STEPS; step++) {
    for (int k = 0; k < N_REPLICAS; k++)
      replica_backward(&reps[k]);
    allreduce_grads(reps, N_REPLICAS);
    float mean_loss = 0.0f;
    for (int k = 0; k < N_REPLICAS; k++) {
      sgd_step(&reps[k], 0.05f);
      mean_loss += reps[k].last_loss / (float)N_REPLICAS;
    }
    printf("step %d loss %.5f\n", step, mean_loss);
    if (mean_loss < 1e-6f)
      break;
  }

  for (int k = 0; k < N_REPLICAS; k++) {
    char name[32];
    dt_device_name(reps[k].dev, name, sizeof name);
    for (int i = 0; i < N_PARAMS; i++) {
      printf("%s %s: %lld elements\n", name, PARAM_NAMES[i],
             (long long)dt_numel(*mlp_slot(&reps[k].model, i)));
      dt_free(*mlp_slot(&reps[k].model, i));
      dt_free(reps[k].grads[i]);
    }
    dt_free(reps[k].x);
    dt_free(reps[k].y);
  }
  return 0;
}
