/*
 * devmem.c -- simulated device memory (devmem.h): the sparse page table
 * behind global memory, the cudaMalloc-like allocator, and the table of
 * live allocations every global access is checked against.
 *
 * DESIGN
 *
 * Backing store.  Device address a maps to offset o = a - ADDR_GLOBAL_BASE,
 * page p = o >> 16.  A two-level radix table holds the pages:
 *
 *     top[p >> LEAF_SHIFT] -> leaf[p & LEAF_MASK] -> 64 KiB host page
 *
 * `top` is a dense array sized from the capacity (1 TiB: 4096 entries);
 * leaves (4096 page pointers, 256 MiB of address space each) and pages are
 * calloc'd on the first write that needs them.  Reads of an absent page
 * return a const zero page shared by every devmem, so reading never
 * allocates.  A lookup is two loads and no branches beyond the NULL checks,
 * which matters: the interpreter calls devmem_rptr/devmem_wptr per lane.
 *
 * Allocator.  The address range [base, base + capacity rounded down to 256)
 * is covered by a sorted array of free ranges.  An allocation takes the
 * first range (lowest address) in which an `align`-aligned block of the
 * rounded size fits, splitting off what is left before and after it; a
 * free puts its rounded block back and merges it with adjacent free ranges.
 * Everything is a function of the call sequence, so placement is
 * deterministic.  A freed block is zeroed at once (whole pages released,
 * partial pages cleared) so a later allocation of the same bytes reads zeros
 * exactly as a fresh one does.
 *
 * Live allocations.  A second sorted array, by base.  devmem_find checks the
 * caller's hint first (O(1) for the common case of a warp hammering one
 * buffer) and falls back to a binary search.
 *
 * Nothing here aborts: host out-of-memory is returned as -1 / NULL and
 * leaves the structure as it was.
 */
#include "mem/devmem.h"

#include "mem/addrmap.h"
#include "util/common.h"

#define ALLOC_GRAIN 256ull              /* minimum alignment, size rounding */
#define LEAF_SHIFT 12                   /* pages per leaf: 4096 (256 MiB) */
#define LEAF_ENTRIES (1u << LEAF_SHIFT)
#define LEAF_MASK (LEAF_ENTRIES - 1)
#define PAGE_MASK (DEVMEM_PAGE_SIZE - 1)
/* Largest capacity accepted: 64 TiB needs a 2 MiB top table (calloc'd, so
 * untouched entries cost no resident memory either). */
#define DEVMEM_MAX_CAPACITY (1ull << 46)

/* Read-only zeros returned for pages never written. */
static const uint8_t zero_page[DEVMEM_PAGE_SIZE];

typedef struct free_range {
    uint64_t base, size;
} free_range;

struct devmem {
    uint8_t ***top;     /* top[ntop]: leaves, each LEAF_ENTRIES page pointers */
    size_t ntop;
    uint64_t span;      /* bytes of address space the table covers (whole pages) */
    uint64_t capacity;
    uint64_t used;      /* sum of rounded live sizes */
    uint64_t pages;     /* resident pages */
    VEC(free_range) free;      /* sorted by base, never adjacent */
    VEC(devmem_alloc) live;    /* sorted by base */
};

/* ------------------------------------------------------------------------ */
/* Page table                                                               */
/* ------------------------------------------------------------------------ */

/* The page holding offset off, or NULL if it was never written. */
static inline uint8_t *page_get(const devmem *dm, uint64_t off)
{
    uint64_t p = off >> DEVMEM_PAGE_SHIFT;
    uint8_t **leaf = dm->top[p >> LEAF_SHIFT];
    return leaf ? leaf[p & LEAF_MASK] : NULL;
}

/* The page holding offset off, allocated zero-filled if absent; NULL on
 * host out-of-memory. */
static uint8_t *page_make(devmem *dm, uint64_t off)
{
    uint64_t p = off >> DEVMEM_PAGE_SHIFT;
    uint8_t ***slot = &dm->top[p >> LEAF_SHIFT];
    if (!*slot) {
        *slot = calloc(LEAF_ENTRIES, sizeof(uint8_t *));
        if (!*slot)
            return NULL;
    }
    uint8_t **pg = &(*slot)[p & LEAF_MASK];
    if (!*pg) {
        *pg = calloc(1, DEVMEM_PAGE_SIZE);
        if (!*pg)
            return NULL;
        dm->pages++;
    }
    return *pg;
}

/* Release the page holding offset off (its contents read as zero again). */
static void page_release(devmem *dm, uint64_t off)
{
    uint64_t p = off >> DEVMEM_PAGE_SHIFT;
    uint8_t **leaf = dm->top[p >> LEAF_SHIFT];
    if (leaf && leaf[p & LEAF_MASK]) {
        free(leaf[p & LEAF_MASK]);
        leaf[p & LEAF_MASK] = NULL;
        dm->pages--;
    }
}

/* Is [addr, addr+n) inside the table?  Offset in *off. */
static int range_ok(const devmem *dm, uint64_t addr, uint64_t n, uint64_t *off)
{
    uint64_t o = addr - ADDR_GLOBAL_BASE; /* wraps huge when addr < base */
    if (o > dm->span || n > dm->span - o)
        return 0;
    *off = o;
    return 1;
}

/* Bytes from offset off to the end of its page. */
static inline uint64_t page_left(uint64_t off) { return DEVMEM_PAGE_SIZE - (off & PAGE_MASK); }

/* When off's leaf table was never made (so all its pages read as zero), the
 * bytes from off to the end of the leaf; else 0.  Lets zeroing loops skip 256 MiB at a time. */
static uint64_t absent_leaf_left(const devmem *dm, uint64_t off)
{
    uint64_t t = off >> (DEVMEM_PAGE_SHIFT + LEAF_SHIFT);
    if (dm->top[t])
        return 0;
    return ((t + 1) << (DEVMEM_PAGE_SHIFT + LEAF_SHIFT)) - off;
}

uint8_t *devmem_wptr(devmem *dm, uint64_t addr)
{
    uint64_t off = addr - ADDR_GLOBAL_BASE;
    if (UNLIKELY(off >= dm->span))
        return NULL;
    uint8_t *pg = page_get(dm, off);
    if (UNLIKELY(!pg)) {
        pg = page_make(dm, off);
        if (!pg)
            return NULL;
    }
    return pg + (off & PAGE_MASK);
}

const uint8_t *devmem_rptr(const devmem *dm, uint64_t addr)
{
    uint64_t off = addr - ADDR_GLOBAL_BASE;
    if (UNLIKELY(off >= dm->span))
        return NULL;
    const uint8_t *pg = page_get(dm, off);
    return (pg ? pg : zero_page) + (off & PAGE_MASK);
}

/* ------------------------------------------------------------------------ */
/* Bulk access                                                              */
/* ------------------------------------------------------------------------ */

/* The host bytes of [addr, addr+n) if that range lies in one mapped host
 * buffer, else NULL. */
static uint8_t *mapped(const devmem *dm, uint64_t addr, uint64_t n)
{
    if (addr >= ADDR_GLOBAL_BASE && addr - ADDR_GLOBAL_BASE < dm->span)
        return NULL;
    uint32_t hint = 0;
    const devmem_alloc *a = devmem_find(dm, addr, n, &hint);
    return a && a->host ? a->host + (addr - a->base) : NULL;
}

int devmem_read(const devmem *dm, uint64_t addr, void *dst, uint64_t n)
{
    uint8_t *h = mapped(dm, addr, n);
    if (h) {
        memcpy(dst, h, n);
        return 0;
    }
    uint64_t off;
    if (!range_ok(dm, addr, n, &off))
        return -1;
    uint8_t *d = dst;
    while (n) {
        uint64_t k = MIN(n, page_left(off));
        const uint8_t *pg = page_get(dm, off);
        if (pg)
            memcpy(d, pg + (off & PAGE_MASK), k);
        else
            memset(d, 0, k);
        d += k;
        off += k;
        n -= k;
    }
    return 0;
}

static int all_zero(const uint8_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

/* Writing zeros to an absent page changes nothing, so it does not allocate
 * one: cudaMemcpy of zero-initialised host arrays keeps memory sparse. */
int devmem_write(devmem *dm, uint64_t addr, const void *src, uint64_t n)
{
    uint8_t *h = mapped(dm, addr, n);
    if (h) {
        memcpy(h, src, n);
        return 0;
    }
    uint64_t off;
    if (!range_ok(dm, addr, n, &off))
        return -1;
    const uint8_t *s = src;
    while (n) {
        uint64_t k = MIN(n, page_left(off));
        uint8_t *pg = page_get(dm, off);
        if (!pg && !all_zero(s, k) && !(pg = page_make(dm, off)))
            return -1;
        if (pg)
            memcpy(pg + (off & PAGE_MASK), s, k);
        s += k;
        off += k;
        n -= k;
    }
    return 0;
}

/* A fill with zero skips absent pages for the same reason. */
int devmem_fill(devmem *dm, uint64_t addr, uint8_t value, uint64_t n)
{
    uint8_t *h = mapped(dm, addr, n);
    if (h) {
        memset(h, value, n);
        return 0;
    }
    uint64_t off;
    if (!range_ok(dm, addr, n, &off))
        return -1;
    while (n) {
        uint64_t k = value ? 0 : absent_leaf_left(dm, off);
        if (k) {
            k = MIN(n, k);
            off += k;
            n -= k;
            continue;
        }
        k = MIN(n, page_left(off));
        uint8_t *pg = page_get(dm, off);
        if (!pg && value && !(pg = page_make(dm, off)))
            return -1;
        if (pg)
            memset(pg + (off & PAGE_MASK), value, k);
        off += k;
        n -= k;
    }
    return 0;
}

/* Copy one piece that lies within one source page and one destination page.
 * The destination page is made first (if needed) so that, when both are the
 * same absent page, the source pointer is taken after it exists. */
static int copy_piece(devmem *dm, uint64_t doff, uint64_t soff, uint64_t k)
{
    uint8_t *dpg = page_get(dm, doff);
    const uint8_t *spg = page_get(dm, soff);
    if (!dpg && !spg)
        return 0; /* zeros onto zeros */
    if (!dpg) {
        if (!(dpg = page_make(dm, doff)))
            return -1;
        spg = page_get(dm, soff);
    }
    if (!spg)
        spg = zero_page;
    memmove(dpg + (doff & PAGE_MASK), spg + (soff & PAGE_MASK), k);
    return 0;
}

/* Overlapping copies work like memmove: forwards when the destination lies
 * below the source, backwards otherwise, so no byte is read after it was
 * overwritten. */
int devmem_copy(devmem *dm, uint64_t dst, uint64_t src, uint64_t n)
{
    uint8_t *hd = mapped(dm, dst, n), *hs = mapped(dm, src, n);
    if (hd && hs) {
        memmove(hd, hs, n);
        return 0;
    }
    if (hd) /* device range to a host buffer: the ranges cannot overlap */
        return devmem_read(dm, src, hd, n);
    if (hs)
        return devmem_write(dm, dst, hs, n);
    uint64_t doff, soff;
    if (!range_ok(dm, dst, n, &doff) || !range_ok(dm, src, n, &soff))
        return -1;
    if (doff == soff || n == 0)
        return 0;
    if (doff < soff) {
        while (n) {
            uint64_t k = MIN(n, MIN(page_left(doff), page_left(soff)));
            if (copy_piece(dm, doff, soff, k))
                return -1;
            doff += k;
            soff += k;
            n -= k;
        }
    } else {
        uint64_t dend = doff + n, send = soff + n;
        while (n) {
            /* bytes from the start of the page holding the last byte */
            uint64_t dk = ((dend - 1) & PAGE_MASK) + 1, sk = ((send - 1) & PAGE_MASK) + 1;
            uint64_t k = MIN(n, MIN(dk, sk));
            dend -= k;
            send -= k;
            if (copy_piece(dm, dend, send, k))
                return -1;
            n -= k;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Lifetime                                                                 */
/* ------------------------------------------------------------------------ */

devmem *devmem_create(uint64_t capacity)
{
    if (capacity > DEVMEM_MAX_CAPACITY)
        return NULL;
    devmem *dm = calloc(1, sizeof *dm);
    if (!dm)
        return NULL;
    uint64_t npages = (capacity + PAGE_MASK) >> DEVMEM_PAGE_SHIFT;
    dm->ntop = (size_t)((npages + LEAF_MASK) >> LEAF_SHIFT);
    dm->span = npages << DEVMEM_PAGE_SHIFT;
    dm->capacity = capacity;
    dm->top = calloc(dm->ntop ? dm->ntop : 1, sizeof *dm->top);
    if (!dm->top)
        goto fail;
    uint64_t usable = capacity & ~(ALLOC_GRAIN - 1);
    if (usable) {
        free_range all = {ADDR_GLOBAL_BASE, usable};
        if (vec_push(&dm->free, all))
            goto fail;
    }
    return dm;
fail:
    devmem_destroy(dm);
    return NULL;
}

void devmem_destroy(devmem *dm)
{
    if (!dm)
        return;
    if (dm->top) {
        for (size_t t = 0; t < dm->ntop; t++) {
            uint8_t **leaf = dm->top[t];
            if (!leaf)
                continue;
            for (size_t i = 0; i < LEAF_ENTRIES; i++)
                free(leaf[i]);
            free(leaf);
        }
        free(dm->top);
    }
    vec_free(&dm->free);
    vec_free(&dm->live);
    free(dm);
}

/* ------------------------------------------------------------------------ */
/* Allocator                                                                */
/* ------------------------------------------------------------------------ */

/* Index of the first live allocation with base > addr (binary search). */
static size_t live_upper(const devmem *dm, uint64_t addr)
{
    size_t lo = 0, hi = dm->live.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (dm->live.v[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Index of the first free range with base > addr. */
static size_t free_upper(const devmem *dm, uint64_t addr)
{
    size_t lo = 0, hi = dm->free.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (dm->free.v[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int devmem_alloc_block(devmem *dm, uint64_t size, uint64_t align, uint32_t tag, uint64_t *addr)
{
    if (size == 0 || size > dm->capacity || (align & (align - 1)) || align > DEVMEM_MAX_CAPACITY)
        return -1;
    if (align < ALLOC_GRAIN)
        align = ALLOC_GRAIN;
    uint64_t rsize = align_up64(size, ALLOC_GRAIN);
    if (rsize > dm->capacity - dm->used)
        return -1;
    /* Both arrays may grow by one; reserve first so that a failure leaves
     * everything unchanged. */
    if (vec_reserve(&dm->free, dm->free.n + 1) || vec_reserve(&dm->live, dm->live.n + 1))
        return -1;
    for (size_t i = 0; i < dm->free.n; i++) {
        free_range r = dm->free.v[i];
        uint64_t start = align_up64(r.base, align);
        uint64_t end = r.base + r.size;
        if (start >= end || rsize > end - start)
            continue;
        /* Split r into [r.base, start) and [start + rsize, end). */
        int has_lo = start > r.base, has_hi = start + rsize < end;
        free_range *f = dm->free.v;
        if (has_lo && has_hi) {
            memmove(f + i + 2, f + i + 1, (dm->free.n - i - 1) * sizeof *f);
            dm->free.n++;
            f[i].size = start - r.base;
            f[i + 1] = (free_range){start + rsize, end - start - rsize};
        } else if (has_lo) {
            f[i].size = start - r.base;
        } else if (has_hi) {
            f[i] = (free_range){start + rsize, end - start - rsize};
        } else {
            memmove(f + i, f + i + 1, (dm->free.n - i - 1) * sizeof *f);
            dm->free.n--;
        }
        size_t at = live_upper(dm, start);
        devmem_alloc *l = dm->live.v;
        memmove(l + at + 1, l + at, (dm->live.n - at) * sizeof *l);
        l[at] = (devmem_alloc){start, size, tag, NULL};
        dm->live.n++;
        dm->used += rsize;
        *addr = start;
        return 0;
    }
    return -1;
}

/* Zero [off, off+n): pages wholly inside are released, partial ones cleared. */
static void zero_range(devmem *dm, uint64_t off, uint64_t n)
{
    while (n) {
        uint64_t k = absent_leaf_left(dm, off);
        if (k) {
            k = MIN(n, k);
            off += k;
            n -= k;
            continue;
        }
        k = MIN(n, page_left(off));
        if (k == DEVMEM_PAGE_SIZE) {
            page_release(dm, off);
        } else {
            uint8_t *pg = page_get(dm, off);
            if (pg)
                memset(pg + (off & PAGE_MASK), 0, k);
        }
        off += k;
        n -= k;
    }
}

int devmem_map_host(devmem *dm, void *host, uint64_t size, uint32_t tag)
{
    uint64_t base = (uint64_t)(uintptr_t)host;
    if (!host || size == 0 || base + size < base)
        return -1;
    /* not inside the simulated device range or the generic windows */
    if (base < ADDR_GLOBAL_BASE + dm->span && base + size > ADDR_GLOBAL_BASE)
        return -1;
    if (base < ADDR_WINDOWS_END && base + size > ADDR_PARAM_WINDOW)
        return -1;
    size_t at = live_upper(dm, base);
    if (at > 0 && dm->live.v[at - 1].base + dm->live.v[at - 1].size > base)
        return -1;
    if (at < dm->live.n && dm->live.v[at].base < base + size)
        return -1;
    if (vec_reserve(&dm->live, dm->live.n + 1))
        return -1;
    devmem_alloc *l = dm->live.v;
    memmove(l + at + 1, l + at, (dm->live.n - at) * sizeof *l);
    l[at] = (devmem_alloc){base, size, tag, (uint8_t *)host};
    dm->live.n++;
    return 0;
}

int devmem_unmap_host(devmem *dm, void *host)
{
    uint64_t base = (uint64_t)(uintptr_t)host;
    size_t at = live_upper(dm, base);
    if (at == 0 || dm->live.v[at - 1].base != base || !dm->live.v[at - 1].host)
        return -1;
    at--;
    memmove(dm->live.v + at, dm->live.v + at + 1, (dm->live.n - at - 1) * sizeof *dm->live.v);
    dm->live.n--;
    return 0;
}

int devmem_free_block(devmem *dm, uint64_t addr)
{
    size_t at = live_upper(dm, addr);
    if (at == 0 || dm->live.v[at - 1].base != addr || dm->live.v[at - 1].host)
        return -1;
    at--;
    /* Growing the free list happens first: if it fails, nothing changed. */
    if (vec_reserve(&dm->free, dm->free.n + 1))
        return -1;
    uint64_t rsize = align_up64(dm->live.v[at].size, ALLOC_GRAIN);
    memmove(dm->live.v + at, dm->live.v + at + 1, (dm->live.n - at - 1) * sizeof *dm->live.v);
    dm->live.n--;
    dm->used -= rsize;
    zero_range(dm, addr - ADDR_GLOBAL_BASE, rsize);

    /* Insert [addr, addr + rsize) into the free list, merging with the
     * neighbours it touches. */
    size_t i = free_upper(dm, addr);
    free_range *f = dm->free.v;
    int join_prev = i > 0 && f[i - 1].base + f[i - 1].size == addr;
    int join_next = i < dm->free.n && addr + rsize == f[i].base;
    if (join_prev && join_next) {
        f[i - 1].size += rsize + f[i].size;
        memmove(f + i, f + i + 1, (dm->free.n - i - 1) * sizeof *f);
        dm->free.n--;
    } else if (join_prev) {
        f[i - 1].size += rsize;
    } else if (join_next) {
        f[i].base = addr;
        f[i].size += rsize;
    } else {
        memmove(f + i + 1, f + i, (dm->free.n - i) * sizeof *f);
        f[i] = (free_range){addr, rsize};
        dm->free.n++;
    }
    return 0;
}

void devmem_free_tagged(devmem *dm, uint32_t tag)
{
    for (size_t i = dm->live.n; i-- > 0;)
        if (dm->live.v[i].tag == tag && !dm->live.v[i].host)
            devmem_free_block(dm, dm->live.v[i].base);
}

/* ------------------------------------------------------------------------ */
/* Lookup                                                                   */
/* ------------------------------------------------------------------------ */

/* Does a contain [addr, addr+size)?  Written so nothing overflows: addr
 * below a->base wraps to a huge offset and fails the first test. */
static inline int contains(const devmem_alloc *a, uint64_t addr, uint64_t size)
{
    uint64_t off = addr - a->base;
    return off < a->size && size <= a->size - off;
}

const devmem_alloc *devmem_find(const devmem *dm, uint64_t addr, uint64_t size, uint32_t *hint)
{
    if (size == 0)
        size = 1;
    uint32_t h = *hint;
    if (LIKELY(h < dm->live.n) && contains(&dm->live.v[h], addr, size))
        return &dm->live.v[h];
    size_t at = live_upper(dm, addr);
    if (at == 0 || !contains(&dm->live.v[at - 1], addr, size))
        return NULL;
    *hint = (uint32_t)(at - 1);
    return &dm->live.v[at - 1];
}

/* When no allocation lies at or below addr, the lowest one above it is the
 * nearest (an access just before the first buffer). */
const devmem_alloc *devmem_nearest(const devmem *dm, uint64_t addr)
{
    if (dm->live.n == 0)
        return NULL;
    size_t at = live_upper(dm, addr);
    return &dm->live.v[at ? at - 1 : 0];
}

/* ------------------------------------------------------------------------ */
/* Accounting                                                               */
/* ------------------------------------------------------------------------ */

uint64_t devmem_capacity(const devmem *dm) { return dm->capacity; }
uint64_t devmem_used(const devmem *dm) { return dm->used; }
uint64_t devmem_resident_bytes(const devmem *dm) { return dm->pages * DEVMEM_PAGE_SIZE; }
size_t devmem_alloc_count(const devmem *dm) { return dm->live.n; }
