/* launch.cu -- the explicit launch API and per-function queries.
 *
 * A 1-D heat-diffusion workload (many short launches, ping-ponging two
 * buffers) launched alternately with <<<>>> and with cudaLaunchKernel (an
 * argument array of pointers to each parameter, 3-D dim3 shapes, dynamic
 * shared memory, a stream), whose result must equal the CPU's exactly (the
 * stencil uses power-of-two weights on integer-valued doubles).  Also
 * cudaLaunchKernel of a kernel with mixed scalar and struct parameters,
 * cudaFuncGetAttributes (static shared size at least what the kernel
 * declares, maxThreadsPerBlock in range, numRegs and version fields
 * printed), and cudaFuncSetCacheConfig on kernels that are then launched. */
#include "common.cuh"

#define HALO_BLOCK 128

/* u_out[i] = u[i] + (u[i-1] - 2 u[i] + u[i+1]) / 4, fixed ends; the block's
 * slice plus halo is staged in dynamic shared memory. */
__global__ void heat_step(const double *u, double *u_out, int n)
{
    extern __shared__ double s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x + 1;
    if (i < n)
        s[t] = u[i];
    if (threadIdx.x == 0)
        s[0] = i > 0 && i - 1 < n ? u[i - 1] : 0.0;
    if (threadIdx.x == blockDim.x - 1 || i == n - 1)
        s[t + 1] = i + 1 < n ? u[i + 1] : 0.0;
    __syncthreads();
    if (i < n)
        u_out[i] = (i == 0 || i == n - 1) ? s[t] : s[t] + (s[t - 1] - 2.0 * s[t] + s[t + 1]) * 0.25;
}

struct Scale {
    float mul;
    int add;
    char sign;
};

__global__ void mixed_params(char c, Scale sc, const int *in, short sh, int *out, double d,
                             int n)
{
    int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y +
            threadIdx.y * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (int)((in[i] * sc.mul + sc.add) * sc.sign) + c + sh + (int)d;
}

__global__ void static_shared_kernel(float *out)
{
    __shared__ float tile[300];
    __shared__ int flags[40];
    int t = threadIdx.x;
    for (int k = t; k < 300; k += blockDim.x)
        tile[k] = (float)k;
    if (t < 40)
        flags[t] = t * 2;
    __syncthreads();
    out[t] = tile[299 - t % 300] + flags[t % 40];
}

/* The same steps on the CPU; the result is left in u (v is scratch). */
static void heat_host(double *u, double *v, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++)
            v[i] = (i == 0 || i == n - 1) ? u[i] : u[i] + (u[i - 1] - 2.0 * u[i] + u[i + 1]) * 0.25;
        memcpy(u, v, n * sizeof(double));
    }
}

int main(void)
{
    /* Heat diffusion: 24 steps, even ones with <<<>>>, odd ones with
     * cudaLaunchKernel on a stream. */
    {
        const int n = 3000, steps = 24;
        double *u = (double *)malloc(n * sizeof(double)), *v = (double *)malloc(n * sizeof(double));
        double *got = (double *)malloc(n * sizeof(double));
        for (int i = 0; i < n; i++)
            u[i] = (i % 100 == 50) ? 1048576.0 * 64 : 0.0; /* spikes; /4 stays exact */
        double *da, *db;
        CHECK(cudaMalloc(&da, n * sizeof(double)));
        CHECK(cudaMalloc(&db, n * sizeof(double)));
        CHECK(cudaMemcpy(da, u, n * sizeof(double), cudaMemcpyHostToDevice));
        cudaStream_t s;
        CHECK(cudaStreamCreate(&s));
        CHECK(cudaFuncSetCacheConfig(heat_step, cudaFuncCachePreferShared));
        dim3 grid((n + HALO_BLOCK - 1) / HALO_BLOCK, 1, 1), block(HALO_BLOCK, 1, 1);
        size_t shmem = (HALO_BLOCK + 2) * sizeof(double);
        double *src = da, *dst = db;
        for (int k = 0; k < steps; k++) {
            if (k % 2 == 0) {
                heat_step<<<grid, block, shmem, s>>>(src, dst, n);
                CHECK_LAUNCH();
            } else {
                int nn = n;
                void *args[] = {&src, &dst, &nn};
                CHECK(cudaLaunchKernel((const void *)heat_step, grid, block, args, shmem, s));
            }
            double *t = src;
            src = dst;
            dst = t;
        }
        CHECK(cudaStreamSynchronize(s));
        CHECK(cudaMemcpy(got, src, n * sizeof(double), cudaMemcpyDeviceToHost));
        heat_host(u, v, n, steps);
        check_array_near("24 heat steps, alternating <<<>>> and cudaLaunchKernel", u, got, n, 0.0);
        CHECK(cudaStreamDestroy(s));
        CHECK(cudaFree(da));
        CHECK(cudaFree(db));
        free(u);
        free(v);
        free(got);
    }

    /* cudaLaunchKernel with mixed parameters and a 2-D shape, on stream 0. */
    {
        const int n = 1000;
        int h[n], got[n], exp[n];
        for (int i = 0; i < n; i++)
            h[i] = i - 500;
        int *din, *dout;
        CHECK(cudaMalloc(&din, sizeof h));
        CHECK(cudaMalloc(&dout, sizeof got));
        CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
        char c = 'x';
        Scale sc = {2.5f, -3, -1};
        short sh = -300;
        double d = 77.0;
        int nn = n;
        void *args[] = {&c, &sc, &din, &sh, &dout, &d, &nn};
        CHECK(cudaFuncSetCacheConfig(mixed_params, cudaFuncCachePreferL1));
        dim3 grid(4, 3), block(12, 8); /* 12 blocks of 96 threads */
        CHECK(cudaLaunchKernel((const void *)mixed_params, grid, block, args, 0, 0));
        CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++)
            exp[i] = (int)((h[i] * sc.mul + sc.add) * sc.sign) + c + sh + (int)d;
        check_array_exact("cudaLaunchKernel with char, struct, pointer, short, double args", exp,
                          got, n);
        /* The same through <<<>>>. */
        CHECK(cudaMemset(dout, 0, sizeof got));
        mixed_params<<<grid, block>>>(c, sc, din, sh, dout, d, nn);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        check_array_exact("the same with <<<>>>", exp, got, n);
        CHECK(cudaFree(din));
        CHECK(cudaFree(dout));
    }

    /* cudaFuncGetAttributes. */
    {
        cudaFuncAttributes a;
        memset(&a, 0, sizeof a);
        CHECK(cudaFuncGetAttributes(&a, static_shared_kernel));
        printf("static_shared_kernel: sharedSizeBytes %zu, numRegs %d, maxThreadsPerBlock %d, "
               "ptxVersion %d, binaryVersion %d\n",
               a.sharedSizeBytes, a.numRegs, a.maxThreadsPerBlock, a.ptxVersion, a.binaryVersion);
        check_true("sharedSizeBytes >= the 1360 bytes declared", a.sharedSizeBytes >= 1360);
        check_true("maxThreadsPerBlock in 1..1024",
                   a.maxThreadsPerBlock >= 1 && a.maxThreadsPerBlock <= 1024);
        check_true("numRegs >= 0", a.numRegs >= 0);
        cudaFuncAttributes b;
        memset(&b, 0, sizeof b);
        CHECK(cudaFuncGetAttributes(&b, (const void *)heat_step));
        check_true("heat_step declares no static shared memory", b.sharedSizeBytes == 0);
        check_true("heat_step maxThreadsPerBlock >= its launch size",
                   b.maxThreadsPerBlock >= HALO_BLOCK);

        float *dout, got[256], exp[256];
        CHECK(cudaMalloc(&dout, sizeof got));
        CHECK(cudaFuncSetCacheConfig(static_shared_kernel, cudaFuncCachePreferEqual));
        static_shared_kernel<<<1, 256>>>(dout);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        for (int t = 0; t < 256; t++)
            exp[t] = (float)(299 - t % 300) + (float)(t % 40 * 2);
        check_array_near("kernel with two static shared arrays", exp, got, 256, 0.0);
        CHECK(cudaFree(dout));
    }
    return finish();
}
