/*
 * test_wmma.c -- wmma forms the CUDA program test (tests/cuda/wmma.cu,
 * built for sm_75) cannot reach, in PTX: bf16 inputs with an f32
 * accumulator, integer accumulation with .satfinite and without (wrapping),
 * the default stride, a wmma.mma run by part of a warp (a fault), in
 * functional and timing mode; and the tensor unit's latency in timing mode.
 * The bf16 kernel has the 4-register fragments and generic addresses nvcc
 * -arch=sm_80 emits.
 */
#include <string.h>

#include "lockstep.h"
#include "test.h"

static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    /* D = A x B + C for one bf16 tile; A row-major, B column-major, default stride */
    ".visible .entry bf(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d)\n{\n"
    "  .reg .b32 %r<20>; .reg .f32 %f<20>; .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [a]; ld.param.u64 %rd2, [b]; ld.param.u64 %rd3, [c]; ld.param.u64 %rd4, [d];\n"
    "  wmma.load.a.sync.aligned.row.m16n16k16.bf16 {%r0, %r1, %r2, %r3}, [%rd1];\n"
    "  wmma.load.b.sync.aligned.col.m16n16k16.bf16 {%r8, %r9, %r10, %r11}, [%rd2];\n"
    "  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, [%rd3];\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32 {%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15},"
    " {%r0, %r1, %r2, %r3}, {%r8, %r9, %r10, %r11},"
    " {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};\n"
    "  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd4], {%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15};\n"
    "  ret;\n}\n"
    /* s8 with .satfinite (sat != 0) or wrapping */
    ".visible .entry i8(.param .u64 a, .param .u64 b, .param .u64 d, .param .u32 sat)\n{\n"
    "  .reg .b32 %r<30>; .reg .b64 %rd<4>; .reg .pred %p1;\n"
    "  ld.param.u64 %rd1, [a]; ld.param.u64 %rd2, [b]; ld.param.u64 %rd3, [d]; ld.param.u32 %r29, [sat];\n"
    "  wmma.load.a.sync.aligned.row.m16n16k16.global.s8 {%r0, %r1}, [%rd1], 16;\n"
    "  wmma.load.b.sync.aligned.col.m16n16k16.global.s8 {%r2, %r3}, [%rd2], 16;\n"
    "  mov.u32 %r4, 2147483000; mov.u32 %r5, %r4; mov.u32 %r6, %r4; mov.u32 %r7, %r4;\n"
    "  mov.u32 %r8, %r4; mov.u32 %r9, %r4; mov.u32 %r10, %r4; mov.u32 %r11, %r4;\n"
    "  setp.ne.u32 %p1, %r29, 0;\n"
    "  @%p1 bra SAT;\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32 {%r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19},"
    " {%r0, %r1}, {%r2, %r3}, {%r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11};\n"
    "  bra DONE;\n"
    "SAT:\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32.satfinite {%r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19},"
    " {%r0, %r1}, {%r2, %r3}, {%r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11};\n"
    "DONE:\n"
    "  wmma.store.d.sync.aligned.col.m16n16k16.global.s32 [%rd3], {%r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19}, 16;\n"
    "  ret;\n}\n"
    /* half the warp: a fault */
    ".visible .entry half_warp(.param .u64 a)\n{\n"
    "  .reg .b32 %r<9>; .reg .pred %p1;\n"
    "  mov.u32 %r8, %tid.x; setp.lt.u32 %p1, %r8, 16; @!%p1 bra END;\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16 {%r0, %r1, %r2, %r3},"
    " {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7},"
    " {%r0, %r1, %r2, %r3};\n"
    "END:\n  ret;\n}\n";

static uint16_t bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16); /* exact for the values used */
}

static void run_mode(const char *mode)
{
    lockstep_config *cfg;
    lockstep_device *dev;
    lockstep_config_create(&cfg);
    lockstep_config_set(cfg, "-lockstep_mode", mode);
    CHECK(lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS);
    lockstep_config_destroy(cfg);
    lockstep_module *mod;
    lockstep_status st = lockstep_module_load_ptx(dev, ptx, strlen(ptx), "wmma.ptx", &mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s", lockstep_device_last_error(dev));
    lockstep_kernel *kb, *ki, *kh;
    CHECK(lockstep_module_get_kernel(mod, "bf", &kb) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "i8", &ki) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "half_warp", &kh) == LOCKSTEP_SUCCESS);
    lockstep_dptr a, b, c, d;
    lockstep_malloc(dev, 4096, &a);
    lockstep_malloc(dev, 4096, &b);
    lockstep_malloc(dev, 4096, &c);
    lockstep_malloc(dev, 4096, &d);

    /* bf16: A[i][k] = (i - k) / 2, B[k][j] = (k + 2j) / 4 (stored by column), C = i */
    uint16_t ha[256], hb[256];
    float hc[256], want[256], got[256];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) {
            ha[i * 16 + k] = bf16((float)(i - k) / 2);
            hb[i * 16 + k] = bf16((float)(k + 2 * i) / 4); /* column i: B[k][i] */
        }
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            hc[i * 16 + j] = (float)i;
            float s = (float)i;
            for (int k = 0; k < 16; k++)
                s += ((float)(i - k) / 2) * ((float)(k + 2 * j) / 4);
            want[i * 16 + j] = s;
        }
    lockstep_memcpy_htod(dev, a, ha, sizeof ha);
    lockstep_memcpy_htod(dev, b, hb, sizeof hb);
    lockstep_memcpy_htod(dev, c, hc, sizeof hc);
    void *args[] = {&a, &b, &c, &d};
    lockstep_launch_stats stats;
    st = lockstep_launch_args(dev, kb, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1}, 0, args,
                              &stats);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s", mode, lockstep_device_last_error(dev));
    lockstep_memcpy_dtoh(dev, got, d, sizeof got);
    CHECK_MSG(!memcmp(want, got, sizeof got), "%s: bf16 D differs (D[1][2] %g, want %g)", mode,
              (double)got[18], (double)want[18]);
    /* bf16 A and B (4 registers: one part each, generic addresses), 2 parts
     * per f32 C load and D store, the mma, ld.param x4, ret */
    CHECK_EQ_U64(stats.warp_insts, 4 + 1 + 1 + 2 + 1 + 2 + 1);
    if (stats.timing)
        CHECK_MSG(stats.t.cycles > 64, "%s: the mma's latency: %llu cycles", mode,
                  (unsigned long long)stats.t.cycles);

    /* s8: every product 127 * 127 added to 2147483000 overflows */
    int8_t sa[256], sb[256];
    for (int i = 0; i < 256; i++)
        sa[i] = sb[i] = 127;
    lockstep_memcpy_htod(dev, a, sa, sizeof sa);
    lockstep_memcpy_htod(dev, b, sb, sizeof sb);
    for (uint32_t sat = 0; sat < 2; sat++) {
        void *iargs[] = {&a, &b, &d, &sat};
        st = lockstep_launch_args(dev, ki, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1}, 0,
                                  iargs, NULL);
        CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s", mode, lockstep_device_last_error(dev));
        int32_t r[256];
        lockstep_memcpy_dtoh(dev, r, d, sizeof r);
        int32_t w = sat ? INT32_MAX : (int32_t)(2147483000u + 16u * 127u * 127u);
        int bad = 0;
        for (int i = 0; i < 256; i++)
            bad += r[i] != w;
        CHECK_MSG(!bad, "%s: s8 %s: %d wrong (r[0] %d, want %d)", mode,
                  sat ? "satfinite" : "wrapping", bad, r[0], w);
    }

    /* part of a warp */
    st = lockstep_launch_args(dev, kh, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1}, 0, args,
                              NULL);
    CHECK_MSG(st == LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION &&
                  strstr(lockstep_device_last_error(dev), "every lane"),
              "%s: %s", mode, lockstep_device_last_error(dev));
    lockstep_device_destroy(dev);
}

static void test_functional(void) { run_mode("functional"); }
static void test_timing(void) { run_mode("timing"); }

int main(void)
{
    RUN(test_functional);
    RUN(test_timing);
    return test_summary();
}
