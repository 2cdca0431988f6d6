// heartwall.cu -- template tracking by normalized cross-correlation over a
// sequence of frames (GpuTejas' heartwall, the idea of Rodinia's: follow
// points of the heart wall through ultrasound frames; written from that
// description on seeded synthetic frames).
//
// Frame f is a seeded textured field (value noise), shifted by a bounded
// random drift and overlaid with fresh noise.  K templates of TS x TS pixels
// are cut from frame 0.  For every later frame, one launch with one CTA per
// template scores every offset of a (2R+1)^2 search window around the
// template's last position by normalized cross-correlation
//     ncc = sum (I - mean I)(T - mean T) / sqrt(sum (I - mean I)^2 sum (T - mean T)^2)
// and picks the best (ties to the lowest offset index), which becomes the
// centre of the next frame's window.  A CTA stages its template (centred,
// by a shared-memory reduction) and its window in shared memory; the
// scores go to global memory; an argmax tree finishes.  Compute-heavy inner
// loops over shared memory, with reductions and barriers around them.
#include "bench.h"
#include <vector>

#define TS 16                     // template side
#define R 8                       // search radius
#define WS (TS + 2 * R)           // window side
#define NC ((2 * R + 1) * (2 * R + 1))   // candidate offsets
#define THREADS 256
static_assert(THREADS == TS * TS, "one thread per template pixel");

// CTA k: template k against every offset of its window in the frame.
__global__ void hw_match(const float *__restrict__ img, int size, const float *__restrict__ tmpl,
                         const int2 *__restrict__ centre, float *__restrict__ scores,
                         int *__restrict__ best)
{
    __shared__ float t[TS * TS], win[WS * WS], red[THREADS];
    __shared__ int bidx[THREADS];
    int k = blockIdx.x, tid = threadIdx.x;
    // Template: load, mean by a tree reduction, centre, sum of squares.
    float v = tmpl[k * TS * TS + tid];   // THREADS == TS * TS
    red[tid] = v;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] += red[tid + s];
        __syncthreads();
    }
    float tc = v - red[0] * (1.0f / (TS * TS));
    t[tid] = tc;
    __syncthreads();
    red[tid] = tc * tc;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] += red[tid + s];
        __syncthreads();
    }
    float tss = red[0];
    // Window: rows centre.y - R .. centre.y + TS + R - 1 (the host keeps it
    // inside the frame), with the window's mean subtracted (ncc does not
    // change, and the variance below no longer cancels).
    int2 c = centre[k];
    float part = 0.0f;
    for (int i = tid; i < WS * WS; i += THREADS) {
        float p = img[(c.y - R + i / WS) * size + c.x - R + i % WS];
        win[i] = p;
        part += p;
    }
    __syncthreads();   // everyone has read red[0] (tss) above
    red[tid] = part;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] += red[tid + s];
        __syncthreads();
    }
    float wmean = red[0] * (1.0f / (WS * WS));
    for (int i = tid; i < WS * WS; i += THREADS)
        win[i] -= wmean;
    __syncthreads();
    // Scores; each thread keeps its best (strictly greater, so the lowest
    // index among equals, since its candidates come in increasing order).
    float my_best = -2.0f;
    int my_idx = NC;
    for (int q = tid; q < NC; q += THREADS) {
        int oy = q / (2 * R + 1), ox = q % (2 * R + 1);
        float s1 = 0.0f, s2 = 0.0f, s12 = 0.0f;
        for (int y = 0; y < TS; y++)
            for (int x = 0; x < TS; x++) {
                float p = win[(oy + y) * WS + ox + x];
                s1 += p;
                s2 += p * p;
                s12 += p * t[y * TS + x];
            }
        float var = s2 - s1 * s1 * (1.0f / (TS * TS));
        float ncc = s12 / sqrtf(var * tss);
        scores[k * NC + q] = ncc;
        if (ncc > my_best) {
            my_best = ncc;
            my_idx = q;
        }
    }
    red[tid] = my_best;
    bidx[tid] = my_idx;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) {
            float o = red[tid + s];
            int oi = bidx[tid + s];
            if (o > red[tid] || (o == red[tid] && oi < bidx[tid])) {
                red[tid] = o;
                bidx[tid] = oi;
            }
        }
        __syncthreads();
    }
    if (tid == 0)
        best[k] = bidx[0];
}

// Value noise: random values on a lattice of spacing 8, bilinearly
// interpolated, plus a finer lattice of spacing 3 at half the amplitude.
static std::vector<float> value_noise(int size, bench_rng &rng)
{
    std::vector<float> out((size_t)size * size, 0.0f);
    const int spacing[2] = {8, 3};
    const float amp[2] = {1.0f, 0.5f};
    for (int o = 0; o < 2; o++) {
        int g = size / spacing[o] + 2;
        std::vector<float> lat((size_t)g * g);
        for (auto &x : lat)
            x = rng.unit();
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int gy = y / spacing[o], gx = x / spacing[o];
                float fy = (float)(y % spacing[o]) / spacing[o], fx = (float)(x % spacing[o]) / spacing[o];
                float a = lat[(size_t)gy * g + gx], b = lat[(size_t)gy * g + gx + 1];
                float cc = lat[(size_t)(gy + 1) * g + gx], d = lat[(size_t)(gy + 1) * g + gx + 1];
                out[(size_t)y * size + x] +=
                    amp[o] * ((a * (1 - fx) + b * fx) * (1 - fy) + (cc * (1 - fx) + d * fx) * fy);
            }
    }
    return out;
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int size = bench_pick(args, 256, 512, 1024);       // frame side
    int ktmpl = bench_pick(args, 32, 64, 128);         // templates
    int frames = bench_pick(args, 5, 17, 65);          // frame 0 + tracked frames
    const int margin = 12;                             // drift bound

    bench_rng rng(args.seed);
    int big = size + 2 * margin;
    std::vector<float> field = value_noise(big, rng);
    std::vector<std::vector<float>> img(frames, std::vector<float>((size_t)size * size));
    int dx = 0, dy = 0;
    for (int f = 0; f < frames; f++) {
        if (f > 0) {   // a bounded random walk of up to 3 pixels per frame
            dx += (int)rng.below(7) - 3;
            dy += (int)rng.below(7) - 3;
            dx = dx < -margin ? -margin : dx > margin ? margin : dx;
            dy = dy < -margin ? -margin : dy > margin ? margin : dy;
        }
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++)
                img[f][(size_t)y * size + x] =
                    field[(size_t)(y + margin + dy) * big + x + margin + dx] +
                    0.1f * (rng.unit() - 0.5f);
    }
    // Templates on a jittered grid, away from the frame's edges.
    int lo = R + margin + 2, hi = size - TS - R - margin - 2;
    std::vector<int2> pos(ktmpl);
    std::vector<float> tmpl((size_t)ktmpl * TS * TS);
    for (int k = 0; k < ktmpl; k++) {
        pos[k] = make_int2(lo + (int)rng.below(hi - lo), lo + (int)rng.below(hi - lo));
        for (int y = 0; y < TS; y++)
            for (int x = 0; x < TS; x++)
                tmpl[((size_t)k * TS + y) * TS + x] = img[0][(size_t)(pos[k].y + y) * size + pos[k].x + x];
    }

    float *d_img, *d_tmpl, *d_scores;
    int2 *d_centre;
    int *d_best;
    size_t fbytes = (size_t)size * size * sizeof(float);
    CUDA_CHECK(cudaMalloc(&d_img, fbytes));
    CUDA_CHECK(cudaMalloc(&d_tmpl, tmpl.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_scores, (size_t)ktmpl * NC * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_centre, ktmpl * sizeof(int2)));
    CUDA_CHECK(cudaMalloc(&d_best, ktmpl * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_tmpl, tmpl.data(), tmpl.size() * sizeof(float), cudaMemcpyHostToDevice));

    std::vector<int2> centre = pos;
    std::vector<float> scores((size_t)ktmpl * NC);
    std::vector<int> best(ktmpl);
    std::vector<double> want(NC);
    uint64_t hash = 0xcbf29ce484222325ull;
    bool pass = true;
    int near_ties = 0;
    double maxerr = 0;
    // Tolerance on a score: 1e-5 absolute (ncc is in [-1, 1]).  The GPU sums
    // 256 products in float (fused), so s1, s2 and s12 carry relative errors
    // of ~1e-6; with the window's mean removed the variance s2 - s1^2/N
    // hardly cancels, and ncc is a ratio of such sums.
    const double tol = 1e-5;
    for (int f = 1; f < frames; f++) {
        CUDA_CHECK(cudaMemcpy(d_img, img[f].data(), fbytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d_centre, centre.data(), ktmpl * sizeof(int2), cudaMemcpyHostToDevice));
        hw_match<<<ktmpl, THREADS>>>(d_img, size, d_tmpl, d_centre, d_scores, d_best);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(scores.data(), d_scores, scores.size() * sizeof(float), cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(best.data(), d_best, ktmpl * sizeof(int), cudaMemcpyDeviceToHost));
        hash = bench_hash(scores.data(), scores.size() * sizeof(float), hash);
        hash = bench_hash(best.data(), ktmpl * sizeof(int), hash);
        // CPU reference in double, from the same frame and centres.
        for (int k = 0; k < ktmpl; k++) {
            const float *tp = &tmpl[(size_t)k * TS * TS];
            double tmean = 0, tss = 0;
            for (int i = 0; i < TS * TS; i++)
                tmean += tp[i];
            tmean /= TS * TS;
            for (int i = 0; i < TS * TS; i++)
                tss += (tp[i] - tmean) * (tp[i] - tmean);
            int cpu_best = 0;
            for (int q = 0; q < NC; q++) {
                int oy = q / (2 * R + 1), ox = q % (2 * R + 1);
                double imean = 0, iss = 0, cross = 0;
                for (int y = 0; y < TS; y++)
                    for (int x = 0; x < TS; x++)
                        imean += img[f][(size_t)(centre[k].y - R + oy + y) * size + centre[k].x - R + ox + x];
                imean /= TS * TS;
                for (int y = 0; y < TS; y++)
                    for (int x = 0; x < TS; x++) {
                        double p = img[f][(size_t)(centre[k].y - R + oy + y) * size + centre[k].x - R + ox + x] - imean;
                        iss += p * p;
                        cross += p * (tp[y * TS + x] - tmean);
                    }
                want[q] = cross / std::sqrt(iss * tss);
                if (want[q] > want[cpu_best])
                    cpu_best = q;
                double e = std::fabs(scores[(size_t)k * NC + q] - want[q]);
                if (e > maxerr)
                    maxerr = e;
                if (!(e <= tol))
                    pass = false;
            }
            // The position must be the CPU's, except where two offsets'
            // exact scores lie within the tolerance (then either is valid).
            int g = best[k];
            if (g < 0 || g >= NC)
                pass = false;
            else if (g != cpu_best) {
                if (want[g] >= want[cpu_best] - tol)
                    near_ties++;
                else
                    pass = false;
            }
            if (g >= 0 && g < NC) {   // track: the next window's centre
                int ny = centre[k].y - R + g / (2 * R + 1), nx = centre[k].x - R + g % (2 * R + 1);
                ny = ny < R ? R : ny > size - TS - R ? size - TS - R : ny;
                nx = nx < R ? R : nx > size - TS - R ? size - TS - R : nx;
                centre[k] = make_int2(nx, ny);
            }
        }
    }
    // The last frame's drift is known: each template should sit at its
    // frame-0 position minus the drift.
    int on_track = 0;
    for (int k = 0; k < ktmpl; k++)
        on_track += centre[k].x == pos[k].x - dx && centre[k].y == pos[k].y - dy;
    printf("heartwall: %d x %d frames, %d templates of %d x %d, search radius %d, %d launches\n",
           size, size, ktmpl, TS, TS, R, frames - 1);
    printf("%d of %d templates on the true track at the end; max score error %.3g (tolerance %.3g);"
           " %d near ties\n", on_track, ktmpl, maxerr, tol, near_ties);
    CUDA_CHECK(cudaFree(d_img));
    CUDA_CHECK(cudaFree(d_tmpl));
    CUDA_CHECK(cudaFree(d_scores));
    CUDA_CHECK(cudaFree(d_centre));
    CUDA_CHECK(cudaFree(d_best));
    return bench_result(pass, hash);
}
