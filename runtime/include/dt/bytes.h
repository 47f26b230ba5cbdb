/* dt/bytes.h — byte-level helpers shared by the runtime and the analyzer (header-only, static
 * inline, like dt/fingerprint.h which builds on it): FNV-1a over bytes, 64-bit. The analyzer's
 * base/bytes.c hashes with it (cache keys, string tables), the fingerprint scheme runs two
 * lanes of it. */
#ifndef DT_BYTES_H
#define DT_BYTES_H

#include <stddef.h>
#include <stdint.h>

#define DT_FNV_BASIS UINT64_C(0xcbf29ce484222325)
#define DT_FNV_PRIME UINT64_C(0x100000001b3)

/* FNV-1a of n bytes, continuing from h (DT_FNV_BASIS to start). */
static inline uint64_t dt_fnv1a64(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = (const unsigned char *)data;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * DT_FNV_PRIME;
  return h;
}

#endif /* DT_BYTES_H */
