// provenance: blind round field3
// Depth from --depth N (at most 8) with layers in a fixed local array; weights on sim:1, the
// input made on sim:0. The first layer fails on every run that reaches it.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  int depth = 2;
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], "--depth") == 0) depth = atoi(argv[i + 1]);
  if (depth < 1) depth = 1;
  if (depth > 8) depth = 8;
  dt_tensor *w[8];
  for (int i = 0; i < depth; i++) w[i] = dt_randn(dt_sim(1), (uint64_t)i, 2, (const int64_t[]){3, 3});
  dt_tensor *h = dt_randn(dt_sim(0), 99, 2, (const int64_t[]){1, 3});
  for (int i = 0; i < depth; i++) {
    dt_tensor *n = dt_matmul(h, w[i]); // expect-error: device-mismatch
    dt_free(h);
    h = n;
  }
  printf("%p\n", (void *)h);
  return 0;
}
