/* tests/runtime/test_handles.c — tensor handles carry a generation (handle.c): a handle kept
 * after dt_free stays stale once its slot holds another tensor — dt_free of it reports the
 * mistake and never frees the tensor now in the slot, and no call through it reaches that
 * tensor; handles freed by a thread that has exited are still checked (no use after free: the
 * valgrind run of this test proves it), and its free slots are reused; a slot at its last
 * generation is retired; values that were never handles are rejected. */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "rt_util.h"

#define MANY 600 /* more freed tensors than any per-thread cache holds */

/* Frees `stale` after its slot was given to `live`, then checks live is untouched. */
static void assert_stale_free_spares(dt_tensor *stale, dt_tensor *live, float value) {
  const int64_t tensors = dt__live_tensors(), storages = dt__live_storages();
  dt_free(stale);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(dt_last_error(), "dt_free: The tensor is a freed tensor"));
  assert_non_null(strstr(dt_last_error(), "stale handle"));
  assert_int_equal(dt__live_tensors(), tensors);
  assert_int_equal(dt__live_storages(), storages);
  float v[3] = {0};
  rt_read_f(live, v, 3);
  assert_true(v[0] == value && v[2] == value);
}

/* The slot of a freed tensor is reused by the next ones made: its old handle still fails. */
static void test_stale_handle_after_reuse(void **state) {
  (void)state;
  dt_tensor *a = dt_full(dt_cpu(), 1.0f, 1, SHAPE(3));
  dt_tensor *a_object = dt__resolve_fast(a);
  assert_non_null(a_object);
  dt_free(a);
  assert_int_equal(dt_last_status(), DT_OK);
  /* Make tensors until one lands in a's slot (the most recently freed slot is reused first). */
  dt_tensor *made[MANY];
  int reused = -1, n_made = 0;
  while (n_made < MANY && reused < 0) {
    made[n_made] = dt_full(dt_cpu(), 7.0f, 1, SHAPE(3));
    assert_non_null(made[n_made]);
    if (dt__resolve_fast(made[n_made]) == a_object) reused = n_made;
    n_made++;
  }
  assert_true(reused >= 0);
  dt_tensor *b = made[reused];
  assert_true(b != a); /* same slot, another generation: another handle */
  /* Every use of the stale handle is reported, and none reaches b. */
  rt_assert_failed(dt_neg(a), DT_ERR_INVALID_ARGUMENT, "freed", NULL);
  rt_assert_failed(dt_add(b, a), DT_ERR_INVALID_ARGUMENT, "Input tensor 2 is a freed tensor", NULL);
  assert_int_equal(dt_numel(a), -1);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  assert_stale_free_spares(a, b, 7.0f);
  /* b is still the caller's and frees normally; then both handles are stale. */
  for (int i = 0; i < n_made; i++) dt_free(made[i]);
  assert_int_equal(dt_last_status(), DT_OK);
  dt_free(b);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
}

/* Many slots through many generations: each old handle fails, each new one works. */
static void test_generations_never_collide(void **state) {
  (void)state;
  dt_tensor *old[MANY];
  for (int round = 0; round < 20; round++) {
    dt_tensor *now[MANY];
    for (int i = 0; i < MANY; i++) now[i] = dt_full(dt_cpu(), (float)round, 1, SHAPE(3));
    if (round > 0)
      for (int i = 0; i < MANY; i++) {
        assert_null(dt__resolve_fast(old[i]));
        for (int j = 0; j < 4; j++) assert_true(old[i] != now[(i + j) % MANY]);
      }
    for (int i = 0; i < MANY; i++) {
      float v[3];
      rt_read_f(now[i], v, 3);
      assert_true(v[1] == (float)round);
      dt_free(now[i]);
      old[i] = now[i];
    }
  }
  assert_int_equal(dt_last_status(), DT_OK);
}

/* A slot at the end of its generations is retired: its last handle works, then fails as freed,
   and the slot is never handed out again. (The generations are advanced here by hand: going
   through 2^31 frees of one slot would take minutes.) */
static void test_last_generation_retires_the_slot(void **state) {
  (void)state;
  dt_tensor *t = dt_full(dt_cpu(), 1.0f, 1, SHAPE(3));
  dt_tensor *object = dt__resolve_fast(t);
  dt_slot *slot = (dt_slot *)(void *)((char *)object - offsetof(dt_slot, obj));
  dt_free(t);
  /* Free at the generation before the last live one; the next tensor reuses the slot. */
  atomic_store(&slot->gen, DT_H_GEN_RETIRED - 2u);
  dt_tensor *last = dt_full(dt_cpu(), 6.0f, 1, SHAPE(3));
  assert_ptr_equal(dt__resolve_fast(last), object);
  assert_int_equal(atomic_load(&slot->gen), DT_H_GEN_RETIRED - 1u);
  float v[3];
  rt_read_f(last, v, 3); /* the highest generation a handle carries still works */
  assert_true(v[0] == 6.0f);
  dt_free(last);
  assert_int_equal(dt_last_status(), DT_OK);
  assert_int_equal(atomic_load(&slot->gen), DT_H_GEN_RETIRED);
  rt_assert_failed(dt_neg(last), DT_ERR_INVALID_ARGUMENT, "freed", NULL);
  rt_assert_failed(dt_neg(t), DT_ERR_INVALID_ARGUMENT, "freed", NULL);
  dt_tensor *after[MANY];
  for (int i = 0; i < MANY; i++) {
    after[i] = dt_full(dt_cpu(), 2.0f, 1, SHAPE(3));
    assert_ptr_not_equal(dt__resolve_fast(after[i]), object);
  }
  for (int i = 0; i < MANY; i++) dt_free(after[i]);
  assert_int_equal(atomic_load(&slot->gen), DT_H_GEN_RETIRED);
}

/* Values that were never handles: tag bits, index, generation parity all checked. */
static void test_values_that_were_never_handles(void **state) {
  (void)state;
  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 1, SHAPE(3));
  const uintptr_t h = (uintptr_t)a;
  const uintptr_t bad[] = {
      0xB,                      /* the tag alone: generation 0 was never issued */
      h & ~(uintptr_t)0xF,      /* an aligned pointer's low bits */
      h ^ 0x1,                  /* another tag */
      UINTPTR_MAX,              /* all ones */
      h + ((uintptr_t)2 << 32), /* a later generation than the slot has reached */
      h + ((uintptr_t)1 << 32), /* an even generation */
      h + ((uintptr_t)0x0FFFFFF0 << 4) /* an index far beyond any slot made */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (sizeof(uintptr_t) < 8 && bad[i] > UINT32_MAX) continue;
    const dt_tensor *t = (const dt_tensor *)bad[i];
    rt_assert_failed(dt_neg(t), DT_ERR_INVALID_ARGUMENT, "not a live dt tensor", NULL);
    dt_free((dt_tensor *)t);
    assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  }
  float v[3];
  rt_read_f(a, v, 3); /* nothing above touched it */
  assert_true(v[0] == 1.0f);
  dt_free(a);
}

/* ---- handles freed on threads that have exited ---- */

#define HANDED 200
typedef struct handoff {
  dt_tensor *t[HANDED];
  const dt_tensor *object[HANDED]; /* where each lived */
} handoff;

static void *free_all_then_exit(void *p) {
  handoff *h = p;
  for (int i = 0; i < HANDED; i++) dt_free(h->t[i]);
  return dt_last_status() == DT_OK ? p : NULL;
}

static void *make_free_then_exit(void *p) {
  handoff *h = p;
  for (int i = 0; i < HANDED; i++) {
    h->t[i] = dt_full(dt_cpu(), 3.0f, 1, SHAPE(3));
    h->object[i] = dt__resolve_fast(h->t[i]);
  }
  for (int i = 0; i < HANDED; i++) dt_free(h->t[i]);
  return dt_last_status() == DT_OK ? p : NULL;
}

/* Frees a few tensors (fewer than a thread's cache holds) and exits without making any. */
static void *free_few_then_exit(void *p) {
  handoff *h = p;
  for (int i = 0; i < 8; i++) dt_free(h->t[i]);
  return dt_last_status() == DT_OK ? p : NULL;
}

static void run_thread(void *(*body)(void *), handoff *h) {
  pthread_t th;
  void *rc = NULL;
  assert_int_equal(pthread_create(&th, NULL, body, h), 0);
  assert_int_equal(pthread_join(th, &rc), 0);
  assert_ptr_equal(rc, h);
}

static void test_handles_freed_by_exited_threads(void **state) {
  (void)state;
  handoff mine, theirs;
  for (int i = 0; i < HANDED; i++) mine.t[i] = dt_full(dt_cpu(), 2.0f, 1, SHAPE(3));
  run_thread(free_all_then_exit, &mine);  /* made here, freed there */
  run_thread(make_free_then_exit, &theirs); /* made and freed there */
  for (int i = 0; i < HANDED; i++) {
    rt_assert_failed(dt_neg(mine.t[i]), DT_ERR_INVALID_ARGUMENT, "freed", NULL);
    rt_assert_failed(dt_neg(theirs.t[i]), DT_ERR_INVALID_ARGUMENT, "freed", NULL);
  }
  /* The exited threads handed their free slots back: new tensors reuse them, and the stale
     handles still fail against the new tenants. */
  dt_tensor *fresh[2 * HANDED];
  int reused = 0;
  for (int i = 0; i < 2 * HANDED; i++) {
    fresh[i] = dt_full(dt_cpu(), 9.0f, 1, SHAPE(3));
    const dt_tensor *o = dt__resolve_fast(fresh[i]);
    for (int j = 0; j < HANDED; j++) reused += o == theirs.object[j];
  }
  assert_true(reused > 0);
  for (int i = 0; i < HANDED; i++) {
    dt_free(theirs.t[i]);
    assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
    dt_free(mine.t[i]);
    assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  }
  for (int i = 0; i < 2 * HANDED; i++) {
    float v[3];
    rt_read_f(fresh[i], v, 3);
    assert_true(v[2] == 9.0f);
    dt_free(fresh[i]);
  }
  assert_int_equal(dt_last_status(), DT_OK);
}

/* A thread that only frees still hands its cached slots back when it exits. */
static void test_freeing_thread_hands_slots_back(void **state) {
  (void)state;
  handoff few;
  for (int i = 0; i < 8; i++) {
    few.t[i] = dt_full(dt_cpu(), 4.0f, 1, SHAPE(3));
    few.object[i] = dt__resolve_fast(few.t[i]);
  }
  run_thread(free_few_then_exit, &few);
  enum { LOTS = 4 * MANY };
  static dt_tensor *lots[LOTS];
  int reused = 0;
  for (int i = 0; i < LOTS; i++) {
    lots[i] = dt_full(dt_cpu(), 5.0f, 1, SHAPE(3));
    for (int j = 0; j < 8; j++) reused += dt__resolve_fast(lots[i]) == few.object[j];
  }
  assert_int_equal(reused, 8);
  for (int i = 0; i < LOTS; i++) dt_free(lots[i]);
  assert_int_equal(dt_last_status(), DT_OK);
  for (int j = 0; j < 8; j++)
    rt_assert_failed(dt_neg(few.t[j]), DT_ERR_INVALID_ARGUMENT, "freed", NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_stale_handle_after_reuse, rt_setup, rt_teardown),
      cmocka_unit_test_setup_teardown(test_generations_never_collide, rt_setup, rt_teardown),
      cmocka_unit_test_setup_teardown(test_last_generation_retires_the_slot, rt_setup, rt_teardown),
      cmocka_unit_test_setup_teardown(test_values_that_were_never_handles, rt_setup, rt_teardown),
      cmocka_unit_test_setup_teardown(test_handles_freed_by_exited_threads, rt_setup, rt_teardown),
      cmocka_unit_test_setup_teardown(test_freeing_thread_hands_slots_back, rt_setup, rt_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
