/*
 * test_half_ops.c -- 16-bit float comparisons and atomics, packed 16-bit
 * integer SIMD and the reserved shared memory, in functional and timing
 * mode, against references computed on the CPU from the values' definitions
 * (nothing here calls lockstep's float code).
 *
 * test_set_forms: generated PTX, one set instruction per form: the 14
 * comparisons of set.f16.f16, set.bf16.bf16, set.f16x2.f16x2 and
 * set.bf16x2.bf16x2, .ftz, integer destinations (.u32/.s32 of a scalar:
 * all ones; of an x2: 0xffff per half; .u16/.s16: 0xffff), .and/.or/.xor
 * with c and !c, and the forms with other source types (set.f16.f32,
 * set.f16.f64, set.f16.s32, set.lo.f16.u32, set.bf16.f16, set.bf16.s32), on
 * special values (zeros, subnormals, the largest finite values, infinities,
 * NaNs of both formats) crossed with each other and random bits.
 * test_atom_forms: atom.shared / red.global / generic atom .add.noftz on
 * f16, f16x2, bf16 and bf16x2, each thread on its own slot: the new value is
 * the round-to-nearest-even sum (subnormals kept, halves separate), the old
 * value is returned.
 * test_i16x2_forms: add, min, max .u16x2/.s16x2 and min/max.relu.s16x2.
 * test_rsmem: the %reserved_smem_offset_* registers: a region of 1 KB after
 * the kernel's static shared variables, before its dynamic shared memory,
 * zero at each CTA's start, private to the CTA, reachable through a generic
 * address; a kernel that does not read them has no such region.
 * test_half_kernels: half_ops.cu (nvcc -arch=sm_90): cuda_fp16.h and
 * cuda_bf16.h comparisons, atomicAdd on the four 16-bit float types (own
 * slots, and exact sums on shared and global counters), the SIMD
 * intrinsics, and cooperative_groups tiles of 64 and 128 threads.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"
#include "lockstep.h"
#include "test.h"

/* ---- 16-bit floats on the host ------------------------------------------------------ */

/* The value of f16 (bf = 0) or bf16 (bf = 1) bits. */
static double h2d(uint16_t h, int bf)
{
    int mb = bf ? 7 : 10, eb = bf ? 8 : 5, bias = bf ? 127 : 15;
    int sign = h >> 15, e = (h >> mb) & ((1 << eb) - 1);
    uint32_t m = h & ((1u << mb) - 1);
    double v;
    if (e == (1 << eb) - 1)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, 1 - bias - mb);
    else
        v = ldexp((double)(m | 1u << mb), e - bias - mb);
    return sign ? -v : v;
}

static int isnan16(uint16_t h, int bf)
{
    return bf ? (h & 0x7fff) > 0x7f80 : (h & 0x7fff) > 0x7c00;
}

/* d rounded to f16/bf16, to nearest with ties to even (subnormals kept,
 * overflow to infinity); NaN gives 0x7fff. */
static uint16_t d2h(double d, int bf)
{
    int mb = bf ? 7 : 10, emin = bf ? -126 : -14, emax = bf ? 127 : 15, bias = bf ? 127 : 15;
    uint16_t sign = signbit(d) ? 0x8000 : 0, inf = bf ? 0x7f80 : 0x7c00;
    if (isnan(d))
        return 0x7fff;
    d = fabs(d);
    if (isinf(d))
        return sign | inf;
    if (d == 0)
        return sign;
    int e;
    frexp(d, &e);
    e -= 1; /* d in [2^e, 2^(e+1)) */
    if (e < emin)
        e = emin;
    double q = ldexp(1.0, e - mb);       /* the quantum at d's exponent */
    double v = rint(d / q) * q;          /* exact scaling; rint: to nearest even */
    if (v >= ldexp(1.0, emax + 1))
        return sign | inf;
    if (v < ldexp(1.0, emin))            /* subnormal (or a zero) */
        return sign | (uint16_t)(v / ldexp(1.0, emin - mb));
    frexp(v, &e);
    e -= 1;
    uint32_t m = (uint32_t)(ldexp(v, mb - e)) - (1u << mb);
    return sign | (uint16_t)((uint32_t)(e + bias) << mb | m);
}

/* The sum .add.noftz makes: a + b rounded once (through double: exact, or
 * off by far less than half an f16/bf16 ulp, which cannot change the
 * rounding). */
static uint16_t add16(uint16_t a, uint16_t b, int bf)
{
    return d2h(h2d(a, bf) + h2d(b, bf), bf);
}

/* Two 16-bit results equal, any NaN matching any NaN. */
static int same16(uint16_t g, uint16_t e, int bf)
{
    return g == e || (isnan16(g, bf) && isnan16(e, bf));
}

enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_EQU, C_NEU, C_LTU, C_LEU, C_GTU, C_GEU, C_NUM, C_NAN };
static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge", "equ",
                                        "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

/* The PTX ISA's comparisons of two numbers (NaN: ordered ones false,
 * unordered ones true). */
static int cmpd(double a, double b, int op)
{
    int un = isnan(a) || isnan(b);
    switch (op) {
    case C_EQ: return !un && a == b;
    case C_NE: return !un && a != b;
    case C_LT: return !un && a < b;
    case C_LE: return !un && a <= b;
    case C_GT: return !un && a > b;
    case C_GE: return !un && a >= b;
    case C_EQU: return un || a == b;
    case C_NEU: return un || a != b;
    case C_LTU: return un || a < b;
    case C_LEU: return un || a <= b;
    case C_GTU: return un || a > b;
    case C_GEU: return un || a >= b;
    case C_NUM: return !un;
    default: return un;
    }
}

/* An f16/bf16 operand's value, flushed to zero by .ftz when subnormal. */
static double h2d_ftz(uint16_t h, int bf, int ftz)
{
    double v = h2d(h, bf);
    if (ftz && !bf && (h & 0x7c00) == 0)
        v = 0;
    return v;
}

/* ---- set ----------------------------------------------------------------------------- */

enum { ST_F16, ST_BF16, ST_F16X2, ST_BF16X2, ST_F32, ST_F64, ST_S32, ST_U32, ST_F16_AS_BF };
enum { DT_F16, DT_BF16, DT_F16X2, DT_BF16X2, DT_U32, DT_S32, DT_U16, DT_S16 };
enum { B_NONE, B_AND, B_OR, B_XOR };

typedef struct setform {
    int cmp, dt, st, ftz, bop, negc;
} setform;

static const char *const dt_names[] = {".f16", ".bf16", ".f16x2", ".bf16x2",
                                       ".u32", ".s32", ".u16", ".s16"};
static const char *const bop_names[] = {"", ".and", ".or", ".xor"};

#define MAX_FORMS 160
static setform forms[MAX_FORMS];
static int nforms;

static void add_form(int cmp, int dt, int st, int ftz, int bop, int negc)
{
    if (nforms < MAX_FORMS)
        forms[nforms++] = (setform){cmp, dt, st, ftz, bop, negc};
}

static void make_forms(void)
{
    nforms = 0;
    for (int c = 0; c < 14; c++) {
        add_form(c, DT_F16, ST_F16, 0, B_NONE, 0);
        add_form(c, DT_BF16, ST_BF16, 0, B_NONE, 0);
        add_form(c, DT_F16X2, ST_F16X2, 0, B_NONE, 0);
        add_form(c, DT_BF16X2, ST_BF16X2, 0, B_NONE, 0);
    }
    static const int some[] = {C_EQ, C_LT, C_GEU, C_NEU, C_NAN, C_NUM};
    for (int k = 0; k < 6; k++) {
        int c = some[k];
        add_form(c, DT_F16, ST_F16, 1, B_NONE, 0);
        add_form(c, DT_F16X2, ST_F16X2, 1, B_NONE, 0);
        add_form(c, DT_U32, ST_F16X2, k & 1, B_NONE, 0);
        add_form(c, DT_S32, ST_BF16X2, 0, B_NONE, 0);
        add_form(c, DT_U32, ST_F16, 0, B_NONE, 0);
        add_form(c, DT_S32, ST_BF16, 0, B_NONE, 0);
        add_form(c, DT_U16, ST_F16, 0, B_NONE, 0);
        add_form(c, DT_S16, ST_BF16, 0, B_NONE, 0);
        add_form(c, DT_F16, ST_F32, k & 1, B_NONE, 0);
        add_form(c, DT_BF16, ST_F16_AS_BF, 0, B_NONE, 0);
    }
    for (int b = B_AND; b <= B_XOR; b++)
        for (int neg = 0; neg < 2; neg++) {
            add_form(C_LT, DT_F16, ST_F16, 0, b, neg);
            add_form(C_EQU, DT_F16X2, ST_F16X2, neg, b, neg);
            add_form(C_GE, DT_BF16X2, ST_BF16X2, 0, b, neg);
            add_form(C_NE, DT_U32, ST_BF16X2, 0, b, neg);
            add_form(C_NAN, DT_BF16, ST_BF16, 0, b, neg);
        }
    add_form(C_NE, DT_F16, ST_F64, 0, B_NONE, 0);
    add_form(C_LE, DT_BF16, ST_F64, 0, B_OR, 1);
    add_form(C_LT, DT_F16, ST_S32, 0, B_NONE, 0);
    add_form(C_GE, DT_BF16, ST_S32, 0, B_AND, 0);
    add_form(C_LT, DT_F16, ST_U32, 0, B_NONE, 0); /* written .lo (unsigned) */
}

/* The PTX of form j: d in %r10 (or %rs10), sources by type (see set_ptx). */
static void form_text(const setform *f, char *buf, size_t n)
{
    static const char *const st_names[] = {".f16", ".bf16", ".f16x2", ".bf16x2", ".f32",
                                           ".f64", ".s32", ".u32", ".f16"};
    static const char *const srcs[] = {"%rs1, %rs2", "%rs1, %rs2", "%r1, %r2", "%r1, %r2",
                                       "%f1, %f2", "%fd1, %fd2", "%r1, %r2", "%r1, %r2",
                                       "%rs1, %rs2"};
    int d16 = f->dt == DT_F16 || f->dt == DT_BF16 || f->dt == DT_U16 || f->dt == DT_S16;
    const char *cmp = f->st == ST_U32 ? "lo" : cmp_names[f->cmp];
    char c[16] = "";
    if (f->bop)
        snprintf(c, sizeof c, ", %s%%p1", f->negc ? "!" : "");
    snprintf(buf, n, "  set.%s%s%s%s%s %s, %s%s;\n", cmp, bop_names[f->bop],
             f->ftz ? ".ftz" : "", dt_names[f->dt], st_names[f->st], d16 ? "%rs10" : "%r10",
             srcs[f->st], c);
}

/* The expected result of form f on a, b (two halves each) with predicate c. */
static uint32_t set_ref(const setform *f, uint32_t a, uint32_t b, int c)
{
    int cv = f->negc ? !c : c;
    int x2 = f->st == ST_F16X2 || f->st == ST_BF16X2;
    int bf = f->st == ST_BF16 || f->st == ST_BF16X2;
    uint32_t r = 0;
    for (int h = 0; h < (x2 ? 2 : 1); h++) {
        uint16_t ah = (uint16_t)(a >> (16 * h)), bh = (uint16_t)(b >> (16 * h));
        double da, db;
        switch (f->st) {
        case ST_S32: da = (int32_t)a; db = (int32_t)b; break;
        case ST_U32: da = a; db = b; break;
        case ST_F16_AS_BF: /* set.bf16.f16: an f16 comparison, a bf16 result */
        case ST_F32: case ST_F64:
            /* the f16 halves converted exactly: normal f32 values, which
             * .ftz leaves alone */
            da = h2d(ah, 0); db = h2d(bh, 0); break;
        default: da = h2d_ftz(ah, bf, f->ftz); db = h2d_ftz(bh, bf, f->ftz); break;
        }
        int t = cmpd(da, db, f->cmp);
        switch (f->bop) {
        case B_AND: t = t && cv; break;
        case B_OR: t = t || cv; break;
        case B_XOR: t = t != cv; break;
        default: break;
        }
        uint32_t one;
        switch (f->dt) {
        case DT_F16: case DT_F16X2: one = 0x3c00; break;
        case DT_BF16: case DT_BF16X2: one = 0x3f80; break;
        case DT_U16: case DT_S16: one = 0xffff; break;
        default: one = x2 ? 0xffff : 0xffffffffu; break;
        }
        if (t)
            r |= one << (16 * h);
    }
    return r;
}

static char *set_ptx(void)
{
    size_t cap = 64 * 1024, n = 0;
    char *p = malloc(cap);
    if (!p)
        return NULL;
    n += (size_t)snprintf(p + n, cap - n,
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry setforms(.param .u64 pa, .param .u64 pb, .param .u64 pout, .param .u32 pn)\n{\n"
        "  .reg .b32 %%r<16>; .reg .b16 %%rs<16>; .reg .f32 %%f<4>; .reg .f64 %%fd<4>;\n"
        "  .reg .b64 %%rd<8>; .reg .pred %%p<4>;\n"
        "  mov.u32 %%r3, %%ctaid.x; mov.u32 %%r4, %%ntid.x; mov.u32 %%r5, %%tid.x;\n"
        "  mad.lo.s32 %%r6, %%r3, %%r4, %%r5;\n"
        "  ld.param.u32 %%r7, [pn]; setp.ge.u32 %%p2, %%r6, %%r7; @%%p2 bra DONE;\n"
        "  ld.param.u64 %%rd1, [pa]; ld.param.u64 %%rd2, [pb]; ld.param.u64 %%rd3, [pout];\n"
        "  mul.wide.u32 %%rd4, %%r6, 4; add.s64 %%rd5, %%rd1, %%rd4; ld.global.u32 %%r1, [%%rd5];\n"
        "  add.s64 %%rd5, %%rd2, %%rd4; ld.global.u32 %%r2, [%%rd5];\n"
        "  mov.b32 {%%rs1, %%rs3}, %%r1; mov.b32 {%%rs2, %%rs4}, %%r2;\n"
        "  cvt.f32.f16 %%f1, %%rs1; cvt.f32.f16 %%f2, %%rs2;\n"
        "  cvt.f64.f16 %%fd1, %%rs1; cvt.f64.f16 %%fd2, %%rs2;\n"
        "  and.b32 %%r8, %%r6, 1; setp.eq.u32 %%p1, %%r8, 1;\n"
        "  mul.wide.u32 %%rd6, %%r6, %d; add.s64 %%rd3, %%rd3, %%rd6;\n", 4 * nforms);
    for (int j = 0; j < nforms; j++) {
        char line[160];
        form_text(&forms[j], line, sizeof line);
        int d16 = forms[j].dt == DT_F16 || forms[j].dt == DT_BF16 || forms[j].dt == DT_U16 ||
                  forms[j].dt == DT_S16;
        n += (size_t)snprintf(p + n, cap - n, "%s%s  st.global.u32 [%%rd3+%d], %%r10;\n", line,
                              d16 ? "  cvt.u32.u16 %r10, %rs10;\n" : "", 4 * j);
    }
    snprintf(p + n, cap - n, "DONE:\n  ret;\n}\n");
    return p;
}

/* Halves that matter to a comparison, in both formats' encodings. */
static const uint16_t specials[] = {
    0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff,
    0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0,
    0x7f81, 0x0080, 0x007f, 0x7f7f, 0x3555, 0x3556,
};
#define NSPEC (sizeof specials / sizeof specials[0])

static void make_pairs(uint32_t *a, uint32_t *b, uint32_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t lo_a, lo_b, hi_a, hi_b;
        if (i < NSPEC * NSPEC) {
            lo_a = specials[i % NSPEC];
            lo_b = specials[i / NSPEC];
            hi_a = specials[(i * 7 + 3) % NSPEC];
            hi_b = specials[(i * 5 + 1) % NSPEC];
        } else {
            uint64_t r = e2e_rand(&s);
            lo_a = (uint32_t)r & 0xffff;
            hi_a = (uint32_t)(r >> 16) & 0xffff;
            /* often close to a: equal, or a few ulps off */
            lo_b = (i & 3) == 0 ? lo_a : (i & 3) == 1 ? (lo_a + (uint32_t)(r >> 60)) & 0xffff
                                                       : (uint32_t)(r >> 32) & 0xffff;
            hi_b = (i & 4) ? hi_a : (uint32_t)(r >> 48) & 0xffff;
        }
        a[i] = lo_a | hi_a << 16;
        b[i] = lo_b | hi_b << 16;
    }
}

static void run_set_forms(lockstep_device *dev, const char *mode)
{
    make_forms();
    char *ptx = set_ptx();
    CHECK(ptx != NULL);
    if (!ptx || !dev)
        goto out0;
    lockstep_module *mod = NULL;
    lockstep_status st = lockstep_module_load_ptx(dev, ptx, strlen(ptx), "setforms.ptx", &mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s", mode, lockstep_device_last_error(dev));
    if (st != LOCKSTEP_SUCCESS)
        goto out0;
    lockstep_kernel *k = e2e_kernel(dev, mod, "setforms");
    uint32_t n = 1024;
    static uint32_t a[1024], b[1024];
    make_pairs(a, b, n, 0x5e7f0127ull);
    size_t words = (size_t)n * (size_t)nforms;
    uint32_t *got = malloc(words * 4), *want = malloc(words * 4);
    lockstep_dptr da = e2e_upload(dev, a, sizeof a), db = e2e_upload(dev, b, sizeof b);
    lockstep_dptr dout = e2e_alloc(dev, words * 4);
    if (got && want && da && db && dout && k) {
        void *args[] = {&da, &db, &dout, &n};
        if (e2e_launch(dev, k, "setforms", e2e_dim3(8, 1, 1), e2e_dim3(128, 1, 1), 0, args) &&
            e2e_download(dev, got, dout, words * 4)) {
            size_t bad = 0;
            for (uint32_t i = 0; i < n; i++)
                for (int j = 0; j < nforms; j++) {
                    uint32_t w = set_ref(&forms[j], a[i], b[i], (int)(i & 1));
                    want[(size_t)i * nforms + j] = w;
                    if (got[(size_t)i * nforms + j] != w && bad++ < 8) {
                        char line[160];
                        form_text(&forms[j], line, sizeof line);
                        CHECK_MSG(0, "%s: thread %u, a 0x%08x b 0x%08x c %u:%s want 0x%08x got 0x%08x",
                                  mode, i, a[i], b[i], i & 1, line, w, got[(size_t)i * nforms + j]);
                    }
                }
            CHECK_MSG(bad == 0, "%s: %zu of %zu set results wrong", mode, bad, words);
        }
    }
    e2e_free(dev, da);
    e2e_free(dev, db);
    e2e_free(dev, dout);
    free(got);
    free(want);
    lockstep_module_unload(mod);
out0:
    free(ptx);
}

/* ---- atomics ------------------------------------------------------------------------- */

static void run_atom_forms(lockstep_device *dev, const char *mode)
{
    /* thread t of CTAs of 128: slot t of m (4 words: f16 | 0, f16x2, bf16 | 0,
     * bf16x2) and of the addends v; the slot is copied to shared memory and
     * added to there (old values to pold, new ones to pr), and added to in
     * global memory by red */
    static const char text[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry atomforms(.param .u64 pm, .param .u64 pv, .param .u64 pold,"
        " .param .u64 pr)\n{\n"
        "  .reg .b32 %r<24>; .reg .b16 %rs<8>; .reg .b64 %rd<16>;\n"
        "  .shared .align 16 .b8 sm[2048];\n"
        "  mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x;\n"
        "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
        "  ld.param.u64 %rd1, [pm]; ld.param.u64 %rd2, [pv]; ld.param.u64 %rd3, [pold];\n"
        "  ld.param.u64 %rd9, [pr];\n"
        "  mul.wide.u32 %rd4, %r4, 16; add.s64 %rd5, %rd1, %rd4; add.s64 %rd6, %rd2, %rd4;\n"
        "  add.s64 %rd7, %rd3, %rd4; add.s64 %rd10, %rd9, %rd4;\n"
        "  mov.u32 %r5, sm; shl.b32 %r6, %r1, 4; add.u32 %r7, %r5, %r6;\n"
        "  ld.global.v4.u32 {%r8, %r9, %r10, %r11}, [%rd5];\n"
        "  st.shared.v4.u32 [%r7], {%r8, %r9, %r10, %r11};\n"
        "  ld.global.v4.u32 {%r12, %r13, %r14, %r15}, [%rd6];\n"
        "  cvt.u16.u32 %rs1, %r12; cvt.u16.u32 %rs2, %r14;\n"
        /* shared: f16 and f16x2 by atom.shared, bf16 and bf16x2 by generic atom */
        "  atom.shared.add.noftz.f16 %rs3, [%r7], %rs1;\n"
        "  atom.shared.add.noftz.f16x2 %r16, [%r7+4], %r13;\n"
        "  cvt.u64.u32 %rd11, %r7; cvta.shared.u64 %rd12, %rd11;\n"
        "  atom.add.noftz.bf16 %rs4, [%rd12+8], %rs2;\n"
        "  atom.add.noftz.bf16x2 %r17, [%rd12+12], %r15;\n"
        "  cvt.u32.u16 %r18, %rs3; cvt.u32.u16 %r19, %rs4;\n"
        "  st.global.v4.u32 [%rd7], {%r18, %r16, %r19, %r17};\n"
        "  ld.shared.v4.u32 {%r8, %r9, %r10, %r11}, [%r7];\n"
        "  st.global.v4.u32 [%rd10], {%r8, %r9, %r10, %r11};\n"
        /* global: every form by red, on m itself */
        "  red.global.add.noftz.f16 [%rd5], %rs1;\n"
        "  red.global.add.noftz.f16x2 [%rd5+4], %r13;\n"
        "  red.global.add.noftz.bf16 [%rd5+8], %rs2;\n"
        "  red.global.add.noftz.bf16x2 [%rd5+12], %r15;\n"
        "  ret;\n}\n";
    if (!dev)
        return;
    lockstep_module *mod = NULL;
    lockstep_status st = lockstep_module_load_ptx(dev, text, strlen(text), "atomforms.ptx", &mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s", mode, lockstep_device_last_error(dev));
    if (st != LOCKSTEP_SUCCESS)
        return;
    lockstep_kernel *k = e2e_kernel(dev, mod, "atomforms");
    enum { N = 512 };
    static uint32_t m[4 * N], v[4 * N], old[4 * N], res[4 * N], fin[4 * N];
    uint64_t s = 0xa7011c5ull;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t ma, mb, va, vb;
        if (i < NSPEC * 16) {
            ma = specials[i % NSPEC] | (uint32_t)specials[(i / NSPEC) % NSPEC] << 16;
            va = specials[(i / NSPEC) % NSPEC] | (uint32_t)specials[(i * 3 + 1) % NSPEC] << 16;
        } else {
            uint64_t r = e2e_rand(&s);
            ma = (uint32_t)r;
            va = (uint32_t)(r >> 32);
            if (i & 1) /* sums near a rounding boundary: a value and one far smaller */
                va = (va & 0x83ff83ffu) ^ ((ma & 0x7c007c00u) - 0x28002800u);
        }
        mb = ma ^ 0x00100010u; /* the bf16 slots hold other bits */
        vb = va ^ 0x00400040u;
        m[4 * i] = ma & 0xffff;
        m[4 * i + 1] = ma;
        m[4 * i + 2] = mb & 0xffff;
        m[4 * i + 3] = mb;
        v[4 * i] = va & 0xffff;
        v[4 * i + 1] = va;
        v[4 * i + 2] = vb & 0xffff;
        v[4 * i + 3] = vb;
    }
    lockstep_dptr dm = e2e_upload(dev, m, sizeof m), dv = e2e_upload(dev, v, sizeof v);
    lockstep_dptr dold = e2e_alloc(dev, sizeof old), dres = e2e_alloc(dev, sizeof res);
    if (k && dm && dv && dold && dres) {
        void *args[] = {&dm, &dv, &dold, &dres};
        if (e2e_launch(dev, k, "atomforms", e2e_dim3(N / 128, 1, 1), e2e_dim3(128, 1, 1), 0,
                       args) &&
            e2e_download(dev, old, dold, sizeof old) && e2e_download(dev, res, dres, sizeof res) &&
            e2e_download(dev, fin, dm, sizeof fin)) {
            size_t bad = 0;
            static const char *const what[] = {"f16", "f16x2", "bf16", "bf16x2"};
            for (uint32_t i = 0; i < N; i++)
                for (int f = 0; f < 4; f++) {
                    uint32_t mm = m[4 * i + f], vv = v[4 * i + f];
                    int bf = f >= 2, halves = f & 1 ? 2 : 1;
                    int ok = old[4 * i + f] == mm;
                    for (int h = 0; h < halves; h++) {
                        uint16_t want = add16((uint16_t)(mm >> 16 * h), (uint16_t)(vv >> 16 * h), bf);
                        ok &= same16((uint16_t)(res[4 * i + f] >> 16 * h), want, bf);
                        ok &= same16((uint16_t)(fin[4 * i + f] >> 16 * h), want, bf);
                    }
                    if (halves == 1) /* the other half of the word is untouched */
                        ok &= (res[4 * i + f] >> 16) == 0 && (fin[4 * i + f] >> 16) == 0;
                    if (!ok && bad++ < 8)
                        CHECK_MSG(0, "%s: %s slot %u: 0x%08x + 0x%08x: old 0x%08x shared 0x%08x "
                                     "global 0x%08x",
                                  mode, what[f], i, mm, vv, old[4 * i + f], res[4 * i + f],
                                  fin[4 * i + f]);
                }
            CHECK_MSG(bad == 0, "%s: %zu 16-bit float atomics wrong", mode, bad);
        }
    }
    e2e_free(dev, dm);
    e2e_free(dev, dv);
    e2e_free(dev, dold);
    e2e_free(dev, dres);
    lockstep_module_unload(mod);
}

/* ---- packed 16-bit integers ---------------------------------------------------------- */

static const char i16_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry i16x2(.param .u64 pa, .param .u64 pb, .param .u64 pout)\n{\n"
    "  .reg .b32 %r<24>; .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "  ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb]; ld.param.u64 %rd3, [pout];\n"
    "  mul.wide.u32 %rd4, %r4, 4; add.s64 %rd5, %rd1, %rd4; ld.global.u32 %r5, [%rd5];\n"
    "  add.s64 %rd5, %rd2, %rd4; ld.global.u32 %r6, [%rd5];\n"
    "  mul.wide.u32 %rd4, %r4, 32; add.s64 %rd3, %rd3, %rd4;\n"
    "  add.u16x2 %r10, %r5, %r6;\n"
    "  add.s16x2 %r11, %r5, %r6;\n"
    "  min.u16x2 %r12, %r5, %r6;\n"
    "  min.s16x2 %r13, %r5, %r6;\n"
    "  max.u16x2 %r14, %r5, %r6;\n"
    "  max.s16x2 %r15, %r5, %r6;\n"
    "  min.relu.s16x2 %r16, %r5, %r6;\n"
    "  max.relu.s16x2 %r17, %r5, %r6;\n"
    "  st.global.v4.u32 [%rd3], {%r10, %r11, %r12, %r13};\n"
    "  st.global.v4.u32 [%rd3+16], {%r14, %r15, %r16, %r17};\n"
    "  ret;\n}\n";

static uint32_t i16_ref(int op, uint32_t a, uint32_t b)
{
    uint32_t r = 0;
    for (int h = 0; h < 2; h++) {
        uint32_t ua = (a >> 16 * h) & 0xffff, ub = (b >> 16 * h) & 0xffff;
        int32_t sa = (int16_t)ua, sb = (int16_t)ub, x;
        switch (op) {
        case 0: case 1: x = (int32_t)(ua + ub); break;
        case 2: x = (int32_t)(ua < ub ? ua : ub); break;
        case 3: x = sa < sb ? sa : sb; break;
        case 4: x = (int32_t)(ua > ub ? ua : ub); break;
        case 5: x = sa > sb ? sa : sb; break;
        case 6: x = sa < sb ? sa : sb; x = x < 0 ? 0 : x; break;
        default: x = sa > sb ? sa : sb; x = x < 0 ? 0 : x; break;
        }
        r |= ((uint32_t)x & 0xffff) << 16 * h;
    }
    return r;
}

static void run_i16x2(lockstep_device *dev, const char *mode)
{
    if (!dev)
        return;
    lockstep_module *mod = NULL;
    lockstep_status st = lockstep_module_load_ptx(dev, i16_ptx, strlen(i16_ptx), "i16x2.ptx", &mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s", mode, lockstep_device_last_error(dev));
    if (st != LOCKSTEP_SUCCESS)
        return;
    lockstep_kernel *k = e2e_kernel(dev, mod, "i16x2");
    enum { N = 256 };
    static const uint16_t edge[] = {0, 1, 0x7fff, 0x8000, 0xffff, 0x8001, 0x7ffe, 2};
    static uint32_t a[N], b[N], got[8 * N], want[8 * N];
    uint64_t s = 0x16216ull;
    for (uint32_t i = 0; i < N; i++) {
        if (i < 64) {
            a[i] = edge[i % 8] | (uint32_t)edge[(i / 8) % 8] << 16;
            b[i] = edge[(i / 8) % 8] | (uint32_t)edge[(i + 3) % 8] << 16;
        } else {
            uint64_t r = e2e_rand(&s);
            a[i] = (uint32_t)r;
            b[i] = (uint32_t)(r >> 32);
        }
        for (int op = 0; op < 8; op++)
            want[8 * i + op] = i16_ref(op, a[i], b[i]);
    }
    lockstep_dptr da = e2e_upload(dev, a, sizeof a), db = e2e_upload(dev, b, sizeof b);
    lockstep_dptr dout = e2e_alloc(dev, sizeof got);
    if (k && da && db && dout) {
        void *args[] = {&da, &db, &dout};
        static const char *const names[] = {"add.u16x2", "add.s16x2", "min.u16x2", "min.s16x2",
                                            "max.u16x2", "max.s16x2", "min.relu.s16x2",
                                            "max.relu.s16x2"};
        e2e_layout lay = {8, names};
        if (e2e_launch(dev, k, "i16x2", e2e_dim3(2, 1, 1), e2e_dim3(128, 1, 1), 0, args) &&
            e2e_download(dev, got, dout, sizeof got))
            CHECK_MSG(e2e_cmp_u32(mode, got, want, 8 * N, &lay) == 0, "%s: i16x2", mode);
    }
    e2e_free(dev, da);
    e2e_free(dev, db);
    e2e_free(dev, dout);
    lockstep_module_unload(mod);
}

/* ---- reserved shared memory ------------------------------------------------------------ */

static const char rsmem_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".shared .align 4 .b8 sh[200];\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    /* the registers are read in a function, so the kernel reaches them through a call */
    ".func (.param .b32 rv) rs1()\n{\n  .reg .b32 %r<2>;\n"
    "  mov.u32 %r1, %reserved_smem_offset_1; st.param.b32 [rv], %r1;\n  ret;\n}\n"
    ".visible .entry rsmem(.param .u64 pout)\n{\n"
    "  .reg .b32 %r<32>; .reg .b64 %rd<12>; .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [pout];\n"
    "  mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x;\n"
    "  mul.wide.u32 %rd2, %r2, 4096; add.s64 %rd1, %rd1, %rd2;\n"   /* 1024 words per CTA */
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  mov.u32 %r3, %reserved_smem_offset_begin; mov.u32 %r4, %reserved_smem_offset_end;\n"
    "  mov.u32 %r5, %reserved_smem_offset_cap; mov.u32 %r6, %reserved_smem_offset_0;\n"
    "  { .param .b32 rv0; call.uni (rv0), rs1, (); ld.param.b32 %r7, [rv0]; }\n"
    "  mov.u32 %r8, sh; mov.u32 %r9, dyn;\n"
    "  @%p1 st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r6};\n"
    "  @%p1 st.global.v2.u32 [%rd1+16], {%r7, %r8};\n"
    "  @%p1 st.global.u32 [%rd1+24], %r9;\n"
    /* word t of the region: zero at the start (read before any write) */
    "  shl.b32 %r10, %r1, 2; add.u32 %r11, %r3, %r10; ld.shared.u32 %r12, [%r11];\n"
    "  mul.wide.u32 %rd3, %r1, 4; add.s64 %rd4, %rd1, %rd3; st.global.u32 [%rd4+64], %r12;\n"
    "  bar.sync 0;\n"
    /* fill the region, sh and dyn with distinct patterns */
    "  mad.lo.s32 %r13, %r2, 1000, %r1; st.shared.u32 [%r11], %r13;\n"
    "  rem.u32 %r14, %r1, 50; shl.b32 %r14, %r14, 2; add.u32 %r15, %r8, %r14;\n"
    "  st.shared.u32 [%r15], -1;\n"
    "  add.u32 %r16, %r9, %r10; st.shared.u32 [%r16], -2;\n"
    "  bar.sync 0;\n"
    /* read the region back, the neighbour's word, through a generic address */
    "  add.u32 %r17, %r1, 1; and.b32 %r17, %r17, 255; shl.b32 %r17, %r17, 2;\n"
    "  add.u32 %r18, %r3, %r17; cvt.u64.u32 %rd5, %r18; cvta.shared.u64 %rd6, %rd5;\n"
    "  ld.u32 %r19, [%rd6]; st.global.u32 [%rd4+1088], %r19;\n"
    "  ret;\n}\n"
    ".visible .entry plain(.param .u64 pout)\n{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [pout]; mov.u32 %r1, sh; st.global.u32 [%rd1], %r1;\n"
    "  ret;\n}\n";

static void run_rsmem(lockstep_device *dev, const char *mode)
{
    if (!dev)
        return;
    lockstep_module *mod = NULL;
    lockstep_status st = lockstep_module_load_ptx(dev, rsmem_ptx, strlen(rsmem_ptx), "rsmem.ptx",
                                                  &mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s", mode, lockstep_device_last_error(dev));
    if (st != LOCKSTEP_SUCCESS)
        return;
    lockstep_kernel *k = e2e_kernel(dev, mod, "rsmem"), *kp = e2e_kernel(dev, mod, "plain");
    lockstep_kernel_info ki, kpi;
    if (!k || !kp)
        goto out;
    CHECK(lockstep_kernel_get_info(k, &ki) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_kernel_get_info(kp, &kpi) == LOCKSTEP_SUCCESS);
    /* sh (200 bytes), then the region 16-aligned: 208 .. 1232 */
    CHECK_MSG(ki.static_shared_bytes == 208 + 1024, "%s: rsmem static shared %u", mode,
              ki.static_shared_bytes);
    CHECK_MSG(kpi.static_shared_bytes == 200, "%s: plain static shared %u", mode,
              kpi.static_shared_bytes);
    enum { CTAS = 6, WORDS = 1024 };
    static uint32_t out[CTAS * WORDS];
    lockstep_dptr dout = e2e_alloc(dev, sizeof out);
    if (!dout)
        goto out;
    e2e_fill(dev, dout, 0xcd, sizeof out);
    void *args[] = {&dout};
    if (e2e_launch(dev, k, "rsmem", e2e_dim3(CTAS, 1, 1), e2e_dim3(256, 1, 1), 1024, args) &&
        e2e_download(dev, out, dout, sizeof out)) {
        for (uint32_t c = 0; c < CTAS; c++) {
            const uint32_t *o = out + c * WORDS;
            CHECK_MSG(o[0] == 208 && o[1] == 1232 && o[2] == 1024 && o[3] == 208 && o[4] == 720,
                      "%s: CTA %u: begin %u end %u cap %u _0 %u _1 %u", mode, c, o[0], o[1], o[2],
                      o[3], o[4]);
            CHECK_MSG(o[5] == 0 && o[6] == 1232, "%s: CTA %u: sh at %u, dynamic at %u", mode, c,
                      o[5], o[6]);
            uint32_t nz = 0, wrong = 0;
            for (uint32_t t = 0; t < 256; t++) {
                nz += o[16 + t] != 0;
                wrong += o[272 + t] != c * 1000 + ((t + 1) & 255);
            }
            CHECK_MSG(nz == 0, "%s: CTA %u: %u words of the region not zero at the start", mode,
                      c, nz);
            CHECK_MSG(wrong == 0, "%s: CTA %u: %u words of the region not as written", mode, c,
                      wrong);
        }
    }
    e2e_free(dev, dout);
out:
    lockstep_module_unload(mod);
}

/* ---- half_ops.cu --------------------------------------------------------------------- */

#define HCMP_N 21
#define I16_N 10

static uint32_t half2_cmp_ref(uint32_t a, uint32_t b, int bf, int op, int mask)
{
    uint32_t r = 0;
    for (int h = 0; h < 2; h++) {
        uint16_t x = (uint16_t)(a >> 16 * h), y = (uint16_t)(b >> 16 * h);
        if (cmpd(h2d(x, bf), h2d(y, bf), op))
            r |= (mask ? 0xffffu : bf ? 0x3f80u : 0x3c00u) << 16 * h;
    }
    return r;
}

static void run_half_cmp(lockstep_device *dev, lockstep_module *mod, const char *mode)
{
    lockstep_kernel *k = e2e_kernel(dev, mod, "half_cmp");
    enum { N = 1000 };
    static uint32_t a[N], b[N], got[N * HCMP_N], want[N * HCMP_N];
    make_pairs(a, b, N, 0xcafe16ull);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t *w = want + (size_t)i * HCMP_N;
        for (int op = 0; op < 12; op++)
            w[op] = half2_cmp_ref(a[i], b[i], 0, op, 0);
        w[12] = half2_cmp_ref(a[i], a[i], 0, C_NAN, 0);
        w[13] = half2_cmp_ref(a[i], b[i], 0, C_EQ, 1);
        w[14] = half2_cmp_ref(a[i], b[i], 0, C_LTU, 1);
        w[15] = half2_cmp_ref(a[i], b[i], 1, C_EQ, 0);
        w[16] = half2_cmp_ref(a[i], b[i], 1, C_LT, 0);
        w[17] = half2_cmp_ref(a[i], b[i], 1, C_GEU, 0);
        w[18] = half2_cmp_ref(a[i], a[i], 1, C_NAN, 0);
        w[19] = isnan16((uint16_t)a[i], 0);
        w[20] = isnan16((uint16_t)(a[i] >> 16), 1);
    }
    lockstep_dptr da = e2e_upload(dev, a, sizeof a), db = e2e_upload(dev, b, sizeof b);
    lockstep_dptr dout = e2e_alloc(dev, sizeof got);
    int n = N;
    if (k && da && db && dout) {
        static const char *const names[HCMP_N] = {
            "__heq2", "__hne2", "__hlt2", "__hle2", "__hgt2", "__hge2", "__hequ2",
            "__hneu2", "__hltu2", "__hleu2", "__hgtu2", "__hgeu2", "__hisnan2", "__heq2_mask",
            "__hltu2_mask", "bf16 __heq2", "bf16 __hlt2", "bf16 __hgeu2", "bf16 __hisnan2",
            "__hisnan", "bf16 __hisnan"};
        e2e_layout lay = {HCMP_N, names};
        void *args[] = {&da, &db, &dout, &n};
        if (e2e_launch(dev, k, "half_cmp", e2e_dim3(4, 1, 1), e2e_dim3(256, 1, 1), 0, args) &&
            e2e_download(dev, got, dout, sizeof got))
            CHECK_MSG(e2e_cmp_u32(mode, got, want, (size_t)N * HCMP_N, &lay) == 0,
                      "%s: half_cmp", mode);
    }
    e2e_free(dev, da);
    e2e_free(dev, db);
    e2e_free(dev, dout);
}

static void run_half_atomics(lockstep_device *dev, lockstep_module *mod, const char *mode)
{
    lockstep_kernel *k = e2e_kernel(dev, mod, "half_atomics");
    enum { N = 600, BLOCK = 128, GRID = (N + BLOCK - 1) / BLOCK };
    static uint16_t h[N], bh[N];
    static uint32_t h2[N], b2[N], v[N], old[4 * N];
    uint32_t sums[4] = {0, 0, 0, 0}, blk[6] = {0};
    uint64_t s = 0xadd16ull;
    for (uint32_t i = 0; i < N; i++) {
        uint64_t r = e2e_rand(&s);
        h[i] = (uint16_t)r;
        h2[i] = (uint32_t)(r >> 16);
        bh[i] = (uint16_t)(r >> 48);
        b2[i] = (uint32_t)(r >> 24);
        v[i] = (uint32_t)e2e_rand(&s);
        if (i % 3 == 0) /* exponents near each other: rounding ties and carries */
            v[i] = (v[i] & 0x83ff83ffu) | (h2[i] & 0x7c007c00u);
    }
    lockstep_dptr dh = e2e_upload(dev, h, sizeof h), dh2 = e2e_upload(dev, h2, sizeof h2);
    lockstep_dptr dbh = e2e_upload(dev, bh, sizeof bh), db2 = e2e_upload(dev, b2, sizeof b2);
    lockstep_dptr dv = e2e_upload(dev, v, sizeof v), dold = e2e_alloc(dev, sizeof old);
    lockstep_dptr dsums = e2e_upload(dev, sums, sizeof sums), dblk = e2e_upload(dev, blk, sizeof blk);
    int n = N;
    if (k && dh && dh2 && dbh && db2 && dv && dold && dsums && dblk) {
        void *args[] = {&dh, &dh2, &dbh, &db2, &dv, &dold, &dsums, &dblk, &n};
        static uint16_t gh[N], gbh[N];
        static uint32_t gh2[N], gb2[N];
        if (e2e_launch(dev, k, "half_atomics", e2e_dim3(GRID, 1, 1), e2e_dim3(BLOCK, 1, 1), 0,
                       args) &&
            e2e_download(dev, gh, dh, sizeof gh) && e2e_download(dev, gh2, dh2, sizeof gh2) &&
            e2e_download(dev, gbh, dbh, sizeof gbh) && e2e_download(dev, gb2, db2, sizeof gb2) &&
            e2e_download(dev, old, dold, sizeof old) && e2e_download(dev, sums, dsums, sizeof sums) &&
            e2e_download(dev, blk, dblk, sizeof blk)) {
            size_t bad = 0;
            for (uint32_t i = 0; i < N; i++) {
                uint16_t vb = (uint16_t)(v[i] >> 16);
                int ok = same16(gh[i], add16(h[i], (uint16_t)v[i], 0), 0) &&
                         same16((uint16_t)gh2[i], add16((uint16_t)h2[i], (uint16_t)v[i], 0), 0) &&
                         same16((uint16_t)(gh2[i] >> 16),
                                add16((uint16_t)(h2[i] >> 16), (uint16_t)(v[i] >> 16), 0), 0) &&
                         same16(gbh[i], add16(bh[i], vb, 1), 1) &&
                         same16((uint16_t)gb2[i], add16((uint16_t)b2[i], (uint16_t)v[i], 1), 1) &&
                         same16((uint16_t)(gb2[i] >> 16),
                                add16((uint16_t)(b2[i] >> 16), (uint16_t)(v[i] >> 16), 1), 1) &&
                         old[4 * i] == h[i] && old[4 * i + 1] == h2[i] && old[4 * i + 2] == bh[i] &&
                         old[4 * i + 3] == b2[i];
                if (!ok && bad++ < 6)
                    CHECK_MSG(0, "%s: slot %u: v 0x%08x: half 0x%04x -> 0x%04x, half2 0x%08x -> "
                                 "0x%08x, bf16 0x%04x -> 0x%04x, bf162 0x%08x -> 0x%08x, old "
                                 "0x%x 0x%x 0x%x 0x%x",
                              mode, i, v[i], h[i], gh[i], h2[i], gh2[i], bh[i], gbh[i], b2[i],
                              gb2[i], old[4 * i], old[4 * i + 1], old[4 * i + 2], old[4 * i + 3]);
            }
            CHECK_MSG(bad == 0, "%s: %zu own-slot atomicAdd results wrong", mode, bad);
            /* the exact sums: f16 of i & 3 and of 1/2 (odd i) or 1/4; bf16 of 1
             * (i % 8 == 0) and of 2 (i % 8 == 1) */
            double q = 0, r = 0, o = 0, w = 0;
            for (uint32_t i = 0; i < N; i++) {
                q += i & 3;
                r += (i & 1) ? 0.5 : 0.25;
                o += (i & 7) == 0;
                w += (i & 7) == 1 ? 2 : 0;
            }
            CHECK_MSG(sums[0] == d2h(q, 0) && sums[1] == (d2h(q, 0) | (uint32_t)d2h(r, 0) << 16) &&
                          sums[2] == d2h(o, 1) &&
                          sums[3] == (d2h(o, 1) | (uint32_t)d2h(w, 1) << 16),
                      "%s: global sums 0x%08x 0x%08x 0x%08x 0x%08x", mode, sums[0], sums[1],
                      sums[2], sums[3]);
            CHECK_MSG(blk[0] == q && blk[1] == q * 4 && blk[2] == r * 4 && blk[3] == o &&
                          blk[4] == o && blk[5] == w,
                      "%s: shared sums %u %u %u %u %u %u (want %g %g %g %g %g %g)", mode, blk[0],
                      blk[1], blk[2], blk[3], blk[4], blk[5], q, q * 4, r * 4, o, o, w);
        }
    }
    e2e_free(dev, dh);
    e2e_free(dev, dh2);
    e2e_free(dev, dbh);
    e2e_free(dev, db2);
    e2e_free(dev, dv);
    e2e_free(dev, dold);
    e2e_free(dev, dsums);
    e2e_free(dev, dblk);
}

static uint32_t simd_ref(int op, uint32_t a, uint32_t b)
{
    uint32_t r = 0;
    for (int h = 0; h < 2; h++) {
        uint32_t ua = (a >> 16 * h) & 0xffff, ub = (b >> 16 * h) & 0xffff;
        uint32_t uc = ((a ^ b) >> 16 * h) & 0xffff;
        int32_t sa = (int16_t)ua, sb = (int16_t)ub, x;
        switch (op) {
        case 0: x = (int32_t)(ua + ub); break;
        case 1: x = (int32_t)(ua - ub); break;
        case 2: x = (int32_t)(ua < ub ? ua : ub); break;
        case 3: x = sa < sb ? sa : sb; break;
        case 4: x = (int32_t)(ua > ub ? ua : ub); break;
        case 5: x = sa > sb ? sa : sb; break;
        case 6: x = sa > sb ? sa : sb; x = x < 0 ? 0 : x; break;
        case 7: x = sa < sb ? sa : sb; x = x < 0 ? 0 : x; break;
        case 8: x = -sa; break;
        default: x = (int32_t)(ua > ub ? ua : ub); x = (int32_t)((uint32_t)x > uc ? (uint32_t)x : uc); break;
        }
        r |= ((uint32_t)x & 0xffff) << 16 * h;
    }
    return r;
}

static void run_simd(lockstep_device *dev, lockstep_module *mod, const char *mode)
{
    lockstep_kernel *k = e2e_kernel(dev, mod, "i16x2_ops");
    enum { N = 300 };
    static uint32_t a[N], b[N], got[N * I16_N], want[N * I16_N];
    static const uint16_t edge[] = {0, 1, 0x7fff, 0x8000, 0xffff, 0x8001, 0x7ffe, 0x1234};
    uint64_t s = 0x5133dull;
    for (uint32_t i = 0; i < N; i++) {
        uint64_t r = e2e_rand(&s);
        a[i] = i < 64 ? edge[i % 8] | (uint32_t)edge[i / 8] << 16 : (uint32_t)r;
        b[i] = i < 64 ? edge[i / 8] | (uint32_t)edge[(i * 3) % 8] << 16 : (uint32_t)(r >> 32);
        for (int op = 0; op < I16_N; op++)
            want[(size_t)i * I16_N + op] = simd_ref(op, a[i], b[i]);
    }
    lockstep_dptr da = e2e_upload(dev, a, sizeof a), db = e2e_upload(dev, b, sizeof b);
    lockstep_dptr dout = e2e_alloc(dev, sizeof got);
    int n = N;
    if (k && da && db && dout) {
        static const char *const names[I16_N] = {
            "__vadd2", "__vsub2", "__vminu2", "__vmins2", "__vmaxu2", "__vmaxs2",
            "__vimax_s16x2_relu", "__vimin_s16x2_relu", "__vneg2", "__vimax3_u16x2"};
        e2e_layout lay = {I16_N, names};
        void *args[] = {&da, &db, &dout, &n};
        if (e2e_launch(dev, k, "i16x2_ops", e2e_dim3(3, 1, 1), e2e_dim3(128, 1, 1), 0, args) &&
            e2e_download(dev, got, dout, sizeof got))
            CHECK_MSG(e2e_cmp_u32(mode, got, want, (size_t)N * I16_N, &lay) == 0, "%s: i16x2_ops",
                      mode);
    }
    e2e_free(dev, da);
    e2e_free(dev, db);
    e2e_free(dev, dout);
}

static void run_cg_tiles(lockstep_device *dev, lockstep_module *mod, const char *mode)
{
    lockstep_kernel *k = e2e_kernel(dev, mod, "cg_tile64");
    enum { BLOCK = 256, GRID = 3, N = BLOCK * GRID };
    static int32_t in[N], got[3 * N], want[3 * N], got2[3 * N], want2[3 * N];
    for (int i = 0; i < N; i++)
        in[i] = i * 3 + 1 - (i % 7) * 5;
    for (int i = 0; i < N; i++) {
        int t = i % BLOCK, base = i - t;
        int g = t / 64, s = 0, g2 = t / 128, s2 = 0;
        for (int j = g * 64; j < g * 64 + 64; j++)
            s += in[base + j];
        for (int j = g2 * 128; j < g2 * 128 + 128; j++)
            s2 += in[base + j] + (j ^ 1) * 7;
        want[3 * i] = s;
        want[3 * i + 1] = in[base + g * 64 + 5];
        want[3 * i + 2] = g * 1000 + t % 64;
        want2[3 * i] = s2;
        want2[3 * i + 1] = in[base + g2 * 128 + 127];
        want2[3 * i + 2] = g2 * 1000 + t % 128;
    }
    lockstep_dptr din = e2e_upload(dev, in, sizeof in), dout = e2e_alloc(dev, sizeof got);
    lockstep_dptr dout2 = e2e_alloc(dev, sizeof got2);
    if (k && din && dout && dout2) {
        static const char *const names[3] = {"sum", "shfl", "ranks"};
        e2e_layout lay = {3, names};
        void *args[] = {&din, &dout, &dout2};
        if (e2e_launch(dev, k, "cg_tile64", e2e_dim3(GRID, 1, 1), e2e_dim3(BLOCK, 1, 1), 0, args) &&
            e2e_download(dev, got, dout, sizeof got) && e2e_download(dev, got2, dout2, sizeof got2)) {
            CHECK_MSG(e2e_cmp_i32(mode, got, want, 3 * N, &lay) == 0, "%s: tiles of 64", mode);
            CHECK_MSG(e2e_cmp_i32(mode, got2, want2, 3 * N, &lay) == 0, "%s: tiles of 128", mode);
        }
    }
    e2e_free(dev, din);
    e2e_free(dev, dout);
    e2e_free(dev, dout2);
}

/* ---- in both modes --------------------------------------------------------------------- */

typedef void (*ptx_case)(lockstep_device *, const char *);
typedef void (*cu_case)(lockstep_device *, lockstep_module *, const char *);

static void both_modes(ptx_case f)
{
    lockstep_device *dev = e2e_device();
    f(dev, "functional");
    e2e_device_destroy(dev);
    dev = e2e_timing_device("configs/titanv.config", NULL);
    f(dev, "timing");
    e2e_device_destroy(dev);
}

static void both_modes_cu(cu_case f)
{
    for (int m = 0; m < 2; m++) {
        lockstep_device *dev = m ? e2e_timing_device("configs/titanv.config", NULL) : e2e_device();
        lockstep_module *mod = e2e_load(dev, "half_ops.ptx");
        if (mod) {
            f(dev, mod, m ? "timing" : "functional");
            lockstep_module_unload(mod);
        }
        e2e_device_destroy(dev);
    }
}

static void test_host_half(void)
{
    /* the reference converter itself, on values whose encoding is known */
    CHECK_EQ_U64(d2h(1.0, 0), 0x3c00);
    CHECK_EQ_U64(d2h(65504.0, 0), 0x7bff);
    CHECK_EQ_U64(d2h(65520.0, 0), 0x7c00);        /* the tie above the largest: to infinity */
    CHECK_EQ_U64(d2h(65519.99, 0), 0x7bff);
    CHECK_EQ_U64(d2h(ldexp(1.0, -24), 0), 0x0001); /* the smallest subnormal */
    CHECK_EQ_U64(d2h(ldexp(1.0, -25), 0), 0x0000); /* a tie: to even (zero) */
    CHECK_EQ_U64(d2h(ldexp(3.0, -25), 0), 0x0002); /* 1.5 quanta: to even (2) */
    CHECK_EQ_U64(d2h(1.0 + ldexp(1.0, -11), 0), 0x3c00);
    CHECK_EQ_U64(d2h(1.0 + ldexp(3.0, -11), 0), 0x3c02);
    CHECK_EQ_U64(d2h(-2.0, 1), 0xc000);
    CHECK_EQ_U64(d2h(1.0 + ldexp(1.0, -8), 1), 0x3f80);
    CHECK_EQ_U64(d2h(1.0 + ldexp(3.0, -8), 1), 0x3f82);
    CHECK_EQ_U64(d2h(ldexp(1.0, -133), 1), 0x0001);
    CHECK_EQ_U64(d2h(ldexp(1.0, 128), 1), 0x7f80);
    for (uint32_t x = 0; x < 0x10000; x++) /* every finite value converts back to itself */
        for (int bf = 0; bf < 2; bf++)
            if (!isnan16((uint16_t)x, bf) && d2h(h2d((uint16_t)x, bf), bf) != x)
                CHECK_MSG(0, "%s 0x%04x round trip", bf ? "bf16" : "f16", x);
}

static void test_set_forms(void) { both_modes(run_set_forms); }
static void test_atom_forms(void) { both_modes(run_atom_forms); }
static void test_i16x2_forms(void) { both_modes(run_i16x2); }
static void test_rsmem(void) { both_modes(run_rsmem); }

static void test_half_kernels(void)
{
    both_modes_cu(run_half_cmp);
    both_modes_cu(run_half_atomics);
    both_modes_cu(run_simd);
    both_modes_cu(run_cg_tiles);
}

int main(void)
{
    RUN(test_host_half);
    RUN(test_set_forms);
    RUN(test_atom_forms);
    RUN(test_i16x2_forms);
    RUN(test_rsmem);
    RUN(test_half_kernels);
    return test_summary();
}
