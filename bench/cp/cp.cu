// cp.cu -- electrostatic (Coulomb) potential of point charges on a planar
// lattice (GPUDet's CP workload; our own kernel design).
//
// The lattice has gx x gy points, spacing STEP, in the plane z = PLANE; each
// point receives V(p) = sum_i q_i / |p - a_i| over a seeded set of charges.
// The charges are uploaded to __constant__ memory in batches of BATCH, kept
// as four separate arrays (x, y, z, q); one launch per batch adds that
// batch's share to the lattice (the first launch stores instead of adding).
// Each thread owns a 2 x 2 patch of neighbouring points (read and written as
// one float2 per row).  Per charge it forms the two x and the two y offsets
// and the squared height above the plane once and reuses them across its
// four points, then does one rsqrtf and one multiply-add per point.  Every
// thread of a warp reads the same charge at the same time (a constant-cache
// broadcast); global memory is touched only at the start and end of a
// launch: compute-bound.
#include "bench.h"
#include <algorithm>
#include <vector>

#define BATCH 120     // charges per launch
#define TPX 16        // threads per CTA along x (each covers 2 columns)
#define TPY 8         // threads per CTA along y (each covers 2 rows)
#define STEP 0.5f     // lattice spacing (a power of two: point coordinates are exact)
#define PLANE 6.0f    // z of the lattice plane

__constant__ float q_x[BATCH], q_y[BATCH], q_z[BATCH], q_val[BATCH];

// Adds (or, when first, stores) the potential of charges 0..count-1 of the
// current batch at every lattice point.  gx must be even (float2 rows).
__global__ void coulomb_patch(float *__restrict__ pot, int gx, int gy, int count, int first)
{
    int col = 2 * (blockIdx.x * TPX + threadIdx.x);
    int row = 2 * (blockIdx.y * TPY + threadIdx.y);
    if (col >= gx || row >= gy)
        return;
    bool two_rows = row + 1 < gy;
    float x0 = STEP * col, x1 = STEP * (col + 1);
    float y0 = STEP * row, y1 = STEP * (row + 1);
    float2 *r0 = (float2 *)(pot + (size_t)row * gx + col);
    float2 *r1 = (float2 *)(pot + (size_t)(row + 1) * gx + col);
    // Continue the running sums of the previous batches (one sum per point,
    // charge after charge: the order the check's error bound assumes).
    float v00 = 0.0f, v01 = 0.0f, v10 = 0.0f, v11 = 0.0f;   // v<row><col>
    if (!first) {
        float2 a = *r0;
        v00 = a.x;
        v01 = a.y;
        if (two_rows) {
            float2 b = *r1;
            v10 = b.x;
            v11 = b.y;
        }
    }
    for (int i = 0; i < count; i++) {
        float h = PLANE - q_z[i], h2 = h * h;
        float ex0 = x0 - q_x[i], ex1 = x1 - q_x[i];
        float ey0 = y0 - q_y[i], ey1 = y1 - q_y[i];
        float s0 = fmaf(ey0, ey0, h2), s1 = fmaf(ey1, ey1, h2);
        float q = q_val[i];
        v00 = fmaf(q, rsqrtf(fmaf(ex0, ex0, s0)), v00);
        v01 = fmaf(q, rsqrtf(fmaf(ex1, ex1, s0)), v01);
        v10 = fmaf(q, rsqrtf(fmaf(ex0, ex0, s1)), v10);
        v11 = fmaf(q, rsqrtf(fmaf(ex1, ex1, s1)), v11);
    }
    *r0 = make_float2(v00, v01);
    if (two_rows)
        *r1 = make_float2(v10, v11);
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int gx = bench_pick(args, 128, 256, 512), gy = gx;
    int ncharges = bench_pick(args, 480, 960, 3840);
    size_t npts = (size_t)gx * gy;

    // Seeded charges over the lattice's extent in x and y, 0.4 to 6 above or
    // below the plane (so no distance is tiny), values in [-1, 1).
    bench_rng rng(args.seed);
    std::vector<float> cx(ncharges), cy(ncharges), cz(ncharges), cq(ncharges);
    for (int i = 0; i < ncharges; i++) {
        cx[i] = STEP * gx * rng.unit();
        cy[i] = STEP * gy * rng.unit();
        float off = 0.4f + 5.6f * rng.unit();
        cz[i] = rng.below(2) ? PLANE + off : PLANE - off;
        cq[i] = 2.0f * rng.unit() - 1.0f;
    }

    float *d_pot;
    CUDA_CHECK(cudaMalloc(&d_pot, npts * sizeof(float)));
    dim3 block(TPX, TPY), grid((gx / 2 + TPX - 1) / TPX, ((gy + 1) / 2 + TPY - 1) / TPY);
    int launches = 0;
    for (int b = 0; b < ncharges; b += BATCH) {
        int cnt = ncharges - b < BATCH ? ncharges - b : BATCH;
        size_t bytes = cnt * sizeof(float);
        CUDA_CHECK(cudaMemcpyToSymbol(q_x, &cx[b], bytes));
        CUDA_CHECK(cudaMemcpyToSymbol(q_y, &cy[b], bytes));
        CUDA_CHECK(cudaMemcpyToSymbol(q_z, &cz[b], bytes));
        CUDA_CHECK(cudaMemcpyToSymbol(q_val, &cq[b], bytes));
        coulomb_patch<<<grid, block>>>(d_pot, gx, gy, cnt, b == 0);
        CUDA_CHECK(cudaGetLastError());
        launches++;
    }
    std::vector<float> got(npts);
    CUDA_CHECK(cudaMemcpy(got.data(), d_pot, npts * sizeof(float), cudaMemcpyDeviceToHost));
    printf("cp: %d x %d lattice, %d charges in %d launches of %d CTAs\n", gx, gy, ncharges,
           launches, grid.x * grid.y);

    // CPU reference in double from the same float inputs.  Tolerance, per
    // point, a first-order bound on the GPU's float rounding for the order it
    // uses (charges one after another, each term fused into the running sum):
    //   per term: the offsets (1 rounding each, doubled by squaring), h*h and
    //   the two fmas of r^2 give at most ~5u relative in r^2, ~2.5u after the
    //   square root; rsqrt.approx adds at most 2^-22.9 (~2.2u): < 5u of |t_i|,
    //   taken as 6u;
    //   per accumulation: one rounding of the new partial sum, u |S_k|;
    // so |got - V| <= 6u sum|t_i| + u sum_k |S_k| (u = 2^-24), with 5% slack
    // for second-order terms.  Cancellation between charges of both signs
    // makes a bound relative to V itself meaningless.
    const double u = 1.0 / 16777216.0;
    double worst = 0;
    bool pass = true;
    for (int y = 0; y < gy; y++)
        for (int x = 0; x < gx; x++) {
            double px = (double)STEP * x, py = (double)STEP * y, v = 0, terms = 0, partials = 0;
            for (int i = 0; i < ncharges; i++) {
                double dx = px - cx[i], dy = py - cy[i], dz = (double)PLANE - cz[i];
                double t = cq[i] / std::sqrt(dx * dx + dy * dy + dz * dz);
                v += t;
                terms += std::fabs(t);
                partials += std::fabs(v);
            }
            double tol = 1.05 * (6 * u * terms + u * partials) + 1e-30;
            double err = std::fabs(got[(size_t)y * gx + x] - v);
            worst = std::max(worst, err / tol);
            if (!(err <= tol))
                pass = false;
        }
    printf("largest error is %.3g of the bound\n", worst);
    CUDA_CHECK(cudaFree(d_pot));
    return bench_result(pass, bench_hash(got.data(), npts * sizeof(float)));
}
