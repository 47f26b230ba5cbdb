// trainer.h — shared declarations of the multi-file trainer (multi_trainer_bug).
// The default run (no arguments) evaluates a baseline first, then fails at the error in
// model.c.  Run with --eval-cpu, the baseline evaluation fails first, at the warned loss in
// eval.c.
#ifndef TRAINER_H
#define TRAINER_H
#include <dt/dt.h>

#define FEAT 3
#define ROWS 2

extern dt_device g_train_dev;   /* defined in main.c */

typedef struct model {
  dt_device dev;
  dt_tensor *w;   /* FEAT x 1 */
  dt_tensor *b;   /* 1 */
} model;

/* model.c */
void model_init(model *m);
void model_free(model *m);
dt_tensor *model_forward(const model *m, const dt_tensor *x);
void model_step(model *m, const dt_tensor *x, const dt_tensor *y, float lr);

/* data.c */
void data_init(dt_device prefetch_dev);
dt_tensor *data_next_x(void);
dt_tensor *data_next_y(void);
dt_tensor *data_x_on(dt_device d);

/* eval.c */
float eval_run(const model *m, int eval_on_cpu);
#endif
