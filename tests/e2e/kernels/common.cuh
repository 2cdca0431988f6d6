// common.cuh -- index helpers shared by the end-to-end test kernels.
//
// Every kernel that accepts arbitrary launch shapes numbers its threads the
// same way: the linear thread index inside the block (x fastest, then y, then
// z) plus the linear block index (same order) times the block's thread count.
// The drivers (tests/e2e/test_*.c) use the same numbering for their CPU
// references, so 1-D, 2-D and 3-D grids and blocks all map onto 0..N-1.
#pragma once

__device__ __forceinline__ unsigned e2e_block_threads()
{
    return blockDim.x * blockDim.y * blockDim.z;
}

__device__ __forceinline__ unsigned e2e_tid_in_block()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ __forceinline__ unsigned e2e_block_id()
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

__device__ __forceinline__ unsigned e2e_gtid()
{
    return e2e_block_id() * e2e_block_threads() + e2e_tid_in_block();
}
