/* runtime/src/check.c — THE precheck: every operation runs its tensor operands through
 * dt__precheck before touching data. It resolves the operand handles (rejecting NULL, freed and
 * foreign ones), then decides the first rule that applies by SPEC §4's precedence
 * (autodiff-expected, autodiff-inner-backend / backend-mismatch, device-mismatch,
 * kind-mismatch) and records it with Burn's wording and both tags. Shape rules come last and
 * live with the shape logic (prim.c). */
#include <stdio.h>

#include "internal.h"

static void device_string(dt_device d, char *buf, size_t n) { dt_device_name(d, buf, n); }

/* Rule 2: operands differ in autodiff-ness. */
static dt_status check_autodiff(const dt_site *site, const dt_tensor *ref, const dt_tensor *t) {
  if ((ref->device.autodiff != 0) == (t->device.autodiff != 0)) return DT_OK;
  char want[64], got[64], inner[64];
  device_string(ref->device, want, sizeof want);
  device_string(t->device, got, sizeof got);
  if (ref->device.autodiff) {
    device_string(dt_inner_device(ref->device), inner, sizeof inner);
    return dt__fail(site, DT_ERR_AUTODIFF_EXPECTED,
                    "Expected autodiff-wrapped %s tensor for backend %s (expected %s, got %s)",
                    dt__kind_name(t->kind), inner, want, got);
  }
  return dt__fail(site, DT_ERR_AUTODIFF_EXPECTED,
                  "Expected a plain %s tensor, got an autodiff-wrapped one (expected %s, got %s)",
                  dt__kind_name(t->kind), want, got);
}

/* Rule 3: backends differ (inner backends for autodiff operands). */
static dt_status check_backend(const dt_site *site, const dt_tensor *ref, const dt_tensor *t) {
  if (ref->device.backend == t->device.backend) return DT_OK;
  char a[64], b[64];
  if (ref->device.autodiff) {
    device_string(dt_inner_device(ref->device), a, sizeof a);
    device_string(dt_inner_device(t->device), b, sizeof b);
    return dt__fail(site, DT_ERR_AUTODIFF_INNER_BACKEND,
                    "Autodiff %s tensor is on the wrong backend (expected %s, got %s)",
                    dt__kind_name(t->kind), a, b);
  }
  device_string(ref->device, a, sizeof a);
  device_string(t->device, b, sizeof b);
  return dt__fail(site, DT_ERR_BACKEND_MISMATCH,
                  "The provided tensors are not on the same backend (%s and %s)", a, b);
}

/* Rule 4: same backend, ordinals differ. */
static dt_status check_ordinal(const dt_site *site, const dt_tensor *ref, const dt_tensor *t,
                               int index) {
  if (ref->device.ordinal == t->device.ordinal) return DT_OK;
  char a[64], b[64];
  device_string(ref->device, a, sizeof a);
  device_string(t->device, b, sizeof b);
  return dt__fail(site, DT_ERR_DEVICE_MISMATCH,
                  "Input tensor %d is on the wrong device (expected %s, got %s)", index + 1, a, b);
}

static dt_status kind_fail(const dt_site *site, const dt_tensor *t, const char *what) {
  char tag[96];
  dt__tag_string(t, tag, sizeof tag);
  return dt__fail(site, DT_ERR_KIND_MISMATCH, "%s (got %s)", what, tag);
}

/* Rule 5: kinds. Operands from `first` on must share one kind. */
static dt_status check_kinds(const dt_site *site, int n, const dt_tensor *const *ts,
                             dt_kind_rule kinds) {
  int first = 0;
  switch (kinds) {
    case DT_KINDS_ANY:
      break;
    case DT_KINDS_NUMERIC:
      for (int i = 0; i < n; i++)
        if (ts[i]->kind == DT_BOOL)
          return kind_fail(site, ts[i], "Expected a float or int tensor, bool is not accepted");
      break;
    case DT_KINDS_FLOAT:
      for (int i = 0; i < n; i++)
        if (ts[i]->kind != DT_FLOAT) return kind_fail(site, ts[i], "Expected a float tensor");
      break;
    case DT_KINDS_INTEGRAL:
      for (int i = 0; i < n; i++)
        if (ts[i]->kind == DT_FLOAT) return kind_fail(site, ts[i], "Expected an int or bool tensor");
      break;
    case DT_KINDS_WHERE:
      if (ts[0]->kind != DT_BOOL) return kind_fail(site, ts[0], "The condition must be a bool tensor");
      first = 1;
      break;
  }
  for (int i = first + 1; i < n; i++) {
    if (ts[i]->kind != ts[first]->kind) {
      char a[96], b[96];
      dt__tag_string(ts[first], a, sizeof a);
      dt__tag_string(ts[i], b, sizeof b);
      return dt__fail(site, DT_ERR_KIND_MISMATCH,
                      "Tensors of different kinds cannot be combined (expected %s, got %s)", a, b);
    }
  }
  return DT_OK;
}

dt_status dt__precheck(const dt_site *site, int n, const dt_tensor *const *handles,
                       const dt_tensor **ts, dt_kind_rule kinds) {
  dt_status st;
  if (handles == NULL && n > 0)
    return dt__fail(site, DT_ERR_INVALID_ARGUMENT, "The tensor array is NULL");
  for (int i = 0; i < n; i++) {
    if ((ts[i] = dt__resolve_fast(handles[i])) != NULL) continue; /* the fast path */
    char what[32];
    if (n == 1)
      snprintf(what, sizeof what, "The tensor");
    else
      snprintf(what, sizeof what, "Input tensor %d", i + 1);
    dt__resolve_failed(site, handles[i], what);
    return dt_last_status();
  }
  /* The common case: every operand on one device (backend, ordinal, autodiff-ness), so no tag
     rule applies and only kinds are left to check. */
  int one_device = 1;
  for (int i = 1; i < n; i++)
    one_device &= ts[i]->device.backend == ts[0]->device.backend &&
                  ts[i]->device.ordinal == ts[0]->device.ordinal &&
                  ts[i]->device.autodiff == ts[0]->device.autodiff;
  if (!one_device) {
    /* Rule 1 (autodiff-nested) cannot arise between operands: tensors never nest. */
    for (int i = 1; i < n; i++)
      if ((st = check_autodiff(site, ts[0], ts[i])) != DT_OK) return st;
    for (int i = 1; i < n; i++)
      if ((st = check_backend(site, ts[0], ts[i])) != DT_OK) return st;
    for (int i = 1; i < n; i++)
      if ((st = check_ordinal(site, ts[0], ts[i], i)) != DT_OK) return st;
  }
  if (n > 0 && (st = check_kinds(site, n, ts, kinds)) != DT_OK) return st;
  return DT_OK;
}

dt_status dt__precheck_transfer(const dt_site *site, const dt_tensor *handle, dt_device d,
                                const dt_tensor **obj) {
  const dt_tensor *t = *obj = dt__resolve(site, handle, "The tensor");
  if (t == NULL) return dt_last_status();
  char from[64], to[64];
  device_string(t->device, from, sizeof from);
  device_string(d, to, sizeof to);
  if (!dt__device_valid(d))
    return dt__fail(site, DT_ERR_INVALID_ARGUMENT,
                    "Invalid target device %s (unknown backend or negative ordinal)", to);
  if ((t->device.autodiff != 0) != (d.autodiff != 0))
    return dt__fail(site, DT_ERR_AUTODIFF_EXPECTED,
                    "Cannot move between autodiff and non-autodiff instances (from %s to %s)", from,
                    to);
  return DT_OK;
}
