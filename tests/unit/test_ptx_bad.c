/*
 * test_ptx_bad.c -- every file in tests/ptx/bad is malformed or unsupported
 * PTX whose first line says which error it must produce:
 *     // expect: 8:2: error: unknown instruction 'frob'
 * Loading it must fail with INVALID_PTX or UNSUPPORTED_PTX, the message
 * must start with the file name and a line:column, and contain the
 * expected text.  (Under ASan/UBSan in CI: and nothing may crash or leak.)
 * The same files are also loaded with every prefix length cut off at a few
 * points, so truncated input is covered too.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_bad_files(void)
{
    const char *dir = LOCKSTEP_SRC_DIR "/tests/ptx/bad";
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d)
        return;
    char *names[512];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512)
        if (strstr(e->d_name, ".ptx"))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp);
    CHECK_MSG(n >= 20, "only %d bad PTX cases", n);
    lockstep_device *dev;
    CHECK(lockstep_device_create(NULL, &dev) == LOCKSTEP_SUCCESS);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len;
        char *text = test_read_file(path, &len);
        CHECK_MSG(text != NULL, "cannot read %s", path);
        if (!text)
            continue;
        char expect[512] = "";
        if (!strncmp(text, "// expect: ", 11)) {
            const char *nl = strchr(text, '\n');
            size_t k = nl ? (size_t)(nl - text - 11) : 0;
            if (k >= sizeof expect)
                k = sizeof expect - 1;
            memcpy(expect, text + 11, k);
            expect[k] = 0;
        }
        CHECK_MSG(expect[0], "%s has no '// expect:' line", names[i]);
        lockstep_module *mod = NULL;
        lockstep_status st = lockstep_module_load_ptx(dev, text, len, names[i], &mod);
        const char *msg = lockstep_device_last_error(dev);
        CHECK_MSG(st == LOCKSTEP_ERROR_INVALID_PTX || st == LOCKSTEP_ERROR_UNSUPPORTED_PTX,
                  "%s: status %s", names[i], lockstep_status_name(st));
        CHECK_MSG(mod == NULL, "%s: a module was returned", names[i]);
        char prefix[600];
        snprintf(prefix, sizeof prefix, "%s:", names[i]);
        CHECK_MSG(!strncmp(msg, prefix, strlen(prefix)), "%s: message does not start with the file name: %s",
                  names[i], msg);
        CHECK_MSG(strstr(msg, expect) != NULL, "%s: expected '%s' in:\n%s", names[i], expect, msg);
        CHECK_MSG(!strstr(msg, "internal"), "%s: an internal error leaks out:\n%s", names[i], msg);
        /* unsupported instructions are reported as such */
        if (strstr(expect, "unsupported instruction"))
            CHECK_MSG(st == LOCKSTEP_ERROR_UNSUPPORTED_PTX, "%s: %s", names[i],
                      lockstep_status_name(st));
        /* truncated copies of the file must fail cleanly too (or load, if the cut
         * happens to leave valid PTX), never crash */
        for (size_t cut = 1; cut < len; cut += len / 7 + 1) {
            lockstep_module *m2 = NULL;
            lockstep_status s2 = lockstep_module_load_ptx(dev, text, cut, names[i], &m2);
            if (s2 == LOCKSTEP_SUCCESS)
                lockstep_module_unload(m2);
            else
                CHECK_MSG(lockstep_device_last_error(dev)[0], "%s cut at %zu: empty message",
                          names[i], cut);
        }
        free(text);
    }
    lockstep_device_destroy(dev);
    for (int i = 0; i < n; i++)
        free(names[i]);
}

/* Every committed good PTX file loads (the census-driven coverage lives in
 * the e2e kernels, the conformance suite and the examples). */
static void test_good_files(void)
{
    static const char *const files[] = {
        "examples/saxpy.ptx",
        "tests/e2e/kernels/atomics.ptx",
        "tests/e2e/kernels/control_flow.ptx",
        "tests/e2e/kernels/device_functions.ptx",
        "tests/e2e/kernels/half_ops.ptx",
        "tests/e2e/kernels/printf.ptx",
        "tests/e2e/kernels/warp_intrinsics.ptx",
        "tests/ptx/good/syntax.ptx",
    };
    lockstep_device *dev;
    CHECK(lockstep_device_create(NULL, &dev) == LOCKSTEP_SUCCESS);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", LOCKSTEP_SRC_DIR, files[i]);
        lockstep_module *mod;
        lockstep_status st = lockstep_module_load_file(dev, path, &mod);
        CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s\n%s", files[i], lockstep_status_name(st),
                  lockstep_device_last_error(dev));
        if (st == LOCKSTEP_SUCCESS)
            lockstep_module_unload(mod);
    }
    lockstep_device_destroy(dev);
}

/*
 * Register operands whose declared type differs from the instruction's but
 * that the PTX ISA's type-checking rules allow, and ptxas accepts (checked
 * with ptxas -arch=sm_75/sm_90 when the table was written): each line must
 * load.  This keeps the loader's operand type check from turning into a
 * false positive on real code (tests/ptx/bad/1xx-* are the refusals).
 */
static void test_accepted_mixes(void)
{
    static const char *const lines[] = {
        /* integer and bit-size types of the same size mix freely */
        "add.u32 %u1, %b1, %s1;", "add.s32 %s1, %u1, %b1;", "mul.lo.u16 %bh1, %sh1, %uh1;",
        "add.s64 %ud1, %bd1, %sd1;", "setp.lt.u32 %p1, %s1, %b1;", "selp.s64 %bd1, %ud1, %sd1, %p1;",
        "sub.u16 %sh1, %bh1, %uh1;", "and.b32 %b1, %u1, %s1;",
        /* a bit-size type takes float registers of its size */
        "and.b32 %b1, %f1, %u1;", "mov.b32 %f1, %u1;", "mov.b64 %fd1, %ud1;", "not.b16 %h1, %h1;",
        "xor.b64 %fd1, %fd1, %sd1;",
        /* a float type takes bit-size registers of its size */
        "add.f32 %f1, %b1, %f1;", "fma.rn.f64 %bd1, %fd1, %bd1, %fd1;", "add.f16 %bh1, %h1, %bh1;",
        "setp.lt.f32 %p1, %b1, %f1;",
        /* packed halves live in .b32 (or .f16x2) registers */
        "add.f16x2 %b1, %b1, %hh1;", "fma.rn.f16x2 %hh1, %b1, %hh1, %b1;", "mov.b32 %hh1, %u1;",
        "mov.b32 %b1, {%h1, %bh1};", "mov.b32 {%h1, %h1}, %hh1;", "add.u32 %u1, %hh1, %u1;",
        "ld.global.b32 %hh1, [%a];",
        /* .wide: a double-width destination (and mad's addend) */
        "mul.wide.s32 %sd1, %u1, %b1;", "mul.wide.u16 %b1, %uh1, %sh1;",
        "mad.wide.u32 %ud1, %u1, %u1, %bd1;",
        /* shift amounts, bit positions: any 32-bit integer */
        "shl.b64 %bd1, %ud1, %s1;", "shr.s16 %sh1, %sh1, %b1;", "bfe.u32 %u1, %u1, %s1, %b1;",
        "bfi.b64 %bd1, %ud1, %sd1, %u1, %s1;", "popc.b64 %s1, %bd1;", "clz.b32 %b1, %f1;",
        "bfind.u64 %b1, %ud1;",
        /* ld, st and cvt: a register wider than the type */
        "ld.global.u32 %ud1, [%a];", "ld.global.u8 %u1, [%a];", "ld.global.s8 %sh1, [%a];",
        "ld.global.u16 %sd1, [%a];", "st.global.u8 [%a], %u1;", "st.global.u32 [%a], %bd1;",
        "ld.global.f32 %bd1, [%a];", "ld.global.b8 %f1, [%a];", "st.global.b16 [%a], %fd1;",
        "ld.global.u8 %b8, [%a];", "cvt.u32.u64 %ud1, %bd1;", "cvt.u64.u32 %ud1, %sd1;",
        "cvt.s32.s8 %s1, %bh1;", "cvt.u8.u32 %u1, %ud1;", "cvt.rn.f32.s64 %bd1, %sd1;",
        "cvt.rzi.s32.f32 %bd1, %b1;", "cvt.f32.f16 %f1, %b1;", "cvt.rn.f16.f32 %bd1, %f1;",
        /* vector elements: the same, and a float vector takes integers too */
        "ld.global.v2.u8 {%uh1, %uh1}, [%a];", "ld.global.v2.u16 {%u1, %u1}, [%a];",
        "ld.global.v2.f32 {%u1, %u1}, [%a];", "st.global.v4.b32 [%a], {%f1, %f1, %f1, %f1};",
        "ld.global.v2.u32 {%bd1, %bd1}, [%a];",
        /* mov: vectors and pairs of a wider register */
        "mov.b64 {%u1, %b1}, %fd1;", "mov.b64 %ud1, {%b1, %s1};", "mov.b32 %u1, {%b8, %b8, %b8, %b8};",
        /* atomics, warp and barrier operands */
        "atom.global.add.u32 %s1, [%a], %b1;", "atom.global.exch.b32 %f1, [%a], %u1;",
        "atom.global.cas.b64 %fd1, [%a], %ud1, %sd1;", "atom.global.add.f32 %b1, [%a], %f1;",
        "shfl.sync.bfly.b32 %f1, %f1, %s1, %u1, %s1;", "vote.sync.ballot.b32 %f1, %p1, %s1;",
        "bar.sync %s1;", "prmt.b32 %f1, %u1, %s1, %b1;", "slct.f32.s32 %b1, %f1, %b1, %u1;",
        "dp4a.u32.s32 %s1, %b1, %u1, %u1;", "cvta.to.global.u64 %bd1, %sd1;",
    };
    static const char head[] =
        ".version 7.8\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
        ".reg .pred %p1;\n.reg .b8 %b8;\n.reg .b16 %bh1;\n.reg .u16 %uh1;\n.reg .s16 %sh1;\n"
        ".reg .f16 %h1;\n.reg .f16x2 %hh1;\n.reg .b32 %b1;\n.reg .u32 %u1;\n.reg .s32 %s1;\n"
        ".reg .f32 %f1;\n.reg .b64 %bd1;\n.reg .u64 %ud1;\n.reg .s64 %sd1;\n.reg .f64 %fd1;\n"
        ".reg .u64 %a;\nld.param.u64 %a, [p];\n";
    lockstep_device *dev;
    CHECK(lockstep_device_create(NULL, &dev) == LOCKSTEP_SUCCESS);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char text[2048];
        int n = snprintf(text, sizeof text, "%s%s\nret;\n}\n", head, lines[i]);
        lockstep_module *mod = NULL;
        lockstep_status st = lockstep_module_load_ptx(dev, text, (size_t)n, "mix.ptx", &mod);
        CHECK_MSG(st == LOCKSTEP_SUCCESS, "'%s' was refused: %s", lines[i],
                  lockstep_device_last_error(dev));
        if (st == LOCKSTEP_SUCCESS)
            lockstep_module_unload(mod);
    }
    lockstep_device_destroy(dev);
}

int main(void)
{
    RUN(test_bad_files);
    RUN(test_good_files);
    RUN(test_accepted_mixes);
    return test_summary();
}
