// device_heap.cu -- device-side new/delete, malloc/free and printf from
// several CTAs: each thread allocates, fills, reads back and frees its own
// block; thread 0 of each CTA allocates a block the next kernel reads and
// frees, and CTA 0 prints a line.  Checked on the host.  tests/cuda/run.sh also runs it
// under --redundancy dmr, where each CTA runs twice and the output must be
// the same (a pair prints, allocates and frees once).  The heap's size can
// be set before the first launch of a kernel that uses it, not after (CUDA
// documents cudaErrorInvalidValue), until cudaDeviceReset.
#include <cstdio>

__global__ void work(int *out, int **keep)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = new int[4];
    if (!p) {
        out[t] = -1;
        return;
    }
    for (int i = 0; i < 4; i++)
        p[i] = t * 4 + i;
    out[t] = p[0] + p[1] + p[2] + p[3];
    delete[] p;
    if (threadIdx.x == 0) {
        int *q = (int *)malloc(sizeof(int));
        *q = blockIdx.x * 100;
        keep[blockIdx.x] = q;
        if (blockIdx.x == 0) /* (one line: CTAs finish in another order in timing mode) */
            printf("block %d allocated its block\n", blockIdx.x);
    }
}

__global__ void release(int **keep, int *out)
{
    out[blockIdx.x] = *keep[blockIdx.x];
    free(keep[blockIdx.x]);
}

int main()
{
    const int blocks = 4, threads = 64, n = blocks * threads;
    int *out, **keep, *back;
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&keep, blocks * sizeof(int *));
    cudaMalloc(&back, blocks * sizeof(int));
    size_t lim = 0;
    if (cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16u << 20) != cudaSuccess ||
        cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize) != cudaSuccess || lim != 16u << 20) {
        printf("FAIL heap size before the first launch: %zu\n", lim);
        return 1;
    }
    work<<<blocks, threads>>>(out, keep);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL work\n");
        return 1;
    }
    release<<<blocks, 1>>>(keep, back);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL release\n");
        return 1;
    }
    int h[n], b[blocks];
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(b, back, sizeof b, cudaMemcpyDeviceToHost);
    for (int t = 0; t < n; t++)
        if (h[t] != 16 * t + 6) {
            printf("FAIL thread %d: %d, want %d\n", t, h[t], 16 * t + 6);
            return 1;
        }
    for (int i = 0; i < blocks; i++)
        if (b[i] != 100 * i) {
            printf("FAIL block %d kept %d, want %d\n", i, b[i], 100 * i);
            return 1;
        }
    /* the heap is in use: its size is fixed (the same size again is no change) */
    cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32u << 20);
    if (e != cudaErrorInvalidValue || cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16u << 20) != cudaSuccess ||
        cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize) != cudaSuccess || lim != 16u << 20) {
        printf("FAIL heap size after a launch: %s, %zu\n", cudaGetErrorName(e), lim);
        return 1;
    }
    cudaGetLastError();
    /* so is the printf FIFO's (this module calls printf) */
    if (cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4u << 20) != cudaErrorInvalidValue) {
        printf("FAIL printf FIFO size after a launch accepted\n");
        return 1;
    }
    cudaGetLastError();
    /* after a reset, both may change again */
    if (cudaDeviceReset() != cudaSuccess || cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32u << 20) != cudaSuccess ||
        cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4u << 20) != cudaSuccess) {
        printf("FAIL heap or FIFO size after cudaDeviceReset refused\n");
        return 1;
    }
    printf("PASS\n");
    return 0;
}
