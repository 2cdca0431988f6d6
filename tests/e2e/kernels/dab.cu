// dab.cu -- kernels for tests/e2e/test_dab.c (DAB, -lockstep_det dab).

// Every thread adds a float into one of four sums; the values cancel
// (1e8, -1e8, small), so the rounded sums depend on the order of the adds.
extern "C" __global__ void fsum(float *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = i % 3 == 0 ? 1.0e8f : i % 3 == 1 ? -1.0e8f : 1.0f + (float)i * 1.0e-3f;
    atomicAdd(&sums[i & 3], v);
}

// Every thread adds 1 to its own element of a spread: a warp needs 32
// buffer entries, so buffers fill.
extern "C" __global__ void scatter(float *out, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    atomicAdd(&out[(i * 7) % m], 1.0f);
}

// Atomics of every kind PTX has for global memory, results unused, and one
// whose result is used (a ticket).
extern "C" __global__ void mixed(unsigned *u, int *s, unsigned long long *ull, double *d,
                                 unsigned *tickets, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    atomicAdd(&u[0], (unsigned)i);
    atomicMin(&s[0], i - n / 2);
    atomicMax(&s[1], (i * 37) % n);
    atomicAnd(&u[1], ~(1u << (i % 32)) | (i % 64 == 63 ? 0u : 0xffffffffu));
    atomicOr(&u[2], 1u << (i % 29));
    atomicXor(&u[3], (unsigned)i * 2654435761u);
    atomicAdd(&ull[0], (unsigned long long)i * (unsigned long long)i);
    atomicAdd(&d[0], 1.0 / (double)(i + 1));
    atomicExch(&u[4], (unsigned)i);
    atomicInc(&u[5], 1000000u);
    if ((threadIdx.x & 31) == 0)
        tickets[atomicAdd(&u[6], 1u)] = (unsigned)i / 32;
}

// Figure 7: lane 0 of warps 0 and 2 (one scheduler of a two-scheduler SM)
// take turns with compare-and-swaps whose result is not used: warp 0 moves
// x from 2r to 2r + 1, warp 2 from 2r + 1 to 2r + 2, each after `work`
// iterations of its own.  x ends at 2 * rounds only if the atomics alternate.
extern "C" __global__ void turns(unsigned *x, int rounds, int work0, int work2)
{
    int w = threadIdx.x / 32;
    if ((threadIdx.x & 31) != 0 || w == 1)
        return;
    int work = w == 0 ? work0 : work2;
    unsigned v = threadIdx.x;
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < work; k++)
            v = v * 1664525u + 1013904223u;
        unsigned from = 2u * (unsigned)r + (w == 0 ? 0u : 1u) + (v == 12345u);
        atomicCAS(x, from, from + 1u);
    }
}
