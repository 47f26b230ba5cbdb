/* tests/ggml/runtime/emu_gpu.h — what the emulated GPU device (emu_gpu.c) tells the oracle's
 * fault trap (oracle_trap.c): which device's memory an address is in. */
#ifndef TC_EMU_GPU_H
#define TC_EMU_GPU_H

/* The emulated device (0, 1, ...) whose buffer holds addr, or -1 when no device memory does.
 * Async-signal-safe enough for a fault handler: it only reads the list of live mappings. */
int tc_emu_gpu_device_of(const void *addr);

#endif
