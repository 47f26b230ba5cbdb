/* analyzer/cuda/device_launch_parameters.h — a toolkit header name for toolkit-less parsing: tagcheck_cuda.h. */
#include "tagcheck_cuda.h"
