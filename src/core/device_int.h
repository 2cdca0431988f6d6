/*
 * device_int.h -- internal hooks into a lockstep_device for code linked
 * into the same binary that needs more than the public API: the CUDA
 * runtime replacement (src/cudart) reads and adjusts the device's
 * configuration and device memory.  Not part of lockstep.h.
 */
#ifndef LOCKSTEP_DEVICE_INT_H
#define LOCKSTEP_DEVICE_INT_H

#include "core/config.h"
#include "exec/exec.h"
#include "lockstep.h"
#include "mem/devmem.h"

lockstep_config *device_config_mut(lockstep_device *dev);
devmem *device_devmem(lockstep_device *dev);
/* Free every lockstep_malloc'd buffer and device-heap block (a context
 * reset); module variables stay. */
void device_free_user_allocations(lockstep_device *dev);
/* Total simulated core cycles of the timing model and its clock (0 and 0
 * before the first timing-mode launch). */
uint64_t device_total_cycles(const lockstep_device *dev, double *core_mhz);

/* Attach mechanisms at the seams (exec.h) for the launches that follow:
 * interposers on the memory seam, in this order before the memory system
 * (n 0: none), and observers at the write point and the per-instruction
 * hook (trap: EXEC_TRAP_* bits, 0: none).  The arrays and structs must
 * outlive the launches. */
void device_set_interposers(lockstep_device *dev, const exec_interposer *chain, uint32_t n);
void device_set_hooks(lockstep_device *dev, const exec_hooks *hooks, uint32_t trap);

#endif
