/*
 * native_runner.c -- run the conformance kernels on a real NVIDIA GPU and
 * write the golden file that lockstep's test compares against.
 *
 *   native_runner CONF_DIR GOLDEN_OUT
 *
 * CONF_DIR holds conf.ptx, cases.txt and inputs.bin (written by gen.py).
 * Uses only the CUDA driver API: the PTX is JIT-compiled for whatever GPU is
 * present (cuModuleLoadDataEx; the JIT error log is printed on failure).  If
 * the whole module does not load, every case is loaded on its own, so one
 * instruction the JIT rejects costs one case.  Each case is launched RUNS
 * times; a case whose runs differ, whose launch fails or times out, or whose
 * results have bits set above the case's width is recorded as missing (with
 * the reason) instead of stopping the run.  A launch error may leave the
 * context unusable, so after one the primary context is reset and set up
 * again.
 *
 * NATIVE_RUNNER_PER_CASE=1 in the environment forces the per-case loads
 * (to check that path).
 *
 * Exit status: 0 all cases ok; 1 golden written but some cases missing;
 * 2 nothing written (bad inputs, no GPU).  Built by run_native.sh.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <cuda.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conf_format.h"

#define LAUNCH_TIMEOUT_S 20.0
#define RUNS 4 /* launches per case; all must agree */
#define JIT_LOG_BYTES (64 * 1024)

/* Everything the run needs, in one place (no globals). */
typedef struct runner {
    const char *dir;
    char *ptx;              /* conf.ptx text */
    size_t hdr_len;         /* module header length in ptx */
    conf_case *cases;
    size_t ncases;
    unsigned char *inbuf;   /* inputs.bin */
    conf_set *sets;
    size_t nsets;
    CUdevice dev;
    CUcontext ctx;
    int ctx_up;
    CUmodule whole;         /* the whole module, or NULL in per-case mode */
    int per_case;           /* whole module failed to load */
    size_t maxn;
    CUdeviceptr buf[4];     /* out, a, b, c */
    unsigned char *host;    /* staging, maxn * 8 bytes */
    unsigned char *first;   /* first run's results */
    /* results */
    unsigned char **data;   /* per case: n * width bytes, NULL if missing */
    char (*note)[64];
    char jitlog[JIT_LOG_BYTES];
} runner;

static const char *cu_err(CUresult r)
{
    const char *s = NULL;
    if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s)
        return "unknown CUDA error";
    return s;
}

__attribute__((format(printf, 3, 4))) static void set_note(runner *R, size_t i,
                                                           const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(R->note[i], sizeof R->note[i], fmt, ap);
    va_end(ap);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* JIT-compile PTX text; on failure print the log and return the error. */
static CUresult load_module(runner *R, const char *text, CUmodule *mod, const char *what)
{
    CUjit_option opt[3] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_LOG_VERBOSE};
    void *val[3] = {R->jitlog, (void *)(uintptr_t)sizeof R->jitlog, (void *)(uintptr_t)0};
    R->jitlog[0] = 0;
    CUresult r = cuModuleLoadDataEx(mod, text, 3, opt, val);
    if (r != CUDA_SUCCESS) {
        *mod = NULL;
        fprintf(stderr, "native_runner: %s: cuModuleLoadDataEx failed: %s\n%s\n", what,
                cu_err(r), R->jitlog);
    }
    return r;
}

/* Release device state; with reset, also reset the primary context. */
static void ctx_down(runner *R, int reset)
{
    if (R->ctx_up) {
        for (int i = 0; i < 4; i++)
            if (R->buf[i])
                cuMemFree(R->buf[i]);
        if (R->whole)
            cuModuleUnload(R->whole);
        cuDevicePrimaryCtxRelease(R->dev);
    }
    memset(R->buf, 0, sizeof R->buf);
    R->whole = NULL;
    R->ctx_up = 0;
    if (reset) {
        CUresult r = cuDevicePrimaryCtxReset(R->dev);
        if (r != CUDA_SUCCESS)
            fprintf(stderr, "native_runner: cuDevicePrimaryCtxReset: %s\n", cu_err(r));
    }
}

/* Make the primary context current, allocate buffers, load the module. */
static int ctx_setup(runner *R)
{
    CUresult r = cuDevicePrimaryCtxRetain(&R->ctx, R->dev);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "native_runner: cuDevicePrimaryCtxRetain: %s\n", cu_err(r));
        return -1;
    }
    R->ctx_up = 1;
    if ((r = cuCtxSetCurrent(R->ctx)) != CUDA_SUCCESS) {
        fprintf(stderr, "native_runner: cuCtxSetCurrent: %s\n", cu_err(r));
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        if ((r = cuMemAlloc(&R->buf[i], R->maxn * 8)) != CUDA_SUCCESS) {
            fprintf(stderr, "native_runner: cuMemAlloc: %s\n", cu_err(r));
            return -1;
        }
    }
    if (!R->per_case && load_module(R, R->ptx, &R->whole, "conf.ptx") != CUDA_SUCCESS) {
        fprintf(stderr, "native_runner: the whole module failed to load; "
                        "loading every case on its own\n");
        R->per_case = 1;
    }
    return 0;
}

/* Wait for the launch with a timeout; CUDA_ERROR_NOT_READY means it hung. */
static CUresult wait_launch(void)
{
    double t0 = now_s();
    struct timespec nap = {0, 200000};
    for (;;) {
        CUresult r = cuStreamQuery(NULL);
        if (r != CUDA_ERROR_NOT_READY)
            return r == CUDA_SUCCESS ? cuCtxSynchronize() : r;
        if (now_s() - t0 > LAUNCH_TIMEOUT_S)
            return CUDA_ERROR_NOT_READY;
        nanosleep(&nap, NULL);
    }
}

/* Upload the inputs, launch once, download into `dst`.  Returns the CUDA
 * status; *stage names the step that failed. */
static CUresult launch_once(runner *R, const conf_case *c, const conf_set *s, CUfunction fn,
                            unsigned char *dst, const char **stage)
{
    CUresult r;
    size_t bytes = (size_t)c->n * 8;
    *stage = "upload";
    if ((r = cuMemcpyHtoD(R->buf[1], s->a, bytes)) != CUDA_SUCCESS ||
        (r = cuMemcpyHtoD(R->buf[2], s->b, bytes)) != CUDA_SUCCESS ||
        (r = cuMemcpyHtoD(R->buf[3], s->c, bytes)) != CUDA_SUCCESS ||
        (r = cuMemsetD8(R->buf[0], 0xA5, bytes)) != CUDA_SUCCESS)
        return r;
    unsigned n = c->n;
    void *args[5] = {&R->buf[0], &R->buf[1], &R->buf[2], &R->buf[3], &n};
    unsigned grid = (c->n + c->block - 1) / c->block;
    *stage = "launch";
    if ((r = cuLaunchKernel(fn, grid, 1, 1, c->block, 1, 1, 0, NULL, args, NULL)) !=
        CUDA_SUCCESS)
        return r;
    *stage = "execution";
    if ((r = wait_launch()) != CUDA_SUCCESS)
        return r;
    *stage = "download";
    return cuMemcpyDtoH(dst, R->buf[0], bytes);
}

/* Run case i; on success R->data[i] holds its results.  Returns -1 if the
 * context must be reset, -2 if the GPU hung (stop), 0 otherwise. */
static int run_case(runner *R, size_t i)
{
    const conf_case *c = &R->cases[i];
    const conf_set *s = conf_find_set(R->sets, R->nsets, c->set);
    CUmodule own = NULL;
    CUfunction fn;
    CUresult r;
    const char *stage = "";
    int ret = 0;

    if (!s || s->n != c->n) {
        set_note(R, i, "input set %s missing or of the wrong size", c->set);
        return 0;
    }
    if (R->per_case) {
        size_t off, len;
        if (conf_ptx_case(R->ptx, c->name, &off, &len) != 0) {
            set_note(R, i, "kernel text not found in conf.ptx");
            return 0;
        }
        char *text = (char *)malloc(R->hdr_len + len + 2);
        if (!text) {
            set_note(R, i, "out of memory");
            return 0;
        }
        memcpy(text, R->ptx, R->hdr_len);
        memcpy(text + R->hdr_len, R->ptx + off, len);
        memcpy(text + R->hdr_len + len, "\n", 2);
        r = load_module(R, text, &own, c->name);
        free(text);
        if (r != CUDA_SUCCESS) {
            set_note(R, i, "JIT: %s", cu_err(r));
            return 0;
        }
    }
    r = cuModuleGetFunction(&fn, own ? own : R->whole, c->name);
    if (r != CUDA_SUCCESS) {
        set_note(R, i, "cuModuleGetFunction: %s", cu_err(r));
        goto done;
    }
    for (int run = 0; run < RUNS; run++) {
        r = launch_once(R, c, s, fn, run ? R->host : R->first, &stage);
        if (r != CUDA_SUCCESS) {
            set_note(R, i, "%s: %s", stage, cu_err(r));
            ret = r == CUDA_ERROR_NOT_READY ? -2 : -1;
            goto done;
        }
        if (run && memcmp(R->first, R->host, (size_t)c->n * 8) != 0) {
            set_note(R, i, "runs gave different results (order-dependent case)");
            goto done;
        }
    }
    for (unsigned k = 0; k < c->n; k++) {
        uint64_t v = conf_rd64(R->host + 8 * (size_t)k);
        if (c->width < 8 && (v >> (8 * c->width)) != 0) {
            set_note(R, i, "out[%u] = 0x%016llx has bits above width %u", k,
                     (unsigned long long)v, c->width);
            goto done;
        }
    }
    R->data[i] = (unsigned char *)malloc((size_t)c->n * c->width);
    if (!R->data[i]) {
        set_note(R, i, "out of memory");
        goto done;
    }
    for (unsigned k = 0; k < c->n; k++)
        memcpy(R->data[i] + (size_t)k * c->width, R->host + 8 * (size_t)k, c->width);
done:
    if (own)
        cuModuleUnload(own);
    return ret;
}

static int write_golden(runner *R, const char *path, const char *devname, int drv, int ccmaj,
                        int ccmin)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return -1;
    }
    unsigned char h[CONF_GOLDEN_HEADER_BYTES] = {0};
    memcpy(h, CONF_GOLDEN_MAGIC, 8);
    conf_wr32(h + 8, CONF_GOLDEN_VERSION);
    conf_wr32(h + 12, (uint32_t)R->ncases);
    memcpy(h + 16, devname, strnlen(devname, 95));
    conf_wr32(h + 112, (uint32_t)drv);
    conf_wr32(h + 116, (uint32_t)ccmaj);
    conf_wr32(h + 120, (uint32_t)ccmin);
    int ok = fwrite(h, sizeof h, 1, f) == 1;
    for (size_t i = 0; i < R->ncases && ok; i++) {
        const conf_case *c = &R->cases[i];
        unsigned char rec[CONF_GOLDEN_RECORD_BYTES] = {0};
        memcpy(rec, c->name, strnlen(c->name, 63));
        if (!R->data[i])
            memcpy(rec + 64, R->note[i], strnlen(R->note[i], 63));
        conf_wr64(rec + 128, c->hash);
        conf_wr32(rec + 136, R->data[i] ? CONF_OK : CONF_MISSING);
        conf_wr32(rec + 140, c->width);
        conf_wr32(rec + 144, c->n);
        ok = fwrite(rec, sizeof rec, 1, f) == 1;
        if (ok && R->data[i])
            ok = fwrite(R->data[i], (size_t)c->n * c->width, 1, f) == 1;
    }
    if (fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "native_runner: writing %s failed\n", path);
    return ok ? 0 : -1;
}

static char *read_text(const char *dir, const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *t = (char *)conf_read_file(path, len);
    if (!t)
        fprintf(stderr, "native_runner: cannot read %s\n", path);
    return t;
}

int main(int argc, char **argv)
{
    runner *Rp = (runner *)calloc(1, sizeof *Rp);
    char err[256], devname[96] = "";
    size_t len;
    int drv = 0, ccmaj = 0, ccmin = 0;
    CUresult r;

    if (argc != 3) {
        fprintf(stderr, "usage: native_runner CONF_DIR GOLDEN_OUT\n");
        return 2;
    }
    if (!Rp) {
        fprintf(stderr, "native_runner: out of memory\n");
        return 2;
    }
#define R (*Rp)
    R.dir = argv[1];
    char *cases_txt = read_text(R.dir, "cases.txt", &len);
    R.ptx = read_text(R.dir, "conf.ptx", &len);
    R.inbuf = (unsigned char *)read_text(R.dir, "inputs.bin", &len);
    if (!cases_txt || !R.ptx || !R.inbuf)
        return 2;
    if (conf_parse_cases(cases_txt, &R.cases, &R.ncases, err, sizeof err) != 0 ||
        conf_parse_inputs(R.inbuf, len, &R.sets, &R.nsets, err, sizeof err) != 0) {
        fprintf(stderr, "native_runner: %s\n", err);
        return 2;
    }
    R.hdr_len = conf_ptx_header_len(R.ptx);
    R.per_case = getenv("NATIVE_RUNNER_PER_CASE") != NULL;
    for (size_t i = 0; i < R.ncases; i++)
        if (R.cases[i].n > R.maxn)
            R.maxn = R.cases[i].n;
    R.host = (unsigned char *)malloc(R.maxn * 8);
    R.first = (unsigned char *)malloc(R.maxn * 8);
    R.data = (unsigned char **)calloc(R.ncases, sizeof *R.data);
    R.note = (char(*)[64])calloc(R.ncases, sizeof *R.note);
    if (!R.host || !R.first || !R.data || !R.note) {
        fprintf(stderr, "native_runner: out of memory\n");
        return 2;
    }

    if ((r = cuInit(0)) != CUDA_SUCCESS || (r = cuDeviceGet(&R.dev, 0)) != CUDA_SUCCESS) {
        fprintf(stderr, "native_runner: no CUDA device: %s\n", cu_err(r));
        return 2;
    }
    cuDeviceGetName(devname, sizeof devname, R.dev);
    cuDriverGetVersion(&drv);
    cuDeviceGetAttribute(&ccmaj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, R.dev);
    cuDeviceGetAttribute(&ccmin, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, R.dev);
    printf("native_runner: %s (sm_%d%d), driver %d, %zu cases\n", devname, ccmaj, ccmin, drv,
           R.ncases);
    if (ctx_setup(&R) != 0)
        return 2;

    double t0 = now_s();
    size_t ok = 0, missing = 0;
    int hung = 0;
    for (size_t i = 0; i < R.ncases; i++) {
        if (hung) {
            set_note(&R, i, "not run: an earlier kernel hung");
        } else {
            int rc = run_case(&R, i);
            if (rc == -2) {
                hung = 1;
            } else if (rc == -1) {
                ctx_down(&R, 1);
                if (ctx_setup(&R) != 0) {
                    fprintf(stderr, "native_runner: cannot set the context up again\n");
                    hung = 1;
                }
            }
        }
        if (R.data[i]) {
            ok++;
        } else {
            missing++;
            printf("MISSING %s: %s\n", R.cases[i].name, R.note[i]);
        }
    }
    printf("native_runner: %zu ok, %zu missing, %.1f s%s\n", ok, missing, now_s() - t0,
           R.per_case ? " (per-case module loads)" : "");
    int wrc = write_golden(&R, argv[2], devname, drv, ccmaj, ccmin);
    if (wrc == 0)
        printf("native_runner: wrote %s\n", argv[2]);
    fflush(stdout);
    if (hung)
        _Exit(wrc ? 2 : 1); /* a hung kernel can block context teardown */
    ctx_down(&R, 0);
    for (size_t i = 0; i < R.ncases; i++)
        free(R.data[i]);
    free(R.data);
    free(R.note);
    free(R.host);
    free(R.first);
    free(R.sets);
    free(R.cases);
    free(R.inbuf);
    free(R.ptx);
    free(cases_txt);
    free(Rp);
#undef R
    if (wrc)
        return 2;
    return missing ? 1 : 0;
}
