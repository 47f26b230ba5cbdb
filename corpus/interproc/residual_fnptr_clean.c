// provenance: blind round field
// Residual MLP blocks with the activation picked through a function pointer from a table.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

typedef dt_tensor *(*activation_fn)(const dt_tensor *);
typedef struct { const char *name; activation_fn fn; } act_entry;
static const act_entry ACTS[] = { {"relu", dt_relu}, {"tanh", dt_tanh}, {"sigmoid", dt_sigmoid} };

typedef struct { dt_tensor *w1, *w2; activation_fn act; } resblock;

static activation_fn find_act(const char *name) {
  for (size_t i = 0; i < sizeof ACTS / sizeof ACTS[0]; i++)
    if (strcmp(ACTS[i].name, name) == 0) return ACTS[i].fn;
  return dt_relu;
}

static dt_tensor *block_forward(const resblock *b, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, b->w1);
  dt_tensor *a = b->act(h);
  dt_tensor *o = dt_matmul(a, b->w2);
  dt_tensor *y = dt_add(x, o);
  dt_free(h); dt_free(a); dt_free(o);
  return y;
}

int main(int argc, char **argv) {
  dt_device dev = dt_sim(0);
  activation_fn act = find_act(argc > 1 ? argv[1] : "relu");
  resblock blocks[3];
  for (int i = 0; i < 3; i++) {
    blocks[i].w1 = dt_full(dev, 0.1f, 2, (const int64_t[]){4, 8});
    blocks[i].w2 = dt_full(dev, 0.1f, 2, (const int64_t[]){8, 4});
    blocks[i].act = act;
  }
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){2, 4});
  for (int i = 0; i < 3; i++) {
    dt_tensor *y = block_forward(&blocks[i], x);
    dt_free(x);
    x = y;
  }
  float out[8];
  dt_read_floats(x, out, 8);
  /* relu: each block adds 8*0.1*(0.4*v) = 0.32 v: 1 -> 1.32 -> 1.7424 -> 2.299968 */
  printf("y[0] = %.5f\n", out[0]);
  for (int i = 0; i < 3; i++) { dt_free(blocks[i].w1); dt_free(blocks[i].w2); }
  dt_free(x);
  return 0;
}
