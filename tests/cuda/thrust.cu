/* thrust.cu -- the CUDA C++ Core Libraries nvcc ships (Thrust over CUB): a
 * real library's kernels and runtime calls, unmodified.  Sort, sort by key,
 * reduce, inclusive and exclusive scan, transform, copy_if, unique, count,
 * min/max, each against the C++ standard library on the host. */
#include <thrust/count.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/unique.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "common.cuh"

struct is_odd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};

int main(void)
{
    const int n = 6000;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (i * 7919) % 1000 - 500;
    thrust::device_vector<int> d(h.begin(), h.end());

    /* sort */
    thrust::device_vector<int> ds = d;
    thrust::sort(ds.begin(), ds.end());
    std::vector<int> hs = h;
    std::sort(hs.begin(), hs.end());
    std::vector<int> got(n);
    thrust::copy(ds.begin(), ds.end(), got.begin());
    check_array_exact("thrust::sort (CUB radix sort)", hs.data(), got.data(), n);

    /* sort by key, descending */
    thrust::device_vector<int> keys = d, vals(n);
    thrust::sequence(vals.begin(), vals.end());
    thrust::stable_sort_by_key(keys.begin(), keys.end(), vals.begin(), thrust::greater<int>());
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return h[a] > h[b]; });
    thrust::copy(vals.begin(), vals.end(), got.begin());
    check_array_exact("thrust::stable_sort_by_key, descending", order.data(), got.data(), n);

    /* reduce, scans */
    long long sum = thrust::reduce(d.begin(), d.end(), 0LL);
    check_int("thrust::reduce", std::accumulate(h.begin(), h.end(), 0LL), sum);
    thrust::device_vector<int> sc(n);
    thrust::inclusive_scan(d.begin(), d.end(), sc.begin());
    std::vector<int> want(n);
    std::partial_sum(h.begin(), h.end(), want.begin());
    thrust::copy(sc.begin(), sc.end(), got.begin());
    check_array_exact("thrust::inclusive_scan", want.data(), got.data(), n);
    thrust::exclusive_scan(d.begin(), d.end(), sc.begin(), 10);
    int run = 10;
    for (int i = 0; i < n; i++) {
        want[i] = run;
        run += h[i];
    }
    thrust::copy(sc.begin(), sc.end(), got.begin());
    check_array_exact("thrust::exclusive_scan", want.data(), got.data(), n);

    /* transform, copy_if, count_if, unique, extrema */
    thrust::device_vector<float> x(n), y(n);
    thrust::sequence(x.begin(), x.end(), 0.5f, 0.25f);
    thrust::transform(x.begin(), x.end(), x.begin(), y.begin(), thrust::multiplies<float>());
    std::vector<float> fy(n), fw(n);
    thrust::copy(y.begin(), y.end(), fy.begin());
    for (int i = 0; i < n; i++)
        fw[i] = (0.5f + 0.25f * i) * (0.5f + 0.25f * i);
    check_array_exact("thrust::transform", fw.data(), fy.data(), n);
    thrust::device_vector<int> odd(n);
    int nodd = (int)(thrust::copy_if(d.begin(), d.end(), odd.begin(), is_odd()) - odd.begin());
    std::vector<int> hodd;
    std::copy_if(h.begin(), h.end(), std::back_inserter(hodd), [](int v) { return v & 1; });
    check_int("thrust::copy_if count", (long long)hodd.size(), nodd);
    thrust::copy(odd.begin(), odd.begin() + nodd, got.begin());
    check_array_exact("thrust::copy_if (stable)", hodd.data(), got.data(), nodd);
    check_int("thrust::count_if", (long long)hodd.size(),
              thrust::count_if(d.begin(), d.end(), is_odd()));
    int nuniq = (int)(thrust::unique(ds.begin(), ds.end()) - ds.begin());
    check_int("thrust::unique", (long long)(std::unique(hs.begin(), hs.end()) - hs.begin()), nuniq);
    auto mm = thrust::minmax_element(d.begin(), d.end());
    check_int("thrust::minmax_element (min)", *std::min_element(h.begin(), h.end()), *mm.first);
    check_int("thrust::minmax_element (max)", *std::max_element(h.begin(), h.end()), *mm.second);
    return finish();
}
