/* analyzer/cuda/cublas_v2.h — cuBLAS's common declarations for toolkit-less parsing. */
#include "tagcheck_cuda.h"
#ifndef TAGCHECK_CUBLAS_V2_H
#define TAGCHECK_CUBLAS_V2_H
#ifdef __cplusplus
extern "C" {
#endif
typedef struct cublasContext *cublasHandle_t;
typedef enum { CUBLAS_STATUS_SUCCESS = 0 } cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;
cublasStatus_t cublasCreate(cublasHandle_t *h);
cublasStatus_t cublasDestroy(cublasHandle_t h);
cublasStatus_t cublasSetStream(cublasHandle_t h, cudaStream_t s);
cublasStatus_t cublasSgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                           int k, const float *alpha, const float *a, int lda, const float *b,
                           int ldb, const float *beta, float *c, int ldc);
#ifdef __cplusplus
}
#endif
#endif
