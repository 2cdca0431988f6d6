/*
 * test_conformance.c -- instruction-semantics conformance: run every kernel
 * of tests/conformance/conf.ptx on lockstep and compare the results with the
 * outputs a real NVIDIA GPU produced for the same inputs
 * (tests/conformance/golden.bin, made by tests/conformance/run_native.sh).
 *
 * One case is one kernel: thread i reads a[i], b[i], c[i] (inputs.bin),
 * executes the instruction under test and writes its raw result bits to
 * out[i].  Results are compared bit for bit, except for the .approx
 * instructions and div.full, whose cases name a tolerance taken from the PTX
 * ISA's documented error bound (tests/conformance/README.md): lockstep and
 * the GPU may then differ by up to twice that bound, since each may be off
 * by the bound from the exact result; NaN must still match NaN, an infinity
 * the same infinity, and a zero the same zero.
 *
 * A mismatching case is reported with its first differing inputs, expected
 * and actual bits.  A case the golden file marks missing (it failed on the
 * GPU) is skipped with its name.  Without a golden file the test is skipped.
 * If the whole module does not load (an instruction lockstep does not
 * support yet), each case is loaded on its own, so only the cases using
 * that instruction fail.  LOCKSTEP_CONF_FILTER=substring runs only the cases
 * whose names contain it.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"

#include "../conformance/conf_format.h"

#ifndef LOCKSTEP_SRC_DIR
#define LOCKSTEP_SRC_DIR "."
#endif
#define CONF_DIR LOCKSTEP_SRC_DIR "/tests/conformance"
#define MAX_SHOWN 5
#define CONF_PI 3.14159265358979323846

/* Tolerance kinds of cases.txt (parameters are the ISA's documented bounds). */
typedef enum tol_kind {
    TOL_EXACT,     /* bit for bit */
    TOL_ULP,       /* ulp:N      f32, N ulps */
    TOL_REL,       /* rel:E      f32, relative error 2^E */
    TOL_REL64,     /* rel64:E    f64, relative error 2^E */
    TOL_HI64,      /* hi64:E     f64 whose low word is zero, relative error 2^E */
    TOL_SINCOS,    /* sin/cos.approx: absolute error by input range */
    TOL_LG2,       /* lg2.approx: absolute in (0.5, 2), relative elsewhere */
    TOL_DIVAPPROX  /* div.approx: 2 ulp for |b| in [2^-126, 2^126] */
} tol_kind;

typedef struct tolerance {
    tol_kind kind;
    double param;
} tolerance;

typedef struct conf_run {
    lockstep_device *dev;
    lockstep_module *whole;     /* NULL: load each case on its own */
    char *ptx;                  /* conf.ptx text, for per-case loads */
    size_t hdr_len;
    const conf_set *sets;
    size_t nsets;
    const conf_golden *golden;
    size_t ngolden;
    lockstep_dptr buf[4];       /* out, a, b, c */
    unsigned char *host;
    size_t passed, failed, skipped;
} conf_run;

static int parse_tolerance(const char *s, tolerance *t)
{
    static const struct {
        const char *prefix;
        tol_kind kind;
    } kinds[] = {{"exact", TOL_EXACT},   {"ulp:", TOL_ULP},       {"rel64:", TOL_REL64},
                 {"rel:", TOL_REL},      {"hi64:", TOL_HI64},     {"sincos", TOL_SINCOS},
                 {"lg2", TOL_LG2},       {"divapprox", TOL_DIVAPPROX}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t n = strlen(kinds[i].prefix);
        if (strncmp(s, kinds[i].prefix, n) == 0) {
            char *end = NULL;
            t->kind = kinds[i].kind;
            t->param = 0;
            if (kinds[i].prefix[n - 1] == ':') {
                t->param = strtod(s + n, &end);
                return end && *end == 0 && end != s + n ? 0 : -1;
            }
            return s[n] == 0 ? 0 : -1;
        }
    }
    return -1;
}

static float bits_f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static double bits_f64(uint64_t v)
{
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

/* Distance in ulps between two non-NaN f32 bit patterns (+0 and -0 coincide;
 * infinity is one ulp past the largest finite value). */
static uint64_t ulp_distance(uint32_t x, uint32_t y)
{
    int64_t ox = (x & 0x80000000u) ? -(int64_t)(x & 0x7fffffffu) : (int64_t)x;
    int64_t oy = (y & 0x80000000u) ? -(int64_t)(y & 0x7fffffffu) : (int64_t)y;
    return (uint64_t)(ox > oy ? ox - oy : oy - ox);
}

/* |got - exp| <= 2 * 2^e * max(|got|, |exp|) + slack */
static int rel_ok(double exp, double got, double e, double slack)
{
    double m = fabs(exp) > fabs(got) ? fabs(exp) : fabs(got);
    return fabs(got - exp) <= 2.0 * exp2(e) * m + slack;
}

/* Is lockstep's `got` acceptable where the GPU gave `exp`?  a and b are the
 * case's raw inputs (some bounds depend on the input). */
static int value_ok(const tolerance *t, unsigned width, uint64_t a, uint64_t b, uint64_t exp,
                    uint64_t got)
{
    if (got == exp)
        return 1;
    if (t->kind == TOL_EXACT || (width < 8 && (got >> (8 * width)) != 0))
        return 0;
    if (t->kind == TOL_REL64 || t->kind == TOL_HI64) {
        double e = bits_f64(exp), g = bits_f64(got);
        if (isnan(e) || isnan(g))
            return isnan(e) && isnan(g);
        if (isinf(e) || isinf(g) || (e == 0 && g == 0))
            return 0; /* the bits differ */
        if (t->kind == TOL_HI64 && (uint32_t)got != 0)
            return 0;
        return rel_ok(e, g, t->param, 0x1p-1074);
    }
    float e = bits_f32(exp), g = bits_f32(got);
    if (isnan(e) || isnan(g))
        return isnan(e) && isnan(g);
    if (e == 0 && g == 0)
        return 0; /* zeros of different signs */
    /* in ulps, infinity is the neighbour of the largest finite value */
    if (t->kind == TOL_ULP)
        return ulp_distance((uint32_t)exp, (uint32_t)got) <= (uint64_t)(2 * t->param);
    if (t->kind == TOL_DIVAPPROX) {
        double bb = fabs((double)bits_f32(b));
        if (bb >= 0x1p-126 && bb <= 0x1p126)
            return ulp_distance((uint32_t)exp, (uint32_t)got) <= 4;
        /* no documented bound: the same kind of value (zero, inf, finite, sign) */
        return (e < 0) == (g < 0) && (e == 0) == (g == 0) && !isinf(e) == !isinf(g);
    }
    if (isinf(e) || isinf(g))
        return 0;
    switch (t->kind) {
    case TOL_REL:
        return rel_ok(e, g, t->param, 0x1p-149);
    case TOL_SINCOS: {
        double x = fabs((double)bits_f32(a));
        if (x <= 2 * CONF_PI)
            return fabs((double)g - e) <= 2 * exp2(-20.5);
        if (x <= 100 * CONF_PI)
            return fabs((double)g - e) <= 2 * exp2(-14.7);
        return fabs((double)g) <= 1.0; /* best effort only: no documented bound */
    }
    case TOL_LG2: {
        double x = (double)bits_f32(a);
        if (x > 0.5 && x < 2.0)
            return fabs((double)g - e) <= 2 * exp2(-22);
        return rel_ok(e, g, -22, 0x1p-149);
    }
    default:
        return 0;
    }
}

static const conf_golden *find_golden(const conf_run *R, const char *name)
{
    for (size_t i = 0; i < R->ngolden; i++)
        if (strcmp(R->golden[i].name, name) == 0)
            return &R->golden[i];
    return NULL;
}

/* The kernel of case c: from the whole module, or from a module of its own
 * (returned in *own, to be unloaded by the caller). */
static lockstep_status get_kernel(conf_run *R, const conf_case *c, lockstep_kernel **k,
                                  lockstep_module **own)
{
    *own = NULL;
    if (R->whole)
        return lockstep_module_get_kernel(R->whole, c->name, k);
    size_t off, len;
    if (conf_ptx_case(R->ptx, c->name, &off, &len) != 0)
        return LOCKSTEP_ERROR_NOT_FOUND;
    char *text = malloc(R->hdr_len + len + 2);
    if (!text)
        return LOCKSTEP_ERROR_OUT_OF_MEMORY;
    memcpy(text, R->ptx, R->hdr_len);
    memcpy(text + R->hdr_len, R->ptx + off, len);
    memcpy(text + R->hdr_len + len, "\n", 2);
    lockstep_status st =
        lockstep_module_load_ptx(R->dev, text, R->hdr_len + len + 1, "conf.ptx", own);
    free(text);
    if (st == LOCKSTEP_SUCCESS) {
        st = lockstep_module_get_kernel(*own, c->name, k);
        if (st != LOCKSTEP_SUCCESS) {
            lockstep_module_unload(*own);
            *own = NULL;
        }
    }
    return st;
}

/* Launch case c on its inputs; on success R->host holds out[0..n). */
static lockstep_status launch_case(conf_run *R, const conf_case *c, const conf_set *s,
                                   const lockstep_kernel *k)
{
    size_t bytes = (size_t)c->n * 8;
    lockstep_status st;
    if ((st = lockstep_memcpy_htod(R->dev, R->buf[1], s->a, bytes)) != LOCKSTEP_SUCCESS ||
        (st = lockstep_memcpy_htod(R->dev, R->buf[2], s->b, bytes)) != LOCKSTEP_SUCCESS ||
        (st = lockstep_memcpy_htod(R->dev, R->buf[3], s->c, bytes)) != LOCKSTEP_SUCCESS ||
        (st = lockstep_memset(R->dev, R->buf[0], 0xA5, bytes)) != LOCKSTEP_SUCCESS)
        return st;
    uint32_t n = c->n;
    void *args[5] = {&R->buf[0], &R->buf[1], &R->buf[2], &R->buf[3], &n};
    lockstep_dim3 grid = {(c->n + c->block - 1) / c->block, 1, 1};
    lockstep_dim3 block = {c->block, 1, 1};
    st = lockstep_launch_args(R->dev, k, grid, block, 0, args, NULL);
    lockstep_status sync = lockstep_synchronize(R->dev);
    if (st == LOCKSTEP_SUCCESS)
        st = sync;
    if (st != LOCKSTEP_SUCCESS)
        return st;
    return lockstep_memcpy_dtoh(R->dev, R->host, R->buf[0], bytes);
}

static void run_case(conf_run *R, const conf_case *c)
{
    const conf_golden *g = find_golden(R, c->name);
    const conf_set *s = conf_find_set(R->sets, R->nsets, c->set);
    tolerance tol = {TOL_EXACT, 0};
    size_t before = (size_t)test_failures_;

    test_current_ = c->name;
    if (g && g->status != CONF_OK) {
        printf("SKIP %s: failed on the GPU when the golden file was made (%s)\n", c->name,
               g->note);
        R->skipped++;
        return;
    }
    CHECK_MSG(g != NULL, "not in the golden file: rerun tests/conformance/run_native.sh");
    CHECK_MSG(!g || (g->hash == c->hash && g->width == c->width && g->n == c->n),
              "the golden record was made from a different conf.ptx/inputs.bin: "
              "rerun tests/conformance/run_native.sh");
    CHECK_MSG(s && s->n == c->n, "input set %s missing from inputs.bin", c->set);
    CHECK_MSG(parse_tolerance(c->tol, &tol) == 0, "unknown tolerance '%s'", c->tol);
    if ((size_t)test_failures_ != before) {
        R->failed++;
        return;
    }

    lockstep_kernel *k = NULL;
    lockstep_module *own = NULL;
    lockstep_status st = get_kernel(R, c, &k, &own);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: cannot load the kernel: %s: %s", c->form,
              lockstep_status_name(st), lockstep_device_last_error(R->dev));
    if (st == LOCKSTEP_SUCCESS) {
        st = launch_case(R, c, s, k);
        CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: launch failed: %s: %s", c->form,
                  lockstep_status_name(st), lockstep_device_last_error(R->dev));
    }
    if (st == LOCKSTEP_SUCCESS) {
        unsigned bad = 0;
        for (unsigned i = 0; i < c->n; i++) {
            uint64_t got = conf_rd64(R->host + 8 * (size_t)i);
            uint64_t exp = conf_rdn(g->data + (size_t)i * c->width, c->width);
            uint64_t a = conf_rd64(s->a + 8 * (size_t)i), b = conf_rd64(s->b + 8 * (size_t)i);
            if (value_ok(&tol, c->width, a, b, exp, got))
                continue;
            /* the result digits at the case's width, all 16 if got has more */
            int digits = c->width < 8 && (got >> (8 * c->width)) != 0 ? 16 : 2 * (int)c->width;
            if (bad++ < MAX_SHOWN)
                fprintf(stderr,
                        "  %s[%u]: a=0x%016" PRIx64 " b=0x%016" PRIx64 " c=0x%016" PRIx64
                        " expected 0x%0*" PRIx64 " got 0x%0*" PRIx64 "\n",
                        c->name, i, a, b, conf_rd64(s->c + 8 * (size_t)i), digits, exp, digits,
                        got);
        }
        CHECK_MSG(bad == 0, "%s: %u of %u results differ from the GPU's (tolerance %s)",
                  c->form, bad, c->n, c->tol);
    }
    if (own)
        lockstep_module_unload(own);
    if ((size_t)test_failures_ != before)
        R->failed++;
    else
        R->passed++;
}

/* Read CONF_DIR/name; NULL (after a failed CHECK) if it cannot be read. */
static unsigned char *read_conf_file(const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", CONF_DIR, name);
    unsigned char *buf = conf_read_file(path, len);
    CHECK_MSG(buf != NULL, "cannot read %s", path);
    return buf;
}

int main(void)
{
    conf_run R;
    char err[256], device[97];
    size_t glen, ilen, plen, ncases = 0;
    conf_case *cases = NULL;
    conf_set *sets = NULL;
    conf_golden *golden = NULL;
    const char *filter = getenv("LOCKSTEP_CONF_FILTER");

    memset(&R, 0, sizeof R);
    unsigned char *gbuf = conf_read_file(CONF_DIR "/golden.bin", &glen);
    if (!gbuf) {
        printf("conformance: no golden file; run tests/conformance/run_native.sh on a GPU "
               "machine\n");
        return 0;
    }
    test_current_ = "conformance";
    char *ctext = (char *)read_conf_file("cases.txt", NULL);
    unsigned char *ibuf = read_conf_file("inputs.bin", &ilen);
    R.ptx = (char *)read_conf_file("conf.ptx", &plen);
    if (!ctext || !ibuf || !R.ptx)
        goto out;
    if (conf_parse_golden(gbuf, glen, &golden, &R.ngolden, device, err, sizeof err) != 0 ||
        conf_parse_cases(ctext, &cases, &ncases, err, sizeof err) != 0 ||
        conf_parse_inputs(ibuf, ilen, &sets, &R.nsets, err, sizeof err) != 0) {
        CHECK_MSG(0, "%s", err);
        goto out;
    }
    R.golden = golden;
    R.sets = sets;
    R.hdr_len = conf_ptx_header_len(R.ptx);

    lockstep_status st = lockstep_device_create(NULL, &R.dev);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "lockstep_device_create: %s", lockstep_status_name(st));
    if (st != LOCKSTEP_SUCCESS)
        goto out;
    size_t maxn = 1;
    for (size_t i = 0; i < ncases; i++)
        if (cases[i].n > maxn)
            maxn = cases[i].n;
    R.host = malloc(maxn * 8);
    CHECK(R.host != NULL);
    for (int i = 0; i < 4 && R.host; i++) {
        st = lockstep_malloc(R.dev, maxn * 8, &R.buf[i]);
        CHECK_MSG(st == LOCKSTEP_SUCCESS, "lockstep_malloc: %s", lockstep_status_name(st));
        if (st != LOCKSTEP_SUCCESS)
            goto out;
    }
    if (!R.host)
        goto out;
    st = lockstep_module_load_file(R.dev, CONF_DIR "/conf.ptx", &R.whole);
    if (st != LOCKSTEP_SUCCESS) {
        const char *msg = lockstep_device_last_error(R.dev);
        printf("conformance: conf.ptx does not load as a whole (%s); loading each case on "
               "its own.  First diagnostics:\n%.2000s\n",
               lockstep_status_name(st), msg ? msg : "");
        R.whole = NULL;
    }

    for (size_t i = 0; i < ncases; i++)
        if (!filter || strstr(cases[i].name, filter))
            run_case(&R, &cases[i]);
    test_current_ = "conformance";
    printf("conformance: %zu cases: %zu passed, %zu failed, %zu skipped (golden: %s)\n",
           R.passed + R.failed + R.skipped, R.passed, R.failed, R.skipped, device);

out:
    if (R.dev)
        lockstep_device_destroy(R.dev); /* frees the module and the buffers */
    free(R.host);
    free(golden);
    free(sets);
    free(cases);
    free(R.ptx);
    free(ibuf);
    free(ctext);
    free(gbuf);
    return test_summary();
}
