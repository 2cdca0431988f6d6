/*
 * test_engine_threads.c -- the threaded engine gives the same result on any
 * number of host threads (kernels/engine.cu): for -lockstep_threads 1, 2,
 * 3, 4 and 8 (more threads than this machine's cores too) and both
 * -lockstep_window_order values, every kernel's output memory, its launch
 * statistics (every counter but the host time), its printf output and its
 * fault report must equal those of one thread in index order.  Run in the
 * ThreadSanitizer build (make TSAN=1) by CI, which also checks that the
 * components of a window share no state.
 */
#include "e2e.h"

#define NB 30 /* CTAs: two per SM of the default GPU */
#define NT 256

typedef struct outcome {
    lockstep_status st[3];
    lockstep_launch_stats ls[3];
    uint32_t tickets[NB * NT];
    float acc[16], sums[NB];
    int heap[NB * NT];
    char printf_out[4096];
    size_t printf_len;
    char fault[1024];
} outcome;

static void capture(void *ud, const char *text, size_t len)
{
    outcome *o = ud;
    if (o->printf_len + len < sizeof o->printf_out) {
        memcpy(o->printf_out + o->printf_len, text, len);
        o->printf_len += len;
    }
}

/* extra: more options ("-name value" lines), or NULL */
static void run_with(const char *threads, const char *order, const char *extra, outcome *o)
{
    memset(o, 0, sizeof *o);
    lockstep_config *cfg;
    lockstep_device *dev = NULL;
    lockstep_config_create(&cfg);
    lockstep_config_set(cfg, "-lockstep_threads", threads);
    lockstep_config_set(cfg, "-lockstep_window_order", order);
    lockstep_config_set(cfg, "-lockstep_nondet_seed", "11");
    if (extra)
        lockstep_config_parse(cfg, extra, strlen(extra), "extra");
    if (!E2E_OK(NULL, lockstep_device_create(cfg, &dev))) {
        lockstep_config_destroy(cfg);
        return;
    }
    lockstep_config_destroy(cfg);
    lockstep_device_set_printf_output(dev, capture, o);
    lockstep_module *mod = e2e_load(dev, "engine.ptx");
    lockstep_kernel *mix = e2e_kernel(dev, mod, "mix"), *heap = e2e_kernel(dev, mod, "heap_print"),
                    *fault = e2e_kernel(dev, mod, "all_fault");
    int n = 1000;
    float in[1000];
    for (int i = 0; i < n; i++)
        in[i] = (float)((i * 37) % 101) * 0.25f;
    lockstep_dptr ctr = e2e_alloc(dev, 4), tickets = e2e_alloc(dev, sizeof o->tickets),
                  din = e2e_upload(dev, in, sizeof in), acc = e2e_alloc(dev, sizeof o->acc),
                  sums = e2e_alloc(dev, sizeof o->sums), hp = e2e_alloc(dev, sizeof o->heap),
                  small = e2e_alloc(dev, 64 * 4);
    e2e_fill(dev, ctr, 0, 4);
    e2e_fill(dev, acc, 0, sizeof o->acc);
    if (mix && heap && fault && ctr && tickets && din && acc && sums && hp && small) {
        void *a1[] = {&ctr, &tickets, &din, &acc, &sums, &n};
        o->st[0] = lockstep_launch_args(dev, mix, e2e_dim3(NB, 1, 1), e2e_dim3(NT, 1, 1), 0, a1,
                                        &o->ls[0]);
        void *a2[] = {&hp};
        o->st[1] = lockstep_launch_args(dev, heap, e2e_dim3(NB, 1, 1), e2e_dim3(NT, 1, 1), 0, a2,
                                        &o->ls[1]);
        lockstep_synchronize(dev);
        void *a3[] = {&small};
        o->st[2] = lockstep_launch_args(dev, fault, e2e_dim3(15, 1, 1), e2e_dim3(32, 1, 1), 0,
                                        a3, &o->ls[2]);
        snprintf(o->fault, sizeof o->fault, "%s", lockstep_device_last_error(dev));
        lockstep_synchronize(dev);
        e2e_download(dev, o->tickets, tickets, sizeof o->tickets);
        e2e_download(dev, o->acc, acc, sizeof o->acc);
        e2e_download(dev, o->sums, sums, sizeof o->sums);
        e2e_download(dev, o->heap, hp, sizeof o->heap);
    }
    e2e_device_destroy(dev);
}

static void run(const char *threads, const char *order, outcome *o)
{
    run_with(threads, order, NULL, o);
}

static void test_same_on_any_threads(void)
{
    static outcome ref, o;
    run("1", "0", &ref);
    CHECK(ref.st[0] == LOCKSTEP_SUCCESS && ref.st[1] == LOCKSTEP_SUCCESS);
    CHECK_MSG(ref.st[2] == LOCKSTEP_ERROR_ILLEGAL_ADDRESS, "%s", lockstep_status_name(ref.st[2]));
    CHECK_STR_CONTAINS(ref.fault, "at CTA (");
    CHECK_MSG(ref.printf_len > 0 && strstr(ref.printf_out, "block 29:"), "%s", ref.printf_out);
    /* the tickets are a permutation */
    static uint8_t seen[NB * NT];
    memset(seen, 0, sizeof seen);
    int perm = 1;
    for (int i = 0; i < NB * NT; i++) {
        if (ref.tickets[i] >= NB * NT || seen[ref.tickets[i]])
            perm = 0;
        else
            seen[ref.tickets[i]] = 1;
    }
    CHECK(perm);
    const char *threads[] = {"1", "2", "3", "4", "8"};
    for (int t = 0; t < 5; t++)
        for (int order = 0; order < 2; order++) {
            if (t == 0 && order == 0)
                continue;
            run(threads[t], order ? "1" : "0", &o);
            for (int k = 0; k < 3; k++) {
                CHECK_MSG(o.st[k] == ref.st[k], "threads %s order %d launch %d: %s", threads[t],
                          order, k, lockstep_status_name(o.st[k]));
                /* every statistic: the structs hold only simulated counts */
                CHECK_MSG(!memcmp(&o.ls[k], &ref.ls[k], sizeof o.ls[k]),
                          "threads %s order %d launch %d: statistics differ (cycles %llu vs %llu)",
                          threads[t], order, k, (unsigned long long)o.ls[k].t.cycles,
                          (unsigned long long)ref.ls[k].t.cycles);
            }
            CHECK_MSG(!memcmp(o.tickets, ref.tickets, sizeof o.tickets), "threads %s: tickets",
                      threads[t]);
            CHECK_MSG(!memcmp(o.acc, ref.acc, sizeof o.acc), "threads %s: float atomics",
                      threads[t]);
            CHECK(!memcmp(o.sums, ref.sums, sizeof o.sums));
            CHECK(!memcmp(o.heap, ref.heap, sizeof o.heap));
            CHECK_MSG(o.printf_len == ref.printf_len &&
                          !memcmp(o.printf_out, ref.printf_out, o.printf_len),
                      "threads %s: printf output differs:\n%s", threads[t], o.printf_out);
            CHECK_MSG(!strcmp(o.fault, ref.fault), "threads %s order %d: fault\n%s\nvs\n%s",
                      threads[t], order, o.fault, ref.fault);
        }
}

/* Jumping over cycles in which nothing can act is exact: running every
 * window instead (-lockstep_skip 0) gives the same results and statistics.
 * That needs every decision the serial step makes (CTA dispatch, built-in
 * calls, where the next launch starts) to depend on the cycles events
 * happened at, not on where a window happens to start.  A kernel that
 * faults is the exception: it stops at the end of the window in which it
 * faulted, so what other SMs did after the fault in that window counts;
 * only its status and report are compared. */
static void test_skipping_is_exact(void)
{
    static outcome ref, o;
    run("1", "0", &ref);
    const char *threads[] = {"1", "3"};
    for (int t = 0; t < 2; t++) {
        run_with(threads[t], "0", "-lockstep_skip 0\n", &o);
        for (int k = 0; k < 3; k++) {
            CHECK_MSG(o.st[k] == ref.st[k], "launch %d: %s", k, lockstep_status_name(o.st[k]));
            if (k == 2)
                continue;
            CHECK_MSG(!memcmp(&o.ls[k], &ref.ls[k], sizeof o.ls[k]),
                      "threads %s launch %d: statistics differ without skipping (cycles %llu vs "
                      "%llu, idle %llu vs %llu)",
                      threads[t], k, (unsigned long long)o.ls[k].t.cycles,
                      (unsigned long long)ref.ls[k].t.cycles,
                      (unsigned long long)o.ls[k].t.stall[LOCKSTEP_STALL_IDLE],
                      (unsigned long long)ref.ls[k].t.stall[LOCKSTEP_STALL_IDLE]);
        }
        CHECK(!memcmp(o.tickets, ref.tickets, sizeof o.tickets));
        CHECK(!memcmp(o.acc, ref.acc, sizeof o.acc));
        CHECK(!memcmp(o.heap, ref.heap, sizeof o.heap));
        CHECK_MSG(o.printf_len == ref.printf_len &&
                      !memcmp(o.printf_out, ref.printf_out, o.printf_len),
                  "threads %s: printf output differs without skipping:\n%s", threads[t],
                  o.printf_out);
        CHECK_MSG(!strcmp(o.fault, ref.fault), "fault\n%s\nvs\n%s", o.fault, ref.fault);
    }
}

/* With the seeded start skew, dispatch delay and clock drift off, breadth-
 * first dispatch puts CTA k on SM k and all fault in the same cycle: the
 * canonical first is SM 0's, on any number of threads. */
static void test_canonical_fault(void)
{
    static outcome o;
    const char *same_start = "-lockstep_sm_skew 0\n-lockstep_cta_delay 0\n-lockstep_clock_drift 0\n";
    const char *threads[] = {"1", "4"};
    for (int t = 0; t < 2; t++)
        for (int order = 0; order < 2; order++) {
            run_with(threads[t], order ? "1" : "0", same_start, &o);
            CHECK_MSG(o.st[2] == LOCKSTEP_ERROR_ILLEGAL_ADDRESS, "%s", lockstep_status_name(o.st[2]));
            CHECK_STR_CONTAINS(o.fault, "at CTA (0,0,0)");
        }
}

int main(void)
{
    RUN(test_same_on_any_threads);
    RUN(test_canonical_fault);
    RUN(test_skipping_is_exact);
    return test_summary();
}
