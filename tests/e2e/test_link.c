/*
 * test_link.c -- lockstep_module_load_ptx_linked: hand-written PTX texts
 * linked into one module, the way a program built with nvcc -rdc=true
 * holds one text per translation unit.
 *
 * Checks that a kernel in one text calls a .visible function of another
 * and reads a .const array and writes a .global variable another defines
 * (the host reads it by name); that each text's symbols without linkage
 * stay its own when the names collide (a variable, a function, a format
 * string, and a pointer initialised with the address of the text's own
 * variable), the later one renamed NAME@tuK; that the first .weak
 * definition wins; that kernels of both texts launch from the one module
 * and report their own text and line (lockstep_kernel_get_info, and a
 * fault's file and line in the other text, and its CUDA file and line:
 * .file numbers are per text); that .common variables take
 * the largest size and dynamic shared arrays stay per kernel.  And the
 * errors, each naming the text, line and column: an extern no text
 * defines (but CUDA's device runtime's: built-ins, its own text left out),
 * a device-runtime call of the wrong shape, two definitions of
 * one symbol (both places named), declarations that disagree with their
 * definition (space, size, parameters, function vs variable), syntax and
 * lowering errors in a later text, and bad arguments.
 */
#include <stdint.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"

#define HEADER ".version 8.0\n.target sm_75\n.address_size 64\n"

/* The kernel side: calls triple (b.ptx) and its own helper/twice. */
static const char a_ptx[] =
    "// a.ptx\n" HEADER
    ".file 1 \"a.cu\"\n"
    ".extern .func (.param .b32 r) triple(.param .b32 x);\n"
    ".extern .global .align 4 .u32 counter;\n"
    ".extern .const .align 4 .b8 coef[16];\n"
    ".global .align 4 .u32 own = 7;\n"
    ".global .align 8 .u64 own_ptr = generic(own);\n"
    ".global .align 1 .b8 $str[3] = {65, 10, 0};\n"
    ".func (.param .b32 r) helper(.param .b32 x)\n"
    "{\n"
    "    .reg .b32 %r<3>;\n"
    "    ld.param.b32 %r1, [x];\n"
    "    add.s32 %r2, %r1, 100;\n"
    "    st.param.b32 [r], %r2;\n"
    "    ret;\n"
    "}\n"
    ".weak .func (.param .b32 r) twice(.param .b32 x)\n"
    "{\n"
    "    .reg .b32 %r<3>;\n"
    "    ld.param.b32 %r1, [x];\n"
    "    shl.b32 %r2, %r1, 1;\n"
    "    st.param.b32 [r], %r2;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry ka(.param .u64 out)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<16>;\n"
    "    .reg .b64 %rd<12>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    cvta.to.global.u64 %rd2, %rd1;\n"
    "    .loc 1 7 1\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    {\n"
    "    .param .b32 a0;\n"
    "    .param .b32 r0;\n"
    "    st.param.b32 [a0], %r1;\n"
    "    call.uni (r0), triple, (a0);\n"
    "    ld.param.b32 %r2, [r0];\n"
    "    }\n"
    "    {\n"
    "    .param .b32 a0;\n"
    "    .param .b32 r0;\n"
    "    st.param.b32 [a0], %r1;\n"
    "    call.uni (r0), helper, (a0);\n"
    "    ld.param.b32 %r3, [r0];\n"
    "    }\n"
    "    {\n"
    "    .param .b32 a0;\n"
    "    .param .b32 r0;\n"
    "    st.param.b32 [a0], %r1;\n"
    "    call.uni (r0), twice, (a0);\n"
    "    ld.param.b32 %r4, [r0];\n"
    "    }\n"
    "    and.b32 %r5, %r1, 3;\n"
    "    mul.wide.u32 %rd3, %r5, 4;\n"
    "    mov.u64 %rd4, coef;\n"
    "    add.s64 %rd5, %rd4, %rd3;\n"
    "    ld.const.u32 %r6, [%rd5];\n"
    "    mul.lo.s32 %r7, %r2, %r6;\n"
    "    ld.global.u32 %r8, [own];\n"
    "    ld.global.u64 %rd6, [own_ptr];\n"
    "    ld.u32 %r9, [%rd6];\n"
    "    ld.global.u8 %r10, [$str];\n"
    "    add.s32 %r11, %r7, %r3;\n"
    "    add.s32 %r11, %r11, %r4;\n"
    "    add.s32 %r11, %r11, %r8;\n"
    "    add.s32 %r11, %r11, %r9;\n"
    "    add.s32 %r11, %r11, %r10;\n"
    "    mul.wide.u32 %rd7, %r1, 4;\n"
    "    add.s64 %rd8, %rd2, %rd7;\n"
    "    st.global.u32 [%rd8], %r11;\n"
    "    setp.ne.u32 %p1, %r1, 0;\n"
    "    @%p1 bra DONE;\n"
    "    mov.u32 %r12, 42;\n"
    "    st.global.u32 [counter], %r12;\n"
    "DONE:\n"
    "    ret;\n"
    "}\n";

/* The library side: defines counter, coef, triple; has its own own,
 * helper and $str, and a .weak twice that loses to a.ptx's. */
static const char b_ptx[] =
    "// b.ptx\n" HEADER
    ".file 2 \"lib.h\"\n"
    ".file 1 \"b.cu\"\n"
    ".visible .global .align 4 .u32 counter;\n"
    ".visible .const .align 4 .b8 coef[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4};\n"
    ".global .align 4 .u32 own = 9;\n"
    ".global .align 1 .b8 $str[3] = {66, 10, 0};\n"
    ".weak .func (.param .b32 r) twice(.param .b32 x);\n"
    ".func (.param .b32 r) helper(.param .b32 x)\n"
    "{\n"
    "    .reg .b32 %r<3>;\n"
    "    ld.param.b32 %r1, [x];\n"
    "    add.s32 %r2, %r1, 200;\n"
    "    st.param.b32 [r], %r2;\n"
    "    ret;\n"
    "}\n"
    ".visible .func (.param .b32 r) triple(.param .b32 x)\n"
    "{\n"
    "    .reg .b32 %r<4>;\n"
    "    ld.param.b32 %r1, [x];\n"
    "    ld.global.u32 %r2, [own];\n"
    "    mad.lo.s32 %r3, %r1, 3, %r2;\n"
    "    st.param.b32 [r], %r3;\n"
    "    ret;\n"
    "}\n"
    ".weak .func (.param .b32 r) twice(.param .b32 x)\n"
    "{\n"
    "    .reg .b32 %r<3>;\n"
    "    ld.param.b32 %r1, [x];\n"
    "    mad.lo.s32 %r2, %r1, 2, 1000;\n"
    "    st.param.b32 [r], %r2;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry kb(.param .u64 out)\n"
    "{\n"
    "    .reg .b32 %r<12>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    cvta.to.global.u64 %rd2, %rd1;\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    {\n"
    "    .param .b32 a0;\n"
    "    .param .b32 r0;\n"
    "    st.param.b32 [a0], %r1;\n"
    "    call.uni (r0), helper, (a0);\n"
    "    ld.param.b32 %r2, [r0];\n"
    "    }\n"
    "    {\n"
    "    .param .b32 a0;\n"
    "    .param .b32 r0;\n"
    "    st.param.b32 [a0], %r1;\n"
    "    call.uni (r0), twice, (a0);\n"
    "    ld.param.b32 %r3, [r0];\n"
    "    }\n"
    "    ld.global.u32 %r4, [own];\n"
    "    ld.global.u8 %r5, [$str];\n"
    "    mul.wide.u32 %rd3, %r1, 4;\n"
    "    add.s64 %rd4, %rd2, %rd3;\n"
    "    ld.global.u32 %r6, [%rd4];\n"
    "    add.s32 %r6, %r6, %r2;\n"
    "    add.s32 %r6, %r6, %r3;\n"
    "    add.s32 %r6, %r6, %r4;\n"
    "    add.s32 %r6, %r6, %r5;\n"
    "    st.global.u32 [%rd4], %r6;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry kfault(.param .u64 p)\n"
    "{\n"
    "    .reg .b32 %r<2>;\n"
    "    mov.u32 %r1, 5;\n"
    "    .loc 1 42 3\n"
    "    st.global.u32 [8], %r1; // FAULT\n"
    "    ret;\n"
    "}\n";

/* 1-based line of the first line of text holding needle; 0 if none. */
static unsigned line_of(const char *text, const char *needle)
{
    const char *at = strstr(text, needle);
    if (!at)
        return 0;
    unsigned line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* Link n texts named a.ptx, b.ptx, ...; NULL on failure (msg gets the error). */
static lockstep_module *link_texts(lockstep_device *dev, size_t n, const char *const *texts,
                                   lockstep_status *st, char *msg, size_t msglen)
{
    static const char *const names[] = {"a.ptx", "b.ptx", "c.ptx", "d.ptx"};
    lockstep_module *mod = NULL;
    *st = lockstep_module_load_ptx_linked(dev, n, texts, NULL, names, &mod);
    snprintf(msg, msglen, "%s", lockstep_device_last_error(dev));
    return *st == LOCKSTEP_SUCCESS ? mod : NULL;
}

static void test_link_and_run(void)
{
    lockstep_device *dev = NULL;
    CHECK(lockstep_device_create(NULL, &dev) == LOCKSTEP_SUCCESS);
    if (!dev)
        return;
    const char *texts[] = {a_ptx, b_ptx};
    lockstep_status st;
    char msg[4096];
    lockstep_module *mod = link_texts(dev, 2, texts, &st, msg, sizeof msg);
    CHECK_MSG(mod != NULL, "link failed: %s", msg);
    if (!mod) {
        lockstep_device_destroy(dev);
        return;
    }
    CHECK_EQ_INT(lockstep_module_kernel_count(mod), 3);
    lockstep_kernel *ka = NULL, *kb = NULL, *kf = NULL;
    CHECK(lockstep_module_get_kernel(mod, "ka", &ka) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "kb", &kb) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "kfault", &kf) == LOCKSTEP_SUCCESS);
    lockstep_kernel_info ki;
    if (ka && lockstep_kernel_get_info(ka, &ki) == LOCKSTEP_SUCCESS) {
        CHECK(ki.ptx_file && !strcmp(ki.ptx_file, "a.ptx"));
        CHECK_EQ_INT(ki.ptx_line, line_of(a_ptx, ".visible .entry ka"));
    }
    if (kb && lockstep_kernel_get_info(kb, &ki) == LOCKSTEP_SUCCESS) {
        CHECK(ki.ptx_file && !strcmp(ki.ptx_file, "b.ptx"));
        CHECK_EQ_INT(ki.ptx_line, line_of(b_ptx, ".visible .entry kb"));
    }
    /* the texts' own variables: the first keeps its name, the later is renamed */
    lockstep_dptr a_own = 0, b_own = 0, counter = 0, coef = 0;
    size_t bytes = 0;
    uint32_t v = 0;
    CHECK(lockstep_module_get_symbol(mod, "own", &a_own, &bytes) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_symbol(mod, "own@tu1", &b_own, &bytes) == LOCKSTEP_SUCCESS);
    CHECK(a_own && b_own && a_own != b_own);
    if (a_own && lockstep_memcpy_dtoh(dev, &v, a_own, 4) == LOCKSTEP_SUCCESS)
        CHECK_EQ_INT(v, 7);
    if (b_own && lockstep_memcpy_dtoh(dev, &v, b_own, 4) == LOCKSTEP_SUCCESS)
        CHECK_EQ_INT(v, 9);
    CHECK(lockstep_module_get_symbol(mod, "counter", &counter, &bytes) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_symbol(mod, "coef", &coef, &bytes) == LOCKSTEP_SUCCESS);
    CHECK_EQ_INT(bytes, 16);

    enum { N = 64 };
    lockstep_dptr out = 0;
    CHECK(lockstep_malloc(dev, N * 4, &out) == LOCKSTEP_SUCCESS);
    lockstep_dim3 grid = {1, 1, 1}, block = {N, 1, 1};
    void *args[] = {&out};
    if (ka && kb && out) {
        CHECK(lockstep_launch_args(dev, ka, grid, block, 0, args, NULL) == LOCKSTEP_SUCCESS);
        CHECK(lockstep_launch_args(dev, kb, grid, block, 0, args, NULL) == LOCKSTEP_SUCCESS);
        uint32_t got[N];
        CHECK(lockstep_memcpy_dtoh(dev, got, out, sizeof got) == LOCKSTEP_SUCCESS);
        int bad = 0;
        for (uint32_t i = 0; i < N; i++) {
            /* ka: triple(i) * coef[i & 3] + helper_a(i) + twice_a(i) + own_a
             *     + *own_ptr (own_a) + $str_a[0]; kb adds helper_b(i) +
             *     twice_a(i) + own_b + $str_b[0] */
            uint32_t want = (3 * i + 9) * ((i & 3) + 1) + (i + 100) + 2 * i + 7 + 7 + 65;
            want += (i + 200) + 2 * i + 9 + 66;
            if (got[i] != want && bad++ < 4)
                CHECK_MSG(0, "out[%u] = %u, expected %u", i, got[i], want);
        }
        CHECK_EQ_INT(bad, 0);
        if (counter && lockstep_memcpy_dtoh(dev, &v, counter, 4) == LOCKSTEP_SUCCESS)
            CHECK_EQ_INT(v, 42);
    }
    /* a fault in b.ptx's kernel names b.ptx and its own line */
    if (kf) {
        lockstep_dim3 one = {1, 1, 1};
        CHECK(lockstep_launch_args(dev, kf, one, one, 0, args, NULL) != LOCKSTEP_SUCCESS);
        lockstep_fault_info fi;
        lockstep_device_last_fault(dev, &fi);
        CHECK(fi.ptx_file && !strcmp(fi.ptx_file, "b.ptx"));
        CHECK_EQ_INT(fi.ptx_line, line_of(b_ptx, "// FAULT"));
        char where[64];
        snprintf(where, sizeof where, "b.ptx:%u", line_of(b_ptx, "// FAULT"));
        CHECK_STR_CONTAINS(fi.message, where);
        /* .file numbers are the text's own: b.ptx's 1 is b.cu, not a.ptx's a.cu */
        CHECK(fi.src_file && !strcmp(fi.src_file, "b.cu"));
        CHECK_EQ_INT(fi.src_line, 42);
        lockstep_synchronize(dev);
    }
    lockstep_free(dev, out);
    lockstep_module_unload(mod);
    lockstep_device_destroy(dev);
}

/* One text alone links like lockstep_module_load_ptx; .common takes the
 * largest; dynamic shared arrays of one name in two texts are fine; two
 * kernels without linkage of one name are both kept. */
static void test_link_small_cases(void)
{
    lockstep_device *dev = NULL;
    CHECK(lockstep_device_create(NULL, &dev) == LOCKSTEP_SUCCESS);
    if (!dev)
        return;
    lockstep_status st;
    char msg[4096];
    static const char alone[] = HEADER ".visible .entry k()\n{\n    ret;\n}\n";
    const char *t1[] = {alone};
    lockstep_module *mod = link_texts(dev, 1, t1, &st, msg, sizeof msg);
    CHECK_MSG(mod != NULL, "%s", msg);
    lockstep_module_unload(mod);

    static const char c1[] = HEADER ".common .global .align 4 .b8 pool[8];\n"
                                    ".extern .shared .align 4 .b8 dyn[];\n"
                                    ".visible .entry k1()\n{\n    .reg .b32 %r<2>;\n"
                                    "    ld.shared.u32 %r1, [dyn];\n    ret;\n}\n";
    static const char c2[] = HEADER ".common .global .align 4 .b8 pool[32];\n"
                                    ".extern .shared .align 4 .b8 dyn[];\n"
                                    ".visible .entry k2()\n{\n    .reg .b32 %r<2>;\n"
                                    "    ld.shared.u32 %r1, [dyn];\n    ret;\n}\n";
    const char *t2[] = {c1, c2};
    mod = link_texts(dev, 2, t2, &st, msg, sizeof msg);
    CHECK_MSG(mod != NULL, "%s", msg);
    if (mod) {
        lockstep_dptr a;
        size_t bytes = 0;
        CHECK(lockstep_module_get_symbol(mod, "pool", &a, &bytes) == LOCKSTEP_SUCCESS);
        CHECK_EQ_INT(bytes, 32);
        lockstep_kernel *k;
        lockstep_kernel_info ki;
        CHECK(lockstep_module_get_kernel(mod, "k2", &k) == LOCKSTEP_SUCCESS &&
              lockstep_kernel_get_info(k, &ki) == LOCKSTEP_SUCCESS && ki.uses_dynamic_shared);
    }
    lockstep_module_unload(mod);

    /* kernels without linkage, one name in two texts: both kept, the later renamed */
    static const char e1[] = HEADER ".entry k()\n{\n    ret;\n}\n";
    const char *t3[] = {e1, e1};
    mod = link_texts(dev, 2, t3, &st, msg, sizeof msg);
    CHECK_MSG(mod != NULL, "%s", msg);
    if (mod) {
        lockstep_kernel *k;
        lockstep_kernel_info ki;
        CHECK_EQ_INT(lockstep_module_kernel_count(mod), 2);
        CHECK(lockstep_module_get_kernel(mod, "k@tu1", &k) == LOCKSTEP_SUCCESS &&
              lockstep_kernel_get_info(k, &ki) == LOCKSTEP_SUCCESS && !strcmp(ki.ptx_file, "b.ptx"));
        CHECK(lockstep_module_get_kernel(mod, "k", &k) == LOCKSTEP_SUCCESS &&
              lockstep_kernel_get_info(k, &ki) == LOCKSTEP_SUCCESS && !strcmp(ki.ptx_file, "a.ptx"));
    }
    lockstep_module_unload(mod);
    lockstep_device_destroy(dev);
}

/* A link that must fail with `want` in its message. */
static void expect_fail(lockstep_device *dev, size_t n, const char *const *texts, const char *want,
                        const char *want2)
{
    lockstep_status st;
    char msg[4096];
    lockstep_module *mod = link_texts(dev, n, texts, &st, msg, sizeof msg);
    CHECK(mod == NULL);
    CHECK_MSG(st == LOCKSTEP_ERROR_INVALID_PTX || st == LOCKSTEP_ERROR_UNSUPPORTED_PTX,
              "status %s", lockstep_status_name(st));
    CHECK_STR_CONTAINS(msg, want);
    if (want2)
        CHECK_STR_CONTAINS(msg, want2);
    lockstep_module_unload(mod);
}

static void test_link_errors(void)
{
    lockstep_device *dev = NULL;
    CHECK(lockstep_device_create(NULL, &dev) == LOCKSTEP_SUCCESS);
    if (!dev)
        return;
    char want[256], want2[256];

    /* a.ptx alone: triple, counter and coef are defined nowhere */
    const char *only_a[] = {a_ptx};
    snprintf(want, sizeof want, "a.ptx:%u:31: error: undefined reference to 'triple'",
             line_of(a_ptx, ") triple("));
    snprintf(want2, sizeof want2, "a.ptx:%u:", line_of(a_ptx, ".u32 counter"));
    expect_fail(dev, 1, only_a, want, want2);

    /* two .visible definitions of triple: both places named */
    static const char dup[] = "\n\n" HEADER
                              ".visible .func (.param .b32 r) triple(.param .b32 x)\n"
                              "{\n    ret;\n}\n";
    const char *with_dup[] = {a_ptx, b_ptx, dup};
    snprintf(want, sizeof want, "c.ptx:6:32: error: 'triple' is defined twice in the linked "
             "program: here and at b.ptx:%u:32", line_of(b_ptx, ") triple("));
    expect_fail(dev, 3, with_dup, want, NULL);

    /* two .visible variables too */
    static const char dupvar[] = HEADER ".visible .global .align 4 .u32 counter = 1;\n";
    const char *with_dupvar[] = {a_ptx, b_ptx, dupvar};
    snprintf(want2, sizeof want2, "b.ptx:%u:32", line_of(b_ptx, ".u32 counter;"));
    expect_fail(dev, 3, with_dupvar, "c.ptx:4:32: error: 'counter' is defined twice", want2);

    /* one text defining a name twice, once for itself and once for all */
    static const char twice[] = HEADER ".global .align 4 .u32 x;\n.visible .global .align 4 .u32 x;\n";
    const char *t_twice[] = {twice};
    expect_fail(dev, 1, t_twice, "a.ptx:4:", "'x' is defined twice: here and at a.ptx:5:");

    /* declarations that disagree with their definitions */
    static const char def[] = HEADER ".visible .global .align 4 .u32 gv;\n"
                              ".visible .global .align 4 .b8 arr[8];\n"
                              ".visible .func (.param .b32 r) f(.param .b32 x)\n{\n    ret;\n}\n"
                              ".visible .func g(.param .b64 x)\n{\n    ret;\n}\n";
    static const char space[] = HEADER ".extern .const .align 4 .u32 gv;\n";
    static const char size[] = HEADER ".extern .global .align 4 .b8 arr[16];\n";
    static const char nparams[] = HEADER ".extern .func (.param .b32 r) f();\n";
    static const char psize[] = HEADER ".extern .func g(.param .b32 x);\n";
    static const char kind[] = HEADER ".extern .global .align 4 .u32 f;\n";
    const char *t_space[] = {def, space};
    expect_fail(dev, 2, t_space, "b.ptx:4:", "'gv' is declared here in .const but defined at a.ptx:4:");
    const char *t_size[] = {def, size};
    expect_fail(dev, 2, t_size, "b.ptx:4:", "declared here with 16 bytes but defined at a.ptx:5:");
    const char *t_np[] = {def, nparams};
    expect_fail(dev, 2, t_np, "b.ptx:4:", "declared here with 0 parameters and 1 result but "
                                         "defined at a.ptx:6:");
    const char *t_ps[] = {def, psize};
    expect_fail(dev, 2, t_ps, "b.ptx:4:", "parameter 0 of 'g' is 4 bytes here but 8 bytes");
    const char *t_kind[] = {def, kind};
    expect_fail(dev, 2, t_kind, "b.ptx:4:", "declared here as a variable but defined at a.ptx:6:");

    /* CUDA's device runtime (dynamic parallelism): its functions that no
     * text defines stay declarations, lockstep's built-ins (or, for one
     * lockstep does not provide, a call that stops the kernel:
     * test_cdp.c), and libcudadevrt's own text, which defines them, is
     * left out unparsed (here it would not even parse) */
    static const char cdp[] = HEADER
        ".extern .func (.param .b64 r) cudaGetParameterBufferV2(.param .b64 a);\n"
        ".extern .func (.param .b32 r) __cuda_syscall_cnpv2LaunchDeviceV2(.param .b64 a);\n"
        ".extern .func (.param .b32 r) cnpGetLimit(.param .b64 a);\n"
        ".visible .entry kc()\n{\n    ret;\n}\n";
    static const char devrt[] = HEADER
        ".visible .global .align 4 .u32 __CNPRT_VERSION_NUMBER__ = 6000;\n"
        ".visible .func (.param .b32 r) cudaLaunchDeviceV2(.param .b64 a, .param .b64 b)\n"
        "{\n    frob.u32 1;\n}\n";
    const char *t_cdp[] = {cdp, devrt};
    lockstep_status cst;
    char cmsg[4096];
    lockstep_module *cmod = link_texts(dev, 2, t_cdp, &cst, cmsg, sizeof cmsg);
    CHECK_MSG(cmod != NULL, "the device runtime's declarations should link: %s", cmsg);
    lockstep_kernel *kc = NULL;
    if (cmod)
        CHECK(lockstep_module_get_kernel(cmod, "kc", &kc) == LOCKSTEP_SUCCESS);
    lockstep_module_unload(cmod);
    /* the marker counts only as a .visible definition: a text that merely
     * mentions it is linked (and its error reported) */
    static const char not_devrt[] = HEADER
        "// __CNPRT_VERSION_NUMBER__\n"
        ".visible .entry kd()\n{\n    frob.u32 1;\n}\n";
    const char *t_nd[] = {cdp, not_devrt};
    expect_fail(dev, 2, t_nd, "b.ptx:7:5: error: unknown instruction 'frob'", NULL);
    /* a device-runtime function called with another shape than CUDA's */
    static const char cdp_shape[] = HEADER
        ".extern .func (.param .b32 r) cudaLaunchDeviceV2(.param .b64 a);\n"
        ".visible .entry ke()\n{\n"
        "    .param .b64 p0;\n    .param .b32 r0;\n"
        "    st.param.b64 [p0], 0;\n"
        "    call.uni (r0), cudaLaunchDeviceV2, (p0);\n    ret;\n}\n";
    const char *t_shape[] = {cdp_shape};
    expect_fail(dev, 1, t_shape,
                "'cudaLaunchDeviceV2' is CUDA's device-runtime function cudaLaunchDeviceV2: it "
                "takes 2 parameters (8, 8 bytes) and returns 4 bytes, but is called here with 1 "
                "argument",
                NULL);

    /* syntax and lowering errors in a later text name it and its own line */
    static const char syntax[] = HEADER "\n.visible .entry k()\n{\n    add.s32 %r1, ;\n}\n";
    const char *t_syn[] = {def, syntax};
    expect_fail(dev, 2, t_syn, "b.ptx:7:", NULL);
    static const char lowering[] = HEADER ".visible .entry k()\n{\n    frob.u32 1;\n}\n";
    const char *t_low[] = {def, lowering};
    expect_fail(dev, 2, t_low, "b.ptx:6:5: error: unknown instruction 'frob'", NULL);
    const char *t_nover[] = {def, "\n\n.visible .entry k()\n{\n    ret;\n}\n"};
    expect_fail(dev, 2, t_nover, "b.ptx:1:1: error: missing .version directive", NULL);
    /* every text's errors are reported, each under its own name */
    const char *t_both[] = {syntax, "\n\n.visible .entry k()\n{\n    ret;\n}\n"};
    expect_fail(dev, 2, t_both, "a.ptx:7:", "b.ptx:1:1: error: missing .version directive");

    /* bad arguments */
    lockstep_module *mod = (lockstep_module *)1;
    CHECK(lockstep_module_load_ptx_linked(dev, 0, t_space, NULL, NULL, &mod) ==
          LOCKSTEP_ERROR_INVALID_VALUE);
    CHECK(lockstep_module_load_ptx_linked(dev, 1, NULL, NULL, NULL, &mod) ==
          LOCKSTEP_ERROR_INVALID_VALUE);
    const char *t_null[] = {NULL};
    size_t lens[] = {5};
    CHECK(lockstep_module_load_ptx_linked(dev, 1, t_null, lens, NULL, &mod) ==
          LOCKSTEP_ERROR_INVALID_VALUE);
    CHECK(lockstep_module_load_ptx_linked(NULL, 1, t_space, NULL, NULL, &mod) ==
          LOCKSTEP_ERROR_INVALID_VALUE);
    /* unnamed texts get <ptxI> names */
    CHECK(lockstep_module_load_ptx_linked(dev, 2, t_space, NULL, NULL, &mod) ==
          LOCKSTEP_ERROR_INVALID_PTX);
    CHECK_STR_CONTAINS(lockstep_device_last_error(dev), "<ptx1>:4:");
    /* every prefix of a real pair of texts fails cleanly or links */
    for (size_t cut = 0; cut < sizeof b_ptx; cut += 37) {
        const char *texts[] = {a_ptx, b_ptx};
        size_t l2[] = {sizeof a_ptx - 1, cut};
        lockstep_module *m = NULL;
        lockstep_status s = lockstep_module_load_ptx_linked(dev, 2, texts, l2, NULL, &m);
        CHECK(s == LOCKSTEP_SUCCESS || m == NULL);
        lockstep_module_unload(m);
    }
    lockstep_device_destroy(dev);
}

int main(void)
{
    RUN(test_link_and_run);
    RUN(test_link_small_cases);
    RUN(test_link_errors);
    return test_summary();
}
