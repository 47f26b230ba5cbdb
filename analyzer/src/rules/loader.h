/* analyzer/src/rules/loader.h — what the parts of the rules loader share (the files of rules/): the
 * loader's state, and one entry per section of a rules file. Each part reads one vocabulary:
 * vocabulary.c backends, kinds, device and tensor types; operands.c argument indices;
 * checks.c, results.c, effects.c a function's checks, result and effects (their words are
 * tabled in rules.def); functions.c the functions, families and call-site twins;
 * messages.c rule ids, message templates and rule descriptions; fixes.c fix-its; load.c the
 * files, in order, and what they must provide together. Not for use outside rules/. */
#ifndef TC_RULES_LOADER_H
#define TC_RULES_LOADER_H

#include <cjson/cJSON.h>

#include "base/json_pos.h"
#include "rules/rules.h"

typedef struct loader {
  tc_json_src j; /* the file being loaded, and the first error */
  tc_rules *r;   /* what the files loaded so far describe */
  const char *given; /* the last file named by the caller (not one it includes): what an
                        error about the files together names */
} loader;

/* Call-site twins: "NAME<suffix>" takes `leading` extra arguments first. */
typedef struct twin_spec {
  char *suffix;
  int leading;
} twin_spec;

char *rules_strdup(const char *s);
/* The index of name among names[1..n-1] (rules.def's rows; names[0] is no row), or 0. */
size_t rules_find_name(const char *const *names, size_t n, const char *name);
/* "a", "b" or "c": names joined with ", " (last_sep before the last), each in quote. */
void rules_name_list(const char *const *names, size_t n, const char *quote, const char *last_sep,
                     char *buf, size_t len);

/* vocabulary.c */
int rules_parse_backends(loader *L, const cJSON *arr);
int rules_parse_kinds(loader *L, const cJSON *arr);
int rules_parse_device_types(loader *L, const cJSON *arr);
/* A JSON array of non-empty strings under key (the rules file's "tensor_types", "noreturn"),
   appended to *names; what says what the strings are, for the error. */
int rules_parse_names(loader *L, const cJSON *arr, const char *key, const char *what,
                      char ***names, size_t *n);
int rules_kind_index_by_name(const tc_rules *r, const char *name);
/* The backend named by obj's string key: 0 and *out its index, or -1 (error recorded). */
int rules_backend_named(loader *L, const cJSON *obj, const char *key, size_t at, int *out);

/* operands.c: an argument index of key (1 read, 0 absent, -1 wrong; required: absent is
   wrong), and a list of at least min of them. */
int rules_get_arg(loader *L, const cJSON *obj, const char *key, size_t where, int n_params,
                  int required, int *out);
int rules_get_arg_list(loader *L, const cJSON *obj, const char *key, size_t where, int n_params,
                       int *args, int *n_args, int min);

/* checks.c, results.c, effects.c: one description each, at offset at of the text. */
int rules_parse_check(loader *L, const cJSON *chk, size_t at, int n_params, tc_check *c);
void rules_free_checks(tc_check *c, size_t n);
/* Whether a check of this kind reads device operands (they need the API's device types). */
int rules_check_reads_devices(tc_check_kind kind);
/* The check kind named so, or 0. */
tc_check_kind rules_check_by_name(const char *name);
int rules_parse_result(loader *L, const cJSON *res_obj, size_t at, int n_params,
                       tc_result_spec *res);
int rules_parse_effect(loader *L, const cJSON *ef, size_t at, int n_params, tc_effect *out);

/* functions.c */
int rules_parse_functions(loader *L, const cJSON *obj, const char *section, int api);
int rules_parse_families(loader *L, const cJSON *arr);
int rules_add_twins(tc_rules *r, const twin_spec *tw);

/* messages.c */
int rules_parse_rule_ids(loader *L, const cJSON *obj);
int rules_parse_messages(loader *L, const cJSON *obj);
/* The message slot of a "messages" key, or -1. */
int rules_message_by_key(const char *key);
int rules_parse_string_map(loader *L, const cJSON *obj, const char *section,
                           const char *const *keys, size_t n, char **slots);
int rules_parse_rule_metas(loader *L, const cJSON *arr);
/* Every rule slot the loaded checks can fail with is named, by a rule the runtime has built
   in or the files describe; templates not given get the generic wording. 0, or -1 with the
   error in err (file: the last file loaded). */
int rules_finish_messages(tc_rules *r, const char *file, char *err, size_t err_len);

/* fixes.c */
int rules_parse_fixes(loader *L, const cJSON *arr);
/* Every function a fix names is described, with a check of the fix's kind: 0, else -1 with
   "FILE: reason" in err. */
int rules_finish_fixes(const tc_rules *r, const char *file, char *err, size_t err_len);
void rules_free_fixes(tc_rules *r);

#endif /* TC_RULES_LOADER_H */
