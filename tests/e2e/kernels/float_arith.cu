// float_arith.cu -- end-to-end kernels for f32 arithmetic (driver: test_float_arith.c).
//
// Exercises add/sub/mul in every rounding mode (__fadd_rn/rz/ru/rd,
// __fsub_rn, __fmul_rn/rz/ru/rd), IEEE division and square root (a / b and
// sqrtf compile to div.rn.f32 and sqrt.rn.f32) and their directed forms
// (__fdiv_*, __fsqrt_*), __frcp_rn, fmaf, fminf/fmaxf with NaN operands,
// fabsf/copysignf/negation, truncf/floorf/ceilf/rintf/roundf, __saturatef,
// float <-> integer conversions with every rounding intrinsic
// (__float2int_rn/rz/rd/ru, __float2uint_*, __int2float_rn/rz,
// __uint2float_rn, __ll2float_rn, __float2ll_rz) including saturation and
// NaN, comparisons and classification, subnormal operands (no -ftz), and a
// few libdevice math functions checked with a tolerance in ulps
// (sinf, cosf, expf, logf, atan2f, exp2f) plus the fast intrinsics __sinf
// and __expf (sin.approx / ex2.approx).
//
// There is no a * b + c written in this file: products and sums go through
// __fmul_rn / __fadd_rn (which nvcc never contracts into fma) or fmaf, so the
// CPU reference can reproduce every exact result.
#include "common.cuh"

#define F32_EXACT 36 // exact float results per thread
#define F32_INT 14   // integer results per thread
#define F32_TOL 8    // results checked with a tolerance

extern "C" __global__ void f32_ops(const float *a, const float *b, const float *c,
                                   const int *ia, const long long *la, float *fo,
                                   unsigned *io, float *to, int n)
{
    unsigned i = e2e_gtid();
    if (i >= (unsigned)n)
        return;
    float x = a[i], y = b[i], z = c[i];
    int k = ia[i];
    long long l = la[i];
    float *f = fo + (size_t)i * F32_EXACT;
    unsigned *u = io + (size_t)i * F32_INT;
    float *t = to + (size_t)i * F32_TOL;

    f[0] = __fadd_rn(x, y);
    f[1] = __fsub_rn(x, y);
    f[2] = __fmul_rn(x, y);
    f[3] = x / y;
    f[4] = sqrtf(x);
    f[5] = fmaf(x, y, z);
    f[6] = __fadd_rz(x, y);
    f[7] = __fadd_ru(x, y);
    f[8] = __fadd_rd(x, y);
    f[9] = __fmul_rz(x, y);
    f[10] = __fmul_ru(x, y);
    f[11] = __fmul_rd(x, y);
    f[12] = __fdiv_rz(x, y);
    f[13] = __fdiv_ru(x, y);
    f[14] = __fdiv_rd(x, y);
    f[15] = __fsqrt_rz(x);
    f[16] = __fsqrt_ru(x);
    f[17] = __fsqrt_rd(x);
    f[18] = __frcp_rn(x);
    f[19] = fminf(x, y);
    f[20] = fmaxf(x, y);
    f[21] = fabsf(x);
    f[22] = -x;
    f[23] = copysignf(x, y);
    f[24] = truncf(x);
    f[25] = floorf(x);
    f[26] = ceilf(x);
    f[27] = rintf(x);
    f[28] = roundf(x);
    f[29] = __saturatef(x);
    f[30] = __int2float_rn(k);
    f[31] = __int2float_rz(k);
    f[32] = __uint2float_rn((unsigned)k);
    f[33] = __ll2float_rn(l);
    f[34] = (float)((double)x * 3.0); // cvt.f64.f32, mul.f64, cvt.rn.f32.f64
    f[35] = __fdiv_rn(z, 3.0f);

    u[0] = (unsigned)__float2int_rn(x);
    u[1] = (unsigned)__float2int_rz(x);
    u[2] = (unsigned)__float2int_rd(x);
    u[3] = (unsigned)__float2int_ru(x);
    u[4] = __float2uint_rn(x);
    u[5] = __float2uint_rz(x);
    u[6] = (unsigned)(int)x;
    u[7] = (unsigned)__float_as_int(x);
    u[8] = (unsigned)(x < y) | (unsigned)(x <= y) << 1 | (unsigned)(x == y) << 2 |
           (unsigned)(x != y) << 3 | (unsigned)(x > y) << 4 | (unsigned)(x >= y) << 5;
    u[9] = (unsigned)(isnan(x) ? 1 : 0) | (unsigned)(isinf(x) ? 2 : 0) |
           (unsigned)(isfinite(x) ? 4 : 0) | (unsigned)(signbit(x) ? 8 : 0);
    u[10] = (unsigned)__float2ll_rz(x);
    u[11] = (unsigned)(__float2ll_rz(x) >> 32);
    u[12] = __float2uint_rd(x);
    u[13] = __float2uint_ru(x);

    float s = fminf(fabsf(x), 40.0f);
    t[0] = sinf(s);
    t[1] = cosf(s);
    t[2] = expf(fminf(x, 80.0f));
    t[3] = logf(x);
    t[4] = atan2f(x, y);
    t[5] = exp2f(fminf(x, 100.0f));
    t[6] = __sinf(fminf(s, 3.0f));
    t[7] = __expf(fmaxf(fminf(x, 10.0f), -10.0f));
}
