// bfs_racy.cu -- breadth-first search with a data race, in the form the
// GPUDet paper (ASPLOS'13, section 1.1, "BFSr") shows: one thread per
// vertex, one kernel launch per step, 32-bit flags.
//
// RACY ON PURPOSE.  In a launch every active vertex u clears its own flag,
// marks itself visited, and for every neighbour v it sees unvisited writes
// cost[v] = cost[u] + 1, sets active[v] and the "changed" flag the host
// reads to decide whether to launch again.  Nothing orders these accesses
// between threads: several parents write cost[v] in the same launch, and two
// adjacent vertices of the same level can each see the other unvisited (the
// earlier one then overwrites the later one's cost with level + 1 and
// re-activates it; the re-activated vertex may pass the larger cost on).
// So the costs depend on the order in which threads run.  On a
// deterministic simulator the output is fixed; on a nondeterministic GPU it
// may change from run to run.  It runs twice: on a seeded R-MAT graph from
// its highest-degree vertex, and on the committed bipartite graph
// bench/data/grid_bridge.el (two 8x8 grids, a bridge and a tail; depth 29)
// from vertex 0.
//
// What is valid.  Call "u writes v" a write cost[v] = cost[u] + 1; its value
// is one more than the value u read from cost[u].  Launch boundaries order
// all memory.  Let L(v) be the launch in which v first runs (sets
// visited[v]); from launch L(v) + 1 on every thread sees visited[v] = 1, so
// v is written and activated only in launches <= L(v), and runs in at most
// two launches (L(v), and L(v) + 1 if re-activated during L(v)).
//
// Under any memory model (the pass/fail check):
//  - cost[src] = 0 (src is visited before the first launch, so never
//    written) and every vertex not reachable from src keeps -1 (only
//    neighbours of vertices that ran are written);
//  - every reachable vertex ends with 0 <= cost[v] <= 2m (m: directed
//    edges).  It is written: a vertex that runs either sees a neighbour
//    unvisited and writes it, or sees it visited, so it ran, so it was
//    written or is src; and a written vertex is activated, so it runs
//    (a lost activation means its own thread is between reading and
//    clearing active, and runs the loop after).  Every value is -1 or 0 plus
//    the number of writes in a chain of writes each reading the previous
//    one's value, and there are at most 2m writes (two runs per vertex, one
//    write per neighbour per run).  (Under weak memory a run can appear in
//    such a chain more than once: y may read visited[x] = 0 after x set it
//    and then write cost[x], which x's next loop trip reads; so the tighter
//    "< 2n" bound of one chain step per run is not provable.)
//  - the host stopped because a launch changed nothing, within 2n + 1
//    launches (each launch before the last runs some vertex).
//
// Under sequential consistency (lockstep's functional mode; these choose
// the note).  Let V(x) be the moment x first sets visited[x].  If u writes
// v, u checked visited[v] = 0 after V(u) (u sets its own flag before its
// loop) and before V(v): so V(u) < V(v).  Along a chain of writes from src
// the V's increase, so its vertices are distinct: every value ever held by
// cost[v] is the length of a simple path from src to v, and (a reader that
// sees active[u] = 1 also sees the cost written before it) never starts
// from -1.  Hence:
//  (a) level[v] <= cost[v] <= R - 1, R the number of reachable vertices;
//  (b) on a bipartite graph cost[v] has the parity of level[v] (every
//      path from src to v does);
//  (c) some neighbour of src ends with cost 1: take the neighbour x with
//      the smallest V(x).  Any writer y != src of x has V(y) < V(x), and the
//      chain that gave y its value starts src -> z with z a neighbour of
//      src and V(z) <= V(y) < V(x), a contradiction; so only src writes x,
//      once, with 1, and src did write it (x was not visited before it was
//      written).
// Neighbour properties of the final costs do not hold even under SC: after
// u writes its leaf neighbour v = c + 1, a sibling that checked visited[u]
// before V(u) can still raise cost[u] to c + 1 or more, and v is never
// written again.  Weak memory can break (a)-(c): a thread that sees
// active[u] = 1 may read a stale cost[u] (-1, or an older value).
//
// note= has one item per graph, rmat: and grid:, each levels-exact (every
// cost is the BFS level), levels-differ (some cost differs, all of (a)-(c)
// hold) or levels-weak (one of (a)-(c) fails: only weakly ordered memory
// can do that; in lockstep's functional mode it would be a simulator bug,
// and bench/run --sc fails it).  The hash covers both cost arrays.  Seen on
// lockstep at small: rmat:levels-differ,grid:levels-exact (5030 of the 6461
// reached R-MAT vertices differ from their level), and rmat:levels-exact
// with -lockstep_warp_slice 1.  A kernel that writes cost[u] + 2 or cost[u]
// instead gives levels-weak on both graphs.
#include <string>
#include <vector>

#include "bench.h"
#include "graph.h"

// One step, as in the paper's BFS_step_kernel (lines 1-9).
__global__ void bfs_step(const int *row, const int *col, int *active, int *visited, int *cost,
                         int *changed, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n || !active[u])
        return;
    active[u] = 0;
    visited[u] = 1;
    for (int k = row[u]; k < row[u + 1]; k++) {
        int v = col[k];
        if (!visited[v]) {
            cost[v] = cost[u] + 1;
            active[v] = 1;
            *changed = 1;
        }
    }
}

// Run the racy BFS on g from src: pass/fail by the always-valid rules, the
// note item by the SC ones (see the top of the file); the costs go into h.
static std::string bfs_racy_run(const char *name, const csr_graph &g, int src, bool &pass,
                                uint64_t &h)
{
    int n = g.n, m = g.edges();
    std::vector<int> active(n, 0), visited(n, 0), cost(n, -1);
    active[src] = 1;
    visited[src] = 1;
    cost[src] = 0;

    int *d_row, *d_col, *d_active, *d_visited, *d_cost, *d_changed;
    CUDA_CHECK(cudaMalloc(&d_row, (n + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_col, (m > 0 ? m : 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_active, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_visited, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_cost, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_changed, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_row, g.row.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_col, g.col.data(), m * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_active, active.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_visited, visited.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_cost, cost.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    // Launch until a step changes nothing (at most 2n + 1 launches).
    const int block = 256;
    int launches = 0, changed = 1;
    while (changed && launches <= 2 * n + 1) {
        changed = 0;
        CUDA_CHECK(cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice));
        bfs_step<<<(n + block - 1) / block, block>>>(d_row, d_col, d_active, d_visited, d_cost,
                                                     d_changed, n);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
        launches++;
    }
    CUDA_CHECK(cudaMemcpy(cost.data(), d_cost, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_row));
    CUDA_CHECK(cudaFree(d_col));
    CUDA_CHECK(cudaFree(d_active));
    CUDA_CHECK(cudaFree(d_visited));
    CUDA_CHECK(cudaFree(d_cost));
    CUDA_CHECK(cudaFree(d_changed));

    std::vector<int> level = graph_bfs_levels(g, src);
    int reached = 0;
    bool bipartite = true; // src's component: no edge joins two equal levels
    for (int v = 0; v < n; v++) {
        if (level[v] < 0)
            continue;
        reached++;
        for (int k = g.row[v]; k < g.row[v + 1]; k++)
            bipartite = bipartite && level[g.col[k]] != level[v];
    }
    // Always valid: pass or fail.
    bool ok = !changed && cost[src] == 0;
    for (int v = 0; v < n; v++)
        ok = ok && (level[v] < 0 ? cost[v] == -1 : cost[v] >= 0 && cost[v] <= 2L * m);
    // Sequentially consistent: (a), (b), (c); only the note.
    int differ = 0, out_of_range = 0, wrong_parity = 0, ones = 0;
    for (int v = 0; v < n; v++) {
        if (level[v] < 0 || v == src)
            continue;
        differ += cost[v] != level[v];
        out_of_range += cost[v] < level[v] || cost[v] > reached - 1;
        wrong_parity += bipartite && ((cost[v] ^ level[v]) & 1);
    }
    for (int k = g.row[src]; k < g.row[src + 1]; k++)
        ones += cost[g.col[k]] == 1;
    bool sc = out_of_range == 0 && wrong_parity == 0 && (ones > 0 || g.row[src] == g.row[src + 1]);

    printf("bfs_racy %s: %d vertices, %d directed edges%s, source %d: %d launches, %d reached, "
           "%d differ from the BFS level\n",
           name, n, m, bipartite ? " (bipartite)" : "", src, launches, reached, differ);
    if (!sc)
        printf("bfs_racy %s: only weak memory gives this: %d costs outside [level, %d], %d of the "
               "wrong parity, %d neighbours of the source at cost 1\n",
               name, out_of_range, reached - 1, wrong_parity, ones);
    pass = pass && ok;
    h = bench_hash(cost.data(), n * sizeof(int), h);
    const char *item = !sc ? "levels-weak" : differ ? "levels-differ" : "levels-exact";
    return std::string(name) + ":" + item;
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int scale = bench_pick(args, 13, 16, 19);
    csr_graph rmat = graph_rmat(scale, 16, args.seed, true);
    // The R-MAT source: the vertex with the most neighbours, so most of the
    // graph is reachable; R-MAT also leaves some vertices isolated.
    int src = rmat.max_degree_vertex();
    std::string path = std::string(graph_data_dir()) + "/grid_bridge.el";
    csr_graph grid = graph_read(path.c_str(), true);

    printf("bfs_racy: R-MAT scale %d, and %s\n", scale, path.c_str());
    bool pass = true;
    uint64_t h = 0xcbf29ce484222325ull;
    std::string note = bfs_racy_run("rmat", rmat, src, pass, h);
    note += "," + bfs_racy_run("grid", grid, 0, pass, h);
    return bench_result(pass, h, note.c_str());
}
