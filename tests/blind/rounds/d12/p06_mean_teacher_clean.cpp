// provenance: blind round d12
// run-args: sim1 cpu
/* Mean-teacher semi-supervised training. The student trains on autodiff<sim:0>; the EMA
 * teacher is a plain copy on argv[1]'s device, and a few snapshots are kept for a
 * weight-averaged (SWA) model on argv[2]'s device. Consistency targets are computed on the
 * teacher's device and brought back into the student's graph as constants. */
#include <dt/dt.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

static dt_device parse(const char *s, dt_device d) {
  if (!s) return d;
  if (!std::strcmp(s, "cpu")) return dt_cpu();
  if (!std::strcmp(s, "sim0")) return dt_sim(0);
  if (!std::strcmp(s, "sim1")) return dt_sim(1);
  return d;
}

struct Weights {
  dt_device dev;
  std::vector<dt_tensor *> t;  // w1, b1, w2, b2
  explicit Weights(dt_device d) : dev(d) {}
  ~Weights() {
    for (auto *x : t) dt_free(x);
  }
  Weights(const Weights &) = delete;
  Weights &operator=(const Weights &) = delete;

  static std::unique_ptr<Weights> copy_of(const Weights &src, dt_device d) {
    auto w = std::make_unique<Weights>(d);
    for (auto *x : src.t) {
      dt_tensor *plain = src.dev.autodiff ? dt_inner(x) : dt_mul_scalar(x, 1.0f);
      w->t.push_back(dt_to_device(plain, d));
      dt_free(plain);
    }
    return w;
  }

  dt_tensor *forward(const dt_tensor *x) const {
    dt_tensor *h = dt_matmul(x, t[0]);
    dt_tensor *hb = dt_add(h, t[1]);
    dt_tensor *a = dt_relu(hb);
    dt_tensor *o = dt_matmul(a, t[2]);
    dt_tensor *ob = dt_add(o, t[3]);
    dt_free(h);
    dt_free(hb);
    dt_free(a);
    dt_free(o);
    return ob;
  }
};

class Student {
 public:
  explicit Student(dt_device base) : w_(std::make_unique<Weights>(dt_autodiff(base))) {
    const int64_t shapes[4][2] = {{5, 10}, {1, 10}, {10, 3}, {1, 3}};
    for (int i = 0; i < 4; i++) {
      dt_tensor *r = i % 2 ? dt_zeros(base, DT_FLOAT, 2, shapes[i]) : dt_randn(base, 20 + i, 2, shapes[i]);
      dt_tensor *rs = dt_mul_scalar(r, 0.4f);
      w_->t.push_back(dt_require_grad(dt_from_inner(w_->dev, rs)));
      dt_free(r);
      dt_free(rs);
    }
  }
  const Weights &weights() const { return *w_; }
  dt_device device() const { return w_->dev; }
  dt_tensor *forward(const dt_tensor *x) const { return w_->forward(x); }
  void sgd(float lr) {
    for (auto &p : w_->t) {
      dt_tensor *g = dt_grad(p);
      if (!g) continue;
      dt_tensor *cur = dt_inner(p);
      dt_tensor *st = dt_mul_scalar(g, lr);
      dt_tensor *nx = dt_sub(cur, st);
      dt_free(p);
      p = dt_require_grad(dt_from_inner(w_->dev, nx));
      dt_free(g);
      dt_free(cur);
      dt_free(st);
      dt_free(nx);
    }
  }

 private:
  std::unique_ptr<Weights> w_;
};

class Teacher {
 public:
  Teacher(const Student &s, dt_device d, float decay) : w_(Weights::copy_of(s.weights(), d)), decay_(decay) {}
  void update(const Student &s) {
    for (size_t i = 0; i < w_->t.size(); i++) {
      dt_tensor *si = dt_inner(s.weights().t[i]);
      dt_tensor *mv = dt_to_device(si, w_->dev);
      dt_tensor *a = dt_mul_scalar(w_->t[i], decay_);
      dt_tensor *b = dt_mul_scalar(mv, 1.0f - decay_);
      dt_free(w_->t[i]);
      w_->t[i] = dt_add(a, b);
      dt_free(si);
      dt_free(mv);
      dt_free(a);
      dt_free(b);
    }
  }
  /* consistency target as a constant of the student's graph */
  dt_tensor *target_for(const dt_tensor *x_host, dt_device student_ad) const {
    dt_tensor *x = dt_to_device(x_host, w_->dev);
    dt_tensor *out = w_->forward(x);
    dt_tensor *prob = dt_sigmoid(out);
    dt_tensor *back = dt_to_device(prob, dt_inner_device(student_ad));
    dt_tensor *wrapped = dt_from_inner(student_ad, back);
    dt_free(x);
    dt_free(out);
    dt_free(prob);
    dt_free(back);
    return wrapped;
  }

 private:
  std::unique_ptr<Weights> w_;
  float decay_;
};

int main(int argc, char **argv) {
  dt_device teacher_dev = parse(argc > 1 ? argv[1] : nullptr, dt_sim(0));
  dt_device swa_dev = parse(argc > 2 ? argv[2] : nullptr, dt_cpu());
  Student student(dt_sim(0));
  Teacher teacher(student, teacher_dev, 0.9f);
  std::vector<std::unique_ptr<Weights>> snapshots;

  const int64_t xs[2] = {4, 5};
  float xb[20];
  for (int step = 0; step < 24; step++) {
    for (int i = 0; i < 20; i++) xb[i] = std::sin(0.13f * (float)(step * 20 + i));
    dt_tensor *x_host = dt_from_floats(dt_cpu(), xb, 2, xs);
    dt_tensor *x_plain = dt_to_device(x_host, dt_inner_device(student.device()));
    dt_tensor *x = dt_from_inner(student.device(), x_plain);
    dt_tensor *target = teacher.target_for(x_host, student.device());
    dt_tensor *logits = student.forward(x);
    dt_tensor *prob = dt_sigmoid(logits);
    dt_tensor *loss = dt_mse_loss(prob, target);
    float lv = 0;
    dt_read_floats(loss, &lv, 1);
    dt_backward(loss);
    student.sgd(0.5f);
    teacher.update(student);
    if (step % 8 == 7) snapshots.push_back(Weights::copy_of(student.weights(), swa_dev));
    if (step % 6 == 0) std::printf("step %d consistency %.6f\n", step, lv);
    for (dt_tensor *t : {x_host, x_plain, x, target, logits, prob, loss}) dt_free(t);
  }

  Weights swa(swa_dev);
  for (size_t i = 0; i < snapshots.front()->t.size(); i++) {
    dt_tensor *acc = dt_mul_scalar(snapshots.front()->t[i], 0.0f);
    for (const auto &s : snapshots) {
      dt_tensor *n = dt_add(acc, s->t[i]);
      dt_free(acc);
      acc = n;
    }
    swa.t.push_back(dt_mul_scalar(acc, 1.0f / (float)snapshots.size()));
    dt_free(acc);
  }
  dt_tensor *probe = dt_ones(swa_dev, DT_FLOAT, 2, xs);
  dt_tensor *out = swa.forward(probe);
  dt_tensor *s = dt_sum(out);
  float v = 0;
  dt_read_floats(s, &v, 1);
  std::printf("swa of %zu snapshots: probe sum %.4f\n", snapshots.size(), v);
  dt_free(probe);
  dt_free(out);
  dt_free(s);
  return 0;
}
