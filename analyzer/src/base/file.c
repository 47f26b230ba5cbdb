/* analyzer/src/base/file.c — whole files read and replaced atomically (base/file.h). */
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/bytes.h"

char *tc_file_read(const char *path, size_t max_bytes, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  struct stat st;
  int e = 0;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
    e = EISDIR;
  else if (max_bytes && (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) ||
                         (unsigned long long)st.st_size > max_bytes))
    e = EFBIG;
  tc_bbuf b = {0};
  unsigned char tmp[65536];
  size_t got;
  while (!e && (got = fread(tmp, 1, sizeof tmp, f)) > 0) {
    tc_bb_put(&b, tmp, got);
    if (max_bytes && b.len > max_bytes) e = EFBIG;
  }
  if (!e && ferror(f)) e = errno ? errno : EIO;
  fclose(f);
  if (!e) tc_bb_put(&b, "", 1); /* the NUL after the contents */
  if (!e && b.bad) e = ENOMEM;
  if (e) {
    tc_bb_free(&b);
    errno = e;
    return NULL;
  }
  *len = b.len - 1;
  return (char *)b.p;
}

int tc_read_file(const char *path, unsigned char **data, size_t *len) {
  char *text = tc_file_read(path, 0, len);
  if (!text) return -1;
  *data = (unsigned char *)text;
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
