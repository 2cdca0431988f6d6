// bench.h -- what every workload in bench/ shares: the command line, a seeded
// random number generator, the output hash, result checking helpers and the
// one line the suite driver (bench/run) reads.
//
// A workload is one CUDA C++ program, bench/<name>/<name>.cu, built with
//     nvcc -cudart shared -O2 -lineinfo -Ibench/common -o <bin> bench/<name>/<name>.cu
// and run as `<bin> [--size small|medium|large] [--seed N]`.  It generates its
// input from the seed, runs its kernels, checks the result against a CPU
// reference, and prints, last,
//     RESULT check=pass hash=0123456789abcdef [note=...]
// then exits 0 when the check passed and 1 when it failed.  The hash is
// FNV-1a (64-bit) over the result bytes the program copied back, so runs can
// be compared bit for bit (determinism experiments compare exactly this).
// Racy or order-sensitive workloads check against the set of valid results
// and say in note= which one they got: one word, or comma-separated items
// ("one:seq-exact,few:seq-differ").  An item ending in "-weak" means the
// result is valid only under a weakly ordered memory model; `bench/run --sc`
// (used with lockstep's sequentially consistent functional mode) fails it.
#ifndef LOCKSTEP_BENCH_H
#define LOCKSTEP_BENCH_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,             \
                    cudaGetErrorString(e_), cudaGetErrorName(e_));                         \
            printf("RESULT check=fail hash=0000000000000000 note=cuda-error\n");           \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

enum bench_size { SIZE_SMALL = 0, SIZE_MEDIUM = 1, SIZE_LARGE = 2 };

struct bench_args {
    int size;          // bench_size
    uint64_t seed;
};

static inline bench_args bench_parse(int argc, char **argv)
{
    bench_args a = {SIZE_SMALL, 12345};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            const char *s = argv[++i];
            a.size = !strcmp(s, "small") ? SIZE_SMALL : !strcmp(s, "medium") ? SIZE_MEDIUM
                     : !strcmp(s, "large") ? SIZE_LARGE : -1;
            if (a.size < 0) {
                fprintf(stderr, "unknown size '%s' (small, medium or large)\n", s);
                exit(2);
            }
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            a.seed = strtoull(argv[++i], NULL, 0);
        } else {
            fprintf(stderr, "usage: %s [--size small|medium|large] [--seed N]\n", argv[0]);
            exit(2);
        }
    }
    return a;
}

// Pick the value for the chosen size.
template <typename T> static inline T bench_pick(const bench_args &a, T small, T medium, T large)
{
    return a.size == SIZE_SMALL ? small : a.size == SIZE_MEDIUM ? medium : large;
}

// SplitMix64: a seeded, portable generator (never rand()).
struct bench_rng {
    uint64_t s;
    explicit bench_rng(uint64_t seed) : s(seed) {}
    uint64_t next()
    {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t below(uint32_t n) { return (uint32_t)(next() % n); }      // [0, n)
    float unit() { return (float)(next() >> 40) / (float)(1ull << 24); } // [0, 1)
    double unitd() { return (double)(next() >> 11) / (double)(1ull << 53); }
};

// FNV-1a over bytes; chain calls to hash several buffers.
static inline uint64_t bench_hash(const void *p, size_t n, uint64_t h = 0xcbf29ce484222325ull)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

// Relative/absolute closeness for float checks with a stated tolerance.
static inline bool bench_close(double got, double want, double rel, double abs_tol)
{
    if (std::isnan(got) || std::isnan(want))
        return std::isnan(got) && std::isnan(want);
    return std::fabs(got - want) <= abs_tol + rel * std::fabs(want);
}

// The line bench/run reads; then the exit status.
static inline int bench_result(bool pass, uint64_t hash, const char *note = NULL)
{
    printf("RESULT check=%s hash=%016llx%s%s\n", pass ? "pass" : "fail", (unsigned long long)hash,
           note ? " note=" : "", note ? note : "");
    fflush(stdout);
    return pass ? 0 : 1;
}

#endif
