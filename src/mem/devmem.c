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
 * Trees.  Both the free ranges and the live allocations are treaps keyed by
 * base address: binary search trees whose nodes also obey a heap order on a
 * priority, which keeps them balanced (O(log n) expected depth).  The
 * priority is a SplitMix64 hash of the node's key when the node is made, so
 * the shape is a function of the call sequence alone -- no rand(), no host
 * pointers (except a mapped host buffer's own address, which is its key).
 * Nodes live in a pool (a growable array) and refer to each other by
 * index; a removed node goes on a free list and is reused by the next
 * insertion.  Every node also records the largest `size` in its subtree,
 * which the free-range tree uses to find a fit.  Operations are recursive
 * along one root-to-node path, so the recursion depth is the tree depth.
 * The pool is grown (the only step that can fail) before anything is
 * changed, so a host out-of-memory leaves the structure as it was.
 *
 * Allocator.  The address range [base, base + capacity rounded down to 256)
 * is covered by the free-range tree, whose ranges are never adjacent.  An
 * allocation takes the first range (lowest address) in which an
 * `align`-aligned block of the rounded size fits: an in-order descent that
 * skips every subtree whose largest range is too small.  With the default
 * 256-byte alignment every range of sufficient size fits (bases are
 * 256-aligned), so the descent never backtracks: O(log n).  Larger
 * alignments visit the big-enough ranges in address order until one fits.
 * What is left before and after the block stays free (a range's base may
 * move up in place: it stays between the same neighbours, so the tree order
 * holds).  A free puts its rounded block back and merges it with adjacent
 * free ranges.  Placement is thus exactly that of a sorted list scanned
 * first-fit, and deterministic.  A freed block is zeroed at once (whole
 * pages released, partial pages cleared) so a later allocation of the same
 * bytes reads zeros exactly as a fresh one does.
 *
 * Live allocations.  The second tree, whose pool runs parallel to an array
 * of devmem_alloc records (size 0 marks an unused slot).  A node's index is
 * stable while it lives, so devmem_find's hint is a node index: checked
 * (in range, live, containing the access) and used in O(1) for the common
 * case of a warp hammering one buffer, else a tree search.
 *
 * Modelled physical addresses.  Device blocks are their own physical
 * address.  A mapped host buffer gets the next 64 KiB-aligned range of a
 * region above the device range, in mapping order and never reused, so the
 * timing model sees the same addresses whatever the host's address-space
 * randomisation did (devmem_phys).
 *
 * Freed blocks.  The last FREED_RING freed device blocks are kept in a ring
 * so that a fault can be diagnosed as a use after free (devmem_freed).
 *
 * Reserved ranges.  devmem_reserve carves a block out of the free tree as an
 * allocation would, but records it nowhere: a reserved range is simply
 * address space in neither tree, which the caller remembers.  Mapping puts
 * a record (marked `reserved`) into the live tree without touching the free
 * tree or `used`; unmapping takes it out again, zeroes its bytes and puts
 * it in the freed ring, so an access afterwards is diagnosed as a use after
 * free.  devmem_unreserve checks that the range is in neither tree before
 * merging it back into the free ranges.  Memory for such ranges is counted
 * by the caller's explicit devmem_charge / devmem_uncharge, which move
 * `used` within the capacity.
 *
 * Nothing here aborts: host out-of-memory is returned as -1 / NULL and
 * leaves the structure as it was.
 */
#include "mem/devmem.h"

#include "util/addrmap.h"
#include "util/common.h"
#include "util/rng.h"

#define ALLOC_GRAIN 256ull              /* minimum alignment, size rounding */
#define LEAF_SHIFT 12                   /* pages per leaf: 4096 (256 MiB) */
#define LEAF_ENTRIES (1u << LEAF_SHIFT)
#define LEAF_MASK (LEAF_ENTRIES - 1)
#define PAGE_MASK (DEVMEM_PAGE_SIZE - 1)
/* Largest capacity accepted: 64 TiB needs a 2 MiB top table (calloc'd, so
 * untouched entries cost no resident memory either). */
#define DEVMEM_MAX_CAPACITY (1ull << 46)
#define NIL UINT32_MAX                  /* no node */
#define FREED_RING 1024u                /* freed blocks remembered (power of two) */
#define PHYS_REGION_ALIGN (1ull << 30)  /* host mappings' modelled region starts on 1 GiB */
#define PHYS_MAP_ALIGN (1ull << 16)     /* each mapping starts on 64 KiB */

/* Read-only zeros returned for pages never written. */
static const uint8_t zero_page[DEVMEM_PAGE_SIZE];

/* A treap node: key (a base address), the size of its range, the largest
 * size in its subtree, the heap priority, and the children. */
typedef struct tnode {
    uint64_t key, size, max, prio;
    uint32_t l, r;
} tnode;

/* A treap over a node pool; removed nodes are chained through `l`. */
typedef struct tree {
    VEC(tnode) n;
    uint32_t root, freelist;
    size_t count; /* nodes in the tree */
} tree;

struct devmem {
    uint8_t ***top;     /* top[ntop]: leaves, each LEAF_ENTRIES page pointers */
    size_t ntop;
    uint64_t span;      /* bytes of address space the table covers (whole pages) */
    uint64_t capacity;
    uint64_t used;      /* sum of rounded live sizes */
    uint64_t pages;     /* resident pages */
    tree free;          /* free ranges, never adjacent */
    tree live;          /* live allocations */
    VEC(devmem_alloc) rec; /* rec[i]: the allocation of live node i (size 0: none) */
    uint64_t phys_next; /* modelled physical address of the next host mapping */
    uint64_t freed_n;   /* device blocks freed so far (ring position) */
    devmem_alloc freed[FREED_RING];
    uint8_t host_accessed; /* some rec[i].accessed is set (relaxed atomic) */
};

/* ------------------------------------------------------------------------ */
/* Treap                                                                    */
/* ------------------------------------------------------------------------ */

/* The priority of a node made with key k: a hash, so the shape only
 * depends on the keys and the order of operations. */
static uint64_t key_prio(uint64_t k) { return rng_splitmix64(&k); }

/* Recompute x's subtree maximum from its children. */
static inline void pull(tree *t, uint32_t x)
{
    tnode *v = t->n.v;
    uint64_t m = v[x].size;
    if (v[x].l != NIL && v[v[x].l].max > m)
        m = v[v[x].l].max;
    if (v[x].r != NIL && v[v[x].r].max > m)
        m = v[v[x].r].max;
    v[x].max = m;
}

/* Make sure tree_new can take a node without allocating: 0, or -1 when the
 * host is out of memory (nothing changed). */
static int tree_reserve(tree *t)
{
    if (t->freelist != NIL)
        return 0;
    if (t->n.n >= NIL - 1)
        return -1;
    return vec_reserve(&t->n, t->n.n + 1);
}

/* A fresh unlinked node (tree_reserve must have succeeded). */
static uint32_t tree_new(tree *t, uint64_t key, uint64_t size)
{
    uint32_t x = t->freelist;
    if (x != NIL)
        t->freelist = t->n.v[x].l;
    else
        x = (uint32_t)t->n.n++;
    t->n.v[x] = (tnode){key, size, size, key_prio(key), NIL, NIL};
    return x;
}

/* Split subtree x into keys < key (*lo) and keys >= key (*hi). */
static void tree_split(tree *t, uint32_t x, uint64_t key, uint32_t *lo, uint32_t *hi)
{
    if (x == NIL) {
        *lo = *hi = NIL;
        return;
    }
    if (t->n.v[x].key < key) {
        uint32_t r;
        tree_split(t, t->n.v[x].r, key, &r, hi);
        t->n.v[x].r = r;
        *lo = x;
    } else {
        uint32_t l;
        tree_split(t, t->n.v[x].l, key, lo, &l);
        t->n.v[x].l = l;
        *hi = x;
    }
    pull(t, x);
}

/* Join subtrees a and b, every key of a below every key of b. */
static uint32_t tree_merge(tree *t, uint32_t a, uint32_t b)
{
    if (a == NIL)
        return b;
    if (b == NIL)
        return a;
    if (t->n.v[a].prio >= t->n.v[b].prio) {
        uint32_t r = tree_merge(t, t->n.v[a].r, b);
        t->n.v[a].r = r;
        pull(t, a);
        return a;
    }
    uint32_t l = tree_merge(t, a, t->n.v[b].l);
    t->n.v[b].l = l;
    pull(t, b);
    return b;
}

/* Insert unlinked node n into subtree x; returns the new subtree root. */
static uint32_t insert_at(tree *t, uint32_t x, uint32_t n)
{
    if (x == NIL)
        return n;
    if (t->n.v[n].prio > t->n.v[x].prio) {
        uint32_t lo, hi;
        tree_split(t, x, t->n.v[n].key, &lo, &hi);
        t->n.v[n].l = lo;
        t->n.v[n].r = hi;
        pull(t, n);
        return n;
    }
    if (t->n.v[n].key < t->n.v[x].key) {
        uint32_t l = insert_at(t, t->n.v[x].l, n);
        t->n.v[x].l = l;
    } else {
        uint32_t r = insert_at(t, t->n.v[x].r, n);
        t->n.v[x].r = r;
    }
    pull(t, x);
    return x;
}

/* Make a node (key, size) and link it; tree_reserve first.  Its index. */
static uint32_t tree_insert(tree *t, uint64_t key, uint64_t size)
{
    uint32_t n = tree_new(t, key, size);
    t->root = insert_at(t, t->root, n);
    t->count++;
    return n;
}

/* Unlink the node with `key` from subtree x (it must be there), storing its
 * index in *gone; returns the new subtree root. */
static uint32_t erase_at(tree *t, uint32_t x, uint64_t key, uint32_t *gone)
{
    tnode *v = t->n.v;
    if (v[x].key == key) {
        *gone = x;
        return tree_merge(t, v[x].l, v[x].r);
    }
    if (key < v[x].key) {
        uint32_t l = erase_at(t, v[x].l, key, gone);
        t->n.v[x].l = l;
    } else {
        uint32_t r = erase_at(t, v[x].r, key, gone);
        t->n.v[x].r = r;
    }
    pull(t, x);
    return x;
}

/* Remove the node with `key` (present) and return its index, now on the
 * free list. */
static uint32_t tree_erase(tree *t, uint64_t key)
{
    uint32_t gone = NIL;
    t->root = erase_at(t, t->root, key, &gone);
    t->n.v[gone].l = t->freelist;
    t->n.v[gone].r = NIL;
    t->freelist = gone;
    t->count--;
    return gone;
}

/* Recompute the maxima on the path to the node with `key` (present), after
 * its size (or its key, within its neighbours) changed in place. */
static void refresh_at(tree *t, uint32_t x, uint64_t key)
{
    if (t->n.v[x].key != key)
        refresh_at(t, key < t->n.v[x].key ? t->n.v[x].l : t->n.v[x].r, key);
    pull(t, x);
}

/* The node with the largest key <= key, or NIL. */
static uint32_t tree_floor(const tree *t, uint64_t key)
{
    uint32_t x = t->root, best = NIL;
    while (x != NIL) {
        if (t->n.v[x].key <= key) {
            best = x;
            x = t->n.v[x].r;
        } else {
            x = t->n.v[x].l;
        }
    }
    return best;
}

/* The node with the smallest key > key, or NIL. */
static uint32_t tree_above(const tree *t, uint64_t key)
{
    uint32_t x = t->root, best = NIL;
    while (x != NIL) {
        if (t->n.v[x].key > key) {
            best = x;
            x = t->n.v[x].l;
        } else {
            x = t->n.v[x].r;
        }
    }
    return best;
}

/* The node with the smallest key, or NIL. */
static uint32_t tree_first(const tree *t)
{
    uint32_t x = t->root;
    while (x != NIL && t->n.v[x].l != NIL)
        x = t->n.v[x].l;
    return x;
}

/* Start of an `align`-aligned block of rsize bytes in range x, or 0 when
 * none fits (device addresses are never 0). */
static uint64_t fit_in(const tnode *x, uint64_t rsize, uint64_t align)
{
    uint64_t start = align_up64(x->key, align), end = x->key + x->size;
    return start < end && rsize <= end - start ? start : 0;
}

/* The lowest-addressed range in subtree x holding an `align`-aligned block
 * of rsize bytes, or NIL: in order, skipping subtrees whose largest range
 * is smaller than rsize. */
static uint32_t tree_fit(const tree *t, uint32_t x, uint64_t rsize, uint64_t align)
{
    const tnode *v = t->n.v;
    while (x != NIL && v[x].max >= rsize) {
        uint32_t l = v[x].l;
        if (l != NIL && v[l].max >= rsize) {
            uint32_t f = tree_fit(t, l, rsize, align);
            if (f != NIL)
                return f;
        }
        if (fit_in(&v[x], rsize, align))
            return x;
        x = v[x].r;
    }
    return NIL;
}

/* An empty tree. */
static void tree_init(tree *t)
{
    memset(t, 0, sizeof *t);
    t->root = t->freelist = NIL;
}

/* ------------------------------------------------------------------------ */
/* Page table                                                               */
/* ------------------------------------------------------------------------ */

/* The page table is shared by the components of a parallel engine: memory
 * partitions on different host threads write different lines of the same
 * pages and may create a page at the same moment.  The pointers are
 * therefore read with acquire loads and installed with a compare-and-swap:
 * the loser frees its zero-filled page and uses the winner's, which is
 * indistinguishable, so contents never depend on which thread won.  (The
 * allocator and page release run only between launches or windows.) */

/* The page holding offset off, or NULL if it was never written. */
static inline uint8_t *page_get(const devmem *dm, uint64_t off)
{
    uint64_t p = off >> DEVMEM_PAGE_SHIFT;
    uint8_t **leaf = __atomic_load_n(&dm->top[p >> LEAF_SHIFT], __ATOMIC_ACQUIRE);
    return leaf ? __atomic_load_n(&leaf[p & LEAF_MASK], __ATOMIC_ACQUIRE) : NULL;
}

/* The page holding offset off, allocated zero-filled if absent; NULL on
 * host out-of-memory. */
static uint8_t *page_make(devmem *dm, uint64_t off)
{
    uint64_t p = off >> DEVMEM_PAGE_SHIFT;
    uint8_t ***slot = &dm->top[p >> LEAF_SHIFT];
    uint8_t **leaf = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!leaf) {
        uint8_t **fresh = calloc(LEAF_ENTRIES, sizeof(uint8_t *));
        if (!fresh)
            return NULL;
        if (__atomic_compare_exchange_n(slot, &leaf, fresh, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            leaf = fresh;
        else
            free(fresh); /* another thread made it: leaf holds theirs */
    }
    uint8_t **pg = &leaf[p & LEAF_MASK];
    uint8_t *page = __atomic_load_n(pg, __ATOMIC_ACQUIRE);
    if (!page) {
        uint8_t *fresh = calloc(1, DEVMEM_PAGE_SIZE);
        if (!fresh)
            return NULL;
        if (__atomic_compare_exchange_n(pg, &page, fresh, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            page = fresh;
            __atomic_fetch_add(&dm->pages, 1, __ATOMIC_RELAXED);
        } else {
            free(fresh);
        }
    }
    return page;
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
    if (__atomic_load_n(&dm->top[t], __ATOMIC_ACQUIRE))
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
    tree_init(&dm->free);
    tree_init(&dm->live);
    uint64_t npages = (capacity + PAGE_MASK) >> DEVMEM_PAGE_SHIFT;
    dm->ntop = (size_t)((npages + LEAF_MASK) >> LEAF_SHIFT);
    dm->span = npages << DEVMEM_PAGE_SHIFT;
    dm->capacity = capacity;
    dm->phys_next = ADDR_GLOBAL_BASE + align_up64(dm->span, PHYS_REGION_ALIGN);
    dm->top = calloc(dm->ntop ? dm->ntop : 1, sizeof *dm->top);
    if (!dm->top)
        goto fail;
    uint64_t usable = capacity & ~(ALLOC_GRAIN - 1);
    if (usable) {
        if (tree_reserve(&dm->free))
            goto fail;
        tree_insert(&dm->free, ADDR_GLOBAL_BASE, usable);
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
    vec_free(&dm->free.n);
    vec_free(&dm->live.n);
    vec_free(&dm->rec);
    free(dm);
}

/* ------------------------------------------------------------------------ */
/* Allocator                                                                */
/* ------------------------------------------------------------------------ */

/* Make room for one more live allocation: 0, or -1 (nothing changed). */
static int live_reserve(devmem *dm)
{
    if (tree_reserve(&dm->live))
        return -1;
    return dm->live.freelist != NIL ? 0 : vec_reserve(&dm->rec, dm->live.n.n + 1);
}

/* Record allocation a as live (live_reserve first). */
static void live_add(devmem *dm, devmem_alloc a)
{
    uint32_t x = tree_insert(&dm->live, a.base, a.size);
    if (x >= dm->rec.n)
        dm->rec.n = (size_t)x + 1;
    dm->rec.v[x] = a;
}

/* Forget the live allocation at base (present). */
static void live_remove(devmem *dm, uint64_t base)
{
    uint32_t x = tree_erase(&dm->live, base);
    dm->rec.v[x] = (devmem_alloc){0};
}

/* The live allocation whose base is exactly base, or NULL. */
static devmem_alloc *live_at(const devmem *dm, uint64_t base)
{
    uint32_t x = tree_floor(&dm->live, base);
    return x != NIL && dm->rec.v[x].base == base ? &dm->rec.v[x] : NULL;
}

/* Take the first range of free address space where an `align`-aligned block
 * of rsize bytes fits (the free tree must have room for one more node:
 * tree_reserve first): 0 and its start, or -1 (none fits; nothing changed). */
static int carve(devmem *dm, uint64_t rsize, uint64_t align, uint64_t *addr)
{
    uint32_t x = tree_fit(&dm->free, dm->free.root, rsize, align);
    if (x == NIL)
        return -1;
    tnode *r = &dm->free.n.v[x];
    uint64_t base = r->key, end = r->key + r->size, start = fit_in(r, rsize, align);
    /* Split r into [base, start) and [start + rsize, end). */
    int has_lo = start > base, has_hi = start + rsize < end;
    if (has_lo) {
        r->size = start - base;
        refresh_at(&dm->free, dm->free.root, base);
        if (has_hi)
            tree_insert(&dm->free, start + rsize, end - start - rsize);
    } else if (has_hi) {
        r->key = start + rsize; /* still between the same neighbours */
        r->size = end - start - rsize;
        refresh_at(&dm->free, dm->free.root, start + rsize);
    } else {
        tree_erase(&dm->free, base);
    }
    *addr = start;
    return 0;
}

/* Put the rounded block [addr, addr + rsize) back into the free tree (which
 * must have room for one more node), merging it with the free ranges it
 * touches. */
static void give_back(devmem *dm, uint64_t addr, uint64_t rsize)
{
    tree *f = &dm->free;
    uint32_t p = tree_floor(f, addr), n = tree_above(f, addr);
    int join_prev = p != NIL && f->n.v[p].key + f->n.v[p].size == addr;
    int join_next = n != NIL && addr + rsize == f->n.v[n].key;
    if (join_prev && join_next) {
        f->n.v[p].size += rsize + f->n.v[n].size;
        tree_erase(f, f->n.v[n].key);
        refresh_at(f, f->root, f->n.v[p].key);
    } else if (join_prev) {
        f->n.v[p].size += rsize;
        refresh_at(f, f->root, f->n.v[p].key);
    } else if (join_next) {
        f->n.v[n].key = addr; /* still above p */
        f->n.v[n].size += rsize;
        refresh_at(f, f->root, addr);
    } else {
        tree_insert(f, addr, rsize);
    }
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
    /* Both trees may grow by one node; reserve first so that a failure
     * leaves everything unchanged. */
    if (tree_reserve(&dm->free) || live_reserve(dm))
        return -2;
    uint64_t start;
    if (carve(dm, rsize, align, &start))
        return -1;
    live_add(dm, (devmem_alloc){.base = start, .size = size, .phys = start, .tag = tag});
    dm->used += rsize;
    *addr = start;
    return 0;
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

/* Map [host, host+size) at its own address; its modelled physical range
 * is `phys`, or (phys == UINT64_MAX) a new one. */
static int map_host_at(devmem *dm, void *host, uint64_t size, uint32_t tag, uint64_t phys)
{
    uint64_t base = (uint64_t)(uintptr_t)host;
    if (!host || size == 0 || base + size < base)
        return -1;
    /* not inside the simulated device range or the generic windows */
    if (base < ADDR_GLOBAL_BASE + dm->span && base + size > ADDR_GLOBAL_BASE)
        return -1;
    if (base < ADDR_WINDOWS_END && base + size > ADDR_PARAM_WINDOW)
        return -1;
    uint32_t below = tree_floor(&dm->live, base), above = tree_above(&dm->live, base);
    if (below != NIL && base - dm->rec.v[below].base < dm->rec.v[below].size)
        return -1;
    if (above != NIL && dm->rec.v[above].base < base + size)
        return -1;
    /* the modelled physical range: next 64 KiB boundary, never reused,
     * plus the buffer's offset within a 128-byte line, so that lines and
     * sectors of the mapping fall as they do in its host addresses (that
     * offset is fixed by the allocation sequence, not by where the host
     * placed its heap or mappings, which moves in whole pages) */
    int fresh = phys == UINT64_MAX;
    if (fresh)
        phys = dm->phys_next + (base & 127);
    uint64_t next = phys + size;
    if (next < phys || next > UINT64_MAX - PHYS_MAP_ALIGN)
        return -1;
    if (live_reserve(dm))
        return -1;
    if (fresh)
        dm->phys_next = align_up64(next, PHYS_MAP_ALIGN);
    live_add(dm, (devmem_alloc){.base = base, .size = size, .phys = phys, .tag = tag,
                                .host = (uint8_t *)host});
    return 0;
}

int devmem_map_host(devmem *dm, void *host, uint64_t size, uint32_t tag)
{
    return map_host_at(dm, host, size, tag, UINT64_MAX);
}

void *devmem_alias(devmem *dm, uint64_t addr, uint64_t size, uint32_t tag)
{
    uint32_t hint = 0;
    const devmem_alloc *a = devmem_find(dm, addr, size, &hint);
    if (!a || a->host || (addr >> DEVMEM_PAGE_SHIFT) != ((addr + size - 1) >> DEVMEM_PAGE_SHIFT))
        return NULL;
    uint8_t *view = devmem_wptr(dm, addr);
    if (!view || map_host_at(dm, view, size, tag, addr))
        return NULL;
    return view;
}

void devmem_note_host_access(const devmem *dm, const devmem_alloc *a)
{
    /* the allocation records belong to dm, which the caller holds; only
     * these two flags change, and only ever to 1 during a launch */
    uint8_t *flag = &((devmem_alloc *)a)->accessed, *any = &((devmem *)dm)->host_accessed;
    if (!__atomic_load_n(flag, __ATOMIC_RELAXED))
        __atomic_store_n(flag, 1, __ATOMIC_RELAXED);
    if (!__atomic_load_n(any, __ATOMIC_RELAXED))
        __atomic_store_n(any, 1, __ATOMIC_RELAXED);
}

size_t devmem_take_host_accesses(devmem *dm, void **host, size_t *size, size_t max)
{
    if (!__atomic_load_n(&dm->host_accessed, __ATOMIC_RELAXED))
        return 0;
    __atomic_store_n(&dm->host_accessed, 0, __ATOMIC_RELAXED);
    size_t n = 0;
    for (const devmem_alloc *a = devmem_next(dm, 0); a; a = devmem_next(dm, a->base)) {
        if (!a->host || !__atomic_load_n(&a->accessed, __ATOMIC_RELAXED))
            continue;
        __atomic_store_n(&((devmem_alloc *)a)->accessed, 0, __ATOMIC_RELAXED);
        if (n < max) {
            host[n] = a->host;
            size[n] = (size_t)a->size;
        }
        n++;
    }
    return n;
}

int devmem_unmap_host(devmem *dm, void *host)
{
    uint64_t base = (uint64_t)(uintptr_t)host;
    const devmem_alloc *a = live_at(dm, base);
    if (!a || !a->host)
        return -1;
    live_remove(dm, base);
    return 0;
}

int devmem_free_block(devmem *dm, uint64_t addr)
{
    devmem_alloc *a = live_at(dm, addr);
    if (!a || a->host || a->reserved)
        return -1;
    /* Growing the free tree happens first: if it fails, nothing changed. */
    if (tree_reserve(&dm->free))
        return -1;
    dm->freed[dm->freed_n++ & (FREED_RING - 1)] = *a;
    uint64_t rsize = align_up64(a->size, ALLOC_GRAIN);
    live_remove(dm, addr);
    dm->used -= rsize;
    zero_range(dm, addr - ADDR_GLOBAL_BASE, rsize);
    give_back(dm, addr, rsize);
    return 0;
}

/* In address order, from the top down (each step a tree search, so frees
 * in between are harmless). */
void devmem_free_tagged(devmem *dm, uint32_t tag)
{
    uint32_t x = tree_floor(&dm->live, UINT64_MAX);
    while (x != NIL) {
        devmem_alloc a = dm->rec.v[x];
        if (a.tag == tag && !a.host)
            devmem_free_block(dm, a.base);
        x = a.base ? tree_floor(&dm->live, a.base - 1) : NIL;
    }
}

/* ------------------------------------------------------------------------ */
/* Lookup                                                                   */
/* ------------------------------------------------------------------------ */

/* Does a contain [addr, addr+size)?  Written so nothing overflows: addr
 * below a->base wraps to a huge offset and fails the first test.  An unused
 * record (size 0) contains nothing. */
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
    if (LIKELY(h < dm->rec.n) && contains(&dm->rec.v[h], addr, size))
        return &dm->rec.v[h];
    uint32_t x = tree_floor(&dm->live, addr);
    if (x == NIL || !contains(&dm->rec.v[x], addr, size))
        return NULL;
    *hint = x;
    return &dm->rec.v[x];
}

/* When no allocation lies at or below addr, the lowest one above it is the
 * nearest (an access just before the first buffer). */
const devmem_alloc *devmem_nearest(const devmem *dm, uint64_t addr)
{
    if (dm->live.count == 0)
        return NULL;
    uint32_t x = tree_floor(&dm->live, addr);
    return &dm->rec.v[x != NIL ? x : tree_first(&dm->live)];
}

const devmem_alloc *devmem_next(const devmem *dm, uint64_t addr)
{
    uint32_t x = tree_above(&dm->live, addr);
    return x != NIL ? &dm->rec.v[x] : NULL;
}

/* Device addresses are their own physical address without a lookup; the
 * rest are looked up as host mappings. */
uint64_t devmem_phys(const devmem *dm, uint64_t addr, uint32_t *hint)
{
    if (LIKELY(addr - ADDR_GLOBAL_BASE < dm->span))
        return addr;
    const devmem_alloc *a = devmem_find(dm, addr, 1, hint);
    return a && a->host ? a->phys + (addr - a->base) : addr;
}

/* Is any byte of the rounded block [base, base + rsize) inside a live
 * allocation's rounded block?  Only the live allocation with the highest
 * base below the end can overlap, since live blocks are disjoint. */
static int live_overlaps(const devmem *dm, uint64_t base, uint64_t rsize)
{
    uint32_t x = tree_floor(&dm->live, base + rsize - 1);
    return x != NIL && dm->rec.v[x].base + align_up64(dm->rec.v[x].size, ALLOC_GRAIN) > base;
}

/* Newest first through the ring: the first block that contained addr was
 * its last owner, and is the answer unless its bytes were reused since. */
const devmem_alloc *devmem_freed(const devmem *dm, uint64_t addr)
{
    uint64_t n = MIN(dm->freed_n, FREED_RING);
    for (uint64_t i = 1; i <= n; i++) {
        const devmem_alloc *a = &dm->freed[(dm->freed_n - i) & (FREED_RING - 1)];
        if (contains(a, addr, 1))
            return live_overlaps(dm, a->base, align_up64(a->size, ALLOC_GRAIN)) ? NULL : a;
    }
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Reserved ranges                                                          */
/* ------------------------------------------------------------------------ */

/* Does any free range overlap [base, base + rsize)?  Free ranges are
 * disjoint: only the one with the highest key below the end can. */
static int free_overlaps(const devmem *dm, uint64_t base, uint64_t rsize)
{
    uint32_t x = tree_floor(&dm->free, base + rsize - 1);
    return x != NIL && dm->free.n.v[x].key + dm->free.n.v[x].size > base;
}

/* Is [addr, addr + rsize) a 256-aligned range of the allocator's address
 * space, neither free nor allocated (a reserved one, or part of one)? */
static int reserved_range(const devmem *dm, uint64_t addr, uint64_t rsize)
{
    uint64_t usable = dm->capacity & ~(ALLOC_GRAIN - 1);
    return rsize && !(addr & (ALLOC_GRAIN - 1)) && addr >= ADDR_GLOBAL_BASE &&
           addr - ADDR_GLOBAL_BASE <= usable && rsize <= usable - (addr - ADDR_GLOBAL_BASE) &&
           !free_overlaps(dm, addr, rsize) && !live_overlaps(dm, addr, rsize);
}

int devmem_reserve(devmem *dm, uint64_t size, uint64_t *addr)
{
    if (size == 0 || size > dm->capacity)
        return -1;
    if (tree_reserve(&dm->free))
        return -2;
    return carve(dm, align_up64(size, ALLOC_GRAIN), ALLOC_GRAIN, addr);
}

int devmem_unreserve(devmem *dm, uint64_t addr, uint64_t size)
{
    uint64_t rsize = align_up64(size, ALLOC_GRAIN);
    if (size == 0 || !reserved_range(dm, addr, rsize) || tree_reserve(&dm->free))
        return -1;
    give_back(dm, addr, rsize); /* its bytes are zero: never written, or unmapped */
    return 0;
}

int devmem_map_reserved(devmem *dm, uint64_t addr, uint64_t size, uint32_t tag)
{
    if (size == 0 || size > dm->capacity ||
        !reserved_range(dm, addr, align_up64(size, ALLOC_GRAIN)))
        return -1;
    if (live_reserve(dm))
        return -2;
    live_add(dm, (devmem_alloc){.base = addr, .size = size, .phys = addr, .tag = tag,
                                .reserved = 1});
    return 0;
}

int devmem_unmap_reserved(devmem *dm, uint64_t addr)
{
    devmem_alloc *a = live_at(dm, addr);
    if (!a || !a->reserved)
        return -1;
    dm->freed[dm->freed_n++ & (FREED_RING - 1)] = *a;
    uint64_t rsize = align_up64(a->size, ALLOC_GRAIN);
    live_remove(dm, addr);
    zero_range(dm, addr - ADDR_GLOBAL_BASE, rsize);
    return 0;
}

int devmem_charge(devmem *dm, uint64_t bytes)
{
    uint64_t rsize = align_up64(bytes, ALLOC_GRAIN);
    if (bytes > dm->capacity || rsize > dm->capacity - dm->used)
        return -1;
    dm->used += rsize;
    return 0;
}

void devmem_uncharge(devmem *dm, uint64_t bytes)
{
    uint64_t rsize = align_up64(bytes, ALLOC_GRAIN);
    dm->used -= MIN(rsize, dm->used);
}

/* ------------------------------------------------------------------------ */
/* Accounting                                                               */
/* ------------------------------------------------------------------------ */

uint64_t devmem_capacity(const devmem *dm) { return dm->capacity; }
uint64_t devmem_used(const devmem *dm) { return dm->used; }
uint64_t devmem_resident_bytes(const devmem *dm) { return dm->pages * DEVMEM_PAGE_SIZE; }
size_t devmem_alloc_count(const devmem *dm) { return dm->live.count; }
