// Training project: the model trains on autodiff<sim:0>; ema.c keeps an EMA on sim:1;
// ckpt.c saves to and restores from the host; eval.c evaluates the EMA weights with autodiff
// off. All transfers are in place.
#ifndef TRAIN_H
#define TRAIN_H
#include <dt/dt.h>
typedef struct { dt_device ad; dt_tensor *w; } model;
typedef struct { dt_device dev; dt_tensor *w; } ema;
void ema_init(ema *e, const model *m, dt_device where);
void ema_step(ema *e, const model *m, float decay);
dt_tensor *ckpt_save(const dt_tensor *plain);
dt_tensor *ckpt_restore(const dt_tensor *host, dt_device ad);
float eval_plain(const dt_tensor *w, dt_device d);
#endif
