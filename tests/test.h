/*
 * test.h -- the tests' tiny harness: CHECK macros that report file:line and
 * keep going, and a summary that turns failures into a non-zero exit status.
 *
 *   static void test_something(void) { CHECK(1 + 1 == 2); CHECK_EQ_U64(x, 7); }
 *   int main(void) { RUN(test_something); return test_summary(); }
 *
 * Test programs link only the library (and their module); they never need
 * anything outside the repository.  LOCKSTEP_SRC_DIR is the repository root,
 * so a test can find its data files (tests/e2e/kernels/...).
 */
#ifndef LOCKSTEP_TEST_H
#define LOCKSTEP_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failures_;
static int test_checks_;
static const char *test_current_ = "";

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        test_checks_++;                                                                    \
        if (!(cond)) {                                                                     \
            test_failures_++;                                                              \
            fprintf(stderr, "%s:%d: %s: CHECK failed: %s\n", __FILE__, __LINE__,          \
                    test_current_, #cond);                                                 \
        }                                                                                  \
    } while (0)

#define CHECK_MSG(cond, ...)                                                               \
    do {                                                                                   \
        test_checks_++;                                                                    \
        if (!(cond)) {                                                                     \
            test_failures_++;                                                              \
            fprintf(stderr, "%s:%d: %s: CHECK failed: %s: ", __FILE__, __LINE__,          \
                    test_current_, #cond);                                                 \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
        }                                                                                  \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                                 \
    do {                                                                                   \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                   \
        CHECK_MSG(a_ == b_, "%s = 0x%" PRIx64 ", %s = 0x%" PRIx64, #a, a_, #b, b_);        \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                 \
    do {                                                                                   \
        long long a_ = (long long)(a), b_ = (long long)(b);                                \
        CHECK_MSG(a_ == b_, "%s = %lld, %s = %lld", #a, a_, #b, b_);                       \
    } while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                                    \
    do {                                                                                   \
        const char *h_ = (hay), *n_ = (needle);                                            \
        CHECK_MSG(h_ && strstr(h_, n_), "'%s' does not contain '%s'", h_ ? h_ : "(null)", \
                  n_);                                                                     \
    } while (0)

/* Run one test function, naming it in failure messages. */
#define RUN(fn)                                                                            \
    do {                                                                                   \
        test_current_ = #fn;                                                               \
        fn();                                                                              \
    } while (0)

static inline int test_summary(void)
{
    if (test_failures_) {
        fprintf(stderr, "FAILED: %d of %d checks\n", test_failures_, test_checks_);
        return 1;
    }
    printf("ok: %d checks\n", test_checks_);
    return 0;
}

/* Read a whole file into a NUL-terminated malloc'd buffer; NULL on failure. */
static inline char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        if (len)
            *len = n;
    }
    return buf;
}

#endif
