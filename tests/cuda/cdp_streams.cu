/* cdp_streams.cu -- dynamic parallelism: work launched from device code
 * into device streams, and what CUDA promises about its order.  Thread 0
 * of each of 4 blocks (each with its own streams) launches:
 *   - into a named stream s1: set_val, then add_from reading what set_val
 *     wrote (in-stream order), then a cudaMemcpyAsync of add_from's result
 *     (a copy after a kernel in the same stream), then records an event;
 *   - into a named stream s2 that waits for that event: add_from reading
 *     the copy, then a cudaMemsetAsync;
 *   - into cudaStreamFireAndForget: set_val;
 *   - into cudaStreamTailLaunch: tail_sum, which runs after the parent
 *     grid and all the work above and sums what it left;
 * and, before all that, writes a value its children read (a child sees its
 * parent's writes made before the launch).  Thread 0 of each block also
 * asks the device runtime about the device (cudaGetDevice,
 * cudaDeviceGetAttribute, cudaDeviceGetLimit, cudaRuntimeGetVersion,
 * cudaFuncGetAttributes, the occupancy calculator) and allocates and frees
 * device memory with device-side cudaMalloc / cudaFree; the host compares
 * the answers with its own.  Built with
 *     nvcc -cudart shared -O2 -rdc=true -lcudadevrt */
#include "common.cuh"

#define NBLOCKS 4
#define SLOTS 8
#define NINFO 9

__global__ void set_val(int *p, int v) { *p = v; }

__global__ void add_from(int *dst, const int *src, int add) { *dst = *src + add; }

/* the parent's value, read by a child */
__global__ void read_parent(int *dst, const int *src) { *dst = *src * 2; }

__global__ void tail_sum(int *out, const int *slots)
{
    int sum = 0;
    for (int i = 0; i < SLOTS; i++)
        sum += slots[i];
    *out = sum;
}

__global__ void parent(int *buf, int *out, int *info)
{
    if (threadIdx.x != 0)
        return;
    int b = blockIdx.x;
    int *slot = buf + b * SLOTS;
    slot[6] = 1000 + b; /* before the launches: read_parent must see it */
    cudaStream_t s1, s2;
    cudaEvent_t e;
    int bad = 0;
    bad |= cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking) != cudaSuccess;
    bad |= cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) != cudaSuccess;
    bad |= cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess;
    set_val<<<1, 1, 0, s1>>>(&slot[0], 10 + b);
    add_from<<<1, 1, 0, s1>>>(&slot[1], &slot[0], 1);
    bad |= cudaMemcpyAsync(&slot[2], &slot[1], sizeof(int), cudaMemcpyDeviceToDevice, s1) !=
           cudaSuccess;
    bad |= cudaEventRecord(e, s1) != cudaSuccess;
    bad |= cudaStreamWaitEvent(s2, e, 0) != cudaSuccess;
    add_from<<<1, 1, 0, s2>>>(&slot[3], &slot[2], 100);
    bad |= cudaMemsetAsync(&slot[4], 1, sizeof(int), s2) != cudaSuccess;
    set_val<<<1, 1, 0, cudaStreamFireAndForget>>>(&slot[5], 7);
    read_parent<<<1, 1>>>(&slot[7], &slot[6]);
    tail_sum<<<1, 1, 0, cudaStreamTailLaunch>>>(&out[b], slot);
    bad |= cudaGetLastError() != cudaSuccess;
    bad |= cudaEventDestroy(e) != cudaSuccess;
    bad |= cudaStreamDestroy(s1) != cudaSuccess;
    bad |= cudaStreamDestroy(s2) != cudaSuccess;

    /* the device runtime's answers about the device */
    int *in = info + b * NINFO;
    int dev = -1, v = -1;
    bad |= cudaGetDevice(&dev) != cudaSuccess;
    in[0] = dev;
    bad |= cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, dev) != cudaSuccess;
    in[1] = v;
    bad |= cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess;
    in[2] = v;
    size_t lim = 0;
    bad |= cudaDeviceGetLimit(&lim, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess;
    in[3] = (int)lim;
    bad |= cudaRuntimeGetVersion(&v) != cudaSuccess;
    in[4] = v;
    cudaFuncAttributes fa;
    bad |= cudaFuncGetAttributes(&fa, tail_sum) != cudaSuccess;
    in[5] = fa.maxThreadsPerBlock;
    bad |= cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, set_val, 128, 0) != cudaSuccess;
    in[6] = v;
    int *p = NULL;
    bad |= cudaMalloc((void **)&p, 64 * sizeof(int)) != cudaSuccess;
    if (p) {
        for (int i = 0; i < 64; i++)
            p[i] = i;
        int s = 0;
        for (int i = 0; i < 64; i++)
            s += p[i];
        in[7] = s;
        bad |= cudaFree(p) != cudaSuccess;
    }
    in[8] = bad;
}

int main()
{
    /* a limit the device runtime reads back */
    CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4096));
    size_t lim = 0;
    CHECK(cudaDeviceGetLimit(&lim, cudaLimitDevRuntimePendingLaunchCount));
    check_int("cudaLimitDevRuntimePendingLaunchCount set and read back", 4096, (long long)lim);

    int *buf, *out, *info;
    CHECK(cudaMalloc(&buf, NBLOCKS * SLOTS * sizeof(int)));
    CHECK(cudaMalloc(&out, NBLOCKS * sizeof(int)));
    CHECK(cudaMalloc(&info, NBLOCKS * NINFO * sizeof(int)));
    CHECK(cudaMemset(buf, 0, NBLOCKS * SLOTS * sizeof(int)));
    CHECK(cudaMemset(out, 0, NBLOCKS * sizeof(int)));
    CHECK(cudaMemset(info, 0xff, NBLOCKS * NINFO * sizeof(int)));
    parent<<<NBLOCKS, 64>>>(buf, out, info);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());

    int h[NBLOCKS * SLOTS], o[NBLOCKS], in[NBLOCKS * NINFO];
    CHECK(cudaMemcpy(h, buf, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(in, info, sizeof in, cudaMemcpyDeviceToHost));
    int order = 1, tail = 1, parent_seen = 1, ff = 1, fill = 1, ok = 1;
    for (int b = 0; b < NBLOCKS; b++) {
        const int *s = h + b * SLOTS;
        order &= s[0] == 10 + b && s[1] == 11 + b && s[2] == 11 + b && s[3] == 111 + b;
        fill &= s[4] == 0x01010101;
        ff &= s[5] == 7;
        parent_seen &= s[7] == 2 * (1000 + b);
        int sum = 0;
        for (int i = 0; i < SLOTS; i++)
            sum += s[i];
        tail &= o[b] == sum;
        ok &= in[b * NINFO + 8] == 0;
    }
    check_true("in-stream order: kernel, kernel, copy; an event orders two streams", order);
    check_true("device-side cudaMemsetAsync", fill);
    check_true("a fire-and-forget launch ran", ff);
    check_true("a child sees what its parent wrote before the launch", parent_seen);
    check_true("the tail launch ran after the parent and all its work", tail);
    check_true("every device-runtime call succeeded", ok);

    int maxthreads, nsm, rv;
    CHECK(cudaDeviceGetAttribute(&maxthreads, cudaDevAttrMaxThreadsPerBlock, 0));
    CHECK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaRuntimeGetVersion(&rv));
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, tail_sum));
    int occ;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, set_val, 128, 0));
    int same = 1;
    for (int b = 0; b < NBLOCKS; b++) {
        const int *i = in + b * NINFO;
        same &= i[0] == 0 && i[1] == maxthreads && i[2] == nsm && i[3] == 4096 && i[4] == rv &&
                i[5] == fa.maxThreadsPerBlock && i[6] == occ && i[7] == 64 * 63 / 2;
    }
    check_true("the device runtime answers as the host runtime does", same);
    return finish();
}
