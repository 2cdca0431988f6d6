/*
 * test_mma.c -- mma.sync, ldmatrix and movmatrix in PTX, in functional and
 * timing mode.
 *
 * test_forms: one generated kernel per mma form (f16 m16n8k8 and m16n8k16
 * with f32 and f16 accumulators, the four layouts of m8n8k4 with f16, f32
 * and mixed accumulators, bf16 m16n8k8/k16, tf32 m16n8k4/k8, s8/u8
 * m8n8k16, m16n8k16 and m16n8k32 with and without .satfinite, f64 m8n8k4
 * and m16n8k4/k8/k16).  Each lane's fragment registers are built on the
 * host from the PTX ISA's "Matrix Fragments for mma.mMnNkK" formulas,
 * written out below as the ISA states them (isa_pos), loaded, multiplied,
 * and the D fragment decoded the same way and compared with the CPU's
 * D = A x B + C.  The inputs make every sum exact; the integer ones
 * overflow, so wrapping and clamping differ.
 *
 * test_ldmatrix: .x1, .x2, .x4, with and without .trans, each lane's
 * registers against the ISA's layout (thread l gets row l/4, elements
 * 2(l%4) and 2(l%4)+1 of each matrix), with rows scattered in shared
 * memory; then the usual pairing: A by ldmatrix.x4 and B by
 * ldmatrix.x2.trans (and by .x2 from a transposed copy) into
 * mma.m16n8k16, against a CPU product.  test_movmatrix: a transpose.
 * test_partial: mma, ldmatrix and movmatrix by half a warp fault.
 */
#include <stdio.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"

enum { T_F16, T_BF16, T_TF32, T_S8, T_U8, T_F64, T_F32, T_S32 };
static const char *const tname[] = {"f16", "bf16", "tf32", "s8", "u8", "f64", "f32", "s32"};

typedef struct mform {
    int m, n, k;
    int at, bt, ct, dt;
    int acol, bcol;
    int satf;
} mform;

static const mform forms[] = {
    {16, 8, 8, T_F16, T_F16, T_F32, T_F32, 0, 1, 0},
    {16, 8, 8, T_F16, T_F16, T_F16, T_F16, 0, 1, 0},
    {16, 8, 16, T_F16, T_F16, T_F32, T_F32, 0, 1, 0},
    {16, 8, 16, T_F16, T_F16, T_F16, T_F16, 0, 1, 0},
    {8, 8, 4, T_F16, T_F16, T_F32, T_F32, 0, 0, 0},
    {8, 8, 4, T_F16, T_F16, T_F32, T_F32, 0, 1, 0},
    {8, 8, 4, T_F16, T_F16, T_F16, T_F16, 1, 0, 0},
    {8, 8, 4, T_F16, T_F16, T_F16, T_F32, 1, 1, 0},
    {8, 8, 4, T_F16, T_F16, T_F16, T_F16, 0, 1, 0},
    {16, 8, 8, T_BF16, T_BF16, T_F32, T_F32, 0, 1, 0},
    {16, 8, 16, T_BF16, T_BF16, T_F32, T_F32, 0, 1, 0},
    {16, 8, 4, T_TF32, T_TF32, T_F32, T_F32, 0, 1, 0},
    {16, 8, 8, T_TF32, T_TF32, T_F32, T_F32, 0, 1, 0},
    {8, 8, 16, T_S8, T_S8, T_S32, T_S32, 0, 1, 0},
    {8, 8, 16, T_U8, T_S8, T_S32, T_S32, 0, 1, 1},
    {16, 8, 16, T_S8, T_S8, T_S32, T_S32, 0, 1, 0},
    {16, 8, 16, T_S8, T_U8, T_S32, T_S32, 0, 1, 1},
    {16, 8, 32, T_S8, T_S8, T_S32, T_S32, 0, 1, 1},
    {16, 8, 32, T_U8, T_U8, T_S32, T_S32, 0, 1, 0},
    {8, 8, 4, T_F64, T_F64, T_F64, T_F64, 0, 1, 0},
    {16, 8, 4, T_F64, T_F64, T_F64, T_F64, 0, 1, 0},
    {16, 8, 8, T_F64, T_F64, T_F64, T_F64, 0, 1, 0},
    {16, 8, 16, T_F64, T_F64, T_F64, T_F64, 0, 1, 0},
};
#define NFORMS ((int)(sizeof forms / sizeof forms[0]))

static int esize(int t)
{
    return t == T_S8 || t == T_U8 ? 1 : t == T_F16 || t == T_BF16 ? 2 : t == T_F64 ? 8 : 4;
}
static int quads(const mform *f) { return f->m == 8 && f->k == 4 && f->at == T_F16; }
/* elements per lane of a matrix of rows x cols */
static int per_lane(const mform *f, int rows, int cols) { return rows * cols * (quads(f) ? 4 : 1) / 32; }
static int nregs(int t, int elems) { return esize(t) >= 4 ? elems : elems * esize(t) / 4; }

/*
 * The PTX ISA's fragment layouts, as its "Matrix Fragments for mma..."
 * sections state them: element i of lane l of matrix `mat` (0 A, 1 B, 2
 * C/D of type t) is (row, col) of product q.
 */
static void isa_pos(const mform *f, int mat, int t, int l, int i, int *q, int *row, int *col)
{
    int groupID = l >> 2, tig = l % 4;
    *q = 0;
    if (quads(f)) {
        /* m8n8k4 .f16: computation 1 on lanes 0-3 and 16-19, 2 on 4-7 and
         * 20-23, ... */
        int high = l >= 16;
        *q = (l % 16) / 4;
        if (mat == 0 && !f->acol) {
            *row = l % 4 + (high ? 4 : 0);
            *col = i;
        } else if (mat == 0) {
            *row = i % 4 + (high ? 4 : 0);
            *col = l % 4;
        } else if (mat == 1 && !f->bcol) {
            *row = l % 4;
            *col = high ? i + 4 : i;
        } else if (mat == 1) {
            *row = i;
            *col = l % 4 + (high ? 4 : 0);
        } else if (t == T_F16) {
            *row = l % 4 + (high ? 4 : 0);
            *col = i;
        } else {
            int X = (l & 1) + (i & 2);
            *row = high ? X + 4 : X;
            *col = (i & 4) + (l & 2) + (i & 1);
        }
        return;
    }
    if (mat == 2) {
        if (f->m == 8) { /* m8n8k16 .s32, m8n8k4 .f64 */
            *row = groupID;
            *col = tig * 2 + (i & 1);
        } else {
            *row = i < 2 ? groupID : groupID + 8;
            *col = tig * 2 + (i & 1);
        }
        return;
    }
    int a = mat == 0;
    switch (f->at) {
    case T_F16: case T_BF16:
        if (f->k == 8) {
            if (a) {
                *row = i < 2 ? groupID : groupID + 8;
                *col = tig * 2 + (i & 1);
            } else {
                *row = tig * 2 + i;
                *col = groupID;
            }
        } else { /* k16 */
            if (a) {
                *row = (i < 2 || (i >= 4 && i < 6)) ? groupID : groupID + 8;
                *col = tig * 2 + (i & 1) + (i >= 4 ? 8 : 0);
            } else {
                *row = tig * 2 + (i & 1) + (i >= 2 ? 8 : 0);
                *col = groupID;
            }
        }
        return;
    case T_TF32: case T_F64:
        if (f->m == 8) { /* m8n8k4 .f64 */
            *row = a ? l >> 2 : l % 4;
            *col = a ? l % 4 : l >> 2;
        } else if (f->k == 4) {
            *row = a ? (i == 0 ? groupID : groupID + 8) : tig;
            *col = a ? tig : groupID;
        } else if (f->k == 8) {
            if (a) {
                *row = (i == 0 || i == 2) ? groupID : groupID + 8;
                *col = i < 2 ? tig : tig + 4;
            } else {
                *row = i == 0 ? tig : tig + 4;
                *col = groupID;
            }
        } else { /* m16n8k16 .f64 */
            if (a) {
                *row = i % 2 == 0 ? groupID : groupID + 8;
                *col = i % 2 == 0 ? i * 2 + tig : i * 2 - 2 + tig;
            } else {
                *row = tig + i * 4;
                *col = groupID;
            }
        }
        return;
    default: /* .s8, .u8 */
        if (f->m == 8) {
            *row = a ? groupID : tig * 4 + i;
            *col = a ? tig * 4 + i : groupID;
        } else if (f->k == 16) {
            if (a) {
                *row = i < 4 ? groupID : groupID + 8;
                *col = tig * 4 + (i & 3);
            } else {
                *row = tig * 4 + i;
                *col = groupID;
            }
        } else { /* k32 */
            if (a) {
                *row = (i < 4 || (i >= 8 && i < 12)) ? groupID : groupID + 8;
                *col = tig * 4 + (i & 3) + (i >= 8 ? 16 : 0);
            } else {
                *row = tig * 4 + (i & 3) + (i >= 4 ? 16 : 0);
                *col = groupID;
            }
        }
        return;
    }
}

/* f16/bf16 bits of an exactly representable value */
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
    return (uint16_t)(sign | (uint16_t)(e + bias) << mbits | (uint16_t)((v - 1) * (1 << mbits)));
}

static double half_val(uint16_t h)
{
    int e = h >> 10 & 31, m = h & 1023;
    double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return h & 0x8000 ? -v : v;
}

/* The bits of v as an element of type t (tf32: with junk in the 13 low
 * mantissa bits the multiply must ignore). */
static uint64_t bits_of(int t, double v, int junk)
{
    switch (t) {
    case T_F16: return half_of(v, 0);
    case T_BF16: return half_of(v, 1);
    case T_S8: case T_U8: return (uint8_t)(int)v;
    case T_S32: return (uint32_t)(int32_t)(int64_t)v;
    case T_F64: {
        uint64_t u;
        memcpy(&u, &v, 8);
        return u;
    }
    default: {
        float x = (float)v;
        uint32_t u;
        memcpy(&u, &x, 4);
        if (t == T_TF32 && u)
            u |= (uint32_t)junk & 0x1fff;
        return u;
    }
    }
}

static double value_of(int t, uint64_t b)
{
    switch (t) {
    case T_F16: return half_val((uint16_t)b);
    case T_S32: return (double)(int32_t)(uint32_t)b;
    case T_F64: {
        double d;
        memcpy(&d, &b, 8);
        return d;
    }
    default: {
        float x;
        uint32_t u = (uint32_t)b;
        memcpy(&x, &u, 4);
        return x;
    }
    }
}

static double in_val(int t, int which, int q, int r, int c)
{
    int h = (r * 7 + c * 13 + which * 5 + q * 3) % 19;
    switch (t) {
    case T_S8: return (double)((r * 37 + c * 91 + which * 11 + q) % 256 - 128);
    case T_U8: return (double)((r * 53 + c * 29 + which * 7 + q) % 256);
    case T_F64: return (h - 9) * 0.375;
    default: return (h - 9) * 0.25;
    }
}

/* Pack element i (bits v of type t) into a lane's registers. */
static void pack(uint64_t *regs, int t, int i, uint64_t v)
{
    int per = esize(t) >= 4 ? 1 : 4 / esize(t), bits = 8 * esize(t);
    regs[i / per] |= v << (bits * (i % per));
}

static uint64_t unpack(const uint64_t *regs, int t, int i)
{
    int per = esize(t) >= 4 ? 1 : 4 / esize(t), bits = 8 * esize(t);
    if (bits == 64)
        return regs[i];
    return (regs[i / per] >> (bits * (i % per))) & ((1ull << bits) - 1);
}

/* "{%pN, ...}" */
static void vec(char *out, size_t cap, const char *p, int first, int n)
{
    size_t k = (size_t)snprintf(out, cap, "{");
    for (int i = 0; i < n && k < cap; i++)
        k += (size_t)snprintf(out + k, cap - k, "%s%s%d", i ? ", " : "", p, first + i);
    if (k < cap)
        snprintf(out + k, cap - k, "}");
}

static const char *rprefix(int t) { return t == T_F64 ? "%fd" : t == T_F32 ? "%f" : "%r"; }

/* Kernel m<i>: each lane loads its fragments (8 slots of 8 bytes each per
 * lane and operand), runs form i's mma, stores D. */
static void gen_kernel(char *buf, size_t cap, int idx)
{
    const mform *f = &forms[idx];
    int na = nregs(f->at, per_lane(f, f->m, f->k)), nb = nregs(f->bt, per_lane(f, f->k, f->n));
    int nc = nregs(f->ct, per_lane(f, f->m, f->n)), nd = nregs(f->dt, per_lane(f, f->m, f->n));
    char A[128], B[128], C[128], D[128], body[4096];
    vec(A, sizeof A, rprefix(f->at), 0, na);
    vec(B, sizeof B, rprefix(f->bt), 8, nb);
    vec(C, sizeof C, rprefix(f->ct), 16, nc);
    vec(D, sizeof D, rprefix(f->dt), 24, nd);
    size_t k = 0;
    body[0] = 0;
    const struct { int n, first, t; const char *ptr; } ops[] = {
        {na, 0, f->at, "%rd1"}, {nb, 8, f->bt, "%rd2"}, {nc, 16, f->ct, "%rd3"}};
    for (int o = 0; o < 3; o++)
        for (int j = 0; j < ops[o].n; j++)
            k += (size_t)snprintf(body + k, sizeof body - k, "  ld.global.%s %s%d, [%s+%d];\n",
                                  ops[o].t == T_F64 ? "f64" : ops[o].t == T_F32 ? "f32" : "b32",
                                  rprefix(ops[o].t), ops[o].first + j, ops[o].ptr, 8 * j);
    k += (size_t)snprintf(body + k, sizeof body - k,
                          "  mma.sync.aligned.m%dn%dk%d.%s.%s%s.%s.%s.%s.%s %s, %s, %s, %s;\n",
                          f->m, f->n, f->k, f->acol ? "col" : "row", f->bcol ? "col" : "row",
                          f->satf ? ".satfinite" : "", tname[f->dt], tname[f->at], tname[f->bt],
                          tname[f->ct], D, A, B, C);
    for (int j = 0; j < nd; j++)
        k += (size_t)snprintf(body + k, sizeof body - k, "  st.global.%s [%%rd4+%d], %s%d;\n",
                              f->dt == T_F64 ? "f64" : f->dt == T_F32 ? "f32" : "b32", 8 * j,
                              rprefix(f->dt), 24 + j);
    size_t n = strlen(buf);
    snprintf(buf + n, cap - n,
             ".visible .entry m%d(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d)\n{\n"
             "  .reg .b32 %%r<40>; .reg .f32 %%f<40>; .reg .f64 %%fd<40>; .reg .b64 %%rd<8>;\n"
             "  ld.param.u64 %%rd1, [a]; ld.param.u64 %%rd2, [b]; ld.param.u64 %%rd3, [c]; ld.param.u64 %%rd4, [d];\n"
             "  mov.u32 %%r39, %%tid.x; mul.wide.u32 %%rd5, %%r39, 64;\n"
             "  add.u64 %%rd1, %%rd1, %%rd5; add.u64 %%rd2, %%rd2, %%rd5; add.u64 %%rd3, %%rd3, %%rd5; add.u64 %%rd4, %%rd4, %%rd5;\n"
             "%s  ret;\n}\n",
             idx, body);
}

static lockstep_device *make_device(const char *mode)
{
    lockstep_config *cfg;
    lockstep_device *dev = NULL;
    lockstep_config_create(&cfg);
    lockstep_config_set(cfg, "-lockstep_mode", mode);
    CHECK(lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS);
    lockstep_config_destroy(cfg);
    return dev;
}

static void run_forms(const char *mode)
{
    size_t cap = 1 << 18;
    char *text = calloc(1, cap);
    snprintf(text, cap, ".version 8.0\n.target sm_90\n.address_size 64\n");
    for (int i = 0; i < NFORMS; i++)
        gen_kernel(text, cap, i);
    lockstep_device *dev = make_device(mode);
    lockstep_module *mod;
    lockstep_status st = lockstep_module_load_ptx(dev, text, strlen(text), "mma.ptx", &mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s", lockstep_device_last_error(dev));
    free(text);
    if (st) {
        lockstep_device_destroy(dev);
        return;
    }
    lockstep_dptr d[4];
    for (int i = 0; i < 4; i++)
        lockstep_malloc(dev, 32 * 64, &d[i]);
    for (int fi = 0; fi < NFORMS; fi++) {
        const mform *f = &forms[fi];
        int M = f->m, N = f->n, K = f->k, nq = quads(f) ? 4 : 1;
        static double A[4][16][32], B[4][32][8], C[4][16][8];
        uint64_t fr[3][32][8], out[32][8];
        memset(fr, 0, sizeof fr);
        for (int q = 0; q < nq; q++) {
            for (int r = 0; r < M; r++)
                for (int c = 0; c < K; c++)
                    A[q][r][c] = in_val(f->at, 0, q, r, c);
            for (int r = 0; r < K; r++)
                for (int c = 0; c < N; c++)
                    B[q][r][c] = in_val(f->bt, 1, q, r, c);
            for (int r = 0; r < M; r++)
                for (int c = 0; c < N; c++)
                    C[q][r][c] = f->ct == T_S32 ? ((r + c + q) % 2 ? 2147480000.0 - r * 1000 : -2147480000.0 + c * 1000)
                                                : (double)((r * 3 + c * 5 + q) % 11) - 5;
        }
        /* the fragments, lane by lane, element by element, as the ISA places them */
        for (int l = 0; l < 32; l++) {
            int q, r, c;
            for (int i = 0; i < per_lane(f, M, K); i++) {
                isa_pos(f, 0, f->at, l, i, &q, &r, &c);
                pack(fr[0][l], f->at, i, bits_of(f->at, A[q][r][c], l * 97 + i));
            }
            for (int i = 0; i < per_lane(f, K, N); i++) {
                isa_pos(f, 1, f->bt, l, i, &q, &r, &c);
                pack(fr[1][l], f->bt, i, bits_of(f->bt, B[q][r][c], l * 89 + i + 1));
            }
            for (int i = 0; i < per_lane(f, M, N); i++) {
                isa_pos(f, 2, f->ct, l, i, &q, &r, &c);
                pack(fr[2][l], f->ct, i, bits_of(f->ct, C[q][r][c], 0));
            }
        }
        for (int o = 0; o < 3; o++)
            lockstep_memcpy_htod(dev, d[o], fr[o], sizeof fr[o]);
        lockstep_memset(dev, d[3], 0xee, 32 * 64);
        char name[16];
        snprintf(name, sizeof name, "m%d", fi);
        lockstep_kernel *kern;
        CHECK(lockstep_module_get_kernel(mod, name, &kern) == LOCKSTEP_SUCCESS);
        void *args[] = {&d[0], &d[1], &d[2], &d[3]};
        lockstep_launch_stats stats;
        st = lockstep_launch_args(dev, kern, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1},
                                  0, args, &stats);
        CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: form %d: %s", mode, fi, lockstep_device_last_error(dev));
        lockstep_memcpy_dtoh(dev, out, d[3], sizeof out);
        int bad = 0, first_l = -1, first_i = -1;
        double got0 = 0, want0 = 0;
        for (int l = 0; l < 32; l++)
            for (int i = 0; i < per_lane(f, M, N); i++) {
                int q, r, c;
                isa_pos(f, 2, f->dt, l, i, &q, &r, &c);
                double want = C[q][r][c];
                for (int kk = 0; kk < K; kk++)
                    want += A[q][r][kk] * B[q][kk][c];
                if (f->dt == T_S32) {
                    if (f->satf)
                        want = want > 2147483647.0 ? 2147483647.0 : want < -2147483648.0 ? -2147483648.0 : want;
                    else
                        want = (double)(int32_t)(uint32_t)(int64_t)want;
                }
                uint64_t wb = bits_of(f->dt, want, 0), gb = unpack(out[l], f->dt, i);
                if (wb != gb && bad++ == 0) {
                    first_l = l;
                    first_i = i;
                    got0 = value_of(f->dt, gb);
                    want0 = want;
                }
            }
        CHECK_MSG(!bad, "%s: mma.m%dn%dk%d.%s.%s%s.%s.%s.%s.%s: %d elements wrong, first lane %d "
                  "element %d: %.17g, want %.17g",
                  mode, M, N, K, f->acol ? "col" : "row", f->bcol ? "col" : "row",
                  f->satf ? ".satfinite" : "", tname[f->dt], tname[f->at], tname[f->bt],
                  tname[f->ct], bad, first_l, first_i, got0, want0);
        if (stats.timing)
            CHECK_MSG(stats.t.cycles > 64, "%s: form %d: the tensor unit's latency: %llu cycles",
                      mode, fi, (unsigned long long)stats.t.cycles);
    }
    lockstep_device_destroy(dev);
}

static void test_forms_functional(void) { run_forms("functional"); }
static void test_forms_timing(void) { run_forms("timing"); }

/* ---- ldmatrix and movmatrix ---------------------------------------------------------- */

static const char ldm_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    /* each lane: ldmatrix x1, x2, x4 and their .trans from the row addresses
     * rows[lane] (byte offsets in the 1 KB shared image), results out[lane][12] */
    ".visible .entry ldm(.param .u64 img, .param .u64 rows, .param .u64 out)\n{\n"
    "  .reg .b32 %r<32>; .reg .b64 %rd<12>; .shared .align 16 .b8 sm[1024];\n"
    "  ld.param.u64 %rd1, [img]; ld.param.u64 %rd2, [rows]; ld.param.u64 %rd3, [out];\n"
    "  mov.u32 %r20, %tid.x;\n"
    /* copy the image into shared memory, 32 bytes per lane */
    "  mul.wide.u32 %rd4, %r20, 32; add.u64 %rd5, %rd1, %rd4;\n"
    "  mov.u64 %rd6, sm; add.u64 %rd6, %rd6, %rd4;\n"
    "  ld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%rd5]; st.shared.v4.u32 [%rd6], {%r0, %r1, %r2, %r3};\n"
    "  ld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%rd5+16]; st.shared.v4.u32 [%rd6+16], {%r0, %r1, %r2, %r3};\n"
    "  bar.sync 0;\n"
    /* this lane's row address, as a shared-window address (32-bit) */
    "  mul.wide.u32 %rd7, %r20, 4; add.u64 %rd7, %rd2, %rd7; ld.global.u32 %r21, [%rd7];\n"
    "  mov.u32 %r22, sm; add.u32 %r22, %r22, %r21;\n"
    "  ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%r22];\n"
    "  ldmatrix.sync.aligned.m8n8.x2.shared::cta.b16 {%r1, %r2}, [%r22];\n"
    "  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r3, %r4, %r5, %r6}, [%r22];\n"
    "  ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r7}, [%r22];\n"
    "  ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r8, %r9}, [%r22];\n"
    /* generic addressing, .x4.trans */
    "  cvt.u64.u32 %rd8, %r22; cvta.shared.u64 %rd8, %rd8;\n"
    "  ldmatrix.sync.aligned.m8n8.x4.trans.b16 {%r10, %r11, %r12, %r13}, [%rd8];\n"
    "  mul.wide.u32 %rd9, %r20, 64; add.u64 %rd9, %rd3, %rd9;\n"
    "  st.global.v4.u32 [%rd9], {%r0, %r1, %r2, %r3};\n"
    "  st.global.v4.u32 [%rd9+16], {%r4, %r5, %r6, %r7};\n"
    "  st.global.v4.u32 [%rd9+32], {%r8, %r9, %r10, %r11};\n"
    "  st.global.v2.u32 [%rd9+48], {%r12, %r13};\n"
    "  ret;\n}\n"
    /* movmatrix: out[lane] = the transpose's fragment of in[lane] */
    ".visible .entry mov(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out]; mov.u32 %r0, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r0, 4; add.u64 %rd4, %rd1, %rd3; add.u64 %rd5, %rd2, %rd3;\n"
    "  ld.global.u32 %r1, [%rd4];\n"
    "  movmatrix.sync.aligned.m8n8.trans.b16 %r2, %r1;\n"
    "  st.global.u32 [%rd5], %r2;\n"
    "  ret;\n}\n"
    /* D(16x8, f32) = A(16x16) x B(16x8), f16: A row-major by ldmatrix.x4, B
     * row-major (k by n) by ldmatrix.x2.trans, or from B's transpose (n by k)
     * by ldmatrix.x2 when bt != 0 */
    ".visible .entry gemm(.param .u64 a, .param .u64 b, .param .u64 d, .param .u32 bt)\n{\n"
    "  .reg .b32 %r<40>; .reg .f32 %f<12>; .reg .b64 %rd<12>; .reg .pred %p1;\n"
    "  .shared .align 16 .b8 sa[512]; .shared .align 16 .b8 sb[256];\n"
    "  ld.param.u64 %rd1, [a]; ld.param.u64 %rd2, [b]; ld.param.u64 %rd3, [d]; ld.param.u32 %r30, [bt];\n"
    "  mov.u32 %r20, %tid.x; setp.ne.u32 %p1, %r30, 0;\n"
    "  mul.wide.u32 %rd4, %r20, 16; add.u64 %rd5, %rd1, %rd4;\n"
    "  ld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%rd5]; mov.u64 %rd6, sa; add.u64 %rd6, %rd6, %rd4;\n"
    "  st.shared.v4.u32 [%rd6], {%r0, %r1, %r2, %r3};\n"
    "  mul.wide.u32 %rd4, %r20, 8; add.u64 %rd5, %rd2, %rd4;\n"
    "  ld.global.v2.u32 {%r0, %r1}, [%rd5]; mov.u64 %rd6, sb; add.u64 %rd6, %rd6, %rd4;\n"
    "  st.shared.v2.u32 [%rd6], {%r0, %r1};\n"
    "  bar.sync 0;\n"
    /* A: lane l gives row l % 16, columns (l / 16) * 8 */
    "  and.b32 %r21, %r20, 15; shr.u32 %r22, %r20, 4; shl.b32 %r21, %r21, 5; shl.b32 %r22, %r22, 4;\n"
    "  add.u32 %r21, %r21, %r22; mov.u32 %r23, sa; add.u32 %r21, %r21, %r23;\n"
    "  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r0, %r1, %r2, %r3}, [%r21];\n"
    "  @%p1 bra BT;\n"
    /* B (16 rows k of 8 n): lane l (< 16) gives row k = l */
    "  and.b32 %r24, %r20, 15; shl.b32 %r24, %r24, 4; mov.u32 %r25, sb; add.u32 %r24, %r24, %r25;\n"
    "  ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r4, %r5}, [%r24];\n"
    "  bra MMA;\n"
    "BT:\n"
    /* B's transpose (8 rows n of 16 k): lane l gives row l % 8, columns (l / 8) * 8 */
    "  and.b32 %r24, %r20, 7; shr.u32 %r26, %r20, 3; and.b32 %r26, %r26, 1;\n"
    "  shl.b32 %r24, %r24, 5; shl.b32 %r26, %r26, 4; add.u32 %r24, %r24, %r26;\n"
    "  mov.u32 %r25, sb; add.u32 %r24, %r24, %r25;\n"
    "  ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r4, %r5}, [%r24];\n"
    "MMA:\n"
    "  mov.f32 %f0, 0f00000000; mov.f32 %f1, 0f00000000; mov.f32 %f2, 0f00000000; mov.f32 %f3, 0f00000000;\n"
    "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f4, %f5, %f6, %f7}, {%r0, %r1, %r2, %r3},"
    " {%r4, %r5}, {%f0, %f1, %f2, %f3};\n"
    "  mul.wide.u32 %rd7, %r20, 16; add.u64 %rd7, %rd3, %rd7;\n"
    "  st.global.v4.f32 [%rd7], {%f4, %f5, %f6, %f7};\n"
    "  ret;\n}\n"
    /* by half a warp: kind 0 mma, 1 ldmatrix, 2 movmatrix */
    ".visible .entry half(.param .u32 kind)\n{\n"
    "  .reg .b32 %r<12>; .reg .f32 %f<8>; .reg .pred %p<4>; .shared .align 16 .b8 s[256];\n"
    "  ld.param.u32 %r10, [kind]; mov.u32 %r8, %tid.x; setp.lt.u32 %p1, %r8, 16;\n"
    "  mov.u32 %r0, 0; mov.u32 %r1, 0; mov.u32 %r2, 0;\n"
    "  @!%p1 bra END;\n"
    "  setp.eq.u32 %p2, %r10, 1; @%p2 bra LDM;\n"
    "  setp.eq.u32 %p3, %r10, 2; @%p3 bra MOV;\n"
    "  mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1}, {%r2},"
    " {%f4, %f5, %f6, %f7};\n"
    "  bra END;\n"
    "LDM:\n  ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r3}, [s];\n  bra END;\n"
    "MOV:\n  movmatrix.sync.aligned.m8n8.trans.b16 %r3, %r0;\n"
    "END:\n  ret;\n}\n";

static void run_ldm(const char *mode)
{
    lockstep_device *dev = make_device(mode);
    lockstep_module *mod;
    lockstep_status st = lockstep_module_load_ptx(dev, ldm_ptx, strlen(ldm_ptx), "ldm.ptx", &mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s", lockstep_device_last_error(dev));
    if (st) {
        lockstep_device_destroy(dev);
        return;
    }
    lockstep_kernel *kl, *km, *kg, *kh;
    CHECK(lockstep_module_get_kernel(mod, "ldm", &kl) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "mov", &km) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "gemm", &kg) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "half", &kh) == LOCKSTEP_SUCCESS);
    lockstep_dptr d0, d1, d2;
    lockstep_malloc(dev, 4096, &d0);
    lockstep_malloc(dev, 4096, &d1);
    lockstep_malloc(dev, 4096, &d2);

    /* a 1 KB image of halfwords h[j] = j; the 32 row addresses: rows of 8
     * halves at scattered 16-byte-aligned offsets */
    uint16_t img[512];
    for (int j = 0; j < 512; j++)
        img[j] = (uint16_t)(j * 7 + 3);
    uint32_t rows[32];
    for (int l = 0; l < 32; l++)
        rows[l] = (uint32_t)((l * 11 + 5) % 64) * 16;
    lockstep_memcpy_htod(dev, d0, img, sizeof img);
    lockstep_memcpy_htod(dev, d1, rows, sizeof rows);
    void *args[] = {&d0, &d1, &d2};
    st = lockstep_launch_args(dev, kl, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1}, 0, args,
                              NULL);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s", mode, lockstep_device_last_error(dev));
    uint32_t out[32][16];
    lockstep_memcpy_dtoh(dev, out, d2, sizeof out);
    /* element (r, c) of matrix i: halfword c of the row lane 8i + r points at */
#define ELEM(i, r, c) img[rows[8 * (i) + (r)] / 2 + (c)]
    int bad = 0;
    for (int l = 0; l < 32; l++) {
        int r = l / 4, c = 2 * (l % 4);
        uint32_t want[14];
        want[0] = ELEM(0, r, c) | (uint32_t)ELEM(0, r, c + 1) << 16;
        for (int i = 0; i < 2; i++)
            want[1 + i] = ELEM(i, r, c) | (uint32_t)ELEM(i, r, c + 1) << 16;
        for (int i = 0; i < 4; i++)
            want[3 + i] = ELEM(i, r, c) | (uint32_t)ELEM(i, r, c + 1) << 16;
        /* .trans: the matrix's column l / 4, rows 2 (l % 4) and 2 (l % 4) + 1 */
        want[7] = ELEM(0, c, r) | (uint32_t)ELEM(0, c + 1, r) << 16;
        for (int i = 0; i < 2; i++)
            want[8 + i] = ELEM(i, c, r) | (uint32_t)ELEM(i, c + 1, r) << 16;
        for (int i = 0; i < 4; i++)
            want[10 + i] = ELEM(i, c, r) | (uint32_t)ELEM(i, c + 1, r) << 16;
        for (int j = 0; j < 14; j++)
            if (out[l][j] != want[j] && bad++ < 4)
                CHECK_MSG(0, "%s: ldmatrix lane %d register %d: 0x%08x, want 0x%08x", mode, l, j,
                          out[l][j], want[j]);
    }
    CHECK_MSG(!bad, "%s: %d ldmatrix registers wrong", mode, bad);
#undef ELEM

    /* movmatrix: lane l's in = halves (r, c), (r, c + 1) of M[r][c] = 8r + c + 100 */
    uint32_t min[32], mout[32];
    for (int l = 0; l < 32; l++) {
        int r = l / 4, c = 2 * (l % 4);
        min[l] = (uint32_t)(8 * r + c + 100) | (uint32_t)(8 * r + c + 101) << 16;
    }
    lockstep_memcpy_htod(dev, d0, min, sizeof min);
    void *margs[] = {&d0, &d1};
    st = lockstep_launch_args(dev, km, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1}, 0, margs,
                              NULL);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s", mode, lockstep_device_last_error(dev));
    lockstep_memcpy_dtoh(dev, mout, d1, sizeof mout);
    bad = 0;
    for (int l = 0; l < 32; l++) {
        int r = l / 4, c = 2 * (l % 4);
        uint32_t want = (uint32_t)(8 * c + r + 100) | (uint32_t)(8 * (c + 1) + r + 100) << 16;
        bad += mout[l] != want;
    }
    CHECK_MSG(!bad, "%s: movmatrix: %d lanes wrong (lane 1: 0x%08x)", mode, bad, mout[1]);

    /* ldmatrix feeding mma.m16n8k16 */
    uint16_t ha[256], hb[128];
    double fa[16][16], fb[16][8];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) {
            fa[i][k] = ((i * 5 + k * 3) % 9 - 4) * 0.5;
            ha[i * 16 + k] = half_of(fa[i][k], 0);
        }
    for (int k = 0; k < 16; k++)
        for (int n = 0; n < 8; n++)
            fb[k][n] = ((k * 7 + n * 2) % 5 - 2) * 0.25;
    for (uint32_t bt = 0; bt < 2; bt++) {
        for (int k = 0; k < 16; k++)
            for (int n = 0; n < 8; n++) {
                if (bt)
                    hb[n * 16 + k] = half_of(fb[k][n], 0); /* n by k */
                else
                    hb[k * 8 + n] = half_of(fb[k][n], 0);
            }
        lockstep_memcpy_htod(dev, d0, ha, sizeof ha);
        lockstep_memcpy_htod(dev, d1, hb, sizeof hb);
        void *gargs[] = {&d0, &d1, &d2, &bt};
        st = lockstep_launch_args(dev, kg, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1}, 0,
                                  gargs, NULL);
        CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s", mode, lockstep_device_last_error(dev));
        float dfr[32][4];
        lockstep_memcpy_dtoh(dev, dfr, d2, sizeof dfr);
        bad = 0;
        for (int l = 0; l < 32; l++)
            for (int i = 0; i < 4; i++) {
                int row = (l >> 2) + (i >= 2 ? 8 : 0), col = (l % 4) * 2 + (i & 1);
                double want = 0;
                for (int k = 0; k < 16; k++)
                    want += fa[row][k] * fb[k][col];
                bad += dfr[l][i] != (float)want;
            }
        CHECK_MSG(!bad, "%s: ldmatrix%s + mma.m16n8k16: %d elements wrong", mode,
                  bt ? ".x2 (B transposed)" : ".x2.trans", bad);
    }

    /* by half a warp */
    for (uint32_t kind = 0; kind < 3; kind++) {
        void *hargs[] = {&kind};
        st = lockstep_launch_args(dev, kh, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1}, 0,
                                  hargs, NULL);
        const char *e = lockstep_device_last_error(dev);
        static const char *const what[] = {"mma.sync", "ldmatrix.sync", "movmatrix.sync"};
        CHECK_MSG(st == LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION && strstr(e, what[kind]) &&
                      strstr(e, "every lane"),
                  "%s: %s by half a warp: %s", mode, what[kind], e);
    }
    lockstep_device_destroy(dev);
}

static void test_ldmatrix_functional(void) { run_ldm("functional"); }
static void test_ldmatrix_timing(void) { run_ldm("timing"); }

int main(void)
{
    RUN(test_forms_functional);
    RUN(test_forms_timing);
    RUN(test_ldmatrix_functional);
    RUN(test_ldmatrix_timing);
    return test_summary();
}
