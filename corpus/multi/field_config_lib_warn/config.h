// config.h — command-line configuration.
#ifndef CONFIG_H
#define CONFIG_H
#include <dt/dt.h>
typedef struct { dt_device model_dev; dt_device data_dev; int epochs; } config;
void config_parse(config *c, int argc, char **argv);
#endif
