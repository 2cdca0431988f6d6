// shared_mem.cu -- end-to-end kernels for shared memory and __syncthreads
// (driver: test_shared_mem.c).
//
// block_reduce: a tree reduction in a static __shared__ array for any block
//   size up to 256 (not only powers of two), over a 1-D, 2-D or 3-D block;
//   an int sum and a float sum of small integers (exact in any order).
// matmul_tiled: C = A * B with 16x16 tiles staged through __shared__, partial
//   tiles zero-filled at the matrix edges; the product accumulates with fmaf
//   in k order, which the CPU reference repeats exactly.
// stencil2d: a 5-point integer stencil over a w x h grid; each 16x8 block
//   loads its tile plus a one-cell halo (edge threads load the halo cells,
//   cells outside the grid read as 0) into a 2-D __shared__ array.
// dyn_scan: an inclusive Hillis-Steele scan per block in dynamic shared
//   memory (extern __shared__, two ping-pong buffers of blockDim.x ints,
//   size given at launch), plus a double array placed after them to check
//   that carving dynamic shared memory at an 8-byte-aligned offset works.
#include "common.cuh"

extern "C" __global__ void block_reduce(const int *in, int *isum, float *fsum, int n)
{
    __shared__ int si[256];
    __shared__ float sf[256];
    unsigned t = e2e_tid_in_block();
    unsigned nt = e2e_block_threads();
    unsigned g = e2e_gtid();
    int v = g < (unsigned)n ? in[g] : 0;
    si[t] = v;
    sf[t] = (float)(v % 100);
    __syncthreads();
    unsigned p = 1;
    while (p < nt)
        p <<= 1;
    for (unsigned s = p >> 1; s > 0; s >>= 1) {
        if (t < s && t + s < nt) {
            si[t] += si[t + s];
            sf[t] += sf[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        isum[e2e_block_id()] = si[0];
        fsum[e2e_block_id()] = sf[0];
    }
}

#define TILE 16

extern "C" __global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N,
                                        int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = (col < N && k0 + ty < K) ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        int kmax = min(TILE, K - k0);
        for (int k = 0; k < kmax; k++)
            acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

#define SX 16
#define SY 8

extern "C" __global__ void stencil2d(const int *in, int *out, int w, int h)
{
    __shared__ int tile[SY + 2][SX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * SX + tx;
    int y = blockIdx.y * SY + ty;
    bool inside = x < w && y < h;
    tile[ty + 1][tx + 1] = inside ? in[y * w + x] : 0;
    if (tx == 0)
        tile[ty + 1][0] = (x - 1 >= 0 && y < h) ? in[y * w + x - 1] : 0;
    if (tx == SX - 1)
        tile[ty + 1][SX + 1] = (x + 1 < w && y < h) ? in[y * w + x + 1] : 0;
    if (ty == 0)
        tile[0][tx + 1] = (y - 1 >= 0 && x < w) ? in[(y - 1) * w + x] : 0;
    if (ty == SY - 1)
        tile[SY + 1][tx + 1] = (y + 1 < h && x < w) ? in[(y + 1) * w + x] : 0;
    __syncthreads();
    if (inside) {
        int c = tile[ty + 1][tx + 1];
        out[y * w + x] = 4 * c - tile[ty][tx + 1] - tile[ty + 2][tx + 1] - tile[ty + 1][tx] -
                         tile[ty + 1][tx + 2];
    }
}

extern "C" __global__ void dyn_scan(const int *in, int *out, double *dout, int n)
{
    extern __shared__ int dyn[];
    unsigned t = threadIdx.x;
    unsigned nt = blockDim.x;
    unsigned g = blockIdx.x * nt + t;
    int *buf0 = dyn;
    int *buf1 = dyn + nt;
    double *dd = (double *)(dyn + 2 * ((nt + 1) & ~1u));
    buf0[t] = g < (unsigned)n ? in[g] : 0;
    dd[t] = (double)t * 0.5;
    __syncthreads();
    int *src = buf0, *dst = buf1;
    for (unsigned off = 1; off < nt; off <<= 1) {
        dst[t] = t >= off ? src[t] + src[t - off] : src[t];
        __syncthreads();
        int *tmp = src;
        src = dst;
        dst = tmp;
    }
    if (g < (unsigned)n) {
        out[g] = src[t];
        dout[g] = dd[nt - 1 - t];
    }
}
