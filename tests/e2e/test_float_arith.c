/*
 * test_float_arith.c -- end-to-end: f32 arithmetic (kernels/float_arith.cu).
 *
 * Runs f32_ops over inputs that pair edge values (signed zeros, subnormals,
 * FLT_MIN/FLT_MAX, infinities, NaN, halfway cases, values past the integer
 * ranges) with each other and with random values, in three launch shapes.
 * Exact results are compared bit for bit (any NaN matches any NaN):
 * round-to-nearest results come from the host's IEEE float operations, and
 * the directed roundings (rz/ru/rd) from the round-to-nearest result moved
 * one ulp according to the sign of the exact error, which the reference
 * computes exactly (TwoSum for sums, a double product for products, a double
 * fma remainder for quotients and square roots).  Library math functions
 * are compared with a double-precision reference within the ulp bounds of
 * the CUDA programming guide plus one; __sinf with an absolute bound.
 */
#include <float.h>
#include <math.h>

#include "e2e.h"

#define F32_EXACT 36
#define F32_INT 14
#define F32_TOL 8
#define FILL 0xcd

static const char *const exact_names[F32_EXACT] = {
    "add.rn",  "sub.rn",  "mul.rn",   "div.rn",   "sqrt.rn",   "fma.rn",  "add.rz",
    "add.ru",  "add.rd",  "mul.rz",   "mul.ru",   "mul.rd",    "div.rz",  "div.ru",
    "div.rd",  "sqrt.rz", "sqrt.ru",  "sqrt.rd",  "rcp.rn",    "fminf",   "fmaxf",
    "fabsf",   "neg",     "copysignf", "truncf",  "floorf",    "ceilf",   "rintf",
    "roundf",  "saturatef", "int2float_rn", "int2float_rz", "uint2float_rn", "ll2float_rn",
    "via double *3", "z/3",
};

static const char *const int_names[F32_INT] = {
    "float2int_rn", "float2int_rz", "float2int_rd", "float2int_ru", "float2uint_rn",
    "float2uint_rz", "(int)x", "float_as_int", "compare bits", "class bits",
    "float2ll_rz lo", "float2ll_rz hi", "float2uint_rd", "float2uint_ru",
};

static const char *const tol_names[F32_TOL] = {
    "sinf", "cosf", "expf", "logf", "atan2f", "exp2f", "__sinf (abs 2^-20)", "__expf",
};

/* CUDA's documented maximum ulp errors, plus one for the reference's own
 * rounding; __sinf (index 6) is checked separately with an absolute bound. */
static const uint64_t tol_ulps[F32_TOL] = {3, 3, 3, 2, 4, 3, 0, 16};

enum { RZ, RU, RD };

static int sign_of(double v)
{
    return (v > 0) - (v < 0);
}

/* Round-to-nearest result rn moved to the directed rounding `mode`, given
 * s = sign(exact - rn). */
static float dir_f32(float rn, int s, int mode)
{
    if (s == 0 || isnan(rn))
        return rn;
    switch (mode) {
    case RZ:
        return ((rn > 0 && s < 0) || (rn < 0 && s > 0)) ? nextafterf(rn, 0.0f) : rn;
    case RU:
        return s > 0 ? nextafterf(rn, INFINITY) : rn;
    default:
        return s < 0 ? nextafterf(rn, -INFINITY) : rn;
    }
}

static int add_err_sign(float x, float y, float r)
{
    if (!isfinite(x) || !isfinite(y))
        return 0;
    if (isinf(r))
        return r > 0 ? -1 : 1; /* overflow: the exact sum is finite */
    float bb = r - x;
    float err = (x - (r - bb)) + (y - bb); /* TwoSum: exact */
    return sign_of(err);
}

/* x + y in a directed rounding.  An exact zero sum is -0 when rounding
 * down unless both operands are +0 (IEEE 754), +0 otherwise. */
static float add_dir(float x, float y, int mode)
{
    float r = x + y;
    if (r == 0 && mode == RD && !(x == 0 && y == 0 && !signbit(x) && !signbit(y)))
        return -0.0f;
    return dir_f32(r, add_err_sign(x, y, r), mode);
}

static int mul_err_sign(float x, float y, float r)
{
    if (!isfinite(x) || !isfinite(y))
        return 0;
    double e = (double)x * (double)y; /* exact: 48-bit product */
    return (e > (double)r) - (e < (double)r);
}

static int div_err_sign(float x, float y, float q)
{
    if (!isfinite(x) || !isfinite(y) || x == 0 || y == 0)
        return 0;
    /* x - q*y computed with one rounding in double keeps its sign */
    return sign_of(fma(-(double)q, (double)y, (double)x)) * sign_of(y);
}

static int sqrt_err_sign(float x, float r)
{
    if (!(x > 0) || isinf(x))
        return 0;
    return sign_of(fma(-(double)r, (double)r, (double)x));
}

static float fmin_ref(float x, float y)
{
    if (isnan(x))
        return y;
    if (isnan(y))
        return x;
    if (x == 0 && y == 0)
        return signbit(x) ? x : y; /* -0 counts as smaller */
    return x < y ? x : y;
}

static float fmax_ref(float x, float y)
{
    if (isnan(x))
        return y;
    if (isnan(y))
        return x;
    if (x == 0 && y == 0)
        return signbit(x) ? y : x;
    return x > y ? x : y;
}

/* cvt.sat: NaN and everything up to -0 give +0. */
static float saturate_ref(float x)
{
    if (isnan(x) || x <= 0)
        return 0.0f;
    if (x > 1)
        return 1.0f;
    return x;
}

/* float -> int32 with saturation; NaN gives 0 (cvt from f32 to a 32-bit
 * integer, as the GPU does). */
static uint32_t f2i(float x, float (*rnd)(float))
{
    if (isnan(x))
        return 0;
    float r = rnd(x);
    if (r >= 2147483648.0f)
        return (uint32_t)INT32_MAX;
    if (r < -2147483648.0f)
        return (uint32_t)INT32_MIN;
    return (uint32_t)(int32_t)r;
}

static uint32_t f2u(float x, float (*rnd)(float))
{
    if (isnan(x))
        return 0;
    float r = rnd(x);
    if (r <= 0)
        return 0;
    if (r >= 4294967296.0f)
        return UINT32_MAX;
    return (uint32_t)r;
}

/* float -> int64; NaN gives 0x8000000000000000 (what the GPU does for
 * 64-bit results, unlike the 0 of 32-bit ones). */
static uint64_t f2ll_rz(float x)
{
    if (isnan(x))
        return 0x8000000000000000ull;
    float r = truncf(x);
    if (r >= 9223372036854775808.0f)
        return (uint64_t)INT64_MAX;
    if (r < -9223372036854775808.0f)
        return (uint64_t)INT64_MIN;
    return (uint64_t)(int64_t)r;
}

static float int2float_rz(int32_t k)
{
    double d = k;
    float f = (float)d;
    if (fabs((double)f) > fabs(d))
        f = nextafterf(f, 0.0f);
    return f;
}

static void ref_f32(float x, float y, float z, int32_t k, int64_t l, float *f, uint32_t *u,
                    float *t)
{
    float r;
    f[0] = x + y;
    f[1] = x - y;
    f[2] = x * y;
    f[3] = x / y;
    f[4] = sqrtf(x);
    f[5] = fmaf(x, y, z);
    f[6] = add_dir(x, y, RZ);
    f[7] = add_dir(x, y, RU);
    f[8] = add_dir(x, y, RD);
    r = x * y;
    f[9] = dir_f32(r, mul_err_sign(x, y, r), RZ);
    f[10] = dir_f32(r, mul_err_sign(x, y, r), RU);
    f[11] = dir_f32(r, mul_err_sign(x, y, r), RD);
    r = x / y;
    f[12] = dir_f32(r, div_err_sign(x, y, r), RZ);
    f[13] = dir_f32(r, div_err_sign(x, y, r), RU);
    f[14] = dir_f32(r, div_err_sign(x, y, r), RD);
    r = sqrtf(x);
    f[15] = dir_f32(r, sqrt_err_sign(x, r), RZ);
    f[16] = dir_f32(r, sqrt_err_sign(x, r), RU);
    f[17] = dir_f32(r, sqrt_err_sign(x, r), RD);
    f[18] = 1.0f / x;
    f[19] = fmin_ref(x, y);
    f[20] = fmax_ref(x, y);
    f[21] = fabsf(x);
    f[22] = -x;
    f[23] = copysignf(x, y);
    f[24] = truncf(x);
    f[25] = floorf(x);
    f[26] = ceilf(x);
    f[27] = rintf(x);
    f[28] = roundf(x);
    f[29] = saturate_ref(x);
    f[30] = (float)k;
    f[31] = int2float_rz(k);
    f[32] = (float)(uint32_t)k;
    f[33] = (float)l;
    f[34] = (float)((double)x * 3.0);
    f[35] = z / 3.0f;

    u[0] = f2i(x, rintf);
    u[1] = f2i(x, truncf);
    u[2] = f2i(x, floorf);
    u[3] = f2i(x, ceilf);
    u[4] = f2u(x, rintf);
    u[5] = f2u(x, truncf);
    u[6] = f2i(x, truncf);
    u[7] = e2e_f32_bits(x);
    u[8] = (uint32_t)(x < y) | (uint32_t)(x <= y) << 1 | (uint32_t)(x == y) << 2 |
           (uint32_t)(x != y) << 3 | (uint32_t)(x > y) << 4 | (uint32_t)(x >= y) << 5;
    u[9] = (isnan(x) ? 1u : 0u) | (isinf(x) ? 2u : 0u) | (isfinite(x) ? 4u : 0u) |
           (signbit(x) ? 8u : 0u);
    u[10] = (uint32_t)f2ll_rz(x);
    u[11] = (uint32_t)(f2ll_rz(x) >> 32);
    u[12] = f2u(x, floorf);
    u[13] = f2u(x, ceilf);

    float s = fminf(fabsf(x), 40.0f);
    t[0] = (float)sin((double)s);
    t[1] = (float)cos((double)s);
    t[2] = (float)exp((double)fminf(x, 80.0f));
    t[3] = (float)log((double)x);
    t[4] = (float)atan2((double)x, (double)y);
    t[5] = (float)exp2((double)fminf(x, 100.0f));
    t[6] = (float)sin((double)fminf(s, 3.0f));
    t[7] = (float)exp((double)fmaxf(fminf(x, 10.0f), -10.0f));
}

/* ---- inputs ----------------------------------------------------------------- */

static const float edge[] = {
    0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, 2.5f, -2.5f, 3.0f, -0.75f, 1e-40f, -1e-42f,
    FLT_MIN, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN, 1e10f, -1e10f, 3e9f, -3e9f,
    2147483648.0f, 4294967296.0f, 0.49999997f, 8388609.0f, 1e-5f, 123.456f, 0.1f, 1e20f,
};
#define N_EDGE (sizeof edge / sizeof edge[0])

static const int32_t iedge[] = {
    0, 1, -1, 16777217, -16777217, 16777219, INT32_MAX, INT32_MIN, 2147483520, 123456789,
};
#define N_IEDGE (sizeof iedge / sizeof iedge[0])

static float rand_f32(uint64_t *st)
{
    uint64_t r = e2e_rand(st);
    float m = 1.0f + (float)(r & 0xffffff) / 16777216.0f;
    int e = (int)((r >> 24) % 61) - 30;
    float v = ldexpf(m, e);
    if ((r >> 40) & 1)
        v = -v;
    switch ((r >> 41) & 7) {
    case 0:
        return (float)((int)((r >> 44) % 41) - 20) * 0.5f; /* halves, incl. ties */
    case 1:
        return ldexpf(m, -130 - (int)((r >> 44) % 15)); /* subnormal */
    case 2:
        return edge[(r >> 44) % N_EDGE];
    default:
        return v;
    }
}

static void make_inputs(float *a, float *b, float *c, int32_t *ia, int64_t *la, size_t n,
                        uint64_t seed)
{
    uint64_t st = seed;
    for (size_t i = 0; i < n; i++) {
        if (i < N_EDGE * N_EDGE) {
            a[i] = edge[i / N_EDGE];
            b[i] = edge[i % N_EDGE];
        } else {
            a[i] = rand_f32(&st);
            b[i] = rand_f32(&st);
        }
        c[i] = rand_f32(&st);
        uint64_t r = e2e_rand(&st);
        ia[i] = (r & 1) ? iedge[(r >> 8) % N_IEDGE] : (int32_t)(r >> 32);
        la[i] = (r & 2) ? (int64_t)e2e_rand(&st) >> (r >> 16) % 40 : (int64_t)(r >> 3);
    }
}

/* ---- the case ---------------------------------------------------------------- */

typedef struct shape_n {
    e2e_shape s;
    size_t n;
} shape_n;

static const shape_n shapes[] = {
    {{"1-D grid 6, block 256", {6, 1, 1}, {256, 1, 1}}, 1500},
    {{"2-D grid 5x3, 2-D block 16x6", {5, 3, 1}, {16, 6, 1}}, 1400},
    {{"3-D grid 1x2x3, 3-D block 5x5x5", {1, 2, 3}, {5, 5, 5}}, 700},
};
#define N_SHAPES (sizeof shapes / sizeof shapes[0])

static void run_shape(lockstep_device *dev, lockstep_kernel *k, const shape_n *sh, uint64_t seed)
{
    size_t n = sh->n, threads = (size_t)e2e_shape_threads(&sh->s);
    size_t ne = threads * F32_EXACT, ni = threads * F32_INT, nt = threads * F32_TOL;
    float *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
    int32_t *ia = malloc(n * 4);
    int64_t *la = malloc(n * 8);
    float *fe = malloc(ne * 4), *fg = malloc(ne * 4), *te = malloc(nt * 4), *tg = malloc(nt * 4);
    uint32_t *ie = malloc(ni * 4), *ig = malloc(ni * 4);
    lockstep_dptr da = 0, db = 0, dc = 0, dia = 0, dla = 0, dfo = 0, dio = 0, dto = 0;
    char what[160];
    if (!a || !b || !c || !ia || !la || !fe || !fg || !te || !tg || !ie || !ig)
        goto out;
    make_inputs(a, b, c, ia, la, n, seed);
    memset(fe, FILL, ne * 4);
    memset(ie, FILL, ni * 4);
    memset(te, FILL, nt * 4);
    for (size_t i = 0; i < n; i++)
        ref_f32(a[i], b[i], c[i], ia[i], la[i], fe + i * F32_EXACT, ie + i * F32_INT,
                te + i * F32_TOL);
    da = e2e_upload(dev, a, n * 4);
    db = e2e_upload(dev, b, n * 4);
    dc = e2e_upload(dev, c, n * 4);
    dia = e2e_upload(dev, ia, n * 4);
    dla = e2e_upload(dev, la, n * 8);
    dfo = e2e_alloc(dev, ne * 4);
    dio = e2e_alloc(dev, ni * 4);
    dto = e2e_alloc(dev, nt * 4);
    if (!da || !db || !dc || !dia || !dla || !dfo || !dio || !dto)
        goto out;
    if (!e2e_fill(dev, dfo, FILL, ne * 4) || !e2e_fill(dev, dio, FILL, ni * 4) ||
        !e2e_fill(dev, dto, FILL, nt * 4))
        goto out;
    int nn = (int)n;
    void *args[] = {&da, &db, &dc, &dia, &dla, &dfo, &dio, &dto, &nn};
    if (!e2e_launch(dev, k, sh->s.name, sh->s.grid, sh->s.block, 0, args))
        goto out;
    if (!e2e_download(dev, fg, dfo, ne * 4) || !e2e_download(dev, ig, dio, ni * 4) ||
        !e2e_download(dev, tg, dto, nt * 4))
        goto out;

    e2e_layout le = {F32_EXACT, exact_names}, li = {F32_INT, int_names},
               lt = {F32_TOL, tol_names};
    snprintf(what, sizeof what, "f32_ops exact, %s", sh->s.name);
    e2e_cmp_f32(what, fg, fe, ne, 0, NULL, &le);
    snprintf(what, sizeof what, "f32_ops integer, %s", sh->s.name);
    e2e_cmp_u32(what, ig, ie, ni, &li);
    /* __sinf: absolute error bound; accept the device value when within it */
    for (size_t i = 0; i < n; i++) {
        float *e = te + i * F32_TOL + 6, g = tg[i * F32_TOL + 6];
        if (fabs((double)g - (double)*e) <= ldexp(1.0, -20))
            *e = g;
    }
    snprintf(what, sizeof what, "f32_ops math, %s", sh->s.name);
    e2e_cmp_f32(what, tg, te, nt, 0, tol_ulps, &lt);
    /* name the inputs of the first threads with a wrong result */
    for (size_t i = 0, shown = 0; i < n && shown < E2E_MAX_REPORT; i++) {
        int bad = 0;
        for (size_t j = 0; j < F32_EXACT; j++)
            bad |= !e2e_f32_close(fg[i * F32_EXACT + j], fe[i * F32_EXACT + j], 0);
        for (size_t j = 0; j < F32_INT; j++)
            bad |= ig[i * F32_INT + j] != ie[i * F32_INT + j];
        for (size_t j = 0; j < F32_TOL; j++)
            bad |= !e2e_f32_close(tg[i * F32_TOL + j], te[i * F32_TOL + j], tol_ulps[j]);
        if (bad && ++shown)
            fprintf(stderr, "    thread %zu inputs: x = %a, y = %a, z = %a, k = %d, l = %lld\n", i,
                    (double)a[i], (double)b[i], (double)c[i], ia[i], (long long)la[i]);
    }
out:
    e2e_free(dev, da);
    e2e_free(dev, db);
    e2e_free(dev, dc);
    e2e_free(dev, dia);
    e2e_free(dev, dla);
    e2e_free(dev, dfo);
    e2e_free(dev, dio);
    e2e_free(dev, dto);
    free(a);
    free(b);
    free(c);
    free(ia);
    free(la);
    free(fe);
    free(fg);
    free(te);
    free(tg);
    free(ie);
    free(ig);
}

static void test_f32_ops(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "float_arith.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "f32_ops");
    if (k)
        for (size_t si = 0; si < N_SHAPES; si++)
            run_shape(dev, k, &shapes[si], 0xf32f32 + si);
    e2e_device_destroy(dev);
}

int main(void)
{
    RUN(test_f32_ops);
    return test_summary();
}
