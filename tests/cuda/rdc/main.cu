/* main.cu -- the host side of the rdc program: a CUDA program in three
 * translation units (main.cu, lib.cu, extra.cu) built with separate
 * compilation,
 *     nvcc -cudart shared -O2 -rdc=true -o rdc main.cu lib.cu extra.cu
 * so device code of one unit uses device functions, variables and
 * constants another defines.  Checked against the CPU:
 *   - poly_kernel (here) calls poly (lib.cu), reads c_coef and c_bias
 *     (__constant__ in lib.cu; c_coef set from here with cudaMemcpyToSymbol
 *     through its extern declaration, c_bias by lib.cu's own host code), a
 *     .weak template both this unit and extra.cu instantiate, and its own
 *     static mix (lib.cu and extra.cu have a static mix each, different);
 *   - kernels here and in extra.cu count in g_calls and write g_last
 *     (__device__ in lib.cu), which the host reads with cudaMemcpyFromSymbol
 *     both from lib.cu (the defining unit) and from here;
 *   - scale_kernel and block_sum_lib, defined in lib.cu, launched from
 *     here with <<<>>> (block_sum_lib and block_sum_main both use a dynamic
 *     shared array named buf);
 *   - extra_kernel (extra.cu) launched from here;
 *   - sinf for large arguments in three units (each holds its own copy of
 *     CUDA's argument-reduction table): bit-identical results;
 *   - device printf from kernels of all three units, and strings from a
 *     __device__ table of lib.cu (expected/rdc.stdout holds the output).
 */
#include "../common.cuh"
#include "rdc.cuh"

#define N 1000
#define BLOCK 128

static __device__ __noinline__ int mix(int x) { return x ^ 0x55; }

__global__ void poly_kernel(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = clamp_to(poly(in[i]), -5000, 5000) + mix(in[i]);
        atomicAdd(&g_calls, 1ull);
    }
    if (i == 0) {
        g_last[0] = out[0];
        printf("main.cu: poly_kernel ran, out[0] = %d, word %s\n", out[0], g_words[1]);
    }
}

__global__ void waves(const float *x, float *own, float *lib, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        own[i] = sinf(x[i]);
        lib[i] = wave(x[i]);
    }
}

__global__ void block_sum_main(const int *in, int *out)
{
    extern __shared__ int buf[];
    int t = threadIdx.x;
    buf[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0] * 2;
}

static int cpu_poly(int x, const int *coef, int bias)
{
    int r = 0;
    for (int k = NCOEF - 1; k >= 0; k--)
        r = r * x + coef[k];
    return r + bias;
}

static int cpu_clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

int main(void)
{
    const int coef[NCOEF] = {5, -3, 2, 1};
    static int in[N], out[N], want[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 37) % 41 - 20;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, N * sizeof(int)));
    CHECK(cudaMalloc(&d_out, N * sizeof(int)));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    const int grid = (N + BLOCK - 1) / BLOCK;

    /* the __constant__ of lib.cu, set from here through its extern declaration */
    CHECK(cudaMemcpyToSymbol(c_coef, coef, sizeof coef));
    int bias = 0;
    CHECK(cudaMemcpyFromSymbol(&bias, c_bias, sizeof bias));
    check_int("c_bias (lib.cu) starts at its initializer", 3, bias);

    fflush(stdout);
    poly_kernel<<<grid, BLOCK>>>(d_in, d_out, N);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        want[i] = cpu_clamp(cpu_poly(in[i], coef, 3), -5000, 5000) + (in[i] ^ 0x55);
    check_array_exact("poly_kernel (main.cu) calling poly (lib.cu)", want, out, N);

    /* lib.cu's host code changes its own constant */
    lib_set_bias(-11);
    fflush(stdout);
    extra_kernel<<<grid, BLOCK>>>(d_in, d_out, N);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        want[i] = cpu_clamp(2 * cpu_poly(in[i], coef, -11), -5000, 5000) + in[i] + 7;
    check_array_exact("extra_kernel (extra.cu) calling poly (lib.cu) after lib_set_bias", want,
                      out, N);

    /* the __device__ variables of lib.cu, read from lib.cu and from here */
    check_int("g_calls read by lib.cu", 2 * N, (long long)lib_read_calls());
    unsigned long long calls = 0;
    CHECK(cudaMemcpyFromSymbol(&calls, g_calls, sizeof calls));
    check_int("g_calls read by main.cu", 2 * N, (long long)calls);
    int last[2];
    lib_read_last(last);
    check_int("g_last[0] written by main.cu's kernel",
              cpu_clamp(cpu_poly(in[0], coef, 3), -5000, 5000) + (in[0] ^ 0x55), last[0]);
    check_int("g_last[1] written by extra.cu's kernel", want[N - 1], last[1]);

    /* a kernel of lib.cu launched from here */
    fflush(stdout);
    scale_kernel<<<grid, BLOCK>>>(d_out, N, -2);
    CHECK_LAUNCH();
    int scaled[N];
    CHECK(cudaMemcpy(scaled, d_out, sizeof scaled, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        want[i] *= -2;
    check_array_exact("scale_kernel (lib.cu) launched from main.cu", want, scaled, N);

    /* dynamic shared arrays of one name in two units */
    const int nb = 7; /* 7 blocks of 128 fit in N */
    int sums[2][nb], wsum[nb];
    int *d_sums;
    CHECK(cudaMalloc(&d_sums, 2 * nb * sizeof(int)));
    block_sum_lib<<<nb, BLOCK, BLOCK * sizeof(int)>>>(d_in, d_sums);
    CHECK_LAUNCH();
    block_sum_main<<<nb, BLOCK, BLOCK * sizeof(int)>>>(d_in, d_sums + nb);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost));
    for (int b = 0; b < nb; b++) {
        wsum[b] = 0;
        for (int t = 0; t < BLOCK; t++)
            wsum[b] += in[b * BLOCK + t];
    }
    check_array_exact("block_sum_lib (lib.cu, extern __shared__ buf)", wsum, sums[0], nb);
    for (int b = 0; b < nb; b++)
        wsum[b] *= 2;
    check_array_exact("block_sum_main (main.cu, extern __shared__ buf)", wsum, sums[1], nb);

    /* sinf of large arguments in three units: the same bits, near the CPU's */
    static float x[N], y[3][N], ref[N];
    for (int i = 0; i < N; i++) {
        x[i] = 1.0e5f + 7919.0f * (float)i;
        ref[i] = sinf(x[i]);
    }
    float *d_x, *d_y;
    CHECK(cudaMalloc(&d_x, sizeof x));
    CHECK(cudaMalloc(&d_y, sizeof y));
    CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
    waves<<<grid, BLOCK>>>(d_x, d_y, d_y + N, N);
    CHECK_LAUNCH();
    extra_wave<<<grid, BLOCK>>>(d_x, d_y + 2 * N, N);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(y, d_y, sizeof y, cudaMemcpyDeviceToHost));
    check_true("sinf in main.cu and wave (lib.cu) give the same bits",
               memcmp(y[0], y[1], sizeof y[0]) == 0);
    check_true("sinf in main.cu and extra.cu give the same bits",
               memcmp(y[0], y[2], sizeof y[0]) == 0);
    check_array_near("sinf of large arguments against the CPU", ref, y[0], N, 1e-5);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_sums));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    return finish();
}
