/* analyzer/src/report/sarif.c — the SARIF 2.1.0 writer (SPEC §5): one run with the complete
 * rule metadata, one result per finding (a %SRCROOT%-relative physical location, region with
 * snippet, relatedLocations and a codeFlow built from the notes and linked from the message
 * text, partialFingerprints, inSource suppressions), and one invocation that records failed
 * translation units and any truncation to GitHub's limits. Built with cJSON. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "report/fingerprint.h"
#include "report/fixit.h"
#include "report/json_util.h"
#include "report/report_internal.h"
#include "report/sarif_limits.h"
#include "report/source.h"
#include "base/strbuf.h"
#include "base/uri.h"
#include "report/writers.h"
#include "base/path.h"

typedef struct sarif_ctx {
  const tc_report *r;
  const tc_options *o;
  char *root_dir;
  tc_source_cache sources;
  tc_fingerprint *fingerprints;
  /* The rules array: r->rules, then a generic entry for any rule id a finding uses that no
     rules file described (so that every ruleIndex is valid). */
  const tc_rule_meta **rules;
  size_t n_rules;
  tc_rule_meta *synthesized;
  size_t n_synthesized;
  cJSON *notifications; /* invocations[0].toolExecutionNotifications */
} sarif_ctx;

/* ---- text helpers ---- */

/* Square brackets would read as embedded links (SARIF §3.11.6): escape them. */
static void put_escaped(tc_strbuf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '[' || *s == ']') tc_strbuf_putc(b, '\\');
    tc_strbuf_putc(b, *s);
  }
}


/* Cuts an over-long message at a character boundary and ends it with "…". */
static void cap_message(tc_strbuf *b) {
  if (b->failed || b->len <= TC_SARIF_MAX_MESSAGE_BYTES) return;
  size_t n = TC_SARIF_MAX_MESSAGE_BYTES - 3;
  while (n > 0 && ((unsigned char)b->data[n] & 0xC0) == 0x80) n--;
  b->len = n;
  b->data[n] = '\0';
  tc_strbuf_puts(b, "\xE2\x80\xA6");
}

/* Byte column (1-based) -> Unicode code point column, using the line's text when known. */
static unsigned code_point_column(const char *text, size_t len, unsigned byte_col) {
  if (!text || byte_col <= 1) return byte_col;
  size_t limit = byte_col - 1;
  unsigned cp = 1;
  size_t i = 0;
  for (; i < limit && i < len; i++)
    if (((unsigned char)text[i] & 0xC0) != 0x80) cp++;
  return cp + (unsigned)(limit - i); /* past the end of the line: count bytes */
}

/* ---- locations ---- */

static cJSON *artifact_location(sarif_ctx *c, const char *file) {
  cJSON *al = cJSON_CreateObject();
  if (!al) return NULL;
  char *rel = c->root_dir ? tc_path_below_root(c->root_dir, file) : NULL;
  if (rel) {
    char *uri = tc_uri_encode_path(rel);
    tc_json_add_text(al, "uri", uri ? uri : "");
    cJSON_AddStringToObject(al, "uriBaseId", TC_SARIF_SRCROOT);
    free(uri);
  } else {
    char *abs = tc_normalize_path(file && *file ? file : "/");
    char *uri = abs ? tc_file_uri(abs) : NULL;
    tc_json_add_text(al, "uri", uri ? uri : "file:///");
    free(uri);
    free(abs);
  }
  free(rel);
  return al;
}

static cJSON *region(sarif_ctx *c, const tc_loc *loc, int with_snippet) {
  cJSON *reg = cJSON_CreateObject();
  if (!reg) return NULL;
  const char *text = NULL;
  size_t len = 0;
  if (tc_source_line(&c->sources, loc->file, loc->line, &text, &len) != 0) text = NULL;
  cJSON_AddNumberToObject(reg, "startLine", loc->line);
  if (loc->col) cJSON_AddNumberToObject(reg, "startColumn", code_point_column(text, len, loc->col));
  if (loc->end_line >= loc->line && loc->end_line && loc->end_col &&
      (loc->end_line > loc->line || loc->end_col > loc->col)) {
    const char *end_text = NULL;
    size_t end_len = 0;
    if (loc->end_line == loc->line) end_text = text, end_len = len;
    else if (tc_source_line(&c->sources, loc->file, loc->end_line, &end_text, &end_len) != 0)
      end_text = NULL;
    cJSON_AddNumberToObject(reg, "endLine", loc->end_line);
    cJSON_AddNumberToObject(reg, "endColumn", code_point_column(end_text, end_len, loc->end_col));
  }
  if (with_snippet && text) {
    char *line = strndup(text, len);
    cJSON *snippet = line ? cJSON_AddObjectToObject(reg, "snippet") : NULL;
    if (snippet) tc_json_add_text(snippet, "text", line);
    free(line);
  }
  return reg;
}

/* The lines around the finding, for viewers that show context (SARIF contextRegion). */
static cJSON *context_region(sarif_ctx *c, const tc_loc *loc) {
  unsigned first = loc->line > 1 ? loc->line - 1 : 1, last = loc->line + 1;
  const char *text;
  size_t len;
  tc_strbuf b;
  tc_strbuf_init(&b);
  unsigned shown_last = 0;
  for (unsigned l = first; l <= last; l++) {
    if (tc_source_line(&c->sources, loc->file, l, &text, &len) != 0) break;
    if (l > first) tc_strbuf_putc(&b, '\n');
    tc_strbuf_add(&b, text, len);
    shown_last = l;
  }
  if (shown_last < loc->line) {
    tc_strbuf_free(&b);
    return NULL;
  }
  cJSON *reg = cJSON_CreateObject();
  if (reg) {
    cJSON_AddNumberToObject(reg, "startLine", first);
    cJSON_AddNumberToObject(reg, "endLine", shown_last);
    cJSON *snippet = cJSON_AddObjectToObject(reg, "snippet");
    if (snippet) tc_json_add_text(snippet, "text", tc_strbuf_str(&b));
  }
  tc_strbuf_free(&b);
  return reg;
}

static cJSON *physical_location(sarif_ctx *c, const tc_loc *loc, int full) {
  cJSON *pl = cJSON_CreateObject();
  if (!pl) return NULL;
  cJSON_AddItemToObject(pl, "artifactLocation", artifact_location(c, loc->file));
  if (loc->line) {
    cJSON_AddItemToObject(pl, "region", region(c, loc, full));
    if (full) {
      cJSON *ctx = context_region(c, loc);
      if (ctx) cJSON_AddItemToObject(pl, "contextRegion", ctx);
    }
  }
  return pl;
}

/* A location object: physicalLocation, optional message, optional id. */
static cJSON *location(sarif_ctx *c, const tc_loc *loc, const char *message, int id) {
  cJSON *l = cJSON_CreateObject();
  if (!l) return NULL;
  if (id > 0) cJSON_AddNumberToObject(l, "id", id);
  cJSON_AddItemToObject(l, "physicalLocation", physical_location(c, loc, 0));
  if (message) tc_json_add_message(l, "message", message);
  return l;
}

static void notify(sarif_ctx *c, const char *level, const char *text, const char *file) {
  cJSON *n = cJSON_CreateObject();
  if (!n) return;
  cJSON_AddStringToObject(n, "level", level);
  tc_json_add_message(n, "message", text);
  if (file && *file) {
    cJSON *locs = cJSON_AddArrayToObject(n, "locations");
    cJSON *l = cJSON_CreateObject();
    if (locs && l) {
      cJSON *pl = cJSON_AddObjectToObject(l, "physicalLocation");
      if (pl) cJSON_AddItemToObject(pl, "artifactLocation", artifact_location(c, file));
      cJSON_AddItemToArray(locs, l);
    } else {
      cJSON_Delete(l);
    }
  }
  cJSON_AddItemToArray(c->notifications, n);
}

/* ---- rules ---- */

/* "some-rule-id" -> "SomeRuleId" (SARIF's conventional rule names). */
static char *pascal_name(const char *id) {
  tc_strbuf b;
  tc_strbuf_init(&b);
  int upper = 1;
  for (const char *p = id; *p; p++) {
    char ch = *p;
    if (ch == '-' || ch == '_' || ch == '.' || ch == ' ' || ch == '/') {
      upper = 1;
      continue;
    }
    if (upper && ch >= 'a' && ch <= 'z') ch = (char)(ch - 'a' + 'A');
    upper = 0;
    tc_strbuf_putc(&b, ch);
  }
  return tc_strbuf_take(&b);
}

static int collect_rules(sarif_ctx *c) {
  const tc_report *r = c->r;
  size_t cap = r->n_rules + r->n_diags;
  c->rules = calloc(cap ? cap : 1, sizeof *c->rules);
  c->synthesized = calloc(r->n_diags ? r->n_diags : 1, sizeof *c->synthesized);
  if (!c->rules || !c->synthesized) return -1;
  for (size_t i = 0; i < r->n_rules; i++) c->rules[c->n_rules++] = &r->rules[i];
  for (size_t i = 0; i < r->n_diags; i++) {
    const char *id = r->diags[i].rule_id;
    int known = 0;
    for (size_t k = 0; k < c->n_rules && !known; k++) known = strcmp(c->rules[k]->id, id) == 0;
    if (known) continue;
    tc_rule_meta *m = &c->synthesized[c->n_synthesized++];
    m->id = (char *)id;
    m->name = pascal_name(id);
    m->short_description = (char *)"A call whose run-time tag check would fail.";
    m->full_description =
        (char *)"A call whose run-time tag check would fail, reported by a rules file.";
    m->help = (char *)"See the rules file that defines this rule.";
    m->default_level = r->diags[i].level;
    m->example = m->example_fix = NULL;
    c->rules[c->n_rules++] = m;
  }
  return 0;
}

static size_t rule_index(const sarif_ctx *c, const char *id) {
  for (size_t k = 0; k < c->n_rules; k++)
    if (strcmp(c->rules[k]->id, id) == 0) return k;
  return 0; /* unreachable: collect_rules added every id */
}

static cJSON *rule_object(const tc_rule_meta *m) {
  cJSON *rule = cJSON_CreateObject();
  if (!rule) return NULL;
  tc_json_add_text(rule, "id", m->id);
  /* SARIF wants a readable name that differs from the id ("shape" / "Shape" do not). */
  tc_strbuf name;
  tc_strbuf_init(&name);
  if (m->name && *m->name) tc_strbuf_puts(&name, m->name);
  else {
    char *p = pascal_name(m->id);
    tc_strbuf_puts(&name, p);
    free(p);
  }
  if (strcasecmp(tc_strbuf_str(&name), m->id) == 0) tc_strbuf_puts(&name, "Rule");
  tc_json_add_text(rule, "name", tc_strbuf_str(&name));
  tc_strbuf_free(&name);
  const char *short_desc = *m->short_description ? m->short_description : m->id;
  const char *full_desc = *m->full_description ? m->full_description : short_desc;
  const char *help = *m->help ? m->help : full_desc;
  tc_json_add_message(rule, "shortDescription", short_desc);
  tc_json_add_message(rule, "fullDescription", full_desc);
  cJSON *h = cJSON_AddObjectToObject(rule, "help");
  if (h) {
    tc_json_add_text(h, "text", help);
    tc_strbuf md;
    tc_strbuf_init(&md);
    tc_strbuf_printf(&md, "**%s** (`%s`)\n\n%s\n\nSee [the rule's documentation](%s#%s).",
                     short_desc, m->id, help, TC_RULES_HELP_URI, m->id);
    tc_json_add_text(h, "markdown", tc_strbuf_str(&md));
    tc_strbuf_free(&md);
  }
  tc_strbuf uri;
  tc_strbuf_init(&uri);
  char *anchor = tc_uri_encode_path(m->id);
  tc_strbuf_printf(&uri, "%s#%s", TC_RULES_HELP_URI, anchor ? anchor : "");
  free(anchor);
  tc_json_add_text(rule, "helpUri", tc_strbuf_str(&uri));
  tc_strbuf_free(&uri);
  cJSON *cfg = cJSON_AddObjectToObject(rule, "defaultConfiguration");
  if (cfg) cJSON_AddStringToObject(cfg, "level", tc_level_name(m->default_level));
  cJSON *props = cJSON_AddObjectToObject(rule, "properties");
  if (props) {
    cJSON *tags = cJSON_AddArrayToObject(props, "tags");
    if (tags) {
      cJSON_AddItemToArray(tags, cJSON_CreateString("correctness"));
      cJSON_AddItemToArray(tags, cJSON_CreateString("tensor-tags"));
    }
    cJSON_AddStringToObject(props, "precision", "high");
    cJSON_AddStringToObject(props, "problem.severity",
                            m->default_level == TC_LEVEL_NOTE ? "recommendation"
                                                              : tc_level_name(m->default_level));
  }
  return rule;
}

/* ---- results ---- */

static int same_place(const tc_loc *a, const tc_loc *b) {
  return a->line == b->line && a->col == b->col && strcmp(a->file, b->file) == 0;
}

/* The finding's message, then links to its notes: "Trace: [a.c:3](1), [a.c:9](2)." */
static char *result_message(const tc_diag *d, size_t n_related) {
  tc_strbuf b;
  tc_strbuf_init(&b);
  put_escaped(&b, d->message);
  size_t links = n_related < TC_SARIF_MAX_MESSAGE_LINKS ? n_related : TC_SARIF_MAX_MESSAGE_LINKS;
  for (size_t i = 0; i < links; i++) {
    const tc_note *n = &d->notes[i];
    tc_strbuf_puts(&b, i == 0 ? (b.len && b.data[b.len - 1] == '.' ? " Trace: " : ". Trace: ")
                              : ", ");
    tc_strbuf_putc(&b, '[');
    put_escaped(&b, tc_path_base_name(n->loc.file));
    tc_strbuf_printf(&b, ":%u](%zu)", n->loc.line, i + 1);
  }
  if (links) tc_strbuf_putc(&b, '.');
  cap_message(&b);
  return tc_strbuf_take(&b);
}

static cJSON *code_flows(sarif_ctx *c, const tc_diag *d, int *truncated) {
  cJSON *flows = cJSON_CreateArray();
  cJSON *flow = cJSON_CreateObject();
  cJSON *threads = flow ? cJSON_AddArrayToObject(flow, "threadFlows") : NULL;
  cJSON *thread = cJSON_CreateObject();
  cJSON *locs = thread ? cJSON_AddArrayToObject(thread, "locations") : NULL;
  if (!flows || !flow || !threads || !thread || !locs) {
    cJSON_Delete(flows);
    cJSON_Delete(flow);
    cJSON_Delete(thread);
    return NULL;
  }
  cJSON_AddItemToArray(threads, thread);
  cJSON_AddItemToArray(flows, flow);
  int ends_at_call = d->n_notes > 0 && same_place(&d->notes[d->n_notes - 1].loc, &d->loc);
  size_t steps = d->n_notes + (ends_at_call ? 0 : 1);
  size_t keep_notes = d->n_notes;
  if (steps > TC_SARIF_MAX_THREADFLOW_LOCATIONS) {
    /* Keep the origin side of the trace and the call itself. */
    keep_notes = TC_SARIF_MAX_THREADFLOW_LOCATIONS - 1;
    ends_at_call = 0;
    *truncated = 1;
  }
  int order = 0;
  for (size_t i = 0; i < keep_notes; i++) {
    cJSON *tfl = cJSON_CreateObject();
    if (!tfl) break;
    cJSON_AddItemToObject(tfl, "location", location(c, &d->notes[i].loc, d->notes[i].message, 0));
    cJSON_AddNumberToObject(tfl, "executionOrder", ++order);
    cJSON_AddItemToArray(locs, tfl);
  }
  if (!ends_at_call) {
    cJSON *tfl = cJSON_CreateObject();
    if (tfl) {
      tc_strbuf m;
      tc_strbuf_init(&m);
      tc_strbuf_printf(&m, "%s%sthe tag check fails here [%s]", d->operation,
                       *d->operation ? ": " : "", d->rule_id);
      cJSON_AddItemToObject(tfl, "location", location(c, &d->loc, tc_strbuf_str(&m), 0));
      tc_strbuf_free(&m);
      cJSON_AddNumberToObject(tfl, "executionOrder", ++order);
      cJSON_AddItemToArray(locs, tfl);
    }
  }
  return flows;
}

/* result.fixes: one fix whose artifactChanges (one per file, in the order first edited) hold
   the edits as deletedRegion + insertedContent. NULL when the fix cannot be rendered. */
static cJSON *fixes_array(sarif_ctx *c, const tc_diag *d) {
  tc_fix_repl *reps;
  size_t n;
  if (tc_fix_render(&c->sources, d, &reps, &n) != 0) return NULL;
  cJSON *fixes = cJSON_CreateArray(), *fix = cJSON_CreateObject();
  cJSON *changes = fix ? cJSON_AddArrayToObject(fix, "artifactChanges") : NULL;
  if (!fixes || !changes) {
    cJSON_Delete(fixes);
    cJSON_Delete(fix);
    tc_fix_repls_free(reps, n);
    return NULL;
  }
  tc_strbuf desc;
  tc_strbuf_init(&desc);
  tc_strbuf_printf(&desc, "Replace with %s", reps[0].text);
  if (n > 1) tc_strbuf_printf(&desc, " (and %zu more edit%s)", n - 1, n > 2 ? "s" : "");
  tc_json_add_message(fix, "description", tc_strbuf_str(&desc));
  tc_strbuf_free(&desc);
  for (size_t k = 0; k < n; k++) {
    int seen = 0;
    for (size_t j = 0; j < k; j++) seen |= strcmp(reps[j].file, reps[k].file) == 0;
    if (seen) continue;
    cJSON *change = cJSON_CreateObject();
    if (!change) break;
    cJSON_AddItemToObject(change, "artifactLocation", artifact_location(c, reps[k].file));
    cJSON *repls = cJSON_AddArrayToObject(change, "replacements");
    for (size_t j = k; repls && j < n; j++) {
      if (strcmp(reps[j].file, reps[k].file) != 0) continue;
      cJSON *rp = cJSON_CreateObject();
      if (!rp) break;
      cJSON *del = region(c, reps[j].range, 0);
      if (del && !cJSON_GetObjectItemCaseSensitive(del, "endColumn")) { /* an insertion */
        cJSON_AddNumberToObject(del, "endLine", reps[j].range->line);
        cJSON *sc = cJSON_GetObjectItemCaseSensitive(del, "startColumn");
        cJSON_AddNumberToObject(del, "endColumn", sc ? sc->valuedouble : 1);
      }
      cJSON_AddItemToObject(rp, "deletedRegion", del);
      cJSON *ins = cJSON_AddObjectToObject(rp, "insertedContent");
      if (ins) tc_json_add_text(ins, "text", reps[j].text);
      cJSON_AddItemToArray(repls, rp);
    }
    cJSON_AddItemToArray(changes, change);
  }
  cJSON_AddItemToArray(fixes, fix);
  tc_fix_repls_free(reps, n);
  return fixes;
}

static cJSON *result_object(sarif_ctx *c, size_t i, int *truncated_related, int *truncated_flow) {
  const tc_diag *d = &c->r->diags[i];
  cJSON *res = cJSON_CreateObject();
  if (!res) return NULL;
  tc_json_add_text(res, "ruleId", d->rule_id);
  cJSON_AddNumberToObject(res, "ruleIndex", (double)rule_index(c, d->rule_id));
  cJSON_AddStringToObject(res, "level", tc_level_name(d->level));
  if (c->r->baseline_applied) cJSON_AddStringToObject(res, "baselineState", "new");
  size_t n_related = d->n_notes;
  if (n_related > TC_SARIF_MAX_RELATED_LOCATIONS) {
    n_related = TC_SARIF_MAX_RELATED_LOCATIONS;
    *truncated_related = 1;
  }
  char *msg = result_message(d, n_related);
  tc_json_add_message(res, "message", msg ? msg : d->message);
  free(msg);

  cJSON *locs = cJSON_AddArrayToObject(res, "locations");
  cJSON *primary = cJSON_CreateObject();
  if (locs && primary) {
    cJSON_AddItemToObject(primary, "physicalLocation", physical_location(c, &d->loc, 1));
    if (*d->function) {
      cJSON *logical = cJSON_AddArrayToObject(primary, "logicalLocations");
      cJSON *fn = cJSON_CreateObject();
      if (logical && fn) {
        tc_json_add_text(fn, "name", d->function);
        cJSON_AddStringToObject(fn, "kind", "function");
        cJSON_AddItemToArray(logical, fn);
      } else {
        cJSON_Delete(fn);
      }
    }
    cJSON_AddItemToArray(locs, primary);
  } else {
    cJSON_Delete(primary);
  }

  cJSON *fps = cJSON_AddObjectToObject(res, "partialFingerprints");
  if (fps) cJSON_AddStringToObject(fps, TC_FINGERPRINT_KEY, c->fingerprints[i]);

  cJSON *flows = code_flows(c, d, truncated_flow);
  if (flows) cJSON_AddItemToObject(res, "codeFlows", flows);

  if (n_related) {
    cJSON *related = cJSON_AddArrayToObject(res, "relatedLocations");
    for (size_t k = 0; related && k < n_related; k++)
      cJSON_AddItemToArray(related,
                           location(c, &d->notes[k].loc, d->notes[k].message, (int)(k + 1)));
  }

  cJSON *fixes = fixes_array(c, d);
  if (fixes) cJSON_AddItemToObject(res, "fixes", fixes);

  if (d->suppressed) {
    cJSON *sups = cJSON_AddArrayToObject(res, "suppressions");
    cJSON *s = cJSON_CreateObject();
    if (sups && s) {
      cJSON_AddStringToObject(s, "kind", "inSource");
      if (d->suppression_text && *d->suppression_text)
        tc_json_add_text(s, "justification", d->suppression_text);
      cJSON_AddItemToArray(sups, s);
    } else {
      cJSON_Delete(s);
    }
  }
  return res;
}

/* ---- the log ---- */

static cJSON *driver_object(sarif_ctx *c) {
  cJSON *driver = cJSON_CreateObject();
  if (!driver) return NULL;
  cJSON_AddStringToObject(driver, "name", "tagcheck");
  cJSON_AddStringToObject(driver, "version", TC_VERSION);
  cJSON_AddStringToObject(driver, "semanticVersion", TC_VERSION);
  cJSON_AddStringToObject(driver, "informationUri", TC_INFORMATION_URI);
  cJSON *rules = cJSON_AddArrayToObject(driver, "rules");
  size_t n = c->n_rules < TC_SARIF_MAX_RULES ? c->n_rules : TC_SARIF_MAX_RULES;
  for (size_t i = 0; rules && i < n; i++) cJSON_AddItemToArray(rules, rule_object(c->rules[i]));
  return driver;
}

static cJSON *build_log(sarif_ctx *c) {
  cJSON *log = cJSON_CreateObject();
  if (!log) return NULL;
  cJSON_AddStringToObject(log, "$schema", TC_SARIF_SCHEMA);
  cJSON_AddStringToObject(log, "version", TC_SARIF_VERSION);
  cJSON *runs = cJSON_AddArrayToObject(log, "runs");
  cJSON *run = cJSON_CreateObject();
  if (!runs || !run) {
    cJSON_Delete(run);
    cJSON_Delete(log);
    return NULL;
  }
  cJSON_AddItemToArray(runs, run);
  cJSON_AddItemToObject(run, "tool", cJSON_CreateObject());
  cJSON_AddItemToObject(cJSON_GetObjectItem(run, "tool"), "driver", driver_object(c));

  if (c->root_dir) {
    cJSON *bases = cJSON_AddObjectToObject(run, "originalUriBaseIds");
    cJSON *src = bases ? cJSON_AddObjectToObject(bases, TC_SARIF_SRCROOT) : NULL;
    char *uri = tc_file_uri(c->root_dir);
    if (src && uri) tc_json_add_text(src, "uri", uri);
    free(uri);
  }

  cJSON *invocations = cJSON_AddArrayToObject(run, "invocations");
  cJSON *inv = cJSON_CreateObject();
  if (invocations && inv) cJSON_AddItemToArray(invocations, inv);
  else cJSON_Delete(inv), inv = NULL;
  c->notifications = cJSON_CreateArray();

  const tc_report *r = c->r;
  for (size_t i = 0; i < r->n_failures; i++) {
    tc_strbuf m;
    tc_strbuf_init(&m);
    tc_strbuf_printf(&m, "Could not analyze translation unit %s: %s", r->failures[i].file,
                     r->failures[i].reason);
    notify(c, "error", tc_strbuf_str(&m), r->failures[i].file);
    tc_strbuf_free(&m);
  }

  cJSON *results = cJSON_AddArrayToObject(run, "results");
  size_t n = r->n_diags < TC_SARIF_MAX_RESULTS ? r->n_diags : TC_SARIF_MAX_RESULTS;
  int truncated_related = 0, truncated_flow = 0;
  for (size_t i = 0; results && i < n; i++)
    cJSON_AddItemToArray(results, result_object(c, i, &truncated_related, &truncated_flow));

  tc_strbuf m;
  tc_strbuf_init(&m);
  if (r->n_diags > n)
    tc_strbuf_printf(&m, "tagcheck found %zu results; this log keeps the first %zu (GitHub's "
                     "limit per run). Split the analysis with --shard or filter rules.",
                     r->n_diags, n);
  if (m.len) notify(c, "warning", tc_strbuf_str(&m), NULL);
  tc_strbuf_free(&m);
  if (c->n_rules > TC_SARIF_MAX_RULES)
    notify(c, "warning", "More rules than GitHub accepts per run; the rules list is truncated.",
           NULL);
  if (truncated_related)
    notify(c, "warning", "Some results have more related locations than GitHub accepts; "
                         "only the first 1000 are kept.", NULL);
  if (truncated_flow)
    notify(c, "warning", "Some code flows have more steps than GitHub accepts; only the first "
                         "steps and the failing call are kept.", NULL);

  if (inv) {
    cJSON_AddBoolToObject(inv, "executionSuccessful", r->n_failures == 0);
    char *cwd = getcwd(NULL, 0);
    if (cwd) {
      char *dir = tc_normalize_path(cwd);
      tc_strbuf wd;
      tc_strbuf_init(&wd);
      tc_strbuf_puts(&wd, dir ? dir : cwd);
      if (wd.len && wd.data[wd.len - 1] != '/') tc_strbuf_putc(&wd, '/');
      char *uri = tc_file_uri(tc_strbuf_str(&wd));
      cJSON *wdo = uri ? cJSON_AddObjectToObject(inv, "workingDirectory") : NULL;
      if (wdo) tc_json_add_text(wdo, "uri", uri);
      free(uri);
      tc_strbuf_free(&wd);
      free(dir);
      free(cwd);
    }
    if (cJSON_GetArraySize(c->notifications) > 0) {
      cJSON_AddItemToObject(inv, "toolExecutionNotifications", c->notifications);
      c->notifications = NULL;
    }
  }
  cJSON_Delete(c->notifications);
  c->notifications = NULL;
  cJSON_AddStringToObject(run, "columnKind", "unicodeCodePoints");
  return log;
}

int tc_write_sarif(const tc_report *r, const tc_options *o, FILE *out) {
  sarif_ctx c;
  memset(&c, 0, sizeof c);
  c.r = r;
  c.o = o;
  tc_source_cache_init(&c.sources);
  int rc = -1;
  cJSON *log = NULL;
  c.root_dir = tc_path_root_dir(o ? o->root : NULL);
  c.fingerprints = calloc(r->n_diags ? r->n_diags : 1, sizeof *c.fingerprints);
  if (!c.fingerprints || collect_rules(&c) != 0) goto done;
  if (tc_fingerprints(r, c.root_dir ? c.root_dir : "/", &c.sources, c.fingerprints) != 0)
    goto done;
  log = build_log(&c);
  if (log) rc = tc_json_write(log, out);
done:
  cJSON_Delete(log);
  for (size_t i = 0; i < c.n_synthesized; i++) free(c.synthesized[i].name);
  free(c.synthesized);
  free(c.rules);
  free(c.fingerprints);
  free(c.root_dir);
  tc_source_cache_free(&c.sources);
  return rc;
}
