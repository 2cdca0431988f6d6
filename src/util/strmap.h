/*
 * strmap.h -- an open-addressing hash map from (string, 32-bit key) to a
 * 32-bit value, used for name lookups (registers per scope, labels,
 * module symbols).  It is only ever queried, never iterated, so its
 * hashing cannot leak into any result (DESIGN principle 1).
 * Keys are not copied: they must outlive the map (they live in arenas).
 */
#ifndef LOCKSTEP_STRMAP_H
#define LOCKSTEP_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct strmap_slot {
    const char *key;
    uint32_t scope;
    uint32_t value;
} strmap_slot;

typedef struct strmap {
    strmap_slot *slots;
    size_t cap; /* power of two, or 0 */
    size_t n;
} strmap;

void strmap_init(strmap *m);
void strmap_free(strmap *m);
/* Insert or replace; 0, or -1 when out of host memory. */
int strmap_put(strmap *m, const char *key, uint32_t scope, uint32_t value);
/* 1 and *value if present, else 0. */
int strmap_get(const strmap *m, const char *key, uint32_t scope, uint32_t *value);

#endif
