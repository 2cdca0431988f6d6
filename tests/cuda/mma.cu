/* mma.cu -- tensor cores as sm_80 code uses them (built with -arch=sm_80):
 * wmma tiles (wmma_tile.cuh) of bf16 at the three 16-element-K shapes, tf32
 * at m16n16k8 and double at m8n8k4; and mma.sync in inline PTX, the way
 * CUTLASS-style code writes it, with fragments laid out as the PTX ISA's
 * "Matrix Fragments for mma" sections define them:
 *
 *   - a 32 x 16 x 64 product of halves on four warps: A tiles by
 *     ldmatrix.x4, B tiles by ldmatrix.x2.trans, from shared memory, into
 *     mma.m16n8k16.row.col.f32.f16.f16.f32, accumulating over K;
 *   - one tile each of m16n8k16 bf16, m16n8k8 tf32, m16n8k8 f16 with an f16
 *     accumulator, m16n8k32 s8 (wrapping and .satfinite, with sums that
 *     overflow), m8n8k4 f64, and m8n8k4 f16 (four products, one per quad
 *     pair), each lane building its fragments from row-major matrices;
 *   - movmatrix transposing an 8 x 8 matrix of halves.
 *
 * Each against the CPU.  The inputs make every sum exact (the integer ones
 * overflow the same way in any order), so the results do not depend on the
 * order a tensor core adds in. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "common.cuh"
#include "wmma_tile.cuh"

using namespace nvcuda;

/* ---- ldmatrix + mma.m16n8k16 ----------------------------------------------------------- */

static const int GM = 32, GN = 16, GK = 64;

/* D[GM][GN] = A[GM][GK] x B[GK][GN], all row-major; warp w computes the
 * 16 x 8 tile (w / 2, w % 2) */
__global__ void gemm_ldmatrix(const __half *a, const __half *b, float *d)
{
    __shared__ __align__(16) __half as[GM * 16];
    __shared__ __align__(16) __half bs[16 * GN];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int tm = warp / 2, tn = warp % 2;
    float acc[4] = {0, 0, 0, 0};
    for (int k0 = 0; k0 < GK; k0 += 16) {
        for (int i = threadIdx.x; i < GM * 16; i += blockDim.x)
            as[i] = a[(i / 16) * GK + k0 + i % 16];
        for (int i = threadIdx.x; i < 16 * GN; i += blockDim.x)
            bs[i] = b[(k0 + i / GN) * GN + i % GN];
        __syncthreads();
        unsigned a0, a1, a2, a3, b0, b1;
        /* A: lanes 0-15 give rows 0-15 of columns 0-7, lanes 16-31 of 8-15 */
        unsigned pa = (unsigned)__cvta_generic_to_shared(&as[(tm * 16 + lane % 16) * 16 + (lane / 16) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
                     : "r"(pa));
        /* B: lanes 0-15 give rows k = 0-15 of the tile's 8 columns, transposed */
        unsigned pb = (unsigned)__cvta_generic_to_shared(&bs[(lane % 16) * GN + tn * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                     : "=r"(b0), "=r"(b1)
                     : "r"(pb));
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        __syncthreads();
    }
    int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; i++)
        d[(tm * 16 + g + (i >= 2 ? 8 : 0)) * GN + tn * 8 + 2 * t + (i & 1)] = acc[i];
}

/* ---- single mma.sync tiles, fragments built per the ISA ------------------------------- */

static __device__ unsigned pack2(unsigned short lo, unsigned short hi) { return lo | (unsigned)hi << 16; }
static __device__ unsigned short hbits(__half h) { return __half_as_ushort(h); }
static __device__ unsigned short bbits(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
static __device__ unsigned pack4(const signed char *p, int stride)
{
    return (unsigned char)p[0] | (unsigned)(unsigned char)p[stride] << 8 |
           (unsigned)(unsigned char)p[2 * stride] << 16 | (unsigned)(unsigned char)p[3 * stride] << 24;
}

/* m16n8k16 bf16: A 16x16, B 16x8, C/D 16x8 (f32), row-major */
__global__ void mma_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *c, float *d)
{
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    unsigned A[4], B[2];
    for (int r = 0; r < 4; r++) { /* a(2r), a(2r+1): rows g / g+8, columns 2t (+8) */
        int row = g + (r & 1) * 8, col = 2 * t + (r >> 1) * 8;
        A[r] = pack2(bbits(a[row * 16 + col]), bbits(a[row * 16 + col + 1]));
    }
    for (int r = 0; r < 2; r++) { /* b(2r), b(2r+1): rows 2t, 2t+1 (+8), column g */
        int row = 2 * t + r * 8;
        B[r] = pack2(bbits(b[row * 8 + g]), bbits(b[(row + 1) * 8 + g]));
    }
    float C[4], D[4];
    for (int i = 0; i < 4; i++)
        C[i] = c[(g + (i >= 2 ? 8 : 0)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(D[0]), "=f"(D[1]), "=f"(D[2]), "=f"(D[3])
                 : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                   "f"(C[0]), "f"(C[1]), "f"(C[2]), "f"(C[3]));
    for (int i = 0; i < 4; i++)
        d[(g + (i >= 2 ? 8 : 0)) * 8 + 2 * t + (i & 1)] = D[i];
}

/* m16n8k8 tf32: A 16x8, B 8x8, C/D 16x8 */
__global__ void mma_tf32(const float *a, const float *b, const float *c, float *d)
{
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    unsigned A[4], B[2];
    for (int i = 0; i < 4; i++) /* a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4) */
        A[i] = __float_as_uint(a[(g + (i & 1) * 8) * 8 + t + (i >> 1) * 4]);
    for (int i = 0; i < 2; i++) /* b0 (t, g), b1 (t+4, g) */
        B[i] = __float_as_uint(b[(t + i * 4) * 8 + g]);
    float C[4], D[4];
    for (int i = 0; i < 4; i++)
        C[i] = c[(g + (i >= 2 ? 8 : 0)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(D[0]), "=f"(D[1]), "=f"(D[2]), "=f"(D[3])
                 : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                   "f"(C[0]), "f"(C[1]), "f"(C[2]), "f"(C[3]));
    for (int i = 0; i < 4; i++)
        d[(g + (i >= 2 ? 8 : 0)) * 8 + 2 * t + (i & 1)] = D[i];
}

/* m16n8k8 f16 with an f16 accumulator: A 16x8, B 8x8, C/D 16x8 halves */
__global__ void mma_f16acc(const __half *a, const __half *b, const __half *c, __half *d)
{
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    unsigned A[2], B, C[2], D[2];
    for (int r = 0; r < 2; r++)
        A[r] = pack2(hbits(a[(g + r * 8) * 8 + 2 * t]), hbits(a[(g + r * 8) * 8 + 2 * t + 1]));
    B = pack2(hbits(b[(2 * t) * 8 + g]), hbits(b[(2 * t + 1) * 8 + g]));
    for (int r = 0; r < 2; r++)
        C[r] = pack2(hbits(c[(g + r * 8) * 8 + 2 * t]), hbits(c[(g + r * 8) * 8 + 2 * t + 1]));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                 : "=r"(D[0]), "=r"(D[1])
                 : "r"(A[0]), "r"(A[1]), "r"(B), "r"(C[0]), "r"(C[1]));
    for (int r = 0; r < 2; r++) {
        d[(g + r * 8) * 8 + 2 * t] = __ushort_as_half((unsigned short)(D[r] & 0xffff));
        d[(g + r * 8) * 8 + 2 * t + 1] = __ushort_as_half((unsigned short)(D[r] >> 16));
    }
}

/* m16n8k32 s8: A 16x32, B 32x8, C/D 16x8 ints; sat selects .satfinite */
__global__ void mma_s8(const signed char *a, const signed char *b, const int *c, int *d, int sat)
{
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    unsigned A[4], B[2];
    for (int r = 0; r < 4; r++) /* a(4r..4r+3): row g (+8 for r odd), columns 4t (+16 for r >= 2) */
        A[r] = pack4(&a[(g + (r & 1) * 8) * 32 + 4 * t + (r >> 1) * 16], 1);
    for (int r = 0; r < 2; r++) /* b(4r..4r+3): rows 4t.. (+16), column g */
        B[r] = pack4(&b[(4 * t + r * 16) * 8 + g], 8);
    int C[4], D[4];
    for (int i = 0; i < 4; i++)
        C[i] = c[(g + (i >= 2 ? 8 : 0)) * 8 + 2 * t + (i & 1)];
    if (sat)
        asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 "
                     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3])
                     : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                       "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3]));
    else
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
                     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3])
                     : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                       "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3]));
    for (int i = 0; i < 4; i++)
        d[(g + (i >= 2 ? 8 : 0)) * 8 + 2 * t + (i & 1)] = D[i];
}

/* m8n8k4 f64: A 8x4, B 4x8, C/D 8x8 */
__global__ void mma_f64(const double *a, const double *b, const double *c, double *d)
{
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    double A = a[g * 4 + t], B = b[t * 8 + g], C0 = c[g * 8 + 2 * t], C1 = c[g * 8 + 2 * t + 1], D0, D1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=d"(D0), "=d"(D1)
                 : "d"(A), "d"(B), "d"(C0), "d"(C1));
    d[g * 8 + 2 * t] = D0;
    d[g * 8 + 2 * t + 1] = D1;
}

/* m8n8k4 f16, f32 accumulator: four products, quad pair q (lanes 4q..4q+3
 * and 4q+16..4q+19) computing D[q] = A[q] (8x4, row-major) x B[q] (4x8,
 * column-major fragments) + C[q] */
__global__ void mma_quads(const __half *a, const __half *b, const float *c, float *d)
{
    int l = threadIdx.x, q = (l % 16) / 4, hi = l >= 16 ? 4 : 0;
    const __half *aq = a + q * 32, *bq = b + q * 32;
    const float *cq = c + q * 64;
    unsigned A[2], B[2];
    for (int r = 0; r < 2; r++) { /* A row-major: row l%4 (+4), columns i */
        int row = l % 4 + hi;
        A[r] = pack2(hbits(aq[row * 4 + 2 * r]), hbits(aq[row * 4 + 2 * r + 1]));
    }
    for (int r = 0; r < 2; r++) { /* B column-major: rows i, column l%4 (+4) */
        int col = l % 4 + hi;
        B[r] = pack2(hbits(bq[(2 * r) * 8 + col]), hbits(bq[(2 * r + 1) * 8 + col]));
    }
    float C[8], D[8];
    for (int i = 0; i < 8; i++) {
        int row = (l & 1) + (i & 2) + hi, col = (i & 4) + (l & 2) + (i & 1);
        C[i] = cq[row * 8 + col];
    }
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, "
                 "{%12, %13, %14, %15, %16, %17, %18, %19};"
                 : "=f"(D[0]), "=f"(D[1]), "=f"(D[2]), "=f"(D[3]), "=f"(D[4]), "=f"(D[5]),
                   "=f"(D[6]), "=f"(D[7])
                 : "r"(A[0]), "r"(A[1]), "r"(B[0]), "r"(B[1]), "f"(C[0]), "f"(C[1]), "f"(C[2]),
                   "f"(C[3]), "f"(C[4]), "f"(C[5]), "f"(C[6]), "f"(C[7]));
    for (int i = 0; i < 8; i++) {
        int row = (l & 1) + (i & 2) + hi, col = (i & 4) + (l & 2) + (i & 1);
        d[q * 64 + row * 8 + col] = D[i];
    }
}

/* movmatrix: in/out are 8x8 matrices of halves, row-major; each lane holds
 * row l/4, columns 2(l%4) and 2(l%4)+1 */
__global__ void transpose8(const __half *in, __half *out)
{
    int l = threadIdx.x, r = l / 4, c = 2 * (l % 4);
    unsigned v = pack2(hbits(in[r * 8 + c]), hbits(in[r * 8 + c + 1])), w;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(w) : "r"(v));
    out[r * 8 + c] = __ushort_as_half((unsigned short)(w & 0xffff));
    out[r * 8 + c + 1] = __ushort_as_half((unsigned short)(w >> 16));
}

/* ---- host ------------------------------------------------------------------------------ */

template <typename T> static T *to_device(const T *h, size_t n)
{
    T *d;
    CHECK(cudaMalloc(&d, n * sizeof(T)));
    CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <typename T> static void from_device(T *h, const T *d, size_t n)
{
    CHECK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
}

/* D = A x B + C of row-major M x K, K x N, M x N doubles */
static void ref(const double *a, const double *b, const double *c, double *d, int M, int N, int K)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = c ? c[i * N + j] : 0;
            for (int k = 0; k < K; k++)
                s += a[i * K + k] * b[k * N + j];
            d[i * N + j] = s;
        }
}

static double q4(int x, int m) { return ((x % m) - m / 2) * 0.25; }

int main(void)
{
    /* wmma tiles sm_80 adds */
    typedef wmma::row_major R;
    typedef wmma::col_major C;
    check_tile<16, 16, 16, __nv_bfloat16, R, C, float>("wmma m16n16k16 bf16, A row B col, f32 row", false);
    check_tile<32, 8, 16, __nv_bfloat16, C, R, float>("wmma m32n8k16 bf16, A col B row, f32 col", true);
    check_tile<8, 32, 16, __nv_bfloat16, R, R, float>("wmma m8n32k16 bf16, A row B row, f32 row", false);
    check_tile<16, 16, 8, wmma::precision::tf32, R, C, float>("wmma m16n16k8 tf32, A row B col, f32 row", false);
    check_tile<16, 16, 8, wmma::precision::tf32, C, R, float>("wmma m16n16k8 tf32, A col B row, f32 col", true);
    check_tile<8, 8, 4, double, R, C, double>("wmma m8n8k4 f64, A row B col, f64 row", false);
    check_tile<8, 8, 4, double, C, R, double>("wmma m8n8k4 f64, A col B row, f64 col", true);

    /* ldmatrix + mma.m16n8k16 */
    {
        static __half ha[GM * GK], hb[GK * GN];
        static double fa[GM * GK], fb[GK * GN], want[GM * GN];
        static float got[GM * GN], wantf[GM * GN];
        for (int i = 0; i < GM * GK; i++) {
            fa[i] = q4(i * 7 + i / GK, 9);
            ha[i] = __float2half((float)fa[i]);
        }
        for (int i = 0; i < GK * GN; i++) {
            fb[i] = q4(i * 5 + i / GN * 3, 5);
            hb[i] = __float2half((float)fb[i]);
        }
        ref(fa, fb, NULL, want, GM, GN, GK);
        for (int i = 0; i < GM * GN; i++)
            wantf[i] = (float)want[i];
        __half *da = to_device(ha, GM * GK), *db = to_device(hb, GK * GN);
        float *dd;
        CHECK(cudaMalloc(&dd, sizeof got));
        gemm_ldmatrix<<<1, 128>>>(da, db, dd);
        CHECK_LAUNCH();
        from_device(got, dd, GM * GN);
        check_array_exact("ldmatrix.x4 + ldmatrix.x2.trans + mma.m16n8k16 f16 GEMM 32x16x64", wantf,
                          got, GM * GN);
    }

    /* bf16 m16n8k16 */
    {
        double fa[256], fb[128], fc[128], want[128];
        __nv_bfloat16 ha[256], hb[128];
        float hc[128], got[128], wantf[128];
        for (int i = 0; i < 256; i++) {
            fa[i] = q4(i * 11, 13);
            ha[i] = __float2bfloat16((float)fa[i]);
        }
        for (int i = 0; i < 128; i++) {
            fb[i] = q4(i * 3 + 1, 7);
            hb[i] = __float2bfloat16((float)fb[i]);
            fc[i] = (double)(i % 9) - 4;
            hc[i] = (float)fc[i];
        }
        ref(fa, fb, fc, want, 16, 8, 16);
        for (int i = 0; i < 128; i++)
            wantf[i] = (float)want[i];
        __nv_bfloat16 *da = to_device(ha, 256), *db = to_device(hb, 128);
        float *dc = to_device(hc, 128), *dd;
        CHECK(cudaMalloc(&dd, sizeof got));
        mma_bf16<<<1, 32>>>(da, db, dc, dd);
        CHECK_LAUNCH();
        from_device(got, dd, 128);
        check_array_exact("mma.m16n8k16 bf16, f32 accumulator", wantf, got, 128);
    }

    /* tf32 m16n8k8 */
    {
        double fa[128], fb[64], fc[128], want[128];
        float ha[128], hb[64], hc[128], got[128], wantf[128];
        for (int i = 0; i < 128; i++) {
            fa[i] = q4(i * 5 + 2, 11);
            ha[i] = (float)fa[i];
            fc[i] = (double)(i % 7) - 3;
            hc[i] = (float)fc[i];
        }
        for (int i = 0; i < 64; i++) {
            fb[i] = q4(i * 13, 9);
            hb[i] = (float)fb[i];
        }
        ref(fa, fb, fc, want, 16, 8, 8);
        for (int i = 0; i < 128; i++)
            wantf[i] = (float)want[i];
        float *da = to_device(ha, 128), *db = to_device(hb, 64), *dc = to_device(hc, 128), *dd;
        CHECK(cudaMalloc(&dd, sizeof got));
        mma_tf32<<<1, 32>>>(da, db, dc, dd);
        CHECK_LAUNCH();
        from_device(got, dd, 128);
        check_array_exact("mma.m16n8k8 tf32, f32 accumulator", wantf, got, 128);
    }

    /* f16 m16n8k8 with an f16 accumulator */
    {
        double fa[128], fb[64], fc[128], want[128];
        __half ha[128], hb[64], hc[128], got[128];
        float gotf[128], wantf[128];
        for (int i = 0; i < 128; i++) {
            fa[i] = q4(i * 3, 9);
            ha[i] = __float2half((float)fa[i]);
            fc[i] = (double)(i % 5) - 2;
            hc[i] = __float2half((float)fc[i]);
        }
        for (int i = 0; i < 64; i++) {
            fb[i] = q4(i * 7 + 3, 7);
            hb[i] = __float2half((float)fb[i]);
        }
        ref(fa, fb, fc, want, 16, 8, 8);
        __half *da = to_device(ha, 128), *db = to_device(hb, 64), *dc = to_device(hc, 128), *dd;
        CHECK(cudaMalloc(&dd, sizeof got));
        mma_f16acc<<<1, 32>>>(da, db, dc, dd);
        CHECK_LAUNCH();
        from_device(got, dd, 128);
        for (int i = 0; i < 128; i++) {
            gotf[i] = __half2float(got[i]);
            wantf[i] = (float)want[i];
        }
        check_array_exact("mma.m16n8k8 f16, f16 accumulator", wantf, gotf, 128);
    }

    /* s8 m16n8k32, sums past the 32-bit range: wrapped, or clamped */
    {
        signed char ha[16 * 32], hb[32 * 8];
        int hc[128], got[128], want[128];
        for (int i = 0; i < 16 * 32; i++)
            ha[i] = (signed char)((i / 32) % 2 ? -100 - i % 27 : 100 + i % 27);
        for (int i = 0; i < 32 * 8; i++)
            hb[i] = (signed char)(90 + i % 37);
        for (int i = 0; i < 128; i++) /* the sign of row i/8's products, near that limit */
            hc[i] = (i / 8) % 2 ? -2147000000 + i : 2147000000 - i;
        signed char *da = to_device(ha, 16 * 32), *db = to_device(hb, 32 * 8);
        int *dc = to_device(hc, 128), *dd;
        CHECK(cudaMalloc(&dd, sizeof got));
        for (int sat = 0; sat < 2; sat++) {
            for (int i = 0; i < 16; i++)
                for (int j = 0; j < 8; j++) {
                    long long s = hc[i * 8 + j];
                    for (int k = 0; k < 32; k++)
                        s += (long long)ha[i * 32 + k] * hb[k * 8 + j];
                    if (sat)
                        s = s > 2147483647LL ? 2147483647LL : s < -2147483648LL ? -2147483648LL : s;
                    want[i * 8 + j] = (int)(unsigned)(unsigned long long)s;
                }
            mma_s8<<<1, 32>>>(da, db, dc, dd, sat);
            CHECK_LAUNCH();
            from_device(got, dd, 128);
            check_array_exact(sat ? "mma.m16n8k32 s8 .satfinite (clamped)" : "mma.m16n8k32 s8 (wrapped)",
                              want, got, 128);
        }
    }

    /* f64 m8n8k4 */
    {
        double ha[32], hb[32], hc[64], want[64], got[64];
        for (int i = 0; i < 32; i++) {
            ha[i] = (i % 7 - 3) * 0.375;
            hb[i] = (i * 5 % 11 - 5) * 0.125;
        }
        for (int i = 0; i < 64; i++)
            hc[i] = i * 0.5 - 16;
        ref(ha, hb, hc, want, 8, 8, 4);
        double *da = to_device(ha, 32), *db = to_device(hb, 32), *dc = to_device(hc, 64), *dd;
        CHECK(cudaMalloc(&dd, sizeof got));
        mma_f64<<<1, 32>>>(da, db, dc, dd);
        CHECK_LAUNCH();
        from_device(got, dd, 64);
        check_array_near("mma.m8n8k4 f64", want, got, 64, 0);
    }

    /* f16 m8n8k4: four products */
    {
        double fa[128], fb[128], fc[256], want[256];
        __half ha[128], hb[128];
        float hc[256], got[256], wantf[256];
        for (int i = 0; i < 128; i++) {
            fa[i] = q4(i * 5 + 1, 9);
            ha[i] = __float2half((float)fa[i]);
            fb[i] = q4(i * 3 + 2, 7);
            hb[i] = __float2half((float)fb[i]);
        }
        for (int i = 0; i < 256; i++) {
            fc[i] = (double)(i % 13) - 6;
            hc[i] = (float)fc[i];
        }
        for (int q = 0; q < 4; q++)
            ref(fa + q * 32, fb + q * 32, fc + q * 64, want + q * 64, 8, 8, 4);
        for (int i = 0; i < 256; i++)
            wantf[i] = (float)want[i];
        __half *da = to_device(ha, 128), *db = to_device(hb, 128);
        float *dc = to_device(hc, 256), *dd;
        CHECK(cudaMalloc(&dd, sizeof got));
        mma_quads<<<1, 32>>>(da, db, dc, dd);
        CHECK_LAUNCH();
        from_device(got, dd, 256);
        check_array_exact("mma.m8n8k4 f16 (four quad-pair products), f32 accumulator", wantf, got, 256);
    }

    /* movmatrix */
    {
        __half hin[64], hout[64];
        float got[64], want[64];
        for (int i = 0; i < 64; i++)
            hin[i] = __float2half((float)(i * 3 % 64));
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 8; c++)
                want[r * 8 + c] = (float)((c * 8 + r) * 3 % 64);
        __half *din = to_device(hin, 64), *dout;
        CHECK(cudaMalloc(&dout, sizeof hout));
        transpose8<<<1, 32>>>(din, dout);
        CHECK_LAUNCH();
        from_device(hout, dout, 64);
        for (int i = 0; i < 64; i++)
            got[i] = __half2float(hout[i]);
        check_array_exact("movmatrix.m8n8.trans", want, got, 64);
    }
    return finish();
}
