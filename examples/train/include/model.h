/* examples/train/include/model.h — the model's weights, loaded by src/model.c. */
#ifndef MODEL_H
#define MODEL_H
#include <dt/dt.h>

/* The pretrained weights (a 2 x 2 matrix) on the device the model is served from. */
dt_tensor *model_load_weights(void);

#endif
