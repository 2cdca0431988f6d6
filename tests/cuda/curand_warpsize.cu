/* curand_warpsize.cu -- device code that reads warpSize (nvcc writes PTX's
 * predefined constant WARP_SZ) and generates numbers with the curand device
 * API (XORWOW, seeded per thread), against a CPU implementation of XORWOW as
 * curand_kernel.h defines it: curand_init's seed scrambling, then the
 * xorshift-plus-Weyl step; curand_uniform maps x to x * 2^-32 + 2^-33. */
#include <curand_kernel.h>
#include <stdint.h>

#include "common.cuh"

__global__ void lanes(int *lane, int *warp, int *size)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    lane[t] = threadIdx.x % warpSize;
    warp[t] = threadIdx.x / warpSize;
    size[t] = warpSize;
}

__global__ void draw(unsigned *raw, float *uni, int per_thread)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    curandState s;
    curand_init(1000 + t, 0, 0, &s); /* subsequence 0, offset 0: no skip-ahead */
    for (int k = 0; k < per_thread; k++)
        raw[t * per_thread + k] = curand(&s);
    uni[t] = curand_uniform(&s);
}

struct xorwow {
    uint32_t d, v[5];
};

static void cpu_init(xorwow *s, unsigned long long seed)
{
    uint32_t s0 = (uint32_t)seed ^ 0xaad26b49u, s1 = (uint32_t)(seed >> 32) ^ 0xf7dcefddu;
    uint32_t t0 = 1099087573u * s0, t1 = 2591861531u * s1;
    s->d = 6615241u + t1 + t0;
    s->v[0] = 123456789u + t0;
    s->v[1] = 362436069u ^ t0;
    s->v[2] = 521288629u + t1;
    s->v[3] = 88675123u ^ t1;
    s->v[4] = 5783321u + t0;
}

static uint32_t cpu_next(xorwow *s)
{
    uint32_t t = s->v[0] ^ (s->v[0] >> 2);
    s->v[0] = s->v[1];
    s->v[1] = s->v[2];
    s->v[2] = s->v[3];
    s->v[3] = s->v[4];
    s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
    s->d += 362437u;
    return s->v[4] + s->d;
}

int main(void)
{
    const int blocks = 3, threads = 96, n = blocks * threads, per = 8;
    int *lane, *warp, *size;
    CHECK(cudaMalloc(&lane, n * sizeof(int)));
    CHECK(cudaMalloc(&warp, n * sizeof(int)));
    CHECK(cudaMalloc(&size, n * sizeof(int)));
    lanes<<<blocks, threads>>>(lane, warp, size);
    CHECK_LAUNCH();
    static int hl[n], hw[n], hs[n], rl[n], rw[n], rs[n];
    CHECK(cudaMemcpy(hl, lane, sizeof hl, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hw, warp, sizeof hw, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hs, size, sizeof hs, cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++) {
        rl[t] = t % threads % 32;
        rw[t] = t % threads / 32;
        rs[t] = 32;
    }
    check_array_exact("threadIdx.x % warpSize", rl, hl, n);
    check_array_exact("threadIdx.x / warpSize", rw, hw, n);
    check_array_exact("warpSize", rs, hs, n);

    unsigned *raw;
    float *uni;
    CHECK(cudaMalloc(&raw, n * per * sizeof(unsigned)));
    CHECK(cudaMalloc(&uni, n * sizeof(float)));
    draw<<<blocks, threads>>>(raw, uni, per);
    CHECK_LAUNCH();
    static unsigned hraw[n * per], rraw[n * per];
    static float huni[n], runi[n];
    CHECK(cudaMemcpy(hraw, raw, sizeof hraw, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(huni, uni, sizeof huni, cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++) {
        xorwow s;
        cpu_init(&s, 1000 + t);
        for (int k = 0; k < per; k++)
            rraw[t * per + k] = cpu_next(&s);
        uint32_t x = cpu_next(&s);
        runi[t] = x * 2.3283064e-10f + (2.3283064e-10f / 2.0f);
    }
    check_array_exact("curand XORWOW numbers", rraw, hraw, n * per);
    check_array_exact("curand_uniform", runi, huni, n);
    CHECK(cudaFree(lane));
    CHECK(cudaFree(warp));
    CHECK(cudaFree(size));
    CHECK(cudaFree(raw));
    CHECK(cudaFree(uni));
    return finish();
}
