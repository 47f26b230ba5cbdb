/* tests/ir/test_ir.c — the IR library: interning, the arena, merging programs (every sym
 * remapped into the destination's table), path formatting, and the binary form used by the
 * cache (round trip identical; truncated or damaged data rejected or read safely, never a
 * crash). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe_util.h"

static char *dump(const tc_program *p) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  tc_ir_dump(p, f);
  fclose(f);
  return buf;
}

static const char src_a[] =
    "#include <dt/dt.h>\n"
    "struct M { dt_tensor *w[2]; dt_device dev; };\n"
    "static dt_device g = {DT_BACKEND_SIM, 1, 0};\n"
    "dt_tensor *a(struct M *m, int n) {\n"
    "  dt_tensor *t = dt_zeros(g, DT_FLOAT, 1, (const int64_t[]){4});\n"
    "  switch (n) { case 1: t = dt_relu(t); break; default: m->dev = dt_cpu(); }\n"
    "  for (int i = 0; i < n; i++) m->w[i] = n > 2 ? dt_add(t, t) : NULL;\n"
    "  return t;\n"
    "}\n";
static const char src_b[] =
    "#include <dt/dt.h>\n"
    "extern dt_tensor *a(void *m, int n);\n"
    "int zz_only_in_b;\n"
    "void b(dt_tensor **out) { *out = a(0, 3); if (!*out) return; dt_free(out[0]); }\n";

static void test_intern(void **state) {
  (void)state;
  tc_program *p = tc_program_new();
  tc_sym a = tc_intern(p, "alpha"), b = tc_intern(p, "beta");
  assert_int_not_equal(a, 0);
  assert_int_not_equal(a, b);
  assert_int_equal(tc_intern(p, "alpha"), a);
  assert_int_equal(tc_intern_n(p, "alphabet", 5), a);
  assert_int_equal(tc_intern(p, ""), 0);
  assert_int_equal(tc_intern(p, NULL), 0);
  assert_string_equal(tc_str(p, b), "beta");
  assert_string_equal(tc_str(p, 0), "");
  assert_string_equal(tc_str(p, 999999), "");
  /* many strings: the table grows and keeps every one */
  char buf[32];
  tc_sym syms[5000];
  for (int i = 0; i < 5000; i++) {
    snprintf(buf, sizeof buf, "s%d", i);
    syms[i] = tc_intern(p, buf);
  }
  for (int i = 0; i < 5000; i++) {
    snprintf(buf, sizeof buf, "s%d", i);
    assert_string_equal(tc_str(p, syms[i]), buf);
    assert_int_equal(tc_intern(p, buf), syms[i]);
  }
  unsigned char *z = tc_arena_alloc(p, 1 << 20); /* a big block is zeroed too */
  assert_non_null(z);
  for (int i = 0; i < (1 << 20); i += 4096) assert_int_equal(z[i], 0);
  tc_program_free(p);
}

static void test_merge(void **state) {
  (void)state;
  fe_unit ua, ub;
  assert_int_equal(fe_lower(src_a, &ua), 0);
  assert_int_equal(fe_lower(src_b, &ub), 0);
  char *da = dump(ua.prog), *db = dump(ub.prog);
  tc_program *dst = tc_program_new();
  tc_intern(dst, "zz_only_in_dst"); /* the destination's table differs from both sources */
  assert_int_equal(tc_program_merge(dst, ua.prog), 0);
  ua.prog = NULL;
  assert_int_equal(tc_program_merge(dst, ub.prog), 0);
  ub.prog = NULL;
  assert_int_equal(dst->n_units, 2);
  char *dm = dump(dst);
  size_t la = strlen(da);
  assert_int_equal(strlen(dm), la + strlen(db));
  assert_memory_equal(dm, da, la);
  assert_string_equal(dm + la, db);
  /* the same string is one sym across merged units */
  const tc_function *fa = fe_func(dst, "a"), *fb = fe_func(dst, "b");
  const tc_insn *call = fe_call(dst, fb, "a", 0);
  assert_int_equal(call->callee.usr, fa->usr);
  free(da);
  free(db);
  free(dm);
  tc_program_free(dst);
  fe_free(&ua);
  fe_free(&ub);
}

/* An overlay of a store holding unit a, with a view of it and a fresh unit b merged, dumps as
   a plain merge does; the fresh unit's strings go to the overlay only, and the store is the
   same after the overlay is freed. */
static void test_overlay_and_view(void **state) {
  (void)state;
  fe_unit ua, ub;
  assert_int_equal(fe_lower(src_a, &ua), 0);
  assert_int_equal(fe_lower(src_b, &ub), 0);
  char *da = dump(ua.prog), *db = dump(ub.prog);
  tc_program *store = tc_program_new();
  assert_int_equal(tc_program_merge(store, ua.prog), 0);
  ua.prog = NULL;
  uint32_t store_strings = tc_program_n_strings(store);
  tc_program *view = tc_program_view(store, 0);
  assert_non_null(view);
  assert_null(tc_program_view(store, 1)); /* no such unit */
  assert_non_null(fe_func(view, "a"));
  tc_program *plain = tc_program_new();
  tc_program *view2 = tc_program_view(store, 0);
  assert_int_not_equal(tc_program_merge(plain, view2), 0); /* a view needs an overlay of its base */
  tc_program_free(plain);
  tc_program *ov = tc_program_overlay(store);
  assert_non_null(ov);
  assert_int_equal(tc_program_merge(ov, view), 0);
  assert_int_equal(tc_program_merge(ov, ub.prog), 0);
  ub.prog = NULL;
  assert_int_equal(ov->n_units, 2);
  char *dm = dump(ov);
  size_t la = strlen(da);
  assert_int_equal(strlen(dm), la + strlen(db));
  assert_memory_equal(dm, da, la);
  assert_string_equal(dm + la, db);
  const tc_function *fa = fe_func(ov, "a"), *fb = fe_func(ov, "b");
  assert_int_equal(fe_call(ov, fb, "a", 0)->callee.usr, fa->usr);
  assert_true(tc_program_n_strings(ov) > store_strings);
  tc_program_free(ov);
  assert_int_equal(tc_program_n_strings(store), store_strings);
  char *ds = dump(store);
  assert_string_equal(ds, da);
  free(ds);
  free(da);
  free(db);
  free(dm);
  tc_program_free(store);
  fe_free(&ua);
  fe_free(&ub);
}

static void test_serialize_round_trip(void **state) {
  (void)state;
  fe_unit u;
  assert_int_equal(fe_lower(src_a, &u), 0);
  size_t len = 0;
  unsigned char *bin = tc_ir_serialize(u.prog, &len);
  assert_non_null(bin);
  tc_program *back = tc_ir_deserialize(bin, len);
  assert_non_null(back);
  char *d1 = dump(u.prog), *d2 = dump(back);
  assert_string_equal(d1, d2);
  /* a round trip of the copy gives the same bytes */
  size_t len2 = 0;
  unsigned char *bin2 = tc_ir_serialize(back, &len2);
  assert_int_equal(len2, len);
  assert_memory_equal(bin, bin2, len);
  free(d1);
  free(d2);
  free(bin2);
  tc_program_free(back);
  /* every truncation is rejected */
  for (size_t cut = 0; cut < len; cut += (cut < 64 ? 1 : 7))
    assert_null(tc_ir_deserialize(bin, cut));
  /* damaged bytes: rejected, or read into a program that is safe to walk */
  unsigned seed = 12345;
  unsigned char *copy = malloc(len);
  FILE *null = fopen("/dev/null", "w");
  for (int round = 0; round < 400; round++) {
    memcpy(copy, bin, len);
    for (int k = 0; k < 3; k++) {
      seed = seed * 1103515245u + 12345u;
      copy[(seed >> 8) % len] ^= (unsigned char)(1u << ((seed >> 4) & 7));
    }
    tc_program *p = tc_ir_deserialize(copy, len);
    if (p) {
      tc_ir_dump(p, null);
      tc_program_free(p);
    }
  }
  fclose(null);
  free(copy);
  free(bin);
  fe_free(&u);
}

static void test_path_format(void **state) {
  (void)state;
  tc_program *p = tc_program_new();
  tc_elem e[5] = {{.kind = TC_ELEM_DEREF},
                  {.kind = TC_ELEM_FIELD, .field = tc_intern(p, "layers")},
                  {.kind = TC_ELEM_INDEX_ANY},
                  {.kind = TC_ELEM_FIELD, .field = tc_intern(p, "w")},
                  {.kind = TC_ELEM_DEREF}};
  tc_path path = {TC_ROOT_PARAM, 0, 4, e, 0};
  char buf[128];
  tc_path_format(p, NULL, &path, buf, sizeof buf);
  assert_string_equal(buf, "param0->layers[*].w");
  path.n_elems = 5;
  tc_path_format(p, NULL, &path, buf, sizeof buf);
  assert_string_equal(buf, "(*param0->layers[*].w)");
  char tiny[8];
  tc_path_format(p, NULL, &path, tiny, sizeof tiny);
  assert_true(strlen(tiny) < sizeof tiny);
  tc_program_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_intern), cmocka_unit_test(test_merge),
    cmocka_unit_test(test_overlay_and_view),
    cmocka_unit_test(test_serialize_round_trip), cmocka_unit_test(test_path_format),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
