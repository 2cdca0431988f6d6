// lps.cu -- Jacobi iteration for Laplace's equation on a 3-D grid (GPUDet's
// LPS workload; our own tiling).
//
// The grid is nx x ny x nz; its six boundary faces keep fixed (Dirichlet)
// values and every sweep replaces each interior value by the mean of its six
// neighbours from the previous sweep (two buffers, one launch per sweep).
// A CTA of 16 x 8 threads owns a 16 x 8 patch of the x-y plane and a slab of
// SLAB consecutive z planes (blockIdx.z picks the slab).  It keeps a ring of
// three planes of its patch, each with a one-cell border, in shared memory:
// per plane it loads the plane above into the ring slot that has just gone
// out of use (each thread copies two cells of the bordered plane, at
// offsets worked out once), waits, computes from the three slots, and waits
// again before that slot can be overwritten: two __syncthreads per plane.
#include "bench.h"
#include <vector>

#define PX 16                 // patch width  (threads along x)
#define PY 8                  // patch height (threads along y)
#define SLAB 8                // z planes per CTA
#define WX (PX + 2)           // staged plane, with its border
#define WY (PY + 2)
static_assert(2 * PX * PY >= WX * WY, "two staged cells per thread suffice");
#define SIXTH (1.0f / 6.0f)

__global__ void jacobi_slab(const float *__restrict__ u, float *__restrict__ v, int nx, int ny,
                            int nz)
{
    __shared__ float ring[3][WY][WX];
    int tx = threadIdx.x, ty = threadIdx.y, id = ty * PX + tx;
    int x0 = blockIdx.x * PX, y0 = blockIdx.y * PY;
    int x = x0 + tx, y = y0 + ty;
    int zlo = blockIdx.z * SLAB, zhi = min(zlo + SLAB, nz);
    bool mine = x < nx && y < ny;
    bool edge = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
    // Staging: thread id copies staged cells id and id + PX*PY (when that is
    // inside the WX x WY plane) of every plane.  Where they lie in a plane of
    // the grid is the same for all planes, so it is worked out once; cells
    // outside the grid get 0 (no computed cell ever reads them).
    size_t plane = (size_t)nx * ny;
    int cell[2], src[2];
    for (int k = 0; k < 2; k++) {
        int e = id + k * PX * PY, gx = x0 - 1 + e % WX, gy = y0 - 1 + e / WX;
        cell[k] = e < WX * WY ? e : -1;
        src[k] = gx >= 0 && gx < nx && gy >= 0 && gy < ny ? gy * nx + gx : -1;
    }
    auto stage = [&](float(*p)[WX], int z) {
        for (int k = 0; k < 2; k++)
            if (cell[k] >= 0)
                (&p[0][0])[cell[k]] = src[k] >= 0 ? u[z * plane + src[k]] : 0.0f;
    };
    int below = 0, here = 1, above = 2;   // ring slots of planes z-1, z, z+1
    if (zlo > 0)
        stage(ring[below], zlo - 1);
    stage(ring[here], zlo);
    for (int z = zlo; z < zhi; z++) {
        if (z + 1 < nz)
            stage(ring[above], z + 1);
        __syncthreads();   // planes z-1, z, z+1 are staged
        if (mine) {
            const float (*c)[WX] = ring[here];
            int i = ty + 1, j = tx + 1;
            float val = c[i][j];
            if (!edge && z > 0 && z < nz - 1) {
                float zs = ring[below][i][j] + ring[above][i][j];
                float ys = c[i - 1][j] + c[i + 1][j];
                float xs = c[i][j - 1] + c[i][j + 1];
                val = ((zs + ys) + xs) * SIXTH;
            }
            v[((size_t)z * ny + y) * nx + x] = val;
        }
        __syncthreads();   // nobody reads plane z-1 any more
        int t = below;
        below = here;
        here = above;
        above = t;
    }
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int nx = bench_pick(args, 96, 192, 384);
    int ny = bench_pick(args, 96, 192, 384);
    int nz = bench_pick(args, 16, 48, 96);
    int sweeps = 8;
    size_t cells = (size_t)nx * ny * nz;

    // Seeded input: every value in [0, 1), plus 4 on the z = 0 face (a hot
    // face, so the solution has a gradient).
    bench_rng rng(args.seed);
    std::vector<float> u0(cells);
    for (size_t i = 0; i < cells; i++)
        u0[i] = rng.unit();
    for (size_t i = 0; i < (size_t)nx * ny; i++)
        u0[i] += 4.0f;

    float *d_buf[2];
    CUDA_CHECK(cudaMalloc(&d_buf[0], cells * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_buf[1], cells * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_buf[0], u0.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(PX, PY), grid((nx + PX - 1) / PX, (ny + PY - 1) / PY, (nz + SLAB - 1) / SLAB);
    int src = 0;
    for (int s = 0; s < sweeps; s++) {
        jacobi_slab<<<grid, block>>>(d_buf[src], d_buf[src ^ 1], nx, ny, nz);
        CUDA_CHECK(cudaGetLastError());
        src ^= 1;
    }
    std::vector<float> got(cells);
    CUDA_CHECK(cudaMemcpy(got.data(), d_buf[src], cells * sizeof(float), cudaMemcpyDeviceToHost));
    printf("lps: %d x %d x %d grid, %d Jacobi sweeps (%d launches of %d CTAs)\n", nx, ny, nz,
           sweeps, sweeps, grid.x * grid.y * grid.z);

    // CPU reference, its own loop nest.  Tolerance 0 (exact): a new value is
    // ((zm + zp) + (ym + yp)) + (xm + xp), five float adds in this order on
    // both sides, then one multiply by the same float constant; there is no
    // multiply followed by an add for either compiler to contract into an
    // FMA, nothing is reassociated, and every IEEE operation rounds to
    // nearest, so the results agree bit for bit.
    const size_t sx = 1, sy = nx, sz = (size_t)nx * ny;
    std::vector<float> cur = u0, nxt(cells);
    for (int s = 0; s < sweeps; s++) {
        nxt = cur;   // the boundary faces keep their values
        for (int z = 1; z < nz - 1; z++)
            for (int y = 1; y < ny - 1; y++)
                for (int x = 1; x < nx - 1; x++) {
                    size_t i = z * sz + y * sy + x * sx;
                    float zs = cur[i - sz] + cur[i + sz];
                    float ys = cur[i - sy] + cur[i + sy];
                    float xs = cur[i - sx] + cur[i + sx];
                    nxt[i] = ((zs + ys) + xs) * SIXTH;
                }
        cur.swap(nxt);
    }
    size_t bad = 0;
    for (size_t i = 0; i < cells; i++)
        if (memcmp(&got[i], &cur[i], sizeof(float)) != 0) {
            if (bad < 3)
                fprintf(stderr, "mismatch at %zu: gpu %.9g cpu %.9g\n", i, got[i], cur[i]);
            bad++;
        }
    printf("%zu of %zu values differ (exact check)\n", bad, cells);
    CUDA_CHECK(cudaFree(d_buf[0]));
    CUDA_CHECK(cudaFree(d_buf[1]));
    return bench_result(bad == 0, bench_hash(got.data(), cells * sizeof(float)));
}
