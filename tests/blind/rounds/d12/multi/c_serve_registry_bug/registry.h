// provenance: blind round d12
#ifndef SERVE_REGISTRY_H
#define SERVE_REGISTRY_H
#include <dt/dt.h>

/* Named tensors loaded once per process (weights as read from the checkpoint, on the host)
 * plus lazily created constants. */
int registry_put(const char *name, dt_tensor *t);
dt_tensor *registry_get(const char *name);
dt_tensor *registry_constant(const char *name, dt_device d, float value);
void registry_load_checkpoint(int vocab, int hidden);
void registry_clear(void);
int registry_size(void);
#endif
