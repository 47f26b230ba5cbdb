/* runtime/src/handle.h — the encoding of tensor handles and the slot table's layout (handle.c
 * owns the table), here so that resolving a live handle — the precheck's fast path, run for
 * every operand of every call — is inlined: a few instructions and two dependent loads.
 * Included by internal.h after struct dt_tensor; not installed.
 *
 * A handle (uintptr_t): generation in the high bits, slot index in the middle, a 4-bit tag in
 * the low bits that no aligned pointer has. A slot's generation is odd while its tensor is live. */
#ifndef DT_HANDLE_H
#define DT_HANDLE_H

#include <stdatomic.h>
#include <stdint.h>

#define DT_H_TAG 0xBu
#define DT_H_TAG_MASK 0xFu
#define DT_H_INDEX_SHIFT 4
#if UINTPTR_MAX > 0xFFFFFFFFu
#define DT_H_INDEX_BITS 28
#define DT_H_GEN_MAX 0xFFFFFFFFu
#else
#define DT_H_INDEX_BITS 20
#define DT_H_GEN_MAX 0xFFu
#endif
#define DT_H_GEN_SHIFT (DT_H_INDEX_SHIFT + DT_H_INDEX_BITS)
#define DT_H_INDEX_MASK ((1u << DT_H_INDEX_BITS) - 1u)
/* The last generation a freed slot may take: a slot freed at this generation is retired. */
#define DT_H_GEN_RETIRED (DT_H_GEN_MAX - 1u)

/* The table: chunks of slots, allocated as needed and never freed. */
#define DT_SLOT_CHUNK_SHIFT 10
#define DT_SLOT_CHUNK_SLOTS (1u << DT_SLOT_CHUNK_SHIFT)
#define DT_SLOT_MAX_CHUNKS (1u << (DT_H_INDEX_BITS - DT_SLOT_CHUNK_SHIFT))

typedef struct dt_slot {
  _Atomic uint32_t gen; /* odd: live; even: free (0: never used) */
  uint32_t index;
  uint32_t next_free; /* shared free list link (handle.c, under its lock) */
  dt_tensor obj;
} dt_slot;

extern _Atomic(dt_slot *) dt__slot_chunks[DT_SLOT_MAX_CHUNKS];

/* The slot of an index, or NULL when its chunk was never made. */
static inline dt_slot *dt__slot_at(uint32_t index) {
  dt_slot *chunk =
      atomic_load_explicit(&dt__slot_chunks[index >> DT_SLOT_CHUNK_SHIFT], memory_order_acquire);
  return chunk == NULL ? NULL : &chunk[index & (DT_SLOT_CHUNK_SLOTS - 1u)];
}

/* The object a live handle names, or NULL (nothing recorded; dt__resolve says why). */
static inline dt_tensor *dt__resolve_fast(const dt_tensor *handle) {
  const uintptr_t v = (uintptr_t)handle;
  if ((v & DT_H_TAG_MASK) != DT_H_TAG) return NULL; /* NULL, or never a handle */
  const uint32_t gen = (uint32_t)(v >> DT_H_GEN_SHIFT);
  dt_slot *s = dt__slot_at((uint32_t)(v >> DT_H_INDEX_SHIFT) & DT_H_INDEX_MASK);
  /* Only odd generations are issued, and a slot's is odd only while live: equal means live. */
  if (s == NULL || (gen & 1u) == 0 || atomic_load_explicit(&s->gen, memory_order_acquire) != gen)
    return NULL;
  return &s->obj;
}

/* The object a live handle names, or NULL after recording why against site. */
static inline dt_tensor *dt__resolve(const dt_site *site, const dt_tensor *handle,
                                     const char *what) {
  dt_tensor *t = dt__resolve_fast(handle);
  return t != NULL ? t : dt__resolve_failed(site, handle, what);
}

#endif /* DT_HANDLE_H */
