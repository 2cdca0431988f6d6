/*
 * mempool.c -- stream-ordered allocation: cudaMallocAsync, cudaFreeAsync and
 * the cudaMemPool family.
 *
 * The simulated device runs every operation when it is issued, so an
 * allocation in stream order is an allocation now: cudaMallocAsync takes its
 * memory from the device at once and cudaFreeAsync returns it at once.  A
 * pool therefore never holds memory nobody uses: its reserved memory is its
 * used memory, and the release threshold and trimming, which decide how much
 * freed memory a GPU's pool keeps, are kept and reported but change nothing.
 * What a pool does count is exact: the bytes its allocations hold now and at
 * their high-water mark (cudaMemPoolAttrUsedMemCurrent / High).
 *
 * In a stream capture, cudaMallocAsync and cudaFreeAsync make graph memory
 * nodes instead (graph.c); that memory is the graph allocator's
 * (graphmem.c), not the pool's, and cudaFree and cudaFreeAsync free a live
 * graph allocation through it.
 *
 * Pools are checked handles (H_POOL) like streams and events.  All state
 * here is process-wide and guarded by the runtime's lock.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/cuda_api.h"
#include "cudart/runtime.h"

typedef struct mem_pool {
    void *handle;          /* its cudaMemPool_t */
    uint64_t threshold;    /* cudaMemPoolAttrReleaseThreshold */
    uint64_t used, used_high, reserved_high;
    int reuse[3];          /* the three cudaMemPoolReuse* flags */
    int live;              /* 0 once destroyed (its allocations may outlive it) */
} mem_pool;

typedef struct pool_alloc {
    void *ptr;
    size_t size;
    mem_pool *pool;
} pool_alloc;

static mem_pool *default_pool, *current_pool;
static pool_alloc *allocs;
static size_t nallocs, capallocs;

/* The device's default pool, created on first use (lock held). */
static mem_pool *get_default(void)
{
    if (default_pool)
        return default_pool;
    mem_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->handle = cudart_handle_new(H_POOL, p);
    if (!p->handle) {
        free(p);
        return NULL;
    }
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
    p->live = 1;
    default_pool = current_pool = p;
    return p;
}

static mem_pool *pool_of(cudaMemPool_t h)
{
    mem_pool *p = cudart_handle_obj(h, H_POOL);
    return p && p->live ? p : NULL;
}

static cudaError_t pool_malloc(void **ptr, size_t size, mem_pool *pool, cudaStream_t stream)
{
    if (!ptr)
        return cudaErrorInvalidValue;
    if (!cudart_stream_valid(stream))
        return cudaErrorInvalidResourceHandle;
    if (!pool)
        return cudaErrorInvalidValue;
    if (size == 0) {
        *ptr = NULL;
        return cudaSuccess;
    }
    if (graph_capturing(stream)) /* an allocation node (its properties: the pool's) */
        return graph_capture_alloc(stream, size, ptr);
    if (nallocs == capallocs) {
        size_t c = capallocs ? 2 * capallocs : 64;
        pool_alloc *n = realloc(allocs, c * sizeof *n);
        if (!n)
            return cudaErrorMemoryAllocation;
        allocs = n;
        capallocs = c;
    }
    lockstep_dptr d;
    if (lockstep_malloc(cudart_device(), size, &d) != LOCKSTEP_SUCCESS)
        return cudaErrorMemoryAllocation;
    allocs[nallocs++] = (pool_alloc){(void *)(uintptr_t)d, size, pool};
    pool->used += size;
    if (pool->used > pool->used_high)
        pool->used_high = pool->used;
    if (pool->used > pool->reserved_high)
        pool->reserved_high = pool->used;
    *ptr = (void *)(uintptr_t)d;
    return cudaSuccess;
}

/* Take ptr out of its pool's count (it was freed); 0, or -1 if it is not a
 * pool allocation (lock held). */
/* A destroyed pool goes with its last allocation. */
static void pool_maybe_free(mem_pool *p)
{
    if (p->live)
        return;
    for (size_t i = 0; i < nallocs; i++)
        if (allocs[i].pool == p)
            return;
    free(p);
}

int mempool_forget(const void *ptr)
{
    for (size_t i = 0; i < nallocs; i++)
        if (allocs[i].ptr == ptr) {
            mem_pool *p = allocs[i].pool;
            p->used -= allocs[i].size;
            allocs[i] = allocs[--nallocs];
            pool_maybe_free(p);
            return 0;
        }
    return -1;
}

void mempool_reset(void)
{
    while (nallocs) {
        mem_pool *p = allocs[nallocs - 1].pool;
        p->used -= allocs[nallocs - 1].size;
        nallocs--;
        pool_maybe_free(p);
    }
}

CUDART_API cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    return cudart_leave(pool_malloc(devPtr, size, current_pool ? current_pool : get_default(),
                                    stream));
}

CUDART_API cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t stream)
{
    return cudaMallocAsync(devPtr, size, cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                               cudaStream_t stream)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    get_default();
    return cudart_leave(pool_malloc(ptr, size, pool_of(memPool), stream));
}

CUDART_API cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size,
                                                    cudaMemPool_t memPool, cudaStream_t stream)
{
    return cudaMallocFromPoolAsync(ptr, size, memPool, cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    if (!cudart_stream_valid(stream))
        return cudart_leave(cudaErrorInvalidResourceHandle);
    if (!devPtr)
        return cudart_leave(cudaSuccess);
    if (graph_capturing(stream)) /* a free node */
        return cudart_leave(graph_capture_free(stream, devPtr));
    if (!gmem_free(devPtr)) /* a graph allocation */
        return cudart_leave(cudaSuccess);
    if (lockstep_free(cudart_device(), (lockstep_dptr)(uintptr_t)devPtr) != LOCKSTEP_SUCCESS)
        return cudart_leave(cudaErrorInvalidValue);
    mempool_forget(devPtr);
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t stream)
{
    return cudaFreeAsync(devPtr, cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    if (!memPool)
        return cudart_error(cudaErrorInvalidValue);
    if (device != 0)
        return cudart_error(cudaErrorInvalidDevice);
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    mem_pool *p = get_default();
    if (p)
        *memPool = p->handle;
    return cudart_leave(p ? cudaSuccess : cudaErrorMemoryAllocation);
}

CUDART_API cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    if (!memPool)
        return cudart_error(cudaErrorInvalidValue);
    if (device != 0)
        return cudart_error(cudaErrorInvalidDevice);
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    mem_pool *p = current_pool ? current_pool : get_default();
    if (p)
        *memPool = p->handle;
    return cudart_leave(p ? cudaSuccess : cudaErrorMemoryAllocation);
}

CUDART_API cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    if (device != 0)
        return cudart_error(cudaErrorInvalidDevice);
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    get_default();
    mem_pool *p = pool_of(memPool);
    if (!p)
        return cudart_leave(cudaErrorInvalidValue);
    current_pool = p;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool,
                                         const struct cudaMemPoolProps *poolProps)
{
    if (!memPool || !poolProps)
        return cudart_error(cudaErrorInvalidValue);
    if (poolProps->allocType != cudaMemAllocationTypePinned ||
        poolProps->location.type != cudaMemLocationTypeDevice)
        return cudart_error(cudaErrorInvalidValue);
    if (poolProps->location.id != 0)
        return cudart_error(cudaErrorInvalidDevice);
    if (poolProps->handleTypes != cudaMemHandleTypeNone) {
        cudart_say("cudaMemPoolCreate: shareable (IPC) pools are not supported by lockstep");
        return cudart_error(cudaErrorNotSupported);
    }
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    get_default();
    mem_pool *p = calloc(1, sizeof *p);
    if (!p)
        return cudart_leave(cudaErrorMemoryAllocation);
    p->handle = cudart_handle_new(H_POOL, p);
    if (!p->handle) {
        free(p);
        return cudart_leave(cudaErrorMemoryAllocation);
    }
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
    p->live = 1;
    *memPool = p->handle;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    mem_pool *p = pool_of(memPool);
    if (!p || p == default_pool)
        return cudart_leave(cudaErrorInvalidValue);
    if (current_pool == p)
        current_pool = default_pool;
    cudart_handle_free(memPool, H_POOL);
    p->live = 0;
    /* allocations still out keep counting against it until freed; the
     * pool's memory goes once they are */
    int out = 0;
    for (size_t i = 0; i < nallocs; i++)
        out |= allocs[i].pool == p;
    if (!out)
        free(p);
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    (void)minBytesToKeep; /* a pool here holds no unused memory to trim */
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    return cudart_leave(pool_of(memPool) ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, int attr, void *value)
{
    if (!value)
        return cudart_error(cudaErrorInvalidValue);
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    mem_pool *p = pool_of(memPool);
    if (!p)
        return cudart_leave(cudaErrorInvalidValue);
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        p->reuse[attr - 1] = *(int *)value != 0;
        break;
    case cudaMemPoolAttrReleaseThreshold: p->threshold = *(uint64_t *)value; break;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh:
        /* only a reset to zero is allowed: the mark restarts from now */
        if (*(uint64_t *)value != 0)
            return cudart_leave(cudaErrorInvalidValue);
        if (attr == cudaMemPoolAttrUsedMemHigh)
            p->used_high = p->used;
        else
            p->reserved_high = p->used;
        break;
    default: return cudart_leave(cudaErrorInvalidValue);
    }
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, int attr, void *value)
{
    if (!value)
        return cudart_error(cudaErrorInvalidValue);
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    mem_pool *p = pool_of(memPool);
    if (!p)
        return cudart_leave(cudaErrorInvalidValue);
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies: *(int *)value = p->reuse[attr - 1]; break;
    case cudaMemPoolAttrReleaseThreshold: *(uint64_t *)value = p->threshold; break;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent: *(uint64_t *)value = p->used; break;
    case cudaMemPoolAttrReservedMemHigh: *(uint64_t *)value = p->reserved_high; break;
    case cudaMemPoolAttrUsedMemHigh: *(uint64_t *)value = p->used_high; break;
    default: return cudart_leave(cudaErrorInvalidValue);
    }
    return cudart_leave(cudaSuccess);
}

/* One device: a pool's memory is read-write for it, and there is no other
 * device to grant access to. */
CUDART_API cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool,
                                            const struct cudaMemAccessDesc *descList, size_t count)
{
    if (count && !descList)
        return cudart_error(cudaErrorInvalidValue);
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    if (!pool_of(memPool))
        return cudart_leave(cudaErrorInvalidValue);
    for (size_t i = 0; i < count; i++)
        if (descList[i].location.type != cudaMemLocationTypeDevice ||
            descList[i].location.id != 0 ||
            descList[i].flags != cudaMemAccessFlagsProtReadWrite)
            return cudart_leave(cudaErrorInvalidDevice);
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaMemPoolGetAccess(int *flags, cudaMemPool_t memPool,
                                            struct cudaMemLocation *location)
{
    if (!flags || !location)
        return cudart_error(cudaErrorInvalidValue);
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    if (!pool_of(memPool))
        return cudart_leave(cudaErrorInvalidValue);
    *flags = location->type == cudaMemLocationTypeDevice && location->id == 0
                 ? cudaMemAccessFlagsProtReadWrite
                 : cudaMemAccessFlagsProtNone;
    return cudart_leave(cudaSuccess);
}

/* The location-based forms (CUDA 13): device 0's pinned pools. */
static cudaError_t device_location(const struct cudaMemLocation *location, int type)
{
    if (!location || type != cudaMemAllocationTypePinned)
        return cudaErrorInvalidValue;
    if (location->type != cudaMemLocationTypeDevice)
        return cudaErrorNotSupported; /* host pools */
    return location->id == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}

CUDART_API cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *memPool,
                                                struct cudaMemLocation *location, int type)
{
    cudaError_t e = device_location(location, type);
    return e ? cudart_error(e) : cudaDeviceGetDefaultMemPool(memPool, 0);
}

CUDART_API cudaError_t cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                         int type)
{
    cudaError_t e = device_location(location, type);
    return e ? cudart_error(e) : cudaDeviceGetMemPool(memPool, 0);
}

CUDART_API cudaError_t cudaMemSetMemPool(struct cudaMemLocation *location, int type,
                                         cudaMemPool_t memPool)
{
    cudaError_t e = device_location(location, type);
    return e ? cudart_error(e) : cudaDeviceSetMemPool(0, memPool);
}
