/* analyzer/include-fallback/omp.h — the OpenMP runtime API's declarations, for units built with
 * -fopenmp when the libclang tagcheck uses has no omp.h of its own (gcc's lives with gcc, and
 * clang's comes with libomp). Searched after every directory a unit names (-idirafter), so a
 * real omp.h wins. Only declarations: tagcheck never links this code. */
#ifndef TAGCHECK_FALLBACK_OMP_H
#define TAGCHECK_FALLBACK_OMP_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum omp_sched_t { omp_sched_static = 1, omp_sched_dynamic = 2, omp_sched_guided = 3,
                           omp_sched_auto = 4 } omp_sched_t;
typedef struct omp_lock_t { void *_lk; } omp_lock_t;
typedef struct omp_nest_lock_t { void *_lk; } omp_nest_lock_t;

void omp_set_num_threads(int n);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_dynamic(int v);
int omp_get_dynamic(void);
void omp_set_nested(int v);
int omp_get_nested(void);
int omp_get_level(void);
void omp_set_schedule(omp_sched_t kind, int chunk);
void omp_get_schedule(omp_sched_t *kind, int *chunk);
double omp_get_wtime(void);
double omp_get_wtick(void);
void omp_init_lock(omp_lock_t *l);
void omp_destroy_lock(omp_lock_t *l);
void omp_set_lock(omp_lock_t *l);
void omp_unset_lock(omp_lock_t *l);
int omp_test_lock(omp_lock_t *l);
void omp_init_nest_lock(omp_nest_lock_t *l);
void omp_destroy_nest_lock(omp_nest_lock_t *l);
void omp_set_nest_lock(omp_nest_lock_t *l);
void omp_unset_nest_lock(omp_nest_lock_t *l);
int omp_test_nest_lock(omp_nest_lock_t *l);

#ifdef __cplusplus
}
#endif

#endif /* TAGCHECK_FALLBACK_OMP_H */
