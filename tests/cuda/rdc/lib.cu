/* lib.cu -- the device library of the rdc program: variables, constants,
 * device functions and a kernel that the other translation units use
 * through rdc.cuh.  Its host functions copy its variables by symbol, from
 * the translation unit that defines them. */
#include "../common.cuh"
#include "rdc.cuh"

__constant__ int c_coef[NCOEF];
__constant__ int c_bias = 3;
__device__ unsigned long long g_calls;
__device__ int g_last[2] = {-1, -1};
__device__ const char *const g_words[3] = {"alpha", "beta", "gamma"};

/* Same name as a static function of main.cu and of extra.cu: each
 * translation unit calls its own. */
static __device__ __noinline__ int mix(int x) { return x * 3; }

__device__ int poly(int x)
{
    int r = 0;
    for (int k = NCOEF - 1; k >= 0; k--)
        r = r * x + c_coef[k];
    return r + c_bias + mix(0);
}

__device__ float wave(float x) { return sinf(x); }

__global__ void scale_kernel(int *v, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= k;
    if (i == 0)
        printf("lib.cu: scale_kernel ran with k = %d\n", k);
}

/* One block's sum through a dynamic shared array (same name as main.cu's). */
__global__ void block_sum_lib(const int *in, int *out)
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
        out[blockIdx.x] = buf[0];
}

void lib_set_bias(int b) { CHECK(cudaMemcpyToSymbol(c_bias, &b, sizeof b)); }

unsigned long long lib_read_calls(void)
{
    unsigned long long c = 0;
    CHECK(cudaMemcpyFromSymbol(&c, g_calls, sizeof c));
    return c;
}

void lib_read_last(int out[2]) { CHECK(cudaMemcpyFromSymbol(out, g_last, 2 * sizeof(int))); }
