// bfs.cu -- race-free, level-synchronous breadth-first search with a
// frontier queue (the corrected counterpart of bfs_racy; GPUDet's "BFSf").
//
// Each level is one launch of bfs_expand: one thread per frontier vertex u
// walks u's neighbours and claims each unvisited one v with
// atomicCAS(level[v], -1, depth + 1); the thread that wins appends v to the
// next frontier at a slot taken with atomicAdd on the queue length.  Every
// access to level[] in a launch is atomic, so the levels are exact and the
// same whatever order threads run in (the order of vertices inside the
// queue is not, but the program never copies the queues back).  The host
// copies the queue length back after each launch and stops at zero.
//
// It searches four graphs: an undirected R-MAT graph from the seed (source:
// its highest-degree vertex; skewed degrees, shallow), a sparse uniform
// random graph from the seed (average degree 4: even degrees, deeper, some
// vertices unreachable; source: vertex 0) and the two committed graphs
// bench/data/karate.el and bench/data/grid_bridge.el (source: vertex 0).
// Each level array is compared exactly with graph_bfs_levels; the hash
// covers all four.
#include <string>
#include <vector>

#include "bench.h"
#include "graph.h"

// Expand the frontier `cur` (cur_len vertices at distance depth) into `next`.
__global__ void bfs_expand(const int *row, const int *col, int *level, const int *cur, int cur_len,
                           int *next, int *next_len, int depth)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= cur_len)
        return;
    int u = cur[i];
    for (int k = row[u]; k < row[u + 1]; k++) {
        int v = col[k];
        if (atomicCAS(&level[v], -1, depth + 1) == -1)
            next[atomicAdd(next_len, 1)] = v;
    }
}

struct bfs_run {
    int launches = 0, depth = 0;
    std::vector<int> level;
};

// Search g from src on the GPU.
static bfs_run gpu_bfs(const csr_graph &g, int src)
{
    int n = g.n, m = g.edges();
    bfs_run r;
    r.level.assign(n, -1);
    r.level[src] = 0;
    int *d_row, *d_col, *d_level, *d_q[2], *d_len;
    CUDA_CHECK(cudaMalloc(&d_row, (n + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_col, (m > 0 ? m : 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_level, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_q[0], n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_q[1], n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_len, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_row, g.row.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    if (m > 0)
        CUDA_CHECK(cudaMemcpy(d_col, g.col.data(), m * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_level, r.level.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_q[0], &src, sizeof(int), cudaMemcpyHostToDevice));

    const int block = 128;
    int len = 1, depth = 0;
    // Each launch finishes one level, so at most n launches.
    while (len > 0 && depth < n) {
        CUDA_CHECK(cudaMemset(d_len, 0, sizeof(int)));
        bfs_expand<<<(len + block - 1) / block, block>>>(d_row, d_col, d_level, d_q[depth & 1], len,
                                                         d_q[(depth + 1) & 1], d_len, depth);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&len, d_len, sizeof(int), cudaMemcpyDeviceToHost));
        depth++;
    }
    CUDA_CHECK(cudaMemcpy(r.level.data(), d_level, n * sizeof(int), cudaMemcpyDeviceToHost));
    r.launches = depth;
    r.depth = depth - 1; // the last launch found nothing new
    CUDA_CHECK(cudaFree(d_row));
    CUDA_CHECK(cudaFree(d_col));
    CUDA_CHECK(cudaFree(d_level));
    CUDA_CHECK(cudaFree(d_q[0]));
    CUDA_CHECK(cudaFree(d_q[1]));
    CUDA_CHECK(cudaFree(d_len));
    return r;
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int scale = bench_pick(args, 14, 17, 20);
    csr_graph rmat = graph_rmat(scale, 16, args.seed, true);
    int rsrc = rmat.max_degree_vertex();
    int un = bench_pick(args, 8192, 65536, 524288);
    csr_graph uni = graph_uniform(un, 2L * un, args.seed ^ 0x756e69666f726dull, true);
    std::string dir = graph_data_dir();
    csr_graph karate = graph_read((dir + "/karate.el").c_str(), true);
    csr_graph bridge = graph_read((dir + "/grid_bridge.el").c_str(), true);

    struct {
        const char *name;
        const csr_graph *g;
        int src;
    } runs[] = {{"rmat", &rmat, rsrc}, {"uniform", &uni, 0}, {"karate", &karate, 0},
                {"grid_bridge", &bridge, 0}};
    bool pass = true;
    uint64_t h = 0xcbf29ce484222325ull;
    int launches = 0;
    for (auto &t : runs) {
        bfs_run r = gpu_bfs(*t.g, t.src);
        std::vector<int> want = graph_bfs_levels(*t.g, t.src);
        int reached = 0, wrong = 0;
        for (int v = 0; v < t.g->n; v++) {
            reached += want[v] >= 0;
            wrong += r.level[v] != want[v];
        }
        pass = pass && wrong == 0;
        launches += r.launches;
        h = bench_hash(r.level.data(), r.level.size() * sizeof(int), h);
        printf("bfs: %-11s %6d vertices %8d directed edges, source %5d: depth %2d, %6d reached, "
               "%d wrong\n",
               t.name, t.g->n, t.g->edges(), t.src, r.depth, reached, wrong);
    }
    printf("bfs: %d launches of bfs_expand\n", launches);
    return bench_result(pass, h);
}
