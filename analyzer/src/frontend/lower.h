/* analyzer/src/frontend/lower.h — lowering one parsed translation unit (libclang cursors) into
 * the IR: every function defined in the main file or in a non-system header, the file-scope
 * variables and their initializers (the unit's __tc_global_init). Used by parse.c. */
#ifndef TC_LOWER_H
#define TC_LOWER_H

#include <clang-c/Index.h>

#include "ir/ir.h"

#include <stdint.h>

typedef struct tc_lower_opts {
  const char *working_dir; /* makes relative file names absolute; NULL: the process's */
  uintptr_t stack_floor;   /* lowering stops descending below this stack address: the calling
                              thread's (tc_lower_stack_floor); 0: computed here (slow on the main
                              thread, which glibc describes by reading /proc) */
  unsigned long fail_alloc_after; /* tests: every lowering allocation after this many fails, as
                                     out of memory would (0: none) */
} tc_lower_opts;

/* The stack address under which recursion must stop on the calling thread (0 if unknown). */
uintptr_t tc_lower_stack_floor(void);

/* Appends one unit for tu (main file main_file, absolute) to prog. Returns 0, or -1 when out
   of memory (then nothing is added; the process is never ended). Never fails on unusual C:
   what it cannot model becomes unknown. */
int tc_lower_tu(tc_program *prog, CXTranslationUnit tu, const char *main_file,
                const tc_lower_opts *opts);

#endif /* TC_LOWER_H */
