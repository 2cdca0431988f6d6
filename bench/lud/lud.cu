// lud.cu -- blocked LU factorisation without pivoting (GpuTejas' lud
// workload; our own blocked formulation).
//
// A seeded, strictly diagonally dominant n x n matrix (so no pivoting is
// needed) is overwritten by a unit lower triangle L and an upper triangle U
// with A = L U.  The matrix is cut into TB x TB tiles; block step k runs
//   lu_pivot_tile   1 CTA of TB x TB threads: factors tile (k, k) in shared
//                   memory by right-looking elimination (two __syncthreads
//                   per pivot);
//   lu_border       2 m CTAs of TB x TB threads (m = tiles left after k):
//                   CTA b < m turns tile (k, k+1+b) into U's (forward
//                   substitution with the unit L of the pivot tile), CTA
//                   m + b turns tile (k+1+b, k) into L's (solving against
//                   the pivot tile's U column by column); one __syncthreads
//                   per pivot;
//   lu_trailing     one CTA of 16 x 8 threads per UB x UB block of the
//                   trailing matrix: stages the TB columns of L and TB rows
//                   of U it needs in shared memory, then each thread
//                   accumulates a 4 x 2 register block of L U and subtracts it.
// The grid shrinks with k: barrier-heavy kernels, few CTAs at the end.
// The eliminations are written as explicit fmaf: nvcc would otherwise emit
// separate multiplies and subtracts that ptxas may fuse on a real GPU but a
// PTX-level simulator executes as written, so outputs could not be compared
// bit for bit between the two.
#include "bench.h"
#include <algorithm>
#include <vector>

#define TB 16        // factorisation tile side
#define UB 32        // trailing-update block side (a 2 x 2 group of tiles)
#define UTX 16       // trailing-update threads along x: columns tx, tx + 16
#define UTY 8        // along y: rows ty, ty + 8, ty + 16, ty + 24
#define RPT (UB / UTY)   // rows per trailing-update thread
#define CPT (UB / UTX)   // columns per trailing-update thread

__global__ void lu_pivot_tile(float *a, int n, int k)
{
    __shared__ float t[TB][TB + 1];
    int c = threadIdx.x, r = threadIdx.y, base = k * TB;
    float *g = a + (size_t)(base + r) * n + base + c;
    t[r][c] = *g;
    for (int p = 0; p < TB - 1; p++) {
        __syncthreads();   // pivot row p and column p are up to date
        if (c == p && r > p)
            t[r][p] = t[r][p] / t[p][p];
        __syncthreads();   // multipliers of column p are ready
        if (c > p && r > p)
            t[r][c] = fmaf(-t[r][p], t[p][c], t[r][c]);
    }
    __syncthreads();
    *g = t[r][c];
}

__global__ void lu_border(float *a, int n, int k)
{
    __shared__ float piv[TB][TB + 1], x[TB][TB + 1];
    int c = threadIdx.x, r = threadIdx.y, base = k * TB;
    int m = gridDim.x / 2, b = blockIdx.x;
    bool upper = b < m;   // a tile of U (row of tiles k) or of L (column k)
    int off = base + TB * (1 + (upper ? b : b - m));
    float *g = upper ? a + (size_t)(base + r) * n + off + c : a + (size_t)(off + r) * n + base + c;
    piv[r][c] = a[(size_t)(base + r) * n + base + c];
    x[r][c] = *g;
    __syncthreads();
    if (upper) {
        // Row p of x is final once rows 0..p-1 have been taken out of it.
        for (int p = 0; p < TB - 1; p++) {
            if (r > p)
                x[r][c] = fmaf(-piv[r][p], x[p][c], x[r][c]);
            __syncthreads();
        }
    } else {
        // Column p of x is final once divided by U's pivot; each thread
        // divides and then updates only its own entry, so one barrier per
        // pivot separates the divide from the readers.
        for (int p = 0; p < TB; p++) {
            if (c == p)
                x[r][p] = x[r][p] / piv[p][p];
            __syncthreads();
            if (c > p)
                x[r][c] = fmaf(-x[r][p], piv[p][c], x[r][c]);
        }
    }
    *g = x[r][c];
}

__global__ void lu_trailing(float *a, int n, int k)
{
    __shared__ float lcol[UB][TB + 1];   // rows of this block, pivot columns
    __shared__ float urow[TB][UB];       // pivot rows, columns of this block
    int base = k * TB, first = base + TB;
    int row0 = first + blockIdx.y * UB, col0 = first + blockIdx.x * UB;
    int tx = threadIdx.x, ty = threadIdx.y, id = ty * UTX + tx;
    for (int e = id; e < UB * TB; e += UTX * UTY) {
        int lr = e / TB, lc = e % TB, ur = e / UB, uc = e % UB;
        lcol[lr][lc] = row0 + lr < n ? a[(size_t)(row0 + lr) * n + base + lc] : 0.0f;
        urow[ur][uc] = col0 + uc < n ? a[(size_t)(base + ur) * n + col0 + uc] : 0.0f;
    }
    __syncthreads();
    float acc[RPT][CPT];
    for (int i = 0; i < RPT; i++)
        for (int j = 0; j < CPT; j++)
            acc[i][j] = 0.0f;
    for (int p = 0; p < TB; p++) {
        float uv[CPT];
        for (int j = 0; j < CPT; j++)
            uv[j] = urow[p][tx + j * UTX];
        for (int i = 0; i < RPT; i++) {
            float lv = lcol[ty + i * UTY][p];
            for (int j = 0; j < CPT; j++)
                acc[i][j] = fmaf(lv, uv[j], acc[i][j]);
        }
    }
    for (int i = 0; i < RPT; i++) {
        int row = row0 + ty + i * UTY;
        for (int j = 0; j < CPT; j++) {
            int col = col0 + tx + j * UTX;
            if (row < n && col < n)
                a[(size_t)row * n + col] -= acc[i][j];
        }
    }
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int n = bench_pick(args, 256, 576, 1280);
    int tiles = n / TB;

    // Seeded input: off-diagonal entries uniform in [-1, 1), each diagonal
    // entry its row's absolute off-diagonal sum plus 1..2 (strict diagonal
    // dominance, so elimination without pivoting is stable).
    bench_rng rng(args.seed);
    std::vector<float> a0((size_t)n * n);
    for (int i = 0; i < n; i++) {
        double off = 0;
        for (int j = 0; j < n; j++) {
            float v = 2.0f * rng.unit() - 1.0f;
            a0[(size_t)i * n + j] = v;
            off += j != i ? std::fabs(v) : 0.0;
        }
        a0[(size_t)i * n + i] = (float)(off + 1.0 + rng.unitd());
    }

    float *d_a;
    size_t bytes = (size_t)n * n * sizeof(float);
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMemcpy(d_a, a0.data(), bytes, cudaMemcpyHostToDevice));
    int launches = 0;
    for (int k = 0; k < tiles; k++) {
        lu_pivot_tile<<<1, dim3(TB, TB)>>>(d_a, n, k);
        CUDA_CHECK(cudaGetLastError());
        launches++;
        int m = tiles - k - 1;
        if (m == 0)
            break;
        lu_border<<<2 * m, dim3(TB, TB)>>>(d_a, n, k);
        CUDA_CHECK(cudaGetLastError());
        int blocks = (m * TB + UB - 1) / UB;
        lu_trailing<<<dim3(blocks, blocks), dim3(UTX, UTY)>>>(d_a, n, k);
        CUDA_CHECK(cudaGetLastError());
        launches += 2;
    }
    std::vector<float> lu((size_t)n * n);
    CUDA_CHECK(cudaMemcpy(lu.data(), d_a, bytes, cudaMemcpyDeviceToHost));
    printf("lud: %d x %d matrix, %d x %d tiles, %d block steps, %d launches\n", n, n, TB, TB,
           tiles, launches);

    // Check L U = A entry by entry (in double) against a backward error
    // bound that counts each entry's own roundings, not n's: tight enough
    // that one product dropped from a large diagonal entry fails.
    //
    // Entry (i, j): m = min(i, j), T = m / TB, r = m % TB.  Its value is
    // s = a_ij - sum_{p<m} l_ip u_pj, and u_ij = s (i <= j) or l_ij =
    // s / u_jj (i > j), computed as follows: at each block step K < T one
    // lu_trailing subtraction a -= acc_K, acc_K being the TB products of
    // pivots TB K ... TB K + TB - 1 summed from 0; at step T, in
    // lu_pivot_tile or lu_border, one a = fma(-l_ip, u_pj, a) per pivot
    // p = TB T ... m - 1, in p order; then the division of an L entry.
    // Launches and barriers fix this order; only the order inside acc_K is
    // left to the compiler.  Each rounding multiplies the subtree it closes
    // by (1 + d), |d| <= u = 2^-24, so s = a_ij P_a - sum_p l_ip u_pj P_p,
    // with P the product of the (1 + d) on that leaf's path to the result.
    // Dividing by P_a, the factors that a product's path shares with a_ij's
    // (those from the operation that joins them on) cancel exactly:
    //   a_ij - (L U)_ij = t_ij (1/P_a' - 1) + sum_{p<m} l_ip u_pj (Q_p - 1),
    // t_ij = u_ij (l_ii = 1) or l_ij u_jj (P_a' = P_a (1 + d_div)), Q_p the
    // ratio of the unshared factors.  A product of k factors (1 + d)^(+-1)
    // is 1 + theta, |theta| <= gamma_k = k u / (1 - k u) (Higham, Accuracy
    // and Stability, Lemma 3.1), where k counts roundings:
    //   t_ij: a_ij's path has T subtractions and r fmas, kt = T + r, plus 1
    //         for an L entry's division;
    //   p in acc_K (K < T): at most TB roundings in acc_K, in any summation
    //         order, fused or not (its multiply or the fma that takes it
    //         in, and at most TB - 1 additions; adding to the initial 0 is
    //         exact), and the K of a_ij's path before a -= acc_K joins
    //         them: K + TB <= T + TB - 1;
    //   p at step T, the s-th fma (s < r): the T + s of a_ij's path before
    //         it, and the product's own multiply if not fused: <= T + r.
    // So |A - L U|_ij <= gamma_kt |t_ij| + gamma_kp sum_{p<m} |l_ip u_pj|,
    // kp = T + TB - 1 (T > 0) or r (T = 0), for any fma contraction and any
    // order the kernels allow (no overflow or underflow comes near).  The
    // diagonal entries, about n / 2, dominate their rows: their bound is
    // about (T + r) u n / 2, n / (T + r) times tighter than gamma_n |L||U|,
    // so a lost product (about 1 / n) shows there too.  An entry with one
    // rounding (L's first column: one division) can come within a hair of
    // its bound; that is the bound being exact, not a near miss.  The
    // double sums (float products are exact in double) err by at most
    // (n + 2) 2^-53 of the magnitudes; `slack` allows twice that.
    const double u = 1.0 / 16777216.0;
    auto gamma = [u](int k) { return k * u / (1.0 - k * u); };
    double worst = 0;
    bool pass = true;
    std::vector<double> sum(n), own(n), prod(n);
    for (int i = 0; i < n; i++) {
        std::fill(sum.begin(), sum.end(), 0.0);
        std::fill(own.begin(), own.end(), 0.0);
        std::fill(prod.begin(), prod.end(), 0.0);
        // (L U)[i][j] = sum over p <= min(i, j) of L[i][p] U[p][j], L[i][i]
        // = 1; the term p = min(i, j) is t_ij (own), the others products.
        for (int p = 0; p <= i; p++) {
            double l = p == i ? 1.0 : (double)lu[(size_t)i * n + p];
            for (int j = p; j < n; j++) {
                double t = l * lu[(size_t)p * n + j];
                sum[j] += t;
                if (p == i || j == p)
                    own[j] += std::fabs(t);
                else
                    prod[j] += std::fabs(t);
            }
        }
        for (int j = 0; j < n; j++) {
            int m = std::min(i, j), T = m / TB, r = m % TB;
            int kt = T + r + (i > j), kp = T > 0 ? T + TB - 1 : r;
            double a = a0[(size_t)i * n + j];
            double slack = 2 * (n + 2) * std::ldexp(1.0, -53) * (own[j] + prod[j] + std::fabs(a));
            double err = std::fabs(sum[j] - a);
            double tol = gamma(kt) * own[j] + gamma(kp) * prod[j] + slack;
            if (tol > 0)
                worst = std::max(worst, err / tol);
            if (!(err <= tol))
                pass = false;
        }
    }
    printf("largest |LU - A| is %.3g of its entry's bound\n", worst);
    CUDA_CHECK(cudaFree(d_a));
    return bench_result(pass, bench_hash(lu.data(), bytes));
}
