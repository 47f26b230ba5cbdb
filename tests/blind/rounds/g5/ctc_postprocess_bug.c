// provenance: blind round g5
// ctc_postprocess: an acoustic model on the GPU; the small log-softmax / blank-penalty pass
// afterwards runs on the CPU backend "because it is tiny".
// run-args: --frames 10 --blank-penalty 0.5
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_FEAT 16
#define N_HID 24
#define N_LABELS 8 /* label 0 is the CTC blank */

struct am_config {
    int n_frames;
    float blank_penalty;
    int n_threads;
};

struct acoustic_model {
    ggml_backend_t gpu;
    ggml_backend_t cpu;
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *w1, *b1, *w2, *b2;
};

struct am_run {
    struct ggml_context *ctx;
    struct ggml_cgraph *gf;
    ggml_gallocr_t galloc;
    struct ggml_tensor *feats;
    struct ggml_tensor *logits; /* [N_LABELS, n_frames], in the GPU compute buffer */
};

static void config_from_args(struct am_config *c, int argc, char **argv) {
    c->n_frames = 8;
    c->blank_penalty = 0.0f;
    c->n_threads = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--frames")) c->n_frames = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--blank-penalty")) c->blank_penalty = (float)atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--threads")) c->n_threads = atoi(argv[i + 1]);
    }
    if (c->n_frames < 1 || c->n_frames > 256) c->n_frames = 8;
    if (c->n_threads < 1) c->n_threads = 1;
}

static void upload(struct ggml_tensor *t, float scale, int salt) {
    int n = (int)ggml_nelements(t);
    float *v = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) v[i] = scale * sinf(0.7f * (float)i + (float)salt);
    ggml_backend_tensor_set(t, v, 0, n * sizeof(float));
    free(v);
}

static int model_init(struct acoustic_model *m, const struct am_config *c) {
    m->gpu = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, NULL);
    m->cpu = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, NULL);
    if (!m->gpu || !m->cpu) return -1;
    ggml_backend_cpu_set_n_threads(m->cpu, c->n_threads);

    struct ggml_init_params ip = { 4 * ggml_tensor_overhead(), NULL, true };
    m->ctx = ggml_init(ip);
    m->w1 = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_FEAT, N_HID);
    m->b1 = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, N_HID);
    m->w2 = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_HID, N_LABELS);
    m->b2 = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, N_LABELS);
    m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, m->gpu);
    if (!m->buf) return -1;
    upload(m->w1, 0.3f, 1);
    upload(m->b1, 0.1f, 2);
    upload(m->w2, 0.3f, 3);
    upload(m->b2, 0.1f, 4);
    return 0;
}

static void run_init(struct am_run *r, const struct acoustic_model *m, int n_frames) {
    size_t meta = ggml_tensor_overhead() * 32 + ggml_graph_overhead();
    struct ggml_init_params ip = { meta, NULL, true };
    r->ctx = ggml_init(ip);
    r->feats = ggml_new_tensor_2d(r->ctx, GGML_TYPE_F32, N_FEAT, n_frames);
    ggml_set_input(r->feats);
    struct ggml_tensor *h = ggml_silu(r->ctx, ggml_add(r->ctx, ggml_mul_mat(r->ctx, m->w1, r->feats), m->b1));
    r->logits = ggml_add(r->ctx, ggml_mul_mat(r->ctx, m->w2, h), m->b2);
    ggml_set_name(r->logits, "logits");
    ggml_set_output(r->logits);
    r->gf = ggml_new_graph(r->ctx);
    ggml_build_forward_expand(r->gf, r->logits);
    r->galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(m->gpu));
    ggml_gallocr_alloc_graph(r->galloc, r->gf);
}

/* log_softmax(logits) - penalty on the blank column, on the CPU */
static void postprocess(const struct acoustic_model *m, struct am_run *r, float penalty, float *out) {
    size_t meta = ggml_tensor_overhead() * 16 + ggml_graph_overhead();
    struct ggml_init_params ip = { meta, NULL, true };
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_tensor *pen = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, N_LABELS);
    ggml_set_input(pen);
    struct ggml_tensor *lp = ggml_log(ctx, ggml_soft_max(ctx, r->logits));
    lp = ggml_sub(ctx, lp, pen);
    ggml_set_output(lp);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    ggml_build_forward_expand(gf, lp);

    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(m->cpu));
    ggml_gallocr_alloc_graph(ga, gf);
    float p[N_LABELS] = {0};
    p[0] = penalty;
    ggml_backend_tensor_set(pen, p, 0, sizeof p);
    ggml_backend_graph_compute(m->cpu, gf); // expect-error: ggml-backend-mismatch
    ggml_backend_tensor_get(lp, out, 0, ggml_nbytes(lp));
    ggml_gallocr_free(ga);
    ggml_free(ctx);
}

static int greedy_ctc(const float *lp, int n_frames, int *labels) {
    int n = 0, prev = -1;
    for (int t = 0; t < n_frames; t++) {
        const float *row = lp + t * N_LABELS;
        int best = 0;
        for (int k = 1; k < N_LABELS; k++)
            if (row[k] > row[best]) best = k;
        if (best != prev && best != 0) labels[n++] = best;
        prev = best;
    }
    return n;
}

int main(int argc, char **argv) {
    struct am_config cfg;
    config_from_args(&cfg, argc, argv);

    struct acoustic_model model;
    memset(&model, 0, sizeof model);
    if (model_init(&model, &cfg) != 0) {
        fprintf(stderr, "model init failed\n");
        return 1;
    }

    struct am_run run;
    run_init(&run, &model, cfg.n_frames);
    float *feats = malloc(sizeof(float) * N_FEAT * cfg.n_frames);
    for (int i = 0; i < N_FEAT * cfg.n_frames; i++) feats[i] = cosf(0.21f * (float)i);
    ggml_backend_tensor_set(run.feats, feats, 0, ggml_nbytes(run.feats));
    ggml_backend_graph_compute(model.gpu, run.gf);

    float *lp = malloc(sizeof(float) * N_LABELS * cfg.n_frames);
    postprocess(&model, &run, cfg.blank_penalty, lp);
    int labels[256];
    int n = greedy_ctc(lp, cfg.n_frames, labels);
    printf("decoded %d labels:", n);
    for (int i = 0; i < n; i++) printf(" %d", labels[i]);
    printf("\n");

    free(lp);
    free(feats);
    ggml_gallocr_free(run.galloc);
    ggml_free(run.ctx);
    ggml_backend_buffer_free(model.buf);
    ggml_free(model.ctx);
    ggml_backend_free(model.cpu);
    ggml_backend_free(model.gpu);
    return 0;
}
