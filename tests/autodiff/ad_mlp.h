/* tests/autodiff/ad_mlp.h — a two-layer perceptron trained with plain SGD through the public
 * API, on a synthetic regression set: what the training and memory tests run. */
#ifndef AD_MLP_H
#define AD_MLP_H

#include <stdint.h>

#include <dt/dt.h>

typedef struct ad_mlp {
  dt_device ad;
  dt_tensor *w1, *b1, *w2, *b2; /* dt_require_grad leaves on ad */
} ad_mlp;

/* Parameters from dt_randn (the same values on every backend for one seed). 0 on success. */
int ad_mlp_init(ad_mlp *m, dt_device ad, int in, int hidden, int out, uint64_t seed);
/* One step: forward, mse loss, backward, w -= lr * grad. Returns the loss before the update,
   or a negative value when a call failed (return mode). */
float ad_mlp_step(ad_mlp *m, const dt_tensor *x, const dt_tensor *y, float lr);
void ad_mlp_free(ad_mlp *m);

/* A synthetic set on device ad: x [n, in] from dt_randn, y [n, 1] = tanh(x . a) + x0 * x1 / 2
   computed on the host. */
void ad_mlp_data(dt_device ad, int n, int in, uint64_t seed, dt_tensor **x, dt_tensor **y);

#endif /* AD_MLP_H */
