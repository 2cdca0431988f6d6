/*
 * graphcond.c -- conditional handles: the values CUDA graphs' conditional
 * nodes (IF, WHILE, SWITCH; graph.c) test, and cudaGraphConditionalHandleCreate.
 *
 * A handle's value is a 4-byte word of device memory.  Device code sets it
 * with cudaGraphSetConditional, which nvcc emits as a call of an extern
 * device function that lockstep provides as a built-in (exec/devrt.c): a
 * store to the word.  So the handle the program gets, and passes to its
 * kernels by value, is the word's address with a tag in its top bits
 * (ADDR_COND_HANDLE, util/addrmap.h): the built-in needs nothing of the
 * runtime, and a made-up or uninitialized handle is refused by the tag.
 * The runtime reads the word when a conditional node runs and writes the
 * handle's default into it when a graph it was made for starts, if it was
 * made with cudaGraphCondAssignDefault (graph.c).
 *
 * The words live in pages of 1024 (4 KiB of device addresses reserved and
 * mapped at once, core/device_int.h device_va_*: internal memory that
 * cudaMalloc, cudaMemGetInfo and the graph allocator's attributes do not
 * count, and cudaDeviceReset keeps, as it keeps graphs).  A handle lives
 * while its graph or a node naming it (in a graph or an executable graph)
 * does; then its word goes back to its page, zeroed, for the next handle.
 * A kernel that still sets a handle whose graph is gone therefore writes
 * a word that is free or another handle's: CUDA calls that undefined, and
 * lockstep never lets it reach the program's own memory.  Words are
 * handed out lowest first, so handles are the same on every run.
 *
 * All state is process-wide and guarded by the runtime's lock.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/device_int.h"
#include "cudart/cuda_api.h"
#include "cudart/runtime.h"
#include "util/addrmap.h"

#define WORDS_PER_PAGE 1024u

typedef struct cond_page {
    lockstep_dptr base;
    gcond *word[WORDS_PER_PAGE]; /* the handle using each word, or NULL */
} cond_page;

static cond_page **pages;
static size_t npages, cappages;

/* A free word: the lowest of the pages there are, else a new page's first. */
static cudaError_t word_take(gcond *c)
{
    for (size_t p = 0; p < npages; p++)
        for (uint32_t i = 0; i < WORDS_PER_PAGE; i++)
            if (!pages[p]->word[i]) {
                pages[p]->word[i] = c;
                c->addr = pages[p]->base + 4u * i;
                return cudaSuccess;
            }
    if (npages == cappages) {
        size_t n = cappages ? 2 * cappages : 4;
        cond_page **v = realloc(pages, n * sizeof *v);
        if (!v)
            return cudaErrorMemoryAllocation;
        pages = v;
        cappages = n;
    }
    cond_page *pg = calloc(1, sizeof *pg);
    if (!pg)
        return cudaErrorMemoryAllocation;
    lockstep_device *dev = cudart_device();
    if (device_va_reserve(dev, 4u * WORDS_PER_PAGE, &pg->base) != LOCKSTEP_SUCCESS) {
        free(pg);
        return cudaErrorMemoryAllocation;
    }
    if (device_va_map(dev, pg->base, 4u * WORDS_PER_PAGE) != LOCKSTEP_SUCCESS) {
        device_va_release(dev, pg->base, 4u * WORDS_PER_PAGE);
        free(pg);
        return cudaErrorMemoryAllocation;
    }
    pages[npages++] = pg;
    pg->word[0] = c;
    c->addr = pg->base;
    return cudaSuccess;
}

static void word_give(gcond *c)
{
    static const uint32_t zero;
    for (size_t p = 0; p < npages; p++)
        if (c->addr >= pages[p]->base && c->addr < pages[p]->base + 4u * WORDS_PER_PAGE) {
            pages[p]->word[(c->addr - pages[p]->base) / 4] = NULL;
            lockstep_memcpy_htod(cudart_device(), c->addr, &zero, 4);
            return;
        }
}

cudaError_t gcond_new(uint64_t graph, unsigned dflt, unsigned flags, gcond **out)
{
    gcond *c = calloc(1, sizeof *c);
    if (!c)
        return cudaErrorMemoryAllocation;
    cudaError_t e = word_take(c);
    if (e) {
        free(c);
        return e;
    }
    c->graph = graph;
    c->dflt = dflt;
    c->flags = flags;
    c->refs = 1;
    *out = c;
    return cudaSuccess;
}

void gcond_ref(gcond *c) { c->refs++; }

void gcond_unref(gcond *c)
{
    if (--c->refs)
        return;
    word_give(c);
    free(c);
}

gcond *gcond_find(cudaGraphConditionalHandle h)
{
    if (!ADDR_IS_COND_HANDLE(h))
        return NULL;
    lockstep_dptr a = ADDR_COND_HANDLE_ADDR(h);
    for (size_t p = 0; p < npages; p++)
        if (a >= pages[p]->base && a < pages[p]->base + 4u * WORDS_PER_PAGE && !(a & 3))
            return pages[p]->word[(a - pages[p]->base) / 4];
    return NULL;
}

cudaGraphConditionalHandle gcond_handle(const gcond *c) { return ADDR_COND_HANDLE(c->addr); }

uint32_t gcond_get(const gcond *c)
{
    uint32_t v = 0;
    lockstep_memcpy_dtoh(cudart_device(), &v, c->addr, 4);
    return v;
}

void gcond_set(const gcond *c, uint32_t v)
{
    lockstep_memcpy_htod(cudart_device(), c->addr, &v, 4);
}
