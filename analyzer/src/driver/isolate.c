/* analyzer/src/driver/isolate.c — the analysis of one component in a forked child
 * (driver/isolate.h). The parent has no other threads at this point (the lowering threads
 * have been joined), so the child may use malloc, stdio and threads of its own. */
#include "driver/isolate.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver/channel.h"
#include "driver/worker.h"
#include "report/report_codec.h"

#define RESULT_MAGIC "TCANALYSIS1"

static void child(int fd, const tc_program *prog, const tc_rules *rules, tc_engine_opts *eo) {
  tc_report part;
  tc_report_init(&part);
  tc_engine_stats es;
  memset(&es, 0, sizeof es);
  tc_engine_stats *caller_stats = eo->stats;
  eo->stats = caller_stats ? &es : NULL;
  int rc = tc_engine_analyze(prog, rules, eo, &part);
  tc_bbuf b = {0};
  tc_bb_str(&b, RESULT_MAGIC);
  tc_bb_u64(&b, rc != 0);
  tc_bb_u64(&b, es.groups);
  tc_bb_u64(&b, es.roots);
  tc_bb_u64(&b, es.insns);
  tc_bb_u64(&b, es.keys_walked);
  tc_bb_u64(&b, es.keys_reused);
  tc_bb_u64(&b, es.work_peak);
  if (rc == 0) tc_report_encode(&b, &part, 0);
  int sent = !b.bad && tc_chan_send(fd, b.p, b.len) == 0;
  _exit(sent ? 0 : 1); /* no cleanup: the parent owns everything the child inherited */
}

static int decode(const tc_bbuf *b, tc_engine_opts *eo, tc_report *part) {
  tc_rd r = {b->p, b->len, 0, 0};
  char *magic = tc_rd_strdup(&r);
  int ok = magic && strcmp(magic, RESULT_MAGIC) == 0;
  free(magic);
  if (!ok) return -2;
  uint64_t failed = tc_rd_u64(&r);
  tc_engine_stats es = {0};
  es.groups = (unsigned)tc_rd_u64(&r);
  es.roots = (size_t)tc_rd_u64(&r);
  es.insns = tc_rd_u64(&r);
  es.keys_walked = tc_rd_u64(&r);
  es.keys_reused = tc_rd_u64(&r);
  es.work_peak = tc_rd_u64(&r);
  if (r.bad) return -2;
  if (failed) return -1;
  if (tc_report_decode(&r, part, 0) != 0 || r.pos != r.len) return -2;
  if (eo->stats) *eo->stats = es;
  return 0;
}

int tc_isolated_analyze(const tc_program *prog, const tc_rules *rules, tc_engine_opts *eo,
                        double timeout_s, tc_report *part, char **why) {
  *why = NULL;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return tc_engine_analyze(prog, rules, eo, part) == 0 ? 0 : -1;
  fflush(NULL); /* nothing buffered is written twice */
  pid_t pid = fork();
  if (pid < 0) {
    close(sv[0]);
    close(sv[1]);
    return tc_engine_analyze(prog, rules, eo, part) == 0 ? 0 : -1;
  }
  if (pid == 0) {
    close(sv[0]);
    child(sv[1], prog, rules, eo);
  }
  close(sv[1]);
  double deadline = timeout_s > 0 ? tc_now_s() + timeout_s : 0;
  tc_bbuf b = {0};
  int got = tc_chan_recv(sv[0], deadline, &b);
  close(sv[0]);
  if (got != 0) kill(pid, SIGKILL);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  int rc = 0;
  char buf[512];
  if (got == 0) {
    int d = decode(&b, eo, part);
    if (d == -1) rc = -1; /* the engine ran out of memory */
    else if (d == -2) {
      snprintf(buf, sizeof buf, "the analysis sent a broken result");
      rc = 1;
    }
  } else if (got == 2) {
    snprintf(buf, sizeof buf,
             "the analysis of its program ran past --unit-timeout %g s and was stopped",
             timeout_s);
    rc = 1;
  } else {
    tc_describe_exit(buf, sizeof buf, "the analysis of its program", st);
    rc = 1;
  }
  tc_bb_free(&b);
  if (rc == 1) {
    tc_report_free(part);
    tc_report_init(part);
    *why = strdup(buf);
    if (!*why) rc = -1;
  }
  return rc;
}
