/* analyzer/src/tag.h — the tag vocabulary at the bottom of tagcheck: what the analyzer knows
 * about a device (backend, ordinal, autodiff-ness) or a tensor (the same plus a kind).
 *
 * Each field is independently known (a value >= 0), unknown (TC_TAGF_UNKNOWN), or a symbol
 * (TC_TAGF_SYM(n)): an unknown value with an identity, so two tensors created on the same
 * unknown device are known to agree. Backends and kinds are indices into the rules file's
 * lists (tc_tag_names gives their spellings); nothing here knows a particular API. */
#ifndef TC_TAG_H
#define TC_TAG_H

#include <stddef.h>
#include <stdint.h>

#define TC_TAGF_UNKNOWN (-1)
#define TC_TAGF_SYM(n) (-2 - (int32_t)(n)) /* n >= 0 */
#define TC_TAGF_IS_SYM(v) ((v) <= -2)
#define TC_TAGF_KNOWN(v) ((v) >= 0)

typedef struct tc_tag {
  int32_t backend;  /* index into tc_tag_names.backends */
  int32_t ordinal;  /* device ordinal */
  int32_t autodiff; /* 0 plain, 1 autodiff */
  int32_t kind;     /* index into tc_tag_names.kinds; UNKNOWN for devices */
} tc_tag;

/* How two fields compare: certainly equal, certainly different, or not known. */
typedef enum tc_tri { TC_TRI_UNKNOWN = 0, TC_TRI_YES = 1, TC_TRI_NO = 2 } tc_tri;

/* Spellings of the backends and kinds of the loaded rules (borrowed pointers). */
typedef struct tc_tag_names {
  const char *const *backends;
  const unsigned char *single_device; /* per backend: one device only, printed without ordinal */
  size_t n_backends;
  const char *const *kinds;
  size_t n_kinds;
} tc_tag_names;

tc_tag tc_tag_unknown(void);
/* Field-wise least upper bound: fields that differ become unknown. */
tc_tag tc_tag_join(tc_tag a, tc_tag b);
int tc_tag_same(tc_tag a, tc_tag b); /* identical representation */
tc_tri tc_tagf_equal(int32_t a, int32_t b);
/* Device part (backend, ordinal, autodiff) entirely known. */
int tc_tag_device_known(const tc_tag *t);
/* "cpu", "sim:1", "autodiff<cuda:0>", "cuda:?" (ordinal unknown), "?" (backend unknown).
   Returns buf. */
const char *tc_tag_format_device(const tc_tag *t, const tc_tag_names *n, char *buf, size_t len);
/* The inner device of t: "cuda:0" for autodiff<cuda:0>. */
const char *tc_tag_format_inner(const tc_tag *t, const tc_tag_names *n, char *buf, size_t len);
/* "float", "int", "?" */
const char *tc_tag_kind_name(const tc_tag *t, const tc_tag_names *n);

#endif /* TC_TAG_H */
