/* device.cu -- device management and properties.
 *
 * cudaGetDeviceCount, cudaGetDevice, cudaSetDevice (and its error for a
 * device that does not exist), cudaGetDeviceProperties and
 * cudaDeviceGetAttribute (a few properties printed; only device-independent
 * facts checked: warpSize 32, at least one multiprocessor, limits consistent
 * between the two calls and large enough for an ordinary launch),
 * cudaDriverGetVersion / cudaRuntimeGetVersion, cudaDeviceSetCacheConfig, and
 * cudaDeviceReset with memory still allocated: after it the runtime
 * initializes again on the next call and a kernel runs.  A small kernel sized from the reported properties
 * (a grid-stride sum with one block per multiprocessor) is the workload.
 * The printed properties differ between devices, so stdout is not compared. */
#include "common.cuh"

__global__ void grid_stride_square(const int *in, long long *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = (long long)in[i] * in[i];
}

/* Runs the workload with the given launch shape; returns true when right. */
static bool run_workload(int blocks, int threads)
{
    const int n = 12345;
    int *h = (int *)malloc(n * sizeof(int));
    long long *got = (long long *)malloc(n * sizeof(long long));
    for (int i = 0; i < n; i++)
        h[i] = i * 3 - 17000;
    int *din;
    long long *dout;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dout, n * sizeof(long long)));
    CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
    grid_stride_square<<<blocks, threads>>>(din, dout, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, n * sizeof(long long), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && got[i] == (long long)h[i] * h[i];
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    free(h);
    free(got);
    return ok;
}

/* module variables, for cudaDeviceReset */
__device__ int g_counter = 5;
__device__ int g_zeroed;
__constant__ int c_table[2] = {3, 4};
__global__ void bump() { g_counter += 1; }

int main(void)
{
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    check_true("cudaGetDeviceCount reports at least one device", count >= 1);
    printf("device count: %d\n", count);

    CHECK(cudaSetDevice(0));
    int dev = -1;
    CHECK(cudaGetDevice(&dev));
    check_int("cudaGetDevice after cudaSetDevice(0)", 0, dev);
    check_err("cudaSetDevice(count) is cudaErrorInvalidDevice", cudaErrorInvalidDevice,
              cudaSetDevice(count));
    check_err("cudaGetLastError returns that error", cudaErrorInvalidDevice, cudaGetLastError());
    CHECK(cudaGetDevice(&dev));
    check_int("the current device is unchanged after the failed cudaSetDevice", 0, dev);

    int driver = 0, runtime = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    printf("driver version %d, runtime version %d\n", driver, runtime);
    check_true("cudaDriverGetVersion is positive", driver > 0);
    check_true("cudaRuntimeGetVersion is positive", runtime > 0);

    cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    CHECK(cudaGetDeviceProperties(&p, 0));
    printf("name: %s\n", p.name);
    printf("compute capability: %d.%d\n", p.major, p.minor);
    printf("multiprocessors: %d, warp size: %d, max threads per block: %d\n",
           p.multiProcessorCount, p.warpSize, p.maxThreadsPerBlock);
    printf("global memory: %zu MiB, shared per block: %zu bytes, constant: %zu bytes\n",
           p.totalGlobalMem >> 20, p.sharedMemPerBlock, p.totalConstMem);
    printf("max block: %d x %d x %d, max grid: %d x %d x %d\n", p.maxThreadsDim[0],
           p.maxThreadsDim[1], p.maxThreadsDim[2], p.maxGridSize[0], p.maxGridSize[1],
           p.maxGridSize[2]);
    check_int("warpSize", 32, p.warpSize);
    check_true("multiProcessorCount > 0", p.multiProcessorCount > 0);
    check_true("maxThreadsPerBlock >= 256", p.maxThreadsPerBlock >= 256);
    check_true("maxThreadsDim >= (256, 256, 64)",
               p.maxThreadsDim[0] >= 256 && p.maxThreadsDim[1] >= 256 && p.maxThreadsDim[2] >= 64);
    check_true("maxGridSize >= (65535, 65535, 65535)",
               p.maxGridSize[0] >= 65535 && p.maxGridSize[1] >= 65535 && p.maxGridSize[2] >= 65535);
    check_true("sharedMemPerBlock >= 16 KiB", p.sharedMemPerBlock >= 16384);
    check_true("totalConstMem >= 64 KiB", p.totalConstMem >= 65536);
    check_true("totalGlobalMem >= 64 MiB", p.totalGlobalMem >= (64u << 20));
    check_true("major compute capability >= 1", p.major >= 1);
    check_true("name is not empty", p.name[0] != '\0');

    int a_warp = 0, a_sms = 0, a_tpb = 0, a_major = 0, a_smem = 0, a_bdx = 0;
    CHECK(cudaDeviceGetAttribute(&a_warp, cudaDevAttrWarpSize, 0));
    CHECK(cudaDeviceGetAttribute(&a_sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaDeviceGetAttribute(&a_tpb, cudaDevAttrMaxThreadsPerBlock, 0));
    CHECK(cudaDeviceGetAttribute(&a_major, cudaDevAttrComputeCapabilityMajor, 0));
    CHECK(cudaDeviceGetAttribute(&a_smem, cudaDevAttrMaxSharedMemoryPerBlock, 0));
    CHECK(cudaDeviceGetAttribute(&a_bdx, cudaDevAttrMaxBlockDimX, 0));
    check_int("cudaDevAttrWarpSize", 32, a_warp);
    check_int("cudaDevAttrMultiProcessorCount matches the properties", p.multiProcessorCount,
              a_sms);
    check_int("cudaDevAttrMaxThreadsPerBlock matches", p.maxThreadsPerBlock, a_tpb);
    check_int("cudaDevAttrComputeCapabilityMajor matches", p.major, a_major);
    check_int("cudaDevAttrMaxSharedMemoryPerBlock matches", (long long)p.sharedMemPerBlock,
              a_smem);
    check_int("cudaDevAttrMaxBlockDimX matches", p.maxThreadsDim[0], a_bdx);
    /* the clocks, bus and L2 follow the configuration (the defaults: the
     * GTX 480's 700 MHz core, 924 MHz DRAM, 6 x 64-bit channels, 768 KB L2) */
    int a_clk, a_mclk, a_bus, a_l2;
    CHECK(cudaDeviceGetAttribute(&a_clk, cudaDevAttrClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&a_mclk, cudaDevAttrMemoryClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&a_bus, cudaDevAttrGlobalMemoryBusWidth, 0));
    CHECK(cudaDeviceGetAttribute(&a_l2, cudaDevAttrL2CacheSize, 0));
    check_int("cudaDevAttrClockRate: the core clock in kHz", 700000, a_clk);
    check_int("cudaDevAttrMemoryClockRate: the DRAM clock in kHz", 924000, a_mclk);
    check_int("cudaDevAttrGlobalMemoryBusWidth: bits", 384, a_bus);
    check_int("cudaDevAttrL2CacheSize: bytes", 786432, a_l2);
    check_int("memoryBusWidth matches", a_bus, p.memoryBusWidth);
    check_int("l2CacheSize matches", a_l2, p.l2CacheSize);

    /* The workload, one block per multiprocessor, then a larger grid. */
    check_true("grid-stride kernel with one block per SM",
               run_workload(p.multiProcessorCount, 128));
    check_true("grid-stride kernel with maxThreadsPerBlock threads",
               run_workload(3, p.maxThreadsPerBlock));

    /* Cache preference: accepted (a hint), and the kernel still runs. */
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    check_true("kernel after cudaDeviceSetCacheConfig(PreferShared)", run_workload(2, 32));
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
    check_true("kernel after cudaDeviceSetCacheConfig(PreferL1)", run_workload(7, 96));
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone));

    /* cudaDeviceReset with an allocation still live; the next call starts
     * afresh. */
    int *before;
    CHECK(cudaMalloc(&before, 1024));
    CHECK(cudaMemset(before, 1, 1024));
    /* module variables get their initial values again: the initializer, or 0 */
    bump<<<1, 1>>>();
    CHECK_LAUNCH();
    int seven = 7;
    CHECK(cudaMemcpyToSymbol(g_zeroed, &seven, sizeof seven));
    CHECK(cudaMemcpyToSymbol(c_table, &seven, sizeof seven));
    int vals[3];
    CHECK(cudaMemcpyFromSymbol(&vals[0], g_counter, sizeof(int)));
    check_int("a __device__ variable changed by a kernel", 6, vals[0]);
    CHECK(cudaDeviceReset());
    CHECK(cudaMemcpyFromSymbol(&vals[0], g_counter, sizeof(int)));
    CHECK(cudaMemcpyFromSymbol(&vals[1], g_zeroed, sizeof(int)));
    CHECK(cudaMemcpyFromSymbol(&vals[2], c_table, sizeof(int)));
    check_int("after cudaDeviceReset: __device__ int g_counter = 5", 5, vals[0]);
    check_int("after cudaDeviceReset: __device__ int g_zeroed (no initializer)", 0, vals[1]);
    check_int("after cudaDeviceReset: __constant__ int c_table[2] = {3, 4}", 3, vals[2]);
    check_err("cudaGetLastError right after cudaDeviceReset", cudaSuccess, cudaGetLastError());
    CHECK(cudaGetDevice(&dev));
    check_int("cudaGetDevice after cudaDeviceReset", 0, dev);
    check_true("kernel after cudaDeviceReset", run_workload(5, 64));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaDeviceReset());
    return finish();
}
