// conv_wgrad.cu -- the weight gradient of a convolution layer, computed the
// way cuDNN's nondeterministic backward-filter algorithm does: many CTAs
// atomically add partial sums into the same filter regions.
//
//     dW[k][c][r][s] = sum over n, y, x of dY[n][k][y][x] * X[n][c][y+r-p][x+s-p]
//
// with stride 1 and padding p = R/2 (X is zero outside the image), for a 1x1
// and a 3x3 layer.  The grid is (filter regions) x (image n, TH x TW output
// tile): each CTA stages its tile of dY and of X (with halo) in shared
// memory, computes the partial sum of every filter entry of its region over
// its tile's pixels, and adds it with one float atomicAdd per entry.  The
// N * tiles CTAs of a region add into the same addresses.
//
// ORDER-SENSITIVE (intentionally): the order of those atomics is not fixed
// on a real GPU, and float addition does not associate, so the result bits
// may vary from run to run.  The check accepts every valid order: each
// product passes through at most P = TH*TW (the fma chain of the partial
// sum) + N*tiles (the atomics, in any order) roundings, so
//     |dW_gpu - dW_exact| <= 1.01 * gamma_P * sum |dY * X|,
//     gamma_P = P*eps / (1 - P*eps),  eps = 2^-24
// against a double CPU reference (products of floats are exact in double;
// its own summation error is negligible and covered by the 1.01).  The
// inputs have both signs, so the bound is absolute, per entry.  note= says
// whether dW equals, bit for bit, a CPU float replay in which the CTAs of a
// region add their partial sums in launch order: replay-exact or
// replay-differ.
//
// Kernels: wgrad<1> and wgrad<3>, one launch each.
#include <cuda_runtime.h>

#include <vector>

#include "bench.h"

#define BLOCK 256
#define TH 2   // output tile height
#define TW 4   // output tile width
#define KT 16  // output channels per filter region
#define CT 16  // input channels per filter region

struct layer {
    int n, c, k, h, w, r; // batch, in channels, out channels, height, width, filter size
};

// One CTA: filter region blockIdx.x (KT output x CT input channels, all
// R x R taps), image and tile blockIdx.y.
template <int R>
__global__ void wgrad(const float *x, const float *dy, float *dw, int C, int K, int H, int W)
{
    constexpr int P = R / 2, XH = TH + R - 1, XW = TW + R - 1, RS = R * R;
    __shared__ float sdy[KT][TH * TW];
    __shared__ float sx[CT][XH][XW];

    int regions_c = C / CT;
    int k0 = blockIdx.x / regions_c * KT, c0 = blockIdx.x % regions_c * CT;
    int tiles_x = W / TW, tiles = (H / TH) * tiles_x;
    int n = blockIdx.y / tiles, tile = blockIdx.y % tiles;
    int y0 = tile / tiles_x * TH, x0 = tile % tiles_x * TW;

    for (int i = threadIdx.x; i < KT * TH * TW; i += blockDim.x) {
        int kk = i / (TH * TW), p = i % (TH * TW);
        sdy[kk][p] = dy[(((size_t)n * K + k0 + kk) * H + y0 + p / TW) * W + x0 + p % TW];
    }
    for (int i = threadIdx.x; i < CT * XH * XW; i += blockDim.x) {
        int cc = i / (XH * XW), yy = i / XW % XH, xx = i % XW;
        int gy = y0 + yy - P, gx = x0 + xx - P;
        bool in = gy >= 0 && gy < H && gx >= 0 && gx < W;
        sx[cc][yy][xx] = in ? x[(((size_t)n * C + c0 + cc) * H + gy) * W + gx] : 0.0f;
    }
    __syncthreads();

    // Entry e of the region: consecutive threads take consecutive dW
    // addresses (c, r, s are contiguous for a fixed k).
    for (int e = threadIdx.x; e < KT * CT * RS; e += blockDim.x) {
        int kk = e / (CT * RS), rem = e % (CT * RS);
        int cc = rem / RS, r = rem % RS / R, s = rem % R;
        float acc = 0.0f;
#pragma unroll
        for (int py = 0; py < TH; py++)
#pragma unroll
            for (int px = 0; px < TW; px++)
                acc = fmaf(sdy[kk][py * TW + px], sx[cc][py + r][px + s], acc);
        atomicAdd(&dw[((size_t)(k0 + kk) * C + c0) * RS + rem], acc);
    }
}

struct result {
    bool pass, exact;
    double worst; // largest |err| / bound
};

// Run one layer on the GPU, append dW's bytes to the hash, check it.
static result run_layer(const layer &L, bench_rng &rng, uint64_t *hash)
{
    int RS = L.r * L.r, p = L.r / 2;
    size_t nx = (size_t)L.n * L.c * L.h * L.w, ndy = (size_t)L.n * L.k * L.h * L.w;
    size_t ndw = (size_t)L.k * L.c * RS;
    std::vector<float> x(nx), dy(ndy), dw(ndw);
    for (auto &v : x)
        v = 2.0f * rng.unit() - 1.0f;
    for (auto &v : dy)
        v = 2.0f * rng.unit() - 1.0f;

    float *dx, *ddy, *ddw;
    CUDA_CHECK(cudaMalloc(&dx, nx * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&ddy, ndy * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&ddw, ndw * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), nx * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(ddy, dy.data(), ndy * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(ddw, 0, ndw * sizeof(float)));
    int tiles = (L.h / TH) * (L.w / TW);
    dim3 grid((L.k / KT) * (L.c / CT), L.n * tiles);
    if (L.r == 1)
        wgrad<1><<<grid, BLOCK>>>(dx, ddy, ddw, L.c, L.k, L.h, L.w);
    else
        wgrad<3><<<grid, BLOCK>>>(dx, ddy, ddw, L.c, L.k, L.h, L.w);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(dw.data(), ddw, ndw * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(ddy));
    CUDA_CHECK(cudaFree(ddw));
    *hash = bench_hash(dw.data(), ndw * sizeof(float), *hash);
    printf("layer %dx%d: N=%d C=%d K=%d H=W=%d, grid %ux%u CTAs (%d per filter region)\n", L.r,
           L.r, L.n, L.c, L.k, L.h, grid.x, grid.y, grid.y);

    // Double reference with the per-entry bound, and the float replay:
    // partial sums per (n, tile) in the kernel's fma order, added in launch
    // order (blockIdx.y ascending).
    const double eps = 1.0 / (double)(1 << 24);
    double P = TH * TW + (double)L.n * tiles;
    double gamma = P * eps / (1.0 - P * eps);
    auto X = [&](int n, int c, int y, int xx) -> float {
        return y < 0 || y >= L.h || xx < 0 || xx >= L.w
                   ? 0.0f
                   : x[(((size_t)n * L.c + c) * L.h + y) * L.w + xx];
    };
    result res = {true, true, 0.0};
    for (int k = 0; k < L.k; k++)
        for (int c = 0; c < L.c; c++)
            for (int r = 0; r < L.r; r++)
                for (int s = 0; s < L.r; s++) {
                    double sum = 0.0, abs_sum = 0.0;
                    float replay = 0.0f;
                    for (int n = 0; n < L.n; n++)
                        for (int t = 0; t < tiles; t++) {
                            int y0 = t / (L.w / TW) * TH, x0 = t % (L.w / TW) * TW;
                            float acc = 0.0f;
                            for (int py = 0; py < TH; py++)
                                for (int px = 0; px < TW; px++) {
                                    int y = y0 + py, xx = x0 + px;
                                    float a = dy[(((size_t)n * L.k + k) * L.h + y) * L.w + xx];
                                    float b = X(n, c, y + r - p, xx + s - p);
                                    acc = fmaf(a, b, acc);
                                    sum += (double)a * b;
                                    abs_sum += fabs((double)a * b);
                                }
                            replay += acc;
                        }
                    size_t i = (((size_t)k * L.c + c) * L.r + r) * L.r + s;
                    double err = fabs((double)dw[i] - sum), bound = 1.01 * gamma * abs_sum;
                    if (!(err <= bound))
                        res.pass = false;
                    if (bound > 0)
                        res.worst = std::max(res.worst, err / bound);
                    if (memcmp(&replay, &dw[i], sizeof replay) != 0)
                        res.exact = false;
                }
    return res;
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int n = bench_pick(args, 2, 4, 8), hw = bench_pick(args, 16, 32, 64);
    layer layers[2] = {
        {n, 64, 64, hw, hw, 1}, // 1x1: 64 -> 64 channels
        {n, 32, 32, hw, hw, 3}, // 3x3: 32 -> 32 channels, padding 1
    };
    bench_rng rng(args.seed);
    uint64_t hash = 0xcbf29ce484222325ull;
    bool pass = true, exact = true;
    for (const layer &L : layers) {
        result r = run_layer(L, rng, &hash);
        printf("  max |err| / bound = %.3g\n", r.worst);
        pass = pass && r.pass;
        exact = exact && r.exact;
    }
    return bench_result(pass, hash, exact ? "replay-exact" : "replay-differ");
}
