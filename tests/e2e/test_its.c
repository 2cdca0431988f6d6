/*
 * test_its.c -- independent thread scheduling (-lockstep_its, on in the
 * TITAN V config): a spin lock taken by every lane of one warp completes,
 * in functional and timing mode, and the lock really excludes (a
 * non-atomic counter in the critical section counts every lane once).
 * Without it (pre-Volta SIMT stack, the Fermi and Kepler configs) the same
 * kernel livelocks: the lane holding the lock waits to reconverge with the
 * lanes spinning on it, and the launch ends at its instruction limit.
 * Independent thread scheduling changes nothing for a kernel whose loops
 * do not wait on each other: its results and instruction counts are the
 * same with it on and off.
 */
#include <string.h>

#include "lockstep.h"
#include "test.h"

static const char ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry spin(.param .u64 lock, .param .u64 count)\n{\n"
    "  .reg .b32 %r<5>; .reg .b64 %rd<3>; .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [lock]; ld.param.u64 %rd2, [count];\n"
    "LOOP:\n"
    "  atom.global.cas.b32 %r1, [%rd1], 0, 1;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra LOOP;\n"
    "  ld.volatile.global.u32 %r2, [%rd2];\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  st.volatile.global.u32 [%rd2], %r2;\n"
    "  membar.gl;\n"
    "  atom.global.exch.b32 %r3, [%rd1], 0;\n"
    "  ret;\n}\n"
    /* the lock, then a CTA barrier, then every thread reads the count */
    ".visible .entry spinbar(.param .u64 lock, .param .u64 count)\n{\n"
    "  .reg .b32 %r<6>; .reg .b64 %rd<5>; .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [lock]; ld.param.u64 %rd2, [count];\n"
    "LOOPB:\n"
    "  atom.global.cas.b32 %r1, [%rd1], 0, 1;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra LOOPB;\n"
    "  ld.volatile.global.u32 %r2, [%rd2];\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  st.volatile.global.u32 [%rd2], %r2;\n"
    "  membar.gl;\n"
    "  atom.global.exch.b32 %r3, [%rd1], 0;\n"
    "  bar.sync 0;\n"
    "  ld.volatile.global.u32 %r4, [%rd2];\n"
    "  mov.u32 %r5, %tid.x; mul.wide.u32 %rd3, %r5, 4; add.u64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4+4], %r4;\n"
    "  ret;\n}\n"
    /* lanes loop tid times: divergent, but no lane waits on another */
    ".visible .entry tri(.param .u64 out)\n{\n"
    "  .reg .b32 %r<6>; .reg .b64 %rd<3>; .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; mov.u32 %r2, 0; mov.u32 %r3, 0;\n"
    "  setp.eq.u32 %p1, %r1, 0; @%p1 bra DONE;\n"
    "L:\n  add.u32 %r3, %r3, %r2; add.u32 %r2, %r2, 1; setp.lt.u32 %p1, %r2, %r1; @%p1 bra L;\n"
    "DONE:\n  mul.wide.u32 %rd2, %r1, 4; add.u64 %rd2, %rd1, %rd2; st.global.u32 [%rd2], %r3;\n"
    "  ret;\n}\n";

/* its: 0 off, 1 on, 2 as configs/titanv.config says */
static lockstep_status run(const char *mode, int its, const char *kernel, uint32_t threads,
                           uint32_t *out, uint32_t nout, uint64_t *warp_insts)
{
    lockstep_config *cfg;
    lockstep_device *dev;
    lockstep_config_create(&cfg);
    if (its == 2)
        CHECK(lockstep_config_load_file(cfg, LOCKSTEP_SRC_DIR "/configs/titanv.config") ==
              LOCKSTEP_SUCCESS);
    lockstep_config_set(cfg, "-lockstep_mode", mode);
    if (its < 2)
        lockstep_config_set(cfg, "-lockstep_its", its ? "1" : "0");
    lockstep_config_set(cfg, "-lockstep_max_warp_insts", "300000");
    CHECK(lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS);
    lockstep_config_destroy(cfg);
    lockstep_module *mod;
    lockstep_kernel *k;
    CHECK(lockstep_module_load_ptx(dev, ptx, strlen(ptx), "its.ptx", &mod) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, kernel, &k) == LOCKSTEP_SUCCESS);
    lockstep_dptr a, b;
    lockstep_malloc(dev, 4096, &a);
    lockstep_malloc(dev, 4096, &b);
    lockstep_memset(dev, a, 0, 4096);
    lockstep_memset(dev, b, 0, 4096);
    void *args2[] = {&a, &b}, *args1[] = {&a};
    lockstep_launch_stats st;
    lockstep_status s = lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1},
                                             (lockstep_dim3){threads, 1, 1}, 0,
                                             strncmp(kernel, "spin", 4) ? args1 : args2, &st);
    lockstep_memcpy_dtoh(dev, out, strncmp(kernel, "spin", 4) ? a : b, nout * 4);
    *warp_insts = st.warp_insts;
    lockstep_device_destroy(dev);
    return s;
}

static void test_spin_lock(void)
{
    static const char *const modes[] = {"functional", "timing"};
    for (int m = 0; m < 2; m++) {
        uint32_t count = 0;
        uint64_t n;
        lockstep_status s = run(modes[m], 1, "spin", 64, &count, 1, &n);
        CHECK_MSG(s == LOCKSTEP_SUCCESS, "%s: %s", modes[m], lockstep_status_name(s));
        CHECK_MSG(count == 64, "%s: the counter is %u, not 64", modes[m], count);
        s = run(modes[m], 2, "spin", 32, &count, 1, &n);
        CHECK_MSG(s == LOCKSTEP_SUCCESS && count == 32, "%s, TITAN V config: %s, counter %u",
                  modes[m], lockstep_status_name(s), count);
        s = run(modes[m], 0, "spin", 32, &count, 1, &n);
        CHECK_MSG(s == LOCKSTEP_ERROR_INSN_LIMIT || s == LOCKSTEP_ERROR_LAUNCH_TIMEOUT,
                  "%s without ITS: %s (a livelock was expected)", modes[m],
                  lockstep_status_name(s));
    }
}

/* Lanes that got through the lock wait at the CTA barrier for those still
 * spinning: the barrier completes, and every thread sees the full count. */
static void test_lock_then_barrier(void)
{
    static const char *const modes[] = {"functional", "timing"};
    for (int m = 0; m < 2; m++) {
        uint32_t r[1 + 96];
        uint64_t n;
        lockstep_status s = run(modes[m], 1, "spinbar", 96, r, 97, &n);
        CHECK_MSG(s == LOCKSTEP_SUCCESS, "%s: %s", modes[m], lockstep_status_name(s));
        CHECK_EQ_U64(r[0], 96);
        for (int t = 0; t < 96; t++)
            CHECK_MSG(r[1 + t] == 96, "%s: thread %d read %u after the barrier", modes[m], t,
                      r[1 + t]);
    }
}

static void test_no_change_without_waiting(void)
{
    uint32_t a[64], b[64];
    uint64_t na, nb;
    CHECK(run("functional", 0, "tri", 64, a, 64, &na) == LOCKSTEP_SUCCESS);
    CHECK(run("functional", 1, "tri", 64, b, 64, &nb) == LOCKSTEP_SUCCESS);
    for (uint32_t t = 0; t < 64; t++)
        CHECK_EQ_U64(a[t], t ? t * (t - 1) / 2 : 0);
    CHECK(!memcmp(a, b, sizeof a));
    CHECK_EQ_U64(na, nb);
}

int main(void)
{
    RUN(test_spin_lock);
    RUN(test_lock_then_barrier);
    RUN(test_no_change_without_waiting);
    return test_summary();
}
