/* cdp_print.cu -- dynamic parallelism, the shape of cuda-samples'
 * cdpSimplePrint: every thread of a block launches a grid from the device,
 * recursively, until the depth limit, and each block prints who launched
 * it.  Two things differ from the sample, so that the text is the same on
 * every run and in both of lockstep's modes: block ids are not drawn with
 * atomicAdd (which block draws first is a race) but computed from the
 * parent's, and each grid has one block (the blocks of one grid run at
 * once, so the order of their printf lines is a race too).  Built with
 *     nvcc -cudart shared -O2 -rdc=true -lcudadevrt
 * The order of the lines is lockstep's schedule (docs/CUDART.md, "Dynamic
 * parallelism"): a grid's children run after it, each with its own
 * children, in the order of the launching thread; a GPU may interleave
 * them differently.  Then the host checks what every block recorded in
 * device memory: each ran once, at its depth, after its parent (a child
 * sees its parent's writes), and the launch error a thread saw. */
#include "common.cuh"

#define MAX_DEPTH 4
#define NBLOCKS 1
#define NTHREADS 2
/* blocks at each depth: 1, 2, 4, 8 */
#define TOTAL (1 + 2 + 4 + 8)

__device__ int g_depth_of[TOTAL];   /* by block id: its depth + 1 (0: never ran) */
__device__ int g_parent_seen[TOTAL];/* the parent's record, as the child read it */

/* Block ids, depth by depth: the first id of a depth, then the block's
 * index among the blocks of its depth. */
__device__ int first_id(int depth)
{
    int first = 0, n = NBLOCKS;
    for (int d = 0; d < depth; d++) {
        first += n;
        n *= NBLOCKS * NTHREADS;
    }
    return first;
}

__global__ void cdp_kernel(int depth, int thread, int parent_uid, int parent_index)
{
    /* this block's index among the blocks of its depth, and its id */
    int index = (parent_index * NTHREADS + thread) * NBLOCKS + blockIdx.x;
    int uid = first_id(depth) + index;
    if (threadIdx.x == 0) {
        if (depth == 0) {
            printf("BLOCK %d launched by the host\n", uid);
        } else {
            char buffer[32];
            for (int i = 0; i < depth; ++i) {
                buffer[3 * i + 0] = '|';
                buffer[3 * i + 1] = ' ';
                buffer[3 * i + 2] = ' ';
            }
            buffer[3 * depth] = '\0';
            printf("%sBLOCK %d launched by thread %d of block %d\n", buffer, uid, thread,
                   parent_uid);
        }
        g_depth_of[uid] += depth + 1;
        g_parent_seen[uid] = depth ? g_depth_of[parent_uid] : 0;
    }
    __syncthreads();
    if (depth + 1 >= MAX_DEPTH)
        return;
    cdp_kernel<<<NBLOCKS, NTHREADS>>>(depth + 1, threadIdx.x, uid, index);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        printf("block %d thread %d: launch failed: %s\n", uid, threadIdx.x, cudaGetErrorString(e));
}

int main()
{
    printf("starting Simple Print (CUDA Dynamic Parallelism)\n");
    cdp_kernel<<<NBLOCKS, NTHREADS>>>(0, 0, -1, 0);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());

    int depth_of[TOTAL], seen[TOTAL];
    CHECK(cudaMemcpyFromSymbol(depth_of, g_depth_of, sizeof depth_of));
    CHECK(cudaMemcpyFromSymbol(seen, g_parent_seen, sizeof seen));
    int once = 1, after = 1;
    for (int uid = 0; uid < TOTAL; uid++) {
        int depth = uid < 1 ? 0 : uid < 3 ? 1 : uid < 7 ? 2 : 3;
        once &= depth_of[uid] == depth + 1;
        after &= depth == 0 || seen[uid] == depth; /* the parent's depth + 1 */
    }
    check_true("every block ran once, at its depth", once);
    check_true("every child saw its parent's record", after);
    return finish();
}
