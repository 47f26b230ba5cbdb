/* main.c — multi_serve_clean: picks the serving device from SERVE_DEVICE (sim:1 by default,
 * "cpu" or "sim0" on request) into an extern global before building anything, decodes a few
 * tokens, and reads the logits back to the host. Correct on every input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "server.h"

static dt_device choose(const char *s) {
  if (s && !strcmp(s, "cpu")) return dt_cpu();
  if (s && !strcmp(s, "sim0")) return dt_sim(0);
  return dt_sim(1);
}

int main(int argc, char **argv) {
  g_serve_device = choose(getenv("SERVE_DEVICE"));
  int steps = argc > 1 ? atoi(argv[1]) : 5;
  if (steps < 1 || steps > SV_MAX_STEPS) steps = 5;
  sv_server s;
  if (sv_server_init(&s, 11) != 0) return 1;
  int token = 3;
  for (int t = 0; t < steps; ++t) {
    dt_tensor *h = sv_step(&s, token);
    dt_tensor *host = dt_to_device(h, dt_cpu());
    float v[SV_DIM] = {0};
    dt_read_floats(host, v, SV_DIM);
    int best = 0;
    for (int j = 1; j < SV_DIM; ++j)
      if (v[j] > v[best]) best = j;
    token = (token * 5 + best) % 11;
    printf("step %d: next token %d (cache %d)\n", t, token, s.layers[0].cache.len);
    dt_free(h);
    dt_free(host);
  }
  sv_server_free(&s);
  return 0;
}
