/*
 * test_fpmath.c -- unit tests for util/fpmath: PTX floating-point semantics on
 * raw bit patterns.
 *
 * Expected values come from two independent places, never from fpmath itself:
 *   - hand-derived bit patterns for special values, rounding boundaries and
 *     ties, every rounding mode, .ftz/.sat and the PTX-specific rules;
 *   - reference models for randomised sweeps: the host FPU run under
 *     fesetround() through volatile temporaries (f32/f64 arithmetic,
 *     conversions), round-to-odd on the host plus a bracket search over the
 *     table of all 16-bit values (f16/bf16 arithmetic and conversions), libm's
 *     trunc/floor/ceil/nearbyint (integer rounding), and long double libm for
 *     the error bounds of the .approx functions.
 * Where the PTX ISA leaves a behaviour open, the expected values are what an
 * sm_90 GPU (H100) was measured to produce; those checks say so.
 */
#include "util/fpmath.h"
#include "test.h"

#include <fenv.h>
#include <float.h>

/* ---- helpers ---------------------------------------------------------------- */

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double bitsd(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void) /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static const int host_modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

/* Check expr (which uses the rounding mode r_) in .rn, .rz, .rm and .rp. */
#define MODES4(expr, e_rn, e_rz, e_rm, e_rp)                                               \
    do {                                                                                   \
        const uint64_t want_[4] = {(e_rn), (e_rz), (e_rm), (e_rp)};                        \
        for (int r_ = 0; r_ < 4; r_++) {                                                   \
            uint64_t got_ = (uint64_t)(expr);                                              \
            CHECK_MSG(got_ == want_[r_], "mode %d: got 0x%" PRIx64 ", want 0x%" PRIx64,  \
                      r_, got_, want_[r_]);                                                \
        }                                                                                  \
    } while (0)

#define R ((fp_rnd)r_)
#define ARRAY_LEN_(a) (sizeof(a) / sizeof((a)[0]))
#define PI 3.14159265358979323846

/* f32 constants */
#define ONE 0x3f800000u
#define TWO 0x40000000u
#define HALF 0x3f000000u
#define NONE 0xbf800000u
#define PINF 0x7f800000u
#define NINF 0xff800000u
#define PMAX 0x7f7fffffu
#define NMAX 0xff7fffffu
#define MINSUB 0x00000001u
#define MAXSUB 0x007fffffu
#define MINNORM 0x00800000u
#define NZERO 0x80000000u
#define QNAN 0x7fc00000u
#define CNAN FP32_CANONICAL_NAN

/* f64 constants */
#define D_ONE 0x3ff0000000000000ull
#define D_NZERO 0x8000000000000000ull
#define D_PINF 0x7ff0000000000000ull
#define D_NINF 0xfff0000000000000ull
#define D_MAX 0x7fefffffffffffffull
#define D_CNAN FP64_CANONICAL_NAN

/* ---- f32 arithmetic, hand-derived ------------------------------------------------ */

static void test_f32_add(void)
{
    /* 1 + 2^-24: exactly halfway between 1 and 1 + 2^-23 */
    MODES4(fp32_add(ONE, 0x33800000u, R, 0), ONE, ONE, ONE, 0x3f800001u);
    /* (1 + 2^-23) + 2^-24: halfway, the even neighbour is above */
    MODES4(fp32_add(0x3f800001u, 0x33800000u, R, 0), 0x3f800002u, 0x3f800001u, 0x3f800001u,
           0x3f800002u);
    MODES4(fp32_add(NONE, 0xb3800000u, R, 0), NONE, NONE, 0xbf800001u, NONE);
    /* 1 + 2^-30 and 1 - 2^-30: below half an ulp */
    MODES4(fp32_add(ONE, 0x30800000u, R, 0), ONE, ONE, ONE, 0x3f800001u);
    MODES4(fp32_sub(ONE, 0x30800000u, R, 0), ONE, 0x3f7fffffu, 0x3f7fffffu, ONE);
    /* exact cancellation: +0 except when rounding down */
    MODES4(fp32_add(ONE, NONE, R, 0), 0, 0, NZERO, 0);
    MODES4(fp32_sub(TWO, TWO, R, 0), 0, 0, NZERO, 0);
    MODES4(fp32_add(0, NZERO, R, 0), 0, 0, NZERO, 0);
    MODES4(fp32_add(NZERO, NZERO, R, 0), NZERO, NZERO, NZERO, NZERO);
    MODES4(fp32_sub(NZERO, 0, R, 0), NZERO, NZERO, NZERO, NZERO);
    MODES4(fp32_add(0, 0x40400000u, R, 0), 0x40400000u, 0x40400000u, 0x40400000u, 0x40400000u);
    /* overflow */
    MODES4(fp32_add(PMAX, PMAX, R, 0), PINF, PMAX, PMAX, PINF);
    MODES4(fp32_add(NMAX, NMAX, R, 0), NINF, NMAX, NINF, NMAX);
    /* max + half an ulp (2^103): the tie goes to the even neighbour, 2^128 */
    MODES4(fp32_add(PMAX, 0x73000000u, R, 0), PINF, PMAX, PMAX, PINF);
    MODES4(fp32_add(PMAX, 0x72800000u, R, 0), PMAX, PMAX, PMAX, PINF);
    /* infinities and NaN */
    CHECK_EQ_U64(fp32_add(PINF, NINF, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_sub(PINF, PINF, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_add(PINF, PINF, FP_RN, 0), PINF);
    CHECK_EQ_U64(fp32_add(NINF, ONE, FP_RZ, 0), NINF);
    CHECK_EQ_U64(fp32_add(QNAN, ONE, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_add(ONE, 0xffc00001u, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_add(0x7f800001u, PINF, FP_RN, 0), CNAN); /* signalling NaN */
    /* subnormals */
    CHECK_EQ_U64(fp32_add(MINSUB, MINSUB, FP_RN, 0), 0x00000002u);
    CHECK_EQ_U64(fp32_add(MAXSUB, MINSUB, FP_RN, 0), MINNORM);
    CHECK_EQ_U64(fp32_sub(0x00c00000u, MINNORM, FP_RN, 0), 0x00400000u);
    CHECK_EQ_U64(fp32_sub(MINNORM, 0x00c00000u, FP_RN, 0), 0x80400000u);
}

static void test_f32_ftz_sat(void)
{
    /* .ftz flushes subnormal inputs ... */
    CHECK_EQ_U64(fp32_add(MINSUB, MINSUB, FP_RN, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_add(MAXSUB, MINSUB, FP_RN, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_add(0x80000001u, 0x80000001u, FP_RN, FP_FTZ), NZERO);
    CHECK_EQ_U64(fp32_add(MINSUB, ONE, FP_RP, FP_FTZ), ONE);
    CHECK_EQ_U64(fp32_add(MINSUB, ONE, FP_RP, 0), 0x3f800001u);
    CHECK_EQ_U64(fp32_mul(MAXSUB, TWO, FP_RN, FP_FTZ), 0);
    /* ... and subnormal results, keeping the sign */
    CHECK_EQ_U64(fp32_sub(0x00c00000u, MINNORM, FP_RN, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_sub(MINNORM, 0x00c00000u, FP_RN, FP_FTZ), NZERO);
    CHECK_EQ_U64(fp32_mul(MINNORM, HALF, FP_RN, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_mul(0x80800000u, HALF, FP_RN, FP_FTZ), NZERO);
    CHECK_EQ_U64(fp32_mul(MINNORM, HALF, FP_RN, 0), 0x00400000u);
    /* .ftz tininess is IEEE's "after rounding" (measured on sm_90): 2^-126 (1 -
     * 2^-24) is exact in 24 bits, so tiny, and flushed even where denormal
     * rounding would give 2^-126; 2^-126 (1 - 2^-46) rounds to 2^-126 in .rn
     * and .rp with an unbounded exponent, so it is kept there. */
    MODES4(fp32_mul(0x20000000u, 0x1fffffffu, R, FP_FTZ), 0, 0, 0, 0);
    MODES4(fp32_mul(0x20000000u, 0x1fffffffu, R, 0), MINNORM, MAXSUB, MAXSUB, MINNORM);
    MODES4(fp32_mul(0x20000001u, 0x1ffffffeu, R, FP_FTZ), MINNORM, 0, 0, MINNORM);
    MODES4(fp32_mul(0x20000001u, 0x1ffffffeu, R, 0), MINNORM, MAXSUB, MAXSUB, MINNORM);
    MODES4(fp32_mul(0xa0000001u, 0x1ffffffeu, R, FP_FTZ), 0x80800000u, NZERO, 0x80800000u, NZERO);
    MODES4(fp32_div(0x1fffffffu, 0x5f000000u, R, FP_FTZ), 0, 0, 0, 0);
    MODES4(fp32_rcp(0x7e800001u, R, FP_FTZ), 0, 0, 0, 0);
    MODES4(fp32_rcp(0x7e800001u, R, 0), MAXSUB, MAXSUB, MAXSUB, MINNORM);
    /* .rp of a tiny positive result gives the smallest subnormal, then flushed */
    CHECK_EQ_U64(fp32_mul(0x0d800000u, 0x0d800000u, FP_RP, 0), MINSUB);
    CHECK_EQ_U64(fp32_mul(0x0d800000u, 0x0d800000u, FP_RP, FP_FTZ), 0);
    /* .sat */
    CHECK_EQ_U64(fp32_add(HALF, 0x3f400000u, FP_RN, FP_SAT), ONE);
    CHECK_EQ_U64(fp32_add(0xbf000000u, 0x3e800000u, FP_RN, FP_SAT), 0);
    CHECK_EQ_U64(fp32_add(0x3e800000u, 0x3e800000u, FP_RN, FP_SAT), HALF);
    CHECK_EQ_U64(fp32_sub(PINF, PINF, FP_RN, FP_SAT), 0);
    CHECK_EQ_U64(fp32_add(QNAN, ONE, FP_RN, FP_SAT), 0);
    CHECK_EQ_U64(fp32_add(PINF, ONE, FP_RN, FP_SAT), ONE);
    CHECK_EQ_U64(fp32_add(NINF, ONE, FP_RN, FP_SAT), 0);
    CHECK_EQ_U64(fp32_mul(NONE, 0, FP_RN, FP_SAT), 0); /* -0 -> +0 */
    CHECK_EQ_U64(fp32_mul(MINNORM, HALF, FP_RN, FP_SAT), 0x00400000u);
    CHECK_EQ_U64(fp32_mul(MINNORM, HALF, FP_RN, FP_SAT | FP_FTZ), 0);
    CHECK_EQ_U64(fp32_fma(TWO, 0x3e800000u, 0, FP_RN, FP_SAT), HALF);
    CHECK_EQ_U64(fp32_fma(TWO, TWO, NONE, FP_RZ, FP_SAT), ONE);
}

static void test_f32_mul(void)
{
    /* (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 */
    MODES4(fp32_mul(0x3f800001u, 0x3f800001u, R, 0), 0x3f800002u, 0x3f800002u, 0x3f800002u,
           0x3f800003u);
    MODES4(fp32_mul(0xbf800001u, 0x3f800001u, R, 0), 0xbf800002u, 0xbf800002u, 0xbf800003u,
           0xbf800002u);
    /* 2^-149 * 0.5: a tie between 0 and the smallest subnormal */
    MODES4(fp32_mul(MINSUB, HALF, R, 0), 0, 0, 0, MINSUB);
    MODES4(fp32_mul(0x80000001u, HALF, R, 0), NZERO, NZERO, 0x80000001u, NZERO);
    MODES4(fp32_mul(MINSUB, 0x3f400000u, R, 0), MINSUB, 0, 0, MINSUB);
    /* 3 * 2^-149 * 0.5: a tie between 1 and 2 units, 2 is even */
    MODES4(fp32_mul(0x00000003u, HALF, R, 0), 2, 1, 1, 2);
    MODES4(fp32_mul(PMAX, TWO, R, 0), PINF, PMAX, PMAX, PINF);
    MODES4(fp32_mul(PMAX, 0xc0000000u, R, 0), NINF, NMAX, NINF, NMAX);
    CHECK_EQ_U64(fp32_mul(0, PINF, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_mul(NINF, NZERO, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_mul(NZERO, 0x40a00000u, FP_RN, 0), NZERO);
    CHECK_EQ_U64(fp32_mul(NINF, NONE, FP_RN, 0), PINF);
    CHECK_EQ_U64(fp32_mul(MAXSUB, 0x4b000000u, FP_RN, 0), 0x0bfffffeu); /* (2^23-1)*2^-149*2^23 */
}

static void test_f32_fma(void)
{
    /* (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly; an unfused mul would lose 2^-24 */
    MODES4(fp32_fma(0x3f800800u, 0x3f800800u, NONE, R, 0), 0x3a000400u, 0x3a000400u,
           0x3a000400u, 0x3a000400u);
    CHECK_EQ_U64(fp32_mul(0x3f800800u, 0x3f800800u, FP_RN, 0), 0x3f801000u);
    /* a tiny product decides the direction */
    MODES4(fp32_fma(0x0d800000u, 0x0d800000u, ONE, R, 0), ONE, ONE, ONE, 0x3f800001u);
    MODES4(fp32_fma(0x0d800000u, 0x8d800000u, ONE, R, 0), ONE, 0x3f7fffffu, 0x3f7fffffu, ONE);
    MODES4(fp32_fma(ONE, 0x33800000u, ONE, R, 0), ONE, ONE, ONE, 0x3f800001u);
    /* exact zero results */
    MODES4(fp32_fma(ONE, ONE, NONE, R, 0), 0, 0, NZERO, 0);
    MODES4(fp32_fma(NZERO, ONE, NZERO, R, 0), NZERO, NZERO, NZERO, NZERO);
    MODES4(fp32_fma(NZERO, ONE, 0, R, 0), 0, 0, NZERO, 0);
    MODES4(fp32_fma(0, ONE, 0x40400000u, R, 0), 0x40400000u, 0x40400000u, 0x40400000u,
           0x40400000u);
    /* specials */
    CHECK_EQ_U64(fp32_fma(0, PINF, ONE, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_fma(PINF, ONE, NINF, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_fma(PINF, ONE, PINF, FP_RN, 0), PINF);
    CHECK_EQ_U64(fp32_fma(ONE, ONE, NINF, FP_RN, 0), NINF);
    CHECK_EQ_U64(fp32_fma(PMAX, TWO, NMAX, FP_RN, 0), PMAX); /* no intermediate overflow */
    CHECK_EQ_U64(fp32_fma(ONE, ONE, QNAN, FP_RN, 0), CNAN);
    /* fma with subnormals and .ftz */
    CHECK_EQ_U64(fp32_fma(MINSUB, ONE, MINSUB, FP_RN, 0), 2);
    CHECK_EQ_U64(fp32_fma(MINSUB, ONE, MINSUB, FP_RN, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_fma(MINNORM, HALF, 0, FP_RN, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_fma(0x4b000000u, MINSUB, NONE, FP_RN, FP_FTZ), NONE);
}

static void test_f32_div_sqrt_rcp(void)
{
    MODES4(fp32_div(ONE, 0x40400000u, R, 0), 0x3eaaaaabu, 0x3eaaaaaau, 0x3eaaaaaau,
           0x3eaaaaabu);
    MODES4(fp32_div(NONE, 0x40400000u, R, 0), 0xbeaaaaabu, 0xbeaaaaaau, 0xbeaaaaabu,
           0xbeaaaaaau);
    MODES4(fp32_div(TWO, 0x40400000u, R, 0), 0x3f2aaaabu, 0x3f2aaaaau, 0x3f2aaaaau,
           0x3f2aaaabu);
    MODES4(fp32_div(ONE, PMAX, R, 0), 0x00200000u, 0x00200000u, 0x00200000u, 0x00200001u);
    CHECK_EQ_U64(fp32_div(ONE, PMAX, FP_RN, FP_FTZ), 0);
    MODES4(fp32_div(PMAX, HALF, R, 0), PINF, PMAX, PMAX, PINF);
    CHECK_EQ_U64(fp32_div(ONE, 0, FP_RN, 0), PINF);
    CHECK_EQ_U64(fp32_div(NONE, 0, FP_RN, 0), NINF);
    CHECK_EQ_U64(fp32_div(ONE, NZERO, FP_RN, 0), NINF);
    CHECK_EQ_U64(fp32_div(0, 0, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_div(PINF, NINF, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_div(ONE, PINF, FP_RN, 0), 0);
    CHECK_EQ_U64(fp32_div(NONE, PINF, FP_RN, 0), NZERO);
    CHECK_EQ_U64(fp32_div(NINF, TWO, FP_RN, 0), NINF);
    CHECK_EQ_U64(fp32_div(NZERO, TWO, FP_RN, 0), NZERO);
    CHECK_EQ_U64(fp32_div(ONE, MINSUB, FP_RN, FP_FTZ), PINF);
    CHECK_EQ_U64(fp32_div(MINSUB, TWO, FP_RN, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_div(MAXSUB, MAXSUB, FP_RN, 0), ONE);
    CHECK_EQ_U64(fp32_div(MINSUB, 0x4b000000u, FP_RP, 0), MINSUB); /* 2^-172 */
    /* sqrt */
    MODES4(fp32_sqrt(TWO, R, 0), 0x3fb504f3u, 0x3fb504f3u, 0x3fb504f3u, 0x3fb504f4u);
    MODES4(fp32_sqrt(0x40800000u, R, 0), TWO, TWO, TWO, TWO);
    CHECK_EQ_U64(fp32_sqrt(NZERO, FP_RN, 0), NZERO);
    CHECK_EQ_U64(fp32_sqrt(NONE, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_sqrt(NINF, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_sqrt(PINF, FP_RN, 0), PINF);
    CHECK_EQ_U64(fp32_sqrt(QNAN, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_sqrt(MINSUB, FP_RN, 0), 0x1a3504f3u); /* 2^-74.5 */
    CHECK_EQ_U64(fp32_sqrt(MINSUB, FP_RN, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_sqrt(0x80000001u, FP_RN, 0), CNAN);
    CHECK_EQ_U64(fp32_sqrt(0x80000001u, FP_RN, FP_FTZ), NZERO);
    CHECK_EQ_U64(fp32_sqrt(PMAX, FP_RZ, 0), 0x5f7fffffu);
    /* rcp.rnd */
    MODES4(fp32_rcp(0x40400000u, R, 0), 0x3eaaaaabu, 0x3eaaaaaau, 0x3eaaaaaau, 0x3eaaaaabu);
    CHECK_EQ_U64(fp32_rcp(0, FP_RN, 0), PINF);
    CHECK_EQ_U64(fp32_rcp(NZERO, FP_RZ, 0), NINF);
    CHECK_EQ_U64(fp32_rcp(NINF, FP_RN, 0), NZERO);
    CHECK_EQ_U64(fp32_rcp(0x7f000000u, FP_RN, 0), 0x00400000u);
    CHECK_EQ_U64(fp32_rcp(0x7f000000u, FP_RN, FP_FTZ), 0);
}

static void test_f32_minmax_misc(void)
{
    CHECK_EQ_U64(fp32_min(ONE, TWO, 0), ONE);
    CHECK_EQ_U64(fp32_max(ONE, TWO, 0), TWO);
    CHECK_EQ_U64(fp32_min(NONE, 0, 0), NONE);
    CHECK_EQ_U64(fp32_min(NZERO, 0, 0), NZERO);
    CHECK_EQ_U64(fp32_min(0, NZERO, 0), NZERO);
    CHECK_EQ_U64(fp32_max(NZERO, 0, 0), 0);
    CHECK_EQ_U64(fp32_max(0, NZERO, 0), 0);
    CHECK_EQ_U64(fp32_min(QNAN, ONE, 0), ONE);
    CHECK_EQ_U64(fp32_min(ONE, 0xffc00001u, 0), ONE);
    CHECK_EQ_U64(fp32_max(QNAN, NINF, 0), NINF);
    CHECK_EQ_U64(fp32_min(QNAN, QNAN, 0), CNAN);
    CHECK_EQ_U64(fp32_min(QNAN, ONE, FP_MINMAX_NAN), CNAN);
    CHECK_EQ_U64(fp32_max(ONE, QNAN, FP_MINMAX_NAN), CNAN);
    CHECK_EQ_U64(fp32_max(ONE, TWO, FP_MINMAX_NAN), TWO);
    CHECK_EQ_U64(fp32_min(PINF, PMAX, 0), PMAX);
    CHECK_EQ_U64(fp32_max(NINF, NMAX, 0), NMAX);
    CHECK_EQ_U64(fp32_min(MINSUB, ONE, 0), MINSUB);
    CHECK_EQ_U64(fp32_min(MINSUB, ONE, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_min(0x80000001u, 0, FP_FTZ), NZERO);
    CHECK_EQ_U64(fp32_max(0x80000001u, NZERO, 0), NZERO);
    /* .xorsign.abs: magnitudes compared, sign = XOR of the operands' signs */
    CHECK_EQ_U64(fp32_min(0xc0000000u, 0x40400000u, FP_XORSIGN_ABS), 0xc0000000u);
    CHECK_EQ_U64(fp32_max(0xc0000000u, 0xc0400000u, FP_XORSIGN_ABS), 0x40400000u);
    CHECK_EQ_U64(fp32_min(QNAN, 0xc0400000u, FP_XORSIGN_ABS), 0xc0400000u);
    CHECK_EQ_U64(fp32_min(QNAN, 0xc0400000u, FP_XORSIGN_ABS | FP_MINMAX_NAN), CNAN);
    /* abs, neg, copysign */
    CHECK_EQ_U64(fp32_abs(NONE, 0), ONE);
    CHECK_EQ_U64(fp32_abs(NZERO, 0), 0);
    CHECK_EQ_U64(fp32_abs(NINF, 0), PINF);
    CHECK_EQ_U64(fp32_abs(0xffc00000u, 0), CNAN);
    CHECK_EQ_U64(fp32_abs(0x80000001u, 0), MINSUB);
    CHECK_EQ_U64(fp32_abs(0x80000001u, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_neg(0, 0), NZERO);
    CHECK_EQ_U64(fp32_neg(ONE, 0), NONE);
    CHECK_EQ_U64(fp32_neg(QNAN, 0), CNAN);
    CHECK_EQ_U64(fp32_neg(MINSUB, 0), 0x80000001u);
    CHECK_EQ_U64(fp32_neg(MINSUB, FP_FTZ), NZERO);
    CHECK_EQ_U64(fp32_copysign(NONE, TWO), 0xc0000000u);
    CHECK_EQ_U64(fp32_copysign(ONE, NINF), PINF);
    CHECK_EQ_U64(fp32_copysign(NZERO, 0x7fc00001u), 0xffc00001u);
    CHECK_EQ_U64(fp32_copysign(0, NZERO), 0);
}

/* One row per fp_cmp operator, FPC_EQ .. FPC_NAN. */
static void check_cmp_row(int (*cmp)(uint64_t, uint64_t, fp_cmp), uint64_t a, uint64_t b,
                          const char *want, int line)
{
    for (int c = FPC_EQ; c <= FPC_NAN; c++) {
        int got = cmp(a, b, (fp_cmp)c);
        CHECK_MSG(got == want[c] - '0', "line %d: cmp op %d of 0x%" PRIx64 ", 0x%" PRIx64
                  ": got %d", line, c, a, b, got);
    }
}

static int cmp32(uint64_t a, uint64_t b, fp_cmp c) { return fp32_cmp((uint32_t)a, (uint32_t)b, c, 0); }
static int cmp32_ftz(uint64_t a, uint64_t b, fp_cmp c)
{
    return fp32_cmp((uint32_t)a, (uint32_t)b, c, FP_FTZ);
}
static int cmp64(uint64_t a, uint64_t b, fp_cmp c) { return fp64_cmp(a, b, c); }
static int cmp16(uint64_t a, uint64_t b, fp_cmp c)
{
    return fp16_cmp((uint32_t)a, (uint32_t)b, FP_F16, c, 0);
}
static int cmp16_ftz(uint64_t a, uint64_t b, fp_cmp c)
{
    return fp16_cmp((uint32_t)a, (uint32_t)b, FP_F16, c, FP_FTZ);
}
static int cmpbf16(uint64_t a, uint64_t b, fp_cmp c)
{
    return fp16_cmp((uint32_t)a, (uint32_t)b, FP_BF16, c, 0);
}

static void test_cmp_testp(void)
{
    /*                              EQ NE LT LE GT GE EQU NEU LTU LEU GTU GEU NUM NAN */
    check_cmp_row(cmp32, ONE, TWO, "01110001110010", __LINE__);
    check_cmp_row(cmp32, TWO, ONE, "01001101001110", __LINE__);
    check_cmp_row(cmp32, ONE, ONE, "10010110010110", __LINE__);
    check_cmp_row(cmp32, NZERO, 0, "10010110010110", __LINE__);
    check_cmp_row(cmp32, QNAN, ONE, "00000011111101", __LINE__);
    check_cmp_row(cmp32, ONE, 0xffc00000u, "00000011111101", __LINE__);
    check_cmp_row(cmp32, NINF, NMAX, "01110001110010", __LINE__);
    check_cmp_row(cmp32, PINF, PINF, "10010110010110", __LINE__);
    check_cmp_row(cmp32, MINSUB, 0, "01001101001110", __LINE__);
    check_cmp_row(cmp32_ftz, MINSUB, 0, "10010110010110", __LINE__);
    check_cmp_row(cmp32_ftz, 0x80000001u, MINSUB, "10010110010110", __LINE__);
    check_cmp_row(cmp64, D_ONE, 0x4000000000000000ull, "01110001110010", __LINE__);
    check_cmp_row(cmp64, D_NZERO, 0, "10010110010110", __LINE__);
    check_cmp_row(cmp64, D_CNAN, D_CNAN, "00000011111101", __LINE__);
    check_cmp_row(cmp64, 1, 0, "01001101001110", __LINE__);
    check_cmp_row(cmp16, 0x3c00, 0x4000, "01110001110010", __LINE__);
    check_cmp_row(cmp16, 0x7e00, 0x3c00, "00000011111101", __LINE__);
    check_cmp_row(cmp16, 0x8000, 0x0000, "10010110010110", __LINE__);
    check_cmp_row(cmp16, 0x0001, 0x0000, "01001101001110", __LINE__);
    check_cmp_row(cmp16_ftz, 0x0001, 0x0000, "10010110010110", __LINE__);
    check_cmp_row(cmp16, 0xffff3c00u, 0x3c00, "10010110010110", __LINE__); /* upper bits ignored */
    check_cmp_row(cmpbf16, 0x3f80, 0x4000, "01110001110010", __LINE__);
    check_cmp_row(cmpbf16, 0xbf80, 0xff80, "01001101001110", __LINE__);

    static const struct {
        uint32_t x;
        const char *want; /* finite infinite number notanumber normal subnormal */
    } tp[] = {
        {0, "101010"},      {NZERO, "101010"},   {ONE, "101010"},   {PMAX, "101010"},
        {MINNORM, "101010"}, {MINSUB, "101001"}, {0x807fffffu, "101001"},
        {PINF, "011000"},   {NINF, "011000"},    {QNAN, "000100"},  {0xff800001u, "000100"},
    };
    for (size_t i = 0; i < ARRAY_LEN_(tp); i++)
        for (int t = FPT_FINITE; t <= FPT_SUBNORMAL; t++)
            CHECK_MSG(fp32_testp(tp[i].x, (fp_test)t) == tp[i].want[t] - '0',
                      "testp %d of 0x%08x", t, tp[i].x);
    static const struct {
        uint64_t x;
        const char *want;
    } tp64[] = {
        {0, "101010"},       {D_NZERO, "101010"},           {D_ONE, "101010"},
        {1, "101001"},       {0x800fffffffffffffull, "101001"}, {D_PINF, "011000"},
        {D_NINF, "011000"},  {0x7ff0000000000001ull, "000100"}, {D_MAX, "101010"},
    };
    for (size_t i = 0; i < ARRAY_LEN_(tp64); i++)
        for (int t = FPT_FINITE; t <= FPT_SUBNORMAL; t++)
            CHECK_MSG(fp64_testp(tp64[i].x, (fp_test)t) == tp64[i].want[t] - '0',
                      "testp64 %d of 0x%016" PRIx64, t, tp64[i].x);
}

/* ---- f64, hand-derived ---------------------------------------------------------------- */

static void test_f64(void)
{
    const uint64_t two = 0x4000000000000000ull, three = 0x4008000000000000ull;
    /* 1 + 2^-53: a tie; 1 + 2^-52 + 2^-53: a tie with the even neighbour above */
    MODES4(fp64_add(D_ONE, 0x3ca0000000000000ull, R), D_ONE, D_ONE, D_ONE, D_ONE + 1);
    MODES4(fp64_add(D_ONE + 1, 0x3ca0000000000000ull, R), D_ONE + 2, D_ONE + 1, D_ONE + 1,
           D_ONE + 2);
    MODES4(fp64_sub(D_ONE, D_ONE, R), 0, 0, D_NZERO, 0);
    MODES4(fp64_add(D_MAX, D_MAX, R), D_PINF, D_MAX, D_MAX, D_PINF);
    MODES4(fp64_mul(D_MAX | D_NZERO, two, R), D_NINF, D_MAX | D_NZERO, D_NINF, D_MAX | D_NZERO);
    MODES4(fp64_mul(D_ONE + 1, D_ONE + 1, R), D_ONE + 2, D_ONE + 2, D_ONE + 2, D_ONE + 3);
    MODES4(fp64_mul(1, 0x3fe0000000000000ull, R), 0, 0, 0, 1); /* 2^-1075 */
    MODES4(fp64_div(D_ONE, three, R), 0x3fd5555555555555ull, 0x3fd5555555555555ull,
           0x3fd5555555555555ull, 0x3fd5555555555556ull);
    MODES4(fp64_rcp(three, R), 0x3fd5555555555555ull, 0x3fd5555555555555ull,
           0x3fd5555555555555ull, 0x3fd5555555555556ull);
    MODES4(fp64_sqrt(two, R), 0x3ff6a09e667f3bcdull, 0x3ff6a09e667f3bccull,
           0x3ff6a09e667f3bccull, 0x3ff6a09e667f3bcdull);
    MODES4(fp64_sqrt(1, R), 0x1e60000000000000ull, 0x1e60000000000000ull, 0x1e60000000000000ull,
           0x1e60000000000000ull); /* sqrt(2^-1074) = 2^-537 */
    /* (1 + 2^-27)^2 - 1 = 2^-26 + 2^-54 exactly; an unfused mul loses 2^-54 */
    MODES4(fp64_fma(0x3ff0000002000000ull, 0x3ff0000002000000ull, D_ONE | D_NZERO, R),
           0x3e50000001000000ull, 0x3e50000001000000ull, 0x3e50000001000000ull,
           0x3e50000001000000ull);
    CHECK_EQ_U64(fp64_mul(0x3ff0000002000000ull, 0x3ff0000002000000ull, FP_RN),
                 0x3ff0000004000000ull);
    MODES4(fp64_fma(D_ONE, D_ONE, D_ONE | D_NZERO, R), 0, 0, D_NZERO, 0);
    MODES4(fp64_fma(1, 1, D_ONE, R), D_ONE, D_ONE, D_ONE, D_ONE + 1);
    MODES4(fp64_fma(1, 1 | D_NZERO, D_ONE, R), D_ONE, 0x3fefffffffffffffull,
           0x3fefffffffffffffull, D_ONE);
    CHECK_EQ_U64(fp64_div(0, 0, FP_RN), D_CNAN);
    CHECK_EQ_U64(fp64_div(D_ONE, D_NZERO, FP_RN), D_NINF);
    CHECK_EQ_U64(fp64_sqrt(D_NZERO, FP_RN), D_NZERO);
    CHECK_EQ_U64(fp64_sqrt(D_ONE | D_NZERO, FP_RN), D_CNAN);
    CHECK_EQ_U64(fp64_add(D_PINF, D_NINF, FP_RN), D_CNAN);
    CHECK_EQ_U64(fp64_fma(D_PINF, 0, D_ONE, FP_RN), D_CNAN);
    /* NaN payloads propagate, quietened; with two NaNs add/sub/mul take the
     * second, div the first, fma b, c, a (measured on sm_90) */
    CHECK_EQ_U64(fp64_add(0x7ff0000000000001ull, D_ONE, FP_RN), 0x7ff8000000000001ull);
    CHECK_EQ_U64(fp64_add(D_ONE, 0xfff8000000000123ull, FP_RN), 0xfff8000000000123ull);
    CHECK_EQ_U64(fp64_sub(D_PINF, 0x7ff8000000000042ull, FP_RZ), 0x7ff8000000000042ull);
    CHECK_EQ_U64(fp64_mul(0x7ff8000000000007ull, 0x7ff8000000000009ull, FP_RN),
                 0x7ff8000000000009ull);
    CHECK_EQ_U64(fp64_add(0x7ff0000000000003ull, 0xfff8000000000004ull, FP_RN),
                 0xfff8000000000004ull);
    CHECK_EQ_U64(fp64_sub(0xfff8000000000004ull, 0x7ff0000000000003ull, FP_RN),
                 0x7ff8000000000003ull);
    CHECK_EQ_U64(fp64_div(0x7ff8000000000007ull, 0x7ff8000000000009ull, FP_RN),
                 0x7ff8000000000007ull);
    CHECK_EQ_U64(fp64_fma(0x7ff8000000000001ull, D_ONE, 0x7ff8000000000002ull, FP_RN),
                 0x7ff8000000000002ull);
    CHECK_EQ_U64(fp64_fma(0x7ff8000000000001ull, 0x7ff8000000000002ull, 0x7ff8000000000003ull,
                          FP_RN), 0x7ff8000000000002ull);
    CHECK_EQ_U64(fp64_fma(0x7ff8000000000001ull, D_ONE, D_ONE, FP_RN), 0x7ff8000000000001ull);
    CHECK_EQ_U64(D_CNAN, 0xfff8000000000000ull); /* the NaN an sm_90 GPU generates */
    CHECK_EQ_U64(fp64_fma(D_ONE, 0x7ff4000000000000ull, 0x7ff8000000000001ull, FP_RN),
                 0x7ffc000000000000ull);
    CHECK_EQ_U64(fp64_div(0x7ff8000000000005ull, 0, FP_RN), 0x7ff8000000000005ull);
    CHECK_EQ_U64(fp64_sqrt(0xfff8000000000003ull, FP_RN), 0xfff8000000000003ull);
    CHECK_EQ_U64(fp64_rcp(0x7ff8000000000003ull, FP_RN), 0x7ff8000000000003ull);
    /* min/max, abs, neg, copysign */
    CHECK_EQ_U64(fp64_min(D_ONE, 0x7ff8000000000001ull, 0), D_ONE);
    CHECK_EQ_U64(fp64_max(0x7ff8000000000001ull, D_NINF, 0), D_NINF);
    CHECK_EQ_U64(fp64_min(D_NZERO, 0, 0), D_NZERO);
    CHECK_EQ_U64(fp64_max(D_NZERO, 0, 0), 0);
    CHECK_EQ_U64(fp64_max(D_CNAN, 0x7ff0000000000001ull, 0), 0x7ff8000000000001ull);
    CHECK_EQ_U64(fp64_min(0x7ff8000000000001ull, D_CNAN, 0), D_CNAN);
    CHECK_EQ_U64(fp64_min(D_ONE, D_CNAN, FP_MINMAX_NAN), D_CNAN);
    CHECK_EQ_U64(fp64_min(1, 0, 0), 0);
    CHECK_EQ_U64(fp64_abs(D_ONE | D_NZERO), D_ONE);
    CHECK_EQ_U64(fp64_abs(0xfff8000000000001ull), 0xfff8000000000001ull);
    CHECK_EQ_U64(fp64_abs(0xfff0000100000000ull), 0xfff8000100000000ull);
    CHECK_EQ_U64(fp64_neg(0x7ff8000000000001ull), 0x7ff8000000000001ull);
    CHECK_EQ_U64(fp64_neg(0x7ff4000000000000ull), 0x7ffc000000000000ull);
    CHECK_EQ_U64(fp64_neg(D_ONE), D_ONE | D_NZERO);
    CHECK_EQ_U64(fp64_neg(0), D_NZERO);
    CHECK_EQ_U64(fp64_copysign(D_ONE | D_NZERO, two), two | D_NZERO);
    CHECK_EQ_U64(fp64_copysign(D_ONE, D_NINF), D_PINF);
}

/* ---- f16 / bf16 arithmetic, hand-derived ------------------------------------------------ */

static void test_f16_bf16(void)
{
    /* 1 + 2^-11 is a tie in f16 */
    MODES4(fp16_add(0x3c00, 0x1000, FP_F16, R, 0), 0x3c00, 0x3c00, 0x3c00, 0x3c01);
    MODES4(fp16_sub(0xbc00, 0x1000, FP_F16, R, 0), 0xbc00, 0xbc00, 0xbc01, 0xbc00);
    /* 65504 + 16 = 65520: halfway to 65536, which is an overflow */
    MODES4(fp16_add(0x7bff, 0x4c00, FP_F16, R, 0), 0x7c00, 0x7bff, 0x7bff, 0x7c00);
    MODES4(fp16_add(0x3c00, 0xbc00, FP_F16, R, 0), 0, 0, 0x8000, 0);
    CHECK_EQ_U64(fp16_add(0x0001, 0x0001, FP_F16, FP_RN, 0), 0x0002);
    CHECK_EQ_U64(fp16_add(0x0001, 0x0001, FP_F16, FP_RN, FP_FTZ), 0);
    CHECK_EQ_U64(fp16_sub(0x0600, 0x0400, FP_F16, FP_RN, 0), 0x0200);
    CHECK_EQ_U64(fp16_sub(0x0600, 0x0400, FP_F16, FP_RN, FP_FTZ), 0);
    CHECK_EQ_U64(fp16_sub(0x0400, 0x0600, FP_F16, FP_RN, FP_FTZ), 0x8000);
    CHECK_EQ_U64(fp16_add(0x7c00, 0xfc00, FP_F16, FP_RN, 0), FP16_CANONICAL_NAN);
    CHECK_EQ_U64(fp16_add(0x7e00, 0x3c00, FP_F16, FP_RN, 0), FP16_CANONICAL_NAN);
    CHECK_EQ_U64(fp16_add(0x3800, 0x3a00, FP_F16, FP_RN, FP_SAT), 0x3c00); /* .sat */
    CHECK_EQ_U64(fp16_add(0xb800, 0x3400, FP_F16, FP_RN, FP_SAT), 0);
    CHECK_EQ_U64(fp16_add(0xffff3c00u, 0x0000, FP_F16, FP_RN, 0), 0x3c00); /* upper bits ignored */
    /* (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 */
    MODES4(fp16_mul(0x3c01, 0x3c01, FP_F16, R, 0), 0x3c02, 0x3c02, 0x3c02, 0x3c03);
    MODES4(fp16_mul(0x0001, 0x3800, FP_F16, R, 0), 0, 0, 0, 0x0001);
    CHECK_EQ_U64(fp16_mul(0x7c00, 0x0000, FP_F16, FP_RN, 0), FP16_CANONICAL_NAN);
    /* fma where rounding the exact result through f32 first would be wrong:
     * 3 * 1025 - 2^-20 = 3075 - 2^-20, just below the tie 3075 */
    MODES4(fp16_fma(0x4200, 0x6401, 0x8010, FP_F16, R, 0), 0x6a01, 0x6a01, 0x6a01, 0x6a02);
    /* -2^-6 (1 + 2^-10) * 2^-5 (1 - 2^-10) + (1 + 2^-10) = 1 + 2^-11 + 2^-31 */
    MODES4(fp16_fma(0xa401, 0x27fe, 0x3c01, FP_F16, R, 0), 0x3c01, 0x3c00, 0x3c00, 0x3c01);
    MODES4(fp16_fma(0x3c00, 0x3c00, 0xbc00, FP_F16, R, 0), 0, 0, 0x8000, 0);
    CHECK_EQ_U64(fp16_fma(0x0200, 0x3c00, 0x0000, FP_F16, FP_RN, FP_FTZ), 0);
    CHECK_EQ_U64(fp16_fma(0x4000, 0x3c00, 0x3c00, FP_F16, FP_RN, FP_SAT), 0x3c00);
    /* bf16: 1 + 2^-8 is a tie; 3 * 129 - 2^-20 is just below the tie 387 */
    MODES4(fp16_add(0x3f80, 0x3b80, FP_BF16, R, 0), 0x3f80, 0x3f80, 0x3f80, 0x3f81);
    MODES4(fp16_fma(0x4040, 0x4301, 0xb580, FP_BF16, R, 0), 0x43c1, 0x43c1, 0x43c1, 0x43c2);
    MODES4(fp16_mul(0x7f7f, 0x4000, FP_BF16, R, 0), 0x7f80, 0x7f7f, 0x7f7f, 0x7f80);
    MODES4(fp16_mul(0x0001, 0x3f00, FP_BF16, R, 0), 0, 0, 0, 0x0001);
    CHECK_EQ_U64(fp16_sub(0x7f80, 0x7f80, FP_BF16, FP_RN, 0), BF16_CANONICAL_NAN);
    /* min / max / neg / abs */
    CHECK_EQ_U64(fp16_min(0x3c00, 0x4000, FP_F16, 0), 0x3c00);
    CHECK_EQ_U64(fp16_max(0x3c00, 0x4000, FP_F16, 0), 0x4000);
    CHECK_EQ_U64(fp16_min(0x8000, 0x0000, FP_F16, 0), 0x8000);
    CHECK_EQ_U64(fp16_max(0x8000, 0x0000, FP_F16, 0), 0x0000);
    CHECK_EQ_U64(fp16_min(0x7e00, 0x3c00, FP_F16, 0), 0x3c00);
    CHECK_EQ_U64(fp16_max(0xbc00, 0xfe00, FP_F16, 0), 0xbc00);
    CHECK_EQ_U64(fp16_min(0x7e00, 0x7e00, FP_F16, 0), FP16_CANONICAL_NAN);
    CHECK_EQ_U64(fp16_min(0x7e00, 0x3c00, FP_F16, FP_MINMAX_NAN), FP16_CANONICAL_NAN);
    CHECK_EQ_U64(fp16_min(0xc000, 0x4200, FP_F16, FP_XORSIGN_ABS), 0xc000);
    CHECK_EQ_U64(fp16_max(0xc000, 0xc200, FP_F16, FP_XORSIGN_ABS), 0x4200);
    CHECK_EQ_U64(fp16_min(0x0001, 0x3c00, FP_F16, 0), 0x0001);
    CHECK_EQ_U64(fp16_min(0x0001, 0x3c00, FP_F16, FP_FTZ), 0);
    CHECK_EQ_U64(fp16_min(0xffff3c00u, 0x4000, FP_F16, 0), 0x3c00);
    CHECK_EQ_U64(fp16_min(0xbf80, 0x3f80, FP_BF16, 0), 0xbf80);
    CHECK_EQ_U64(fp16_max(0x7fc0, 0x3f80, FP_BF16, 0), 0x3f80);
    CHECK_EQ_U64(fp16_max(0x7fc0, 0x3f80, FP_BF16, FP_MINMAX_NAN), BF16_CANONICAL_NAN);
    CHECK_EQ_U64(fp16_min(0xc000, 0x4040, FP_BF16, FP_XORSIGN_ABS), 0xc000);
    CHECK_EQ_U64(fp16_neg(0x3c00, FP_F16, 0), 0xbc00);
    CHECK_EQ_U64(fp16_neg(0x0000, FP_F16, 0), 0x8000);
    CHECK_EQ_U64(fp16_neg(0x7e00, FP_F16, 0), FP16_CANONICAL_NAN);
    CHECK_EQ_U64(fp16_neg(0x0001, FP_F16, FP_FTZ), 0x8000);
    CHECK_EQ_U64(fp16_abs(0xbc00, FP_F16, 0), 0x3c00);
    CHECK_EQ_U64(fp16_abs(0x8001, FP_F16, 0), 0x0001);
    CHECK_EQ_U64(fp16_abs(0x8001, FP_F16, FP_FTZ), 0);
    CHECK_EQ_U64(fp16_abs(0xff80, FP_BF16, 0), 0x7f80);
    CHECK_EQ_U64(fp16_neg(0x3f80, FP_BF16, 0), 0xbf80);
}

/* ---- .approx functions: special values ------------------------------------------------ */

static void test_approx_special(void)
{
    for (unsigned fl = 0; fl <= FP_FTZ; fl++) {
        /* rcp.approx */
        CHECK_EQ_U64(fp32_rcp_approx(NINF, fl), NZERO);
        CHECK_EQ_U64(fp32_rcp_approx(NZERO, fl), NINF);
        CHECK_EQ_U64(fp32_rcp_approx(0, fl), PINF);
        CHECK_EQ_U64(fp32_rcp_approx(PINF, fl), 0);
        CHECK_EQ_U64(fp32_rcp_approx(QNAN, fl), CNAN);
        CHECK_EQ_U64(fp32_rcp_approx(TWO, fl), HALF);
        CHECK_EQ_U64(fp32_rcp_approx(MINSUB, fl), PINF);
        /* sqrt.approx */
        CHECK_EQ_U64(fp32_sqrt_approx(NINF, fl), CNAN);
        CHECK_EQ_U64(fp32_sqrt_approx(NONE, fl), CNAN);
        CHECK_EQ_U64(fp32_sqrt_approx(NZERO, fl), NZERO);
        CHECK_EQ_U64(fp32_sqrt_approx(0, fl), 0);
        CHECK_EQ_U64(fp32_sqrt_approx(PINF, fl), PINF);
        CHECK_EQ_U64(fp32_sqrt_approx(QNAN, fl), CNAN);
        CHECK_EQ_U64(fp32_sqrt_approx(0x40800000u, fl), TWO);
        /* rsqrt.approx */
        CHECK_EQ_U64(fp32_rsqrt_approx(NINF, fl), CNAN);
        CHECK_EQ_U64(fp32_rsqrt_approx(NONE, fl), CNAN);
        CHECK_EQ_U64(fp32_rsqrt_approx(NZERO, fl), NINF);
        CHECK_EQ_U64(fp32_rsqrt_approx(0, fl), PINF);
        CHECK_EQ_U64(fp32_rsqrt_approx(PINF, fl), 0);
        CHECK_EQ_U64(fp32_rsqrt_approx(QNAN, fl), CNAN);
        CHECK_EQ_U64(fp32_rsqrt_approx(0x40800000u, fl), HALF);
        /* sin / cos */
        CHECK_EQ_U64(fp32_sin_approx(NINF, fl), CNAN);
        CHECK_EQ_U64(fp32_sin_approx(NZERO, fl), NZERO);
        CHECK_EQ_U64(fp32_sin_approx(0, fl), 0);
        CHECK_EQ_U64(fp32_sin_approx(PINF, fl), CNAN);
        CHECK_EQ_U64(fp32_sin_approx(QNAN, fl), CNAN);
        CHECK_EQ_U64(fp32_cos_approx(NINF, fl), CNAN);
        CHECK_EQ_U64(fp32_cos_approx(NZERO, fl), ONE);
        CHECK_EQ_U64(fp32_cos_approx(0, fl), ONE);
        CHECK_EQ_U64(fp32_cos_approx(PINF, fl), CNAN);
        CHECK_EQ_U64(fp32_cos_approx(QNAN, fl), CNAN);
        /* lg2 */
        CHECK_EQ_U64(fp32_lg2_approx(NINF, fl), CNAN);
        CHECK_EQ_U64(fp32_lg2_approx(NONE, fl), CNAN);
        CHECK_EQ_U64(fp32_lg2_approx(NZERO, fl), NINF);
        CHECK_EQ_U64(fp32_lg2_approx(0, fl), NINF);
        CHECK_EQ_U64(fp32_lg2_approx(PINF, fl), PINF);
        CHECK_EQ_U64(fp32_lg2_approx(QNAN, fl), CNAN);
        CHECK_EQ_U64(fp32_lg2_approx(ONE, fl), 0);
        CHECK_EQ_U64(fp32_lg2_approx(0x41000000u, fl), 0x40400000u);
        /* ex2 */
        CHECK_EQ_U64(fp32_ex2_approx(NINF, fl), 0);
        CHECK_EQ_U64(fp32_ex2_approx(NZERO, fl), ONE);
        CHECK_EQ_U64(fp32_ex2_approx(0, fl), ONE);
        CHECK_EQ_U64(fp32_ex2_approx(PINF, fl), PINF);
        CHECK_EQ_U64(fp32_ex2_approx(QNAN, fl), CNAN);
        CHECK_EQ_U64(fp32_ex2_approx(ONE, fl), TWO);
        CHECK_EQ_U64(fp32_ex2_approx(0x43000000u, fl), PINF);
        CHECK_EQ_U64(fp32_ex2_approx(0xc2fc0000u, fl), MINNORM);
        CHECK_EQ_U64(fp32_ex2_approx(0xc3160000u, fl), 0); /* 2^-150 ties to 0 */
        /* tanh */
        CHECK_EQ_U64(fp32_tanh_approx(NINF, fl), NONE);
        CHECK_EQ_U64(fp32_tanh_approx(NZERO, fl), NZERO);
        CHECK_EQ_U64(fp32_tanh_approx(0, fl), 0);
        CHECK_EQ_U64(fp32_tanh_approx(PINF, fl), ONE);
        CHECK_EQ_U64(fp32_tanh_approx(QNAN, fl), CNAN);
        /* div.approx: for 2^126 < |b| < 2^128 the result is 0, or NaN for inf a */
        CHECK_EQ_U64(fp32_div_approx(ONE, 0x7f000000u, fl), 0);
        CHECK_EQ_U64(fp32_div_approx(NONE, 0x7f000000u, fl), NZERO);
        CHECK_EQ_U64(fp32_div_approx(ONE, 0xff400000u, fl), NZERO);
        CHECK_EQ_U64(fp32_div_approx(PMAX, 0x7e800001u, fl), 0);
        CHECK_EQ_U64(fp32_div_approx(PMAX, PMAX, fl), 0);
        CHECK_EQ_U64(fp32_div_approx(PINF, 0x7f000000u, fl), CNAN);
        CHECK_EQ_U64(fp32_div_approx(ONE, 0x7e800000u, fl), MINNORM); /* |b| = 2^126 */
        CHECK_EQ_U64(fp32_div_approx(0x40400000u, TWO, fl), 0x3fc00000u);
        CHECK_EQ_U64(fp32_div_approx(ONE, 0, fl), PINF);
        CHECK_EQ_U64(fp32_div_approx(0, 0, fl), CNAN);
        CHECK_EQ_U64(fp32_div_approx(QNAN, ONE, fl), CNAN);
        CHECK_EQ_U64(fp32_div_approx(ONE, PINF, fl), 0);
        /* div.full keeps the full range */
        CHECK_EQ_U64(fp32_div_full(ONE, 0x40400000u, fl), 0x3eaaaaabu);
        CHECK_EQ_U64(fp32_div_full(PMAX, 0x7f000000u, fl), 0x3fffffffu);
        CHECK_EQ_U64(fp32_div_full(0, 0, fl), CNAN);
        CHECK_EQ_U64(fp32_div_full(ONE, NZERO, fl), NINF);
    }
    /* subnormals: supported without .ftz, flushed with it */
    CHECK_EQ_U64(fp32_rcp_approx(0x7f000000u, 0), 0x00400000u);
    CHECK_EQ_U64(fp32_rcp_approx(0x7f000000u, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_rcp_approx(0x00400000u, 0), 0x7f000000u);
    CHECK_EQ_U64(fp32_rcp_approx(0x80400000u, FP_FTZ), NINF);
    CHECK_EQ_U64(fp32_sqrt_approx(MINSUB, 0), 0x1a3504f3u);
    CHECK_EQ_U64(fp32_sqrt_approx(MINSUB, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_sqrt_approx(0x80000001u, 0), CNAN);
    CHECK_EQ_U64(fp32_sqrt_approx(0x80000001u, FP_FTZ), NZERO);
    CHECK_EQ_U64(fp32_rsqrt_approx(MINSUB, 0), 0x64b504f3u); /* 2^74.5 */
    CHECK_EQ_U64(fp32_rsqrt_approx(MINSUB, FP_FTZ), PINF);
    CHECK_EQ_U64(fp32_rsqrt_approx(0x80000001u, 0), CNAN);
    CHECK_EQ_U64(fp32_rsqrt_approx(0x80000001u, FP_FTZ), NINF);
    /* sin/cos reduce x * (1/2pi) in f32 and truncate the revolution to 2^-25
     * (measured on sm_90): subnormals and tiny arguments give 0, huge ones
     * are whole revolutions */
    CHECK_EQ_U64(fp32_sin_approx(MINSUB, 0), 0);
    CHECK_EQ_U64(fp32_sin_approx(0x80000001u, 0), NZERO);
    CHECK_EQ_U64(fp32_sin_approx(0x80000001u, FP_FTZ), NZERO);
    CHECK_EQ_U64(fp32_sin_approx(0x34000000u, 0), 0);      /* 2^-23 */
    CHECK_EQ_U64(fp32_sin_approx(0x80800000u, 0), NZERO);  /* -2^-126 */
    CHECK(fp32_sin_approx(0x34800000u, 0) != 0);           /* 2^-22 */
    CHECK_EQ_U64(fp32_sin_approx(PMAX, 0), 0);
    CHECK_EQ_U64(fp32_sin_approx(NMAX, 0), NZERO);
    CHECK_EQ_U64(fp32_cos_approx(PMAX, 0), ONE);
    CHECK_EQ_U64(fp32_cos_approx(0x4c000000u, 0), NONE);   /* 2^25 is 2^25/(2pi) rev */
    CHECK(fp32_sin_approx(0x4b000000u, 0) - 0x3f3504f0u < 8); /* 2^23: sin(3pi/4) */
    CHECK_EQ_U64(fp32_cos_approx(MINSUB, 0), ONE);
    CHECK_EQ_U64(fp32_sin_approx(0x4c000000u, 0), NZERO); /* half a turn: -0 on sm_90 */
    CHECK_EQ_U64(fp32_sin_approx(0xcc000000u, 0), 0);
    CHECK_EQ_U64(fp32_cos_approx(0xca364119u, 0), NZERO); /* a quarter turn: -0 on sm_90 */
    /* the reduction multiplies by 1/2pi rounding toward zero: sin(65504),
     * cos(65504), cos(1174120.625), cos(445347.47) as the GPU gave them, to
     * within the function unit's own error (rounding to nearest instead
     * would be off by 1e-3 to 5e-2) */
    CHECK(fabsf(bitsf(fp32_sin_approx(0x477fe000u, 0)) - bitsf(0x3f7a1e85u)) < 0x1p-21f);
    CHECK(fabsf(bitsf(fp32_cos_approx(0x477fe000u, 0)) - bitsf(0xbe5a3994u)) < 0x1p-21f);
    CHECK(fabsf(bitsf(fp32_cos_approx(0x498f5345u, 0)) - bitsf(0x3f61c598u)) < 0x1p-21f);
    CHECK(fabsf(bitsf(fp32_cos_approx(0x48d9746fu, 0)) - bitsf(0x3d48fb06u)) < 0x1p-21f);
    CHECK_EQ_U64(fp32_cos_approx(MINSUB, FP_FTZ), ONE);
    CHECK_EQ_U64(fp32_lg2_approx(MINSUB, 0), 0xc3150000u); /* -149 */
    CHECK_EQ_U64(fp32_lg2_approx(MINSUB, FP_FTZ), NINF);
    CHECK_EQ_U64(fp32_lg2_approx(0x80000001u, 0), CNAN);
    CHECK_EQ_U64(fp32_lg2_approx(0x80000001u, FP_FTZ), NINF);
    CHECK_EQ_U64(fp32_ex2_approx(0xc3150000u, 0), MINSUB);
    CHECK_EQ_U64(fp32_ex2_approx(0xc3150000u, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_ex2_approx(0xc2fe0000u, 0), 0x00400000u);
    CHECK_EQ_U64(fp32_ex2_approx(0xc2fe0000u, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_ex2_approx(MINSUB, FP_FTZ), ONE);
    CHECK_EQ_U64(fp32_tanh_approx(MINSUB, 0), MINSUB);
    CHECK_EQ_U64(fp32_tanh_approx(0x80000001u, 0), 0x80000001u);
    CHECK_EQ_U64(fp32_div_approx(ONE, 0x00400000u, 0), 0x7f000000u);
    /* a subnormal divisor is scaled without .ftz (measured on sm_90) */
    CHECK_EQ_U64(fp32_div_approx(MINSUB, MINSUB, 0), ONE);
    CHECK_EQ_U64(fp32_div_approx(0, MINSUB, 0), 0);
    CHECK_EQ_U64(fp32_div_approx(NZERO, MINSUB, 0), NZERO);
    CHECK_EQ_U64(fp32_div_approx(MAXSUB, MINSUB, 0), 0x4afffffeu);
    CHECK_EQ_U64(fp32_div_approx(MINSUB, MINSUB, FP_FTZ), CNAN);
    CHECK_EQ_U64(fp32_div_approx(ONE, 0x00400000u, FP_FTZ), PINF);
    CHECK_EQ_U64(fp32_div_approx(MINSUB, ONE, 0), MINSUB);
    CHECK_EQ_U64(fp32_div_approx(MINSUB, ONE, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_div_approx(MINNORM, TWO, 0), 0x00400000u);
    CHECK_EQ_U64(fp32_div_approx(MINNORM, TWO, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_div_full(ONE, 0x7f000000u, 0), 0x00400000u);
    CHECK_EQ_U64(fp32_div_full(ONE, 0x7f000000u, FP_FTZ), 0);
    CHECK_EQ_U64(fp32_div_full(MINSUB, HALF, 0), 2);
    CHECK_EQ_U64(fp32_div_full(MINSUB, HALF, FP_FTZ), 0);

    /* rcp.approx.ftz.f64: on the upper word only, result rounded to 1.11.20 */
    CHECK_EQ_U64(fp64_rcp_approx(0x4000000000000000ull, FP_FTZ), 0x3fe0000000000000ull);
    CHECK_EQ_U64(fp64_rcp_approx(0x4008000000000000ull, FP_FTZ), 0x3fd5555500000000ull);
    CHECK_EQ_U64(fp64_rcp_approx(0x4008000000000001ull, FP_FTZ), 0x3fd5555500000000ull);
    CHECK_EQ_U64(fp64_rcp_approx(0x3ff8000000000000ull, FP_FTZ), 0x3fe5555500000000ull);
    CHECK_EQ_U64(fp64_rcp_approx(0x4014000000000000ull, FP_FTZ), 0x3fc9999900000000ull);
    CHECK_EQ_U64(fp64_rcp_approx(0xc014000000000000ull, 0), 0xbfc9999900000000ull);
    CHECK_EQ_U64(fp64_rcp_approx(0x43dfffffffffffffull, FP_FTZ), 0x3c00000000000000ull);
    CHECK_EQ_U64(fp64_rcp_approx(0x7ff8000000000000ull, FP_FTZ), 0x7fffffff00000000ull);
    CHECK_EQ_U64(fp64_rcp_approx(0xfff0000100000000ull, FP_FTZ), 0x7fffffff00000000ull);
    CHECK_EQ_U64(fp64_rcp_approx(0x7ff0000000000001ull, FP_FTZ), 0); /* upper word is +inf */
    CHECK_EQ_U64(fp64_rcp_approx(D_NINF, FP_FTZ), D_NZERO);
    CHECK_EQ_U64(fp64_rcp_approx(0, FP_FTZ), D_PINF);
    CHECK_EQ_U64(fp64_rcp_approx(D_NZERO, FP_FTZ), D_NINF);
    CHECK_EQ_U64(fp64_rcp_approx(0x0000000100000000ull, FP_FTZ), D_PINF);
    CHECK_EQ_U64(fp64_rcp_approx(0x800fffffffffffffull, FP_FTZ), D_NINF);
    CHECK_EQ_U64(fp64_rcp_approx(0x00000000ffffffffull, FP_FTZ), D_PINF);
    CHECK_EQ_U64(fp64_rcp_approx(0x7fe0000000000000ull, FP_FTZ), 0); /* 2^-1023 flushed */
    /* rsqrt.approx.ftz.f64 likewise */
    CHECK_EQ_U64(fp64_rsqrt_approx(0x4010000000000000ull, FP_FTZ), 0x3fe0000000000000ull);
    CHECK_EQ_U64(fp64_rsqrt_approx(0x4000000000000000ull, FP_FTZ), 0x3fe6a09e00000000ull);
    CHECK_EQ_U64(fp64_rsqrt_approx(0x4014000000000000ull, FP_FTZ), 0x3fdc9f2500000000ull);
    CHECK_EQ_U64(fp64_rsqrt_approx(D_NZERO, FP_FTZ), D_NINF);
    CHECK_EQ_U64(fp64_rsqrt_approx(0x8000000100000000ull, FP_FTZ), D_NINF);
    CHECK_EQ_U64(fp64_rsqrt_approx(0x0000000100000000ull, FP_FTZ), D_PINF);
    CHECK_EQ_U64(fp64_rsqrt_approx(0xbff0000000000000ull, FP_FTZ), 0x7fffffff00000000ull);
    CHECK_EQ_U64(fp64_rsqrt_approx(D_NINF, FP_FTZ), 0x7fffffff00000000ull);
    CHECK_EQ_U64(fp64_rsqrt_approx(0x7ff8000000000001ull, FP_FTZ), 0x7fffffff00000000ull);
    CHECK_EQ_U64(fp64_rsqrt_approx(D_PINF, FP_FTZ), 0);
    /* rsqrt.approx.f64: full precision, subnormals supported, payloads kept */
    CHECK_EQ_U64(fp64_rsqrt_approx(0x4010000000000000ull, 0), 0x3fe0000000000000ull);
    CHECK_EQ_U64(fp64_rsqrt_approx(1, 0), 0x6180000000000000ull); /* 2^537 */
    CHECK_EQ_U64(fp64_rsqrt_approx(D_NZERO, 0), D_NINF);
    CHECK_EQ_U64(fp64_rsqrt_approx(0, 0), D_PINF);
    CHECK_EQ_U64(fp64_rsqrt_approx(D_PINF, 0), 0);
    CHECK_EQ_U64(fp64_rsqrt_approx(0x8000000000000001ull, 0), D_CNAN);
    CHECK_EQ_U64(fp64_rsqrt_approx(0x7ff0000000000005ull, 0), 0x7ff8000000000005ull);
    {
        uint64_t r = fp64_rsqrt_approx(0x4000000000000000ull, 0); /* 1/sqrt(2) */
        CHECK(r == 0x3fe6a09e667f3bcdull || r == 0x3fe6a09e667f3bccull ||
              r == 0x3fe6a09e667f3bceull);
    }
}

/* ---- conversions, hand-derived ----------------------------------------------------------- */

/* cvt in all five modes: .rn .rz .rm .rp .rna */
#define MODES5(expr, e_rn, e_rz, e_rm, e_rp, e_rna)                                        \
    do {                                                                                   \
        const uint64_t want_[5] = {(e_rn), (e_rz), (e_rm), (e_rp), (e_rna)};               \
        for (int r_ = 0; r_ < 5; r_++) {                                                   \
            uint64_t got_ = (uint64_t)(expr);                                              \
            CHECK_MSG(got_ == want_[r_], "mode %d: got 0x%" PRIx64 ", want 0x%" PRIx64,  \
                      r_, got_, want_[r_]);                                                \
        }                                                                                  \
    } while (0)

#define F2F(a, from, to) fp_cvt_f2f((a), (from), (to), R, 0, 0)

static void test_cvt_f2f(void)
{
    /* f32 -> f16 */
    MODES5(F2F(ONE, FP_F32, FP_F16), 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00);
    MODES5(F2F(0x477fe000u, FP_F32, FP_F16), 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff); /* 65504 */
    MODES5(F2F(0x477ff000u, FP_F32, FP_F16), 0x7c00, 0x7bff, 0x7bff, 0x7c00, 0x7c00); /* 65520 */
    MODES5(F2F(0xc77ff000u, FP_F32, FP_F16), 0xfc00, 0xfbff, 0xfc00, 0xfbff, 0xfc00);
    MODES5(F2F(0x477fef00u, FP_F32, FP_F16), 0x7bff, 0x7bff, 0x7bff, 0x7c00, 0x7bff); /* 65519 */
    MODES5(F2F(0x47c35000u, FP_F32, FP_F16), 0x7c00, 0x7bff, 0x7bff, 0x7c00, 0x7c00); /* 1e5 */
    MODES5(F2F(PINF, FP_F32, FP_F16), 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00);
    MODES5(F2F(NZERO, FP_F32, FP_F16), 0x8000, 0x8000, 0x8000, 0x8000, 0x8000);
    MODES5(F2F(QNAN, FP_F32, FP_F16), 0x7fff, 0x7fff, 0x7fff, 0x7fff, 0x7fff);
    MODES5(F2F(0x33800000u, FP_F32, FP_F16), 1, 1, 1, 1, 1);      /* 2^-24 */
    MODES5(F2F(0x33000000u, FP_F32, FP_F16), 0, 0, 0, 1, 1);      /* 2^-25, a tie */
    MODES5(F2F(0xb3000000u, FP_F32, FP_F16), 0x8000, 0x8000, 0x8001, 0x8000, 0x8001);
    MODES5(F2F(0x33400000u, FP_F32, FP_F16), 1, 0, 0, 1, 1);      /* 1.5 * 2^-25 */
    MODES5(F2F(0x33c00000u, FP_F32, FP_F16), 2, 1, 1, 2, 2);      /* 1.5 * 2^-24, a tie */
    MODES5(F2F(0x38800000u, FP_F32, FP_F16), 0x0400, 0x0400, 0x0400, 0x0400, 0x0400);
    MODES5(F2F(0x387fc000u, FP_F32, FP_F16), 0x03ff, 0x03ff, 0x03ff, 0x03ff, 0x03ff);
    MODES5(F2F(0x387fe000u, FP_F32, FP_F16), 0x0400, 0x03ff, 0x03ff, 0x0400, 0x0400);
    MODES5(F2F(0x3f801000u, FP_F32, FP_F16), 0x3c00, 0x3c00, 0x3c00, 0x3c01, 0x3c01);
    MODES5(F2F(0x3f803000u, FP_F32, FP_F16), 0x3c02, 0x3c01, 0x3c01, 0x3c02, 0x3c02);
    MODES5(F2F(0x3f801001u, FP_F32, FP_F16), 0x3c01, 0x3c00, 0x3c00, 0x3c01, 0x3c01);
    MODES5(F2F(MINSUB, FP_F32, FP_F16), 0, 0, 0, 1, 0);
    /* measured on sm_90: cvt.ftz.f16.f32 keeps subnormal inputs, .bf16 flushes */
    CHECK_EQ_U64(fp_cvt_f2f(MINSUB, FP_F32, FP_F16, FP_RP, 0, FP_FTZ), 1);
    CHECK_EQ_U64(fp_cvt_f2f(MINSUB, FP_F32, FP_BF16, FP_RP, 0, FP_FTZ), 0);
    CHECK_EQ_U64(fp_cvt_f2f(MINSUB, FP_F32, FP_BF16, FP_RP, 0, 0), 1);
    CHECK_EQ_U64(fp_cvt_f2f(0x3fc00000u, FP_F32, FP_F16, FP_RN, 0, FP_SAT), 0x3c00);
    CHECK_EQ_U64(fp_cvt_f2f(0xc0000000u, FP_F32, FP_F16, FP_RN, 0, FP_SAT), 0);
    CHECK_EQ_U64(fp_cvt_f2f(QNAN, FP_F32, FP_F16, FP_RN, 0, FP_SAT), 0);
    CHECK_EQ_U64(fp_cvt_f2f(0x3e800000u, FP_F32, FP_F16, FP_RN, 0, FP_SAT), 0x3400);
    /* f16 -> f32 / f64: exact */
    CHECK_EQ_U64(fp_cvt_f2f(0x0001, FP_F16, FP_F32, FP_RN, 0, 0), 0x33800000u);
    CHECK_EQ_U64(fp_cvt_f2f(0x0001, FP_F16, FP_F32, FP_RN, 0, FP_FTZ), 0x33800000u);
    CHECK_EQ_U64(fp_cvt_f2f(0x03ff, FP_F16, FP_F32, FP_RN, 0, 0), 0x387fc000u);
    CHECK_EQ_U64(fp_cvt_f2f(0x7bff, FP_F16, FP_F32, FP_RN, 0, 0), 0x477fe000u);
    CHECK_EQ_U64(fp_cvt_f2f(0xfc00, FP_F16, FP_F32, FP_RN, 0, 0), NINF);
    CHECK_EQ_U64(fp_cvt_f2f(0x7e00, FP_F16, FP_F32, FP_RN, 0, 0), CNAN);
    CHECK_EQ_U64(fp_cvt_f2f(0x8000, FP_F16, FP_F32, FP_RN, 0, 0), NZERO);
    CHECK_EQ_U64(fp_cvt_f2f(0xffff3c00u, FP_F16, FP_F32, FP_RN, 0, 0), ONE);
    CHECK_EQ_U64(fp_cvt_f2f(0x0001, FP_F16, FP_F64, FP_RN, 0, 0), 0x3e70000000000000ull);
    /* NaNs through f64 keep sign and payload (quietened), measured on sm_90 */
    CHECK_EQ_U64(fp_cvt_f2f(0x7e00, FP_F16, FP_F64, FP_RN, 0, 0), 0x7ff8000000000000ull);
    CHECK_EQ_U64(fp_cvt_f2f(0x7c01, FP_F16, FP_F64, FP_RN, 0, 0), 0x7ff8040000000000ull);
    CHECK_EQ_U64(fp_cvt_f2f(0x7f800001u, FP_F32, FP_F64, FP_RN, 0, 0), 0x7ff8000020000000ull);
    CHECK_EQ_U64(fp_cvt_f2f(0xffc00000u, FP_F32, FP_F64, FP_RN, 0, 0), 0xfff8000000000000ull);
    CHECK_EQ_U64(fp_cvt_f2f(0x7ff4000000000000ull, FP_F64, FP_F32, FP_RZ, 0, 0), 0x7fe00000u);
    CHECK_EQ_U64(fp_cvt_f2f(0xfff8000000000123ull, FP_F64, FP_F32, FP_RN, 0, 0), 0xffc00000u);
    CHECK_EQ_U64(fp_cvt_f2f(0x7ff4000000000000ull, FP_F64, FP_F16, FP_RN, 0, 0), 0x7f00);
    CHECK_EQ_U64(fp_cvt_f2f(0x7ff0000000000003ull, FP_F64, FP_F64, FP_RN, 1, 0),
                 0x7ff8000000000003ull);
    CHECK_EQ_U64(fp_cvt_f2f(0x7ff8000000000001ull, FP_F64, FP_F32, FP_RN, 0, FP_SAT), 0);
    /* bf16 */
    MODES5(F2F(0x3f808000u, FP_F32, FP_BF16), 0x3f80, 0x3f80, 0x3f80, 0x3f81, 0x3f81);
    MODES5(F2F(0x3f818000u, FP_F32, FP_BF16), 0x3f82, 0x3f81, 0x3f81, 0x3f82, 0x3f82);
    MODES5(F2F(0x3f808001u, FP_F32, FP_BF16), 0x3f81, 0x3f80, 0x3f80, 0x3f81, 0x3f81);
    MODES5(F2F(0xbf808001u, FP_F32, FP_BF16), 0xbf81, 0xbf80, 0xbf81, 0xbf80, 0xbf81);
    MODES5(F2F(PMAX, FP_F32, FP_BF16), 0x7f80, 0x7f7f, 0x7f7f, 0x7f80, 0x7f80);
    MODES5(F2F(0x00010000u, FP_F32, FP_BF16), 1, 1, 1, 1, 1);
    MODES5(F2F(0x00008000u, FP_F32, FP_BF16), 0, 0, 0, 1, 1);
    MODES5(F2F(0x00018000u, FP_F32, FP_BF16), 2, 1, 1, 2, 2);
    MODES5(F2F(QNAN, FP_F32, FP_BF16), 0x7fff, 0x7fff, 0x7fff, 0x7fff, 0x7fff);
    CHECK_EQ_U64(fp_cvt_f2f(0x00010000u, FP_F32, FP_BF16, FP_RN, 0, FP_FTZ), 0);
    CHECK_EQ_U64(fp_cvt_f2f(0x3f80, FP_BF16, FP_F32, FP_RN, 0, 0), ONE);
    CHECK_EQ_U64(fp_cvt_f2f(0x0001, FP_BF16, FP_F32, FP_RN, 0, 0), 0x00010000u);
    CHECK_EQ_U64(fp_cvt_f2f(0x8001, FP_BF16, FP_F32, FP_RN, 0, FP_FTZ), NZERO);
    CHECK_EQ_U64(fp_cvt_f2f(0x7fc1, FP_BF16, FP_F32, FP_RN, 0, 0), 0x7fc10000u); /* widened */
    CHECK_EQ_U64(fp_cvt_f2f(0x7f81, FP_BF16, FP_F32, FP_RN, 0, 0), 0x7f810000u);
    CHECK_EQ_U64(fp_cvt_f2f(0x7f81, FP_BF16, FP_F16, FP_RN, 0, 0), FP16_CANONICAL_NAN);
    MODES5(F2F(0x3c01, FP_F16, FP_BF16), 0x3f80, 0x3f80, 0x3f80, 0x3f81, 0x3f80);
    MODES5(F2F(0x3f81, FP_BF16, FP_F16), 0x3c08, 0x3c08, 0x3c08, 0x3c08, 0x3c08);
    MODES5(F2F(0x4780, FP_BF16, FP_F16), 0x7c00, 0x7bff, 0x7bff, 0x7c00, 0x7c00); /* 65536 */
    /* tf32: f32 container, 10 fraction bits */
    MODES5(F2F(0x3f801000u, FP_F32, FP_TF32), 0x3f800000u, 0x3f800000u, 0x3f800000u,
           0x3f802000u, 0x3f802000u);
    MODES5(F2F(0x3f800fffu, FP_F32, FP_TF32), 0x3f800000u, 0x3f800000u, 0x3f800000u,
           0x3f802000u, 0x3f800000u);
    MODES5(F2F(0x3f803000u, FP_F32, FP_TF32), 0x3f804000u, 0x3f802000u, 0x3f802000u,
           0x3f804000u, 0x3f804000u);
    MODES5(F2F(PMAX, FP_F32, FP_TF32), PINF, 0x7f7fe000u, 0x7f7fe000u, PINF, PINF);
    MODES5(F2F(0x00001000u, FP_F32, FP_TF32), 0, 0, 0, 0x00002000u, 0x00002000u);
    /* tf32 truncates NaNs (measured on sm_90), even into an infinity */
    CHECK_EQ_U64(fp_cvt_f2f(QNAN, FP_F32, FP_TF32, FP_RNA, 0, 0), QNAN);
    CHECK_EQ_U64(fp_cvt_f2f(0xffffffffu, FP_F32, FP_TF32, FP_RNA, 0, 0), 0xffffe000u);
    CHECK_EQ_U64(fp_cvt_f2f(0x7f800001u, FP_F32, FP_TF32, FP_RNA, 0, 0), PINF);
    CHECK_EQ_U64(fp_cvt_f2f(0xffc00000u, FP_F32, FP_TF32, FP_RN, 0, 0), 0x7fffe000u);
    CHECK_EQ_U64(fp_cvt_f2f(0x7f800001u, FP_F32, FP_TF32, FP_RZ, 0, 0), 0x7fffe000u);
    /* with .ftz, NaNs are made canonical f32 first (measured on sm_90) */
    CHECK_EQ_U64(fp_cvt_f2f(0xffc00001u, FP_F32, FP_F64, FP_RN, 0, FP_FTZ), 0x7fffffffe0000000ull);
    CHECK_EQ_U64(fp_cvt_f2f(0x7f81, FP_BF16, FP_F32, FP_RN, 0, FP_FTZ), CNAN);
    CHECK_EQ_U64(fp_cvt_f2f(0xfff8000000000123ull, FP_F64, FP_F32, FP_RN, 0, FP_FTZ), 0xffc00000u);
    /* f64 <-> f32 */
    MODES5(F2F(0x3ff0000010000000ull, FP_F64, FP_F32), ONE, ONE, ONE, 0x3f800001u, 0x3f800001u);
    MODES5(F2F(0x7e37e43c8800759cull, FP_F64, FP_F32), PINF, PMAX, PMAX, PINF, PINF); /* 1e300 */
    MODES5(F2F(0x01a56e1fc2f8f359ull, FP_F64, FP_F32), 0, 0, 0, MINSUB, 0);           /* 1e-300 */
    MODES5(F2F(0x81a56e1fc2f8f359ull, FP_F64, FP_F32), NZERO, NZERO, 0x80000001u, NZERO, NZERO);
    MODES5(F2F(0x36a0000000000000ull, FP_F64, FP_F32), MINSUB, MINSUB, MINSUB, MINSUB, MINSUB);
    CHECK_EQ_U64(fp_cvt_f2f(0x36a0000000000000ull, FP_F64, FP_F32, FP_RN, 0, FP_FTZ), 0);
    CHECK_EQ_U64(fp_cvt_f2f(0x01a56e1fc2f8f359ull, FP_F64, FP_F32, FP_RP, 0, FP_FTZ), 0);
    CHECK_EQ_U64(fp_cvt_f2f(0x3fd0000000000000ull, FP_F64, FP_F32, FP_RN, 0, FP_SAT),
                 0x3e800000u);
    CHECK_EQ_U64(fp_cvt_f2f(0x7ff8000000000001ull, FP_F64, FP_F32, FP_RN, 0, 0), QNAN);
    /* .ftz tininess after rounding (measured on sm_90) */
    MODES4(fp_cvt_f2f(0x380ffffff0000000ull, FP_F64, FP_F32, R, 0, FP_FTZ), MINNORM, 0, 0,
           MINNORM); /* 2^-126 (1 - 2^-25) */
    MODES4(fp_cvt_f2f(0x380fffffe0000000ull, FP_F64, FP_F32, R, 0, FP_FTZ), 0, 0, 0, 0);
    MODES4(fp_cvt_f2f(0x380fffffe0000000ull, FP_F64, FP_F32, R, 0, 0), MINNORM, MAXSUB, MAXSUB,
           MINNORM);
    MODES4(fp_cvt_f2f(0xb80fffffffffffffull, FP_F64, FP_F32, R, 0, FP_FTZ), 0x80800000u, NZERO,
           0x80800000u, NZERO);
    CHECK_EQ_U64(fp_cvt_f2f(MINSUB, FP_F32, FP_F64, FP_RN, 0, 0), 0x36a0000000000000ull);
    CHECK_EQ_U64(fp_cvt_f2f(MINSUB, FP_F32, FP_F64, FP_RN, 0, FP_FTZ), 0);
    CHECK_EQ_U64(fp_cvt_f2f(0x80000001u, FP_F32, FP_F64, FP_RN, 0, FP_FTZ), D_NZERO);
    CHECK_EQ_U64(fp_cvt_f2f(QNAN, FP_F32, FP_F64, FP_RN, 0, 0), 0x7ff8000000000000ull);
    CHECK_EQ_U64(fp_cvt_f2f(0xc0000000u, FP_F32, FP_F64, FP_RN, 0, FP_SAT), 0);
    CHECK_EQ_U64(fp_cvt_f2f(0x3fc00000u, FP_F32, FP_F32, FP_RN, 0, FP_SAT), ONE);
    CHECK_EQ_U64(fp_cvt_f2f(MINSUB, FP_F32, FP_F32, FP_RN, 0, FP_FTZ), 0);
    CHECK_EQ_U64(fp_cvt_f2f(MINSUB, FP_F32, FP_F32, FP_RN, 0, 0), MINSUB);
}

#define F2FI(a, f) fp_cvt_f2f((a), (f), (f), R, 1, 0)

static void test_cvt_intrnd(void)
{
    MODES4(F2FI(0x40200000u, FP_F32), TWO, TWO, TWO, 0x40400000u);             /* 2.5 */
    MODES4(F2FI(0x40600000u, FP_F32), 0x40800000u, 0x40400000u, 0x40400000u,  /* 3.5 */
           0x40800000u);
    MODES4(F2FI(0xc0200000u, FP_F32), 0xc0000000u, 0xc0000000u, 0xc0400000u, 0xc0000000u);
    MODES4(F2FI(0xbe99999au, FP_F32), NZERO, NZERO, NONE, NZERO); /* -0.3 */
    MODES4(F2FI(0x3e99999au, FP_F32), 0, 0, 0, ONE);
    MODES4(F2FI(HALF, FP_F32), 0, 0, 0, ONE);
    MODES4(F2FI(0x3fc00000u, FP_F32), TWO, ONE, ONE, TWO); /* 1.5 */
    MODES4(F2FI(0x4affffffu, FP_F32), 0x4b000000u, 0x4afffffeu, 0x4afffffeu, 0x4b000000u);
    MODES4(F2FI(0x4b000001u, FP_F32), 0x4b000001u, 0x4b000001u, 0x4b000001u, 0x4b000001u);
    MODES4(F2FI(PMAX, FP_F32), PMAX, PMAX, PMAX, PMAX);
    MODES4(F2FI(NINF, FP_F32), NINF, NINF, NINF, NINF);
    MODES4(F2FI(0xffc00001u, FP_F32), CNAN, CNAN, CNAN, CNAN);
    MODES4(F2FI(0xfff0000000000001ull, FP_F64), 0xfff8000000000001ull, 0xfff8000000000001ull,
           0xfff8000000000001ull, 0xfff8000000000001ull);
    MODES4(F2FI(MINSUB, FP_F32), 0, 0, 0, ONE);
    MODES4(F2FI(0x80000001u, FP_F32), NZERO, NZERO, NONE, NZERO);
    MODES4(fp_cvt_f2f(MINSUB, FP_F32, FP_F32, R, 1, FP_FTZ), 0, 0, 0, 0);
    MODES4(fp_cvt_f2f(0x80000001u, FP_F32, FP_F32, R, 1, FP_FTZ), NZERO, NZERO, NZERO, NZERO);
    MODES4(fp_cvt_f2f(0x3fc00000u, FP_F32, FP_F32, R, 1, FP_SAT), ONE, ONE, ONE, ONE);
    MODES4(F2FI(0x4004000000000000ull, FP_F64), 0x4000000000000000ull, 0x4000000000000000ull,
           0x4000000000000000ull, 0x4008000000000000ull);
    MODES4(F2FI(0x432fffffffffffffull, FP_F64), 0x4330000000000000ull, 0x432ffffffffffffeull,
           0x432ffffffffffffeull, 0x4330000000000000ull); /* 2^52 - 0.5 */
    MODES4(F2FI(1 | D_NZERO, FP_F64), D_NZERO, D_NZERO, D_ONE | D_NZERO, D_NZERO);
    MODES4(F2FI(0x4100, FP_F16), 0x4000, 0x4000, 0x4000, 0x4200); /* 2.5 */
    MODES4(F2FI(0x3400, FP_F16), 0, 0, 0, 0x3c00);                /* 0.25 */
    MODES4(F2FI(0x7bff, FP_F16), 0x7bff, 0x7bff, 0x7bff, 0x7bff);
    MODES4(F2FI(0xc020, FP_BF16), 0xc000, 0xc000, 0xc040, 0xc000); /* -2.5 */
}

#define F2I(a, from, bits, sgn) fp_cvt_f2i((a), (from), (bits), (sgn), R, 0)

static void test_cvt_f2i(void)
{
    MODES4(F2I(0x40200000u, FP_F32, 32, 1), 2, 2, 2, 3);
    MODES4(F2I(0xc0200000u, FP_F32, 32, 1), 0xfffffffeu, 0xfffffffeu, 0xfffffffdu, 0xfffffffeu);
    MODES4(F2I(0xc02ccccdu, FP_F32, 32, 1), 0xfffffffdu, 0xfffffffeu, 0xfffffffdu, 0xfffffffeu);
    MODES4(F2I(0x4effffffu, FP_F32, 32, 1), 0x7fffff80u, 0x7fffff80u, 0x7fffff80u, 0x7fffff80u);
    MODES4(F2I(0x4f000000u, FP_F32, 32, 1), 0x7fffffffu, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu);
    MODES4(F2I(0xcf000000u, FP_F32, 32, 1), 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u);
    MODES4(F2I(0xcf000001u, FP_F32, 32, 1), 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u);
    MODES4(F2I(PINF, FP_F32, 32, 1), 0x7fffffffu, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu);
    MODES4(F2I(NINF, FP_F32, 32, 1), 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u);
    MODES4(F2I(NONE, FP_F32, 32, 0), 0, 0, 0, 0);
    MODES4(F2I(0xbecccccdu, FP_F32, 32, 0), 0, 0, 0, 0); /* -0.4 */
    MODES4(F2I(NINF, FP_F32, 32, 0), 0, 0, 0, 0);
    MODES4(F2I(0x4f800000u, FP_F32, 32, 0), 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);
    MODES4(F2I(0x4f7fffffu, FP_F32, 32, 0), 0xffffff00u, 0xffffff00u, 0xffffff00u, 0xffffff00u);
    MODES4(F2I(PINF, FP_F32, 64, 0), ~0ull, ~0ull, ~0ull, ~0ull);
    MODES4(F2I(MINSUB, FP_F32, 32, 1), 0, 0, 0, 1);
    MODES4(fp_cvt_f2i(MINSUB, FP_F32, 32, 1, R, FP_FTZ), 0, 0, 0, 0);
    MODES4(F2I(0x80000001u, FP_F32, 32, 1), 0, 0, 0xffffffffu, 0);
    MODES4(F2I(NZERO, FP_F32, 32, 1), 0, 0, 0, 0);
    /* NaN: 0, unless the source is f64 or the destination 64-bit */
    CHECK_EQ_U64(fp_cvt_f2i(QNAN, FP_F32, 32, 1, FP_RZ, 0), 0);
    CHECK_EQ_U64(fp_cvt_f2i(QNAN, FP_F32, 32, 0, FP_RZ, 0), 0);
    CHECK_EQ_U64(fp_cvt_f2i(QNAN, FP_F32, 8, 1, FP_RZ, 0), 0);
    CHECK_EQ_U64(fp_cvt_f2i(0x7e00, FP_F16, 16, 1, FP_RZ, 0), 0);
    CHECK_EQ_U64(fp_cvt_f2i(QNAN, FP_F32, 64, 1, FP_RZ, 0), 0x8000000000000000ull);
    CHECK_EQ_U64(fp_cvt_f2i(QNAN, FP_F32, 64, 0, FP_RZ, 0), 0x8000000000000000ull);
    CHECK_EQ_U64(fp_cvt_f2i(D_CNAN, FP_F64, 32, 1, FP_RZ, 0), 0x80000000u);
    CHECK_EQ_U64(fp_cvt_f2i(D_CNAN, FP_F64, 32, 0, FP_RZ, 0), 0x80000000u);
    CHECK_EQ_U64(fp_cvt_f2i(D_CNAN, FP_F64, 64, 0, FP_RZ, 0), 0x8000000000000000ull);
    CHECK_EQ_U64(fp_cvt_f2i(D_CNAN, FP_F64, 16, 1, FP_RZ, 0), 0x8000u);
    /* 64-bit limits */
    MODES4(F2I(0x43e0000000000000ull, FP_F64, 64, 1), 0x7fffffffffffffffull,
           0x7fffffffffffffffull, 0x7fffffffffffffffull, 0x7fffffffffffffffull);
    MODES4(F2I(0x43dfffffffffffffull, FP_F64, 64, 1), 0x7ffffffffffffc00ull,
           0x7ffffffffffffc00ull, 0x7ffffffffffffc00ull, 0x7ffffffffffffc00ull);
    MODES4(F2I(0xc3e0000000000000ull, FP_F64, 64, 1), 0x8000000000000000ull,
           0x8000000000000000ull, 0x8000000000000000ull, 0x8000000000000000ull);
    MODES4(F2I(0xc3e0000000000001ull, FP_F64, 64, 1), 0x8000000000000000ull,
           0x8000000000000000ull, 0x8000000000000000ull, 0x8000000000000000ull);
    MODES4(F2I(0x43f0000000000000ull, FP_F64, 64, 0), ~0ull, ~0ull, ~0ull, ~0ull);
    MODES4(F2I(0x43efffffffffffffull, FP_F64, 64, 0), 0xfffffffffffff800ull,
           0xfffffffffffff800ull, 0xfffffffffffff800ull, 0xfffffffffffff800ull);
    MODES4(F2I(0x7fefffffffffffffull, FP_F64, 64, 1), 0x7fffffffffffffffull,
           0x7fffffffffffffffull, 0x7fffffffffffffffull, 0x7fffffffffffffffull);
    MODES4(F2I(0x41dfffffffe00000ull, FP_F64, 32, 1), 0x7fffffffu, 0x7fffffffu, 0x7fffffffu,
           0x7fffffffu); /* 2^31 - 0.5 */
    MODES4(F2I(0x41dfffffffa00000ull, FP_F64, 32, 1), 0x7ffffffeu, 0x7ffffffeu, 0x7ffffffeu,
           0x7fffffffu); /* 2^31 - 1.5 */
    MODES4(F2I(0x3fe0000000000001ull, FP_F64, 64, 0), 1, 0, 0, 1);
    /* small integer types saturate; the result is not sign-extended */
    MODES4(F2I(0x42ff0000u, FP_F32, 8, 1), 0x7f, 0x7f, 0x7f, 0x7f); /* 127.5 */
    MODES4(F2I(0xc3010000u, FP_F32, 8, 1), 0x80, 0x80, 0x80, 0x80); /* -129 */
    MODES4(F2I(0x43960000u, FP_F32, 8, 0), 0xff, 0xff, 0xff, 0xff); /* 300 */
    MODES4(F2I(0xc71c4000u, FP_F32, 16, 1), 0x8000, 0x8000, 0x8000, 0x8000); /* -40000 */
    MODES4(F2I(NONE, FP_F32, 8, 1), 0xff, 0xff, 0xff, 0xff);
    MODES4(F2I(NONE, FP_F32, 16, 1), 0xffff, 0xffff, 0xffff, 0xffff);
    MODES4(F2I(NONE, FP_F32, 32, 1), 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);
    MODES4(F2I(NONE, FP_F32, 64, 1), ~0ull, ~0ull, ~0ull, ~0ull);
    MODES4(F2I(0x5bf8, FP_F16, 8, 0), 0xff, 0xff, 0xff, 0xff); /* 255 */
    MODES4(F2I(0x5c00, FP_F16, 8, 0), 0xff, 0xff, 0xff, 0xff); /* 256 */
    MODES4(F2I(0x7bff, FP_F16, 16, 1), 0x7fff, 0x7fff, 0x7fff, 0x7fff);
    MODES4(F2I(0x7bff, FP_F16, 16, 0), 0xffe0, 0xffe0, 0xffe0, 0xffe0);
    MODES4(F2I(0xc020, FP_BF16, 8, 1), 0xfe, 0xfe, 0xfd, 0xfe);
}

#define I2F(a, bits, sgn, to) fp_cvt_i2f((a), (bits), (sgn), (to), R, 0)

static void test_cvt_i2f(void)
{
    MODES4(I2F(0x7fffffffu, 32, 1, FP_F32), 0x4f000000u, 0x4effffffu, 0x4effffffu, 0x4f000000u);
    MODES4(I2F(16777217u, 32, 1, FP_F32), 0x4b800000u, 0x4b800000u, 0x4b800000u, 0x4b800001u);
    MODES4(I2F(0xfeffffffu, 32, 1, FP_F32), 0xcb800000u, 0xcb800000u, 0xcb800001u, 0xcb800000u);
    MODES4(I2F(16777219u, 32, 1, FP_F32), 0x4b800002u, 0x4b800001u, 0x4b800001u, 0x4b800002u);
    MODES4(I2F(16777217u, 32, 0, FP_F32), 0x4b800000u, 0x4b800000u, 0x4b800000u, 0x4b800001u);
    MODES4(I2F(0xffffffffu, 32, 0, FP_F32), 0x4f800000u, 0x4f7fffffu, 0x4f7fffffu, 0x4f800000u);
    MODES4(I2F(0xffffffffu, 32, 1, FP_F32), NONE, NONE, NONE, NONE);
    MODES4(I2F(0x80000000u, 32, 1, FP_F32), 0xcf000000u, 0xcf000000u, 0xcf000000u, 0xcf000000u);
    MODES4(I2F(0, 32, 1, FP_F32), 0, 0, 0, 0);
    MODES4(I2F(~0ull, 64, 0, FP_F64), 0x43f0000000000000ull, 0x43efffffffffffffull,
           0x43efffffffffffffull, 0x43f0000000000000ull);
    MODES4(I2F(~0ull, 64, 0, FP_F32), 0x5f800000u, 0x5f7fffffu, 0x5f7fffffu, 0x5f800000u);
    MODES4(I2F(0x8000000000000000ull, 64, 1, FP_F64), 0xc3e0000000000000ull,
           0xc3e0000000000000ull, 0xc3e0000000000000ull, 0xc3e0000000000000ull);
    MODES4(I2F(0x8000000000000001ull, 64, 1, FP_F64), 0xc3e0000000000000ull,
           0xc3dfffffffffffffull, 0xc3e0000000000000ull, 0xc3dfffffffffffffull);
    MODES4(I2F(0x20000000000001ull, 64, 1, FP_F64), 0x4340000000000000ull,
           0x4340000000000000ull, 0x4340000000000000ull, 0x4340000000000001ull); /* 2^53+1 */
    MODES4(I2F(0x80, 8, 1, FP_F32), 0xc3000000u, 0xc3000000u, 0xc3000000u, 0xc3000000u);
    MODES4(I2F(0xffffff80u, 8, 1, FP_F32), 0xc3000000u, 0xc3000000u, 0xc3000000u, 0xc3000000u);
    MODES4(I2F(0xff, 8, 0, FP_F32), 0x437f0000u, 0x437f0000u, 0x437f0000u, 0x437f0000u);
    MODES4(I2F(0x1ffff, 16, 1, FP_F32), NONE, NONE, NONE, NONE);
    /* to f16 / bf16 */
    MODES4(I2F(65504, 32, 0, FP_F16), 0x7bff, 0x7bff, 0x7bff, 0x7bff);
    MODES4(I2F(65520, 32, 0, FP_F16), 0x7c00, 0x7bff, 0x7bff, 0x7c00);
    MODES4(I2F(70000, 32, 1, FP_F16), 0x7c00, 0x7bff, 0x7bff, 0x7c00);
    MODES4(I2F(0xfffeee90u, 32, 1, FP_F16), 0xfc00, 0xfbff, 0xfc00, 0xfbff); /* -70000 */
    MODES4(I2F(0xffff, 16, 1, FP_F16), 0xbc00, 0xbc00, 0xbc00, 0xbc00);
    MODES4(I2F(2049, 16, 0, FP_F16), 0x6800, 0x6800, 0x6800, 0x6801);
    MODES4(I2F(257, 32, 0, FP_BF16), 0x4380, 0x4380, 0x4380, 0x4381);
    MODES4(I2F(~0ull, 64, 0, FP_BF16), 0x5f80, 0x5f7f, 0x5f7f, 0x5f80);
    CHECK_EQ_U64(fp_cvt_i2f(0x7fffffffu, 32, 1, FP_TF32, FP_RNA, 0), 0x4f000000u);
    CHECK_EQ_U64(fp_cvt_i2f(2049, 32, 1, FP_TF32, FP_RNA, 0), 0x45002000u);
    /* .sat */
    CHECK_EQ_U64(fp_cvt_i2f(5, 32, 1, FP_F32, FP_RN, FP_SAT), ONE);
    CHECK_EQ_U64(fp_cvt_i2f(0xfffffffbu, 32, 1, FP_F32, FP_RN, FP_SAT), 0);
    CHECK_EQ_U64(fp_cvt_i2f(0, 32, 1, FP_F32, FP_RN, FP_SAT), 0);
    CHECK_EQ_U64(fp_cvt_i2f(1, 32, 1, FP_F64, FP_RN, FP_SAT), D_ONE);
    CHECK_EQ_U64(fp_cvt_i2f(3, 32, 1, FP_F16, FP_RN, FP_SAT), 0x3c00);
}

/* ---- reference models ------------------------------------------------------------------ */

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FMA, OP_SQRT, N_OPS };
static const char *const op_names[N_OPS] = {"add", "sub", "mul", "div", "fma", "sqrt"};

/* The host FPU in rounding mode r, through volatile temporaries: the operands
 * are loaded after fesetround() and the result stored before it is restored,
 * so the compiler can neither fold the operation nor move it across. */
static uint32_t host_f32(int op, uint32_t a, uint32_t b, uint32_t c, int r)
{
    volatile float va = bitsf(a), vb = bitsf(b), vc = bitsf(c), vr = 0;
    fesetround(host_modes[r]);
    switch (op) {
    case OP_ADD: vr = va + vb; break;
    case OP_SUB: vr = va - vb; break;
    case OP_MUL: vr = va * vb; break;
    case OP_DIV: vr = va / vb; break;
    case OP_FMA: vr = fmaf(va, vb, vc); break;
    case OP_SQRT: vr = sqrtf(va); break;
    }
    fesetround(FE_TONEAREST);
    return fbits(vr);
}

static uint64_t host_f64(int op, uint64_t a, uint64_t b, uint64_t c, int r)
{
    volatile double va = bitsd(a), vb = bitsd(b), vc = bitsd(c), vr = 0;
    fesetround(host_modes[r]);
    switch (op) {
    case OP_ADD: vr = va + vb; break;
    case OP_SUB: vr = va - vb; break;
    case OP_MUL: vr = va * vb; break;
    case OP_DIV: vr = va / vb; break;
    case OP_FMA: vr = fma(va, vb, vc); break;
    case OP_SQRT: vr = sqrt(va); break;
    }
    fesetround(FE_TONEAREST);
    return dbits(vr);
}

/* The exact result of a double operation, rounded to odd: correct for any
 * later rounding to a format with at most 51 significant bits. */
static double host_round_to_odd(int op, double a, double b, double c)
{
    volatile double va = a, vb = b, vc = c, vr = 0;
    int inexact;
    feclearexcept(FE_INEXACT);
    fesetround(FE_TOWARDZERO);
    switch (op) {
    case OP_ADD: vr = va + vb; break;
    case OP_SUB: vr = va - vb; break;
    case OP_MUL: vr = va * vb; break;
    case OP_DIV: vr = va / vb; break;
    case OP_FMA: vr = fma(va, vb, vc); break;
    case OP_SQRT: vr = sqrt(va); break;
    }
    inexact = fetestexcept(FE_INEXACT);
    fesetround(FE_TONEAREST);
    return inexact ? bitsd(dbits(vr) | 1) : vr;
}

static uint32_t lib_f32(int op, uint32_t a, uint32_t b, uint32_t c, int r, unsigned fl)
{
    switch (op) {
    case OP_ADD: return fp32_add(a, b, (fp_rnd)r, fl);
    case OP_SUB: return fp32_sub(a, b, (fp_rnd)r, fl);
    case OP_MUL: return fp32_mul(a, b, (fp_rnd)r, fl);
    case OP_DIV: return fp32_div(a, b, (fp_rnd)r, fl);
    case OP_FMA: return fp32_fma(a, b, c, (fp_rnd)r, fl);
    default: return fp32_sqrt(a, (fp_rnd)r, fl);
    }
}

static uint64_t lib_f64(int op, uint64_t a, uint64_t b, uint64_t c, int r)
{
    switch (op) {
    case OP_ADD: return fp64_add(a, b, (fp_rnd)r);
    case OP_SUB: return fp64_sub(a, b, (fp_rnd)r);
    case OP_MUL: return fp64_mul(a, b, (fp_rnd)r);
    case OP_DIV: return fp64_div(a, b, (fp_rnd)r);
    case OP_FMA: return fp64_fma(a, b, c, (fp_rnd)r);
    default: return fp64_sqrt(a, (fp_rnd)r);
    }
}

static uint32_t lib_16(int op, uint32_t a, uint32_t b, uint32_t c, fp_fmt f, int r)
{
    switch (op) {
    case OP_ADD: return fp16_add(a, b, f, (fp_rnd)r, 0);
    case OP_SUB: return fp16_sub(a, b, f, (fp_rnd)r, 0);
    case OP_MUL: return fp16_mul(a, b, f, (fp_rnd)r, 0);
    default: return fp16_fma(a, b, c, f, (fp_rnd)r, 0);
    }
}

/* The value of a 16-bit pattern with the given field widths. */
static double val16(uint32_t h, int ebits, int mbits)
{
    int bias = (1 << (ebits - 1)) - 1;
    uint32_t e = (h >> mbits) & ((1u << ebits) - 1), m = h & ((1u << mbits) - 1);
    double v;
    if (e == (1u << ebits) - 1)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, 1 - bias - mbits);
    else
        v = ldexp((double)(m | 1u << mbits), (int)e - bias - mbits);
    return (h >> (ebits + mbits)) & 1 ? -v : v;
}

/* Round x (not NaN) to the 16-bit format by bracketing it between adjacent
 * representable values (positive patterns are ordered like their values). */
static uint32_t ref_round16(double x, int ebits, int mbits, int r)
{
    uint32_t sign = signbit(x) ? 1u << (ebits + mbits) : 0;
    uint32_t infb = ((1u << ebits) - 1) << mbits, maxb = infb - 1, lo = 0, hi = maxb, up;
    double ax = fabs(x), vlo, vup, mid;
    int take_up = 0;
    if (isinf(x))
        return sign | infb;
    if (ax >= val16(maxb, ebits, mbits))
        lo = maxb;
    else
        while (hi - lo > 1) {
            uint32_t m = (lo + hi) / 2;
            if (val16(m, ebits, mbits) <= ax)
                lo = m;
            else
                hi = m;
        }
    vlo = val16(lo, ebits, mbits);
    if (vlo == ax)
        return sign | lo;
    up = lo + 1; /* infb stands for 2^(emax+1) here */
    vup = up == infb ? ldexp(1.0, (1 << (ebits - 1))) : val16(up, ebits, mbits);
    mid = (vlo + vup) / 2;
    switch (r) {
    case FP_RN: take_up = ax > mid || (ax == mid && !(up & 1)); break;
    case FP_RZ: take_up = 0; break;
    case FP_RM: take_up = sign != 0; break;
    case FP_RP: take_up = sign == 0; break;
    case FP_RNA: take_up = ax >= mid; break;
    }
    return sign | (take_up ? up : lo);
}

/* Random operands, weighted toward the interesting places. */
static uint32_t rand_f32(void)
{
    static const uint32_t sp[] = {0,      NZERO,  PINF,    NINF,        QNAN, 0xffc00001u,
                                  PMAX,   NMAX,   MINSUB,  0x80000001u, MAXSUB, MINNORM,
                                  ONE,    NONE,   0x7f800001u};
    uint64_t x = rng();
    uint32_t m = (uint32_t)(x >> 32) & 0x807fffffu;
    switch (x % 12) {
    case 0: return (uint32_t)(x >> 32);
    case 1: return sp[(x >> 8) % ARRAY_LEN_(sp)];
    case 2: return m;                                      /* subnormal */
    case 3: return m | (uint32_t)(1 + (x >> 8) % 4) << 23; /* smallest normals */
    case 4: return m | (uint32_t)(250 + (x >> 8) % 4) << 23; /* near overflow */
    case 5: return (m & 0x8000000fu) | (uint32_t)(120 + (x >> 8) % 16) << 23; /* few bits */
    case 6: return (m | 0x007ffff0u) | (uint32_t)(120 + (x >> 8) % 16) << 23; /* many ones */
    case 7: return m | (uint32_t)(64 + (x >> 8) % 128) << 23;
    default: return m | (uint32_t)(118 + (x >> 8) % 20) << 23;
    }
}

static uint64_t rand_f64(void)
{
    static const uint64_t sp[] = {0,          D_NZERO, D_PINF, D_NINF, D_CNAN,
                                  0x7ff0000000000001ull, 0xfff8000000000abcull,
                                  D_MAX,      1,       0x800fffffffffffffull, D_ONE};
    uint64_t x = rng(), y = rng();
    uint64_t m = y & 0x800fffffffffffffull;
    switch (x % 12) {
    case 0: return y;
    case 1: return sp[(x >> 8) % ARRAY_LEN_(sp)];
    case 2: return m;
    case 3: return m | (uint64_t)(1 + (x >> 8) % 4) << 52;
    case 4: return m | (uint64_t)(2042 + (x >> 8) % 4) << 52;
    case 5: return (m & 0x800000000000000full) | (uint64_t)(1015 + (x >> 8) % 16) << 52;
    case 6: return (m | 0x000ffffffffffff0ull) | (uint64_t)(1015 + (x >> 8) % 16) << 52;
    case 7: return m | (uint64_t)(512 + (x >> 8) % 1024) << 52;
    default: return m | (uint64_t)(1013 + (x >> 8) % 20) << 52;
    }
}

/* A second operand close to the first, to provoke cancellation. */
static uint32_t near_f32(uint32_t a)
{
    uint64_t x = rng();
    return (a ^ (uint32_t)(x & 7) ^ (x & 8 ? 0x80000000u : 0)) + (uint32_t)((x >> 4) % 3) * 0x800000u;
}

static uint64_t near_f64(uint64_t a)
{
    uint64_t x = rng();
    return (a ^ (x & 7) ^ (x & 8 ? D_NZERO : 0)) + ((x >> 4) % 3) * (1ull << 52);
}

/* ---- sweeps -------------------------------------------------------------------------------- */

static void sweep_f32_arith(void)
{
    int fails = 0;
    long n = 0;
    for (int i = 0; i < 30000; i++) {
        uint32_t a = rand_f32(), b = rng() % 4 ? rand_f32() : near_f32(a), c = rand_f32();
        if (rng() % 3 == 0) /* c close to -(a * b) */
            c = near_f32(fbits(-(bitsf(a) * bitsf(b))));
        for (int op = 0; op < N_OPS; op++)
            for (int r = 0; r < 4; r++) {
                uint32_t want = host_f32(op, a, b, c, r), got = lib_f32(op, a, b, c, r, 0);
                if (isnan(bitsf(want)))
                    want = CNAN;
                n++;
                if (got != want && fails++ < 10)
                    fprintf(stderr, "f32 %s mode %d (%08x, %08x, %08x): got %08x want %08x\n",
                            op_names[op], r, a, b, c, got, want);
            }
    }
    CHECK_MSG(fails == 0, "%d of %ld f32 results differ from the host FPU", fails, n);
}

static uint32_t flush32(uint32_t x) { return (x & 0x7f800000u) == 0 ? x & 0x80000000u : x; }

static uint32_t sat32(uint32_t x)
{
    if (isnan(bitsf(x)) || (x & 0x80000000u))
        return 0;
    return x > ONE ? ONE : x;
}

/* IEEE "tininess after rounding" for an f32 result: the exact value (rounded
 * to odd in double), scaled by 2^64 so it is normal, rounded to f32 in mode r
 * and compared with 2^-126 (scaled). */
static int tiny_after_rounding(int op, uint32_t a, uint32_t b, uint32_t c, int r)
{
    volatile double sc = ldexp(host_round_to_odd(op, bitsf(a), bitsf(b), bitsf(c)), 64);
    volatile float t;
    fesetround(host_modes[r]);
    t = (float)sc;
    fesetround(FE_TONEAREST);
    return t != 0 && fabsf(t) < ldexpf(1, -62);
}

/* .ftz and .sat on top of the host: flushed operands in, results that are
 * tiny after rounding flushed, then clamped. */
static void sweep_f32_ftz_sat(void)
{
    int fails = 0;
    long n = 0;
    for (int i = 0; i < 20000; i++) {
        uint32_t a = rand_f32(), b = rng() % 4 ? rand_f32() : near_f32(a), c = rand_f32();
        if (i % 4 == 0) { /* products and quotients near 2^-126 */
            a = (a & 0x807fffffu) | (uint32_t)(60 + rng() % 8) << 23;
            b = (b & 0x807fffffu) | (uint32_t)(60 + rng() % 8) << 23;
            c = rng() % 2 ? c : (c & 0x807fffffu) | (uint32_t)(1 + rng() % 2) << 23;
        }
        for (int op = 0; op < N_OPS; op++)
            for (int r = 0; r < 4; r++)
                for (unsigned fl = FP_FTZ; fl <= (FP_FTZ | FP_SAT); fl++) {
                    uint32_t want = (fl & FP_FTZ)
                                        ? host_f32(op, flush32(a), flush32(b), flush32(c), r)
                                        : host_f32(op, a, b, c, r);
                    uint32_t got = lib_f32(op, a, b, c, r, fl);
                    if (isnan(bitsf(want)))
                        want = CNAN;
                    if ((fl & FP_FTZ) &&
                        tiny_after_rounding(op, flush32(a), flush32(b), flush32(c), r))
                        want &= 0x80000000u;
                    if (fl & FP_FTZ)
                        want = flush32(want);
                    if (fl & FP_SAT)
                        want = sat32(want);
                    n++;
                    if (got != want && fails++ < 10)
                        fprintf(stderr, "f32 %s mode %d flags %u (%08x, %08x, %08x): got %08x "
                                "want %08x\n", op_names[op], r, fl, a, b, c, got, want);
                }
    }
    CHECK_MSG(fails == 0, "%d of %ld f32 .ftz/.sat results differ", fails, n);
}

static void sweep_f64_arith(void)
{
    int fails = 0;
    long n = 0;
    for (int i = 0; i < 30000; i++) {
        uint64_t a = rand_f64(), b = rng() % 4 ? rand_f64() : near_f64(a), c = rand_f64();
        uint64_t in[3];
        if (rng() % 3 == 0)
            c = near_f64(dbits(-(bitsd(a) * bitsd(b))));
        in[0] = a;
        in[1] = b;
        in[2] = c;
        for (int op = 0; op < N_OPS; op++)
            for (int r = 0; r < 4; r++) {
                uint64_t want = host_f64(op, a, b, c, r), got = lib_f64(op, a, b, c, r);
                if (isnan(bitsd(want))) {
                    /* operand priority measured on sm_90: the first NaN in
                     * this list, quietened; a generated NaN is canonical */
                    static const int prio[N_OPS][3] = {{1, 0, -1}, {1, 0, -1}, {1, 0, -1},
                                                       {0, 1, -1}, {1, 2, 0},  {0, -1, -1}};
                    want = D_CNAN;
                    for (int k = 2; k >= 0; k--)
                        if (prio[op][k] >= 0 && isnan(bitsd(in[prio[op][k]])))
                            want = in[prio[op][k]] | 1ull << 51;
                }
                n++;
                if (got != want && fails++ < 10)
                    fprintf(stderr, "f64 %s mode %d (%016" PRIx64 ", %016" PRIx64 ", %016" PRIx64
                            "): got %016" PRIx64 " want %016" PRIx64 "\n", op_names[op], r, a,
                            b, c, got, want);
            }
    }
    CHECK_MSG(fails == 0, "%d of %ld f64 results differ from the host FPU", fails, n);
}

static uint32_t rand16(int ebits, int mbits)
{
    uint64_t x = rng();
    uint32_t h = (uint32_t)(x >> 40) & 0xffff;
    if (x % 3 == 0) { /* exponent near the middle of the range */
        int bias = (1 << (ebits - 1)) - 1;
        uint32_t e = (uint32_t)(bias - 6 + (int)((x >> 8) % 13));
        h = (h & (0x8000u | ((1u << mbits) - 1))) | e << mbits;
    }
    return h;
}

static void sweep_16_arith(fp_fmt f, int ebits, int mbits, uint32_t cnan)
{
    int fails = 0;
    long n = 0;
    for (int i = 0; i < 40000; i++) {
        uint32_t a = rand16(ebits, mbits), b = rand16(ebits, mbits), c = rand16(ebits, mbits);
        double va = val16(a, ebits, mbits), vb = val16(b, ebits, mbits),
               vc = val16(c, ebits, mbits);
        if (i % 4 == 0)
            b = a ^ (uint32_t)(rng() & 3) ^ 0x8000u;
        vb = val16(b, ebits, mbits);
        for (int op = OP_ADD; op <= OP_FMA; op++) {
            double x;
            if (op == OP_DIV)
                continue;
            x = host_round_to_odd(op, va, vb, vc);
            if (x == 0 && !isnan(va) && !isnan(vb) && !(op == OP_FMA && isnan(vc)))
                continue; /* exact zeros: the hand tests cover their signs */
            for (int r = 0; r < 4; r++) {
                uint32_t got = lib_16(op, a, b, c, f, r);
                uint32_t want = isnan(x) ? cnan : ref_round16(x, ebits, mbits, r);
                n++;
                if (got != want && fails++ < 10)
                    fprintf(stderr, "fmt %d %s mode %d (%04x, %04x, %04x): got %04x want %04x\n",
                            f, op_names[op], r, a, b, c, got, want);
            }
        }
    }
    CHECK_MSG(fails == 0, "%d of %ld 16-bit results differ from the reference", fails, n);
}

static void sweep_f16_arith(void) { sweep_16_arith(FP_F16, 5, 10, FP16_CANONICAL_NAN); }
static void sweep_bf16_arith(void) { sweep_16_arith(FP_BF16, 8, 7, BF16_CANONICAL_NAN); }

/* A NaN converted to or from f64 (as an sm_90 GPU does it): sign and the top
 * fraction bits kept, quietened.  ebits/mbits describe source and
 * destination. */
static uint64_t ref_nan_f64(uint64_t x, int se, int sm, int de, int dm)
{
    uint64_t sign = (x >> (se + sm)) & 1, frac = x & ((1ull << sm) - 1);
    frac = dm >= sm ? frac << (dm - sm) : frac >> (sm - dm);
    return sign << (de + dm) | ((1ull << de) - 1) << dm | 1ull << (dm - 1) | frac;
}

/* tf32 rounding by the usual bit trick on the f32 pattern */
static uint32_t ref_tf32(uint32_t x, int r)
{
    uint32_t low = x & 0x1fffu, t = x & ~0x1fffu;
    int neg = (x >> 31) != 0, up = 0;
    if (isnan(bitsf(x)))
        return r == FP_RNA ? x & ~0x1fffu : 0x7fffe000u; /* as on sm_90 */
    switch (r) {
    case FP_RN: up = low > 0x1000u || (low == 0x1000u && (t & 0x2000u)); break;
    case FP_RZ: up = 0; break;
    case FP_RM: up = low && neg; break;
    case FP_RP: up = low && !neg; break;
    case FP_RNA: up = low >= 0x1000u; break;
    }
    return up ? t + 0x2000u : t;
}

static void sweep_cvt_float(void)
{
    int fails = 0;
    long n = 0;
#define CVT_CHECK(got, want, what)                                                         \
    do {                                                                                   \
        uint64_t g_ = (got), w_ = (want);                                                  \
        n++;                                                                               \
        if (g_ != w_ && fails++ < 10)                                                      \
            fprintf(stderr, "%s: got %" PRIx64 " want %" PRIx64 "\n", what, g_, w_);       \
    } while (0)
    /* every f16 and bf16 pattern to every float format */
    for (uint32_t h = 0; h < 0x10000; h++) {
        double vf = val16(h, 5, 10), vb = val16(h, 8, 7);
        CVT_CHECK(fp_cvt_f2f(h, FP_F16, FP_F32, FP_RN, 0, 0),
                  isnan(vf) ? CNAN : fbits((float)vf), "f16->f32");
        CVT_CHECK(fp_cvt_f2f(h, FP_F16, FP_F64, FP_RZ, 0, 0),
                  isnan(vf) ? ref_nan_f64(h, 5, 10, 11, 52) : dbits(vf), "f16->f64");
        CVT_CHECK(fp_cvt_f2f(h, FP_BF16, FP_F32, FP_RN, 0, 0),
                  isnan(vb) ? (uint64_t)h << 16 : fbits((float)vb), "bf16->f32");
        CVT_CHECK(fp_cvt_f2f(h, FP_BF16, FP_F64, FP_RM, 0, 0),
                  isnan(vb) ? ref_nan_f64(h, 8, 7, 11, 52) : dbits(vb), "bf16->f64");
        for (int r = 0; r < 5; r++) {
            CVT_CHECK(fp_cvt_f2f(h, FP_F16, FP_BF16, (fp_rnd)r, 0, 0),
                      isnan(vf) ? BF16_CANONICAL_NAN : ref_round16(vf, 8, 7, r), "f16->bf16");
            CVT_CHECK(fp_cvt_f2f(h, FP_BF16, FP_F16, (fp_rnd)r, 0, 0),
                      isnan(vb) ? FP16_CANONICAL_NAN : ref_round16(vb, 5, 10, r), "bf16->f16");
            CVT_CHECK(fp_cvt_f2f(h, FP_F16, FP_F16, (fp_rnd)r, 0, 0),
                      isnan(vf) ? FP16_CANONICAL_NAN : h, "f16->f16");
        }
    }
    /* f32 and f64 to the 16-bit formats, f64 -> f32, f32 -> f64, f32 -> tf32 */
    for (int i = 0; i < 200000; i++) {
        uint32_t a = rand_f32();
        uint64_t d = rand_f64();
        if (i % 2) /* bring them near the 16-bit ranges */
            a = (a & 0x807fffffu) | (uint32_t)(95 + rng() % 60) << 23;
        if (i % 3 == 0)
            d = (d & 0x800fffffffffffffull) | (uint64_t)(850 + rng() % 350) << 52;
        CVT_CHECK(fp_cvt_f2f(a, FP_F32, FP_F64, FP_RN, 0, 0),
                  isnan(bitsf(a)) ? ref_nan_f64(a, 8, 23, 11, 52) : dbits((double)bitsf(a)),
                  "f32->f64");
        for (int r = 0; r < 5; r++) {
            double va = bitsf(a), vd = bitsd(d);
            CVT_CHECK(fp_cvt_f2f(a, FP_F32, FP_F16, (fp_rnd)r, 0, 0),
                      isnan(va) ? FP16_CANONICAL_NAN : ref_round16(va, 5, 10, r), "f32->f16");
            CVT_CHECK(fp_cvt_f2f(a, FP_F32, FP_BF16, (fp_rnd)r, 0, 0),
                      isnan(va) ? BF16_CANONICAL_NAN : ref_round16(va, 8, 7, r), "f32->bf16");
            CVT_CHECK(fp_cvt_f2f(d, FP_F64, FP_F16, (fp_rnd)r, 0, 0),
                      isnan(vd) ? ref_nan_f64(d, 11, 52, 5, 10) : ref_round16(vd, 5, 10, r),
                      "f64->f16");
            CVT_CHECK(fp_cvt_f2f(d, FP_F64, FP_BF16, (fp_rnd)r, 0, 0),
                      isnan(vd) ? ref_nan_f64(d, 11, 52, 8, 7) : ref_round16(vd, 8, 7, r),
                      "f64->bf16");
            CVT_CHECK(fp_cvt_f2f(a, FP_F32, FP_TF32, (fp_rnd)r, 0, 0), ref_tf32(a, r),
                      "f32->tf32");
            if (r < 4) {
                volatile double vv = vd;
                volatile float vr;
                fesetround(host_modes[r]);
                vr = (float)vv;
                fesetround(FE_TONEAREST);
                CVT_CHECK(fp_cvt_f2f(d, FP_F64, FP_F32, (fp_rnd)r, 0, 0),
                          isnan(vd) ? ref_nan_f64(d, 11, 52, 8, 23) : fbits(vr), "f64->f32");
            }
        }
    }
#undef CVT_CHECK
    CHECK_MSG(fails == 0, "%d of %ld float conversions differ from the reference", fails, n);
}

/* Round to an integral value as libm does in each mode. */
static double ref_rint(double v, int r)
{
    switch (r) {
    case FP_RZ: return trunc(v);
    case FP_RM: return floor(v);
    case FP_RP: return ceil(v);
    default: return nearbyint(v); /* the default mode: ties to even */
    }
}

static uint64_t ref_f2i(double v, int src_f64, int bits, int sgn, int r)
{
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    double lo = sgn ? -ldexp(1.0, bits - 1) : 0.0, hi = ldexp(1.0, sgn ? bits - 1 : bits), x;
    if (isnan(v))
        return (src_f64 || bits == 64) ? 1ull << (bits - 1) : 0;
    x = ref_rint(v, r);
    if (x <= lo)
        return sgn ? (1ull << (bits - 1)) : 0; /* MININT, as a bit pattern */
    if (x >= hi)
        return sgn ? mask >> 1 : mask;
    return x < 0 ? (uint64_t)(int64_t)x & mask : (uint64_t)x;
}

static void sweep_cvt_int(void)
{
    static const int widths[4] = {8, 16, 32, 64};
    int fails = 0;
    long n = 0;
#define CVT_CHECK(got, want, what)                                                         \
    do {                                                                                   \
        uint64_t g_ = (got), w_ = (want);                                                  \
        n++;                                                                               \
        if (g_ != w_ && fails++ < 10)                                                      \
            fprintf(stderr, "%s (%d): got %" PRIx64 " want %" PRIx64 "\n", what, __LINE__, \
                    g_, w_);                                                               \
    } while (0)
    /* integral rounding, float -> float */
    for (uint32_t h = 0; h < 0x10000; h++)
        for (int r = 0; r < 4; r++) {
            double v = val16(h, 5, 10);
            CVT_CHECK(fp_cvt_f2f(h, FP_F16, FP_F16, (fp_rnd)r, 1, 0),
                      isnan(v) ? FP16_CANONICAL_NAN : ref_round16(ref_rint(v, r), 5, 10, 0),
                      "f16 rni");
        }
    for (int i = 0; i < 100000; i++) {
        uint32_t a = rand_f32();
        uint64_t d = rand_f64();
        if (i % 2) { /* values around the integers that matter */
            a = (a & 0x807fffffu) | (uint32_t)(120 + rng() % 70) << 23;
            d = (d & 0x800fffffffffffffull) | (uint64_t)(1015 + rng() % 60) << 52;
        }
        for (int r = 0; r < 4; r++) {
            double va = bitsf(a), vd = bitsd(d);
            CVT_CHECK(fp_cvt_f2f(a, FP_F32, FP_F32, (fp_rnd)r, 1, 0),
                      isnan(va) ? CNAN : fbits((float)ref_rint(va, r)), "f32 rni");
            CVT_CHECK(fp_cvt_f2f(d, FP_F64, FP_F64, (fp_rnd)r, 1, 0),
                      isnan(vd) ? d | 1ull << 51 : dbits(ref_rint(vd, r)), "f64 rni");
            for (int w = 0; w < 4; w++)
                for (int sgn = 0; sgn < 2; sgn++) {
                    CVT_CHECK(fp_cvt_f2i(a, FP_F32, widths[w], sgn, (fp_rnd)r, 0),
                              ref_f2i(va, 0, widths[w], sgn, r), "f32->int");
                    CVT_CHECK(fp_cvt_f2i(d, FP_F64, widths[w], sgn, (fp_rnd)r, 0),
                              ref_f2i(vd, 1, widths[w], sgn, r), "f64->int");
                }
        }
    }
    /* integer -> float */
    for (int i = 0; i < 100000; i++) {
        uint64_t x = rng() >> (rng() % 64);
        if (i % 2)
            x = ~x;
        for (int r = 0; r < 4; r++)
            for (int w = 2; w < 4; w++)
                for (int sgn = 0; sgn < 2; sgn++) {
                    int bits = widths[w];
                    uint64_t v = bits == 64 ? x : x & 0xffffffffu;
                    volatile int64_t vs = sgn ? (bits == 64 ? (int64_t)v
                                                            : (int64_t)(int32_t)(uint32_t)v)
                                              : 0;
                    volatile uint64_t vu = v;
                    volatile float vf;
                    volatile double vd, odd;
                    int inexact;
                    fesetround(host_modes[r]);
                    if (sgn) {
                        vf = (float)vs;
                        vd = (double)vs;
                    } else {
                        vf = (float)vu;
                        vd = (double)vu;
                    }
                    fesetround(FE_TONEAREST);
                    if (v == 0) { /* some compilers' u64 -> double gives -0 rounding down */
                        vf = 0;
                        vd = 0;
                    }
                    CVT_CHECK(fp_cvt_i2f(x, bits, sgn, FP_F32, (fp_rnd)r, 0), fbits(vf),
                              "int->f32");
                    CVT_CHECK(fp_cvt_i2f(x, bits, sgn, FP_F64, (fp_rnd)r, 0), dbits(vd),
                              "int->f64");
                    /* to the 16-bit formats through a round-to-odd double */
                    feclearexcept(FE_INEXACT);
                    fesetround(FE_TOWARDZERO);
                    if (sgn)
                        odd = (double)vs;
                    else
                        odd = (double)vu;
                    inexact = fetestexcept(FE_INEXACT);
                    fesetround(FE_TONEAREST);
                    {
                        double o = inexact ? bitsd(dbits(odd) | 1) : odd;
                        CVT_CHECK(fp_cvt_i2f(x, bits, sgn, FP_F16, (fp_rnd)r, 0),
                                  ref_round16(o, 5, 10, r), "int->f16");
                        CVT_CHECK(fp_cvt_i2f(x, bits, sgn, FP_BF16, (fp_rnd)r, 0),
                                  ref_round16(o, 8, 7, r), "int->bf16");
                    }
                }
    }
#undef CVT_CHECK
    CHECK_MSG(fails == 0, "%d of %ld integer conversions differ from the reference", fails, n);
}

/* ---- .approx functions against the ISA's error bounds ------------------------------------- */

static long double ulp_of(long double ref)
{
    int e;
    long double u;
    frexpl(ref, &e); /* ref = m 2^e, 0.5 <= |m| < 1 */
    u = ldexpl(1.0L, e - 24);
    return u < ldexpl(1.0L, -149) ? ldexpl(1.0L, -149) : u;
}

static float rand_uniform(double lo, double hi)
{
    return (float)(lo + (hi - lo) * ((double)(rng() >> 11) / 9007199254740992.0));
}

static void sweep_approx(void)
{
    int fails = 0;
    long n = 0;
#define BOUND(cond, what, x, got)                                                          \
    do {                                                                                   \
        n++;                                                                               \
        if (!(cond) && fails++ < 10)                                                       \
            fprintf(stderr, "%s(%a) = %a out of bounds\n", what, (double)(x), (double)(got)); \
    } while (0)
    for (int i = 0; i < 50000; i++) {
        for (unsigned fl = 0; fl <= FP_FTZ; fl++) {
            float x = rand_uniform(-2 * PI, 2 * PI), y = rand_uniform(-100 * PI, 100 * PI);
            float s = bitsf(fp32_sin_approx(fbits(x), fl)), c = bitsf(fp32_cos_approx(fbits(x), fl));
            BOUND(fabsl(s - sinl(x)) <= powl(2, -20.5L), "sin", x, s);
            BOUND(fabsl(c - cosl(x)) <= powl(2, -20.5L), "cos", x, c);
            s = bitsf(fp32_sin_approx(fbits(y), fl));
            c = bitsf(fp32_cos_approx(fbits(y), fl));
            BOUND(fabsl(s - sinl(y)) <= powl(2, -14.7L), "sin", y, s);
            BOUND(fabsl(c - cosl(y)) <= powl(2, -14.7L), "cos", y, c);

            /* lg2: absolute error 2^-22 on (0.5, 2), relative elsewhere */
            uint32_t pa = (uint32_t)(rng() % PINF); /* any positive finite */
            float p = bitsf(pa), q = rand_uniform(0.5, 2.0);
            long double ref = log2l(p);
            float g = bitsf(fp32_lg2_approx(pa, fl));
            if (!(fl && (pa & PINF) == 0))
                BOUND(p > 0.5f && p < 2.0f ? fabsl(g - ref) <= ldexpl(1, -22)
                                           : fabsl(g - ref) <= ldexpl(1, -22) * fabsl(ref),
                      "lg2", p, g);
            g = bitsf(fp32_lg2_approx(fbits(q), fl));
            BOUND(fabsl(g - log2l(q)) <= ldexpl(1, -22), "lg2", q, g);

            /* ex2: 2 ulp */
            x = rand_uniform(-152, 129);
            ref = exp2l(x);
            g = bitsf(fp32_ex2_approx(fbits(x), fl));
            if (ref < ldexpl(1, 128) && !(fl && ref < ldexpl(1, -126)))
                BOUND(fabsl(g - ref) <= 2 * ulp_of(ref), "ex2", x, g);

            /* tanh: relative 2^-11 */
            x = i % 3 ? rand_uniform(-10, 10) : bitsf((uint32_t)(rng() % 0x3a000000u));
            ref = tanhl(x);
            g = bitsf(fp32_tanh_approx(fbits(x), 0));
            BOUND(fabsl(g - ref) <= ldexpl(1, -11) * fabsl(ref), "tanh", x, g);

            /* rcp 1 ulp, sqrt 2^-23 relative, rsqrt 2^-22.9 relative */
            pa = (uint32_t)(rng() % PINF) | (rng() % 2 ? 0x80000000u : 0);
            if (fl && (pa & PINF) == 0)
                pa &= 0x80000000u;
            p = bitsf(pa);
            if (p != 0) {
                ref = 1.0L / p;
                g = bitsf(fp32_rcp_approx(pa, fl));
                if (fabsl(ref) < ldexpl(1, 128) && !(fl && fabsl(ref) < ldexpl(1, -126)))
                    BOUND(fabsl(g - ref) <= ulp_of(ref), "rcp", p, g);
            }
            p = fabsf(p);
            if (p != 0) {
                ref = sqrtl(p);
                g = bitsf(fp32_sqrt_approx(fbits(p), fl));
                BOUND(fabsl(g - ref) <= ldexpl(1, -23) * ref, "sqrt", p, g);
                ref = 1.0L / sqrtl(p);
                g = bitsf(fp32_rsqrt_approx(fbits(p), fl));
                BOUND(fabsl(g - ref) <= powl(2, -22.9L) * ref, "rsqrt", p, g);
            }

            /* div.approx: 2 ulp for |b| in [2^-126, 2^126]; div.full: 2 ulp */
            x = bitsf(((uint32_t)rng() & 0x807fffffu) | ONE) * ldexpf(1, (int)(rng() % 128) - 64);
            y = bitsf(((uint32_t)rng() & 0x807fffffu) | (uint32_t)(1 + rng() % 252) << 23);
            ref = (long double)x / y; /* |y| in [2^-126, 2^126): the bound's range */
            if ((fabsl(ref) >= ldexpl(1, -126) || !fl) && fabsl(ref) < ldexpl(1, 128)) {
                g = bitsf(fp32_div_approx(fbits(x), fbits(y), fl));
                BOUND(fabsl(g - ref) <= 2 * ulp_of(ref), "div.approx", y, g);
                g = bitsf(fp32_div_full(fbits(x), fbits(y), fl));
                BOUND(fabsl(g - ref) <= 2 * ulp_of(ref), "div.full", y, g);
            }
        }
        /* the gross f64 approximations keep about 21 bits */
        {
            uint64_t d = (rng() & 0x800fffffffffffffull) | (uint64_t)(24 + rng() % 2000) << 52;
            long double ref = 1.0L / bitsd(d & ~0xffffffffull);
            double g = bitsd(fp64_rcp_approx(d, FP_FTZ));
            BOUND(fabsl(g - ref) <= ldexpl(1, -20) * fabsl(ref), "rcp.f64", bitsd(d), g);
            d &= ~D_NZERO;
            ref = 1.0L / sqrtl(bitsd(d & ~0xffffffffull));
            g = bitsd(fp64_rsqrt_approx(d, FP_FTZ));
            BOUND(fabsl(g - ref) <= ldexpl(1, -20) * ref, "rsqrt.ftz.f64", bitsd(d), g);
            ref = 1.0L / sqrtl(bitsd(d));
            g = bitsd(fp64_rsqrt_approx(d, 0));
            BOUND(fabsl(g - ref) <= ldexpl(1, -51) * ref, "rsqrt.f64", bitsd(d), g);
        }
    }
#undef BOUND
    CHECK_MSG(fails == 0, "%d of %ld .approx results out of bounds", fails, n);
}

int main(void)
{
    RUN(test_f32_add);
    RUN(test_f32_ftz_sat);
    RUN(test_f32_mul);
    RUN(test_f32_fma);
    RUN(test_f32_div_sqrt_rcp);
    RUN(test_f32_minmax_misc);
    RUN(test_cmp_testp);
    RUN(test_f64);
    RUN(test_f16_bf16);
    RUN(test_approx_special);
    RUN(test_cvt_f2f);
    RUN(test_cvt_intrnd);
    RUN(test_cvt_f2i);
    RUN(test_cvt_i2f);
    RUN(sweep_f32_arith);
    RUN(sweep_f32_ftz_sat);
    RUN(sweep_f64_arith);
    RUN(sweep_f16_arith);
    RUN(sweep_bf16_arith);
    RUN(sweep_cvt_float);
    RUN(sweep_cvt_int);
    RUN(sweep_approx);
    return test_summary();
}
