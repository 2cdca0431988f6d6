/*
 * test_atomics.c -- end-to-end: atomic operations (kernels/atomics.cu).
 *
 * Every check is independent of the order in which threads perform their
 * atomics: final values of commutative operations (add, sub, min, max, and,
 * or, xor, a CAS-loop float max and a CAS-loop product) are compared with
 * the CPU; float and double sums use addends whose sums are exact in any
 * order; for exch, inc, dec and +1 add, the multiset of returned old values
 * (plus the final value) is compared, since it does not depend on order.
 * atomics_global runs in three shapes, atomics_shared in three (per-block
 * results), histogram in four.
 */
#include <math.h>

#include "e2e.h"

/* Mirrors struct Counters in kernels/atomics.cu (same natural layout). */
typedef struct Counters {
    int32_t i_add;
    uint32_t u_add;
    uint64_t ull_add;
    float f_add;
    int32_t pad0;
    double d_add;
    int32_t i_sub;
    int32_t exch;
    int32_t i_min;
    int32_t i_max;
    uint32_t u_min;
    uint32_t u_max;
    uint64_t ull_min;
    uint64_t ull_max;
    int64_t ll_min;
    int64_t ll_max;
    uint32_t inc;
    uint32_t dec;
    uint32_t and_bits;
    uint32_t or_bits;
    uint32_t xor_bits;
    int32_t f_max_bits;
    uint64_t or64;
    uint64_t and64;
    uint64_t xor64;
    uint32_t product;
    int32_t ticket;
    uint64_t cas64;
} Counters;
_Static_assert(sizeof(Counters) == 152, "Counters layout");

typedef struct BlockResult {
    int32_t add;
    float fadd;
    int32_t min;
    int32_t max;
    uint32_t umax;
    uint32_t and_bits;
    uint32_t or_bits;
    uint32_t xor_bits;
    uint32_t inc;
    int32_t exch_sum;
    float fmax;
    uint32_t product;
    int32_t sub;
    uint32_t dec;
    uint32_t umin;
    int32_t pad0;
    uint64_t ull_add;
    double dadd;
    uint64_t cas64;
} BlockResult;
_Static_assert(sizeof(BlockResult) == 88, "BlockResult layout");
#define BR_WORDS (sizeof(BlockResult) / 4)

typedef struct shape_n {
    e2e_shape s;
    size_t n;
} shape_n;

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static int32_t rand_val(uint64_t *st)
{
    uint64_t r = e2e_rand(st);
    if ((r & 63) == 0)
        return (r >> 8) & 1 ? INT32_MAX : INT32_MIN;
    return (int32_t)((r >> 16) % 200001) - 100000;
}

static void init_counters(Counters *c)
{
    memset(c, 0, sizeof *c);
    c->i_add = 100;
    c->u_add = 7;
    c->ull_add = 1ull << 40;
    c->f_add = 0.5f;
    c->d_add = 0.25;
    c->exch = -1;
    c->i_min = INT32_MAX;
    c->i_max = INT32_MIN;
    c->u_min = UINT32_MAX;
    c->u_max = 0;
    c->ull_min = UINT64_MAX;
    c->ll_min = INT64_MAX;
    c->ll_max = INT64_MIN;
    c->and_bits = 0xffffffffu;
    c->xor_bits = 0x12345678u;
    c->f_max_bits = (int32_t)e2e_f32_bits(-1e30f);
    c->and64 = ~0ull;
    c->product = 1;
    c->cas64 = 5;
}

#define CHECK_FIELD(name, fmt, got, exp)                                                      \
    CHECK_MSG((got) == (exp), "%s: Counters.%s: expected " fmt ", got " fmt, what, name,     \
              (exp), (got))

/* Compare a histogram of the returned old values with the expected one. */
static void check_multiset(const char *what, const char *name, const uint32_t *got,
                           const uint32_t *exp, size_t n)
{
    uint32_t *g = malloc(n * 4), *e = malloc(n * 4);
    if (!g || !e) {
        free(g);
        free(e);
        return;
    }
    memcpy(g, got, n * 4);
    memcpy(e, exp, n * 4);
    qsort(g, n, 4, cmp_i32);
    qsort(e, n, 4, cmp_i32);
    char w[200];
    snprintf(w, sizeof w, "%s: sorted old values of %s", what, name);
    e2e_cmp_u32(w, g, e, n, NULL);
    free(g);
    free(e);
}

static void test_atomics_global(void)
{
    static const shape_n shapes[] = {
        {{"1-D grid 6, block 256", {6, 1, 1}, {256, 1, 1}}, 1500},
        {{"3-D grid 3x2x2, 3-D block 7x6x2", {3, 2, 2}, {7, 6, 2}}, 1000},
        {{"one block of 45", {1, 1, 1}, {45, 1, 1}}, 45},
    };
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "atomics.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "atomics_global");
    if (!k)
        goto out;
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        const shape_n *sh = &shapes[si];
        const char *what = sh->s.name;
        size_t n = sh->n;
        int32_t *vals = malloc(n * 4);
        uint32_t *exch = malloc((n + 1) * 4), *inc = malloc(n * 4), *dec = malloc(n * 4),
                 *ticket = malloc(n * 4);
        uint32_t *eexch = malloc((n + 1) * 4), *einc = malloc(n * 4), *edec = malloc(n * 4),
                 *eticket = malloc(n * 4);
        lockstep_dptr dc = 0, dv = 0, dexch = 0, dinc = 0, ddec = 0, dticket = 0;
        Counters c, e;
        uint64_t st = 0xa70 + si;
        if (!vals || !exch || !inc || !dec || !ticket || !eexch || !einc || !edec || !eticket)
            goto next;
        for (size_t i = 0; i < n; i++)
            vals[i] = rand_val(&st);

        init_counters(&e);
        float fmax = -1e30f;
        uint32_t dv_cur = 0;
        for (size_t i = 0; i < n; i++) {
            int32_t v = vals[i];
            uint32_t uv = (uint32_t)v;
            e.i_add = (int32_t)((uint32_t)e.i_add + uv);
            e.u_add += uv * 2654435761u;
            e.ull_add += (uint64_t)uv << 20 | i;
            e.f_add += (float)(v & 15);
            e.d_add += ldexp(1.0, -(int)(i % 20));
            e.i_sub = (int32_t)((uint32_t)e.i_sub - uv);
            e.i_min = v < e.i_min ? v : e.i_min;
            e.i_max = v > e.i_max ? v : e.i_max;
            e.u_min = uv < e.u_min ? uv : e.u_min;
            e.u_max = uv > e.u_max ? uv : e.u_max;
            uint64_t u977 = (uint64_t)uv * 977u;
            e.ull_min = u977 < e.ull_min ? u977 : e.ull_min;
            e.ull_max = u977 > e.ull_max ? u977 : e.ull_max;
            int64_t l = (int64_t)v * 100003;
            e.ll_min = l < e.ll_min ? l : e.ll_min;
            e.ll_max = l > e.ll_max ? l : e.ll_max;
            einc[i] = (uint32_t)(i % 17);
            edec[i] = dv_cur;
            dv_cur = (dv_cur == 0 || dv_cur > 9u) ? 9u : dv_cur - 1;
            e.and_bits &= ~(1u << (i % 32)) | (i % 3 == 0 ? 0u : 0x80000000u);
            e.or_bits |= 1u << (uv % 29u);
            e.xor_bits ^= uv;
            fmax = (float)v * 0.25f > fmax ? (float)v * 0.25f : fmax;
            e.or64 |= 1ull << (i % 61);
            e.and64 &= ~(1ull << (uv % 64u));
            e.xor64 ^= (uint64_t)uv << (i % 33);
            e.product *= 2u * uv + 1u;
            eticket[i] = (uint32_t)i;
            eexch[i] = (uint32_t)i;
        }
        eexch[n] = (uint32_t)-1;
        e.inc = (uint32_t)(n % 17);
        e.dec = dv_cur;
        e.exch = 0; /* checked through the chain below */
        e.f_max_bits = (int32_t)e2e_f32_bits(fmax);
        e.ticket = (int32_t)n;
        e.cas64 = 5 + 3ull * n;

        init_counters(&c);
        dc = e2e_upload(dev, &c, sizeof c);
        dv = e2e_upload(dev, vals, n * 4);
        dexch = e2e_alloc(dev, n * 4);
        dinc = e2e_alloc(dev, n * 4);
        ddec = e2e_alloc(dev, n * 4);
        dticket = e2e_alloc(dev, n * 4);
        if (!dc || !dv || !dexch || !dinc || !ddec || !dticket)
            goto next;
        int nn = (int)n;
        void *args[] = {&dc, &dv, &dexch, &dinc, &ddec, &dticket, &nn};
        if (!e2e_launch(dev, k, what, sh->s.grid, sh->s.block, 0, args))
            goto next;
        if (!e2e_download(dev, &c, dc, sizeof c) || !e2e_download(dev, exch, dexch, n * 4) ||
            !e2e_download(dev, inc, dinc, n * 4) || !e2e_download(dev, dec, ddec, n * 4) ||
            !e2e_download(dev, ticket, dticket, n * 4))
            goto next;

        CHECK_FIELD("i_add", "%d", c.i_add, e.i_add);
        CHECK_FIELD("u_add", "%u", c.u_add, e.u_add);
        CHECK_FIELD("ull_add", "%" PRIu64, c.ull_add, e.ull_add);
        CHECK_FIELD("f_add", "%.9g", (double)c.f_add, (double)e.f_add);
        CHECK_FIELD("d_add", "%.17g", c.d_add, e.d_add);
        CHECK_FIELD("i_sub", "%d", c.i_sub, e.i_sub);
        CHECK_FIELD("i_min", "%d", c.i_min, e.i_min);
        CHECK_FIELD("i_max", "%d", c.i_max, e.i_max);
        CHECK_FIELD("u_min", "%u", c.u_min, e.u_min);
        CHECK_FIELD("u_max", "%u", c.u_max, e.u_max);
        CHECK_FIELD("ull_min", "%" PRIu64, c.ull_min, e.ull_min);
        CHECK_FIELD("ull_max", "%" PRIu64, c.ull_max, e.ull_max);
        CHECK_FIELD("ll_min", "%" PRId64, c.ll_min, e.ll_min);
        CHECK_FIELD("ll_max", "%" PRId64, c.ll_max, e.ll_max);
        CHECK_FIELD("inc", "%u", c.inc, e.inc);
        CHECK_FIELD("dec", "%u", c.dec, e.dec);
        CHECK_FIELD("and_bits", "0x%08x", c.and_bits, e.and_bits);
        CHECK_FIELD("or_bits", "0x%08x", c.or_bits, e.or_bits);
        CHECK_FIELD("xor_bits", "0x%08x", c.xor_bits, e.xor_bits);
        CHECK_FIELD("f_max_bits", "0x%08x", (uint32_t)c.f_max_bits, (uint32_t)e.f_max_bits);
        CHECK_FIELD("or64", "0x%016" PRIx64, c.or64, e.or64);
        CHECK_FIELD("and64", "0x%016" PRIx64, c.and64, e.and64);
        CHECK_FIELD("xor64", "0x%016" PRIx64, c.xor64, e.xor64);
        CHECK_FIELD("product", "%u", c.product, e.product);
        CHECK_FIELD("ticket", "%d", c.ticket, e.ticket);
        CHECK_FIELD("cas64", "%" PRIu64, c.cas64, e.cas64);
        exch[n] = (uint32_t)c.exch; /* the chain's last link */
        check_multiset(what, "atomicExch (with the final value)", exch, eexch, n + 1);
        check_multiset(what, "atomicInc(16)", inc, einc, n);
        check_multiset(what, "atomicDec(9)", dec, edec, n);
        check_multiset(what, "atomicAdd(+1)", ticket, eticket, n);
    next:
        e2e_free(dev, dc);
        e2e_free(dev, dv);
        e2e_free(dev, dexch);
        e2e_free(dev, dinc);
        e2e_free(dev, ddec);
        e2e_free(dev, dticket);
        free(vals);
        free(exch);
        free(inc);
        free(dec);
        free(ticket);
        free(eexch);
        free(einc);
        free(edec);
        free(eticket);
    }
out:
    e2e_device_destroy(dev);
}

static void test_atomics_shared(void)
{
    static const shape_n shapes[] = {
        {{"1-D grid 4, block 128", {4, 1, 1}, {128, 1, 1}}, 500},
        {{"2-D grid 3x2, 2-D block 10x7", {3, 2, 1}, {10, 7, 1}}, 400},
        {{"2-D grid 2x2, 3-D block 3x3x3", {2, 2, 1}, {3, 3, 3}}, 100},
    };
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "atomics.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "atomics_shared");
    if (!k)
        goto out;
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        const shape_n *sh = &shapes[si];
        size_t n = sh->n, tpb = (size_t)e2e_dim3_count(sh->s.block);
        size_t blocks = (size_t)e2e_dim3_count(sh->s.grid);
        int32_t *vals = malloc(n * 4);
        BlockResult *exp = malloc(blocks * sizeof *exp), *got = malloc(blocks * sizeof *got);
        lockstep_dptr dv = 0, dres = 0;
        uint64_t st = 0x5a7 + si;
        if (!vals || !exp || !got)
            goto next;
        for (size_t i = 0; i < n; i++)
            vals[i] = rand_val(&st);
        for (size_t b = 0; b < blocks; b++) {
            BlockResult *r = &exp[b];
            uint32_t count = 0, add = 0, sub = 1000, dec = 0;
            int32_t exch_sum = -1;
            memset(r, 0, sizeof *r);
            r->umin = 0xffffffffu;
            r->ull_add = 1ull << 40;
            r->dadd = 0.0;
            r->fadd = 0.0f;
            r->min = INT32_MAX;
            r->max = INT32_MIN;
            r->umax = 0;
            r->and_bits = 0xffffffffu;
            r->or_bits = 0;
            r->xor_bits = 0;
            r->fmax = -1.0e30f;
            r->product = 1;
            for (size_t t = 0; t < tpb && b * tpb + t < n; t++) {
                int32_t v = vals[b * tpb + t];
                uint32_t uv = (uint32_t)v;
                add += uv;
                r->fadd += (float)(v & 7);
                r->min = v < r->min ? v : r->min;
                r->max = v > r->max ? v : r->max;
                r->umax = uv > r->umax ? uv : r->umax;
                r->and_bits &= uv | 0x0f0f0f0fu;
                r->or_bits |= uv & 0x00ff00ffu;
                r->xor_bits ^= uv;
                float f = (float)(v % 1000) * 0.5f;
                r->fmax = f > r->fmax ? f : r->fmax;
                r->product *= uv | 1u;
                exch_sum += (int32_t)t;
                count++;
                sub -= uv;
                dec = (dec == 0 || dec > 4u) ? 4u : dec - 1;
                r->umin = uv < r->umin ? uv : r->umin;
                r->ull_add += (uint64_t)uv << 12;
                r->dadd += ldexp(1.0, -(int)(t % 12));
            }
            r->add = (int32_t)add;
            r->sub = (int32_t)sub;
            r->dec = dec;
            r->cas64 = 7 + 5ull * count;
            r->inc = count % 7;
            r->exch_sum = exch_sum;
        }
        dv = e2e_upload(dev, vals, n * 4);
        dres = e2e_alloc(dev, blocks * sizeof *got);
        if (!dv || !dres)
            goto next;
        int nn = (int)n;
        void *args[] = {&dv, &dres, &nn};
        if (!e2e_launch(dev, k, sh->s.name, sh->s.grid, sh->s.block, 0, args))
            goto next;
        if (e2e_download(dev, got, dres, blocks * sizeof *got)) {
            static const char *const names[BR_WORDS] = {
                "add", "fadd", "min", "max", "umax", "and", "or", "xor", "inc(6)",
                "exch chain sum", "CAS float max", "CAS product", "sub", "dec(4)", "umin",
                "pad", "ull_add lo", "ull_add hi", "dadd lo", "dadd hi", "CAS64 lo",
                "CAS64 hi",
            };
            e2e_layout lay = {BR_WORDS, names};
            char what[160];
            snprintf(what, sizeof what, "atomics_shared results (thread = block), %s",
                     sh->s.name);
            e2e_cmp_u32(what, (const uint32_t *)got, (const uint32_t *)exp,
                        blocks * BR_WORDS, &lay);
        }
    next:
        e2e_free(dev, dv);
        e2e_free(dev, dres);
        free(vals);
        free(exp);
        free(got);
    }
out:
    e2e_device_destroy(dev);
}

static void test_histogram(void)
{
    static const e2e_shape shapes[] = {
        {"grid 4, block 96", {4, 1, 1}, {96, 1, 1}},
        {"grid 3x2, block 50x2", {3, 2, 1}, {50, 2, 1}},
        {"grid 1, block 1000", {1, 1, 1}, {1000, 1, 1}},
        {"grid 2x2x2, block 8x8x2", {2, 2, 2}, {8, 8, 2}},
    };
    const size_t n = 10007;
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "atomics.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "histogram");
    uint8_t *data = malloc(n);
    uint32_t exp[64] = {0}, got[64];
    lockstep_dptr dd = 0, dh = 0;
    uint64_t st = 0x4157;
    if (!k || !data)
        goto out;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = e2e_rand(&st);
        data[i] = (uint8_t)((r & 3) == 0 ? 200 + (r >> 8) % 8 : (r >> 16) & 0xff); /* skewed */
        exp[data[i] >> 2]++;
    }
    dd = e2e_upload(dev, data, n);
    dh = e2e_alloc(dev, sizeof got);
    if (!dd || !dh)
        goto out;
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        const e2e_shape *sh = &shapes[si];
        if (!e2e_fill(dev, dh, 0, sizeof got))
            break;
        int nn = (int)n;
        void *args[] = {&dd, &nn, &dh};
        if (!e2e_launch(dev, k, sh->name, sh->grid, sh->block, 0, args))
            continue;
        if (e2e_download(dev, got, dh, sizeof got)) {
            char what[128];
            snprintf(what, sizeof what, "histogram bins, %s", sh->name);
            e2e_cmp_u32(what, got, exp, 64, NULL);
        }
    }
out:
    e2e_free(dev, dd);
    e2e_free(dev, dh);
    free(data);
    e2e_device_destroy(dev);
}

int main(void)
{
    RUN(test_atomics_global);
    RUN(test_atomics_shared);
    RUN(test_histogram);
    return test_summary();
}
