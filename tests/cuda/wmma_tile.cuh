/* wmma_tile.cuh -- one warp-matrix tile through nvcuda::wmma, for any shape,
 * element type and layouts, checked against the CPU: D = A x B + C with A,
 * B and C stored with padded strides (16 elements past the line), C and D
 * row- or column-major.  The inputs are small multiples of 1/4 (floating
 * point) or span their type's range (8-bit integers), so every product and
 * sum is exact and the result does not depend on the order a tensor core
 * adds in.  wmma.cu and mma.cu share it. */
#ifndef LOCKSTEP_TESTS_CUDA_WMMA_TILE_CUH
#define LOCKSTEP_TESTS_CUDA_WMMA_TILE_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <type_traits>

#include "common.cuh"

/* The type an element is stored as in memory (tf32 fragments load floats),
 * and what happens to a fragment after its load (tf32: rounded to tf32, as
 * the programming guide asks; nothing else). */
template <typename T> struct tile_mem {
    typedef T type;
    template <typename F> __device__ static void round(F &) {}
};
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800 /* as mma.h declares tf32 */
template <> struct tile_mem<nvcuda::wmma::precision::tf32> {
    typedef float type;
    template <typename F> __device__ static void round(F &f)
    {
        for (int i = 0; i < f.num_elements; i++)
            f.x[i] = nvcuda::wmma::__float_to_tf32(f.x[i]);
    }
};
#endif

template <int M, int N, int K, typename T, typename AL, typename BL, typename C>
__global__ void wmma_tile(const typename tile_mem<T>::type *a, const typename tile_mem<T>::type *b,
                          const C *c, C *d, int lda, int ldb, int ldc, bool ccol)
{
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, M, N, K, T, AL> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, T, BL> fb;
    wmma::fragment<wmma::accumulator, M, N, K, C> acc;
    wmma::layout_t cl = ccol ? wmma::mem_col_major : wmma::mem_row_major;
    wmma::load_matrix_sync(acc, c, ldc, cl);
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    tile_mem<T>::round(fa);
    tile_mem<T>::round(fb);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, ldc, cl);
}

template <typename S> static S tile_elem(double v) { return (S)v; }
template <> __half tile_elem<__half>(double v) { return __float2half((float)v); }
template <> __nv_bfloat16 tile_elem<__nv_bfloat16>(double v) { return __float2bfloat16((float)v); }
template <typename S> static double tile_value(S v) { return (double)v; }
template <> double tile_value<__half>(__half v) { return (double)__half2float(v); }

template <int M, int N, int K, typename T, typename AL, typename BL, typename C>
static void check_tile(const char *what, bool ccol)
{
    typedef typename tile_mem<T>::type S;
    const bool acol = std::is_same<AL, nvcuda::wmma::col_major>::value;
    const bool bcol = std::is_same<BL, nvcuda::wmma::col_major>::value;
    const bool integer = sizeof(S) == 1, uns = std::is_same<S, unsigned char>::value;
    int lda = (acol ? M : K) + 16, ldb = (bcol ? K : N) + 16, ldc = (ccol ? M : N) + 16;
    size_t na = (size_t)(acol ? K : M) * lda, nb = (size_t)(bcol ? N : K) * ldb;
    size_t nc = (size_t)(ccol ? N : M) * ldc;
    S *ha = (S *)calloc(na, sizeof(S)), *hb = (S *)calloc(nb, sizeof(S));
    C *hc = (C *)calloc(nc, sizeof(C)), *hd = (C *)calloc(nc, sizeof(C));
    double *fa = (double *)malloc(sizeof(double) * M * K), *fb = (double *)malloc(sizeof(double) * K * N);
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) {
            double v = integer ? (uns ? (i * 53 + k * 29) % 256 : (i * 37 + k * 91) % 256 - 128)
                               : ((i * 7 + k * 13) % 19 - 9) * 0.25;
            fa[i * K + k] = v;
            ha[acol ? (size_t)k * lda + i : (size_t)i * lda + k] = tile_elem<S>(v);
        }
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) {
            double v = integer ? (uns ? (k * 31 + j * 17) % 256 : (k * 59 + j * 23) % 256 - 128)
                               : ((k * 5 + j * 11) % 17 - 8) * 0.25;
            fb[k * N + j] = v;
            hb[bcol ? (size_t)j * ldb + k : (size_t)k * ldb + j] = tile_elem<S>(v);
        }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            hc[ccol ? (size_t)j * ldc + i : (size_t)i * ldc + j] =
                tile_elem<C>(integer ? (double)((i * 1009 + j * 17) % 4000 - 2000)
                                     : (double)((i * 3 + j * 5) % 11 - 5));
    S *da, *db;
    C *dc, *dd;
    CHECK(cudaMalloc(&da, na * sizeof(S)));
    CHECK(cudaMalloc(&db, nb * sizeof(S)));
    CHECK(cudaMalloc(&dc, nc * sizeof(C)));
    CHECK(cudaMalloc(&dd, nc * sizeof(C)));
    CHECK(cudaMemcpy(da, ha, na * sizeof(S), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, nb * sizeof(S), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, hc, nc * sizeof(C), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dd, 0, nc * sizeof(C)));
    wmma_tile<M, N, K, T, AL, BL, C><<<1, 32>>>(da, db, dc, dd, lda, ldb, ldc, ccol);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hd, dd, nc * sizeof(C), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    double first_want = 0, first_got = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            size_t at = ccol ? (size_t)j * ldc + i : (size_t)i * ldc + j;
            double want = tile_value<C>(hc[at]);
            for (int k = 0; k < K; k++)
                want += fa[i * K + k] * fb[k * N + j];
            double got = tile_value<C>(hd[at]);
            if (got != want && bad++ == 0) {
                first_want = want;
                first_got = got;
            }
        }
    char detail[160];
    snprintf(detail, sizeof detail, "(%zu of %d differ; first expected %.17g got %.17g)", bad,
             M * N, first_want, first_got);
    check_true(what, bad == 0, detail);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    CHECK(cudaFree(dd));
    free(ha);
    free(hb);
    free(hc);
    free(hd);
    free(fa);
    free(fb);
}

#endif
