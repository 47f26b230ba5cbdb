/* analyzer/src/report/json_util.h — cJSON helpers the report layer shares: strings made valid
 * UTF-8 on the way in, printing a tree to a stream, and reading a JSON file with errors that
 * name the file, line and column. */
#ifndef TC_JSON_UTIL_H
#define TC_JSON_UTIL_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "base/json_pos.h" /* tc_json_line_col */

/* Adds key: s to obj (s sanitized to valid UTF-8; NULL becomes ""). Returns the new item or
   NULL when out of memory. */
cJSON *tc_json_add_text(cJSON *obj, const char *key, const char *s);
/* The same as an array element / a bare item. */
cJSON *tc_json_text(const char *s);
/* Adds key: {"text": s}. */
cJSON *tc_json_add_message(cJSON *obj, const char *key, const char *s);

/* Prints item (indented) and a newline to out. Returns 0, or -1 (out of memory, write error). */
int tc_json_write(const cJSON *item, FILE *out);

/* Reads and parses path. On failure returns NULL and writes "PATH: reason" or
   "PATH:LINE:COL: JSON syntax error" into err. *text_out (if not NULL) receives the file's
   text (caller frees) for locating keys later. */
cJSON *tc_json_read_file(const char *path, char **text_out, char *err, size_t err_len);


#endif /* TC_JSON_UTIL_H */
