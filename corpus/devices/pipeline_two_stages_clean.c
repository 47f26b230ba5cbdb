// corpus/devices/pipeline_two_stages_clean.c — pipeline parallelism over the two simulated
// accelerators: stage 1 on sim:0, stage 2 on sim:1, with an explicit dt_to_device between the
// stages and the result brought back to the host. Clean: every transfer is where it belongs.
#include <stdio.h>

#include <dt/dt.h>

typedef struct stage {
  dt_device dev;
  dt_tensor *w;
} stage;

static void stage_init(stage *s, dt_device dev, int in, int out, uint64_t seed) {
  s->dev = dev;
  s->w = dt_randn(dev, seed, 2, (const int64_t[]){in, out});
}

static dt_tensor *stage_run(const stage *s, const dt_tensor *x_any) {
  dt_tensor *x = dt_to_device(x_any, s->dev);
  dt_tensor *h = dt_matmul(x, s->w);
  dt_tensor *a = dt_relu(h);
  dt_free(h);
  dt_free(x);
  return a;
}

int main(void) {
  stage s1, s2;
  stage_init(&s1, dt_sim(0), 4, 8, 1);
  stage_init(&s2, dt_sim(1), 8, 2, 2);
  for (int mb = 0; mb < 3; mb++) {
    dt_tensor *x = dt_randn(dt_cpu(), (uint64_t)mb, 2, (const int64_t[]){2, 4});
    dt_tensor *h = stage_run(&s1, x);
    dt_tensor *y = stage_run(&s2, h);
    dt_tensor *host = dt_to_device(y, dt_cpu());
    dt_tensor *bias = dt_full(dt_cpu(), 0.1f, 1, (const int64_t[]){2});
    dt_tensor *out = dt_add(host, bias);
    float v[4];
    dt_read_floats(out, v, 4);
    printf("micro-batch %d: %f\n", mb, (double)v[0]);
    dt_free(out);
    dt_free(bias);
    dt_free(host);
    dt_free(y);
    dt_free(h);
    dt_free(x);
  }
  dt_free(s1.w);
  dt_free(s2.w);
  return 0;
}
