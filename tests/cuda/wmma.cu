/* wmma.cu -- tensor cores through the warp matrix API (nvcuda::wmma), as
 * nvcc builds it for sm_75: a tiled 48 x 32 x 64 matrix product of halves
 * with f32 accumulation (A row- and column-major, B both ways), an f16
 * accumulator, a column-major accumulator loaded and stored, element-wise
 * work on fragments, and 8-bit integers with a 32-bit accumulator; then
 * single tiles (wmma_tile.cuh) of the shapes m32n8k16 and m8n32k16 with
 * halves (f32 and f16 accumulators, row- and column-major) and signed and
 * unsigned 8-bit integers, and a column-major f16 accumulator at
 * m16n16k16; each against the CPU.  The inputs are small multiples of 1/4,
 * so every product and sum is exact in f32 (and the f16 results in f16):
 * the results do not depend on the order a tensor core adds in.  (bf16,
 * tf32 and double tiles need sm_80: mma.cu.) */
#include <mma.h>

#include "common.cuh"
#include "wmma_tile.cuh"

using namespace nvcuda;

static const int M = 48, N = 32, K = 64;

/* C[M][N] = A x B + bias, one warp per 16 x 16 tile of C */
template <typename ALayout, typename BLayout>
__global__ void gemm(const half *a, const half *b, const float *bias, float *c, int lda, int ldb)
{
    int tm = blockIdx.y, tn = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, ALayout> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, BLayout> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, bias + tm * 16 * N + tn * 16, N, wmma::mem_row_major);
    for (int k = 0; k < K; k += 16) {
        const half *pa = std::is_same<ALayout, wmma::row_major>::value ? a + tm * 16 * lda + k
                                                                      : a + k * lda + tm * 16;
        const half *pb = std::is_same<BLayout, wmma::row_major>::value ? b + k * ldb + tn * 16
                                                                      : b + tn * 16 * ldb + k;
        wmma::load_matrix_sync(fa, pa, lda);
        wmma::load_matrix_sync(fb, pb, ldb);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    for (int i = 0; i < acc.num_elements; i++)
        acc.x[i] = acc.x[i] * 2.0f; /* element-wise work on a fragment */
    wmma::store_matrix_sync(c + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

/* one tile with an f16 accumulator, and an f32 one kept column-major */
__global__ void tile_f16(const half *a, const half *b, const half *cin, half *out, float *colout,
                         const float *colin)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> ch;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> cf;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(ch, cin, 16, wmma::mem_row_major);
    wmma::mma_sync(ch, fa, fb, ch);
    wmma::store_matrix_sync(out, ch, 16, wmma::mem_row_major);
    wmma::load_matrix_sync(cf, colin, 16, wmma::mem_col_major);
    wmma::mma_sync(cf, fa, fb, cf);
    wmma::store_matrix_sync(colout, cf, 16, wmma::mem_col_major);
}

__global__ void tile_s8(const signed char *a, const signed char *b, int *c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::fill_fragment(acc, 1000);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

static float val(int i, int j, int s) { return (float)(((i * 7 + j * 3 + s) % 9) - 4) * 0.25f; }

int main(void)
{
    /* A: M x K, B: K x N, each stored both ways; bias M x N */
    static half ar[M * K], ac[M * K], br[K * N], bc[K * N];
    static float fa[M][K], fb[K][N], bias[M * N], want[M * N], got[M * N];
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) {
            fa[i][k] = val(i, k, 1);
            ar[i * K + k] = __float2half(fa[i][k]);
            ac[k * M + i] = __float2half(fa[i][k]);
        }
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) {
            fb[k][j] = val(k, j, 5);
            br[k * N + j] = __float2half(fb[k][j]);
            bc[j * K + k] = __float2half(fb[k][j]);
        }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            bias[i * N + j] = (float)((i + j) % 4);
            float s = bias[i * N + j];
            for (int k = 0; k < K; k++)
                s += fa[i][k] * fb[k][j];
            want[i * N + j] = 2.0f * s;
        }
    half *dar, *dac, *dbr, *dbc;
    float *dbias, *dc;
    CHECK(cudaMalloc(&dar, sizeof ar));
    CHECK(cudaMalloc(&dac, sizeof ac));
    CHECK(cudaMalloc(&dbr, sizeof br));
    CHECK(cudaMalloc(&dbc, sizeof bc));
    CHECK(cudaMalloc(&dbias, sizeof bias));
    CHECK(cudaMalloc(&dc, sizeof got));
    CHECK(cudaMemcpy(dar, ar, sizeof ar, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dac, ac, sizeof ac, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dbr, br, sizeof br, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dbc, bc, sizeof bc, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dbias, bias, sizeof bias, cudaMemcpyHostToDevice));
    dim3 grid(N / 16, M / 16);
    gemm<wmma::row_major, wmma::col_major><<<grid, 32>>>(dar, dbc, dbias, dc, K, K);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dc, sizeof got, cudaMemcpyDeviceToHost));
    check_array_exact("wmma GEMM, A row-major, B column-major", want, got, M * N);
    gemm<wmma::col_major, wmma::row_major><<<grid, 32>>>(dac, dbr, dbias, dc, M, N);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dc, sizeof got, cudaMemcpyDeviceToHost));
    check_array_exact("wmma GEMM, A column-major, B row-major", want, got, M * N);

    /* one tile: f16 accumulator, and a column-major f32 accumulator */
    static half ta[256], tb[256], tc[256], tout[256];
    static float colin[256], colout[256], wantcol[256], wanth[256], goth[256];
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            ta[i * 16 + j] = __float2half(val(i, j, 2));
            tb[i * 16 + j] = __float2half(val(i, j, 3));
            tc[i * 16 + j] = __float2half((float)(i - j));
            colin[j * 16 + i] = (float)(i * 2 - j); /* element (i, j), column-major */
        }
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            float s = 0;
            for (int k = 0; k < 16; k++)
                s += val(i, k, 2) * val(k, j, 3);
            wanth[i * 16 + j] = s + (float)(i - j);
            wantcol[j * 16 + i] = s + (float)(i * 2 - j);
        }
    half *dta, *dtb, *dtc, *dto;
    float *dci, *dco;
    CHECK(cudaMalloc(&dta, sizeof ta));
    CHECK(cudaMalloc(&dtb, sizeof tb));
    CHECK(cudaMalloc(&dtc, sizeof tc));
    CHECK(cudaMalloc(&dto, sizeof tout));
    CHECK(cudaMalloc(&dci, sizeof colin));
    CHECK(cudaMalloc(&dco, sizeof colout));
    CHECK(cudaMemcpy(dta, ta, sizeof ta, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dtb, tb, sizeof tb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dtc, tc, sizeof tc, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dci, colin, sizeof colin, cudaMemcpyHostToDevice));
    tile_f16<<<1, 32>>>(dta, dtb, dtc, dto, dco, dci);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(tout, dto, sizeof tout, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(colout, dco, sizeof colout, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 256; i++)
        goth[i] = __half2float(tout[i]);
    check_array_exact("wmma with an f16 accumulator", wanth, goth, 256);
    check_array_exact("wmma with a column-major f32 accumulator", wantcol, colout, 256);

    /* 8-bit integers, 32-bit accumulator */
    static signed char sa[256], sb[256];
    static int sc[256], wants[256];
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            sa[i * 16 + j] = (signed char)((i * 13 + j * 7) % 255 - 127);
            sb[j * 16 + i] = (signed char)((i * 5 + j * 11) % 200 - 100); /* B[i][j], column-major */
        }
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            int s = 1000;
            for (int k = 0; k < 16; k++)
                s += sa[i * 16 + k] * sb[j * 16 + k];
            wants[i * 16 + j] = s;
        }
    signed char *dsa, *dsb;
    int *dsc;
    CHECK(cudaMalloc(&dsa, sizeof sa));
    CHECK(cudaMalloc(&dsb, sizeof sb));
    CHECK(cudaMalloc(&dsc, sizeof sc));
    CHECK(cudaMemcpy(dsa, sa, sizeof sa, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dsb, sb, sizeof sb, cudaMemcpyHostToDevice));
    tile_s8<<<1, 32>>>(dsa, dsb, dsc);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(sc, dsc, sizeof sc, cudaMemcpyDeviceToHost));
    check_array_exact("wmma of signed 8-bit integers", wants, sc, 256);

    /* the other shapes, and f16 accumulators in column-major memory */
    typedef wmma::row_major R;
    typedef wmma::col_major C;
    check_tile<32, 8, 16, half, R, C, float>("wmma m32n8k16 f16, A row B col, f32 row", false);
    check_tile<32, 8, 16, half, C, R, half>("wmma m32n8k16 f16, A col B row, f16 col", true);
    check_tile<32, 8, 16, half, R, R, half>("wmma m32n8k16 f16, A row B row, f16 row", false);
    check_tile<8, 32, 16, half, R, R, float>("wmma m8n32k16 f16, A row B row, f32 col", true);
    check_tile<8, 32, 16, half, C, C, half>("wmma m8n32k16 f16, A col B col, f16 row", false);
    check_tile<8, 32, 16, half, R, C, half>("wmma m8n32k16 f16, A row B col, f16 col", true);
    check_tile<16, 16, 16, half, R, C, half>("wmma m16n16k16 f16, A row B col, f16 col", true);
    check_tile<32, 8, 16, signed char, R, C, int>("wmma m32n8k16 s8, A row B col, s32 col", true);
    check_tile<8, 32, 16, signed char, C, R, int>("wmma m8n32k16 s8, A col B row, s32 row", false);
    check_tile<8, 32, 16, unsigned char, R, C, int>("wmma m8n32k16 u8, A row B col, s32 col", true);
    check_tile<32, 8, 16, unsigned char, C, C, int>("wmma m32n8k16 u8, A col B col, s32 row", false);
    return finish();
}
