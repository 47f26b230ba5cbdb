/* tests/engine/harness.c — see harness.h: the front end, the rules and the engine wired
 * together the way the driver does it, for tests. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "annotations.h"
#include "engine/engine.h"
#include "frontend/compdb.h"
#include "frontend/parse.h"
#include "ir/ir.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int eh_analyze_files(const char *const *files, size_t n, eh_opts *o, tc_report *out,
                     char *err, size_t err_len) {
  double t0 = now_s();
  int rc = -1;
  tc_program *prog = NULL;
  tc_rules *rules = NULL;
  tc_parser *parser = tc_parser_new();
  const char *args[64] = {"-std=c11", "-I" TC_TEST_SOURCE_DIR "/runtime/include"};
  size_t n_args = 2;
  for (size_t i = 0; o && i < o->n_extra_args && n_args < 64; i++) args[n_args++] = o->extra_args[i];
  if (!parser) goto done;
  for (size_t i = 0; i < n; i++) {
    tc_compile_cmd cmd;
    if (tc_compile_cmd_from_args(files[i], args, n_args, NULL, &cmd)) goto done;
    tc_parse_result pr;
    memset(&pr, 0, sizeof pr);
    int prc = tc_parse_unit(parser, &cmd, NULL, 0, 0, &pr);
    tc_compile_cmd_free(&cmd);
    if (prc || !pr.prog || (pr.failure && !(o && o->keep_going))) {
      snprintf(err, err_len, "%s: %s", files[i], pr.failure ? pr.failure : "no AST");
      tc_parse_result_free(&pr);
      goto done;
    }
    if (!prog) {
      prog = pr.prog;
    } else if (tc_program_merge(prog, pr.prog)) {
      pr.prog = NULL;
      snprintf(err, err_len, "merge failed");
      tc_parse_result_free(&pr);
      goto done;
    }
    pr.prog = NULL;
    tc_parse_result_free(&pr);
  }
  if (o && o->dump_ir) tc_ir_dump(prog, stdout);
  double t1 = now_s();
  if (o) o->parse_s = t1 - t0;
  if (o && o->no_analysis) {
    rc = 0;
    goto done;
  }
  const char *rp = TC_DEFAULT_RULES_BUILD;
  rules = tc_rules_load(&rp, 1, err, err_len);
  if (!rules) goto done;
  tc_engine_opts eo;
  memset(&eo, 0, sizeof eo);
  if (o) {
    eo.unavailable = o->unavailable;
    eo.n_unavailable = o->n_unavailable;
    eo.max_states = o->max_states;
  }
  if (tc_engine_analyze(prog, rules, &eo, out)) {
    snprintf(err, err_len, "engine failed");
    goto done;
  }
  if (o) o->analyze_s = now_s() - t1;
  rc = 0;
done:
  tc_rules_free(rules);
  tc_program_free(prog);
  tc_parser_free(parser);
  return rc;
}

char *eh_write_temp(const char *name, const char *text) {
  char dir[] = "/tmp/tc_engine_XXXXXX";
  if (!mkdtemp(dir)) return NULL;
  size_t len = strlen(dir) + strlen(name) + 2;
  char *path = malloc(len);
  if (!path) return NULL;
  snprintf(path, len, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    free(path);
    return NULL;
  }
  fputs(text, f);
  fclose(f);
  return path;
}

void eh_remove(char *path) {
  if (!path) return;
  unlink(path);
  char *slash = strrchr(path, '/');
  if (slash) {
    *slash = '\0';
    rmdir(path);
  }
  free(path);
}

static const char *base_name_of(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

typedef struct expect {
  const char *file;
  tc_annotation a;
  int used;
} expect;

/* Reads the annotations of one file (tests/corpus/annotations.h) into *ex. */
static int read_expectations(const char *file, expect **ex, size_t *n) {
  tc_annotation *as = NULL;
  size_t na = 0;
  int rc = tc_annotations_read(file, &as, &na);
  expect *g = na ? realloc(*ex, (*n + na) * sizeof **ex) : *ex;
  if (na && !g) rc = -1;
  for (size_t i = 0; g && i < na; i++) g[(*n)++] = (expect){file, as[i], 0};
  if (g) *ex = g;
  free(as);
  return rc;
}

static tc_level expected_level(const expect *x) {
  return x->a.is_error ? TC_LEVEL_ERROR : TC_LEVEL_WARNING;
}

static size_t append(char *msg, size_t len, size_t pos, const char *fmt, const char *a,
                     unsigned b, const char *c, const char *d) {
  if (pos >= len) return pos;
  int w = snprintf(msg + pos, len - pos, fmt, a, b, c, d);
  return w > 0 ? pos + (size_t)w : pos;
}

int eh_compare(const char *const *files, size_t n, const tc_report *out, char *msg,
               size_t msg_len) {
  expect *ex = NULL;
  size_t ne = 0;
  for (size_t i = 0; i < n; i++) read_expectations(files[i], &ex, &ne);
  int bad = 0;
  size_t pos = 0;
  if (msg_len) msg[0] = '\0';
  for (size_t d = 0; d < out->n_diags; d++) {
    const tc_diag *g = &out->diags[d];
    int found = 0;
    for (size_t i = 0; i < ne && !found; i++) {
      if (ex[i].used || ex[i].a.line != g->loc.line || strcmp(ex[i].a.rule, g->rule_id) ||
          strcmp(base_name_of(ex[i].file), base_name_of(g->loc.file)))
        continue;
      ex[i].used = 1;
      found = 1;
      if (expected_level(&ex[i]) != g->level) {
        bad++;
        pos = append(msg, msg_len, pos, "level: %s:%u [%s] reported as %s\n",
                     base_name_of(g->loc.file), g->loc.line, g->rule_id,
                     tc_level_name(g->level));
      }
    }
    if (!found) {
      bad++;
      pos = append(msg, msg_len, pos, "unexpected: %s:%u: %s [%s]\n", base_name_of(g->loc.file),
                   g->loc.line, g->message, g->rule_id);
    }
  }
  for (size_t i = 0; i < ne; i++)
    if (!ex[i].used) {
      bad++;
      pos = append(msg, msg_len, pos, "missing: %s:%u: %s [%s]\n", base_name_of(ex[i].file),
                   ex[i].a.line, tc_level_name(expected_level(&ex[i])), ex[i].a.rule);
    }
  free(ex);
  return bad;
}
