/* analyzer/src/driver/channel.c — framed messages over a socket with deadlines
 * (driver/channel.h). */
#include "driver/channel.h"

#include <errno.h>
#include <stdlib.h>
#include <poll.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { TC_CHAN_MAX_FRAME = 1 << 30 }; /* 1 GiB: more is a broken peer */

double tc_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int send_all(int fd, const unsigned char *p, size_t n) {
  while (n) {
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

int tc_chan_send(int fd, const void *data, size_t len) {
  unsigned char hdr[8];
  for (int i = 0; i < 8; i++) hdr[i] = (unsigned char)((uint64_t)len >> (8 * i));
  if (send_all(fd, hdr, 8) != 0) return -1;
  return send_all(fd, data, len);
}

/* Reads exactly n bytes. Returns 0, 1 (end of stream), 2 (deadline), -1. */
static int recv_all(int fd, unsigned char *p, size_t n, double deadline) {
  while (n) {
    if (deadline > 0) {
      double left = deadline - tc_now_s();
      if (left <= 0) return 2;
      struct pollfd pf = {fd, POLLIN, 0};
      int ms = left > 3600 ? 3600000 : (int)(left * 1000) + 1;
      int pr = poll(&pf, 1, ms);
      if (pr < 0 && errno != EINTR) return -1;
      if (pr <= 0) continue;
    }
    ssize_t r = recv(fd, p, n, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      return errno == ECONNRESET ? 1 : -1;
    }
    if (r == 0) return 1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

int tc_chan_recv(int fd, double deadline, tc_bbuf *b) {
  tc_bb_free(b);
  unsigned char hdr[8];
  int rc = recv_all(fd, hdr, 8, deadline);
  if (rc) return rc;
  uint64_t len = 0;
  for (int i = 0; i < 8; i++) len |= (uint64_t)hdr[i] << (8 * i);
  if (len > TC_CHAN_MAX_FRAME) return -1;
  b->p = malloc(len ? (size_t)len : 1);
  if (!b->p) return -1;
  b->cap = len ? (size_t)len : 1;
  rc = recv_all(fd, b->p, (size_t)len, deadline);
  if (rc) {
    tc_bb_free(b);
    return rc;
  }
  b->len = (size_t)len;
  return 0;
}
