// tokenizer.cpp — character tokenizer; id 0 is "unknown".
#include "engine.hpp"

namespace moe {

Tokenizer::Tokenizer() {
  int id = 1;
  for (char c = 'a'; c <= 'z'; ++c) table_[c] = id++;
  table_[' '] = id;
}

std::vector<int> Tokenizer::encode(const std::string& text) const {
  std::vector<int> ids;
  ids.reserve(text.size());
  for (char c : text) {
    auto it = table_.find(c);
    ids.push_back(it == table_.end() ? 0 : it->second);
  }
  return ids;
}

}  // namespace moe
