// RWKV-style recurrent decoding with a pool of per-sequence state slots: each step mixes the
// token embedding into the slot's state (time-decay), projects the new state to logits and
// writes the state back with ggml_cpy. --fork N forks sequence 0 into a new sequence after N
// steps (as parallel sampling does) and decodes both.
// run-args: --steps 6 --fork 3
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml.h"

#define N_VOCAB 32
#define N_EMBD 24
#define MAX_SLOTS 4

struct rwkv_model {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *emb;    // [N_EMBD, N_VOCAB]
    struct ggml_tensor *decay;  // [N_EMBD]
    struct ggml_tensor *head;   // [N_EMBD, N_VOCAB]
};

struct state_pool {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *slots[MAX_SLOTS];
    int n_slots;
};

static void upload_sin(struct ggml_tensor *t, float scale, float freq) {
    size_t n = (size_t)ggml_nelements(t);
    float *v = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) v[i] = scale * sinf(freq * (float)(i + 1));
    ggml_backend_tensor_set(t, v, 0, n * sizeof(float));
    free(v);
}

static void model_init(struct rwkv_model *m, ggml_backend_t backend) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 3, NULL, true};
    m->ctx = ggml_init(ip);
    m->emb = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
    m->decay = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, N_EMBD);
    m->head = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
    m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, backend);
    upload_sin(m->emb, 0.8f, 0.21f);
    float d[N_EMBD];
    for (int i = 0; i < N_EMBD; i++) d[i] = 0.5f + 0.4f * (float)i / N_EMBD;
    ggml_backend_tensor_set(m->decay, d, 0, sizeof d);
    upload_sin(m->head, 0.5f, 0.07f);
}

static struct ggml_tensor *new_slot(struct state_pool *p) {
    struct ggml_tensor *s = ggml_new_tensor_1d(p->ctx, GGML_TYPE_F32, N_EMBD);
    ggml_format_name(s, "state.%d", p->n_slots);
    p->slots[p->n_slots++] = s;
    return s;
}

static void pool_init(struct state_pool *p, ggml_backend_t backend, int n_initial) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * MAX_SLOTS, NULL, true};
    p->ctx = ggml_init(ip);
    p->n_slots = 0;
    for (int i = 0; i < n_initial; i++) new_slot(p);
    p->buf = ggml_backend_alloc_ctx_tensors(p->ctx, backend);
    ggml_backend_buffer_clear(p->buf, 0);
}

// a new sequence that continues from src's state
static int state_fork(struct state_pool *p, int src) {
    if (p->n_slots == MAX_SLOTS) return -1;
    float tmp[N_EMBD];
    ggml_backend_tensor_get(p->slots[src], tmp, 0, sizeof tmp);
    struct ggml_tensor *dst = new_slot(p);
    ggml_backend_tensor_set(dst, tmp, 0, sizeof tmp); // expect-warning: ggml-buffer-not-set
    return p->n_slots - 1;
}

static int argmax(const float *v, int n) {
    int best = 0;
    for (int i = 1; i < n; i++)
        if (v[i] > v[best]) best = i;
    return best;
}

static int rwkv_step(const struct rwkv_model *m, struct state_pool *p, ggml_backend_t backend,
                     ggml_gallocr_t ga, int slot, int token) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *tok = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 1);
    ggml_set_input(tok);
    struct ggml_tensor *x = ggml_get_rows(ctx, m->emb, tok);               // [N_EMBD, 1]
    struct ggml_tensor *st = p->slots[slot];
    struct ggml_tensor *mixed = ggml_add(ctx, ggml_mul(ctx, st, m->decay), ggml_reshape_1d(ctx, x, N_EMBD));
    mixed = ggml_tanh(ctx, mixed);
    struct ggml_tensor *logits = ggml_mul_mat(ctx, m->head, mixed);
    ggml_set_output(logits);
    ggml_build_forward_expand(gf, logits);
    ggml_build_forward_expand(gf, ggml_cpy(ctx, mixed, st));
    ggml_gallocr_alloc_graph(ga, gf);
    int32_t t = token;
    ggml_backend_tensor_set(tok, &t, 0, sizeof t);
    ggml_backend_graph_compute(backend, gf);
    float out[N_VOCAB];
    ggml_backend_tensor_get(logits, out, 0, sizeof out);
    ggml_free(ctx);
    return argmax(out, N_VOCAB);
}

int main(int argc, char **argv) {
    int steps = 5, fork_at = -1;
    const char *dev_name = getenv("RWKV_DEVICE");
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--steps") == 0) steps = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--fork") == 0) fork_at = atoi(argv[i + 1]);
    }
    ggml_backend_t backend = dev_name ? ggml_backend_init_by_name(dev_name, NULL)
                                      : ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, NULL);
    if (!backend) backend = ggml_backend_cpu_init();

    struct rwkv_model m;
    struct state_pool pool;
    model_init(&m, backend);
    pool_init(&pool, backend, 1);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));

    int seq_tok[MAX_SLOTS] = {3, 0, 0, 0};
    int n_seq = 1;
    for (int s = 0; s < steps; s++) {
        if (s == fork_at && n_seq < MAX_SLOTS) {
            int slot = state_fork(&pool, 0);
            if (slot >= 0) {
                seq_tok[slot] = seq_tok[0];
                n_seq++;
            }
        }
        for (int q = 0; q < n_seq; q++) {
            int next = rwkv_step(&m, &pool, backend, ga, q, seq_tok[q]);
            seq_tok[q] = q == 0 ? next : (next + 1) % N_VOCAB; // the fork samples differently
        }
        printf("rwkv: step %d:", s);
        for (int q = 0; q < n_seq; q++) printf(" seq%d=%d", q, seq_tok[q]);
        printf("\n");
    }

    ggml_gallocr_free(ga);
    ggml_backend_buffer_free(pool.buf);
    ggml_free(pool.ctx);
    ggml_backend_buffer_free(m.buf);
    ggml_free(m.ctx);
    ggml_backend_free(backend);
    return 0;
}
