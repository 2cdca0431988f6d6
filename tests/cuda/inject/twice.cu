/* twice.cu -- a small program for fault injection under `lockstep run`
 * (tests/cuda/inject.sh): two launches of a kernel that doubles a vector;
 * prints the sum of the result.  With the argument "early" it exits with
 * status 3 after the first launch, without synchronizing or freeing. */
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void twice(unsigned *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * 2 + 1;
}

int main(int argc, char **argv)
{
    const int n = 1024;
    unsigned h[n];
    for (int i = 0; i < n; i++)
        h[i] = (unsigned)i;
    unsigned *d;
    if (cudaMalloc(&d, sizeof h) != cudaSuccess)
        return 1;
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    twice<<<n / 128, 128>>>(d, n);
    if (argc > 1 && !strcmp(argv[1], "early"))
        exit(3);
    twice<<<n / 128, 128>>>(d, n);
    cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    unsigned long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += h[i];
    printf("sum %llu (%s)\n", sum, cudaGetErrorName(e));
    cudaFree(d);
    return e == cudaSuccess ? 0 : 2;
}
