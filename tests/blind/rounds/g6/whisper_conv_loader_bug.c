// provenance: blind round g6
// A whisper-style audio encoder front end: two conv layers' weights in a synthetic file,
// loaded onto the first GPU of the registry. The loader freads straight into tensor->data,
// as the old CPU-only loader did.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct whisper_hparams {
    int32_t n_mels;
    int32_t n_audio_state;
    int32_t n_ctx;
};

struct whisper_encoder {
    struct whisper_hparams hparams;
    struct ggml_tensor *e_pe;
    struct ggml_tensor *proj_w;
    struct ggml_tensor *proj_b;
    struct ggml_tensor *ln_w;
    struct ggml_context *ctx;
    ggml_backend_buffer_t buffer;
};

struct named_tensor {
    const char *name;
    struct ggml_tensor **slot;
};

static void dump_file(FILE *f, const struct whisper_hparams *hp) {
    fwrite(hp, sizeof *hp, 1, f);
    const char *names[4] = {"encoder.positional_embedding", "encoder.proj.weight",
                            "encoder.proj.bias", "encoder.ln.weight"};
    int64_t counts[4] = {(int64_t)hp->n_audio_state * hp->n_ctx,
                         (int64_t)hp->n_mels * hp->n_audio_state, hp->n_audio_state,
                         hp->n_audio_state};
    for (int t = 0; t < 4; t++) {
        int32_t len = (int32_t)strlen(names[t]);
        fwrite(&len, sizeof len, 1, f);
        fwrite(names[t], 1, (size_t)len, f);
        for (int64_t i = 0; i < counts[t]; i++) {
            float v = (float)((i + t) % 9) * 0.05f;
            fwrite(&v, sizeof v, 1, f);
        }
    }
}

static ggml_backend_t first_gpu(void) {
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
        ggml_backend_dev_t dev = ggml_backend_dev_get(i);
        if (ggml_backend_dev_type(dev) == GGML_BACKEND_DEVICE_TYPE_GPU) {
            printf("using %s (%s)\n", ggml_backend_dev_name(dev), ggml_backend_dev_description(dev));
            return ggml_backend_dev_init(dev, NULL);
        }
    }
    return NULL;
}

static int encoder_load(struct whisper_encoder *enc, FILE *f, ggml_backend_t backend) {
    if (fread(&enc->hparams, sizeof enc->hparams, 1, f) != 1) return 0;
    const struct whisper_hparams *hp = &enc->hparams;
    struct ggml_init_params ip = {ggml_tensor_overhead() * 8, NULL, true};
    enc->ctx = ggml_init(ip);
    enc->e_pe = ggml_new_tensor_2d(enc->ctx, GGML_TYPE_F32, hp->n_audio_state, hp->n_ctx);
    enc->proj_w = ggml_new_tensor_2d(enc->ctx, GGML_TYPE_F32, hp->n_mels, hp->n_audio_state);
    enc->proj_b = ggml_new_tensor_1d(enc->ctx, GGML_TYPE_F32, hp->n_audio_state);
    enc->ln_w = ggml_new_tensor_1d(enc->ctx, GGML_TYPE_F32, hp->n_audio_state);
    enc->buffer = ggml_backend_alloc_ctx_tensors(enc->ctx, backend);
    if (!enc->buffer) return 0;

    struct named_tensor table[4] = {
        {"encoder.positional_embedding", &enc->e_pe},
        {"encoder.proj.weight", &enc->proj_w},
        {"encoder.proj.bias", &enc->proj_b},
        {"encoder.ln.weight", &enc->ln_w},
    };
    for (int n = 0; n < 4; n++) {
        int32_t len = 0;
        char name[64];
        if (fread(&len, sizeof len, 1, f) != 1 || len <= 0 || len >= (int32_t)sizeof name) return 0;
        if (fread(name, 1, (size_t)len, f) != (size_t)len) return 0;
        name[len] = '\0';
        struct ggml_tensor *t = NULL;
        for (int k = 0; k < 4; k++)
            if (strcmp(table[k].name, name) == 0) t = *table[k].slot;
        if (!t) {
            fprintf(stderr, "unknown tensor %s\n", name);
            return 0;
        }
        ggml_set_name(t, name);
        size_t nbytes = ggml_nbytes(t);
        if (fread(t->data, 1, nbytes, f) != nbytes) { // expect-error: ggml-host-access
            fprintf(stderr, "%s: short read\n", name);
            return 0;
        }
    }
    return 1;
}

static struct ggml_cgraph *encoder_graph(struct ggml_context *ctx, const struct whisper_encoder *enc) {
    const struct whisper_hparams *hp = &enc->hparams;
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *mel = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, hp->n_mels, hp->n_ctx);
    ggml_set_name(mel, "mel");
    ggml_set_input(mel);
    struct ggml_tensor *cur = ggml_mul_mat(ctx, enc->proj_w, mel);
    cur = ggml_add(ctx, cur, enc->proj_b);
    cur = ggml_gelu(ctx, cur);
    cur = ggml_add(ctx, cur, enc->e_pe);
    cur = ggml_norm(ctx, cur, 1e-5f);
    cur = ggml_mul(ctx, cur, enc->ln_w);
    ggml_set_name(cur, "encoder_out");
    ggml_set_output(cur);
    ggml_build_forward_expand(gf, cur);
    return gf;
}

int main(int argc, char **argv) {
    struct whisper_hparams hp = {8, 16, 10};
    if (argc > 1) hp.n_ctx = atoi(argv[1]) > 0 ? atoi(argv[1]) : hp.n_ctx;
    FILE *f = tmpfile();
    if (!f) return 1;
    dump_file(f, &hp);
    rewind(f);

    ggml_backend_t backend = first_gpu();
    if (!backend) {
        fprintf(stderr, "this build needs a GPU\n");
        return 1;
    }
    struct whisper_encoder enc;
    memset(&enc, 0, sizeof enc);
    if (!encoder_load(&enc, f, backend)) {
        fprintf(stderr, "failed to load encoder\n");
        return 1;
    }
    fclose(f);

    struct ggml_init_params gp = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx0 = ggml_init(gp);
    struct ggml_cgraph *gf = encoder_graph(ctx0, &enc);
    ggml_gallocr_t alloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    ggml_gallocr_alloc_graph(alloc, gf);

    struct ggml_tensor *mel = ggml_graph_get_tensor(gf, "mel");
    float *mel_host = calloc((size_t)ggml_nelements(mel), sizeof(float));
    for (int64_t i = 0; i < ggml_nelements(mel); i++) mel_host[i] = (float)(i % 5) * 0.2f;
    ggml_backend_tensor_set(mel, mel_host, 0, ggml_nbytes(mel));
    ggml_backend_graph_compute(backend, gf);

    struct ggml_tensor *out = ggml_graph_get_tensor(gf, "encoder_out");
    float first[4];
    ggml_backend_tensor_get(out, first, 0, sizeof first);
    printf("encoder_out[0..3] = %.4f %.4f %.4f %.4f\n", first[0], first[1], first[2], first[3]);

    free(mel_host);
    ggml_gallocr_free(alloc);
    ggml_free(ctx0);
    ggml_backend_buffer_free(enc.buffer);
    ggml_free(enc.ctx);
    ggml_backend_free(backend);
    return 0;
}
