/*
 * test_struct_params.c -- end-to-end: kernel parameters (kernels/struct_params.cu).
 *
 * struct_param takes a 56-byte struct with mixed members by value (checked
 * in three launch shapes, and its parameter info: one 56-byte parameter
 * aligned to 8); mixed_scalars takes ten scalars of sizes 1 to 8, launched
 * once through lockstep_launch_args and once through lockstep_launch with a
 * buffer packed by hand from lockstep_kernel_get_info (whose offsets must be
 * the natural-alignment layout CUDA uses); struct_array reads the same
 * struct from an array in device memory.
 */
#include <stddef.h>

#include "e2e.h"

/* Mirrors struct Params in kernels/struct_params.cu. */
typedef struct Params {
    int32_t i;
    float f;
    double d;
    char c;
    short s;
    int32_t arr[5];
    uint64_t u;
    char tag[3];
} Params;
_Static_assert(sizeof(Params) == 56, "Params layout");
_Static_assert(offsetof(Params, u) == 40, "Params layout");

#define SP_OUTS 8
#define FILL 0xcd

static const char *const sp_names[SP_OUTS] = {
    "i+g", "(int)(f*4)*g", "c*3+s", "arr[g%5]-g", "u>>(g%64)", "u%1000+tag[g%3]", "sizeof",
    "sum arr",
};

typedef struct shape_n {
    e2e_shape s;
    size_t n;
} shape_n;

static Params make_params(void)
{
    Params p;
    memset(&p, 0, sizeof p); /* padding bytes too */
    p.i = -123456;
    p.f = 2.75f;
    p.d = 1e15 + 0.5;
    p.c = -7;
    p.s = -30000;
    p.arr[0] = 1;
    p.arr[1] = -2;
    p.arr[2] = 300;
    p.arr[3] = 40000;
    p.arr[4] = -5;
    p.u = 0xfedcba9876543210ull;
    p.tag[0] = 'x';
    p.tag[1] = -3;
    p.tag[2] = 100;
    return p;
}

static void test_struct_param(void)
{
    static const shape_n shapes[] = {
        {{"1-D grid 3, block 64", {3, 1, 1}, {64, 1, 1}}, 180},
        {{"2-D grid 2x2, 3-D block 5x5x2", {2, 2, 1}, {5, 5, 2}}, 190},
        {{"one block of 7", {1, 1, 1}, {7, 1, 1}}, 7},
    };
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "struct_params.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "struct_param");
    lockstep_kernel_info info;
    Params p = make_params();
    if (!k)
        goto out;
    if (E2E_OK(dev, lockstep_kernel_get_info(k, &info))) {
        CHECK_EQ_INT(info.num_params, 4);
        if (info.num_params == 4) {
            CHECK_EQ_INT(info.params[0].offset, 0);
            CHECK_EQ_INT(info.params[0].size, sizeof(Params));
            CHECK_EQ_INT(info.params[0].align, 8);
            CHECK_EQ_INT(info.params[1].offset, 56);
            CHECK_EQ_INT(info.params[3].size, 4);
            CHECK_EQ_INT(info.param_bytes, 76);
        }
    }
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        const shape_n *sh = &shapes[si];
        size_t n = sh->n, threads = (size_t)e2e_shape_threads(&sh->s), outs = threads * SP_OUTS;
        uint32_t *exp = malloc(outs * 4), *got = malloc(outs * 4);
        double *dexp = malloc(threads * 8), *dgot = malloc(threads * 8);
        lockstep_dptr dout = 0, ddo = 0;
        if (!exp || !got || !dexp || !dgot)
            goto next;
        memset(exp, FILL, outs * 4);
        memset(dexp, FILL, threads * 8);
        for (uint32_t g = 0; g < n; g++) {
            uint32_t *o = exp + (size_t)g * SP_OUTS;
            o[0] = (uint32_t)p.i + g;
            o[1] = (uint32_t)(int32_t)(p.f * 4.0f) * g;
            o[2] = (uint32_t)(p.c * 3 + p.s);
            o[3] = (uint32_t)p.arr[g % 5] - g;
            o[4] = (uint32_t)(p.u >> (g % 64));
            o[5] = (uint32_t)(p.u % 1000u) + (uint32_t)(int32_t)p.tag[g % 3];
            o[6] = (uint32_t)sizeof(Params);
            o[7] = (uint32_t)(p.arr[0] + p.arr[1] + p.arr[2] + p.arr[3] + p.arr[4]);
            dexp[g] = p.d + (double)g;
        }
        dout = e2e_alloc(dev, outs * 4);
        ddo = e2e_alloc(dev, threads * 8);
        if (!dout || !ddo || !e2e_fill(dev, dout, FILL, outs * 4) ||
            !e2e_fill(dev, ddo, FILL, threads * 8))
            goto next;
        int nn = (int)n;
        void *args[] = {&p, &dout, &ddo, &nn};
        if (!e2e_launch(dev, k, sh->s.name, sh->s.grid, sh->s.block, 0, args))
            goto next;
        if (e2e_download(dev, got, dout, outs * 4) && e2e_download(dev, dgot, ddo, threads * 8)) {
            e2e_layout lay = {SP_OUTS, sp_names};
            char what[128];
            snprintf(what, sizeof what, "struct_param out, %s", sh->s.name);
            e2e_cmp_u32(what, got, exp, outs, &lay);
            snprintf(what, sizeof what, "struct_param d+g (index = thread), %s", sh->s.name);
            e2e_cmp_f64(what, dgot, dexp, threads, 0, NULL, NULL);
        }
    next:
        e2e_free(dev, dout);
        e2e_free(dev, ddo);
        free(exp);
        free(got);
        free(dexp);
        free(dgot);
    }
out:
    e2e_device_destroy(dev);
}

static void test_mixed_scalars(void)
{
    /* natural-alignment layout of (char, short, int, long long, float,
     * double, unsigned char, int *, unsigned short, double) */
    static const uint32_t offs[10] = {0, 2, 4, 8, 16, 24, 32, 40, 48, 56};
    static const uint32_t sizes[10] = {1, 2, 4, 8, 4, 8, 1, 8, 2, 8};
    char c = -5;
    short s = -1234;
    int32_t i = 0x12345678;
    int64_t ll = -0x123456789abcll;
    float f = 3.5f;
    double d = -2.75e100, d2 = 1.0 / 3.0;
    unsigned char uc = 250;
    unsigned short us = 65000;
    uint32_t exp[12], got[12];
    uint64_t dbits = e2e_f64_bits(d), d2bits = e2e_f64_bits(d2);
    exp[0] = (uint32_t)(int32_t)c;
    exp[1] = (uint32_t)(int32_t)s;
    exp[2] = (uint32_t)i;
    exp[3] = (uint32_t)(uint64_t)ll;
    exp[4] = (uint32_t)((uint64_t)ll >> 32);
    exp[5] = e2e_f32_bits(f);
    exp[6] = (uint32_t)dbits;
    exp[7] = (uint32_t)(dbits >> 32);
    exp[8] = uc;
    exp[9] = us;
    exp[10] = (uint32_t)d2bits;
    exp[11] = (uint32_t)(d2bits >> 32);

    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "struct_params.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "mixed_scalars");
    lockstep_dptr dout = e2e_alloc(dev, sizeof got);
    lockstep_kernel_info info;
    if (!k || !dout)
        goto out;
    void *args[] = {&c, &s, &i, &ll, &f, &d, &uc, &dout, &us, &d2};
    if (e2e_fill(dev, dout, FILL, sizeof got) &&
        e2e_launch(dev, k, "mixed_scalars via launch_args", e2e_dim3(2, 1, 1),
                   e2e_dim3(33, 1, 1), 0, args) &&
        e2e_download(dev, got, dout, sizeof got))
        e2e_cmp_u32("mixed_scalars via launch_args", got, exp, 12, NULL);

    if (!E2E_OK(dev, lockstep_kernel_get_info(k, &info)))
        goto out;
    CHECK_EQ_INT(info.num_params, 10);
    if (info.num_params != 10)
        goto out;
    for (int p = 0; p < 10; p++) {
        CHECK_MSG(info.params[p].offset == offs[p] && info.params[p].size == sizes[p] &&
                      info.params[p].align == sizes[p],
                  "mixed_scalars param %d: offset %u size %u align %u, expected %u %u %u", p,
                  info.params[p].offset, info.params[p].size, info.params[p].align, offs[p],
                  sizes[p], sizes[p]);
    }
    CHECK_EQ_INT(info.param_bytes, 64);
    unsigned char buf[256];
    memset(buf, 0, sizeof buf);
    if (info.param_bytes > sizeof buf)
        goto out;
    for (int p = 0; p < 10; p++)
        if (info.params[p].offset + info.params[p].size <= info.param_bytes)
            memcpy(buf + info.params[p].offset, args[p], info.params[p].size);
    lockstep_launch_stats st;
    if (!e2e_fill(dev, dout, FILL, sizeof got))
        goto out;
    lockstep_status ls = lockstep_launch(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(1, 1, 1), 0, buf,
                                         info.param_bytes, &st);
    if (E2E_OK(dev, ls) && E2E_OK(dev, lockstep_synchronize(dev)) &&
        e2e_download(dev, got, dout, sizeof got)) {
        e2e_check_stats("mixed_scalars via lockstep_launch", e2e_dim3(1, 1, 1),
                        e2e_dim3(1, 1, 1), &st);
        e2e_cmp_u32("mixed_scalars via lockstep_launch (packed buffer)", got, exp, 12, NULL);
    }
    /* a buffer of the wrong size is a launch error, not a crash */
    ls = lockstep_launch(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(1, 1, 1), 0, buf,
                         info.param_bytes - 8, NULL);
    CHECK_MSG(ls != LOCKSTEP_SUCCESS, "lockstep_launch accepted %u bytes for a %u-byte buffer",
              info.param_bytes - 8, info.param_bytes);
    lockstep_synchronize(dev);
out:
    e2e_free(dev, dout);
    e2e_device_destroy(dev);
}

static void test_struct_array(void)
{
    const size_t n = 100;
    Params *ps = malloc(n * sizeof *ps);
    int32_t *exp = malloc(n * 4), *got = malloc(n * 4);
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "struct_params.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "struct_array");
    lockstep_dptr dps = 0, dout = 0;
    if (!ps || !exp || !got || !k)
        goto out;
    for (size_t g = 0; g < n; g++) {
        Params *p = &ps[g];
        memset(p, 0, sizeof *p);
        p->i = (int32_t)g * 1000 - 7;
        p->f = (float)g * 1.25f - 30.0f;
        p->d = (double)g * -2.5 + 0.75;
        p->c = (char)(g * 3);
        p->s = (short)(g * 400 - 20000);
        for (int a = 0; a < 5; a++)
            p->arr[a] = (int32_t)(g * 11) - a;
        p->u = 0x100000000ull * g + 12345 * g;
        p->tag[0] = 'a';
        p->tag[1] = 'b';
        p->tag[2] = (char)(g - 50);
        exp[g] = (int32_t)((uint32_t)p->i + (uint32_t)(int32_t)p->f + (uint32_t)(int32_t)p->d +
                           (uint32_t)(int32_t)p->c + (uint32_t)(int32_t)p->s +
                           (uint32_t)p->arr[4] + (uint32_t)p->u + (uint32_t)(int32_t)p->tag[2]);
    }
    dps = e2e_upload(dev, ps, n * sizeof *ps);
    dout = e2e_alloc(dev, n * 4);
    if (!dps || !dout)
        goto out;
    int nn = (int)n;
    void *args[] = {&dps, &dout, &nn};
    if (e2e_launch(dev, k, "struct_array grid 4, block 32", e2e_dim3(4, 1, 1),
                   e2e_dim3(32, 1, 1), 0, args) &&
        e2e_download(dev, got, dout, n * 4))
        e2e_cmp_i32("struct_array out", got, exp, n, NULL);
out:
    e2e_free(dev, dps);
    e2e_free(dev, dout);
    e2e_device_destroy(dev);
    free(ps);
    free(exp);
    free(got);
}

int main(void)
{
    RUN(test_struct_param);
    RUN(test_mixed_scalars);
    RUN(test_struct_array);
    return test_summary();
}
