// pathfinder.cu -- cheapest top-to-bottom paths through a grid of weights,
// row by row (GpuTejas' pathfinder workload; our own formulation of the
// dynamic programme).
//
// A rows x cols grid holds seeded weights 1..16.  A path starts anywhere in
// row 0 and moves one row down and at most one column sideways per step;
// the cost of reaching cell (r, c) is
//     cost[0][c] = W[0][c],
//     cost[r][c] = W[r][c] + min over c' in {c-1, c, c+1} inside the grid of cost[r-1][c'].
// GPU scheme (column strips with a halo):  a launch advances HOPS rows.  The
// columns are cut into strips of STRIP; a CTA owns one strip and stages its
// cost row widened by HOPS columns on each side (SPAN = STRIP + 2 HOPS cells,
// cells outside the grid hold a sentinel that never wins a min) in shared
// memory.  Each further row can only be trusted one cell further in from
// either end of the span, so after HOPS rows exactly the strip is right.
// The span lives in two shared buffers used alternately (read one, write the
// other), so one __syncthreads per row suffices.  Each thread looks after
// SPAN / THREADS cells, THREADS apart.  Integers: the check is exact.
#include "bench.h"
#include <algorithm>
#include <climits>
#include <vector>

#define THREADS 128
#define HOPS 12                       // rows per launch = halo width
#define SPAN 256                      // staged cells per CTA
#define STRIP (SPAN - 2 * HOPS)       // columns each CTA is responsible for
#define CELLS_PER_THREAD (SPAN / THREADS)
#define FAR INT_MAX                   // cost of a column outside the grid
static_assert(SPAN % THREADS == 0, "whole cells per thread");

// Rows row0 .. row0 + nrows - 1 (nrows <= HOPS), from cost row `from` to `to`.
__global__ void dp_strip(const int *__restrict__ w, const int *__restrict__ from,
                         int *__restrict__ to, int cols, int row0, int nrows)
{
    __shared__ int lane[2][SPAN];
    int left = blockIdx.x * STRIP - HOPS;   // grid column of span cell 0
    for (int q = 0; q < CELLS_PER_THREAD; q++) {
        int j = threadIdx.x + q * THREADS, col = left + j;
        lane[0][j] = (col >= 0 && col < cols) ? from[col] : FAR;
    }
    __syncthreads();
    int cur = 0;
    for (int h = 1; h <= nrows; h++) {
        const int *src = lane[cur];
        int *dst = lane[cur ^ 1];
        const int *wrow = w + (size_t)(row0 + h - 1) * cols;
        for (int q = 0; q < CELLS_PER_THREAD; q++) {
            int j = threadIdx.x + q * THREADS, col = left + j;
            // Cells j < h or j > SPAN-1-h would need neighbours the span
            // does not hold (correctly) any more: they are left stale and
            // never read for a cell that matters.
            if (j < h || j >= SPAN - h)
                continue;
            int v = FAR;
            if (col >= 0 && col < cols) {
                int best = src[j];
                best = src[j - 1] < best ? src[j - 1] : best;
                best = src[j + 1] < best ? src[j + 1] : best;
                v = best + wrow[col];
            }
            dst[j] = v;
        }
        cur ^= 1;
        __syncthreads();   // this row is written before anyone reads it
    }
    for (int q = 0; q < CELLS_PER_THREAD; q++) {
        int j = threadIdx.x + q * THREADS, col = left + j;
        if (j >= HOPS && j < HOPS + STRIP && col < cols)
            to[col] = lane[cur][j];
    }
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int cols = bench_pick(args, 15000, 60000, 240000);
    int rows = bench_pick(args, 145, 289, 577);

    bench_rng rng(args.seed);
    std::vector<int> w((size_t)rows * cols);
    for (size_t i = 0; i < w.size(); i++)
        w[i] = 1 + (int)rng.below(16);

    int *d_w, *d_cost[2];
    CUDA_CHECK(cudaMalloc(&d_w, w.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_cost[0], cols * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_cost[1], cols * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_w, w.data(), w.size() * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_cost[0], w.data(), cols * sizeof(int), cudaMemcpyHostToDevice));
    int strips = (cols + STRIP - 1) / STRIP, side = 0, launches = 0;
    for (int r = 1; r < rows; r += HOPS) {
        int n = rows - r < HOPS ? rows - r : HOPS;
        dp_strip<<<strips, THREADS>>>(d_w, d_cost[side], d_cost[side ^ 1], cols, r, n);
        CUDA_CHECK(cudaGetLastError());
        side ^= 1;
        launches++;
    }
    std::vector<int> got(cols);
    CUDA_CHECK(cudaMemcpy(got.data(), d_cost[side], cols * sizeof(int), cudaMemcpyDeviceToHost));
    printf("pathfinder: %d rows x %d columns, %d rows per launch, %d launches of %d CTAs\n", rows,
           cols, HOPS, launches, strips);

    // CPU reference: the recurrence, one whole row at a time, with explicit
    // edge cases instead of a sentinel.  Exact.
    std::vector<int> prev(w.begin(), w.begin() + cols), next(cols);
    for (int r = 1; r < rows; r++) {
        const int *wr = &w[(size_t)r * cols];
        for (int c = 0; c < cols; c++) {
            int lo = c == 0 ? 0 : c - 1, hi = c == cols - 1 ? c : c + 1, m = prev[lo];
            for (int k = lo + 1; k <= hi; k++)
                m = std::min(m, prev[k]);
            next[c] = wr[c] + m;
        }
        prev.swap(next);
    }
    int wrong = 0, cheapest = got[0];
    for (int c = 0; c < cols; c++) {
        wrong += got[c] != prev[c];
        cheapest = std::min(cheapest, got[c]);
    }
    printf("cheapest path costs %d; %d of %d columns differ (exact check)\n", cheapest, wrong,
           cols);
    CUDA_CHECK(cudaFree(d_w));
    CUDA_CHECK(cudaFree(d_cost[0]));
    CUDA_CHECK(cudaFree(d_cost[1]));
    return bench_result(wrong == 0, bench_hash(got.data(), cols * sizeof(int)));
}
