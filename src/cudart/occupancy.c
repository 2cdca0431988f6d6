/*
 * occupancy.c -- the CUDA occupancy calculator:
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor(WithFlags) and
 * cudaOccupancyAvailableDynamicSMemPerBlock.  (cudaOccupancyMaxPotentialBlockSize
 * and its variants are templates in CUDA's header, built on these and on
 * cudaFuncGetAttributes and cudaDeviceGetAttribute.)
 *
 * The answer is the simulated GPU's own rule, lockstep_kernel_occupancy: the
 * one the timing model's CTA dispatch and the cooperative launch check use,
 * from the configuration's CTA, thread, register and shared-memory limits per
 * SM.  A program that sizes its grid from it fills the modelled GPU exactly.
 */
#include "cudart/cuda_api.h"
#include "cudart/runtime.h"

static cudaError_t blocks_per_sm(int *numBlocks, const void *func, int blockSize,
                                 size_t dynamicSMemSize)
{
    if (!numBlocks || blockSize <= 0 || dynamicSMemSize > UINT32_MAX)
        return cudart_error(cudaErrorInvalidValue);
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    lockstep_kernel *k;
    e = cudart_kernel(func, &k);
    if (e)
        return cudart_leave(e);
    uint32_t n = 0;
    if (lockstep_kernel_occupancy(cudart_device(), k, (uint32_t)blockSize,
                                  (uint32_t)dynamicSMemSize, &n, NULL) != LOCKSTEP_SUCCESS)
        return cudart_leave(cudaErrorInvalidValue);
    *numBlocks = (int)n;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                                     const void *func,
                                                                     int blockSize,
                                                                     size_t dynamicSMemSize)
{
    return blocks_per_sm(numBlocks, func, blockSize, dynamicSMemSize);
}

CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags)
{
    /* cudaOccupancyDisableCachingOverride concerns L1 caching of globals,
     * which does not change how many CTAs fit here */
    if (flags & ~(unsigned)cudaOccupancyDisableCachingOverride)
        return cudart_error(cudaErrorInvalidValue);
    return blocks_per_sm(numBlocks, func, blockSize, dynamicSMemSize);
}

/* The most dynamic shared memory a CTA of blockSize threads can have with
 * numBlocks of them resident on an SM. */
CUDART_API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                                 const void *func, int numBlocks,
                                                                 int blockSize)
{
    if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
        return cudart_error(cudaErrorInvalidValue);
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    lockstep_kernel *k;
    e = cudart_kernel(func, &k);
    if (e)
        return cudart_leave(e);
    lockstep_device *dev = cudart_device();
    uint32_t n = 0;
    lockstep_kernel_occupancy(dev, k, (uint32_t)blockSize, 0, &n, NULL);
    if (n < (uint32_t)numBlocks) {
        *dynamicSmemSize = 0;
        return cudart_leave(cudaSuccess);
    }
    /* the largest size that still fits numBlocks: search the byte count */
    uint32_t lo = 0, hi = 1u << 30;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        lockstep_kernel_occupancy(dev, k, (uint32_t)blockSize, mid, &n, NULL);
        if (n >= (uint32_t)numBlocks)
            lo = mid;
        else
            hi = mid - 1;
    }
    /* and what a launch of the kernel may ask for (more once it opted in
     * with cudaFuncAttributeMaxDynamicSharedMemorySize) */
    lockstep_kernel_info ki;
    lockstep_kernel_get_info(k, &ki);
    *dynamicSmemSize = lo < ki.max_dynamic_shared_bytes ? lo : ki.max_dynamic_shared_bytes;
    return cudart_leave(cudaSuccess);
}
