// model.c — weights on the global device; the bias helper hard-codes autodiff<sim:0>.
#include "device.h"
dt_tensor *model_weight(void) { return dt_require_grad(dt_ones(g_train_device, DT_FLOAT, 2, (const int64_t[]){2, 2})); }
dt_tensor *model_bias(void) { return dt_require_grad(dt_zeros(dt_autodiff(dt_sim(0)), DT_FLOAT, 1, (const int64_t[]){2})); }
