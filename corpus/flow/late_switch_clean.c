// provenance: blind round field6
// A 20-step schedule: steps 0..9 train on sim:0; at step 10 the whole job (weights, momentum
// and data) migrates to sim:1, and steps 10..19 continue there.  The migration moves every
// tensor and the data device at the same time, so each step's operands agree; after the
// loop everything is on sim:1, including the evaluation batch.  The proof needs the
// correlation "step >= 10 <=> model on sim:1 <=> data on sim:1" to survive 10+ iterations.
#include <dt/dt.h>
#include <stdio.h>

#define STEPS 20
#define MIGRATE_AT 10
#define N 6

static const int64_t S1[1] = {N};

typedef struct job {
  dt_device dev;
  dt_tensor *w;
  dt_tensor *mom;
  int migrated;
} job;

static dt_tensor *move_free(dt_tensor *t, dt_device d) {
  dt_tensor *m = dt_to_device(t, d);
  dt_free(t);
  return m;
}

static void job_migrate(job *j, dt_device d) {
  j->w = move_free(j->w, d);
  j->mom = move_free(j->mom, d);
  j->dev = d;
  j->migrated++;
}

static dt_tensor *gradient_like(dt_device d, int s) {
  float v[N];
  for (int i = 0; i < N; i++)
    v[i] = (float)((s * 3 + i) % 5) - 2.0f;
  return dt_from_floats(d, v, 1, S1);
}

static void momentum_step(job *j, const dt_tensor *g) {
  dt_tensor *m1 = dt_mul_scalar(j->mom, 0.9f);
  dt_tensor *m2 = dt_add(m1, g);
  dt_tensor *upd = dt_mul_scalar(m2, 0.05f);
  dt_tensor *nw = dt_sub(j->w, upd);
  dt_free(j->mom);
  dt_free(j->w);
  j->mom = m2;
  j->w = nw;
  dt_free(m1);
  dt_free(upd);
}

int main(void) {
  job j;
  j.dev = dt_sim(0);
  j.w = dt_ones(j.dev, DT_FLOAT, 1, S1);
  j.mom = dt_zeros(j.dev, DT_FLOAT, 1, S1);
  j.migrated = 0;
  dt_device data_dev = dt_sim(0);

  for (int s = 0; s < STEPS; s++) {
    if (s == MIGRATE_AT) {
      job_migrate(&j, dt_sim(1));
      data_dev = dt_sim(1);
    }
    dt_tensor *g = gradient_like(data_dev, s);
    momentum_step(&j, g);
    dt_free(g);
  }

  dt_tensor *eval = gradient_like(data_dev, 99);
  dt_tensor *score = dt_mul(eval, j.w);
  dt_tensor *tot = dt_sum(score);
  float v = 0.0f;
  dt_read_floats(tot, &v, 1);
  printf("score %.4f migrated %d\n", (double)v, j.migrated);
  dt_free(tot);
  dt_free(score);
  dt_free(eval);
  dt_free(j.w);
  dt_free(j.mom);
  return 0;
}
