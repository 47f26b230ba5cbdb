/* analyzer/src/driver/reach.h — whether a program can reach a described API at all: the
 * analysis of a program that never names a described function (called, or taken as a function
 * designator) can record no finding, so the driver skips it (issue 26). */
#ifndef TC_REACH_H
#define TC_REACH_H

#include "ir/ir.h"
#include "rules/rules.h"

/* 1 when some string of p is the name of an API function the rules describe (not a modelled
   library function such as malloc), or the USR of one
   ("c:@F@NAME…", as the engine resolves a function designator): the only ways the engine
   reaches a described function, and so the only ways a finding is recorded. 0 otherwise. */
int tc_program_names_api(const tc_program *p, const tc_rules *rules);

#endif /* TC_REACH_H */
