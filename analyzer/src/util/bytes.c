/* analyzer/src/util/bytes.c — byte buffers, readers, hashing and atomic file replacement
 * (util/bytes.h). */
#include "util/bytes.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void tc_bb_put(tc_bbuf *b, const void *data, size_t n) {
  if (b->bad || n == 0) return;
  if (n > SIZE_MAX / 4 - b->len) {
    b->bad = 1;
    return;
  }
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n) cap *= 2;
    unsigned char *np = realloc(b->p, cap);
    if (!np) {
      b->bad = 1;
      return;
    }
    b->p = np;
    b->cap = cap;
  }
  memcpy(b->p + b->len, data, n);
  b->len += n;
}

void tc_bb_u64(tc_bbuf *b, uint64_t v) {
  unsigned char x[8];
  for (int i = 0; i < 8; i++) x[i] = (unsigned char)(v >> (8 * i));
  tc_bb_put(b, x, 8);
}

void tc_bb_str(tc_bbuf *b, const char *s) {
  size_t n = s ? strlen(s) : 0;
  tc_bb_u64(b, n);
  tc_bb_put(b, s ? s : "", n);
}

void tc_bb_free(tc_bbuf *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

uint64_t tc_rd_u64(tc_rd *r) {
  if (r->bad || r->len - r->pos < 8) {
    r->bad = 1;
    return 0;
  }
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)r->p[r->pos + i] << (8 * i);
  r->pos += 8;
  return v;
}

const char *tc_rd_bytes(tc_rd *r, uint64_t n) {
  if (r->bad || n > r->len - r->pos) {
    r->bad = 1;
    return NULL;
  }
  const char *s = (const char *)r->p + r->pos;
  r->pos += (size_t)n;
  return s;
}

char *tc_rd_strdup(tc_rd *r) {
  uint64_t n = tc_rd_u64(r);
  const char *s = tc_rd_bytes(r, n);
  if (!s) return NULL;
  char *c = malloc((size_t)n + 1);
  if (!c) {
    r->bad = 1;
    return NULL;
  }
  memcpy(c, s, (size_t)n);
  c[n] = '\0';
  return c;
}

uint64_t tc_fnv64(uint64_t h, const void *data, size_t n) { return dt_fnv1a64(h, data, n); }

uint64_t tc_fnv64_str(const char *s) { return tc_fnv64(TC_FNV_INIT, s, strlen(s)); }

int tc_read_file(const char *path, unsigned char **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  tc_bbuf b = {0};
  unsigned char tmp[65536];
  size_t got;
  while ((got = fread(tmp, 1, sizeof tmp, f)) > 0) tc_bb_put(&b, tmp, got);
  int err = ferror(f);
  fclose(f);
  if (err || b.bad) {
    tc_bb_free(&b);
    return -1;
  }
  if (!b.p) b.p = malloc(1); /* an empty file is a valid, empty buffer */
  if (!b.p) return -1;
  *data = b.p;
  *len = b.len;
  return 0;
}

char *tc_temp_name_for(const char *path, unsigned long seq) {
  const char *slash = strrchr(path, '/');
  size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
  size_t n = strlen(path) + 64;
  char *t = malloc(n);
  if (t)
    snprintf(t, n, "%.*s.%s.tagcheck-%ld-%lu.tmp", (int)dl, path, path + dl, (long)getpid(),
             seq);
  return t;
}

/* The file that replaces path keeps path's permission bits and, where the process may change
   them, its owner and group. Returns 0 or an errno; a path not there yet is no error. */
static int keep_mode_and_owner(const char *path, int fd) {
  struct stat st;
  if (stat(path, &st) != 0) return errno == ENOENT ? 0 : errno;
  if (fchown(fd, st.st_uid, st.st_gid) != 0) /* not ours to give away: keep the group if we may */
    (void)!fchown(fd, (uid_t)-1, st.st_gid);
  return fchmod(fd, st.st_mode & 07777) != 0 ? errno : 0;
}

int tc_write_file_atomically(const char *path, const void *data, size_t len) {
  char *tmp = NULL;
  int fd = -1;
  /* the first free name: concurrent writers of one process take the next ones */
  for (unsigned long seq = 0; fd < 0 && seq < 4096; seq++) {
    free(tmp);
    tmp = tc_temp_name_for(path, seq);
    if (!tmp) {
      errno = ENOMEM;
      return -1;
    }
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    int e = errno;
    free(tmp);
    errno = e;
    return -1;
  }
  const unsigned char *p = data;
  size_t done = 0;
  int e = keep_mode_and_owner(path, fd);
  while (!e && done < len) {
    ssize_t w = write(fd, p + done, len - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      e = errno;
      break;
    }
    done += (size_t)w;
  }
  if (!e && fsync(fd) != 0 && errno != EINVAL && errno != EROFS) e = errno;
  if (close(fd) != 0 && !e) e = errno;
  if (!e && rename(tmp, path) != 0) e = errno;
  if (e) unlink(tmp);
  free(tmp);
  errno = e;
  return e ? -1 : 0;
}
