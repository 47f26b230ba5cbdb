// blind round d15 — beam search over a tiny recurrent LM, with a repetition penalty.
// The decoding device comes from argv ("cpu" or "sim1", default sim:1). Token histories are
// int tensors grown with dt_cat, per-beam token counts are int tensors compared with dt_greater
// into a bool "seen" mask, and dt_where picks penalised or raw float logits. Beams are
// reordered by swapping pointers in arrays of tensors. Float, int and bool tensors sit side
// by side on one run-time device and are never combined in a way the runtime rejects.
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VOCAB 9
#define D 6
#define BEAM 3
#define MAX_LEN 5
#define EOS 0

typedef struct {
  dt_device dev;
  dt_tensor *embed; /* [VOCAB, D] */
  dt_tensor *rec;   /* [D, D] */
  dt_tensor *out;   /* [D, VOCAB] */
} tiny_lm;

typedef struct {
  dt_tensor *state;   /* [1, D] float */
  dt_tensor *history; /* [len] int, NULL when empty */
  dt_tensor *counts;  /* [1, VOCAB] int: how often each token was emitted */
  float score;
  int last, len, done;
} beam;

typedef struct {
  int parent, token;
  float score;
} candidate;

static void lm_init(tiny_lm *m, dt_device dev) {
  m->dev = dev;
  m->embed = dt_randn(dev, 21, 2, (const int64_t[]){VOCAB, D});
  dt_tensor *r = dt_randn(dev, 22, 2, (const int64_t[]){D, D});
  m->rec = dt_mul_scalar(r, 0.5f);
  m->out = dt_randn(dev, 23, 2, (const int64_t[]){D, VOCAB});
  dt_free(r);
}

static dt_tensor *onehot(dt_device dev, int tok) {
  float v[VOCAB];
  for (int i = 0; i < VOCAB; i++) v[i] = i == tok ? 1.0f : 0.0f;
  return dt_from_floats(dev, v, 2, (const int64_t[]){1, VOCAB});
}

static dt_tensor *lm_step(const tiny_lm *m, const dt_tensor *state, int tok) {
  dt_tensor *oh = onehot(m->dev, tok);
  dt_tensor *e = dt_matmul(oh, m->embed);
  dt_tensor *r = dt_matmul(state, m->rec);
  dt_tensor *s = dt_add(e, r);
  dt_tensor *h = dt_tanh(s);
  dt_free(oh);
  dt_free(e);
  dt_free(r);
  dt_free(s);
  return h;
}

static dt_tensor *log_softmax(const dt_tensor *logits) {
  dt_tensor *e = dt_exp(logits);
  dt_tensor *z = dt_sum(e);
  dt_tensor *lz = dt_log(z);
  dt_tensor *r = dt_sub(logits, lz);
  dt_free(e);
  dt_free(z);
  dt_free(lz);
  return r;
}

/* Tokens already emitted by this beam get their logit lowered by `penalty`. */
static dt_tensor *penalised_logits(const tiny_lm *m, const beam *b, float penalty) {
  dt_tensor *logits = dt_matmul(b->state, m->out);
  dt_tensor *none = dt_zeros(m->dev, DT_INT, 2, (const int64_t[]){1, VOCAB});
  dt_tensor *seen = dt_greater(b->counts, none);
  dt_tensor *lowered = dt_add_scalar(logits, -penalty);
  dt_tensor *picked = dt_where(seen, lowered, logits);
  dt_tensor *lp = log_softmax(picked);
  dt_free(logits);
  dt_free(none);
  dt_free(seen);
  dt_free(lowered);
  dt_free(picked);
  return lp;
}

static dt_tensor *append_token(dt_device dev, const dt_tensor *history, int tok) {
  int64_t t = tok;
  dt_tensor *one = dt_from_ints(dev, &t, 1, (const int64_t[]){1});
  if (history == NULL) return one;
  dt_tensor *parts[2] = {(dt_tensor *)history, one};
  dt_tensor *r = dt_cat(2, parts, 0);
  dt_free(one);
  return r;
}

static dt_tensor *bump_count(dt_device dev, const dt_tensor *counts, int tok) {
  int64_t v[VOCAB];
  for (int i = 0; i < VOCAB; i++) v[i] = i == tok;
  dt_tensor *inc = dt_from_ints(dev, v, 2, (const int64_t[]){1, VOCAB});
  dt_tensor *r = dt_add(counts, inc);
  dt_free(inc);
  return r;
}

static int cmp_cand(const void *a, const void *b) {
  float x = ((const candidate *)a)->score, y = ((const candidate *)b)->score;
  return (x < y) - (x > y);
}

static void beam_free(beam *b) {
  dt_free(b->state);
  dt_free(b->history);
  dt_free(b->counts);
}

static int search(const tiny_lm *m, int bos, float penalty, beam out[BEAM]) {
  beam cur[BEAM];
  int n_cur = 1;
  cur[0].state = dt_zeros(m->dev, DT_FLOAT, 2, (const int64_t[]){1, D});
  cur[0].history = NULL;
  cur[0].counts = dt_zeros(m->dev, DT_INT, 2, (const int64_t[]){1, VOCAB});
  cur[0].score = 0.0f;
  cur[0].last = bos;
  cur[0].len = 0;
  cur[0].done = 0;
  for (int step = 0; step < MAX_LEN; step++) {
    candidate cand[BEAM * VOCAB];
    int n_cand = 0;
    for (int b = 0; b < n_cur; b++) {
      if (cur[b].done) {
        cand[n_cand++] = (candidate){b, -1, cur[b].score};
        continue;
      }
      dt_tensor *h = lm_step(m, cur[b].state, cur[b].last);
      dt_free(cur[b].state);
      cur[b].state = h;
      dt_tensor *lp = penalised_logits(m, &cur[b], penalty);
      float host[VOCAB];
      dt_read_floats(lp, host, VOCAB);
      dt_free(lp);
      for (int v = 0; v < VOCAB; v++) cand[n_cand++] = (candidate){b, v, cur[b].score + host[v]};
    }
    qsort(cand, (size_t)n_cand, sizeof cand[0], cmp_cand);
    beam next[BEAM];
    int n_next = n_cand < BEAM ? n_cand : BEAM;
    for (int k = 0; k < n_next; k++) {
      const beam *p = &cur[cand[k].parent];
      beam *nb = &next[k];
      nb->state = dt_add_scalar(p->state, 0.0f); /* a private copy: parents can be shared */
      nb->score = cand[k].score;
      if (cand[k].token < 0) {
        nb->history = p->history ? dt_add_scalar(p->history, 0.0f) : NULL;
        nb->counts = dt_add_scalar(p->counts, 0.0f);
        nb->last = p->last;
        nb->len = p->len;
        nb->done = 1;
      } else {
        nb->history = append_token(m->dev, p->history, cand[k].token);
        nb->counts = bump_count(m->dev, p->counts, cand[k].token);
        nb->last = cand[k].token;
        nb->len = p->len + 1;
        nb->done = cand[k].token == EOS;
      }
    }
    for (int b = 0; b < n_cur; b++) beam_free(&cur[b]);
    memcpy(cur, next, sizeof next);
    n_cur = n_next;
  }
  memcpy(out, cur, sizeof cur);
  return n_cur;
}

/* Length-normalised final scores, computed on the device: finished beams keep their score. */
static void final_scores(const tiny_lm *m, const beam *beams, int n, float *res) {
  float sc[BEAM], ln[BEAM];
  int64_t fin[BEAM], zero[BEAM] = {0};
  for (int i = 0; i < n; i++) {
    sc[i] = beams[i].score;
    ln[i] = (float)(beams[i].len > 0 ? beams[i].len : 1);
    fin[i] = beams[i].done;
  }
  const int64_t shape[] = {n};
  dt_tensor *s = dt_from_floats(m->dev, sc, 1, shape);
  dt_tensor *l = dt_from_floats(m->dev, ln, 1, shape);
  dt_tensor *f = dt_from_ints(m->dev, fin, 1, shape);
  dt_tensor *z = dt_from_ints(m->dev, zero, 1, shape);
  dt_tensor *done = dt_greater(f, z);
  dt_tensor *norm = dt_div(s, l);
  dt_tensor *r = dt_where(done, s, norm);
  dt_read_floats(r, res, n);
  dt_tensor *tmp[] = {s, l, f, z, done, norm, r};
  for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
}

int main(int argc, char **argv) {
  dt_device dev = (argc > 1 && strcmp(argv[1], "cpu") == 0) ? dt_cpu() : dt_sim(1);
  float penalty = argc > 2 ? (float)atof(argv[2]) : 1.5f;
  tiny_lm m;
  lm_init(&m, dev);
  beam best[BEAM];
  int n = search(&m, 3, penalty, best);
  float scores[BEAM];
  final_scores(&m, best, n, scores);
  for (int i = 0; i < n; i++) {
    int64_t toks[MAX_LEN];
    int len = best[i].history ? (int)dt_numel(best[i].history) : 0;
    if (best[i].history) dt_read_ints(best[i].history, toks, MAX_LEN);
    printf("beam %d (%.3f):", i, scores[i]);
    for (int t = 0; t < len; t++) printf(" %lld", (long long)toks[t]);
    printf("\n");
    beam_free(&best[i]);
  }
  dt_free(m.embed);
  dt_free(m.rec);
  dt_free(m.out);
  return 0;
}
