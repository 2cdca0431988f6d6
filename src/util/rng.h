/*
 * rng.h -- lockstep's only source of randomness (DESIGN: "Randomness"):
 * SplitMix64 to derive seeds, xoshiro256** as the generator.  Every
 * component instance that models a nondeterministic choice owns one
 * stream, derived from (seed, component kind, instance id), so adding a
 * component or drawing more numbers in one never changes another's
 * sequence.  Never rand(), never time, never addresses.
 */
#ifndef LOCKSTEP_UTIL_RNG_H
#define LOCKSTEP_UTIL_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng;

/* Component kinds (part of the stream derivation: never renumber). */
enum rng_kind {
    RNG_DRAM = 1,       /* refresh phase, latency variation */
    RNG_ICNT = 2,       /* crossbar arbiter initial state */
    RNG_SCHED = 3,      /* warp-scheduler initial state */
    RNG_PARTMAP = 4,    /* which partition an address range starts in */
    RNG_REPLY = 5,      /* order in which replies leave a partition */
    RNG_SKEW = 6,       /* an SM's start skew per launch and its clock drift */
    RNG_DISPATCH = 7,   /* an SM's CTA dispatch delays */
    RNG_L2 = 8,         /* a partition's L2 latency jitter */
    RNG_DAB = 9,        /* DAB: a flush's crossbar latency jitter */
    RNG_FAULT = 10,     /* fault injection: the target of the one fault (src/rel) */
    RNG_TEST = 99
};

static inline uint64_t rng_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The stream of component `kind`, instance `instance`, under `seed`. */
static inline void rng_seed(rng *r, uint64_t seed, uint32_t kind, uint32_t instance)
{
    uint64_t x = seed;
    uint64_t k = rng_splitmix64(&x) ^ ((uint64_t)kind << 32 | instance);
    for (int i = 0; i < 4; i++)
        r->s[i] = rng_splitmix64(&k);
}

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return out;
}

/* Uniform in [0, n) for n >= 1 (Lemire's multiply-shift; the tiny bias of
 * skipping the rejection step does not matter for modelled jitter). */
static inline uint32_t rng_below(rng *r, uint32_t n)
{
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

#endif
