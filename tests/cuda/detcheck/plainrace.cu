// plainrace.cu -- a plain data race for lockstep detcheck
// (tests/cuda/detcheck.sh): every thread adds into a sum with atomicAdd
// (deterministic under DAB) and then, racily, stores its own id with a
// plain store to one word; the last writer wins, in whatever order the
// stores reach memory.  DAB orders atomics only, so detcheck reports this
// program nondeterministic under --det dab, and deterministic under
// --det gpudet, which orders every store.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void race(float *sum, unsigned *last, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = (unsigned)i;
    for (int k = 0; k < (i % 7) * 5; k++)
        v = v * 1664525u + 1013904223u;
    atomicAdd(sum, (i % 3 == 0 ? 1.0e8f : i % 3 == 1 ? -1.0e8f : 0.001f * (float)i));
    *last = v ^ (unsigned)i;
}

int main()
{
    const int n = 48 * 256;
    float *sum;
    unsigned *last;
    cudaMalloc(&sum, sizeof(float));
    cudaMalloc(&last, sizeof(unsigned));
    cudaMemset(sum, 0, sizeof(float));
    cudaMemset(last, 0, sizeof(unsigned));
    race<<<n / 256, 256>>>(sum, last, n);
    float s;
    unsigned l;
    cudaMemcpy(&s, sum, sizeof s, cudaMemcpyDeviceToHost);
    cudaMemcpy(&l, last, sizeof l, cudaMemcpyDeviceToHost);
    printf("sum %.9g, last writer %08x\n", s, l);
    cudaFree(sum);
    cudaFree(last);
    return 0;
}
