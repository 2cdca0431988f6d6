/* runtime_api.cu -- the runtime functions real programs use beside launches and
 * linear copies: the occupancy calculator, host functions and stream
 * callbacks, registered host memory, pitched and 3-D memory, stream
 * priorities, and stream-ordered allocation with memory pools.  Every result
 * is checked against a CPU reference or a rule the CUDA documentation states. */
#include <cooperative_groups.h>
#include <stdint.h>

#include "common.cuh"

__global__ void scale(float *v, int n, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= k;
}

/* needs 8 KiB of static shared memory per block: fewer blocks fit on an SM */
__global__ void heavy_shared(int *out)
{
    __shared__ int buf[2048];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

/* add 1 to every element of a pitched width x height x depth volume */
__global__ void bump3d(cudaPitchedPtr p, int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    if (x < w && y < h && z < d) {
        char *slice = (char *)p.ptr + (size_t)z * p.pitch * h;
        int *row = (int *)(slice + (size_t)y * p.pitch);
        row[x] += 1;
    }
}

__global__ void fill_index(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = i * 3;
}

static int order_log[8], order_n;
static void CUDART_CB host_fn(void *arg) { order_log[order_n++] = (int)(size_t)arg; }
static void CUDART_CB stream_cb(cudaStream_t, cudaError_t status, void *arg)
{
    order_log[order_n++] = status == cudaSuccess ? (int)(size_t)arg : -1;
}

static void occupancy(void)
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale, 128, 0));
    check_true("occupancy: at least one 128-thread block per SM", blocks >= 1);
    check_true("occupancy: within the SM's thread limit",
               blocks * 128 <= prop.maxThreadsPerMultiProcessor);
    check_true("occupancy: within the SM's block limit",
               blocks <= prop.maxBlocksPerMultiProcessor);
    int shared_blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&shared_blocks, heavy_shared, 64,
                                                                 0, cudaOccupancyDefault));
    check_true("occupancy: static shared memory limits blocks per SM",
               shared_blocks >= 1 &&
                   (size_t)shared_blocks * 8192 <= prop.sharedMemPerMultiprocessor);
    int dyn_blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&dyn_blocks, scale, 64,
                                                        prop.sharedMemPerMultiprocessor / 2));
    check_int("occupancy: half an SM's shared memory each fits two blocks", 2, dyn_blocks);
    size_t avail = 0;
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, scale, 2, 64));
    check_true("occupancy: dynamic shared memory for two blocks",
               avail >= prop.sharedMemPerMultiprocessor / 2 - 256 &&
                   avail <= prop.sharedMemPerMultiprocessor / 2);
    int min_grid = 0, block = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, scale, 0, 0));
    check_true("occupancy: a potential block size, a multiple of the warp size",
               block >= 32 && block <= prop.maxThreadsPerBlock && block % 32 == 0);
    check_true("occupancy: the minimum grid fills every SM",
               min_grid >= prop.multiProcessorCount);

    /* the block size it suggests runs */
    const int n = 3000;
    float *d, h[n];
    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    scale<<<(n + block - 1) / block, block>>>(d, n, 2.0f);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != 2.0f * (float)i;
    check_int("occupancy: a launch with the suggested block size", 0, bad);
    CHECK(cudaFree(d));
}

static void host_functions(void)
{
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    const int n = 256;
    int *d, h[n];
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    order_n = 0;
    fill_index<<<1, n, 0, s>>>(d, n);
    CHECK(cudaLaunchHostFunc(s, host_fn, (void *)1));
    CHECK(cudaStreamAddCallback(s, stream_cb, (void *)2, 0));
    CHECK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaLaunchHostFunc(s, host_fn, (void *)3));
    CHECK(cudaStreamSynchronize(s));
    check_int("host functions: all three ran", 3, order_n);
    check_true("host functions: in stream order",
               order_log[0] == 1 && order_log[1] == 2 && order_log[2] == 3);
    check_int("host functions: the copy before them finished", 3 * 255, h[255]);
    check_int("cudaStreamAddCallback with flags != 0 is refused", cudaErrorInvalidValue,
              cudaStreamAddCallback(s, stream_cb, NULL, 1));
    cudaGetLastError();
    CHECK(cudaFree(d));
    CHECK(cudaStreamDestroy(s));
}

static void registered_memory(void)
{
    const int n = 1000;
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    CHECK(cudaHostRegister(h, n * sizeof(float), cudaHostRegisterMapped));
    float *dp = NULL;
    CHECK(cudaHostGetDevicePointer((void **)&dp, h, 0));
    scale<<<(n + 255) / 256, 256>>>(dp, n, 0.5f);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != 0.5f * (float)i;
    check_int("registered host memory: a kernel writes it in place", 0, bad);
    unsigned flags = 0;
    CHECK(cudaHostGetFlags(&flags, h));
    check_true("registered host memory: cudaHostGetFlags", (flags & cudaHostAllocMapped) != 0);
    check_int("registering it twice is refused", cudaErrorHostMemoryAlreadyRegistered,
              cudaHostRegister(h, n * sizeof(float), 0));
    cudaGetLastError();
    CHECK(cudaHostUnregister(h));
    check_int("unregistering it twice is refused", cudaErrorHostMemoryNotRegistered,
              cudaHostUnregister(h));
    cudaGetLastError();
    free(h);
}

static void pitched_memory(void)
{
    const int w = 37, hgt = 19, depth = 5;
    /* 2-D: pitched allocation, 2-D copies both ways, a 2-D fill */
    int *d2;
    size_t pitch = 0;
    CHECK(cudaMallocPitch((void **)&d2, &pitch, w * sizeof(int), hgt));
    check_true("cudaMallocPitch: pitch holds a row and is 512-byte aligned",
               pitch >= w * sizeof(int) && pitch % 512 == 0);
    static int src[hgt][w], back[hgt][w];
    for (int y = 0; y < hgt; y++)
        for (int x = 0; x < w; x++)
            src[y][x] = y * 100 + x;
    CHECK(cudaMemset2D(d2, pitch, 0xff, pitch, hgt));
    CHECK(cudaMemcpy2D(d2, pitch, src, w * sizeof(int), w * sizeof(int), hgt,
                       cudaMemcpyHostToDevice));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMemcpy2DAsync(back, w * sizeof(int), d2, pitch, w * sizeof(int), hgt,
                            cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    check_true("2-D copy round trip", memcmp(src, back, sizeof src) == 0);
    /* the fill covers only rows 3..5, 10 ints wide; the rest keep their values */
    CHECK(cudaMemset2D((char *)d2 + 3 * pitch, pitch, 0, 10 * sizeof(int), 3));
    CHECK(cudaMemcpy2D(back, w * sizeof(int), d2, pitch, w * sizeof(int), hgt,
                       cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int y = 0; y < hgt; y++)
        for (int x = 0; x < w; x++)
            bad += back[y][x] != ((y >= 3 && y < 6 && x < 10) ? 0 : src[y][x]);
    check_int("cudaMemset2D fills only its rectangle", 0, bad);
    check_int("cudaMemcpy2D with width > pitch is refused", cudaErrorInvalidPitchValue,
              cudaMemcpy2D(back, 4, d2, pitch, 8, 2, cudaMemcpyDeviceToHost));
    cudaGetLastError();
    CHECK(cudaFree(d2));

    /* 3-D: cudaMalloc3D, cudaMemcpy3D both ways, cudaMemset3D, a kernel */
    cudaExtent ext = make_cudaExtent(w * sizeof(int), hgt, depth);
    cudaPitchedPtr p;
    CHECK(cudaMalloc3D(&p, ext));
    static int vol[depth][hgt][w], out[depth][hgt][w];
    for (int z = 0; z < depth; z++)
        for (int y = 0; y < hgt; y++)
            for (int x = 0; x < w; x++)
                vol[z][y][x] = z * 10000 + y * 100 + x;
    CHECK(cudaMemset3D(p, 0, ext));
    cudaMemcpy3DParms up = {0};
    up.srcPtr = make_cudaPitchedPtr(vol, w * sizeof(int), w, hgt);
    up.dstPtr = p;
    up.extent = ext;
    up.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&up));
    bump3d<<<dim3((w + 31) / 32, hgt, depth), 32>>>(p, w, hgt, depth);
    CHECK_LAUNCH();
    cudaMemcpy3DParms down = {0};
    down.srcPtr = p;
    down.dstPtr = make_cudaPitchedPtr(out, w * sizeof(int), w, hgt);
    down.extent = ext;
    down.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3DAsync(&down, s));
    CHECK(cudaStreamSynchronize(s));
    bad = 0;
    for (int z = 0; z < depth; z++)
        for (int y = 0; y < hgt; y++)
            for (int x = 0; x < w; x++)
                bad += out[z][y][x] != vol[z][y][x] + 1;
    check_int("3-D copy, kernel on pitched volume, copy back", 0, bad);
    /* a sub-box copy with positions: 4 x 3 x 2 ints from (2,5,1) to (0,0,0) */
    static int box[2][3][4];
    cudaMemcpy3DParms sub = {0};
    sub.srcPtr = p;
    sub.srcPos = make_cudaPos(2 * sizeof(int), 5, 1);
    sub.dstPtr = make_cudaPitchedPtr(box, 4 * sizeof(int), 4, 3);
    sub.extent = make_cudaExtent(4 * sizeof(int), 3, 2);
    sub.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&sub));
    bad = 0;
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 4; x++)
                bad += box[z][y][x] != vol[z + 1][y + 5][x + 2] + 1;
    check_int("3-D copy of a sub-box at a position", 0, bad);
    CHECK(cudaFree(p.ptr));
    CHECK(cudaStreamDestroy(s));
}

static void priorities(void)
{
    int least = 1, greatest = 1;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    check_true("stream priority range: greatest <= least", greatest <= least);
    cudaStream_t s;
    CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest));
    int pr = 99;
    CHECK(cudaStreamGetPriority(s, &pr));
    check_int("a stream keeps its priority", greatest, pr);
    CHECK(cudaStreamDestroy(s));
}

static void pools(void)
{
    int supported = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
    check_int("cudaDevAttrMemoryPoolsSupported", 1, supported);
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    const int n = 4096;
    int *a, *b, h[n];
    CHECK(cudaMallocAsync((void **)&a, n * sizeof(int), s));
    fill_index<<<n / 256, 256, 0, s>>>(a, n);
    CHECK(cudaMemcpyAsync(h, a, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(a, s));
    CHECK(cudaStreamSynchronize(s));
    check_int("cudaMallocAsync memory holds a kernel's results", 3 * 4095, h[4095]);

    cudaMemPool_t def, cur;
    CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
    CHECK(cudaDeviceGetMemPool(&cur, 0));
    check_true("the current pool is the default pool", def == cur);
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t pool;
    CHECK(cudaMemPoolCreate(&pool, &props));
    uint64_t threshold = 1 << 20, got = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &got));
    check_int("pool release threshold", threshold, (long long)got);
    CHECK(cudaMallocFromPoolAsync((void **)&a, 1000, pool, s));
    CHECK(cudaMallocFromPoolAsync((void **)&b, 3000, pool, s));
    uint64_t used = 0, high = 0;
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    /* a GPU may round allocations up: check the relations, not the bytes */
    uint64_t both = used;
    check_true("pool used memory counts both allocations", used >= 4000);
    CHECK(cudaFreeAsync(b, s));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
    uint64_t one = used;
    check_true("pool used memory after a free", used >= 1000 && used < both);
    check_true("pool used high-water mark", high == both);
    uint64_t zero = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
    check_true("pool high-water mark reset", high == one);
    CHECK(cudaDeviceSetMemPool(0, pool));
    CHECK(cudaMallocAsync((void **)&b, 500, s));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    check_true("cudaMallocAsync takes from the device's current pool", used > one);
    CHECK(cudaFree(b)); /* cudaFree may free what cudaMallocAsync gave */
    CHECK(cudaFreeAsync(a, s));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    check_int("pool empty after freeing everything", 0, (long long)used);
    CHECK(cudaMemPoolTrimTo(pool, 0));
    CHECK(cudaDeviceSetMemPool(0, def));
    CHECK(cudaMemPoolDestroy(pool));
    check_int("a destroyed pool is refused", cudaErrorInvalidValue,
              cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    cudaGetLastError();
    CHECK(cudaStreamDestroy(s));
}

__global__ void coop_count(int *n)
{
    /* a cooperative launch through cudaLaunchKernelEx: grid.sync() is valid */
    atomicAdd(n, cooperative_groups::this_grid().is_valid() ? 1 : 1000);
}

static void pointers_and_launch_ex(void)
{
    float *dev, *pinned, *managed, stack_var = 0;
    CHECK(cudaMalloc(&dev, 256));
    CHECK(cudaMallocHost(&pinned, 256));
    CHECK(cudaMallocManaged(&managed, 256));
    cudaPointerAttributes a;
    CHECK(cudaPointerGetAttributes(&a, dev));
    check_true("cudaPointerGetAttributes: device memory",
               a.type == cudaMemoryTypeDevice && a.devicePointer == dev && a.device == 0);
    CHECK(cudaPointerGetAttributes(&a, pinned + 3));
    check_true("cudaPointerGetAttributes: pinned host memory",
               a.type == cudaMemoryTypeHost && a.hostPointer == pinned + 3);
    CHECK(cudaPointerGetAttributes(&a, managed));
    check_true("cudaPointerGetAttributes: managed memory", a.type == cudaMemoryTypeManaged);
    CHECK(cudaPointerGetAttributes(&a, &stack_var));
    check_true("cudaPointerGetAttributes: unregistered host memory",
               a.type == cudaMemoryTypeUnregistered);
    cudaMemLocation loc = {};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = 0;
    for (int i = 0; i < 64; i++)
        managed[i] = (float)i;
    CHECK(cudaMemAdvise(managed, 256, cudaMemAdviseSetReadMostly, loc));
    CHECK(cudaMemPrefetchAsync(managed, 256, loc, 0, 0));
    scale<<<1, 64>>>(managed, 64, 3.0f);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());
    int wrong = 0;
    for (int i = 0; i < 64; i++)
        wrong += managed[i] != 3.0f * (float)i;
    check_int("managed memory after cudaMemAdvise and cudaMemPrefetchAsync", 0, wrong);

    const char *name = NULL;
    CHECK(cudaFuncGetName(&name, (const void *)scale));
    check_true("cudaFuncGetName", name && strstr(name, "scale"));
    int chosen = -1;
    cudaDeviceProp want;
    memset(&want, 0, sizeof want);
    want.major = 7;
    CHECK(cudaChooseDevice(&chosen, &want));
    check_int("cudaChooseDevice", 0, chosen);

    int *n;
    CHECK(cudaMalloc(&n, sizeof(int)));
    CHECK(cudaMemset(n, 0, sizeof(int)));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(4);
    cfg.blockDim = dim3(32);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, coop_count, n));
    int hn = 0;
    CHECK(cudaMemcpy(&hn, n, sizeof hn, cudaMemcpyDeviceToHost));
    check_int("cudaLaunchKernelEx with the cooperative attribute", 4 * 32, hn);
    CHECK(cudaFree(n));
    CHECK(cudaFree(dev));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(managed));
}

int main(void)
{
    occupancy();
    host_functions();
    registered_memory();
    pitched_memory();
    priorities();
    pools();
    pointers_and_launch_ex();
    return finish();
}
