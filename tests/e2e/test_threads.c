/*
 * test_threads.c -- no mutable global state: four host threads each create
 * their own device, load the same module and run the same kernels at the
 * same time; every thread must get the same outputs and the same counters
 * as a run on the main thread.  (Run under the sanitizer build in CI too.)
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"

#define N 50000
#define THREADS 4

static float x[N], y[N];
static int xi[N];

static void discard(void *ud, const char *text, size_t len)
{
    (void)ud;
    (void)text;
    (void)len;
}

typedef struct job {
    unsigned long long dot;
    float y[64];
    lockstep_launch_stats st1, st2;
    int ok;
} job;

static void *run(void *arg)
{
    job *j = arg;
    j->ok = 0;
    lockstep_device *dev;
    if (lockstep_device_create(NULL, &dev))
        return NULL;
    lockstep_device_set_printf_output(dev, discard, NULL);
    lockstep_module *mod;
    lockstep_kernel *saxpy, *dot;
    if (lockstep_module_load_file(dev, LOCKSTEP_SRC_DIR "/examples/saxpy.ptx", &mod) ||
        lockstep_module_get_kernel(mod, "saxpy", &saxpy) ||
        lockstep_module_get_kernel(mod, "dot", &dot)) {
        lockstep_device_destroy(dev);
        return NULL;
    }
    lockstep_dptr dx, dy, dxi, dout;
    int n = N;
    float a = 1.5f;
    unsigned long long zero = 0;
    lockstep_malloc(dev, sizeof x, &dx);
    lockstep_malloc(dev, sizeof y, &dy);
    lockstep_malloc(dev, sizeof xi, &dxi);
    lockstep_malloc(dev, 8, &dout);
    lockstep_memcpy_htod(dev, dx, x, sizeof x);
    lockstep_memcpy_htod(dev, dy, y, sizeof y);
    lockstep_memcpy_htod(dev, dxi, xi, sizeof xi);
    lockstep_memcpy_htod(dev, dout, &zero, 8);
    void *a1[] = {&n, &a, &dx, &dy};
    void *a2[] = {&dxi, &dxi, &dout, &n};
    if (lockstep_launch_args(dev, saxpy, (lockstep_dim3){(N + 127) / 128, 1, 1}, (lockstep_dim3){128, 1, 1}, 0, a1, &j->st1) ||
        lockstep_launch_args(dev, dot, (lockstep_dim3){30, 1, 1}, (lockstep_dim3){256, 1, 1}, 0, a2, &j->st2)) {
        lockstep_device_destroy(dev);
        return NULL;
    }
    lockstep_memcpy_dtoh(dev, j->y, dy, sizeof j->y);
    lockstep_memcpy_dtoh(dev, &j->dot, dout, 8);
    lockstep_device_destroy(dev);
    j->ok = 1;
    return NULL;
}

static void test_parallel_devices(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 97) * 0.5f;
        y[i] = (float)(i % 13) - 6.0f;
        xi[i] = i % 41 - 20;
    }
    job ref, jobs[THREADS];
    memset(&ref, 0, sizeof ref);
    run(&ref);
    CHECK(ref.ok);
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&th[i], NULL, run, &jobs[i]) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < THREADS; i++) {
        CHECK(jobs[i].ok);
        CHECK(jobs[i].dot == ref.dot);
        CHECK(!memcmp(jobs[i].y, ref.y, sizeof ref.y));
        CHECK(!memcmp(&jobs[i].st1, &ref.st1, sizeof ref.st1));
        CHECK(!memcmp(&jobs[i].st2, &ref.st2, sizeof ref.st2));
    }
    CHECK(ref.st1.warp_insts > 0 && ref.st2.warp_insts > 0);
    unsigned long long want = 0;
    for (int i = 0; i < N; i++)
        want += (unsigned long long)((long long)xi[i] * xi[i]);
    CHECK_EQ_U64(ref.dot, want);
    CHECK(ref.y[5] == 1.5f * x[5] + y[5]);
}

int main(void)
{
    RUN(test_parallel_devices);
    return test_summary();
}
