// corpus/flow/while_do_loops_clean.c — `while` and `do … while` loops that carry tensors: a
// power iteration that renormalizes its vector until it converges (the vector is reassigned
// every iteration), and a do-while retry that rebuilds a batch until its norm is in range.
// Clean: every loop-carried tensor stays on sim:1.
#include <math.h>
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(1);
  static const float a_host[9] = {2, 1, 0, 1, 3, 1, 0, 1, 4};
  dt_tensor *a = dt_from_floats(dev, a_host, 2, (const int64_t[]){3, 3});
  dt_tensor *v = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){3, 1});
  float prev = 0, norm = 1;
  int it = 0;
  while (it < 50 && fabsf(norm - prev) > 1e-4f) {
    prev = norm;
    dt_tensor *av = dt_matmul(a, v);
    dt_tensor *sq = dt_mul(av, av);
    dt_tensor *s = dt_sum(sq);
    float ss = 1;
    dt_read_floats(s, &ss, 1);
    norm = sqrtf(ss);
    dt_free(v);
    v = dt_mul_scalar(av, 1.0f / norm);
    dt_free(s);
    dt_free(sq);
    dt_free(av);
    it++;
  }
  printf("dominant eigenvalue ~ %f after %d iterations\n", (double)norm, it);

  dt_tensor *batch = NULL;
  uint64_t seed = 0;
  float bn = 0;
  do {
    dt_free(batch);
    batch = dt_randn(dev, seed++, 1, (const int64_t[]){4});
    dt_tensor *sq = dt_mul(batch, batch);
    dt_tensor *s = dt_sum(sq);
    dt_read_floats(s, &bn, 1);
    dt_free(s);
    dt_free(sq);
  } while (bn > 8.0f && seed < 20);
  dt_tensor *vt = dt_reshape(v, 1, (const int64_t[]){3});
  dt_tensor *first3 = dt_reshape(batch, 2, (const int64_t[]){2, 2});
  printf("batch norm^2 %f, %lld + %lld values\n", (double)bn, (long long)dt_numel(vt),
         (long long)dt_numel(first3));
  dt_free(first3);
  dt_free(vt);
  dt_free(batch);
  dt_free(v);
  dt_free(a);
  return 0;
}
