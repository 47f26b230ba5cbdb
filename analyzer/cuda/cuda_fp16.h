/* analyzer/cuda/cuda_fp16.h — the half type's name for toolkit-less parsing (its arithmetic is
 * not declared: what uses it becomes unknown). */
#include "tagcheck_cuda.h"
#ifndef TAGCHECK_CUDA_FP16_H
#define TAGCHECK_CUDA_FP16_H
typedef struct __half { unsigned short x; } __half;
typedef struct __half2 { __half x, y; } __half2;
typedef __half half;
#endif
