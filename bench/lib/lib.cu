// lib.cu -- Monte Carlo under a two-factor LIBOR market model (GPUDet's LIB):
// a book of European swaptions plus a cap and a floor, priced under the
// terminal measure.
//
// Model.  NF semi-annual forward rates F_k, each for the period [T_k, T_k+1],
// T_k = k TAU.  Rate k is log-normal with a volatility that depends only on
// the time left to its fixing, sig(T_k - t) (a humped curve), and it loads on
// two independent Brownian factors with the unit vector e_k = (cos th_k,
// sin th_k), so the rates' correlation is cos(th_j - th_k).  The numeraire is
// the bond maturing at T_NF; under its measure the ratio
//     D_j = prod_{i=j}^{NF-1} (1 + TAU F_i) = P(t, T_j) / P(t, T_NF)
// of every bond to the numeraire is a martingale, which fixes the drift
//     mu_k = -sig_k e_k . sum_{j>k} e_j sig_j TAU F_j / (1 + TAU F_j).
// Time advances in NSTEP steps of H = TAU / 2 with the log-Euler scheme
//     F_k <- F_k exp((mu_k - sig_k^2 / 2) H + sig_k sqrt(H) e_k . Z),
// Z two standard normals per path and step (made on the host from the seed,
// stored step-major so a warp's loads coalesce).  A rate stops moving at its
// fixing.  Each thread runs one path; its NF rates and NF + 1 deflators are
// per-thread arrays (local memory), and the sum over j > k is carried from
// the last rate down to the first live one, so a step costs one division and
// one exp per live rate.
//
// Pricing.  A payoff X paid at T_e is worth P(0, T_NF) E[X D_e(T_e)] today.
// At every period end T_e the path computes D_j for j >= e and adds, for
// each instrument expiring then, its deflated payoff:
//     swaption on a swap from T_e to T_m at fixed rate K:
//         max(0, w (D_e - D_m - K TAU sum_{j=e+1}^{m} D_j)), w = +1 payer, -1 receiver;
//     caplet/floorlet fixing at T_e: TAU max(0, w (F_e - K)) D_{e+1}.
// The kernel writes each path's deflated book value; the host averages them.
#include "bench.h"
#include <algorithm>
#include <vector>

#define NF 40              // forward rates (20 years of half-year periods)
#define TAU 0.5f           // length of a period, years
#define NSTEP 40           // time steps: 10 years
#define NSWPN 8            // swaptions in the book
#define CAP_FIRST 2        // caplets and floorlets fix at T_2 .. T_19
#define CAP_LAST 19
#define THREADS 128

static const double tau_d = 0.5, h_d = 0.25;

struct swaption {
    int expiry, end;       // the swap runs from T_expiry to T_end
    float strike;
    float side;            // +1 payer, -1 receiver
    float notional;        // negative: sold
};

// The book (fixed).  Cap at 6.0%, notional 100; a sold floor at 3.5%,
// notional 50; the swaptions below.
static const swaption book[NSWPN] = {
    {4, 14, 0.050f, +1.0f, 100.0f},   // 2y into 5y payer
    {4, 24, 0.045f, -1.0f, 60.0f},    // 2y into 10y receiver
    {6, 20, 0.052f, +1.0f, 80.0f},    // 3y into 7y payer
    {10, 20, 0.055f, +1.0f, 100.0f},  // 5y into 5y payer
    {10, 30, 0.048f, -1.0f, 70.0f},   // 5y into 10y receiver
    {14, 20, 0.058f, +1.0f, -40.0f},  // 7y into 3y payer, sold
    {20, 40, 0.060f, +1.0f, 100.0f},  // 10y into 10y payer
    {20, 30, 0.050f, -1.0f, 50.0f},   // 10y into 5y receiver
};
static const double cap_k = 0.060, cap_n = 100.0, floor_k = 0.035, floor_n = -50.0;

// The model's parameters as functions of time (double; the GPU gets float tables).
static double model_vol(double x)     // x = time to fixing, years
{
    return (0.03 + 0.10 * x) * std::exp(-0.55 * x) + 0.12;
}
static double model_angle(int k)      // factor angle of rate k
{
    return 1.4 * (1.0 - std::exp(-(k * tau_d) / 6.0));
}
static double model_fwd0(int k)       // today's forward curve, upward sloping
{
    return 0.028 + 0.032 * (1.0 - std::exp(-(k * tau_d) / 5.0));
}

__constant__ float c_vol[2 * NF];     // c_vol[L] = sig(L H): lag in steps
__constant__ float c_ld[NF][2];       // e_k
__constant__ float c_f0[NF];
__constant__ swaption c_book[NSWPN];
__constant__ float c_cap[4];          // cap strike, notional, floor strike, notional

// The deflated value of what expires at T_e on this path; fills dfl[e..NF].
__device__ static float lmm_settle(const float *fwd, float *dfl, int e)
{
    dfl[NF] = 1.0f;
    for (int j = NF - 1; j >= e; j--)
        dfl[j] = dfl[j + 1] * (1.0f + TAU * fwd[j]);
    float val = 0.0f;
    for (int o = 0; o < NSWPN; o++) {
        if (c_book[o].expiry != e)
            continue;
        int m = c_book[o].end;
        float ann = 0.0f;
        for (int j = e + 1; j <= m; j++)
            ann += dfl[j];
        float swap = dfl[e] - dfl[m] - c_book[o].strike * TAU * ann;
        val += c_book[o].notional * fmaxf(0.0f, c_book[o].side * swap);
    }
    if (e >= CAP_FIRST && e <= CAP_LAST) {
        float f = fwd[e];
        val += TAU * dfl[e + 1] *
               (c_cap[1] * fmaxf(0.0f, f - c_cap[0]) + c_cap[3] * fmaxf(0.0f, c_cap[2] - f));
    }
    return val;
}

__global__ void lmm_paths(const float *__restrict__ z, float *__restrict__ out, int npath)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npath)
        return;
    float fwd[NF], dfl[NF + 1];
    for (int k = 0; k < NF; k++)
        fwd[k] = c_f0[k];
    const float h = 0.5f * TAU, sqrt_h = 0.5f;   // H and sqrt(H)
    float book_value = 0.0f;
    for (int s = 0; s < NSTEP; s++) {
        float z0 = z[(size_t)(2 * s) * npath + p];
        float z1 = z[(size_t)(2 * s + 1) * npath + p];
        // Rates fixing after this step's end: T_k >= (s + 1) H.
        int live = (s + 2) / 2;
        float sum0 = 0.0f, sum1 = 0.0f;   // sum over j > k of e_j sig_j TAU F_j / (1 + TAU F_j)
#pragma unroll 1   // keep fwd[] an indexed array in local memory, as the workload intends
        for (int k = NF - 1; k >= live; k--) {
            float sig = c_vol[2 * k - s];
            float e0 = c_ld[k][0], e1 = c_ld[k][1];
            float f = fwd[k];
            float mu = -sig * (e0 * sum0 + e1 * sum1);
            float shock = sig * sqrt_h * (e0 * z0 + e1 * z1);
            fwd[k] = f * expf((mu - 0.5f * sig * sig) * h + shock);
            float g = sig * TAU * f / (1.0f + TAU * f);   // with the step's starting F_k
            sum0 += e0 * g;
            sum1 += e1 * g;
        }
        if (s & 1)   // the step ended on a period boundary T_e
            book_value += lmm_settle(fwd, dfl, (s + 1) / 2);
    }
    out[p] = book_value;
}

// CPU reference, written independently of the kernel: double precision, log
// rates, the drift summed directly over the correlation matrix, and the
// payoffs from bond prices P(T_e, T_j) and the numeraire in the textbook
// form.  Also returns 1 / P(T_E, T_NF) at the last expiry T_E (E = NSTEP / 2)
// for the martingale check; sign = -1 runs the antithetic path (-Z).
static double cpu_path(const float *z, int npath, int p, double sign,
                       const std::vector<double> &corr, double *inv_num)
{
    std::vector<double> lf(NF), sig(NF), f(NF), bond(NF + 1);
    for (int k = 0; k < NF; k++)
        lf[k] = std::log(model_fwd0(k));
    double value = 0.0;
    for (int s = 0; s < NSTEP; s++) {
        double t = s * h_d;
        double w0 = sign * z[(size_t)(2 * s) * npath + p];
        double w1 = sign * z[(size_t)(2 * s + 1) * npath + p];
        for (int k = 0; k < NF; k++) {
            f[k] = std::exp(lf[k]);
            sig[k] = model_vol(k * tau_d - t);
        }
        for (int k = 0; k < NF; k++) {
            if (k * tau_d < t + h_d - 1e-12)
                continue;   // fixed before the end of this step
            double drift = 0.0;
            for (int j = k + 1; j < NF; j++)
                drift -= sig[k] * sig[j] * corr[k * NF + j] * tau_d * f[j] / (1.0 + tau_d * f[j]);
            double th = model_angle(k);
            lf[k] += (drift - 0.5 * sig[k] * sig[k]) * h_d +
                     sig[k] * std::sqrt(h_d) * (std::cos(th) * w0 + std::sin(th) * w1);
        }
        if (s % 2 == 0)
            continue;
        int e = (s + 1) / 2;
        // Bonds P(T_e, T_j), j >= e, and the numeraire P(T_e, T_NF).
        bond[e] = 1.0;
        for (int j = e; j < NF; j++)
            bond[j + 1] = bond[j] / (1.0 + tau_d * std::exp(lf[j]));
        double numeraire = bond[NF];
        double pay = 0.0;
        for (int o = 0; o < NSWPN; o++) {
            if (book[o].expiry != e)
                continue;
            double annuity = 0.0;
            for (int j = e + 1; j <= book[o].end; j++)
                annuity += tau_d * bond[j];
            double swap = 1.0 - bond[book[o].end] - (double)book[o].strike * annuity;
            pay += book[o].notional * std::max(0.0, book[o].side * swap);
        }
        if (e >= CAP_FIRST && e <= CAP_LAST) {
            double fe = std::exp(lf[e]);
            pay += tau_d * bond[e + 1] *
                   (cap_n * std::max(0.0, fe - cap_k) + floor_n * std::max(0.0, floor_k - fe));
        }
        value += pay / numeraire;
        if (e == NSTEP / 2)
            *inv_num = 1.0 / numeraire;
    }
    return value;
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int npath = bench_pick(args, 1024, 8192, 65536);

    float vol[2 * NF], ld[NF][2], f0[NF], capv[4];
    for (int l = 0; l < 2 * NF; l++)
        vol[l] = (float)model_vol(l * h_d);
    for (int k = 0; k < NF; k++) {
        ld[k][0] = (float)std::cos(model_angle(k));
        ld[k][1] = (float)std::sin(model_angle(k));
        f0[k] = (float)model_fwd0(k);
    }
    capv[0] = (float)cap_k;
    capv[1] = (float)cap_n;
    capv[2] = (float)floor_k;
    capv[3] = (float)floor_n;

    // Seeded standard normals (Marsaglia's polar method, in double), step-major.
    bench_rng rng(args.seed);
    std::vector<float> z((size_t)2 * NSTEP * npath);
    for (size_t i = 0; i < z.size(); i += 2) {
        double a, b, r;
        do {
            a = 2.0 * rng.unitd() - 1.0;
            b = 2.0 * rng.unitd() - 1.0;
            r = a * a + b * b;
        } while (r >= 1.0 || r == 0.0);
        double m = std::sqrt(-2.0 * std::log(r) / r);
        z[i] = (float)(a * m);
        z[i + 1] = (float)(b * m);
    }

    float *d_z, *d_out;
    CUDA_CHECK(cudaMalloc(&d_z, z.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, npath * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_z, z.data(), z.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpyToSymbol(c_vol, vol, sizeof vol));
    CUDA_CHECK(cudaMemcpyToSymbol(c_ld, ld, sizeof ld));
    CUDA_CHECK(cudaMemcpyToSymbol(c_f0, f0, sizeof f0));
    CUDA_CHECK(cudaMemcpyToSymbol(c_book, book, sizeof book));
    CUDA_CHECK(cudaMemcpyToSymbol(c_cap, capv, sizeof capv));
    lmm_paths<<<(npath + THREADS - 1) / THREADS, THREADS>>>(d_z, d_out, npath);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> out(npath);
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, npath * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_z));
    CUDA_CHECK(cudaFree(d_out));

    std::vector<double> corr(NF * NF);
    for (int j = 0; j < NF; j++)
        for (int k = 0; k < NF; k++)
            corr[j * NF + k] = std::cos(model_angle(j) - model_angle(k));
    double p0_nf = 1.0;   // P(0, T_NF)
    for (int k = 0; k < NF; k++)
        p0_nf /= 1.0 + tau_d * model_fwd0(k);

    // Check 1, every path against the CPU: |gpu - cpu| <= 2e-3 (path values
    // run from about -1 to 2000).  The GPU works in float: each rate takes 40
    // multiplicative steps, each through an expf (CUDA's is within 2 ulp) and a
    // few roundings, so the deflators D_j, products of up to 40 factors
    // 1 + TAU F, carry relative errors of about 1e-6.  The deflated payoffs are
    // differences of deflators of size 2 to 4 times notionals of up to 100, so
    // each swaption's value is off by up to a few 1e-4 absolute, whatever the
    // path's value; observed at most 5.4e-4 over the 65536 paths of the large
    // size.  A bug in the model (a drift term, a step, an instrument) moves
    // path values by 1e-2 or more.
    double maxdiff = 0, sum_gpu = 0, sum_cpu = 0, dsum = 0, dsq = 0;
    bool pass = true;
    for (int p = 0; p < npath; p++) {
        double inv_num = 0, inv_anti = 0;
        double want = cpu_path(z.data(), npath, p, 1.0, corr, &inv_num);
        cpu_path(z.data(), npath, p, -1.0, corr, &inv_anti);
        inv_num = 0.5 * (inv_num + inv_anti);
        double d = std::fabs(out[p] - want);
        maxdiff = std::max(maxdiff, d);
        if (!(d <= 2e-3))
            pass = false;
        sum_gpu += out[p];
        sum_cpu += want;
        dsum += inv_num;
        dsq += inv_num * inv_num;
    }
    // Check 2, the model itself (the CPU's paths, which check 1 ties to the
    // GPU's): 1 / P(T_E, T_NF) = D_E(T_E) is a martingale under the terminal
    // measure, so its mean must be D_E(0) = P(0, T_E) / P(0, T_NF).  Each path
    // is averaged with its antithetic twin (-Z), which cancels most of the
    // variance.  Allowed: 5 standard errors plus 1e-3 relative for the
    // log-Euler scheme's bias (measured -2.6e-4 with 4e5 paths, the same with
    // 4x finer steps).  Leaving the drift out moves the mean by about 3%, 7
    // standard errors at the small size.
    double expect = 1.0;
    for (int k = NSTEP / 2; k < NF; k++)
        expect *= 1.0 + tau_d * model_fwd0(k);
    double mean = dsum / npath, se = std::sqrt((dsq / npath - mean * mean) / npath);
    bool mart = std::fabs(mean - expect) <= 5.0 * se + 1e-3 * expect;
    printf("lib: %d paths, %d rates, %d steps, %d swaptions + cap + floor (1 launch)\n", npath,
           NF, NSTEP, NSWPN);
    printf("book value %.5f (cpu %.5f), max per-path |gpu - cpu| = %.3g (tolerance 2e-3)\n",
           p0_nf * sum_gpu / npath, p0_nf * sum_cpu / npath, maxdiff);
    printf("martingale: E[1/P(T_%d, T_%d)] = %.5f +- %.5f, expected %.5f%s\n", NSTEP / 2, NF,
           mean, se, expect, mart ? "" : " (FAILED)");
    pass = pass && mart;
    return bench_result(pass, bench_hash(out.data(), npath * sizeof(float)));
}
