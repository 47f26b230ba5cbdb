// provenance: blind round cxx1
// C++ casts around tensor handles and devices: a callback-style API passes a `void *` user
// pointer that is static_cast back to the context, a reinterpret_cast views a header struct,
// and a device is assembled from integers with static_cast<dt_backend>. The "replica" device
// is built as {SIM, 1} while the context's activations live on sim:0: device-mismatch.
#include <dt/dt.h>

#include <cstdint>
#include <cstdio>

namespace rt {

struct Context {
  dt_device dev;
  dt_tensor *activations;
};

struct PackedDevice {
  int32_t backend;
  int32_t ordinal;
};

struct Header {
  PackedDevice device;
  int32_t reserved;
};

using Callback = void (*)(void *user, int step);

void for_each_step(int steps, Callback cb, void *user) {
  for (int i = 0; i < steps; ++i) cb(user, i);
}

dt_device unpack(const PackedDevice &p) {
  dt_device d{};
  d.backend = static_cast<dt_backend>(p.backend);
  d.ordinal = static_cast<int>(p.ordinal);
  d.autodiff = 0;
  return d;
}

void accumulate(void *user, int step) {
  Context *ctx = static_cast<Context *>(user);
  const int64_t shape[] = {2, 2};
  dt_tensor *delta = dt_full(ctx->dev, 0.5f * static_cast<float>(step), 2, shape);
  dt_tensor *next = dt_add(ctx->activations, delta);
  dt_free(delta);
  dt_free(ctx->activations);
  ctx->activations = next;
}

}  // namespace rt

int main() {
  const int64_t shape[] = {2, 2};
  alignas(rt::Header) unsigned char raw[sizeof(rt::Header)] = {};
  rt::Header *hdr = reinterpret_cast<rt::Header *>(raw);
  hdr->device.backend = static_cast<int32_t>(DT_BACKEND_SIM);
  hdr->device.ordinal = 0;

  rt::Context ctx{rt::unpack(hdr->device), nullptr};
  ctx.activations = dt_zeros(ctx.dev, DT_FLOAT, 2, shape);
  rt::for_each_step(3, &rt::accumulate, static_cast<void *>(&ctx));

  // The replica header is filled from a second packed record: ordinal 1.
  rt::PackedDevice replica_rec{static_cast<int32_t>(DT_BACKEND_SIM), 1};
  const dt_device replica = rt::unpack(replica_rec);
  dt_tensor *replica_acts = dt_ones(replica, DT_FLOAT, 2, shape);

  const dt_tensor *a = const_cast<const dt_tensor *>(ctx.activations);
  dt_tensor *diff = dt_sub(a, replica_acts); // expect-error: device-mismatch
  std::printf("diff %s\n", diff ? "ok" : "failed");
  dt_free(diff);
  dt_free(replica_acts);
  dt_free(ctx.activations);
  return 0;
}
