// demo.cu -- lockstep's demo: an ordinary CUDA program, unmodified.
//
//   nvcc -cudart shared -lineinfo -o build/demo_cuda examples/demo.cu
//   build/lockstep run -- build/demo_cuda          (on the simulator)
//   build/demo_cuda                                (on a real GPU, if there is one)
//
// It computes a histogram of pseudo-random bytes with shared-memory
// atomics, a dot product with a warp-shuffle reduction, and a 2-D stencil,
// checks each against the CPU, and prints from the device.
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
                    cudaGetErrorString(e_));                                               \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

__constant__ unsigned c_seed;

__global__ void histogram(unsigned *bins, int n)
{
    __shared__ unsigned local[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        local[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned x = (unsigned)i * 2654435761u ^ c_seed;
        atomicAdd(&local[(x >> 13) & 255], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        atomicAdd(&bins[i], local[i]);
}

__global__ void dot(const float *a, const float *b, float *out, int n)
{
    float s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += a[i] * b[i];
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, off);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, s);
    if (blockIdx.x == 0 && threadIdx.x == 0)
        printf("dot: %d blocks of %d threads, warp 0 of block 0 summed %.1f\n", gridDim.x,
               blockDim.x, s);
}

__global__ void stencil(const float *in, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x <= 0 || y <= 0 || x >= w - 1 || y >= h - 1)
        return;
    out[y * w + x] = 0.25f * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] +
                              in[(y + 1) * w + x]);
}

int main()
{
    const int n = 1 << 18, w = 200, h = 120;
    unsigned seed = 12345u, *d_bins, bins[256] = {0}, ref[256] = {0};
    CHECK(cudaMemcpyToSymbol(c_seed, &seed, sizeof seed));
    CHECK(cudaMalloc(&d_bins, sizeof bins));
    CHECK(cudaMemset(d_bins, 0, sizeof bins));
    histogram<<<64, 256>>>(d_bins, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(bins, d_bins, sizeof bins, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        ref[(((unsigned)i * 2654435761u ^ seed) >> 13) & 255]++;
    int bad = 0;
    for (int i = 0; i < 256; i++)
        bad += bins[i] != ref[i];
    printf("histogram of %d values into 256 bins: %s\n", n, bad ? "WRONG" : "correct");

    float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
    double want = 0;
    for (int i = 0; i < n; i++) {
        a[i] = (float)(i % 7);
        b[i] = (float)(i % 5) - 2.0f;
        want += (double)a[i] * b[i];
    }
    float *d_a, *d_b, *d_out, got = 0;
    CHECK(cudaMalloc(&d_a, n * sizeof(float)));
    CHECK(cudaMalloc(&d_b, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, sizeof(float)));
    CHECK(cudaMemcpy(d_a, a, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_out, 0, sizeof(float)));
    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    CHECK(cudaEventRecord(t0));
    dot<<<32, 256>>>(d_a, d_b, d_out, n);
    CHECK(cudaEventRecord(t1));
    CHECK(cudaEventSynchronize(t1));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    printf("dot product of %d floats: %s (GPU %.1f, CPU %.1f), kernel time %.3f ms\n", n,
           got == (float)want ? "correct" : "WRONG", got, want, ms);
    bad += got != (float)want; /* small integers: exact in any order */

    float *in = (float *)malloc(w * h * sizeof(float)), *out = (float *)calloc(w * h, sizeof(float));
    for (int i = 0; i < w * h; i++)
        in[i] = (float)((i * 37) % 101);
    float *d_in, *d_st;
    CHECK(cudaMalloc(&d_in, w * h * sizeof(float)));
    CHECK(cudaMalloc(&d_st, w * h * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, w * h * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_st, 0, w * h * sizeof(float)));
    dim3 block(16, 8), grid((w + 15) / 16, (h + 7) / 8);
    stencil<<<grid, block>>>(d_in, d_st, w, h);
    CHECK(cudaMemcpy(out, d_st, w * h * sizeof(float), cudaMemcpyDeviceToHost));
    int sbad = 0;
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            float r = 0.25f * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] +
                               in[(y + 1) * w + x]);
            sbad += out[y * w + x] != r;
        }
    printf("2-D stencil on a %dx%d grid of %dx%d blocks: %s\n", w, h, grid.x, grid.y,
           sbad ? "WRONG" : "correct");
    bad += sbad;
    CHECK(cudaDeviceSynchronize());
    return bad ? 1 : 0;
}
