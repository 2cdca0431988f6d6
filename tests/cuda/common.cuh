/* common.cuh -- the checking helpers every program in tests/cuda shares.
 *
 * CHECK(call) runs a CUDA runtime call and, if it fails, prints the source
 * location, the call, the error's name and cudaGetErrorString, then exits 1.
 * CHECK_LAUNCH() does the same for the launch just made (cudaGetLastError).
 *
 * The check_* functions compare a result with the CPU reference and print one
 * line per check: "PASS: what" or "FAIL: what expected X got Y" (arrays name
 * the first differing index and count the differences).  finish() turns the
 * number of failed checks into the exit status.  Nothing here depends on
 * pointer values or time, so a program's stdout is the same on every run. */
#ifndef LOCKSTEP_TESTS_CUDA_COMMON_CUH
#define LOCKSTEP_TESTS_CUDA_COMMON_CUH

#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                          \
    do {                                                                     \
        cudaError_t check_err_ = (call);                                     \
        if (check_err_ != cudaSuccess) {                                     \
            fprintf(stderr, "%s:%d: %s failed: %s: %s\n", __FILE__, __LINE__, \
                    #call, cudaGetErrorName(check_err_),                     \
                    cudaGetErrorString(check_err_));                         \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

#define CHECK_LAUNCH() CHECK(cudaGetLastError())

static int g_failures = 0;

/* One check of a condition; detail says what was seen when it fails. */
static inline void check_true(const char *what, bool ok, const char *detail = "")
{
    if (ok) {
        printf("PASS: %s\n", what);
    } else {
        printf("FAIL: %s %s\n", what, detail);
        g_failures++;
    }
}

static inline void check_int(const char *what, long long expected, long long got)
{
    if (expected == got) {
        printf("PASS: %s\n", what);
    } else {
        printf("FAIL: %s expected %lld got %lld\n", what, expected, got);
        g_failures++;
    }
}

static inline void check_str(const char *what, const char *expected, const char *got)
{
    if (got != NULL && strcmp(expected, got) == 0) {
        printf("PASS: %s\n", what);
    } else {
        printf("FAIL: %s expected \"%s\" got \"%s\"\n", what, expected,
               got ? got : "(null)");
        g_failures++;
    }
}

/* An API result compared by error code; names both codes on failure. */
static inline void check_err(const char *what, cudaError_t expected, cudaError_t got)
{
    if (expected == got) {
        printf("PASS: %s\n", what);
    } else {
        printf("FAIL: %s expected %s got %s\n", what, cudaGetErrorName(expected),
               cudaGetErrorName(got));
        g_failures++;
    }
}

/* Element-wise exact comparison of integer arrays. */
template <typename T>
static inline void check_array_exact(const char *what, const T *expected, const T *got, size_t n)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        if (expected[i] != got[i]) {
            if (bad == 0)
                first = i;
            bad++;
        }
    }
    if (bad == 0) {
        printf("PASS: %s (%zu elements)\n", what, n);
    } else {
        printf("FAIL: %s[%zu] expected %lld got %lld (%zu of %zu differ)\n", what, first,
               (long long)expected[first], (long long)got[first], bad, n);
        g_failures++;
    }
}

/* Element-wise comparison of floating-point arrays within a relative
 * tolerance (tol 0 asks for exact equality). */
template <typename T>
static inline void check_array_near(const char *what, const T *expected, const T *got, size_t n,
                             double tol)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        double e = (double)expected[i], g = (double)got[i];
        double lim = tol * fmax(1.0, fabs(e));
        if (!(fabs(e - g) <= lim)) {
            if (bad == 0)
                first = i;
            bad++;
        }
    }
    if (bad == 0) {
        printf("PASS: %s (%zu elements)\n", what, n);
    } else {
        printf("FAIL: %s[%zu] expected %.17g got %.17g (%zu of %zu differ)\n", what, first,
               (double)expected[first], (double)got[first], bad, n);
        g_failures++;
    }
}

/* The exit status: 0 when every check passed. */
static inline int finish(void)
{
    fflush(stdout);
    return g_failures == 0 ? 0 : 1;
}

#endif
