/*
 * test_runtime.c -- the CUDA runtime replacement driven directly, without
 * nvcc: a synthetic fat binary with hand-written PTX is registered the way
 * nvcc's start-up code does it, then kernels are launched through
 * cudaLaunchKernel and through the <<<>>> entry points, and the runtime's
 * semantics are checked: results, device variables, sticky kernel faults
 * and cudaDeviceReset, copies with wrong kinds or freed pointers (errors,
 * never host accesses), events on the simulated clock, managed memory,
 * error names, and the stubs of unimplemented functions.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart/cuda_abi.h"
#include "cudart/cuda_api.h"
#include "ptx_fatbin.h"
#include "test.h"

/* entry points the program's start-up code calls (declared by nvcc's headers) */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid, void *bid,
                            void *bDim, void *gDim, int *wSize);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName,
                       int ext, size_t size, int constant, int global);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, void *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream);
cudaError_t cudaMallocMipmappedArray(void *array, const void *desc, size_t w, size_t h, size_t d,
                                     unsigned flags); /* a stub */

static const char ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".global .align 4 .u32 counter = 5;\n"
    ".visible .entry scale(.param .u64 p, .param .u32 n, .param .u32 k)\n{\n"
    "  .reg .b32 %r<6>; .reg .b64 %rd<4>; .reg .pred %p1;\n"
    "  ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [n]; ld.param.u32 %r2, [k];\n"
    "  mov.u32 %r3, %tid.x; mov.u32 %r4, %ctaid.x; mov.u32 %r5, %ntid.x;\n"
    "  mad.lo.s32 %r3, %r4, %r5, %r3; setp.ge.u32 %p1, %r3, %r1; @%p1 bra DONE;\n"
    "  mul.wide.u32 %rd2, %r3, 4; add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.u32 %r4, [%rd3]; ld.global.u32 %r5, [counter]; mad.lo.s32 %r4, %r4, %r2, %r5;\n"
    "  st.u32 [%rd3], %r4;\nDONE:\n  ret;\n}\n"
    ".visible .entry oob(.param .u64 p)\n{\n"
    "  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n  st.global.u32 [%rd1+4096], 1;\n  ret;\n}\n"
    /* the grid workspace's address, as cooperative groups reads it */
    ".visible .entry ws(.param .u64 p)\n{\n"
    "  .reg .b32 %r<3>; .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n"
    "  mov.u32 %r1, %envreg1; mov.u32 %r2, %envreg2;\n"
    "  st.global.v2.u32 [%rd1], {%r2, %r1};\n  ret;\n}\n";

/* a fat binary holding ptx, laid out as nvcc 13's (see src/cudart/fatbin.c) */
static _Alignas(8) unsigned char fatbin[4096];
static fatbin_wrapper wrapper;
static char host_scale, host_oob, host_ws; /* stand-ins for the host stubs */
static unsigned host_counter;     /* the shadow of `counter` */

static void build_fatbin(void)
{
    CHECK(ptx_fatbin(ptx, sizeof ptx, fatbin, sizeof fatbin, &wrapper) == 0);
}

static void test_register_and_launch(void)
{
    build_fatbin();
    void **h = __cudaRegisterFatBinary(&wrapper);
    CHECK(h != NULL);
    __cudaRegisterFunction(h, &host_scale, (char *)"scale", "scale", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(h, &host_oob, (char *)"oob", "oob", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(h, &host_ws, (char *)"ws", "ws", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterVar(h, (char *)&host_counter, (char *)"counter", "counter", 0, 4, 0, 0);
    __cudaRegisterFatBinaryEnd(h);

    unsigned *d = NULL, hbuf[100];
    for (int i = 0; i < 100; i++)
        hbuf[i] = (unsigned)i;
    CHECK(cudaMalloc((void **)&d, sizeof hbuf) == cudaSuccess);
    CHECK(cudaMemcpy(d, hbuf, sizeof hbuf, cudaMemcpyHostToDevice) == cudaSuccess);
    unsigned n = 100, k = 3, c = 10;
    CHECK(cudaMemcpyToSymbol(&host_counter, &c, 4, 0, cudaMemcpyHostToDevice) == cudaSuccess);
    void *args[] = {&d, &n, &k};
    /* the explicit launch */
    CHECK(cudaLaunchKernel(&host_scale, (dim3){4, 1, 1}, (dim3){32, 1, 1}, args, 0, NULL) == cudaSuccess);
    /* and the <<<>>> path */
    CHECK(__cudaPushCallConfiguration((dim3){1, 1, 1}, (dim3){128, 1, 1}, 0, NULL) == 0);
    dim3 g, b;
    size_t shm;
    cudaStream_t s;
    CHECK(__cudaPopCallConfiguration(&g, &b, &shm, &s) == cudaSuccess);
    CHECK(g.x == 1 && b.x == 128 && shm == 0 && s == NULL);
    CHECK(__cudaPopCallConfiguration(&g, &b, &shm, &s) == cudaErrorMissingConfiguration);
    cudaKernel_t kh;
    CHECK(__cudaGetKernel(&kh, &host_scale) == cudaSuccess);
    CHECK(__cudaLaunchKernel(kh, g, b, args, shm, s) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaMemcpy(hbuf, d, sizeof hbuf, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (unsigned i = 0; i < 100; i++)
        CHECK_EQ_U64(hbuf[i], (i * 3 + 10) * 3 + 10);
    unsigned got = 0;
    CHECK(cudaMemcpyFromSymbol(&got, &host_counter, 4, 0, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK_EQ_U64(got, 10);
    void *addr;
    CHECK(cudaGetSymbolAddress(&addr, &host_counter) == cudaSuccess && addr != NULL);
    CHECK(cudaMemcpyToSymbol(&host_counter, &c, 8, 0, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    CHECK(cudaMemcpyToSymbol(&got, &c, 4, 0, cudaMemcpyHostToDevice) == cudaErrorInvalidSymbol);
    /* launch errors are not sticky */
    CHECK(cudaLaunchKernel(&host_scale, (dim3){1, 1, 1}, (dim3){2048, 1, 1}, args, 0, NULL) ==
          cudaErrorInvalidConfiguration);
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK(cudaLaunchKernel(&got, (dim3){1, 1, 1}, (dim3){1, 1, 1}, args, 0, NULL) ==
          cudaErrorInvalidDeviceFunction);
    cudaFree(d);
}

static void test_copies_never_touch_simulated_addresses(void)
{
    int *a, *b, h[16] = {0};
    CHECK(cudaMalloc((void **)&a, 64) == cudaSuccess);
    CHECK(cudaMalloc((void **)&b, 64) == cudaSuccess);
    CHECK(cudaMemcpy(a, b, 64, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    CHECK(cudaMemcpy(a, h, 64, cudaMemcpyDeviceToHost) == cudaErrorInvalidDevicePointer);
    CHECK(cudaMemcpy(h, a, 64, cudaMemcpyHostToHost) == cudaErrorInvalidValue);
    CHECK(cudaMemcpy(a, b, 64, cudaMemcpyDefault) == cudaSuccess);
    CHECK(cudaMemcpy(a, b, 64, 17) == cudaErrorInvalidMemcpyDirection);
    CHECK(cudaFree(b) == cudaSuccess);
    CHECK(cudaMemcpy(h, b, 64, cudaMemcpyDefault) == cudaErrorInvalidValue);
    CHECK(cudaMemcpy(a, h, 128, cudaMemcpyHostToDevice) == cudaErrorInvalidDevicePointer);
    CHECK(cudaFree(b) == cudaErrorInvalidDevicePointer);
    CHECK(cudaMemset(b, 0, 4) == cudaErrorInvalidValue);
    cudaGetLastError();
    cudaFree(a);
}

static void test_managed_and_pinned(void)
{
    unsigned *m, *p;
    CHECK(cudaMallocManaged((void **)&m, 100 * 4, 1) == cudaSuccess);
    CHECK(cudaMallocHost((void **)&p, 100 * 4) == cudaSuccess);
    for (unsigned i = 0; i < 100; i++)
        m[i] = p[i] = i; /* the host writes them directly */
    unsigned n = 100, k = 2;
    void *a1[] = {&m, &n, &k}, *a2[] = {&p, &n, &k};
    CHECK(cudaLaunchKernel(&host_scale, (dim3){1, 1, 1}, (dim3){128, 1, 1}, a1, 0, NULL) == cudaSuccess);
    CHECK(cudaLaunchKernel(&host_scale, (dim3){1, 1, 1}, (dim3){128, 1, 1}, a2, 0, NULL) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (unsigned i = 0; i < 100; i++) {
        CHECK_EQ_U64(m[i], i * 2 + 10);
        CHECK_EQ_U64(p[i], i * 2 + 10);
    }
    CHECK(cudaFree(m) == cudaSuccess);
    CHECK(cudaFreeHost(p) == cudaSuccess);
}

/* What the runtime writes on stderr while fn runs, into buf. */
static void stderr_of(void (*fn)(void), char *buf, size_t len)
{
    char path[] = "/tmp/test_runtime_stderr_XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    fflush(stderr);
    dup2(fd, 2);
    fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t n = pread(fd, buf, len - 1, 0);
    buf[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
}

static unsigned *hw_buf;

static void hw_launch(void)
{
    unsigned n = 4, k = 1;
    void *a[] = {&hw_buf, &n, &k};
    CHECK(cudaLaunchKernel(&host_scale, (dim3){1, 1, 1}, (dim3){32, 1, 1}, a, 0, NULL) ==
          cudaSuccess);
}

/* the host writes what the kernel read before synchronizing: said */
static void hw_racy(void)
{
    hw_launch();
    hw_buf[2] = 77;
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
}

/* after the synchronization, after a query that says the work is done, or
 * through the runtime: nothing said */
static void hw_clean(void)
{
    hw_launch();
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    hw_buf[2] = 78;
    hw_launch();
    CHECK(cudaStreamQuery(NULL) == cudaSuccess);
    hw_buf[2] = 79;
    hw_launch();
    unsigned v[4] = {1, 2, 3, 4};
    CHECK(cudaMemcpy(hw_buf, v, sizeof v, cudaMemcpyHostToHost) == cudaSuccess);
    hw_launch(); /* a second kernel writes it too */
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
}

/* a watched buffer freed before any synchronization: forgotten, not read */
static void hw_free(void)
{
    hw_launch();
    CHECK(cudaFreeHost(hw_buf) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
}

/* Mapped memory a kernel accessed, written by the host after the launch
 * returned and before the program synchronized: on a GPU the kernel may
 * still run (a host latch, or a race); lockstep says so (hostwatch.c). */
static void test_host_writes(void)
{
    char err[4096];
    CHECK(cudaMallocHost((void **)&hw_buf, 4 * sizeof *hw_buf) == cudaSuccess);
    memset(hw_buf, 0, 4 * sizeof *hw_buf);
    stderr_of(hw_racy, err, sizeof err);
    CHECK_STR_CONTAINS(err, "the host wrote mapped memory at");
    CHECK_STR_CONTAINS(err, "byte 8 of the 16-byte buffer");
    CHECK_STR_CONTAINS(err, "kernel 'scale'");
    stderr_of(hw_clean, err, sizeof err);
    CHECK_MSG(!strstr(err, "the host wrote"), "said without a race: %s", err);
    stderr_of(hw_free, err, sizeof err);
    CHECK_MSG(!strstr(err, "the host wrote"), "said after a free: %s", err);
}

static void test_events_and_streams(void)
{
    cudaStream_t s;
    cudaEvent_t e0, e1, e2;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    CHECK(cudaEventCreate(&e0) == cudaSuccess);
    CHECK(cudaEventCreate(&e1) == cudaSuccess);
    CHECK(cudaEventCreateWithFlags(&e2, cudaEventDisableTiming) == cudaSuccess);
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, e0, e1) == cudaErrorInvalidResourceHandle); /* not recorded */
    unsigned *d, n = 4096, k = 1;
    cudaMalloc((void **)&d, n * 4);
    void *args[] = {&d, &n, &k};
    CHECK(cudaEventRecord(e0, s) == cudaSuccess);
    CHECK(cudaLaunchKernel(&host_scale, (dim3){32, 1, 1}, (dim3){128, 1, 1}, args, 0, s) == cudaSuccess);
    CHECK(cudaEventRecord(e1, s) == cudaSuccess);
    CHECK(cudaEventRecord(e2, s) == cudaSuccess);
    CHECK(cudaEventSynchronize(e1) == cudaSuccess);
    CHECK(cudaEventQuery(e1) == cudaSuccess);
    CHECK(cudaStreamQuery(s) == cudaSuccess);
    CHECK(cudaEventElapsedTime(&ms, e0, e1) == cudaSuccess);
    CHECK_MSG(ms > 0 && isfinite(ms), "elapsed %f ms", (double)ms); /* simulated time passed */
    float ms2;
    CHECK(cudaEventElapsedTime(&ms2, e0, e1) == cudaSuccess && ms2 == ms); /* deterministic */
    CHECK(cudaEventElapsedTime(&ms, e0, e2) == cudaErrorInvalidResourceHandle);
    cudaGetLastError();
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(cudaStreamDestroy(s) == cudaSuccess);
    CHECK(cudaEventDestroy(e0) == cudaSuccess);
    CHECK(cudaEventDestroy(e1) == cudaSuccess);
    CHECK(cudaEventDestroy(e2) == cudaSuccess);
    cudaFree(d);
}

/* Handles are checked, never followed: destroyed, reused and made-up
 * streams and events get cudaErrorInvalidResourceHandle (under ASan: no
 * use after free, no double free). */
static void test_bad_handles(void)
{
    cudaStream_t s, s2;
    cudaEvent_t e, e2;
    CHECK(cudaStreamCreate(&s) == cudaSuccess);
    CHECK(cudaEventCreate(&e) == cudaSuccess);
    CHECK(cudaStreamDestroy(s) == cudaSuccess);
    CHECK(cudaStreamDestroy(s) == cudaErrorInvalidResourceHandle); /* twice */
    CHECK(cudaEventDestroy(e) == cudaSuccess);
    CHECK(cudaEventDestroy(e) == cudaErrorInvalidResourceHandle);
    CHECK(cudaEventRecord(e, 0) == cudaErrorInvalidResourceHandle); /* destroyed */
    CHECK(cudaEventQuery(e) == cudaErrorInvalidResourceHandle);
    CHECK(cudaEventSynchronize(e) == cudaErrorInvalidResourceHandle);
    CHECK(cudaStreamSynchronize(s) == cudaErrorInvalidResourceHandle);
    CHECK(cudaStreamQuery(s) == cudaErrorInvalidResourceHandle);
    /* a new handle in the same slot is a different handle */
    CHECK(cudaStreamCreate(&s2) == cudaSuccess);
    CHECK(cudaEventCreate(&e2) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaErrorInvalidResourceHandle);
    CHECK(cudaStreamSynchronize(s2) == cudaSuccess);
    CHECK(cudaEventRecord(e, s2) == cudaErrorInvalidResourceHandle);
    CHECK(cudaEventRecord(e2, s) == cudaErrorInvalidResourceHandle); /* live event, dead stream */
    /* made-up handles, and one of the wrong kind */
    cudaEvent_t junk = (cudaEvent_t)(uintptr_t)0xdeadbeef0ull;
    CHECK(cudaEventRecord(junk, 0) == cudaErrorInvalidResourceHandle);
    CHECK(cudaEventDestroy((cudaEvent_t)(uintptr_t)0x12345678) == cudaErrorInvalidResourceHandle);
    CHECK(cudaStreamSynchronize((cudaStream_t)(uintptr_t)0x7777) == cudaErrorInvalidResourceHandle);
    CHECK(cudaEventRecord((cudaEvent_t)(void *)s2, 0) == cudaErrorInvalidResourceHandle);
    CHECK(cudaStreamSynchronize((cudaStream_t)(void *)e2) == cudaErrorInvalidResourceHandle);
    /* the default streams are always valid */
    CHECK(cudaStreamSynchronize(0) == cudaSuccess);
    CHECK(cudaStreamSynchronize(CUDA_STREAM_LEGACY) == cudaSuccess);
    CHECK(cudaStreamSynchronize(CUDA_STREAM_PER_THREAD) == cudaSuccess);
    int *d;
    CHECK(cudaMalloc((void **)&d, 64) == cudaSuccess);
    CHECK(cudaMemsetAsync(d, 0, 64, s) == cudaErrorInvalidResourceHandle);
    CHECK(cudaMemcpyAsync(d, d, 64, cudaMemcpyDeviceToDevice, s) == cudaErrorInvalidResourceHandle);
    CHECK(cudaMemsetAsync(d, 0, 64, s2) == cudaSuccess);
    unsigned n = 16, k = 1;
    void *args[] = {&d, &n, &k};
    CHECK(cudaLaunchKernel(&host_scale, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, s) ==
          cudaErrorInvalidResourceHandle);
    unsigned flags = 9;
    int prio = 9;
    CHECK(cudaStreamGetFlags(s2, &flags) == cudaSuccess && flags == 0);
    CHECK(cudaStreamGetPriority(s2, &prio) == cudaSuccess && prio == 0);
    CHECK(cudaStreamGetFlags(s, &flags) == cudaErrorInvalidResourceHandle);
    cudaGetLastError();
    /* many create/destroy cycles reuse slots */
    for (int i = 0; i < 100000; i++) {
        cudaEvent_t t;
        CHECK(cudaEventCreate(&t) == cudaSuccess);
        CHECK(cudaEventDestroy(t) == cudaSuccess);
    }
    CHECK(cudaStreamDestroy(s2) == cudaSuccess);
    CHECK(cudaEventDestroy(e2) == cudaSuccess);
    cudaFree(d);
}

/* cudaDeviceReset: `counter` is 5 again, as its module was loaded (a new
 * context's module); the tests after it expect the 10 test_symbols set. */
static void reset_device(void)
{
    unsigned c = 0, ten = 10;
    CHECK(cudaDeviceReset() == cudaSuccess);
    CHECK(cudaMemcpyFromSymbol(&c, &host_counter, 4, 0, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK_EQ_U64(c, 5);
    CHECK(cudaMemcpyToSymbol(&host_counter, &ten, 4, 0, cudaMemcpyHostToDevice) == cudaSuccess);
}

static void test_sticky_fault_and_reset(void)
{
    int *d;
    CHECK(cudaMalloc((void **)&d, 64) == cudaSuccess);
    void *args[] = {&d};
    CHECK(cudaLaunchKernel(&host_oob, (dim3){1, 1, 1}, (dim3){1, 1, 1}, args, 0, NULL) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    int h;
    CHECK(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost) == cudaErrorIllegalAddress);
    CHECK(cudaGetLastError() == cudaErrorIllegalAddress);
    CHECK(cudaGetLastError() == cudaErrorIllegalAddress); /* sticky */
    reset_device();
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK(cudaMalloc((void **)&d, 64) == cudaSuccess);
    CHECK(cudaFree(d) == cudaSuccess);
}

static void test_device_queries_and_stubs(void)
{
    struct cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
    CHECK(p.warpSize == 32 && p.multiProcessorCount == 15 && p.major == 7 && p.minor == 5);
    CHECK(cudaGetDeviceProperties(&p, 1) == cudaErrorInvalidDevice);
    int v = 0;
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0) == cudaSuccess && v == 1024);
    CHECK(cudaDeviceGetAttribute(&v, 9999, 0) == cudaErrorInvalidValue);
    /* every attribute of CUDA 13's cudaDeviceAttr has an answer; the values
     * the enum skips or reserves do not */
    for (int at = 1; at <= 147; at++) {
        int reserved = at == 44 || (at >= 92 && at <= 94) || at == 96 ||
                       (at >= 102 && at <= 105) || at == 107 || at == 110 ||
                       (at >= 122 && at <= 124) || (at >= 127 && at <= 129) || at == 132 ||
                       at == 136 || at == 137 || at == 141 || at == 145 || at == 146;
        cudaError_t e = cudaDeviceGetAttribute(&v, at, 0);
        CHECK_MSG(reserved ? e == cudaErrorInvalidValue : e == cudaSuccess, "attribute %d: %d", at,
                  (int)e);
    }
    cudaGetLastError();
    CHECK(cudaDeviceGetAttribute(&v, 22, 0) == cudaSuccess && v == 131072); /* MaxTexture2DWidth */
    CHECK(!strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress"));
    CHECK(!strcmp(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory"));
    CHECK(!strcmp(cudaGetErrorString(12345), "unrecognized error code"));
    struct cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, &host_scale) == cudaSuccess && fa.maxThreadsPerBlock == 1024);
    int ver;
    CHECK(cudaRuntimeGetVersion(&ver) == cudaSuccess && ver == 13000);
    size_t lim;
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 4096) == cudaSuccess);
    CHECK(cudaDeviceGetLimit(&lim, cudaLimitStackSize) == cudaSuccess && lim == 4096);
    /* an unimplemented function names itself and fails cleanly */
    CHECK(cudaMallocMipmappedArray(NULL, NULL, 1, 1, 1, 0) == cudaErrorNotSupported);
    CHECK(cudaGetLastError() == cudaErrorNotSupported);
    void *big;
    CHECK(cudaMalloc(&big, (size_t)1 << 60) == cudaErrorMemoryAllocation);
    cudaGetLastError();
}

/* The occupancy calculator follows the configuration's limits (the default
 * config: 8 CTAs, 1536 threads, 32768 registers, 48 KiB shared per SM). */
static void test_occupancy(void)
{
    int n = -1;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, &host_scale, 128, 0) == cudaSuccess);
    CHECK_EQ_U64(n, 8);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, &host_scale, 1024, 0) == cudaSuccess);
    CHECK_EQ_U64(n, 1);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, &host_scale, 64, 20000) == cudaSuccess);
    CHECK_EQ_U64(n, 2);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, &host_scale, 64, 0, 8) ==
          cudaErrorInvalidValue);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, &n, 64, 0) ==
          cudaErrorInvalidDeviceFunction);
    size_t dyn = 0;
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, &host_scale, 3, 64) == cudaSuccess);
    CHECK_EQ_U64(dyn, 49152 / 3);
    struct cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
    CHECK(p.maxBlocksPerMultiProcessor == 8 && p.regsPerMultiprocessor == 32768);
    CHECK(p.cooperativeLaunch == 1 && p.memoryPoolsSupported == 1);
    cudaGetLastError();
}

/* A cooperative launch gets a zeroed grid workspace in %envreg1:2 and every
 * CTA resident; a grid larger than the device holds at once is refused. */
static void test_cooperative(void)
{
    unsigned long long *d, got = 1, word = 1;
    CHECK(cudaMalloc((void **)&d, 8) == cudaSuccess);
    void *args[] = {&d};
    CHECK(cudaLaunchKernel(&host_ws, (dim3){1, 1, 1}, (dim3){1, 1, 1}, args, 0, NULL) == cudaSuccess);
    CHECK(cudaMemcpy(&got, d, 8, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK_EQ_U64(got, 0); /* not cooperative: no workspace */
    CHECK(cudaLaunchCooperativeKernel(&host_ws, (dim3){120, 1, 1}, (dim3){32, 1, 1}, args, 0,
                                      NULL) == cudaSuccess);
    CHECK(cudaMemcpy(&got, d, 8, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK_MSG(got != 0, "no grid workspace address");
    CHECK(cudaMemcpy(&word, (void *)(uintptr_t)got, 8, cudaMemcpyDeviceToHost) ==
          cudaErrorInvalidDevicePointer); /* freed after the launch */
    cudaGetLastError();
    /* 15 SMs x 8 CTAs */
    CHECK(cudaLaunchCooperativeKernel(&host_ws, (dim3){121, 1, 1}, (dim3){32, 1, 1}, args, 0,
                                      NULL) == cudaErrorCooperativeLaunchTooLarge);
    CHECK(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge);
    CHECK(cudaGetLastError() == cudaSuccess); /* not sticky */
    cudaFree(d);
}

static int host_order[4], host_n;
static void host_fn(void *arg) { host_order[host_n++] = (int)(uintptr_t)arg; }
static void stream_cb(cudaStream_t s, cudaError_t e, void *arg)
{
    (void)s;
    host_order[host_n++] = e == cudaSuccess ? (int)(uintptr_t)arg : -1;
}

/* Graphs: explicit nodes, stream capture, relaunch, bad handles. */
static void test_graphs(void)
{
    unsigned *d, n = 64, k = 2, h[64];
    for (unsigned i = 0; i < 64; i++)
        h[i] = i;
    CHECK(cudaMalloc((void **)&d, sizeof h) == cudaSuccess);
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
    cudaGraphNode_t up, kn, down, hn;
    CHECK(cudaGraphAddMemcpyNode1D(&up, g, NULL, 0, d, h, sizeof h, cudaMemcpyHostToDevice) ==
          cudaSuccess);
    void *args[] = {&d, &n, &k};
    struct cudaKernelNodeParams kp = {&host_scale, {1, 1, 1}, {64, 1, 1}, 0, args, NULL};
    CHECK(cudaGraphAddKernelNode(&kn, g, &up, 1, &kp) == cudaSuccess);
    k = 5; /* the node copied the arguments */
    CHECK(cudaGraphAddMemcpyNode1D(&down, g, &kn, 1, h, d, sizeof h, cudaMemcpyDeviceToHost) ==
          cudaSuccess);
    struct cudaHostNodeParams hp = {host_fn, (void *)7};
    CHECK(cudaGraphAddHostNode(&hn, g, &down, 1, &hp) == cudaSuccess);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
    host_n = 0;
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess); /* h is uploaded again: same result */
    size_t nedges = 0, ndeps = 0, nouts = 0;
    cudaGraphNode_t efrom[4], eto[4], deps[2], outs[2];
    CHECK(cudaGraphGetEdges(g, NULL, NULL, NULL, &nedges) == cudaSuccess && nedges == 3);
    nedges = 4;
    CHECK(cudaGraphGetEdges(g, efrom, eto, NULL, &nedges) == cudaSuccess && nedges == 3);
    CHECK(efrom[0] == up && eto[0] == kn && efrom[2] == down && eto[2] == hn);
    ndeps = 2;
    CHECK(cudaGraphNodeGetDependencies(kn, deps, NULL, &ndeps) == cudaSuccess && ndeps == 1 &&
          deps[0] == up);
    nouts = 2;
    CHECK(cudaGraphNodeGetDependentNodes(kn, outs, NULL, &nouts) == cudaSuccess && nouts == 1 &&
          outs[0] == down);
    for (unsigned i = 0; i < 64; i++)
        CHECK_EQ_U64(h[i], (i * 2 + 10) * 2 + 10);
    CHECK_EQ_U64(host_n, 2);
    /* a node of another graph, a destroyed graph, a made-up handle */
    cudaGraph_t g2;
    CHECK(cudaGraphCreate(&g2, 0) == cudaSuccess);
    cudaGraphNode_t e2;
    CHECK(cudaGraphAddEmptyNode(&e2, g2, &kn, 1) == cudaErrorInvalidValue);
    /* exec parameters only for the instantiated graph's own nodes */
    CHECK(cudaGraphAddKernelNode(&e2, g2, NULL, 0, &kp) == cudaSuccess);
    CHECK(cudaGraphExecKernelNodeSetParams(x, e2, &kp) == cudaErrorInvalidValue);
    CHECK(cudaGraphExecKernelNodeSetParams(x, kn, &kp) == cudaSuccess);
    /* a child graph belongs to its node */
    cudaGraphNode_t cn;
    cudaGraph_t child;
    CHECK(cudaGraphAddChildGraphNode(&cn, g2, NULL, 0, g) == cudaSuccess);
    CHECK(cudaGraphChildGraphNodeGetGraph(cn, &child) == cudaSuccess);
    CHECK(cudaGraphDestroy(child) == cudaErrorInvalidValue);
    /* unused entries of an edge list are NULL */
    cudaGraphNode_t ef[5], et[5];
    size_t ne = 5;
    CHECK(cudaGraphGetEdges(g, ef, et, NULL, &ne) == cudaSuccess && ne == 3);
    CHECK(ef[3] == NULL && et[4] == NULL && ef[2] != NULL);
    CHECK(cudaGraphDestroy(g2) == cudaSuccess);
    CHECK(cudaGraphDestroy(g2) == cudaErrorInvalidValue);
    CHECK(cudaGraphLaunch((cudaGraphExec_t)(uintptr_t)0x1234567a, NULL) == cudaErrorInvalidValue);
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, NULL) == cudaErrorInvalidValue);
    CHECK(cudaGraphDestroy(g) == cudaSuccess);
    int type;
    CHECK(cudaGraphNodeGetType(kn, &type) == cudaErrorInvalidValue); /* went with its graph */
    cudaGetLastError();

    /* capture: nothing runs until the graph is launched */
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s) == cudaSuccess);
    CHECK(cudaMemset(d, 0, sizeof h) == cudaSuccess);
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaErrorIllegalState);
    CHECK(cudaMemsetAsync(d, 1, sizeof h, s) == cudaSuccess);
    k = 3;
    CHECK(cudaLaunchKernel(&host_scale, (dim3){1, 1, 1}, (dim3){64, 1, 1}, args, 0, s) == cudaSuccess);
    CHECK(cudaLaunchHostFunc(s, host_fn, (void *)9) == cudaSuccess);
    CHECK(cudaStreamAddCallback(s, stream_cb, NULL, 0) == cudaErrorStreamCaptureUnsupported);
    cudaGraph_t cg;
    CHECK(cudaStreamEndCapture(s, &cg) == cudaErrorStreamCaptureInvalidated); /* the callback */
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK(cudaMemsetAsync(d, 1, sizeof h, s) == cudaSuccess);
    CHECK(cudaLaunchKernel(&host_scale, (dim3){1, 1, 1}, (dim3){64, 1, 1}, args, 0, s) == cudaSuccess);
    CHECK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s) == cudaSuccess);
    CHECK(cudaStreamEndCapture(s, &cg) == cudaSuccess);
    memset(h, 0xee, sizeof h);
    unsigned probe = 1;
    CHECK(cudaMemcpy(&probe, d, 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK_EQ_U64(probe, 0);
    size_t count = 0;
    CHECK(cudaGraphGetNodes(cg, NULL, &count) == cudaSuccess);
    CHECK_EQ_U64(count, 3);
    CHECK(cudaGraphInstantiate(&x, cg, 0) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    for (unsigned i = 0; i < 64; i++)
        CHECK_EQ_U64(h[i], 0x01010101u * 3 + 10);
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphDestroy(cg) == cudaSuccess);
    /* external events become event nodes of the capture */
    cudaEvent_t ev;
    CHECK(cudaEventCreate(&ev) == cudaSuccess);
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK(cudaEventRecordWithFlags(ev, s, 1) == cudaSuccess);
    CHECK(cudaStreamWaitEvent(s, ev, 1) == cudaSuccess);
    CHECK(cudaStreamEndCapture(s, &cg) == cudaSuccess);
    cudaGraphNode_t evn[2];
    count = 2;
    CHECK(cudaGraphGetNodes(cg, evn, &count) == cudaSuccess && count == 2);
    CHECK(cudaGraphNodeGetType(evn[0], &type) == cudaSuccess && type == cudaGraphNodeTypeEventRecord);
    CHECK(cudaGraphNodeGetType(evn[1], &type) == cudaSuccess && type == cudaGraphNodeTypeWaitEvent);
    float evms = -1;
    CHECK(cudaEventElapsedTime(&evms, ev, ev) == cudaErrorInvalidResourceHandle); /* not recorded yet */
    CHECK(cudaGraphInstantiate(&x, cg, 0) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, s) == cudaSuccess);
    CHECK(cudaEventElapsedTime(&evms, ev, ev) == cudaSuccess && evms == 0); /* the node recorded it */
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphDestroy(cg) == cudaSuccess);
    CHECK(cudaEventDestroy(ev) == cudaSuccess);
    CHECK(cudaStreamDestroy(s) == cudaSuccess);
    cudaGetLastError();
    cudaFree(d);
}

/* The graph allocator's counters (graphmem.c). */
static uint64_t gmem_attr(int attr)
{
    uint64_t v = ~0ull;
    CHECK(cudaDeviceGetGraphMemAttribute(0, attr, &v) == cudaSuccess);
    return v;
}

/* Graph memory nodes: explicit and captured allocation and free nodes,
 * fixed addresses reused within a graph, allocations outliving their
 * graph, auto-free on launch, the rules and their error codes, the
 * allocator's accounting, and a kernel touching an allocation that is not
 * live. */
static void test_graph_memory(void)
{
    unsigned c = 0, n = 64, k = 2, h[64];
    CHECK(cudaMemcpyFromSymbol(&c, &host_counter, 4, 0, cudaMemcpyDeviceToHost) == cudaSuccess);
    size_t free0, total;
    CHECK(cudaMemGetInfo(&free0, &total) == cudaSuccess);
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrUsedMemCurrent), 0);
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrReservedMemCurrent), 0);

    /* the parameters lockstep refuses, each with CUDA's code */
    struct cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location = (struct cudaMemLocation){cudaMemLocationTypeDevice, 0};
    ap.bytesize = sizeof h;
    cudaGraph_t g;
    cudaGraphNode_t an, up, kn, down, fn, bad;
    CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
    CHECK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, NULL) == cudaErrorInvalidValue);
    ap.bytesize = 0;
    CHECK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap) == cudaErrorInvalidValue);
    ap.bytesize = sizeof h;
    ap.poolProps.handleTypes = 1; /* a POSIX file descriptor: IPC */
    CHECK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap) == cudaErrorInvalidValue);
    ap.poolProps.handleTypes = cudaMemHandleTypeNone;
    ap.poolProps.location.id = 1;
    CHECK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap) == cudaErrorInvalidDevice);
    ap.poolProps.location = (struct cudaMemLocation){cudaMemLocationTypeHost, 0};
    CHECK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap) == cudaErrorNotSupported);
    ap.poolProps.location = (struct cudaMemLocation){cudaMemLocationTypeDevice, 0};
    struct cudaMemAccessDesc acc = {{cudaMemLocationTypeDevice, 1},
                                    cudaMemAccessFlagsProtReadWrite};
    ap.accessDescs = &acc;
    ap.accessDescCount = 1;
    CHECK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap) == cudaErrorInvalidDevice);
    acc.location.id = 0;
    size_t count = 9;
    CHECK(cudaGraphGetNodes(g, NULL, &count) == cudaSuccess && count == 0); /* none was added */

    /* alloc -> copy in -> scale -> copy out -> free, launched three times */
    CHECK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap) == cudaSuccess);
    unsigned *d = ap.dptr;
    CHECK(d != NULL);
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrReservedMemCurrent), 0); /* addresses only */
    unsigned probe = 0;
    CHECK(cudaMemcpy(&probe, d, 4, cudaMemcpyDeviceToHost) == cudaErrorInvalidDevicePointer);
    CHECK(cudaMemcpy(&probe, d, 4, cudaMemcpyDefault) == cudaErrorInvalidValue); /* not live */
    cudaGetLastError();
    for (unsigned i = 0; i < 64; i++)
        h[i] = i;
    CHECK(cudaGraphAddMemcpyNode1D(&up, g, &an, 1, d, h, sizeof h, cudaMemcpyHostToDevice) ==
          cudaSuccess);
    void *args[] = {&d, &n, &k};
    struct cudaKernelNodeParams kp = {&host_scale, {1, 1, 1}, {64, 1, 1}, 0, args, NULL};
    CHECK(cudaGraphAddKernelNode(&kn, g, &up, 1, &kp) == cudaSuccess);
    CHECK(cudaGraphAddMemcpyNode1D(&down, g, &kn, 1, h, d, sizeof h, cudaMemcpyDeviceToHost) ==
          cudaSuccess);
    CHECK(cudaGraphAddMemFreeNode(&fn, g, &down, 1, d) == cudaSuccess);
    CHECK(cudaGraphAddMemFreeNode(&bad, g, &down, 1, d) == cudaErrorInvalidValue); /* twice */
    CHECK(cudaGraphAddMemFreeNode(&bad, g, NULL, 0, h) == cudaErrorInvalidValue); /* not one */
    CHECK(cudaGraphAddMemFreeNode(&bad, g, NULL, 0, d + 1) == cudaErrorInvalidValue);
    int type = -1;
    CHECK(cudaGraphNodeGetType(an, &type) == cudaSuccess && type == cudaGraphNodeTypeMemAlloc);
    CHECK(cudaGraphNodeGetType(fn, &type) == cudaSuccess && type == cudaGraphNodeTypeMemFree);
    struct cudaMemAllocNodeParams got;
    CHECK(cudaGraphMemAllocNodeGetParams(an, &got) == cudaSuccess);
    CHECK(got.dptr == d && got.bytesize == sizeof h && got.accessDescCount == 1 &&
          got.accessDescs && got.accessDescs[0].flags == cudaMemAccessFlagsProtReadWrite &&
          got.poolProps.allocType == cudaMemAllocationTypePinned);
    void *fp = NULL;
    CHECK(cudaGraphMemFreeNodeGetParams(fn, &fp) == cudaSuccess && fp == d);
    CHECK(cudaGraphMemFreeNodeGetParams(an, &fp) == cudaErrorInvalidValue);
    CHECK(cudaGraphMemAllocNodeGetParams(fn, &got) == cudaErrorInvalidValue);
    cudaGraph_t cl;
    CHECK(cudaGraphClone(&cl, g) == cudaErrorNotSupported);
    cudaGraph_t parent;
    cudaGraphNode_t cn;
    CHECK(cudaGraphCreate(&parent, 0) == cudaSuccess);
    CHECK(cudaGraphAddChildGraphNode(&cn, parent, NULL, 0, g) == cudaErrorNotSupported);
    cudaGraphExec_t x, x2;
    CHECK(cudaGraphInstantiate(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch |
                                          cudaGraphInstantiateFlagDeviceLaunch) ==
          cudaErrorInvalidValue);
    CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
    CHECK(cudaGraphInstantiate(&x2, g, 0) == cudaErrorInvalidValue); /* one at a time */
    cudaGetLastError();
    for (int round = 0; round < 3; round++) {
        for (unsigned i = 0; i < 64; i++)
            h[i] = i + (unsigned)round;
        CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
        for (unsigned i = 0; i < 64; i++)
            CHECK_EQ_U64(h[i], (i + (unsigned)round) * 2 + c);
        /* freed, but its memory stays mapped behind the graph's address */
        CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrUsedMemCurrent), 256);
    }
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrUsedMemHigh), sizeof h);
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrReservedMemCurrent), 256); /* kept after the free */
    size_t free1;
    CHECK(cudaMemGetInfo(&free1, &total) == cudaSuccess);
    CHECK_EQ_U64(free0 - free1, 256); /* the allocator holds the memory */
    CHECK(cudaDeviceGraphMemTrim(0) == cudaSuccess);
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrReservedMemCurrent), 0);
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrReservedMemHigh), 256);
    CHECK(cudaMemGetInfo(&free1, &total) == cudaSuccess);
    CHECK_EQ_U64(free1, free0);
    CHECK(cudaGraphExecUpdate(x, g, NULL) == cudaSuccess); /* the same allocations */
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);        /* takes the memory again */
    CHECK_EQ_U64(h[5], ((5 + 2) * 2 + c) * 2 + c); /* the last round's output, scaled again */
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphInstantiate(&x2, g, 0) == cudaSuccess);
    CHECK(cudaGraphExecDestroy(x2) == cudaSuccess);
    /* a free node that does not depend on its allocation node */
    cudaGraph_t g3;
    cudaGraphNode_t a3, f3;
    CHECK(cudaGraphCreate(&g3, 0) == cudaSuccess);
    CHECK(cudaGraphAddMemAllocNode(&a3, g3, NULL, 0, &ap) == cudaSuccess);
    CHECK(cudaGraphAddMemFreeNode(&f3, g3, NULL, 0, ap.dptr) == cudaSuccess);
    CHECK(cudaGraphInstantiate(&x, g3, 0) == cudaErrorInvalidValue);
    CHECK(cudaGraphAddDependencies(g3, &a3, &f3, NULL, 1) == cudaSuccess);
    CHECK(cudaGraphInstantiate(&x, g3, 0) == cudaSuccess);
    CHECK(cudaGraphExecUpdate(x, g, NULL) == cudaErrorGraphExecUpdateFailure); /* other nodes */
    cudaGraphExecUpdateResultInfo info;
    CHECK(cudaGraphExecUpdate(x, g3, &info) == cudaSuccess);
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    /* another graph cannot free an allocation its own graph frees */
    CHECK(cudaGraphAddMemFreeNode(&bad, parent, NULL, 0, ap.dptr) == cudaErrorInvalidValue);
    CHECK(cudaGraphDestroy(g3) == cudaSuccess);
    cudaGetLastError();

    /* addresses: reused after a free the new node depends on, not otherwise */
    cudaGraph_t r;
    cudaGraphNode_t ra, rf, rb, rc;
    CHECK(cudaGraphCreate(&r, 0) == cudaSuccess);
    CHECK(cudaGraphAddMemAllocNode(&ra, r, NULL, 0, &ap) == cudaSuccess);
    void *pa = ap.dptr;
    CHECK(cudaGraphAddMemFreeNode(&rf, r, &ra, 1, pa) == cudaSuccess);
    CHECK(cudaGraphAddMemAllocNode(&rc, r, NULL, 0, &ap) == cudaSuccess);
    CHECK(ap.dptr != pa); /* may be live at once */
    void *pc = ap.dptr;
    ap.bytesize = 4 * sizeof h;
    CHECK(cudaGraphAddMemAllocNode(&rb, r, &rf, 1, &ap) == cudaSuccess);
    CHECK(ap.dptr != pa && ap.dptr != pc); /* too large for the freed block */
    ap.bytesize = 100;
    CHECK(cudaGraphAddMemAllocNode(&rb, r, &rf, 1, &ap) == cudaSuccess);
    CHECK(ap.dptr == pa); /* after the free: the same address */
    CHECK(cudaGraphDestroy(r) == cudaSuccess);
    ap.bytesize = sizeof h;

    /* an allocation that outlives its graph (no free node): live after the
     * launch, freed by cudaFree, cudaFreeAsync or another graph; the graph
     * cannot run again while it is live */
    cudaGraph_t og, fg;
    cudaGraphNode_t oa, ok, ff;
    CHECK(cudaGraphCreate(&og, 0) == cudaSuccess);
    CHECK(cudaGraphAddMemAllocNode(&oa, og, NULL, 0, &ap) == cudaSuccess);
    unsigned *o = ap.dptr;
    void *oargs[] = {&o, &n, &k};
    kp.kernelParams = oargs;
    CHECK(cudaGraphAddKernelNode(&ok, og, &oa, 1, &kp) == cudaSuccess);
    CHECK(cudaGraphInstantiate(&x, og, 0) == cudaSuccess);
    CHECK(cudaGraphDestroy(og) == cudaSuccess); /* the executable graph keeps the address */
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK(cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK_EQ_U64(h[7], c); /* fresh memory reads zero: 0 * 2 + c */
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrUsedMemCurrent), sizeof h);
    CHECK(cudaGraphLaunch(x, NULL) == cudaErrorInvalidValue); /* still live */
    cudaGetLastError();
    CHECK(cudaFree(o) == cudaSuccess);
    CHECK(cudaFree(o) == cudaErrorInvalidDevicePointer);
    cudaGetLastError();
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrUsedMemCurrent), 256); /* mapped until a trim */
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK(cudaFreeAsync(o, NULL) == cudaSuccess);
    CHECK(cudaFreeAsync(o, NULL) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaGraphCreate(&fg, 0) == cudaSuccess);
    CHECK(cudaGraphAddMemFreeNode(&ff, fg, NULL, 0, o) == cudaSuccess);
    cudaGraphExec_t fx;
    CHECK(cudaGraphInstantiate(&fx, fg, 0) == cudaSuccess);
    CHECK(cudaGraphLaunch(fx, NULL) == cudaErrorInvalidValue); /* nothing live to free */
    cudaGetLastError();
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK(cudaGraphLaunch(fx, NULL) == cudaSuccess);
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrUsedMemCurrent), 256);
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    /* the free graph still names the address: it stays reserved */
    CHECK(cudaGraphExecDestroy(fx) == cudaSuccess);
    CHECK(cudaGraphDestroy(fg) == cudaSuccess);
    CHECK(cudaGraphAddMemFreeNode(&bad, parent, NULL, 0, o) == cudaErrorInvalidValue); /* gone */
    cudaGetLastError();

    /* auto-free on launch */
    CHECK(cudaGraphCreate(&og, 0) == cudaSuccess);
    CHECK(cudaGraphAddMemAllocNode(&oa, og, NULL, 0, &ap) == cudaSuccess);
    o = ap.dptr;
    CHECK(cudaGraphAddKernelNode(&ok, og, &oa, 1, &kp) == cudaSuccess);
    CHECK(cudaGraphInstantiateWithFlags(&x, og, cudaGraphInstantiateFlagAutoFreeOnLaunch) ==
          cudaSuccess);
    unsigned long long xf = 0;
    CHECK(cudaGraphExecGetFlags(x, &xf) == cudaSuccess &&
          xf == cudaGraphInstantiateFlagAutoFreeOnLaunch);
    for (int round = 0; round < 3; round++) {
        CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
        CHECK(cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
        CHECK_EQ_U64(h[3], c); /* each launch's allocation is a fresh one */
    }
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrUsedMemCurrent), sizeof h);
    /* a graph with memory nodes cannot be launched into a capture */
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s) == cudaSuccess);
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, s) == cudaErrorNotSupported);
    cudaGraph_t cg;
    CHECK(cudaStreamEndCapture(s, &cg) == cudaErrorStreamCaptureInvalidated);
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphDestroy(og) == cudaSuccess);
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrUsedMemCurrent), sizeof h); /* live still */
    CHECK(cudaFree(o) == cudaSuccess); /* and its addresses go with it */
    cudaGetLastError();

    /* stream capture: cudaMallocAsync and cudaFreeAsync become nodes;
     * nothing is allocated until the graph runs */
    uint64_t high = 0;
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high) == cudaSuccess);
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrUsedMemHigh), 0);
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    unsigned *t1, *t2;
    CHECK(cudaMallocAsync((void **)&t1, sizeof h, s) == cudaSuccess);
    CHECK(cudaMemcpyAsync(t1, h, sizeof h, cudaMemcpyHostToDevice, s) == cudaSuccess);
    void *targs[] = {&t1, &n, &k};
    CHECK(cudaLaunchKernel(&host_scale, (dim3){1, 1, 1}, (dim3){64, 1, 1}, targs, 0, s) ==
          cudaSuccess);
    CHECK(cudaMallocAsync((void **)&t2, sizeof h, s) == cudaSuccess);
    CHECK(t2 != t1);
    CHECK(cudaMemcpyAsync(t2, t1, sizeof h, cudaMemcpyDeviceToDevice, s) == cudaSuccess);
    CHECK(cudaFreeAsync(t1, s) == cudaSuccess);
    CHECK(cudaMemcpyAsync(h, t2, sizeof h, cudaMemcpyDeviceToHost, s) == cudaSuccess);
    CHECK(cudaFreeAsync(t2, s) == cudaSuccess);
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrUsedMemHigh), 0);
    CHECK(cudaStreamEndCapture(s, &cg) == cudaSuccess);
    count = 0;
    CHECK(cudaGraphGetNodes(cg, NULL, &count) == cudaSuccess && count == 8);
    cudaGraphNode_t cn8[8];
    CHECK(cudaGraphGetNodes(cg, cn8, &count) == cudaSuccess);
    CHECK(cudaGraphNodeGetType(cn8[0], &type) == cudaSuccess && type == cudaGraphNodeTypeMemAlloc);
    CHECK(cudaGraphNodeGetType(cn8[7], &type) == cudaSuccess && type == cudaGraphNodeTypeMemFree);
    CHECK(cudaGraphMemAllocNodeGetParams(cn8[0], &got) == cudaSuccess && got.dptr == t1 &&
          got.accessDescCount == 0 && got.poolProps.location.type == cudaMemLocationTypeDevice);
    CHECK(cudaGraphInstantiate(&x, cg, 0) == cudaSuccess);
    for (int round = 0; round < 2; round++) {
        for (unsigned i = 0; i < 64; i++)
            h[i] = 100 + i;
        CHECK(cudaGraphLaunch(x, s) == cudaSuccess);
        CHECK(cudaStreamSynchronize(s) == cudaSuccess);
        for (unsigned i = 0; i < 64; i++)
            CHECK_EQ_U64(h[i], (100 + i) * 2 + c);
    }
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrUsedMemHigh), 2 * sizeof h);
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphDestroy(cg) == cudaSuccess);
    /* only graph allocations can be freed in a capture */
    unsigned *plain;
    CHECK(cudaMalloc((void **)&plain, 64) == cudaSuccess);
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK(cudaFreeAsync(plain, s) == cudaErrorInvalidValue);
    CHECK(cudaStreamEndCapture(s, &cg) == cudaErrorStreamCaptureInvalidated);
    CHECK(cudaFree(plain) == cudaSuccess);
    cudaGetLastError();

    /* the attributes' own errors */
    uint64_t v = 5;
    CHECK(cudaDeviceGetGraphMemAttribute(1, cudaGraphMemAttrUsedMemCurrent, &v) ==
          cudaErrorInvalidDevice);
    CHECK(cudaDeviceGetGraphMemAttribute(0, 7, &v) == cudaErrorInvalidValue);
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &v) ==
          cudaErrorInvalidValue); /* only a reset to zero */
    v = 0;
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &v) ==
          cudaErrorInvalidValue);
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &v) == cudaSuccess);
    CHECK(cudaDeviceGraphMemTrim(1) == cudaErrorInvalidDevice);
    CHECK(cudaDeviceGraphMemTrim(0) == cudaSuccess);
    CHECK_EQ_U64(gmem_attr(cudaGraphMemAttrReservedMemCurrent), 0);
    CHECK(cudaMemGetInfo(&free1, &total) == cudaSuccess);
    CHECK_EQ_U64(free1, free0);
    cudaGetLastError();

    /* a kernel touching a graph allocation after its free faults */
    CHECK(cudaGraphCreate(&og, 0) == cudaSuccess);
    CHECK(cudaGraphAddMemAllocNode(&oa, og, NULL, 0, &ap) == cudaSuccess);
    o = ap.dptr;
    CHECK(cudaGraphAddMemFreeNode(&ff, og, &oa, 1, o) == cudaSuccess);
    CHECK(cudaGraphAddKernelNode(&ok, og, &ff, 1, &kp) == cudaSuccess); /* after the free */
    CHECK(cudaGraphInstantiate(&x, og, 0) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    CHECK(cudaGraphExecDestroy(x) == cudaErrorIllegalAddress); /* sticky */
    reset_device();
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphDestroy(og) == cudaSuccess);
    CHECK(cudaGraphDestroy(parent) == cudaSuccess);
    CHECK(cudaStreamDestroy(s) == cudaSuccess);
    CHECK(cudaMemGetInfo(&free1, &total) == cudaSuccess);
    CHECK_EQ_U64(free1, free0);
    cudaGetLastError();
}

/* Host functions, registered memory, pitched copies, pools. */
static void test_more_memory_and_streams(void)
{
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s) == cudaSuccess);
    host_n = 0;
    CHECK(cudaLaunchHostFunc(s, host_fn, (void *)1) == cudaSuccess);
    CHECK(cudaStreamAddCallback(s, stream_cb, (void *)2, 0) == cudaSuccess);
    CHECK(cudaLaunchHostFunc(s, NULL, NULL) == cudaErrorInvalidValue);
    CHECK(host_n == 2 && host_order[0] == 1 && host_order[1] == 2);

    unsigned buf[64];
    for (unsigned i = 0; i < 64; i++)
        buf[i] = i;
    CHECK(cudaHostRegister(buf, sizeof buf, 0) == cudaSuccess);
    unsigned *dp = NULL, n = 64, k = 1;
    CHECK(cudaHostGetDevicePointer((void **)&dp, buf, 0) == cudaSuccess && dp == buf);
    void *args[] = {&dp, &n, &k};
    CHECK(cudaLaunchKernel(&host_scale, (dim3){1, 1, 1}, (dim3){64, 1, 1}, args, 0, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK_EQ_U64(buf[63], 63 + 10);
    CHECK(cudaFreeHost(buf) == cudaErrorInvalidValue); /* registered, not allocated */
    CHECK(cudaHostUnregister(buf) == cudaSuccess);
    CHECK(cudaHostUnregister(buf) == cudaErrorHostMemoryNotRegistered);

    /* 2-D: a 5 x 3 block of bytes through pitched memory */
    unsigned char *pd;
    size_t pitch;
    CHECK(cudaMallocPitch((void **)&pd, &pitch, 5, 3) == cudaSuccess && pitch == 512);
    unsigned char src[3][5], back[3][8];
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 5; x++)
            src[y][x] = (unsigned char)(y * 16 + x);
    memset(back, 0xaa, sizeof back);
    CHECK(cudaMemset2D(pd, pitch, 0x77, 5, 3) == cudaSuccess);
    CHECK(cudaMemcpy2D(pd + pitch, pitch, src[1], 5, 5, 2, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy2DAsync(back, 8, pd, pitch, 5, 3, cudaMemcpyDeviceToHost, s) == cudaSuccess);
    for (int x = 0; x < 5; x++) {
        CHECK_EQ_U64(back[0][x], 0x77);
        CHECK_EQ_U64(back[1][x], src[1][x]);
        CHECK_EQ_U64(back[2][x], src[2][x]);
    }
    CHECK_EQ_U64(back[0][5], 0xaa); /* past the width: untouched */
    struct cudaMemcpy3DParms arr = {0};
    arr.dstArray = (cudaArray_t)(uintptr_t)1;
    arr.extent = (struct cudaExtent){1, 1, 1};
    CHECK(cudaMemcpy3D(&arr) == cudaErrorInvalidValue); /* not a live array */
    cudaGetLastError();
    cudaFree(pd);

    /* pools */
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetMemPool(&pool, 0) == cudaSuccess);
    void *a;
    uint64_t used = 1;
    CHECK(cudaMallocAsync(&a, 1000, s) == cudaSuccess);
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess);
    CHECK_EQ_U64(used, 1000);
    CHECK(cudaFreeAsync(a, s) == cudaSuccess);
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess);
    CHECK_EQ_U64(used, 0);
    CHECK(cudaFreeAsync(a, s) == cudaErrorInvalidValue); /* twice */
    CHECK(cudaMemPoolDestroy(pool) == cudaErrorInvalidValue); /* the default pool */
    int lo = 5, hi = 5;
    CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi) == cudaSuccess && lo == 0 && hi == 0);
    /* device queries of a one-device system */
    int peer = 1;
    CHECK(cudaDeviceCanAccessPeer(&peer, 0, 0) == cudaSuccess && peer == 0);
    CHECK(cudaDeviceCanAccessPeer(&peer, 0, 1) == cudaErrorInvalidDevice);
    unsigned dflags = 0;
    CHECK(cudaSetDeviceFlags(0x4) == cudaSuccess);
    CHECK(cudaGetDeviceFlags(&dflags) == cudaSuccess && (dflags & 0x4) && (dflags & 0x8));
    char bus[32];
    CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0) == cudaSuccess && !strcmp(bus, "0000:00:00.0"));
    struct cudaPointerAttributes pa;
    unsigned *dptr;
    CHECK(cudaMalloc((void **)&dptr, 64) == cudaSuccess);
    CHECK(cudaPointerGetAttributes(&pa, dptr + 2) == cudaSuccess &&
          pa.type == cudaMemoryTypeDevice && pa.devicePointer == dptr + 2);
    CHECK(cudaPointerGetAttributes(&pa, &peer) == cudaSuccess &&
          pa.type == cudaMemoryTypeUnregistered);
    /* cudaLaunchKernelEx: clusters are refused, the plain form runs */
    cudaLaunchAttribute at = {cudaLaunchAttributeClusterDimension, {0}, {{0}}};
    at.val.clusterDim.x = 2;
    at.val.clusterDim.y = at.val.clusterDim.z = 1;
    unsigned n64 = 16, k1 = 1;
    void *kargs[] = {&dptr, &n64, &k1};
    cudaLaunchConfig_t lc = {{1, 1, 1}, {16, 1, 1}, 0, NULL, &at, 1};
    CHECK(cudaLaunchKernelExC(&lc, &host_scale, kargs) == cudaErrorNotSupported);
    lc.numAttrs = 0;
    CHECK(cudaLaunchKernelExC(&lc, &host_scale, kargs) == cudaSuccess);
    const char *fname = NULL;
    CHECK(cudaFuncGetName(&fname, &host_scale) == cudaSuccess && !strcmp(fname, "scale"));
    cudaFree(dptr);
    /* one device: peers, valid devices, stream identity, attach, pool access */
    unsigned *p0, *p1, pv[4] = {1, 2, 3, 4}, pb[4] = {0};
    CHECK(cudaMalloc((void **)&p0, 16) == cudaSuccess && cudaMalloc((void **)&p1, 16) == cudaSuccess);
    CHECK(cudaMemcpy(p0, pv, 16, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpyPeer(p1, 0, p0, 0, 16) == cudaSuccess);
    CHECK(cudaMemcpy(pb, p1, 16, cudaMemcpyDeviceToHost) == cudaSuccess && pb[3] == 4);
    CHECK(cudaMemcpyPeer(p1, 1, p0, 0, 16) == cudaErrorInvalidDevice);
    int valid[2] = {0, 0};
    CHECK(cudaSetValidDevices(valid, 2) == cudaSuccess);
    valid[1] = 3;
    CHECK(cudaSetValidDevices(valid, 2) == cudaErrorInvalidDevice);
    CHECK(cudaInitDevice(0, 0, 0) == cudaSuccess);
    unsigned long long sid0 = 9, sid1 = 9;
    cudaStream_t s2;
    CHECK(cudaStreamCreate(&s2) == cudaSuccess);
    CHECK(cudaStreamGetId(NULL, &sid0) == cudaSuccess && sid0 == 0);
    CHECK(cudaStreamGetId(s2, &sid1) == cudaSuccess && sid1 >= 2);
    int sdev = -1;
    CHECK(cudaStreamGetDevice(s2, &sdev) == cudaSuccess && sdev == 0);
    unsigned *mm;
    CHECK(cudaMallocManaged((void **)&mm, 64, 1) == cudaSuccess);
    CHECK(cudaStreamAttachMemAsync(s2, mm, 0, 4) == cudaSuccess);
    CHECK(cudaStreamAttachMemAsync(s2, p0, 0, 4) == cudaErrorInvalidValue); /* not managed */
    CHECK(cudaStreamDestroy(s2) == cudaSuccess);
    cudaMemPool_t defpool;
    struct cudaMemLocation loc0 = {cudaMemLocationTypeDevice, 0};
    CHECK(cudaMemGetDefaultMemPool(&defpool, &loc0, cudaMemAllocationTypePinned) == cudaSuccess);
    struct cudaMemAccessDesc acc = {{cudaMemLocationTypeDevice, 0}, cudaMemAccessFlagsProtReadWrite};
    CHECK(cudaMemPoolSetAccess(defpool, &acc, 1) == cudaSuccess);
    int accf = -1;
    CHECK(cudaMemPoolGetAccess(&accf, defpool, &loc0) == cudaSuccess &&
          accf == cudaMemAccessFlagsProtReadWrite);
    cudaGetLastError();
    cudaFree(mm);
    cudaFree(p0);
    cudaFree(p1);

    /* arrays: copies are checked against the array's rows; a reset ends
     * every array and texture object */
    struct cudaChannelFormatDesc cf = {32, 0, 0, 0, cudaChannelFormatKindFloat};
    cudaArray_t tarr;
    CHECK(cudaMallocArray(&tarr, &cf, 16, 16, 0) == cudaSuccess);
    float rows[16 * 16] = {0};
    CHECK(cudaMemcpy2DToArray(tarr, 0, 10, rows, 64, 64, 16, cudaMemcpyHostToDevice) ==
          cudaErrorInvalidValue); /* rows 10..25 of 16 */
    CHECK(cudaMemcpy2DToArray(tarr, 0, 10, rows, 64, 64, 6, cudaMemcpyHostToDevice) == cudaSuccess);
    struct cudaMemcpy3DParms far = {0};
    far.srcArray = tarr;
    far.dstPtr = (struct cudaPitchedPtr){rows, 64, 16, 16};
    far.dstPos.x = (size_t)-1;
    far.extent = (struct cudaExtent){4, 1, 1};
    far.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&far) != cudaSuccess); /* no wrap-around to a wild address */
    reset_device();
    CHECK(cudaFreeArray(tarr) == cudaErrorInvalidValue);
    cudaGetLastError();

    /* a kernel fault ends a graph: the host node after it does not run */
    unsigned *small;
    CHECK(cudaMalloc((void **)&small, 64) == cudaSuccess);
    cudaGraph_t fg;
    cudaGraphNode_t fk, fh;
    CHECK(cudaGraphCreate(&fg, 0) == cudaSuccess);
    void *oargs[] = {&small};
    struct cudaKernelNodeParams okp = {&host_oob, {1, 1, 1}, {1, 1, 1}, 0, oargs, NULL};
    CHECK(cudaGraphAddKernelNode(&fk, fg, NULL, 0, &okp) == cudaSuccess);
    struct cudaHostNodeParams fhp = {host_fn, (void *)42};
    CHECK(cudaGraphAddHostNode(&fh, fg, &fk, 1, &fhp) == cudaSuccess);
    cudaGraphExec_t fx;
    CHECK(cudaGraphInstantiate(&fx, fg, 0) == cudaSuccess);
    host_n = 0;
    CHECK(cudaGraphLaunch(fx, NULL) == cudaSuccess);
    CHECK_EQ_U64(host_n, 0);
    CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    reset_device();
    cudaGetLastError();
    CHECK(cudaStreamDestroy(s) == cudaSuccess);
}

int main(void)
{
    RUN(test_register_and_launch);
    RUN(test_copies_never_touch_simulated_addresses);
    RUN(test_managed_and_pinned);
    RUN(test_host_writes);
    RUN(test_events_and_streams);
    RUN(test_bad_handles);
    RUN(test_sticky_fault_and_reset);
    RUN(test_device_queries_and_stubs);
    RUN(test_occupancy);
    RUN(test_cooperative);
    RUN(test_graphs);
    RUN(test_graph_memory);
    RUN(test_more_memory_and_streams);
    return test_summary();
}
