/* shared_optin.cu -- dynamic shared memory beyond the default per-block
 * limit, as CUDA programs ask for it: a kernel opts in with
 * cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
 * bytes) up to cudaDevAttrMaxSharedMemoryPerBlockOptin.  Checks, on any
 * configuration: cudaFuncGetAttributes reports the default limit, a launch
 * beyond it without the opt-in fails, an opt-in beyond the device's limit is
 * refused, the preferred carve-out is kept, cluster attributes are refused,
 * and a block using the whole opted-in size (the TITAN V config: 96 KB;
 * configurations without an opt-in: their 48 KB) sums right.  Output does
 * not depend on the configuration. */
#include "common.cuh"

extern __shared__ int dyn[];

/* dyn[0..n) written by every thread, then read back reversed (other
 * threads' writes), summed per block */
__global__ void fill_sum(unsigned long long *out, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        dyn[i] = i * 3 + (int)blockIdx.x;
    __syncthreads();
    unsigned long long s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += (unsigned long long)dyn[n - 1 - i];
    atomicAdd(out + blockIdx.x, s);
}

static unsigned long long want_sum(int n, int b)
{
    unsigned long long s = 0;
    for (int i = 0; i < n; i++)
        s += (unsigned long long)(i * 3 + b);
    return s;
}

int main(void)
{
    int per_block = 0, optin = 0;
    CHECK(cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlock, 0));
    CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    check_true("opt-in limit >= default limit", optin >= per_block);

    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, fill_sum));
    check_int("maxDynamicSharedSizeBytes by default", per_block, fa.maxDynamicSharedSizeBytes);
    check_int("preferredShmemCarveout by default", -1, fa.preferredShmemCarveout);

    const int blocks = 3, threads = 256;
    unsigned long long *out, got[blocks], want[blocks];
    CHECK(cudaMalloc(&out, sizeof got));

    /* the default limit: fits; one int more: refused at launch */
    CHECK(cudaMemset(out, 0, sizeof got));
    fill_sum<<<blocks, threads, per_block>>>(out, per_block / 4);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        want[b] = want_sum(per_block / 4, b);
    check_array_exact("block sums at the default limit", want, got, blocks);
    fill_sum<<<blocks, threads, per_block + 4>>>(out, per_block / 4 + 1);
    check_true("a launch past the default limit without opting in fails",
               cudaGetLastError() != cudaSuccess);

    /* beyond the device's opt-in limit: refused, nothing changed */
    check_err("opt-in beyond the device's limit", cudaErrorInvalidValue,
              cudaFuncSetAttribute(fill_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, optin + 4));
    cudaGetLastError();
    check_err("a negative size", cudaErrorInvalidValue,
              cudaFuncSetAttribute(fill_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, -1));
    cudaGetLastError();
    CHECK(cudaFuncGetAttributes(&fa, fill_sum));
    check_int("maxDynamicSharedSizeBytes unchanged", per_block, fa.maxDynamicSharedSizeBytes);

    /* opt in to all of it and use all of it */
    CHECK(cudaFuncSetAttribute(fill_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
    CHECK(cudaFuncGetAttributes(&fa, fill_sum));
    check_int("maxDynamicSharedSizeBytes after opting in", optin, fa.maxDynamicSharedSizeBytes);
    CHECK(cudaMemset(out, 0, sizeof got));
    fill_sum<<<blocks, threads, optin>>>(out, optin / 4);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        want[b] = want_sum(optin / 4, b);
    check_array_exact("block sums at the opted-in limit", want, got, blocks);

    /* the carve-out is a hint, kept; clusters do not exist here */
    CHECK(cudaFuncSetAttribute(fill_sum, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
    CHECK(cudaFuncGetAttributes(&fa, fill_sum));
    check_int("preferredShmemCarveout", 50, fa.preferredShmemCarveout);
    check_err("carve-out over 100", cudaErrorInvalidValue,
              cudaFuncSetAttribute(fill_sum, cudaFuncAttributePreferredSharedMemoryCarveout, 101));
    cudaGetLastError();
    check_true("a cluster attribute is refused",
               cudaFuncSetAttribute(fill_sum, cudaFuncAttributeRequiredClusterWidth, 2) !=
                   cudaSuccess);
    cudaGetLastError();

    CHECK(cudaFree(out));
    return finish();
}
