// stage.h — one pipeline stage.
#ifndef STAGE_H
#define STAGE_H
#include <dt/dt.h>
typedef struct { dt_device dev; dt_tensor *w; } stage;
void stage_init(stage *s, dt_device dev);
dt_tensor *stage_forward(const stage *s, const dt_tensor *x);
#endif
