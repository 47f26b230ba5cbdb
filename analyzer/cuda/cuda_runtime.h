/* analyzer/cuda/cuda_runtime.h — a toolkit header name for toolkit-less parsing: tagcheck_cuda.h. */
#include "tagcheck_cuda.h"
