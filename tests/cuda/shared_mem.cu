/* shared_mem.cu -- static and dynamic shared memory with __syncthreads.
 *
 * Three workloads: a tiled matrix multiply whose tiles are static __shared__
 * arrays (matrix sizes not multiples of the tile), a two-level inclusive
 * prefix sum whose per-block buffers are `extern __shared__` with the size
 * given at launch (block sizes not powers of two, launched with different
 * sizes), and a block-wise reversal that carves a double and an int array out
 * of one dynamic buffer while also using a static array.  All arithmetic is on
 * integers or integer-valued floats, so the results are exact. */
#include "common.cuh"

#define TILE 16

/* C = A * B with A M x K, B K x N, row-major. */
__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int K, int N)
{
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE + 1]; /* padded: another layout, same result */
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
        int ka = t * TILE + threadIdx.x, kb = t * TILE + threadIdx.y;
        ta[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        tb[threadIdx.y][threadIdx.x] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

/* Inclusive scan of each block's slice (Hillis-Steele, double-buffered in
 * 2 * blockDim.x ints of dynamic shared memory); block totals to sums. */
__global__ void scan_blocks(const int *in, int *out, int *sums, int n)
{
    extern __shared__ int buf[];
    int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    int *src = buf, *dst = buf + blockDim.x;
    src[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (int d = 1; d < (int)blockDim.x; d *= 2) {
        dst[tid] = tid >= d ? src[tid] + src[tid - d] : src[tid];
        __syncthreads();
        int *t = src;
        src = dst;
        dst = t;
    }
    if (i < n)
        out[i] = src[tid];
    if (tid == blockDim.x - 1)
        sums[blockIdx.x] = src[tid];
}

/* Adds the scanned totals of the preceding blocks. */
__global__ void add_offsets(int *out, const int *scanned_sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && blockIdx.x > 0)
        out[i] += scanned_sums[blockIdx.x - 1];
}

/* Reverses each block's slice of x (doubles) and of k (ints); the dynamic
 * buffer holds blockDim.x doubles followed by blockDim.x ints; a static
 * array records which thread wrote each slot. */
__global__ void reverse_blocks(double *x, int *k, int *who, int n)
{
    extern __shared__ double dyn[];
    __shared__ int writer[512];
    double *sx = dyn;
    int *sk = (int *)(dyn + blockDim.x);
    int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    int len = min((int)blockDim.x, n - (int)(blockIdx.x * blockDim.x));
    if (tid < len) {
        sx[tid] = x[i];
        sk[tid] = k[i];
        writer[tid] = tid;
    }
    __syncthreads();
    if (tid < len) {
        int j = len - 1 - tid;
        x[i] = sx[j];
        k[i] = sk[j];
        who[i] = writer[j];
    }
}

static void test_matmul(void)
{
    const int M = 45, K = 37, N = 29;
    float *A = (float *)malloc(M * K * sizeof(float)), *B = (float *)malloc(K * N * sizeof(float));
    float *C = (float *)malloc(M * N * sizeof(float)), *R = (float *)malloc(M * N * sizeof(float));
    for (int i = 0; i < M * K; i++)
        A[i] = (float)((i * 7) % 11 - 5);
    for (int i = 0; i < K * N; i++)
        B[i] = (float)((i * 5) % 13 - 6);
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            float s = 0.0f;
            for (int k = 0; k < K; k++)
                s += A[r * K + k] * B[k * N + c];
            R[r * N + c] = s;
        }
    float *dA, *dB, *dC;
    CHECK(cudaMalloc(&dA, M * K * sizeof(float)));
    CHECK(cudaMalloc(&dB, K * N * sizeof(float)));
    CHECK(cudaMalloc(&dC, M * N * sizeof(float)));
    CHECK(cudaMemcpy(dA, A, M * K * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B, K * N * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tiled<<<grid, block>>>(dA, dB, dC, M, K, N);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(C, dC, M * N * sizeof(float), cudaMemcpyDeviceToHost));
    check_array_near("tiled matmul 45x37 * 37x29 with static shared tiles", R, C, M * N, 0.0);
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    free(A);
    free(B);
    free(C);
    free(R);
}

/* One full prefix sum of n ints with blocks of `block` threads. */
static void test_scan(int n, int block)
{
    int nb = (n + block - 1) / block;
    int *h = (int *)malloc(n * sizeof(int)), *ref = (int *)malloc(n * sizeof(int));
    int *got = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        h[i] = (i * 31) % 17 - 8;
    for (int i = 0, s = 0; i < n; i++) {
        s += h[i];
        ref[i] = s;
    }
    int *din, *dout, *dsums, *dsums_scan, *dtot;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dout, n * sizeof(int)));
    CHECK(cudaMalloc(&dsums, nb * sizeof(int)));
    CHECK(cudaMalloc(&dsums_scan, nb * sizeof(int)));
    CHECK(cudaMalloc(&dtot, sizeof(int)));
    CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
    scan_blocks<<<nb, block, 2 * block * sizeof(int)>>>(din, dout, dsums, n);
    CHECK_LAUNCH();
    /* The block totals fit one block (nb <= 1024): scan them in place. */
    int b2 = nb;
    scan_blocks<<<1, b2, 2 * b2 * sizeof(int)>>>(dsums, dsums_scan, dtot, nb);
    CHECK_LAUNCH();
    add_offsets<<<nb, block>>>(dout, dsums_scan, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    char what[128];
    snprintf(what, sizeof what, "prefix sum of %d ints, dynamic shared, blocks of %d", n, block);
    check_array_exact(what, ref, got, n);
    int total = 0;
    CHECK(cudaMemcpy(&total, dtot, sizeof total, cudaMemcpyDeviceToHost));
    check_int("prefix sum total", ref[n - 1], total);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dsums));
    CHECK(cudaFree(dsums_scan));
    CHECK(cudaFree(dtot));
    free(h);
    free(ref);
    free(got);
}

static void test_reverse(int n, int block)
{
    double *x = (double *)malloc(n * sizeof(double)), *rx = (double *)malloc(n * sizeof(double));
    int *k = (int *)malloc(n * sizeof(int)), *rk = (int *)malloc(n * sizeof(int));
    int *who = (int *)malloc(n * sizeof(int)), *rwho = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) {
        x[i] = i * 0.5 - 100.0;
        k[i] = i * 3 + 1;
    }
    for (int b = 0; b * block < n; b++) {
        int base = b * block, len = n - base < block ? n - base : block;
        for (int t = 0; t < len; t++) {
            rx[base + t] = x[base + len - 1 - t];
            rk[base + t] = k[base + len - 1 - t];
            rwho[base + t] = len - 1 - t;
        }
    }
    double *dx;
    int *dk, *dwho;
    CHECK(cudaMalloc(&dx, n * sizeof(double)));
    CHECK(cudaMalloc(&dk, n * sizeof(int)));
    CHECK(cudaMalloc(&dwho, n * sizeof(int)));
    CHECK(cudaMemcpy(dx, x, n * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dk, k, n * sizeof(int), cudaMemcpyHostToDevice));
    size_t dyn = block * (sizeof(double) + sizeof(int));
    reverse_blocks<<<(n + block - 1) / block, block, dyn>>>(dx, dk, dwho, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(x, dx, n * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(k, dk, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(who, dwho, n * sizeof(int), cudaMemcpyDeviceToHost));
    char what[128];
    snprintf(what, sizeof what, "block reversal (doubles) n=%d block=%d", n, block);
    check_array_near(what, rx, x, n, 0.0);
    snprintf(what, sizeof what, "block reversal (ints) n=%d block=%d", n, block);
    check_array_exact(what, rk, k, n);
    snprintf(what, sizeof what, "static shared writer ids n=%d block=%d", n, block);
    check_array_exact(what, rwho, who, n);
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dk));
    CHECK(cudaFree(dwho));
    free(x);
    free(rx);
    free(k);
    free(rk);
    free(who);
    free(rwho);
}

int main(void)
{
    test_matmul();
    test_scan(30000, 200);
    test_scan(7777, 96);
    test_scan(1000, 1000);
    test_reverse(5000, 300);
    test_reverse(999, 64);
    return finish();
}
