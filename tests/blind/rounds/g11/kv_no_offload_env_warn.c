// llama.cpp-style decode loop with a single-layer attention block on the GPU: weights in a
// GPU buffer, a K/V cache written through ggml_set_rows, per-step graphs allocated with a
// gallocr on the GPU and computed with ggml_backend_graph_compute on the GPU backend.
// The mistake: LLAMA_NO_KV_OFFLOAD=1 (as --no-kv-offload) puts the KV cache in a CPU buffer,
// but the decode graph is still computed by the GPU backend alone (no scheduler), so it reads
// and writes the cache in host memory the device cannot reach. Without the variable the cache
// is on the GPU and the run is clean.
// run-env: LLAMA_NO_KV_OFFLOAD=1
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

#define N_EMBD 32
#define N_CTX 16

struct layer {
    struct ggml_tensor *wq, *wk, *wv, *wo;
};

struct kv_cache {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *k, *v; /* [N_EMBD, N_CTX] */
    int n_used;
};

struct model {
    ggml_backend_t gpu, cpu;
    struct ggml_context *ctx_w;
    ggml_backend_buffer_t buf_w;
    struct layer l;
    struct kv_cache kv;
    ggml_gallocr_t galloc;
};

static bool env_flag(const char *name) {
    const char *v = getenv(name);
    return v && (strcmp(v, "1") == 0 || strcmp(v, "true") == 0);
}

static void init_weights(struct model *m) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 4, NULL, true};
    m->ctx_w = ggml_init(ip);
    struct ggml_tensor **w[4] = {&m->l.wq, &m->l.wk, &m->l.wv, &m->l.wo};
    for (int i = 0; i < 4; i++) *w[i] = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_F32, N_EMBD, N_EMBD);
    m->buf_w = ggml_backend_alloc_ctx_tensors(m->ctx_w, m->gpu);
    float *tmp = malloc(sizeof(float) * N_EMBD * N_EMBD);
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < N_EMBD * N_EMBD; j++) tmp[j] = (float)((j + 5 * i) % 9 - 4) / 32.0f;
        ggml_backend_tensor_set(*w[i], tmp, 0, ggml_nbytes(*w[i]));
    }
    free(tmp);
}

static void init_kv(struct model *m, bool offload) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 2, NULL, true};
    m->kv.ctx = ggml_init(ip);
    m->kv.k = ggml_new_tensor_2d(m->kv.ctx, GGML_TYPE_F32, N_EMBD, N_CTX);
    m->kv.v = ggml_new_tensor_2d(m->kv.ctx, GGML_TYPE_F32, N_EMBD, N_CTX);
    ggml_set_name(m->kv.k, "cache_k");
    ggml_set_name(m->kv.v, "cache_v");
    ggml_backend_t where = offload ? m->gpu : m->cpu;
    m->kv.buf = ggml_backend_alloc_ctx_tensors(m->kv.ctx, where);
    ggml_backend_buffer_clear(m->kv.buf, 0);
    m->kv.n_used = 0;
}

/* one token: write its K/V into cell n_used, attend over cells [0, n_used] */
static struct ggml_cgraph *build_decode(struct model *m, struct ggml_context *ctx,
                                        struct ggml_tensor **inp, struct ggml_tensor **slot) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    *inp = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_EMBD, 1);
    *slot = ggml_new_tensor_1d(ctx, GGML_TYPE_I64, 1);
    ggml_set_input(*inp);
    ggml_set_input(*slot);
    struct ggml_tensor *q = ggml_mul_mat(ctx, m->l.wq, *inp);
    struct ggml_tensor *k = ggml_mul_mat(ctx, m->l.wk, *inp);
    struct ggml_tensor *v = ggml_mul_mat(ctx, m->l.wv, *inp);
    ggml_build_forward_expand(gf, ggml_set_rows(ctx, m->kv.k, k, *slot));
    ggml_build_forward_expand(gf, ggml_set_rows(ctx, m->kv.v, v, *slot));

    const int n_kv = m->kv.n_used + 1;
    struct ggml_tensor *kc = ggml_view_2d(ctx, m->kv.k, N_EMBD, n_kv, m->kv.k->nb[1], 0);
    struct ggml_tensor *vc = ggml_view_2d(ctx, m->kv.v, N_EMBD, n_kv, m->kv.v->nb[1], 0);
    struct ggml_tensor *kq = ggml_soft_max(ctx, ggml_scale(ctx, ggml_mul_mat(ctx, kc, q), 0.125f));
    struct ggml_tensor *vt = ggml_cont(ctx, ggml_transpose(ctx, vc));
    struct ggml_tensor *att = ggml_mul_mat(ctx, vt, kq);
    struct ggml_tensor *out = ggml_add(ctx, *inp, ggml_mul_mat(ctx, m->l.wo, att));
    ggml_set_name(out, "out");
    ggml_set_output(out);
    ggml_build_forward_expand(gf, out);
    return gf;
}

static float decode_one(struct model *m, const float *x) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_tensor *inp, *slot;
    struct ggml_cgraph *gf = build_decode(m, ctx, &inp, &slot);
    ggml_gallocr_alloc_graph(m->galloc, gf);
    int64_t cell = m->kv.n_used;
    ggml_backend_tensor_set(inp, x, 0, ggml_nbytes(inp));
    ggml_backend_tensor_set(slot, &cell, 0, sizeof cell);
    ggml_backend_graph_compute(m->gpu, gf); // expect-warning: ggml-backend-mismatch
    float out[N_EMBD];
    ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "out"), out, 0, sizeof out);
    m->kv.n_used++;
    ggml_free(ctx);
    return out[0];
}

int main(void) {
    struct model m;
    memset(&m, 0, sizeof m);
    m.gpu = ggml_backend_cuda_init(0);
    m.cpu = ggml_backend_cpu_init();
    if (!m.gpu || !m.cpu) return 1;
    bool offload_kv = !env_flag("LLAMA_NO_KV_OFFLOAD");
    init_weights(&m);
    init_kv(&m, offload_kv);
    m.galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(m.gpu));

    float x[N_EMBD];
    float acc = 0.0f;
    for (int step = 0; step < 6; step++) {
        for (int i = 0; i < N_EMBD; i++) x[i] = (float)((i + step) % 7) / 7.0f;
        acc += decode_one(&m, x);
    }
    printf("kv %s, %d cells, acc %.4f\n", offload_kv ? "offloaded" : "on host", m.kv.n_used, acc);

    ggml_gallocr_free(m.galloc);
    ggml_backend_buffer_free(m.kv.buf);
    ggml_backend_buffer_free(m.buf_w);
    ggml_free(m.kv.ctx);
    ggml_free(m.ctx_w);
    ggml_backend_free(m.cpu);
    ggml_backend_free(m.gpu);
    return 0;
}
