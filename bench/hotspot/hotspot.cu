// hotspot.cu -- transient temperature of a chip from a compact thermal RC
// model (GPUDet's HOTSP, GpuTejas' hotspot).
//
// Model.  The die is an n x n grid of cells.  Each cell is a node with a heat
// capacity C, joined to its four neighbours by lateral conductances G (heat
// conducted sideways through the silicon) and to the ambient by a vertical
// conductance Gv (through the die, the interface material and the heat sink),
// and it dissipates its share P_i of the chip's power.  Temperatures are kept
// as the rise theta above ambient, so for every cell
//     C dtheta_i/dt = P_i + G sum_nb (theta_nb - theta_i) - Gv theta_i,
// with no conductance across the die's edges (insulated sides).  Explicit
// Euler with step dt turns this into
//     theta_i += a sum_nb (theta_nb - theta_i) + s P_i - b theta_i,
//     a = dt G / C,  b = dt Gv / C,  s = dt / C.
// The physical values (main) are typical of a desktop processor: a 12 mm x
// 12 mm die thinned to 0.3 mm; silicon's conductivity near 85 C (130 W/m/K)
// and volumetric heat capacity (2330 kg/m^3 x 712 J/kg/K); 0.25 K/W from the
// die to the air through the package and heat sink, spread evenly over the
// die; 45 C inside the case; 0.2 W/mm^2 of background power with blocks of
// 0.6 to 1.5 W/mm^2.  dt is a fifth of C / G, so a = 0.2, and every update
// is a convex combination of old temperatures plus a source (stable).
//
// Kernel.  thermal_tiles runs HALO = 4 steps per launch.  A CTA of 32 x 8
// threads holds a 32 x 32 region of cells in shared memory (two buffers,
// alternating by step), each thread owning one column and four rows (rows
// ty, ty + 8, ty + 16, ty + 24) with its cells' face weights and sources in
// registers.  Step k updates only the cells at least k from the region's
// edge (the cells nearer the edge would need neighbours the CTA does not
// have), one barrier per step, and after HALO steps the central 24 x 24
// cells are exact and written out.  Neighbouring CTAs' regions overlap by
// 2 HALO cells; launches alternate between two global buffers.
#include "bench.h"
#include <algorithm>
#include <vector>

#define REG 32                   // region side held in shared memory
#define BY 8                     // threads per CTA column
#define RPT (REG / BY)           // rows per thread
#define HALO 4                   // steps per launch
#define OUT (REG - 2 * HALO)     // output cells per CTA and dimension

__global__ void thermal_tiles(const float *__restrict__ th_in, const float *__restrict__ power,
                              float *__restrict__ th_out, int n, int nsteps, float a, float b,
                              float s)
{
    __shared__ float buf[2][REG][REG];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * OUT - HALO + tx;        // this thread's column in the chip
    int gy0 = blockIdx.y * OUT - HALO + ty;       // its first row
    bool col_in = gx >= 0 && gx < n;
    float w_left = gx > 0 ? a : 0.0f, w_right = gx < n - 1 ? a : 0.0f;
    float w_up[RPT], w_down[RPT], src[RPT];
    bool on_chip[RPT];
#pragma unroll
    for (int m = 0; m < RPT; m++) {
        int r = ty + m * BY, gy = gy0 + m * BY;
        on_chip[m] = col_in && gy >= 0 && gy < n;
        float v = 0.0f;   // off-chip cells hold 0 and are never updated or weighed
        src[m] = 0.0f;
        if (on_chip[m]) {
            v = th_in[(size_t)gy * n + gx];
            src[m] = s * power[(size_t)gy * n + gx];
        }
        buf[0][r][tx] = v;
        buf[1][r][tx] = v;
        w_up[m] = gy > 0 ? a : 0.0f;
        w_down[m] = gy < n - 1 ? a : 0.0f;
    }
    __syncthreads();
    for (int k = 1; k <= nsteps; k++) {
        float(*cur)[REG] = buf[(k - 1) & 1];
        float(*nxt)[REG] = buf[k & 1];
        bool col_ok = tx >= k && tx < REG - k;
#pragma unroll
        for (int m = 0; m < RPT; m++) {
            int r = ty + m * BY;
            if (on_chip[m] && col_ok && r >= k && r < REG - k) {
                float t = cur[r][tx];
                float lateral = (w_up[m] * (cur[r - 1][tx] - t) + w_down[m] * (cur[r + 1][tx] - t)) +
                                (w_left * (cur[r][tx - 1] - t) + w_right * (cur[r][tx + 1] - t));
                nxt[r][tx] = t + lateral + (src[m] - b * t);
            }
        }
        __syncthreads();
    }
    if (tx < HALO || tx >= REG - HALO)
        return;
    float(*fin)[REG] = buf[nsteps & 1];
#pragma unroll
    for (int m = 0; m < RPT; m++) {
        int r = ty + m * BY;
        if (on_chip[m] && r >= HALO && r < REG - HALO)
            th_out[(size_t)(gy0 + m * BY) * n + gx] = fin[r][tx];
    }
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int n = bench_pick(args, 128, 256, 1024);
    int steps = bench_pick(args, 40, 120, 120);
    size_t cells = (size_t)n * n;

    // Physical parameters (SI units) and the cell network they give.
    const double die = 12e-3, thick = 0.3e-3;        // m
    const double k_si = 130.0;                       // W/(m K)
    const double cv_si = 2330.0 * 712.0;             // J/(m^3 K)
    const double r_pkg = 0.25;                       // K/W, die to air
    const double t_amb = 45.0;                       // C
    double dx = die / n, area = dx * dx;
    double cap = cv_si * thick * area;               // J/K per cell
    double g_lat = k_si * thick * dx / dx;           // W/K, cross-section thick x dx over dx
    double g_vert = 1.0 / (thick / (2.0 * k_si * area) + r_pkg * (die * die) / area);
    double dt = 0.2 * cap / g_lat;                   // s
    float a = (float)(dt * g_lat / cap), b = (float)(dt * g_vert / cap), s = (float)(dt / cap);

    // Seeded power map (W per cell) and starting temperature rise (K).
    bench_rng rng(args.seed);
    std::vector<float> dens(cells);                  // W/mm^2
    for (size_t i = 0; i < cells; i++)
        dens[i] = 0.2f * (0.9f + 0.2f * rng.unit());
    for (int blk = 0; blk < 8; blk++) {
        int w = n / 12 + (int)rng.below(n / 8), h = n / 12 + (int)rng.below(n / 8);
        int x0 = (int)rng.below(n - w), y0 = (int)rng.below(n - h);
        float d = 0.6f + 0.9f * rng.unit();
        for (int y = y0; y < y0 + h; y++)
            for (int x = x0; x < x0 + w; x++)
                dens[(size_t)y * n + x] = d * (0.95f + 0.1f * rng.unit());
    }
    std::vector<float> power(cells), theta0(cells);
    for (size_t i = 0; i < cells; i++)
        power[i] = (float)(dens[i] * 1e6 * area);
    double ph = 2.0 * M_PI * rng.unitd(), pv = 2.0 * M_PI * rng.unitd();
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            theta0[(size_t)y * n + x] =
                (float)(14.0 + 4.0 * std::sin(2.0 * M_PI * x / n + ph) * std::cos(M_PI * y / n + pv) +
                        3.0 * (rng.unitd() - 0.5));

    float *d_th[2], *d_p;
    CUDA_CHECK(cudaMalloc(&d_th[0], cells * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_th[1], cells * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_p, cells * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_th[0], theta0.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_p, power.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(REG, BY), grid((n + OUT - 1) / OUT, (n + OUT - 1) / OUT);
    int cur = 0, launches = 0;
    for (int done = 0; done < steps; done += HALO) {
        int k = steps - done < HALO ? steps - done : HALO;
        thermal_tiles<<<grid, block>>>(d_th[cur], d_p, d_th[cur ^ 1], n, k, a, b, s);
        CUDA_CHECK(cudaGetLastError());
        cur ^= 1;
        launches++;
    }
    std::vector<float> out(cells);
    CUDA_CHECK(cudaMemcpy(out.data(), d_th[cur], cells * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_th[0]));
    CUDA_CHECK(cudaFree(d_th[1]));
    CUDA_CHECK(cudaFree(d_p));

    // CPU reference, independent of the kernel: double precision, physical
    // units (watts through each face, then the cells' energy balance), the
    // lateral flows accumulated face by face.
    std::vector<double> th(theta0.begin(), theta0.end()), net(cells);
    for (int it = 0; it < steps; it++) {
        for (size_t i = 0; i < cells; i++)
            net[i] = power[i] - g_vert * th[i];
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                size_t i = (size_t)y * n + x;
                if (x + 1 < n) {
                    double q = g_lat * (th[i] - th[i + 1]);   // W flowing right
                    net[i] -= q;
                    net[i + 1] += q;
                }
                if (y + 1 < n) {
                    double q = g_lat * (th[i] - th[i + n]);   // W flowing down
                    net[i] -= q;
                    net[i + n] += q;
                }
            }
        for (size_t i = 0; i < cells; i++)
            th[i] += dt / cap * net[i];
    }
    // The total: lateral flows cancel, so sum(theta) follows the scalar
    // recurrence S <- S + s sum(P) - b S exactly (in exact arithmetic), with
    // the kernel's own float coefficients.
    double sum_p = 0, sum_t = 0, sum_out = 0, tmax = 0;
    for (size_t i = 0; i < cells; i++) {
        sum_p += power[i];
        sum_t += theta0[i];
        sum_out += out[i];
        tmax = std::max(tmax, (double)std::max(theta0[i], out[i]));
    }
    for (int it = 0; it < steps; it++)
        sum_t += (double)s * sum_p - (double)b * sum_t;

    // Check 1, every cell against the CPU.  Each step the GPU rounds the ~12
    // float operations of a cell on values of at most tmax (a few ulp of
    // tmax), and the update is a convex combination, so errors add up but do
    // not grow: tolerance steps * 2^-22 * tmax (4 ulp per step).
    // Check 2, the heat balance: sum(theta) against S.  Rounding to nearest
    // leaves unbiased errors of about an ulp per cell and step, independent
    // from cell to cell, so their sum grows like a random walk: tolerance six
    // times its spread, 6 sqrt(cells * steps) * 2^-22 * tmax.  (The worst
    // case, all errors of one sign, would be cells times the bound of check 1.)
    double tol = steps * std::ldexp(1.0, -22) * tmax, maxdiff = 0;
    bool pass = true;
    for (size_t i = 0; i < cells; i++) {
        double d = std::fabs(out[i] - th[i]);
        maxdiff = std::max(maxdiff, d);
        if (!(d <= tol))
            pass = false;
    }
    double imbalance = std::fabs(sum_out - sum_t);
    double bal_tol = 6.0 * std::sqrt((double)cells * steps) * std::ldexp(1.0, -22) * tmax;
    if (!(imbalance <= bal_tol))
        pass = false;
    printf("hotspot: %d x %d cells, %d steps of %.3g s, %d launches of %d CTAs (%d steps each)\n", n,
           n, steps, dt, launches, grid.x * grid.y, HALO);
    printf("hottest %.2f C; max |gpu - cpu| = %.3g K (tolerance %.3g); heat balance off by "
           "%.3g K (tolerance %.3g)\n",
           t_amb + *std::max_element(out.begin(), out.end()), maxdiff, tol, imbalance, bal_tol);
    return bench_result(pass, bench_hash(out.data(), cells * sizeof(float)));
}
