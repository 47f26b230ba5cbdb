// Project: a backend module probes availability once (extern globals), the model module
// allocates on whatever the probe chose, and a cuda-only fast path is guarded by the stored
// flag. With --unavailable cuda nothing may be reported.
// tagcheck-args: --unavailable cuda
// run-if: !cuda
#ifndef BACKEND_H
#define BACKEND_H
#include <dt/dt.h>
extern int g_have_cuda;
extern dt_device g_dev;
void backend_probe(void);
#endif
