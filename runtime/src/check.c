/* runtime/src/check.c — every run-time tag check, named like the rules' checks of
 * rules/dt.json (docs/rules.md): agree (autodiff-ness, then backends, then ordinals, between
 * operands), kinds, same_autodiff (dt_to_device), autodiff_required, plain_device (dt_autodiff)
 * and wraps (dt_from_inner). dt__precheck, which every operation calls before touching data,
 * resolves the operand handles (rejecting NULL, freed and foreign ones) and runs agree then
 * kinds, so the first rule by SPEC §4's precedence decides. Messages come from the table shared
 * with the analyzer (dt/messages.def, message.c). The allocates check is the registry's
 * (dt__backend_for, device.c); shape rules come last and live with the shape logic (prim.c). */
#include <stdio.h>

#include "internal.h"

static dt_msg_args two_sides(dt_device expected, const dt_tensor *got) {
  dt_msg_args a = {0};
  a.expected = expected;
  a.got = got->device;
  a.kind = got->kind;
  a.index = 1;
  return a;
}

/* agree, rule 2: operands differ in autodiff-ness. */
static dt_status agree_autodiff(const dt_site *site, const dt_tensor *ref, const dt_tensor *t) {
  if ((ref->device.autodiff != 0) == (t->device.autodiff != 0)) return DT_OK;
  dt_msg_args a = two_sides(ref->device, t);
  return dt__fail_message(site, ref->device.autodiff ? DT_MSG_AUTODIFF_MIXED : DT_MSG_AUTODIFF_MIXED_PLAIN,
                          &a);
}

/* agree, rule 3: backends differ (inner backends for autodiff operands). */
static dt_status agree_backend(const dt_site *site, const dt_tensor *ref, const dt_tensor *t) {
  if (ref->device.backend == t->device.backend) return DT_OK;
  dt_msg_args a = two_sides(ref->device, t);
  return dt__fail_message(site, ref->device.autodiff ? DT_MSG_INNER_BACKEND : DT_MSG_BACKEND, &a);
}

/* agree, rule 4: same backend, ordinals differ. */
static dt_status agree_ordinal(const dt_site *site, const dt_tensor *ref, const dt_tensor *t,
                               int index) {
  if (ref->device.ordinal == t->device.ordinal) return DT_OK;
  dt_msg_args a = two_sides(ref->device, t);
  a.index = index + 1;
  return dt__fail_message(site, DT_MSG_DEVICE, &a);
}

static dt_status check_agree(const dt_site *site, int n, const dt_tensor *const *ts) {
  dt_status st;
  /* Rule 1 (autodiff-nested) cannot arise between operands: tensors never nest. */
  for (int i = 1; i < n; i++)
    if ((st = agree_autodiff(site, ts[0], ts[i])) != DT_OK) return st;
  for (int i = 1; i < n; i++)
    if ((st = agree_backend(site, ts[0], ts[i])) != DT_OK) return st;
  for (int i = 1; i < n; i++)
    if ((st = agree_ordinal(site, ts[0], ts[i], i)) != DT_OK) return st;
  return DT_OK;
}

static int kinds_accepted(int n, const dt_tensor *const *ts, dt_kind_rule kinds) {
  int first = 0;
  switch (kinds) {
    case DT_KINDS_ANY:
      break;
    case DT_KINDS_NUMERIC:
      for (int i = 0; i < n; i++)
        if (ts[i]->kind == DT_BOOL) return 0;
      break;
    case DT_KINDS_FLOAT:
      for (int i = 0; i < n; i++)
        if (ts[i]->kind != DT_FLOAT) return 0;
      break;
    case DT_KINDS_INTEGRAL:
      for (int i = 0; i < n; i++)
        if (ts[i]->kind == DT_FLOAT) return 0;
      break;
    case DT_KINDS_WHERE:
      if (ts[0]->kind != DT_BOOL) return 0;
      first = 1;
      break;
  }
  for (int i = first + 1; i < n; i++)
    if (ts[i]->kind != ts[first]->kind) return 0;
  return 1;
}

/* kinds, rule 5: the operands' kinds as a whole must be a combination the operation takes. */
dt_status dt__check_kinds(const dt_site *site, int n, const dt_tensor *const *ts,
                             dt_kind_rule kinds) {
  if (kinds_accepted(n, ts, kinds)) return DT_OK;
  dt_msg_args a = {0};
  a.n_all = n;
  a.all = ts;
  return dt__fail_message(site, DT_MSG_KIND, &a);
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
  if (!one_device && (st = check_agree(site, n, ts)) != DT_OK) return st;
  if (n > 0 && (st = dt__check_kinds(site, n, ts, kinds)) != DT_OK) return st;
  return DT_OK;
}

/* same_autodiff: dt_to_device does not cross between autodiff and plain devices. */
dt_status dt__precheck_transfer(const dt_site *site, const dt_tensor *handle, dt_device d,
                                const dt_tensor **obj) {
  const dt_tensor *t = *obj = dt__resolve(site, handle, "The tensor");
  if (t == NULL) return dt_last_status();
  if (!dt__device_valid(d)) {
    char to[64];
    dt_device_name(d, to, sizeof to);
    return dt__fail(site, DT_ERR_INVALID_ARGUMENT,
                    "Invalid target device %s (unknown backend or negative ordinal)", to);
  }
  if ((t->device.autodiff != 0) == (d.autodiff != 0)) return DT_OK;
  dt_msg_args a = two_sides(d, t);
  return dt__fail_message(site, DT_MSG_AUTODIFF_MOVE, &a);
}

dt_tensor *dt__check_autodiff_required(const dt_site *site, const dt_tensor *handle) {
  dt_tensor *t = dt__resolve(site, handle, "The tensor");
  if (t == NULL || t->device.autodiff) return t;
  dt_msg_args a = two_sides(t->device, t);
  dt__fail_message(site, DT_MSG_AUTODIFF_REQUIRED, &a);
  return NULL;
}

dt_status dt__check_plain_device(const dt_site *site, dt_device d) {
  if (!d.autodiff) return DT_OK;
  dt_msg_args a = {0};
  a.got = d;
  return dt__fail_message(site, DT_MSG_AUTODIFF_NESTED_DEVICE, &a);
}

dt_status dt__check_wraps(const dt_site *site, dt_device ad, const dt_tensor *inner) {
  if (!dt__device_valid(ad)) {
    char want[64];
    dt_device_name(ad, want, sizeof want);
    return dt__fail(site, DT_ERR_INVALID_ARGUMENT,
                    "Invalid device %s (unknown backend or negative ordinal)", want);
  }
  dt_msg_args a = two_sides(ad, inner);
  if (inner->device.autodiff) return dt__fail_message(site, DT_MSG_AUTODIFF_NESTED_TENSOR, &a);
  if (!ad.autodiff) {
    a.got = ad;
    return dt__fail_message(site, DT_MSG_AUTODIFF_PLAIN_DEVICE, &a);
  }
  if (inner->device.backend != ad.backend) return dt__fail_message(site, DT_MSG_INNER_BACKEND, &a);
  if (inner->device.ordinal != ad.ordinal) return dt__fail_message(site, DT_MSG_DEVICE, &a);
  return DT_OK;
}
