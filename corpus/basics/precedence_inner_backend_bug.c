// corpus/basics/precedence_inner_backend_bug.c — two autodiff devices with different inner
// backends: a student network on autodiff<sim:0> distilled from teacher logits on
// autodiff<cpu>. Bug: dt_mse_loss across inner backends (autodiff-inner-backend).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device student_dev = dt_autodiff(dt_sim(0));
  dt_device teacher_dev = dt_autodiff(dt_cpu());
  const int64_t xs[2] = {4, 3};
  const int64_t ws[2] = {3, 2};

  dt_tensor *w_student = dt_require_grad(dt_randn(student_dev, 1, 2, ws));
  dt_tensor *x_student = dt_randn(student_dev, 2, 2, xs);
  dt_tensor *student_logits = dt_matmul(x_student, w_student);

  dt_tensor *w_teacher = dt_randn(teacher_dev, 3, 2, ws);
  dt_tensor *x_teacher = dt_randn(teacher_dev, 2, 2, xs);
  dt_tensor *teacher_logits = dt_matmul(x_teacher, w_teacher);

  dt_tensor *loss = dt_mse_loss(student_logits, teacher_logits); // expect-error: autodiff-inner-backend
  dt_backward(loss);

  dt_tensor *all[] = {loss, teacher_logits, x_teacher, w_teacher, student_logits, x_student,
                      w_student};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
