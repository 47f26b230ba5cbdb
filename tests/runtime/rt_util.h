/* tests/runtime/rt_util.h — helpers shared by the runtime's unit tests: shape literals, tensors
 * from literals, reading values back, and assertions on the last failure's status, rule id and
 * message. Tests run in return mode (rt_setup) unless they test abort mode on purpose. */
#ifndef RT_UTIL_H
#define RT_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dt/dt.h"
#include "internal.h"

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define FLOATS(...) ((const float[]){__VA_ARGS__})
#define INTS(...) ((const int64_t[]){__VA_ARGS__})

/* cmocka group setup: return mode, and a check that the live-object counters come back. */
int rt_setup(void **state);
int rt_teardown(void **state);

/* Reads a float (int) tensor of at most cap elements into out; fails the test otherwise. */
void rt_read_f(const dt_tensor *t, float *out, int64_t cap);
void rt_read_i(const dt_tensor *t, int64_t *out, int64_t cap);
/* Asserts the tensor has this shape. */
void rt_assert_shape(const dt_tensor *t, int rank, const int64_t *shape);
/* Asserts result is NULL and the last failure has this status, its rule id in brackets at the
   end of the message, and every fragment (NULL-terminated list) somewhere in the message. */
void rt_assert_failed(const void *result, dt_status status, ...);
/* Frees every tensor of the NULL-terminated list. */
void rt_free_all(dt_tensor *first, ...);
/* A plain float tensor of the given shape holding 0.5*i - 3 (distinct values, some negative). */
dt_tensor *rt_iota(dt_device d, int rank, const int64_t *shape);

#endif /* RT_UTIL_H */
