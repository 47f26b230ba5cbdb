#include "proj.h"
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  dt_device dev = dt_sim(1);
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--sim0") == 0) dev = dt_sim(0);
  printf("valid %.3f\n", (double)run(dev, 2));
  return 0;
}
