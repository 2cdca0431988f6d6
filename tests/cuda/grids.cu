/* grids.cu -- multi-dimensional grids and blocks.
 *
 * A 2-D five-point stencil over a 100 x 61 image with 13 x 7 blocks, a 3-D
 * seven-point stencil over a 23 x 17 x 11 volume with 5 x 4 x 3 blocks, and
 * a census kernel that records threadIdx, blockIdx, blockDim and gridDim of
 * every thread in several 3-D launch shapes (none a multiple of 32 threads,
 * one with a 64-deep z block, one with a tall y grid) and counts how often
 * each global index ran, so a thread run twice or never shows. */
#include "common.cuh"

__global__ void stencil2d(const int *in, int *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int c = in[y * w + x];
    int l = x > 0 ? in[y * w + x - 1] : 0;
    int r = x < w - 1 ? in[y * w + x + 1] : 0;
    int u = y > 0 ? in[(y - 1) * w + x] : 0;
    int d = y < h - 1 ? in[(y + 1) * w + x] : 0;
    out[y * w + x] = 4 * c - l - r - u - d;
}

__global__ void stencil3d(const float *in, float *out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz)
        return;
    int i = (z * ny + y) * nx + x;
    float s = 6.0f * in[i];
    if (x > 0) s -= in[i - 1];
    if (x < nx - 1) s -= in[i + 1];
    if (y > 0) s -= in[i - nx];
    if (y < ny - 1) s -= in[i + nx];
    if (z > 0) s -= in[i - nx * ny];
    if (z < nz - 1) s -= in[i + nx * ny];
    out[i] = s;
}

/* Per thread: 12 built-in values, indexed by the global linear thread id;
 * count[id] is incremented atomically. */
__global__ void census(int *rec, int *count)
{
    int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    int nthr = blockDim.x * blockDim.y * blockDim.z;
    int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int id = block * nthr + tid;
    int *r = rec + 12 * id;
    r[0] = threadIdx.x; r[1] = threadIdx.y; r[2] = threadIdx.z;
    r[3] = blockIdx.x;  r[4] = blockIdx.y;  r[5] = blockIdx.z;
    r[6] = blockDim.x;  r[7] = blockDim.y;  r[8] = blockDim.z;
    r[9] = gridDim.x;   r[10] = gridDim.y;  r[11] = gridDim.z;
    atomicAdd(&count[id], 1);
}

static void test_stencil2d(void)
{
    const int w = 100, h = 61;
    int *in = (int *)malloc(w * h * sizeof(int)), *ref = (int *)malloc(w * h * sizeof(int));
    int *got = (int *)malloc(w * h * sizeof(int));
    for (int i = 0; i < w * h; i++)
        in[i] = (i * 7919) % 1000 - 500;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int c = in[y * w + x];
            int l = x > 0 ? in[y * w + x - 1] : 0, r = x < w - 1 ? in[y * w + x + 1] : 0;
            int u = y > 0 ? in[(y - 1) * w + x] : 0, d = y < h - 1 ? in[(y + 1) * w + x] : 0;
            ref[y * w + x] = 4 * c - l - r - u - d;
        }
    int *din, *dout;
    CHECK(cudaMalloc(&din, w * h * sizeof(int)));
    CHECK(cudaMalloc(&dout, w * h * sizeof(int)));
    CHECK(cudaMemcpy(din, in, w * h * sizeof(int), cudaMemcpyHostToDevice));
    dim3 block(13, 7);
    dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
    stencil2d<<<grid, block>>>(din, dout, w, h);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, w * h * sizeof(int), cudaMemcpyDeviceToHost));
    check_array_exact("2-D stencil 100x61, blocks 13x7, grid 8x9", ref, got, w * h);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    free(in);
    free(ref);
    free(got);
}

static void test_stencil3d(void)
{
    const int nx = 23, ny = 17, nz = 11, n = nx * ny * nz;
    float *in = (float *)malloc(n * sizeof(float)), *ref = (float *)malloc(n * sizeof(float));
    float *got = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        in[i] = (float)((i * 31) % 64) * 0.5f;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                int i = (z * ny + y) * nx + x;
                float s = 6.0f * in[i];
                if (x > 0) s -= in[i - 1];
                if (x < nx - 1) s -= in[i + 1];
                if (y > 0) s -= in[i - nx];
                if (y < ny - 1) s -= in[i + nx];
                if (z > 0) s -= in[i - nx * ny];
                if (z < nz - 1) s -= in[i + nx * ny];
                ref[i] = s;
            }
    float *din, *dout;
    CHECK(cudaMalloc(&din, n * sizeof(float)));
    CHECK(cudaMalloc(&dout, n * sizeof(float)));
    CHECK(cudaMemcpy(din, in, n * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(5, 4, 3);
    dim3 grid((nx + 4) / 5, (ny + 3) / 4, (nz + 2) / 3);
    stencil3d<<<grid, block>>>(din, dout, nx, ny, nz);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    check_array_near("3-D stencil 23x17x11, blocks 5x4x3, grid 5x5x4", ref, got, n, 0.0);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    free(in);
    free(ref);
    free(got);
}

static void test_census(dim3 grid, dim3 block)
{
    int nthr = block.x * block.y * block.z;
    int total = grid.x * grid.y * grid.z * nthr;
    int *rec, *count;
    CHECK(cudaMalloc(&rec, 12 * total * sizeof(int)));
    CHECK(cudaMalloc(&count, total * sizeof(int)));
    CHECK(cudaMemset(count, 0, total * sizeof(int)));
    census<<<grid, block>>>(rec, count);
    CHECK_LAUNCH();
    int *h = (int *)malloc(12 * total * sizeof(int)), *hc = (int *)malloc(total * sizeof(int));
    int *ref = (int *)malloc(12 * total * sizeof(int)), *ones = (int *)malloc(total * sizeof(int));
    CHECK(cudaMemcpy(h, rec, 12 * total * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hc, count, total * sizeof(int), cudaMemcpyDeviceToHost));
    for (int id = 0; id < total; id++) {
        int b = id / nthr, t = id % nthr;
        int *r = ref + 12 * id;
        r[0] = t % block.x;
        r[1] = (t / block.x) % block.y;
        r[2] = t / (block.x * block.y);
        r[3] = b % grid.x;
        r[4] = (b / grid.x) % grid.y;
        r[5] = b / (grid.x * grid.y);
        r[6] = block.x; r[7] = block.y; r[8] = block.z;
        r[9] = grid.x;  r[10] = grid.y; r[11] = grid.z;
        ones[id] = 1;
    }
    char what[160];
    snprintf(what, sizeof what, "built-ins of grid (%u,%u,%u) block (%u,%u,%u)", grid.x, grid.y,
             grid.z, block.x, block.y, block.z);
    check_array_exact(what, ref, h, 12 * total);
    snprintf(what, sizeof what, "each thread ran once, grid (%u,%u,%u) block (%u,%u,%u)", grid.x,
             grid.y, grid.z, block.x, block.y, block.z);
    check_array_exact(what, ones, hc, total);
    CHECK(cudaFree(rec));
    CHECK(cudaFree(count));
    free(h);
    free(hc);
    free(ref);
    free(ones);
}

int main(void)
{
    test_stencil2d();
    test_stencil3d();
    test_census(dim3(3, 2, 2), dim3(10, 3, 2));
    test_census(dim3(2, 3, 4), dim3(7, 5, 3));
    test_census(dim3(1, 1, 3), dim3(1, 1, 64));
    test_census(dim3(1, 300, 1), dim3(33, 1, 1));
    test_census(dim3(5, 1, 1), dim3(9, 11, 1));
    return finish();
}
