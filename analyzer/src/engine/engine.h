/* analyzer/src/engine/engine.h — the analysis engine's entry points: load the API description
 * (rules files), then analyze a whole program's IR and append findings to a report. The engine
 * never prints and keeps all state in its own context (no globals): the driver may run it many
 * times in one process (editor mode). */
#ifndef TC_ENGINE_H
#define TC_ENGINE_H

#include <stddef.h>

#include "engine/observe.h"
#include "ir/ir.h"
#include "report/diag.h"

typedef struct tc_rules tc_rules; /* rules/rules.h */

/* Loads and validates one or more rules files (cJSON). On failure returns NULL and writes
   "FILE:LINE:COL: what is wrong" (or "FILE: …") into err: the driver exits 2 with it. */
tc_rules *tc_rules_load(const char *const *paths, size_t n_paths, char *err, size_t err_len);
void tc_rules_free(tc_rules *rules);
/* A hash of the text of every rules file as it was read (a pipe is read once): cache keys. */
uint64_t tc_rules_content_hash(const tc_rules *rules);
/* Adds the metadata of every rule the loaded files can report to r (for SARIF). */
void tc_rules_describe(const tc_rules *rules, tc_report *r);

typedef struct tc_engine_stats {
  unsigned groups;       /* parts the roots were analyzed in */
  size_t roots;          /* functions analyzed as roots */
  unsigned long long insns; /* instructions in the program */
  /* calls of user functions whose memo key was computed by walking what the callee can see,
     and those whose key was proven equal to the callee's previous one without the walk */
  unsigned long long keys_walked, keys_reused;
  /* analyses of a function past its work budget: run again with its states joined (findings
     where joined states still fail), and those past it joined too (dropped: their callers go
     on as after an unknown call) */
  unsigned long long budget_reruns, budget_stops;
  /* the most work steps any group's engine took (tc_engine_fingerprint's work_floor) */
  unsigned long long work_peak;
} tc_engine_stats;

typedef struct tc_engine_opts {
  const char *const *unavailable; /* backend names the configuration marks unavailable */
  size_t n_unavailable;
  const char *const *disabled_rules; /* rule ids not to report */
  size_t n_disabled_rules;
  unsigned max_states;   /* disjunctive states kept per program point before joining; 0: default */
  unsigned max_contexts; /* analyses per function (distinct argument tuples); 0: default */
  /* Threads the analysis may use (0 or 1: the calling thread only). A large program's roots
     are analyzed in `groups` independent parts (0: chosen from the program's size, never from
     jobs), which threads take in turn; the findings do not depend on jobs. */
  unsigned jobs;
  unsigned groups;
  tc_engine_stats *stats; /* filled when not NULL */
  /* Positions whose tags to record (engine/observe.h: the language server's hover), answered
     when the analysis returns; NULL: none (nothing is recorded, nothing costs). */
  tc_observe *observe;
} tc_engine_opts;


/* Analyzes every function of prog (whole program: calls are matched across units by USR) and
   appends the findings to out. Returns 0, or -1 on an internal failure (out of memory). */
int tc_engine_analyze(const tc_program *prog, const tc_rules *rules, const tc_engine_opts *opts,
                      tc_report *out);

/* What an analysis of a program reads, hashed (engine/fingerprint.c): the IR, units and flags
   of every function except the inert ones — functions that reach no API call, that nothing
   calls and whose address nobody takes, whose name is their own (no other function's, no API
   function's) —, the globals that change after their initializers, the root groups. Two
   programs with the same key whose analysis of one took fewer than work_floor steps in every
   group (tc_engine_stats.work_peak) have the same findings: an edit that changes only inert
   functions (a new helper not called yet, a function that only computes) need not be analyzed
   again. The key does not cover the rules or the engine's options. */
typedef struct tc_engine_fingerprint {
  uint64_t key;
  unsigned long long work_floor; /* the work budget of the program less its inert functions */
  size_t n_inert;                /* functions left out of the key */
} tc_engine_fingerprint;
/* Units' parts of fingerprints by their IR digest, for a caller that fingerprints the same
   units again (the editor's session): only the edited unit is hashed again. Bounded. */
typedef struct tc_fingerprint_memo tc_fingerprint_memo;
tc_fingerprint_memo *tc_fingerprint_memo_new(void); /* NULL when out of memory */
void tc_fingerprint_memo_free(tc_fingerprint_memo *m);
/* Fills *fp for prog; 0, or -1 when out of memory. unit_digests (NULL: none) holds each unit's
   IR digest (tc_cache_digest of the unit alone) in prog's unit order, memo (NULL: none) the
   parts of units seen before. */
int tc_engine_fingerprint_of(const tc_program *prog, const uint64_t *unit_digests,
                             tc_fingerprint_memo *memo, const tc_rules *rules,
                             const tc_engine_opts *opts, tc_engine_fingerprint *fp);

#endif /* TC_ENGINE_H */
