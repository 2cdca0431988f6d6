/*
 * driver.h -- the CUDA driver API's internals, shared by driver.c (state,
 * contexts, devices, memory, launches, streams, entry points), drvmodule.c
 * (modules, libraries, functions) and the generated driver_stubs.c.
 */
#ifndef LOCKSTEP_CUDART_DRIVER_H
#define LOCKSTEP_CUDART_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "cudart/cuda_drv.h"

/* One line of cuGetProcAddress's table (driver_stubs.c, from
 * driver13.procs): `name` asked for with a CUDA version of at least
 * `version` (and, when per_thread, per-thread default-stream semantics) is
 * export `fn`; `implemented` is 0 for a stub, which cuGetProcAddress does
 * not hand out.  Sorted by name, per_thread, version. */
typedef struct drv_proc {
    const char *name;
    uint32_t version;
    uint8_t per_thread, implemented;
    void (*fn)(void);
} drv_proc;
extern const drv_proc drv_procs[];
extern const size_t drv_nprocs;

/* A stub's body: the first call names the function on stderr (*said
 * remembers it), every call returns CUDA_ERROR_NOT_SUPPORTED. */
CUresult drv_not_supported(const char *name, int *said);

/* The CUresult for a runtime error code (the codes from 100 up are the
 * same numbers in both APIs; the runtime's own below 100 are mapped). */
CUresult drv_result(cudaError_t e);

/* Enter a driver call that needs a current context: 0 with the runtime's
 * lock held, or the error (not initialized, no current context, a sticky
 * fault) with it released.  Leave with drv_leave. */
CUresult drv_enter_ctx(void);
CUresult drv_leave(CUresult r);
/* The same without the context check (modules of the context-independent
 * library API, queries of handles). */
CUresult drv_enter(void);

/* Around a call of a runtime entry point from the driver: the runtime
 * binds no context to the thread (drv_bind_thread) and its last error is
 * left as it was.  drv_rt_begin returns what drv_rt_end restores. */
cudaError_t drv_rt_begin(void);
void drv_rt_end(cudaError_t saved);


#endif
