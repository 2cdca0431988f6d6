// pinned.cu -- a kernel reading and writing pinned and managed memory: its
// cycle count must not depend on where the host placed that memory.
#include <cstdio>

__global__ void axpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    const int n = 1 << 14;
    float *x, *y;
    cudaMallocHost(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    for (int i = 0; i < n; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    axpy<<<(n + 255) / 256, 256>>>(x, y, 2.0f, n);
    cudaDeviceSynchronize();
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += y[i] != 2.0f * (float)i + 1.0f;
    printf("%d wrong\n", bad);
    return bad != 0;
}
