// Entry point of the multi-file trainer: trains (well, evaluates) on the configured devices,
// then builds an evaluation loader whose configuration puts data on sim:0 — the model stays
// on sim:1, so Model::forward in model.cpp fails for the evaluation batches.
#include "trainer.hpp"

#include <cstdio>

namespace mt {
dt_device g_default_device = dt_cpu();
}

int main() {
  mt::RunConfig cfg;
  mt::Model model(cfg);
  mt::Loader train_loader(cfg);
  float train_loss = 0.0f;
  for (int i = 0; i < 3; ++i) {
    mt::Batch b = train_loader.next();
    train_loss += model.loss(b.x, b.y);
    mt::Loader::release(b);
  }
  std::printf("train loss %.5f\n", train_loss / 3.0f);

  mt::RunConfig eval_cfg = cfg;
  eval_cfg.name = "eval";
  eval_cfg.data_dev = dt_sim(0);
  mt::Loader eval_loader(eval_cfg, 100);
  mt::Batch eb = eval_loader.next();
  float eval_loss = model.loss(eb.x, eb.y);
  std::printf("eval loss %.5f\n", eval_loss);
  mt::Loader::release(eb);
  return 0;
}
