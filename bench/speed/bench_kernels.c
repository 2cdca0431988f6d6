/*
 * bench_kernels.c -- simulation speed on five kernels (bench/speed/
 * kernels.ptx) through the C API on one host thread, in functional mode
 * and on the timing model: simulated warp and thread instructions per
 * host second (and, in timing mode, cycles per second).
 *
 *   make bench                             (both modes, best of 3 runs each)
 *   build/bench_kernels --mode functional  (one mode; --json: a JSON array)
 *
 * Every row names its mode: the device's default is the timing model, so a
 * benchmark that did not say would silently measure that.  Each kernel's
 * result is checked against the CPU so a fast wrong answer cannot pass as
 * speed.  Times are host wall-clock (CLOCK_MONOTONIC).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep.h"

static lockstep_device *dev;
static lockstep_module *mod;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *what)
{
    fprintf(stderr, "bench_kernels: %s: %s\n", what, lockstep_device_last_error(dev));
    exit(1);
}

static lockstep_dptr dalloc(size_t n)
{
    lockstep_dptr p;
    if (lockstep_malloc(dev, n, &p))
        die("malloc");
    return p;
}

typedef struct result {
    const char *name;
    const char *shape;
    double seconds;
    lockstep_launch_stats st;
    int ok;
} result;

/* Launch `reps` times, keep the fastest. */
static void timed(result *r, const char *kname, lockstep_dim3 g, lockstep_dim3 b, void **args,
                  int reps)
{
    lockstep_kernel *k;
    if (lockstep_module_get_kernel(mod, kname, &k))
        die(kname);
    r->seconds = 1e30;
    for (int i = 0; i < reps; i++) {
        lockstep_launch_stats st;
        double t0 = now();
        if (lockstep_launch_args(dev, k, g, b, 0, args, &st))
            die(kname);
        double t = now() - t0;
        if (t < r->seconds) {
            r->seconds = t;
            r->st = st;
        }
    }
}

static void bench_alu(result *r, int reps)
{
    int blocks = 60, threads = 256, iters = 400;
    lockstep_dptr out = dalloc((size_t)blocks * threads * 4);
    void *args[] = {&out, &iters};
    r->name = "alu_fma";
    r->shape = "60x256, 400 iterations";
    timed(r, "alu_fma", (lockstep_dim3){blocks, 1, 1}, (lockstep_dim3){threads, 1, 1}, args, reps);
    float *h = malloc((size_t)blocks * threads * 4);
    lockstep_memcpy_dtoh(dev, h, out, (size_t)blocks * threads * 4);
    r->ok = 1;
    for (int t = 0; t < blocks * threads && r->ok; t += 997) {
        int tid = t % threads, bid = t / threads;
        float a = tid * 0.001f, b = 0.999f, c = 0.25f;
        unsigned x = (unsigned)tid * 2654435761u + (unsigned)bid;
        for (int i = 0; i < iters; i++) {
            a = fmaf(a, b, c);
            x = x * 1664525u + 1013904223u;
            c = fmaf(c, 0.5f, (float)(x >> 20) * 1e-3f);
            b = fmaf(b, 0.9999f, 1e-4f);
        }
        r->ok = h[t] == a + c + (float)x;
    }
    free(h);
}

static void bench_triad(result *r, int reps)
{
    int n = 1 << 21;
    float s = 3.0f;
    float *h = malloc((size_t)n * 4);
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 1000);
    lockstep_dptr a = dalloc((size_t)n * 4), b = dalloc((size_t)n * 4), c = dalloc((size_t)n * 4);
    lockstep_memcpy_htod(dev, a, h, (size_t)n * 4);
    lockstep_memcpy_htod(dev, b, h, (size_t)n * 4);
    void *args[] = {&a, &b, &c, &s, &n};
    r->name = "triad";
    r->shape = "8192x256, 2M floats";
    timed(r, "triad", (lockstep_dim3){(unsigned)n / 256, 1, 1}, (lockstep_dim3){256, 1, 1}, args, reps);
    lockstep_memcpy_dtoh(dev, h, c, (size_t)n * 4);
    r->ok = 1;
    for (int i = 0; i < n && r->ok; i++)
        r->ok = h[i] == fmaf(s, (float)(i % 1000), (float)(i % 1000));
    free(h);
}

static void bench_reduce(result *r, int reps)
{
    int n = 1 << 20, blocks = n / 256;
    float *h = malloc((size_t)n * 4);
    for (int i = 0; i < n; i++)
        h[i] = 1.0f;
    lockstep_dptr in = dalloc((size_t)n * 4), out = dalloc((size_t)blocks * 4);
    lockstep_memcpy_htod(dev, in, h, (size_t)n * 4);
    void *args[] = {&in, &out, &n};
    r->name = "block_reduce";
    r->shape = "4096x256";
    timed(r, "block_reduce", (lockstep_dim3){(unsigned)blocks, 1, 1}, (lockstep_dim3){256, 1, 1}, args, reps);
    lockstep_memcpy_dtoh(dev, h, out, (size_t)blocks * 4);
    r->ok = 1;
    for (int i = 0; i < blocks && r->ok; i++)
        r->ok = h[i] == 256.0f;
    free(h);
}

static unsigned collatz_ref(unsigned long long v)
{
    unsigned k = 0;
    while (v != 1 && k < 1000) {
        v = (v & 1) ? 3 * v + 1 : v / 2;
        k++;
    }
    return k;
}

static void bench_collatz(result *r, int reps)
{
    int n = 1 << 17;
    unsigned *h = malloc((size_t)n * 4);
    for (int i = 0; i < n; i++)
        h[i] = (unsigned)i + 1;
    lockstep_dptr in = dalloc((size_t)n * 4), out = dalloc((size_t)n * 4);
    lockstep_memcpy_htod(dev, in, h, (size_t)n * 4);
    void *args[] = {&in, &out, &n};
    r->name = "collatz";
    r->shape = "512x256, divergent loops";
    timed(r, "collatz", (lockstep_dim3){(unsigned)n / 256, 1, 1}, (lockstep_dim3){256, 1, 1}, args, reps);
    lockstep_memcpy_dtoh(dev, h, out, (size_t)n * 4);
    r->ok = 1;
    for (int i = 0; i < n && r->ok; i += 61)
        r->ok = h[i] == collatz_ref((unsigned long long)i + 1);
    free(h);
}

static void bench_matmul(result *r, int reps)
{
    int n = 256;
    float *A = malloc((size_t)n * n * 4), *B = malloc((size_t)n * n * 4), *C = malloc((size_t)n * n * 4);
    for (int i = 0; i < n * n; i++) {
        A[i] = (float)(i % 7) - 3.0f;
        B[i] = (float)(i % 5) - 2.0f;
    }
    lockstep_dptr dA = dalloc((size_t)n * n * 4), dB = dalloc((size_t)n * n * 4), dC = dalloc((size_t)n * n * 4);
    lockstep_memcpy_htod(dev, dA, A, (size_t)n * n * 4);
    lockstep_memcpy_htod(dev, dB, B, (size_t)n * n * 4);
    void *args[] = {&dA, &dB, &dC, &n};
    r->name = "matmul";
    r->shape = "256x256, 16x16 tiles";
    timed(r, "matmul", (lockstep_dim3){(unsigned)n / 16, (unsigned)n / 16, 1}, (lockstep_dim3){16, 16, 1}, args, reps);
    lockstep_memcpy_dtoh(dev, C, dC, (size_t)n * n * 4);
    r->ok = 1;
    for (int i = 0; i < n && r->ok; i += 17)
        for (int j = 0; j < n && r->ok; j += 13) {
            float acc = 0; /* small integers: exact in any order */
            for (int k = 0; k < n; k++)
                acc += A[i * n + k] * B[k * n + j];
            r->ok = C[i * n + j] == acc;
        }
    free(A);
    free(B);
    free(C);
}

/* Run the five kernels in one mode; print rows (JSON objects when json,
 * `first` says whether one was printed before).  0, or 1 if a check failed. */
static const char *only; /* --kernel: just this one */

static int run_mode(const char *mode, int reps, int json, int *first)
{
    lockstep_config *cfg;
    if (lockstep_config_create(&cfg) || lockstep_config_set(cfg, "-lockstep_mode", mode))
        return 1;
    if (lockstep_device_create(cfg, &dev))
        return 1;
    lockstep_config_destroy(cfg);
    if (lockstep_module_load_file(dev, LOCKSTEP_SRC_DIR "/bench/speed/kernels.ptx", &mod))
        die("load");
    result r[5];
    memset(r, 0, sizeof r);
    void (*const fns[5])(result *, int) = {bench_alu, bench_triad, bench_reduce, bench_collatz,
                                            bench_matmul};
    static const char *const names[5] = {"alu_fma", "triad", "block_reduce", "collatz", "matmul"};
    int ran[5] = {0};
    for (int i = 0; i < 5; i++)
        if (!only || !strcmp(only, names[i])) {
            fns[i](&r[i], reps);
            ran[i] = 1;
        }
    int bad = 0;
    for (int i = 0; i < 5; i++) {
        if (!ran[i])
            continue;
        double wps = (double)r[i].st.warp_insts / r[i].seconds / 1e6;
        double tps = (double)r[i].st.thread_insts / r[i].seconds / 1e6;
        double cps = (double)r[i].st.t.cycles / r[i].seconds / 1e6;
        bad |= !r[i].ok;
        if (json) {
            printf("%s  {\"mode\": \"%s\", \"name\": \"%s\", \"warp_insts\": %llu, "
                   "\"thread_insts\": %llu, \"cycles\": %llu, \"host_seconds\": %.6f, "
                   "\"warp_insts_per_sec\": %.0f, \"thread_insts_per_sec\": %.0f, "
                   "\"cycles_per_sec\": %.0f, \"check\": \"%s\"}",
                   *first ? "" : ",\n", mode, r[i].name, (unsigned long long)r[i].st.warp_insts,
                   (unsigned long long)r[i].st.thread_insts, (unsigned long long)r[i].st.t.cycles,
                   r[i].seconds, wps * 1e6, tps * 1e6, cps * 1e6, r[i].ok ? "pass" : "fail");
            *first = 0;
        } else {
            printf("%-10s %-13s %-26s %12llu %14llu %8.3f %12.2f %14.1f %10.2f %5s\n", mode,
                   r[i].name, r[i].shape, (unsigned long long)r[i].st.warp_insts,
                   (unsigned long long)r[i].st.thread_insts, r[i].seconds, wps, tps, cps,
                   r[i].ok ? "pass" : "FAIL");
        }
    }
    lockstep_device_destroy(dev);
    dev = NULL;
    return bad;
}

int main(int argc, char **argv)
{
    int json = 0, reps = 3;
    const char *mode = "both";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--mode") && i + 1 < argc)
            mode = argv[++i];
        else if (!strcmp(argv[i], "--kernel") && i + 1 < argc)
            only = argv[++i];
        else {
            fprintf(stderr, "usage: bench_kernels [--mode functional|timing|both] [--kernel NAME] "
                            "[--json] [--reps N]\n");
            return 2;
        }
    }
    if (strcmp(mode, "both") && strcmp(mode, "functional") && strcmp(mode, "timing")) {
        fprintf(stderr, "bench_kernels: --mode %s: expected functional, timing or both\n", mode);
        return 2;
    }
    if (reps < 1)
        reps = 1;
    if (json)
        printf("[\n");
    else
        printf("%-10s %-13s %-26s %12s %14s %8s %12s %14s %10s %5s\n", "mode", "kernel", "shape",
               "warp insts", "thread insts", "seconds", "Mwarp-ins/s", "Mthread-ins/s",
               "Mcycles/s", "check");
    int bad = 0, first = 1;
    if (strcmp(mode, "timing"))
        bad |= run_mode("functional", reps, json, &first);
    if (strcmp(mode, "functional"))
        bad |= run_mode("timing", reps, json, &first);
    if (json)
        printf("\n]\n");
    return bad;
}
