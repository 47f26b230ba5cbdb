// main.cpp — multi_infer_clean: tokenizes the prompts from argv (or a default), embeds on the
// host, runs the mixture of experts, and prints a digest. Correct on every input.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> prompts;
  for (int i = 1; i < argc; ++i) prompts.emplace_back(argv[i]);
  if (prompts.empty()) prompts = {"hello world", "tensor tags"};
  int n_experts = 3;
  if (const char* s = std::getenv("MOE_EXPERTS")) n_experts = std::atoi(s) > 0 ? std::atoi(s) : 3;

  moe::Tokenizer tok;
  moe::Engine eng(n_experts, tok.vocab_size());
  for (const std::string& p : prompts) {
    std::vector<int> ids = tok.encode(p);
    if (ids.empty()) continue;
    moe::Tensor x = eng.embed(ids);
    moe::Tensor y = eng.run(x.get());
    moe::Tensor s(dt_sum(y.get()));
    float v = 0.0f;
    dt_read_floats(s.get(), &v, 1);
    std::printf("%-14s -> %zu tokens, %zu experts, digest %.5f\n", p.c_str(), ids.size(), eng.experts(), v);
  }
  return 0;
}
