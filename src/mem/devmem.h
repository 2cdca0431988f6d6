/*
 * devmem.h -- simulated device memory: a 64-bit address space starting at
 * ADDR_GLOBAL_BASE, backed sparsely by host pages allocated on first write,
 * an allocator that places buffers like cudaMalloc (256-byte aligned,
 * first fit in address order, so placement is deterministic), and the
 * table of live allocations every global access is checked against.
 *
 * Reads of never-written memory return zeros without allocating a page.
 * Out of host memory is reported as an error, never an abort.  Allocation,
 * free, lookup and host mapping are O(log n) in the number of live
 * allocations (balanced trees; devmem.c explains).
 */
#ifndef LOCKSTEP_DEVMEM_H
#define LOCKSTEP_DEVMEM_H

#include <stddef.h>
#include <stdint.h>

#define DEVMEM_PAGE_SHIFT 16
#define DEVMEM_PAGE_SIZE (1ull << DEVMEM_PAGE_SHIFT)

typedef struct devmem devmem;

/* A live allocation. */
typedef struct devmem_alloc {
    uint64_t base;
    uint64_t size;  /* bytes asked for (accesses beyond are illegal) */
    uint64_t phys;  /* modelled physical address of base (see devmem_phys) */
    uint32_t tag;   /* caller's label (e.g. 0 = cudaMalloc, 1 = module variable) */
    uint8_t reserved; /* mapped in a reserved range (devmem_map_reserved): only
                         devmem_unmap_reserved ends it, never devmem_free_block */
    uint8_t *host;  /* a mapped host buffer (devmem_map_host), else NULL */
    uint8_t accessed; /* a mapped host buffer a kernel has accessed since the
                         last devmem_take_host_accesses (devmem_note_host_access) */
} devmem_alloc;

/* capacity: bytes of device memory (the sum of live allocation sizes, each
 * rounded up to 256, may not exceed it).  NULL when the host is out of memory. */
devmem *devmem_create(uint64_t capacity);
void devmem_destroy(devmem *dm);

/* Allocate `size` > 0 bytes aligned to `align` (a power of two >= 256).
 * Returns 0 and the address, -1 (no room: capacity or fragmentation), or
 * -2 (host memory exhausted). */
int devmem_alloc_block(devmem *dm, uint64_t size, uint64_t align, uint32_t tag, uint64_t *addr);
/* Free the allocation whose base is addr: 0, or -1 if addr is not one (or
 * is mapped in a reserved range).  Its bytes read as zero afterwards; pages
 * wholly inside it are released. */
int devmem_free_block(devmem *dm, uint64_t addr);

/* Reserved ranges: a GPU's virtual memory in miniature, for allocations
 * whose address is fixed long before their memory exists (CUDA graph
 * allocations).  devmem_reserve takes a range of address space out of the
 * free ranges, placed as devmem_alloc_block places blocks (first fit, 256
 * bytes), without allocating it: nothing is live there, so an access to it
 * is an error, and it counts as no memory used.  devmem_map_reserved makes
 * [addr, addr+size) inside a reserved range a live allocation;
 * devmem_unmap_reserved ends it (its bytes are zeroed and it is remembered
 * for devmem_freed, like a freed block) and leaves the range reserved;
 * devmem_unreserve gives a range with nothing mapped in it back to the free
 * ranges.  Memory is counted apart from mapping, with devmem_charge and
 * devmem_uncharge, so that a caller can keep the memory of a range while
 * nothing is mapped in it, as a GPU's graph allocator keeps its physical
 * memory until it is trimmed.  Each returns 0; devmem_reserve -1 (no range
 * fits) or -2 (host out of memory); devmem_map_reserved -1 (not inside a
 * reserved range, or mapped already) or -2; devmem_unreserve -1 (not a
 * reserved range with nothing mapped, or host out of memory);
 * devmem_unmap_reserved -1 (addr is no mapping in a reserved range);
 * devmem_charge -1 (it would exceed the capacity). */
int devmem_reserve(devmem *dm, uint64_t size, uint64_t *addr);
int devmem_unreserve(devmem *dm, uint64_t addr, uint64_t size);
int devmem_map_reserved(devmem *dm, uint64_t addr, uint64_t size, uint32_t tag);
int devmem_unmap_reserved(devmem *dm, uint64_t addr);
int devmem_charge(devmem *dm, uint64_t bytes);   /* bytes rounded up to 256 */
void devmem_uncharge(devmem *dm, uint64_t bytes);

/* Map a host buffer into the device address space at its own address, as
 * unified virtual addressing does for pinned and managed memory: device
 * accesses to [host, host+size) reach the host bytes directly.  It must not
 * overlap the device range or another allocation, and does not count
 * against the capacity.  0, or -1 (overlap, or host out of memory). */
int devmem_map_host(devmem *dm, void *host, uint64_t size, uint32_t tag);
/* Give [addr, addr+size) of a device allocation, inside one page, a second
 * address that is also a host pointer to its bytes (the page's own storage,
 * which never moves), as unified addressing gives a __managed__ variable one
 * address on both sides: device accesses at the alias reach the same bytes
 * and have the same modelled physical address (devmem_phys), so caches see
 * one line, not two.  Undone by devmem_unmap_host.  The alias, or NULL (not
 * one live device allocation, not in one page, overlap, out of memory). */
void *devmem_alias(devmem *dm, uint64_t addr, uint64_t size, uint32_t tag);
/* Undo devmem_map_host: 0, or -1 if host is not a mapped buffer's start. */
int devmem_unmap_host(devmem *dm, void *host);
/* A kernel reads or writes the mapped host buffer a (found by devmem_find):
 * remembered until devmem_take_host_accesses.  Safe from SMs on several host
 * threads at once (relaxed atomics: the flags are only read between launches). */
void devmem_note_host_access(const devmem *dm, const devmem_alloc *a);
/* The mapped host buffers kernels accessed since the last call, in address
 * order: at most max of them into host[] and size[] (NULL when max is 0);
 * returns how many there are (all of them, even past max).  Clears the record. */
size_t devmem_take_host_accesses(devmem *dm, void **host, size_t *size, size_t max);

/* Free every allocation (not mapping) carrying `tag`. */
void devmem_free_tagged(devmem *dm, uint32_t tag);

/* The live allocation that wholly contains [addr, addr+size), or NULL.
 * *hint caches the last allocation found (start it at 0; any value is safe,
 * it is checked before use); it makes repeated lookups in the same buffer
 * O(1).  The pointer stays valid until the next allocation or mapping. */
const devmem_alloc *devmem_find(const devmem *dm, uint64_t addr, uint64_t size, uint32_t *hint);
/* The live allocation containing addr (size 1), or the nearest one below it
 * (for error messages: "8 bytes past the end of the 4096-byte buffer at ..."). */
const devmem_alloc *devmem_nearest(const devmem *dm, uint64_t addr);
/* The live allocation with the smallest base above addr (0: the first), or
 * NULL: walks every allocation in address order. */
const devmem_alloc *devmem_next(const devmem *dm, uint64_t addr);

/* Modelled physical address of addr, for the timing model, which must use
 * it (not addr) for every placement decision: partition, cache set, DRAM
 * bank.  A device address is its own physical address (no lookup).  Pinned
 * and managed memory are host buffers mapped at their host address, which
 * address-space randomisation changes from run to run; placing them by that
 * address would make timings vary between identical runs.  So each mapping
 * gets, in mapping order, the next 64 KiB-aligned range (plus the buffer's
 * offset within a 128-byte line, so lines keep their alignment) of a region that
 * starts at the first 1 GiB boundary at or above the end of the device
 * range (ranges of unmapped buffers are not reused): the result depends only
 * on the sequence of calls.  An address in a mapping gives that range's
 * address plus its offset; any other address is returned unchanged.  *hint
 * is devmem_find's. */
uint64_t devmem_phys(const devmem *dm, uint64_t addr, uint32_t *hint);

/* For diagnosing a faulting access as a use after free (a cold path, linear
 * in the 1024 most recently freed device blocks): the most recently freed
 * block that contained addr (in its `size` bytes), provided none of its
 * bytes has been allocated again since; else NULL.  The record stays valid
 * until the next free. */
const devmem_alloc *devmem_freed(const devmem *dm, uint64_t addr);

/* Host pointer to the byte at addr for writing: the page is allocated
 * (zero-filled) on demand.  Valid up to the end of addr's page.  NULL when
 * the host is out of memory.  addr must lie in [ADDR_GLOBAL_BASE, base+capacity). */
uint8_t *devmem_wptr(devmem *dm, uint64_t addr);
/* Host pointer for reading: a shared zero page when the page was never
 * written.  Never NULL for an address in range. */
const uint8_t *devmem_rptr(const devmem *dm, uint64_t addr);

/* Unchecked bulk access (memcpy/memset from the host API, module data).
 * They span pages; 0 on success, -1 if the host is out of memory.  A range
 * inside one mapped host buffer is accessed directly. */
int devmem_read(const devmem *dm, uint64_t addr, void *dst, uint64_t n);
int devmem_write(devmem *dm, uint64_t addr, const void *src, uint64_t n);
int devmem_fill(devmem *dm, uint64_t addr, uint8_t value, uint64_t n);
int devmem_copy(devmem *dm, uint64_t dst, uint64_t src, uint64_t n); /* overlapping ok */

uint64_t devmem_capacity(const devmem *dm);
uint64_t devmem_used(const devmem *dm); /* rounded sizes of the live allocations (but the
                                           mappings in reserved ranges), plus what is charged */
uint64_t devmem_resident_bytes(const devmem *dm); /* host bytes in allocated pages */
size_t devmem_alloc_count(const devmem *dm);

#endif
