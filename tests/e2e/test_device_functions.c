/*
 * test_device_functions.c -- end-to-end: real calls (kernels/device_functions.cu).
 *
 * The kernel `calls` makes, per thread, calls to __noinline__ functions with
 * many mixed-type parameters and a pointer to a local variable, recursive
 * calls of per-lane depth (fib, fact), struct-by-value calls in a loop with a
 * per-lane trip count, calls from one side of a divergent branch, and
 * indirect calls through a __device__ table of function pointers (a
 * different target in neighbouring lanes).  Three launch shapes; the CPU
 * repeats each thread's computation.  The test also checks that the PTX
 * really contains an indirect call (.callprototype) and recursion.
 */
#include "e2e.h"

#define DF_OUTS 10
#define FILL 0xcd

static const char *const df_names[DF_OUTS] = {
    "mix() return", "mix() *second", "fib()", "step().count", "step().scale*16",
    "step().flag", "step().id", "collatz_len()", "op_table[v%4](v,g)", "op_table[(g+1)%4]",
};

typedef struct shape_n {
    e2e_shape s;
    size_t n;
} shape_n;

static uint32_t fib(uint32_t n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static uint64_t fact(uint32_t n)
{
    return n <= 1 ? 1 : n * fact(n - 1);
}

static uint32_t collatz_len(uint32_t c)
{
    uint32_t k = 0;
    while (c > 1) {
        c = (c & 1) ? 3 * c + 1 : c / 2;
        k++;
    }
    return k;
}

static uint32_t binop(uint32_t which, int32_t a, int32_t b)
{
    switch (which) {
    case 0:
        return (uint32_t)a + (uint32_t)b;
    case 1:
        return (uint32_t)a - (uint32_t)b;
    case 2:
        return (uint32_t)a * (uint32_t)b;
    default:
        return (uint32_t)(a > b ? a : b);
    }
}

static void ref_calls(int32_t v, uint32_t g, uint32_t *o, uint64_t *f, double *d)
{
    uint32_t uv = (uint32_t)v;
    /* mix(v, v*5, v*1000, (v&63)*0.5f, (v%50)*0.25, (char)(v&0x3f), &second) */
    int64_t c = (int64_t)v * 1000;
    uint32_t b = uv * 5u;
    o[0] = uv * 3u + (b >> 1) + (uint32_t)c + (uv & 63) + (uint32_t)(v % 50) + (uv & 0x3f);
    o[1] = (uint32_t)(c >> 3) - uv;
    o[2] = fib(uv % 12u);
    *f = fact(uv % 21u);

    int32_t count = v & 7;
    float scale = 0.5f;
    double total = 1.0;
    int8_t flag = 1;
    int16_t id = (int16_t)(uint16_t)uv;
    for (int32_t k = 0; k < (v & 3); k++) {
        int32_t vk = v + k;
        total = total + (double)vk * (double)scale;
        count++;
        scale *= 2.0f;
        flag = (int8_t)(flag ^ (int8_t)(uint8_t)(uint32_t)vk);
        id = (int16_t)(uint16_t)((uint32_t)id + 7u);
    }
    o[3] = (uint32_t)count;
    o[4] = (uint32_t)(int32_t)(scale * 16.0f);
    o[5] = (uint32_t)(int32_t)flag;
    o[6] = (uint32_t)(int32_t)id;
    *d = total;

    o[7] = (v & 1) ? collatz_len(uv & 255u) : 0u - collatz_len((uv >> 3) & 127u);
    o[8] = binop(uv % 4u, v, (int32_t)g);
    o[9] = binop((g + 1) % 4u, v & 0xfff, 3);
}

static void test_calls(void)
{
    static const shape_n shapes[] = {
        {{"1-D grid 3, block 100", {3, 1, 1}, {100, 1, 1}}, 290},
        {{"2-D grid 2x2, 3-D block 8x4x2", {2, 2, 1}, {8, 4, 2}}, 250},
        {{"one block of 37", {1, 1, 1}, {37, 1, 1}}, 37},
    };
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "device_functions.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "calls");
    if (!k)
        goto out;
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        const shape_n *sh = &shapes[si];
        size_t n = sh->n, threads = (size_t)e2e_shape_threads(&sh->s), outs = threads * DF_OUTS;
        int32_t *in = malloc(n * 4);
        uint32_t *exp = malloc(outs * 4), *got = malloc(outs * 4);
        uint64_t *fexp = malloc(threads * 8), *fgot = malloc(threads * 8);
        double *dexp = malloc(threads * 8), *dgot = malloc(threads * 8);
        lockstep_dptr din = 0, dout = 0, dfo = 0, ddo = 0;
        uint64_t st = 0xdf + si;
        if (!in || !exp || !got || !fexp || !fgot || !dexp || !dgot)
            goto next;
        memset(exp, FILL, outs * 4);
        memset(fexp, FILL, threads * 8);
        memset(dexp, FILL, threads * 8);
        for (size_t i = 0; i < n; i++) {
            in[i] = (int32_t)e2e_rand_range(&st, -20000, 20000);
            ref_calls(in[i], (uint32_t)i, exp + i * DF_OUTS, fexp + i, dexp + i);
        }
        din = e2e_upload(dev, in, n * 4);
        dout = e2e_alloc(dev, outs * 4);
        dfo = e2e_alloc(dev, threads * 8);
        ddo = e2e_alloc(dev, threads * 8);
        if (!din || !dout || !dfo || !ddo || !e2e_fill(dev, dout, FILL, outs * 4) ||
            !e2e_fill(dev, dfo, FILL, threads * 8) || !e2e_fill(dev, ddo, FILL, threads * 8))
            goto next;
        int nn = (int)n;
        void *args[] = {&din, &dout, &dfo, &ddo, &nn};
        if (!e2e_launch(dev, k, sh->s.name, sh->s.grid, sh->s.block, 0, args))
            goto next;
        if (e2e_download(dev, got, dout, outs * 4) && e2e_download(dev, fgot, dfo, threads * 8) &&
            e2e_download(dev, dgot, ddo, threads * 8)) {
            e2e_layout lay = {DF_OUTS, df_names};
            char what[128];
            snprintf(what, sizeof what, "calls out, %s", sh->s.name);
            e2e_cmp_u32(what, got, exp, outs, &lay);
            snprintf(what, sizeof what, "calls fact() (index = thread), %s", sh->s.name);
            e2e_cmp_u64(what, fgot, fexp, threads, NULL);
            snprintf(what, sizeof what, "calls step().total (index = thread), %s", sh->s.name);
            e2e_cmp_f64(what, dgot, dexp, threads, 0, NULL, NULL);
        }
    next:
        e2e_free(dev, din);
        e2e_free(dev, dout);
        e2e_free(dev, dfo);
        e2e_free(dev, ddo);
        free(in);
        free(exp);
        free(got);
        free(fexp);
        free(fgot);
        free(dexp);
        free(dgot);
    }
out:
    e2e_device_destroy(dev);
}

/* The kernels must exercise what the file says: an indirect call with a
 * .callprototype, a recursive call, and the function table initialised with
 * function addresses. */
static void test_ptx_features(void)
{
    char *ptx = test_read_file(E2E_KERNEL_PATH("device_functions.ptx"), NULL);
    CHECK_MSG(ptx != NULL, "cannot read %s", E2E_KERNEL_PATH("device_functions.ptx"));
    if (!ptx)
        return;
    CHECK_STR_CONTAINS(ptx, ".callprototype");
    CHECK_STR_CONTAINS(ptx, "op_table[4] = {op_add, op_sub, op_mul, op_max}");
    const char *body = strstr(ptx, ".func  (.param .b32 func_retval0) fib(");
    CHECK_MSG(body != NULL, "no definition of fib in the PTX");
    if (body)
        CHECK_STR_CONTAINS(body + 1, "fib,");
    free(ptx);
}

int main(void)
{
    RUN(test_ptx_features);
    RUN(test_calls);
    return test_summary();
}
