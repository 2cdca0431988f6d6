// bigshared.cu -- a CTA whose shared memory does not fit an SM (run with a
// small -gpgpu_shmem_size): the error must blame shared memory.
#include <cstdio>

__global__ void big(int *out)
{
    __shared__ int buf[6000];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

int main()
{
    int *d;
    cudaMalloc(&d, 64 * 4);
    big<<<1, 64>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorName(e));
    return 0;
}
