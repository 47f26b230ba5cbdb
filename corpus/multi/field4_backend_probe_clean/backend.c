#include "backend.h"

int g_have_cuda;
dt_device g_dev;

void backend_probe(void) {
  g_have_cuda = dt_backend_available(DT_BACKEND_CUDA);
  g_dev = g_have_cuda ? dt_cuda(0) : dt_sim(0);
}
