/* tests/ggml/runtime/oracle_trap.c — the ggml oracle's fault trap, linked into every corpus
 * program the oracle runs (tests/ggml/oracle.py). At start-up it installs handlers for what
 * ends a ggml program early: ggml's own aborts (ggml_set_abort_callback: GGML_ASSERT,
 * GGML_ABORT, the emulated GPU's device mismatch), SIGSEGV/SIGBUS (the host touching
 * emulated device memory or a NULL data pointer; a backend's kernels reading memory they
 * cannot reach) and other SIGABRTs. On the first of them it writes one report to stderr and
 * lets the process die of the signal:
 *
 *   tc-oracle: trap: abort|segv|signal
 *   tc-oracle: message: TEXT
 *   tc-oracle: fault: ADDRESS device=N|-1      (segv only; N: the emulated GPU that owns it)
 *   tc-oracle: pc: OFFSET                      (segv only: the faulting instruction)
 *   tc-oracle: frames: OFFSET|- ...            (the failing thread's return addresses)
 *   tc-oracle: main-frames: OFFSET|- ...       (the main thread's, when another thread failed)
 *
 * An OFFSET is an address inside the executable minus its load bias (what addr2line reads);
 * '-' is a frame in a shared library. The oracle symbolizes them and finds the program's line.
 * A fault in a worker thread (ggml's CPU threadpool) is handed to the main thread with SIGUSR2,
 * so the report carries the program's own call stack. */
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "emu_gpu.h"
#include "ggml.h"

#define TRAP_MAX_FRAMES 64
#define TRAP_HANDOFF_SIGNAL SIGUSR2

static pid_t g_main_tid;
static uintptr_t g_load_bias;
static void *g_exe_base;
static atomic_int g_reported;      /* a report was begun */
static atomic_int g_report_done;   /* ... and written */
static atomic_int g_main_written;  /* the main thread's stack was written */
static int g_fatal_signal; /* the signal the process dies of once the main thread reported */

static void trap_write(const char *s) {
  size_t n = strlen(s);
  while (n > 0) {
    ssize_t w = write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}

static int trap_in_exe(void *addr) {
  Dl_info info;
  return dladdr(addr, &info) != 0 && info.dli_fbase == g_exe_base;
}

static void trap_write_offset(void *addr) {
  char buf[32];
  if (trap_in_exe(addr))
    snprintf(buf, sizeof buf, " 0x%lx", (unsigned long)((uintptr_t)addr - g_load_bias));
  else
    snprintf(buf, sizeof buf, " -");
  trap_write(buf);
}

static void trap_write_frames(const char *label) {
  void *frames[TRAP_MAX_FRAMES];
  int n = backtrace(frames, TRAP_MAX_FRAMES);
  trap_write("tc-oracle: ");
  trap_write(label);
  trap_write(":");
  for (int i = 0; i < n; i++) trap_write_offset(frames[i]);
  trap_write("\n");
}

static pid_t trap_tid(void) { return (pid_t)syscall(SYS_gettid); }

static void trap_die(int sig) {
  signal(sig, SIG_DFL);
  raise(sig);
  _exit(128 + sig);
}

/* The main thread writes its stack once (its frames reach the program's own calls). */
static void trap_write_main_frames(void) {
  if (!atomic_exchange(&g_main_written, 1)) trap_write_frames("main-frames");
}

/* A second failure (another thread of the same run): wait until the first report is written
 * (at most about two seconds), so the process never dies in the middle of it. */
static void trap_wait_report(void) {
  struct timespec tick = {0, 10 * 1000 * 1000};
  for (int i = 0; i < 200 && !atomic_load(&g_report_done); i++) nanosleep(&tick, NULL);
}

/* Ends a report: the main thread dies of sig; another thread hands over to the main thread,
 * which writes its stack and ends the run. */
static void trap_finish(int sig) {
  if (trap_tid() == g_main_tid) {
    atomic_store(&g_main_written, 1); /* the report's frames are the main thread's */
    atomic_store(&g_report_done, 1);
    return;
  }
  atomic_store(&g_report_done, 1);
  g_fatal_signal = sig;
  syscall(SYS_tgkill, getpid(), g_main_tid, TRAP_HANDOFF_SIGNAL);
  for (;;) pause();
}

/* A failure after the first one was reported: only the main thread acts. */
static void trap_after_report(int sig) {
  if (trap_tid() != g_main_tid)
    for (;;) pause();
  trap_wait_report();
  trap_write_main_frames();
  trap_die(sig);
}

static void trap_on_handoff(int sig, siginfo_t *info, void *uctx) {
  (void)sig;
  (void)info;
  (void)uctx;
  trap_wait_report();
  trap_write_main_frames();
  trap_die(g_fatal_signal);
}

static void trap_on_abort_message(const char *message) {
  if (atomic_exchange(&g_reported, 1)) trap_after_report(SIGABRT);
  trap_write("tc-oracle: trap: abort\ntc-oracle: message: ");
  trap_write(message);
  trap_write("\n");
  trap_write_frames("frames");
  trap_finish(SIGABRT);
  /* ggml_abort calls abort() next */
}

static void trap_on_fault(int sig, siginfo_t *info, void *uctx) {
  if (atomic_exchange(&g_reported, 1)) trap_after_report(sig);
  char buf[128];
  void *addr = info->si_addr;
  trap_write("tc-oracle: trap: segv\n");
  snprintf(buf, sizeof buf, "tc-oracle: message: %s at %p\n", sig == SIGBUS ? "SIGBUS" : "SIGSEGV",
           addr);
  trap_write(buf);
  snprintf(buf, sizeof buf, "tc-oracle: fault: 0x%lx device=%d\n", (unsigned long)(uintptr_t)addr,
           tc_emu_gpu_device_of(addr));
  trap_write(buf);
  void *pc = NULL;
#if defined(__x86_64__)
  pc = (void *)((ucontext_t *)uctx)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  pc = (void *)((ucontext_t *)uctx)->uc_mcontext.pc;
#else
  (void)uctx;
#endif
  if (pc) {
    trap_write("tc-oracle: pc:");
    trap_write_offset(pc);
    trap_write("\n");
  }
  trap_write_frames("frames");
  trap_finish(sig);
  trap_die(sig);
}

static void trap_on_abort_signal(int sig, siginfo_t *info, void *uctx) {
  (void)info;
  (void)uctx;
  if (atomic_exchange(&g_reported, 1)) trap_after_report(sig); /* e.g. ggml_abort's abort() */
  trap_write("tc-oracle: trap: signal\ntc-oracle: message: SIGABRT\n");
  trap_write_frames("frames");
  trap_finish(sig);
  trap_die(sig);
}

static int trap_find_bias(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  (void)data;
  g_load_bias = (uintptr_t)info->dlpi_addr; /* the first object listed is the executable */
  return 1;
}

static void trap_handle(int sig, void (*fn)(int, siginfo_t *, void *)) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = fn;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, NULL);
}

__attribute__((constructor)) static void trap_install(void) {
  Dl_info info;
  if (dladdr((void *)trap_install, &info)) g_exe_base = info.dli_fbase;
  dl_iterate_phdr(trap_find_bias, NULL);
  g_main_tid = trap_tid();
  void *warm[2];
  backtrace(warm, 2); /* loads the unwinder now, not inside a signal handler */
  trap_handle(SIGSEGV, trap_on_fault);
  trap_handle(SIGBUS, trap_on_fault);
  trap_handle(SIGABRT, trap_on_abort_signal);
  trap_handle(TRAP_HANDOFF_SIGNAL, trap_on_handoff);
  ggml_set_abort_callback(trap_on_abort_message);
}
