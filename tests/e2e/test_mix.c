/*
 * test_mix.c -- the instruction-mix counters of lockstep_launch_stats.
 *
 * A hand-written kernel holds one or a few instructions of each class, so
 * the expected count of every class is known exactly: per warp, each
 * instruction below counts once (divergence re-executes nothing here).
 * Generic loads and stores must be classed by the space their address
 * falls in at run time; a kernel's ret is its exit (class "other"), a
 * function's ret and the call belong to "call".  The classes must sum to
 * warp_insts, and two runs give the same counts.
 */
#include "e2e.h"

static const char *const mix_ptx =
    ".version 7.8\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".func (.param .b32 r) twice(.param .b32 a)\n"
    "{\n"
    "    .reg .b32 %x;\n"
    "    ld.param.b32 %x, [a];\n"            /* ld_param */
    "    add.s32 %x, %x, %x;\n"              /* int */
    "    st.param.b32 [r], %x;\n"            /* st_param */
    "    ret;\n"                             /* call */
    "}\n"
    ".visible .entry k(.param .u64 p, .param .u64 q)\n"
    "{\n"
    "    .reg .b64 %rd<8>;\n"
    "    .reg .f32 %f<4>;\n"
    "    .reg .f64 %fd<2>;\n"
    "    .reg .f16 %h<2>;\n"
    "    .reg .b32 %r<7>;\n"
    "    .reg .pred %p;\n"
    "    .shared .align 4 .b32 s[64];\n"
    "    .local .align 4 .b32 loc[4];\n"
    "    ld.param.u64 %rd1, [p];\n"          /* ld_param */
    "    ld.param.u64 %rd2, [q];\n"          /* ld_param */
    "    cvta.to.global.u64 %rd1, %rd1;\n"   /* int */
    "    mov.u32 %r1, %tid.x;\n"             /* int */
    "    mul.wide.u32 %rd3, %r1, 4;\n"       /* int */
    "    add.s64 %rd4, %rd1, %rd3;\n"        /* int */
    "    ld.global.f32 %f1, [%rd4];\n"       /* ld_global */
    "    add.f32 %f2, %f1, %f1;\n"           /* fp32 */
    "    setp.gt.f32 %p, %f2, 0f00000000;\n" /* fp32 */
    "    sqrt.approx.f32 %f3, %f2;\n"        /* sfu */
    "    cvt.f64.f32 %fd1, %f3;\n"           /* fp64 */
    "    cvt.rn.f16.f32 %h1, %f3;\n"         /* fp32 (the wider float side) */
    "    add.f16 %h1, %h1, %h1;\n"           /* fp16 */
    "    mov.u64 %rd5, s;\n"                 /* int */
    "    add.s64 %rd5, %rd5, %rd3;\n"        /* int */
    "    st.shared.f32 [%rd5], %f3;\n"       /* st_shared */
    "    bar.sync 0;\n"                      /* barrier */
    "    ld.shared.f32 %f1, [%rd5];\n"       /* ld_shared */
    "    cvta.shared.u64 %rd6, %rd5;\n"      /* int */
    "    ld.f32 %f1, [%rd6];\n"              /* generic -> ld_shared */
    "    st.f32 [%rd4], %f1;\n"              /* generic -> st_global */
    "    mov.u64 %rd7, loc;\n"               /* int */
    "    cvta.local.u64 %rd7, %rd7;\n"       /* int */
    "    st.u32 [%rd7], %r1;\n"              /* generic -> st_local */
    "    ld.local.u32 %r2, [loc];\n"         /* ld_local */
    "    atom.global.add.u32 %r3, [%rd2], 1;\n" /* atom_global */
    "    atom.shared.add.u32 %r3, [s], 1;\n" /* atom_shared */
    "    shfl.sync.bfly.b32 %r4, %r2, 1, 31, -1;\n" /* warp */
    "    membar.gl;\n"                       /* fence */
    "    {\n"
    "    .param .b32 a0;\n"
    "    .param .b32 r0;\n"
    "    st.param.b32 [a0], %r4;\n"          /* st_param */
    "    call (r0), twice, (a0);\n"          /* call */
    "    ld.param.b32 %r5, [r0];\n"          /* ld_param */
    "    }\n"
    "    and.b32 %r6, %r1, 31;\n"            /* int */
    "    setp.ne.u32 %p, %r6, 0;\n"          /* int: lane 0 of each warp falls through */
    "    @%p bra DONE;\n"                    /* branch */
    "    st.global.u32 [%rd1], %r5;\n"       /* st_global */
    "DONE:\n"
    "    ret;\n"                             /* other */
    "}\n";

/* Warp instructions of each class one warp executes. */
static const uint64_t per_warp[LOCKSTEP_MIX_COUNT] = {
    [LOCKSTEP_MIX_INT] = 12,      [LOCKSTEP_MIX_FP32] = 3,      [LOCKSTEP_MIX_FP64] = 1,
    [LOCKSTEP_MIX_FP16] = 1,      [LOCKSTEP_MIX_SFU] = 1,       [LOCKSTEP_MIX_LD_GLOBAL] = 1,
    [LOCKSTEP_MIX_ST_GLOBAL] = 2, [LOCKSTEP_MIX_LD_SHARED] = 2, [LOCKSTEP_MIX_ST_SHARED] = 1,
    [LOCKSTEP_MIX_LD_LOCAL] = 1,  [LOCKSTEP_MIX_ST_LOCAL] = 1,  [LOCKSTEP_MIX_LD_CONST] = 0,
    [LOCKSTEP_MIX_LD_PARAM] = 4,  [LOCKSTEP_MIX_ST_PARAM] = 2,  [LOCKSTEP_MIX_ATOM_GLOBAL] = 1,
    [LOCKSTEP_MIX_ATOM_SHARED] = 1, [LOCKSTEP_MIX_BRANCH] = 1,  [LOCKSTEP_MIX_CALL] = 2,
    [LOCKSTEP_MIX_BARRIER] = 1,   [LOCKSTEP_MIX_WARP] = 1,      [LOCKSTEP_MIX_FENCE] = 1,
    [LOCKSTEP_MIX_OTHER] = 1,
};

static void test_mix_counts(void)
{
    lockstep_device *dev = NULL;
    lockstep_module *mod = NULL;
    lockstep_kernel *k = NULL;
    if (!E2E_OK(NULL, lockstep_device_create(NULL, &dev)))
        return;
    if (!E2E_OK(dev, lockstep_module_load_ptx(dev, mix_ptx, strlen(mix_ptx), "mix.ptx", &mod)) ||
        !E2E_OK(dev, lockstep_module_get_kernel(mod, "k", &k))) {
        lockstep_device_destroy(dev);
        return;
    }
    enum { THREADS = 64, WARPS = THREADS / 32 };
    float in[THREADS];
    for (int i = 0; i < THREADS; i++)
        in[i] = (float)(i + 1);
    lockstep_dptr dp, dq;
    uint32_t zero = 0;
    E2E_OK(dev, lockstep_malloc(dev, sizeof in, &dp));
    E2E_OK(dev, lockstep_malloc(dev, 4, &dq));
    lockstep_launch_stats st[2];
    for (int run = 0; run < 2; run++) {
        E2E_OK(dev, lockstep_memcpy_htod(dev, dp, in, sizeof in));
        E2E_OK(dev, lockstep_memcpy_htod(dev, dq, &zero, 4));
        void *args[] = {&dp, &dq};
        E2E_OK(dev, lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1},
                                         (lockstep_dim3){THREADS, 1, 1}, 0, args, &st[run]));
    }
    uint32_t count = 0;
    E2E_OK(dev, lockstep_memcpy_dtoh(dev, &count, dq, 4));
    CHECK_MSG(count == THREADS, "atomic counter %u, expected %d", count, THREADS);

    uint64_t sum = 0, expect_total = 0;
    for (int m = 0; m < LOCKSTEP_MIX_COUNT; m++) {
        sum += st[0].mix[m];
        expect_total += per_warp[m] * WARPS;
        CHECK_MSG(st[0].mix[m] == per_warp[m] * WARPS, "class %s: %" PRIu64 " warp instructions, expected %" PRIu64,
                  lockstep_mix_name((lockstep_mix)m), st[0].mix[m], per_warp[m] * WARPS);
        CHECK_MSG(st[0].mix[m] == st[1].mix[m], "class %s differs between runs: %" PRIu64 " / %" PRIu64,
                  lockstep_mix_name((lockstep_mix)m), st[0].mix[m], st[1].mix[m]);
    }
    CHECK_MSG(sum == st[0].warp_insts, "classes sum to %" PRIu64 ", warp_insts %" PRIu64, sum,
              st[0].warp_insts);
    CHECK_MSG(st[0].warp_insts == expect_total, "warp_insts %" PRIu64 ", expected %" PRIu64,
              st[0].warp_insts, expect_total);
    lockstep_device_destroy(dev);
}

static void test_mix_names(void)
{
    CHECK(strcmp(lockstep_mix_name(LOCKSTEP_MIX_INT), "int") == 0);
    CHECK(strcmp(lockstep_mix_name(LOCKSTEP_MIX_LD_GLOBAL), "ld_global") == 0);
    CHECK(strcmp(lockstep_mix_name(LOCKSTEP_MIX_OTHER), "other") == 0);
    CHECK(lockstep_mix_name(LOCKSTEP_MIX_COUNT) == NULL);
    for (int m = 0; m < LOCKSTEP_MIX_COUNT; m++)
        CHECK(lockstep_mix_name((lockstep_mix)m) && *lockstep_mix_name((lockstep_mix)m));
}

int main(void)
{
    RUN(test_mix_counts);
    RUN(test_mix_names);
    return test_summary();
}
