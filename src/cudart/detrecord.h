/*
 * detrecord.h -- the determinism record the runtime writes for `lockstep
 * detcheck` when LOCKSTEP_DET_RECORD is set (format: detrecord.c).
 */
#ifndef LOCKSTEP_CUDART_DETRECORD_H
#define LOCKSTEP_CUDART_DETRECORD_H

#include <stddef.h>
#include <stdint.h>

#include "lockstep.h"

/* Start the record if LOCKSTEP_DET_RECORD names a file: 1 if recording. */
int detrec_open(void);
/* After a launch: its kernel, status (lockstep_status), cycles. */
void detrec_launch(lockstep_device *dev, const char *kernel, int status, uint64_t cycles);
/* A device-to-host copy's bytes, as they arrived in host memory. */
void detrec_copy(const void *host, size_t n);
/* At exit: the live allocations, then close. */
void detrec_finish(lockstep_device *dev);

#endif
