// provenance: blind round field6
// A load-balancing placement planner for an 8-block network: every block costs the same, and
// each block goes to the slot with the least used memory (ties to the lower index), counted
// in an array of slot structs.  So blocks alternate sim:0, sim:1, sim:0, ... and block i and
// block i+2 always share a device.  The network's skip connections go from block i to block
// i+2, and they are added WITHOUT a transfer: correct, but only provable by following the
// counters through the planner's loop.  Each block's input is moved explicitly.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

#define NSLOTS 2
#define NBLOCKS 8
#define W 3
#define COST 25

typedef struct slot_stat {
  dt_device dev;
  int used;
  int blocks;
} slot_stat;

typedef struct block {
  int slot;
  dt_device dev;
  dt_tensor *w;
  dt_tensor *out;
} block;

typedef struct net {
  slot_stat slots[NSLOTS];
  block blocks[NBLOCKS];
  int nblocks;
} net;

static const int64_t WS[2] = {W, W};
static const int64_t XS[2] = {2, W};

static int least_loaded(const slot_stat *s, int n) {
  int best = 0;
  for (int k = 1; k < n; k++)
    if (s[k].used < s[best].used)
      best = k;
  return best;
}

static void net_plan(net *m) {
  memset(m, 0, sizeof *m);
  m->slots[0].dev = dt_sim(0);
  m->slots[1].dev = dt_sim(1);
  for (int i = 0; i < NBLOCKS; i++) {
    int k = least_loaded(m->slots, NSLOTS);
    m->slots[k].used += COST;
    m->slots[k].blocks++;
    m->blocks[i].slot = k;
    m->blocks[i].dev = m->slots[k].dev;
    m->nblocks++;
  }
}

static void net_build(net *m) {
  for (int i = 0; i < m->nblocks; i++) {
    block *b = &m->blocks[i];
    dt_tensor *r = dt_randn(b->dev, (uint64_t)(40 + i), 2, WS);
    b->w = dt_mul_scalar(r, 0.4f);
    dt_free(r);
    b->out = NULL;
  }
}

static void net_free(net *m) {
  for (int i = 0; i < m->nblocks; i++) {
    dt_free(m->blocks[i].w);
    dt_free(m->blocks[i].out);
  }
}

static dt_tensor *block_apply(const block *b, const dt_tensor *x) {
  dt_tensor *in = dt_to_device(x, b->dev);
  dt_tensor *h = dt_matmul(in, b->w);
  dt_tensor *a = dt_tanh(h);
  dt_free(in);
  dt_free(h);
  return a;
}

static dt_tensor *net_forward(net *m, const dt_tensor *x) {
  const dt_tensor *cur = x;
  for (int i = 0; i < m->nblocks; i++) {
    dt_tensor *o = block_apply(&m->blocks[i], cur);
    if (i >= 2) {
      dt_tensor *s = dt_add(o, m->blocks[i - 2].out);
      dt_free(o);
      o = s;
    }
    m->blocks[i].out = o;
    cur = o;
  }
  return dt_to_device(cur, dt_cpu());
}

static float checksum(const dt_tensor *t) {
  dt_tensor *s = dt_sum(t);
  float v = 0.0f;
  dt_read_floats(s, &v, 1);
  dt_free(s);
  return v;
}

int main(void) {
  net m;
  net_plan(&m);
  net_build(&m);
  for (int k = 0; k < NSLOTS; k++)
    printf("slot %d: %d blocks, %d used\n", k, m.slots[k].blocks, m.slots[k].used);

  float xv[2 * W] = {0.1f, 0.2f, 0.3f, -0.1f, -0.2f, -0.3f};
  dt_tensor *x = dt_from_floats(dt_cpu(), xv, 2, XS);
  dt_tensor *y = net_forward(&m, x);
  printf("checksum %.5f\n", (double)checksum(y));

  /* blocks 4 and 6 share slot 0: combine their weights in place */
  dt_tensor *tied = dt_add(m.blocks[4].w, m.blocks[6].w);
  /* blocks 5 and 7 share slot 1 */
  dt_tensor *tied2 = dt_sub(m.blocks[5].w, m.blocks[7].w);
  dt_tensor *tied2_here = dt_to_device(tied2, dt_device_of(tied));
  dt_tensor *both = dt_mul(tied, tied2_here);
  printf("tied %.5f\n", (double)checksum(both));

  dt_free(both);
  dt_free(tied2_here);
  dt_free(tied2);
  dt_free(tied);
  dt_free(y);
  dt_free(x);
  net_free(&m);
  return 0;
}
