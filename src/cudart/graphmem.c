/*
 * graphmem.c -- the graph allocator: the memory behind CUDA graph memory
 * nodes (graph.c builds and runs the nodes), and cudaDeviceGraphMemTrim,
 * cudaDeviceGetGraphMemAttribute and cudaDeviceSetGraphMemAttribute.
 *
 * Addresses.  A graph allocation's address is fixed when its allocation
 * node is made, but its memory exists only from the moment the node runs
 * until the allocation is freed (a free node, cudaFreeAsync, cudaFree, or
 * the next launch of a graph instantiated with
 * cudaGraphInstantiateFlagAutoFreeOnLaunch).  lockstep models this as a
 * GPU's virtual memory does (core/device_int.h, device_va_*): each
 * allocation node names a block, device addresses reserved when the node
 * is made; running the node maps the allocation there, freeing it unmaps
 * it.  Outside its lifetime nothing is mapped at the address, so a kernel
 * that touches it faults (reported as a use after free) and a copy to or
 * from it is refused.  Allocation nodes of one graph may share a block
 * when their lifetimes cannot overlap (graph.c decides).
 *
 * Physical memory (DESIGN).  The CUDA programming guide's "Graph Memory
 * Nodes" chapter separates the addresses from the physical memory behind
 * them: the allocator takes physical memory from the device when the live
 * allocations need more than it holds, a graph's addresses stay mapped to
 * their physical memory after the allocation is freed (so relaunching the
 * graph costs no new memory), physical memory that no live allocation
 * uses is mapped again behind the next allocation of any graph, and only
 * cudaDeviceGraphMemTrim gives back what no live allocation uses.  lockstep
 * keeps that physical memory as pieces (struct piece), each a multiple of
 * 256 bytes (the granularity: every allocation is rounded up to 256
 * bytes, where a GPU maps 2 MiB pages), each mapped behind at most one
 * block (its owner) or behind none, and each in use by that block's live
 * allocation or idle.  An allocation of n bytes in block b takes idle
 * pieces in a fixed order: b's own first (the memory its last allocation
 * had), then pieces no block maps, then other blocks' (which lose the
 * mapping: the memory is remapped behind b), splitting the last piece it
 * takes where it needs only part of it, and takes from the device only what
 * those do not cover.  A freed allocation's pieces stay mapped behind its
 * block, idle.  A block that no node names any more goes (its addresses
 * are given back) and its pieces stay, mapped behind nothing.  Trim gives
 * every idle piece back to the device.  The attributes are, exactly and in
 * bytes:
 *   ReservedMemCurrent  the pieces the allocator holds (what
 *                       device_mem_charge took: cudaMalloc and
 *                       cudaMemGetInfo see it go);
 *   UsedMemCurrent      the pieces mapped behind some graph's addresses
 *                       ("physical memory currently mapped by at least one
 *                       graph"): live allocations, and freed ones until
 *                       trimmed or until their graphs are destroyed;
 *   ...High             the highest each has been since it was last reset
 *                       (only to zero: it restarts from the current value).
 * Everything runs when issued, so two graphs never run at once and a
 * graph's memory is idle again as soon as its launch has freed it: graphs
 * launched in different streams share physical memory where a GPU running
 * them concurrently could not.
 *
 * All state is process-wide and guarded by the runtime's lock.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/device_int.h"
#include "cudart/cuda_api.h"
#include "cudart/runtime.h"

/* A piece of physical memory the allocator holds. */
typedef struct piece {
    uint64_t size;      /* bytes, a multiple of 256 */
    gmem_block *owner;  /* the block it is mapped behind, or NULL */
    int live;           /* in use by owner's live allocation */
} piece;

static gmem_block **blocks; /* in creation order */
static size_t nblocks, capblocks;
static piece *pieces;       /* in a fixed order: taking, splitting and merging keep it */
static size_t npieces, cappieces;
static uint64_t used_high, reserved_high;

static uint64_t rounded(size_t bytes) { return ((uint64_t)bytes + 255) & ~(uint64_t)255; }

/* ---- accounting ----------------------------------------------------------------------- */

static uint64_t reserved_now(void)
{
    uint64_t r = 0;
    for (size_t i = 0; i < npieces; i++)
        r += pieces[i].size;
    return r;
}

static uint64_t used_now(void)
{
    uint64_t u = 0;
    for (size_t i = 0; i < npieces; i++)
        if (pieces[i].owner)
            u += pieces[i].size;
    return u;
}

/* After every change: neighbouring pieces in the same state become one
 * (so the list stays as short as the states it must tell apart), and the
 * high-water marks follow the current amounts. */
static void settle(void)
{
    size_t k = 0;
    for (size_t i = 0; i < npieces; i++) {
        if (k && pieces[k - 1].owner == pieces[i].owner && pieces[k - 1].live == pieces[i].live)
            pieces[k - 1].size += pieces[i].size;
        else
            pieces[k++] = pieces[i];
    }
    npieces = k;
    uint64_t u = used_now(), r = reserved_now();
    if (u > used_high)
        used_high = u;
    if (r > reserved_high)
        reserved_high = r;
}

/* Room for `more` pieces. */
static int pieces_room(size_t more)
{
    if (npieces + more <= cappieces)
        return 0;
    size_t c = cappieces ? 2 * cappieces : 16;
    while (c < npieces + more)
        c *= 2;
    piece *v = realloc(pieces, c * sizeof *v);
    if (!v)
        return -1;
    pieces = v;
    cappieces = c;
    return 0;
}

/* ---- blocks: the addresses -------------------------------------------------------------- */

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

/* A block neither named nor live: its addresses go; its physical memory
 * stays with the allocator, mapped behind nothing. */
static void drop(gmem_block *b)
{
    device_va_release(cudart_device(), b->addr, b->size);
    for (size_t i = 0; i < npieces; i++)
        if (pieces[i].owner == b)
            pieces[i].owner = NULL;
    for (size_t i = 0; i < nblocks; i++)
        if (blocks[i] == b) {
            /* keep creation order: reset walks it */
            memmove(blocks + i, blocks + i + 1, (nblocks - i - 1) * sizeof *blocks);
            nblocks--;
            break;
        }
    free(b);
    settle();
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

/* ---- mapping: the physical memory --------------------------------------------------------- */

/* Whether idle piece p is one pass `pass` takes for block b: 0, b's own;
 * 1, mapped behind no block; 2, another block's. */
static int takes(const piece *p, const gmem_block *b, int pass)
{
    if (p->live)
        return 0;
    return pass == 0 ? p->owner == b : pass == 1 ? !p->owner : p->owner && p->owner != b;
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
    uint64_t need = rounded(bytes), idle = 0;
    for (size_t i = 0; i < npieces; i++)
        if (!pieces[i].live)
            idle += pieces[i].size;
    uint64_t fresh = need > idle ? need - idle : 0;
    /* room for a split and a fresh piece first: past this point nothing fails
     * but the host's mapping, and that leaves the pieces consistent */
    if (pieces_room(2))
        return cudaErrorMemoryAllocation;
    if (fresh && device_mem_charge(dev, fresh) != LOCKSTEP_SUCCESS)
        return cudaErrorMemoryAllocation;
    if (device_va_map(dev, b->addr, bytes) != LOCKSTEP_SUCCESS) {
        if (fresh)
            device_mem_uncharge(dev, fresh);
        return cudaErrorMemoryAllocation; /* host out of memory: nothing is mapped */
    }
    uint64_t left = need - fresh;
    for (int pass = 0; pass < 3 && left; pass++)
        for (size_t i = 0; i < npieces && left; i++) {
            piece *p = &pieces[i];
            if (!takes(p, b, pass))
                continue;
            if (p->size > left) {
                /* split: the part beyond what b needs stays as it was */
                memmove(pieces + i + 2, pieces + i + 1, (npieces - i - 1) * sizeof *pieces);
                npieces++;
                pieces[i + 1] = *p;
                pieces[i + 1].size = p->size - left;
                p->size = left;
            }
            p->owner = b;
            p->live = 1;
            left -= p->size;
        }
    if (fresh)
        pieces[npieces++] = (piece){fresh, b, 1};
    b->live_bytes = bytes;
    settle();
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
    /* its memory stays mapped behind the block, idle, until a trim */
    for (size_t i = 0; i < npieces; i++)
        if (pieces[i].owner == b)
            pieces[i].live = 0;
    b->live_bytes = 0;
    settle();
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

/* Give back every piece no live allocation uses. */
static void trim(void)
{
    lockstep_device *dev = cudart_device();
    size_t k = 0;
    for (size_t i = 0; i < npieces; i++) {
        if (pieces[i].live)
            pieces[k++] = pieces[i];
        else
            device_mem_uncharge(dev, pieces[i].size);
    }
    npieces = k;
    settle();
}

void gmem_reset(void)
{
    /* from the last: unmapping a block no node names drops it from the list */
    for (size_t i = nblocks; i-- > 0;)
        if (i < nblocks && blocks[i]->live_bytes)
            gmem_unmap(blocks[i]);
    trim();
    used_high = used_now();
    reserved_high = reserved_now();
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
    case cudaGraphMemAttrUsedMemCurrent: v = used_now(); break;
    case cudaGraphMemAttrUsedMemHigh: v = used_high; break;
    case cudaGraphMemAttrReservedMemCurrent: v = reserved_now(); break;
    case cudaGraphMemAttrReservedMemHigh: v = reserved_high; break;
    default: return cudart_leave(cudaErrorInvalidValue);
    }
    memcpy(value, &v, sizeof v);
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
    uint64_t v;
    memcpy(&v, value, sizeof v);
    if ((attr != cudaGraphMemAttrUsedMemHigh && attr != cudaGraphMemAttrReservedMemHigh) || v)
        return cudart_leave(cudaErrorInvalidValue);
    if (attr == cudaGraphMemAttrUsedMemHigh)
        used_high = used_now();
    else
        reserved_high = reserved_now();
    return cudart_leave(cudaSuccess);
}
