/* driver_api.cu -- the CUDA driver API (libcuda), and the driver and
 * runtime APIs together in one program.
 *
 * A module of hand-written PTX is loaded with cuModuleLoadData and its
 * kernel launched with cuLaunchKernel, its arguments given both ways
 * (kernelParams, and the packed `extra` buffer); a module global is read
 * and written with cuModuleGetGlobal; memory is filled with
 * cuMemsetD8/D16/D32 and copied both ways; a stream and events order the
 * work.  Then a kernel this program compiled is found with
 * cudaGetFuncBySymbol and launched with cuLaunchKernel on memory the
 * runtime allocated: both APIs share the primary context, the memory and
 * the streams.  Every result is compared with a CPU reference.  Built with
 * -lcuda (tests/cuda/run.sh). */
#include <cuda.h>
#include <stdint.h>

#include "common.cuh"

#define CU(call)                                                                  \
    do {                                                                          \
        CUresult cu_err_ = (call);                                                \
        if (cu_err_ != CUDA_SUCCESS) {                                            \
            const char *name_ = "?";                                              \
            cuGetErrorName(cu_err_, &name_);                                      \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, name_); \
            exit(1);                                                              \
        }                                                                         \
    } while (0)

/* y[i] = a * x[i] + y[i] + offset, offset a module global */
static const char ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .global .align 4 .u32 offset = 100;\n"
    ".visible .entry saxpy(.param .u64 x, .param .u64 y, .param .u32 a, .param .u32 n)\n{\n"
    "  .reg .b32 %r<9>; .reg .b64 %rd<6>; .reg .pred %p1;\n"
    "  ld.param.u64 %rd1, [x]; ld.param.u64 %rd2, [y];\n"
    "  ld.param.u32 %r1, [a]; ld.param.u32 %r2, [n];\n"
    "  mov.u32 %r3, %tid.x; mov.u32 %r4, %ctaid.x; mov.u32 %r5, %ntid.x;\n"
    "  mad.lo.s32 %r3, %r4, %r5, %r3; setp.ge.u32 %p1, %r3, %r2; @%p1 bra DONE;\n"
    "  mul.wide.u32 %rd3, %r3, 4; add.s64 %rd4, %rd1, %rd3; add.s64 %rd5, %rd2, %rd3;\n"
    "  ld.global.u32 %r6, [%rd4]; ld.global.u32 %r7, [%rd5]; ld.global.u32 %r8, [offset];\n"
    "  mad.lo.s32 %r7, %r6, %r1, %r7; add.s32 %r7, %r7, %r8;\n"
    "  st.global.u32 [%rd5], %r7;\nDONE:\n  ret;\n}\n";

/* a kernel of this program, for the driver to launch */
__global__ void square_plus(int *v, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * v[i] + k;
}

int main()
{
    const int n = 1000;
    CU(cuInit(0));
    int count = 0;
    CU(cuDeviceGetCount(&count));
    check_int("one device", 1, count);
    CUdevice dev;
    CU(cuDeviceGet(&dev, 0));
    char name[128];
    CU(cuDeviceGetName(name, sizeof name, dev));
    check_true("the device has a name", name[0] != 0);
    /* the primary context: the runtime's too */
    CUcontext ctx;
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));

    CUmodule mod;
    CU(cuModuleLoadData(&mod, ptx));
    CUfunction saxpy;
    CU(cuModuleGetFunction(&saxpy, mod, "saxpy"));
    int nregs = 0;
    CU(cuFuncGetAttribute(&nregs, CU_FUNC_ATTRIBUTE_NUM_REGS, saxpy));
    check_true("the kernel uses registers", nregs > 0);

    int *hx = (int *)malloc(n * sizeof(int)), *hy = (int *)malloc(n * sizeof(int));
    int *ref = (int *)malloc(n * sizeof(int)), *got = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) {
        hx[i] = i - 300;
        hy[i] = 7 * i;
    }
    CUdeviceptr dx, dy;
    CU(cuMemAlloc(&dx, n * sizeof(int)));
    CU(cuMemAlloc(&dy, n * sizeof(int)));
    CU(cuMemcpyHtoD(dx, hx, n * sizeof(int)));
    CU(cuMemcpyHtoD(dy, hy, n * sizeof(int)));

    /* kernelParams */
    int a = 3;
    void *params[] = {&dx, &dy, &a, (void *)&n};
    CU(cuLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(got, dy, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        ref[i] = a * hx[i] + hy[i] + 100;
    check_array_exact("saxpy with kernelParams", ref, got, n);

    /* the module global, then the packed parameter buffer */
    CUdeviceptr doff;
    size_t offbytes = 0;
    CU(cuModuleGetGlobal(&doff, &offbytes, mod, "offset"));
    check_int("the global's size", 4, (long long)offbytes);
    int off = -5;
    CU(cuMemcpyHtoD(doff, &off, sizeof off));
    struct {
        CUdeviceptr x, y;
        int a, n;
    } buf = {dx, dy, -2, n};
    size_t bufsize = sizeof buf;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bufsize,
                     CU_LAUNCH_PARAM_END};
    CUstream s;
    CUevent e0, e1;
    CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CU(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    CU(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    CU(cuEventRecord(e0, s));
    CU(cuLaunchKernel(saxpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, s, NULL, extra));
    CU(cuEventRecord(e1, s));
    CU(cuMemcpyDtoHAsync(got, dy, n * sizeof(int), s));
    CU(cuStreamSynchronize(s));
    for (int i = 0; i < n; i++)
        ref[i] = -2 * hx[i] + ref[i] - 5;
    check_array_exact("saxpy with the extra buffer, on a stream", ref, got, n);
    CU(cuEventSynchronize(e1));
    float ms = -1;
    CU(cuEventElapsedTime(&ms, e0, e1));
    check_true("elapsed time is not negative", ms >= 0);

    /* fills */
    CU(cuMemsetD32(dy, 0x01020304u, n));
    CU(cuMemcpyDtoH(got, dy, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        ref[i] = 0x01020304;
    check_array_exact("cuMemsetD32", ref, got, n);
    CU(cuMemsetD16(dy, 0xbeef, 2 * n));
    CU(cuMemsetD8(dy, 0x11, 4)); /* the first int */
    CU(cuMemcpyDtoH(got, dy, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        ref[i] = (int)0xbeefbeefu;
    ref[0] = 0x11111111;
    check_array_exact("cuMemsetD16 and cuMemsetD8", ref, got, n);
    CU(cuMemcpyDtoD(dy, dx, n * sizeof(int)));
    CU(cuMemcpyDtoH(got, dy, n * sizeof(int)));
    check_array_exact("cuMemcpyDtoD", hx, got, n);

    /* the runtime's memory, this program's kernel, the driver's launch */
    int *rv;
    CHECK(cudaMalloc(&rv, n * sizeof(int)));
    CHECK(cudaMemcpy(rv, hx, n * sizeof(int), cudaMemcpyHostToDevice));
    cudaFunction_t fn;
    CHECK(cudaGetFuncBySymbol(&fn, (const void *)square_plus));
    int k = 11;
    void *p2[] = {&rv, (void *)&n, &k};
    CU(cuLaunchKernel((CUfunction)fn, (n + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, p2, NULL));
    CHECK(cudaDeviceSynchronize());
    CU(cuMemcpyDtoH(got, (CUdeviceptr)(uintptr_t)rv, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        ref[i] = hx[i] * hx[i] + 11;
    check_array_exact("a program kernel launched by the driver", ref, got, n);
    CUcontext cur;
    CU(cuCtxGetCurrent(&cur));
    check_true("the runtime uses the primary context", cur == ctx);

    /* errors */
    CUfunction none;
    check_int("an unknown kernel", CUDA_ERROR_NOT_FOUND,
              cuModuleGetFunction(&none, mod, "no_such_kernel"));
    const char *ename = NULL;
    CU(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &ename));
    check_str("error name", "CUDA_ERROR_INVALID_VALUE", ename);

    CHECK(cudaFree(rv));
    CU(cuEventDestroy(e0));
    CU(cuEventDestroy(e1));
    CU(cuStreamDestroy(s));
    CU(cuMemFree(dx));
    CU(cuMemFree(dy));
    CU(cuModuleUnload(mod));
    CU(cuDevicePrimaryCtxRelease(dev));
    free(hx);
    free(hy);
    free(ref);
    free(got);
    return finish();
}
