// launches.cu -- many small launches: the statistics keep a bounded list
// and per-kernel sums that count every one.
#include <cstdio>
#include <cstdlib>

__global__ void inc(int *p) { atomicAdd(p, 1); }
__global__ void dec(int *p) { atomicSub(p, 1); }

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3000;
    int *d, h = 0;
    cudaMalloc(&d, 4);
    cudaMemset(d, 0, 4);
    for (int i = 0; i < n; i++) {
        inc<<<1, 32>>>(d);
        if (i % 3 == 0)
            dec<<<1, 32>>>(d);
    }
    cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost);
    printf("%d\n", h);
    return 0;
}
