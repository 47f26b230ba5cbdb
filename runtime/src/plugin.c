/* runtime/src/plugin.c — loads the cuda backend plugin (libdt_cuda.so) at run time, so one libdt
 * works on machines with and without a GPU (and builds without nvcc). Where it looks, in order:
 *   1. next to the object holding libdt (dladdr): build/lib/ or the install's lib/ directory;
 *   2. ../lib/ from there (a program in bin/ linked with the static libdt);
 *   3. the path in the environment variable DT_CUDA_PLUGIN;
 *   4. the dynamic linker's search path (LD_LIBRARY_PATH, the caller's RUNPATH, ld.so.cache),
 *      unless DT_CUDA_PLUGIN is set: a path given explicitly is final.
 * A plugin found is checked for the entry point and the API version, then probed for a GPU.
 * Every failure is explained in `why`, as backend-unavailable messages quote it. A loaded plugin
 * stays loaded (the CUDA runtime inside it may have registered exit handlers). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugin.h"

#define DT_CUDA_PLUGIN_NAME "libdt_cuda.so"

/* The directory of the object that contains this function (libdt.so, or the executable that
   libdt.a was linked into), without a trailing slash; "" when unknown. */
static void libdt_dir(char *dir, size_t n) {
  Dl_info info;
  dir[0] = '\0';
  if (dladdr((void *)libdt_dir, &info) == 0 || info.dli_fname == NULL) return;
  snprintf(dir, n, "%s", info.dli_fname);
  char *slash = strrchr(dir, '/');
  if (slash != NULL)
    *slash = '\0';
  else
    snprintf(dir, n, ".");
}

/* Tries one candidate path: NULL when there is no file there; otherwise the dlopen handle, or
   NULL with dlerror()'s text kept in err (first failure only). */
static void *try_path(const char *path, char *err, size_t err_len) {
  if (access(path, F_OK) != 0) return NULL;
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL && err[0] == '\0') {
    const char *e = dlerror();
    snprintf(err, err_len, "%.480s", e != NULL ? e : path);
  }
  return h;
}

const dt_backend_iface *dt__load_cuda_plugin(char *why, size_t why_len) {
  char dummy[1];
  if (why == NULL || why_len == 0) why = dummy, why_len = 1;
  char dir[1024], path[1200], err[512] = "";
  void *h = NULL;
  const char *from = NULL;

  libdt_dir(dir, sizeof dir);
  if (dir[0] != '\0') {
    snprintf(path, sizeof path, "%s/%s", dir, DT_CUDA_PLUGIN_NAME);
    h = try_path(path, err, sizeof err);
    if (h == NULL) {
      snprintf(path, sizeof path, "%s/../lib/%s", dir, DT_CUDA_PLUGIN_NAME);
      h = try_path(path, err, sizeof err);
    }
  }
  const char *env = getenv("DT_CUDA_PLUGIN");
  if (h == NULL && env != NULL && env[0] != '\0') {
    snprintf(path, sizeof path, "%s", env);
    h = try_path(path, err, sizeof err);
    if (h == NULL && err[0] == '\0')
      snprintf(err, sizeof err, "DT_CUDA_PLUGIN=%s: no such file", env);
  }
  if (h == NULL && !(env != NULL && env[0] != '\0')) { /* an explicit DT_CUDA_PLUGIN is final */
    snprintf(path, sizeof path, "%s", DT_CUDA_PLUGIN_NAME);
    h = dlopen(DT_CUDA_PLUGIN_NAME, RTLD_NOW | RTLD_LOCAL);
  }
  if (h == NULL) {
    if (err[0] != '\0')
      snprintf(why, why_len, "cannot load the cuda plugin: %s", err);
    else
      snprintf(why, why_len, "%s not found (built without nvcc, or not installed; looked in %s, %s/../lib, "
                             "DT_CUDA_PLUGIN and the library search path)",
               DT_CUDA_PLUGIN_NAME, dir[0] ? dir : "libdt's directory", dir[0] ? dir : "");
    return NULL;
  }
  from = path;

  dt_backend_plugin_entry_fn entry;
  void *sym = dlsym(h, DT_BACKEND_PLUGIN_ENTRY);
  memcpy(&entry, &sym, sizeof entry); /* object pointer to function pointer, ISO C-clean */
  if (sym == NULL) {
    snprintf(why, why_len, "%s has no entry point %s", from, DT_BACKEND_PLUGIN_ENTRY);
    return NULL;
  }
  const dt_backend_iface *iface = entry();
  if (iface == NULL || iface->api_version != DT_BACKEND_API_VERSION) {
    snprintf(why, why_len, "%s speaks device API version %d, this libdt version %d", from,
             iface != NULL ? iface->api_version : -1, DT_BACKEND_API_VERSION);
    return NULL;
  }
  if (iface->backend != DT_BACKEND_CUDA || iface->probe == NULL) {
    snprintf(why, why_len, "%s is not a cuda backend", from);
    return NULL;
  }
  char probe_why[256] = "";
  if (iface->probe(probe_why, sizeof probe_why) != 0) {
    snprintf(why, why_len, "%s", probe_why[0] ? probe_why : "no CUDA device");
    return NULL;
  }
  return iface;
}
