// corpus/cxx/map_keyed_clean.cpp — tensors kept in maps by a constant key, each used as what it
// is: a std::map<std::string, ...> whose weight is autodiff<cpu> and whose bias and running mean
// are plain (a lookup by a std::string variable too), and a std::unordered_map<int, ...> of
// per-stage activations on cpu and sim:0. Every lookup picks its own entry, so nothing mixes;
// a lookup by a name only known at run time reads them as unknown. Clean.
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

int main() {
  const dt_device ad = dt_autodiff(dt_cpu());
  std::map<std::string, dt_tensor *> params;
  params["weight"] = dt_require_grad(dt_randn(ad, 3, 2, kShape));
  params["bias"] = dt_zeros(dt_cpu(), DT_FLOAT, 2, kShape);
  params["running_mean"] = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);

  const std::string stat = "running_mean";
  dt_tensor *inner = dt_inner(params.at("weight"));
  dt_tensor *shifted = dt_add(inner, params.at("bias"));
  dt_tensor *centred = dt_sub(shifted, params[stat]);

  std::unordered_map<int, dt_tensor *> stages;
  stages[0] = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
  stages[1] = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  dt_tensor *host_sum = dt_add(stages[0], centred);
  dt_tensor *sim_in = dt_to_device(host_sum, dt_sim(0));
  dt_tensor *sim_sum = dt_add(stages.at(1), sim_in);

  const std::vector<std::string> report = {"bias", "running_mean"};
  double total = 0.0;
  for (const std::string &name : report) total += (double)dt_numel(params[name]);

  std::printf("%lld %lld %.0f\n", (long long)dt_numel(sim_sum), (long long)dt_numel(centred),
              total);
  dt_free(sim_sum);
  dt_free(sim_in);
  dt_free(host_sum);
  dt_free(centred);
  dt_free(shifted);
  dt_free(inner);
  for (auto &[id, t] : stages) dt_free(t);
  for (auto &[name, t] : params) dt_free(t);
  return 0;
}
