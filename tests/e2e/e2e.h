/*
 * e2e.h -- helpers shared by the end-to-end drivers (tests/e2e/test_*.c).
 *
 * An end-to-end driver loads one PTX file made by nvcc from a CUDA source in
 * tests/e2e/kernels/, launches its kernels in several shapes, copies the
 * results back and compares every element with a reference the driver
 * computes on the CPU.  These helpers keep that short and loud:
 *
 *   - every library call is checked; a failure is a failed CHECK naming the
 *     call, the status and lockstep_device_last_error(), and the helper
 *     returns 0 / NULL so the caller can give up on the case without
 *     touching memory it never got (a driver never crashes because the
 *     library returned an error);
 *   - the e2e_cmp_* functions compare whole arrays, print the first few
 *     mismatches as "what[index] (thread t, output k 'name'): expected E,
 *     got G", and count as one check;
 *   - a deterministic generator (SplitMix64) makes the inputs.
 *
 * Include after test.h.  Everything is static inline so each driver uses
 * only what it needs without unused-function warnings.
 *
 * LOCKSTEP_E2E_NATIVE is defined only when these drivers are built against
 * tests/e2e/native/lockstep_cuda.c (the API over a real GPU, used to check
 * the drivers' CPU references); a real GPU has no instruction counts, so the
 * launch-statistics checks are skipped there.
 */
#ifndef LOCKSTEP_E2E_H
#define LOCKSTEP_E2E_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"

#define E2E_KERNEL_PATH(name) LOCKSTEP_SRC_DIR "/tests/e2e/kernels/" name
#ifndef E2E_MAX_REPORT
#define E2E_MAX_REPORT 8 /* mismatches printed per comparison */
#endif

/* ------------------------------------------------------------------------ */
/* Status checks                                                            */
/* ------------------------------------------------------------------------ */

/* Check that a call returned LOCKSTEP_SUCCESS; report it otherwise. */
static inline int e2e_ok_(lockstep_device *dev, lockstep_status st, const char *call,
                          const char *file, int line)
{
    test_checks_++;
    if (st == LOCKSTEP_SUCCESS)
        return 1;
    test_failures_++;
    fprintf(stderr, "%s:%d: %s: %s failed: %s (%s): %s\n", file, line, test_current_, call,
            lockstep_status_name(st), lockstep_status_string(st),
            dev ? lockstep_device_last_error(dev) : "(no device)");
    return 0;
}
#define E2E_OK(dev, call) e2e_ok_((dev), (call), #call, __FILE__, __LINE__)

/* ------------------------------------------------------------------------ */
/* Device, modules, memory, launches                                        */
/* ------------------------------------------------------------------------ */

static inline lockstep_dim3 e2e_dim3(uint32_t x, uint32_t y, uint32_t z)
{
    lockstep_dim3 d = {x, y, z};
    return d;
}

static inline uint64_t e2e_dim3_count(lockstep_dim3 d)
{
    return (uint64_t)d.x * d.y * d.z;
}

/* A launch shape with a name for messages. */
typedef struct e2e_shape {
    const char *name;
    lockstep_dim3 grid;
    lockstep_dim3 block;
} e2e_shape;

static inline uint64_t e2e_shape_threads(const e2e_shape *s)
{
    return e2e_dim3_count(s->grid) * e2e_dim3_count(s->block);
}

/* A device with the built-in configuration, or NULL after a failed check. */
static inline lockstep_device *e2e_device(void)
{
    lockstep_device *dev = NULL;
    if (!E2E_OK(NULL, lockstep_device_create(NULL, &dev)))
        return NULL;
    return dev;
}

/* A timing-mode device with a shipped configuration (a path relative to
 * the source tree, "configs/gtx480.config") and more options ("-name
 * value" lines, or NULL); NULL after a failed check. */
static inline lockstep_device *e2e_timing_device(const char *config, const char *opts)
{
    lockstep_config *cfg = NULL;
    lockstep_device *dev = NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", LOCKSTEP_SRC_DIR, config);
    if (lockstep_config_create(&cfg) != LOCKSTEP_SUCCESS)
        return NULL;
    int ok = lockstep_config_load_file(cfg, path) == LOCKSTEP_SUCCESS &&
             lockstep_config_set(cfg, "-lockstep_mode", "timing") == LOCKSTEP_SUCCESS &&
             (!opts || lockstep_config_parse(cfg, opts, strlen(opts), "test") == LOCKSTEP_SUCCESS);
    CHECK_MSG(ok, "%s %s: %s", config, opts ? opts : "", lockstep_config_last_error(cfg));
    if (ok)
        CHECK(lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS);
    lockstep_config_destroy(cfg);
    return dev;
}

static inline void e2e_device_destroy(lockstep_device *dev)
{
    if (dev)
        lockstep_device_destroy(dev);
}

/* Load tests/e2e/kernels/<file> onto dev; NULL after a failed check. */
static inline lockstep_module *e2e_load_(lockstep_device *dev, const char *path,
                                         const char *file, int line)
{
    lockstep_module *mod = NULL;
    if (!dev)
        return NULL;
    if (!e2e_ok_(dev, lockstep_module_load_file(dev, path, &mod), "lockstep_module_load_file",
                 file, line)) {
        fprintf(stderr, "    (file %s)\n", path);
        return NULL;
    }
    return mod;
}
#define e2e_load(dev, name) e2e_load_((dev), E2E_KERNEL_PATH(name), __FILE__, __LINE__)

static inline lockstep_kernel *e2e_kernel_(lockstep_device *dev, lockstep_module *mod,
                                           const char *name, const char *file, int line)
{
    lockstep_kernel *k = NULL;
    if (!mod)
        return NULL;
    if (!e2e_ok_(dev, lockstep_module_get_kernel(mod, name, &k), "lockstep_module_get_kernel",
                 file, line)) {
        fprintf(stderr, "    (kernel %s)\n", name);
        return NULL;
    }
    return k;
}
#define e2e_kernel(dev, mod, name) e2e_kernel_((dev), (mod), (name), __FILE__, __LINE__)

/* Allocate bytes and, if src is not NULL, copy src into them; 0 on failure. */
static inline lockstep_dptr e2e_upload_(lockstep_device *dev, const void *src, size_t bytes,
                                        const char *file, int line)
{
    lockstep_dptr p = 0;
    if (!dev)
        return 0;
    if (!e2e_ok_(dev, lockstep_malloc(dev, bytes, &p), "lockstep_malloc", file, line))
        return 0;
    if (src && !e2e_ok_(dev, lockstep_memcpy_htod(dev, p, src, bytes), "lockstep_memcpy_htod",
                        file, line)) {
        lockstep_free(dev, p);
        return 0;
    }
    return p;
}
#define e2e_upload(dev, src, bytes) e2e_upload_((dev), (src), (bytes), __FILE__, __LINE__)
#define e2e_alloc(dev, bytes) e2e_upload_((dev), NULL, (bytes), __FILE__, __LINE__)

static inline int e2e_download_(lockstep_device *dev, void *dst, lockstep_dptr src, size_t bytes,
                                const char *file, int line)
{
    if (!dev || !src)
        return 0;
    return e2e_ok_(dev, lockstep_memcpy_dtoh(dev, dst, src, bytes), "lockstep_memcpy_dtoh", file,
                   line);
}
#define e2e_download(dev, dst, src, bytes)                                                      \
    e2e_download_((dev), (dst), (src), (bytes), __FILE__, __LINE__)

static inline int e2e_fill_(lockstep_device *dev, lockstep_dptr dst, int byte, size_t bytes,
                            const char *file, int line)
{
    if (!dev || !dst)
        return 0;
    return e2e_ok_(dev, lockstep_memset(dev, dst, byte, bytes), "lockstep_memset", file, line);
}
#define e2e_fill(dev, dst, byte, bytes) e2e_fill_((dev), (dst), (byte), (bytes), __FILE__, __LINE__)

static inline void e2e_free(lockstep_device *dev, lockstep_dptr p)
{
    if (dev && p)
        E2E_OK(dev, lockstep_free(dev, p));
}

/* Check the counters of a launch that ran to completion: CTAs and threads
 * match the shape, every warp issued at least one instruction, every thread
 * executed at least one (its exit), and no warp instruction had more than 32
 * active lanes. */
static inline void e2e_check_stats(const char *what, lockstep_dim3 grid, lockstep_dim3 block,
                                   const lockstep_launch_stats *st)
{
    uint64_t ctas = e2e_dim3_count(grid), per = e2e_dim3_count(block);
    uint64_t warps = ctas * ((per + 31) / 32);
    CHECK_MSG(st->ctas == ctas, "%s: stats.ctas = %" PRIu64 ", expected %" PRIu64, what,
              st->ctas, ctas);
    CHECK_MSG(st->threads == ctas * per, "%s: stats.threads = %" PRIu64 ", expected %" PRIu64,
              what, st->threads, ctas * per);
#ifndef LOCKSTEP_E2E_NATIVE
    CHECK_MSG(st->warp_insts >= warps, "%s: stats.warp_insts = %" PRIu64 " < %" PRIu64 " warps",
              what, st->warp_insts, warps);
    CHECK_MSG(st->thread_insts >= st->threads,
              "%s: stats.thread_insts = %" PRIu64 " < %" PRIu64 " threads", what,
              st->thread_insts, st->threads);
    CHECK_MSG(st->thread_insts <= 32 * st->warp_insts,
              "%s: stats.thread_insts = %" PRIu64 " > 32 * warp_insts = %" PRIu64, what,
              st->thread_insts, 32 * st->warp_insts);
#else
    (void)warps;
#endif
}

/* Launch and check the status (and, for a launch that succeeded, the
 * statistics and that synchronize reports nothing pending).  1 on success. */
static inline int e2e_launch_(lockstep_device *dev, const lockstep_kernel *k, const char *what,
                              lockstep_dim3 grid, lockstep_dim3 block, uint32_t shmem,
                              void *const *args, const char *file, int line)
{
    lockstep_launch_stats st;
    memset(&st, 0, sizeof st);
    if (!dev || !k)
        return 0;
    lockstep_status s = lockstep_launch_args(dev, k, grid, block, shmem, args, &st);
    if (!e2e_ok_(dev, s, "lockstep_launch_args", file, line)) {
        fprintf(stderr, "    (launch %s: grid %ux%ux%u, block %ux%ux%u, %u B dynamic shared)\n",
                what, grid.x, grid.y, grid.z, block.x, block.y, block.z, shmem);
        lockstep_synchronize(dev); /* clear the pending error for the next case */
        return 0;
    }
    e2e_check_stats(what, grid, block, &st);
    return e2e_ok_(dev, lockstep_synchronize(dev), "lockstep_synchronize", file, line);
}
#define e2e_launch(dev, k, what, grid, block, shmem, args)                                      \
    e2e_launch_((dev), (k), (what), (grid), (block), (shmem), (args), __FILE__, __LINE__)

/* ------------------------------------------------------------------------ */
/* Comparisons                                                              */
/* ------------------------------------------------------------------------ */

/* How to name element i of an output laid out as `per` values per thread,
 * with optional names for the values (names may be NULL). */
typedef struct e2e_layout {
    size_t per;
    const char *const *names;
} e2e_layout;

static inline void e2e_where_(char *buf, size_t len, const e2e_layout *lay, size_t i)
{
    if (!lay || lay->per == 0) {
        buf[0] = 0;
        return;
    }
    size_t k = i % lay->per;
    if (lay->names)
        snprintf(buf, len, " (thread %zu, output %zu '%s')", i / lay->per, k, lay->names[k]);
    else
        snprintf(buf, len, " (thread %zu, output %zu)", i / lay->per, k);
}

static inline void e2e_report_end_(const char *what, size_t bad, size_t n)
{
    CHECK_MSG(bad == 0, "%s: %zu of %zu elements differ", what, bad, n);
}

/* Exact comparison of 32-bit integers. */
static inline size_t e2e_cmp_u32(const char *what, const uint32_t *got, const uint32_t *exp,
                                 size_t n, const e2e_layout *lay)
{
    size_t bad = 0;
    char where[160];
    for (size_t i = 0; i < n; i++) {
        if (got[i] == exp[i])
            continue;
        if (bad++ < E2E_MAX_REPORT) {
            e2e_where_(where, sizeof where, lay, i);
            fprintf(stderr, "    %s[%zu]%s: expected %" PRId32 " (0x%08" PRIx32 "), got %" PRId32
                            " (0x%08" PRIx32 ")\n",
                    what, i, where, (int32_t)exp[i], exp[i], (int32_t)got[i], got[i]);
        }
    }
    e2e_report_end_(what, bad, n);
    return bad;
}

static inline size_t e2e_cmp_i32(const char *what, const int32_t *got, const int32_t *exp,
                                 size_t n, const e2e_layout *lay)
{
    return e2e_cmp_u32(what, (const uint32_t *)got, (const uint32_t *)exp, n, lay);
}

/* Exact comparison of 64-bit integers. */
static inline size_t e2e_cmp_u64(const char *what, const uint64_t *got, const uint64_t *exp,
                                 size_t n, const e2e_layout *lay)
{
    size_t bad = 0;
    char where[160];
    for (size_t i = 0; i < n; i++) {
        if (got[i] == exp[i])
            continue;
        if (bad++ < E2E_MAX_REPORT) {
            e2e_where_(where, sizeof where, lay, i);
            fprintf(stderr, "    %s[%zu]%s: expected %" PRId64 " (0x%016" PRIx64 "), got %" PRId64
                            " (0x%016" PRIx64 ")\n",
                    what, i, where, (int64_t)exp[i], exp[i], (int64_t)got[i], got[i]);
        }
    }
    e2e_report_end_(what, bad, n);
    return bad;
}

static inline uint32_t e2e_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float e2e_bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint64_t e2e_f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static inline double e2e_bits_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* Distance in units in the last place between two floats (same sign or
 * not), on the ordered integer line of IEEE bit patterns. */
static inline uint64_t e2e_ulps_f32(float a, float b)
{
    int64_t ia = (int32_t)e2e_f32_bits(a), ib = (int32_t)e2e_f32_bits(b);
    if (ia < 0)
        ia = (int64_t)INT32_MIN - ia;
    if (ib < 0)
        ib = (int64_t)INT32_MIN - ib;
    return ia > ib ? (uint64_t)(ia - ib) : (uint64_t)(ib - ia);
}

static inline uint64_t e2e_ulps_f64(double a, double b)
{
    uint64_t ua = e2e_f64_bits(a), ub = e2e_f64_bits(b);
    /* map to an unsigned line where the order of doubles is kept */
    ua = (ua >> 63) ? ~ua : ua | 0x8000000000000000ull;
    ub = (ub >> 63) ? ~ub : ub | 0x8000000000000000ull;
    return ua > ub ? ua - ub : ub - ua;
}

/* Floats equal bit for bit, except that any NaN matches any NaN; with
 * max_ulps > 0, finite values within max_ulps of each other also match
 * (infinities and NaNs must still match exactly). */
static inline int e2e_f32_close(float g, float e, uint64_t max_ulps)
{
    if (g != g || e != e)
        return g != g && e != e;
    if (e2e_f32_bits(g) == e2e_f32_bits(e))
        return 1;
    if (max_ulps == 0 || g - g != 0 || e - e != 0) /* exact, or an infinity involved */
        return 0;
    return e2e_ulps_f32(g, e) <= max_ulps;
}

static inline int e2e_f64_close(double g, double e, uint64_t max_ulps)
{
    if (g != g || e != e)
        return g != g && e != e;
    if (e2e_f64_bits(g) == e2e_f64_bits(e))
        return 1;
    if (max_ulps == 0 || g - g != 0 || e - e != 0)
        return 0;
    return e2e_ulps_f64(g, e) <= max_ulps;
}

/* Compare floats: exact (max_ulps == 0; -0.0 and +0.0 differ) or within
 * max_ulps.  The tolerance may depend on the element: ulps[i % per] when
 * ulps is given, else max_ulps. */
static inline size_t e2e_cmp_f32(const char *what, const float *got, const float *exp, size_t n,
                                 uint64_t max_ulps, const uint64_t *ulps, const e2e_layout *lay)
{
    size_t bad = 0;
    char where[160];
    for (size_t i = 0; i < n; i++) {
        uint64_t tol = ulps && lay && lay->per ? ulps[i % lay->per] : max_ulps;
        if (e2e_f32_close(got[i], exp[i], tol))
            continue;
        if (bad++ < E2E_MAX_REPORT) {
            e2e_where_(where, sizeof where, lay, i);
            fprintf(stderr, "    %s[%zu]%s: expected %.9g (0x%08" PRIx32 "), got %.9g (0x%08" PRIx32
                            "), %" PRIu64 " ulps apart, tolerance %" PRIu64 "\n",
                    what, i, where, (double)exp[i], e2e_f32_bits(exp[i]), (double)got[i],
                    e2e_f32_bits(got[i]), e2e_ulps_f32(got[i], exp[i]), tol);
        }
    }
    e2e_report_end_(what, bad, n);
    return bad;
}

static inline size_t e2e_cmp_f64(const char *what, const double *got, const double *exp,
                                 size_t n, uint64_t max_ulps, const uint64_t *ulps,
                                 const e2e_layout *lay)
{
    size_t bad = 0;
    char where[160];
    for (size_t i = 0; i < n; i++) {
        uint64_t tol = ulps && lay && lay->per ? ulps[i % lay->per] : max_ulps;
        if (e2e_f64_close(got[i], exp[i], tol))
            continue;
        if (bad++ < E2E_MAX_REPORT) {
            e2e_where_(where, sizeof where, lay, i);
            fprintf(stderr, "    %s[%zu]%s: expected %.17g (0x%016" PRIx64 "), got %.17g (0x%016"
                            PRIx64 "), %" PRIu64 " ulps apart, tolerance %" PRIu64 "\n",
                    what, i, where, exp[i], e2e_f64_bits(exp[i]), got[i], e2e_f64_bits(got[i]),
                    e2e_ulps_f64(got[i], exp[i]), tol);
        }
    }
    e2e_report_end_(what, bad, n);
    return bad;
}

/* ------------------------------------------------------------------------ */
/* Inputs                                                                   */
/* ------------------------------------------------------------------------ */

/* SplitMix64: a tiny deterministic generator for test inputs. */
static inline uint64_t e2e_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Each of the n option lines in bad is refused (by the parser or by
 * validation) with a message; and determinism mode `det` is refused in
 * functional mode, naming the timing model. */
static inline void e2e_check_bad_det_options(const char *const *bad, size_t n, const char *det)
{
    for (size_t i = 0; i < n; i++) {
        lockstep_config *cfg;
        lockstep_config_create(&cfg);
        lockstep_status st = lockstep_config_parse(cfg, bad[i], strlen(bad[i]), "bad");
        if (st == LOCKSTEP_SUCCESS)
            st = lockstep_config_validate(cfg);
        CHECK_MSG(st != LOCKSTEP_SUCCESS, "'%s' accepted", bad[i]);
        CHECK_MSG(*lockstep_config_last_error(cfg), "'%s': no message", bad[i]);
        lockstep_config_destroy(cfg);
    }
    lockstep_config *cfg;
    lockstep_config_create(&cfg);
    lockstep_config_set(cfg, "-lockstep_det", det);
    lockstep_config_set(cfg, "-lockstep_mode", "functional");
    CHECK(lockstep_config_validate(cfg) == LOCKSTEP_ERROR_INVALID_CONFIG);
    CHECK_STR_CONTAINS(lockstep_config_last_error(cfg), "timing model");
    lockstep_config_destroy(cfg);
}

/* A uniform integer in [lo, hi]. */
static inline int64_t e2e_rand_range(uint64_t *state, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(e2e_rand(state) % (uint64_t)(hi - lo + 1));
}

#endif
