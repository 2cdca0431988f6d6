// int_arith.cu -- end-to-end kernels for integer arithmetic (driver: test_int_arith.c).
//
// Exercises, in 32 and 64 bits, signed and unsigned: add/sub/mul (wrapping,
// done on unsigned values), mul.hi (__mulhi, __umulhi, __mul64hi, __umul64hi),
// mul.wide, division and remainder by variables and by constants (nvcc turns
// x / 7 and x % 13 into mul.hi.{s,u}{32,64} plus shifts and fix-ups, and
// x / 64 on signed values into shifts with a rounding correction), shifts by
// variable amounts, and/or/xor/not, __popc/__clz/__brev/__ffs (and the ll
// forms), __byte_perm (prmt), __funnelshift_l/r/lc/rc (shf), min/max/abs,
// __sad/__usad, and truncating / sign- and zero-extending conversions.
//
// Each thread i < n reads a[i], b[i] and writes I32_OPS (I64_OPS) results to
// out[i * I32_OPS + k]; the driver checks every one against a CPU reference.
// Inputs never divide by zero or compute INT_MIN / -1 (the driver avoids them).
#include "common.cuh"

#define I32_OPS 48
#define I64_OPS 44

extern "C" __global__ void int32_ops(const int *a, const int *b, unsigned *out, int n)
{
    unsigned i = e2e_gtid();
    if (i >= (unsigned)n)
        return;
    int x = a[i], y = b[i];
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    unsigned *o = out + (size_t)i * I32_OPS;

    o[0] = ux + uy;
    o[1] = ux - uy;
    o[2] = ux * uy;
    o[3] = (unsigned)__mulhi(x, y);
    o[4] = __umulhi(ux, uy);
    o[5] = (unsigned)(x / y);
    o[6] = (unsigned)(x % y);
    o[7] = ux / uy;
    o[8] = ux % uy;
    o[9] = (unsigned)(x / 7);
    o[10] = (unsigned)(x % 13);
    o[11] = ux / 7u;
    o[12] = ux % 13u;
    o[13] = (unsigned)(x / -3);
    o[14] = ux / 1000000007u;
    o[15] = (unsigned)(x / 64);
    o[16] = (unsigned)(x % 64);
    o[17] = ux << (uy & 31);
    o[18] = (unsigned)(x >> (y & 31));
    o[19] = ux >> (uy & 31);
    o[20] = ux & uy;
    o[21] = ux | uy;
    o[22] = ux ^ uy;
    o[23] = ~ux;
    o[24] = (unsigned)__popc(ux);
    o[25] = (unsigned)__clz(x);
    o[26] = __brev(ux);
    o[27] = (unsigned)__ffs(x);
    o[28] = __byte_perm(ux, uy, 0x5140);
    o[29] = __byte_perm(ux, uy, uy >> 16);
    o[30] = __funnelshift_l(ux, uy, uy >> 8);
    o[31] = __funnelshift_lc(ux, uy, (uy >> 8) & 63);
    o[32] = __funnelshift_r(ux, uy, uy >> 8);
    o[33] = __funnelshift_rc(ux, uy, (uy >> 8) & 63);
    o[34] = (unsigned)min(x, y);
    o[35] = (unsigned)max(x, y);
    o[36] = min(ux, uy);
    o[37] = max(ux, uy);
    o[38] = (unsigned)abs(x);
    o[39] = __sad(x, y, 7u);
    o[40] = __usad(ux, uy, 1000u);
    o[41] = (unsigned)(int)(short)x;
    o[42] = (unsigned)(unsigned char)x;
    o[43] = (unsigned)(signed char)y;
    o[44] = (ux << 7) | (ux >> 25);
    o[45] = (unsigned)(x < y) + 2u * (unsigned)(ux < uy) + 4u * (unsigned)(x == y);
    o[46] = (unsigned)(-x);
    o[47] = (x > 0) ? ux * 3u : uy - 5u;
}

extern "C" __global__ void int64_ops(const long long *a, const long long *b,
                                     unsigned long long *out, int n)
{
    unsigned i = e2e_gtid();
    if (i >= (unsigned)n)
        return;
    long long x = a[i], y = b[i];
    unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
    unsigned long long *o = out + (size_t)i * I64_OPS;

    o[0] = ux + uy;
    o[1] = ux - uy;
    o[2] = ux * uy;
    o[3] = (unsigned long long)__mul64hi(x, y);
    o[4] = __umul64hi(ux, uy);
    o[5] = (unsigned long long)(x / y);
    o[6] = (unsigned long long)(x % y);
    o[7] = ux / uy;
    o[8] = ux % uy;
    o[9] = (unsigned long long)(x / 7);
    o[10] = (unsigned long long)(x % 13);
    o[11] = ux / 7u;
    o[12] = ux % 13u;
    o[13] = (unsigned long long)(x / -1000003LL);
    o[14] = ux / 1000000007ull;
    o[15] = (unsigned long long)(x / 64);
    o[16] = (unsigned long long)(x % 64);
    o[17] = ux << (uy & 63);
    o[18] = (unsigned long long)(x >> (y & 63));
    o[19] = ux >> (uy & 63);
    o[20] = ux & uy;
    o[21] = ux | uy;
    o[22] = ux ^ uy;
    o[23] = ~ux;
    o[24] = (unsigned long long)__popcll(ux);
    o[25] = (unsigned long long)__clzll(x);
    o[26] = __brevll(ux);
    o[27] = (unsigned long long)__ffsll(x);
    o[28] = (unsigned long long)min(x, y);
    o[29] = (unsigned long long)max(x, y);
    o[30] = min(ux, uy);
    o[31] = max(ux, uy);
    o[32] = (unsigned long long)llabs(x);
    o[33] = (unsigned long long)(long long)(int)x;
    o[34] = (unsigned long long)(unsigned)ux;
    o[35] = (unsigned long long)(long long)(short)y;
    o[36] = (ux >> 32) * (ux & 0xffffffffull);
    o[37] = (unsigned long long)((long long)(int)x * (long long)(int)y);
    o[38] = (unsigned long long)(x < y) + 2u * (unsigned long long)(ux < uy) +
            4u * (unsigned long long)(x == y);
    o[39] = (ux << 13) | (ux >> 51);
    o[40] = (unsigned long long)(-x);
    o[41] = ux % 1000000007ull;
    o[42] = (unsigned long long)((unsigned)ux / (unsigned)(uy | 1u));
    o[43] = (unsigned long long)((int)x % (int)((y & 0xffff) + 1));
}
