// Pipeline-parallel trainer: per-stage devices parsed from argv ("--stage cpu|sim0|sim1"),
// static inline helpers in this header move activations; everything is consistent.
#ifndef CFG_H
#define CFG_H
#include <dt/dt.h>
#define NSTAGE 3
typedef struct { dt_device stage[NSTAGE]; int steps; } run_cfg;
void cfg_parse(run_cfg *c, int argc, char **argv);
typedef struct { dt_tensor *w[NSTAGE]; } net;
void net_init(net *n, const run_cfg *c);
dt_tensor *net_forward(const net *n, const run_cfg *c, const dt_tensor *x);
static inline dt_tensor *move_to(dt_tensor *t, dt_device d) {
  if (dt_device_equal(dt_device_of(t), d)) return t;
  dt_tensor *m = dt_to_device(t, d);
  dt_free(t);
  return m;
}
#endif
