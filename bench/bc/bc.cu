// bc.cu -- betweenness centrality (Brandes) on undirected graphs, push style
// with float atomics, one BFS level per launch.
//
// For each source s: a forward phase finds the BFS levels d[] and sigma[]
// (the number of shortest paths from s), level by level; a backward phase
// accumulates the dependencies
//     delta[v] = sum over w with d[w] = d[v] + 1, (v, w) an edge, of
//                sigma[v] / sigma[w] * (1 + delta[w])
// from the deepest level up, and adds delta[w] into bc[w] (w != s).  So
// bc[v] = sum over the sources s of delta_s(v); it is not halved for the
// undirected graph.  The graphs: Zachary's karate club and grid_bridge
// (bench/data, every vertex a source) and an undirected R-MAT graph (a
// fixed sample of sources drawn from the seed).
//
// ORDER-SENSITIVE (intentionally): sigma[] and delta[] are summed with float
// atomicAdd, in an order a real GPU does not fix, so the bits of bc[] may
// vary from run to run.  The check accepts every valid order.  All the
// quantities are sums of nonnegative terms, so relative errors add up along
// the dependency chain.  When every sigma is below 2^24 (checked on the
// double reference), the float sigma sums are exact integers, each level of
// delta adds at most (maxdeg + 3) roundings (the atomic sum of at most
// maxdeg terms, then 1 +, / and *), and the sum over the sources adds
// nsources more:
//     |bc_gpu - bc_exact| <= 1.01 * (depth * (maxdeg + 3) + nsources) * eps * bc_exact
// with eps = 2^-24 and depth the largest BFS depth over the sources.  (When
// some sigma reaches 2^24 the sigma sums round too: the bound becomes
// depth * ((2 * depth + 1) * maxdeg + 3) + nsources roundings.)  The
// reference is Brandes' algorithm in double.  note= says, per graph,
// whether bc[] equals bit for bit a CPU float replay in SIMT order (warps
// one after another; in a warp, loop iteration by iteration, lanes
// ascending): replay-exact or replay-differ.
//
// Kernels, per source: bc_init (1 launch); bc_step and bc_commit per level
// (2 * (depth + 1) launches, the host reads the new frontier's size after
// each commit); bc_back per level (depth launches).  No kernel has a data
// race: in every launch an address is either read only, written only by its
// owning thread, or updated only by atomics.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "bench.h"
#include "graph.h"

#define BLOCK 256

// d = -1 (unreached), sigma = 0, delta = 0, front[] = 0, except the source.
__global__ void bc_init(int *d, float *sigma, float *delta, int *front, int n, int s)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) {
        d[v] = v == s ? 0 : -1;
        sigma[v] = v == s ? 1.0f : 0.0f;
        delta[v] = 0.0f;
        front[v] = 0;
    }
}

// Level L's vertices push their path counts to their unreached neighbours,
// which are exactly level L + 1's vertices (d[] does not change here).
__global__ void bc_step(const int *row, const int *col, const int *d, float *sigma, int n, int L)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || d[v] != L)
        return;
    float sv = sigma[v];
    for (int k = row[v]; k < row[v + 1]; k++) {
        int w = col[k];
        if (d[w] < 0)
            atomicAdd(&sigma[w], sv);
    }
}

// The vertices the step reached join level L + 1 and are counted.
__global__ void bc_commit(int *d, const float *sigma, int *front, int n, int L)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && d[v] < 0 && sigma[v] > 0.0f) {
        d[v] = L + 1;
        atomicAdd(&front[L + 1], 1);
    }
}

// Level L + 1's vertices w (their delta is final) push
// sigma[v] / sigma[w] * (1 + delta[w]) to their level-L neighbours v and add
// delta[w] into bc[w].
__global__ void bc_back(const int *row, const int *col, const int *d, const float *sigma,
                        float *delta, float *bc, int n, int L)
{
    int w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= n || d[w] != L + 1)
        return;
    float dw = delta[w];
    float coef = (1.0f + dw) / sigma[w];
    for (int k = row[w]; k < row[w + 1]; k++) {
        int v = col[k];
        if (d[v] == L)
            atomicAdd(&delta[v], sigma[v] * coef);
    }
    bc[w] += dw;
}

struct gpu_graph {
    int n, m;
    int *row, *col, *d, *front;
    float *sigma, *delta, *bc;
};

// Brandes on the GPU over the given sources; returns bc[] and the launch count.
static std::vector<float> gpu_bc(const csr_graph &g, const std::vector<int> &sources, long *launches)
{
    gpu_graph G;
    G.n = g.n;
    G.m = g.edges();
    CUDA_CHECK(cudaMalloc(&G.row, (G.n + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&G.col, (G.m > 0 ? G.m : 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&G.d, G.n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&G.front, G.n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&G.sigma, G.n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&G.delta, G.n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&G.bc, G.n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(G.row, g.row.data(), (G.n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(G.col, g.col.data(), G.m * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(G.bc, 0, G.n * sizeof(float)));
    int grid = (G.n + BLOCK - 1) / BLOCK;
    for (int s : sources) {
        bc_init<<<grid, BLOCK>>>(G.d, G.sigma, G.delta, G.front, G.n, s);
        CUDA_CHECK(cudaGetLastError());
        ++*launches;
        int depth = 0;
        for (;;) {
            bc_step<<<grid, BLOCK>>>(G.row, G.col, G.d, G.sigma, G.n, depth);
            CUDA_CHECK(cudaGetLastError());
            bc_commit<<<grid, BLOCK>>>(G.d, G.sigma, G.front, G.n, depth);
            CUDA_CHECK(cudaGetLastError());
            *launches += 2;
            int count = 0;
            if (depth + 1 < G.n)
                CUDA_CHECK(cudaMemcpy(&count, G.front + depth + 1, sizeof(int),
                                      cudaMemcpyDeviceToHost));
            if (count == 0)
                break;
            depth++;
        }
        for (int L = depth - 1; L >= 0; L--) {
            bc_back<<<grid, BLOCK>>>(G.row, G.col, G.d, G.sigma, G.delta, G.bc, G.n, L);
            CUDA_CHECK(cudaGetLastError());
            ++*launches;
        }
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> bc(G.n);
    CUDA_CHECK(cudaMemcpy(bc.data(), G.bc, G.n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(G.row));
    CUDA_CHECK(cudaFree(G.col));
    CUDA_CHECK(cudaFree(G.d));
    CUDA_CHECK(cudaFree(G.front));
    CUDA_CHECK(cudaFree(G.sigma));
    CUDA_CHECK(cudaFree(G.delta));
    CUDA_CHECK(cudaFree(G.bc));
    return bc;
}

// Brandes in double; also reports the largest depth and sigma seen.
static std::vector<double> cpu_bc(const csr_graph &g, const std::vector<int> &sources,
                                  int *max_depth, double *max_sigma)
{
    std::vector<double> bc(g.n, 0.0), sigma(g.n), delta(g.n);
    *max_depth = 0;
    *max_sigma = 0.0;
    for (int s : sources) {
        std::vector<int> d = graph_bfs_levels(g, s), order;
        std::fill(sigma.begin(), sigma.end(), 0.0);
        std::fill(delta.begin(), delta.end(), 0.0);
        sigma[s] = 1.0;
        int depth = 0;
        for (int v = 0; v < g.n; v++)
            depth = std::max(depth, d[v]);
        for (int L = 0; L <= depth; L++) // vertices by level
            for (int v = 0; v < g.n; v++)
                if (d[v] == L)
                    order.push_back(v);
        for (int v : order)
            for (int k = g.row[v]; k < g.row[v + 1]; k++)
                if (d[g.col[k]] == d[v] + 1)
                    sigma[g.col[k]] += sigma[v];
        for (size_t i = order.size(); i-- > 0;) {
            int w = order[i];
            for (int k = g.row[w]; k < g.row[w + 1]; k++)
                if (d[g.col[k]] == d[w] - 1)
                    delta[g.col[k]] += sigma[g.col[k]] / sigma[w] * (1.0 + delta[w]);
            if (w != s)
                bc[w] += delta[w];
        }
        *max_depth = std::max(*max_depth, depth);
        for (int v = 0; v < g.n; v++)
            *max_sigma = std::max(*max_sigma, sigma[v]);
    }
    return bc;
}

// The GPU kernels replayed in float in SIMT order: thread v's loop
// iteration k for every lane of a warp before iteration k + 1, warps in
// order; bc[w] += delta[w] as each back launch does.
static std::vector<float> replay_bc(const csr_graph &g, const std::vector<int> &sources)
{
    int n = g.n;
    std::vector<float> bc(n, 0.0f), sigma(n), delta(n);
    std::vector<int> d(n);
    // Run fn(v, k) for the edges k of the vertices v with want(v), SIMT order.
    auto simt = [&](auto want, auto fn) {
        for (int w0 = 0; w0 < n; w0 += 32) {
            int w1 = std::min(n, w0 + 32), maxdeg = 0;
            for (int v = w0; v < w1; v++)
                if (want(v))
                    maxdeg = std::max(maxdeg, g.row[v + 1] - g.row[v]);
            for (int k = 0; k < maxdeg; k++)
                for (int v = w0; v < w1; v++)
                    if (want(v) && k < g.row[v + 1] - g.row[v])
                        fn(v, g.row[v] + k);
        }
    };
    for (int s : sources) {
        for (int v = 0; v < n; v++) {
            d[v] = v == s ? 0 : -1;
            sigma[v] = v == s ? 1.0f : 0.0f;
            delta[v] = 0.0f;
        }
        int depth = 0;
        for (;;) {
            int L = depth;
            std::vector<float> sv(sigma); // bc_step reads level L's final sigma
            simt([&](int v) { return d[v] == L; },
                 [&](int v, int k) {
                     if (d[g.col[k]] < 0)
                         sigma[g.col[k]] += sv[v];
                 });
            int count = 0;
            for (int v = 0; v < n; v++)
                if (d[v] < 0 && sigma[v] > 0.0f) {
                    d[v] = L + 1;
                    count++;
                }
            if (count == 0)
                break;
            depth++;
        }
        for (int L = depth - 1; L >= 0; L--) {
            std::vector<float> coef(n), dw(delta);
            for (int w = 0; w < n; w++)
                if (d[w] == L + 1)
                    coef[w] = (1.0f + dw[w]) / sigma[w];
            simt([&](int w) { return d[w] == L + 1; },
                 [&](int w, int k) {
                     int v = g.col[k];
                     if (d[v] == L)
                         delta[v] += sigma[v] * coef[w];
                 });
            for (int w = 0; w < n; w++)
                if (d[w] == L + 1)
                    bc[w] += dw[w];
        }
    }
    return bc;
}

struct graph_run {
    bool pass, exact;
};

static graph_run run_graph(const char *name, const csr_graph &g, const std::vector<int> &sources,
                           uint64_t *hash)
{
    long launches = 0;
    std::vector<float> bc = gpu_bc(g, sources, &launches);
    *hash = bench_hash(bc.data(), bc.size() * sizeof(float), *hash);

    int depth, maxdeg = 0;
    double max_sigma;
    std::vector<double> ref = cpu_bc(g, sources, &depth, &max_sigma);
    for (int v = 0; v < g.n; v++)
        maxdeg = std::max(maxdeg, g.row[v + 1] - g.row[v]);
    double rounds = max_sigma < 16777216.0
                        ? (double)depth * (maxdeg + 3) + sources.size()
                        : (double)depth * ((2.0 * depth + 1) * maxdeg + 3) + sources.size();
    double rel_tol = 1.01 * rounds / (double)(1 << 24);
    graph_run r = {true, false};
    double worst = 0.0;
    for (int v = 0; v < g.n; v++) {
        if (!bench_close(bc[v], ref[v], rel_tol, 0.0))
            r.pass = false;
        if (ref[v] > 0)
            worst = std::max(worst, fabs(bc[v] - ref[v]) / ref[v]);
    }
    std::vector<float> rep = replay_bc(g, sources);
    r.exact = memcmp(rep.data(), bc.data(), bc.size() * sizeof(float)) == 0;
    printf("%s: %d vertices, %d edges, %zu sources, depth <= %d, %ld launches, max rel err %.3g "
           "(bound %.3g)\n",
           name, g.n, g.edges(), sources.size(), depth, launches, worst, rel_tol);
    return r;
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int scale = bench_pick(args, 10, 12, 14), nsrc = bench_pick(args, 8, 24, 64);
    std::string dir = graph_data_dir();
    struct {
        const char *name;
        csr_graph g;
        std::vector<int> sources;
    } graphs[3];
    graphs[0].name = "karate";
    graphs[0].g = graph_read((dir + "/karate.el").c_str(), true);
    graphs[1].name = "grid_bridge";
    graphs[1].g = graph_read((dir + "/grid_bridge.el").c_str(), true);
    graphs[2].name = "rmat";
    graphs[2].g = graph_rmat(scale, 8, args.seed, true);
    for (int i = 0; i < 2; i++)
        for (int v = 0; v < graphs[i].g.n; v++)
            graphs[i].sources.push_back(v);
    // The R-MAT sample: distinct vertices with at least one edge.
    {
        const csr_graph &g = graphs[2].g;
        bench_rng rng(args.seed ^ 0x5eed5eedull);
        std::vector<char> taken(g.n, 0);
        std::vector<int> &src = graphs[2].sources;
        while ((int)src.size() < nsrc) {
            int v = (int)rng.below((uint32_t)g.n);
            if (!taken[v] && g.row[v + 1] > g.row[v]) {
                taken[v] = 1;
                src.push_back(v);
            }
        }
    }

    uint64_t hash = 0xcbf29ce484222325ull;
    bool pass = true;
    std::string note;
    for (auto &G : graphs) {
        graph_run r = run_graph(G.name, G.g, G.sources, &hash);
        pass = pass && r.pass;
        note += std::string(note.empty() ? "" : ",") + G.name + ":" +
                (r.exact ? "replay-exact" : "replay-differ");
    }
    return bench_result(pass, hash, note.c_str());
}
