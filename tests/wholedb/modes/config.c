/* tests/wholedb/modes/config.c — a global device, set here, read in main.c. */
#include "model.h"

dt_device g_dev;

void config_init(void) { g_dev = dt_sim(0); }
