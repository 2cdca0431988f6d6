// engine.cu -- kernels for the threaded engine's test (driver:
// test_engine_threads.c): each one's results, statistics, printf output
// and faults must be the same on any number of host threads.
//
// mix: a ticket per thread from one atomic counter (the order the
//   partitions saw them), a float accumulation with atomicAdd, global loads,
//   and a shared-memory reduction with barriers.
// heap_print: device malloc and free in every thread and printf from one
//   thread of each CTA (the serial step's built-in calls, in order).
// all_fault: every CTA stores out of bounds at once: the fault reported is
//   the first in the canonical order (cycle, SM), whatever ran first.
#include <cstdio>

extern "C" __global__ void mix(unsigned *ctr, unsigned *tickets, const float *in, float *acc,
                               float *sums, int n)
{
    __shared__ float part[256];
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    tickets[gid] = atomicAdd(ctr, 1u);
    float v = in[gid % n] * 0.5f + in[(gid * 7) % n];
    atomicAdd(acc + (gid & 15), v);
    part[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        sums[blockIdx.x] = part[0];
}

extern "C" __global__ void heap_print(int *out)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)malloc((8 + threadIdx.x % 8) * sizeof(int));
    int s = 0;
    if (p) {
        for (int i = 0; i < 8; i++)
            p[i] = gid + i;
        for (int i = 0; i < 8; i++)
            s += p[i];
        free(p);
    }
    out[gid] = s;
    if (threadIdx.x == 0)
        printf("block %d: %d\n", blockIdx.x, s);
}

extern "C" __global__ void all_fault(int *p)
{
    if (threadIdx.x == 0)
        p[64 + blockIdx.x] = blockIdx.x; // p is 64 ints long: every CTA writes past its end
}
