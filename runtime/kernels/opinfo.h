/* runtime/kernels/opinfo.h — facts about each backend operation (dt_op) that the backends
 * running runtime/kernels/ need on the host side: names for messages, operands to validate. Plain C, valid C++. */
#ifndef DT_KERNELS_OPINFO_H
#define DT_KERNELS_OPINFO_H

#include "dt/backend.h"

/* The operation's name, for messages. */
static inline const char *dt_k_op_name(dt_op op) {
  switch (op) {
    case DT_OP_FILL: return "fill";
    case DT_OP_ADD: return "add";
    case DT_OP_SUB: return "sub";
    case DT_OP_MUL: return "mul";
    case DT_OP_DIV: return "div";
    case DT_OP_GREATER: return "greater";
    case DT_OP_WHERE: return "where";
    case DT_OP_ADD_SCALAR: return "add_scalar";
    case DT_OP_MUL_SCALAR: return "mul_scalar";
    case DT_OP_NEG: return "neg";
    case DT_OP_EXP: return "exp";
    case DT_OP_LOG: return "log";
    case DT_OP_RELU: return "relu";
    case DT_OP_SIGMOID: return "sigmoid";
    case DT_OP_TANH: return "tanh";
    case DT_OP_SUM_DIM: return "sum_dim";
    case DT_OP_MATMUL: return "matmul";
    case DT_OP_TRANSPOSE: return "transpose";
    case DT_OP_COPY_SLICE: return "copy_slice";
    case DT_OP_MSE: return "mse";
    case DT_OP_RELU_GRAD: return "relu_grad";
    case DT_OP_SIGMOID_GRAD: return "sigmoid_grad";
    case DT_OP_TANH_GRAD: return "tanh_grad";
    case DT_OP_COUNT: break;
  }
  return "unknown operation";
}

/* How many of op->in[] an operation reads. */
static inline int dt_k_op_inputs(dt_op op) {
  switch (op) {
    case DT_OP_FILL:
    case DT_OP_COUNT:
      return 0;
    case DT_OP_ADD_SCALAR:
    case DT_OP_MUL_SCALAR:
    case DT_OP_NEG:
    case DT_OP_EXP:
    case DT_OP_LOG:
    case DT_OP_RELU:
    case DT_OP_SIGMOID:
    case DT_OP_TANH:
    case DT_OP_SUM_DIM:
    case DT_OP_TRANSPOSE:
    case DT_OP_COPY_SLICE:
      return 1;
    case DT_OP_ADD:
    case DT_OP_SUB:
    case DT_OP_MUL:
    case DT_OP_DIV:
    case DT_OP_GREATER:
    case DT_OP_MATMUL:
    case DT_OP_MSE:
    case DT_OP_RELU_GRAD:
    case DT_OP_SIGMOID_GRAD:
    case DT_OP_TANH_GRAD:
      return 2;
    case DT_OP_WHERE:
      return 3;
  }
  return 0;
}

#endif /* DT_KERNELS_OPINFO_H */
