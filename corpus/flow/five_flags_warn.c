// provenance: blind round field6
// A small encoder-decoder whose five parts are placed independently from command-line flags
// (--emb-sim, --enc-sim, --dec-sim, --head-sim, --loss-sim): each part goes to sim:0 when its
// flag is given and to the cpu otherwise.  Every part moves its input to its own device,
// except the residual connection in encode(), which adds the embedding's bias (on the
// embedding's device) to the encoder output (on the encoder's device): a backend mismatch
// whenever exactly one of --emb-sim / --enc-sim is given.
// run-args: --emb-sim
// (run with --emb-sim: embedding on sim:0, encoder on cpu -> backend-mismatch at the residual)
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

#define D 4

typedef struct opts {
  int emb_sim, enc_sim, dec_sim, head_sim, loss_sim;
} opts;

typedef struct part {
  dt_device dev;
  dt_tensor *w;
  dt_tensor *bias;
} part;

static const int64_t WS[2] = {D, D};
static const int64_t BS[1] = {D};
static const int64_t XS[2] = {1, D};

static void parse(opts *o, int argc, char **argv) {
  memset(o, 0, sizeof *o);
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--emb-sim") == 0) o->emb_sim = 1;
    else if (strcmp(argv[i], "--enc-sim") == 0) o->enc_sim = 1;
    else if (strcmp(argv[i], "--dec-sim") == 0) o->dec_sim = 1;
    else if (strcmp(argv[i], "--head-sim") == 0) o->head_sim = 1;
    else if (strcmp(argv[i], "--loss-sim") == 0) o->loss_sim = 1;
  }
}

static void part_init(part *p, dt_device d, uint64_t seed) {
  p->dev = d;
  p->w = dt_randn(d, seed, 2, WS);
  p->bias = dt_full(d, 0.1f, 1, BS);
}

static void part_free(part *p) {
  dt_free(p->w);
  dt_free(p->bias);
}

static dt_tensor *apply(const part *p, const dt_tensor *x) {
  dt_tensor *in = dt_to_device(x, p->dev);
  dt_tensor *h = dt_matmul(in, p->w);
  dt_tensor *o = dt_add(h, p->bias);
  dt_free(in);
  dt_free(h);
  return o;
}

static dt_tensor *encode(const part *emb, const part *enc, const dt_tensor *x) {
  dt_tensor *e = apply(emb, x);
  dt_tensor *h = apply(enc, e);
  dt_tensor *r = dt_add(h, emb->bias); // expect-warning: backend-mismatch
  dt_free(e);
  dt_free(h);
  return r;
}

int main(int argc, char **argv) {
  opts o;
  parse(&o, argc, argv);
  dt_device d_emb, d_enc, d_dec, d_head, d_loss;
  if (o.emb_sim) d_emb = dt_sim(0); else d_emb = dt_cpu();
  if (o.enc_sim) d_enc = dt_sim(0); else d_enc = dt_cpu();
  if (o.dec_sim) d_dec = dt_sim(0); else d_dec = dt_cpu();
  if (o.head_sim) d_head = dt_sim(0); else d_head = dt_cpu();
  if (o.loss_sim) d_loss = dt_sim(0); else d_loss = dt_cpu();

  part emb, enc, dec, head;
  part_init(&emb, d_emb, 1);
  part_init(&enc, d_enc, 2);
  part_init(&dec, d_dec, 3);
  part_init(&head, d_head, 4);

  float xv[D] = {1, 0, 0, 1};
  dt_tensor *x = dt_from_floats(dt_cpu(), xv, 2, XS);
  dt_tensor *h = encode(&emb, &enc, x);
  dt_tensor *z = apply(&dec, h);
  dt_tensor *y = apply(&head, z);

  dt_tensor *yl = dt_to_device(y, d_loss);
  dt_tensor *target = dt_zeros(d_loss, DT_FLOAT, 2, XS);
  dt_tensor *loss = dt_mse_loss(yl, target);
  float v = 0.0f;
  dt_read_floats(loss, &v, 1);
  printf("loss %.4f\n", (double)v);

  dt_free(loss);
  dt_free(target);
  dt_free(yl);
  dt_free(y);
  dt_free(z);
  dt_free(h);
  dt_free(x);
  part_free(&emb);
  part_free(&enc);
  part_free(&dec);
  part_free(&head);
  return 0;
}
