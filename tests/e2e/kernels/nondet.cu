// nondet.cu -- kernels whose results show the order the hardware ran warps
// in (tests/e2e/test_nondet.c): on a GPU these differ from run to run, so a
// model of one must make them differ from --nondet-seed to --nondet-seed,
// and a determinism mode must make them the same again.
#include "common.cuh"

// Lane 0 of every warp takes a ticket and writes its warp's global id at
// the ticket's position: the array is the order in which the warps'
// atomics reached memory.
extern "C" __global__ void ticket(unsigned *counter, unsigned *order)
{
    unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if ((threadIdx.x & 31) == 0) {
        unsigned t = atomicAdd(counter, 1u);
        order[t] = warp;
    }
}

// Every thread adds its id into one of a few slots after some work whose
// length depends on the thread; then, racily, the last writer of `last`
// wins. The race-free part (sums) must never change; `last` may.
extern "C" __global__ void racy_last(unsigned *sums, unsigned *last, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = (unsigned)i;
    for (int k = 0; k < (i % 7) * 5; k++)
        v = v * 1664525u + 1013904223u;
    atomicAdd(&sums[i % 4], (unsigned)i);
    *last = v ^ (unsigned)i;
}

// A memory-bound copy: every partition, many DRAM rows, long enough for
// DRAM refresh; its cycle count shows the sources that act on memory
// traffic rather than on the order of one address's atomics.
extern "C" __global__ void stream_copy(const float *in, float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = 2.0f * in[i] + 1.0f;
}
