/* analyzer/src/ir/ir_walk.h — visits every interned-string field of a unit's IR (names, USRs,
 * files, field names, type names, global roots). Used to remap syms when programs merge.
 * Each field is visited exactly once, which holds because no two paths share an elems array
 * and global_init is not also listed in functions (the lowering guarantees both). */
#ifndef TC_IR_WALK_H
#define TC_IR_WALK_H

#include "ir/ir.h"

typedef void (*tc_sym_fn)(tc_sym *sym, void *ctx);

void tc_ir_walk_unit_syms(tc_unit *u, tc_sym_fn fn, void *ctx);

/* The number of syms in p's string table (valid syms are 1 .. count-1). */
uint32_t tc_ir_sym_count(const tc_program *p);

#endif /* TC_IR_WALK_H */
