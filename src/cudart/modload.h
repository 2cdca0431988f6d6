/*
 * modload.h -- the GPU code a program registers with one fat-binary
 * wrapper, loaded onto the device: the PTX of an ordinary fat binary, or
 * the PTX of every translation unit of relocatable device code (nvcc
 * -rdc=true) linked into one module.
 */
#ifndef LOCKSTEP_CUDART_MODLOAD_H
#define LOCKSTEP_CUDART_MODLOAD_H

#include "lockstep.h"

/* Load the code behind `wrapper` (a __fatBinC_Wrapper_t).  prefix names
 * the PTX texts in messages: PREFIX.ptx, or PREFIX.tuK.ptx for unit K
 * (from 0, in registration order, which is the link order).  Returns the
 * module, or NULL with *why set to a malloc'd message (NULL when out of
 * host memory even for that). */
lockstep_module *cudart_load_fatbin(lockstep_device *dev, const void *wrapper, const char *prefix,
                                    char **why);

#endif
