/* tests/ggml/runtime/emu_gpu_test.c — checks the emulated GPU device itself (ctest
 * ggml.emu_gpu): ggml's device registry finds it as a GPU, its graphs compute the right values
 * (directly and through ggml_backend_sched), and the failures the oracle relies on happen: the
 * host touching device memory dies of SIGSEGV with a trap report naming the device, and a graph
 * computed on CUDA1 with a tensor in CUDA0 memory aborts with "device mismatch". */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

static int g_failures;

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "emu_gpu_test.c:%d: check failed: %s\n", __LINE__, #cond); \
      g_failures++;                                                              \
    }                                                                            \
  } while (0)

/* Two f32 vectors in a no_alloc context, their sum in a graph. */
struct sum_graph {
  struct ggml_context *ctx;
  struct ggml_tensor *a, *b, *c;
  struct ggml_cgraph *gf;
};

static void sum_graph_init(struct sum_graph *g) {
  struct ggml_init_params p = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL, true};
  g->ctx = ggml_init(p);
  g->a = ggml_new_tensor_1d(g->ctx, GGML_TYPE_F32, 4);
  g->b = ggml_new_tensor_1d(g->ctx, GGML_TYPE_F32, 4);
  g->c = ggml_add(g->ctx, g->a, g->b);
  g->gf = ggml_new_graph(g->ctx);
  ggml_build_forward_expand(g->gf, g->c);
}

static void check_sum(struct ggml_tensor *c) {
  float out[4] = {0};
  ggml_backend_tensor_get(c, out, 0, sizeof out);
  for (int i = 0; i < 4; i++) CHECK(out[i] == (float)(i + 10 * i));
}

static void set_inputs(struct sum_graph *g) {
  float a[4] = {0, 1, 2, 3}, b[4] = {0, 10, 20, 30};
  ggml_backend_tensor_set(g->a, a, 0, sizeof a);
  ggml_backend_tensor_set(g->b, b, 0, sizeof b);
}

static void test_registry(void) {
  ggml_backend_reg_t reg = ggml_backend_reg_by_name("CUDA");
  CHECK(reg != NULL && reg == ggml_backend_cuda_reg());
  CHECK(ggml_backend_reg_dev_count(reg) == 2);
  CHECK(ggml_backend_cuda_get_device_count() == 2);
  ggml_backend_dev_t gpu = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
  CHECK(gpu != NULL && strcmp(ggml_backend_dev_name(gpu), "CUDA0") == 0);
  ggml_backend_dev_t gpu1 = ggml_backend_dev_by_name("CUDA1");
  CHECK(gpu1 != NULL && ggml_backend_dev_type(gpu1) == GGML_BACKEND_DEVICE_TYPE_GPU);
  CHECK(!ggml_backend_buft_is_host(ggml_backend_dev_buffer_type(gpu1)));
  CHECK(ggml_backend_buft_is_host(ggml_backend_cuda_host_buffer_type()));
  CHECK(ggml_backend_dev_buffer_type(gpu1) == ggml_backend_cuda_buffer_type(1));

  ggml_backend_t by_type = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, NULL);
  ggml_backend_t best = ggml_backend_init_best();
  ggml_backend_t on1 = ggml_backend_dev_init(gpu1, NULL);
  ggml_backend_t cpu = ggml_backend_cpu_init();
  CHECK(ggml_backend_is_cuda(by_type) && ggml_backend_get_device(by_type) == gpu);
  CHECK(ggml_backend_is_cuda(best));
  CHECK(ggml_backend_is_cuda(on1) && ggml_backend_get_device(on1) == gpu1);
  CHECK(!ggml_backend_is_cuda(cpu));
  CHECK(ggml_backend_cuda_init(2) == NULL);
  ggml_backend_free(cpu);
  ggml_backend_free(on1);
  ggml_backend_free(best);
  ggml_backend_free(by_type);
}

static void test_compute(void) {
  ggml_backend_t gpu = ggml_backend_cuda_init(1);
  struct sum_graph g;
  sum_graph_init(&g);
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(gpu));
  CHECK(ggml_gallocr_alloc_graph(galloc, g.gf));
  CHECK(!ggml_backend_buffer_is_host(g.c->buffer));
  set_inputs(&g);
  CHECK(ggml_backend_graph_compute(gpu, g.gf) == GGML_STATUS_SUCCESS);
  check_sum(g.c);
  ggml_gallocr_free(galloc);
  ggml_free(g.ctx);
  ggml_backend_free(gpu);
}

static void test_sched(void) {
  ggml_backend_t backends[2] = {ggml_backend_cuda_init(0), ggml_backend_cpu_init()};
  ggml_backend_sched_t sched = ggml_backend_sched_new(backends, NULL, 2, GGML_DEFAULT_GRAPH_SIZE,
                                                      false, true);
  struct sum_graph g;
  sum_graph_init(&g);
  ggml_backend_sched_set_tensor_backend(sched, g.c, backends[0]);
  CHECK(ggml_backend_sched_alloc_graph(sched, g.gf));
  set_inputs(&g);
  CHECK(ggml_backend_sched_graph_compute(sched, g.gf) == GGML_STATUS_SUCCESS);
  check_sum(g.c);
  ggml_free(g.ctx);
  ggml_backend_sched_free(sched);
  ggml_backend_free(backends[1]);
  ggml_backend_free(backends[0]);
}

/* Runs fn in a child; returns its stderr and sets *sig to the signal it died of (0: none). */
static void run_child(void (*fn)(void), char *err, size_t err_size, int *sig) {
  int fds[2];
  *sig = 0;
  err[0] = '\0';
  if (pipe(fds) != 0) return;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    fn();
    _exit(0);
  }
  close(fds[1]);
  size_t n = 0;
  ssize_t r;
  while (n + 1 < err_size && (r = read(fds[0], err + n, err_size - 1 - n)) > 0) n += (size_t)r;
  err[n] = '\0';
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) *sig = WTERMSIG(status);
}

static void host_reads_device_memory(void) {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  struct sum_graph g;
  sum_graph_init(&g);
  ggml_backend_alloc_ctx_tensors(g.ctx, gpu);
  volatile float *p = g.a->data;
  printf("%f\n", (double)p[0]);
}

static void compute_on_the_other_gpu(void) {
  ggml_backend_t gpu0 = ggml_backend_cuda_init(0), gpu1 = ggml_backend_cuda_init(1);
  struct sum_graph g;
  sum_graph_init(&g);
  ggml_backend_alloc_ctx_tensors(g.ctx, gpu0);
  ggml_backend_graph_compute(gpu1, g.gf);
}

static void test_failures(void) {
  char err[8192];
  int sig;
  run_child(host_reads_device_memory, err, sizeof err, &sig);
  CHECK(sig == SIGSEGV);
  CHECK(strstr(err, "tc-oracle: trap: segv") && strstr(err, "device=0"));
  run_child(compute_on_the_other_gpu, err, sizeof err, &sig);
  CHECK(sig == SIGABRT);
  CHECK(strstr(err, "tc-oracle: trap: abort") && strstr(err, "device mismatch") &&
        strstr(err, "CUDA0 memory"));
}

int main(void) {
  test_registry();
  test_compute();
  test_sched();
  test_failures();
  if (g_failures) fprintf(stderr, "emu_gpu_test: %d check(s) failed\n", g_failures);
  else printf("emu_gpu_test: all checks passed\n");
  return g_failures ? 1 : 0;
}
