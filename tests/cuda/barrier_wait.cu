/* barrier_wait.cu -- libcu++'s cuda::barrier in shared memory and spinning
 * with __nanosleep back-off.  nvcc 13 (sm_75) compiles barrier.wait() into a
 * loop of acquire loads that reads %globaltimer and, once it has spun for a
 * while, sleeps with nanosleep; whole 1024-thread blocks of such waiters
 * must let the warps still on their way arrive (on the built-in config, one
 * SP unit per SM is shared by 32 warps).  The same for a hand-written flag
 * wait: one warp sets a flag late, the others back off with __nanosleep
 * until they see it.  Results checked against the CPU. */
#include <cuda/barrier>

#include "common.cuh"

__global__ void rounds(const int *in, long long *out, int n, int iters)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ long long part[32];
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    for (int r = 0; r < iters; r++) {
        long long s = 0;
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
            s += (long long)in[i] * (r + 1);
        for (int o = 16; o > 0; o >>= 1)
            s += __shfl_down_sync(0xffffffffu, s, o);
        if ((threadIdx.x & 31) == 0)
            part[threadIdx.x >> 5] = s;
        bar.arrive_and_wait(); /* every warp's part is written */
        if (threadIdx.x == 0) {
            long long t = 0;
            for (unsigned w = 0; w < blockDim.x / 32; w++)
                t += part[w];
            out[blockIdx.x * iters + r] = t;
        }
        bar.arrive_and_wait(); /* part is read before the next round writes it */
    }
}

/* The block's last warp works a while, then raises the flag; the others
 * wait for it, sleeping longer each time they find it down. */
__global__ void flag_wait(int *out, int work)
{
    __shared__ volatile int flag;
    if (threadIdx.x == 0)
        flag = 0;
    __syncthreads();
    unsigned last = blockDim.x / 32 - 1;
    if (threadIdx.x / 32 == last) {
        unsigned v = threadIdx.x;
        for (int i = 0; i < work; i++)
            v = v * 1103515245 + 12345;
        if ((threadIdx.x & 31) == 0) {
            __threadfence_block();
            flag = 1 + (int)(v & 1);
        }
    } else {
        unsigned ns = 32;
        while (flag == 0) {
            __nanosleep(ns);
            if (ns < 4096)
                ns *= 2;
        }
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = flag;
}

int main(void)
{
    const int n = 50000, iters = 3, blocks = 4, threads = 1024;
    static int h_in[n];
    for (int i = 0; i < n; i++)
        h_in[i] = (i * 7919) % 1000 - 500;
    int *in;
    long long *out;
    CHECK(cudaMalloc(&in, sizeof h_in));
    CHECK(cudaMalloc(&out, blocks * iters * sizeof(long long)));
    CHECK(cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    rounds<<<blocks, threads>>>(in, out, n, iters);
    CHECK_LAUNCH();
    long long got[blocks * iters], want[blocks * iters];
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        for (int r = 0; r < iters; r++) {
            long long s = 0;
            for (int i = b * threads; i < n; i += blocks * threads)
                for (int t = i; t < i + threads && t < n; t++)
                    s += (long long)h_in[t] * (r + 1);
            want[b * iters + r] = s;
        }
    check_array_exact("cuda::barrier rounds", want, got, blocks * iters);

    const int fblocks = 2, fthreads = 512, work = 2000;
    int *flags;
    CHECK(cudaMalloc(&flags, fblocks * fthreads * sizeof(int)));
    flag_wait<<<fblocks, fthreads>>>(flags, work);
    CHECK_LAUNCH();
    static int hf[fblocks * fthreads], wf[fblocks * fthreads];
    CHECK(cudaMemcpy(hf, flags, sizeof hf, cudaMemcpyDeviceToHost));
    unsigned v = (fthreads / 32 - 1) * 32; /* thread 0 of the last warp */
    for (int i = 0; i < work; i++)
        v = v * 1103515245 + 12345;
    for (int i = 0; i < fblocks * fthreads; i++)
        wf[i] = 1 + (int)(v & 1);
    check_array_exact("__nanosleep flag wait", wf, hf, fblocks * fthreads);

    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(flags));
    return finish();
}
