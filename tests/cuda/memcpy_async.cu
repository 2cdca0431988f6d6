/* memcpy_async.cu -- asynchronous copies into shared memory (built for sm_80,
 * where they are cp.async and mbarrier instructions).
 *
 * Four kernels stage tiles of an input through shared memory and write a
 * function of each tile (a per-tile sum over a window, so a tile not yet
 * copied gives a wrong answer), checked against a CPU reference:
 *   - pipeline_sum: cuda::pipeline with two stages (producer_acquire /
 *     memcpy_async / producer_commit, consumer_wait / consumer_release):
 *     cp.async groups and wait_group;
 *   - barrier_sum: cuda::memcpy_async completing on a cuda::barrier
 *     (cp.async.mbarrier.arrive, mbarrier.arrive / test_wait);
 *   - cg_sum: cooperative_groups::memcpy_async + cg::wait, and a partial
 *     last tile;
 *   - raw_zero_fill: the PTX cp.async with a src-size below the copy size
 *     (the rest zero-filled) and cp.async.wait_all, by inline assembly.
 * Also a cuda::barrier used alone for arrive_and_wait between warps. */
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>

#include "common.cuh"

namespace cg = cooperative_groups;

#define TILE 256
#define NTILES 24
#define N (TILE * NTILES)

/* out[i] = in[i] + in[i ^ 1] + in[(i + 7) % TILE of the same tile] */
__device__ __host__ static int window(const int *tile, int j)
{
    return tile[j] + tile[j ^ 1] + tile[(j + 7) % TILE];
}

__global__ void pipeline_sum(const int *in, int *out, int ntiles)
{
    constexpr int stages = 2;
    __shared__ int buf[stages][TILE];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    int fetch = blockIdx.x, next = blockIdx.x;
    for (int s = 0; s < stages && fetch < ntiles; s++, fetch += gridDim.x) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, buf[s], in + fetch * TILE, sizeof(int) * TILE, pipe);
        pipe.producer_commit();
    }
    for (int k = 0; next < ntiles; k++, next += gridDim.x) {
        int s = k % stages;
        pipe.consumer_wait();
        out[next * TILE + threadIdx.x] = window(buf[s], threadIdx.x);
        block.sync();
        pipe.consumer_release();
        if (fetch < ntiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[s], in + fetch * TILE, sizeof(int) * TILE, pipe);
            pipe.producer_commit();
            fetch += gridDim.x;
        }
    }
}

__global__ void barrier_sum(const int *in, int *out, int ntiles)
{
    __shared__ int buf[TILE];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    for (int t = blockIdx.x; t < ntiles; t += gridDim.x) {
        cuda::memcpy_async(block, buf, in + t * TILE, sizeof(int) * TILE, bar);
        bar.arrive_and_wait();
        out[t * TILE + threadIdx.x] = window(buf, threadIdx.x);
        bar.arrive_and_wait(); /* nobody overwrites buf while it is read */
    }
}

__global__ void cg_sum(const int *in, int *out, int n)
{
    __shared__ int buf[TILE];
    auto block = cg::this_thread_block();
    for (int base = blockIdx.x * TILE; base < n; base += gridDim.x * TILE) {
        int len = n - base < TILE ? n - base : TILE;
        cg::memcpy_async(block, buf, in + base, sizeof(int) * len);
        cg::wait(block);
        if ((int)threadIdx.x < len)
            out[base + threadIdx.x] = buf[threadIdx.x] * 3 + 1;
        block.sync();
    }
}

/* cp.async of 16 bytes reading src_size of them (the rest zeros), then
 * wait_all; shared memory is filled with -1 first */
__global__ void raw_zero_fill(const int *in, int *out)
{
    __shared__ __align__(16) int buf[4 * 64];
    int t = threadIdx.x;
    for (int k = 0; k < 4; k++)
        buf[4 * t + k] = -1;
    __syncthreads();
    unsigned dst = (unsigned)__cvta_generic_to_shared(&buf[4 * t]);
    int src_size = (t % 5) * 4; /* 0, 4, 8, 12, 16 bytes */
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(in + 4 * t),
                 "r"(src_size)
                 : "memory");
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    for (int k = 0; k < 4; k++)
        out[4 * t + k] = buf[4 * t + k];
}

/* warps meet at a cuda::barrier several times; each phase checks that all
 * the previous phase's writes are there */
__global__ void barrier_phases(int *out)
{
    __shared__ int vals[128];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x;
    if (t == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    int ok = 1;
    for (int phase = 0; phase < 4; phase++) {
        vals[t] = phase * 1000 + t;
        bar.arrive_and_wait();
        int other = (t + 37) % blockDim.x;
        ok &= vals[other] == phase * 1000 + other;
        bar.arrive_and_wait();
    }
    out[t] = ok;
}

int main()
{
    static int h_in[N], h_out[N], want[N];
    for (int i = 0; i < N; i++)
        h_in[i] = (i * 37 + 11) % 1001 - 500;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));

    for (int t = 0; t < NTILES; t++)
        for (int j = 0; j < TILE; j++)
            want[t * TILE + j] = window(h_in + t * TILE, j);

    CHECK(cudaMemset(d_out, 0, sizeof h_out));
    pipeline_sum<<<5, TILE>>>(d_in, d_out, NTILES);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    check_array_exact("cuda::pipeline two-stage memcpy_async", want, h_out, N);

    CHECK(cudaMemset(d_out, 0, sizeof h_out));
    barrier_sum<<<7, TILE>>>(d_in, d_out, NTILES);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    check_array_exact("cuda::memcpy_async with cuda::barrier", want, h_out, N);

    int n = N - 100; /* a partial last tile */
    for (int i = 0; i < N; i++)
        want[i] = i < n ? h_in[i] * 3 + 1 : 0;
    CHECK(cudaMemset(d_out, 0, sizeof h_out));
    cg_sum<<<4, TILE>>>(d_in, d_out, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    check_array_exact("cooperative_groups::memcpy_async and wait", want, h_out, N);

    raw_zero_fill<<<1, 64>>>(d_in, d_out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h_out, d_out, 256 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++)
        for (int k = 0; k < 4; k++)
            want[4 * t + k] = k < t % 5 ? h_in[4 * t + k] : 0;
    check_array_exact("cp.async src-size zero fill and wait_all", want, h_out, 256);

    barrier_phases<<<1, 128>>>(d_out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h_out, d_out, 128 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < 128; t++)
        want[t] = 1;
    check_array_exact("cuda::barrier arrive_and_wait phases", want, h_out, 128);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return finish();
}
