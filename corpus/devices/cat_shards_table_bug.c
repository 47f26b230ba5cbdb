// provenance: blind round field4
// Sharded embedding table: shard devices come from a static const placement table; the
// gather concatenates all shards after moving them "to the first shard's device" — but the
// move helper skips shards whose table entry says they are already local, and shard 2's entry
// is wrong (it lives on sim:1, the table marks it local).
#include <dt/dt.h>
#include <stdio.h>

#define NSHARD 3
typedef struct { int ordinal; int local; } placement;
static const placement PLACE[NSHARD] = { {0, 1}, {1, 0}, {1, 1} };

int main(void) {
  dt_tensor *shard[NSHARD];
  for (int i = 0; i < NSHARD; i++)
    shard[i] = dt_full(dt_sim(PLACE[i].ordinal), (float)i, 2, (const int64_t[]){2, 3});
  dt_tensor *gathered[NSHARD];
  for (int i = 0; i < NSHARD; i++)
    gathered[i] = PLACE[i].local ? shard[i] : dt_to_device(shard[i], dt_sim(0));
  dt_tensor *all = dt_cat(NSHARD, gathered, 0); // expect-error: device-mismatch
  printf("%lld\n", (long long)dt_numel(all));
  return 0;
}
