/*
 * demo.c -- lockstep's demo: load the PTX nvcc made from examples/saxpy.cu,
 * run its two kernels through the C API on a simulated GPU, check the
 * results against the CPU, and show what the simulator counted.
 *
 *   make demo            (runs: build/demo examples/saxpy.ptx)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lockstep.h"

#define CHECK_OK(call)                                                                     \
    do {                                                                                   \
        lockstep_status st_ = (call);                                                      \
        if (st_ != LOCKSTEP_SUCCESS) {                                                     \
            fprintf(stderr, "demo: %s failed: %s\n%s\n", #call, lockstep_status_name(st_), \
                    lockstep_device_last_error(dev));                                      \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *ptx = argc > 1 ? argv[1] : "examples/saxpy.ptx";
    lockstep_device *dev = NULL;
    if (lockstep_device_create(NULL, &dev) != LOCKSTEP_SUCCESS) {
        fprintf(stderr, "demo: cannot create a device\n");
        return 1;
    }
    printf("lockstep %s demo: running %s on a simulated GPU (functional mode)\n\n",
           lockstep_version(), ptx);
    lockstep_module *mod;
    CHECK_OK(lockstep_module_load_file(dev, ptx, &mod));

    /* saxpy over a million elements */
    int n = 1 << 20;
    float a = 2.5f;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *r = malloc(n * sizeof *r);
    if (!x || !y || !r)
        return 1;
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 1000) * 0.25f;
        y[i] = (float)(i % 77) - 30.0f;
    }
    lockstep_dptr dx, dy;
    CHECK_OK(lockstep_malloc(dev, n * sizeof(float), &dx));
    CHECK_OK(lockstep_malloc(dev, n * sizeof(float), &dy));
    CHECK_OK(lockstep_memcpy_htod(dev, dx, x, n * sizeof(float)));
    CHECK_OK(lockstep_memcpy_htod(dev, dy, y, n * sizeof(float)));
    lockstep_kernel *saxpy, *dot;
    CHECK_OK(lockstep_module_get_kernel(mod, "saxpy", &saxpy));
    CHECK_OK(lockstep_module_get_kernel(mod, "dot", &dot));
    void *args[] = {&n, &a, &dx, &dy};
    lockstep_launch_stats st;
    lockstep_dim3 grid = {(unsigned)(n + 255) / 256, 1, 1}, block = {256, 1, 1};
    double t0 = now();
    CHECK_OK(lockstep_launch_args(dev, saxpy, grid, block, 0, args, &st));
    double t1 = now();
    CHECK_OK(lockstep_synchronize(dev));
    CHECK_OK(lockstep_memcpy_dtoh(dev, r, dy, n * sizeof(float)));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += r[i] != fmaf(a, x[i], y[i]); /* nvcc contracts a*x+y into one fma */
    printf("saxpy  n=%d  grid %u x block %u: %s (%d of %d elements differ from the CPU)\n", n,
           grid.x, block.x, bad ? "WRONG" : "correct", bad, n);
    printf("       %llu warp instructions, %llu thread instructions, %.1f M warp insts/s\n\n",
           (unsigned long long)st.warp_insts, (unsigned long long)st.thread_insts,
           (double)st.warp_insts / (t1 - t0) / 1e6);

    /* integer dot product with a shared-memory reduction, atomics and printf */
    int *xi = malloc(n * sizeof *xi), *yi = malloc(n * sizeof *yi);
    if (!xi || !yi)
        return 1;
    unsigned long long want = 0, got = 0;
    for (int i = 0; i < n; i++) {
        xi[i] = i % 101 - 50;
        yi[i] = (i * 7) % 33 - 16;
        want += (unsigned long long)((long long)xi[i] * yi[i]);
    }
    lockstep_dptr dxi, dyi, dout;
    CHECK_OK(lockstep_malloc(dev, n * sizeof(int), &dxi));
    CHECK_OK(lockstep_malloc(dev, n * sizeof(int), &dyi));
    CHECK_OK(lockstep_malloc(dev, sizeof got, &dout));
    CHECK_OK(lockstep_memcpy_htod(dev, dxi, xi, n * sizeof(int)));
    CHECK_OK(lockstep_memcpy_htod(dev, dyi, yi, n * sizeof(int)));
    CHECK_OK(lockstep_memset(dev, dout, 0, sizeof got));
    void *dargs[] = {&dxi, &dyi, &dout, &n};
    lockstep_dim3 dgrid = {120, 1, 1};
    t0 = now();
    CHECK_OK(lockstep_launch_args(dev, dot, dgrid, block, 0, dargs, &st));
    t1 = now();
    CHECK_OK(lockstep_synchronize(dev)); /* delivers the kernel's printf */
    CHECK_OK(lockstep_memcpy_dtoh(dev, &got, dout, sizeof got));
    printf("dot    n=%d  grid %u x block %u: %s (GPU %lld, CPU %lld)\n", n, dgrid.x, block.x,
           got == want ? "correct" : "WRONG", (long long)got, (long long)want);
    printf("       %llu warp instructions, %llu thread instructions, %.1f M warp insts/s\n",
           (unsigned long long)st.warp_insts, (unsigned long long)st.thread_insts,
           (double)st.warp_insts / (t1 - t0) / 1e6);

    lockstep_device_destroy(dev);
    free(x);
    free(y);
    free(r);
    free(xi);
    free(yi);
    return bad || got != want;
}
