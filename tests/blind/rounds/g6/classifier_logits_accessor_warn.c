// provenance: blind round g6
// run-args: --device gpu --top 3
// Text classifier head: mean-pooled token embeddings -> linear -> softmax. The device comes
// from --device; the top-k report reads the probabilities with ggml_get_f32_1d, which is
// only right while the output sits in host memory.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cls_hparams {
    int n_vocab;
    int n_embd;
    int n_labels;
};

struct cls_options {
    const char *device;
    int top_k;
    int n_threads;
};

struct cls_model {
    struct cls_hparams hp;
    struct ggml_tensor *embd;
    struct ggml_tensor *head_w;
    struct ggml_tensor *head_b;
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
};

static void parse_args(struct cls_options *o, int argc, char **argv) {
    o->device = "cpu";
    o->top_k = 2;
    o->n_threads = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--device") == 0) o->device = argv[i + 1];
        else if (strcmp(argv[i], "--top") == 0) o->top_k = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--threads") == 0) o->n_threads = atoi(argv[i + 1]);
    }
    if (o->top_k < 1) o->top_k = 1;
}

static ggml_backend_t make_backend(const struct cls_options *o) {
    ggml_backend_t b = NULL;
    if (strcmp(o->device, "gpu") == 0) b = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, NULL);
    if (!b) {
        b = ggml_backend_cpu_init();
        ggml_backend_cpu_set_n_threads(b, o->n_threads);
    }
    return b;
}

static void init_weights(struct cls_model *m, ggml_backend_t backend) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 3, NULL, true};
    m->ctx = ggml_init(ip);
    m->embd = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, m->hp.n_embd, m->hp.n_vocab);
    m->head_w = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, m->hp.n_embd, m->hp.n_labels);
    m->head_b = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, m->hp.n_labels);
    m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, backend);
    struct ggml_tensor *ts[3] = {m->embd, m->head_w, m->head_b};
    for (int t = 0; t < 3; t++) {
        int64_t n = ggml_nelements(ts[t]);
        float *v = malloc((size_t)n * sizeof(float));
        for (int64_t i = 0; i < n; i++) v[i] = (float)((i * (t + 3)) % 19) / 19.0f - 0.5f;
        ggml_backend_tensor_set(ts[t], v, 0, ggml_nbytes(ts[t]));
        free(v);
    }
}

static struct ggml_cgraph *classify_graph(struct ggml_context *ctx, const struct cls_model *m, int n_tok) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *ids = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n_tok);
    ggml_set_name(ids, "ids");
    ggml_set_input(ids);
    struct ggml_tensor *x = ggml_get_rows(ctx, m->embd, ids);       // [n_embd, n_tok]
    struct ggml_tensor *xt = ggml_cont(ctx, ggml_transpose(ctx, x)); // [n_tok, n_embd]
    struct ggml_tensor *pooled = ggml_mean(ctx, xt);                 // [1, n_embd]
    pooled = ggml_reshape_1d(ctx, pooled, m->hp.n_embd);
    struct ggml_tensor *logits = ggml_add(ctx, ggml_mul_mat(ctx, m->head_w, pooled), m->head_b);
    struct ggml_tensor *probs = ggml_soft_max(ctx, logits);
    ggml_set_name(probs, "probs");
    ggml_set_output(probs);
    ggml_build_forward_expand(gf, probs);
    return gf;
}

struct cls_stats {
    int n_samples;
    double entropy_sum;
    int label_hist[64];
    int64_t t_compute_us;
};

static void print_usage(const char *argv0) {
    fprintf(stderr, "usage: %s [--device cpu|gpu] [--top K] [--threads N]\n", argv0);
}

static double entropy(const float *p, int n) {
    double h = 0.0;
    for (int i = 0; i < n; i++)
        if (p[i] > 0.0f) h -= (double)p[i] * log((double)p[i]);
    return h;
}

static void stats_add(struct cls_stats *st, const struct ggml_tensor *probs, int n_labels) {
    float p[64];
    ggml_backend_tensor_get(probs, p, 0, (size_t)n_labels * sizeof(float));
    int best = 0;
    for (int i = 1; i < n_labels; i++) if (p[i] > p[best]) best = i;
    st->label_hist[best]++;
    st->entropy_sum += entropy(p, n_labels);
    st->n_samples++;
}

static void stats_print(const struct cls_stats *st, int n_labels) {
    printf("%d samples, mean entropy %.4f, compute %.3f ms\n", st->n_samples,
           st->n_samples ? st->entropy_sum / st->n_samples : 0.0, (double)st->t_compute_us / 1000.0);
    for (int i = 0; i < n_labels; i++) printf("  label %d: %d\n", i, st->label_hist[i]);
}

static void report_top_k(const struct ggml_tensor *probs, int k, int n_labels) {
    int used[64] = {0};
    for (int r = 0; r < k && r < n_labels; r++) {
        int best = -1;
        float best_p = -1.0f;
        for (int i = 0; i < n_labels; i++) {
            float p = ggml_get_f32_1d(probs, i); // expect-warning: ggml-host-access
            if (!used[i] && p > best_p) {
                best_p = p;
                best = i;
            }
        }
        used[best] = 1;
        printf("  #%d label %d p=%.4f\n", r + 1, best, best_p);
    }
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--help") == 0) {
        print_usage(argv[0]);
        return 0;
    }
    ggml_time_init();
    struct cls_options opt;
    parse_args(&opt, argc, argv);
    struct cls_stats stats;
    memset(&stats, 0, sizeof stats);
    struct cls_model model;
    memset(&model, 0, sizeof model);
    model.hp.n_vocab = 64;
    model.hp.n_embd = 16;
    model.hp.n_labels = 6;

    ggml_backend_t backend = make_backend(&opt);
    printf("classifier on %s\n", ggml_backend_name(backend));
    init_weights(&model, backend);

    const char *texts[3] = {"the cat sat", "ggml on gpu", "hello world again"};
    ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    for (int s = 0; s < 3; s++) {
        int n_tok = (int)strlen(texts[s]);
        int32_t ids[64];
        for (int i = 0; i < n_tok; i++) ids[i] = (unsigned char)texts[s][i] % model.hp.n_vocab;
        struct ggml_init_params gp = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), NULL, true};
        struct ggml_context *ctx0 = ggml_init(gp);
        struct ggml_cgraph *gf = classify_graph(ctx0, &model, n_tok);
        ggml_gallocr_alloc_graph(galloc, gf);
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "ids"), ids, 0, (size_t)n_tok * sizeof(int32_t));
        int64_t t0 = ggml_time_us();
        ggml_backend_graph_compute(backend, gf);
        stats.t_compute_us += ggml_time_us() - t0;
        stats_add(&stats, ggml_graph_get_tensor(gf, "probs"), model.hp.n_labels);
        printf("\"%s\":\n", texts[s]);
        report_top_k(ggml_graph_get_tensor(gf, "probs"), opt.top_k, model.hp.n_labels);
        ggml_free(ctx0);
    }
    stats_print(&stats, model.hp.n_labels);
    ggml_gallocr_free(galloc);
    ggml_backend_buffer_free(model.buf);
    ggml_free(model.ctx);
    ggml_backend_free(backend);
    return 0;
}
