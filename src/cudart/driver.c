/*
 * driver.c -- the CUDA driver API (libcuda.so.1): initialization, devices,
 * contexts, memory, launches, streams, events, error names and
 * cuGetProcAddress.  libcuda.so.1 is libcudart.so.13 under a second name
 * (build/lib/libcuda.so.1 is a link to it), so both APIs share one device,
 * one memory and one set of streams: most driver functions here check the
 * driver's own state (cuInit, a current context) and then call the
 * runtime's entry point that does the same thing, keeping the thread's
 * runtime last error as it was (the driver API has none).
 *
 * DESIGN
 * - Contexts are checked handles (H_CONTEXT) of the runtime's table.  All
 *   of them stand for the one simulated device: cuCtxCreate makes a new
 *   handle and pushes it, and memory, modules and streams are not tied to
 *   the context that made them (destroying a context frees none of them).
 *   Each thread has its own stack of current contexts; a thread that calls
 *   the runtime API without one gets the primary context bound, as CUDA's
 *   runtime does (drv_bind_thread).
 * - Modules, libraries and functions are drvmodule.c's.
 * - Every other export of the real driver is a generated stub
 *   (driver_stubs.c, gen_driver.py) that names itself once on stderr and
 *   returns CUDA_ERROR_NOT_SUPPORTED.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/cuda_api.h"
#include "cudart/driver.h"
#include "cudart/runtime.h"

/* ---- state ------------------------------------------------------------------------------ */

typedef struct drv_ctx {
    unsigned flags;
    int primary;
    unsigned long long id;
} drv_ctx;

#define CTX_STACK 64

static struct {
    atomic_int initialized;   /* cuInit succeeded */
    CUcontext primary;        /* the primary context's handle, once made */
    drv_ctx primary_obj;
    int primary_refs;         /* cuDevicePrimaryCtxRetain's count */
    unsigned long long next_id;
} drv = {.primary_obj = {0, 1, 1}, .next_id = 2};

static _Thread_local CUcontext ctx_stack[CTX_STACK];
static _Thread_local int ctx_depth;
static _Thread_local int in_driver; /* a driver call is inside the runtime */

/* ---- errors ------------------------------------------------------------------------------- */

CUresult drv_not_supported(const char *name, int *said)
{
    if (!*said) {
        *said = 1;
        cudart_say("%s is not supported by lockstep's CUDA driver (CUDA_ERROR_NOT_SUPPORTED)",
                   name);
    }
    return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult drv_result(cudaError_t e)
{
    switch ((int)e) {
    case 0: case 1: case 2: case 3: case 4: case 46: return (CUresult)e;
    case 13: return CUDA_ERROR_NOT_FOUND;          /* cudaErrorInvalidSymbol */
    case 98: return CUDA_ERROR_INVALID_HANDLE;     /* cudaErrorInvalidDeviceFunction */
    case 35: return CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER;
    default:
        /* from 100 up the runtime's codes are the driver's; below, the
         * runtime's own codes are about a bad argument */
        return (int)e >= 100 ? (CUresult)e : CUDA_ERROR_INVALID_VALUE;
    }
}

/* Whether the calling thread may use the driver now: 0 with the lock held
 * (ctx: a current, live context is needed too). */
static CUresult enter(int ctx)
{
    if (!drv.initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    cudaError_t e = cudart_drv_enter(1);
    if (e)
        return drv_result(e);
    if (ctx) {
        if (!ctx_depth || !ctx_stack[ctx_depth - 1]) {
            cudart_drv_leave();
            return CUDA_ERROR_INVALID_CONTEXT;
        }
        if (!cudart_handle_live(ctx_stack[ctx_depth - 1], H_CONTEXT)) {
            cudart_drv_leave();
            return CUDA_ERROR_CONTEXT_IS_DESTROYED;
        }
    }
    return CUDA_SUCCESS;
}

CUresult drv_enter_ctx(void) { return enter(1); }
CUresult drv_enter(void) { return enter(0); }

CUresult drv_leave(CUresult r)
{
    cudart_drv_leave();
    return r;
}

/* The checks of a driver call that then goes through a runtime entry
 * point (which takes the lock itself). */
static CUresult check_ctx(void)
{
    CUresult r = enter(1);
    return r ? r : drv_leave(CUDA_SUCCESS);
}

/* Call a runtime entry point for the driver: its error as a CUresult, the
 * thread's runtime last error left as it was. */
#define VIA_RT(call)                                                                       \
    do {                                                                                   \
        CUresult r_ = check_ctx();                                                         \
        if (r_)                                                                            \
            return r_;                                                                     \
        cudaError_t saved_ = drv_rt_begin();                                               \
        cudaError_t e_ = (call);                                                           \
        drv_rt_end(saved_);                                                                \
        return drv_result(e_);                                                             \
    } while (0)

cudaError_t drv_rt_begin(void)
{
    in_driver++;
    return cudart_last_error();
}

void drv_rt_end(cudaError_t saved)
{
    cudart_set_last_error(saved);
    in_driver--;
}

/* The primary context's handle, made on first use (lock held); NULL when
 * out of memory. */
static CUcontext primary(void)
{
    if (!drv.primary || !cudart_handle_live(drv.primary, H_CONTEXT))
        drv.primary = cudart_handle_new(H_CONTEXT, &drv.primary_obj);
    return drv.primary;
}

void drv_bind_thread(void)
{
    /* the runtime initializes the driver, as CUDA's does: no cuInit
     * needed after a runtime call */
    if (!drv.initialized)
        drv.initialized = 1;
    if (in_driver || (ctx_depth && ctx_stack[ctx_depth - 1]))
        return;
    CUcontext c = primary();
    if (!c)
        return;
    if (!ctx_depth)
        ctx_depth = 1;
    ctx_stack[ctx_depth - 1] = c;
}

/* ---- initialization, versions, error names ------------------------------------------------ */

CUDRV_API CUresult cuInit(unsigned int Flags)
{
    if (Flags)
        return CUDA_ERROR_INVALID_VALUE;
    cudaError_t e = cudart_drv_enter(0);
    if (e)
        return CUDA_ERROR_NO_DEVICE;
    drv.initialized = 1;
    cudart_drv_leave();
    return CUDA_SUCCESS;
}

CUDRV_API CUresult cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = CUDA_DRIVER_VERSION;
    return CUDA_SUCCESS;
}

/* What a few results mean; the others are described by their names. */
static const char *result_text(CUresult r)
{
    switch (r) {
    case CUDA_SUCCESS: return "no error";
    case CUDA_ERROR_INVALID_VALUE: return "invalid argument";
    case CUDA_ERROR_OUT_OF_MEMORY: return "out of memory";
    case CUDA_ERROR_NOT_INITIALIZED: return "initialization error";
    case CUDA_ERROR_NO_DEVICE: return "no CUDA-capable device is detected";
    case CUDA_ERROR_INVALID_DEVICE: return "invalid device ordinal";
    case CUDA_ERROR_INVALID_IMAGE: return "device kernel image is invalid";
    case CUDA_ERROR_INVALID_CONTEXT: return "invalid device context";
    case CUDA_ERROR_NO_BINARY_FOR_GPU: return "no kernel image is available for execution on the device";
    case CUDA_ERROR_INVALID_PTX: return "a PTX JIT compilation failed";
    case CUDA_ERROR_FILE_NOT_FOUND: return "file not found";
    case CUDA_ERROR_INVALID_HANDLE: return "invalid resource handle";
    case CUDA_ERROR_NOT_FOUND: return "named symbol not found";
    case CUDA_ERROR_NOT_READY: return "device not ready";
    case CUDA_ERROR_ILLEGAL_ADDRESS: return "an illegal memory access was encountered";
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: return "too many resources requested for launch";
    case CUDA_ERROR_LAUNCH_TIMEOUT: return "the launch timed out and was terminated";
    case CUDA_ERROR_CONTEXT_IS_DESTROYED: return "context is destroyed";
    case CUDA_ERROR_ASSERT: return "device-side assert triggered";
    case CUDA_ERROR_MISALIGNED_ADDRESS: return "misaligned address";
    case CUDA_ERROR_LAUNCH_FAILED: return "unspecified launch failure";
    case CUDA_ERROR_NOT_SUPPORTED: return "operation not supported";
    case CUDA_ERROR_UNKNOWN: return "unknown error";
    default: return NULL;
    }
}

static const char *result_name(CUresult r)
{
    switch (r) {
#define X(name, value)                                                                     \
    case value: return #name;
        CU_RESULTS(X)
#undef X
    default: return NULL;
    }
}

CUDRV_API CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    *pStr = result_name(error);
    return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUDRV_API CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    *pStr = result_text(error);
    if (!*pStr)
        *pStr = result_name(error);
    return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* ---- cuGetProcAddress ---------------------------------------------------------------------- */

/* The export `symbol` means at `version` (per-thread default stream or
 * not): the table's last entry at or below the version. */
static CUresult find_proc(const char *symbol, void **pfn, int version, cuuint64_t flags,
                          CUdriverProcAddressQueryResult *status)
{
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (pfn)
        *pfn = NULL;
    if (!symbol || !pfn || version <= 0) {
        if (status)
            *status = st;
        return CUDA_ERROR_INVALID_VALUE;
    }
    int ptds = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
    const drv_proc *best = NULL;
    for (int pass = ptds; pass >= 0 && !best; pass--)
        for (size_t i = 0; i < drv_nprocs; i++) {
            const drv_proc *p = &drv_procs[i];
            if (strcmp(p->name, symbol) || p->per_thread != pass)
                continue;
            if (p->version > (uint32_t)version) {
                if (st == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND)
                    st = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
                continue;
            }
            best = p;
        }
    CUresult r = CUDA_ERROR_NOT_FOUND;
    if (best && best->implemented) {
        *pfn = (void *)best->fn;
        st = CU_GET_PROC_ADDRESS_SUCCESS;
        r = CUDA_SUCCESS;
    } else if (best) {
        st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND; /* a stub is not handed out */
    }
    if (status)
        *status = st;
    return r;
}

CUDRV_API CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
                                    cuuint64_t flags)
{
    return find_proc(symbol, pfn, cudaVersion, flags, NULL);
}

CUDRV_API CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
                                       cuuint64_t flags,
                                       CUdriverProcAddressQueryResult *symbolStatus)
{
    return find_proc(symbol, pfn, cudaVersion, flags, symbolStatus);
}

CUDRV_API CUresult cuGetProcAddress_v2_ptsz(const char *symbol, void **pfn, int cudaVersion,
                                            cuuint64_t flags,
                                            CUdriverProcAddressQueryResult *symbolStatus)
{
    return find_proc(symbol, pfn, cudaVersion, flags, symbolStatus);
}

CUDART_API cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
                                                        unsigned int cudaVersion,
                                                        unsigned long long flags,
                                                        int *driverStatus)
{
    CUdriverProcAddressQueryResult st;
    CUresult r = find_proc(symbol, funcPtr, (int)cudaVersion, flags, &st);
    if (driverStatus)
        *driverStatus = st;
    if (r == CUDA_ERROR_INVALID_VALUE)
        return cudart_error(cudaErrorInvalidValue);
    return cudaSuccess; /* not found is said in *driverStatus, as CUDA does */
}

CUDART_API cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr,
                                                             unsigned int cudaVersion,
                                                             unsigned long long flags,
                                                             int *driverStatus)
{
    return cudaGetDriverEntryPointByVersion(symbol, funcPtr, cudaVersion, flags, driverStatus);
}

CUDART_API cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
                                               unsigned long long flags, int *driverStatus)
{
    return cudaGetDriverEntryPointByVersion(symbol, funcPtr, CUDA_DRIVER_VERSION, flags,
                                            driverStatus);
}

CUDART_API cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                                    unsigned long long flags, int *driverStatus)
{
    return cudaGetDriverEntryPoint(symbol, funcPtr, flags, driverStatus);
}

CUDART_API cudaError_t cudaGetFuncBySymbol(cudaKernel_t *functionPtr, const void *symbolPtr)
{
    return __cudaGetKernel(functionPtr, symbolPtr);
}

CUDART_API cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

/* ---- devices ---------------------------------------------------------------------------------- */

static CUresult check_device(CUdevice dev)
{
    if (!drv.initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUDRV_API CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    if (!drv.initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUDRV_API CUresult cuDeviceGetCount(int *count)
{
    if (!drv.initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    *count = 1;
    return CUDA_SUCCESS;
}

/* The device's properties, through the runtime. */
static CUresult props(struct cudaDeviceProp *p, CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r)
        return r;
    cudaError_t saved = drv_rt_begin();
    cudaError_t e = cudaGetDeviceProperties(p, 0);
    drv_rt_end(saved);
    return drv_result(e);
}

CUDRV_API CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    if (!name || len <= 0)
        return check_device(dev) ? check_device(dev) : CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    CUresult r = props(&p, dev);
    if (!r)
        snprintf(name, (size_t)len, "%s", p.name);
    return r;
}

CUDRV_API CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    if (!uuid)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    CUresult r = props(&p, dev);
    if (!r)
        memcpy(uuid->bytes, &p.uuid, sizeof uuid->bytes);
    return r;
}

CUDRV_API CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev) { return cuDeviceGetUuid(uuid, dev); }

CUDRV_API CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    if (!bytes)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    CUresult r = props(&p, dev);
    if (!r)
        *bytes = p.totalGlobalMem;
    return r;
}

CUDRV_API CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    if (!major || !minor)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    CUresult r = props(&p, dev);
    if (!r) {
        *major = p.major;
        *minor = p.minor;
    }
    return r;
}

/* The driver's attribute numbers are the runtime's cudaDeviceAttr values. */
CUDRV_API CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r)
        return r;
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    cudaError_t saved = drv_rt_begin();
    cudaError_t e = cudaDeviceGetAttribute(pi, attrib, 0);
    drv_rt_end(saved);
    return drv_result(e);
}

/* ---- contexts ---------------------------------------------------------------------------------- */

static CUresult push(CUcontext c)
{
    if (ctx_depth == CTX_STACK) {
        cudart_say("cuCtxPushCurrent: more than %d contexts pushed on one thread", CTX_STACK);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    ctx_stack[ctx_depth++] = c;
    return CUDA_SUCCESS;
}

CUDRV_API CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r)
        return r;
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = drv_enter()))
        return r;
    CUcontext c = primary();
    if (!c)
        return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
    drv.primary_refs++;
    *pctx = c;
    return drv_leave(CUDA_SUCCESS);
}

CUDRV_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r || (r = drv_enter()))
        return r;
    if (!drv.primary_refs)
        return drv_leave(CUDA_ERROR_INVALID_CONTEXT);
    drv.primary_refs--; /* the primary context lives on: the runtime uses it */
    return drv_leave(CUDA_SUCCESS);
}

CUDRV_API CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return cuDevicePrimaryCtxRelease_v2(dev); }

/* Reset the primary context: as cudaDeviceReset, every allocation is
 * freed and a sticky fault cleared; loaded modules stay. */
CUDRV_API CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r)
        return r;
    cudaError_t saved = drv_rt_begin();
    cudaError_t e = cudaDeviceReset();
    drv_rt_end(saved);
    return drv_result(e);
}

CUDRV_API CUresult cuDevicePrimaryCtxReset(CUdevice dev) { return cuDevicePrimaryCtxReset_v2(dev); }

CUDRV_API CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
    CUresult r = check_device(dev);
    if (r)
        return r;
    if (flags & ~(unsigned)CU_CTX_FLAGS_MASK)
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = drv_enter()))
        return r;
    drv.primary_obj.flags = flags;
    return drv_leave(CUDA_SUCCESS);
}

CUDRV_API CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}

CUDRV_API CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    CUresult r = check_device(dev);
    if (r)
        return r;
    if (!flags || !active)
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = drv_enter()))
        return r;
    *flags = drv.primary_obj.flags;
    *active = drv.primary_refs > 0;
    return drv_leave(CUDA_SUCCESS);
}

/* A new context, made current (pushed) on this thread. */
static CUresult ctx_create(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r)
        return r;
    if (!pctx || (flags & ~(unsigned)CU_CTX_FLAGS_MASK))
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = drv_enter()))
        return r;
    drv_ctx *o = calloc(1, sizeof *o);
    CUcontext c = o ? cudart_handle_new(H_CONTEXT, o) : NULL;
    if (!c) {
        free(o);
        return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
    }
    o->flags = flags;
    o->id = drv.next_id++;
    r = push(c);
    if (r) {
        cudart_handle_free(c, H_CONTEXT);
        free(o);
        return drv_leave(r);
    }
    *pctx = c;
    return drv_leave(CUDA_SUCCESS);
}

CUDRV_API CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return ctx_create(pctx, flags, dev);
}

CUDRV_API CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
                                  unsigned int flags, CUdevice dev)
{
    if (ctxCreateParams &&
        (ctxCreateParams->numExecAffinityParams || ctxCreateParams->cigParams)) {
        cudart_say("cuCtxCreate: execution affinity and CIG contexts are not supported by "
                   "lockstep (CUDA_ERROR_NOT_SUPPORTED)");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    return ctx_create(pctx, flags, dev);
}

CUDRV_API CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    drv_ctx *o = cudart_handle_obj(ctx, H_CONTEXT);
    if (!o)
        return drv_leave(CUDA_ERROR_INVALID_CONTEXT);
    if (o->primary)
        return drv_leave(CUDA_ERROR_INVALID_CONTEXT);
    /* what the context ran is complete (functional execution); its
     * memory, modules and streams are the device's and stay */
    cudart_sync_point();
    int k = 0;
    for (int i = 0; i < ctx_depth; i++)
        if (ctx_stack[i] != ctx)
            ctx_stack[k++] = ctx_stack[i];
    ctx_depth = k;
    cudart_handle_free(ctx, H_CONTEXT);
    free(o);
    return drv_leave(CUDA_SUCCESS);
}

CUDRV_API CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    if (!cudart_handle_live(ctx, H_CONTEXT))
        return drv_leave(CUDA_ERROR_INVALID_CONTEXT);
    return drv_leave(push(ctx));
}

CUDRV_API CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
    if (!drv.initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!ctx_depth || !ctx_stack[ctx_depth - 1])
        return CUDA_ERROR_INVALID_CONTEXT;
    CUcontext c = ctx_stack[--ctx_depth];
    if (pctx)
        *pctx = c;
    return CUDA_SUCCESS;
}

CUDRV_API CUresult cuCtxSetCurrent(CUcontext ctx)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    if (!ctx) {
        if (ctx_depth)
            ctx_depth--;
        return drv_leave(CUDA_SUCCESS);
    }
    if (!cudart_handle_live(ctx, H_CONTEXT))
        return drv_leave(CUDA_ERROR_INVALID_CONTEXT);
    if (!ctx_depth)
        ctx_depth = 1;
    ctx_stack[ctx_depth - 1] = ctx;
    return drv_leave(CUDA_SUCCESS);
}

CUDRV_API CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    if (!drv.initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    *pctx = ctx_depth ? ctx_stack[ctx_depth - 1] : NULL;
    return CUDA_SUCCESS;
}

CUDRV_API CUresult cuCtxGetDevice(CUdevice *device)
{
    CUresult r = check_ctx();
    if (r)
        return r;
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUDRV_API CUresult cuCtxGetFlags(unsigned int *flags)
{
    CUresult r = drv_enter_ctx();
    if (r)
        return r;
    if (!flags)
        return drv_leave(CUDA_ERROR_INVALID_VALUE);
    drv_ctx *o = cudart_handle_obj(ctx_stack[ctx_depth - 1], H_CONTEXT);
    *flags = o ? o->flags : 0;
    return drv_leave(CUDA_SUCCESS);
}

CUDRV_API CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    if (!ctx && ctx_depth)
        ctx = ctx_stack[ctx_depth - 1];
    drv_ctx *o = cudart_handle_obj(ctx, H_CONTEXT);
    if (!o)
        return drv_leave(CUDA_ERROR_INVALID_CONTEXT);
    if (!ctxId)
        return drv_leave(CUDA_ERROR_INVALID_VALUE);
    *ctxId = o->id;
    return drv_leave(CUDA_SUCCESS);
}

CUDRV_API CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    if (!ctx && ctx_depth)
        ctx = ctx_stack[ctx_depth - 1];
    if (!cudart_handle_live(ctx, H_CONTEXT))
        return drv_leave(CUDA_ERROR_INVALID_CONTEXT);
    if (!version)
        return drv_leave(CUDA_ERROR_INVALID_VALUE);
    *version = 3020; /* what CUDA reports for every context since the _v2 API */
    return drv_leave(CUDA_SUCCESS);
}

CUDRV_API CUresult cuCtxSynchronize(void) { VIA_RT(cudaDeviceSynchronize()); }

CUDRV_API CUresult cuCtxSetLimit(CUlimit limit, size_t value) { VIA_RT(cudaDeviceSetLimit(limit, value)); }

CUDRV_API CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit) { VIA_RT(cudaDeviceGetLimit(pvalue, limit)); }

CUDRV_API CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    VIA_RT(cudaDeviceGetStreamPriorityRange(leastPriority, greatestPriority));
}

/* ---- memory ------------------------------------------------------------------------------------ */

#define DPTR(p) ((void *)(uintptr_t)(p))

CUDRV_API CUresult cuMemGetInfo_v2(size_t *free, size_t *total) { VIA_RT(cudaMemGetInfo(free, total)); }

CUDRV_API CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    if (!dptr)
        return check_ctx() ? check_ctx() : CUDA_ERROR_INVALID_VALUE;
    if (!bytesize) {
        CUresult r = check_ctx();
        return r ? r : CUDA_ERROR_INVALID_VALUE; /* the driver refuses 0 bytes */
    }
    VIA_RT(cudaMalloc((void **)dptr, bytesize));
}

CUDRV_API CUresult cuMemFree_v2(CUdeviceptr dptr) { VIA_RT(cudaFree(DPTR(dptr))); }

CUDRV_API CUresult cuMemAllocHost_v2(void **pp, size_t bytesize) { VIA_RT(cudaMallocHost(pp, bytesize)); }

CUDRV_API CUresult cuMemFreeHost(void *p) { VIA_RT(cudaFreeHost(p)); }

CUDRV_API CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    VIA_RT(cudaHostAlloc(pp, bytesize, Flags));
}

CUDRV_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    VIA_RT(cudaHostGetDevicePointer((void **)pdptr, p, Flags));
}

CUDRV_API CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    VIA_RT(cudaMallocManaged((void **)dptr, bytesize, flags));
}

CUDRV_API CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
    VIA_RT(cudaMemcpy(DPTR(dst), DPTR(src), ByteCount, cudaMemcpyDefault));
}

CUDRV_API CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
                                 CUstream hStream)
{
    VIA_RT(cudaMemcpyAsync(DPTR(dst), DPTR(src), ByteCount, cudaMemcpyDefault, hStream));
}

CUDRV_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
    VIA_RT(cudaMemcpy(DPTR(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice));
}

CUDRV_API CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    VIA_RT(cudaMemcpy(dstHost, DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToHost));
}

CUDRV_API CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
    VIA_RT(cudaMemcpy(DPTR(dstDevice), DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToDevice));
}

CUDRV_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost,
                                        size_t ByteCount, CUstream hStream)
{
    VIA_RT(cudaMemcpyAsync(DPTR(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice, hStream));
}

CUDRV_API CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                                        CUstream hStream)
{
    VIA_RT(cudaMemcpyAsync(dstHost, DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToHost, hStream));
}

CUDRV_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                                        size_t ByteCount, CUstream hStream)
{
    VIA_RT(cudaMemcpyAsync(DPTR(dstDevice), DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToDevice,
                           hStream));
}

/* Fill n elements of `size` bytes (1, 2 or 4) with `value`: one memset
 * when its bytes are all alike, else copies of a pattern buffer. */
static cudaError_t fill(CUdeviceptr dst, unsigned value, size_t size, size_t n, CUstream s,
                        int async)
{
    unsigned char b[4];
    memcpy(b, &value, 4);
    int same = size == 1 || (b[0] == b[1] && (size == 2 || (b[1] == b[2] && b[2] == b[3])));
    if ((size > 1 && dst % size) || n > SIZE_MAX / size)
        return cudaErrorInvalidValue;
    if (same)
        return async ? cudaMemsetAsync(DPTR(dst), b[0], n * size, s)
                     : cudaMemset(DPTR(dst), b[0], n * size);
    if (async) {
        /* issued now, in order (every stream runs in issue order), but a
         * capture would need a memset node of 2- or 4-byte elements */
        if (cudart_drv_enter(0))
            return cudaErrorInitializationError;
        int valid = cudart_stream_valid(s), capturing = valid && graph_capturing(s);
        cudart_drv_leave();
        if (!valid)
            return cudaErrorInvalidResourceHandle;
        if (capturing) {
            cudart_say("cuMemsetD%zuAsync of a value whose bytes differ cannot be captured into "
                       "a graph by lockstep (CUDA_ERROR_NOT_SUPPORTED)",
                       size * 8);
            return cudaErrorNotSupported;
        }
    }
    enum { CHUNK = 1 << 16 };
    unsigned char *buf = malloc(CHUNK * 4);
    if (!buf)
        return cudaErrorMemoryAllocation;
    size_t per = CHUNK < n ? CHUNK : n;
    for (size_t i = 0; i < per; i++)
        memcpy(buf + i * size, &value, size); /* little-endian: the low bytes */
    cudaError_t e = cudaSuccess;
    for (size_t done = 0; done < n && !e; done += per) {
        size_t k = n - done < per ? n - done : per;
        /* synchronous even for the Async forms: the buffer is freed below */
        e = cudaMemcpy(DPTR(dst + done * size), buf, k * size, cudaMemcpyHostToDevice);
    }
    free(buf);
    return e;
}

CUDRV_API CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    VIA_RT(fill(dstDevice, uc, 1, N, NULL, 0));
}

CUDRV_API CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
    VIA_RT(fill(dstDevice, us, 2, N, NULL, 0));
}

CUDRV_API CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
    VIA_RT(fill(dstDevice, ui, 4, N, NULL, 0));
}

CUDRV_API CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N,
                                   CUstream hStream)
{
    VIA_RT(fill(dstDevice, uc, 1, N, hStream, 1));
}

CUDRV_API CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N,
                                    CUstream hStream)
{
    VIA_RT(fill(dstDevice, us, 2, N, hStream, 1));
}

CUDRV_API CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N,
                                    CUstream hStream)
{
    VIA_RT(fill(dstDevice, ui, 4, N, hStream, 1));
}

/* ---- launches ---------------------------------------------------------------------------------- */

/* The argument pointers of a launch given as one packed buffer (extra's
 * CU_LAUNCH_PARAM_BUFFER_POINTER): malloc'd into *out (lock held). */
static CUresult args_from_extra(CUfunction f, void **extra, void ***out)
{
    void *buf = NULL;
    size_t size = 0;
    int have_size = 0;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) {
            buf = extra[i + 1];
        } else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) {
            if (!extra[i + 1])
                return CUDA_ERROR_INVALID_VALUE;
            size = *(size_t *)extra[i + 1];
            have_size = 1;
        } else {
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    lockstep_kernel *k;
    cudaError_t e = cudart_kernel(f, &k);
    if (e)
        return drv_result(e);
    lockstep_kernel_info info;
    if (lockstep_kernel_get_info(k, &info) != LOCKSTEP_SUCCESS)
        return CUDA_ERROR_INVALID_HANDLE;
    if (info.num_params && (!buf || !have_size)) {
        cudart_say("cuLaunchKernel: extra gives no parameter buffer and size for %s", info.name);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (info.num_params && size < info.param_bytes) {
        cudart_say("cuLaunchKernel: the parameter buffer for %s holds %zu bytes; its "
                   "parameters take %u",
                   info.name, size, info.param_bytes);
        return CUDA_ERROR_INVALID_VALUE;
    }
    void **args = calloc(info.num_params + 1, sizeof *args);
    if (!args)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < info.num_params; i++)
        args[i] = (char *)buf + info.params[i].offset;
    *out = args;
    return CUDA_SUCCESS;
}

static CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                       unsigned by, unsigned bz, unsigned shared, CUstream s, void **params,
                       void **extra, int cooperative)
{
    CUresult r = drv_enter_ctx();
    if (r)
        return r;
    if (!cudart_function_live(f))
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    if (params && extra)
        return drv_leave(CUDA_ERROR_INVALID_VALUE);
    void **owned = NULL;
    if (extra && (r = args_from_extra(f, extra, &owned)))
        return drv_leave(r);
    if (!params && !extra) {
        /* a kernel without parameters; one with some needs them */
        lockstep_kernel *k;
        lockstep_kernel_info info;
        cudaError_t e = cudart_kernel(f, &k);
        if (e)
            return drv_leave(drv_result(e));
        if (lockstep_kernel_get_info(k, &info) == LOCKSTEP_SUCCESS && info.num_params) {
            cudart_say("cuLaunchKernel: %s takes %u parameters and neither kernelParams nor "
                       "extra gives them",
                       info.name, info.num_params);
            return drv_leave(CUDA_ERROR_INVALID_VALUE);
        }
    }
    void *none[1] = {NULL};
    void **args = owned ? owned : params ? params : none;
    drv_leave(CUDA_SUCCESS);
    dim3 grid = {gx, gy, gz}, block = {bx, by, bz};
    cudaError_t saved = drv_rt_begin();
    cudaError_t e = cooperative ? cudaLaunchCooperativeKernel(f, grid, block, args, shared, s)
                                : cudaLaunchKernel(f, grid, block, args, shared, s);
    drv_rt_end(saved);
    free(owned);
    return drv_result(e);
}

CUDRV_API CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                  unsigned int gridDimZ, unsigned int blockDimX,
                                  unsigned int blockDimY, unsigned int blockDimZ,
                                  unsigned int sharedMemBytes, CUstream hStream,
                                  void **kernelParams, void **extra)
{
    return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                  sharedMemBytes, hStream, kernelParams, extra, 0);
}

CUDRV_API CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                       unsigned int gridDimZ, unsigned int blockDimX,
                                       unsigned int blockDimY, unsigned int blockDimZ,
                                       unsigned int sharedMemBytes, CUstream hStream,
                                       void **kernelParams, void **extra)
{
    return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                  sharedMemBytes, hStream, kernelParams, extra, 0);
}

CUDRV_API CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX,
                                             unsigned int gridDimY, unsigned int gridDimZ,
                                             unsigned int blockDimX, unsigned int blockDimY,
                                             unsigned int blockDimZ, unsigned int sharedMemBytes,
                                             CUstream hStream, void **kernelParams)
{
    return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                  sharedMemBytes, hStream, kernelParams, NULL, 1);
}

CUDRV_API CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
    VIA_RT(cudaLaunchHostFunc(hStream, fn, userData));
}

/* ---- streams and events -------------------------------------------------------------------- */

CUDRV_API CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    VIA_RT(cudaStreamCreateWithFlags(phStream, Flags));
}

CUDRV_API CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    VIA_RT(cudaStreamCreateWithPriority(phStream, flags, priority));
}

CUDRV_API CUresult cuStreamDestroy_v2(CUstream hStream) { VIA_RT(cudaStreamDestroy(hStream)); }

CUDRV_API CUresult cuStreamSynchronize(CUstream hStream) { VIA_RT(cudaStreamSynchronize(hStream)); }

CUDRV_API CUresult cuStreamQuery(CUstream hStream) { VIA_RT(cudaStreamQuery(hStream)); }

CUDRV_API CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    VIA_RT(cudaStreamWaitEvent(hStream, hEvent, Flags));
}

CUDRV_API CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags)
{
    VIA_RT(cudaStreamGetFlags(hStream, flags));
}

CUDRV_API CUresult cuStreamGetPriority(CUstream hStream, int *priority)
{
    VIA_RT(cudaStreamGetPriority(hStream, priority));
}

CUDRV_API CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    VIA_RT(cudaEventCreateWithFlags(phEvent, Flags));
}

CUDRV_API CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
    VIA_RT(cudaEventRecord(hEvent, hStream));
}

CUDRV_API CUresult cuEventQuery(CUevent hEvent) { VIA_RT(cudaEventQuery(hEvent)); }

CUDRV_API CUresult cuEventSynchronize(CUevent hEvent) { VIA_RT(cudaEventSynchronize(hEvent)); }

CUDRV_API CUresult cuEventDestroy_v2(CUevent hEvent) { VIA_RT(cudaEventDestroy(hEvent)); }

CUDRV_API CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    VIA_RT(cudaEventElapsedTime(pMilliseconds, hStart, hEnd));
}

CUDRV_API CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    VIA_RT(cudaEventElapsedTime(pMilliseconds, hStart, hEnd));
}

CUDRV_API CUresult cuProfilerStart(void) { return CUDA_SUCCESS; }

CUDRV_API CUresult cuProfilerStop(void) { return CUDA_SUCCESS; }

/* ---- other names of the functions above ---------------------------------------------------
 * The names of older API versions (cuCtxCreate, cuStreamDestroy, ...) and
 * those a program built with per-thread default streams calls (_ptds,
 * _ptsz): lockstep's streams all run in order on one device, so the
 * per-thread default stream behaves as the legacy one. */

CUDRV_API CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return ctx_create(pctx, flags, dev);
}

CUDRV_API CUresult cuCtxDestroy(CUcontext ctx) { return cuCtxDestroy_v2(ctx); }

CUDRV_API CUresult cuCtxPushCurrent(CUcontext ctx) { return cuCtxPushCurrent_v2(ctx); }

CUDRV_API CUresult cuCtxPopCurrent(CUcontext *pctx) { return cuCtxPopCurrent_v2(pctx); }

CUDRV_API CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    if (!ctx)
        return cuCtxGetDevice(device);
    CUresult r = drv_enter();
    if (r)
        return r;
    if (!cudart_handle_live(ctx, H_CONTEXT))
        return drv_leave(CUDA_ERROR_INVALID_CONTEXT);
    if (!device)
        return drv_leave(CUDA_ERROR_INVALID_VALUE);
    *device = 0;
    return drv_leave(CUDA_SUCCESS);
}

CUDRV_API CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
    if (ctx) {
        CUresult r = drv_enter();
        if (r)
            return r;
        if (!cudart_handle_live(ctx, H_CONTEXT))
            return drv_leave(CUDA_ERROR_INVALID_CONTEXT);
        drv_leave(CUDA_SUCCESS);
    }
    return cuCtxSynchronize();
}

CUDRV_API CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r)
        return r;
    cudaError_t saved = drv_rt_begin();
    cudaError_t e = cudaDeviceGetPCIBusId(pciBusId, len, 0);
    drv_rt_end(saved);
    return drv_result(e);
}

CUDRV_API CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    CUresult r = check_device(dev);
    if (r || (r = check_device(peerDev)))
        return r;
    if (!canAccessPeer)
        return CUDA_ERROR_INVALID_VALUE;
    *canAccessPeer = 0; /* one device: no peer */
    return CUDA_SUCCESS;
}

CUDRV_API CUresult cuStreamDestroy(CUstream hStream) { return cuStreamDestroy_v2(hStream); }

CUDRV_API CUresult cuEventDestroy(CUevent hEvent) { return cuEventDestroy_v2(hEvent); }

CUDRV_API CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback,
                                       void *userData, unsigned int flags)
{
    /* the callback's status is cudaSuccess or a sticky fault, whose
     * numbers are the driver's (700 and up) */
    VIA_RT(cudaStreamAddCallback(hStream, (cudaStreamCallback_t)(void (*)(void))callback,
                                 userData, flags));
}

CUDRV_API CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback,
                                            void *userData, unsigned int flags)
{
    return cuStreamAddCallback(hStream, callback, userData, flags);
}

/* cuLaunchKernelEx: the cooperative attribute makes a cooperative launch;
 * priorities change nothing; thread-block clusters are refused. */
static CUresult launch_ex(const CUlaunchConfig *c, CUfunction f, void **params, void **extra)
{
    if (!c || (c->numAttrs && !c->attrs))
        return CUDA_ERROR_INVALID_VALUE;
    int cooperative = 0;
    for (unsigned i = 0; i < c->numAttrs; i++) {
        const CUlaunchAttribute *a = &c->attrs[i];
        if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) {
            cooperative = a->value.cooperative != 0;
        } else if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
                   (uint64_t)a->value.clusterDim.x * a->value.clusterDim.y *
                           a->value.clusterDim.z > 1) {
            cudart_say("cuLaunchKernelEx: thread-block clusters (%ux%ux%u) are not supported by "
                       "lockstep (CUDA_ERROR_NOT_SUPPORTED)",
                       a->value.clusterDim.x, a->value.clusterDim.y, a->value.clusterDim.z);
            return CUDA_ERROR_NOT_SUPPORTED;
        }
    }
    if (cooperative && extra)
        return CUDA_ERROR_INVALID_VALUE;
    return launch(f, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY,
                  c->blockDimZ, c->sharedMemBytes, c->hStream, params, extra, cooperative);
}

CUDRV_API CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
                                    void **kernelParams, void **extra)
{
    return launch_ex(config, f, kernelParams, extra);
}

CUDRV_API CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f,
                                         void **kernelParams, void **extra)
{
    return launch_ex(config, f, kernelParams, extra);
}

CUDRV_API CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX,
                                                  unsigned int gridDimY, unsigned int gridDimZ,
                                                  unsigned int blockDimX, unsigned int blockDimY,
                                                  unsigned int blockDimZ,
                                                  unsigned int sharedMemBytes, CUstream hStream,
                                                  void **kernelParams)
{
    return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                  sharedMemBytes, hStream, kernelParams, NULL, 1);
}

CUDRV_API CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData)
{
    return cuLaunchHostFunc(hStream, fn, userData);
}

CUDRV_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                        CUfunction func,
                                                                        int blockSize,
                                                                        size_t dynamicSMemSize,
                                                                        unsigned int flags)
{
    VIA_RT(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                  dynamicSMemSize, flags));
}

CUDRV_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func,
                                                               int blockSize,
                                                               size_t dynamicSMemSize)
{
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                dynamicSMemSize, 0);
}

CUDRV_API CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
    return cuMemcpy(dst, src, ByteCount);
}

CUDRV_API CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
                                      CUstream hStream)
{
    return cuMemcpyAsync(dst, src, ByteCount, hStream);
}

CUDRV_API CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost,
                                        size_t ByteCount)
{
    return cuMemcpyHtoD_v2(dstDevice, srcHost, ByteCount);
}

CUDRV_API CUresult cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    return cuMemcpyDtoH_v2(dstHost, srcDevice, ByteCount);
}

CUDRV_API CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                                        size_t ByteCount)
{
    return cuMemcpyDtoD_v2(dstDevice, srcDevice, ByteCount);
}

CUDRV_API CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost,
                                             size_t ByteCount, CUstream hStream)
{
    return cuMemcpyHtoDAsync_v2(dstDevice, srcHost, ByteCount, hStream);
}

CUDRV_API CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice,
                                             size_t ByteCount, CUstream hStream)
{
    return cuMemcpyDtoHAsync_v2(dstHost, srcDevice, ByteCount, hStream);
}

CUDRV_API CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                                             size_t ByteCount, CUstream hStream)
{
    return cuMemcpyDtoDAsync_v2(dstDevice, srcDevice, ByteCount, hStream);
}

CUDRV_API CUresult cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    return cuMemsetD8_v2(dstDevice, uc, N);
}

CUDRV_API CUresult cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
    return cuMemsetD16_v2(dstDevice, us, N);
}

CUDRV_API CUresult cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
    return cuMemsetD32_v2(dstDevice, ui, N);
}

CUDRV_API CUresult cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N,
                                        CUstream hStream)
{
    return cuMemsetD8Async(dstDevice, uc, N, hStream);
}

CUDRV_API CUresult cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N,
                                         CUstream hStream)
{
    return cuMemsetD16Async(dstDevice, us, N, hStream);
}

CUDRV_API CUresult cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N,
                                         CUstream hStream)
{
    return cuMemsetD32Async(dstDevice, ui, N, hStream);
}

CUDRV_API CUresult cuStreamSynchronize_ptsz(CUstream hStream) { return cuStreamSynchronize(hStream); }

CUDRV_API CUresult cuStreamQuery_ptsz(CUstream hStream) { return cuStreamQuery(hStream); }

CUDRV_API CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    return cuStreamWaitEvent(hStream, hEvent, Flags);
}

CUDRV_API CUresult cuStreamGetFlags_ptsz(CUstream hStream, unsigned int *flags)
{
    return cuStreamGetFlags(hStream, flags);
}

CUDRV_API CUresult cuStreamGetPriority_ptsz(CUstream hStream, int *priority)
{
    return cuStreamGetPriority(hStream, priority);
}

CUDRV_API CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
    return cuEventRecord(hEvent, hStream);
}

/* ---- a few more queries ------------------------------------------------------------------------ */

CUDRV_API CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig)
{
    VIA_RT(cudaDeviceGetCacheConfig((int *)pconfig));
}

CUDRV_API CUresult cuCtxSetCacheConfig(CUfunc_cache config) { VIA_RT(cudaDeviceSetCacheConfig(config)); }

CUDRV_API CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes,
                                      size_t Height, unsigned int ElementSizeBytes)
{
    if (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16) {
        CUresult r = check_ctx();
        return r ? r : CUDA_ERROR_INVALID_VALUE;
    }
    VIA_RT(cudaMallocPitch((void **)dptr, pPitch, WidthInBytes, Height));
}

/* The context of a stream: every stream is the one device's, in the
 * calling thread's current context. */
CUDRV_API CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx)
{
    CUresult r = drv_enter_ctx();
    if (r)
        return r;
    if (!cudart_stream_valid(hStream))
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    if (!pctx)
        return drv_leave(CUDA_ERROR_INVALID_VALUE);
    *pctx = ctx_stack[ctx_depth - 1];
    return drv_leave(CUDA_SUCCESS);
}

/* What the runtime knows of a pointer, as the driver's attributes.
 * Managed memory is CU_MEMORYTYPE_DEVICE with IS_MANAGED set. */
CUDRV_API CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute,
                                         CUdeviceptr ptr)
{
    CUresult r = check_ctx();
    if (r)
        return r;
    if (!data)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaPointerAttributes a;
    cudaError_t saved = drv_rt_begin();
    cudaError_t e = cudaPointerGetAttributes(&a, DPTR(ptr));
    drv_rt_end(saved);
    if (e)
        return drv_result(e);
    if (a.type == cudaMemoryTypeUnregistered)
        return CUDA_ERROR_INVALID_VALUE; /* not memory CUDA knows */
    switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        return cuCtxGetCurrent(data);
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned *)data = a.type == cudaMemoryTypeHost ? CU_MEMORYTYPE_HOST
                                                         : CU_MEMORYTYPE_DEVICE;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        if (!a.devicePointer)
            return CUDA_ERROR_INVALID_VALUE;
        *(CUdeviceptr *)data = (CUdeviceptr)(uintptr_t)a.devicePointer;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (!a.hostPointer)
            return CUDA_ERROR_INVALID_VALUE;
        *(void **)data = a.hostPointer;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        *(unsigned *)data = a.type == cudaMemoryTypeManaged;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *(int *)data = 0;
        return CUDA_SUCCESS;
    default:
        cudart_say("cuPointerGetAttribute: attribute %d is not supported by lockstep "
                   "(CUDA_ERROR_NOT_SUPPORTED)",
                   attribute);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
}
