// member.h — one ensemble member bound to a device.
#ifndef MEMBER_H
#define MEMBER_H
#include <dt/dt.h>
typedef struct { dt_device dev; dt_tensor *w; } member;
void member_init(member *m, dt_device dev, uint64_t seed);
dt_tensor *member_predict_host(const member *m, const dt_tensor *x_host);
#endif
