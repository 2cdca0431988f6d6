/*
 * test_faults.c -- end-to-end: kernels that fault (kernels/faults.cu).
 *
 * For each fault -- an out-of-bounds store (in the kernel and inside a
 * __noinline__ callee), a misaligned load, a barrier deadlock, a runaway
 * loop stopped by -lockstep_max_warp_insts, __trap() and a failed assert() --
 * the test checks:
 *   - the launch returns the fault's status;
 *   - lockstep_device_last_fault() names the kernel, the function, the CTA,
 *     the thread, warp and lane of the faulting lane, the faulting address
 *     (memory faults), the PTX file, and the CUDA source line: src_file ends
 *     with faults.cu and src_line is the line of faults.cu carrying the
 *     case's FAULT_* tag (found by reading faults.cu, so editing the kernels
 *     does not break the test);
 *   - lockstep_device_last_error() mentions the kernel;
 *   - lockstep_synchronize() returns the same status once, then success;
 *   - the device then runs a correct kernel (ok_kernel) correctly.
 * And the wording of an access that runs out of its allocation.
 */
#include "e2e.h"

static char *faults_cu;

/* Line number (1-based) of the line of faults.cu ending with "// <tag>"
 * (possibly followed by other text in the comment); 0 if not found. */
static uint32_t tag_line(const char *tag)
{
    if (!faults_cu)
        return 0;
    char pat[64];
    snprintf(pat, sizeof pat, "// %s", tag);
    const char *hit = strstr(faults_cu, pat);
    while (hit) {
        char after = hit[strlen(pat)];
        if (after == '\n' || after == ' ' || after == 0)
            break;
        hit = strstr(hit + 1, pat);
    }
    if (!hit)
        return 0;
    uint32_t line = 1;
    for (const char *p = faults_cu; p < hit; p++)
        line += *p == '\n';
    return line;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = s ? strlen(s) : 0, b = strlen(suffix);
    return s && a >= b && strcmp(s + a - b, suffix) == 0;
}

/* What a fault must look like; fields left 0/NULL are not checked. */
typedef struct expect {
    lockstep_status status;
    const char *kernel;
    const char *function;
    int check_where; /* check cta, thread, warp, lane */
    uint32_t cta[3], thread[3], warp, lane;
    const char *tag; /* FAULT_* tag of the source line, or NULL */
    uint64_t address; /* 0: not checked */
} expect;

static void check_fault(lockstep_device *dev, lockstep_status got, const expect *e)
{
    CHECK_MSG(got == e->status, "%s: launch returned %s, expected %s (last error: %s)",
              e->kernel, lockstep_status_name(got), lockstep_status_name(e->status),
              lockstep_device_last_error(dev));
    CHECK_STR_CONTAINS(lockstep_device_last_error(dev), e->kernel);

    lockstep_fault_info fi;
    memset(&fi, 0, sizeof fi);
    lockstep_device_last_fault(dev, &fi);
    CHECK_MSG(fi.status == e->status, "%s: fault.status = %s", e->kernel,
              lockstep_status_name(fi.status));
    CHECK_MSG(fi.kernel && strcmp(fi.kernel, e->kernel) == 0, "%s: fault.kernel = %s", e->kernel,
              fi.kernel ? fi.kernel : "(null)");
    if (e->function)
        CHECK_MSG(fi.function && strcmp(fi.function, e->function) == 0,
                  "%s: fault.function = %s, expected %s", e->kernel,
                  fi.function ? fi.function : "(null)", e->function);
    if (e->check_where) {
        CHECK_MSG(fi.cta[0] == e->cta[0] && fi.cta[1] == e->cta[1] && fi.cta[2] == e->cta[2],
                  "%s: fault.cta = (%u,%u,%u), expected (%u,%u,%u)", e->kernel, fi.cta[0],
                  fi.cta[1], fi.cta[2], e->cta[0], e->cta[1], e->cta[2]);
        CHECK_MSG(fi.thread[0] == e->thread[0] && fi.thread[1] == e->thread[1] &&
                      fi.thread[2] == e->thread[2],
                  "%s: fault.thread = (%u,%u,%u), expected (%u,%u,%u)", e->kernel, fi.thread[0],
                  fi.thread[1], fi.thread[2], e->thread[0], e->thread[1], e->thread[2]);
        CHECK_MSG(fi.warp == e->warp && fi.lane == e->lane,
                  "%s: fault warp %u lane %u, expected warp %u lane %u", e->kernel, fi.warp,
                  fi.lane, e->warp, e->lane);
    }
    CHECK_MSG(ends_with(fi.ptx_file, "faults.ptx"), "%s: fault.ptx_file = %s", e->kernel,
              fi.ptx_file ? fi.ptx_file : "(null)");
    CHECK_MSG(fi.ptx_line > 0, "%s: fault.ptx_line = 0", e->kernel);
    if (e->tag) {
        uint32_t line = tag_line(e->tag);
        CHECK_MSG(line > 0, "tag %s not found in faults.cu", e->tag);
        CHECK_MSG(ends_with(fi.src_file, "faults.cu"), "%s: fault.src_file = %s", e->kernel,
                  fi.src_file ? fi.src_file : "(null)");
        CHECK_MSG(fi.src_line == line, "%s: fault.src_line = %u, expected %u (the %s line)",
                  e->kernel, fi.src_line, line, e->tag);
    }
    if (e->address)
        CHECK_MSG(fi.address == e->address,
                  "%s: fault.address = 0x%" PRIx64 ", expected 0x%" PRIx64, e->kernel,
                  fi.address, e->address);
    CHECK_MSG(fi.message && fi.message[0], "%s: empty fault.message", e->kernel);

    lockstep_status s1 = lockstep_synchronize(dev);
    CHECK_MSG(s1 == e->status, "%s: first synchronize returned %s, expected %s", e->kernel,
              lockstep_status_name(s1), lockstep_status_name(e->status));
    lockstep_status s2 = lockstep_synchronize(dev);
    CHECK_MSG(s2 == LOCKSTEP_SUCCESS, "%s: second synchronize returned %s", e->kernel,
              lockstep_status_name(s2));
}

/* The device still works: ok_kernel over 100 elements. */
static void check_still_works(lockstep_device *dev, lockstep_module *mod, const char *after)
{
    lockstep_kernel *k = e2e_kernel(dev, mod, "ok_kernel");
    lockstep_dptr d = e2e_alloc(dev, 100 * 4);
    int32_t exp[100], got[100];
    char what[128];
    snprintf(what, sizeof what, "ok_kernel after %s", after);
    for (int i = 0; i < 100; i++)
        exp[i] = i * 3 + 1;
    int n = 100;
    void *args[] = {&d, &n};
    if (k && d && e2e_launch(dev, k, what, e2e_dim3(2, 1, 1), e2e_dim3(64, 1, 1), 0, args) &&
        e2e_download(dev, got, d, sizeof got))
        e2e_cmp_i32(what, got, exp, 100, NULL);
    e2e_free(dev, d);
}

static void test_no_fault_yet(void)
{
    lockstep_device *dev = e2e_device();
    if (!dev)
        return;
    lockstep_fault_info fi;
    lockstep_device_last_fault(dev, &fi);
    CHECK_MSG(fi.status == LOCKSTEP_SUCCESS, "fresh device: fault.status = %s",
              lockstep_status_name(fi.status));
    CHECK_EQ_INT(lockstep_synchronize(dev), LOCKSTEP_SUCCESS);
    e2e_device_destroy(dev);
}

static void test_oob_store(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "faults.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "oob_store");
    lockstep_dptr p = e2e_alloc(dev, 64 * 4);
    if (k && p) {
        int n = 64;
        void *args[] = {&p, &n};
        lockstep_status s =
            lockstep_launch_args(dev, k, e2e_dim3(3, 1, 1), e2e_dim3(64, 1, 1), 0, args, NULL);
        expect e = {LOCKSTEP_ERROR_ILLEGAL_ADDRESS, "oob_store", "oob_store", 1,
                    {1, 0, 0}, {5, 0, 0}, 0, 5, "FAULT_OOB",
                    p + 4ull * (64 + (1u << 24))};
        check_fault(dev, s, &e);
        check_still_works(dev, mod, "oob_store");
    }
    e2e_free(dev, p);
    e2e_device_destroy(dev);
}

static void test_oob_in_callee(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "faults.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "oob_in_callee");
    lockstep_dptr p = e2e_alloc(dev, 32 * 4);
    if (k && p) {
        int n = 32;
        void *args[] = {&p, &n};
        lockstep_status s =
            lockstep_launch_args(dev, k, e2e_dim3(2, 1, 1), e2e_dim3(32, 1, 1), 0, args, NULL);
        expect e = {LOCKSTEP_ERROR_ILLEGAL_ADDRESS, "oob_in_callee", "store_at", 1,
                    {0, 0, 0}, {9, 0, 0}, 0, 9, "FAULT_CALLEE",
                    p + 4ull * (32 + (1u << 24))};
        check_fault(dev, s, &e);
        check_still_works(dev, mod, "oob_in_callee");
    }
    e2e_free(dev, p);
    e2e_device_destroy(dev);
}

static void test_misaligned(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "faults.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "misaligned_load");
    lockstep_dptr buf = e2e_alloc(dev, 64), out = e2e_alloc(dev, 64);
    if (k && buf && out && e2e_fill(dev, buf, 7, 64)) {
        void *args[] = {&buf, &out};
        lockstep_status s =
            lockstep_launch_args(dev, k, e2e_dim3(1, 2, 1), e2e_dim3(8, 1, 1), 0, args, NULL);
        expect e = {LOCKSTEP_ERROR_MISALIGNED_ADDRESS, "misaligned_load", "misaligned_load", 1,
                    {0, 1, 0}, {3, 0, 0}, 0, 3, "FAULT_MISALIGNED", buf + 4 * 3 + 1};
        check_fault(dev, s, &e);
        check_still_works(dev, mod, "misaligned_load");
    }
    e2e_free(dev, buf);
    e2e_free(dev, out);
    e2e_device_destroy(dev);
}

/* Threads 0..15 of warp 0 wait at __syncthreads(); threads 16..31 of the same
 * warp are past the branch and can never arrive, and warp 1 never arrives
 * either: lockstep must report a deadlock, not hang and not complete the
 * barrier. */
static void test_barrier_deadlock(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "faults.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "barrier_deadlock");
    lockstep_dptr out = e2e_alloc(dev, 64 * 4);
    if (k && out) {
        void *args[] = {&out};
        lockstep_status s =
            lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(64, 1, 1), 0, args, NULL);
        expect e = {LOCKSTEP_ERROR_BARRIER_DEADLOCK, "barrier_deadlock", NULL, 0,
                    {0, 0, 0}, {0, 0, 0}, 0, 0, NULL, 0};
        check_fault(dev, s, &e);
        lockstep_fault_info fi;
        lockstep_device_last_fault(dev, &fi);
        CHECK_MSG(fi.cta[0] == 0 && fi.cta[1] == 0 && fi.cta[2] == 0,
                  "barrier_deadlock: fault.cta = (%u,%u,%u)", fi.cta[0], fi.cta[1], fi.cta[2]);
        check_still_works(dev, mod, "barrier_deadlock");
    }
    e2e_free(dev, out);
    e2e_device_destroy(dev);
}

static void test_insn_limit(void)
{
    lockstep_config *cfg = NULL;
    lockstep_device *dev = NULL;
    lockstep_dptr flag = 0, out = 0;
    if (!E2E_OK(NULL, lockstep_config_create(&cfg)))
        return;
    lockstep_status cs = lockstep_config_set(cfg, "-lockstep_max_warp_insts", "1000000");
    CHECK_MSG(cs == LOCKSTEP_SUCCESS, "config_set(-lockstep_max_warp_insts): %s: %s",
              lockstep_status_name(cs), lockstep_config_last_error(cfg));
    if (cs != LOCKSTEP_SUCCESS || !E2E_OK(NULL, lockstep_device_create(cfg, &dev)))
        goto out;
    lockstep_module *mod = e2e_load(dev, "faults.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "spin_forever");
    int32_t one = 1;
    flag = e2e_upload(dev, &one, 4);
    out = e2e_alloc(dev, 32 * 4);
    if (k && flag && out) {
        void *args[] = {&flag, &out};
        lockstep_status s =
            lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(32, 1, 1), 0, args, NULL);
        expect e = {LOCKSTEP_ERROR_INSN_LIMIT, "spin_forever", "spin_forever", 0,
                    {0, 0, 0}, {0, 0, 0}, 0, 0, "FAULT_SPIN", 0};
        check_fault(dev, s, &e);
        check_still_works(dev, mod, "spin_forever");
    }
out:
    e2e_free(dev, flag);
    e2e_free(dev, out);
    e2e_device_destroy(dev);
    lockstep_config_destroy(cfg);
}

/* spin_forever on a device made with the options opts (name, value, ...,
 * NULL): the launch must stop with `want`, a message naming the kernel,
 * the limit and the warps still running, and the device must go on. */
static void spin_until_stopped(const char *const *opts, lockstep_status want, const char *limit,
                               int interrupt)
{
    lockstep_config *cfg = NULL;
    lockstep_device *dev = NULL;
    lockstep_dptr flag = 0, out = 0;
    if (!E2E_OK(NULL, lockstep_config_create(&cfg)))
        return;
    for (int i = 0; opts[i]; i += 2)
        CHECK(lockstep_config_set(cfg, opts[i], opts[i + 1]) == LOCKSTEP_SUCCESS);
    if (!E2E_OK(NULL, lockstep_device_create(cfg, &dev)))
        goto out;
    lockstep_module *mod = e2e_load(dev, "faults.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "spin_forever");
    int32_t one = 1;
    flag = e2e_upload(dev, &one, 4);
    out = e2e_alloc(dev, 64 * 4);
    if (k && flag && out) {
        if (interrupt) /* before the launch: the launch clears it */
            lockstep_device_interrupt(dev);
        void *args[] = {&flag, &out};
        lockstep_status s =
            lockstep_launch_args(dev, k, e2e_dim3(2, 1, 1), e2e_dim3(64, 1, 1), 0, args, NULL);
        CHECK_MSG(s == want, "got %s, want %s", lockstep_status_name(s),
                  lockstep_status_name(want));
        const char *msg = lockstep_device_last_error(dev);
        CHECK_STR_CONTAINS(msg, "spin_forever");
        CHECK_STR_CONTAINS(msg, limit);
        CHECK_STR_CONTAINS(msg, "the warps still running");
        CHECK_STR_CONTAINS(msg, "CTA (0,0,0) warp 0: running, pc");
        CHECK_STR_CONTAINS(msg, "CTA (1,0,0) warp 1: running, pc");
        lockstep_synchronize(dev);
        check_still_works(dev, mod, "spin_forever");
    }
out:
    e2e_free(dev, flag);
    e2e_free(dev, out);
    e2e_device_destroy(dev);
    lockstep_config_destroy(cfg);
}

/* Limits users can reason about: simulated cycles (timing mode) and host
 * seconds (both modes). */
static void test_launch_limits(void)
{
    const char *cycles[] = {"-lockstep_max_cycles", "200000", NULL};
    spin_until_stopped(cycles, LOCKSTEP_ERROR_LAUNCH_TIMEOUT, "-lockstep_max_cycles", 0);
    const char *secs_timing[] = {"-lockstep_timeout", "1", NULL};
    spin_until_stopped(secs_timing, LOCKSTEP_ERROR_LAUNCH_TIMEOUT, "host seconds", 0);
    const char *secs_func[] = {"-lockstep_timeout", "1", "-lockstep_mode", "functional", NULL};
    spin_until_stopped(secs_func, LOCKSTEP_ERROR_LAUNCH_TIMEOUT, "host seconds", 0);
    /* an interrupt requested before a launch is cleared by it: the launch
     * then runs into its cycle limit */
    spin_until_stopped(cycles, LOCKSTEP_ERROR_LAUNCH_TIMEOUT, "-lockstep_max_cycles", 1);
}

#include <pthread.h>
#include <time.h>

typedef struct interrupter {
    lockstep_device *dev;
} interrupter;

static void *interrupt_later(void *p)
{
    interrupter *it = p;
    struct timespec ts = {0, 300 * 1000 * 1000};
    nanosleep(&ts, NULL);
    lockstep_device_interrupt(it->dev);
    return NULL;
}

/* lockstep_device_interrupt from another thread stops a launch at once. */
static void test_interrupt(void)
{
    for (int mode = 0; mode < 2; mode++) {
        lockstep_config *cfg = NULL;
        lockstep_device *dev = NULL;
        if (!E2E_OK(NULL, lockstep_config_create(&cfg)))
            return;
        lockstep_config_set(cfg, "-lockstep_mode", mode ? "functional" : "timing");
        lockstep_config_set(cfg, "-lockstep_max_warp_insts", "0");
        lockstep_config_set(cfg, "-lockstep_max_cycles", "0");
        if (E2E_OK(NULL, lockstep_device_create(cfg, &dev))) {
            lockstep_module *mod = e2e_load(dev, "faults.ptx");
            lockstep_kernel *k = e2e_kernel(dev, mod, "spin_forever");
            int32_t one = 1;
            lockstep_dptr flag = e2e_upload(dev, &one, 4), out = e2e_alloc(dev, 64 * 4);
            if (k && flag && out) {
                interrupter it = {dev};
                pthread_t th;
                pthread_create(&th, NULL, interrupt_later, &it);
                void *args[] = {&flag, &out};
                lockstep_status s = lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1),
                                                         e2e_dim3(64, 1, 1), 0, args, NULL);
                pthread_join(th, NULL);
                CHECK_MSG(s == LOCKSTEP_ERROR_INTERRUPTED, "%s mode: %s",
                          mode ? "functional" : "timing", lockstep_status_name(s));
                CHECK_STR_CONTAINS(lockstep_device_last_error(dev), "interrupted");
                lockstep_synchronize(dev);
                check_still_works(dev, mod, "an interrupted launch");
            }
            e2e_free(dev, flag);
            e2e_free(dev, out);
            e2e_device_destroy(dev);
        }
        lockstep_config_destroy(cfg);
    }
}

static void test_trap(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "faults.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "trap_kernel");
    lockstep_dptr out = e2e_alloc(dev, 32 * 4);
    if (k && out) {
        void *args[] = {&out};
        lockstep_status s =
            lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(32, 1, 1), 0, args, NULL);
        expect e = {LOCKSTEP_ERROR_TRAP, "trap_kernel", "trap_kernel", 1,
                    {0, 0, 0}, {7, 0, 0}, 0, 7, "FAULT_TRAP", 0};
        check_fault(dev, s, &e);
        check_still_works(dev, mod, "trap_kernel");
    }
    e2e_free(dev, out);
    e2e_device_destroy(dev);
}

static void test_assert(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "faults.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "assert_kernel");
    int32_t in[150];
    for (int i = 0; i < 150; i++)
        in[i] = i == 77 ? -1 : i;
    lockstep_dptr din = e2e_upload(dev, in, sizeof in), out = e2e_alloc(dev, sizeof in);
    if (k && din && out) {
        int n = 150;
        void *args[] = {&din, &out, &n};
        lockstep_status s =
            lockstep_launch_args(dev, k, e2e_dim3(3, 1, 1), e2e_dim3(64, 1, 1), 0, args, NULL);
        /* element 77 = CTA 1, thread 13 */
        expect e = {LOCKSTEP_ERROR_ASSERT, "assert_kernel", "assert_kernel", 1,
                    {1, 0, 0}, {13, 0, 0}, 0, 13, "FAULT_ASSERT", 0};
        check_fault(dev, s, &e);
        check_still_works(dev, mod, "assert_kernel");
    }
    e2e_free(dev, din);
    e2e_free(dev, out);
    e2e_device_destroy(dev);
}

/* Several faults in a row on one device, each reported and cleared. */
static void test_faults_in_a_row(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "faults.ptx");
    lockstep_kernel *kt = e2e_kernel(dev, mod, "trap_kernel");
    lockstep_kernel *ko = e2e_kernel(dev, mod, "oob_store");
    lockstep_dptr p = e2e_alloc(dev, 64 * 4);
    if (kt && ko && p) {
        int n = 64;
        void *oargs[] = {&p, &n};
        void *targs[] = {&p};
        for (int round = 0; round < 2; round++) {
            lockstep_status s = lockstep_launch_args(dev, ko, e2e_dim3(2, 1, 1),
                                                     e2e_dim3(64, 1, 1), 0, oargs, NULL);
            expect eo = {LOCKSTEP_ERROR_ILLEGAL_ADDRESS, "oob_store", "oob_store", 1,
                         {1, 0, 0}, {5, 0, 0}, 0, 5, "FAULT_OOB",
                         p + 4ull * (64 + (1u << 24))};
            check_fault(dev, s, &eo);
            s = lockstep_launch_args(dev, kt, e2e_dim3(1, 1, 1), e2e_dim3(8, 1, 1), 0, targs,
                                     NULL);
            expect et = {LOCKSTEP_ERROR_TRAP, "trap_kernel", "trap_kernel", 1,
                         {0, 0, 0}, {7, 0, 0}, 0, 7, "FAULT_TRAP", 0};
            check_fault(dev, s, &et);
        }
        check_still_works(dev, mod, "faults in a row");
    }
    e2e_free(dev, p);
    e2e_device_destroy(dev);
}

/* The message for an access that starts inside an allocation and runs out
 * of it, and for one wholly past its end (built-in and GTX 480 configs). */
static void test_overrun_message(void)
{
    static const char *ptx =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry wide(.param .u64 p, .param .u64 o)\n{\n"
        "  .reg .u64 %rd<4>;\n  ld.param.u64 %rd1, [p];\n  ld.param.u64 %rd2, [o];\n"
        "  ld.global.u64 %rd3, [%rd1];\n  st.global.u64 [%rd2], %rd3;\n  ret;\n}\n";
    for (int timing = 0; timing < 2; timing++) {
        lockstep_device *dev = timing ? e2e_timing_device("configs/gtx480.config", NULL) : e2e_device();
        lockstep_module *mod = NULL;
        if (!dev || !E2E_OK(dev, lockstep_module_load_ptx(dev, ptx, strlen(ptx), "wide.ptx", &mod)))
            break;
        lockstep_kernel *k = e2e_kernel(dev, mod, "wide");
        lockstep_dptr four = e2e_alloc(dev, 4), out = e2e_alloc(dev, 8);
        for (int past = 0; k && four && out && past < 2; past++) {
            lockstep_dptr at = four + (past ? 8 : 0);
            void *args[] = {&at, &out};
            lockstep_status s = lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(1, 1, 1),
                                                     0, args, NULL);
            CHECK_EQ_INT(s, LOCKSTEP_ERROR_ILLEGAL_ADDRESS);
            const char *msg = lockstep_device_last_error(dev);
            if (past)
                CHECK_STR_CONTAINS(msg, "is 12 bytes past the end of the 4-byte allocation");
            else
                CHECK_STR_CONTAINS(msg, "byte 0 of the 4-byte allocation at");
            if (!past)
                CHECK_STR_CONTAINS(msg, "runs 4 bytes past its end");
            lockstep_synchronize(dev);
        }
        e2e_device_destroy(dev);
    }
}

int main(void)
{
    faults_cu = test_read_file(E2E_KERNEL_PATH("faults.cu"), NULL);
    CHECK_MSG(faults_cu != NULL, "cannot read %s", E2E_KERNEL_PATH("faults.cu"));
    RUN(test_no_fault_yet);
    RUN(test_oob_store);
    RUN(test_oob_in_callee);
    RUN(test_misaligned);
    RUN(test_barrier_deadlock);
    RUN(test_insn_limit);
    RUN(test_launch_limits);
    RUN(test_interrupt);
    RUN(test_trap);
    RUN(test_assert);
    RUN(test_faults_in_a_row);
    RUN(test_overrun_message);
    free(faults_cu);
    return test_summary();
}
