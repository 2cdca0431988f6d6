// printf_fifo.cu -- more device printf output than the FIFO holds: what
// does not fit is dropped (printf returns -1 for it) and counted.
#include <cstdio>

__global__ void chatty(int *failed)
{
    int r = printf("thread %3d of block %3d says a line of about sixty bytes\n", threadIdx.x,
                   blockIdx.x);
    if (r < 0)
        atomicAdd(failed, 1);
}

int main()
{
    cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4096);
    size_t fifo = 0;
    cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize);
    int *d, h = 0;
    cudaMalloc(&d, 4);
    cudaMemset(d, 0, 4);
    chatty<<<8, 64>>>(d);
    cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost);
    fprintf(stderr, "fifo %zu, printf failed %d times\n", fifo, h);
    return 0;
}
