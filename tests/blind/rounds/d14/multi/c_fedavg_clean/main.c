// main.c — federated averaging: clients on cpu / sim:0 / sim:1, server on FED_SERVER.
// run-env: FED_SERVER=sim1
// run-args: 5 4 2
#include "fed.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static dt_device server_device(void) {
  const char *s = getenv("FED_SERVER");
  if (s && !strcmp(s, "cpu")) return dt_cpu();
  if (s && !strcmp(s, "sim1")) return dt_sim(1);
  if (s && !strcmp(s, "cuda") && dt_backend_available(DT_BACKEND_CUDA)) return dt_cuda(0);
  return dt_sim(0);
}

/* which clients report this round: a deterministic participation schedule */
static int participants(int round, int nclients, int *ids) {
  int n = 0;
  for (int c = 0; c < nclients; c++)
    if ((c + round) % 3 != 0 || nclients < 3) ids[n++] = c;
  return n;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 3;
  int nclients = argc > 2 ? atoi(argv[2]) : 3;
  int local_steps = argc > 3 ? atoi(argv[3]) : 2;
  if (nclients < 1) nclients = 1;
  if (nclients > MAX_CLIENTS) nclients = MAX_CLIENTS;
  Client clients[MAX_CLIENTS];
  for (int c = 0; c < nclients; c++) client_setup(&clients[c], c);
  Server server;
  server_init(&server, server_device());
  for (int r = 0; r < rounds; r++) {
    int ids[MAX_CLIENTS];
    int n = participants(r, nclients, ids);
    Model updates[MAX_CLIENTS];
    float weights[MAX_CLIENTS], mean_loss = 0.0f;
    for (int k = 0; k < n; k++) {
      float l = 0.0f;
      updates[k] = client_update(&clients[ids[k]], &server.global, r, local_steps, &l);
      weights[k] = (float)clients[ids[k]].samples;
      mean_loss += l / (float)n;
    }
    server_aggregate(&server, updates, weights, n);
    for (int k = 0; k < n; k++) model_free(&updates[k]);
    printf("round %d: %d clients, local %.4f, server %.4f\n", r, n, mean_loss, server_evaluate(&server, r));
  }
  model_free(&server.global);
  model_free(&server.velocity);
  return 0;
}
