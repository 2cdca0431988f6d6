/*
 * test_driver.c -- the CUDA driver API (libcuda.so.1, src/cudart/driver.c
 * and drvmodule.c) driven directly, without nvcc: hand-written PTX loaded
 * as text, as a raw fat binary and from a file; launches with kernelParams
 * and with the packed `extra` buffer; contexts, memory, fills, streams,
 * events, module globals, function attributes; shared state with the
 * runtime API; cuGetProcAddress; error names; a cubin refused with a
 * message; and an unimplemented driver function, which returns
 * CUDA_ERROR_NOT_SUPPORTED and names itself on stderr.
 */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cudart/cuda_drv.h"
#include "ptx_fatbin.h"
#include "test.h"

CUresult cuArrayCreate_v2(void); /* a generated stub (driver_stubs.c) */

static const char ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".global .align 4 .u32 bias = 7;\n"
    ".visible .entry axpb(.param .u64 p, .param .u32 n, .param .u32 a)\n{\n"
    "  .reg .b32 %r<7>; .reg .b64 %rd<4>; .reg .pred %p1;\n"
    "  ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [n]; ld.param.u32 %r2, [a];\n"
    "  mov.u32 %r3, %tid.x; mov.u32 %r4, %ctaid.x; mov.u32 %r5, %ntid.x;\n"
    "  mad.lo.s32 %r3, %r4, %r5, %r3; setp.ge.u32 %p1, %r3, %r1; @%p1 bra DONE;\n"
    "  mul.wide.u32 %rd2, %r3, 4; add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r4, [%rd3]; ld.global.u32 %r6, [bias]; mad.lo.s32 %r4, %r4, %r2, %r6;\n"
    "  st.global.u32 [%rd3], %r4;\nDONE:\n  ret;\n}\n"
    ".visible .entry noargs()\n{\n  ret;\n}\n";

/* a fat binary holding ptx, as `nvcc -fatbin` writes one (src/cudart/fatbin.c) */
static _Alignas(8) unsigned char fatbin[4096];

static void build_fatbin(void)
{
    fatbin_wrapper w; /* the runtime's wrapper: not used by the driver */
    CHECK(ptx_fatbin(ptx, sizeof ptx, fatbin, sizeof fatbin, &w) == 0);
}

/* Run fn with stderr going to a file; what it wrote is returned in buf. */
static CUresult capture_stderr(CUresult (*fn)(void), char *buf, size_t len)
{
    char path[] = "/tmp/test_driver_stderr_XXXXXX";
    int fd = mkstemp(path);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    CUresult r = fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t k = pread(fd, buf, len - 1, 0);
    buf[k > 0 ? k : 0] = 0;
    close(fd);
    unlink(path);
    return r;
}

static CUresult call_stub(void) { return cuArrayCreate_v2(); }

/* In a process whose first CUDA call is the runtime's, the driver needs no
 * cuInit, and the primary context is current (as CUDA's runtime does).
 * A fresh process (this program again, with --runtime-first): a forked
 * child of a process that loaded the runtime makes no CUDA calls. */
static int runtime_first(void)
{
    CUcontext c = NULL;
    int n = 0;
    return cudaFree(NULL) != cudaSuccess ? 1
           : cuCtxGetCurrent(&c) != CUDA_SUCCESS ? 2
           : c == NULL ? 3
           : cuDeviceGetCount(&n) != CUDA_SUCCESS || n != 1 ? 4 : 0;
}

static void test_runtime_initializes(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", "test_driver", "--runtime-first", (char *)NULL);
        _exit(127);
    }
    int status = -1;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
}

static void test_before_init(void)
{
    int n;
    CUdevice d;
    CHECK(cuDeviceGetCount(&n) == CUDA_ERROR_NOT_INITIALIZED);
    CHECK(cuDeviceGet(&d, 0) == CUDA_ERROR_NOT_INITIALIZED);
    CHECK(cuDriverGetVersion(&n) == CUDA_SUCCESS && n == 13000);
    CHECK(cuInit(1) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuInit(0) == CUDA_SUCCESS);
}

static void test_device(void)
{
    int n = 0, v = 0, major = 0, minor = 0;
    CUdevice d = -1;
    char name[256];
    size_t mem = 0;
    CUuuid u;
    CHECK(cuDeviceGetCount(&n) == CUDA_SUCCESS && n == 1);
    CHECK(cuDeviceGet(&d, 0) == CUDA_SUCCESS && d == 0);
    CHECK(cuDeviceGet(&d, 1) == CUDA_ERROR_INVALID_DEVICE);
    CHECK(cuDeviceGetName(name, sizeof name, 0) == CUDA_SUCCESS && name[0]);
    CHECK(cuDeviceTotalMem_v2(&mem, 0) == CUDA_SUCCESS && mem > 0);
    CHECK(cuDeviceComputeCapability(&major, &minor, 0) == CUDA_SUCCESS && major >= 7);
    CHECK(cuDeviceGetAttribute(&v, 16 /* MULTIPROCESSOR_COUNT */, 0) == CUDA_SUCCESS && v > 0);
    CHECK(cuDeviceGetAttribute(&v, 75 /* COMPUTE_CAPABILITY_MAJOR */, 0) == CUDA_SUCCESS &&
          v == major);
    CHECK(cuDeviceGetAttribute(&v, 16, 3) == CUDA_ERROR_INVALID_DEVICE);
    CHECK(cuDeviceGetUuid(&u, 0) == CUDA_SUCCESS);
}

static void test_contexts(void)
{
    CUcontext c = NULL, cur = (CUcontext)1, p = NULL, popped = NULL;
    CUdeviceptr x;
    CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == NULL);
    CHECK(cuMemAlloc_v2(&x, 16) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuCtxCreate_v4(&c, NULL, 0, 0) == CUDA_SUCCESS && c != NULL);
    CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == c);
    CHECK(cuDevicePrimaryCtxRetain(&p, 0) == CUDA_SUCCESS && p != NULL && p != c);
    unsigned flags;
    int active;
    CHECK(cuDevicePrimaryCtxGetState(0, &flags, &active) == CUDA_SUCCESS && active);
    CHECK(cuCtxPushCurrent_v2(p) == CUDA_SUCCESS);
    CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == p);
    CHECK(cuCtxPopCurrent_v2(&popped) == CUDA_SUCCESS && popped == p);
    CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == c);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(cuCtxDestroy_v2(p) == CUDA_ERROR_INVALID_CONTEXT); /* the primary one */
    CHECK(cuCtxDestroy_v2(c) == CUDA_SUCCESS);
    CHECK(cuCtxDestroy_v2(c) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == NULL);
    CHECK(cuCtxSetCurrent(p) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxRelease_v2(0) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxRelease_v2(0) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuCtxCreate_v4(&c, NULL, 0, 0) == CUDA_SUCCESS); /* current for what follows */
}

/* Launch axpb over n elements with kernelParams, or with extra. */
static void check_axpb(CUfunction f, int use_extra)
{
    enum { N = 300 };
    unsigned h[N];
    for (unsigned i = 0; i < N; i++)
        h[i] = i;
    CUdeviceptr d;
    CHECK(cuMemAlloc_v2(&d, sizeof h) == CUDA_SUCCESS);
    CHECK(cuMemcpyHtoD_v2(d, h, sizeof h) == CUDA_SUCCESS);
    unsigned n = N, a = 3;
    if (use_extra) {
        struct {
            CUdeviceptr p;
            unsigned n, a;
        } buf = {d, n, a};
        size_t size = sizeof buf;
        void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                         CU_LAUNCH_PARAM_END};
        CHECK(cuLaunchKernel(f, 3, 1, 1, 128, 1, 1, 0, NULL, NULL, extra) == CUDA_SUCCESS);
        size_t small = 8;
        void *short_extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE,
                               &small, CU_LAUNCH_PARAM_END};
        CHECK(cuLaunchKernel(f, 3, 1, 1, 128, 1, 1, 0, NULL, NULL, short_extra) ==
              CUDA_ERROR_INVALID_VALUE);
    } else {
        void *params[] = {&d, &n, &a};
        CHECK(cuLaunchKernel(f, 3, 1, 1, 128, 1, 1, 0, NULL, params, NULL) == CUDA_SUCCESS);
        CHECK(cuLaunchKernel(f, 3, 1, 1, 128, 1, 1, 0, NULL, NULL, NULL) ==
              CUDA_ERROR_INVALID_VALUE);
        CHECK(cuLaunchKernel(f, 1, 1, 1, 4096, 1, 1, 0, NULL, params, NULL) ==
              CUDA_ERROR_INVALID_VALUE);
    }
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(cuMemcpyDtoH_v2(h, d, sizeof h) == CUDA_SUCCESS);
    int ok = 1;
    for (unsigned i = 0; i < N; i++)
        ok &= h[i] == i * 3 + 7;
    CHECK(ok);
    CHECK(cuMemFree_v2(d) == CUDA_SUCCESS);
}

static void test_modules_and_launches(void)
{
    CUmodule m;
    CUfunction f, g, none;
    CHECK(cuModuleLoadData(&m, ptx) == CUDA_SUCCESS);
    CHECK(cuModuleGetFunction(&f, m, "axpb") == CUDA_SUCCESS);
    CHECK(cuModuleGetFunction(&g, m, "axpb") == CUDA_SUCCESS && g == f);
    CHECK(cuModuleGetFunction(&none, m, "nothere") == CUDA_ERROR_NOT_FOUND);
    check_axpb(f, 0);
    check_axpb(f, 1);
    CUfunction na;
    CHECK(cuModuleGetFunction(&na, m, "noargs") == CUDA_SUCCESS);
    CHECK(cuLaunchKernel(na, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL) == CUDA_SUCCESS);
    /* a module global, changed from the host */
    CUdeviceptr bias;
    size_t bytes = 0;
    CHECK(cuModuleGetGlobal_v2(&bias, &bytes, m, "bias") == CUDA_SUCCESS && bytes == 4);
    unsigned b = 0;
    CHECK(cuMemcpyDtoH_v2(&b, bias, 4) == CUDA_SUCCESS && b == 7);
    CHECK(cuModuleGetGlobal_v2(&bias, &bytes, m, "nothere") == CUDA_ERROR_NOT_FOUND);
    int v = 0;
    const char *name = NULL;
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) == CUDA_SUCCESS &&
          v == 1024);
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_SUCCESS && v > 0);
    CHECK(cuFuncGetName(&name, f) == CUDA_SUCCESS && !strcmp(name, "axpb"));
    /* a query through the runtime makes no context current */
    CUcontext stack[8], none_cur = (CUcontext)1;
    int depth = 0;
    while (depth < 8 && cuCtxGetCurrent(&stack[depth]) == CUDA_SUCCESS && stack[depth])
        CHECK(cuCtxPopCurrent_v2(&stack[depth++]) == CUDA_SUCCESS);
    CHECK(depth > 0 && depth < 8);
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_SUCCESS);
    CHECK(cuCtxGetCurrent(&none_cur) == CUDA_SUCCESS && none_cur == NULL);
    while (depth > 0)
        CHECK(cuCtxPushCurrent_v2(stack[--depth]) == CUDA_SUCCESS);
    /* a NULL argument refuses the launch, with its statistics zero */
    void *nullarg[] = {NULL, NULL, NULL};
    CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, nullarg, NULL) != CUDA_SUCCESS);
    /* the runtime launches a driver function too: one function table */
    unsigned h[4] = {1, 2, 3, 4}, n = 4, a = 2;
    void *hd;
    CHECK(cudaMalloc(&hd, sizeof h) == cudaSuccess);
    CHECK(cudaMemcpy(hd, h, sizeof h, cudaMemcpyHostToDevice) == cudaSuccess);
    void *args[] = {&hd, &n, &a};
    CHECK(cudaLaunchKernel(f, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, NULL) == cudaSuccess);
    CHECK(cuMemcpyDtoH_v2(h, (CUdeviceptr)(uintptr_t)hd, sizeof h) == CUDA_SUCCESS);
    CHECK(h[0] == 9 && h[3] == 15);
    CHECK(cudaFree(hd) == cudaSuccess);
    CHECK(cuModuleUnload(m) == CUDA_SUCCESS);
    CHECK(cuModuleUnload(m) == CUDA_ERROR_INVALID_HANDLE);
    void *params[] = {&hd, &n, &a};
    CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL) == CUDA_ERROR_INVALID_HANDLE);
}

static void test_images(void)
{
    CUmodule m;
    CUfunction f;
    build_fatbin();
    CHECK(cuModuleLoadFatBinary(&m, fatbin) == CUDA_SUCCESS);
    CHECK(cuModuleGetFunction(&f, m, "axpb") == CUDA_SUCCESS);
    check_axpb(f, 0);
    CHECK(cuModuleUnload(m) == CUDA_SUCCESS);
    /* from a file, and as a library */
    char path[] = "/tmp/test_driver_ptx_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, ptx, sizeof ptx - 1) == (ssize_t)(sizeof ptx - 1));
    close(fd);
    CHECK(cuModuleLoad(&m, path) == CUDA_SUCCESS);
    CHECK(cuModuleGetFunction(&f, m, "axpb") == CUDA_SUCCESS);
    check_axpb(f, 1);
    CHECK(cuModuleUnload(m) == CUDA_SUCCESS);
    CUlibrary lib;
    CUkernel k;
    CHECK(cuLibraryLoadFromFile(&lib, path, NULL, NULL, 0, NULL, NULL, 0) == CUDA_SUCCESS);
    CHECK(cuLibraryGetKernel(&k, lib, "axpb") == CUDA_SUCCESS);
    CHECK(cuKernelGetFunction(&f, k) == CUDA_SUCCESS);
    check_axpb(f, 0);
    CHECK(cuLibraryGetModule(&m, lib) == CUDA_SUCCESS);
    CHECK(cuModuleUnload(m) == CUDA_ERROR_INVALID_HANDLE); /* the library's */
    CHECK(cuLibraryUnload(lib) == CUDA_SUCCESS);
    CHECK(cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0) == CUDA_SUCCESS);
    CHECK(cuLibraryUnload(lib) == CUDA_SUCCESS);
    unlink(path);
    CHECK(cuModuleLoad(&m, "/nonexistent/x.ptx") == CUDA_ERROR_FILE_NOT_FOUND);
    /* not a regular file: refused before it is read (it never ends) */
    CHECK(cuModuleLoad(&m, "/dev/zero") == CUDA_ERROR_INVALID_IMAGE);
    /* bad PTX: the error log says why */
    char log[1024] = "";
    CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[] = {log, (void *)(uintptr_t)sizeof log};
    CHECK(cuModuleLoadDataEx(&m, ".version 9.0\n.target sm_75\nnonsense;\n", 2, opt, val) ==
          CUDA_ERROR_INVALID_PTX);
    CHECK_STR_CONTAINS(log, "module");
    /* a cubin: machine code only, refused */
    static const unsigned char cubin[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    CHECK(cuModuleLoadData(&m, cubin) == CUDA_ERROR_NO_BINARY_FOR_GPU);
}

static void test_memory_streams_events(void)
{
    CUdeviceptr d;
    CHECK(cuMemAlloc_v2(&d, 64) == CUDA_SUCCESS);
    CHECK(cuMemAlloc_v2(&d, 0) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemAlloc_v2(&d, 64) == CUDA_SUCCESS);
    unsigned char h[64];
    CHECK(cuMemsetD8_v2(d, 0xab, 64) == CUDA_SUCCESS);
    CHECK(cuMemcpyDtoH_v2(h, d, 64) == CUDA_SUCCESS && h[0] == 0xab && h[63] == 0xab);
    CHECK(cuMemsetD16_v2(d, 0x1234, 32) == CUDA_SUCCESS);
    uint16_t h16[32];
    CHECK(cuMemcpyDtoH_v2(h16, d, 64) == CUDA_SUCCESS && h16[0] == 0x1234 && h16[31] == 0x1234);
    CHECK(cuMemsetD32_v2(d, 0xdeadbeef, 16) == CUDA_SUCCESS);
    uint32_t h32[16];
    CHECK(cuMemcpyDtoH_v2(h32, d, 64) == CUDA_SUCCESS && h32[0] == 0xdeadbeef &&
          h32[15] == 0xdeadbeef);
    CHECK(cuMemsetD32_v2(d + 2, 1, 4) == CUDA_ERROR_INVALID_VALUE);
    CUdeviceptr e;
    CHECK(cuMemAlloc_v2(&e, 64) == CUDA_SUCCESS);
    CHECK(cuMemcpyDtoD_v2(e, d, 64) == CUDA_SUCCESS);
    CUstream s;
    CUevent a, b;
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
    CHECK(cuEventCreate(&a, 0) == CUDA_SUCCESS && cuEventCreate(&b, 0) == CUDA_SUCCESS);
    CHECK(cuEventRecord(a, s) == CUDA_SUCCESS);
    CHECK(cuMemsetD32Async(e, 5, 16, s) == CUDA_SUCCESS);
    CHECK(cuMemcpyDtoHAsync_v2(h32, e, 64, s) == CUDA_SUCCESS);
    CHECK(cuEventRecord(b, s) == CUDA_SUCCESS);
    CHECK(cuStreamSynchronize(s) == CUDA_SUCCESS && h32[7] == 5);
    CHECK(cuEventQuery(b) == CUDA_SUCCESS && cuStreamQuery(s) == CUDA_SUCCESS);
    float ms = -1;
    CHECK(cuEventElapsedTime_v2(&ms, a, b) == CUDA_SUCCESS && ms >= 0);
    /* a fill of differing bytes is issued as copies: not into a capture */
    CHECK(cudaStreamBeginCapture(s, 2 /* relaxed */) == cudaSuccess);
    CHECK(cuMemsetD32Async(e, 0x01020304u, 16, s) == CUDA_ERROR_NOT_SUPPORTED);
    CHECK(cuMemsetD32Async(e, 0x05050505u, 16, s) == CUDA_SUCCESS); /* a memset node */
    cudaGraph_t gr = NULL;
    CHECK(cudaStreamEndCapture(s, &gr) == cudaSuccess && gr != NULL);
    CHECK(cudaGraphDestroy(gr) == cudaSuccess);
    CHECK(cuEventDestroy_v2(a) == CUDA_SUCCESS && cuEventDestroy_v2(b) == CUDA_SUCCESS);
    CHECK(cuStreamDestroy_v2(s) == CUDA_SUCCESS);
    CHECK(cuStreamSynchronize(s) == CUDA_ERROR_INVALID_HANDLE);
    /* a fill of differing bytes on a destroyed stream, a count whose bytes
     * do not fit in size_t */
    CHECK(cuMemsetD32Async(e, 0x01020304u, 16, s) == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuMemsetD32_v2(e, 0x01020304u, SIZE_MAX / 2) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemsetD16_v2(e, 7, SIZE_MAX / 2 + 1) == CUDA_ERROR_INVALID_VALUE);
    void *p;
    CHECK(cuMemAllocHost_v2(&p, 128) == CUDA_SUCCESS && cuMemFreeHost(p) == CUDA_SUCCESS);
    CHECK(cuMemHostAlloc(&p, 128, CU_MEMHOSTALLOC_PORTABLE) == CUDA_SUCCESS &&
          cuMemFreeHost(p) == CUDA_SUCCESS);
    /* what a pointer is */
    unsigned mt = 0, managed = 1;
    CUdeviceptr dp = 0, pd;
    size_t pitch = 0;
    CHECK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d) == CUDA_SUCCESS &&
          mt == CU_MEMORYTYPE_DEVICE);
    CHECK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, d) == CUDA_SUCCESS &&
          managed == 0);
    CHECK(cuPointerGetAttribute(&dp, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, d) == CUDA_SUCCESS &&
          dp == d);
    CHECK(cuMemAllocHost_v2(&p, 128) == CUDA_SUCCESS);
    CHECK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                (CUdeviceptr)(uintptr_t)p) == CUDA_SUCCESS &&
          mt == CU_MEMORYTYPE_HOST);
    CHECK(cuMemFreeHost(p) == CUDA_SUCCESS);
    CHECK(cuMemAllocPitch_v2(&pd, &pitch, 100, 3, 4) == CUDA_SUCCESS && pitch >= 100);
    CHECK(cuMemAllocPitch_v2(&pd, &pitch, 100, 3, 3) == CUDA_ERROR_INVALID_VALUE);
    CUcontext sc = NULL, cur = NULL;
    CHECK(cuStreamGetCtx(NULL, &sc) == CUDA_SUCCESS && cuCtxGetCurrent(&cur) == CUDA_SUCCESS &&
          sc == cur);
    size_t fr = 0, tot = 0;
    CHECK(cuMemGetInfo_v2(&fr, &tot) == CUDA_SUCCESS && tot > 0 && fr <= tot);
    CHECK(cuMemFree_v2(d) == CUDA_SUCCESS && cuMemFree_v2(e) == CUDA_SUCCESS);
    CHECK(cuMemFree_v2(d) == CUDA_ERROR_INVALID_VALUE);
    /* the runtime's last error is the runtime's: driver calls leave it */
    CHECK(cudaGetLastError() == cudaSuccess);
}

static void test_names_and_entry_points(void)
{
    const char *s = NULL;
    CHECK(cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &s) == CUDA_SUCCESS &&
          !strcmp(s, "CUDA_ERROR_ILLEGAL_ADDRESS"));
    CHECK(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &s) == CUDA_SUCCESS &&
          !strcmp(s, "out of memory"));
    CHECK(cuGetErrorName(12345, &s) == CUDA_ERROR_INVALID_VALUE);
    void *fn = NULL;
    CUdriverProcAddressQueryResult st = -1;
    CHECK(cuGetProcAddress_v2("cuMemAlloc", &fn, 13000, 0, &st) == CUDA_SUCCESS &&
          fn == (void *)cuMemAlloc_v2 && st == CU_GET_PROC_ADDRESS_SUCCESS);
    CHECK(cuGetProcAddress_v2("cuMemcpyHtoD", &fn, 13000,
                              CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
                              &st) == CUDA_SUCCESS &&
          fn == (void *)cuMemcpyHtoD_v2_ptds);
    CHECK(cuGetProcAddress_v2("cuInit", &fn, 13000, 0, &st) == CUDA_SUCCESS &&
          fn == (void *)cuInit);
    CHECK(cuGetProcAddress_v2("cuNoSuchThing", &fn, 13000, 0, &st) == CUDA_ERROR_NOT_FOUND &&
          fn == NULL && st == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    CHECK(cuGetProcAddress_v2("cuArrayCreate", &fn, 13000, 0, &st) == CUDA_ERROR_NOT_FOUND &&
          st == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND); /* a stub is not handed out */
    CHECK(cuGetProcAddress_v2("cuLaunchKernelEx", &fn, 11000, 0, &st) == CUDA_ERROR_NOT_FOUND &&
          st == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    int ds = -1;
    CHECK(cudaGetDriverEntryPoint("cuCtxSynchronize", &fn, 0, &ds) == cudaSuccess && ds == 0 &&
          fn == (void *)cuCtxSynchronize_v2); /* the export in force at 13.0 */
    /* an unimplemented function says so, once, by name */
    char out[512];
    CHECK(capture_stderr(call_stub, out, sizeof out) == CUDA_ERROR_NOT_SUPPORTED);
    CHECK_STR_CONTAINS(out, "cuArrayCreate_v2 is not supported");
    CHECK(capture_stderr(call_stub, out, sizeof out) == CUDA_ERROR_NOT_SUPPORTED);
    CHECK(out[0] == 0);
}

/* A fault is sticky for the driver as for the runtime. */
static void test_sticky_fault(void)
{
    static const char bad[] = ".version 9.0\n.target sm_75\n.address_size 64\n"
                              ".visible .entry oob()\n{\n  st.global.u32 [0], 1;\n  ret;\n}\n";
    CUmodule m;
    CUfunction f;
    CHECK(cuModuleLoadData(&m, bad) == CUDA_SUCCESS);
    CHECK(cuModuleGetFunction(&f, m, "oob") == CUDA_SUCCESS);
    CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_ERROR_ILLEGAL_ADDRESS);
    CUdeviceptr d;
    CHECK(cuMemAlloc_v2(&d, 4) == CUDA_ERROR_ILLEGAL_ADDRESS);
    /* resetting the primary context clears it */
    CHECK(cuDevicePrimaryCtxReset_v2(0) == CUDA_SUCCESS);
    CHECK(cuMemAlloc_v2(&d, 4) == CUDA_SUCCESS && cuMemFree_v2(d) == CUDA_SUCCESS);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--runtime-first"))
        return runtime_first();
    RUN(test_runtime_initializes);
    RUN(test_before_init);
    RUN(test_device);
    RUN(test_contexts);
    RUN(test_modules_and_launches);
    RUN(test_images);
    RUN(test_memory_streams_events);
    RUN(test_names_and_entry_points);
    RUN(test_sticky_fault);
    return test_summary();
}
