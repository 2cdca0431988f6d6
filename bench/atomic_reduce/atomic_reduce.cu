// atomic_reduce.cu -- the canonical nondeterminism demonstrator: float
// atomicAdd reductions of seeded floats into global accumulators.
//
// ORDER-SENSITIVE (intentionally).  The inputs are positive with widely
// varying magnitudes (2^-16 .. 2^17), so the rounded float sum depends on the
// order in which the atomics reach memory (a small term added to a large
// partial sum loses some or all of its bits); on a real GPU (or on lockstep's
// timing model with a nondeterminism seed) that order, and with it the result
// bits, can change from run to run.
//
// The input is R rounds of ROUND = 2^18 elements (R = 4, 32, 256 for small,
// medium, large).  Each kernel reduces every round into fresh accumulators of
// its own, so the number of terms per accumulator, and with it the error
// bound below, is the same at every size; the sizes grow by rounds.
//
// The check has two parts.
//  - Exact: every float accumulator has an integer companion.  Each x is
//    (1 + k 2^-23) 2^e with e >= -16, so x * 2^39 is an integer below 2^56;
//    the kernels add that fixed-point image, as a 64-bit integer, into the
//    companion with an integer atomicAdd (after the same warp reduction in
//    reduce_warp).  Integer addition modulo 2^64 is associative and
//    commutative, so the companion does not depend on the order, and the
//    CPU's sum of the images modulo 2^64 must equal it bit for bit.  A
//    dropped, duplicated or wrong element changes it (an image is nonzero and
//    below 2^56), at every size.
//  - Float: if every term of a sum passes through at most d rounded
//    additions, then |sum_float - sum_exact| <= gamma_d * sum|x_i| whatever
//    the order or tree, with gamma_d = d u / (1 - d u) and u = 2^-24 (round
//    to nearest; Higham, Accuracy and Stability of Numerical Algorithms,
//    section 4.2).  This is the tightest bound that holds for every order.
//    K atomic adds into an accumulator that starts at 0.0f give d = K - 1;
//    reduce_warp's 5-level shuffle tree followed by K/32 atomic adds gives
//    d = K/32 + 4.  Per accumulator: reduce_one K = 2^18, gamma = 1.6%;
//    reduce_few K = 2^16, 0.39%; reduce_warp d = 8196, 0.049%.  The double
//    reference adds at most K * 2^-53 * sum|x_i| of its own.  As all terms
//    are positive, sum|x_i| is the sum itself, so each bound is that fraction
//    of the result.  It catches an accumulator left at 0, warp sums that are
//    never added, or 1/16 of the float adds dropped (6% of the sum) while the
//    companions stay right.  (ROUND is 2^18 rather than 2^20 because with
//    2^20 terms gamma is 6.7% and a dropped 1/16 would pass.)  It cannot see
//    a float error below the bound: a single dropped or duplicated float add
//    (one term is under 1e-4 of a round's sum of about 1.6e9), or anything
//    up to about 1.5% of reduce_one's sum; the companions catch such errors
//    only where they touch the integer path as well.
// The program prints the worst error as a fraction of its bound per kernel
// (at most 0.014 on lockstep at small and medium).
// note= says, per kernel, whether the GPU's float bits equal the CPU's
// sequential float sums in thread order for every round (seq-exact) or not
// (seq-differ).  The hash is over the float accumulators' bits (what
// determinism experiments compare) and the integer companions.
//
// Kernels (one launch each; an element's round is its index / ROUND):
//   reduce_one   one float and one integer atomicAdd per thread into its
//                round's single accumulator
//   reduce_few   the same into its round's acc[i % NFEW] (NFEW accumulators)
//   reduce_warp  a warp shuffle reduction, then one pair of atomicAdds per warp
#include <cuda_runtime.h>

#include <vector>

#include "bench.h"

#define NFEW 4
#define NACC (NFEW + 2) // accumulators per round: one, NFEW few, warp
#define ROUND_LOG 18
#define ROUND (1 << ROUND_LOG) // elements per round: a multiple of BLOCK
#define BLOCK 256
#define FIX_SCALE 549755813888.0f // 2^39: the inputs' smallest ulp is 2^-39

typedef unsigned long long u64;

// The exact fixed-point image of an input, x * 2^39, as a 64-bit integer
// (the product and the conversion are exact).
__host__ __device__ static inline u64 fix_image(float x)
{
    return (u64)(long long)(x * FIX_SCALE);
}

// acc and fix point at the kernel's first accumulator; round r's is at r * NACC.
__global__ void reduce_one(const float *x, int n, float *acc, u64 *fix)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        int a = (i >> ROUND_LOG) * NACC;
        atomicAdd(&acc[a], v);
        atomicAdd(&fix[a], fix_image(v));
    }
}

__global__ void reduce_few(const float *x, int n, float *acc, u64 *fix)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        int a = (i >> ROUND_LOG) * NACC + i % NFEW;
        atomicAdd(&acc[a], v);
        atomicAdd(&fix[a], fix_image(v));
    }
}

// Every lane takes part in the shuffles (a tail would read 0), then lane 0
// adds the warp's sums; a warp never straddles two rounds.
__global__ void reduce_warp(const float *x, int n, float *acc, u64 *fix)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    u64 f = fix_image(v);
    for (int off = 16; off > 0; off >>= 1) {
        v += __shfl_down_sync(0xffffffffu, v, off);
        f += __shfl_down_sync(0xffffffffu, f, off);
    }
    if ((threadIdx.x & 31) == 0 && i < n) {
        int a = (i >> ROUND_LOG) * NACC;
        atomicAdd(&acc[a], v);
        atomicAdd(&fix[a], f);
    }
}

// Positive, of widely varying magnitude: (1 + u) * 2^e, e in [-16, 16].
static float gen_value(bench_rng &r)
{
    float m = 1.0f + r.unit();
    int e = (int)r.below(33) - 16;
    return ldexpf(m, e);
}

// gamma_d = d u / (1 - d u), u = 2^-24 (d u < 1 for every d used here).
static double gamma_bound(long d)
{
    const double du = (double)d / (double)(1 << 24);
    return du / (1.0 - du);
}

static bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int rounds = bench_pick(args, 4, 32, 256);
    int n = rounds * ROUND;
    bench_rng rng(args.seed);
    std::vector<float> x(n);
    for (int i = 0; i < n; i++)
        x[i] = gen_value(rng);

    // Round r's accumulators: acc[r*NACC] reduce_one, acc[r*NACC + 1 ..
    // NFEW] reduce_few, acc[r*NACC + NFEW + 1] reduce_warp; fix[j] is
    // acc[j]'s integer companion.
    const int nacc = rounds * NACC;
    float *dx, *dacc;
    u64 *dfix;
    CUDA_CHECK(cudaMalloc(&dx, (size_t)n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dacc, nacc * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dfix, nacc * sizeof(u64)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dacc, 0, nacc * sizeof(float)));
    CUDA_CHECK(cudaMemset(dfix, 0, nacc * sizeof(u64)));

    int grid = n / BLOCK;
    printf("atomic_reduce: n=%d in %d rounds of %d, 3 kernels (one, few=%d, warp), %d blocks of "
           "%d\n", n, rounds, ROUND, NFEW, grid, BLOCK);
    reduce_one<<<grid, BLOCK>>>(dx, n, dacc, dfix);
    CUDA_CHECK(cudaGetLastError());
    reduce_few<<<grid, BLOCK>>>(dx, n, dacc + 1, dfix + 1);
    CUDA_CHECK(cudaGetLastError());
    reduce_warp<<<grid, BLOCK>>>(dx, n, dacc + 1 + NFEW, dfix + 1 + NFEW);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    std::vector<float> acc(nacc);
    std::vector<u64> fix(nacc);
    CUDA_CHECK(cudaMemcpy(acc.data(), dacc, nacc * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(fix.data(), dfix, nacc * sizeof(u64), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dacc));
    CUDA_CHECK(cudaFree(dfix));

    // Per accumulator: the exact companion, the double sum, sum|x|, the
    // number of terms and the sequential float sum in thread order.
    std::vector<u64> want_fix(nacc, 0);
    std::vector<double> sum(nacc, 0.0), abs_sum(nacc, 0.0);
    std::vector<long> terms(nacc, 0);
    std::vector<float> seq(nacc, 0.0f);
    for (int i = 0; i < n; i++) {
        int base = (i >> ROUND_LOG) * NACC;
        int slots[3] = {base, base + 1 + i % NFEW, base + 1 + NFEW};
        for (int s : slots) {
            want_fix[s] += fix_image(x[i]);
            sum[s] += x[i];
            abs_sum[s] += fabs((double)x[i]);
            terms[s]++;
        }
        seq[base] += x[i];
        seq[base + 1 + i % NFEW] += x[i];
    }
    for (int w = 0; w < n / 32; w++) { // reduce_warp's replay (n is a multiple of 32)
        float lane[32];
        for (int l = 0; l < 32; l++)
            lane[l] = x[w * 32 + l];
        for (int off = 16; off > 0; off >>= 1)
            for (int l = 0; l < 32; l++) // shfl_down: lanes past the end keep their own value
                lane[l] += lane[l + off < 32 ? l + off : l];
        seq[(w * 32 >> ROUND_LOG) * NACC + 1 + NFEW] += lane[0];
    }

    // Validity: each companion exact, each float within its ordering-error
    // bound.  kind: 0 reduce_one, 1 reduce_few, 2 reduce_warp.
    int fix_wrong = 0;
    bool pass = true, seq_eq[3] = {true, true, true};
    double worst[3] = {0.0, 0.0, 0.0};
    for (int j = 0; j < nacc; j++) {
        int slot = j % NACC, kind = slot == 0 ? 0 : slot <= NFEW ? 1 : 2;
        long depth = kind == 2 ? (terms[j] + 31) / 32 + 4 : terms[j] - 1;
        double bound = gamma_bound(depth) * abs_sum[j] + terms[j] * ldexp(1.0, -53) * abs_sum[j];
        double ratio = fabs((double)acc[j] - sum[j]) / bound;
        pass = pass && ratio <= 1.0; // a NaN ratio fails, and sticks in worst[]
        if (!(ratio <= worst[kind]))
            worst[kind] = ratio;
        fix_wrong += fix[j] != want_fix[j];
        seq_eq[kind] = seq_eq[kind] && same_bits(acc[j], seq[j]);
    }
    pass = pass && fix_wrong == 0;

    printf("round 0: one=%.9g few=%.9g warp=%.9g ref(double)=%.9g seq(float)=%.9g\n", acc[0],
           (double)acc[1] + acc[2] + acc[3] + acc[4], acc[NFEW + 1], sum[0], seq[0]);
    printf("worst float error / bound: one=%.3g few=%.3g warp=%.3g; integer companions: %d of "
           "%d wrong\n", worst[0], worst[1], worst[2], fix_wrong, nacc);

    const char *word[2] = {"seq-differ", "seq-exact"};
    char note[96];
    snprintf(note, sizeof note, "one:%s,few:%s,warp:%s", word[seq_eq[0]], word[seq_eq[1]],
             word[seq_eq[2]]);
    uint64_t h = bench_hash(acc.data(), nacc * sizeof(float));
    return bench_result(pass, bench_hash(fix.data(), nacc * sizeof(u64), h), note);
}
