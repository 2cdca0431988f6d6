/*
 * test_double_arith.c -- end-to-end: f64 arithmetic (kernels/double_arith.cu).
 *
 * Runs f64_ops over edge values (signed zeros, huge and tiny normals,
 * infinities, NaN, halfway cases, values past the integer ranges, 2^52 + 1)
 * crossed with each other and with random values, in three launch shapes.
 * Exact results are compared bit for bit (any NaN matches any NaN).  Directed
 * roundings come from the round-to-nearest result moved one ulp by the sign
 * of the exact error: TwoSum for sums; fma(x, y, -p) for products (after
 * scaling by 2^1100 when the product is tiny, so the error cannot underflow);
 * fma(-q, y, x) for quotients and fma(-r, r, x) for square roots; exact
 * comparisons in long double (64-bit significand) for integer -> double and
 * double -> float.  Inputs stay above 2^-900 in magnitude (or are zero), so
 * every error term the reference relies on is exact.  Math functions are
 * compared with a long double reference within CUDA's ulp bounds plus one.
 */
#include <float.h>
#include <math.h>

#include "e2e.h"

#define F64_EXACT 34
#define F64_INT 16
#define F64_F32 4
#define F64_TOL 6
#define FILL 0xcd

static const char *const exact_names[F64_EXACT] = {
    "add.rn", "sub.rn", "mul.rn",  "div.rn",  "sqrt.rn", "fma.rn",   "add.rz",  "add.ru",
    "add.rd", "mul.rz", "mul.ru",  "mul.rd",  "div.rz",  "div.ru",   "div.rd",  "sqrt.rz",
    "sqrt.ru", "sqrt.rd", "rcp.rn", "fmin",   "fmax",    "fabs",     "neg",     "copysign",
    "trunc",  "floor",  "ceil",    "rint",    "round",   "ll2double_rn", "ll2double_rz",
    "ull2double_rd", "via float", "hi/lo swapped",
};

static const char *const int_names[F64_INT] = {
    "double2ll_rn", "double2ll_rz", "double2ll_rd", "double2ll_ru", "double2int_rn",
    "double2int_rz", "double2int_rd", "double2int_ru", "double2uint_rn", "double2ull_rz",
    "double2hiint", "double2loint", "double_as_longlong", "compare bits", "class bits",
    "(long long)x",
};

static const char *const f32_names[F64_F32] = {
    "double2float_rn", "double2float_rz", "double2float_ru", "double2float_rd",
};

static const char *const tol_names[F64_TOL] = {"sin", "cos", "exp", "log", "atan2", "cbrt"};
static const uint64_t tol_ulps[F64_TOL] = {3, 3, 2, 2, 3, 2};

enum { RZ, RU, RD };

static int sign_of(double v)
{
    return (v > 0) - (v < 0);
}

static double dir_f64(double rn, int s, int mode)
{
    if (s == 0 || isnan(rn))
        return rn;
    switch (mode) {
    case RZ:
        return ((rn > 0 && s < 0) || (rn < 0 && s > 0)) ? nextafter(rn, 0.0) : rn;
    case RU:
        return s > 0 ? nextafter(rn, INFINITY) : rn;
    default:
        return s < 0 ? nextafter(rn, -INFINITY) : rn;
    }
}

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

static int add_err_sign(double x, double y, double r)
{
    if (!isfinite(x) || !isfinite(y))
        return 0;
    if (isinf(r))
        return r > 0 ? -1 : 1;
    double bb = r - x;
    double err = (x - (r - bb)) + (y - bb);
    return sign_of(err);
}

/* x + y in a directed rounding; an exact zero sum is -0 when rounding down
 * unless both operands are +0. */
static double add_dir(double x, double y, int mode)
{
    double r = x + y;
    if (r == 0 && mode == RD && !(x == 0 && y == 0 && !signbit(x) && !signbit(y)))
        return -0.0;
    return dir_f64(r, add_err_sign(x, y, r), mode);
}

static int mul_err_sign(double x, double y, double p)
{
    if (!isfinite(x) || !isfinite(y) || x == 0 || y == 0)
        return 0;
    if (isinf(p))
        return p > 0 ? -1 : 1;
    if (fabs(p) < 0x1p-900) /* scale so that the error term cannot underflow */
        return sign_of(fma(ldexp(x, 550), ldexp(y, 550), -ldexp(p, 1100)));
    return sign_of(fma(x, y, -p));
}

static int div_err_sign(double x, double y, double q)
{
    if (!isfinite(x) || !isfinite(y) || x == 0 || y == 0)
        return 0;
    return sign_of(fma(-q, y, x)) * sign_of(y);
}

static int sqrt_err_sign(double x, double r)
{
    if (!(x > 0) || isinf(x))
        return 0;
    return sign_of(fma(-r, r, x));
}

static double fmin_ref(double x, double y)
{
    if (isnan(x))
        return y;
    if (isnan(y))
        return x;
    if (x == 0 && y == 0)
        return signbit(x) ? x : y;
    return x < y ? x : y;
}

static double fmax_ref(double x, double y)
{
    if (isnan(x))
        return y;
    if (isnan(y))
        return x;
    if (x == 0 && y == 0)
        return signbit(x) ? y : x;
    return x > y ? x : y;
}

/* double -> signed integer of `bits` bits, saturating.  A NaN gives the
 * most negative value (0x80000000 / 0x8000000000000000): that is what the
 * GPU does for conversions from f64, unlike the 0 of f32 -> 32-bit. */
static uint64_t d2i(double x, double (*rnd)(double), int bits)
{
    int64_t max = (int64_t)((1ull << (bits - 1)) - 1), min = -max - 1;
    if (isnan(x))
        return (uint64_t)min;
    double r = rnd(x);
    double lim = ldexp(1.0, bits - 1);
    if (r >= lim)
        return (uint64_t)max;
    if (r < -lim)
        return (uint64_t)min;
    return (uint64_t)(int64_t)r;
}

/* double -> unsigned integer of `bits` bits; NaN gives the top bit alone,
 * as on the GPU. */
static uint64_t d2u(double x, double (*rnd)(double), int bits)
{
    if (isnan(x))
        return 1ull << (bits - 1);
    double r = rnd(x);
    if (r <= 0)
        return 0;
    if (r >= ldexp(1.0, bits))
        return bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
    return (uint64_t)r;
}

/* Integer -> double in a directed rounding, exactly via long double. */
static double ll2d_dir(long double exact, int mode)
{
    double d = (double)exact; /* round to nearest */
    int s = ((long double)d < exact) - ((long double)d > exact);
    return dir_f64(d, s, mode);
}

static void ref_f64(double x, double y, double z, int64_t l, double *d, uint64_t *u, float *f,
                    double *t)
{
    double r;
    d[0] = x + y;
    d[1] = x - y;
    d[2] = x * y;
    d[3] = x / y;
    d[4] = sqrt(x);
    d[5] = fma(x, y, z);
    d[6] = add_dir(x, y, RZ);
    d[7] = add_dir(x, y, RU);
    d[8] = add_dir(x, y, RD);
    r = x * y;
    d[9] = dir_f64(r, mul_err_sign(x, y, r), RZ);
    d[10] = dir_f64(r, mul_err_sign(x, y, r), RU);
    d[11] = dir_f64(r, mul_err_sign(x, y, r), RD);
    r = x / y;
    d[12] = dir_f64(r, div_err_sign(x, y, r), RZ);
    d[13] = dir_f64(r, div_err_sign(x, y, r), RU);
    d[14] = dir_f64(r, div_err_sign(x, y, r), RD);
    r = sqrt(x);
    d[15] = dir_f64(r, sqrt_err_sign(x, r), RZ);
    d[16] = dir_f64(r, sqrt_err_sign(x, r), RU);
    d[17] = dir_f64(r, sqrt_err_sign(x, r), RD);
    d[18] = 1.0 / x;
    d[19] = fmin_ref(x, y);
    d[20] = fmax_ref(x, y);
    d[21] = fabs(x);
    d[22] = -x;
    d[23] = copysign(x, y);
    d[24] = trunc(x);
    d[25] = floor(x);
    d[26] = ceil(x);
    d[27] = rint(x);
    d[28] = round(x);
    d[29] = (double)l;
    d[30] = ll2d_dir((long double)l, RZ);
    d[31] = ll2d_dir((long double)(uint64_t)l, RD);
    d[32] = (double)(float)z;
    uint64_t bits = e2e_f64_bits(x);
    d[33] = e2e_bits_f64(bits << 32 | bits >> 32);

    u[0] = d2i(x, rint, 64);
    u[1] = d2i(x, trunc, 64);
    u[2] = d2i(x, floor, 64);
    u[3] = d2i(x, ceil, 64);
    u[4] = d2i(x, rint, 32);
    u[5] = d2i(x, trunc, 32);
    u[6] = d2i(x, floor, 32);
    u[7] = d2i(x, ceil, 32);
    u[8] = d2u(x, rint, 32);
    u[9] = d2u(x, trunc, 64);
    u[10] = bits >> 32;
    u[11] = bits & 0xffffffffu;
    u[12] = bits;
    u[13] = (uint64_t)(x < y) | (uint64_t)(x <= y) << 1 | (uint64_t)(x == y) << 2 |
            (uint64_t)(x != y) << 3 | (uint64_t)(x > y) << 4 | (uint64_t)(x >= y) << 5;
    u[14] = (isnan(x) ? 1u : 0u) | (isinf(x) ? 2u : 0u) | (signbit(x) ? 8u : 0u);
    u[15] = d2i(x, trunc, 64);

    float fr = (float)x;
    int fs = isfinite(x) ? sign_of(x - (double)fr) : 0;
    f[0] = fr;
    f[1] = dir_f32(fr, fs, RZ);
    f[2] = dir_f32(fr, fs, RU);
    f[3] = dir_f32(fr, fs, RD);

    double s = fmin(fabs(x), 100.0);
    t[0] = (double)sinl((long double)s);
    t[1] = (double)cosl((long double)s);
    t[2] = (double)expl((long double)fmin(x, 700.0));
    t[3] = (double)logl((long double)x);
    t[4] = (double)atan2l((long double)x, (long double)y);
    t[5] = (double)cbrtl((long double)x);
}

/* ---- inputs ----------------------------------------------------------------- */

static const double edge[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 3.0, -0.75, 0.1, 1e-250, -1e-250, 1e300,
    -1e300, DBL_MAX, -DBL_MAX, INFINITY, -INFINITY, NAN, 4503599627370497.0, 3e9, -3e9,
    2147483648.0, 9.3e18, -9.3e18, 2e19, 123.456, 0.49999999999999994, 1e-5,
};
#define N_EDGE (sizeof edge / sizeof edge[0])

static const int64_t ledge[] = {
    0, 1, -1, (1ll << 53) + 1, -((1ll << 53) + 1), INT64_MAX, INT64_MIN, (1ll << 62) + 1,
    -3, 0x0123456789abcdefll,
};
#define N_LEDGE (sizeof ledge / sizeof ledge[0])

static double rand_f64(uint64_t *st)
{
    uint64_t r = e2e_rand(st);
    double m = 1.0 + (double)(e2e_rand(st) >> 12) / 4503599627370496.0;
    int e = (int)(r % 121) - 60;
    double v = ldexp(m, e);
    if ((r >> 40) & 1)
        v = -v;
    switch ((r >> 41) & 7) {
    case 0:
        return (double)((int)((r >> 44) % 41) - 20) * 0.5;
    case 1:
        return edge[(r >> 44) % N_EDGE];
    default:
        return v;
    }
}

static void make_inputs(double *a, double *b, double *c, int64_t *la, size_t n, uint64_t seed)
{
    uint64_t st = seed;
    for (size_t i = 0; i < n; i++) {
        if (i < N_EDGE * N_EDGE) {
            a[i] = edge[i / N_EDGE];
            b[i] = edge[i % N_EDGE];
        } else {
            a[i] = rand_f64(&st);
            b[i] = rand_f64(&st);
        }
        c[i] = rand_f64(&st);
        uint64_t r = e2e_rand(&st);
        la[i] = (r & 1) ? ledge[(r >> 8) % N_LEDGE] : (int64_t)e2e_rand(&st) >> (r >> 16) % 30;
    }
}

/* ---- the case ---------------------------------------------------------------- */

typedef struct shape_n {
    e2e_shape s;
    size_t n;
} shape_n;

static const shape_n shapes[] = {
    {{"1-D grid 5, block 192", {5, 1, 1}, {192, 1, 1}}, 950},
    {{"2-D grid 4x4, 2-D block 9x7", {4, 4, 1}, {9, 7, 1}}, 1000},
    {{"3-D grid 2x1x2, 3-D block 4x4x4", {2, 1, 2}, {4, 4, 4}}, 250},
};
#define N_SHAPES (sizeof shapes / sizeof shapes[0])

static void run_shape(lockstep_device *dev, lockstep_kernel *k, const shape_n *sh, uint64_t seed)
{
    size_t n = sh->n, threads = (size_t)e2e_shape_threads(&sh->s);
    size_t nd = threads * F64_EXACT, ni = threads * F64_INT, nf = threads * F64_F32,
           nt = threads * F64_TOL;
    double *a = malloc(n * 8), *b = malloc(n * 8), *c = malloc(n * 8);
    int64_t *la = malloc(n * 8);
    double *de = malloc(nd * 8), *dg = malloc(nd * 8), *te = malloc(nt * 8), *tg = malloc(nt * 8);
    uint64_t *ie = malloc(ni * 8), *ig = malloc(ni * 8);
    float *fe = malloc(nf * 4), *fg = malloc(nf * 4);
    lockstep_dptr da = 0, db = 0, dc = 0, dla = 0, ddo = 0, dio = 0, dfo = 0, dto = 0;
    char what[160];
    if (!a || !b || !c || !la || !de || !dg || !te || !tg || !ie || !ig || !fe || !fg)
        goto out;
    make_inputs(a, b, c, la, n, seed);
    memset(de, FILL, nd * 8);
    memset(ie, FILL, ni * 8);
    memset(fe, FILL, nf * 4);
    memset(te, FILL, nt * 8);
    for (size_t i = 0; i < n; i++)
        ref_f64(a[i], b[i], c[i], la[i], de + i * F64_EXACT, ie + i * F64_INT, fe + i * F64_F32,
                te + i * F64_TOL);
    da = e2e_upload(dev, a, n * 8);
    db = e2e_upload(dev, b, n * 8);
    dc = e2e_upload(dev, c, n * 8);
    dla = e2e_upload(dev, la, n * 8);
    ddo = e2e_alloc(dev, nd * 8);
    dio = e2e_alloc(dev, ni * 8);
    dfo = e2e_alloc(dev, nf * 4);
    dto = e2e_alloc(dev, nt * 8);
    if (!da || !db || !dc || !dla || !ddo || !dio || !dfo || !dto)
        goto out;
    if (!e2e_fill(dev, ddo, FILL, nd * 8) || !e2e_fill(dev, dio, FILL, ni * 8) ||
        !e2e_fill(dev, dfo, FILL, nf * 4) || !e2e_fill(dev, dto, FILL, nt * 8))
        goto out;
    int nn = (int)n;
    void *args[] = {&da, &db, &dc, &dla, &ddo, &dio, &dfo, &dto, &nn};
    if (!e2e_launch(dev, k, sh->s.name, sh->s.grid, sh->s.block, 0, args))
        goto out;
    if (!e2e_download(dev, dg, ddo, nd * 8) || !e2e_download(dev, ig, dio, ni * 8) ||
        !e2e_download(dev, fg, dfo, nf * 4) || !e2e_download(dev, tg, dto, nt * 8))
        goto out;

    e2e_layout ld = {F64_EXACT, exact_names}, li = {F64_INT, int_names},
               lf = {F64_F32, f32_names}, lt = {F64_TOL, tol_names};
    snprintf(what, sizeof what, "f64_ops exact, %s", sh->s.name);
    e2e_cmp_f64(what, dg, de, nd, 0, NULL, &ld);
    snprintf(what, sizeof what, "f64_ops integer, %s", sh->s.name);
    e2e_cmp_u64(what, ig, ie, ni, &li);
    snprintf(what, sizeof what, "f64_ops to float, %s", sh->s.name);
    e2e_cmp_f32(what, fg, fe, nf, 0, NULL, &lf);
    snprintf(what, sizeof what, "f64_ops math, %s", sh->s.name);
    e2e_cmp_f64(what, tg, te, nt, 0, tol_ulps, &lt);
    /* name the inputs of the first threads with a wrong result */
    for (size_t i = 0, shown = 0; i < n && shown < E2E_MAX_REPORT; i++) {
        int bad = 0;
        for (size_t j = 0; j < F64_EXACT; j++)
            bad |= !e2e_f64_close(dg[i * F64_EXACT + j], de[i * F64_EXACT + j], 0);
        for (size_t j = 0; j < F64_INT; j++)
            bad |= ig[i * F64_INT + j] != ie[i * F64_INT + j];
        for (size_t j = 0; j < F64_F32; j++)
            bad |= !e2e_f32_close(fg[i * F64_F32 + j], fe[i * F64_F32 + j], 0);
        for (size_t j = 0; j < F64_TOL; j++)
            bad |= !e2e_f64_close(tg[i * F64_TOL + j], te[i * F64_TOL + j], tol_ulps[j]);
        if (bad && ++shown)
            fprintf(stderr, "    thread %zu inputs: x = %a, y = %a, z = %a, l = %lld\n", i, a[i],
                    b[i], c[i], (long long)la[i]);
    }
out:
    e2e_free(dev, da);
    e2e_free(dev, db);
    e2e_free(dev, dc);
    e2e_free(dev, dla);
    e2e_free(dev, ddo);
    e2e_free(dev, dio);
    e2e_free(dev, dfo);
    e2e_free(dev, dto);
    free(a);
    free(b);
    free(c);
    free(la);
    free(de);
    free(dg);
    free(te);
    free(tg);
    free(ie);
    free(ig);
    free(fe);
    free(fg);
}

static void test_f64_ops(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "double_arith.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "f64_ops");
    if (k)
        for (size_t si = 0; si < N_SHAPES; si++)
            run_shape(dev, k, &shapes[si], 0xf64f64 + si);
    e2e_device_destroy(dev);
}

int main(void)
{
    RUN(test_f64_ops);
    return test_summary();
}
