// provenance: blind round field5
// run-args: finetune
// Mode enum from argv; TRAIN and FINETUNE share the optimiser set-up (case fallthrough to a
// shared block) which puts the optimiser state on the host while the model is on sim:0.
// Every path that reaches the update fails: error. (Run with `finetune`.)
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

typedef enum { MODE_TRAIN, MODE_FINETUNE, MODE_EVAL } mode_t_;

static void devices_for(mode_t_ m, dt_device *model, dt_device *state) {
  switch (m) {
  case MODE_TRAIN:
  case MODE_FINETUNE:
    *model = dt_sim(0);
    *state = dt_cpu();
    break;
  case MODE_EVAL:
    *model = dt_sim(0);
    *state = dt_sim(0);
    break;
  }
}

static mode_t_ parse(int argc, char **argv) {
  if (argc < 2) return MODE_EVAL;
  if (!strcmp(argv[1], "train")) return MODE_TRAIN;
  if (!strcmp(argv[1], "finetune")) return MODE_FINETUNE;
  return MODE_EVAL;
}

int main(int argc, char **argv) {
  mode_t_ m = parse(argc, argv);
  dt_device md, sd;
  devices_for(m, &md, &sd);
  dt_tensor *w = dt_randn(md, 1, 1, (const int64_t[]){8});
  switch (m) {
  case MODE_TRAIN:
  case MODE_FINETUNE: {
    dt_tensor *mom = dt_zeros(sd, DT_FLOAT, 1, (const int64_t[]){8});
    dt_tensor *g = dt_ones(md, DT_FLOAT, 1, (const int64_t[]){8});
    dt_tensor *nm = dt_add(mom, g); // expect-error: backend-mismatch
    dt_free(nm); dt_free(g); dt_free(mom);
    break;
  }
  case MODE_EVAL:
    puts("eval only");
    break;
  }
  dt_free(w);
  return 0;
}
