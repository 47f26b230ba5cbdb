/* analyzer/src/driver/worker.c — unit workers (driver/worker.h): the parent spawns
 * `tagcheck --unit-worker` with one end of a socket pair as its standard input (requests and
 * replies both travel on it; its standard output and error go to /dev/null, so nothing libclang
 * prints reaches the user or the protocol); the worker parses each request on a large stack
 * and answers. Failures of the worker process are the unit's failure, never the run's. */
#include "driver/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver/channel.h"
#include "driver/jobs.h"
#include "ir/ir.h"

extern char **environ;

#define REQUEST_MAGIC "TCUNITREQ1"
#define REPLY_MAGIC "TCUNITREP1"

struct tc_worker {
  char *exe;
  pid_t pid; /* 0: not running */
  int fd;    /* our end of the socket pair */
};

tc_worker *tc_worker_new(const char *exe) {
  tc_worker *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->exe = strdup(exe);
  w->fd = -1;
  if (!w->exe) {
    free(w);
    return NULL;
  }
  return w;
}

/* Ends the process: closing its input makes an idle worker exit; kill covers a busy one.
   Returns its wait status (0 when there was none). */
static int stop(tc_worker *w, int force) {
  if (!w->pid) return 0;
  close(w->fd);
  w->fd = -1;
  if (force) kill(w->pid, SIGKILL);
  int st = 0;
  while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR) {
  }
  w->pid = 0;
  return st;
}

void tc_worker_free(tc_worker *w) {
  if (!w) return;
  stop(w, 0);
  free(w->exe);
  free(w);
}

static int start(tc_worker *w, char *err, size_t err_len) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    snprintf(err, err_len, "cannot create a socket for a unit worker: %s", strerror(errno));
    return -1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  const char *keep = getenv("TAGCHECK_WORKER_STDERR"); /* debugging: see what libclang says */
  if (!keep || !keep[0]) posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  char *argv[] = {w->exe, (char *)"--unit-worker", NULL};
  pid_t pid;
  int rc = posix_spawn(&pid, w->exe, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(sv[1]);
  if (rc != 0) {
    close(sv[0]);
    snprintf(err, err_len, "cannot start a unit worker (%s): %s", w->exe, strerror(rc));
    return -1;
  }
  w->pid = pid;
  w->fd = sv[0];
  return 0;
}

/* ---- messages ---- */

static void put_cmd(tc_bbuf *b, const tc_compile_cmd *cmd) {
  tc_bb_str(b, cmd->file);
  tc_bb_str(b, cmd->directory);
  tc_bb_u64(b, cmd->argc);
  for (size_t i = 0; i < cmd->argc; i++) tc_bb_str(b, cmd->argv[i]);
}

static void put_list(tc_bbuf *b, char *const *v, size_t n) {
  tc_bb_u64(b, n);
  for (size_t i = 0; i < n; i++) tc_bb_str(b, v[i]);
}

static int get_list(tc_rd *r, char ***v, size_t *n) {
  uint64_t k = tc_rd_u64(r);
  if (r->bad || k > r->len) return -1; /* each string takes at least 8 bytes */
  *v = calloc(k ? (size_t)k : 1, sizeof **v);
  if (!*v) return -1;
  for (*n = 0; *n < k; (*n)++) {
    (*v)[*n] = tc_rd_strdup(r);
    if (!(*v)[*n]) return -1;
  }
  return 0;
}

static void free_list(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

/* Reply statuses besides 0: the parse ran out of memory; the IR could not be serialized. */
enum { REPLY_OOM = 1, REPLY_NOT_SERIALIZABLE = 2 };

static void put_reply(tc_bbuf *b, int status, const tc_parse_result *r) {
  tc_bb_str(b, REPLY_MAGIC);
  tc_bb_u64(b, (uint64_t)status);
  if (status != 0) return;
  tc_bb_u64(b, r->failure != NULL);
  tc_bb_str(b, r->failure);
  put_list(b, r->deps, r->n_deps);
  put_list(b, r->missing, r->n_missing);
  size_t ir_len = 0;
  unsigned char *ir = r->prog ? tc_ir_serialize(r->prog, &ir_len) : NULL;
  if (r->prog && !ir) b->bad = 1; /* the caller tells out of memory from a bad IR */
  tc_bb_u64(b, ir != NULL);
  tc_bb_u64(b, ir_len);
  tc_bb_put(b, ir, ir_len);
  free(ir);
}

/* Returns 0, a reply status (REPLY_OOM, REPLY_NOT_SERIALIZABLE) or -2 (not a valid reply). */
static int get_reply(tc_rd *r, tc_parse_result *out) {
  char *magic = tc_rd_strdup(r);
  int ok = magic && strcmp(magic, REPLY_MAGIC) == 0;
  free(magic);
  if (!ok) return -2;
  uint64_t status = tc_rd_u64(r);
  if (r->bad || status > REPLY_NOT_SERIALIZABLE) return -2;
  if (status) return (int)status;
  uint64_t has_failure = tc_rd_u64(r);
  char *failure = tc_rd_strdup(r);
  if (has_failure) out->failure = failure;
  else free(failure);
  if (get_list(r, &out->deps, &out->n_deps) != 0) return -2;
  if (get_list(r, &out->missing, &out->n_missing) != 0) return -2;
  uint64_t has_ir = tc_rd_u64(r), ir_len = tc_rd_u64(r);
  const char *ir = tc_rd_bytes(r, ir_len);
  if (r->bad || r->pos != r->len) return -2;
  if (has_ir) {
    out->prog = tc_ir_deserialize((const unsigned char *)ir, (size_t)ir_len);
    if (!out->prog) return -2;
  }
  return 0;
}

void tc_describe_exit(char *buf, size_t len, const char *what, int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    snprintf(buf, len, "%s crashed (signal %d, %s)%s", what, sig, strsignal(sig),
             sig == SIGSEGV || sig == SIGBUS
                 ? "; deeply nested code overflowing the stack is the usual cause"
                 : "");
  } else if (WIFEXITED(status)) {
    snprintf(buf, len, "%s exited with status %d", what, WEXITSTATUS(status));
  } else {
    snprintf(buf, len, "%s ended abnormally", what);
  }
}

static int fail_with(tc_parse_result *out, const char *why) {
  out->failure = strdup(why);
  return out->failure ? 1 : -1;
}

int tc_worker_parse(tc_worker *w, const tc_compile_cmd *cmd, const tc_unsaved_file *unsaved,
                    size_t n_unsaved, int want_deps, double timeout_s, tc_parse_result *out,
                    char *err, size_t err_len) {
  memset(out, 0, sizeof *out);
  tc_bbuf req = {0};
  tc_bb_str(&req, REQUEST_MAGIC);
  put_cmd(&req, cmd);
  tc_bb_u64(&req, n_unsaved);
  for (size_t i = 0; i < n_unsaved; i++) {
    tc_bb_str(&req, unsaved[i].path);
    tc_bb_u64(&req, unsaved[i].len);
    tc_bb_put(&req, unsaved[i].text, unsaved[i].len);
  }
  tc_bb_u64(&req, want_deps != 0);
  if (req.bad) {
    snprintf(err, err_len, "out of memory");
    tc_bb_free(&req);
    return -1;
  }
  int rc = -1;
  for (int attempt = 0; attempt < 2; attempt++) { /* a worker that died idle: start another */
    if (!w->pid && start(w, err, err_len) != 0) break;
    if (tc_chan_send(w->fd, req.p, req.len) != 0) {
      stop(w, 1);
      continue;
    }
    double deadline = timeout_s > 0 ? tc_now_s() + timeout_s : 0;
    tc_bbuf rep = {0};
    int got = tc_chan_recv(w->fd, deadline, &rep);
    if (got == 0) {
      tc_rd r = {rep.p, rep.len, 0, 0};
      int g = get_reply(&r, out);
      tc_bb_free(&rep);
      if (g == 0) {
        rc = 0;
        break;
      }
      tc_parse_result_free(out);
      stop(w, 1);
      rc = fail_with(out, g == REPLY_OOM ? "the parser ran out of memory"
                          : g == REPLY_NOT_SERIALIZABLE
                              ? "internal error: the unit's IR could not be serialized "
                                "(a tagcheck bug: please report it with this file)"
                              : "the parser sent a broken reply");
      break;
    }
    tc_bb_free(&rep);
    char why[512];
    if (got == 2) {
      stop(w, 1);
      snprintf(why, sizeof why,
               "parsing ran past --unit-timeout %g s and was stopped (not analyzed)", timeout_s);
    } else {
      int st = stop(w, got < 0);
      tc_describe_exit(why, sizeof why, "the parser", st);
    }
    rc = fail_with(out, why);
    break;
  }
  tc_bb_free(&req);
  return rc;
}

/* ---- the worker's side ---- */

/* Decodes one request and answers it. Returns 0, or -1 when the request is not valid (the
   worker then exits: its parent is broken or gone). */
static int serve_one(int fd, tc_parser *parser, const tc_bbuf *req) {
  tc_rd r = {req->p, req->len, 0, 0};
  tc_compile_cmd cmd = {0};
  tc_unsaved_file *uf = NULL;
  char **paths = NULL;
  uint64_t n_unsaved = 0;
  int rc = -1;
  char *magic = tc_rd_strdup(&r);
  int ok = magic && strcmp(magic, REQUEST_MAGIC) == 0;
  free(magic);
  if (!ok) goto done;
  cmd.file = tc_rd_strdup(&r);
  cmd.directory = tc_rd_strdup(&r);
  if (get_list(&r, &cmd.argv, &cmd.argc) != 0) goto done;
  char **argv = realloc(cmd.argv, (cmd.argc + 1) * sizeof *argv); /* NULL-terminated */
  if (!argv) goto done;
  cmd.argv = argv;
  cmd.argv[cmd.argc] = NULL;
  n_unsaved = tc_rd_u64(&r);
  if (r.bad || n_unsaved > r.len) goto done;
  uf = calloc(n_unsaved ? (size_t)n_unsaved : 1, sizeof *uf);
  paths = calloc(n_unsaved ? (size_t)n_unsaved : 1, sizeof *paths);
  if (!uf || !paths) goto done;
  for (uint64_t i = 0; i < n_unsaved; i++) {
    paths[i] = tc_rd_strdup(&r);
    uint64_t len = tc_rd_u64(&r);
    const char *text = tc_rd_bytes(&r, len);
    if (!paths[i] || !text) goto done;
    uf[i] = (tc_unsaved_file){paths[i], text, (size_t)len};
  }
  int want_deps = (int)tc_rd_u64(&r);
  if (r.bad || !cmd.file || !cmd.directory || r.pos != r.len) goto done;
  tc_parse_result out;
  memset(&out, 0, sizeof out);
  int prc = tc_parse_unit(parser, &cmd, uf, (size_t)n_unsaved, want_deps, &out);
  tc_bbuf rep = {0};
  put_reply(&rep, prc ? REPLY_OOM : 0, &out);
  if (rep.bad) { /* say what went wrong in a small reply */
    size_t ir_len;
    unsigned char *ir = out.prog ? tc_ir_serialize(out.prog, &ir_len) : NULL;
    int status = out.prog && !ir ? REPLY_NOT_SERIALIZABLE : REPLY_OOM;
    free(ir);
    tc_bb_free(&rep);
    put_reply(&rep, status, NULL);
  }
  tc_parse_result_free(&out);
  rc = rep.bad || tc_chan_send(fd, rep.p, rep.len) != 0 ? -1 : 0;
  tc_bb_free(&rep);
done:
  for (uint64_t i = 0; paths && i < n_unsaved; i++) free(paths[i]);
  free(paths);
  free(uf);
  free(cmd.file);
  free(cmd.directory);
  free_list(cmd.argv, cmd.argc);
  return rc;
}

/* The serving loop, on one large-stack thread for the worker's whole life (the parser measures
   its stack once per thread). */
static void serve(void *arg) {
  int *status = arg;
  tc_parser *parser = tc_parser_new();
  if (!parser) {
    *status = 1;
    return;
  }
  for (;;) {
    tc_bbuf req = {0};
    int got = tc_chan_recv(0, 0, &req);
    if (got != 0) {
      *status = got == 1 ? 0 : 1; /* end of input: the parent is done with us */
      tc_bb_free(&req);
      break;
    }
    int rc = serve_one(0, parser, &req);
    tc_bb_free(&req);
    if (rc != 0) {
      *status = 1;
      break;
    }
  }
  tc_parser_free(parser);
}

int tc_worker_main(void) {
  int status = 0;
  tc_run_on_big_stack(serve, &status);
  return status;
}
