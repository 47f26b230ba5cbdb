#ifndef SNAP_CKPT_H
#define SNAP_CKPT_H
#include "model.h"

/* Named host snapshots of a model's parameters, kept in a process-wide table. */
int ckpt_store(const char *name, const Model *m, float score);
/* Loads snapshot `name` into m, on m's current device. Returns 0, or -1 if absent. */
int ckpt_restore(const char *name, Model *m);
const char *ckpt_best(void);
void ckpt_clear(void);

#endif
