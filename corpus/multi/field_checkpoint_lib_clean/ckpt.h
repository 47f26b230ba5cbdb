// ckpt.h — save a tensor to host floats and restore it on any device (plain or autodiff).
#ifndef CKPT_H
#define CKPT_H
#include <dt/dt.h>
typedef struct { float data[64]; int64_t shape[2]; } ckpt_entry;
int ckpt_save(const dt_tensor *t, ckpt_entry *e);
dt_tensor *ckpt_restore(const ckpt_entry *e, dt_device dev);
#endif
