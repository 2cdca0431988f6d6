// tickets.cu -- a racy program for lockstep detcheck (tests/cuda/detcheck.sh):
// lane 0 of every warp takes a ticket with atomicAdd and writes its warp id
// at the ticket's position, so the order in device memory, the copy back and
// the printed checksum follow the order the atomics reached memory, which a
// GPU (and lockstep's seeded model of one) changes from run to run.  A
// second, race-free kernel scales a vector: its result never changes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void ticket(unsigned *counter, unsigned *order)
{
    unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if ((threadIdx.x & 31) == 0)
        order[atomicAdd(counter, 1u)] = warp;
}

__global__ void scale(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.5f * x[i] + 1.0f;
}

int main()
{
    const int ctas = 48, threads = 256, warps = ctas * threads / 32, n = 4096;
    unsigned *counter, *order;
    float *x, *y;
    cudaMalloc(&counter, sizeof(unsigned));
    cudaMalloc(&order, warps * sizeof(unsigned));
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMemset(counter, 0, sizeof(unsigned));
    static float hx[4096], hy[4096];
    for (int i = 0; i < n; i++)
        hx[i] = 0.5f * (float)(i % 97);
    cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
    scale<<<n / 256, 256>>>(x, y, n);
    ticket<<<ctas, threads>>>(counter, order);
    static unsigned h[384];
    cudaMemcpy(h, order, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
    unsigned long long sum = 0;
    for (int i = 0; i < warps; i++)
        sum = sum * 31 + h[i];
    double ys = 0;
    for (int i = 0; i < n; i++)
        ys += hy[i];
    printf("ticket order checksum %llx, scaled sum %.1f\n", sum, ys);
    cudaFree(counter);
    cudaFree(order);
    cudaFree(x);
    cudaFree(y);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
