/* tests/conform/test_conform.c — the conformance test between the two halves. It reads
 * rules/dt.json with cJSON and, for every API function it lists and every combination of
 * operand tags a check reads (backend x ordinal x autodiff x kind for each tensor operand,
 * backend x ordinal x autodiff for each device operand), predicts from the function's checks
 * (in order, the first failure deciding, as the analyzer runs them) and the file's message
 * templates the status, rule id and message, then calls the real libdt and compares. Backends
 * cpu and sim always; cuda tensors only where a GPU is present (cases that cannot run are
 * counted as skipped, never as passed). It also holds the file's "messages" equal to the
 * runtime's table, dt/messages.def. Usage: test_conform rules/dt.json */
#include <cjson/cJSON.h>
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h" /* the analyzer's file reader */

#define MAX_BACKENDS 8
#define MAX_TAGS 64
#define MAX_DEVICES 32

/* ---- the rules file ---- */

typedef struct rules {
  cJSON *root, *functions, *messages, *rule_ids;
  struct {
    char name[16];
    int value, single;
  } backends[MAX_BACKENDS];
  int n_backends;
  struct {
    char name[16];
    int value;
  } kinds[4];
  int n_kinds;
} rules;

static int load_rules(rules *r, const char *path) {
  memset(r, 0, sizeof *r);
  unsigned char *text;
  size_t len;
  if (tc_read_file(path, &text, &len) != 0) return -1;
  r->root = cJSON_ParseWithLength((const char *)text, len);
  free(text);
  if (!r->root) return -1;
  r->functions = cJSON_GetObjectItemCaseSensitive(r->root, "functions");
  r->messages = cJSON_GetObjectItemCaseSensitive(r->root, "messages");
  r->rule_ids = cJSON_GetObjectItemCaseSensitive(r->root, "rule_ids");
  const cJSON *x;
  cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(r->root, "backends")) {
    if (r->n_backends == MAX_BACKENDS) break;
    snprintf(r->backends[r->n_backends].name, 16, "%s",
             cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "name")));
    r->backends[r->n_backends].value =
        (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(x, "value"));
    r->backends[r->n_backends].single =
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(x, "single_device"));
    r->n_backends++;
  }
  cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(r->root, "kinds")) {
    if (r->n_kinds == 4) break;
    snprintf(r->kinds[r->n_kinds].name, 16, "%s",
             cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "name")));
    r->kinds[r->n_kinds].value =
        (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(x, "value"));
    r->n_kinds++;
  }
  return r->functions && r->messages && r->rule_ids && r->n_backends && r->n_kinds ? 0 : -1;
}

static const char *kind_name(const rules *r, int k) {
  for (int i = 0; i < r->n_kinds; i++)
    if (r->kinds[i].value == k) return r->kinds[i].name;
  return "?";
}

static int kind_value(const rules *r, const char *name) {
  for (int i = 0; i < r->n_kinds; i++)
    if (strcmp(r->kinds[i].name, name) == 0) return r->kinds[i].value;
  return -1;
}

/* A device as the rules name it: "cpu", "sim:1", "autodiff<cuda:0>". */
static void device_text(const rules *r, dt_device d, int inner, char *buf, size_t n) {
  char in[48] = "?";
  for (int i = 0; i < r->n_backends; i++)
    if (r->backends[i].value == (int)d.backend) {
      if (r->backends[i].single)
        snprintf(in, sizeof in, "%s", r->backends[i].name);
      else
        snprintf(in, sizeof in, "%s:%d", r->backends[i].name, d.ordinal);
    }
  if (d.autodiff && !inner)
    snprintf(buf, n, "autodiff<%s>", in);
  else
    snprintf(buf, n, "%s", in);
}

/* ---- operands and predictions ---- */

typedef enum role { R_NONE, R_TENSOR, R_DEVICE, R_ARRAY } role;
typedef struct tag {
  dt_device dev;
  dt_kind kind;
} tag;
typedef struct param {
  role role;
  tag t;       /* R_TENSOR: its tag; R_DEVICE: t.dev */
  tag arr[3];  /* R_ARRAY */
  int n_arr;
} param;

typedef struct opnd {
  tag t;
  int index; /* position among the check's operands */
} opnd;

typedef struct prediction {
  const char *rule_slot; /* NULL: the call passes */
  const char *msg_key;
  opnd expected, got;
  int has_expected, has_got;
  opnd all[3];
  int n_all;
  int backend;
} prediction;

static int fail(prediction *p, const char *slot, const char *key, const opnd *e, const opnd *g) {
  p->rule_slot = slot;
  p->msg_key = key;
  if (e) p->expected = *e, p->has_expected = 1;
  if (g) p->got = *g, p->has_got = 1;
  return 1;
}

static int arg_index(const cJSON *ck, const char *name) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(ck, name);
  return cJSON_IsNumber(x) ? (int)x->valuedouble : -1;
}

/* The tensor operands of an agree / kinds check. */
static int gather(const cJSON *ck, const param *ps, opnd *ops) {
  int n = 0, a = arg_index(ck, "array_arg");
  if (a >= 0) {
    for (int i = 0; i < ps[a].n_arr; i++) ops[n].t = ps[a].arr[i], ops[n].index = n, n++;
    return n;
  }
  const cJSON *x;
  cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(ck, "args")) {
    ops[n].t = ps[(int)x->valuedouble].t;
    ops[n].index = n;
    n++;
  }
  return n;
}

typedef int (*field_fn)(const tag *t);
static int f_autodiff(const tag *t) { return t->dev.autodiff != 0; }
static int f_backend(const tag *t) { return (int)t->dev.backend; }
static int f_ordinal(const tag *t) { return t->dev.ordinal; }
static int f_kind(const tag *t) { return (int)t->kind; }

static int differ(const opnd *ops, int n, field_fn f, int *pi, int *pj) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (f(&ops[i].t) != f(&ops[j].t)) {
        *pi = i;
        *pj = j;
        return 1;
      }
  return 0;
}

static int check_agree(prediction *p, const opnd *ops, int n) {
  int i, j;
  if (differ(ops, n, f_autodiff, &i, &j))
    return fail(p, "autodiff_expected",
                ops[i].t.dev.autodiff ? "autodiff_mixed" : "autodiff_mixed_plain", &ops[i], &ops[j]);
  if (differ(ops, n, f_backend, &i, &j)) {
    int ad = ops[i].t.dev.autodiff;
    return fail(p, ad ? "autodiff_inner_backend" : "backend_mismatch",
                ad ? "inner_backend" : "backend", &ops[i], &ops[j]);
  }
  if (differ(ops, n, f_ordinal, &i, &j))
    return fail(p, "device_mismatch", "device", &ops[i], &ops[j]);
  return 0;
}

static int check_kinds(const rules *r, prediction *p, const cJSON *ck, const opnd *ops, int n) {
  int i, j, rc = 0;
  const cJSON *accept = cJSON_GetObjectItemCaseSensitive(ck, "accept");
  if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ck, "same"))) {
    if (differ(ops, n, f_kind, &i, &j)) rc = fail(p, "kind_mismatch", "kind", &ops[i], &ops[j]);
    if (!rc && !accept) return 0;
  }
  if (!rc && arg_index(ck, "array_arg") >= 0) {
    for (i = 0; i < n && !rc; i++) {
      int ok = 0;
      const cJSON *row;
      cJSON_ArrayForEach(row, accept) ok |= kind_value(r, cJSON_GetArrayItem(row, 0)->valuestring) ==
                                            (int)ops[i].t.kind;
      if (!ok) rc = fail(p, "kind_mismatch", "kind", NULL, &ops[i]);
    }
  } else if (!rc) {
    const cJSON *row;
    cJSON_ArrayForEach(row, accept) {
      int ok = 1;
      for (i = 0; i < n; i++)
        ok &= kind_value(r, cJSON_GetArrayItem(row, i)->valuestring) == (int)ops[i].t.kind;
      if (ok) return 0;
    }
    const opnd *got = &ops[n - 1], *exp = n > 1 ? &ops[0] : NULL;
    for (i = 1; i < n; i++)
      if (ops[i].t.kind != ops[0].t.kind) {
        got = &ops[i];
        break;
      }
    rc = fail(p, "kind_mismatch", "kind", exp, got);
  }
  if (rc) {
    for (i = 0; i < n; i++) p->all[i] = ops[i];
    p->n_all = n;
  }
  return rc;
}

/* Runs one check of the rules on concrete operands; 1 when it fails (p filled). */
static int run_check(const rules *r, const cJSON *ck, const param *ps, prediction *p) {
  const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ck, "check"));
  opnd ops[3];
  memset(ops, 0, sizeof ops);
  if (!strcmp(kind, "agree") || !strcmp(kind, "agree_array"))
    return check_agree(p, ops, gather(ck, ps, ops));
  if (!strcmp(kind, "kinds")) {
    int n = gather(ck, ps, ops);
    return check_kinds(r, p, ck, ops, n);
  }
  if (!strcmp(kind, "autodiff_required")) {
    ops[0].t = ps[arg_index(ck, "arg")].t;
    return !ops[0].t.dev.autodiff && fail(p, "autodiff_expected", "autodiff_required", NULL, &ops[0]);
  }
  if (!strcmp(kind, "plain_device")) {
    ops[0].t = ps[arg_index(ck, "arg")].t;
    return ops[0].t.dev.autodiff &&
           fail(p, "autodiff_nested", "autodiff_nested_device", NULL, &ops[0]);
  }
  if (!strcmp(kind, "same_autodiff")) {
    ops[0].t = ps[arg_index(ck, "tensor_arg")].t;
    ops[1].t = ps[arg_index(ck, "device_arg")].t;
    return ops[0].t.dev.autodiff != ops[1].t.dev.autodiff &&
           fail(p, "autodiff_expected", "autodiff_move", &ops[1], &ops[0]);
  }
  if (!strcmp(kind, "wraps")) {
    ops[0].t = ps[arg_index(ck, "device_arg")].t;
    ops[1].t = ps[arg_index(ck, "tensor_arg")].t;
    if (ops[1].t.dev.autodiff)
      return fail(p, "autodiff_nested", "autodiff_nested_tensor", &ops[0], &ops[1]);
    if (!ops[0].t.dev.autodiff)
      return fail(p, "autodiff_expected", "autodiff_plain_device", NULL, &ops[0]);
    if (ops[0].t.dev.backend != ops[1].t.dev.backend)
      return fail(p, "autodiff_inner_backend", "inner_backend", &ops[0], &ops[1]);
    if (ops[0].t.dev.ordinal != ops[1].t.dev.ordinal)
      return fail(p, "device_mismatch", "device", &ops[0], &ops[1]);
    return 0;
  }
  if (!strcmp(kind, "allocates")) {
    ops[0].t = ps[arg_index(ck, "device_arg")].t;
    p->backend = (int)ops[0].t.dev.backend;
    return !dt_backend_available(ops[0].t.dev.backend) &&
           fail(p, "backend_unavailable", "unavailable", NULL, &ops[0]);
  }
  fprintf(stderr, "test_conform: check \"%s\" has no model here: add one\n", kind);
  exit(2);
}

/* The message the rules predict, as a pattern: '\1' stands for {why} (the analyzer's reason
   and the runtime's differ by nature). */
static void predict_message(const rules *r, const char *op, const prediction *p, char *buf,
                            size_t len) {
  const char *tmpl =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r->messages, p->msg_key));
  const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r->rule_ids, p->rule_slot));
  size_t pos = (size_t)snprintf(buf, len, "%s: ", op);
  for (const char *s = tmpl ? tmpl : ""; *s && pos + 1 < len;) {
    const char *end = *s == '{' ? strchr(s, '}') : NULL;
    if (!end) {
      buf[pos++] = *s++;
      buf[pos] = '\0';
      continue;
    }
    char key[32], val[128] = "";
    snprintf(key, sizeof key, "%.*s", (int)(end - s - 1), s + 1);
    const opnd *k = p->has_got ? &p->got : &p->expected;
    if (!strcmp(key, "expected")) device_text(r, p->expected.t.dev, 0, val, sizeof val);
    else if (!strcmp(key, "got")) device_text(r, p->got.t.dev, 0, val, sizeof val);
    else if (!strcmp(key, "expected_inner")) device_text(r, p->expected.t.dev, 1, val, sizeof val);
    else if (!strcmp(key, "got_inner")) device_text(r, p->got.t.dev, 1, val, sizeof val);
    else if (!strcmp(key, "kind")) snprintf(val, sizeof val, "%s", kind_name(r, (int)k->t.kind));
    else if (!strcmp(key, "index")) snprintf(val, sizeof val, "%d", p->has_got ? p->got.index + 1 : 1);
    else if (!strcmp(key, "why")) snprintf(val, sizeof val, "\1");
    else if (!strcmp(key, "backend")) {
      for (int i = 0; i < r->n_backends; i++)
        if (r->backends[i].value == p->backend) snprintf(val, sizeof val, "%s", r->backends[i].name);
    } else if (!strcmp(key, "kinds")) {
      size_t vp = 0;
      for (int i = 0; i < p->n_all; i++)
        vp += (size_t)snprintf(val + vp, sizeof val - vp, "%s%s",
                               i == 0 ? "" : i == p->n_all - 1 ? " and " : ", ",
                               kind_name(r, (int)p->all[i].t.kind));
    } else {
      snprintf(val, sizeof val, "{%s}", key);
    }
    pos += (size_t)snprintf(buf + pos, len - pos, "%s", val);
    if (pos >= len) pos = len - 1;
    s = end + 1;
  }
  snprintf(buf + pos, len - pos, " [%s]", id ? id : "?");
}

/* Whether text matches pattern, where '\1' matches any run of characters. */
static int matches(const char *pat, const char *text) {
  if (*pat == '\0') return *text == '\0';
  if (*pat == '\1') {
    for (const char *t = text;; t++) {
      if (matches(pat + 1, t)) return 1;
      if (*t == '\0') return 0;
    }
  }
  return *pat == *text && matches(pat + 1, text + 1);
}

/* ---- calling the runtime ---- */

typedef struct world {
  tag tags[MAX_TAGS];
  dt_tensor *pool[MAX_TAGS];
  int n_tags;
  dt_device devices[MAX_DEVICES];
  int n_devices;
  dt_tensor *reset; /* a live cpu tensor: dt_numel of it resets the status */
} world;

static const int64_t k_shape[2] = {1, 1};

/* Public names are macros that pass the call site; the parenthesized names are the plain
   functions, whose messages carry none (as the rules' templates do not). */
static dt_tensor *make(const tag *t) { return (dt_zeros)(t->dev, t->kind, 2, k_shape); }

static dt_tensor *pooled(const world *w, const tag *t) {
  for (int i = 0; i < w->n_tags; i++)
    if (dt_device_equal(w->tags[i].dev, t->dev) && w->tags[i].kind == t->kind) return w->pool[i];
  return NULL;
}

/* Calls fn with the operands ps; returns 0 when it ran (status and message captured), -1 when
   an operand could not be made (the case is skipped). Results are freed. */
static int call(const world *w, const char *fn, const param *ps, dt_status *st, char *msg,
                size_t msg_len) {
  dt_tensor *t[3] = {NULL, NULL, NULL};
  for (int i = 0; i < 3; i++)
    if (ps[i].role == R_TENSOR && !(t[i] = pooled(w, &ps[i].t))) return -1;
  dt_tensor *arr[3];
  for (int i = 0; i < ps[1].n_arr; i++)
    if (!(arr[i] = pooled(w, &ps[1].arr[i]))) return -1;
  dt_device d0 = ps[0].t.dev, d1 = ps[1].t.dev;
  (void)(dt_numel)(w->reset);
  dt_tensor *out = NULL;
  float fbuf[4];
  int64_t ibuf[4];
  char name[64];
  const float one = 1.0f;
  const int64_t ione = 1;
#define IS(x) (strcmp(fn, x) == 0)
  if (IS("dt_cpu")) (void)(dt_cpu)();
  else if (IS("dt_sim")) (void)(dt_sim)(1);
  else if (IS("dt_cuda")) (void)(dt_cuda)(0);
  else if (IS("dt_autodiff")) (void)(dt_autodiff)(d0);
  else if (IS("dt_inner_device")) (void)(dt_inner_device)(d0);
  else if (IS("dt_device_equal")) (void)(dt_device_equal)(d0, d1);
  else if (IS("dt_device_name")) (void)(dt_device_name)(d0, name, sizeof name);
  else if (IS("dt_backend_available")) (void)(dt_backend_available)(d0.backend);
  else if (IS("dt_zeros")) out = (dt_zeros)(d0, DT_FLOAT, 2, k_shape);
  else if (IS("dt_ones")) out = (dt_ones)(d0, DT_INT, 2, k_shape);
  else if (IS("dt_full")) out = (dt_full)(d0, 2.0f, 2, k_shape);
  else if (IS("dt_from_floats")) out = (dt_from_floats)(d0, &one, 2, k_shape);
  else if (IS("dt_from_ints")) out = (dt_from_ints)(d0, &ione, 2, k_shape);
  else if (IS("dt_randn")) out = (dt_randn)(d0, 7, 2, k_shape);
  else if (IS("dt_free")) {
    dt_tensor *x = make(&ps[0].t);
    if (!x) return -1;
    (void)(dt_numel)(w->reset);
    (dt_free)(x);
  } else if (IS("dt_device_of")) (void)(dt_device_of)(t[0]);
  else if (IS("dt_kind_of")) (void)(dt_kind_of)(t[0]);
  else if (IS("dt_rank")) (void)(dt_rank)(t[0]);
  else if (IS("dt_dim")) (void)(dt_dim)(t[0], 0);
  else if (IS("dt_numel")) (void)(dt_numel)(t[0]);
  else if (IS("dt_read_floats")) (void)(dt_read_floats)(t[0], fbuf, 4);
  else if (IS("dt_read_ints")) (void)(dt_read_ints)(t[0], ibuf, 4);
  else if (IS("dt_to_device")) out = (dt_to_device)(t[0], d1);
  else if (IS("dt_from_inner")) out = (dt_from_inner)(d0, t[1]);
  else if (IS("dt_inner")) out = (dt_inner)(t[0]);
  else if (IS("dt_require_grad")) {
    /* marks its argument: on a fresh tensor, so the pool stays untracked */
    dt_tensor *x = make(&ps[0].t);
    if (!x) return -1;
    (void)(dt_numel)(w->reset);
    (void)(dt_require_grad)(x);
    *st = (dt_last_status)();
    snprintf(msg, msg_len, "%s", *st == DT_OK ? "" : (dt_last_error)());
    (dt_free)(x);
    return 0;
  } else if (IS("dt_detach")) out = (dt_detach)(t[0]);
  else if (IS("dt_backward")) (void)(dt_backward)(t[0]);
  else if (IS("dt_grad")) out = (dt_grad)(t[0]);
  else if (IS("dt_add")) out = (dt_add)(t[0], t[1]);
  else if (IS("dt_sub")) out = (dt_sub)(t[0], t[1]);
  else if (IS("dt_mul")) out = (dt_mul)(t[0], t[1]);
  else if (IS("dt_div")) out = (dt_div)(t[0], t[1]);
  else if (IS("dt_matmul")) out = (dt_matmul)(t[0], t[1]);
  else if (IS("dt_greater")) out = (dt_greater)(t[0], t[1]);
  else if (IS("dt_mse_loss")) out = (dt_mse_loss)(t[0], t[1]);
  else if (IS("dt_where")) out = (dt_where)(t[0], t[1], t[2]);
  else if (IS("dt_add_scalar")) out = (dt_add_scalar)(t[0], 1.0f);
  else if (IS("dt_mul_scalar")) out = (dt_mul_scalar)(t[0], 2.0f);
  else if (IS("dt_neg")) out = (dt_neg)(t[0]);
  else if (IS("dt_relu")) out = (dt_relu)(t[0]);
  else if (IS("dt_exp")) out = (dt_exp)(t[0]);
  else if (IS("dt_log")) out = (dt_log)(t[0]);
  else if (IS("dt_sigmoid")) out = (dt_sigmoid)(t[0]);
  else if (IS("dt_tanh")) out = (dt_tanh)(t[0]);
  else if (IS("dt_sum")) out = (dt_sum)(t[0]);
  else if (IS("dt_mean")) out = (dt_mean)(t[0]);
  else if (IS("dt_sum_dim")) out = (dt_sum_dim)(t[0], 0);
  else if (IS("dt_reshape")) out = (dt_reshape)(t[0], 1, &ione);
  else if (IS("dt_transpose")) out = (dt_transpose)(t[0]);
  else if (IS("dt_cat")) out = (dt_cat)(ps[1].n_arr, arr, 0);
  else return -2;
#undef IS
  *st = (dt_last_status)();
  snprintf(msg, msg_len, "%s", *st == DT_OK ? "" : (dt_last_error)());
  (dt_free)(out);
  return 0;
}

/* The functions whose operands carry no tag: nothing to check. */
static int tagless(const char *fn) {
  static const char *const names[] = {"dt_set_error_mode", "dt_get_error_mode", "dt_last_status",
                                      "dt_last_error", "dt_status_rule_id"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(fn, names[i])) return 1;
  return 0;
}

/* The role of each parameter, from the function's checks and results in the rules file and
   from what the runtime's signature takes (a device or a tensor). */
static void roles_of(const char *fn, role *rs) {
  for (int i = 0; i < 4; i++) rs[i] = R_NONE;
  static const struct {
    const char *fn;
    const char *roles; /* T tensor, D device, A array (with its count before it) */
  } sigs[] = {{"dt_autodiff", "D"},  {"dt_inner_device", "D"}, {"dt_device_equal", "DD"},
              {"dt_device_name", "D"}, {"dt_backend_available", "D"}, {"dt_zeros", "D"},
              {"dt_ones", "D"},      {"dt_full", "D"},         {"dt_from_floats", "D"},
              {"dt_from_ints", "D"}, {"dt_randn", "D"},        {"dt_to_device", "TD"},
              {"dt_from_inner", "DT"}, {"dt_cat", "-A"},       {"dt_add", "TT"},
              {"dt_sub", "TT"},      {"dt_mul", "TT"},         {"dt_div", "TT"},
              {"dt_matmul", "TT"},   {"dt_greater", "TT"},     {"dt_mse_loss", "TT"},
              {"dt_where", "TTT"},   {"dt_cpu", ""},           {"dt_sim", ""},
              {"dt_cuda", ""}};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    if (!strcmp(fn, sigs[i].fn)) {
      for (int k = 0; sigs[i].roles[k]; k++)
        rs[k] = sigs[i].roles[k] == 'T' ? R_TENSOR
                : sigs[i].roles[k] == 'D' ? R_DEVICE
                : sigs[i].roles[k] == 'A' ? R_ARRAY
                                          : R_NONE;
      return;
    }
  rs[0] = R_TENSOR; /* every other function takes one tensor first */
}

typedef struct tally {
  long checked, passed, failed, skipped, failing_calls;
} tally;

static void run_case(const rules *r, const world *w, const char *fn, const cJSON *checks,
                     const param *ps, tally *t) {
  prediction p;
  memset(&p, 0, sizeof p);
  const cJSON *ck;
  int fails = 0;
  cJSON_ArrayForEach(ck, checks) if ((fails = run_check(r, ck, ps, &p)) != 0) break;
  dt_status st;
  char want[1024], got[1024];
  int rc = call(w, fn, ps, &st, got, sizeof got);
  if (rc == -2) {
    fprintf(stderr, "FAIL %s: the test has no caller for it\n", fn);
    t->failed++;
    return;
  }
  if (rc < 0) {
    t->skipped++;
    return;
  }
  t->checked++;
  const char *got_id = dt_status_rule_id(st);
  if (fails) {
    t->failing_calls++;
    predict_message(r, fn, &p, want, sizeof want);
  } else {
    want[0] = '\0';
  }
  const char *want_id =
      fails ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r->rule_ids, p.rule_slot)) : "ok";
  if (strcmp(want_id ? want_id : "?", got_id) == 0 && matches(want, got)) {
    t->passed++;
    return;
  }
  t->failed++;
  if (t->failed > 40) return;
  char args[256] = "";
  size_t ap = 0;
  for (int i = 0; i < 3; i++) {
    char d[64];
    if (ps[i].role == R_TENSOR || ps[i].role == R_DEVICE) {
      device_text(r, ps[i].t.dev, 0, d, sizeof d);
      ap += (size_t)snprintf(args + ap, sizeof args - ap, "%s%s%s%s", ap ? ", " : "",
                             ps[i].role == R_TENSOR ? kind_name(r, (int)ps[i].t.kind) : "",
                             ps[i].role == R_TENSOR ? " " : "", d);
    }
    for (int k = 0; k < ps[i].n_arr; k++) {
      device_text(r, ps[i].arr[k].dev, 0, d, sizeof d);
      ap += (size_t)snprintf(args + ap, sizeof args - ap, "%s[%s %s]", ap ? ", " : "",
                             kind_name(r, (int)ps[i].arr[k].kind), d);
    }
  }
  for (char *c = want; *c; c++)
    if (*c == '\1') *c = '*';
  fprintf(stderr, "FAIL %s(%s):\n  rules:   %s %s\n  runtime: %s %s\n", fn, args, want_id, want,
          got_id, got);
}

/* Every combination of the roles' values for fn. */
static void run_function(const rules *r, const world *w, const char *fn, const cJSON *checks,
                         tally *t) {
  role rs[4];
  roles_of(fn, rs);
  param ps[4];
  memset(ps, 0, sizeof ps);
  int counts[3], idx[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++)
    counts[i] = rs[i] == R_TENSOR ? w->n_tags : rs[i] == R_DEVICE ? w->n_devices : 1;
  for (int arrn = (rs[1] == R_ARRAY ? 1 : 0); arrn <= (rs[1] == R_ARRAY ? 3 : 0); arrn++) {
    int arr_total = 1;
    for (int k = 0; k < arrn; k++) arr_total *= w->n_tags;
    for (int a = 0; a < arr_total; a++) {
      for (idx[0] = 0; idx[0] < counts[0]; idx[0]++)
        for (idx[1] = 0; idx[1] < counts[1]; idx[1]++)
          for (idx[2] = 0; idx[2] < counts[2]; idx[2]++) {
            for (int i = 0; i < 3; i++) {
              ps[i].role = rs[i];
              ps[i].n_arr = 0;
              if (rs[i] == R_TENSOR) ps[i].t = w->tags[idx[i]];
              if (rs[i] == R_DEVICE) ps[i].t.dev = w->devices[idx[i]], ps[i].t.kind = 0;
            }
            if (rs[1] == R_ARRAY) {
              ps[1].n_arr = arrn;
              for (int k = 0, x = a; k < arrn; k++, x /= w->n_tags) ps[1].arr[k] = w->tags[x % w->n_tags];
            }
            run_case(r, w, fn, checks, ps, t);
          }
    }
  }
}

/* rules/dt.json's templates against the runtime's table, both ways. */
static int templates_equal(const rules *r) {
  int bad = 0, rows = 0;
#define DT_MESSAGE(name, status, key, template)                                            \
  do {                                                                                     \
    rows++;                                                                                \
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r->messages, key)); \
    if (!v || strcmp(v, template) != 0) {                                                  \
      fprintf(stderr, "FAIL messages.%s: rules/dt.json has \"%s\", dt/messages.def has \"%s\"\n", \
              key, v ? v : "(nothing)", template);                                         \
      bad++;                                                                               \
    }                                                                                      \
  } while (0);
#include <dt/messages.def>
#undef DT_MESSAGE
  static const char *const keys[] = {
#define DT_MESSAGE(name, status, key, template) key,
#include <dt/messages.def>
#undef DT_MESSAGE
  };
  const cJSON *m;
  cJSON_ArrayForEach(m, r->messages) {
    int found = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) found |= !strcmp(keys[i], m->string);
    if (!found) {
      fprintf(stderr, "FAIL messages.%s: in rules/dt.json, not in dt/messages.def\n", m->string);
      bad++;
    }
  }
  printf("templates: %d rows of dt/messages.def, %d differences\n", rows, bad);
  return bad;
}

static void build_world(const rules *r, world *w, int *cuda_tensors) {
  memset(w, 0, sizeof *w);
  *cuda_tensors = dt_backend_available(DT_BACKEND_CUDA);
  for (int b = 0; b < r->n_backends; b++) {
    int n_ord = r->backends[b].single || r->backends[b].value == DT_BACKEND_CUDA ? 1 : 2;
    int tensors = r->backends[b].value != DT_BACKEND_CUDA || *cuda_tensors;
    for (int o = 0; o < n_ord; o++)
      for (int ad = 0; ad < 2; ad++) {
        dt_device d = {(dt_backend)r->backends[b].value, o, ad};
        w->devices[w->n_devices++] = d;
        for (int k = 0; tensors && k < r->n_kinds; k++) {
          tag t = {d, (dt_kind)r->kinds[k].value};
          w->tags[w->n_tags] = t;
          w->pool[w->n_tags] = make(&t);
          if (w->pool[w->n_tags]) w->n_tags++;
        }
      }
  }
  tag cpu = {dt_cpu(), DT_FLOAT};
  w->reset = make(&cpu);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_conform rules/dt.json\n");
    return 2;
  }
  dt_set_error_mode(DT_ERRORS_RETURN);
  rules r;
  if (load_rules(&r, argv[1]) != 0) {
    fprintf(stderr, "test_conform: cannot read %s\n", argv[1]);
    return 2;
  }
  int bad = templates_equal(&r);
  world w;
  int cuda_tensors;
  build_world(&r, &w, &cuda_tensors);
  tally t = {0};
  int n_functions = 0;
  const cJSON *fn;
  cJSON_ArrayForEach(fn, r.functions) {
    if (tagless(fn->string)) continue;
    n_functions++;
    run_function(&r, &w, fn->string, cJSON_GetObjectItemCaseSensitive(fn, "checks"), &t);
  }
  printf("conformance: %d functions, %d tensor tags, %d devices (cuda tensors: %s)\n",
         n_functions, w.n_tags, w.n_devices, cuda_tensors ? "yes" : "no GPU, not run");
  printf("cases: %ld checked (%ld where the rules predict a failure), %ld passed, %ld failed, "
         "%ld skipped\n",
         t.checked, t.failing_calls, t.passed, t.failed, t.skipped);
  for (int i = 0; i < w.n_tags; i++) dt_free(w.pool[i]);
  dt_free(w.reset);
  cJSON_Delete(r.root);
  return bad || t.failed || t.checked == 0 ? 1 : 0;
}
