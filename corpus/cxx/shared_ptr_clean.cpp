// corpus/cxx/shared_ptr_clean.cpp — tensors owned by std::shared_ptr with a deleter calling
// dt_free (made by a wrap() helper returning by value, copied into a second owner, and one
// made by std::make_shared of a holder struct); a batch read onto sim:0 is staged into the
// autodiff<sim:0> context, its own. Clean.
#include <cstdio>
#include <memory>

#include <dt/dt.h>

using TensorPtr = std::shared_ptr<dt_tensor>;

static const int64_t kShape[2] = {2, 2};

static TensorPtr wrap(dt_tensor *t) { return TensorPtr(t, [](dt_tensor *p) { dt_free(p); }); }

struct Holder {
  dt_device dev;
  explicit Holder(dt_device d) : dev(d) {}
};

int main() {
  std::shared_ptr<Holder> where = std::make_shared<Holder>(dt_sim(0));
  TensorPtr raw = wrap(dt_ones(where->dev, DT_FLOAT, 2, kShape));
  TensorPtr alias = raw;
  const dt_device ad = dt_autodiff(dt_sim(0));
  TensorPtr staged = wrap(dt_from_inner(ad, alias.get()));
  std::printf("%s\n", staged ? "staged" : "rejected");
  return 0;
}
