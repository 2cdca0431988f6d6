/*
 * test_wmma.c -- wmma in PTX, in functional and timing mode: bf16 inputs
 * with an f32 accumulator, integer accumulation with .satfinite and without
 * (wrapping), the default stride, a wmma.mma run by part of a warp (a
 * fault), the tensor unit's latency in timing mode; and, generated, one
 * kernel per form (test_forms): every shape (m16n16k16, m32n8k16,
 * m8n32k16, m16n16k8, m8n8k4) with each input type it takes (f16 with an
 * f32 or f16 accumulator or both, bf16, s8, u8, tf32, f64), A, B
 * and C/D each row- and column-major, padded strides and the default one,
 * each D = A x B + C against the CPU.  The inputs make every sum exact, so
 * the CPU's result is the only right one; tf32 inputs carry low mantissa
 * bits the multiply must drop, and two f64 cases (.rp, .rz) need the
 * rounding mode.  A load or store by part of a warp faults too.
 */
#include <stdio.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"

static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    /* D = A x B + C for one bf16 tile; A row-major, B column-major, default stride */
    ".visible .entry bf(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d)\n{\n"
    "  .reg .b32 %r<20>; .reg .f32 %f<20>; .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [a]; ld.param.u64 %rd2, [b]; ld.param.u64 %rd3, [c]; ld.param.u64 %rd4, [d];\n"
    "  wmma.load.a.sync.aligned.row.m16n16k16.bf16 {%r0, %r1, %r2, %r3}, [%rd1];\n"
    "  wmma.load.b.sync.aligned.col.m16n16k16.bf16 {%r8, %r9, %r10, %r11}, [%rd2];\n"
    "  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, [%rd3];\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32 {%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15},"
    " {%r0, %r1, %r2, %r3}, {%r8, %r9, %r10, %r11},"
    " {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};\n"
    "  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd4], {%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15};\n"
    "  ret;\n}\n"
    /* s8 with .satfinite (sat != 0) or wrapping */
    ".visible .entry i8(.param .u64 a, .param .u64 b, .param .u64 d, .param .u32 sat)\n{\n"
    "  .reg .b32 %r<30>; .reg .b64 %rd<4>; .reg .pred %p1;\n"
    "  ld.param.u64 %rd1, [a]; ld.param.u64 %rd2, [b]; ld.param.u64 %rd3, [d]; ld.param.u32 %r29, [sat];\n"
    "  wmma.load.a.sync.aligned.row.m16n16k16.global.s8 {%r0, %r1}, [%rd1], 16;\n"
    "  wmma.load.b.sync.aligned.col.m16n16k16.global.s8 {%r2, %r3}, [%rd2], 16;\n"
    "  mov.u32 %r4, 2147483000; mov.u32 %r5, %r4; mov.u32 %r6, %r4; mov.u32 %r7, %r4;\n"
    "  mov.u32 %r8, %r4; mov.u32 %r9, %r4; mov.u32 %r10, %r4; mov.u32 %r11, %r4;\n"
    "  setp.ne.u32 %p1, %r29, 0;\n"
    "  @%p1 bra SAT;\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32 {%r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19},"
    " {%r0, %r1}, {%r2, %r3}, {%r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11};\n"
    "  bra DONE;\n"
    "SAT:\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32.satfinite {%r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19},"
    " {%r0, %r1}, {%r2, %r3}, {%r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11};\n"
    "DONE:\n"
    "  wmma.store.d.sync.aligned.col.m16n16k16.global.s32 [%rd3], {%r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19}, 16;\n"
    "  ret;\n}\n"
    /* half the warp: a fault */
    ".visible .entry half_warp(.param .u64 a)\n{\n"
    "  .reg .b32 %r<9>; .reg .pred %p1;\n"
    "  mov.u32 %r8, %tid.x; setp.lt.u32 %p1, %r8, 16; @!%p1 bra END;\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16 {%r0, %r1, %r2, %r3},"
    " {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7},"
    " {%r0, %r1, %r2, %r3};\n"
    "END:\n  ret;\n}\n";

static uint16_t bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16); /* exact for the values used */
}

static void run_mode(const char *mode)
{
    lockstep_config *cfg;
    lockstep_device *dev;
    lockstep_config_create(&cfg);
    lockstep_config_set(cfg, "-lockstep_mode", mode);
    CHECK(lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS);
    lockstep_config_destroy(cfg);
    lockstep_module *mod;
    lockstep_status st = lockstep_module_load_ptx(dev, ptx, strlen(ptx), "wmma.ptx", &mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s", lockstep_device_last_error(dev));
    lockstep_kernel *kb, *ki, *kh;
    CHECK(lockstep_module_get_kernel(mod, "bf", &kb) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "i8", &ki) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "half_warp", &kh) == LOCKSTEP_SUCCESS);
    lockstep_dptr a, b, c, d;
    lockstep_malloc(dev, 4096, &a);
    lockstep_malloc(dev, 4096, &b);
    lockstep_malloc(dev, 4096, &c);
    lockstep_malloc(dev, 4096, &d);

    /* bf16: A[i][k] = (i - k) / 2, B[k][j] = (k + 2j) / 4 (stored by column), C = i */
    uint16_t ha[256], hb[256];
    float hc[256], want[256], got[256];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) {
            ha[i * 16 + k] = bf16((float)(i - k) / 2);
            hb[i * 16 + k] = bf16((float)(k + 2 * i) / 4); /* column i: B[k][i] */
        }
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            hc[i * 16 + j] = (float)i;
            float s = (float)i;
            for (int k = 0; k < 16; k++)
                s += ((float)(i - k) / 2) * ((float)(k + 2 * j) / 4);
            want[i * 16 + j] = s;
        }
    lockstep_memcpy_htod(dev, a, ha, sizeof ha);
    lockstep_memcpy_htod(dev, b, hb, sizeof hb);
    lockstep_memcpy_htod(dev, c, hc, sizeof hc);
    void *args[] = {&a, &b, &c, &d};
    lockstep_launch_stats stats;
    st = lockstep_launch_args(dev, kb, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1}, 0, args,
                              &stats);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s", mode, lockstep_device_last_error(dev));
    lockstep_memcpy_dtoh(dev, got, d, sizeof got);
    CHECK_MSG(!memcmp(want, got, sizeof got), "%s: bf16 D differs (D[1][2] %g, want %g)", mode,
              (double)got[18], (double)want[18]);
    /* bf16 A and B (4 registers: one part each, generic addresses), 2 parts
     * per f32 C load and D store, the mma, ld.param x4, ret */
    CHECK_EQ_U64(stats.warp_insts, 4 + 1 + 1 + 2 + 1 + 2 + 1);
    if (stats.timing)
        CHECK_MSG(stats.t.cycles > 64, "%s: the mma's latency: %llu cycles", mode,
                  (unsigned long long)stats.t.cycles);

    /* s8: every product 127 * 127 added to 2147483000 overflows */
    int8_t sa[256], sb[256];
    for (int i = 0; i < 256; i++)
        sa[i] = sb[i] = 127;
    lockstep_memcpy_htod(dev, a, sa, sizeof sa);
    lockstep_memcpy_htod(dev, b, sb, sizeof sb);
    for (uint32_t sat = 0; sat < 2; sat++) {
        void *iargs[] = {&a, &b, &d, &sat};
        st = lockstep_launch_args(dev, ki, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1}, 0,
                                  iargs, NULL);
        CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s", mode, lockstep_device_last_error(dev));
        int32_t r[256];
        lockstep_memcpy_dtoh(dev, r, d, sizeof r);
        int32_t w = sat ? INT32_MAX : (int32_t)(2147483000u + 16u * 127u * 127u);
        int bad = 0;
        for (int i = 0; i < 256; i++)
            bad += r[i] != w;
        CHECK_MSG(!bad, "%s: s8 %s: %d wrong (r[0] %d, want %d)", mode,
                  sat ? "satfinite" : "wrapping", bad, r[0], w);
    }

    /* part of a warp */
    st = lockstep_launch_args(dev, kh, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1}, 0, args,
                              NULL);
    CHECK_MSG(st == LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION &&
                  strstr(lockstep_device_last_error(dev), "every lane"),
              "%s: %s", mode, lockstep_device_last_error(dev));
    lockstep_device_destroy(dev);
}

static void test_functional(void) { run_mode("functional"); }
static void test_timing(void) { run_mode("timing"); }

/* ---- every form, generated -------------------------------------------------------- */

enum { IT_F16, IT_BF16, IT_S8, IT_U8, IT_TF32, IT_F64 };  /* A and B */
enum { CT_F32, CT_F16, CT_S32, CT_F64 };                          /* C, D */
static const struct { const char *name; int m, n, k; } shapes[] = {
    {"m16n16k16", 16, 16, 16}, {"m32n8k16", 32, 8, 16}, {"m8n32k16", 8, 32, 16},
    {"m16n16k8", 16, 16, 8}, {"m8n8k4", 8, 8, 4},
};

typedef struct wcase {
    int shape, it, ct, dt;
    int acol, bcol, ccol;
    int dflt;   /* the default stride (no stride operand) */
    int rnd;    /* f64: 0 .rn (by default), 1 .rp, 2 .rz: the rounding cases */
} wcase;

static wcase cases[160];
static int ncases;

static void add_case(int shape, int it, int ct, int dt, int acol, int bcol, int ccol, int dflt,
                     int rnd)
{
    if (ncases < (int)(sizeof cases / sizeof cases[0]))
        cases[ncases++] = (wcase){shape, it, ct, dt, acol, bcol, ccol, dflt, rnd};
}

static void make_cases(void)
{
    ncases = 0;
    for (int sh = 0; sh < 3; sh++) {
        for (int lay = 0; lay < 8; lay++) {
            int a = lay & 1, b = lay >> 1 & 1, c = lay >> 2;
            add_case(sh, IT_F16, CT_F32, CT_F32, a, b, c, 0, 0);
            add_case(sh, IT_F16, CT_F16, CT_F16, a, b, c, 0, 0);
            add_case(sh, IT_BF16, CT_F32, CT_F32, a, b, c, 0, 0);
            add_case(sh, IT_S8, CT_S32, CT_S32, a, b, c, 0, 0);
        }
        add_case(sh, IT_F16, CT_F16, CT_F32, 0, 1, 0, 0, 0);
        add_case(sh, IT_F16, CT_F32, CT_F16, 1, 0, 1, 0, 0);
        add_case(sh, IT_U8, CT_S32, CT_S32, 0, 1, 1, 0, 0);
        add_case(sh, IT_U8, CT_S32, CT_S32, 1, 0, 0, 0, 0);
        add_case(sh, IT_F16, CT_F32, CT_F32, 0, 1, 0, 1, 0);
        add_case(sh, IT_F16, CT_F16, CT_F16, 1, 0, 1, 1, 0);
    }
    for (int lay = 0; lay < 8; lay++) {
        add_case(3, IT_TF32, CT_F32, CT_F32, lay & 1, lay >> 1 & 1, lay >> 2, 0, 0);
        add_case(4, IT_F64, CT_F64, CT_F64, lay & 1, lay >> 1 & 1, lay >> 2, 0, 0);
    }
    add_case(3, IT_TF32, CT_F32, CT_F32, 0, 1, 0, 1, 0);
    add_case(4, IT_F64, CT_F64, CT_F64, 0, 1, 0, 1, 0);
    add_case(4, IT_F64, CT_F64, CT_F64, 0, 1, 0, 0, 1);
    add_case(4, IT_F64, CT_F64, CT_F64, 1, 0, 1, 0, 2);
}

static const char *in_name(int t)
{
    static const char *const n[] = {"f16", "bf16", "s8", "u8", "tf32", "f64"};
    return n[t];
}
static const char *acc_name(int t)
{
    static const char *const n[] = {"f32", "f16", "s32", "f64"};
    return n[t];
}
static int in_size(int t) { return t == IT_F16 || t == IT_BF16 ? 2 : t == IT_F64 ? 8 : t == IT_TF32 ? 4 : 1; }
static int acc_size(int t) { return t == CT_F16 ? 2 : t == CT_F64 ? 8 : 4; }

/* PTX's fragment register counts. */
static int in_regs(int t, int elems) { return t == IT_F16 ? 8 : t == IT_F64 ? 1 : elems * in_size(t) / 4; }
static int acc_regs(int t) { return t == CT_F16 ? 4 : t == CT_F64 ? 2 : 8; }

/* "{%p0, %p1, ...}" of n registers named prefix from first. */
static void regs(char *out, size_t cap, const char *prefix, int first, int n)
{
    size_t k = 0;
    k += (size_t)snprintf(out + k, cap - k, "{");
    for (int i = 0; i < n && k < cap; i++)
        k += (size_t)snprintf(out + k, cap - k, "%s%s%d", i ? ", " : "", prefix, first + i);
    if (k < cap)
        snprintf(out + k, cap - k, "}");
}

/* Append case i's kernel w<i>(a, b, c, d, sa, sb, sc) to buf. */
static void gen_kernel(char *buf, size_t cap, int i)
{
    const wcase *w = &cases[i];
    int M = shapes[w->shape].m, N = shapes[w->shape].n, K = shapes[w->shape].k;
    int at = w->it, bt = w->it;
    char A[160], B[160], C[160], D[160], types[64], sa[16] = "", sb[16] = "", sc[16] = "";
    if (w->it == IT_F64) {
        snprintf(A, sizeof A, "{%%fd4}");
        snprintf(B, sizeof B, "{%%fd5}");
        snprintf(C, sizeof C, "{%%fd0, %%fd1}");
        snprintf(D, sizeof D, "{%%fd2, %%fd3}");
    } else {
        regs(A, sizeof A, "%r", 0, in_regs(at, M * K / 32));
        regs(B, sizeof B, "%r", 8, in_regs(bt, K * N / 32));
        regs(C, sizeof C, w->ct == CT_F32 ? "%f" : "%r", 16, acc_regs(w->ct));
        regs(D, sizeof D, w->dt == CT_F32 ? "%f" : "%r", 24, acc_regs(w->dt));
    }
    if (w->it == IT_F16)
        snprintf(types, sizeof types, "%s.%s", acc_name(w->dt), acc_name(w->ct));
    else
        snprintf(types, sizeof types, "%s%s.%s.%s.%s", w->rnd == 1 ? "rp." : w->rnd == 2 ? "rz." : "",
                 acc_name(w->dt), in_name(at), in_name(bt), acc_name(w->ct));
    if (!w->dflt) {
        snprintf(sa, sizeof sa, ", %%r40");
        snprintf(sb, sizeof sb, ", %%r41");
        snprintf(sc, sizeof sc, ", %%r42");
    }
    const char *lay[] = {"row", "col"};
    size_t k = strlen(buf);
    snprintf(buf + k, cap - k,
             ".visible .entry w%d(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d,"
             " .param .u32 sa, .param .u32 sb, .param .u32 sc)\n{\n"
             "  .reg .b32 %%r<48>; .reg .f32 %%f<40>; .reg .f64 %%fd<8>; .reg .b64 %%rd<5>;\n"
             "  ld.param.u64 %%rd1, [a]; ld.param.u64 %%rd2, [b]; ld.param.u64 %%rd3, [c]; ld.param.u64 %%rd4, [d];\n"
             "  ld.param.u32 %%r40, [sa]; ld.param.u32 %%r41, [sb]; ld.param.u32 %%r42, [sc];\n"
             "  wmma.load.a.sync.aligned.%s.%s.global.%s %s, [%%rd1]%s;\n"
             "  wmma.load.b.sync.aligned.%s.%s.global.%s %s, [%%rd2]%s;\n"
             "  wmma.load.c.sync.aligned.%s.%s.global.%s %s, [%%rd3]%s;\n"
             "  wmma.mma.sync.aligned.%s.%s.%s.%s %s, %s, %s, %s;\n"
             "  wmma.store.d.sync.aligned.%s.%s.global.%s [%%rd4], %s%s;\n"
             "  ret;\n}\n",
             i, lay[w->acol], shapes[w->shape].name, in_name(at), A, sa,
             lay[w->bcol], shapes[w->shape].name, in_name(bt), B, sb,
             lay[w->ccol], shapes[w->shape].name, acc_name(w->ct), C, sc,
             lay[w->acol], lay[w->bcol], shapes[w->shape].name, types, D, A, B, C,
             lay[w->ccol], shapes[w->shape].name, acc_name(w->dt), D, sc);
}

/* An f16 or bf16 encoding of v (exact: the values used are). */
static uint16_t half_of(double v, int bf)
{
    if (v == 0)
        return 0;
    uint16_t sign = v < 0 ? 0x8000 : 0;
    v = fabs(v);
    int e = 0;
    while (v >= 2) {
        v /= 2;
        e++;
    }
    while (v < 1) {
        v *= 2;
        e--;
    }
    int mbits = bf ? 7 : 10, bias = bf ? 127 : 15;
    uint16_t frac = (uint16_t)((v - 1) * (1 << mbits));
    return (uint16_t)(sign | (uint16_t)(e + bias) << mbits | frac);
}

/* Element (r, c) of an input of case w: small exact values; integer types
 * take the range of their type. */
static double in_val(int t, int which, int r, int c)
{
    int h = (r * 7 + c * 13 + which * 5) % 19;
    switch (t) {
    case IT_S8: return (double)((r * 37 + c * 91 + which * 11) % 256 - 128);
    case IT_U8: return (double)((r * 53 + c * 29 + which * 7) % 256);
    case IT_F64: return (h - 9) * 0.375;
    default: return (h - 9) * 0.25; /* f16, bf16, tf32: multiples of 1/4 up to 2.25 */
    }
}

static double acc_val(int t, int r, int c)
{
    if (t == CT_S32)
        return (double)((r * 1000003 + c * 7919) % 100000 - 50000);
    return (double)((r * 3 + c * 5) % 11) - 5;
}

/* Store v as element `idx` of a buffer of type t (input or accumulator). */
static void put(uint8_t *buf, size_t idx, int it, int ct, double v, int low_bits)
{
    if (it >= 0) {
        switch (it) {
        case IT_F16: case IT_BF16: {
            uint16_t h = half_of(v, it == IT_BF16);
            memcpy(buf + 2 * idx, &h, 2);
            return;
        }
        case IT_S8: case IT_U8: buf[idx] = (uint8_t)(int)v; return;
        case IT_TF32: {
            float f = (float)v;
            uint32_t u;
            memcpy(&u, &f, 4);
            if (u)
                u |= (uint32_t)low_bits & 0x1fff; /* what the multiply drops */
            memcpy(buf + 4 * idx, &u, 4);
            return;
        }
        default: memcpy(buf + 8 * idx, &v, 8); return;
        }
    }
    switch (ct) {
    case CT_F16: {
        uint16_t h = half_of(v, 0);
        memcpy(buf + 2 * idx, &h, 2);
        return;
    }
    case CT_S32: {
        int32_t x = (int32_t)v;
        memcpy(buf + 4 * idx, &x, 4);
        return;
    }
    case CT_F64: memcpy(buf + 8 * idx, &v, 8); return;
    default: {
        float f = (float)v;
        memcpy(buf + 4 * idx, &f, 4);
        return;
    }
    }
}

static void run_forms(const char *mode)
{
    make_cases();
    size_t cap = 1 << 20;
    char *text = calloc(1, cap);
    snprintf(text, cap, ".version 8.0\n.target sm_80\n.address_size 64\n");
    for (int i = 0; i < ncases; i++)
        gen_kernel(text, cap, i);
    lockstep_config *cfg;
    lockstep_device *dev;
    lockstep_config_create(&cfg);
    lockstep_config_set(cfg, "-lockstep_mode", mode);
    CHECK(lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS);
    lockstep_config_destroy(cfg);
    lockstep_module *mod;
    lockstep_status st = lockstep_module_load_ptx(dev, text, strlen(text), "forms.ptx", &mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s", lockstep_device_last_error(dev));
    free(text);
    if (st) {
        lockstep_device_destroy(dev);
        return;
    }
    lockstep_dptr da, db, dc, dd;
    size_t bytes = 32 * 40 * 8;
    lockstep_malloc(dev, bytes, &da);
    lockstep_malloc(dev, bytes, &db);
    lockstep_malloc(dev, bytes, &dc);
    lockstep_malloc(dev, bytes, &dd);
    static uint8_t ha[32 * 40 * 8], hb[32 * 40 * 8], hc[32 * 40 * 8], hd[32 * 40 * 8];
    int bad_cases = 0;
    for (int i = 0; i < ncases; i++) {
        const wcase *w = &cases[i];
        int M = shapes[w->shape].m, N = shapes[w->shape].n, K = shapes[w->shape].k;
        int at = w->it, bt = w->it;
        /* strides in elements: the line length, padded by 16 bytes unless default */
        int la = w->acol ? M : K, lb = w->bcol ? K : N, lc = w->ccol ? M : N;
        int sa = la + (w->dflt ? 0 : 16 / in_size(at));
        int sb = lb + (w->dflt ? 0 : 16 / in_size(bt));
        int sc = lc + (w->dflt ? 0 : 16 / acc_size(w->ct));
        double A[32][32], B[32][32], C[32][32];
        memset(ha, 0, sizeof ha);
        memset(hb, 0, sizeof hb);
        memset(hc, 0, sizeof hc);
        for (int r = 0; r < M; r++)
            for (int k = 0; k < K; k++) {
                A[r][k] = in_val(at, 0, r, k);
                put(ha, w->acol ? (size_t)k * sa + r : (size_t)r * sa + k, at, -1, A[r][k],
                    r * 31 + k);
            }
        for (int k = 0; k < K; k++)
            for (int n = 0; n < N; n++) {
                B[k][n] = in_val(bt, 1, k, n);
                put(hb, w->bcol ? (size_t)n * sb + k : (size_t)k * sb + n, bt, -1, B[k][n],
                    k * 17 + n * 3 + 1);
            }
        for (int r = 0; r < M; r++)
            for (int n = 0; n < N; n++) {
                C[r][n] = w->rnd ? 0 : acc_val(w->ct, r, n);
                put(hc, w->ccol ? (size_t)n * sc + r : (size_t)r * sc + n, -1, w->ct, C[r][n], 0);
            }
        if (w->rnd) {
            /* one product that .rn rounds otherwise: with .rp (1 + 2^-52)^2 =
             * 1 + 2^-51 + 2^-104 goes up to 1 + 2^-51 + 2^-52; with .rz
             * -(1 + 2^-27 + 2^-52)(1 + 2^-26), half an ulp and a little past
             * -(1 + 2^-26 + 2^-27 + 2^-52), is cut back to that */
            double a0 = w->rnd == 1 ? 1 + ldexp(1, -52) : -(1 + ldexp(1, -27) + ldexp(1, -52));
            double b0 = w->rnd == 1 ? 1 + ldexp(1, -52) : 1 + ldexp(1, -26);
            for (int r = 0; r < M; r++)
                for (int k = 0; k < K; k++) {
                    A[r][k] = k == 0 ? a0 : 0;
                    put(ha, w->acol ? (size_t)k * sa + r : (size_t)r * sa + k, at, -1, A[r][k], 0);
                }
            for (int k = 0; k < K; k++)
                for (int n = 0; n < N; n++) {
                    B[k][n] = k == 0 ? b0 : 0;
                    put(hb, w->bcol ? (size_t)n * sb + k : (size_t)k * sb + n, bt, -1, B[k][n], 0);
                }
        }
        lockstep_memcpy_htod(dev, da, ha, bytes);
        lockstep_memcpy_htod(dev, db, hb, bytes);
        lockstep_memcpy_htod(dev, dc, hc, bytes);
        lockstep_memset(dev, dd, 0xee, bytes);
        char name[16];
        snprintf(name, sizeof name, "w%d", i);
        lockstep_kernel *kern;
        CHECK(lockstep_module_get_kernel(mod, name, &kern) == LOCKSTEP_SUCCESS);
        uint32_t usa = (uint32_t)sa, usb = (uint32_t)sb, usc = (uint32_t)sc;
        void *args[] = {&da, &db, &dc, &dd, &usa, &usb, &usc};
        st = lockstep_launch_args(dev, kern, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1},
                                  0, args, NULL);
        CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: case %d: %s", mode, i, lockstep_device_last_error(dev));
        lockstep_memcpy_dtoh(dev, hd, dd, bytes);
        /* the expected D, encoded like memory holds it */
        static uint8_t want[32 * 40 * 8];
        memset(want, 0xee, sizeof want);
        for (int r = 0; r < M; r++)
            for (int n = 0; n < N; n++) {
                double v = C[r][n];
                for (int k = 0; k < K; k++)
                    v += A[r][k] * B[k][n]; /* exact, but the rounding cases */
                if (w->rnd == 1)
                    v = 1 + ldexp(1, -51) + ldexp(1, -52);
                else if (w->rnd == 2)
                    v = -(1 + ldexp(1, -26) + ldexp(1, -27) + ldexp(1, -52));
                put(want, w->ccol ? (size_t)n * sc + r : (size_t)r * sc + n, -1, w->dt, v, 0);
            }
        size_t span = (size_t)(w->ccol ? N : M) * (size_t)sc * (size_t)acc_size(w->dt);
        if (memcmp(want, hd, span)) {
            size_t at_ = 0;
            while (at_ < span && want[at_] == hd[at_])
                at_++;
            if (bad_cases++ < 8)
                CHECK_MSG(0, "%s: case %d (%s %s C %s D %s, %s %s %s%s): D differs at byte %zu",
                          mode, i, shapes[w->shape].name, in_name(at), acc_name(w->ct), acc_name(w->dt),
                          w->acol ? "col" : "row", w->bcol ? "col" : "row",
                          w->ccol ? "col" : "row", w->dflt ? " default stride" : "", at_);
        }
        CHECK(1);
    }
    CHECK_MSG(!bad_cases, "%s: %d of %d forms wrong", mode, bad_cases, ncases);
    lockstep_device_destroy(dev);
}

static void test_forms_functional(void) { run_forms("functional"); }
static void test_forms_timing(void) { run_forms("timing"); }

/* A wmma.load and a wmma.store by half a warp fault, naming the instruction. */
static void test_partial_load(void)
{
    static const char part[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 a, .param .u32 st)\n{\n"
        "  .reg .b32 %r<12>; .reg .b64 %rd<2>; .reg .pred %p<3>;\n"
        "  ld.param.u64 %rd1, [a]; ld.param.u32 %r10, [st];\n"
        "  mov.u32 %r8, %tid.x; setp.lt.u32 %p1, %r8, 16; setp.ne.u32 %p2, %r10, 0;\n"
        "  @!%p1 bra END;\n  @%p2 bra ST;\n"
        "  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1];\n"
        "  bra END;\n"
        "ST:\n  wmma.store.d.sync.aligned.row.m16n16k16.global.f16 [%rd1], {%r0, %r1, %r2, %r3};\n"
        "END:\n  ret;\n}\n";
    for (int m = 0; m < 2; m++) {
        lockstep_config *cfg;
        lockstep_device *dev;
        lockstep_config_create(&cfg);
        lockstep_config_set(cfg, "-lockstep_mode", m ? "timing" : "functional");
        CHECK(lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS);
        lockstep_config_destroy(cfg);
        lockstep_module *mod;
        lockstep_kernel *k;
        CHECK(lockstep_module_load_ptx(dev, part, strlen(part), "part.ptx", &mod) == LOCKSTEP_SUCCESS);
        CHECK(lockstep_module_get_kernel(mod, "k", &k) == LOCKSTEP_SUCCESS);
        lockstep_dptr a;
        lockstep_malloc(dev, 4096, &a);
        for (uint32_t store = 0; store < 2; store++) {
            void *args[] = {&a, &store};
            lockstep_status st = lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1},
                                                      (lockstep_dim3){32, 1, 1}, 0, args, NULL);
            const char *e = lockstep_device_last_error(dev);
            CHECK_MSG(st == LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION && strstr(e, "every lane") &&
                          strstr(e, store ? "wmma.store" : "wmma.load"),
                      "%s", e);
        }
        lockstep_device_destroy(dev);
    }
}

int main(void)
{
    RUN(test_functional);
    RUN(test_timing);
    RUN(test_forms_functional);
    RUN(test_forms_timing);
    RUN(test_partial_load);
    return test_summary();
}
