/*
 * runtime.h -- pieces of the CUDA runtime replacement shared between its
 * files: the device's properties and attributes (props.c), and the stub
 * every unimplemented entry point returns through (stubs.c).
 */
#ifndef LOCKSTEP_CUDART_RUNTIME_H
#define LOCKSTEP_CUDART_RUNTIME_H

#include <stddef.h>

#include "cudart/cuda_abi.h"
#include "lockstep.h"

/* Print "NAME is not supported..." and return cudaErrorNotSupported. */
cudaError_t cudart_not_supported(const char *name);

unsigned cudart_num_sms(lockstep_device *dev);
void cudart_fill_properties(lockstep_device *dev, struct cudaDeviceProp *p);
/* 0 and *value, or -1 for an attribute lockstep does not know. */
int cudart_attribute(lockstep_device *dev, int attr, int *value);
/* Change one option of the live device (cudaDeviceSetLimit); 0 or -1. */
int cudart_set_option(lockstep_device *dev, const char *name, const char *value);
void cudart_free_user_allocations(lockstep_device *dev);
/* A host pointer through which [addr, addr+size) of device memory can be
 * read and written directly (for __managed__ variables), or NULL. */
void *cudart_device_host_view(lockstep_device *dev, lockstep_dptr addr, size_t size);

#endif
