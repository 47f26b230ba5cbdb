// Device selection: sim:1 when asked, host otherwise.
#include "dev.h"
dt_device g_compute;
void choose_device(int argc) { g_compute = argc > 1 ? dt_sim(1) : dt_cpu(); }
