// optim.h — SGD with momentum over a parameter list.
#ifndef OPTIM_H
#define OPTIM_H
#include <dt/dt.h>
#define OPT_MAX 8
typedef struct { dt_tensor **params[OPT_MAX]; dt_tensor *vel[OPT_MAX]; int n; dt_device dev; float lr, mu; } sgd;
void sgd_init(sgd *o, dt_device ad, float lr, float mu);
void sgd_add(sgd *o, dt_tensor **p, int64_t rows, int64_t cols);
void sgd_step(sgd *o);
#endif
