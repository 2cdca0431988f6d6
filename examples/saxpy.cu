// saxpy.cu -- the demo's kernels (examples/demo.c runs them on lockstep).
// Regenerate the PTX with:  nvcc -arch=sm_75 --ptx -lineinfo -o examples/saxpy.ptx examples/saxpy.cu

// y = a*x + y, one thread per element.
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// Integer dot product: a shared-memory tree reduction per block, then one
// atomicAdd per block; block 0 thread 0 reports with device printf.
extern "C" __global__ void dot(const int *x, const int *y, unsigned long long *out, int n)
{
    __shared__ long long partial[256];
    int t = threadIdx.x;
    long long sum = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
        sum += (long long)x[i] * y[i];
    partial[t] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t == 0) {
        atomicAdd(out, (unsigned long long)partial[0]);
        if (blockIdx.x == 0)
            printf("dot: block 0 of %d computed partial sum %lld\n", gridDim.x, partial[0]);
    }
}
