/* fault.cu -- a kernel that writes out of bounds; exits with status 3.
 *
 * write_past_end is given a 4 MiB cudaMalloc'd buffer of n ints and, like an
 * index computed from the wrong end, writes buf[n + i * 65536] for threads
 * i = 0..63: from the first int past the end up to 16 MiB beyond it.  On a
 * real GPU the 4 MiB allocation fills whole 2 MiB pages, so these stores go
 * to unmapped memory.  (An earlier version stored up to 1 GiB away; CUDA 13
 * on an H100 then reported cudaErrorInvalidAddressSpace, presumably from a
 * store landing in the shared or local window, so the range is kept short.)
 * The launch itself succeeds; the fault is reported by the next
 * synchronizing call, as on a real GPU: cudaDeviceSynchronize returns
 * cudaErrorIllegalAddress, the error is sticky (a later cudaMemcpy returns it
 * too), and the program prints the error's name and exits with status 3.
 * Before that, a correct kernel runs and is checked, so the program is known
 * to work up to the fault.
 *
 * tests/cuda/run.sh expects exit status 3, this stdout
 * (expected/fault.stdout), and lockstep's report of the fault on stderr
 * ("illegal memory access" or "ILLEGAL_ADDRESS" and the kernel's name). */
#include "common.cuh"

__global__ void fill_index(int *buf, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        buf[i] = i * 2 + 1;
}

__global__ void write_past_end(int *buf, size_t n, int nwrites)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nwrites)
        buf[n + (size_t)i * 65536] = i; /* every store is out of bounds */
}

int main(void)
{
    const size_t n = (size_t)1 << 20; /* 4 MiB of ints */
    const int m = 256;                 /* the part filled and checked */
    int *buf, got[m], exp[m];
    CHECK(cudaMalloc(&buf, n * sizeof(int)));
    fill_index<<<2, 128>>>(buf, m);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, buf, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++)
        exp[i] = i * 2 + 1;
    check_array_exact("fill kernel before the fault", exp, got, m);
    fflush(stdout);

    write_past_end<<<2, 32>>>(buf, n, 64);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaErrorIllegalAddress) {
        printf("FAIL: cudaDeviceSynchronize after the out-of-bounds kernel expected "
               "cudaErrorIllegalAddress got %s\n", cudaGetErrorName(e));
        return 1;
    }
    printf("fault: cudaDeviceSynchronize returned %s (%s)\n", cudaGetErrorName(e),
           cudaGetErrorString(e));
    check_err("the error is sticky: a later cudaMemcpy returns it", cudaErrorIllegalAddress,
              cudaMemcpy(got, buf, sizeof got, cudaMemcpyDeviceToHost));
    fflush(stdout);
    return 3;
}
