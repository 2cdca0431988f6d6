/*
 * test_module_vars.c -- end-to-end: module-scope variables (kernels/module_vars.cu).
 *
 * Checks, through lockstep_module_get_symbol and memcpy: the size and the
 * initial value of every __device__ and __constant__ variable (arrays whose
 * initializer is shorter than the array, a char string, 16- and 64-bit
 * elements, a negative .u64 literal, a pointer initialised with the address
 * of another variable); that kernels read the same values (read_vars); that
 * kernel writes (update_vars: atomics, plain stores, stores through the
 * pointer variable) are visible to the host; that host writes to __constant__
 * and __device__ variables are visible to later launches (use_consts,
 * read_vars); that a second load of the same PTX gets its own fresh copy of
 * every variable; and that an unknown name is LOCKSTEP_ERROR_NOT_FOUND.
 */
#include "e2e.h"

static const float table_init[8] = {1.5f, -2.25f, 3.0f, 0.125f, 1e10f, -0.0f, 7.75f, 8.0f};
static const int16_t shorts_init[5] = {1, -2, 300, -32768, 32767};
static const int32_t coeffs_init[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
static const int32_t target_init[4] = {10, 20, 30, 40};
static const uint64_t big_init[3] = {0x0123456789abcdefull, 1ull, 0xffffffffffffffffull};

typedef struct sym {
    const char *name;
    size_t bytes;
} sym;

static const sym syms[] = {
    {"g_counter", 4}, {"g_table", 32}, {"g_dscalar", 8}, {"g_shorts", 10}, {"g_name", 16},
    {"g_big", 24},    {"g_squares", 256}, {"g_target", 16}, {"g_ptr", 8},   {"c_coeffs", 64},
    {"c_scale", 4},   {"c_big", 8},       {"c_tag", 4},
};
#define N_SYMS (sizeof syms / sizeof syms[0])

/* Address of a symbol (0 after a failed check), checking its size. */
static lockstep_dptr symbol(lockstep_device *dev, lockstep_module *mod, const char *name,
                            size_t expect_bytes)
{
    lockstep_dptr a = 0;
    size_t bytes = 0;
    if (!mod)
        return 0;
    if (!E2E_OK(dev, lockstep_module_get_symbol(mod, name, &a, &bytes))) {
        fprintf(stderr, "    (symbol %s)\n", name);
        return 0;
    }
    CHECK_MSG(bytes == expect_bytes, "symbol %s: %zu bytes, expected %zu", name, bytes,
              expect_bytes);
    CHECK_MSG(a != 0, "symbol %s at address 0", name);
    return a;
}

#define READ_SYM(dev, mod, name, var)                                                         \
    (symbol((dev), (mod), (name), sizeof(var)) &&                                             \
     e2e_download((dev), &(var), symbol((dev), (mod), (name), sizeof(var)), sizeof(var)))

static void check_initial(lockstep_device *dev, lockstep_module *mod, const char *what)
{
    int32_t counter = 0, squares[64], target[4];
    float table[8], scale = 0;
    double dscalar = 0;
    int16_t shorts[5];
    char name[16], tag[4];
    uint64_t big[3], cbig = 0, ptr = 0;
    int32_t coeffs[16];
    char msg[160];

    for (size_t i = 0; i < N_SYMS; i++)
        symbol(dev, mod, syms[i].name, syms[i].bytes);
    if (READ_SYM(dev, mod, "g_counter", counter))
        CHECK_MSG(counter == 5, "%s: g_counter = %d, expected 5", what, counter);
    if (READ_SYM(dev, mod, "g_table", table)) {
        snprintf(msg, sizeof msg, "%s: g_table", what);
        e2e_cmp_f32(msg, table, table_init, 8, 0, NULL, NULL);
    }
    if (READ_SYM(dev, mod, "g_dscalar", dscalar))
        CHECK_MSG(dscalar == 2.25, "%s: g_dscalar = %g, expected 2.25", what, dscalar);
    if (READ_SYM(dev, mod, "g_shorts", shorts))
        CHECK_MSG(memcmp(shorts, shorts_init, sizeof shorts) == 0, "%s: g_shorts differ", what);
    if (READ_SYM(dev, mod, "g_name", name))
        CHECK_MSG(memcmp(name, "lockstep\0\0\0\0\0\0\0\0", 16) == 0,
                  "%s: g_name = '%.16s', expected 'lockstep' and zeros", what, name);
    if (READ_SYM(dev, mod, "g_big", big)) {
        snprintf(msg, sizeof msg, "%s: g_big", what);
        e2e_cmp_u64(msg, big, big_init, 3, NULL);
    }
    if (READ_SYM(dev, mod, "g_squares", squares)) {
        int32_t zeros[64] = {0};
        snprintf(msg, sizeof msg, "%s: g_squares (zero-initialised)", what);
        e2e_cmp_i32(msg, squares, zeros, 64, NULL);
    }
    if (READ_SYM(dev, mod, "g_target", target)) {
        snprintf(msg, sizeof msg, "%s: g_target", what);
        e2e_cmp_i32(msg, target, target_init, 4, NULL);
    }
    if (READ_SYM(dev, mod, "g_ptr", ptr)) {
        lockstep_dptr t = symbol(dev, mod, "g_target", 16);
        CHECK_MSG(ptr == t, "%s: g_ptr = 0x%" PRIx64 ", expected &g_target = 0x%" PRIx64, what,
                  ptr, (uint64_t)t);
    }
    if (READ_SYM(dev, mod, "c_coeffs", coeffs)) {
        snprintf(msg, sizeof msg, "%s: c_coeffs", what);
        e2e_cmp_i32(msg, coeffs, coeffs_init, 16, NULL);
    }
    if (READ_SYM(dev, mod, "c_scale", scale))
        CHECK_MSG(scale == 0.5f, "%s: c_scale = %g, expected 0.5", what, (double)scale);
    if (READ_SYM(dev, mod, "c_big", cbig))
        CHECK_MSG(cbig == 0xfedcba9876543210ull, "%s: c_big = 0x%" PRIx64, what, cbig);
    if (READ_SYM(dev, mod, "c_tag", tag))
        CHECK_MSG(memcmp(tag, "abc", 4) == 0, "%s: c_tag = '%.4s', expected 'abc'", what, tag);
}

/* read_vars copies every variable out; compare with the given state. */
static void check_read_vars(lockstep_device *dev, lockstep_kernel *k, const char *what,
                            int32_t counter, const int32_t *coeffs, const int32_t *target,
                            const float *table, double dscalar, int32_t square63)
{
    int32_t iexp[47], igot[47];
    float fexp[9], fgot[9];
    double dgot = 0;
    uint64_t uexp[4], ugot[4];
    lockstep_dptr di = e2e_alloc(dev, sizeof igot), df = e2e_alloc(dev, sizeof fgot);
    lockstep_dptr dd = e2e_alloc(dev, 8), du = e2e_alloc(dev, sizeof ugot);
    char msg[160];
    if (!k || !di || !df || !dd || !du)
        goto out;
    iexp[0] = counter;
    for (int i = 0; i < 5; i++)
        iexp[1 + i] = shorts_init[i];
    for (int i = 0; i < 16; i++)
        iexp[6 + i] = "lockstep\0\0\0\0\0\0\0\0"[i];
    for (int i = 0; i < 16; i++)
        iexp[22 + i] = coeffs[i];
    for (int i = 0; i < 4; i++)
        iexp[38 + i] = target[i];
    for (int i = 0; i < 4; i++)
        iexp[42 + i] = "abc"[i];
    iexp[46] = square63;
    memcpy(fexp, table, 8 * sizeof *table);
    fexp[8] = 0.5f;
    memcpy(uexp, big_init, sizeof big_init);
    uexp[3] = 0xfedcba9876543210ull;
    void *args[] = {&di, &df, &dd, &du};
    if (!e2e_launch(dev, k, what, e2e_dim3(2, 1, 1), e2e_dim3(64, 1, 1), 0, args))
        goto out;
    if (e2e_download(dev, igot, di, sizeof igot) && e2e_download(dev, fgot, df, sizeof fgot) &&
        e2e_download(dev, &dgot, dd, 8) && e2e_download(dev, ugot, du, sizeof ugot)) {
        snprintf(msg, sizeof msg, "%s: ints", what);
        e2e_cmp_i32(msg, igot, iexp, 47, NULL);
        snprintf(msg, sizeof msg, "%s: floats", what);
        e2e_cmp_f32(msg, fgot, fexp, 9, 0, NULL, NULL);
        snprintf(msg, sizeof msg, "%s: g_dscalar", what);
        e2e_cmp_f64(msg, &dgot, &dscalar, 1, 0, NULL, NULL);
        snprintf(msg, sizeof msg, "%s: 64-bit", what);
        e2e_cmp_u64(msg, ugot, uexp, 4, NULL);
    }
out:
    e2e_free(dev, di);
    e2e_free(dev, df);
    e2e_free(dev, dd);
    e2e_free(dev, du);
}

static void test_module_vars(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "module_vars.ptx");
    lockstep_module *mod2 = NULL;
    lockstep_kernel *kr = e2e_kernel(dev, mod, "read_vars");
    lockstep_kernel *ku = e2e_kernel(dev, mod, "update_vars");
    lockstep_kernel *kc = e2e_kernel(dev, mod, "use_consts");
    lockstep_dptr dx = 0, dy = 0;
    if (!kr || !ku || !kc)
        goto out;

    check_initial(dev, mod, "initial");
    check_read_vars(dev, kr, "read_vars before any update", 5, coeffs_init, target_init,
                    table_init, 2.25, 0);

    lockstep_dptr a = 0;
    lockstep_status s = lockstep_module_get_symbol(mod, "no_such_symbol", &a, NULL);
    CHECK_MSG(s == LOCKSTEP_ERROR_NOT_FOUND, "get_symbol(no_such_symbol) returned %s",
              lockstep_status_name(s));

    /* update_vars with 200 threads (two blocks of 100) */
    int n = 200;
    void *uargs[] = {&n};
    if (!e2e_launch(dev, ku, "update_vars grid 2, block 100", e2e_dim3(2, 1, 1),
                    e2e_dim3(100, 1, 1), 0, uargs))
        goto out;
    int32_t counter = 0, squares[64], esquares[64], target[4], etarget[4];
    float table[8], etable[8];
    double dscalar = 0;
    for (int i = 0; i < 64; i++)
        esquares[i] = coeffs_init[i % 16] * i;
    for (int i = 0; i < 4; i++)
        etarget[i] = target_init[i] + i;
    memcpy(etable, table_init, sizeof etable);
    for (int i = 0; i < n; i++)
        etable[i % 8] += 1.0f;
    if (READ_SYM(dev, mod, "g_counter", counter))
        CHECK_MSG(counter == 5 + n, "after update_vars: g_counter = %d, expected %d", counter,
                  5 + n);
    if (READ_SYM(dev, mod, "g_squares", squares))
        e2e_cmp_i32("after update_vars: g_squares", squares, esquares, 64, NULL);
    if (READ_SYM(dev, mod, "g_target", target))
        e2e_cmp_i32("after update_vars: g_target (written through g_ptr)", target, etarget, 4,
                    NULL);
    if (READ_SYM(dev, mod, "g_table", table))
        e2e_cmp_f32("after update_vars: g_table", table, etable, 8, 0, NULL, NULL);
    if (READ_SYM(dev, mod, "g_dscalar", dscalar))
        CHECK_MSG(dscalar == 9.0, "after update_vars: g_dscalar = %g, expected 9", dscalar);

    /* host writes: __constant__ coefficients and scale, __device__ counter */
    int32_t coeffs[16];
    for (int i = 0; i < 16; i++)
        coeffs[i] = 100 - 7 * i;
    float scale = 0.25f;
    int32_t newcount = 1000;
    lockstep_dptr pc = symbol(dev, mod, "c_coeffs", sizeof coeffs);
    lockstep_dptr ps = symbol(dev, mod, "c_scale", sizeof scale);
    lockstep_dptr pg = symbol(dev, mod, "g_counter", sizeof newcount);
    if (!pc || !ps || !pg || !E2E_OK(dev, lockstep_memcpy_htod(dev, pc, coeffs, sizeof coeffs)) ||
        !E2E_OK(dev, lockstep_memcpy_htod(dev, ps, &scale, sizeof scale)) ||
        !E2E_OK(dev, lockstep_memcpy_htod(dev, pg, &newcount, sizeof newcount)))
        goto out;
    const int m = 150;
    float x[150], yexp[150], ygot[150];
    for (int i = 0; i < m; i++) {
        x[i] = (float)i * 1.375f - 40.0f;
        yexp[i] = x[i] * scale + (float)coeffs[i % 16];
    }
    dx = e2e_upload(dev, x, sizeof x);
    dy = e2e_alloc(dev, sizeof ygot);
    if (!dx || !dy)
        goto out;
    int mm = m;
    void *cargs[] = {&dx, &dy, &mm};
    if (e2e_launch(dev, kc, "use_consts 2-D grid 2x2, block 40", e2e_dim3(2, 2, 1),
                   e2e_dim3(40, 1, 1), 0, cargs) &&
        e2e_download(dev, ygot, dy, sizeof ygot))
        e2e_cmp_f32("use_consts y after host writes to c_coeffs / c_scale", ygot, yexp, m, 0,
                    NULL, NULL);
    /* read_vars sees the host's counter and coefficients (c_scale is
     * restored first, since read_vars expects 0.5) */
    scale = 0.5f;
    if (E2E_OK(dev, lockstep_memcpy_htod(dev, ps, &scale, sizeof scale)))
        check_read_vars(dev, kr, "read_vars after updates and host writes", newcount, coeffs,
                        etarget, etable, 9.0, esquares[63]);

    /* a second instance of the module has its own, freshly initialised variables */
    mod2 = e2e_load(dev, "module_vars.ptx");
    if (mod2) {
        CHECK_MSG(symbol(dev, mod2, "g_counter", 4) != pg,
                  "two loads of a module share g_counter's storage");
        check_initial(dev, mod2, "second load");
        lockstep_module_unload(mod2);
        /* the first module is unaffected */
        if (READ_SYM(dev, mod, "g_counter", counter))
            CHECK_MSG(counter == newcount, "g_counter = %d after unloading the second module",
                      counter);
    }
out:
    e2e_free(dev, dx);
    e2e_free(dev, dy);
    e2e_device_destroy(dev);
}

int main(void)
{
    RUN(test_module_vars);
    return test_summary();
}
