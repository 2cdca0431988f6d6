/* extra.cu -- a third translation unit of the rdc program: kernels that
 * call lib.cu's device functions, count in lib.cu's variable, and have a
 * static function of the same name as main.cu's and lib.cu's. */
#include <stdio.h>

#include "rdc.cuh"

static __device__ __noinline__ int mix(int x) { return x + 7; }

__global__ void extra_kernel(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = clamp_to(2 * poly(in[i]), -5000, 5000) + mix(in[i]);
        atomicAdd(&g_calls, 1ull);
    }
    if (i == n - 1)
        g_last[1] = out[i];
    if (i == 0)
        printf("extra.cu: extra_kernel ran, out[0] = %d\n", out[0]);
}

/* sinf here uses extra.cu's own copy of CUDA's reduction table. */
__global__ void extra_wave(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = sinf(x[i]);
}
