// leftover.cu -- a racy program that leaves its result in device memory at
// exit (tests/cuda/detcheck.sh): every thread adds a float into one of 8
// slots with atomicAdd, in the order the hardware runs them; float addition
// is not associative, so the sums' last bits follow that order.  Nothing is
// copied back and nothing printed: only the allocation left at exit
// differs, and detcheck must say which one and where.
#include <cuda_runtime.h>

__global__ void accumulate(float *slots, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&slots[i % 8], 1.0f / (float)(i + 1));
}

int main()
{
    const int n = 48 * 256;
    float *pad, *slots;
    cudaMalloc(&pad, 1024); // an allocation that never changes comes first
    cudaMemset(pad, 0, 1024);
    cudaMalloc(&slots, 8 * sizeof(float));
    cudaMemset(slots, 0, 8 * sizeof(float));
    accumulate<<<48, 256>>>(slots, n);
    cudaDeviceSynchronize();
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
