/*
 * common.h -- small definitions every module uses: the INTERNAL marker for
 * functions shared between modules but hidden from the shared library,
 * likely/unlikely, bit helpers, and a growable array macro.
 */
#ifndef LOCKSTEP_COMMON_H
#define LOCKSTEP_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Functions shared across modules are hidden from liblockstep.so by the
 * default -fvisibility=hidden; only LOCKSTEP_API symbols are exported. */

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Population count without relying on the POPCNT instruction (no -march
 * flags are used, and the builtin becomes a libgcc call). */
static inline int popc32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (int)((x * 0x01010101u) >> 24);
}
static inline int ctz32(uint32_t x) { return __builtin_ctz(x); }
static inline uint64_t align_up64(uint64_t x, uint64_t a) { return (x + a - 1) & ~(a - 1); }

/*
 * VEC(T): a growable array { T *v; size_t n, cap; }.  vec_push() returns 0
 * on success and -1 when the host is out of memory (the array is unchanged).
 */
#define VEC(T)                                                                             \
    struct {                                                                               \
        T *v;                                                                              \
        size_t n, cap;                                                                     \
    }

int vec_grow_(void **v, size_t *cap, size_t need, size_t elem);

typedef VEC(uint32_t) u32vec;

#define vec_reserve(a, need) vec_grow_((void **)&(a)->v, &(a)->cap, (need), sizeof(*(a)->v))
#define vec_push(a, x)                                                                     \
    (vec_reserve((a), (a)->n + 1) ? -1 : ((a)->v[(a)->n++] = (x), 0))
#define vec_free(a) (free((a)->v), (a)->v = NULL, (a)->n = (a)->cap = 0)

#endif
