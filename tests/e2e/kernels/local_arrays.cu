// local_arrays.cu -- end-to-end kernels for per-thread local memory
// (driver: test_local_arrays.c).
//
// local_dyn_index: a 32-int per-thread array filled, updated and read at
//   indices computed from the data (so nvcc must place it in .local memory:
//   ld.local / st.local through a frame in __local_depot), plus a small
//   per-thread array of structs with mixed member sizes indexed the same way.
// local_sort: each thread gathers 12 values (strided over the input), sorts
//   them with an insertion sort in a local array (data-dependent inner loop
//   and indices) and writes them back in order; a second local array of
//   64-bit keys is sorted alongside so 8-byte local accesses happen too.
#include "common.cuh"

#define LA_N 32
#define LA_OUTS 6

struct Rec {
    char tag;
    short s;
    int i;
    double d;
};

extern "C" __global__ void local_dyn_index(const int *in, int *out, int n)
{
    unsigned g = e2e_gtid();
    if (g >= (unsigned)n)
        return;
    int v = in[g];
    int arr[LA_N];
    for (int k = 0; k < LA_N; k++)
        arr[k] = (v * (k + 1)) ^ k;
    for (int k = 0; k < LA_N; k++) {
        unsigned idx = (unsigned)(v + k * 7) & (LA_N - 1);
        arr[idx] += k;
    }
    int sum = 0;
    unsigned idx = (unsigned)v & (LA_N - 1);
    for (int step = 0; step < 20; step++) {
        sum += arr[idx];
        idx = (unsigned)(arr[idx] ^ step) & (LA_N - 1);
    }
    Rec recs[4];
    for (int k = 0; k < 4; k++) {
        recs[k].tag = (char)(v + k);
        recs[k].s = (short)(v * k);
        recs[k].i = v - k;
        recs[k].d = (double)v * 0.25 + k;
    }
    Rec r = recs[(unsigned)v % 4u];
    int *o = out + (size_t)g * LA_OUTS;
    o[0] = sum;
    o[1] = arr[(unsigned)(v >> 5) & (LA_N - 1)];
    o[2] = arr[idx];
    o[3] = (int)r.tag + (int)r.s;
    o[4] = r.i;
    o[5] = (int)(r.d * 4.0);
}

#define SORT_N 12

extern "C" __global__ void local_sort(const int *in, int *out, long long *kout, int n)
{
    unsigned g = e2e_gtid();
    if (g >= (unsigned)n)
        return;
    int a[SORT_N];
    long long keys[SORT_N];
    for (int k = 0; k < SORT_N; k++) {
        a[k] = in[(g + (unsigned)k * 37u) % (unsigned)n];
        keys[k] = (long long)a[k] * 1000003LL - k;
    }
    for (int k = 1; k < SORT_N; k++) {
        int x = a[k];
        long long kx = keys[k];
        int j = k - 1;
        while (j >= 0 && a[j] > x) {
            a[j + 1] = a[j];
            keys[j + 1] = keys[j];
            j--;
        }
        a[j + 1] = x;
        keys[j + 1] = kx;
    }
    for (int k = 0; k < SORT_N; k++) {
        out[(size_t)g * SORT_N + k] = a[k];
        kout[(size_t)g * SORT_N + k] = keys[k];
    }
}
