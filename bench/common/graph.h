// graph.h -- graphs for the workloads: compressed sparse row (CSR) storage,
// seeded generators (R-MAT, the skewed graphs of the Graph500 family, and
// uniform random), a reader for the small fixed graphs committed in
// bench/data (edge lists), and a CPU breadth-first search for reference
// checks.  Every graph is built deterministically from its seed.
#ifndef LOCKSTEP_BENCH_GRAPH_H
#define LOCKSTEP_BENCH_GRAPH_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench.h"

struct csr_graph {
    int n = 0;                 // vertices
    std::vector<int> row;      // n + 1 offsets
    std::vector<int> col;      // row[n] neighbours
    int edges() const { return (int)col.size(); }
    int degree(int v) const { return row[v + 1] - row[v]; }
    // The vertex with the most neighbours (the lowest-numbered of ties): a
    // BFS source that reaches most of an R-MAT graph.
    int max_degree_vertex() const
    {
        int best = 0;
        for (int v = 1; v < n; v++)
            if (degree(v) > degree(best))
                best = v;
        return best;
    }
};

// Build CSR from an edge list; duplicates and self loops dropped; with
// `undirected`, each edge is stored both ways.  Neighbours are sorted.
static inline csr_graph graph_from_edges(int n, std::vector<std::pair<int, int>> e, bool undirected)
{
    if (undirected) {
        size_t m = e.size();
        for (size_t i = 0; i < m; i++)
            e.push_back({e[i].second, e[i].first});
    }
    std::sort(e.begin(), e.end());
    e.erase(std::unique(e.begin(), e.end()), e.end());
    csr_graph g;
    g.n = n;
    g.row.assign(n + 1, 0);
    for (auto &p : e)
        if (p.first != p.second)
            g.row[p.first + 1]++;
    for (int i = 0; i < n; i++)
        g.row[i + 1] += g.row[i];
    g.col.resize(g.row[n]);
    std::vector<int> fill(g.row.begin(), g.row.end() - 1);
    for (auto &p : e)
        if (p.first != p.second)
            g.col[fill[p.first]++] = p.second;
    return g;
}

// R-MAT: 2^scale vertices, edge_factor * 2^scale edges, quadrant
// probabilities a, b, c (d = 1 - a - b - c); vertex ids are scrambled so
// hubs are not all at the front.
static inline csr_graph graph_rmat(int scale, int edge_factor, uint64_t seed, bool undirected,
                                   double a = 0.57, double b = 0.19, double c = 0.19)
{
    int n = 1 << scale;
    bench_rng rng(seed);
    std::vector<int> perm(n);
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--)
        std::swap(perm[i], perm[rng.below((uint32_t)i + 1)]);
    std::vector<std::pair<int, int>> e;
    e.reserve((size_t)n * edge_factor);
    for (long k = 0; k < (long)n * edge_factor; k++) {
        int u = 0, v = 0;
        for (int bit = 0; bit < scale; bit++) {
            double r = rng.unitd();
            int qu = r >= a + b, qv = (r >= a && r < a + b) || r >= a + b + c;
            u |= qu << bit;
            v |= qv << bit;
        }
        e.push_back({perm[u], perm[v]});
    }
    return graph_from_edges(n, e, undirected);
}

// Uniform random graph: n vertices, m random edges.
static inline csr_graph graph_uniform(int n, long m, uint64_t seed, bool undirected)
{
    bench_rng rng(seed);
    std::vector<std::pair<int, int>> e;
    e.reserve(m);
    for (long k = 0; k < m; k++)
        e.push_back({(int)rng.below((uint32_t)n), (int)rng.below((uint32_t)n)});
    return graph_from_edges(n, e, undirected);
}

// A committed edge list: '#' comment lines, then "n m", then m lines "u v"
// (0-based).  Exits with a message on a malformed file.
static inline csr_graph graph_read(const char *path, bool undirected)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open graph %s\n", path);
        exit(2);
    }
    int c;
    while ((c = fgetc(f)) == '#')
        while ((c = fgetc(f)) != '\n' && c != EOF) {
        }
    ungetc(c, f);
    int n;
    long m;
    if (fscanf(f, "%d %ld", &n, &m) != 2 || n <= 0 || m < 0) {
        fprintf(stderr, "%s: expected 'vertices edges' after the comments\n", path);
        exit(2);
    }
    std::vector<std::pair<int, int>> e;
    for (long k = 0; k < m; k++) {
        int u, v;
        if (fscanf(f, "%d %d", &u, &v) != 2 || u < 0 || v < 0 || u >= n || v >= n) {
            fprintf(stderr, "%s: edge %ld is malformed or out of range\n", path, k + 1);
            exit(2);
        }
        e.push_back({u, v});
    }
    fclose(f);
    return graph_from_edges(n, e, undirected);
}

// The directory of the committed graphs: $LOCKSTEP_BENCH_DATA, or bench/data
// relative to the working directory.
static inline const char *graph_data_dir()
{
    const char *d = getenv("LOCKSTEP_BENCH_DATA");
    return d && *d ? d : "bench/data";
}

// CPU BFS: levels from src (-1 where unreachable).
static inline std::vector<int> graph_bfs_levels(const csr_graph &g, int src)
{
    std::vector<int> lvl(g.n, -1), q;
    q.reserve(g.n);
    lvl[src] = 0;
    q.push_back(src);
    for (size_t h = 0; h < q.size(); h++) {
        int u = q[h];
        for (int k = g.row[u]; k < g.row[u + 1]; k++)
            if (lvl[g.col[k]] < 0) {
                lvl[g.col[k]] = lvl[u] + 1;
                q.push_back(g.col[k]);
            }
    }
    return lvl;
}

#endif
