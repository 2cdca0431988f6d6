/* cdp_quicksort.cu -- dynamic parallelism: a recursive quicksort in the
 * manner of cuda-samples' cdpSimpleQuicksort.  One thread partitions its
 * range around a pivot and launches one grid per side, each into a stream
 * it creates for it (cudaStreamCreateWithFlags(..., cudaStreamNonBlocking))
 * and destroys after the launch; short ranges, and ranges at the depth
 * limit, are sorted in place by selection sort.  The host sorts several
 * inputs (random with many duplicates, sorted, reversed, all equal, a few
 * sizes) and compares each with the C library's qsort.  Built with
 *     nvcc -cudart shared -O2 -rdc=true -lcudadevrt */
#include "common.cuh"

#define MAX_DEPTH 16
#define SELECTION_SORT 32

__device__ void selection_sort(unsigned *data, int left, int right)
{
    for (int i = left; i <= right; i++) {
        unsigned min_val = data[i];
        int min_idx = i;
        for (int j = i + 1; j <= right; j++) {
            if (data[j] < min_val) {
                min_val = data[j];
                min_idx = j;
            }
        }
        if (min_idx != i) {
            data[min_idx] = data[i];
            data[i] = min_val;
        }
    }
}

/* Sort data[left..right] (inclusive). */
__global__ void quicksort(unsigned *data, int left, int right, int depth, int *launch_errors)
{
    if (depth >= MAX_DEPTH || right - left <= SELECTION_SORT) {
        selection_sort(data, left, right);
        return;
    }
    /* Hoare partition around the middle element */
    unsigned pivot = data[left + (right - left) / 2];
    int i = left, j = right;
    while (i <= j) {
        while (data[i] < pivot)
            i++;
        while (data[j] > pivot)
            j--;
        if (i <= j) {
            unsigned t = data[i];
            data[i] = data[j];
            data[j] = t;
            i++;
            j--;
        }
    }
    if (left < j) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        quicksort<<<1, 1, 0, s>>>(data, left, j, depth + 1, launch_errors);
        if (cudaGetLastError() != cudaSuccess)
            atomicAdd(launch_errors, 1);
        cudaStreamDestroy(s);
    }
    if (i < right) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        quicksort<<<1, 1, 0, s>>>(data, i, right, depth + 1, launch_errors);
        if (cudaGetLastError() != cudaSuccess)
            atomicAdd(launch_errors, 1);
        cudaStreamDestroy(s);
    }
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

static void sort_case(const char *what, int n, int kind)
{
    unsigned *h = (unsigned *)malloc(n * sizeof *h), *ref = (unsigned *)malloc(n * sizeof *ref);
    unsigned seed = 12345u + (unsigned)n;
    for (int i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        h[i] = kind == 0 ? (seed >> 8) % 500        /* many duplicates */
               : kind == 1 ? (unsigned)i           /* sorted */
               : kind == 2 ? (unsigned)(n - i)     /* reversed */
                           : 7u;                   /* all equal */
    }
    memcpy(ref, h, n * sizeof *h);
    qsort(ref, n, sizeof *ref, cmp_unsigned);
    unsigned *d;
    int *errs, nerr = -1;
    CHECK(cudaMalloc(&d, n * sizeof *d));
    CHECK(cudaMalloc(&errs, sizeof *errs));
    CHECK(cudaMemset(errs, 0, sizeof *errs));
    CHECK(cudaMemcpy(d, h, n * sizeof *h, cudaMemcpyHostToDevice));
    quicksort<<<1, 1>>>(d, 0, n - 1, 0, errs);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&nerr, errs, sizeof nerr, cudaMemcpyDeviceToHost));
    char name[96];
    snprintf(name, sizeof name, "%s, %d elements: sorted as qsort sorts", what, n);
    check_true(name, memcmp(h, ref, n * sizeof *h) == 0);
    snprintf(name, sizeof name, "%s, %d elements: no launch from the device failed", what, n);
    check_int(name, 0, nerr);
    CHECK(cudaFree(d));
    CHECK(cudaFree(errs));
    free(h);
    free(ref);
}

int main()
{
    sort_case("random with duplicates", 2000, 0);
    sort_case("random with duplicates", 33, 0);
    sort_case("random with duplicates", 1, 0);
    sort_case("sorted", 600, 1);
    sort_case("reversed", 600, 2);
    sort_case("all equal", 300, 3);
    return finish();
}
