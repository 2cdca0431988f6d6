// ht.cu -- a hash table built with atomic insertion (GPUDet's "HT"): open
// addressing, linear probing, keys claimed with atomicCAS.
//
// ORDER-SENSITIVE.  N seeded (key, payload) pairs, many keys repeated, are
// inserted by one thread each: a thread probes from the key's home slot,
// claims the first empty slot with atomicCAS (or finds its key already
// there) and adds its payload to that slot's value with atomicAdd.  Which
// slot a key ends up in depends on which colliding key claimed a slot first,
// so the table layout depends on the order threads run in.  The values do
// not (each is the integer sum of the key's payloads), and neither does the
// lookup kernel's output.
//
// The check accepts every valid table: each slot holds an inserted key or is
// empty, each key is in exactly one slot, its probe chain from the home slot
// to that slot has no empty slot (so linear probing finds it), the number of
// keys equals the number of distinct keys, each value is the sum of its
// key's payloads; and the lookups (every distinct key, and as many keys that
// were never inserted) return exactly the CPU's answers.  The hash covers
// everything copied back: the table (keys and values, whose layout is the
// order-dependent part) and the lookup results.  note= says whether the
// table equals the one a sequential CPU insertion in thread order builds
// (layout-seq) or not (layout-differ).  lockstep gives layout-differ by
// default (32 resident CTAs interleave their warps) and layout-seq with
// -lockstep_resident_ctas 1 or a warp slice long enough for each warp to
// finish its turn.
#include <algorithm>
#include <unordered_map>
#include <vector>

#include "bench.h"

#define EMPTY 0xffffffffu
#define NOT_FOUND 0xffffffffu

// The home slot of a key: Fibonacci hashing into 2^bits slots.
__host__ __device__ static inline uint32_t home_slot(uint32_t key, int bits)
{
    return (key * 2654435769u) >> (32 - bits);
}

// One thread inserts one pair.  The table has more slots than distinct keys,
// so a free slot or the key is always found.
__global__ void ht_insert(uint32_t *keys, uint32_t *vals, const uint32_t *in_keys,
                          const uint32_t *in_vals, int n, int bits)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t key = in_keys[i], mask = (1u << bits) - 1;
    for (uint32_t s = home_slot(key, bits);; s = (s + 1) & mask) {
        uint32_t prev = atomicCAS(&keys[s], EMPTY, key);
        if (prev == EMPTY || prev == key) {
            atomicAdd(&vals[s], in_vals[i]);
            return;
        }
    }
}

// One thread looks up one key: its value, or NOT_FOUND at the first empty slot.
__global__ void ht_lookup(const uint32_t *keys, const uint32_t *vals, const uint32_t *q,
                          uint32_t *out, int nq, int bits)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nq)
        return;
    uint32_t key = q[i], mask = (1u << bits) - 1;
    for (uint32_t s = home_slot(key, bits);; s = (s + 1) & mask) {
        uint32_t k = keys[s];
        if (k == key) {
            out[i] = vals[s];
            return;
        }
        if (k == EMPTY) {
            out[i] = NOT_FOUND;
            return;
        }
    }
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int n = bench_pick(args, 1 << 18, 1 << 21, 1 << 24);
    // Keys drawn from [0, 2^31) with about half of them repeated: a key is a
    // fresh random value or, with probability 1/2, a copy of an earlier key.
    // Payloads are small, so sums fit in 32 bits.
    bench_rng rng(args.seed);
    std::vector<uint32_t> in_keys(n), in_vals(n);
    for (int i = 0; i < n; i++) {
        in_keys[i] =
            i > 0 && rng.below(2) ? in_keys[rng.below((uint32_t)i)] : (uint32_t)(rng.next() >> 33);
        in_vals[i] = 1 + rng.below(1000);
    }

    // The CPU's answer: the sum of payloads of each distinct key.
    std::unordered_map<uint32_t, uint32_t> sum;
    std::vector<uint32_t> distinct;
    for (int i = 0; i < n; i++) {
        auto it = sum.find(in_keys[i]);
        if (it == sum.end()) {
            sum[in_keys[i]] = in_vals[i];
            distinct.push_back(in_keys[i]); // first-occurrence order: from the seed only
        } else {
            it->second += in_vals[i];
        }
    }
    // The table: the smallest power of two with at least 1.5 slots per
    // distinct key, so it ends between 1/3 and 2/3 full (the load factor
    // decides the probe lengths) and always has an empty slot.
    int nd = (int)distinct.size(), bits = 1;
    while ((1 << bits) < nd + nd / 2)
        bits++;
    int slots = 1 << bits;
    // Queries: every distinct key, then as many keys never inserted (in
    // [2^31, 2^31 + 2^30): inserted keys are below 2^31 and EMPTY is above),
    // shuffled together.
    int nq = 2 * nd;
    std::vector<uint32_t> q(distinct);
    for (int i = 0; i < nd; i++)
        q.push_back(0x80000000u | (uint32_t)(rng.next() >> 34));
    for (int i = nq - 1; i > 0; i--)
        std::swap(q[i], q[rng.below((uint32_t)i + 1)]);

    uint32_t *d_keys, *d_vals, *d_in_keys, *d_in_vals, *d_q, *d_out;
    CUDA_CHECK(cudaMalloc(&d_keys, slots * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_vals, slots * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_in_keys, n * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_in_vals, n * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_q, nq * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_out, nq * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemset(d_keys, 0xff, slots * sizeof(uint32_t))); // EMPTY
    CUDA_CHECK(cudaMemset(d_vals, 0, slots * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemcpy(d_in_keys, in_keys.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_in_vals, in_vals.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_q, q.data(), nq * sizeof(uint32_t), cudaMemcpyHostToDevice));

    const int block = 256;
    ht_insert<<<(n + block - 1) / block, block>>>(d_keys, d_vals, d_in_keys, d_in_vals, n, bits);
    CUDA_CHECK(cudaGetLastError());
    ht_lookup<<<(nq + block - 1) / block, block>>>(d_keys, d_vals, d_q, d_out, nq, bits);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint32_t> keys(slots), vals(slots), out(nq);
    CUDA_CHECK(cudaMemcpy(keys.data(), d_keys, slots * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(vals.data(), d_vals, slots * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, nq * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_keys));
    CUDA_CHECK(cudaFree(d_vals));
    CUDA_CHECK(cudaFree(d_in_keys));
    CUDA_CHECK(cudaFree(d_in_vals));
    CUDA_CHECK(cudaFree(d_q));
    CUDA_CHECK(cudaFree(d_out));

    // The table: every key inserted, present once, value right, chain unbroken.
    bool pass = true;
    int used = 0, bad = 0;
    uint32_t mask = (uint32_t)slots - 1;
    std::unordered_map<uint32_t, int> seen;
    for (int s = 0; s < slots; s++) {
        if (keys[s] == EMPTY) {
            bad += vals[s] != 0;
            continue;
        }
        used++;
        auto it = sum.find(keys[s]);
        if (it == sum.end() || it->second != vals[s] || seen[keys[s]]++) {
            bad++;
            continue;
        }
        for (uint32_t t = home_slot(keys[s], bits); t != (uint32_t)s; t = (t + 1) & mask)
            if (keys[t] == EMPTY) {
                bad++;
                break;
            }
    }
    pass = pass && bad == 0 && used == nd;
    // The lookups: exact.
    int wrong = 0;
    for (int i = 0; i < nq; i++) {
        auto it = sum.find(q[i]);
        wrong += out[i] != (it == sum.end() ? NOT_FOUND : it->second);
    }
    pass = pass && wrong == 0;

    // The table a sequential insertion in thread order builds, for the note.
    std::vector<uint32_t> seq_keys(slots, EMPTY), seq_vals(slots, 0);
    for (int i = 0; i < n; i++) {
        uint32_t s = home_slot(in_keys[i], bits);
        while (seq_keys[s] != EMPTY && seq_keys[s] != in_keys[i])
            s = (s + 1) & mask;
        seq_keys[s] = in_keys[i];
        seq_vals[s] += in_vals[i];
    }
    bool seq = seq_keys == keys && seq_vals == vals;

    printf("ht: %d insertions, %d distinct keys, %d slots, %d lookups (half absent)\n", n, nd,
           slots, nq);
    printf("ht: %d slots used, %d bad slots, %d wrong lookups\n", used, bad, wrong);
    uint64_t h = bench_hash(keys.data(), slots * sizeof(uint32_t));
    h = bench_hash(vals.data(), slots * sizeof(uint32_t), h);
    h = bench_hash(out.data(), nq * sizeof(uint32_t), h);
    return bench_result(pass, h, seq ? "layout-seq" : "layout-differ");
}
