// eval.h — evaluation on the host.
#ifndef EVAL_H
#define EVAL_H
#include <dt/dt.h>
float eval_on_host(const dt_tensor *w);
#endif
