/* fed.h — federated averaging across devices: the shared model type and the client / server API. */
#ifndef FED_H
#define FED_H

#include <dt/dt.h>

#define FIN 5
#define FHID 6
#define FOUT 2
#define FBATCH 4
#define MAX_CLIENTS 6
#define NPARAMS 3

typedef struct Model {
  dt_tensor *p[NPARAMS]; /* w1 [FIN,FHID], b1 [FHID], w2 [FHID,FOUT]: plain */
} Model;

typedef struct Client {
  int id;
  dt_device dev;  /* plain device the client trains on (wrapped in autodiff for training) */
  int samples;    /* local data size: the weight of its update */
  float lr;
} Client;

typedef struct Server {
  dt_device dev;
  Model global;
  Model velocity; /* FedAvgM server momentum, on dev */
  float beta, server_lr;
} Server;

/* model.c */
void model_init(Model *m, dt_device d, uint64_t seed);
Model model_to(const Model *m, dt_device d);
void model_free(Model *m);
dt_tensor *model_forward(dt_tensor *const *p, dt_tensor *x);

/* client.c */
void client_setup(Client *c, int id);
Model client_update(const Client *c, const Model *global, int round, int local_steps, float *loss_out);

/* server.c */
void server_init(Server *s, dt_device d);
void server_aggregate(Server *s, Model *updates, const float *weights, int n);
float server_evaluate(const Server *s, int round);

/* acc + w * x, both on acc's device; acc may be NULL (then w * x) */
static inline dt_tensor *axpy(dt_tensor *acc, dt_tensor *x, float w) {
  dt_tensor *sx = dt_mul_scalar(x, w);
  if (!acc) return sx;
  dt_tensor *r = dt_add(acc, sx);
  dt_free(acc);
  dt_free(sx);
  return r;
}

#endif
