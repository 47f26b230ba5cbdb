/* tests/backends/test_cuda_plugin.c — libdt's loader of the cuda plugin (dt__load_cuda_plugin)
 * against what it may find: nothing, a missing file, an object without the entry point, a
 * plugin of another API version, a plugin without a GPU, a working plugin, and — where this
 * build has nvcc — the real libdt_cuda.so (loaded where a GPU is present, "no CUDA device …"
 * elsewhere). This program lives in a directory of its own, so the real plugin is not found
 * next to it; where one is installed system-wide (the quick start installs libdt), the loader
 * finding it is what is checked instead of "not found". */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "bk_util.h"
#include "plugin.h"

static const dt_backend_iface *load_with(const char *path, char *why, size_t n) {
  if (path != NULL)
    setenv("DT_CUDA_PLUGIN", path, 1);
  else
    unsetenv("DT_CUDA_PLUGIN");
  why[0] = '\0';
  return dt__load_cuda_plugin(why, n);
}

static void test_nothing_to_load(void **state) {
  (void)state;
  char why[512];
  void *installed = dlopen("libdt_cuda.so", RTLD_LAZY | RTLD_LOCAL);
  if (installed) { /* the machine has one installed (cmake --install): the loader finds it */
    dlclose(installed);
    const dt_backend_iface *f = load_with(NULL, why, sizeof why);
    assert_true(f != NULL || strstr(why, "CUDA") != NULL);
  } else {
    assert_null(load_with(NULL, why, sizeof why));
    assert_non_null(strstr(why, "libdt_cuda.so not found"));
  }
  assert_null(load_with("/nonexistent/libdt_cuda.so", why, sizeof why));
  assert_non_null(strstr(why, "/nonexistent/libdt_cuda.so"));
}

static void test_fakes(void **state) {
  (void)state;
  char why[512];
  assert_null(load_with(FAKE_NO_ENTRY, why, sizeof why));
  assert_non_null(strstr(why, "has no entry point dt_backend_plugin_entry"));
  assert_null(load_with(FAKE_BAD_VERSION, why, sizeof why));
  assert_non_null(strstr(why, "API version 999"));
  assert_null(load_with(FAKE_NO_DEVICE, why, sizeof why));
  assert_string_equal(why, "fake: no device in this test");
  const dt_backend_iface *f = load_with(FAKE_WORKS, why, sizeof why);
  assert_non_null(f);
  assert_string_equal(f->name, "fake-cuda");
  assert_int_equal(f->backend, DT_BACKEND_CUDA);
}

static void test_real_plugin(void **state) {
  (void)state;
#ifdef REAL_PLUGIN
  char why[512];
  const dt_backend_iface *f = load_with(REAL_PLUGIN, why, sizeof why);
  if (f != NULL) {
    assert_string_equal(f->name, "cuda");
    assert_true(f->device_count() >= 1);
  } else {
    /* built with nvcc, run without a GPU: the probe's reason comes through */
    if (strncmp(why, "no CUDA device: cudaGetDeviceCount", 34) != 0) fail_msg("reason: %s", why);
  }
#else
  skip(); /* this build has no nvcc: there is no real plugin to load */
#endif
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "real") == 0) { /* its own ctest entry: skipped, not passed */
    const struct CMUnitTest real[] = {cmocka_unit_test(test_real_plugin)};
    int failed = cmocka_run_group_tests_name("the real cuda plugin", real, NULL, NULL);
#ifdef REAL_PLUGIN
    return failed;
#else
    return failed ? failed : BK_SKIP_CODE;
#endif
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nothing_to_load),
      cmocka_unit_test(test_fakes),
  };
  return cmocka_run_group_tests_name("cuda plugin loader", tests, NULL, NULL);
}
