// corpus/ggml/best_backend_switch_clean.c — a feature normalizer on whichever device
// ggml_backend_init_best picks. Whether its buffer is host memory is asked once, up front, and
// the answer is used twice: to upload the statistics (memcpy into t->data on the host, else
// ggml_backend_tensor_set) and, after a report that switches over the device's type, to read
// them back. The report reads t->data in the CPU case only. Clean: each branch keeps the
// devices it allows, and the second test of the flag keeps them after the first.
#include <stdio.h>
#include <string.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

#define N_FEAT 4

struct normalizer {
    struct ggml_context * ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor * mean;
};

static void report(ggml_backend_t be, const struct normalizer * nz) {
    float m0 = 0.0f;
    switch (ggml_backend_dev_type(ggml_backend_get_device(be))) {
    case GGML_BACKEND_DEVICE_TYPE_CPU:
        m0 = ((const float *) nz->mean->data)[0];
        break;
    case GGML_BACKEND_DEVICE_TYPE_GPU:
    default:
        ggml_backend_tensor_get(nz->mean, &m0, 0, sizeof m0);
        break;
    }
    printf("%s: mean[0] = %.2f\n", ggml_backend_name(be), m0);
}

int main(void) {
    ggml_backend_t be = ggml_backend_init_best();
    if (!be) return 1;
    struct normalizer nz;
    struct ggml_init_params p = { ggml_tensor_overhead(), NULL, true };
    nz.ctx = ggml_init(p);
    nz.mean = ggml_new_tensor_1d(nz.ctx, GGML_TYPE_F32, N_FEAT);
    nz.buf = ggml_backend_alloc_ctx_tensors(nz.ctx, be);
    if (!nz.buf) return 1;
    const int host = ggml_backend_buffer_is_host(nz.buf);

    const float mean[N_FEAT] = { 0.5f, 1.5f, -2.0f, 3.0f };
    if (host) {
        memcpy(nz.mean->data, mean, sizeof mean);
    } else {
        ggml_backend_tensor_set(nz.mean, mean, 0, sizeof mean);
    }
    report(be, &nz);
    float back[N_FEAT];
    if (host) {
        memcpy(back, nz.mean->data, sizeof back);
    } else {
        ggml_backend_tensor_get(nz.mean, back, 0, sizeof back);
    }
    printf("mean[3] = %.2f\n", back[3]);
    ggml_backend_buffer_free(nz.buf);
    ggml_free(nz.ctx);
    ggml_backend_free(be);
    return 0;
}
