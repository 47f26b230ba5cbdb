// Project: the optimizer module keeps its state device in an extern global that main sets
// from the command line (default sim:0); the model trains on autodiff<sim:1>. The RMS cache
// update fails whatever the flag says, but WHICH rule depends on the flag (sim:0 state:
// device-mismatch; --host: backend-mismatch), so each rule is a warning.
#ifndef OPTIM_H
#define OPTIM_H
#include <dt/dt.h>
extern dt_device g_state_dev;
typedef struct { dt_tensor *cache; float lr; } rms;
void rms_init(rms *o, int64_t n, float lr);
dt_tensor *rms_update(rms *o, const dt_tensor *param, const dt_tensor *grad);
#endif
