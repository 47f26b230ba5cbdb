// corpus/cxx/iterator_range_queue_clean.cpp — a MoCo-style queue of negative keys kept in a
// std::deque and stacked through a std::vector built from the deque's iterator pair
// (`std::vector<dt_tensor *> v(keys_.begin(), keys_.end())`): the vector's elements are the
// deque's. The queue keeps its keys on the key encoder's device (sim:1) while the queries are on
// sim:0; the stacked keys are moved to the queries' device before the matmul. Clean.
#include <cstdio>
#include <deque>
#include <vector>

#include <dt/dt.h>

namespace {

constexpr int kQueueBatches = 3;
const int64_t kKeyShape[2] = {2, 4};
const int64_t kQueryShape[2] = {2, 4};

class KeyQueue {
 public:
  explicit KeyQueue(dt_device where) : where_(where) {}
  ~KeyQueue() {
    for (dt_tensor *k : keys_) dt_free(k);
  }
  void push(const dt_tensor *keys) {
    keys_.push_back(dt_to_device(keys, where_));
    if (keys_.size() > kQueueBatches) {
      dt_free(keys_.front());
      keys_.pop_front();
    }
  }
  // [kQueueBatches * 2, 4]
  dt_tensor *stacked() const {
    std::vector<dt_tensor *> v(keys_.begin(), keys_.end());
    return dt_cat(static_cast<int>(v.size()), v.data(), 0);
  }

 private:
  dt_device where_;
  std::deque<dt_tensor *> keys_;
};

}  // namespace

int main() {
  KeyQueue queue(dt_sim(1));
  for (uint64_t i = 0; i < 4; i++) {
    dt_tensor *k = dt_randn(dt_sim(1), 100 + i, 2, kKeyShape);
    queue.push(k);
    dt_free(k);
  }
  dt_tensor *q = dt_randn(dt_sim(0), 7, 2, kQueryShape);
  dt_tensor *negs = queue.stacked();
  dt_tensor *negs_here = dt_to_device(negs, dt_sim(0));
  dt_tensor *negs_t = dt_transpose(negs_here);
  dt_tensor *logits = dt_matmul(q, negs_t);
  std::printf("logits: %lld x %lld\n", (long long)dt_dim(logits, 0), (long long)dt_dim(logits, 1));
  for (dt_tensor *t : {q, negs, negs_here, negs_t, logits}) dt_free(t);
  return 0;
}
