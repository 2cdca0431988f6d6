// cloth.cuh -- the cloth simulation cl and clopt share: its physics, the
// device step of one particle, the exact CPU reference and the host driver.
// cl.cu and clopt.cu differ only in how their cloth_step kernel hands
// particles to threads (block-wise or interleaved); see their top comments.
//
// A W x H grid of particles starts flat and level, held at the two corners
// of its first row, and falls under gravity.  Each particle is joined by
// springs to up to 12 others: structural (1 step along a row or column),
// shear (1 step diagonally) and bending (2 steps along a row or column).
// One kernel launch is one time step: each particle sums the Hooke forces
// of its springs and gravity from the current positions, and moves by
// position Verlet with damping,
//     next = p + (p - prev) * DAMP + force * (DT^2 / MASS),
// writing next over prev (the buffers then swap), so a step only reads what
// the previous step wrote and has no race.
//
// Floating point: the device code spells every operation with an explicit
// round-to-nearest intrinsic (__fadd_rn, __fmul_rn, __fdiv_rn, __fsqrt_rn),
// which the compiler never contracts into FMAs, so cl and clopt produce the
// same bits, and print the same hash, for the same size and seed.  The CPU
// reference does the same correctly rounded float operations in the same
// order, written so that no host compiler can fuse them either (see rn()
// below), so the check is exact: every coordinate must have the reference's
// bits, on any host.  A tolerance would hide real errors: leaving one spring
// out of a single particle's force sum moves the cloth by only 1e-6 to 5e-6
// of its width at small and medium.
#ifndef LOCKSTEP_BENCH_CLOTH_CUH
#define LOCKSTEP_BENCH_CLOTH_CUH

#include <cmath>
#include <vector>

#include "bench.h"

#define CHUNK 4
#define DT 0.002f
#define DAMP 0.995f
#define GRAVITY -9.8f
#define MASS 1.0f
#define K_STRUCT 8000.0f
#define K_SHEAR 4000.0f
#define K_BEND 2000.0f

struct spring {
    int dx, dy;
    float k, rest; // rest in units of the grid spacing
};
// The 12 springs of a particle, in the order their forces are summed.
__constant__ spring c_springs[12];
static const spring h_springs[12] = {
    {1, 0, K_STRUCT, 1.0f},        {-1, 0, K_STRUCT, 1.0f},        {0, 1, K_STRUCT, 1.0f},
    {0, -1, K_STRUCT, 1.0f},       {1, 1, K_SHEAR, 1.41421356f},   {-1, 1, K_SHEAR, 1.41421356f},
    {1, -1, K_SHEAR, 1.41421356f}, {-1, -1, K_SHEAR, 1.41421356f}, {2, 0, K_BEND, 2.0f},
    {-2, 0, K_BEND, 2.0f},         {0, 2, K_BEND, 2.0f},           {0, -2, K_BEND, 2.0f}};

// One particle's step: the same operations, in the same order, as
// cpu_particle below.
__device__ static void particle_step(const float *px, const float *py, const float *pz, float *qx,
                                     float *qy, float *qz, int i, int w, int h, float spacing)
{
    int x = i % w, y = i / w;
    if (y == 0 && (x == 0 || x == w - 1))
        return; // pinned corners keep prev == p
    float x0 = px[i], y0 = py[i], z0 = pz[i];
    float fx = 0.0f, fy = __fmul_rn(MASS, GRAVITY), fz = 0.0f;
    for (int s = 0; s < 12; s++) {
        int nx = x + c_springs[s].dx, ny = y + c_springs[s].dy;
        if (nx < 0 || nx >= w || ny < 0 || ny >= h)
            continue;
        int j = ny * w + nx;
        float dx = __fsub_rn(px[j], x0), dy = __fsub_rn(py[j], y0), dz = __fsub_rn(pz[j], z0);
        float len = __fsqrt_rn(
            __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz)));
        float rest = __fmul_rn(c_springs[s].rest, spacing);
        float mag = __fdiv_rn(__fmul_rn(c_springs[s].k, __fsub_rn(len, rest)), len);
        fx = __fadd_rn(fx, __fmul_rn(mag, dx));
        fy = __fadd_rn(fy, __fmul_rn(mag, dy));
        fz = __fadd_rn(fz, __fmul_rn(mag, dz));
    }
    const float a = DT * DT / MASS;
    qx[i] = __fadd_rn(__fadd_rn(x0, __fmul_rn(__fsub_rn(x0, qx[i]), DAMP)), __fmul_rn(fx, a));
    qy[i] = __fadd_rn(__fadd_rn(y0, __fmul_rn(__fsub_rn(y0, qy[i]), DAMP)), __fmul_rn(fy, a));
    qz[i] = __fadd_rn(__fadd_rn(z0, __fmul_rn(__fsub_rn(z0, qz[i]), DAMP)), __fmul_rn(fz, a));
}

// The CPU reference's float operations, each rounded to float once, as the
// device's _rn intrinsics are, whatever the host compiler and its flags.
// A compiler may contract a product and the add or subtract that consumes
// it into one fused multiply-add, which rounds once where the device rounds
// twice.  C allows that within an expression unless FP_CONTRACT is off;
// GCC (whose default outside ISO C mode is -ffp-contract=fast) and clang
// with -ffp-contract=fast also fuse across statements, wherever the target
// has an FMA instruction (AArch64; x86-64 with -mfma).  Pragmas do not cover
// every host: GCC ignores `#pragma STDC FP_CONTRACT OFF`, and clang's
// -ffp-contract=fast overrides even `#pragma clang fp contract(off)`.  So
// every result is stored into a volatile float and read back: the store
// must write the rounded result itself, and the operation that uses it
// reads an opaque value from memory, so there is nothing to fuse, under any
// contraction mode of any compiler.  (On an x87 host that evaluates in long
// double, the store rounds to float; double rounding is harmless for a
// single +, -, *, / or sqrt of floats.)  sqrtf and division are correctly
// rounded on IEEE hosts; only -ffast-math style flags could change them.
// This costs the reference about 4 times its plain speed: 1.3 s at large.
static float rn(float v)
{
    volatile float r = v;
    return r;
}
static float rn_add(float a, float b) { return rn(a + b); }
static float rn_sub(float a, float b) { return rn(a - b); }
static float rn_mul(float a, float b) { return rn(a * b); }
static float rn_div(float a, float b) { return rn(a / b); }
static float rn_sqrt(float a) { return rn(sqrtf(a)); }

// The CPU reference for one particle: particle_step's operations in its
// order, through the helpers above.
static void cpu_particle(const float *px, const float *py, const float *pz, float *qx, float *qy,
                         float *qz, int i, int w, int h, float spacing)
{
    int x = i % w, y = i / w;
    if (y == 0 && (x == 0 || x == w - 1))
        return;
    float x0 = px[i], y0 = py[i], z0 = pz[i];
    float fx = 0.0f, fy = rn_mul(MASS, GRAVITY), fz = 0.0f;
    for (int s = 0; s < 12; s++) {
        int nx = x + h_springs[s].dx, ny = y + h_springs[s].dy;
        if (nx < 0 || nx >= w || ny < 0 || ny >= h)
            continue;
        int j = ny * w + nx;
        float dx = rn_sub(px[j], x0), dy = rn_sub(py[j], y0), dz = rn_sub(pz[j], z0);
        float len = rn_sqrt(rn_add(rn_add(rn_mul(dx, dx), rn_mul(dy, dy)), rn_mul(dz, dz)));
        float rest = rn_mul(h_springs[s].rest, spacing);
        float mag = rn_div(rn_mul(h_springs[s].k, rn_sub(len, rest)), len);
        fx = rn_add(fx, rn_mul(mag, dx));
        fy = rn_add(fy, rn_mul(mag, dy));
        fz = rn_add(fz, rn_mul(mag, dz));
    }
    const float a = rn_div(rn_mul(DT, DT), MASS);
    qx[i] = rn_add(rn_add(x0, rn_mul(rn_sub(x0, qx[i]), DAMP)), rn_mul(fx, a));
    qy[i] = rn_add(rn_add(y0, rn_mul(rn_sub(y0, qy[i]), DAMP)), rn_mul(fy, a));
    qz[i] = rn_add(rn_add(z0, rn_mul(rn_sub(z0, qz[i]), DAMP)), rn_mul(fz, a));
}

// One time step: each of cl.cu and clopt.cu defines it, with its own way of
// handing particles to threads (`threads` threads in all).
__global__ void cloth_step(const float *px, const float *py, const float *pz, float *qx, float *qy,
                           float *qz, int w, int h, float spacing);

// The whole program: input, steps on the GPU, the CPU reference, the check.
// `name` and `how` (how particles are handed to threads) label the output.
static int cloth_main(int argc, char **argv, const char *name, const char *how)
{
    bench_args args = bench_parse(argc, argv);
    int w = bench_pick(args, 64, 128, 256), h = w;
    int steps = bench_pick(args, 40, 80, 160);
    int p = w * h;
    float spacing = 1.0f / (float)(w - 1);
    // Flat and level, with a seeded vertical jitter of up to 5% of the
    // spacing; at rest (prev == p).
    bench_rng rng(args.seed);
    std::vector<float> pos[3], prev[3];
    for (int d = 0; d < 3; d++)
        pos[d].resize(p);
    for (int i = 0; i < p; i++) {
        pos[0][i] = (float)(i % w) * spacing;
        pos[1][i] = (rng.unit() - 0.5f) * 0.1f * spacing;
        pos[2][i] = (float)(i / w) * spacing;
    }
    for (int d = 0; d < 3; d++)
        prev[d] = pos[d];

    float *d_buf[2][3];
    for (int b = 0; b < 2; b++)
        for (int d = 0; d < 3; d++) {
            CUDA_CHECK(cudaMalloc(&d_buf[b][d], p * sizeof(float)));
            CUDA_CHECK(cudaMemcpy(d_buf[b][d], (b ? prev[d] : pos[d]).data(), p * sizeof(float),
                                  cudaMemcpyHostToDevice));
        }
    CUDA_CHECK(cudaMemcpyToSymbol(c_springs, h_springs, sizeof h_springs));

    const int block = 128, threads = (p + CHUNK - 1) / CHUNK;
    for (int s = 0; s < steps; s++) {
        float **cur = d_buf[s & 1], **old = d_buf[(s + 1) & 1];
        cloth_step<<<(threads + block - 1) / block, block>>>(cur[0], cur[1], cur[2], old[0], old[1],
                                                             old[2], w, h, spacing);
        CUDA_CHECK(cudaGetLastError());
    }
    // After `steps` steps the newest positions are in buffer steps & 1.
    std::vector<float> got[3];
    for (int d = 0; d < 3; d++) {
        got[d].resize(p);
        CUDA_CHECK(cudaMemcpy(got[d].data(), d_buf[steps & 1][d], p * sizeof(float),
                              cudaMemcpyDeviceToHost));
    }
    for (int b = 0; b < 2; b++)
        for (int d = 0; d < 3; d++)
            CUDA_CHECK(cudaFree(d_buf[b][d]));

    // The CPU reference, step by step.
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < p; i++)
            cpu_particle(pos[0].data(), pos[1].data(), pos[2].data(), prev[0].data(),
                         prev[1].data(), prev[2].data(), i, w, h, spacing);
        for (int d = 0; d < 3; d++)
            pos[d].swap(prev[d]);
    }
    // Exact: every coordinate must have the reference's bits (see the top).
    double maxerr = 0, lowest = 0;
    long differ = 0;
    for (int d = 0; d < 3; d++)
        for (int i = 0; i < p; i++) {
            if (memcmp(&got[d][i], &pos[d][i], sizeof(float)) != 0) {
                differ++;
                double e = std::fabs((double)got[d][i] - pos[d][i]);
                maxerr = std::isnan(e) ? INFINITY : std::fmax(maxerr, e);
            }
            if (d == 1)
                lowest = std::fmin(lowest, got[d][i]);
        }

    printf("%s: %dx%d particles, %d steps, %d threads of %d particles (%s)\n", name, w, h,
           steps, threads, CHUNK, how);
    printf("%s: lowest point %.4f, %ld of %d coordinates differ from the CPU's (max %.3g)\n",
           name, lowest, differ, 3 * p, maxerr);
    uint64_t hsh = 0xcbf29ce484222325ull;
    for (int d = 0; d < 3; d++)
        hsh = bench_hash(got[d].data(), p * sizeof(float), hsh);
    return bench_result(differ == 0, hsh);
}

#endif
