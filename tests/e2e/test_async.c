/*
 * test_async.c -- cp.async and mbarrier in PTX, in functional and timing
 * mode.
 *
 * test_copies: one CTA of two warps.  Group 0 copies 16 bytes with
 * src-size t % 17 (the rest zero), 4 bytes whole and 8 bytes with
 * ignore-src for odd threads (zeros, and a source no allocation holds that
 * must not be read); group 1 copies 16 bytes with .cg.  Shared memory is
 * filled with 0xff first, so a copy read before its wait shows.  After
 * wait_group 1 group 0's bytes are read, after wait_group 0 group 1's,
 * after wait_all a third.  Then the mbarrier forms nvcc emits for
 * cuda::barrier and cuda::pipeline: a copy counted by
 * cp.async.mbarrier.arrive.noinc and a test_wait.parity loop, after which a
 * thread reads its neighbour's copy (another warp's, for lane 31); a phase
 * of arrive / pending_count / test_wait on the state; and one thread's
 * arrive.noComplete with a count, arrive_drop, try_wait and parity checks.
 * The copies count as ld_global; in timing mode the waits stall the warps
 * (fence) and one and two host threads give the same counts.
 * test_faults: a copy past its allocation and an arrive on shared memory
 * that holds no mbarrier stop the launch with the right error.
 * test_store_then_copy: a thread copies what it just stored, in both modes
 * and under GPUDet (the copy reads the warp's store buffer) and DAB.
 */
#include <stdio.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"

static const char *const acp_ptx =
    ".version 7.8\n.target sm_80\n.address_size 64\n"
    ".visible .entry acp(.param .u64 src, .param .u64 out)\n{\n"
    "  .reg .b32 %r<40>; .reg .b64 %rd<40>; .reg .pred %p<10>;\n"
    "  .shared .align 16 .b8 sh[4096];\n"
    "  .shared .align 8 .b64 mb[2];\n"
    "  ld.param.u64 %rd1, [src]; ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x; mov.u32 %r2, sh;\n"
    "  shl.b32 %r3, %r1, 5; add.u32 %r4, %r2, %r3;\n"           /* A[t] = sh + 32t */
    "  shl.b32 %r9, %r1, 4; add.u32 %r10, %r2, 2048; add.u32 %r10, %r10, %r9;\n" /* B[t] */
    "  mov.u32 %r5, -1;\n"
    "  st.shared.v4.u32 [%r4], {%r5, %r5, %r5, %r5};\n"
    "  st.shared.v4.u32 [%r4+16], {%r5, %r5, %r5, %r5};\n"
    "  st.shared.v4.u32 [%r10], {%r5, %r5, %r5, %r5};\n"
    "  bar.sync 0;\n"
    "  mul.wide.u32 %rd3, %r1, 32; add.s64 %rd4, %rd1, %rd3;\n"
    "  rem.u32 %r6, %r1, 17;\n"
    "  cp.async.ca.shared.global [%r4], [%rd4], 16, %r6;\n"
    "  cp.async.ca.shared.global [%r4+16], [%rd4+16], 4;\n"
    "  and.b32 %r7, %r1, 1; setp.eq.u32 %p1, %r7, 1;\n"
    "  add.s64 %rd5, %rd4, 24; selp.b64 %rd5, 64, %rd5, %p1;\n"
    "  cp.async.ca.shared::cta.global [%r4+24], [%rd5], 8, %p1;\n"
    "  cp.async.commit_group;\n"
    "  mul.wide.u32 %rd6, %r1, 16; add.s64 %rd6, %rd6, %rd1;\n"
    "  cp.async.cg.shared.global [%r10], [%rd6+2048], 16;\n"
    "  cp.async.commit_group;\n"
    "  cp.async.wait_group 1;\n"
    "  add.s64 %rd7, %rd2, %rd3;\n"
    "  ld.shared.v4.u32 {%r11, %r12, %r13, %r14}, [%r4];\n"
    "  st.global.v4.u32 [%rd7], {%r11, %r12, %r13, %r14};\n"
    "  ld.shared.v4.u32 {%r11, %r12, %r13, %r14}, [%r4+16];\n"
    "  st.global.v4.u32 [%rd7+16], {%r11, %r12, %r13, %r14};\n"
    "  cp.async.wait_group 0;\n"
    "  mul.wide.u32 %rd8, %r1, 16; add.s64 %rd8, %rd8, %rd2;\n"
    "  ld.shared.v4.u32 {%r11, %r12, %r13, %r14}, [%r10];\n"
    "  st.global.v4.u32 [%rd8+2048], {%r11, %r12, %r13, %r14};\n"
    /* C[t] = sh + 3072 + 4t, after wait_all */
    "  shl.b32 %r15, %r1, 2; add.u32 %r16, %r2, 3072; add.u32 %r16, %r16, %r15;\n"
    "  mul.wide.u32 %rd9, %r1, 4; add.s64 %rd10, %rd9, %rd1; add.s64 %rd11, %rd9, %rd2;\n"
    "  cp.async.ca.shared.global [%r16], [%rd10+3072], 4;\n"
    "  cp.async.wait_all;\n"
    "  ld.shared.u32 %r17, [%r16]; st.global.u32 [%rd11+3072], %r17;\n"
    /* the mbarriers */
    "  setp.eq.u32 %p2, %r1, 0; mov.u32 %r20, mb; mov.u32 %r21, %ntid.x;\n"
    "  @%p2 mbarrier.init.shared.b64 [%r20], %r21;\n"
    "  @%p2 mbarrier.init.shared::cta.b64 [%r20+8], 3;\n"
    "  bar.sync 0;\n"
    "  add.u32 %r22, %r16, 256;\n"                              /* D[t] = sh + 3328 + 4t */
    "  cp.async.ca.shared.global [%r22], [%rd10+3328], 4;\n"
    "  cp.async.mbarrier.arrive.noinc.shared.b64 [%r20];\n"
    "W1:\n"
    "  mbarrier.test_wait.parity.shared.b64 %p3, [%r20], 0;\n"
    "  @!%p3 bra W1;\n"
    "  add.u32 %r23, %r1, 1; and.b32 %r23, %r23, 63; shl.b32 %r23, %r23, 2;\n"
    "  add.u32 %r23, %r23, %r2; ld.shared.u32 %r24, [%r23+3328];\n"
    "  st.global.u32 [%rd11+3328], %r24;\n"
    "  mbarrier.arrive.shared.b64 %rd12, [%r20];\n"
    "  mbarrier.pending_count.b64 %r25, %rd12;\n"
    "W2:\n"
    "  mbarrier.test_wait.shared.b64 %p4, [%r20], %rd12;\n"
    "  @!%p4 bra W2;\n"
    "  st.global.u32 [%rd11+3584], %r25;\n"
    "  @!%p2 bra END;\n"
    "  mbarrier.arrive.noComplete.shared.b64 %rd13, [%r20+8], 2;\n"
    "  mbarrier.pending_count.b64 %r26, %rd13;\n"
    "  mbarrier.test_wait.parity.shared.b64 %p5, [%r20+8], 0;\n"
    "  mbarrier.arrive_drop.shared.b64 %rd14, [%r20+8];\n"
    "  mbarrier.test_wait.parity.shared.b64 %p6, [%r20+8], 0;\n"
    "  mbarrier.try_wait.shared.b64 %p7, [%r20+8], %rd13;\n"
    "  mbarrier.arrive.release.cta.shared.b64 %rd15, [%r20+8], 2;\n"
    "  mbarrier.pending_count.b64 %r27, %rd15;\n"
    "  mbarrier.try_wait.parity.acquire.cta.shared.b64 %p8, [%r20+8], 1, 100;\n"
    "  mbarrier.inval.shared.b64 [%r20+8];\n"
    "  selp.u32 %r28, 1, 0, %p5; selp.u32 %r29, 1, 0, %p6; selp.u32 %r30, 1, 0, %p7;\n"
    "  selp.u32 %r31, 1, 0, %p8;\n"
    "  st.global.v4.u32 [%rd2+3840], {%r26, %r28, %r29, %r30};\n"
    "  st.global.v2.u32 [%rd2+3856], {%r27, %r31};\n"
    "END:\n  ret;\n}\n"
    ".visible .entry bad(.param .u64 src, .param .u32 kind)\n{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n"
    "  .shared .align 16 .b8 sb[64];\n"
    "  .shared .align 8 .b64 mbad;\n"
    "  ld.param.u64 %rd1, [src]; ld.param.u32 %r1, [kind]; mov.u32 %r2, sb;\n"
    "  setp.eq.u32 %p1, %r1, 1; @%p1 bra ARR;\n"
    "  setp.eq.u32 %p1, %r1, 2; @%p1 bra BIG;\n"
    "  setp.eq.u32 %p1, %r1, 3; @%p1 bra GLOB;\n"
    "  cp.async.cg.shared.global [%r2], [%rd1+4096], 16;\n"
    "  cp.async.wait_all;\n  ret;\n"
    "ARR:\n  mbarrier.arrive.shared.b64 %rd2, [mbad];\n  ret;\n"
    /* stores in 3 chunks a lane (under GPUDet 96 in the store buffer), then
     * a copy whose src-size is over its size: a fault, in every mode */
    "BIG:\n  mov.u32 %r3, %tid.x; mul.wide.u32 %rd3, %r3, 48; add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.u32 [%rd4], %r3;\n  st.global.u32 [%rd4+16], %r3;\n"
    "  st.global.u32 [%rd4+32], %r3;\n"
    "  shl.b32 %r4, %r3, 1; add.u32 %r4, %r2, %r4; and.b32 %r4, %r4, -16;\n"
    "  mov.u32 %r5, 384;\n"
    "  cp.async.ca.shared.global [%r4], [%rd4], 16, %r5;\n  cp.async.wait_all;\n  ret;\n"
    /* an arrive on a generic address in global memory */
    "GLOB:\n  cp.async.mbarrier.arrive.b64 [%rd1];\n  ret;\n}\n"
    /* a copy of what the thread itself just stored (GPUDet: from its store buffer) */
    ".visible .entry stcp(.param .u64 buf, .param .u64 out)\n{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
    "  .shared .align 16 .b8 ss[1024];\n"
    "  ld.param.u64 %rd1, [buf]; ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x; mul.wide.u32 %rd3, %r1, 16; add.s64 %rd4, %rd1, %rd3;\n"
    "  mul.lo.u32 %r2, %r1, 3; add.u32 %r2, %r2, 1000;\n"
    "  st.global.u32 [%rd4+4], %r2;\n"
    "  mov.u32 %r3, ss; shl.b32 %r4, %r1, 4; add.u32 %r3, %r3, %r4;\n"
    "  cp.async.ca.shared.global [%r3], [%rd4], 16, 12;\n"
    "  cp.async.commit_group;\n  cp.async.wait_group 0;\n"
    "  ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r3];\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  st.global.v4.u32 [%rd5], {%r4, %r5, %r6, %r7};\n"
    "  ret;\n}\n";

/* A device in `mode` under determinism mode det, on `threads` host threads
 * (NULL: the default, every online CPU). */
static lockstep_device *make_device_det(const char *mode, const char *threads, const char *det)
{
    lockstep_config *cfg;
    lockstep_device *dev = NULL;
    lockstep_config_create(&cfg);
    lockstep_config_set(cfg, "-lockstep_mode", mode);
    if (threads)
        lockstep_config_set(cfg, "-lockstep_threads", threads);
    lockstep_config_set(cfg, "-lockstep_det", det);
    CHECK(lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS);
    lockstep_config_destroy(cfg);
    return dev;
}

static lockstep_device *make_device_threads(const char *mode, const char *threads)
{
    return make_device_det(mode, threads, "none");
}

static lockstep_module *load(lockstep_device *dev)
{
    lockstep_module *mod = NULL;
    lockstep_status st = lockstep_module_load_ptx(dev, acp_ptx, strlen(acp_ptx), "acp.ptx", &mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s", lockstep_device_last_error(dev));
    return st == LOCKSTEP_SUCCESS ? mod : NULL;
}

static void run_copies(const char *mode, const char *threads, lockstep_launch_stats *stats)
{
    lockstep_device *dev = make_device_threads(mode, threads);
    lockstep_module *mod = load(dev);
    lockstep_kernel *k;
    if (!mod || lockstep_module_get_kernel(mod, "acp", &k) != LOCKSTEP_SUCCESS) {
        CHECK(0);
        lockstep_device_destroy(dev);
        return;
    }
    static uint8_t src[4096], out[4096], want[4096];
    for (int i = 0; i < 4096; i++)
        src[i] = (uint8_t)(i * 7 + 1);
    lockstep_dptr ds, dout;
    lockstep_malloc(dev, sizeof src, &ds);
    lockstep_malloc(dev, sizeof out, &dout);
    lockstep_memcpy_htod(dev, ds, src, sizeof src);
    lockstep_memset(dev, dout, 0xee, sizeof out);
    void *args[] = {&ds, &dout};
    lockstep_status st = lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1},
                                              (lockstep_dim3){64, 1, 1}, 0, args, stats);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s", mode, lockstep_device_last_error(dev));
    lockstep_memcpy_dtoh(dev, out, dout, sizeof out);

    memset(want, 0xee, sizeof want);
    for (int t = 0; t < 64; t++) {
        uint8_t *a = want + 32 * t;
        const uint8_t *s = src + 32 * t;
        for (int b = 0; b < 16; b++)
            a[b] = b < t % 17 ? s[b] : 0; /* src-size t % 17, zeros after */
        memcpy(a + 16, s + 16, 4);
        memset(a + 20, 0xff, 4); /* never written */
        for (int b = 24; b < 32; b++)
            a[b] = t & 1 ? 0 : s[b]; /* ignore-src on odd threads */
        memcpy(want + 2048 + 16 * t, src + 2048 + 16 * t, 16);
        memcpy(want + 3072 + 4 * t, src + 3072 + 4 * t, 4);
        memcpy(want + 3328 + 4 * t, src + 3328 + 4 * ((t + 1) % 64), 4);
    }
    int bad = 0;
    for (int i = 0; i < 3584; i++)
        if (out[i] != want[i] && bad++ < 4)
            CHECK_MSG(0, "%s: byte %d: want 0x%02x got 0x%02x", mode, i, want[i], out[i]);
    CHECK_MSG(!bad, "%s: %d bytes wrong", mode, bad);
    /* each thread's pending count after its arrival: every one of 0 .. 63 once */
    uint64_t seen = 0;
    for (int t = 0; t < 64; t++) {
        uint32_t pc;
        memcpy(&pc, out + 3584 + 4 * t, 4);
        if (pc < 64)
            seen |= 1ull << pc;
    }
    CHECK_MSG(seen == ~0ull, "%s: pending counts are not 0 .. 63 (0x%llx)", mode,
              (unsigned long long)seen);
    uint32_t f[6];
    memcpy(f, out + 3840, sizeof f);
    /* noComplete leaves 1 pending, the phase is not done; the drop completes it;
     * try_wait on the first state: done; phase 1 (expects 2) completes at once */
    CHECK_MSG(f[0] == 1 && f[1] == 0 && f[2] == 1 && f[3] == 1 && f[4] == 0 && f[5] == 1,
              "%s: mbarrier flags %u %u %u %u %u %u", mode, f[0], f[1], f[2], f[3], f[4], f[5]);
    lockstep_device_destroy(dev);
}

static void run_faults(const char *mode, const char *det)
{
    for (uint32_t kind = 0; kind < 4; kind++) {
        lockstep_device *dev = make_device_det(mode, NULL, det);
        lockstep_module *mod = load(dev);
        lockstep_kernel *k;
        if (!mod || lockstep_module_get_kernel(mod, "bad", &k) != LOCKSTEP_SUCCESS) {
            CHECK(0);
            lockstep_device_destroy(dev);
            return;
        }
        lockstep_dptr ds;
        lockstep_malloc(dev, 4096, &ds);
        void *args[] = {&ds, &kind};
        lockstep_status st = lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1},
                                                  (lockstep_dim3){32, 1, 1}, 0, args, NULL);
        const char *msg = lockstep_device_last_error(dev);
        if (kind == 0)
            CHECK_MSG(st == LOCKSTEP_ERROR_ILLEGAL_ADDRESS && strstr(msg, "past the end"),
                      "%s %s: out-of-bounds copy: %d %s", mode, det, st, msg);
        else if (kind == 1)
            CHECK_MSG(st == LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION &&
                          strstr(msg, "no initialized mbarrier"),
                      "%s %s: arrive on no mbarrier: %d %s", mode, det, st, msg);
        else if (kind == 2)
            CHECK_MSG(st == LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION &&
                          strstr(msg, "src-size 384 is larger"),
                      "%s %s: src-size over the copy's size: %d %s", mode, det, st, msg);
        else
            CHECK_MSG(st == LOCKSTEP_ERROR_ILLEGAL_ADDRESS && strstr(msg, "not in shared memory"),
                      "%s %s: arrive on a global address: %d %s", mode, det, st, msg);
        lockstep_device_destroy(dev);
    }
}

/* stcp: each thread stores a word, copies the 16 bytes around it (12 read,
 * 4 zeros) and writes them out; under GPUDet the copy finds the store in
 * the warp's store buffer. */
static void run_stcp(const char *mode, const char *det)
{
    lockstep_device *dev = make_device_det(mode, NULL, det);
    lockstep_module *mod = load(dev);
    lockstep_kernel *k;
    if (!mod || lockstep_module_get_kernel(mod, "stcp", &k) != LOCKSTEP_SUCCESS) {
        CHECK(0);
        lockstep_device_destroy(dev);
        return;
    }
    static uint32_t buf[256], out[256];
    for (int i = 0; i < 256; i++)
        buf[i] = (uint32_t)i * 77u + 5u;
    lockstep_dptr db, dout;
    lockstep_malloc(dev, sizeof buf, &db);
    lockstep_malloc(dev, sizeof out, &dout);
    lockstep_memcpy_htod(dev, db, buf, sizeof buf);
    void *args[] = {&db, &dout};
    lockstep_status st = lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1},
                                              (lockstep_dim3){64, 1, 1}, 0, args, NULL);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s %s: %s", mode, det, lockstep_device_last_error(dev));
    lockstep_memcpy_dtoh(dev, out, dout, sizeof out);
    int bad = 0;
    for (int t = 0; t < 64; t++) {
        uint32_t want[4] = {buf[4 * t], 3u * (uint32_t)t + 1000u, buf[4 * t + 2], 0};
        for (int j = 0; j < 4; j++)
            bad += out[4 * t + j] != want[j];
    }
    CHECK_MSG(!bad, "%s %s: %d words wrong", mode, det, bad);
    lockstep_device_destroy(dev);
}

static void test_store_then_copy(void)
{
    run_stcp("functional", "none");
    run_stcp("timing", "none");
    run_stcp("timing", "gpudet");
    run_stcp("timing", "dab");
}

static void test_copies_functional(void)
{
    lockstep_launch_stats s;
    run_copies("functional", "1", &s);
    /* 3 + 1 + 1 + 1 copy instructions per warp count as global loads */
    CHECK_EQ_U64(s.mix[LOCKSTEP_MIX_LD_GLOBAL], 2 * 6);
}

/* Timing mode: the waits stall the warps (reason fence), and the result
 * and every count are the same on one and on two host threads. */
static void test_copies_timing(void)
{
    lockstep_launch_stats s1, s2;
    run_copies("timing", "1", &s1);
    run_copies("timing", "2", &s2);
    CHECK(s1.timing && s2.timing);
    CHECK_EQ_U64(s1.mix[LOCKSTEP_MIX_LD_GLOBAL], 2 * 6);
    CHECK(s1.t.stall[LOCKSTEP_STALL_FENCE] > 0);
    CHECK_EQ_U64(s1.t.cycles, s2.t.cycles);
    CHECK_EQ_U64(s1.warp_insts, s2.warp_insts);
    CHECK(!memcmp(s1.t.stall, s2.t.stall, sizeof s1.t.stall));
    CHECK(!memcmp(s1.mix, s2.mix, sizeof s1.mix));
}
static void test_faults_functional(void) { run_faults("functional", "none"); }
static void test_faults_timing(void)
{
    run_faults("timing", "none");
    run_faults("timing", "gpudet");
    run_faults("timing", "dab");
}

int main(void)
{
    RUN(test_copies_functional);
    RUN(test_copies_timing);
    RUN(test_faults_functional);
    RUN(test_faults_timing);
    RUN(test_store_then_copy);
    return test_summary();
}
