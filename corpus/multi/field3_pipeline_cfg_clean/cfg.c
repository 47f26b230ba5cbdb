#include <string.h>
#include "cfg.h"
static dt_device parse_one(const char *s) {
  if (!strcmp(s, "sim0")) return dt_sim(0);
  if (!strcmp(s, "sim1")) return dt_sim(1);
  return dt_cpu();
}
void cfg_parse(run_cfg *c, int argc, char **argv) {
  for (int i = 0; i < NSTAGE; i++) c->stage[i] = dt_cpu();
  c->steps = 2;
  int k = 0;
  for (int i = 1; i + 1 < argc && k < NSTAGE; i++)
    if (!strcmp(argv[i], "--stage")) c->stage[k++] = parse_one(argv[++i]);
}
