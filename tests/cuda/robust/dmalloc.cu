// dmalloc.cu -- device malloc and free in one kernel, each thread writing
// its block before freeing it: the same sums in both modes.
#include <cstdio>

__global__ void use_heap(int *out)
{
    int n = 16 + threadIdx.x % 48;
    int *p = (int *)malloc(n * sizeof(int));
    if (!p) {
        out[blockIdx.x * blockDim.x + threadIdx.x] = -1;
        return;
    }
    for (int i = 0; i < n; i++)
        p[i] = i * (int)threadIdx.x;
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    free(p);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main()
{
    const int blocks = 8, threads = 64, n = blocks * threads;
    int *d, h[n];
    cudaMalloc(&d, sizeof h);
    use_heap<<<blocks, threads>>>(d);
    cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        int t = i % threads, m = 16 + t % 48;
        if (h[i] != t * m * (m - 1) / 2)
            bad++;
    }
    printf("%s: %d of %d sums wrong\n", cudaGetErrorName(e), bad, n);
    return e != cudaSuccess || bad;
}
