// The process-wide compute device, chosen once at start-up.
#ifndef DEV_H
#define DEV_H
#include <dt/dt.h>
extern dt_device g_compute;
void choose_device(int argc);
static inline dt_tensor *vec(float v, int n) { return dt_full(g_compute, v, 1, (const int64_t[]){n}); }
#endif
