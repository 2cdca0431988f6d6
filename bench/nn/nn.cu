// nn.cu -- k nearest neighbours of query points among N records of
// (latitude, longitude) (GpuTejas' nn, the algorithm of Rodinia's).
//
// For each of NQ query points one launch computes, with one thread per
// record, the Euclidean distance in the (lat, long) plane from the query to
// every record; the host copies the distances back and picks the K smallest
// (ties broken by the lower record index).  Tiny threads, no reuse, one
// coalesced load and store each: memory-bound and launch-dominated, the
// case where a simulator's per-CTA overheads show.
#include "bench.h"
#include <algorithm>
#include <vector>

#define K 10
#define THREADS 256

// The distance, each operation rounded separately (__fmul_rn/__fadd_rn keep
// nvcc from fusing them), so that the CPU's identical expression gives the
// same bits (x86-64's baseline has no FMA, so the host compiler cannot fuse).
__host__ __device__ static inline float nn_dist(float lat, float lng, float qlat, float qlng)
{
#ifdef __CUDA_ARCH__
    float dy = lat - qlat, dx = lng - qlng;
    return sqrtf(__fadd_rn(__fmul_rn(dy, dy), __fmul_rn(dx, dx)));
#else
    float dy = lat - qlat, dx = lng - qlng;
    float dy2 = dy * dy, dx2 = dx * dx;
    return sqrtf(dy2 + dx2);
#endif
}

__global__ void nn_distances(const float2 *__restrict__ rec, float *__restrict__ dist, int n,
                             float qlat, float qlng)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 r = rec[i];
        dist[i] = nn_dist(r.x, r.y, qlat, qlng);
    }
}

// The K nearest by (distance, index).
static std::vector<int> k_nearest(const std::vector<float> &d)
{
    std::vector<int> idx(d.size());
    for (size_t i = 0; i < d.size(); i++)
        idx[i] = (int)i;
    std::partial_sort(idx.begin(), idx.begin() + K, idx.end(), [&](int a, int b) {
        return d[a] < d[b] || (d[a] == d[b] && a < b);
    });
    idx.resize(K);
    return idx;
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int n = bench_pick(args, 131072, 524288, 2097152);
    int nq = bench_pick(args, 12, 24, 64);

    // Seeded records: storm-track-like positions, clustered along 16 tracks
    // (so near ties exist); with t, track and the jitter at their extremes
    // the latitude spans 8..87 and the longitude -98..8 degrees.  Positions
    // are rounded to 0.1 degree, as in track records.
    bench_rng rng(args.seed);
    std::vector<float2> rec(n);
    for (int i = 0; i < n; i++) {
        float t = rng.unit();
        int track = rng.below(16);
        float lat = 10.0f + 3.0f * track + 30.0f * t + 4.0f * (rng.unit() - 0.5f);
        float lng = -95.0f + 70.0f * t + 2.0f * track + 6.0f * (rng.unit() - 0.5f);
        rec[i] = make_float2(std::round(lat * 10.0f) / 10.0f, std::round(lng * 10.0f) / 10.0f);
    }
    std::vector<float2> q(nq);
    for (int j = 0; j < nq; j++) {   // near a random record
        float2 r = rec[rng.below(n)];
        q[j] = make_float2(r.x + 2.0f * (rng.unit() - 0.5f), r.y + 2.0f * (rng.unit() - 0.5f));
    }

    float2 *d_rec;
    float *d_dist;
    CUDA_CHECK(cudaMalloc(&d_rec, n * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&d_dist, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_rec, rec.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
    std::vector<float> dist(n), want(n);
    uint64_t hash = 0xcbf29ce484222325ull;
    bool pass = true;
    long mismatches = 0;
    for (int j = 0; j < nq; j++) {
        nn_distances<<<(n + THREADS - 1) / THREADS, THREADS>>>(d_rec, d_dist, n, q[j].x, q[j].y);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(dist.data(), d_dist, n * sizeof(float), cudaMemcpyDeviceToHost));
        hash = bench_hash(dist.data(), n * sizeof(float), hash);
        // CPU reference: the same expression; the distances must be equal
        // bit for bit (tolerance 0: every operation is a single IEEE
        // round-to-nearest on both sides, sqrt included), so the K nearest
        // are the same records in the same order.
        for (int i = 0; i < n; i++) {
            want[i] = nn_dist(rec[i].x, rec[i].y, q[j].x, q[j].y);
            if (memcmp(&want[i], &dist[i], sizeof(float)) != 0)
                mismatches++;
        }
        std::vector<int> got = k_nearest(dist), ref = k_nearest(want);
        if (got != ref)
            pass = false;
        if (j == 0) {
            printf("nn: %d records, %d queries (one launch each), k = %d\n", n, nq, K);
            printf("query 0 (%.2f, %.2f): nearest record %d at %.4f, %dth at %.4f\n", q[0].x,
                   q[0].y, got[0], dist[got[0]], K, dist[got[K - 1]]);
        }
        for (int m = 0; m < K; m++)
            hash = bench_hash(&got[m], sizeof(int), hash);
    }
    if (mismatches)
        pass = false;
    printf("%ld distances differ from the CPU's (exact check)\n", mismatches);
    CUDA_CHECK(cudaFree(d_rec));
    CUDA_CHECK(cudaFree(d_dist));
    return bench_result(pass, hash);
}
