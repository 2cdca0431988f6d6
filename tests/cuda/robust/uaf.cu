// uaf.cu -- a kernel stores into a buffer the program already freed: the
// fault must say so (use after free), not blame a neighbouring buffer.
#include <cstdio>

__global__ void store(int *p) { p[threadIdx.x] = 1; }

int main()
{
    int *a, *b;
    cudaMalloc(&a, 4096);
    cudaMalloc(&b, 4096);
    cudaFree(a);
    store<<<1, 32>>>(a);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorName(e));
    cudaFree(b);
    return 0;
}
