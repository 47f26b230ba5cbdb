/* runtime/src/autodiff.c — reverse-mode autodiff: graph nodes, backward, gradients, and the
 * public autodiff entry points (dt_from_inner, dt_inner, dt_require_grad, dt_detach,
 * dt_backward, dt_grad). Skeleton: every entry point exists; the real work follows. */
#include <stddef.h>

#include "internal.h"

dt_tensor *dt__ad_record(const dt_site *site, int op, dt_tensor *out, int n_inputs,
                         const dt_tensor *const *inputs, const dt_ad_extra *extra) {
  (void)site;
  (void)op;
  (void)n_inputs;
  (void)inputs;
  (void)extra;
  return out;
}

void dt__ad_release(dt_tensor *t) { (void)t; }

int dt__ad_is_tracked(const dt_tensor *t) { return t != NULL && (t->node != NULL || t->requires_grad); }

dt_tensor *dt_from_inner_at(DT_SITE_PARAMS, dt_device ad, dt_tensor *inner) {
  (void)dt_file_;
  (void)dt_line_;
  (void)ad;
  (void)inner;
  return NULL;
}
dt_tensor *dt_from_inner(dt_device ad, dt_tensor *inner) { return dt_from_inner_at(NULL, 0, ad, inner); }

dt_tensor *dt_inner_at(DT_SITE_PARAMS, const dt_tensor *t) {
  (void)dt_file_;
  (void)dt_line_;
  (void)t;
  return NULL;
}
dt_tensor *dt_inner(const dt_tensor *t) { return dt_inner_at(NULL, 0, t); }

dt_tensor *dt_require_grad_at(DT_SITE_PARAMS, dt_tensor *t) {
  (void)dt_file_;
  (void)dt_line_;
  return t;
}
dt_tensor *dt_require_grad(dt_tensor *t) { return dt_require_grad_at(NULL, 0, t); }

dt_tensor *dt_detach_at(DT_SITE_PARAMS, const dt_tensor *t) {
  (void)dt_file_;
  (void)dt_line_;
  (void)t;
  return NULL;
}
dt_tensor *dt_detach(const dt_tensor *t) { return dt_detach_at(NULL, 0, t); }

int dt_backward_at(DT_SITE_PARAMS, dt_tensor *loss) {
  (void)dt_file_;
  (void)dt_line_;
  (void)loss;
  return -1;
}
int dt_backward(dt_tensor *loss) { return dt_backward_at(NULL, 0, loss); }

dt_tensor *dt_grad_at(DT_SITE_PARAMS, const dt_tensor *t) {
  (void)dt_file_;
  (void)dt_line_;
  (void)t;
  return NULL;
}
dt_tensor *dt_grad(const dt_tensor *t) { return dt_grad_at(NULL, 0, t); }
