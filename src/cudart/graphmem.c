/*
 * graphmem.c -- the graph allocator: the memory behind CUDA graph memory
 * nodes (graph.c builds and runs the nodes), and cudaDeviceGraphMemTrim,
 * cudaDeviceGetGraphMemAttribute and cudaDeviceSetGraphMemAttribute.
 *
 * A graph allocation's address is fixed when its allocation node is made,
 * but its memory exists only from the moment the node runs until the
 * allocation is freed (a free node, cudaFreeAsync, cudaFree, or the next
 * launch of a graph instantiated with cudaGraphInstantiateFlagAutoFreeOnLaunch).
 * lockstep models this as a GPU's virtual memory does (core/device_int.h,
 * device_va_*): each allocation node names a block, device addresses
 * reserved when the node is made; running the node maps the allocation
 * there, freeing it unmaps it.  Outside its lifetime nothing is mapped at
 * the address, so a kernel that touches it faults (reported as a use after
 * free) and a copy to or from it is refused.  Allocation nodes of one graph
 * may share a block when their lifetimes cannot overlap (graph.c decides).
 *
 * Memory.  The allocator holds memory of its own, taken from the device
 * (device_mem_charge: cudaMalloc and cudaMemGetInfo see it go) when the
 * live graph allocations need more than it holds, and kept when they are
 * freed: the next allocation of any graph uses it again, as a GPU's graph
 * allocator maps the same physical memory behind allocations whose
 * lifetimes do not overlap.  cudaDeviceGraphMemTrim gives back all it holds
 * beyond what the live allocations use.  The attributes count exactly that,
 * in bytes rounded up to 256 per allocation: UsedMemCurrent what the live
 * graph allocations use, ReservedMemCurrent what the allocator holds, and
 * their high-water marks.  A block that no node names any more goes as
 * soon as nothing is live in it: its addresses are given back.
 *
 * All state is process-wide and guarded by the runtime's lock.
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/device_int.h"
#include "cudart/cuda_api.h"
#include "cudart/runtime.h"

static gmem_block **blocks; /* in creation order */
static size_t nblocks, capblocks;
static uint64_t used, used_high, reserved, reserved_high; /* bytes, multiples of 256 */

static uint64_t rounded(size_t bytes) { return ((uint64_t)bytes + 255) & ~(uint64_t)255; }

cudaError_t gmem_new(size_t bytes, uint64_t owner, gmem_block **out)
{
    if (nblocks == capblocks) {
        size_t c = capblocks ? 2 * capblocks : 16;
        gmem_block **v = realloc(blocks, c * sizeof *v);
        if (!v)
            return cudaErrorMemoryAllocation;
        blocks = v;
        capblocks = c;
    }
    gmem_block *b = calloc(1, sizeof *b);
    if (!b)
        return cudaErrorMemoryAllocation;
    lockstep_dptr addr;
    if (device_va_reserve(cudart_device(), bytes, &addr) != LOCKSTEP_SUCCESS) {
        free(b);
        return cudaErrorMemoryAllocation;
    }
    b->addr = addr;
    b->size = (bytes + 255) & ~(size_t)255;
    b->refs = 1;
    b->owner = owner;
    b->tail_alloc = b->tail_free = GMEM_NONE;
    blocks[nblocks++] = b;
    *out = b;
    return cudaSuccess;
}

void gmem_ref(gmem_block *b) { b->refs++; }

/* A block neither named nor live: its addresses go. */
static void drop(gmem_block *b)
{
    device_va_release(cudart_device(), b->addr, b->size);
    for (size_t i = 0; i < nblocks; i++)
        if (blocks[i] == b) {
            /* keep creation order: trim and reset walk it */
            for (size_t j = i + 1; j < nblocks; j++)
                blocks[j - 1] = blocks[j];
            nblocks--;
            break;
        }
    free(b);
}

void gmem_unref(gmem_block *b)
{
    if (--b->refs == 0 && !b->live_bytes)
        drop(b);
}

gmem_block *gmem_find(const void *ptr)
{
    lockstep_dptr p = (lockstep_dptr)(uintptr_t)ptr;
    for (size_t i = 0; i < nblocks; i++)
        if (blocks[i]->addr == p)
            return blocks[i];
    return NULL;
}

cudaError_t gmem_map(gmem_block *b, size_t bytes)
{
    if (b->live_bytes) {
        cudart_say("a graph allocation node ran while the allocation at %p it makes was still "
                   "live: free it first",
                   (void *)(uintptr_t)b->addr);
        return cudaErrorInvalidValue;
    }
    lockstep_device *dev = cudart_device();
    uint64_t need = used + rounded(bytes);
    if (need > reserved) {
        if (device_mem_charge(dev, need - reserved) != LOCKSTEP_SUCCESS)
            return cudaErrorMemoryAllocation;
        reserved = need;
        if (reserved > reserved_high)
            reserved_high = reserved;
    }
    if (device_va_map(dev, b->addr, bytes) != LOCKSTEP_SUCCESS)
        return cudaErrorMemoryAllocation; /* host out of memory: nothing is mapped */
    b->live_bytes = bytes;
    used = need;
    if (used > used_high)
        used_high = used;
    return cudaSuccess;
}

cudaError_t gmem_unmap(gmem_block *b)
{
    if (!b->live_bytes) {
        cudart_say("a graph free node ran for the graph allocation at %p, which is not live "
                   "(not allocated yet, or freed already)",
                   (void *)(uintptr_t)b->addr);
        return cudaErrorInvalidValue;
    }
    device_va_unmap(cudart_device(), b->addr);
    used -= rounded(b->live_bytes);
    b->live_bytes = 0;
    if (b->refs == 0)
        drop(b);
    return cudaSuccess;
}

int gmem_free(const void *ptr)
{
    gmem_block *b = ptr ? gmem_find(ptr) : NULL;
    if (!b || !b->live_bytes)
        return -1;
    gmem_unmap(b);
    return 0;
}

/* Give back the memory the live allocations do not use. */
static void trim(void)
{
    device_mem_uncharge(cudart_device(), reserved - used);
    reserved = used;
}

void gmem_reset(void)
{
    /* from the last: unmapping a block no node names drops it from the list */
    for (size_t i = nblocks; i-- > 0;)
        if (i < nblocks && blocks[i]->live_bytes)
            gmem_unmap(blocks[i]);
    trim();
    used_high = used;
    reserved_high = reserved;
}

/* ---- the API ----------------------------------------------------------------------------- */

CUDART_API cudaError_t cudaDeviceGraphMemTrim(int device)
{
    if (device != 0)
        return cudart_error(cudaErrorInvalidDevice);
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    trim();
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void *value)
{
    if (device != 0)
        return cudart_error(cudaErrorInvalidDevice);
    if (!value)
        return cudart_error(cudaErrorInvalidValue);
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    uint64_t v;
    switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent: v = used; break;
    case cudaGraphMemAttrUsedMemHigh: v = used_high; break;
    case cudaGraphMemAttrReservedMemCurrent: v = reserved; break;
    case cudaGraphMemAttrReservedMemHigh: v = reserved_high; break;
    default: return cudart_leave(cudaErrorInvalidValue);
    }
    *(uint64_t *)value = v;
    return cudart_leave(cudaSuccess);
}

/* Only the high-water marks can be set, and only to zero: the mark
 * restarts from the current amount. */
CUDART_API cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void *value)
{
    if (device != 0)
        return cudart_error(cudaErrorInvalidDevice);
    if (!value)
        return cudart_error(cudaErrorInvalidValue);
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    if ((attr != cudaGraphMemAttrUsedMemHigh && attr != cudaGraphMemAttrReservedMemHigh) ||
        *(uint64_t *)value != 0)
        return cudart_leave(cudaErrorInvalidValue);
    if (attr == cudaGraphMemAttrUsedMemHigh)
        used_high = used;
    else
        reserved_high = reserved;
    return cudart_leave(cudaSuccess);
}
