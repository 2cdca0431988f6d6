// atm.cu -- bank-account transfers with atomics (GPUDet's "ATM").
//
// ORDER-SENSITIVE.  M accounts start with seeded balances; T transfers
// (from, to, amount), drawn from the seed, run one per thread in a single
// launch.  A transfer withdraws with a compare-and-swap loop that refuses to
// overdraw: it re-reads the balance after every failed CAS and gives up when
// the balance is below the amount; an accepted transfer then deposits with
// atomicAdd and counts itself.  Few accounts and many transfers make the CAS
// loops contend, so the program is atomic-heavy.  Which transfers are
// refused depends on the order the withdrawals reach each account, so the
// final balances are not determined by the input.
//
// Each thread also writes what it saw: seen[i], the balance its successful
// CAS replaced (accepted) or the balance that made it give up (refused),
// and dep[i], the balance its deposit's atomicAdd replaced (accepted only).
//
// The check accepts every valid outcome and rejects any other.  Why the
// history check holds for every order: all writes to an account are atomic
// read-modify-writes (successful CASes and atomicAdds; a failed CAS writes
// nothing), so they are totally ordered and each one reads what the one
// before it wrote.  The account's balance therefore walks a chain
// init -> ... -> final in which every accepted withdrawal is one step
// seen[i] -> seen[i] - a and every deposit one step dep[i] -> dep[i] + a,
// each used once: an Euler trail from init to final in the multigraph
// whose nodes are balances and whose edges are those steps.  Such a trail
// exists iff every node but init and final has as many steps in as out
// (init one more out, final one more in, unless they are equal) and the
// steps are connected to init.  And a balance a thread read (the plain load
// or a failed CAS) is one the account held, so a node of that trail.
// Checked, per account:
//  - the degree and connectivity conditions of that trail (this implies the
//    final balance = initial + accepted deposits - accepted withdrawals);
//  - every accepted withdrawal saw seen[i] >= amount (no overdraft);
//  - every refused transfer saw 0 <= seen[i] < amount, a node of the trail
//    (the refusal was justified by a balance the account really had);
// and globally: flags are 0 or 1, the accepted counter equals the flags,
// no balance is negative and the total money is unchanged.  The hash
// covers the final balances, the flags and seen[] and dep[].  note= says
// whether balances and flags equal a sequential replay in transfer order
// (seq-equal or seq-differ).  Seen on lockstep at small: seq-differ, with
// 827,460 transfers accepted against 827,777 in the replay.
#include <algorithm>
#include <vector>

#include "bench.h"

// One thread, one transfer.
__global__ void atm_transfer(int *balance, const int *from, const int *to, const int *amount,
                             int *accepted, int *seen, int *dep, int *n_accepted, int t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= t)
        return;
    int f = from[i], a = amount[i];
    int old = balance[f], ok = 0, d = 0;
    while (old >= a) {
        int prev = atomicCAS(&balance[f], old, old - a);
        if (prev == old) {
            ok = 1;
            break;
        }
        old = prev;
    }
    if (ok) {
        d = atomicAdd(&balance[to[i]], a);
        atomicAdd(n_accepted, 1);
    }
    accepted[i] = ok;
    seen[i] = old;
    dep[i] = d;
}

// Scratch space for account_history_ok, indexed by balance - lo: per node,
// steps out minus steps in, a union-find parent, and whether it is a node.
struct history_scratch {
    std::vector<int> net, parent;
    std::vector<char> node;
};

// One account's history: steps[0..nsteps) are its accepted withdrawals and
// deposits as (balance before, balance after); reads[0..nreads) the
// balances its refused transfers saw.  True when every balance lies in
// [0, total] (no balance can be negative or hold more than all the money),
// the steps form an Euler trail from init to final, and every read balance
// is a node of it.
static bool account_history_ok(int init, int final, long long total,
                               const std::pair<int, int> *steps, int nsteps, const int *reads,
                               int nreads, history_scratch &w)
{
    int lo = std::min(init, final), hi = std::max(init, final);
    for (int j = 0; j < nsteps; j++) {
        lo = std::min(lo, std::min(steps[j].first, steps[j].second));
        hi = std::max(hi, std::max(steps[j].first, steps[j].second));
    }
    if (lo < 0 || hi > total)
        return false;
    size_t range = (size_t)(hi - lo) + 1;
    if (w.node.size() < range) {
        w.net.assign(range, 0);
        w.parent.assign(range, 0);
        w.node.assign(range, 0);
    }
    auto touch = [&w, lo](int v) {
        int k = v - lo;
        if (!w.node[k]) {
            w.node[k] = 1;
            w.parent[k] = k;
        }
        return k;
    };
    auto root = [&w](int x) {
        while (w.parent[x] != x)
            x = w.parent[x] = w.parent[w.parent[x]];
        return x;
    };
    int s = touch(init), f = touch(final);
    for (int j = 0; j < nsteps; j++) {
        int a = touch(steps[j].first), b = touch(steps[j].second);
        w.net[a]++;
        w.net[b]--;
        w.parent[root(a)] = root(b);
    }
    // Degrees: init one more out, final one more in (nothing when equal),
    // every other node balanced; connected: every step joined to init.
    bool ok = true;
    for (int j = 0; j < nsteps && ok; j++) {
        int a = steps[j].first - lo, b = steps[j].second - lo;
        ok = w.net[a] == (a == s) - (a == f) && w.net[b] == (b == s) - (b == f) &&
             root(a) == root(s);
    }
    ok = ok && w.net[s] == 1 - (s == f) && w.net[f] == (f == s) - 1;
    for (int j = 0; j < nreads && ok; j++)
        ok = reads[j] >= lo && reads[j] <= hi && w.node[reads[j] - lo];
    // Clear what was touched for the next account.
    for (int j = 0; j < nsteps; j++) {
        w.net[steps[j].first - lo] = w.net[steps[j].second - lo] = 0;
        w.node[steps[j].first - lo] = w.node[steps[j].second - lo] = 0;
    }
    w.net[s] = w.net[f] = 0;
    w.node[s] = w.node[f] = 0;
    return ok;
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int m = bench_pick(args, 1024, 8192, 65536);
    int t = bench_pick(args, 1 << 20, 1 << 23, 1 << 26);
    // Balances in [0, 1000), amounts in [1, 250]: an account sends and
    // receives about 2t/m transfers, so it drains and refills many times and
    // a good share of withdrawals are refused.
    bench_rng rng(args.seed);
    std::vector<int> init(m), from(t), to(t), amount(t);
    long long total = 0;
    for (int k = 0; k < m; k++) {
        init[k] = (int)rng.below(1000);
        total += init[k];
    }
    for (int i = 0; i < t; i++) {
        from[i] = (int)rng.below((uint32_t)m);
        to[i] = (int)((from[i] + 1 + rng.below((uint32_t)m - 1)) % m); // never to itself
        amount[i] = 1 + (int)rng.below(250);
    }

    int *d_balance, *d_from, *d_to, *d_amount, *d_accepted, *d_seen, *d_dep, *d_n;
    CUDA_CHECK(cudaMalloc(&d_balance, m * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_from, t * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_to, t * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_amount, t * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_accepted, t * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_seen, t * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_dep, t * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_n, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_balance, init.data(), m * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_from, from.data(), t * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_to, to.data(), t * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_amount, amount.data(), t * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_n, 0, sizeof(int)));

    const int block = 256;
    atm_transfer<<<(t + block - 1) / block, block>>>(d_balance, d_from, d_to, d_amount, d_accepted,
                                                     d_seen, d_dep, d_n, t);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> balance(m), accepted(t), seen(t), dep(t);
    int n_accepted = 0;
    CUDA_CHECK(cudaMemcpy(balance.data(), d_balance, m * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(accepted.data(), d_accepted, t * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(seen.data(), d_seen, t * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(dep.data(), d_dep, t * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&n_accepted, d_n, sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_balance));
    CUDA_CHECK(cudaFree(d_from));
    CUDA_CHECK(cudaFree(d_to));
    CUDA_CHECK(cudaFree(d_amount));
    CUDA_CHECK(cudaFree(d_accepted));
    CUDA_CHECK(cudaFree(d_seen));
    CUDA_CHECK(cudaFree(d_dep));
    CUDA_CHECK(cudaFree(d_n));

    // Valid outcome: balances follow from the accepted set, none negative,
    // money conserved, counter consistent.
    std::vector<long long> want(init.begin(), init.end());
    int flagged = 0;
    bool pass = true;
    for (int i = 0; i < t; i++) {
        pass = pass && (accepted[i] == 0 || accepted[i] == 1);
        if (accepted[i] == 1) {
            want[from[i]] -= amount[i];
            want[to[i]] += amount[i];
            flagged++;
        }
    }
    long long got_total = 0;
    int negative = 0, mismatched = 0;
    for (int k = 0; k < m; k++) {
        got_total += balance[k];
        negative += balance[k] < 0;
        mismatched += balance[k] != want[k];
    }
    pass = pass && negative == 0 && mismatched == 0 && got_total == total && flagged == n_accepted;

    // Each account's history (see the top of the file): the accepted
    // withdrawals and deposits, bucketed by account, must form an Euler
    // trail from its initial to its final balance; refusals must have seen
    // a balance below the amount that the account held.
    int overdrawn = 0, unjustified = 0, bad_history = 0;
    std::vector<int> first(m + 1, 0), rfirst(m + 1, 0);
    for (int i = 0; i < t; i++) {
        if (accepted[i] == 1) {
            first[from[i] + 1]++;
            first[to[i] + 1]++;
            overdrawn += seen[i] < amount[i];
        } else {
            rfirst[from[i] + 1]++;
            unjustified += seen[i] < 0 || seen[i] >= amount[i];
        }
    }
    for (int k = 0; k < m; k++) {
        first[k + 1] += first[k];
        rfirst[k + 1] += rfirst[k];
    }
    std::vector<std::pair<int, int>> steps(first[m]);
    std::vector<int> reads(rfirst[m]);
    {
        std::vector<int> fill(first.begin(), first.end() - 1);
        std::vector<int> rfill(rfirst.begin(), rfirst.end() - 1);
        for (int i = 0; i < t; i++) {
            if (accepted[i] == 1) {
                steps[fill[from[i]]++] = {seen[i], seen[i] - amount[i]};
                steps[fill[to[i]]++] = {dep[i], dep[i] + amount[i]};
            } else {
                reads[rfill[from[i]]++] = seen[i];
            }
        }
    }
    history_scratch scratch;
    for (int k = 0; k < m; k++)
        bad_history += !account_history_ok(init[k], balance[k], total, steps.data() + first[k],
                                           first[k + 1] - first[k], reads.data() + rfirst[k],
                                           rfirst[k + 1] - rfirst[k], scratch);
    pass = pass && overdrawn == 0 && unjustified == 0 && bad_history == 0;

    // The sequential replay in transfer order, for the note only.
    std::vector<int> seq(init), seq_acc(t, 0);
    for (int i = 0; i < t; i++)
        if (seq[from[i]] >= amount[i]) {
            seq[from[i]] -= amount[i];
            seq[to[i]] += amount[i];
            seq_acc[i] = 1;
        }
    bool same = seq == balance && seq_acc == accepted;

    printf("atm: %d accounts, %d transfers, total money %lld\n", m, t, total);
    printf("atm: %d transfers accepted (sequential replay: %d), %d balances off, %d negative\n",
           n_accepted, (int)std::count(seq_acc.begin(), seq_acc.end(), 1), mismatched, negative);
    printf("atm: %d overdrawn, %d unjustified refusals, %d account histories impossible\n",
           overdrawn, unjustified, bad_history);
    uint64_t h = bench_hash(balance.data(), m * sizeof(int));
    h = bench_hash(accepted.data(), t * sizeof(int), h);
    h = bench_hash(seen.data(), t * sizeof(int), h);
    h = bench_hash(dep.data(), t * sizeof(int), h);
    return bench_result(pass, h, same ? "seq-equal" : "seq-differ");
}
