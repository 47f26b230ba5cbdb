// run-args: --gpu 1
//
// A llama-style checkpoint loader: a small binary file of named tensors (written here as a
// fixture), metadata pass -> no_alloc context -> one buffer on the chosen GPU -> data pass.
// The data pass still reads straight into t->data, as the loader's CPU-only version did.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TENSORS 32
#define MAGIC 0x46474754u /* "TGGF" */

struct tensor_rec {
    char name[64];
    int n_dims;
    int64_t ne[4];
    long offset; // of the data in the file
    struct ggml_tensor *t;
};

struct loader {
    FILE *f;
    uint32_t n_tensors;
    struct tensor_rec recs[MAX_TENSORS];
    size_t bytes_read;
};

struct llama_model {
    struct ggml_context *ctx;
    ggml_backend_t backend;
    ggml_backend_buffer_t buf;
    int n_embd, n_vocab, n_layer;
};

static void write_tensor(FILE *f, const char *name, int n_dims, const int64_t *ne, float fill) {
    uint32_t len = (uint32_t) strlen(name);
    fwrite(&len, sizeof len, 1, f);
    fwrite(name, 1, len, f);
    fwrite(&n_dims, sizeof n_dims, 1, f);
    int64_t n = 1;
    for (int i = 0; i < n_dims; i++) {
        fwrite(&ne[i], sizeof ne[i], 1, f);
        n *= ne[i];
    }
    for (int64_t i = 0; i < n; i++) {
        float v = fill * (float) ((i % 7) - 3);
        fwrite(&v, sizeof v, 1, f);
    }
}

static FILE *write_fixture(int n_embd, int n_vocab, int n_layer) {
    FILE *f = tmpfile();
    if (!f) return NULL;
    uint32_t magic = MAGIC, n = 1 + 3 * (uint32_t) n_layer + 1;
    fwrite(&magic, sizeof magic, 1, f);
    fwrite(&n, sizeof n, 1, f);
    int64_t emb[2] = { n_embd, n_vocab };
    write_tensor(f, "token_embd.weight", 2, emb, 0.01f);
    for (int il = 0; il < n_layer; il++) {
        char name[64];
        int64_t sq[2] = { n_embd, n_embd };
        int64_t vec[1] = { n_embd };
        snprintf(name, sizeof name, "blk.%d.attn_norm.weight", il);
        write_tensor(f, name, 1, vec, 1.0f);
        snprintf(name, sizeof name, "blk.%d.attn_q.weight", il);
        write_tensor(f, name, 2, sq, 0.02f);
        snprintf(name, sizeof name, "blk.%d.ffn_down.weight", il);
        write_tensor(f, name, 2, sq, 0.03f);
    }
    write_tensor(f, "output_norm.weight", 1, (int64_t[]){ n_embd }, 1.0f);
    fflush(f);
    rewind(f);
    return f;
}

static int read_exact(struct loader *ld, void *dst, size_t n) {
    size_t got = fread(dst, 1, n, ld->f); // expect-error: ggml-host-access
    ld->bytes_read += got;
    return got == n ? 0 : -1;
}

static int load_metadata(struct loader *ld) {
    uint32_t magic = 0;
    if (fread(&magic, sizeof magic, 1, ld->f) != 1 || magic != MAGIC) return -1;
    if (fread(&ld->n_tensors, sizeof ld->n_tensors, 1, ld->f) != 1) return -1;
    if (ld->n_tensors > MAX_TENSORS) return -1;
    for (uint32_t i = 0; i < ld->n_tensors; i++) {
        struct tensor_rec *r = &ld->recs[i];
        uint32_t len = 0;
        if (fread(&len, sizeof len, 1, ld->f) != 1 || len >= sizeof r->name) return -1;
        if (fread(r->name, 1, len, ld->f) != len) return -1;
        r->name[len] = '\0';
        if (fread(&r->n_dims, sizeof r->n_dims, 1, ld->f) != 1 || r->n_dims < 1 || r->n_dims > 4) return -1;
        int64_t n = 1;
        for (int d = 0; d < 4; d++) r->ne[d] = 1;
        for (int d = 0; d < r->n_dims; d++) {
            if (fread(&r->ne[d], sizeof r->ne[d], 1, ld->f) != 1) return -1;
            n *= r->ne[d];
        }
        r->offset = ftell(ld->f);
        fseek(ld->f, (long) (n * sizeof(float)), SEEK_CUR);
    }
    return 0;
}

static void create_tensors(struct loader *ld, struct llama_model *m) {
    struct ggml_init_params ip = { ggml_tensor_overhead() * ld->n_tensors, NULL, true };
    m->ctx = ggml_init(ip);
    for (uint32_t i = 0; i < ld->n_tensors; i++) {
        struct tensor_rec *r = &ld->recs[i];
        r->t = ggml_new_tensor(m->ctx, GGML_TYPE_F32, r->n_dims, r->ne);
        ggml_set_name(r->t, r->name);
    }
}

static int load_tensor_data(struct loader *ld, struct tensor_rec *r) {
    if (fseek(ld->f, r->offset, SEEK_SET) != 0) return -1;
    return read_exact(ld, r->t->data, ggml_nbytes(r->t));
}

static int load_all(struct loader *ld) {
    for (uint32_t i = 0; i < ld->n_tensors; i++) {
        if (load_tensor_data(ld, &ld->recs[i]) != 0) {
            fprintf(stderr, "short read in %s\n", ld->recs[i].name);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    int gpu = 0;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--gpu") == 0) gpu = atoi(argv[i + 1]);
    }
    int n_gpu = ggml_backend_cuda_get_device_count();
    if (n_gpu == 0) {
        fprintf(stderr, "this loader needs a GPU\n");
        return 1;
    }
    if (gpu < 0 || gpu >= n_gpu) gpu = 0;

    struct llama_model model = { NULL, NULL, NULL, 16, 32, 2 };
    struct loader ld;
    memset(&ld, 0, sizeof ld);
    ld.f = write_fixture(model.n_embd, model.n_vocab, model.n_layer);
    if (ld.f == NULL || load_metadata(&ld) != 0) {
        fprintf(stderr, "bad model file\n");
        return 1;
    }

    create_tensors(&ld, &model);
    model.backend = ggml_backend_cuda_init(gpu);
    model.buf = ggml_backend_alloc_ctx_tensors_from_buft(model.ctx, ggml_backend_cuda_buffer_type(gpu));
    if (model.buf == NULL) {
        fprintf(stderr, "failed to allocate the weights\n");
        return 1;
    }
    printf("weights: %s, %zu bytes\n", ggml_backend_buffer_name(model.buf), ggml_backend_buffer_get_size(model.buf));

    if (load_all(&ld) != 0) return 1;
    printf("loaded %u tensors, %zu bytes\n", ld.n_tensors, ld.bytes_read);

    fclose(ld.f);
    ggml_backend_buffer_free(model.buf);
    ggml_backend_free(model.backend);
    ggml_free(model.ctx);
    return 0;
}
