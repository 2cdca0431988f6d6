/*
 * test_replay.c -- replayed loads (-lockstep_ldst_replay, src/timing/sm.c,
 * docs/MEMORY-MODEL.md): a load needing more than one pass of the LD/ST
 * unit replays its later passes, and the warp's later loads may pass
 * them.  Only loads may: a thread's own later store, and a barrier, wait.
 *
 * Two PTX kernels whose loads are replayed (a 32-way shared-memory bank
 * conflict; global loads of 32 lines), each followed by a conflict-free
 * load, a store by the same thread to the replayed address, a load of it
 * back, a barrier, and a load of another thread's store.  In functional
 * mode and in timing mode with replay off, short and long, the outputs
 * equal the CPU's; the replays are counted when on and never when off.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define GRID 2
#define BLOCK 128
#define NT (GRID * BLOCK)
#define NOUT 4
#define NIN (NT * 32)

static const char ptx_head[] = ".version 8.0\n.target sm_75\n.address_size 64\n";

/* s[w] = 3w + 1 (1,024 words); barrier.  idx = (32 tid + tid / 32) % 1024:
 * the 32 lanes of a warp read 32 words of one bank.  a = s[idx];
 * b = s[4 + 32 (tid / 32)] (a broadcast no thread writes); s[idx] = 5000 +
 * idx (not from a: nothing but the replay rule keeps it behind a's read);
 * c = s[idx]; barrier; d = s[idx + 1] (32 words of one bank again: another
 * warp's word, or one nobody writes); barrier; s[idx] = 0 (which the
 * previous warp's d must not see); out[g] = {a, b, c, d}. */
static const char k_shared[] =
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    "  .shared .align 4 .b8 s[4096];\n"
    "  .reg .b32 %r<32>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mad.lo.u32 %r3, %r2, 128, %r1;\n"
    "  mov.u32 %r4, s;\n  mov.u32 %r5, %r1;\n"
    "INIT:\n"
    "  mad.lo.u32 %r6, %r5, 3, 1;\n  shl.b32 %r7, %r5, 2;\n  add.u32 %r7, %r4, %r7;\n"
    "  st.shared.u32 [%r7], %r6;\n  add.u32 %r5, %r5, 128;\n"
    "  setp.lt.u32 %p1, %r5, 1024;\n  @%p1 bra INIT;\n"
    "  bar.sync 0;\n"
    "  shr.u32 %r8, %r1, 5;\n  shl.b32 %r9, %r1, 5;\n  add.u32 %r9, %r9, %r8;\n"
    "  and.b32 %r9, %r9, 1023;\n"                        /* idx */
    "  shl.b32 %r10, %r9, 2;\n  add.u32 %r10, %r4, %r10;\n" /* &s[idx] */
    "  shl.b32 %r11, %r8, 7;\n  add.u32 %r11, %r11, 16;\n  add.u32 %r11, %r4, %r11;\n"
    "  ld.shared.u32 %r12, [%r10];\n"                    /* a: 32 passes */
    "  ld.shared.u32 %r13, [%r11];\n"                    /* b: one pass */
    "  add.u32 %r14, %r9, 5000;\n  st.shared.u32 [%r10], %r14;\n"
    "  ld.shared.u32 %r15, [%r10];\n"                    /* c */
    "  bar.sync 0;\n"
    "  add.u32 %r16, %r9, 1;\n  and.b32 %r16, %r16, 1023;\n  shl.b32 %r16, %r16, 2;\n"
    "  add.u32 %r16, %r4, %r16;\n  ld.shared.u32 %r17, [%r16];\n" /* d */
    "  bar.sync 0;\n  st.shared.u32 [%r10], 0;\n"
    "  mul.wide.u32 %rd2, %r3, 16;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r12, %r13, %r15, %r17};\n"
    "  ret;\n}\n";

/* in[i] = 7i + 3.  a = in[32 g] (each lane its own line); e = in[32 g + 1];
 * in[32 g] = 9000 + g (not from a); c = in[32 g]; barrier; d = in[32 h]
 * with h the next thread of the CTA (round the CTA); barrier; in[32 g] = 0
 * (which thread g - 1's d must not see); out[g] = {a, e, c, d}. */
static const char k_global[] =
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    "  .reg .b32 %r<32>;\n  .reg .b64 %rd<16>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd2, [in];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mad.lo.u32 %r3, %r2, 128, %r1;\n"
    "  mul.wide.u32 %rd3, %r3, 128;\n  add.u64 %rd4, %rd2, %rd3;\n"
    "  ld.global.u32 %r4, [%rd4];\n"                     /* a: 32 lines */
    "  ld.global.u32 %r5, [%rd4+4];\n"                   /* e: 32 lines */
    "  add.u32 %r6, %r3, 9000;\n  st.global.u32 [%rd4], %r6;\n"
    "  ld.global.u32 %r7, [%rd4];\n"                     /* c */
    "  bar.sync 0;\n"
    "  add.u32 %r8, %r1, 1;\n  and.b32 %r8, %r8, 127;\n  mad.lo.u32 %r8, %r2, 128, %r8;\n"
    "  mul.wide.u32 %rd5, %r8, 128;\n  add.u64 %rd6, %rd2, %rd5;\n"
    "  ld.global.cg.u32 %r9, [%rd6];\n"                  /* d */
    "  bar.sync 0;\n  st.global.u32 [%rd4], 0;\n"
    "  mul.wide.u32 %rd7, %r3, 16;\n  add.u64 %rd8, %rd1, %rd7;\n"
    "  st.global.v4.u32 [%rd8], {%r4, %r5, %r7, %r9};\n"
    "  ret;\n}\n";

static void ref_shared(uint32_t *want)
{
    for (uint32_t g = 0; g < NT; g++) {
        uint32_t t = g % BLOCK, w = t / 32;
        uint32_t idx = (32 * t + w) % 1024, nb = (idx + 1) % 1024;
        /* nb is another thread's idx when its bank (nb % 32) is a warp's */
        uint32_t d = nb % 32 < BLOCK / 32 ? 5000 + nb : 3 * nb + 1;
        want[g * NOUT + 0] = 3 * idx + 1;
        want[g * NOUT + 1] = 3 * (4 + 32 * w) + 1;
        want[g * NOUT + 2] = 5000 + idx;
        want[g * NOUT + 3] = d;
    }
}

static void ref_global(uint32_t *want)
{
    for (uint32_t g = 0; g < NT; g++) {
        uint32_t h = g / BLOCK * BLOCK + (g % BLOCK + 1) % BLOCK;
        want[g * NOUT + 0] = 7 * (32 * g) + 3;
        want[g * NOUT + 1] = 7 * (32 * g + 1) + 3;
        want[g * NOUT + 2] = 9000 + g;
        want[g * NOUT + 3] = 9000 + h;
    }
}

/* Run the kernel under opts (config syntax); its outputs in out, the
 * launch's timing statistics in *ts. */
static int run(const char *body, const char *opts, uint32_t *out, lockstep_timing_stats *ts)
{
    static char ptx[8192];
    snprintf(ptx, sizeof ptx, "%s%s", ptx_head, body);
    static uint32_t init[NIN];
    for (uint32_t i = 0; i < NIN; i++)
        init[i] = 7 * i + 3;
    lockstep_config *cfg = NULL;
    lockstep_device *dev = NULL;
    lockstep_module *mod = NULL;
    lockstep_kernel *k = NULL;
    lockstep_dptr dout = 0, din = 0;
    char path[1024];
    snprintf(path, sizeof path, "%s/configs/gtx480.config", LOCKSTEP_SRC_DIR);
    int ok = lockstep_config_create(&cfg) == LOCKSTEP_SUCCESS &&
             lockstep_config_load_file(cfg, path) == LOCKSTEP_SUCCESS &&
             lockstep_config_parse(cfg, opts, strlen(opts), "test") == LOCKSTEP_SUCCESS &&
             lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS;
    CHECK_MSG(ok, "%s: %s", opts, cfg ? lockstep_config_last_error(cfg) : "oom");
    lockstep_config_destroy(cfg);
    if (!ok)
        return -1;
    ok = lockstep_module_load_ptx(dev, ptx, strlen(ptx), "replay.ptx", &mod) == LOCKSTEP_SUCCESS &&
         lockstep_module_get_kernel(mod, "k", &k) == LOCKSTEP_SUCCESS &&
         lockstep_malloc(dev, NT * NOUT * 4, &dout) == LOCKSTEP_SUCCESS &&
         lockstep_malloc(dev, NIN * 4, &din) == LOCKSTEP_SUCCESS &&
         lockstep_memcpy_htod(dev, din, init, NIN * 4) == LOCKSTEP_SUCCESS;
    if (ok) {
        void *args[] = {&dout, &din};
        lockstep_launch_stats ls;
        memset(&ls, 0, sizeof ls);
        ok = lockstep_launch_args(dev, k, (lockstep_dim3){GRID, 1, 1}, (lockstep_dim3){BLOCK, 1, 1},
                                  0, args, &ls) == LOCKSTEP_SUCCESS &&
             lockstep_memcpy_dtoh(dev, out, dout, NT * NOUT * 4) == LOCKSTEP_SUCCESS;
        memset(ts, 0, sizeof *ts);
        if (ls.timing)
            *ts = ls.t;
    }
    CHECK_MSG(ok, "%s: %s", opts, lockstep_device_last_error(dev));
    lockstep_device_destroy(dev);
    return ok ? 0 : -1;
}

static void check_kernel(const char *name, const char *body, void (*ref)(uint32_t *))
{
    static uint32_t want[NT * NOUT], got[NT * NOUT];
    ref(want);
    static const struct {
        const char *opts;
        int replays; /* 1: replays must be counted; 0: none */
    } modes[] = {
        {"-lockstep_mode functional\n", 0},
        {"-lockstep_mode timing\n-lockstep_ldst_replay 0\n", 0},
        {"-lockstep_mode timing\n-lockstep_ldst_replay 1\n", 1},
        {"-lockstep_mode timing\n", 1}, /* the config's 24 */
        {"-lockstep_mode timing\n-lockstep_ldst_replay 400\n", 1},
        {"-lockstep_mode timing\n-lockstep_ldst_replay 400\n-lockstep_threads 2\n", 1},
    };
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
        lockstep_timing_stats ts;
        memset(got, 0xff, sizeof got);
        if (run(body, modes[m].opts, got, &ts))
            continue;
        int bad = 0;
        for (uint32_t i = 0; i < NT * NOUT && bad < 4; i++)
            if (got[i] != want[i]) {
                CHECK_MSG(0, "%s, %s: out[%u] (thread %u, value %u) = %u, want %u", name,
                          modes[m].opts, i, i / NOUT, i % NOUT, got[i], want[i]);
                bad++;
            }
        if (modes[m].replays)
            CHECK_MSG(ts.ldst_replays > 0, "%s, %s: no load was replayed", name, modes[m].opts);
        else
            CHECK_EQ_U64(ts.ldst_replays, 0);
    }
}

static void test_shared(void) { check_kernel("shared", k_shared, ref_shared); }
static void test_global(void) { check_kernel("global", k_global, ref_global); }

/* The option's range: out-of-range values are refused with its name. */
static void test_bad_option(void)
{
    lockstep_config *cfg = NULL;
    CHECK(lockstep_config_create(&cfg) == LOCKSTEP_SUCCESS);
    const char *bad = "-lockstep_ldst_replay 100001\n";
    CHECK(lockstep_config_parse(cfg, bad, strlen(bad), "test") != LOCKSTEP_SUCCESS);
    CHECK(strstr(lockstep_config_last_error(cfg), "-lockstep_ldst_replay") != NULL);
    lockstep_config_destroy(cfg);
}

int main(void)
{
    RUN(test_shared);
    RUN(test_global);
    RUN(test_bad_option);
    return test_summary();
}
