/* cdp_errors.cu -- dynamic parallelism: launches from device code that
 * fail, and the errors the launching thread gets back.
 *   - a block of 2048 threads (cudaErrorInvalidConfiguration by the
 *     documentation; the host's own launch gets cudaErrorInvalidValue from
 *     CUDA 13.0 on an H100, so either is accepted, as in errors.cu), an
 *     empty grid, and 1 MiB of dynamic shared memory (too many resources,
 *     or an invalid value): the launch does not run;
 *   - cudaPeekAtLastError keeps the error, cudaGetLastError returns and
 *     clears it, and the last error is each thread's own (one thread's bad
 *     launch is not its neighbour's error);
 *   - a kernel that launches itself without end: the launch past the
 *     deepest nesting gets cudaErrorLaunchMaxDepthExceeded (at depth 24 on
 *     lockstep: the host's grid is depth 0; a GPU's limit is of that
 *     order), and every grid before it completes;
 *   - after all that the device works: the good launches ran exactly once.
 * Built with
 *     nvcc -cudart shared -O2 -rdc=true -lcudadevrt */
#include "common.cuh"

__global__ void child(int *counter) { atomicAdd(counter, 1); }

__global__ void errs(int *codes, int *counter)
{
    if (threadIdx.x == 0) {
        child<<<1, 2048>>>(counter);
        codes[0] = cudaPeekAtLastError();
        codes[1] = cudaPeekAtLastError();
        codes[2] = cudaGetLastError();
        codes[3] = cudaGetLastError();
        child<<<0, 1>>>(counter);
        codes[4] = cudaGetLastError();
        child<<<1, 1, 1 << 20>>>(counter);
        codes[5] = cudaGetLastError();
        child<<<1, 1>>>(counter);
        codes[6] = cudaGetLastError();
    }
    __syncthreads();
    /* thread 1's launch is bad, thread 0's good: each sees its own */
    child<<<1, threadIdx.x ? 2048 : 1>>>(counter);
    codes[7 + threadIdx.x] = cudaGetLastError();
}

/* depth[0]: the depth whose launch failed, depth[1]: the error,
 * depth[2]: grids that ran */
__global__ void deep(int *depth, int d)
{
    atomicAdd(&depth[2], 1);
    deep<<<1, 1>>>(depth, d + 1);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        depth[0] = d;
        depth[1] = e;
    }
}

static bool bad_shape(int e) { return e == cudaErrorInvalidConfiguration || e == cudaErrorInvalidValue; }

int main()
{
    int *codes, *counter, *depth;
    CHECK(cudaMalloc(&codes, 16 * sizeof(int)));
    CHECK(cudaMalloc(&counter, sizeof(int)));
    CHECK(cudaMalloc(&depth, 3 * sizeof(int)));
    CHECK(cudaMemset(codes, 0xff, 16 * sizeof(int)));
    CHECK(cudaMemset(counter, 0, sizeof(int)));
    CHECK(cudaMemset(depth, 0, 3 * sizeof(int)));
    errs<<<1, 2>>>(codes, counter);
    CHECK_LAUNCH();
    deep<<<1, 1>>>(depth, 0);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());

    int c[16], n, dp[3];
    CHECK(cudaMemcpy(c, codes, sizeof c, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&n, counter, sizeof n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(dp, depth, sizeof dp, cudaMemcpyDeviceToHost));
    check_true("2048 threads: an invalid configuration", bad_shape(c[0]));
    check_int("cudaPeekAtLastError keeps the error", c[0], c[1]);
    check_int("cudaGetLastError returns it", c[0], c[2]);
    check_int("... and clears it", cudaSuccess, c[3]);
    check_true("an empty grid: an invalid configuration", bad_shape(c[4]));
    check_true("1 MiB of dynamic shared memory: refused",
               c[5] == cudaErrorLaunchOutOfResources || c[5] == cudaErrorInvalidValue);
    check_int("a good launch after them", cudaSuccess, c[6]);
    check_int("thread 0's own launch was good", cudaSuccess, c[7]);
    check_true("thread 1's own launch was bad", bad_shape(c[8]));
    check_int("only the good launches ran", 2, n);
    printf("2048 threads: %s\n", cudaGetErrorName((cudaError_t)c[0]));
    check_int("launching too deep: cudaErrorLaunchMaxDepthExceeded",
              cudaErrorLaunchMaxDepthExceeded, dp[1]);
    check_true("... from a grid about 24 deep", dp[0] >= 20 && dp[0] <= 24);
    check_int("every grid before it ran", dp[0] + 1, dp[2]);
    printf("the launch from depth %d failed\n", dp[0]);
    return finish();
}
