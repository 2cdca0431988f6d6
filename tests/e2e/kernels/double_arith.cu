// double_arith.cu -- end-to-end kernels for f64 arithmetic (driver: test_double_arith.c).
//
// Exercises add/sub/mul in every rounding mode (__dadd_rn/rz/ru/rd,
// __dsub_rn, __dmul_rn/rz/ru/rd), IEEE division and sqrt (a / b and sqrt
// compile to div.rn.f64 and sqrt.rn.f64) and their directed forms (__ddiv_*,
// __dsqrt_*), __drcp_rn, fma, fmin/fmax with NaN operands, fabs/copysign/
// negation, trunc/floor/ceil/rint/round, conversions double <-> integer with
// every rounding mode (__double2int_*, __double2uint_rn, __double2ll_*,
// __double2ull_rz, __ll2double_rn/rz, __ull2double_rd), double -> float with
// every rounding mode (__double2float_rn/rz/ru/rd), float -> double, bit
// reinterpretation (__double2hiint/loint, __hiloint2double,
// __double_as_longlong), comparisons, and a few libdevice math functions
// checked with a tolerance in ulps (sin, cos, exp, log, atan2, cbrt).
//
// No a * b + c appears: sums and products go through __dadd_rn / __dmul_rn
// (never contracted) or fma, so the CPU reference reproduces them exactly.
#include "common.cuh"

#define F64_EXACT 34 // exact double results per thread
#define F64_INT 16   // 64-bit integer results per thread
#define F64_F32 4    // double -> float conversions
#define F64_TOL 6    // results checked with a tolerance

extern "C" __global__ void f64_ops(const double *a, const double *b, const double *c,
                                   const long long *la, double *dout,
                                   unsigned long long *iout, float *fout, double *tout,
                                   int n)
{
    unsigned i = e2e_gtid();
    if (i >= (unsigned)n)
        return;
    double x = a[i], y = b[i], z = c[i];
    long long l = la[i];
    double *d = dout + (size_t)i * F64_EXACT;
    unsigned long long *u = iout + (size_t)i * F64_INT;
    float *f = fout + (size_t)i * F64_F32;
    double *t = tout + (size_t)i * F64_TOL;

    d[0] = __dadd_rn(x, y);
    d[1] = __dsub_rn(x, y);
    d[2] = __dmul_rn(x, y);
    d[3] = x / y;
    d[4] = sqrt(x);
    d[5] = fma(x, y, z);
    d[6] = __dadd_rz(x, y);
    d[7] = __dadd_ru(x, y);
    d[8] = __dadd_rd(x, y);
    d[9] = __dmul_rz(x, y);
    d[10] = __dmul_ru(x, y);
    d[11] = __dmul_rd(x, y);
    d[12] = __ddiv_rz(x, y);
    d[13] = __ddiv_ru(x, y);
    d[14] = __ddiv_rd(x, y);
    d[15] = __dsqrt_rz(x);
    d[16] = __dsqrt_ru(x);
    d[17] = __dsqrt_rd(x);
    d[18] = __drcp_rn(x);
    d[19] = fmin(x, y);
    d[20] = fmax(x, y);
    d[21] = fabs(x);
    d[22] = -x;
    d[23] = copysign(x, y);
    d[24] = trunc(x);
    d[25] = floor(x);
    d[26] = ceil(x);
    d[27] = rint(x);
    d[28] = round(x);
    d[29] = __ll2double_rn(l);
    d[30] = __ll2double_rz(l);
    d[31] = __ull2double_rd((unsigned long long)l);
    d[32] = (double)(float)z; // cvt.rn.f32.f64 then cvt.f64.f32
    d[33] = __hiloint2double(__double2loint(x), __double2hiint(x)); // halves swapped

    u[0] = (unsigned long long)__double2ll_rn(x);
    u[1] = (unsigned long long)__double2ll_rz(x);
    u[2] = (unsigned long long)__double2ll_rd(x);
    u[3] = (unsigned long long)__double2ll_ru(x);
    u[4] = (unsigned long long)(long long)__double2int_rn(x);
    u[5] = (unsigned long long)(long long)__double2int_rz(x);
    u[6] = (unsigned long long)(long long)__double2int_rd(x);
    u[7] = (unsigned long long)(long long)__double2int_ru(x);
    u[8] = (unsigned long long)__double2uint_rn(x);
    u[9] = __double2ull_rz(x);
    u[10] = (unsigned long long)(unsigned)__double2hiint(x);
    u[11] = (unsigned long long)(unsigned)__double2loint(x);
    u[12] = (unsigned long long)__double_as_longlong(x);
    u[13] = (unsigned long long)(x < y) | (unsigned long long)(x <= y) << 1 |
            (unsigned long long)(x == y) << 2 | (unsigned long long)(x != y) << 3 |
            (unsigned long long)(x > y) << 4 | (unsigned long long)(x >= y) << 5;
    u[14] = (unsigned long long)(isnan(x) ? 1 : 0) | (unsigned long long)(isinf(x) ? 2 : 0) |
            (unsigned long long)(signbit(x) ? 8 : 0);
    u[15] = (unsigned long long)(long long)x; // cvt.rzi.s64.f64

    f[0] = __double2float_rn(x);
    f[1] = __double2float_rz(x);
    f[2] = __double2float_ru(x);
    f[3] = __double2float_rd(x);

    double s = fmin(fabs(x), 100.0);
    t[0] = sin(s);
    t[1] = cos(s);
    t[2] = exp(fmin(x, 700.0));
    t[3] = log(x);
    t[4] = atan2(x, y);
    t[5] = cbrt(x);
}
