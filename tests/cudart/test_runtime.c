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
#include <string.h>

#include "cudart/cuda_abi.h"
#include "cudart/cuda_api.h"
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
cudaError_t cudaGraphCreate(void *graph, unsigned flags); /* a stub */

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
    "  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n  st.global.u32 [%rd1+4096], 1;\n  ret;\n}\n";

/* a fat binary holding ptx, laid out as nvcc 13's (see src/cudart/fatbin.c) */
static _Alignas(8) unsigned char fatbin[4096];
static fatbin_wrapper wrapper;
static char host_scale, host_oob; /* stand-ins for the host stubs */
static unsigned host_counter;     /* the shadow of `counter` */

static void build_fatbin(void)
{
    size_t n = sizeof ptx, padded = (n + 7) & ~(size_t)7;
    uint32_t magic = 0xBA55ED50u;
    uint16_t ver = 1, hs = 16;
    uint64_t total = 80 + padded;
    memcpy(fatbin, &magic, 4);
    memcpy(fatbin + 4, &ver, 2);
    memcpy(fatbin + 6, &hs, 2);
    memcpy(fatbin + 8, &total, 8);
    unsigned char *e = fatbin + 16;
    uint16_t kind = 1, ever = 0x0101;
    uint32_t ehs = 80, arch = 75;
    uint64_t psize = padded, flags = 0x11;
    memcpy(e, &kind, 2);
    memcpy(e + 2, &ever, 2);
    memcpy(e + 4, &ehs, 4);
    memcpy(e + 8, &psize, 8);
    memcpy(e + 28, &arch, 4);
    memcpy(e + 40, &flags, 8);
    memcpy(e + 80, ptx, n);
    wrapper = (fatbin_wrapper){FATBINC_MAGIC, 2, (const unsigned long long *)(void *)fatbin, NULL};
}

static void test_register_and_launch(void)
{
    build_fatbin();
    void **h = __cudaRegisterFatBinary(&wrapper);
    CHECK(h != NULL);
    __cudaRegisterFunction(h, &host_scale, (char *)"scale", "scale", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(h, &host_oob, (char *)"oob", "oob", -1, NULL, NULL, NULL, NULL, NULL);
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
    CHECK(cudaDeviceReset() == cudaSuccess);
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
    CHECK(cudaGraphCreate(NULL, 0) == cudaErrorNotSupported);
    CHECK(cudaGetLastError() == cudaErrorNotSupported);
    void *big;
    CHECK(cudaMalloc(&big, (size_t)1 << 60) == cudaErrorMemoryAllocation);
    cudaGetLastError();
}

int main(void)
{
    RUN(test_register_and_launch);
    RUN(test_copies_never_touch_simulated_addresses);
    RUN(test_managed_and_pinned);
    RUN(test_events_and_streams);
    RUN(test_bad_handles);
    RUN(test_sticky_fault_and_reset);
    RUN(test_device_queries_and_stubs);
    return test_summary();
}
