/*
 * test_syntax.c -- runs tests/ptx/good/syntax.ptx, the hand-written PTX
 * with the syntax real nvcc output contains, and checks what each thread
 * computed, so the syntax is known to mean the right thing, not only to
 * parse: module initializers (also generic() addresses), [symbol+offset]
 * addressing, inline-asm scopes with %-less names and r|p destinations,
 * predicated arithmetic, hex float immediates, f16 registers and b16
 * pack/unpack, local and dynamic shared memory, special registers, a call
 * split over lines with a by-value array argument, an indirect call with a
 * .callprototype, vector stores, and vprintf of a byte-array string.
 */
#include <stdio.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"

static void capture(void *ud, const char *text, size_t len)
{
    {
        char *buf = ud;
        size_t have = strlen(buf);
        if (have + len < 256) {
            memcpy(buf + have, text, len);
            buf[have + len] = 0;
        }
    }
}

static void test_syntax_kernel(void)
{
    lockstep_device *dev;
    CHECK(lockstep_device_create(NULL, &dev) == LOCKSTEP_SUCCESS);
    lockstep_module *mod;
    lockstep_status st =
        lockstep_module_load_file(dev, LOCKSTEP_SRC_DIR "/tests/ptx/good/syntax.ptx", &mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s", lockstep_device_last_error(dev));
    if (st != LOCKSTEP_SUCCESS) {
        lockstep_device_destroy(dev);
        return;
    }
    lockstep_kernel *k;
    CHECK(lockstep_module_get_kernel(mod, "syntax_kernel", &k) == LOCKSTEP_SUCCESS);
    lockstep_dptr out;
    CHECK(lockstep_malloc(dev, 32 * 64, &out) == LOCKSTEP_SUCCESS);
    uint32_t n = 5;
    void *args[] = {&out, &n};
    st = lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1}, 128,
                              args, NULL);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s", lockstep_device_last_error(dev));
    uint32_t r[32][16];
    CHECK(lockstep_memcpy_dtoh(dev, r, out, sizeof r) == LOCKSTEP_SUCCESS);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t want[16] = {8, 41, t < 16 ? 100u : 199u, (uint32_t)-6, 4, 0xc000, (uint32_t)-2, t,
                             t ^ 1, t, 0, t + n + 999, 2 * t, 0, 0xc000c000u, 7};
        for (int i = 0; i < 16; i++)
            CHECK_MSG(r[t][i] == want[i], "thread %u word %d: got 0x%x, expected 0x%x", t, i,
                      r[t][i], want[i]);
    }
    /* the initialized module variable is visible to the host */
    lockstep_dptr gc;
    size_t gsize;
    CHECK(lockstep_module_get_symbol(mod, "g_counter", &gc, &gsize) == LOCKSTEP_SUCCESS);
    CHECK_EQ_U64(gsize, 4);
    uint32_t v = 0;
    lockstep_memcpy_dtoh(dev, &v, gc, 4);
    CHECK_EQ_U64(v, 7);
    lockstep_dptr tbl;
    CHECK(lockstep_module_get_symbol(mod, "g_table", &tbl, &gsize) == LOCKSTEP_SUCCESS);
    uint64_t t64[3];
    lockstep_memcpy_dtoh(dev, t64, tbl, sizeof t64);
    CHECK_EQ_U64(t64[1], 0x100000000ull);
    CHECK_EQ_U64(t64[2], UINT64_MAX); /* 64-bit decimal immediates are not truncated */
    lockstep_kernel_info ki;
    CHECK(lockstep_kernel_get_info(k, &ki) == LOCKSTEP_SUCCESS);
    CHECK_EQ_U64(ki.static_shared_bytes, 64);
    CHECK(ki.uses_dynamic_shared);
    CHECK_EQ_U64(ki.maxntid[0], 64);
    CHECK_EQ_U64(ki.minnctapersm, 1);
    CHECK_EQ_U64(ki.num_params, 2);
    CHECK_EQ_U64(ki.param_bytes, 12);
    /* .maxntid is enforced */
    st = lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){128, 1, 1}, 128,
                              args, NULL);
    CHECK(st == LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES);
    lockstep_device_destroy(dev);
}

static void test_print_kernel(void)
{
    lockstep_device *dev;
    CHECK(lockstep_device_create(NULL, &dev) == LOCKSTEP_SUCCESS);
    char text[256] = "";
    lockstep_device_set_printf_output(dev, capture, text);
    lockstep_module *mod;
    CHECK(lockstep_module_load_file(dev, LOCKSTEP_SRC_DIR "/tests/ptx/good/syntax.ptx", &mod) ==
          LOCKSTEP_SUCCESS);
    lockstep_kernel *k;
    CHECK(lockstep_module_get_kernel(mod, "print_kernel", &k) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){2, 1, 1}, 0, NULL,
                               NULL) == LOCKSTEP_SUCCESS);
    CHECK_MSG(text[0] == 0, "printf output before synchronize: '%s'", text);
    CHECK(lockstep_synchronize(dev) == LOCKSTEP_SUCCESS);
    CHECK_MSG(!strcmp(text, "hello\nhello\n"), "printed '%s'", text);
    lockstep_device_destroy(dev);
}

static void test_imm64(void)
{
    lockstep_device *dev;
    CHECK(lockstep_device_create(NULL, &dev) == LOCKSTEP_SUCCESS);
    lockstep_module *mod;
    CHECK(lockstep_module_load_file(dev, LOCKSTEP_SRC_DIR "/tests/ptx/good/syntax.ptx", &mod) ==
          LOCKSTEP_SUCCESS);
    lockstep_kernel *k;
    CHECK(lockstep_module_get_kernel(mod, "imm64", &k) == LOCKSTEP_SUCCESS);
    lockstep_dptr out;
    lockstep_malloc(dev, 32, &out);
    void *args[] = {&out};
    CHECK(lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){1, 1, 1}, 0, args,
                               NULL) == LOCKSTEP_SUCCESS);
    uint64_t r[4];
    lockstep_memcpy_dtoh(dev, r, out, sizeof r);
    CHECK_EQ_U64(r[0], UINT64_MAX);
    CHECK_EQ_U64(r[1], 81985529216486895ull);
    CHECK_EQ_U64(r[2], 81985529216486895ull + 4294967296ull);
    CHECK_EQ_U64(r[3], 81985529216486895ull * (uint64_t)-2);
    lockstep_device_destroy(dev);
}

static void test_consts(void)
{
    lockstep_device *dev;
    CHECK(lockstep_device_create(NULL, &dev) == LOCKSTEP_SUCCESS);
    lockstep_module *mod;
    CHECK(lockstep_module_load_file(dev, LOCKSTEP_SRC_DIR "/tests/ptx/good/syntax.ptx", &mod) ==
          LOCKSTEP_SUCCESS);
    lockstep_kernel *k;
    CHECK(lockstep_module_get_kernel(mod, "consts", &k) == LOCKSTEP_SUCCESS);
    lockstep_dptr out;
    lockstep_malloc(dev, 32, &out);
    void *args[] = {&out};
    CHECK(lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){1, 1, 1}, 0, args,
                               NULL) == LOCKSTEP_SUCCESS);
    uint32_t r[5];
    lockstep_memcpy_dtoh(dev, r, out, sizeof r);
    CHECK_EQ_U64(r[0], 32);  /* WARP_SZ */
    CHECK_EQ_U64(r[1], 64);  /* WARP_SZ as an ALU operand */
    CHECK_EQ_U64(r[2], 1);   /* mov.pred %p, -1: true */
    CHECK_EQ_U64(r[3], 0);   /* mov.pred %p, 0: false */
    CHECK_EQ_U64(r[4], 1);   /* mov.pred %p, 1: true */
    lockstep_device_destroy(dev);
}

int main(void)
{
    RUN(test_imm64);
    RUN(test_consts);
    RUN(test_syntax_kernel);
    RUN(test_print_kernel);
    return test_summary();
}
