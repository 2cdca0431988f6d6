/*
 * device_int.h -- internal hooks into a lockstep_device for code linked
 * into the same binary that needs more than the public API: the CUDA
 * runtime replacement (src/cudart) reads and adjusts the device's
 * configuration and device memory.  Not part of lockstep.h.
 */
#ifndef LOCKSTEP_DEVICE_INT_H
#define LOCKSTEP_DEVICE_INT_H

#include "core/config.h"
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

#endif
