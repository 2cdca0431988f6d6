/*
 * hash.h -- a fast 64-bit hash of byte strings, for comparing outputs
 * between runs (lockstep detcheck, the determinism record).  Not
 * cryptographic; the same bytes give the same hash on every host.
 */
#ifndef LOCKSTEP_UTIL_HASH_H
#define LOCKSTEP_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HASH_INIT 0x6a09e667f3bcc909ull

static inline uint64_t hash_mix(uint64_t h, uint64_t w)
{
    h ^= w * 0x9e3779b97f4a7c15ull;
    h = (h << 31) | (h >> 33);
    return h * 0xbf58476d1ce4e5b9ull;
}

/* Continue hash h over n bytes at p. */
static inline uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, b, 8);
        h = hash_mix(h, w);
        b += 8;
        n -= 8;
    }
    uint64_t w = 0;
    if (n) /* p may be NULL when there is nothing to hash */
        memcpy(&w, b, n);
    return hash_mix(h, w ^ ((uint64_t)n << 56));
}

/* Finish: the length in, and a final avalanche. */
static inline uint64_t hash_final(uint64_t h, uint64_t len)
{
    h = hash_mix(h, len);
    h ^= h >> 29;
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 32);
}

#endif
