/* analyzer/src/driver/tool_id.c — the running build's identity (tool_id.h). */
#define _POSIX_C_SOURCE 200809L
#include "driver/tool_id.h"

#include <string.h>
#include <sys/stat.h>

#include "base/bytes.h"

#ifndef TC_VERSION
#define TC_VERSION "0"
#endif

uint64_t tc_tool_identity(void) {
  uint64_t h = tc_fnv64(TC_FNV_INIT, TC_VERSION, strlen(TC_VERSION));
  struct stat st;
  if (stat("/proc/self/exe", &st) == 0) {
    int64_t parts[3] = {(int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec,
                        (int64_t)st.st_mtim.tv_nsec};
    h = tc_fnv64(h, parts, sizeof parts);
  }
  return h;
}
