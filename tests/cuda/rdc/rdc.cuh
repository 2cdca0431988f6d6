/* rdc.cuh -- what the translation units of the rdc program share: the
 * declarations of the device library in lib.cu and of the kernels of
 * extra.cu, as a header of a separately compiled CUDA library would give
 * them.  Built with nvcc -rdc=true, every `extern` here is resolved when
 * the device code is linked (on lockstep: when the PTX is linked). */
#ifndef LOCKSTEP_TESTS_CUDA_RDC_CUH
#define LOCKSTEP_TESTS_CUDA_RDC_CUH

#define NCOEF 4

/* lib.cu: device variables and constants */
extern __constant__ int c_coef[NCOEF];      /* set from main.cu with cudaMemcpyToSymbol */
extern __constant__ int c_bias;             /* initialized to 3; set by lib_set_bias */
extern __device__ unsigned long long g_calls; /* counted by kernels of main.cu and extra.cu */
extern __device__ int g_last[2];            /* written by kernels of main.cu and extra.cu */
extern __device__ const char *const g_words[3]; /* strings of lib.cu, printed by main.cu */

/* lib.cu: device functions */
__device__ int poly(int x);     /* c_coef[0] + c_coef[1] x + ... + c_bias */
__device__ float wave(float x); /* sinf(x), computed in lib.cu */

/* lib.cu: a kernel main.cu launches, and host functions */
__global__ void scale_kernel(int *v, int n, int k);
__global__ void block_sum_lib(const int *in, int *out);
void lib_set_bias(int b);
unsigned long long lib_read_calls(void);
void lib_read_last(int out[2]);

/* extra.cu: kernels main.cu launches */
__global__ void extra_kernel(const int *in, int *out, int n);
__global__ void extra_wave(const float *x, float *y, int n);

/* Used by main.cu and extra.cu: each holds a .weak copy; one is kept. */
template <typename T> __device__ __noinline__ T clamp_to(T x, T lo, T hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

#endif
