// provenance: blind round g5
// patch_embed: ViT-style patchify with reshape/permute/cont, a class token concatenated in front,
// optional extra position bias (an empty context when absent), output rows read back by offset.
// run-env: IMG_DEVICE=CUDA1
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IMG 8
#define PATCH 4
#define CH 3
#define N_PATCH ((IMG / PATCH) * (IMG / PATCH))
#define PATCH_DIM (PATCH * PATCH * CH)
#define D_MODEL 16

struct vit_stem {
    ggml_backend_t backend;
    struct ggml_context *ctx_w;
    struct ggml_context *ctx_extra; /* may hold no tensors */
    ggml_backend_buffer_t buf_w;
    ggml_backend_buffer_t buf_extra; /* NULL when ctx_extra is empty */
    struct ggml_tensor *proj; /* [PATCH_DIM, D_MODEL] */
    struct ggml_tensor *cls;  /* [D_MODEL, 1] */
    struct ggml_tensor *pos;  /* [D_MODEL, N_PATCH + 1] */
    struct ggml_tensor *pos_extra; /* optional */
};

static ggml_backend_t backend_from_env(void) {
    const char *want = getenv("IMG_DEVICE");
    if (want) {
        for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
            ggml_backend_dev_t d = ggml_backend_dev_get(i);
            if (strcmp(ggml_backend_dev_name(d), want) == 0) return ggml_backend_dev_init(d, NULL);
        }
        fprintf(stderr, "IMG_DEVICE=%s not found\n", want);
    }
    return ggml_backend_cpu_init();
}

static void set_seq(struct ggml_tensor *t, float a, float b) {
    int n = (int)ggml_nelements(t);
    float *v = malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++) v[i] = a * sinf(b * (float)i);
    ggml_backend_tensor_set(t, v, 0, sizeof(float) * n);
    free(v);
}

static bool stem_init(struct vit_stem *s, bool with_extra) {
    s->backend = backend_from_env();
    if (!s->backend) return false;
    struct ggml_init_params ip = { 4 * ggml_tensor_overhead(), NULL, true };
    s->ctx_w = ggml_init(ip);
    s->ctx_extra = ggml_init(ip);
    s->proj = ggml_new_tensor_2d(s->ctx_w, GGML_TYPE_F32, PATCH_DIM, D_MODEL);
    s->cls = ggml_new_tensor_2d(s->ctx_w, GGML_TYPE_F32, D_MODEL, 1);
    s->pos = ggml_new_tensor_2d(s->ctx_w, GGML_TYPE_F32, D_MODEL, N_PATCH + 1);
    s->pos_extra = NULL;
    if (with_extra) s->pos_extra = ggml_new_tensor_2d(s->ctx_extra, GGML_TYPE_F32, D_MODEL, N_PATCH + 1);

    s->buf_w = ggml_backend_alloc_ctx_tensors(s->ctx_w, s->backend);
    if (!s->buf_w) return false;
    s->buf_extra = ggml_backend_alloc_ctx_tensors(s->ctx_extra, s->backend);
    if (!s->buf_extra && s->pos_extra) {
        fprintf(stderr, "failed to allocate extra position bias\n");
        return false;
    }
    set_seq(s->proj, 0.2f, 0.13f);
    set_seq(s->cls, 1.0f, 0.5f);
    set_seq(s->pos, 0.05f, 0.31f);
    if (s->pos_extra) set_seq(s->pos_extra, 0.01f, 0.77f);
    return true;
}

static void stem_free(struct vit_stem *s) {
    if (s->buf_extra) ggml_backend_buffer_free(s->buf_extra);
    if (s->buf_w) ggml_backend_buffer_free(s->buf_w);
    if (s->ctx_extra) ggml_free(s->ctx_extra);
    if (s->ctx_w) ggml_free(s->ctx_w);
    if (s->backend) ggml_backend_free(s->backend);
}

/* image: ne = [IMG (x), IMG (y), CH] -> patches [PATCH_DIM, N_PATCH] */
static struct ggml_tensor *patchify(struct ggml_context *ctx, struct ggml_tensor *img) {
    const int np = IMG / PATCH;
    /* [PATCH, np, PATCH, np*CH]: x = px + PATCH*ix, y = py + PATCH*iy */
    struct ggml_tensor *t = ggml_reshape_4d(ctx, img, PATCH, np, PATCH, np * CH);
    /* bring px, py together: [PATCH(px), PATCH(py), np(ix), np*CH] */
    t = ggml_cont(ctx, ggml_permute(ctx, t, 0, 2, 1, 3));
    /* [PATCH*PATCH, np, np, CH] -> [PATCH*PATCH, CH, np*np] */
    t = ggml_reshape_4d(ctx, t, PATCH * PATCH, np, np, CH);
    t = ggml_cont(ctx, ggml_permute(ctx, t, 0, 2, 3, 1));
    return ggml_reshape_2d(ctx, t, PATCH_DIM, N_PATCH);
}

static struct ggml_cgraph *build(struct ggml_context *ctx, struct vit_stem *s) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *img = ggml_new_tensor_3d(ctx, GGML_TYPE_F32, IMG, IMG, CH);
    ggml_set_name(img, "image");
    ggml_set_input(img);

    struct ggml_tensor *patches = patchify(ctx, img);
    ggml_set_name(patches, "patches");
    ggml_set_output(patches);
    struct ggml_tensor *emb = ggml_mul_mat(ctx, s->proj, patches); /* [D_MODEL, N_PATCH] */
    struct ggml_tensor *seq = ggml_concat(ctx, s->cls, emb, 1); /* [D_MODEL, N_PATCH+1] */
    seq = ggml_add(ctx, seq, s->pos);
    if (s->pos_extra) seq = ggml_add(ctx, seq, s->pos_extra);
    /* drop the class token again for the patch tokens output, keep both */
    struct ggml_tensor *tok = ggml_view_2d(ctx, seq, D_MODEL, N_PATCH, seq->nb[1], seq->nb[1]);
    tok = ggml_cont(ctx, tok);
    ggml_set_name(tok, "patch_tokens");
    ggml_set_output(tok);
    ggml_set_name(seq, "sequence");
    ggml_set_output(seq);
    ggml_build_forward_expand(gf, seq);
    ggml_build_forward_expand(gf, tok);
    return gf;
}

int main(int argc, char **argv) {
    bool with_extra = argc > 1 && strcmp(argv[1], "--extra-pos") == 0;
    struct vit_stem stem;
    memset(&stem, 0, sizeof stem);
    if (!stem_init(&stem, with_extra)) {
        stem_free(&stem);
        return 1;
    }
    printf("backend %s, extra bias %s\n", ggml_backend_name(stem.backend), stem.buf_extra ? "yes" : "no");

    size_t meta = ggml_tensor_overhead() * 64 + ggml_graph_overhead();
    struct ggml_init_params gp = { meta, NULL, true };
    struct ggml_context *ctx = ggml_init(gp);
    struct ggml_cgraph *gf = build(ctx, &stem);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(stem.backend));
    if (!ggml_gallocr_alloc_graph(ga, gf)) return 1;

    float img[IMG * IMG * CH];
    for (int c = 0; c < CH; c++)
        for (int y = 0; y < IMG; y++)
            for (int x = 0; x < IMG; x++) img[(c * IMG + y) * IMG + x] = (float)(x + 10 * y + 100 * c) / 100.0f;
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "image"), img, 0, sizeof img);
    ggml_backend_graph_compute(stem.backend, gf);

    /* patch 1 = top-right: its first element is pixel (x=4, y=0, c=0) */
    struct ggml_tensor *patches = ggml_graph_get_tensor(gf, "patches");
    float first;
    ggml_backend_tensor_get(patches, &first, 1 * patches->nb[1], sizeof first);
    printf("patch 1 starts with %.2f (expect 0.04)\n", first);

    struct ggml_tensor *seq = ggml_graph_get_tensor(gf, "sequence");
    struct ggml_tensor *tok = ggml_graph_get_tensor(gf, "patch_tokens");
    float row_seq[D_MODEL], row_tok[D_MODEL];
    for (int p = 0; p < N_PATCH; p++) {
        ggml_backend_tensor_get(seq, row_seq, (size_t)(p + 1) * seq->nb[1], sizeof row_seq);
        ggml_backend_tensor_get(tok, row_tok, (size_t)p * tok->nb[1], sizeof row_tok);
        float diff = 0;
        for (int i = 0; i < D_MODEL; i++) diff += fabsf(row_seq[i] - row_tok[i]);
        printf("token %d: %.4f %.4f ... diff %.6f\n", p, row_tok[0], row_tok[1], diff);
    }

    ggml_gallocr_free(ga);
    ggml_free(ctx);
    stem_free(&stem);
    return 0;
}
