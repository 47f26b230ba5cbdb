#include "backend.h"
#include <stdio.h>

float model_run(void);

int main(void) {
  backend_probe();
  char name[32];
  dt_device_name(g_dev, name, sizeof name);
  printf("%s %.3f\n", name, (double)model_run());
  return 0;
}
