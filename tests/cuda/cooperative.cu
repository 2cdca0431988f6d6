/* cooperative.cu -- cudaLaunchCooperativeKernel and grid-wide synchronization
 * through cooperative groups: a grid sized from the occupancy calculator runs
 * three phases separated by grid.sync(), each reading what other blocks
 * wrote in the phase before; checked against the CPU.  A grid too large to
 * be resident at once is refused, and a normal launch sees an invalid grid
 * group. */
#include <cooperative_groups.h>

#include "common.cuh"

namespace cg = cooperative_groups;

__global__ void phases(int *a, int *b, long long *sum, int n)
{
    cg::grid_group grid = cg::this_grid();
    int tid = (int)grid.thread_rank(), nt = (int)grid.size();
    for (int i = tid; i < n; i += nt)
        a[i] = i % 97;
    if (tid == 0)
        *sum = 0;
    grid.sync();
    /* every element reads its neighbour, usually written by another block */
    for (int i = tid; i < n; i += nt)
        b[i] = a[i] * 2 + a[(i + 1) % n];
    grid.sync();
    /* the sum of what every block wrote, from every thread (a serial sum in
     * one thread would leave the whole grid spinning in grid.sync()) */
    long long part = 0;
    for (int i = tid; i < n; i += nt)
        part += b[i];
    if (part)
        atomicAdd((unsigned long long *)sum, (unsigned long long)part);
    grid.sync();
    /* and again, so the barrier is reused */
    for (int i = tid; i < n; i += nt)
        a[i] = (int)(*sum % 1000) + i;
}

__global__ void validity(int *out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *out = cg::this_grid().is_valid() ? 1 : 0;
}

int main(void)
{
    int coop = 0, sms = 0;
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    check_int("cudaDevAttrCooperativeLaunch", 1, coop);

    const int threads = 128, n = 20000;
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, threads, 0));
    check_true("occupancy for the cooperative kernel", per_sm >= 1);
    /* a grid a few blocks short of full, so blocks are spread over SMs */
    int blocks = per_sm * sms > 4 ? per_sm * sms - 3 : per_sm * sms;

    int *a, *b, *valid;
    long long *sum;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc(&b, n * sizeof(int)));
    CHECK(cudaMalloc(&sum, sizeof(long long)));
    CHECK(cudaMalloc(&valid, sizeof(int)));
    int nn = n;
    void *args[] = {&a, &b, &sum, &nn};
    CHECK(cudaLaunchCooperativeKernel((void *)phases, dim3(blocks), dim3(threads), args, 0, 0));
    CHECK(cudaDeviceSynchronize());

    static int ha[n], hb[n], ra[n], rb[n];
    long long hsum = 0, rsum = 0;
    for (int i = 0; i < n; i++)
        ra[i] = i % 97;
    for (int i = 0; i < n; i++) {
        rb[i] = ra[i] * 2 + ra[(i + 1) % n];
        rsum += rb[i];
    }
    for (int i = 0; i < n; i++)
        ra[i] = (int)(rsum % 1000) + i;
    CHECK(cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hsum, sum, sizeof hsum, cudaMemcpyDeviceToHost));
    check_array_exact("phase 2: every element from the phase before", rb, hb, n);
    check_int("phase 3: the sum over all blocks' results", rsum, hsum);
    check_array_exact("phase 4: after a third grid.sync()", ra, ha, n);

    /* one block more than fits at once cannot be cooperative */
    cudaError_t e = cudaLaunchCooperativeKernel((void *)phases, dim3(per_sm * sms + 1),
                                                dim3(threads), args, 0, 0);
    check_err("a grid too large to be resident is refused", cudaErrorCooperativeLaunchTooLarge, e);
    cudaGetLastError();

    void *vargs[] = {&valid};
    CHECK(cudaLaunchCooperativeKernel((void *)validity, dim3(2), dim3(32), vargs, 0, 0));
    int hv = -1;
    CHECK(cudaMemcpy(&hv, valid, sizeof hv, cudaMemcpyDeviceToHost));
    check_int("grid group is valid in a cooperative launch", 1, hv);
    validity<<<2, 32>>>(valid);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&hv, valid, sizeof hv, cudaMemcpyDeviceToHost));
    check_int("grid group is not valid in a normal launch", 0, hv);

    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(sum));
    CHECK(cudaFree(valid));
    return finish();
}
