/*
 * fpmath.h -- PTX floating-point semantics on raw bit patterns.
 *
 * Every function takes and returns IEEE bit patterns (uint16_t for f16/bf16
 * held in the low bits of a uint32_t, uint32_t for f32, uint64_t for f64),
 * never host floats, so the interpreter can call them on register contents
 * directly and the results are the same on every host.
 *
 * What the functions model (the PTX ISA's rules, checked against a real GPU
 * by tests/conformance):
 *   - rounding modes .rn .rz .rm .rp (and .rna for conversions), correctly
 *     rounded for add/sub/mul/fma/div.rnd/sqrt.rnd/rcp.rnd and conversions;
 *   - .ftz: subnormal inputs and results of f32 operations become zero of
 *     the same sign (a result counts as subnormal when it is below 2^-126
 *     after rounding with an unbounded exponent, IEEE's "tininess after
 *     rounding", as measured on an sm_90 GPU);
 *   - .sat: results clamped to [0.0, 1.0], NaN becoming +0.0;
 *   - NaN results are the canonical NaN FP32_CANONICAL_NAN / FP64_... ,
 *     except that f64 operations return a NaN operand, quietened (the ISA:
 *     "NaN payloads are supported for double-precision instructions"; which
 *     operand wins and how conversions carry NaNs follow measurements on an
 *     sm_90 GPU, see fpmath.c);
 *   - min/max return the non-NaN operand when one is NaN (or NaN with
 *     FP_MINMAX_NAN), and order -0.0 below +0.0;
 *   - .approx functions within the PTX ISA's documented error bounds;
 *   - float -> integer conversions saturate; NaN converts to 0, or to
 *     1 << (bits - 1) when the source is f64 or the destination 64-bit
 *     (the ISA's cvt Integer Notes).
 *
 * The interpreter calls the plain C operators itself for the common case
 * (round-to-nearest, no ftz, no sat, no NaN involved; f32 rcp, sqrt and
 * rsqrt through double where the result is a normal number) and these
 * functions for everything else, so they favour exactness over speed.  Its
 * host operations run in the default IEEE environment that every launch
 * sets up (hostfp.h), whatever the CUDA program's host code chose.
 */
#ifndef LOCKSTEP_FPMATH_H
#define LOCKSTEP_FPMATH_H

#include <math.h>
#include <stdint.h>

#define FP32_CANONICAL_NAN 0x7fffffffu
#define FP64_CANONICAL_NAN 0xfff8000000000000ull /* what an sm_90 GPU generates */
#define FP16_CANONICAL_NAN 0x7fffu
#define BF16_CANONICAL_NAN 0x7fffu

typedef enum fp_rnd {
    FP_RN = 0, /* nearest, ties to even (the default) */
    FP_RZ,     /* toward zero */
    FP_RM,     /* toward -inf */
    FP_RP,     /* toward +inf */
    FP_RNA     /* nearest, ties away from zero (cvt.rna only) */
} fp_rnd;

/* Modifier flags, or'ed together. */
enum {
    FP_FTZ = 1u << 0, /* .ftz */
    FP_SAT = 1u << 1, /* .sat */
    FP_MINMAX_NAN = 1u << 2, /* min/max .NaN: a NaN operand gives NaN */
    FP_XORSIGN_ABS = 1u << 3 /* min/max .xorsign.abs (f32, f16, bf16) */
};

/* <math.h> owns FP_NAN (an fpclassify() result, 0 in glibc), so the .NaN flag
 * cannot have that name, and `flags |= FP_NAN` would compile and do nothing.
 * Files that include this header therefore cannot use the name at all: it is
 * poisoned (glibc's fpclassify() still works: macros defined before the
 * poisoning are exempt, and glibc's enumerator FP_NAN remains).  Test NaNs
 * with isnan(). */
#undef FP_NAN
#pragma GCC poison FP_NAN

/* Floating formats, for conversions and the 16-bit arithmetic. */
typedef enum fp_fmt { FP_F16, FP_BF16, FP_TF32, FP_F32, FP_F64 } fp_fmt;

/* setp/set comparison operators on floats. */
typedef enum fp_cmp {
    FPC_EQ, FPC_NE, FPC_LT, FPC_LE, FPC_GT, FPC_GE, /* ordered: false if either is NaN */
    FPC_EQU, FPC_NEU, FPC_LTU, FPC_LEU, FPC_GTU, FPC_GEU, /* unordered: true if either is NaN */
    FPC_NUM, /* neither is NaN */
    FPC_NAN  /* either is NaN */
} fp_cmp;

/* testp operators. */
typedef enum fp_test {
    FPT_FINITE, FPT_INFINITE, FPT_NUMBER, FPT_NOTANUMBER, FPT_NORMAL, FPT_SUBNORMAL
} fp_test;

/* ---- f32 ---------------------------------------------------------------- */
uint32_t fp32_add(uint32_t a, uint32_t b, fp_rnd r, unsigned flags);
uint32_t fp32_sub(uint32_t a, uint32_t b, fp_rnd r, unsigned flags);
uint32_t fp32_mul(uint32_t a, uint32_t b, fp_rnd r, unsigned flags);
uint32_t fp32_fma(uint32_t a, uint32_t b, uint32_t c, fp_rnd r, unsigned flags); /* also mad.f32 */
uint32_t fp32_div(uint32_t a, uint32_t b, fp_rnd r, unsigned flags);  /* div.rnd.f32 */
uint32_t fp32_div_full(uint32_t a, uint32_t b, unsigned flags);       /* div.full.f32 */
uint32_t fp32_div_approx(uint32_t a, uint32_t b, unsigned flags);     /* div.approx.f32 */
uint32_t fp32_rcp(uint32_t a, fp_rnd r, unsigned flags);              /* rcp.rnd.f32 */
uint32_t fp32_sqrt(uint32_t a, fp_rnd r, unsigned flags);             /* sqrt.rnd.f32 */
uint32_t fp32_rcp_approx(uint32_t a, unsigned flags);
uint32_t fp32_sqrt_approx(uint32_t a, unsigned flags);
uint32_t fp32_rsqrt_approx(uint32_t a, unsigned flags);
uint32_t fp32_sin_approx(uint32_t a, unsigned flags);
uint32_t fp32_cos_approx(uint32_t a, unsigned flags);
uint32_t fp32_lg2_approx(uint32_t a, unsigned flags);
uint32_t fp32_ex2_approx(uint32_t a, unsigned flags);
uint32_t fp32_tanh_approx(uint32_t a, unsigned flags);
uint32_t fp32_min(uint32_t a, uint32_t b, unsigned flags);
uint32_t fp32_max(uint32_t a, uint32_t b, unsigned flags);
uint32_t fp32_abs(uint32_t a, unsigned flags);
uint32_t fp32_neg(uint32_t a, unsigned flags);
uint32_t fp32_copysign(uint32_t a, uint32_t b); /* PTX: b's magnitude with a's sign */
int fp32_cmp(uint32_t a, uint32_t b, fp_cmp c, unsigned flags);
int fp32_testp(uint32_t a, fp_test t);

/* ---- f64 (flags: FP_FTZ only where PTX allows it, e.g. rcp.approx.ftz.f64) ---- */
uint64_t fp64_add(uint64_t a, uint64_t b, fp_rnd r);
uint64_t fp64_sub(uint64_t a, uint64_t b, fp_rnd r);
uint64_t fp64_mul(uint64_t a, uint64_t b, fp_rnd r);
uint64_t fp64_fma(uint64_t a, uint64_t b, uint64_t c, fp_rnd r);
uint64_t fp64_div(uint64_t a, uint64_t b, fp_rnd r);
uint64_t fp64_rcp(uint64_t a, fp_rnd r);
uint64_t fp64_sqrt(uint64_t a, fp_rnd r);
uint64_t fp64_rcp_approx(uint64_t a, unsigned flags);   /* rcp.approx.ftz.f64 */
uint64_t fp64_rsqrt_approx(uint64_t a, unsigned flags); /* rsqrt.approx{.ftz}.f64 */
uint64_t fp64_min(uint64_t a, uint64_t b, unsigned flags);
uint64_t fp64_max(uint64_t a, uint64_t b, unsigned flags);
uint64_t fp64_abs(uint64_t a);
uint64_t fp64_neg(uint64_t a);
uint64_t fp64_copysign(uint64_t a, uint64_t b);
int fp64_cmp(uint64_t a, uint64_t b, fp_cmp c);
int fp64_testp(uint64_t a, fp_test t);

/* ---- f16 / bf16 scalars (the interpreter splits f16x2/bf16x2 into halves) ---- */
uint32_t fp16_add(uint32_t a, uint32_t b, fp_fmt f, fp_rnd r, unsigned flags);
uint32_t fp16_sub(uint32_t a, uint32_t b, fp_fmt f, fp_rnd r, unsigned flags);
uint32_t fp16_mul(uint32_t a, uint32_t b, fp_fmt f, fp_rnd r, unsigned flags);
uint32_t fp16_fma(uint32_t a, uint32_t b, uint32_t c, fp_fmt f, fp_rnd r, unsigned flags);
uint32_t fp16_min(uint32_t a, uint32_t b, fp_fmt f, unsigned flags);
uint32_t fp16_max(uint32_t a, uint32_t b, fp_fmt f, unsigned flags);
uint32_t fp16_neg(uint32_t a, fp_fmt f, unsigned flags);
uint32_t fp16_abs(uint32_t a, fp_fmt f, unsigned flags);
int fp16_cmp(uint32_t a, uint32_t b, fp_fmt f, fp_cmp c, unsigned flags);

/* ---- conversions (cvt) ----
 * Values travel as uint64_t bit patterns in the low bits.  Integer operands
 * are described by (bits, is_signed) with bits in {8,16,32,64}; an integer
 * source is taken from the low `bits` bits, an integer result is returned
 * truncated to `bits` bits (no sign extension: the caller extends).
 *
 * fp_cvt_f2f: float -> float. `r` rounds when narrowing; when `intrnd` is
 *   non-zero the value is also rounded to an integral value in mode `r`
 *   (cvt.rni/rzi/rmi/rpi with float source and destination).  FP_FTZ,
 *   FP_SAT as PTX defines for cvt.  NaN gives the destination's canonical
 *   NaN, except through f64, bf16 -> f32 and tf32 (see cvt_nan() in fpmath.c).
 * fp_cvt_f2i: float -> integer, rounding with `r` (the .rni/.rzi/.rmi/.rpi
 *   modes), saturating to the integer range, NaN as described above.
 * fp_cvt_i2f: integer -> float rounding with `r`; FP_SAT clamps to [0,1].
 */
uint64_t fp_cvt_f2f(uint64_t a, fp_fmt from, fp_fmt to, fp_rnd r, int intrnd, unsigned flags);
uint64_t fp_cvt_f2i(uint64_t a, fp_fmt from, int bits, int is_signed, fp_rnd r, unsigned flags);
uint64_t fp_cvt_i2f(uint64_t a, int bits, int is_signed, fp_fmt to, fp_rnd r, unsigned flags);

#endif
