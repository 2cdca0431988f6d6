/*
 * test_sync.c -- runs tests/ptx/good/sync.ptx: named barriers with thread
 * counts (producer/consumer with bar.arrive, two independent groups),
 * bar.red reductions, exited threads not counted at a barrier, a three-way
 * divergent indirect call with an exit inside the callee, and a loop that
 * diverges on each of 20000 iterations without growing the SIMT stack.
 */
#include <stdio.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"

static lockstep_device *dev;
static lockstep_module *mod;

static int run(const char *name, unsigned threads, uint32_t *out, size_t words)
{
    lockstep_kernel *k;
    if (lockstep_module_get_kernel(mod, name, &k) != LOCKSTEP_SUCCESS)
        return -1;
    lockstep_dptr d;
    lockstep_malloc(dev, words * 4, &d);
    lockstep_memset(dev, d, 0xff, words * 4);
    void *args[] = {&d};
    lockstep_status st = lockstep_launch_args(dev, k, (lockstep_dim3){2, 1, 1},
                                              (lockstep_dim3){threads, 1, 1}, 0, args, NULL);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s: %s", name, lockstep_status_name(st),
              lockstep_device_last_error(dev));
    lockstep_memcpy_dtoh(dev, out, d, words * 4);
    lockstep_free(dev, d);
    return st == LOCKSTEP_SUCCESS ? 0 : -1;
}

static void test_producer_consumer(void)
{
    uint32_t out[128];
    if (run("producer_consumer", 128, out, 128))
        return;
    for (uint32_t t = 0; t < 128; t++)
        CHECK_MSG(out[t] == (t < 64 ? 1000 + 3 * t : 0), "tid %u: %u", t, out[t]);
}

static void test_reductions(void)
{
    uint32_t out[96 * 3];
    if (run("reductions", 96, out, 96 * 3))
        return;
    for (uint32_t t = 0; t < 96; t++) {
        CHECK_MSG(out[3 * t] == 32, "tid %u popc %u", t, out[3 * t]);
        CHECK_MSG(out[3 * t + 1] == 1, "tid %u and %u", t, out[3 * t + 1]);
        CHECK_MSG(out[3 * t + 2] == 1, "tid %u or %u", t, out[3 * t + 2]);
    }
}

static void test_exit_then_barrier(void)
{
    uint32_t out[256];
    if (run("exit_then_barrier", 256, out, 256))
        return;
    for (uint32_t t = 0; t < 256; t++) {
        /* box[0] holds whichever of tids 0 and 64 stored last (both map to it) */
        uint32_t want_a = t, want_b = 64 + t;
        if (t < 100)
            CHECK_MSG(out[t] == want_a || out[t] == want_b, "tid %u: %u", t, out[t]);
        else
            CHECK_MSG(out[t] == 0xffffffffu, "exited tid %u wrote %u", t, out[t]);
    }
}

static void test_divergent_indirect(void)
{
    uint32_t out[32];
    if (run("divergent_indirect", 32, out, 32))
        return;
    uint32_t back = 0xffffffffu & ~(1u << 13);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t f = t % 3 == 0 ? 2 * t : t % 3 == 1 ? t * t : t + 7;
        if (t == 13)
            CHECK_MSG(out[t] == 0xdead, "lane 13 should have exited: %u", out[t]);
        else
            CHECK_MSG(out[t] == f + back, "lane %u: %u, expected %u", t, out[t], f + back);
    }
}

static void test_long_divergent_loop(void)
{
    uint32_t out[32];
    if (run("long_divergent_loop", 32, out, 32))
        return;
    for (uint32_t t = 0; t < 32; t++)
        CHECK_MSG(out[t] == 5000, "lane %u: %u", t, out[t]);
}

static void test_two_groups(void)
{
    uint32_t out[128];
    if (run("two_groups", 128, out, 128))
        return;
    for (uint32_t t = 0; t < 128; t++) {
        uint32_t base = t < 64 ? 0 : 64;
        CHECK_MSG(out[t] == 10 * (base + (t % 64 + 1) % 64), "tid %u: %u", t, out[t]);
    }
}

int main(void)
{
    if (lockstep_device_create(NULL, &dev) != LOCKSTEP_SUCCESS)
        return 1;
    lockstep_status st = lockstep_module_load_file(dev, LOCKSTEP_SRC_DIR "/tests/ptx/good/sync.ptx", &mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s", lockstep_device_last_error(dev));
    if (st == LOCKSTEP_SUCCESS) {
        RUN(test_producer_consumer);
        RUN(test_reductions);
        RUN(test_exit_then_barrier);
        RUN(test_divergent_indirect);
        RUN(test_long_divergent_loop);
        RUN(test_two_groups);
    }
    lockstep_device_destroy(dev);
    return test_summary();
}
