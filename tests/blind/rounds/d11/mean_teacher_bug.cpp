// provenance: blind round d11
// Semi-supervised "mean teacher": a student network is trained with a supervised loss plus a
// consistency loss against a teacher whose weights are an exponential moving average of the
// student's. The teacher is never differentiated, so it keeps plain tensors.
// usage: mean_teacher [steps] [--decay D]
#include <dt/dt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Shape2 {
  int64_t r, c;
};

const std::vector<Shape2> kLayout = {{3, 10}, {1, 10}, {10, 2}, {1, 2}};

class Net {
 public:
  explicit Net(dt_device ad) : ad_(ad) {
    uint64_t seed = 500;
    for (const Shape2 &s : kLayout) {
      int64_t sh[2] = {s.r, s.c};
      dt_tensor *r = dt_randn(dt_inner_device(ad), seed++, 2, sh);
      dt_tensor *v = dt_mul_scalar(r, s.r == 1 ? 0.0f : 0.35f);
      params_.push_back(dt_require_grad(dt_from_inner(ad, v)));
      dt_free(r);
      dt_free(v);
    }
  }
  ~Net() {
    for (dt_tensor *p : params_) dt_free(p);
  }
  Net(const Net &) = delete;
  Net &operator=(const Net &) = delete;

  // forward over an explicit parameter list (student's tracked ones or teacher's plain ones)
  static dt_tensor *apply(const std::vector<dt_tensor *> &p, const dt_tensor *x) {
    dt_tensor *h = dt_matmul(x, p[0]);
    dt_tensor *hb = dt_add(h, p[1]);
    dt_tensor *a = dt_tanh(hb);
    dt_tensor *o = dt_matmul(a, p[2]);
    dt_tensor *y = dt_add(o, p[3]);
    dt_free(h); dt_free(hb); dt_free(a); dt_free(o);
    return y;
  }
  dt_tensor *forward(const dt_tensor *x) const { return apply(params_, x); }

  void step(float lr) {
    for (dt_tensor *&p : params_) {
      dt_tensor *g = dt_grad(p);
      if (!g) continue;
      dt_tensor *in = dt_inner(p);
      dt_tensor *st = dt_mul_scalar(g, lr);
      dt_tensor *nx = dt_sub(in, st);
      dt_free(p);
      p = dt_require_grad(dt_from_inner(ad_, nx));
      dt_free(g); dt_free(in); dt_free(st); dt_free(nx);
    }
  }

  const std::vector<dt_tensor *> &params() const { return params_; }
  dt_device device() const { return ad_; }

 private:
  dt_device ad_;
  std::vector<dt_tensor *> params_;
};

class EmaTeacher {
 public:
  EmaTeacher(const Net &student, float decay) : decay_(decay) {
    for (dt_tensor *p : student.params()) weights_.push_back(dt_inner(p));
  }
  ~EmaTeacher() {
    for (dt_tensor *w : weights_) dt_free(w);
  }
  void update(const Net &student) {
    auto blend = [this](const dt_tensor *old_w, const dt_tensor *cur) {
      dt_tensor *a = dt_mul_scalar(old_w, decay_);
      dt_tensor *b = dt_mul_scalar(cur, 1.0f - decay_);
      dt_tensor *out = dt_add(a, b); // expect-error: autodiff-expected
      dt_free(a);
      dt_free(b);
      return out;
    };
    const auto &sp = student.params();
    for (size_t i = 0; i < weights_.size(); i++) {
      dt_tensor *nw = blend(weights_[i], sp[i]);
      dt_free(weights_[i]);
      weights_[i] = nw;
    }
    updates_++;
  }
  dt_tensor *predict(const dt_tensor *x_plain) const { return Net::apply(weights_, x_plain); }
  int updates() const { return updates_; }

 private:
  float decay_;
  int updates_ = 0;
  std::vector<dt_tensor *> weights_;
};

struct Batch {
  std::vector<float> x, y;
  bool labelled;
};

Batch make_batch(int step) {
  Batch b;
  b.labelled = step % 2 == 0;
  for (int i = 0; i < 8; i++) {
    float a = (float)((i * 3 + step) % 5) / 5.0f, c = (float)((i + step * 2) % 7) / 7.0f;
    b.x.insert(b.x.end(), {a, c, a * c});
    b.y.insert(b.y.end(), {a + c, a - c});
  }
  return b;
}

float read_loss(const dt_tensor *loss) {
  float v = 0.0f;
  dt_tensor *in = dt_inner(loss);
  dt_read_floats(in, &v, 1);
  dt_free(in);
  return v;
}

}  // namespace

int main(int argc, char **argv) {
  int steps = 12;
  float decay = 0.95f;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--decay") && i + 1 < argc) decay = (float)std::atof(argv[++i]);
    else steps = std::atoi(argv[i]);
  }
  if (steps < 2) steps = 12;
  if (!(decay > 0.0f && decay < 1.0f)) decay = 0.95f;

  const dt_device plain = dt_sim(1);
  const dt_device ad = dt_autodiff(plain);
  Net student(ad);
  EmaTeacher teacher(student, decay);
  const int64_t xs[2] = {8, 3}, ys[2] = {8, 2};

  std::function<float(int)> train_step = [&](int s) {
    Batch b = make_batch(s);
    dt_tensor *xp = dt_from_floats(plain, b.x.data(), 2, xs);
    dt_tensor *x = dt_from_inner(ad, xp);
    dt_tensor *pred = student.forward(x);
    dt_tensor *tpred = teacher.predict(xp);
    dt_tensor *target_c = dt_from_inner(ad, tpred);
    dt_tensor *loss = dt_mse_loss(pred, target_c);
    if (b.labelled) {
      dt_tensor *y = dt_from_floats(ad, b.y.data(), 2, ys);
      dt_tensor *sup = dt_mse_loss(pred, y);
      dt_tensor *tot = dt_add(loss, sup);
      dt_free(loss); dt_free(sup); dt_free(y);
      loss = tot;
    }
    dt_backward(loss);
    float lv = read_loss(loss);
    student.step(0.1f);
    teacher.update(student);
    dt_free(loss); dt_free(target_c); dt_free(tpred); dt_free(pred); dt_free(x); dt_free(xp);
    return lv;
  };

  for (int s = 0; s < steps; s++) {
    float lv = train_step(s);
    if (s % 4 == 0) std::printf("step %2d loss %.5f\n", s, lv);
  }
  std::printf("teacher updated %d times\n", teacher.updates());
  return 0;
}
