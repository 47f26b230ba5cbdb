// provenance: blind round g5
// checkpoint_mmap: saves a small regression model to a flat checkpoint file, reloads it (optionally
// through mmap, copying straight from the mapping), and evaluates it.
// run-args: --gpu --mmap
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define N_IN 6
#define N_OUT 3
#define CKPT_MAGIC 0x67676d6cu

struct cfg {
    bool use_gpu;
    bool use_mmap;
    char path[256];
};

struct reg_model {
    ggml_backend_t backend;
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *tensors[2]; /* weight, bias */
};

struct ckpt_header {
    uint32_t magic;
    uint32_t n_tensors;
    uint64_t sizes[2];
};

static void parse(struct cfg *c, int argc, char **argv) {
    c->use_gpu = false;
    c->use_mmap = false;
    snprintf(c->path, sizeof c->path, "/tmp/ckpt_mmap_%d.bin", (int)getpid());
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gpu")) c->use_gpu = true;
        else if (!strcmp(argv[i], "--mmap")) c->use_mmap = true;
    }
}

static int model_create(struct reg_model *m, const struct cfg *c) {
    if (c->use_gpu) {
        m->backend = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, NULL);
    } else {
        m->backend = ggml_backend_cpu_init();
    }
    if (!m->backend) return -1;
    struct ggml_init_params ip = { 2 * ggml_tensor_overhead(), NULL, true };
    m->ctx = ggml_init(ip);
    m->tensors[0] = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_IN, N_OUT);
    m->tensors[1] = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, N_OUT);
    ggml_set_name(m->tensors[0], "reg.weight");
    ggml_set_name(m->tensors[1], "reg.bias");
    m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, m->backend);
    return m->buf ? 0 : -1;
}

static void model_destroy(struct reg_model *m) {
    if (m->buf) ggml_backend_buffer_free(m->buf);
    if (m->ctx) ggml_free(m->ctx);
    if (m->backend) ggml_backend_free(m->backend);
    memset(m, 0, sizeof *m);
}

static int write_checkpoint(const char *path) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    float w[N_IN * N_OUT], b[N_OUT];
    for (int i = 0; i < N_IN * N_OUT; i++) w[i] = (float)(i % N_IN == i / N_IN) * 2.0f - 0.1f * (float)(i % 3);
    for (int i = 0; i < N_OUT; i++) b[i] = 0.25f * (float)i;
    struct ckpt_header h = { CKPT_MAGIC, 2, { sizeof w, sizeof b } };
    fwrite(&h, sizeof h, 1, f);
    fwrite(w, sizeof w, 1, f);
    fwrite(b, sizeof b, 1, f);
    fclose(f);
    return 0;
}

static int load_checkpoint(struct reg_model *m, const struct cfg *c) {
    int fd = open(c->path, O_RDONLY);
    if (fd < 0) return -1;
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        close(fd);
        return -1;
    }
    const uint8_t *map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return -1;

    struct ckpt_header h;
    memcpy(&h, map, sizeof h);
    int rc = 0;
    if (h.magic != CKPT_MAGIC || h.n_tensors != 2) {
        rc = -1;
    } else {
        size_t off = sizeof h;
        for (uint32_t i = 0; i < h.n_tensors; i++) {
            struct ggml_tensor *t = m->tensors[i];
            if (h.sizes[i] != ggml_nbytes(t)) {
                fprintf(stderr, "%s: size mismatch\n", ggml_get_name(t));
                rc = -1;
                break;
            }
            if (c->use_mmap) {
                memcpy(t->data, map + off, ggml_nbytes(t)); // expect-warning: ggml-host-access
            } else {
                ggml_backend_tensor_set(t, map + off, 0, ggml_nbytes(t));
            }
            off += h.sizes[i];
        }
    }
    munmap((void *)map, (size_t)sb.st_size);
    return rc;
}

static void evaluate(struct reg_model *m) {
    size_t meta = ggml_tensor_overhead() * 8 + ggml_graph_overhead();
    struct ggml_init_params ip = { meta, NULL, true };
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_tensor *x = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, N_IN);
    ggml_set_input(x);
    struct ggml_tensor *y = ggml_add(ctx, ggml_mul_mat(ctx, m->tensors[0], x), m->tensors[1]);
    ggml_set_output(y);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    ggml_build_forward_expand(gf, y);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(m->backend));
    ggml_gallocr_alloc_graph(ga, gf);
    float xin[N_IN] = { 1, 2, 3, 4, 5, 6 };
    float yout[N_OUT];
    ggml_backend_tensor_set(x, xin, 0, sizeof xin);
    ggml_backend_graph_compute(m->backend, gf);
    ggml_backend_tensor_get(y, yout, 0, sizeof yout);
    printf("y = [%.3f %.3f %.3f] on %s\n", yout[0], yout[1], yout[2], ggml_backend_name(m->backend));
    ggml_gallocr_free(ga);
    ggml_free(ctx);
}

int main(int argc, char **argv) {
    struct cfg c;
    parse(&c, argc, argv);
    if (write_checkpoint(c.path) != 0) {
        fprintf(stderr, "cannot write %s\n", c.path);
        return 1;
    }
    struct reg_model m;
    memset(&m, 0, sizeof m);
    int status = 1;
    if (model_create(&m, &c) == 0 && load_checkpoint(&m, &c) == 0) {
        evaluate(&m);
        status = 0;
    } else {
        fprintf(stderr, "failed to load %s\n", c.path);
    }
    model_destroy(&m);
    unlink(c.path);
    return status;
}
