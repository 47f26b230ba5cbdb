// provenance: blind round g5
// greedy_lm: a bigram language model on the GPU, sampled greedily token by token.
// run-args: --gpu 0 --n-predict 4
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_VOCAB 64
#define N_EMBD 16

struct lm_hparams {
    int n_vocab;
    int n_embd;
};

struct lm_model {
    struct lm_hparams hp;
    struct ggml_tensor *tok_embd; /* [n_embd, n_vocab] */
    struct ggml_tensor *out_norm; /* [n_embd] */
    struct ggml_tensor *output;   /* [n_embd, n_vocab] */
    struct ggml_context *ctx;
    ggml_backend_buffer_t buffer;
};

struct lm_state {
    ggml_backend_t backend;
    ggml_gallocr_t galloc;
    struct ggml_context *ctx_compute;
    struct ggml_cgraph *graph;
    struct ggml_tensor *inp_tokens;
    struct ggml_tensor *logits;
};

static const char *vocab_piece(int id) {
    static char buf[8];
    snprintf(buf, sizeof buf, "<%02d>", id);
    return buf;
}

static int lm_load(struct lm_model *m, ggml_backend_t backend) {
    m->hp.n_vocab = N_VOCAB;
    m->hp.n_embd = N_EMBD;
    struct ggml_init_params ip = { 3 * ggml_tensor_overhead(), NULL, true };
    m->ctx = ggml_init(ip);
    m->tok_embd = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, m->hp.n_embd, m->hp.n_vocab);
    m->out_norm = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, m->hp.n_embd);
    m->output = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, m->hp.n_embd, m->hp.n_vocab);
    ggml_set_name(m->tok_embd, "token_embd.weight");
    ggml_set_name(m->out_norm, "output_norm.weight");
    ggml_set_name(m->output, "output.weight");

    m->buffer = ggml_backend_alloc_ctx_tensors(m->ctx, backend);
    if (!m->buffer) return -1;

    float *tmp = malloc(sizeof(float) * N_EMBD * N_VOCAB);
    for (int i = 0; i < N_EMBD * N_VOCAB; i++) tmp[i] = sinf(0.13f * (float)i);
    ggml_backend_tensor_set(m->tok_embd, tmp, 0, ggml_nbytes(m->tok_embd));
    for (int i = 0; i < N_EMBD * N_VOCAB; i++) tmp[i] = cosf(0.07f * (float)i + 0.5f);
    ggml_backend_tensor_set(m->output, tmp, 0, ggml_nbytes(m->output));
    for (int i = 0; i < N_EMBD; i++) tmp[i] = 1.0f;
    ggml_backend_tensor_set(m->out_norm, tmp, 0, ggml_nbytes(m->out_norm));
    free(tmp);
    return 0;
}

static void lm_build(struct lm_state *s, const struct lm_model *m) {
    size_t meta = ggml_tensor_overhead() * 32 + ggml_graph_overhead();
    struct ggml_init_params ip = { meta, NULL, true };
    s->ctx_compute = ggml_init(ip);
    s->graph = ggml_new_graph(s->ctx_compute);

    s->inp_tokens = ggml_new_tensor_1d(s->ctx_compute, GGML_TYPE_I32, 1);
    ggml_set_name(s->inp_tokens, "inp_tokens");
    ggml_set_input(s->inp_tokens);

    struct ggml_tensor *cur = ggml_get_rows(s->ctx_compute, m->tok_embd, s->inp_tokens);
    cur = ggml_rms_norm(s->ctx_compute, cur, 1e-6f);
    cur = ggml_mul(s->ctx_compute, cur, m->out_norm);
    s->logits = ggml_mul_mat(s->ctx_compute, m->output, cur);
    ggml_set_name(s->logits, "result_output");
    ggml_set_output(s->logits);
    ggml_build_forward_expand(s->graph, s->logits);

    s->galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(s->backend));
    ggml_gallocr_alloc_graph(s->galloc, s->graph);
}

static int sample_greedy(const struct ggml_tensor *logits, const int *recent, int n_recent, float penalty) {
    int best = -1;
    float best_v = -INFINITY;
    for (int i = 0; i < (int)logits->ne[0]; i++) {
        float v = ((const float *)logits->data)[i]; // expect-error: ggml-host-access
        for (int k = 0; k < n_recent; k++) {
            if (recent[k] == i) {
                v = v > 0 ? v / penalty : v * penalty;
                break;
            }
        }
        if (v > best_v) {
            best_v = v;
            best = i;
        }
    }
    return best;
}

int main(int argc, char **argv) {
    int gpu = 0, n_predict = 8;
    float penalty = 1.1f;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--gpu")) gpu = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--n-predict")) n_predict = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--repeat-penalty")) penalty = (float)atof(argv[i + 1]);
    }
    if (gpu < 0 || gpu >= ggml_backend_cuda_get_device_count()) gpu = 0;
    if (n_predict < 1 || n_predict > 64) n_predict = 8;
    if (penalty <= 0.0f) penalty = 1.0f;

    char desc[128];
    ggml_backend_cuda_get_device_description(gpu, desc, sizeof desc);
    printf("device %d: %s\n", gpu, desc);

    struct lm_state st;
    memset(&st, 0, sizeof st);
    st.backend = ggml_backend_cuda_init(gpu);
    if (!st.backend) {
        fprintf(stderr, "failed to init CUDA backend\n");
        return 1;
    }

    struct lm_model model;
    memset(&model, 0, sizeof model);
    if (lm_load(&model, st.backend) != 0) {
        fprintf(stderr, "failed to load model\n");
        ggml_backend_free(st.backend);
        return 1;
    }
    lm_build(&st, &model);

    int recent[64];
    int n_recent = 0;
    int32_t tok = 1;
    printf("%s", vocab_piece(tok));
    for (int i = 0; i < n_predict; i++) {
        ggml_backend_tensor_set(st.inp_tokens, &tok, 0, sizeof tok);
        ggml_backend_graph_compute(st.backend, st.graph);
        int next = sample_greedy(st.logits, recent, n_recent, penalty);
        if (next < 0) break;
        recent[n_recent++] = next;
        tok = next;
        printf("%s", vocab_piece(tok));
    }
    printf("\n");

    ggml_gallocr_free(st.galloc);
    ggml_free(st.ctx_compute);
    ggml_backend_buffer_free(model.buffer);
    ggml_free(model.ctx);
    ggml_backend_free(st.backend);
    return 0;
}
