/*
 * test_uninit_regs.c -- a register read before any write gives zero, in
 * every CTA, whatever ran in the CTA slot before.
 *
 * lockstep zeroes only the register rows its dataflow analysis says a
 * thread may read before writing (ir_func.zero_rows), and CTA slots keep
 * their buffers from one CTA, and one launch, to the next.  The kernel
 * below makes CTA 0 fill registers with 0xdeadbeef and later CTAs -- run
 * one at a time in the same slot (-lockstep_resident_ctas 1) -- read them
 * where some lanes never wrote them: behind a guard, on one side of a
 * branch, around a loop, through shfl from a lane that did not write (or
 * exited before writing), and in a called function.  Every such read must give 0.  The same kernel is
 * then launched again, and a second kernel with more registers dirties the
 * slot in between, so reuse across launches is covered too.
 */
#include "e2e.h"

static const char *const uninit_ptx =
    ".version 7.8\n"
    ".target sm_75\n"
    ".address_size 64\n"
    /* a function that reads its register before writing it on odd lanes */
    ".func (.param .b32 r) f(.param .b32 a)\n"
    "{\n"
    "    .reg .b32 %x<3>;\n"
    "    .reg .pred %q;\n"
    "    ld.param.b32 %x1, [a];\n"
    "    and.b32 %x0, %x1, 1;\n"
    "    setp.eq.u32 %q, %x0, 0;\n"
    "    @%q mov.u32 %x2, 11;\n"
    "    st.param.b32 [r], %x2;\n"
    "    ret;\n"
    "}\n"
    ".func dirty_f()\n"
    "{\n"
    "    .reg .b32 %x<3>;\n"
    "    mov.u32 %x0, 0xdeadbeef;\n"
    "    mov.u32 %x1, 0xdeadbeef;\n"
    "    mov.u32 %x2, 0xdeadbeef;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "    .reg .b64 %rd<4>;\n"
    "    .reg .b32 %r<12>;\n"
    "    .reg .pred %p<3>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    mov.u32 %r0, %tid.x;\n"
    "    mov.u32 %r1, %ctaid.x;\n"
    "    setp.ne.u32 %p1, %r1, 0;\n"
    "    @%p1 bra READ;\n"
    /* CTA 0: every register row gets garbage, and so do f's */
    "    mov.u32 %r2, 0xdeadbeef;\n"
    "    mov.u32 %r3, 0xdeadbeef;\n"
    "    mov.u32 %r4, 0xdeadbeef;\n"
    "    mov.u32 %r5, 0xdeadbeef;\n"
    "    mov.u32 %r6, 0xdeadbeef;\n"
    "    mov.u32 %r7, 0xdeadbeef;\n"
    "    mov.u32 %r8, 0xdeadbeef;\n"
    "    mov.u32 %r9, 0xdeadbeef;\n"
    "    call dirty_f, ();\n"
    "    ret;\n"
    "READ:\n"
    "    and.b32 %r10, %r0, 1;\n"
    "    setp.eq.u32 %p2, %r10, 0;\n"
    /* 1: a guarded write: odd lanes never write r2 */
    "    @%p2 mov.u32 %r2, 5;\n"
    /* 2: a write on one side of a branch: odd lanes skip it */
    "    @!%p2 bra SKIP;\n"
    "    mov.u32 %r3, 7;\n"
    "SKIP:\n"
    /* 3: a loop that reads r4 before its first write */
    "    mov.u32 %r5, 0;\n"
    "LOOP:\n"
    "    add.u32 %r4, %r4, 1;\n"
    "    add.u32 %r5, %r5, 1;\n"
    "    setp.lt.u32 %p2, %r5, 3;\n"
    "    @%p2 bra LOOP;\n"
    /* 4: shfl from the next lane, which wrote r6 only if it is even */
    "    and.b32 %r10, %r0, 1;\n"
    "    setp.eq.u32 %p2, %r10, 1;\n"
    "    @%p2 mov.u32 %r6, 9;\n"
    "    shfl.sync.idx.b32 %r7, %r6, %r0, 31, -1;\n"
    "    add.u32 %r11, %r0, 1;\n"
    "    and.b32 %r11, %r11, 31;\n"
    "    shfl.sync.idx.b32 %r7, %r6, %r11, 31, -1;\n"
    /* 5: a callee reading its own register before writing it */
    "    {\n"
    "    .param .b32 a0;\n"
    "    .param .b32 r0;\n"
    "    st.param.b32 [a0], %r0;\n"
    "    call (r0), f, (a0);\n"
    "    ld.param.b32 %r8, [r0];\n"
    "    }\n"
    /* out[(ctaid - 1) * 32 + tid][0..4] = r2, r3, r4, r7, r8 */
    "    sub.u32 %r9, %r1, 1;\n"
    "    shl.b32 %r9, %r9, 5;\n"
    "    add.u32 %r9, %r9, %r0;\n"
    "    mul.wide.u32 %rd2, %r9, 20;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    st.global.u32 [%rd3], %r2;\n"
    "    st.global.u32 [%rd3+4], %r3;\n"
    "    st.global.u32 [%rd3+8], %r4;\n"
    "    st.global.u32 [%rd3+12], %r7;\n"
    "    st.global.u32 [%rd3+16], %r8;\n"
    "    ret;\n"
    "}\n"
    /* shfl from lanes that exited before writing: lanes 16-31 leave at
     * once, 0-15 write r6 on every path and read lane + 16's r6 */
    ".visible .entry k2(.param .u64 out)\n"
    "{\n"
    "    .reg .b64 %rd<4>;\n"
    "    .reg .b32 %r<9>;\n"
    "    .reg .pred %p<3>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    mov.u32 %r0, %tid.x;\n"
    "    mov.u32 %r1, %ctaid.x;\n"
    "    setp.ne.u32 %p1, %r1, 0;\n"
    "    @%p1 bra READ;\n"
    "    mov.u32 %r6, 0xdeadbeef;\n"
    "    ret;\n"
    "READ:\n"
    "    setp.ge.u32 %p2, %r0, 16;\n"
    "    @%p2 ret;\n"
    "    mov.u32 %r6, 9;\n"
    "    add.u32 %r2, %r0, 16;\n"
    "    shfl.sync.idx.b32 %r7, %r6, %r2, 31, 0xffff;\n"
    "    sub.u32 %r3, %r1, 1;\n"
    "    shl.b32 %r3, %r3, 4;\n"
    "    add.u32 %r3, %r3, %r0;\n"
    "    mul.wide.u32 %rd2, %r3, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    st.global.u32 [%rd3], %r7;\n"
    "    ret;\n"
    "}\n"
    /* a bigger kernel that leaves garbage in more rows of a slot */
    ".visible .entry big()\n"
    "{\n"
    "    .reg .b32 %g<40>;\n"
    "    mov.u32 %g0, 0xdeadbeef;\n"
    "    mov.u32 %g13, 0xdeadbeef;\n"
    "    mov.u32 %g26, 0xdeadbeef;\n"
    "    mov.u32 %g39, 0xdeadbeef;\n"
    "    ret;\n"
    "}\n";

enum { CTAS = 4, THREADS = 32, READERS = (CTAS - 1) * THREADS };

static void check_outputs(const uint32_t *o, const char *when)
{
    int bad = 0;
    for (int t = 0; t < READERS; t++) {
        int lane = t % 32, even = lane % 2 == 0, next_odd = (lane + 1) % 32 % 2 == 1;
        uint32_t want[5] = {even ? 5u : 0u, even ? 7u : 0u, 3u, next_odd ? 9u : 0u,
                            even ? 11u : 0u};
        for (int k = 0; k < 5; k++)
            if (o[t * 5 + k] != want[k] && bad++ < 6)
                fprintf(stderr, "  %s: CTA %d lane %d read %d: got %#x, expected %#x\n", when,
                        t / 32 + 1, lane, k, o[t * 5 + k], want[k]);
    }
    CHECK_MSG(bad == 0, "%s: %d reads of unwritten registers were not zero", when, bad);
}

static void test_unwritten_registers_read_zero(void)
{
    lockstep_config *cfg = NULL;
    lockstep_device *dev = NULL;
    lockstep_module *mod = NULL;
    lockstep_kernel *k = NULL, *big = NULL;
    if (!E2E_OK(NULL, lockstep_config_create(&cfg)) ||
        !E2E_OK(NULL, lockstep_config_set(cfg, "-lockstep_resident_ctas", "1")) ||
        !E2E_OK(NULL, lockstep_device_create(cfg, &dev))) {
        lockstep_config_destroy(cfg);
        return;
    }
    lockstep_config_destroy(cfg);
    if (!E2E_OK(dev, lockstep_module_load_ptx(dev, uninit_ptx, strlen(uninit_ptx), "uninit.ptx",
                                              &mod)) ||
        !E2E_OK(dev, lockstep_module_get_kernel(mod, "k", &k)) ||
        !E2E_OK(dev, lockstep_module_get_kernel(mod, "big", &big))) {
        lockstep_device_destroy(dev);
        return;
    }
    static uint32_t o[READERS * 5];
    lockstep_dptr d;
    E2E_OK(dev, lockstep_malloc(dev, sizeof o, &d));
    void *args[] = {&d};
    for (int round = 0; round < 2; round++) {
        memset(o, 0xff, sizeof o);
        E2E_OK(dev, lockstep_memcpy_htod(dev, d, o, sizeof o));
        if (round == 1)
            E2E_OK(dev, lockstep_launch_args(dev, big, (lockstep_dim3){2, 1, 1},
                                             (lockstep_dim3){64, 1, 1}, 0, NULL, NULL));
        if (!E2E_OK(dev, lockstep_launch_args(dev, k, (lockstep_dim3){CTAS, 1, 1},
                                              (lockstep_dim3){THREADS, 1, 1}, 0, args, NULL)))
            break;
        E2E_OK(dev, lockstep_memcpy_dtoh(dev, o, d, sizeof o));
        check_outputs(o, round ? "second launch, after a bigger kernel" : "first launch");
    }
    /* shfl reading an exited lane's never-written register */
    lockstep_kernel *k2 = NULL;
    if (E2E_OK(dev, lockstep_module_get_kernel(mod, "k2", &k2))) {
        uint32_t o2[(CTAS - 1) * 16];
        memset(o2, 0xff, sizeof o2);
        E2E_OK(dev, lockstep_memcpy_htod(dev, d, o2, sizeof o2));
        if (E2E_OK(dev, lockstep_launch_args(dev, k2, (lockstep_dim3){CTAS, 1, 1},
                                             (lockstep_dim3){THREADS, 1, 1}, 0, args, NULL))) {
            E2E_OK(dev, lockstep_memcpy_dtoh(dev, o2, d, sizeof o2));
            int bad = 0;
            for (int i = 0; i < (CTAS - 1) * 16; i++)
                bad += o2[i] != 0;
            CHECK_MSG(bad == 0, "shfl from exited lanes: %d of %d reads not zero (first %#x)", bad,
                      (CTAS - 1) * 16, o2[0]);
        }
    }
    lockstep_device_destroy(dev);
}

int main(void)
{
    RUN(test_unwritten_registers_read_zero);
    return test_summary();
}
