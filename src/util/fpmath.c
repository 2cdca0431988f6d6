/*
 * fpmath.c -- PTX floating-point arithmetic, conversions and comparisons,
 * done in software on raw IEEE bit patterns (the interface is fpmath.h).
 *
 * DESIGN.  Every format -- f16, bf16, tf32, f32, f64, and the 1.11.20 upper
 * word of an f64 that rcp/rsqrt.approx.ftz.f64 work on -- is one fpfmt
 * record, and every operation is written once for all of them:
 *
 *   unpack()      bits -> class (zero, finite, inf, NaN), sign, and an
 *                 integer significand `sig` with exponent `exp`;
 *   *_core()      exact integer add / mul / fma / div / sqrt on those.  The
 *                 result is either exact or exact up to a "sticky" bit
 *                 jammed into bit 0, far below the rounding position, which
 *                 records that something non-zero was shifted out;
 *   round_pack()  the single rounding step: correctly rounded in any fp_rnd,
 *                 gradual underflow, overflow to inf or to the largest
 *                 finite value as the rounding direction requires, and
 *                 .ftz's flush of tiny results;
 *   finish()      .ftz on results that bypass rounding, then .sat.
 *
 * Nothing depends on the host's rounding mode, FTZ/DAZ state or evaluation
 * precision, so results are bit-identical on every host and no compiler
 * flag (-frounding-math) is needed.  Only the .approx transcendentals (sin,
 * cos, lg2, ex2, tanh) call the host libm in double precision and round the
 * result to f32: far inside the PTX ISA's error bounds (within a few ulp of
 * what the GPU's function unit gives), but libm implementations could differ
 * in rare last-bit cases.
 *
 * Every operation except those transcendentals and the rsqrt/rcp/div .approx
 * functions was compared bit for bit with an H100 (sm_90) on special values
 * and random operands in every rounding mode, and agrees.
 *
 * Where the PTX ISA is silent or vague, the rules follow what an sm_90 GPU
 * (H100) was measured to do; each is kept in one place so the conformance
 * suite can adjust it: FP64_NAN_PAYLOADS and nan_result() (f64 NaN payloads
 * and which operand's NaN wins), cvt_nan() (NaNs through conversions),
 * nan_to_int(), saturate(), round_pack()'s .ftz tininess test (IEEE "after
 * rounding": a result that rounds to 2^emin with unbounded exponent range is
 * kept), fp32_sincos() (the argument reduction of sin/cos.approx) and
 * fp32_div_approx().
 */
#include "util/fpmath.h"

#include <math.h>
#include <string.h>

/* The PTX ISA says double-precision instructions support NaN payloads: an
 * f64 operation with a NaN operand returns that NaN, quietened (which one,
 * when several are NaN: see nan_result()).  Set to 0 to make every f64 NaN
 * result FP64_CANONICAL_NAN instead.  NaNs an operation creates (inf - inf,
 * 0 * inf, sqrt(-1)) are canonical either way. */
#define FP64_NAN_PAYLOADS 1

/* rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 map every NaN to this. */
#define FP64_APPROX_FTZ_NAN 0x7fffffff00000000ull

/* ---- formats -------------------------------------------------------------- */

typedef struct fpfmt {
    int ebits;    /* exponent field width */
    int mbits;    /* stored fraction width */
    int pad;      /* always-zero bits below the fraction (tf32 in an f32 container) */
    uint64_t nan; /* canonical NaN */
} fpfmt;

static const fpfmt FMTS[] = {
    [FP_F16] = {5, 10, 0, FP16_CANONICAL_NAN},
    [FP_BF16] = {8, 7, 0, BF16_CANONICAL_NAN},
    [FP_TF32] = {8, 10, 13, FP32_CANONICAL_NAN & ~0x1fffull},
    [FP_F32] = {8, 23, 0, FP32_CANONICAL_NAN},
    [FP_F64] = {11, 52, 0, FP64_CANONICAL_NAN},
};
/* The upper 32 bits of an f64 read as a float with a 20-bit fraction. */
static const fpfmt F64HI = {11, 20, 0, FP64_APPROX_FTZ_NAN >> 32};

#define F32 (&FMTS[FP_F32])
#define F64 (&FMTS[FP_F64])

static const fpfmt *fmt_of(fp_fmt f) { return (unsigned)f <= FP_F64 ? &FMTS[f] : F32; }

static int width(const fpfmt *f) { return 1 + f->ebits + f->mbits + f->pad; }
static uint64_t sign_bit(const fpfmt *f) { return 1ull << (width(f) - 1); }
static uint64_t all_bits(const fpfmt *f) { return sign_bit(f) | (sign_bit(f) - 1); }
static int bias(const fpfmt *f) { return (1 << (f->ebits - 1)) - 1; }
static unsigned emask(const fpfmt *f) { return (1u << f->ebits) - 1; }

static unsigned exp_field(const fpfmt *f, uint64_t x)
{
    return (unsigned)(x >> (f->mbits + f->pad)) & emask(f);
}

static uint64_t frac_field(const fpfmt *f, uint64_t x)
{
    return (x >> f->pad) & ((1ull << f->mbits) - 1);
}

static uint64_t pack(const fpfmt *f, int sign, uint64_t e, uint64_t frac)
{
    return (sign ? sign_bit(f) : 0) | e << (f->mbits + f->pad) | frac << f->pad;
}

static uint64_t zero(const fpfmt *f, int sign) { return pack(f, sign, 0, 0); }
static uint64_t inf(const fpfmt *f, int sign) { return pack(f, sign, emask(f), 0); }
static uint64_t one(const fpfmt *f) { return pack(f, 0, (uint64_t)bias(f), 0); }

static uint64_t max_finite(const fpfmt *f, int sign)
{
    return pack(f, sign, emask(f) - 1, (1ull << f->mbits) - 1);
}

static int is_nan(const fpfmt *f, uint64_t x)
{
    return exp_field(f, x) == emask(f) && frac_field(f, x) != 0;
}

static int is_subnormal(const fpfmt *f, uint64_t x)
{
    return exp_field(f, x) == 0 && frac_field(f, x) != 0;
}

/* A subnormal becomes the zero of the same sign (.ftz). */
static uint64_t flush(const fpfmt *f, uint64_t x)
{
    return is_subnormal(f, x) ? x & sign_bit(f) : x;
}

/* ---- integer helpers -------------------------------------------------------- */

static int msb64(uint64_t x) { return 63 - __builtin_clzll(x); } /* x != 0 */

/* x >> n, with any bits shifted out OR'ed into bit 0 ("jammed"). */
static uint64_t shr_jam(uint64_t x, int n)
{
    if (n == 0)
        return x;
    if (n >= 64)
        return x != 0;
    return x >> n | (x << (64 - n) != 0);
}

typedef struct u128 {
    uint64_t hi, lo;
} u128;

static u128 mul64x64(uint64_t a, uint64_t b)
{
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    u128 r = {hh + (lh >> 32) + (hl >> 32) + (mid >> 32), mid << 32 | (ll & 0xffffffffu)};
    return r;
}

static int msb128(u128 x) { return x.hi ? 64 + msb64(x.hi) : msb64(x.lo); } /* x != 0 */

static int lt128(u128 a, u128 b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }

static u128 add128(u128 a, u128 b)
{
    u128 r = {a.hi + b.hi, a.lo + b.lo};
    r.hi += r.lo < a.lo;
    return r;
}

static u128 sub128(u128 a, u128 b) /* a >= b */
{
    u128 r = {a.hi - b.hi - (a.lo < b.lo), a.lo - b.lo};
    return r;
}

static u128 shl128(u128 x, int n) /* 0 <= n < 128, no bits lost */
{
    u128 r;
    if (n == 0)
        return x;
    if (n >= 64) {
        r.hi = x.lo << (n - 64);
        r.lo = 0;
    } else {
        r.hi = x.hi << n | x.lo >> (64 - n);
        r.lo = x.lo << n;
    }
    return r;
}

static u128 shr128_jam(u128 x, int n) /* n >= 0 */
{
    u128 r = {0, 0};
    uint64_t lost;
    if (n == 0)
        return x;
    if (n < 64) {
        r.lo = x.lo >> n | x.hi << (64 - n);
        r.hi = x.hi >> n;
        lost = x.lo << (64 - n);
    } else if (n == 64) {
        r.lo = x.hi;
        lost = x.lo;
    } else if (n < 128) {
        r.lo = x.hi >> (n - 64);
        lost = x.lo | x.hi << (128 - n);
    } else {
        lost = x.lo | x.hi;
    }
    r.lo |= lost != 0;
    return r;
}

/* ---- unpacking and the one rounding step ------------------------------------- */

enum { K_ZERO, K_FIN, K_INF, K_NAN };

/* An unpacked value; for K_FIN it is (-1)^sign * sig * 2^exp, sig != 0. */
typedef struct num {
    int k, sign, exp;
    uint64_t sig;
} num;

static num unpack(const fpfmt *f, uint64_t x, int ftz)
{
    num n = {K_FIN, 0, 0, 0};
    unsigned e = exp_field(f, x);
    uint64_t m = frac_field(f, x);
    n.sign = (x & sign_bit(f)) != 0;
    if (e == emask(f)) {
        n.k = m ? K_NAN : K_INF;
    } else if (e == 0 && (m == 0 || ftz)) {
        n.k = K_ZERO;
    } else if (e == 0) {
        n.sig = m;
        n.exp = 1 - bias(f) - f->mbits;
    } else {
        n.sig = m | 1ull << f->mbits;
        n.exp = (int)e - bias(f) - f->mbits;
    }
    return n;
}

/*
 * Round sig * 2^exp to a multiple of 2^lsb in mode r and return the
 * multiple; `sign` is the value's sign, which decides .rm and .rp.  The bits
 * below the rounding position matter only through how they compare with one
 * half, which is why a sticky bit jammed into bit 0 stands for any non-zero
 * tail, provided it lies at least two places below the rounding position.
 */
static uint64_t round_at(uint64_t sig, int exp, int lsb, int sign, fp_rnd r)
{
    int sh = lsb - exp;
    uint64_t kept, rem, half;
    if (sh <= 0)
        return sig << -sh; /* already a multiple; the callers keep it in range */
    if (sh > 64) {         /* all of sig is below one half: encode "0 < rem < half" */
        kept = 0;
        rem = 1;
        half = 2;
    } else if (sh == 64) {
        kept = 0;
        rem = sig;
        half = 1ull << 63;
    } else {
        kept = sig >> sh;
        rem = sig & ((1ull << sh) - 1);
        half = 1ull << (sh - 1);
    }
    if (rem == 0)
        return kept;
    switch (r) {
    case FP_RN: return kept + (rem > half || (rem == half && (kept & 1)));
    case FP_RNA: return kept + (rem >= half);
    case FP_RZ: return kept;
    case FP_RM: return kept + (sign != 0);
    case FP_RP: return kept + (sign == 0);
    }
    return kept;
}

/* The result of an overflow: inf, or the largest finite value when rounding
 * toward zero (or toward the other infinity). */
static uint64_t overflow(const fpfmt *f, int sign, fp_rnd r)
{
    int to_inf = r == FP_RN || r == FP_RNA || (r == FP_RM && sign) || (r == FP_RP && !sign);
    return to_inf ? inf(f, sign) : max_finite(f, sign);
}

/* Round (-1)^sign * sig * 2^exp (sig != 0, possibly sticky-jammed) into f.
 * With ftz, a tiny result becomes a signed zero; "tiny" is IEEE 754's test
 * after rounding: below 2^emin once rounded to p bits with an unbounded
 * exponent, which is what the GPU does (2^emin (1 - 2^-(p+1)) rounds up to
 * 2^emin in .rn and is kept; 2^emin (1 - 2^-p) is exact, tiny, flushed). */
static uint64_t round_pack(const fpfmt *f, int sign, int exp, uint64_t sig, fp_rnd r, int ftz)
{
    int p = f->mbits + 1, emin = 1 - bias(f);
    int e = exp + msb64(sig); /* exponent of the leading bit */
    int lsb, be;
    uint64_t m;
    if (e > bias(f))
        return overflow(f, sign, r);
    if (ftz && e < emin &&
        (e < emin - 1 || !(round_at(sig, exp, e - (p - 1), sign, r) >> p)))
        return zero(f, sign);
    /* Normal numbers keep p bits; below emin the last bit stays at emin's. */
    lsb = (e > emin ? e : emin) - (p - 1);
    m = round_at(sig, exp, lsb, sign, r);
    if (m >> p) { /* rounded up to the next power of two */
        m >>= 1;
        lsb++;
    }
    if (m == 0)
        return zero(f, sign);
    if (!(m >> (p - 1)))
        return pack(f, sign, 0, m); /* subnormal */
    be = lsb + (p - 1) + bias(f);
    if (be >= (int)emask(f))
        return overflow(f, sign, r);
    return pack(f, sign, (uint64_t)be, m & ((1ull << (p - 1)) - 1));
}

/* .sat: clamp to [+0.0, 1.0]; NaN, negative values and -0.0 give +0.0. */
static uint64_t saturate(const fpfmt *f, uint64_t x)
{
    if (is_nan(f, x) || (x & sign_bit(f)))
        return 0;
    return x > one(f) ? one(f) : x; /* non-negative bit patterns order like values */
}

/* Apply the result modifiers: .ftz flushes a subnormal result (round_pack()
 * has already flushed the tiny ones it rounded), then .sat clamps. */
static uint64_t finish(const fpfmt *f, uint64_t x, unsigned flags)
{
    if (flags & FP_FTZ)
        x = flush(f, x);
    if (flags & FP_SAT)
        x = saturate(f, x);
    return x;
}

/* Which operand's NaN an f64 operation returns when several are NaN, as
 * measured on sm_90: add, sub, mul, min and max take the second operand's,
 * fma b's, then c's, then a's; div and the one-operand operations the first. */
static const int NAN_BA[] = {1, 0}, NAN_AB[] = {0, 1}, NAN_FMA[] = {1, 2, 0};

/* The NaN an operation returns when some operand is a NaN: for f64 the first
 * NaN operand in `order`, quietened (see FP64_NAN_PAYLOADS); otherwise the
 * canonical NaN. */
static uint64_t nan_result(const fpfmt *f, const num *v, const uint64_t *raw, const int *order,
                           int n)
{
#if FP64_NAN_PAYLOADS
    if (f == F64)
        for (int i = 0; i < n; i++)
            if (v[order[i]].k == K_NAN)
                return raw[order[i]] | 1ull << 51;
#endif
    (void)v;
    (void)raw;
    (void)order;
    (void)n;
    return f->nan;
}

/*
 * The result of converting the NaN x (as measured on sm_90): a conversion to
 * or from f64 keeps the sign and the top fraction bits, quietened; bf16 ->
 * f32 just widens the bit pattern (a signalling NaN stays one); cvt.rna.tf32
 * keeps the top fraction bits unquietened (so a NaN whose payload is all in
 * the low bits becomes an infinity); otherwise the canonical NaN of fo.
 * With .ftz an f32 NaN operand is made canonical first, and an f32 result
 * from a 16-bit format is canonical.
 */
static uint64_t cvt_nan(const fpfmt *fo, const fpfmt *fi, uint64_t x, fp_rnd r, int ftz)
{
    int sign;
    uint64_t frac;
    if (ftz && fi == F32)
        x = FP32_CANONICAL_NAN;
    if (ftz && fo == F32 && fi != F64)
        return fo->nan;
    sign = (x & sign_bit(fi)) != 0;
    frac = frac_field(fi, x);
    if (fo->mbits >= fi->mbits)
        frac <<= fo->mbits - fi->mbits;
    else
        frac >>= fi->mbits - fo->mbits;
    if (fo == F64 || fi == F64)
        return pack(fo, sign, emask(fo), frac | 1ull << (fo->mbits - 1));
    if ((fi == &FMTS[FP_BF16] && fo == F32) || (fo == &FMTS[FP_TF32] && r == FP_RNA))
        return pack(fo, sign, emask(fo), frac);
    return fo->nan;
}

/* Convert x between formats, rounding with r. */
static uint64_t convert(const fpfmt *fo, const fpfmt *fi, uint64_t x, fp_rnd r, int ftz_in,
                        int ftz)
{
    num v = unpack(fi, x, ftz_in);
    if (v.k == K_NAN)
        return cvt_nan(fo, fi, x, r, ftz_in || ftz);
    if (v.k == K_INF)
        return inf(fo, v.sign);
    if (v.k == K_ZERO)
        return zero(fo, v.sign);
    return round_pack(fo, v.sign, v.exp, v.sig, r, ftz);
}

/* ---- exact cores (finite, non-zero operands) ----------------------------------- */

/* Shift sig left so its leading bit is at `bit` (sig has at most 54 bits). */
static void norm_to(num *a, int bit)
{
    int s = bit - msb64(a->sig);
    a->sig <<= s;
    a->exp -= s;
}

/* A u128 significand narrowed to 64 bits with the bits shifted out jammed. */
static uint64_t narrow(u128 x, int *exp)
{
    int n;
    if (x.hi == 0)
        return x.lo;
    n = msb128(x) - 63;
    *exp += n;
    return shr128_jam(x, n).lo;
}

/* a + b.  Both significands are put at bit 62, the smaller one shifted right
 * with a jam: when that loses bits the exponents differ by two or more, so the
 * result keeps at least 61 bits and the sticky bit sits far below the rounding
 * position; when they differ by less, nothing is lost and cancellation is exact. */
static uint64_t add_core(const fpfmt *f, num a, num b, fp_rnd r, int ftz)
{
    uint64_t bs, s;
    norm_to(&a, 62);
    norm_to(&b, 62);
    if (a.exp < b.exp || (a.exp == b.exp && a.sig < b.sig)) { /* |a| >= |b| */
        num t = a;
        a = b;
        b = t;
    }
    bs = shr_jam(b.sig, a.exp - b.exp);
    s = a.sign == b.sign ? a.sig + bs : a.sig - bs;
    if (s == 0)
        return zero(f, r == FP_RM); /* exact cancellation: +0, or -0 rounding down */
    return round_pack(f, a.sign, a.exp, s, r, ftz);
}

/* a * b: the 128-bit product is exact, then narrowed with a jam. */
static uint64_t mul_core(const fpfmt *f, num a, num b, fp_rnd r, int ftz)
{
    int exp = a.exp + b.exp;
    uint64_t s = narrow(mul64x64(a.sig, b.sig), &exp);
    return round_pack(f, a.sign ^ b.sign, exp, s, r, ftz);
}

/* a * b + c with one rounding: the exact product and c are aligned at bit 125
 * of a 128-bit word, the same argument as add_core() applying. */
static uint64_t fma_core(const fpfmt *f, num a, num b, num c, fp_rnd r, int ftz)
{
    u128 p = mul64x64(a.sig, b.sig), q = {0, c.sig}, s;
    uint64_t m;
    int ep = a.exp + b.exp, eq = c.exp, sp = a.sign ^ b.sign, sq = c.sign, n;
    n = 125 - msb128(p);
    p = shl128(p, n);
    ep -= n;
    n = 125 - msb128(q);
    q = shl128(q, n);
    eq -= n;
    if (ep < eq || (ep == eq && lt128(p, q))) { /* |p| >= |q| */
        u128 t = p;
        int te = ep, ts = sp;
        p = q;
        q = t;
        ep = eq;
        eq = te;
        sp = sq;
        sq = ts;
    }
    q = shr128_jam(q, ep - eq);
    s = sp == sq ? add128(p, q) : sub128(p, q);
    if (s.hi == 0 && s.lo == 0)
        return zero(f, r == FP_RM);
    m = narrow(s, &ep); /* before ep is read: it adjusts ep */
    return round_pack(f, sp, ep, m, r, ftz);
}

/* a / b by restoring division: 64 quotient bits, the remainder as sticky. */
static uint64_t div_core(const fpfmt *f, num a, num b, fp_rnd r, int ftz)
{
    uint64_t rem, q = 0;
    norm_to(&a, 62);
    norm_to(&b, 62);
    rem = a.sig;
    for (int i = 0; i < 64; i++) { /* rem < b.sig < 2^63 before each shift */
        q <<= 1;
        if (rem >= b.sig) {
            rem -= b.sig;
            q |= 1;
        }
        rem <<= 1;
    }
    /* q = floor(a.sig / b.sig * 2^63) */
    return round_pack(f, a.sign ^ b.sign, a.exp - b.exp - 63, q | (rem != 0), r, ftz);
}

/* Bits j+1..j of sig, where bits below bit 0 are zero. */
static uint64_t bit_pair(uint64_t sig, int j)
{
    if (j >= 0)
        return (sig >> j) & 3;
    return j == -1 ? (sig << 1) & 3 : 0;
}

/* sqrt(a), a > 0, digit by digit: the radicand N = sig * 2^s is a 120-bit
 * integer (s making exp - s even), the root has 60 bits, the remainder is the
 * sticky bit.  rem stays below 2^63 throughout. */
static uint64_t sqrt_core(const fpfmt *f, num a, fp_rnd r, int ftz)
{
    uint64_t root = 0, rem = 0;
    int s;
    norm_to(&a, 62);
    s = a.exp % 2 == 0 ? 56 : 57;
    for (int i = 59; i >= 0; i--) {
        uint64_t trial;
        rem = rem << 2 | bit_pair(a.sig, 2 * i - s);
        trial = root << 2 | 1; /* (2 root + 1)^2 - (2 root)^2 */
        root <<= 1;
        if (rem >= trial) {
            rem -= trial;
            root |= 1;
        }
    }
    return round_pack(f, 0, (a.exp - s) / 2, root | (rem != 0), r, ftz);
}

/* ---- operations with the IEEE special cases ------------------------------------ */

static uint64_t op_add(const fpfmt *f, uint64_t a, uint64_t b, int neg_b, fp_rnd r,
                       unsigned flags)
{
    int ftz = (flags & FP_FTZ) != 0;
    num v[2] = {unpack(f, a, ftz), unpack(f, b, ftz)};
    uint64_t raw[2] = {a, b}, res;
    num x = v[0], y = v[1];
    y.sign ^= neg_b;
    if (x.k == K_NAN || y.k == K_NAN)
        res = nan_result(f, v, raw, NAN_BA, 2);
    else if (x.k == K_INF && y.k == K_INF)
        res = x.sign == y.sign ? inf(f, x.sign) : f->nan;
    else if (x.k == K_INF || y.k == K_INF)
        res = inf(f, x.k == K_INF ? x.sign : y.sign);
    else if (x.k == K_ZERO && y.k == K_ZERO)
        res = zero(f, x.sign == y.sign ? x.sign : r == FP_RM);
    else if (x.k == K_ZERO)
        res = round_pack(f, y.sign, y.exp, y.sig, r, ftz);
    else if (y.k == K_ZERO)
        res = round_pack(f, x.sign, x.exp, x.sig, r, ftz);
    else
        res = add_core(f, x, y, r, ftz);
    return finish(f, res, flags);
}

static uint64_t op_mul(const fpfmt *f, uint64_t a, uint64_t b, fp_rnd r, unsigned flags)
{
    int ftz = (flags & FP_FTZ) != 0;
    num v[2] = {unpack(f, a, ftz), unpack(f, b, ftz)};
    uint64_t raw[2] = {a, b}, res;
    int sign = v[0].sign ^ v[1].sign;
    if (v[0].k == K_NAN || v[1].k == K_NAN)
        res = nan_result(f, v, raw, NAN_BA, 2);
    else if (v[0].k == K_INF || v[1].k == K_INF)
        res = v[0].k == K_ZERO || v[1].k == K_ZERO ? f->nan : inf(f, sign);
    else if (v[0].k == K_ZERO || v[1].k == K_ZERO)
        res = zero(f, sign);
    else
        res = mul_core(f, v[0], v[1], r, ftz);
    return finish(f, res, flags);
}

static uint64_t op_fma(const fpfmt *f, uint64_t a, uint64_t b, uint64_t c, fp_rnd r,
                       unsigned flags)
{
    int ftz = (flags & FP_FTZ) != 0;
    num v[3] = {unpack(f, a, ftz), unpack(f, b, ftz), unpack(f, c, ftz)};
    uint64_t raw[3] = {a, b, c}, res;
    num x = v[0], y = v[1], z = v[2];
    int sp = x.sign ^ y.sign;
    if (x.k == K_NAN || y.k == K_NAN || z.k == K_NAN)
        res = nan_result(f, v, raw, NAN_FMA, 3);
    else if (x.k == K_INF || y.k == K_INF) {
        if (x.k == K_ZERO || y.k == K_ZERO || (z.k == K_INF && z.sign != sp))
            res = f->nan;
        else
            res = inf(f, sp);
    } else if (z.k == K_INF)
        res = inf(f, z.sign);
    else if (x.k == K_ZERO || y.k == K_ZERO) {
        if (z.k == K_ZERO)
            res = zero(f, z.sign == sp ? sp : r == FP_RM);
        else
            res = round_pack(f, z.sign, z.exp, z.sig, r, ftz);
    } else if (z.k == K_ZERO)
        res = mul_core(f, x, y, r, ftz);
    else
        res = fma_core(f, x, y, z, r, ftz);
    return finish(f, res, flags);
}

static uint64_t op_div(const fpfmt *f, uint64_t a, uint64_t b, fp_rnd r, unsigned flags)
{
    int ftz = (flags & FP_FTZ) != 0;
    num v[2] = {unpack(f, a, ftz), unpack(f, b, ftz)};
    uint64_t raw[2] = {a, b}, res;
    int sign = v[0].sign ^ v[1].sign;
    if (v[0].k == K_NAN || v[1].k == K_NAN)
        res = nan_result(f, v, raw, NAN_AB, 2);
    else if (v[0].k == K_INF)
        res = v[1].k == K_INF ? f->nan : inf(f, sign);
    else if (v[1].k == K_INF)
        res = zero(f, sign);
    else if (v[1].k == K_ZERO)
        res = v[0].k == K_ZERO ? f->nan : inf(f, sign);
    else if (v[0].k == K_ZERO)
        res = zero(f, sign);
    else
        res = div_core(f, v[0], v[1], r, ftz);
    return finish(f, res, flags);
}

static uint64_t op_sqrt(const fpfmt *f, uint64_t a, fp_rnd r, unsigned flags)
{
    int ftz = (flags & FP_FTZ) != 0;
    num v = unpack(f, a, ftz);
    uint64_t res;
    if (v.k == K_NAN)
        res = nan_result(f, &v, &a, NAN_AB, 1);
    else if (v.k == K_ZERO)
        res = zero(f, v.sign); /* sqrt(-0) = -0 */
    else if (v.sign)
        res = f->nan;
    else if (v.k == K_INF)
        res = inf(f, 0);
    else
        res = sqrt_core(f, v, r, ftz);
    return finish(f, res, flags);
}

/* ---- min, max, comparisons, tests ----------------------------------------------- */

/* A key ordering the non-NaN values of f, with -0 below +0 when zero_order. */
static int64_t order_key(const fpfmt *f, uint64_t x, int zero_order)
{
    int64_t mag = (int64_t)(x & (sign_bit(f) - 1));
    if (!(x & sign_bit(f)))
        return mag;
    return zero_order ? -mag - 1 : -mag;
}

/* min/max: the non-NaN operand wins unless FP_MINMAX_NAN; -0 < +0; .xorsign.abs
 * compares magnitudes and gives the result the XOR of the operands' signs. */
static uint64_t op_minmax(const fpfmt *f, uint64_t a, uint64_t b, unsigned flags, int is_max)
{
    uint64_t sb = sign_bit(f), xs, d;
    int na, nb;
    a &= all_bits(f);
    b &= all_bits(f);
    if (flags & FP_FTZ) {
        a = flush(f, a);
        b = flush(f, b);
    }
    xs = (a ^ b) & sb;
    if (flags & FP_XORSIGN_ABS) {
        a &= ~sb;
        b &= ~sb;
    }
    na = is_nan(f, a);
    nb = is_nan(f, b);
    if (na && nb && f == F64 && !(flags & FP_MINMAX_NAN) && FP64_NAN_PAYLOADS)
        return b | 1ull << 51; /* measured on sm_90, like add.f64 */
    if ((na && nb) || ((flags & FP_MINMAX_NAN) && (na || nb)))
        return f->nan;
    if (na)
        d = b;
    else if (nb)
        d = a;
    else {
        int64_t ka = order_key(f, a, 1), kb = order_key(f, b, 1);
        d = (is_max ? ka > kb : ka < kb) ? a : b;
    }
    if (flags & FP_XORSIGN_ABS)
        d = (d & ~sb) | xs;
    return d;
}

static int op_cmp(const fpfmt *f, uint64_t a, uint64_t b, fp_cmp c, unsigned flags)
{
    int un;
    int64_t ka, kb;
    a &= all_bits(f);
    b &= all_bits(f);
    if (flags & FP_FTZ) {
        a = flush(f, a);
        b = flush(f, b);
    }
    un = is_nan(f, a) || is_nan(f, b);
    if (c == FPC_NUM)
        return !un;
    if (c == FPC_NAN)
        return un;
    if (un)
        return c >= FPC_EQU; /* the unordered forms are true, the ordered false */
    ka = order_key(f, a, 0);
    kb = order_key(f, b, 0);
    switch (c) {
    case FPC_EQ:
    case FPC_EQU: return ka == kb;
    case FPC_NE:
    case FPC_NEU: return ka != kb;
    case FPC_LT:
    case FPC_LTU: return ka < kb;
    case FPC_LE:
    case FPC_LEU: return ka <= kb;
    case FPC_GT:
    case FPC_GTU: return ka > kb;
    case FPC_GE:
    case FPC_GEU: return ka >= kb;
    case FPC_NUM:
    case FPC_NAN: break;
    }
    return 0;
}

/* testp; zeros count as normal numbers (PTX). */
static int op_testp(const fpfmt *f, uint64_t a, fp_test t)
{
    unsigned e = exp_field(f, a);
    uint64_t m = frac_field(f, a);
    switch (t) {
    case FPT_FINITE: return e != emask(f);
    case FPT_INFINITE: return e == emask(f) && m == 0;
    case FPT_NUMBER: return !(e == emask(f) && m != 0);
    case FPT_NOTANUMBER: return e == emask(f) && m != 0;
    case FPT_NORMAL: return e != emask(f) && !(e == 0 && m != 0);
    case FPT_SUBNORMAL: return e == 0 && m != 0;
    }
    return 0;
}

/* neg/abs of f32 and the 16-bit formats: NaN gives the canonical NaN (the
 * ISA leaves it unspecified). */
static uint64_t op_sign(const fpfmt *f, uint64_t a, unsigned flags, int is_abs)
{
    a &= all_bits(f);
    if (flags & FP_FTZ)
        a = flush(f, a);
    if (is_nan(f, a))
        return f->nan;
    return is_abs ? a & ~sign_bit(f) : a ^ sign_bit(f);
}

/* ---- f32 ------------------------------------------------------------------------ */

uint32_t fp32_add(uint32_t a, uint32_t b, fp_rnd r, unsigned flags)
{
    return (uint32_t)op_add(F32, a, b, 0, r, flags);
}

uint32_t fp32_sub(uint32_t a, uint32_t b, fp_rnd r, unsigned flags)
{
    return (uint32_t)op_add(F32, a, b, 1, r, flags);
}

uint32_t fp32_mul(uint32_t a, uint32_t b, fp_rnd r, unsigned flags)
{
    return (uint32_t)op_mul(F32, a, b, r, flags);
}

uint32_t fp32_fma(uint32_t a, uint32_t b, uint32_t c, fp_rnd r, unsigned flags)
{
    return (uint32_t)op_fma(F32, a, b, c, r, flags);
}

uint32_t fp32_div(uint32_t a, uint32_t b, fp_rnd r, unsigned flags)
{
    return (uint32_t)op_div(F32, a, b, r, flags);
}

/* div.full: "full-range, max 2 ulp"; modelled as the correctly rounded quotient. */
uint32_t fp32_div_full(uint32_t a, uint32_t b, unsigned flags)
{
    return (uint32_t)op_div(F32, a, b, FP_RN, flags & FP_FTZ);
}

/* div.approx computes a * (1/b), and the reciprocal flushes subnormal results
 * whatever .ftz says: that is what makes 2^126 < |b| < 2^128 give a signed
 * zero (NaN for infinite a), as the ISA documents.  Without .ftz a subnormal
 * b is scaled first (measured on sm_90: min_subnormal / min_subnormal = 1),
 * modelled as the correctly rounded quotient. */
uint32_t fp32_div_approx(uint32_t a, uint32_t b, unsigned flags)
{
    unsigned ftz = flags & FP_FTZ;
    uint64_t rcp;
    if (!ftz && is_subnormal(F32, b))
        return (uint32_t)op_div(F32, a, b, FP_RN, 0);
    rcp = flush(F32, op_div(F32, one(F32), b, FP_RN, ftz));
    return (uint32_t)op_mul(F32, a, rcp, FP_RN, ftz);
}

uint32_t fp32_rcp(uint32_t a, fp_rnd r, unsigned flags)
{
    return (uint32_t)op_div(F32, one(F32), a, r, flags);
}

uint32_t fp32_sqrt(uint32_t a, fp_rnd r, unsigned flags)
{
    return (uint32_t)op_sqrt(F32, a, r, flags);
}

/* rcp.approx (max 1 ulp): the correctly rounded reciprocal. */
uint32_t fp32_rcp_approx(uint32_t a, unsigned flags)
{
    return (uint32_t)op_div(F32, one(F32), a, FP_RN, flags & FP_FTZ);
}

/* sqrt.approx (max relative error 2^-23): the correctly rounded root. */
uint32_t fp32_sqrt_approx(uint32_t a, unsigned flags)
{
    return (uint32_t)op_sqrt(F32, a, FP_RN, flags & FP_FTZ);
}

/* rsqrt.approx: 1/sqrt(a) through f64 (error about 2^-24 before rounding). */
uint32_t fp32_rsqrt_approx(uint32_t a, unsigned flags)
{
    num v = unpack(F32, a, (flags & FP_FTZ) != 0);
    uint64_t d, q;
    if (v.k == K_NAN || (v.sign && v.k != K_ZERO))
        return FP32_CANONICAL_NAN;
    if (v.k == K_ZERO)
        return (uint32_t)inf(F32, v.sign); /* rsqrt(-0) = -inf */
    if (v.k == K_INF)
        return 0;
    d = convert(F64, F32, a, FP_RN, 0, 0);
    q = op_div(F64, one(F64), op_sqrt(F64, d, FP_RN, 0), FP_RN, 0);
    return (uint32_t)convert(F32, F64, q, FP_RN, 0, (flags & FP_FTZ) != 0);
}

/* The transcendental .approx functions evaluate in host double precision;
 * these move values across without touching the host FPU. */
static double f32_to_host(uint32_t a)
{
    uint64_t bits = convert(F64, F32, a, FP_RN, 0, 0);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static uint32_t host_to_f32(double d, unsigned flags)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return (uint32_t)convert(F32, F64, bits, FP_RN, 0, (flags & FP_FTZ) != 0);
}

/* 1/(2 pi) rounded to f32, and pi/2 in double. */
#define F32_INV_2PI 0x3e22f983u
#define HALF_PI 1.5707963267948966

/*
 * sin/cos.approx as the GPU computes them (measured on sm_90): the argument
 * is turned into revolutions by an f32 multiply by 1/(2 pi) rounded toward
 * zero, and the fraction of a revolution is truncated to 25 bits before the
 * function unit evaluates it.  So sin(x) is 0 for |x| < 2 pi 2^-25 (and for
 * subnormals), cos(FLT_MAX) is 1, and the error grows with |x| just as the
 * ISA's table says (2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi]).
 * The unit works on the magnitude of the turn (sin is then given x's sign),
 * which is split into a quarter turn k and a rest w, exactly; sin/cos of w
 * are evaluated in double, so whole quarter turns give exact results with
 * the GPU's signs (sin of half a turn and cos of a quarter turn are -0).
 */
static uint32_t fp32_sincos(uint32_t a, unsigned flags, int is_cos)
{
    num v = unpack(F32, a, (flags & FP_FTZ) != 0);
    uint64_t t;
    double rev, ip, k, w, sw, cw, res;
    int quarter;
    if (v.k == K_NAN || v.k == K_INF)
        return FP32_CANONICAL_NAN;
    if (v.k == K_ZERO)
        return is_cos ? (uint32_t)one(F32) : (uint32_t)zero(F32, v.sign);
    t = op_mul(F32, a, F32_INV_2PI, FP_RZ, FP_FTZ);
    rev = fabs(modf(f32_to_host((uint32_t)t), &ip)); /* exact, 0 <= rev < 1 */
    rev = ldexp(floor(ldexp(rev, 25)), -25);          /* exact */
    if (rev == 0 && !is_cos)
        return (uint32_t)zero(F32, v.sign);
    k = floor(4 * rev + 0.5); /* nearest quarter turn, 0..4; all exact */
    w = (4 * rev - k) * HALF_PI;
    quarter = (int)k % 4;
    sw = sin(w);
    cw = cos(w);
    if (is_cos)
        res = quarter == 0 ? cw : quarter == 1 ? -sw : quarter == 2 ? -cw : sw;
    else
        res = quarter == 0 ? sw : quarter == 1 ? cw : quarter == 2 ? -sw : -cw;
    return host_to_f32(v.sign && !is_cos ? -res : res, flags);
}

uint32_t fp32_sin_approx(uint32_t a, unsigned flags) { return fp32_sincos(a, flags, 0); }

uint32_t fp32_cos_approx(uint32_t a, unsigned flags) { return fp32_sincos(a, flags, 1); }

uint32_t fp32_lg2_approx(uint32_t a, unsigned flags)
{
    num v = unpack(F32, a, (flags & FP_FTZ) != 0);
    if (v.k == K_NAN)
        return FP32_CANONICAL_NAN;
    if (v.k == K_ZERO)
        return (uint32_t)inf(F32, 1); /* lg2(+-0) = -inf */
    if (v.sign)
        return FP32_CANONICAL_NAN;
    if (v.k == K_INF)
        return (uint32_t)inf(F32, 0);
    return host_to_f32(log2(f32_to_host(a)), flags);
}

uint32_t fp32_ex2_approx(uint32_t a, unsigned flags)
{
    num v = unpack(F32, a, (flags & FP_FTZ) != 0);
    if (v.k == K_NAN)
        return FP32_CANONICAL_NAN;
    if (v.k == K_INF)
        return v.sign ? 0 : (uint32_t)inf(F32, 0); /* ex2(-inf) = +0 */
    if (v.k == K_ZERO)
        return (uint32_t)one(F32);
    return host_to_f32(exp2(f32_to_host(a)), flags);
}

/* tanh.approx has no .ftz in PTX: subnormals pass through (tanh(x) ~ x). */
uint32_t fp32_tanh_approx(uint32_t a, unsigned flags)
{
    num v = unpack(F32, a, (flags & FP_FTZ) != 0);
    if (v.k == K_NAN)
        return FP32_CANONICAL_NAN;
    if (v.k == K_INF)
        return (uint32_t)(one(F32) | (v.sign ? sign_bit(F32) : 0));
    if (v.k == K_ZERO)
        return (uint32_t)zero(F32, v.sign);
    return host_to_f32(tanh(f32_to_host(a)), flags);
}

uint32_t fp32_min(uint32_t a, uint32_t b, unsigned flags)
{
    return (uint32_t)op_minmax(F32, a, b, flags, 0);
}

uint32_t fp32_max(uint32_t a, uint32_t b, unsigned flags)
{
    return (uint32_t)op_minmax(F32, a, b, flags, 1);
}

uint32_t fp32_abs(uint32_t a, unsigned flags) { return (uint32_t)op_sign(F32, a, flags, 1); }

uint32_t fp32_neg(uint32_t a, unsigned flags) { return (uint32_t)op_sign(F32, a, flags, 0); }

uint32_t fp32_copysign(uint32_t a, uint32_t b) { return (a & 0x80000000u) | (b & 0x7fffffffu); }

int fp32_cmp(uint32_t a, uint32_t b, fp_cmp c, unsigned flags)
{
    return op_cmp(F32, a, b, c, flags);
}

int fp32_testp(uint32_t a, fp_test t) { return op_testp(F32, a, t); }

/* ---- f64 ------------------------------------------------------------------------ */

uint64_t fp64_add(uint64_t a, uint64_t b, fp_rnd r) { return op_add(F64, a, b, 0, r, 0); }

uint64_t fp64_sub(uint64_t a, uint64_t b, fp_rnd r) { return op_add(F64, a, b, 1, r, 0); }

uint64_t fp64_mul(uint64_t a, uint64_t b, fp_rnd r) { return op_mul(F64, a, b, r, 0); }

uint64_t fp64_fma(uint64_t a, uint64_t b, uint64_t c, fp_rnd r)
{
    return op_fma(F64, a, b, c, r, 0);
}

uint64_t fp64_div(uint64_t a, uint64_t b, fp_rnd r) { return op_div(F64, a, b, r, 0); }

uint64_t fp64_rcp(uint64_t a, fp_rnd r) { return op_div(F64, one(F64), a, r, 0); }

uint64_t fp64_sqrt(uint64_t a, fp_rnd r) { return op_sqrt(F64, a, r, 0); }

/* rcp.approx.ftz.f64 (the only PTX form, so flags are ignored): the reciprocal
 * of a's upper word, read as 1.11.20, truncated to 1.11.20 (as the GPU does);
 * subnormal inputs and results flushed; the low word of the result is zero. */
uint64_t fp64_rcp_approx(uint64_t a, unsigned flags)
{
    (void)flags;
    return op_div(&F64HI, one(&F64HI), a >> 32, FP_RZ, FP_FTZ) << 32;
}

/* rsqrt.approx.f64: 1/sqrt(a) with two roundings in f64.  With FP_FTZ,
 * rsqrt.approx.ftz.f64: the same on a's upper word, as rcp_approx above. */
uint64_t fp64_rsqrt_approx(uint64_t a, unsigned flags)
{
    int ftz = (flags & FP_FTZ) != 0;
    const fpfmt *f = ftz ? &F64HI : F64;
    uint64_t x = ftz ? a >> 32 : a, res;
    num v = unpack(f, x, ftz);
    if (v.k == K_NAN)
        res = ftz ? f->nan : nan_result(F64, &v, &a, NAN_AB, 1);
    else if (v.k == K_ZERO)
        res = inf(f, v.sign);
    else if (v.sign)
        res = f->nan;
    else if (v.k == K_INF)
        res = 0;
    else {
        uint64_t d = convert(F64, f, x, FP_RN, 0, 0);
        uint64_t q = op_div(F64, one(F64), op_sqrt(F64, d, FP_RN, 0), FP_RN, 0);
        res = convert(f, F64, q, FP_RZ, 0, 0); /* truncated, as on the GPU */
    }
    return ftz ? res << 32 : res;
}

uint64_t fp64_min(uint64_t a, uint64_t b, unsigned flags)
{
    return op_minmax(F64, a, b, flags, 0);
}

uint64_t fp64_max(uint64_t a, uint64_t b, unsigned flags)
{
    return op_minmax(F64, a, b, flags, 1);
}

/* abs.f64 and neg.f64 return a NaN operand quietened, sign and payload
 * unchanged (ISA: "passed through"; measured on sm_90 for both). */
uint64_t fp64_abs(uint64_t a) { return is_nan(F64, a) ? a | 1ull << 51 : a & ~sign_bit(F64); }

uint64_t fp64_neg(uint64_t a) { return is_nan(F64, a) ? a | 1ull << 51 : a ^ sign_bit(F64); }

uint64_t fp64_copysign(uint64_t a, uint64_t b)
{
    return (a & sign_bit(F64)) | (b & ~sign_bit(F64));
}

int fp64_cmp(uint64_t a, uint64_t b, fp_cmp c) { return op_cmp(F64, a, b, c, 0); }

int fp64_testp(uint64_t a, fp_test t) { return op_testp(F64, a, t); }

/* ---- f16 / bf16 ------------------------------------------------------------------- */

uint32_t fp16_add(uint32_t a, uint32_t b, fp_fmt f, fp_rnd r, unsigned flags)
{
    return (uint32_t)op_add(fmt_of(f), a, b, 0, r, flags);
}

uint32_t fp16_sub(uint32_t a, uint32_t b, fp_fmt f, fp_rnd r, unsigned flags)
{
    return (uint32_t)op_add(fmt_of(f), a, b, 1, r, flags);
}

uint32_t fp16_mul(uint32_t a, uint32_t b, fp_fmt f, fp_rnd r, unsigned flags)
{
    return (uint32_t)op_mul(fmt_of(f), a, b, r, flags);
}

uint32_t fp16_fma(uint32_t a, uint32_t b, uint32_t c, fp_fmt f, fp_rnd r, unsigned flags)
{
    return (uint32_t)op_fma(fmt_of(f), a, b, c, r, flags);
}

uint32_t fp16_min(uint32_t a, uint32_t b, fp_fmt f, unsigned flags)
{
    return (uint32_t)op_minmax(fmt_of(f), a, b, flags, 0);
}

uint32_t fp16_max(uint32_t a, uint32_t b, fp_fmt f, unsigned flags)
{
    return (uint32_t)op_minmax(fmt_of(f), a, b, flags, 1);
}

uint32_t fp16_neg(uint32_t a, fp_fmt f, unsigned flags)
{
    return (uint32_t)op_sign(fmt_of(f), a, flags, 0);
}

uint32_t fp16_abs(uint32_t a, fp_fmt f, unsigned flags)
{
    return (uint32_t)op_sign(fmt_of(f), a, flags, 1);
}

int fp16_cmp(uint32_t a, uint32_t b, fp_fmt f, fp_cmp c, unsigned flags)
{
    return op_cmp(fmt_of(f), a, b, c, flags);
}

/* ---- conversions ---------------------------------------------------------------------- */

/* cvt of a NaN to an integer (PTX ISA, cvt "Integer Notes"): 0, except when
 * the source is .f64 or the destination is 64 bits wide: then 1 << (bits-1),
 * i.e. MININT for signed and (MAXINT >> 1) + 1 for unsigned types. */
static uint64_t nan_to_int(fp_fmt from, int bits)
{
    return (from == FP_F64 || bits == 64) ? 1ull << (bits - 1) : 0;
}

static uint64_t int_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* .ftz on cvt touches only .f32 inputs and results (PTX). */
static int ftz_for(fp_fmt f, unsigned flags) { return f == FP_F32 && (flags & FP_FTZ); }

uint64_t fp_cvt_f2f(uint64_t a, fp_fmt from, fp_fmt to, fp_rnd r, int intrnd, unsigned flags)
{
    const fpfmt *fi = fmt_of(from), *fo = fmt_of(to);
    int ftz = ftz_for(to, flags);
    /* measured on sm_90: cvt.ftz.f16.f32 keeps a subnormal f32 input (while
     * cvt.ftz.bf16.f32 and the others flush it) */
    num v = unpack(fi, a & all_bits(fi), ftz_for(from, flags) && to != FP_F16);
    uint64_t res;
    if (v.k == K_NAN)
        res = cvt_nan(fo, fi, a & all_bits(fi), r, (flags & FP_FTZ) != 0);
    else if (v.k == K_INF)
        res = inf(fo, v.sign);
    else if (v.k == K_ZERO)
        res = zero(fo, v.sign);
    else if (intrnd && v.exp < 0) {
        /* |a| < 2^53 here, so the integer fits; zero keeps a's sign */
        uint64_t m = round_at(v.sig, v.exp, 0, v.sign, r);
        res = m ? round_pack(fo, v.sign, 0, m, r, ftz) : zero(fo, v.sign);
    } else
        res = round_pack(fo, v.sign, v.exp, v.sig, r, ftz); /* exp >= 0: already integral */
    return finish(fo, res, (flags & FP_SAT) | (ftz ? FP_FTZ : 0));
}

uint64_t fp_cvt_f2i(uint64_t a, fp_fmt from, int bits, int is_signed, fp_rnd r, unsigned flags)
{
    const fpfmt *fi = fmt_of(from);
    num v = unpack(fi, a & all_bits(fi), ftz_for(from, flags));
    uint64_t mask, max_pos, max_neg, m;
    if (bits <= 0 || bits > 64)
        bits = 64;
    mask = int_mask(bits);
    max_pos = is_signed ? mask >> 1 : mask;      /* largest magnitude, positive */
    max_neg = is_signed ? (mask >> 1) + 1 : 0;  /* largest magnitude, negative */
    if (v.k == K_NAN)
        return nan_to_int(from, bits) & mask;
    if (v.k == K_ZERO)
        return 0;
    if (v.k == K_INF || v.exp + msb64(v.sig) >= 64)
        m = ~0ull; /* saturates whatever the type */
    else if (v.exp >= 0)
        m = v.sig << v.exp;
    else
        m = round_at(v.sig, v.exp, 0, v.sign, r); /* < 2^53: no carry out */
    if (!v.sign)
        return m > max_pos ? max_pos : m;
    return (0 - (m > max_neg ? max_neg : m)) & mask;
}

uint64_t fp_cvt_i2f(uint64_t a, int bits, int is_signed, fp_fmt to, fp_rnd r, unsigned flags)
{
    const fpfmt *fo = fmt_of(to);
    uint64_t v, res;
    int sign = 0, ftz = 0; /* integers are never tiny */
    if (bits <= 0 || bits > 64)
        bits = 64;
    v = a & int_mask(bits);
    if (is_signed && (v >> (bits - 1)) & 1) {
        sign = 1;
        v = (0 - v) & int_mask(bits); /* magnitude; MININT gives 2^(bits-1) */
    }
    res = v ? round_pack(fo, sign, 0, v, r, ftz) : zero(fo, 0);
    return finish(fo, res, flags & FP_SAT);
}
