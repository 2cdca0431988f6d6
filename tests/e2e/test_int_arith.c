/*
 * test_int_arith.c -- end-to-end: integer arithmetic (kernels/int_arith.cu).
 *
 * Runs int32_ops and int64_ops over inputs that mix edge values (0, +-1,
 * INT_MIN, INT_MAX, powers of two, alternating bits) with random ones, in
 * four launch shapes (1-D; 2-D grid of 3-D blocks; 3-D grid of 3-D blocks; one
 * partial warp), each with fewer data elements than threads so the kernels'
 * bounds checks matter.  Every result is compared exactly with a C
 * reference; output slots of threads past n must keep the fill pattern.
 */
#include "e2e.h"

#define I32_OPS 48
#define I64_OPS 44
#define FILL 0xcd

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

static const char *const i32_names[I32_OPS] = {
    "add",      "sub",      "mul",     "mulhi",    "umulhi",  "div",     "rem",
    "udiv",     "urem",     "div7",    "rem13",    "udiv7",   "urem13",  "div-3",
    "udivbig",  "div64",    "rem64",   "shl",      "shr.s",   "shr.u",   "and",
    "or",       "xor",      "not",     "popc",     "clz",     "brev",    "ffs",
    "prmt5140", "prmtvar",  "shf.l",   "shf.lc",   "shf.r",   "shf.rc",  "min.s",
    "max.s",    "min.u",    "max.u",   "abs",      "sad",     "usad",    "sext16",
    "zext8",    "sext8",    "rotl7",   "cmp",      "neg",     "select",
};

static const char *const i64_names[I64_OPS] = {
    "add",     "sub",     "mul",     "mul64hi", "umul64hi", "div",    "rem",    "udiv",
    "urem",    "div7",    "rem13",   "udiv7",   "urem13",   "div-1000003", "udivbig", "div64",
    "rem64",   "shl",     "shr.s",   "shr.u",   "and",      "or",     "xor",    "not",
    "popcll",  "clzll",   "brevll",  "ffsll",   "min.s",    "max.s",  "min.u",  "max.u",
    "llabs",   "trunc32", "zext32",  "sext16",  "hi*lo",    "mul.wide.s32", "cmp", "rotl13",
    "neg",     "urembig", "udiv32",  "rem32var",
};

/* ---- reference helpers ---------------------------------------------------- */

static uint32_t popc64(uint64_t x)
{
    uint32_t n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static uint32_t clz64(uint64_t x, int bits)
{
    uint32_t n = 0;
    for (int k = bits - 1; k >= 0 && !((x >> k) & 1); k--)
        n++;
    return n;
}

static uint64_t brev(uint64_t x, int bits)
{
    uint64_t r = 0;
    for (int k = 0; k < bits; k++)
        if ((x >> k) & 1)
            r |= 1ull << (bits - 1 - k);
    return r;
}

static uint32_t ffs64(uint64_t x)
{
    if (!x)
        return 0;
    uint32_t k = 0;
    while (!((x >> k) & 1))
        k++;
    return k + 1;
}

static uint32_t sext(uint64_t x, int bits)
{
    uint64_t m = 1ull << (bits - 1);
    uint64_t v = x & ((1ull << bits) - 1);
    return (uint32_t)((v ^ m) - m);
}

static uint64_t sext64(uint64_t x, int bits)
{
    uint64_t m = 1ull << (bits - 1);
    uint64_t v = x & ((1ull << bits) - 1);
    return (v ^ m) - m;
}

/* __byte_perm(x, y, s): CUDA masks the selector with 0x7777 (no sign mode). */
static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
    uint64_t v = (uint64_t)y << 32 | x;
    uint32_t r = 0;
    for (int n = 0; n < 4; n++) {
        uint32_t sel = (s >> (4 * n)) & 7;
        r |= (uint32_t)((v >> (8 * sel)) & 0xff) << (8 * n);
    }
    return r;
}

static uint32_t funnel_l(uint32_t lo, uint32_t hi, uint32_t s)
{
    uint64_t v = (uint64_t)hi << 32 | lo;
    return (uint32_t)((v << s) >> 32);
}

static uint32_t funnel_r(uint32_t lo, uint32_t hi, uint32_t s)
{
    uint64_t v = (uint64_t)hi << 32 | lo;
    return (uint32_t)(v >> s);
}

static void ref_int32(int32_t x, int32_t y, uint32_t *o)
{
    uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
    o[0] = ux + uy;
    o[1] = ux - uy;
    o[2] = ux * uy;
    o[3] = (uint32_t)(((int64_t)x * y) >> 32);
    o[4] = (uint32_t)(((uint64_t)ux * uy) >> 32);
    o[5] = (uint32_t)(x / y);
    o[6] = (uint32_t)(x % y);
    o[7] = ux / uy;
    o[8] = ux % uy;
    o[9] = (uint32_t)(x / 7);
    o[10] = (uint32_t)(x % 13);
    o[11] = ux / 7u;
    o[12] = ux % 13u;
    o[13] = (uint32_t)(x / -3);
    o[14] = ux / 1000000007u;
    o[15] = (uint32_t)(x / 64);
    o[16] = (uint32_t)(x % 64);
    o[17] = ux << (uy & 31);
    o[18] = (uint32_t)(x >> (y & 31)); /* gcc: arithmetic shift */
    o[19] = ux >> (uy & 31);
    o[20] = ux & uy;
    o[21] = ux | uy;
    o[22] = ux ^ uy;
    o[23] = ~ux;
    o[24] = popc64(ux);
    o[25] = clz64(ux, 32);
    o[26] = (uint32_t)brev(ux, 32);
    o[27] = ffs64(ux);
    o[28] = byte_perm(ux, uy, 0x5140);
    o[29] = byte_perm(ux, uy, uy >> 16);
    o[30] = funnel_l(ux, uy, (uy >> 8) & 31);
    o[31] = funnel_l(ux, uy, ((uy >> 8) & 63) > 32 ? 32 : (uy >> 8) & 63);
    o[32] = funnel_r(ux, uy, (uy >> 8) & 31);
    o[33] = funnel_r(ux, uy, ((uy >> 8) & 63) > 32 ? 32 : (uy >> 8) & 63);
    o[34] = (uint32_t)(x < y ? x : y);
    o[35] = (uint32_t)(x > y ? x : y);
    o[36] = ux < uy ? ux : uy;
    o[37] = ux > uy ? ux : uy;
    o[38] = x < 0 ? 0u - ux : ux;
    o[39] = (x < y ? uy - ux : ux - uy) + 7u;
    o[40] = (ux < uy ? uy - ux : ux - uy) + 1000u;
    o[41] = sext(ux, 16);
    o[42] = ux & 0xff;
    o[43] = sext(uy, 8);
    o[44] = (ux << 7) | (ux >> 25);
    o[45] = (uint32_t)(x < y) + 2u * (uint32_t)(ux < uy) + 4u * (uint32_t)(x == y);
    o[46] = 0u - ux;
    o[47] = x > 0 ? ux * 3u : uy - 5u;
}

static void ref_int64(int64_t x, int64_t y, uint64_t *o)
{
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    o[0] = ux + uy;
    o[1] = ux - uy;
    o[2] = ux * uy;
    o[3] = (uint64_t)(((i128)x * y) >> 64);
    o[4] = (uint64_t)(((u128)ux * uy) >> 64);
    o[5] = (uint64_t)(x / y);
    o[6] = (uint64_t)(x % y);
    o[7] = ux / uy;
    o[8] = ux % uy;
    o[9] = (uint64_t)(x / 7);
    o[10] = (uint64_t)(x % 13);
    o[11] = ux / 7u;
    o[12] = ux % 13u;
    o[13] = (uint64_t)(x / -1000003LL);
    o[14] = ux / 1000000007ull;
    o[15] = (uint64_t)(x / 64);
    o[16] = (uint64_t)(x % 64);
    o[17] = ux << (uy & 63);
    o[18] = (uint64_t)(x >> (y & 63));
    o[19] = ux >> (uy & 63);
    o[20] = ux & uy;
    o[21] = ux | uy;
    o[22] = ux ^ uy;
    o[23] = ~ux;
    o[24] = popc64(ux);
    o[25] = clz64(ux, 64);
    o[26] = brev(ux, 64);
    o[27] = ffs64(ux);
    o[28] = (uint64_t)(x < y ? x : y);
    o[29] = (uint64_t)(x > y ? x : y);
    o[30] = ux < uy ? ux : uy;
    o[31] = ux > uy ? ux : uy;
    o[32] = x < 0 ? 0u - ux : ux;
    o[33] = sext64(ux, 32);
    o[34] = ux & 0xffffffffull;
    o[35] = sext64(uy, 16);
    o[36] = (ux >> 32) * (ux & 0xffffffffull);
    o[37] = (uint64_t)((int64_t)(int32_t)sext(ux, 32) * (int64_t)(int32_t)sext(uy, 32));
    o[38] = (uint64_t)(x < y) + 2u * (uint64_t)(ux < uy) + 4u * (uint64_t)(x == y);
    o[39] = (ux << 13) | (ux >> 51);
    o[40] = 0u - ux;
    o[41] = ux % 1000000007ull;
    o[42] = (uint32_t)ux / ((uint32_t)uy | 1u);
    o[43] = (uint64_t)(int64_t)((int32_t)sext(ux, 32) % (int32_t)((uy & 0xffff) + 1));
}

/* ---- inputs ----------------------------------------------------------------- */

static const int32_t edge32[] = {
    0, 1, -1, 2, -2, 7, -7, 13, -13, 64, -64, 63, 31, 32, 33, 255, 256, 0x7fff, -0x8000,
    0x10000, INT32_MAX, INT32_MIN, INT32_MAX - 1, INT32_MIN + 1, 0x55555555, (int32_t)0xaaaaaaaau,
    0x12345678, (int32_t)0x87654321u, 1000000007, -1000000007,
};
#define N_EDGE32 (sizeof edge32 / sizeof edge32[0])

static const int64_t edge64[] = {
    0, 1, -1, 2, -2, 7, -7, 13, -13, 64, -64, 63, 65, 0xffffffffll, 0x100000000ll,
    -0x100000000ll, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1,
    0x5555555555555555ll, (int64_t)0xaaaaaaaaaaaaaaaaull, 0x0123456789abcdefll,
    (int64_t)0xfedcba9876543210ull, 1000000007ll, 1000003ll * 1000003ll, -1000003ll,
};
#define N_EDGE64 (sizeof edge64 / sizeof edge64[0])

static int32_t rand32(uint64_t *st)
{
    uint64_t r = e2e_rand(st);
    switch (r & 3) {
    case 0:
        return (int32_t)(r >> 32);
    case 1:
        return (int32_t)e2e_rand_range(st, -300, 300);
    case 2:
        return (int32_t)(r >> 32) >> (int)((r >> 8) % 31);
    default:
        return edge32[(r >> 16) % N_EDGE32];
    }
}

static int64_t rand64(uint64_t *st)
{
    uint64_t r = e2e_rand(st);
    switch (r & 3) {
    case 0:
        return (int64_t)e2e_rand(st);
    case 1:
        return e2e_rand_range(st, -100000, 100000);
    case 2:
        return (int64_t)e2e_rand(st) >> (int)((r >> 8) % 63);
    default:
        return edge64[(r >> 16) % N_EDGE64];
    }
}

/* The first pairs of the input are the cross product of the edge values. */
static void make32(int32_t *a, int32_t *b, size_t n, uint64_t seed)
{
    uint64_t st = seed;
    for (size_t i = 0; i < n; i++) {
        if (i < N_EDGE32 * N_EDGE32) {
            a[i] = edge32[i / N_EDGE32];
            b[i] = edge32[i % N_EDGE32];
        } else {
            a[i] = rand32(&st);
            b[i] = rand32(&st);
        }
        if (b[i] == 0)
            b[i] = 3; /* no division by zero */
        if (a[i] == INT32_MIN && b[i] == -1)
            a[i] = INT32_MIN + 1; /* no INT_MIN / -1 */
    }
}

static void make64(int64_t *a, int64_t *b, size_t n, uint64_t seed)
{
    uint64_t st = seed;
    for (size_t i = 0; i < n; i++) {
        if (i < N_EDGE64 * N_EDGE64) {
            a[i] = edge64[i / N_EDGE64];
            b[i] = edge64[i % N_EDGE64];
        } else {
            a[i] = rand64(&st);
            b[i] = rand64(&st);
        }
        if (b[i] == 0)
            b[i] = 5;
        if (a[i] == INT64_MIN && b[i] == -1)
            a[i] = INT64_MIN + 1;
    }
}

/* ---- cases ------------------------------------------------------------------ */

typedef struct shape_n {
    e2e_shape s;
    size_t n; /* data elements; at most the shape's thread count */
} shape_n;

static const shape_n shapes[] = {
    {{"1-D grid 8, block 128", {8, 1, 1}, {128, 1, 1}}, 1000},
    {{"2-D grid 3x2, 3-D block 7x5x3", {3, 2, 1}, {7, 5, 3}}, 617},
    {{"3-D grid 2x2x2, 3-D block 10x3x2", {2, 2, 2}, {10, 3, 2}}, 470},
    {{"one partial warp of 19", {1, 1, 1}, {19, 1, 1}}, 19},
};
#define N_SHAPES (sizeof shapes / sizeof shapes[0])

static void test_int32(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "int_arith.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "int32_ops");
    if (!k)
        goto out;
    for (size_t si = 0; si < N_SHAPES; si++) {
        const shape_n *sh = &shapes[si];
        size_t n = sh->n, threads = (size_t)e2e_shape_threads(&sh->s);
        size_t outs = threads * I32_OPS;
        int32_t *a = malloc(n * 4), *b = malloc(n * 4);
        uint32_t *exp = malloc(outs * 4), *got = malloc(outs * 4);
        lockstep_dptr da = 0, db = 0, dout = 0;
        if (!a || !b || !exp || !got)
            goto next;
        make32(a, b, n, 0x1234 + si);
        memset(exp, FILL, outs * 4);
        for (size_t i = 0; i < n; i++)
            ref_int32(a[i], b[i], exp + i * I32_OPS);
        da = e2e_upload(dev, a, n * 4);
        db = e2e_upload(dev, b, n * 4);
        dout = e2e_alloc(dev, outs * 4);
        if (!da || !db || !dout || !e2e_fill(dev, dout, FILL, outs * 4))
            goto next;
        int nn = (int)n;
        void *args[] = {&da, &db, &dout, &nn};
        if (!e2e_launch(dev, k, sh->s.name, sh->s.grid, sh->s.block, 0, args))
            goto next;
        if (e2e_download(dev, got, dout, outs * 4)) {
            e2e_layout lay = {I32_OPS, i32_names};
            char what[128];
            snprintf(what, sizeof what, "int32_ops out, %s", sh->s.name);
            e2e_cmp_u32(what, got, exp, outs, &lay);
        }
    next:
        e2e_free(dev, da);
        e2e_free(dev, db);
        e2e_free(dev, dout);
        free(a);
        free(b);
        free(exp);
        free(got);
    }
out:
    e2e_device_destroy(dev);
}

static void test_int64(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "int_arith.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "int64_ops");
    if (!k)
        goto out;
    for (size_t si = 0; si < N_SHAPES; si++) {
        const shape_n *sh = &shapes[si];
        size_t n = sh->n, threads = (size_t)e2e_shape_threads(&sh->s);
        size_t outs = threads * I64_OPS;
        int64_t *a = malloc(n * 8), *b = malloc(n * 8);
        uint64_t *exp = malloc(outs * 8), *got = malloc(outs * 8);
        lockstep_dptr da = 0, db = 0, dout = 0;
        if (!a || !b || !exp || !got)
            goto next;
        make64(a, b, n, 0x5678 + si);
        memset(exp, FILL, outs * 8);
        for (size_t i = 0; i < n; i++)
            ref_int64(a[i], b[i], exp + i * I64_OPS);
        da = e2e_upload(dev, a, n * 8);
        db = e2e_upload(dev, b, n * 8);
        dout = e2e_alloc(dev, outs * 8);
        if (!da || !db || !dout || !e2e_fill(dev, dout, FILL, outs * 8))
            goto next;
        int nn = (int)n;
        void *args[] = {&da, &db, &dout, &nn};
        if (!e2e_launch(dev, k, sh->s.name, sh->s.grid, sh->s.block, 0, args))
            goto next;
        if (e2e_download(dev, got, dout, outs * 8)) {
            e2e_layout lay = {I64_OPS, i64_names};
            char what[128];
            snprintf(what, sizeof what, "int64_ops out, %s", sh->s.name);
            e2e_cmp_u64(what, got, exp, outs, &lay);
        }
    next:
        e2e_free(dev, da);
        e2e_free(dev, db);
        e2e_free(dev, dout);
        free(a);
        free(b);
        free(exp);
        free(got);
    }
out:
    e2e_device_destroy(dev);
}

int main(void)
{
    RUN(test_int32);
    RUN(test_int64);
    return test_summary();
}
