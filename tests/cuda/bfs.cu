/* bfs.cu -- level-synchronous breadth-first search (a Rodinia-style graph
 * workload).
 *
 * A random graph in CSR form (6000 nodes, 1 to 8 out-edges each, plus a
 * chain so most nodes are reachable) is searched from node 0: one kernel
 * launch per level expands the frontier, and the host loops until a device
 * flag, copied back after every launch, says nothing changed.  Divergent,
 * data-dependent control flow and irregular loads; the racing writes all
 * store the same value, so the levels are deterministic and are compared
 * with a CPU BFS.  A second search from another source reuses the graph with
 * cudaMemset to reset the state. */
#include "common.cuh"

#include <stdint.h>

__global__ void bfs_level(const int *row, const int *col, int *level, int cur, int n,
                          int *changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != cur)
        return;
    for (int e = row[v]; e < row[v + 1]; e++) {
        int w = col[e];
        if (level[w] < 0) {
            level[w] = cur + 1;
            *changed = 1;
        }
    }
}

/* level[src] = 0, every other node -1 (set with a kernel after a memset). */
__global__ void set_source(int *level, int src) { level[src] = 0; }

static int cpu_bfs(const int *row, const int *col, int n, int src, int *level)
{
    int *queue = (int *)malloc(n * sizeof(int)), head = 0, tail = 0, depth = 0;
    for (int i = 0; i < n; i++)
        level[i] = -1;
    level[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int v = queue[head++];
        for (int e = row[v]; e < row[v + 1]; e++)
            if (level[col[e]] < 0) {
                level[col[e]] = level[v] + 1;
                depth = level[v] + 1 > depth ? level[v] + 1 : depth;
                queue[tail++] = col[e];
            }
    }
    free(queue);
    return depth;
}

int main(void)
{
    const int n = 6000;
    int *row = (int *)malloc((n + 1) * sizeof(int));
    int *col = (int *)malloc(9 * n * sizeof(int));
    uint32_t s = 2024;
    int m = 0;
    for (int v = 0; v < n; v++) {
        row[v] = m;
        if (v % 3 != 2 && v + 1 < n)
            col[m++] = v + 1; /* a broken chain: long paths, some islands */
        s = s * 1664525u + 1013904223u;
        int deg = (int)(s >> 29) + 1;
        for (int k = 0; k < deg; k++) {
            s = s * 1664525u + 1013904223u;
            /* mostly local edges, a few long ones */
            int w = (s >> 8) % 16 == 0 ? (int)((s >> 12) % n) : (v + 1 + (int)((s >> 12) % 40)) % n;
            col[m++] = w;
        }
    }
    row[n] = m;

    int *drow, *dcol, *dlevel, *dchanged;
    CHECK(cudaMalloc(&drow, (n + 1) * sizeof(int)));
    CHECK(cudaMalloc(&dcol, m * sizeof(int)));
    CHECK(cudaMalloc(&dlevel, n * sizeof(int)));
    CHECK(cudaMalloc(&dchanged, sizeof(int)));
    CHECK(cudaMemcpy(drow, row, (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dcol, col, m * sizeof(int), cudaMemcpyHostToDevice));

    int *ref = (int *)malloc(n * sizeof(int)), *got = (int *)malloc(n * sizeof(int));
    const int sources[2] = {0, 4321};
    for (int q = 0; q < 2; q++) {
        int src = sources[q];
        int depth = cpu_bfs(row, col, n, src, ref);
        CHECK(cudaMemset(dlevel, 0xff, n * sizeof(int))); /* all -1 */
        set_source<<<1, 1>>>(dlevel, src);
        CHECK_LAUNCH();
        int cur = 0, changed = 1;
        while (changed && cur < n) {
            CHECK(cudaMemset(dchanged, 0, sizeof(int)));
            bfs_level<<<(n + 191) / 192, 192>>>(drow, dcol, dlevel, cur, n, dchanged);
            CHECK_LAUNCH();
            CHECK(cudaMemcpy(&changed, dchanged, sizeof(int), cudaMemcpyDeviceToHost));
            cur++;
        }
        CHECK(cudaMemcpy(got, dlevel, n * sizeof(int), cudaMemcpyDeviceToHost));
        int reached = 0;
        for (int i = 0; i < n; i++)
            reached += ref[i] >= 0;
        char what[128];
        snprintf(what, sizeof what, "BFS levels from node %d (%d nodes reached, depth %d)", src,
                 reached, depth);
        check_array_exact(what, ref, got, n);
        check_int("number of level launches is depth + 1", depth + 1, cur);
    }
    CHECK(cudaFree(drow));
    CHECK(cudaFree(dcol));
    CHECK(cudaFree(dlevel));
    CHECK(cudaFree(dchanged));
    free(row);
    free(col);
    free(ref);
    free(got);
    return finish();
}
