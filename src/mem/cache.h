/*
 * cache.h -- a set-associative, optionally sectored cache array, and the
 * parser for GPGPU-Sim's cache configuration strings.
 *
 * The array keeps, per line, its tag (the line address), which sectors are
 * valid and dirty, whether it is RESERVED for a pending fill, its place in
 * the replacement order and, optionally, a copy of the line's bytes.  It is
 * the storage behind the SM's L1 data cache (with data: a load that hits
 * gets the L1's copy, stale or not -- DESIGN principle 3), the constant
 * cache and the L2 slices (tags only).  Policy lives in the callers: the
 * MSHRs, what a write does (write-back, write-through, evict), when to
 * allocate and when to fill are decided by the simulator, which drives the
 * array through probe / allocate / fill / set_dirty / invalidate.
 *
 * Lines are named by an index 0 .. nsets*assoc-1 (set*assoc + way) that
 * stays valid until the line is evicted or invalidated.  Nothing allocates
 * after cache_create; cache_probe and cache_allocate scan one set (O(assoc)).
 * There is no global state and no dependence on pointer values or time:
 * the same call sequence gives the same lines, victims and data.
 *
 * The configuration string (GPGPU-Sim's -gpgpu_cache:dl1 and friends):
 *
 *   <type>:<nsets>:<line bytes>:<assoc>,
 *   <replacement>:<write policy>:<alloc policy>:<write alloc>:<set index>,
 *   <mshr type>:<mshr entries>:<mshr max merge>,
 *   <miss queue>[:<result fifo>[,<data port width>]]
 *
 *   type          N normal, S sectored (32-byte sectors)
 *   replacement   L LRU, F FIFO
 *   write policy  R read-only, B write-back, T write-through, E write-evict,
 *                 L local write-back / global write-through
 *   alloc policy  m on miss, f on fill, s streaming
 *   write alloc   N no write-allocate, W write-allocate, F fetch-on-write,
 *                 L lazy fetch-on-read
 *   set index     L linear, H Fermi hash, P IPOLY hash, X bitwise XOR
 *                 (see cache_set_of)
 *   mshr type     A associative, S sector-associative, F texture FIFO,
 *                 T sector texture FIFO
 *
 * e.g. "N:32:128:4,L:L:m:N:H,A:32:8,8" (GTX 480 L1),
 *      "S:32:128:24,L:B:m:L:P,A:192:4,32:0,32" (a sectored L2 slice).
 */
#ifndef LOCKSTEP_CACHE_H
#define LOCKSTEP_CACHE_H

#include <stddef.h>
#include <stdint.h>

#define CACHE_SECTOR_BYTES 32u  /* sector size of an 'S' cache (GPGPU-Sim's) */
#define CACHE_MAX_SECTORS 32u   /* sectors per line: the width of a sector mask */

/* A parsed cache configuration.  The letters are stored as written in the
 * string; the array models type, geometry, replacement and set index.  The
 * other fields are recorded for the simulator (write/alloc policies, MSHRs,
 * queues), which implements them. */
typedef struct cache_config {
    uint32_t nsets, line_bytes, assoc;
    uint32_t sector_bytes;        /* 32 when sectored ('S'), == line_bytes otherwise */
    char type, replacement, write_policy, alloc_policy, write_alloc, set_index;
    char mshr_type;
    uint32_t mshr_entries, mshr_max_merge, miss_queue;
    /* Optional trailing fields: 0 when absent.  Recorded, not modelled here. */
    uint32_t result_fifo;         /* <result fifo> entries */
    uint32_t data_port_width;     /* bytes per cycle to the data array (0: a line) */
    uint8_t nfields;              /* 13, 14 or 15: how many numbered fields were given */
} cache_config;

/* Parse a GPGPU-Sim cache string into *c.  Returns 0, or -1 with a one-line
 * message in err naming the bad field (and its column).  Beyond the syntax
 * it checks: nsets, line bytes, assoc >= 1; line bytes a power of two >= 32;
 * nsets a power of two; nsets*assoc < 2^31 lines; a sectored line of at most
 * 32 sectors; H needs 32 or 64 sets, P 16, 32 or 64; the policy combinations
 * GPGPU-Sim refuses (write-back with allocate-on-fill or streaming; fetch-on-
 * write or lazy-fetch-on-read with on-fill or streaming); a data port width
 * dividing the line.  "none" is rejected: a caller that allows a missing
 * cache checks for it itself. */
int cache_config_parse(const char *s, cache_config *c, char *err, size_t errlen);
/* Check a configuration built by hand (or parsed): the same checks as
 * cache_config_parse after the syntax.  0, or -1 and a message. */
int cache_config_check(const cache_config *c, char *err, size_t errlen);
/* Write c back as a GPGPU-Sim string (for stats output).  Returns what
 * snprintf returns. */
int cache_config_format(const cache_config *c, char *buf, size_t n);
uint64_t cache_config_bytes(const cache_config *c);   /* nsets*line*assoc */

typedef struct cache cache;

/* Create an empty cache (every line invalid).  with_data: keep line_bytes of
 * data per line (zeroed at first).  NULL when the host is out of memory or c
 * fails cache_config_check. */
cache *cache_create(const cache_config *c, int with_data);
void cache_free(cache *c);

/* What an allocation or invalidation pushed out. */
typedef struct cache_victim {
    int valid;              /* a valid line was evicted (it had a valid or dirty sector) */
    uint64_t line_addr;     /* its line address (byte address of the line's first byte) */
    uint32_t dirty;         /* its dirty sector mask (write-back caches must write these back) */
} cache_victim;

/* Look up the line holding byte address addr.  Returns the line index
 * (>= 0) if the tag is present (valid, reserved, or allocated and not yet
 * filled), else -1.  *valid: mask of valid sectors (bit i = sector i of the
 * line); *reserved: whether the line is reserved for a pending fill; either
 * pointer may be NULL.  `touch` makes the line the most recently used (LRU
 * only; FIFO ignores touches).  Recency is an internal sequence number, so
 * several touches in one cycle are still ordered exactly; `now` (the
 * caller's cycle) does not affect the order. */
int cache_probe(cache *c, uint64_t addr, uint32_t *valid, int *reserved, int touch, uint64_t now);
/* Allocate a line for addr, which should not be present (if it is, its
 * index is returned and nothing changes).  Picks the lowest-numbered way
 * holding no tag, else the least recently used (LRU) or oldest allocated
 * (FIFO) way among those not reserved; *ev (may be NULL) gets what was
 * evicted.  Returns the line index, or -1 if every way of the set is
 * reserved (the caller stalls: GPGPU-Sim's RESERVATION_FAIL).  If `reserve`
 * the new line is RESERVED (no valid sectors) until cache_fill; otherwise it
 * is allocated with no valid sectors and not reserved.  The new line counts
 * as the most recently used and the newest allocated. */
int cache_allocate(cache *c, uint64_t addr, int reserve, cache_victim *ev, uint64_t now);
/* Mark sectors valid and clear reserved; copy data for those sectors from
 * `data` (line_bytes, indexed by offset in line) if the cache holds data
 * and data != NULL. */
void cache_fill(cache *c, int line, uint32_t sectors, const uint8_t *data);
/* Mark sectors dirty (they will be reported when the line is evicted). */
void cache_set_dirty(cache *c, int line, uint32_t sectors);
/* Clear dirty bits, e.g. after the caller wrote the sectors back. */
void cache_clear_dirty(cache *c, int line, uint32_t sectors);
/* Drop the line holding addr, if present and not reserved (returns 1 if a
 * valid line was dropped, 0 otherwise); *ev (may be NULL) gets its line
 * address and dirty mask. */
int cache_invalidate(cache *c, uint64_t addr, cache_victim *ev);
/* Drop every non-reserved line; dirty sectors are discarded (a write-back
 * cache walks its lines with cache_line_get and writes them back first). */
void cache_invalidate_all(cache *c);
uint8_t *cache_data(cache *c, int line);      /* the line's bytes; NULL if no data kept */
/* Fault injection (a tag fault): line, present, now holds line address
 * addr instead, with its valid and dirty sectors, data and recency.  addr
 * must map to the line's set (else -1 and nothing changes).  If another
 * way of the set holds addr already, both do: the array stays well
 * defined -- probe, allocate and invalidate take the lowest-numbered way
 * of the two, and the other is found once that one has gone. */
int cache_retag(cache *c, int line, uint64_t addr);

/* The state of one line, for flushes, checkers and debugging. */
typedef struct cache_line_state {
    int present;            /* holds a tag (valid, reserved or allocated) */
    int reserved;
    uint64_t line_addr;     /* meaningful when present */
    uint32_t valid, dirty;  /* sector masks */
} cache_line_state;
void cache_line_get(const cache *c, int line, cache_line_state *st);
uint32_t cache_nlines(const cache *c);        /* nsets*assoc */
const cache_config *cache_get_config(const cache *c);

/* Sectors of [addr, addr+bytes) within addr's line (bytes past the line's
 * end are ignored; 0 bytes give 0).  A normal cache has one sector: bit 0. */
uint32_t cache_sector_mask(const cache *c, uint64_t addr, uint32_t bytes);
/* The cache's sectors holding the units of `mask` (bit i: bytes [i * unit,
 * (i + 1) * unit) of the line), e.g. a request's 32-byte sectors: a normal
 * cache's one sector holds them all. */
uint32_t cache_sectors_of(const cache *c, uint32_t mask, uint32_t unit);
uint64_t cache_line_addr(const cache *c, uint64_t addr);
/* The set addr maps to, by the configured function (s = log2 line bytes,
 * n = log2 nsets, line = addr >> s):
 *   L  line mod nsets.
 *   H  (nsets 32 or 64) the Fermi hash of Nugteren et al., HPCA 2014, as in
 *      GPGPU-Sim: bits 0-4 = ((addr >> s) & 31) XOR addr bits {13,14,15,17,19}
 *      (bit 13 to bit 0 ... bit 19 to bit 4); with 64 sets, bit 5 = addr bit 12.
 *   P  (nsets 16, 32 or 64) IPOLY: the line address as a polynomial over
 *      GF(2), modulo x^4+x+1, x^5+x^2+1 or x^6+x+1.  Like GPGPU-Sim's expanded
 *      equations it uses only the 13, 15 or 19 bits of line above the index
 *      (for 16, 32, 64 sets); higher bits do not change the set.
 *   X  (line mod nsets) XOR ((line >> n) mod nsets).
 * An L2 slice passes the address with the partition bits already removed. */
uint32_t cache_set_of(const cache *c, uint64_t addr);

#endif
