// corpus/interproc/function_pointer_activation_clean.c — the activation is picked from a table
// of function pointers by name (a config string), including pointers to the runtime's own
// functions (&dt_relu) and to a user function. Calls through pointers give unknown tags, never
// findings; the program is correct anyway. Clean.
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

typedef dt_tensor *(*activation_fn)(const dt_tensor *);

static dt_tensor *leaky(const dt_tensor *x) {
  dt_tensor *pos = dt_relu(x);
  dt_tensor *neg = dt_sub(x, pos);
  dt_tensor *small = dt_mul_scalar(neg, 0.01f);
  dt_tensor *y = dt_add(pos, small);
  dt_free(small);
  dt_free(neg);
  dt_free(pos);
  return y;
}

static const struct {
  const char *name;
  activation_fn fn;
} k_activations[] = {{"relu", &dt_relu}, {"tanh", &dt_tanh}, {"sigmoid", dt_sigmoid},
                     {"leaky", leaky}};

static activation_fn lookup(const char *name) {
  for (size_t i = 0; i < sizeof k_activations / sizeof k_activations[0]; i++)
    if (strcmp(k_activations[i].name, name) == 0) return k_activations[i].fn;
  return &dt_relu;
}

int main(int argc, char **argv) {
  activation_fn act = lookup(argc > 1 ? argv[1] : "leaky");
  dt_device dev = dt_sim(1);
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){3, 3});
  dt_tensor *x = dt_randn(dev, 2, 2, (const int64_t[]){2, 3});
  dt_tensor *z = dt_matmul(x, w);
  dt_tensor *h = act(z);
  dt_tensor *y = dt_matmul(h, w);
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(h);
  dt_free(z);
  dt_free(x);
  dt_free(w);
  return 0;
}
