/*
 * test_alloc_fail.c -- the allocation-failure sweep: a host allocation
 * failure is reported as one, everywhere.
 *
 * This program is linked with -Wl,--wrap=malloc,calloc,realloc,strdup
 * (Makefile), so every allocation the library makes passes through the
 * counters below.  A clean run of a small scenario (configure a GPU of 3
 * SMs and 2 memory partitions, so that each per-SM and per-partition
 * allocation site fails at the first component and at later ones, without
 * 15 copies of the same path; create a device, load a module with a device
 * function, shared memory, a barrier and an atomic, allocate, copy, launch,
 * copy back) counts its allocations, N.  Then for every n in 1..N a child
 * process runs the same scenario with the n-th allocation failing.  Each child must either
 * finish with the right results (the failure was absorbed), or stop at the
 * first call that fails with LOCKSTEP_ERROR_OUT_OF_MEMORY and a message
 * that says so, then tear everything down.  Any other status (a barrier
 * deadlock, an invalid PTX, an illegal address), a wrong result, a crash,
 * or, under AddressSanitizer, a bad free or a use after free, fails the
 * sweep and names n.  Both modes: functional, and timing on one host
 * thread and on two; with the ACE analysis attached (-lockstep_ace 1,
 * whose host-OOM paths leave the results right and mark its report
 * incomplete), functional and timing on two; the same program as two
 * PTX texts linked (lockstep_module_load_ptx_linked), functional; and a
 * kernel that launches kernels from device code (dynamic parallelism:
 * a child grid, a failing launch and its last error, a tail launch),
 * functional (the device runtime and the children's runs are the same code
 * in timing mode).
 *
 * Children end with _exit, so leak checking (LeakSanitizer) does not run
 * on the error paths; use-after-free and double free are still caught.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lockstep.h"
#include "test.h"

/* ---- the allocation counters ---------------------------------------------------------- */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t s);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t s);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

static long n_allocs;  /* allocations counted since counting began */
static long fail_at;   /* the allocation that fails (0: none) */
static int counting;

static int fail_now(void)
{
    if (!__atomic_load_n(&counting, __ATOMIC_RELAXED))
        return 0;
    long k = __atomic_add_fetch(&n_allocs, 1, __ATOMIC_RELAXED);
    return k == fail_at;
}

void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t s) { return fail_now() ? NULL : __real_calloc(n, s); }
void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }
char *__wrap_strdup(const char *s) { return fail_now() ? NULL : __real_strdup(s); }

/* ---- the scenario ---------------------------------------------------------------------- */

static const char ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".func (.param .b32 r) twice(.param .b32 a)\n"
    "{\n"
    "    .reg .b32 %t<3>;\n"
    "    ld.param.b32 %t1, [a];\n"
    "    add.u32 %t2, %t1, %t1;\n"
    "    st.param.b32 [r], %t2;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry k(.param .u64 out, .param .u64 cnt)\n"
    "{\n"
    "    .reg .b32 %r<12>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    .shared .align 4 .b32 buf[128];\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    ld.param.u64 %rd2, [cnt];\n"
    "    cvta.to.global.u64 %rd1, %rd1;\n"
    "    cvta.to.global.u64 %rd2, %rd2;\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mov.u32 %r2, %ctaid.x;\n"
    "    mov.u32 %r3, %ntid.x;\n"
    "    mad.lo.u32 %r4, %r2, %r3, %r1;\n"
    "    mov.u32 %r5, buf;\n"
    "    shl.b32 %r6, %r1, 2;\n"
    "    add.u32 %r7, %r5, %r6;\n"
    "    st.shared.u32 [%r7], %r4;\n"
    "    bar.sync 0;\n"
    "    xor.b32 %r8, %r6, 4;\n"
    "    add.u32 %r9, %r5, %r8;\n"
    "    ld.shared.u32 %r10, [%r9];\n"
    "    {\n"
    "        .param .b32 pa;\n"
    "        .param .b32 pr;\n"
    "        st.param.b32 [pa], %r10;\n"
    "        call.uni (pr), twice, (pa);\n"
    "        ld.param.b32 %r11, [pr];\n"
    "    }\n"
    "    mul.wide.u32 %rd3, %r4, 4;\n"
    "    add.s64 %rd4, %rd1, %rd3;\n"
    "    st.global.u32 [%rd4], %r11;\n"
    "    atom.global.add.u32 %r10, [%rd2], 1;\n"
    "    ret;\n"
    "}\n";

/* The same program as two texts to link: the function in one, the kernel
 * (declaring it .extern) in the other. */
static char link_lib[sizeof ptx], link_kernel[sizeof ptx + 64];

static void split_for_link(void)
{
    const char *entry = strstr(ptx, ".visible .entry");
    const char *func = strstr(ptx, ".func");
    size_t header = (size_t)(func - ptx);
    snprintf(link_lib, sizeof link_lib, "%.*s.visible %.*s", (int)header, ptx,
             (int)(entry - func), func);
    snprintf(link_kernel, sizeof link_kernel,
             "%.*s.extern .func (.param .b32 r) twice(.param .b32 a);\n%s", (int)header, ptx,
             entry);
}

static int link_mode; /* load the two texts linked instead of the one */

/* Dynamic parallelism: the kernel kp does k's work, and thread 0 of each
 * CTA also launches kc(cnt) (8 threads counting) from device code, then a
 * launch with a bad shape (the thread's last error), then kc again as a
 * tail launch: the counter ends at N + 16 per CTA. */
static const char cdp_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".extern .func (.param .b64 r) __cudaCDP2GetParameterBufferV2(.param .b64 f, .param .align 4 "
    ".b8 g[12], .param .align 4 .b8 b[12], .param .b32 s);\n"
    ".extern .func (.param .b32 r) __cudaCDP2LaunchDeviceV2(.param .b64 p, .param .b64 s);\n"
    ".extern .func (.param .b32 r) __cudaCDP2GetLastError();\n"
    ".visible .entry kc(.param .u64 c_cnt)\n"
    "{\n"
    "    .reg .b32 %r<2>;\n"
    "    .reg .b64 %rd<2>;\n"
    "    ld.param.u64 %rd1, [c_cnt];\n"
    "    atom.global.add.u32 %r1, [%rd1], 1;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry kp(.param .u64 out, .param .u64 cnt)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<12>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    ld.param.u64 %rd2, [cnt];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mov.u32 %r2, %ctaid.x;\n"
    "    mov.u32 %r3, %ntid.x;\n"
    "    mad.lo.u32 %r4, %r2, %r3, %r1;\n"
    "    shl.b32 %r5, %r4, 1;\n"
    "    mul.wide.u32 %rd3, %r4, 4;\n"
    "    add.s64 %rd4, %rd1, %rd3;\n"
    "    st.global.u32 [%rd4], %r5;\n"
    "    atom.global.add.u32 %r6, [%rd2], 1;\n"
    "    setp.ne.u32 %p1, %r1, 0;\n"
    "    @%p1 bra DONE;\n"
#define CDP_LAUNCH(B, S)                                                                   \
    "    mov.u64 %rd5, kc;\n"                                                              \
    "    { .param .b64 f; .param .align 4 .b8 g[12]; .param .align 4 .b8 b[12]; .param .b32 s;\n" \
    "      .param .b64 r;\n"                                                               \
    "      st.param.b64 [f], %rd5; st.param.b32 [g], 1; st.param.b32 [g+4], 1;\n"         \
    "      st.param.b32 [g+8], 1; st.param.b32 [b], " B "; st.param.b32 [b+4], 1;\n"       \
    "      st.param.b32 [b+8], 1; st.param.b32 [s], 0;\n"                                  \
    "      call.uni (r), __cudaCDP2GetParameterBufferV2, (f, g, b, s);\n"                  \
    "      ld.param.b64 %rd6, [r]; }\n"                                                    \
    "    st.u64 [%rd6], %rd2;\n"                                                           \
    "    { .param .b64 p; .param .b64 s; .param .b32 r;\n"                                 \
    "      st.param.b64 [p], %rd6; st.param.b64 [s], " S ";\n"                            \
    "      call.uni (r), __cudaCDP2LaunchDeviceV2, (p, s);\n"                              \
    "      ld.param.b32 %r7, [r]; }\n"
    CDP_LAUNCH("8", "0")
    CDP_LAUNCH("2048", "0")
    "    { .param .b32 e; call.uni (e), __cudaCDP2GetLastError, (); ld.param.b32 %r8, [e]; }\n"
    CDP_LAUNCH("8", "3")
    "DONE:\n"
    "    ret;\n"
    "}\n";
static int cdp_mode; /* the kernel launches kernels from device code */

enum { CTAS = 3, THREADS = 64, N = CTAS * THREADS };

/* What a child reports: 0 all calls succeeded with the right results, 1
 * stopped at an out-of-memory error as it should; 2 and up: a defect. */
enum { RUN_OK = 0, RUN_OOM = 1, RUN_WRONG_STATUS = 2, RUN_WRONG_RESULT = 3, RUN_BAD_MESSAGE = 4 };

static const char *mode_opt;
static const char *threads_opt;
static const char *ace_opt = "0"; /* -lockstep_ace: the ACE analysis's observers attached */

/* A failed call: out of memory, with a message that says so, is the one
 * right answer. */
static int failed(const char *what, lockstep_status st, const char *msg)
{
    if (st != LOCKSTEP_ERROR_OUT_OF_MEMORY) {
        fprintf(stderr, "  %s: %s (%s)\n", what, lockstep_status_name(st), msg ? msg : "");
        return RUN_WRONG_STATUS;
    }
    if (msg && *msg && !strstr(msg, "memory")) {
        fprintf(stderr, "  %s: out of memory, but the message says '%s'\n", what, msg);
        return RUN_BAD_MESSAGE;
    }
    return RUN_OOM;
}

static int scenario(void)
{
    lockstep_config *cfg = NULL;
    lockstep_device *dev = NULL;
    lockstep_module *mod = NULL;
    lockstep_dptr d_out = 0, d_cnt = 0;
    int rc = RUN_OK;
    lockstep_status st;
    uint32_t out[N], cnt = 0;

    if ((st = lockstep_config_create(&cfg)) != LOCKSTEP_SUCCESS)
        return failed("lockstep_config_create", st, NULL);
    if ((st = lockstep_config_set(cfg, "-lockstep_mode", mode_opt)) != LOCKSTEP_SUCCESS ||
        (st = lockstep_config_set(cfg, "-lockstep_threads", threads_opt)) != LOCKSTEP_SUCCESS ||
        (st = lockstep_config_set(cfg, "-lockstep_ace", ace_opt)) != LOCKSTEP_SUCCESS ||
        (st = lockstep_config_set(cfg, "-gpgpu_n_clusters", "3")) != LOCKSTEP_SUCCESS ||
        (st = lockstep_config_set(cfg, "-gpgpu_n_mem", "2")) != LOCKSTEP_SUCCESS) {
        rc = failed("lockstep_config_set", st, lockstep_config_last_error(cfg));
        goto done;
    }
    if ((st = lockstep_device_create(cfg, &dev)) != LOCKSTEP_SUCCESS) {
        rc = failed("lockstep_device_create", st, NULL);
        goto done;
    }
    if (link_mode) {
        const char *texts[2] = {link_lib, link_kernel};
        const char *names[2] = {"lib.ptx", "kernel.ptx"};
        if ((st = lockstep_module_load_ptx_linked(dev, 2, texts, NULL, names, &mod)) !=
            LOCKSTEP_SUCCESS) {
            rc = failed("lockstep_module_load_ptx_linked", st, lockstep_device_last_error(dev));
            goto done;
        }
    } else if ((st = lockstep_module_load_ptx(dev, cdp_mode ? cdp_ptx : ptx,
                                              cdp_mode ? sizeof cdp_ptx - 1 : sizeof ptx - 1,
                                              "sweep.ptx", &mod)) != LOCKSTEP_SUCCESS) {
        rc = failed("lockstep_module_load_ptx", st, lockstep_device_last_error(dev));
        goto done;
    }
    lockstep_kernel *k;
    if ((st = lockstep_module_get_kernel(mod, cdp_mode ? "kp" : "k", &k)) != LOCKSTEP_SUCCESS) {
        rc = failed("lockstep_module_get_kernel", st, lockstep_device_last_error(dev));
        goto done;
    }
    if ((st = lockstep_malloc(dev, sizeof out, &d_out)) != LOCKSTEP_SUCCESS ||
        (st = lockstep_malloc(dev, sizeof cnt, &d_cnt)) != LOCKSTEP_SUCCESS) {
        rc = failed("lockstep_malloc", st, lockstep_device_last_error(dev));
        goto done;
    }
    if ((st = lockstep_memset(dev, d_out, 0, sizeof out)) != LOCKSTEP_SUCCESS ||
        (st = lockstep_memcpy_htod(dev, d_cnt, &cnt, sizeof cnt)) != LOCKSTEP_SUCCESS) {
        rc = failed("lockstep_memset/memcpy_htod", st, lockstep_device_last_error(dev));
        goto done;
    }
    void *args[] = {&d_out, &d_cnt};
    st = lockstep_launch_args(dev, k, (lockstep_dim3){CTAS, 1, 1}, (lockstep_dim3){THREADS, 1, 1},
                              0, args, NULL);
    if (st != LOCKSTEP_SUCCESS) {
        rc = failed("lockstep_launch_args", st, lockstep_device_last_error(dev));
        goto done;
    }
    if ((st = lockstep_memcpy_dtoh(dev, out, d_out, sizeof out)) != LOCKSTEP_SUCCESS ||
        (st = lockstep_memcpy_dtoh(dev, &cnt, d_cnt, sizeof cnt)) != LOCKSTEP_SUCCESS) {
        rc = failed("lockstep_memcpy_dtoh", st, lockstep_device_last_error(dev));
        goto done;
    }
    for (uint32_t i = 0; i < N; i++) {
        uint32_t want = cdp_mode ? 2 * i : 2 * ((i / THREADS) * THREADS + ((i % THREADS) ^ 1));
        if (out[i] != want) {
            fprintf(stderr, "  out[%u] = %u, want %u\n", i, out[i], want);
            rc = RUN_WRONG_RESULT;
            break;
        }
    }
    if (rc == RUN_OK && cnt != N + (cdp_mode ? 16u * CTAS : 0u)) {
        fprintf(stderr, "  counter %u, want %u\n", cnt, N + (cdp_mode ? 16u * CTAS : 0u));
        rc = RUN_WRONG_RESULT;
    }
done:
    if (d_out)
        lockstep_free(dev, d_out);
    if (d_cnt)
        lockstep_free(dev, d_cnt);
    lockstep_module_unload(mod);
    lockstep_device_destroy(dev);
    lockstep_config_destroy(cfg);
    return rc;
}

/* Run the scenario in a child with allocation n failing (0: none); the
 * child's verdict, or -signal if it died; *count: allocations it made. */
static int run_child(long n, long *count)
{
    int fd[2];
    if (pipe(fd))
        return -1000;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1000;
    if (pid == 0) {
        close(fd[0]);
        fail_at = n;
        __atomic_store_n(&counting, 1, __ATOMIC_RELAXED);
        int rc = scenario();
        __atomic_store_n(&counting, 0, __ATOMIC_RELAXED);
        long c = n_allocs;
        if (write(fd[1], &c, sizeof c) != (ssize_t)sizeof c)
            rc = 99;
        _exit(rc);
    }
    close(fd[1]);
    long c = -1;
    if (read(fd[0], &c, sizeof c) != (ssize_t)sizeof c)
        c = -1;
    close(fd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (count)
        *count = c;
    if (WIFSIGNALED(status))
        return -WTERMSIG(status);
    return WEXITSTATUS(status);
}

static void sweep(const char *mode, const char *threads)
{
    if (link_mode)
        printf("linked: ");
    if (cdp_mode)
        printf("launching from device code: ");
    if (strcmp(ace_opt, "0"))
        printf("ACE analysis: ");
    mode_opt = mode;
    threads_opt = threads;
    long total = 0;
    int rc = run_child(0, &total);
    CHECK_MSG(rc == RUN_OK, "%s mode, %s threads: the clean run gave %d", mode, threads, rc);
    CHECK_MSG(total > 100, "%s mode: only %ld allocations counted: is the wrapping on?", mode,
              total);
    if (rc != RUN_OK)
        return;
    long oom = 0, absorbed = 0, bad = 0;
    for (long n = 1; n <= total; n++) {
        long made = 0;
        rc = run_child(n, &made);
        if (rc == RUN_OOM)
            oom++;
        else if (rc == RUN_OK)
            absorbed++;
        else {
            bad++;
            if (bad <= 10)
                CHECK_MSG(0, "%s mode, %s threads: allocation %ld of %ld failing: %s %d", mode,
                          threads, n, total, rc < 0 ? "died of signal" : "verdict", rc < 0 ? -rc : rc);
        }
    }
    CHECK_MSG(bad == 0, "%s mode: %ld of %ld failing allocations mishandled", mode, bad, total);
    printf("%s mode, %s thread(s): %ld allocations; failing each: %ld reported out of memory, "
           "%ld absorbed, %ld mishandled\n", mode, threads, total, oom, absorbed, bad);
}

int main(void)
{
    /* To debug one case in this process (under gdb):
     * SWEEP_AT=n SWEEP_MODE=timing SWEEP_THREADS=1 [SWEEP_LINK=1] [SWEEP_ACE=1] [SWEEP_CDP=1]
     * test_alloc_fail */
    const char *at = getenv("SWEEP_AT");
    if (at) {
        mode_opt = getenv("SWEEP_MODE") ? getenv("SWEEP_MODE") : "timing";
        threads_opt = getenv("SWEEP_THREADS") ? getenv("SWEEP_THREADS") : "1";
        fail_at = atol(at);
        link_mode = getenv("SWEEP_LINK") != NULL;
        cdp_mode = getenv("SWEEP_CDP") != NULL;
        ace_opt = getenv("SWEEP_ACE") ? "1" : "0";
        split_for_link();
        counting = 1;
        int rc = scenario();
        counting = 0;
        printf("allocation %ld failing: verdict %d (%ld allocations)\n", fail_at, rc, n_allocs);
        return rc > RUN_OOM;
    }
    split_for_link();
    sweep("functional", "1");
    sweep("timing", "1");
    sweep("timing", "2");
    /* with the ACE analysis attached (its host-OOM paths: the results stay right) */
    ace_opt = "1";
    sweep("functional", "1");
    sweep("timing", "2");
    ace_opt = "0";
    /* the same program linked from two texts (lockstep_module_load_ptx_linked) */
    link_mode = 1;
    sweep("functional", "1");
    link_mode = 0;
    /* a kernel that launches kernels from device code */
    cdp_mode = 1;
    sweep("functional", "1");
    return test_summary();
}
