// provenance: blind round d11
#ifndef NORMTRAIN_STATS_H
#define NORMTRAIN_STATS_H
#include <dt/dt.h>

/* feature statistics computed once over the training set and shared by every batch */
void stats_fit(dt_device d, const float *rows, int n_rows, int n_feat);
dt_tensor *stats_normalize(const dt_tensor *x);
void stats_release(void);

#endif
