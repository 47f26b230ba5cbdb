/* runtime/backends/sim/sim_memory.h — the device memory of the simulated devices: one arena per
 * ordinal and its allocator. Like a GPU's, sim's device addresses are not host addresses: each
 * arena is two mappings of the same size, the device address range handed out by alloc (kept
 * PROT_NONE for good, so any host access through a device pointer faults) and the backing store
 * that holds the bytes, whose address is never handed out. Copies and kernels translate device
 * addresses to backing addresses (dt_sim_memory_backing); nothing else can reach the data. */
#ifndef DT_SIM_MEMORY_H
#define DT_SIM_MEMORY_H

#include <stddef.h>

typedef struct dt_sim_memory dt_sim_memory;

/* The number of simulated devices: DT_SIM_DEVICES (1..64), else 2. */
int dt_sim_memory_device_count(void);
/* The arena of ordinal (created on first use; its size is DT_SIM_MEMORY bytes — a K, M or G
   suffix allowed — else the smaller of 16 GiB and the physical memory), or NULL with a reason
   in why. */
dt_sim_memory *dt_sim_memory_get(int ordinal, char *why, size_t why_len);

/* A device address of `bytes` (256-byte aligned; bytes may be 0); NULL when the arena is full. */
void *dt_sim_memory_alloc(dt_sim_memory *m, size_t bytes);
/* Returns 0, or -1 when p is not a live allocation of this arena. */
int dt_sim_memory_free(dt_sim_memory *m, void *p);
/* 1 when [p, p + bytes) lies inside allocated memory of this arena (not in free space nor in
   another arena): how run and the copies validate the pointers they are given. */
int dt_sim_memory_owns(dt_sim_memory *m, const void *p, size_t bytes);

/* Where the bytes at device address p live (p must be inside the arena: check with owns). */
void *dt_sim_memory_backing(dt_sim_memory *m, const void *p);

/* Bytes currently allocated from the arena (for tests). */
size_t dt_sim_memory_in_use(dt_sim_memory *m);

#endif /* DT_SIM_MEMORY_H */
