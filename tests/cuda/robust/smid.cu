// smid.cu -- which SM each CTA of a small grid runs on: CTAs are spread one
// per SM in turn, never packed onto the first SMs while the rest idle.
#include <cstdio>

__global__ void where(unsigned *smid)
{
    if (threadIdx.x == 0) {
        unsigned s;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
        smid[blockIdx.x] = s;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 15;
    unsigned *d, h[1024];
    cudaMalloc(&d, n * sizeof(unsigned));
    where<<<n, 256>>>(d);
    cudaMemcpy(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        printf("%u%c", h[i], i + 1 < n ? ' ' : '\n');
    return 0;
}
