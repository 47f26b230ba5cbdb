/* runtime/backends/cuda/cuda_backend.cu — the cuda backend: runtime/kernels/ compiled by nvcc
 * and launched on the legacy default stream (so every operation, copy and free is ordered), a
 * caching allocator over cudaMalloc (the runtime allocates a tensor per operation; cudaFree would
 * synchronize the device each time), copies with cudaMemcpy, and the plugin entry point
 * (DT_BACKEND_PLUGIN_ENTRY) through which libdt loads it at run time.
 *
 * Float matrix products go to cuBLAS SGEMM where libcublas can be opened (dlopen at the first
 * product, so the plugin still loads where it is missing): transposed operands through its
 * transpose flags, DT_MATMUL_FAST through its TF32 tensor-op math mode; the tiled kernel of
 * runtime/kernels/ is the fallback (and the int product). DT_CUDA_CUBLAS=0 keeps the kernel.
 *
 * Kernel launches are asynchronous: a fault inside a kernel is reported by the next call that
 * waits for the device (a copy out, synchronize). DT_CUDA_SYNC=1 makes every run wait, so the
 * failing operation reports it itself. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <atomic>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#define DT_NO_CALLSITE 1
#include "cuda_backend.h"
#include "kernels/kenv.h"
#include "kernels/opinfo.h"

namespace {

thread_local char g_err[384];

void set_err(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g_err, sizeof g_err, fmt, ap);
  va_end(ap);
}

int cuda_fail(const char *what, cudaError_t e) {
  set_err("%s: %s (%s)", what, cudaGetErrorName(e), cudaGetErrorString(e));
  return -1;
}

int after_launch(const char *kernel) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return 0;
  char what[96];
  snprintf(what, sizeof what, "launch of %s", kernel);
  return cuda_fail(what, e);
}

}  // namespace

#define DT_K_LAUNCH(env, kernel, args, gx, gy, bx)                                     \
  ((void)(env), kernel<<<dim3((unsigned)(gx), (unsigned)(gy)), dim3((unsigned)(bx))>>>(args), \
   after_launch(#kernel))
#include "kernels/launch.h"

namespace {

constexpr int kMaxDevices = 64;
constexpr size_t kSmallQuantum = 512;      /* allocations under 1 MiB round up to this */
constexpr size_t kLargeQuantum = 2u << 20; /* larger ones to 2 MiB */

/* Per-device state: the caching allocator and the scratch buffer of reductions. */
struct Device {
  std::mutex lock;
  bool ready = false;
  int sms = 0;
  std::unordered_map<void *, size_t> live;                /* pointer -> rounded size */
  std::unordered_map<size_t, std::vector<void *>> cache;  /* rounded size -> free blocks */
  size_t cached_bytes = 0;
  void *scratch = nullptr;
  size_t scratch_bytes = 0;
  cublasHandle_t blas = nullptr; /* created at the first float product */
  bool blas_tried = false;
};

Device g_dev[kMaxDevices];
std::once_flag g_count_once;
int g_count = 0;
cudaError_t g_count_err = cudaSuccess;

void count_devices() {
  g_count_err = cudaGetDeviceCount(&g_count);
  if (g_count_err != cudaSuccess) g_count = 0;
  if (g_count > kMaxDevices) g_count = kMaxDevices;
}

int device_count() {
  std::call_once(g_count_once, count_devices);
  return g_count;
}

/* Makes ordinal current and returns its state, or nullptr with the reason recorded. */
Device *use(int ordinal) {
  const int n = device_count();
  if (ordinal < 0 || ordinal >= n) {
    set_err("cuda:%d does not exist (%d CUDA device%s)", ordinal, n, n == 1 ? "" : "s");
    return nullptr;
  }
  cudaError_t e = cudaSetDevice(ordinal);
  if (e != cudaSuccess) {
    cuda_fail("cudaSetDevice", e);
    return nullptr;
  }
  Device *d = &g_dev[ordinal];
  std::lock_guard<std::mutex> g(d->lock);
  if (!d->ready) {
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ordinal) != cudaSuccess ||
        sms <= 0)
      sms = 16;
    d->sms = sms;
    d->ready = true;
  }
  return d;
}

size_t round_size(size_t bytes) {
  if (bytes == 0) bytes = 1;
  const size_t q = bytes < (1u << 20) ? kSmallQuantum : kLargeQuantum;
  return (bytes + q - 1) / q * q;
}

/* Frees every cached block of d (called with d->lock held). */
void release_cache(Device *d) {
  for (auto &kv : d->cache)
    for (void *p : kv.second) cudaFree(p);
  d->cache.clear();
  d->cached_bytes = 0;
}

int cuda_probe(char *why, size_t why_len) {
  device_count();
  if (g_count_err != cudaSuccess) {
    snprintf(why, why_len, "no CUDA device: cudaGetDeviceCount returned %s (%s)",
             cudaGetErrorName(g_count_err), cudaGetErrorString(g_count_err));
    return -1;
  }
  if (g_count == 0) {
    snprintf(why, why_len, "no CUDA device: cudaGetDeviceCount found none");
    return -1;
  }
  return 0;
}

int cuda_device_count() { return device_count(); }

void *cuda_alloc(int ordinal, size_t bytes) {
  Device *d = use(ordinal);
  if (d == nullptr) return nullptr;
  const size_t size = round_size(bytes);
  std::lock_guard<std::mutex> g(d->lock);
  auto it = d->cache.find(size);
  void *p = nullptr;
  if (it != d->cache.end() && !it->second.empty()) {
    p = it->second.back();
    it->second.pop_back();
    d->cached_bytes -= size;
  } else {
    cudaError_t e = cudaMalloc(&p, size);
    if (e == cudaErrorMemoryAllocation && d->cached_bytes > 0) {
      cudaGetLastError(); /* clear it, give the cache back, try again */
      release_cache(d);
      e = cudaMalloc(&p, size);
    }
    if (e != cudaSuccess) {
      cudaGetLastError();
      char what[96];
      snprintf(what, sizeof what, "cudaMalloc of %zu bytes on cuda:%d", bytes, ordinal);
      cuda_fail(what, e);
      return nullptr;
    }
  }
  d->live[p] = size;
  return p;
}

void cuda_free(int ordinal, void *ptr) {
  if (ptr == nullptr) return;
  Device *d = use(ordinal);
  if (d == nullptr) return;
  std::lock_guard<std::mutex> g(d->lock);
  auto it = d->live.find(ptr);
  if (it == d->live.end()) {
    set_err("cuda:%d: free of %p, which is not an allocation of this device", ordinal, ptr);
    return;
  }
  d->cache[it->second].push_back(ptr); /* stream order makes reuse safe: one stream */
  d->cached_bytes += it->second;
  d->live.erase(it);
}

int copy(int ordinal, void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
         const char *what) {
  if (bytes == 0) return 0;
  if (use(ordinal) == nullptr) return -1;
  cudaError_t e = cudaMemcpy(dst, src, bytes, kind);
  return e == cudaSuccess ? 0 : cuda_fail(what, e);
}

int cuda_copy_in(int ordinal, void *dst, const void *host_src, size_t bytes) {
  return copy(ordinal, dst, host_src, bytes, cudaMemcpyHostToDevice, "cudaMemcpy host to device");
}
int cuda_copy_out(int ordinal, void *host_dst, const void *src, size_t bytes) {
  return copy(ordinal, host_dst, src, bytes, cudaMemcpyDeviceToHost, "cudaMemcpy device to host");
}
int cuda_copy_device(int ordinal, void *dst, const void *src, size_t bytes) {
  return copy(ordinal, dst, src, bytes, cudaMemcpyDeviceToDevice, "cudaMemcpy device to device");
}

/* Scratch for reductions: grown on demand. Called inside run with the device locked; freeing
   the old buffer synchronizes, so no kernel still reads it. */
void *cuda_scratch(const dt_k_env *env, size_t bytes) {
  Device *d = static_cast<Device *>(env->device);
  if (d->scratch != nullptr && d->scratch_bytes >= bytes) return d->scratch;
  if (d->scratch != nullptr) cudaFree(d->scratch);
  d->scratch = nullptr;
  d->scratch_bytes = 0;
  if (cudaMalloc(&d->scratch, bytes) != cudaSuccess) {
    cudaGetLastError();
    d->scratch = nullptr;
    return nullptr;
  }
  d->scratch_bytes = bytes;
  return d->scratch;
}

/* ---- cuBLAS, opened at run time ---- */

struct Cublas {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasSetMathMode) set_math_mode = nullptr;
  decltype(&cublasSgemm_v2) sgemm = nullptr;
};

Cublas g_blas;
std::once_flag g_blas_once;
std::atomic<int> g_use_blas{-1}; /* -1: from DT_CUDA_CUBLAS at the first product */

void open_cublas() {
  char name[64];
  snprintf(name, sizeof name, "libcublas.so.%d", (int)CUBLAS_VER_MAJOR);
  void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) h = dlopen("libcublas.so", RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) return;
  Cublas b;
  b.create = reinterpret_cast<decltype(b.create)>(dlsym(h, "cublasCreate_v2"));
  b.set_math_mode = reinterpret_cast<decltype(b.set_math_mode)>(dlsym(h, "cublasSetMathMode"));
  b.sgemm = reinterpret_cast<decltype(b.sgemm)>(dlsym(h, "cublasSgemm_v2"));
  if (b.create != nullptr && b.set_math_mode != nullptr && b.sgemm != nullptr) g_blas = b;
}

/* d's cuBLAS handle (d->lock held, d current), or nullptr: no cuBLAS, or switched off. */
cublasHandle_t blas_handle(Device *d) {
  int use = g_use_blas.load(std::memory_order_relaxed);
  if (use < 0) {
    const char *s = getenv("DT_CUDA_CUBLAS");
    use = !(s != nullptr && s[0] == '0');
    g_use_blas.store(use, std::memory_order_relaxed);
  }
  if (!use) return nullptr;
  std::call_once(g_blas_once, open_cublas);
  if (g_blas.create == nullptr) return nullptr;
  if (!d->blas_tried) {
    d->blas_tried = true;
    if (g_blas.create(&d->blas) != CUBLAS_STATUS_SUCCESS) d->blas = nullptr;
  }
  return d->blas;
}

/* A float product through cuBLAS: 1 when done (rc set), 0 when the kernel should run instead. */
int blas_matmul(Device *d, const dt_op_desc *op, int *rc) {
  const int64_t m = op->u.matmul.m, n = op->u.matmul.n, k = op->u.matmul.k;
  if (op->kind != DT_FLOAT || m <= 0 || n <= 0 || k <= 0 || m > INT_MAX || n > INT_MAX ||
      k > INT_MAX)
    return 0;
  cublasHandle_t h = blas_handle(d);
  if (h == nullptr) return 0;
  const int ta = op->u.matmul.trans_a, tb = op->u.matmul.trans_b;
  const cublasMath_t mode =
      op->u.matmul.precision == DT_MATMUL_FAST ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH;
  const float one = 1.0f, zero = 0.0f;
  /* row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: B first */
  cublasStatus_t s = g_blas.set_math_mode(h, mode);
  if (s == CUBLAS_STATUS_SUCCESS)
    s = g_blas.sgemm(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, (int)n,
                     (int)m, (int)k, &one, static_cast<const float *>(op->in[1]), (int)(tb ? k : n),
                     static_cast<const float *>(op->in[0]), (int)(ta ? m : k), &zero,
                     static_cast<float *>(op->out), (int)n);
  if (s != CUBLAS_STATUS_SUCCESS) {
    set_err("cublasSgemm (%lld x %lld x %lld): cuBLAS status %d", (long long)m, (long long)k,
            (long long)n, (int)s);
    *rc = -1;
  } else {
    *rc = after_launch("cublasSgemm");
  }
  return 1;
}

bool sync_each_run() {
  static const bool on = [] {
    const char *s = getenv("DT_CUDA_SYNC");
    return s != nullptr && s[0] == '1';
  }();
  return on;
}

int cuda_run(int ordinal, const dt_op_desc *op) {
  Device *d = use(ordinal);
  if (d == nullptr) return -1;
  std::lock_guard<std::mutex> g(d->lock);
  dt_k_env env;
  env.max_blocks = (int64_t)d->sms * 32;
  env.scratch = cuda_scratch;
  env.device = d;
  env.max_map_blocks = 2147483647; /* the grid's x limit: one tile per block */
  g_err[0] = '\0';
  int rc = 0;
  if (!(op->op == DT_OP_MATMUL && blas_matmul(d, op, &rc))) rc = dt_k_run(&env, op);
  if (rc != 0) {
    if (g_err[0] == '\0')
      set_err("cuda:%d: %s is not supported on these kinds (in %d, out %d) or scratch memory ran "
              "out", ordinal, dt_k_op_name(op->op), (int)op->kind, (int)op->out_kind);
    return rc;
  }
  if (sync_each_run()) {
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      char what[96];
      snprintf(what, sizeof what, "cuda:%d: %s", ordinal, dt_k_op_name(op->op));
      return cuda_fail(what, e);
    }
  }
  return 0;
}

int cuda_synchronize(int ordinal) {
  if (use(ordinal) == nullptr) return -1;
  cudaError_t e = cudaDeviceSynchronize();
  return e == cudaSuccess ? 0 : cuda_fail("cudaDeviceSynchronize", e);
}

const char *cuda_last_error() { return g_err; }

/* In the order of dt_backend_iface's fields (C++17 has no designated initializers). */
const dt_backend_iface g_iface = {
    DT_BACKEND_API_VERSION, /* api_version */
    DT_BACKEND_CUDA,        /* backend */
    "cuda",                 /* name */
    cuda_probe,             /* probe */
    cuda_device_count,      /* device_count */
    cuda_alloc,             /* alloc */
    cuda_free,              /* free */
    cuda_copy_in,           /* copy_in */
    cuda_copy_out,          /* copy_out */
    cuda_copy_device,       /* copy_device */
    cuda_run,               /* run */
    cuda_synchronize,       /* synchronize */
    cuda_last_error,        /* last_error */
};

}  // namespace

extern "C" const dt_backend_iface *dt_cuda_backend(void) { return &g_iface; }

/* For benchmarks: 1 sends float products to cuBLAS (the default, where it loads), 0 to the
   tiled kernel. */
extern "C" void dt_cuda_use_cublas(int on) { g_use_blas.store(on ? 1 : 0, std::memory_order_relaxed); }

extern "C" size_t dt_cuda_cached_bytes(int ordinal) {
  if (ordinal < 0 || ordinal >= kMaxDevices) return 0;
  std::lock_guard<std::mutex> g(g_dev[ordinal].lock);
  return g_dev[ordinal].cached_bytes;
}

/* The plugin's entry point, looked up by name (DT_BACKEND_PLUGIN_ENTRY) after dlopen. */
extern "C" __attribute__((visibility("default"))) const dt_backend_iface *dt_backend_plugin_entry(
    void) {
  return &g_iface;
}
