// kernels.cu -- the functional-mode speed benchmark's kernels
// (bench/speed/bench_kernels.c runs them).  Each is a common shape of
// GPU work; together they show where the interpreter spends its time.
// Regenerate: nvcc -arch=sm_75 --ptx -lineinfo -o bench/speed/kernels.ptx bench/speed/kernels.cu

// ALU-bound: a long dependent chain of float fma and integer multiply-add
// per thread, no memory traffic inside the loop.
extern "C" __global__ void alu_fma(float *out, int iters)
{
    float a = threadIdx.x * 0.001f, b = 0.999f, c = 0.25f;
    unsigned x = threadIdx.x * 2654435761u + blockIdx.x;
    for (int i = 0; i < iters; i++) {
        a = a * b + c;
        x = x * 1664525u + 1013904223u;
        c = c * 0.5f + (float)(x >> 20) * 1e-3f;
        b = b * 0.9999f + 1e-4f;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a + c + (float)x;
}

// Memory-bound: the STREAM triad, one element per thread.
extern "C" __global__ void triad(const float *a, const float *b, float *c, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + s * b[i];
}

// Barrier-heavy: a shared-memory tree reduction per block.
extern "C" __global__ void block_reduce(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// Divergent control flow: a data-dependent loop per thread (Collatz steps).
extern "C" __global__ void collatz(const unsigned *in, unsigned *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long v = in[i];
    unsigned k = 0;
    while (v != 1 && k < 1000) {
        v = (v & 1) ? 3 * v + 1 : v / 2;
        k++;
    }
    steps[i] = k;
}

// Shared-memory tiled matrix multiply (compute and shared-memory bound).
#define TILE 16
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}
