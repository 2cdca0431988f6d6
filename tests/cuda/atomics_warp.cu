/* atomics_warp.cu -- atomics and warp intrinsics.
 *
 * A 256-bin byte histogram (shared-memory atomicAdd per block, then global
 * atomicAdd), a ticket dispenser whose atomicAdd return values must form a
 * permutation, the other integer atomics (Sub, Exch, Min, Max, Inc, Dec, And,
 * Or, Xor, CAS loops, 64-bit Add), float and double atomicAdd of values
 * whose sums are exact in any order, and warp intrinsics: a sum reduction
 * with __shfl_down_sync and shared per-warp partials, a butterfly with
 * __shfl_xor_sync, an inclusive scan with __shfl_up_sync, broadcasts with
 * __shfl_sync (also in 8-lane segments), and votes with __ballot_sync,
 * __any_sync, __all_sync and __popc.  Every result is order-independent, so
 * it is compared exactly. */
#include "common.cuh"

#include <stdint.h>

#define NBINS 256

__global__ void histogram(const unsigned char *data, int n, unsigned *bins)
{
    __shared__ unsigned local[NBINS];
    for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
        if (local[b] != 0)
            atomicAdd(&bins[b], local[b]);
}

__global__ void tickets(int *counter, int *seen, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int t = atomicAdd(counter, 1);
        if (t >= 0 && t < n)
            atomicAdd(&seen[t], 1);
    }
}

/* r: 0 sub, 1 min, 2 max, 3 and, 4 or, 5 xor, 6 inc (wrap 1000), 7 dec
 * (wrap 77), 8 product via CAS, 9 exch count, 10/11 64-bit sum (hi, lo). */
__global__ void misc_atomics(int *r, unsigned *u, unsigned long long *u64, float *fs,
                             double *ds, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    atomicSub(&r[0], i % 7);
    atomicMin(&r[1], (i * 7919) % 100003 - 50000);
    atomicMax(&r[2], (i * 7919) % 100003 - 50000);
    atomicAnd(&u[0], i < 20 ? ~(1u << (i * 3 % 32)) : 0xffffffffu);
    atomicOr(&u[1], 1u << (i % 29));
    atomicXor(&u[2], (unsigned)i * 2654435761u);
    atomicInc(&u[3], 999u);
    atomicDec(&u[4], 76u);
    /* product modulo 2^32 by a compare-and-swap loop */
    unsigned f = (i % 1000 == 0) ? 3u : 1u, old = u[5], assumed;
    do {
        assumed = old;
        old = atomicCAS(&u[5], assumed, assumed * f);
    } while (old != assumed);
    /* every thread swaps in its own id; count swaps by the previous value */
    int prev = atomicExch(&r[3], i);
    if (prev >= -1)
        atomicAdd(&r[4], 1);
    atomicAdd(u64, (unsigned long long)i * 1000003ull);
    atomicAdd(fs, (float)(i % 9) - 4.0f);
    atomicAdd(ds, (double)(i % 21) * 0.5);
}

/* Sum of v: shuffle reduction per warp, per-warp partials in shared memory,
 * the first warp reduces those, one atomicAdd per block. */
__global__ void warp_reduce_sum(const int *v, int n, long long *total)
{
    __shared__ int partial[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i < n ? v[i] : 0;
    for (int off = 16; off > 0; off >>= 1)
        x += __shfl_down_sync(0xffffffffu, x, off);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0)
        partial[warp] = x;
    __syncthreads();
    if (warp == 0) {
        int nw = blockDim.x / 32;
        int y = lane < nw ? partial[lane] : 0;
        for (int off = 16; off > 0; off >>= 1)
            y += __shfl_down_sync(0xffffffffu, y, off);
        if (lane == 0)
            atomicAdd((unsigned long long *)total, (unsigned long long)(long long)y);
    }
}

/* Per thread, 8 results of warp operations on v: butterfly sum, inclusive
 * scan, broadcast of lane 5, broadcast within 8-lane segments, ballot of odd
 * values, popcount of that ballot, any > 85, all >= 0. */
__global__ void warp_ops(const int *v, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    bool in = i < n;
    int x = in ? v[i] : 0;
    int sum = x;
    for (int m = 16; m > 0; m >>= 1)
        sum += __shfl_xor_sync(0xffffffffu, sum, m);
    int scan = x;
    for (int d = 1; d < 32; d <<= 1) {
        int y = __shfl_up_sync(0xffffffffu, scan, d);
        if (lane >= d)
            scan += y;
    }
    int b5 = __shfl_sync(0xffffffffu, x, 5);
    int seg = __shfl_sync(0xffffffffu, x, 2, 8); /* lane 2 of each 8-lane segment */
    unsigned odd = __ballot_sync(0xffffffffu, in && (x & 1));
    int any = __any_sync(0xffffffffu, in && x > 85);
    int all = __all_sync(0xffffffffu, !in || x >= 0);
    if (in) {
        int *o = out + 8 * i;
        o[0] = sum;
        o[1] = scan;
        o[2] = b5;
        o[3] = seg;
        o[4] = (int)odd;
        o[5] = __popc(odd);
        o[6] = any != 0;
        o[7] = all != 0;
    }
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void test_histogram(void)
{
    const int n = 200000;
    unsigned char *h = (unsigned char *)malloc(n);
    uint32_t s = 12345;
    unsigned ref[NBINS] = {0}, got[NBINS];
    for (int i = 0; i < n; i++) {
        /* skewed: low bins are much more common, some bins stay empty */
        uint32_t r = lcg(&s);
        h[i] = (unsigned char)((r % 7 == 0) ? (r >> 3) % 200 : (r >> 3) % 16);
        ref[h[i]]++;
    }
    unsigned char *d;
    unsigned *dbins;
    CHECK(cudaMalloc(&d, n));
    CHECK(cudaMalloc(&dbins, NBINS * sizeof(unsigned)));
    CHECK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dbins, 0, NBINS * sizeof(unsigned)));
    histogram<<<64, 192>>>(d, n, dbins);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dbins, sizeof got, cudaMemcpyDeviceToHost));
    check_array_exact("256-bin histogram of 200000 bytes", ref, got, NBINS);
    CHECK(cudaFree(d));
    CHECK(cudaFree(dbins));
    free(h);
}

static void test_tickets(void)
{
    const int n = 30011;
    int *dc, *dseen;
    CHECK(cudaMalloc(&dc, sizeof(int)));
    CHECK(cudaMalloc(&dseen, n * sizeof(int)));
    CHECK(cudaMemset(dc, 0, sizeof(int)));
    CHECK(cudaMemset(dseen, 0, n * sizeof(int)));
    tickets<<<(n + 255) / 256, 256>>>(dc, dseen, n);
    CHECK_LAUNCH();
    int *seen = (int *)malloc(n * sizeof(int)), *ones = (int *)malloc(n * sizeof(int)), c = 0;
    CHECK(cudaMemcpy(seen, dseen, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&c, dc, sizeof c, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        ones[i] = 1;
    check_int("atomicAdd ticket counter", n, c);
    check_array_exact("atomicAdd return values form a permutation", ones, seen, n);
    CHECK(cudaFree(dc));
    CHECK(cudaFree(dseen));
    free(seen);
    free(ones);
}

static void test_misc(void)
{
    const int n = 50000;
    int r[5] = {1000000, 1 << 30, -(1 << 30), -1, 0};
    unsigned u[6] = {0xffffffffu, 0u, 0x12345678u, 0u, 0u, 1u};
    unsigned long long u64 = 5;
    float fs = 0.0f;
    double ds = 0.25;
    int *dr;
    unsigned *du;
    unsigned long long *du64;
    float *dfs;
    double *dds;
    CHECK(cudaMalloc(&dr, sizeof r));
    CHECK(cudaMalloc(&du, sizeof u));
    CHECK(cudaMalloc(&du64, sizeof u64));
    CHECK(cudaMalloc(&dfs, sizeof fs));
    CHECK(cudaMalloc(&dds, sizeof ds));
    CHECK(cudaMemcpy(dr, r, sizeof r, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(du, u, sizeof u, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(du64, &u64, sizeof u64, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dfs, &fs, sizeof fs, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dds, &ds, sizeof ds, cudaMemcpyHostToDevice));

    /* The reference, applied in thread order (all operations commute). */
    for (int i = 0; i < n; i++) {
        int val = (i * 7919) % 100003 - 50000;
        r[0] -= i % 7;
        if (val < r[1]) r[1] = val;
        if (val > r[2]) r[2] = val;
        u[0] &= i < 20 ? ~(1u << (i * 3 % 32)) : 0xffffffffu;
        u[1] |= 1u << (i % 29);
        u[2] ^= (unsigned)i * 2654435761u;
        u[3] = u[3] >= 999u ? 0u : u[3] + 1u;
        u[4] = (u[4] == 0u || u[4] > 76u) ? 76u : u[4] - 1u;
        u[5] *= (i % 1000 == 0) ? 3u : 1u;
        u64 += (unsigned long long)i * 1000003ull;
        fs += (float)(i % 9) - 4.0f;
        ds += (double)(i % 21) * 0.5;
    }
    r[4] = n;
    misc_atomics<<<(n + 127) / 128, 128>>>(dr, du, du64, dfs, dds, n);
    CHECK_LAUNCH();
    int gr[5];
    unsigned gu[6];
    unsigned long long g64;
    float gfs;
    double gds;
    CHECK(cudaMemcpy(gr, dr, sizeof gr, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gu, du, sizeof gu, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&g64, du64, sizeof g64, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&gfs, dfs, sizeof gfs, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&gds, dds, sizeof gds, cudaMemcpyDeviceToHost));
    check_int("atomicSub", r[0], gr[0]);
    check_int("atomicMin", r[1], gr[1]);
    check_int("atomicMax", r[2], gr[2]);
    check_true("atomicExch left some thread's id", gr[3] >= 0 && gr[3] < n);
    check_int("atomicExch returned a previous value to every thread", n, gr[4]);
    check_int("atomicAnd", u[0], gu[0]);
    check_int("atomicOr", u[1], gu[1]);
    check_int("atomicXor", u[2], gu[2]);
    check_int("atomicInc with wrap 999", u[3], gu[3]);
    check_int("atomicDec with wrap 76", u[4], gu[4]);
    check_int("atomicCAS loop (product mod 2^32)", u[5], gu[5]);
    check_int("64-bit atomicAdd", (long long)u64, (long long)g64);
    check_array_near("float atomicAdd of small integers", &fs, &gfs, 1, 0.0);
    check_array_near("double atomicAdd of halves", &ds, &gds, 1, 0.0);
    CHECK(cudaFree(dr));
    CHECK(cudaFree(du));
    CHECK(cudaFree(du64));
    CHECK(cudaFree(dfs));
    CHECK(cudaFree(dds));
}

static void test_warp(void)
{
    const int n = 100003;
    int *h = (int *)malloc(n * sizeof(int));
    long long ref = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (i * 37) % 101 - 10; /* -10..90 */
        ref += h[i];
    }
    int *dv;
    long long *dtot, tot = 0;
    CHECK(cudaMalloc(&dv, n * sizeof(int)));
    CHECK(cudaMalloc(&dtot, sizeof(long long)));
    CHECK(cudaMemcpy(dv, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dtot, 0, sizeof(long long)));
    warp_reduce_sum<<<(n + 255) / 256, 256>>>(dv, n, dtot);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&tot, dtot, sizeof tot, cudaMemcpyDeviceToHost));
    check_int("warp-shuffle block reduction + atomicAdd", ref, tot);

    const int m = 5000; /* the last warp is partly past the end */
    int *dout;
    CHECK(cudaMalloc(&dout, 8 * m * sizeof(int)));
    warp_ops<<<(m + 95) / 96, 96>>>(dv, dout, m);
    CHECK_LAUNCH();
    int *got = (int *)malloc(8 * m * sizeof(int)), *exp = (int *)malloc(8 * m * sizeof(int));
    CHECK(cudaMemcpy(got, dout, 8 * m * sizeof(int), cudaMemcpyDeviceToHost));
    for (int w0 = 0; w0 < m; w0 += 32) {
        int x[32], sum = 0, any = 0, all = 1;
        unsigned odd = 0;
        for (int l = 0; l < 32; l++) {
            int i = w0 + l;
            x[l] = i < m ? h[i] : 0;
            sum += x[l];
            if (i < m && (x[l] & 1))
                odd |= 1u << l;
            if (i < m && x[l] > 85)
                any = 1;
            if (i < m && x[l] < 0)
                all = 0;
        }
        for (int l = 0, scan = 0; l < 32 && w0 + l < m; l++) {
            int *o = exp + 8 * (w0 + l);
            scan += x[l];
            o[0] = sum;
            o[1] = scan;
            o[2] = x[5];
            o[3] = x[(l & ~7) + 2];
            o[4] = (int)odd;
            o[5] = __builtin_popcount(odd);
            o[6] = any;
            o[7] = all;
        }
    }
    check_array_exact("shfl_xor/shfl_up/shfl/ballot/any/all/popc per lane", exp, got, 8 * m);
    CHECK(cudaFree(dv));
    CHECK(cudaFree(dtot));
    CHECK(cudaFree(dout));
    free(h);
    free(got);
    free(exp);
}

int main(void)
{
    test_histogram();
    test_tickets();
    test_misc();
    test_warp();
    return finish();
}
