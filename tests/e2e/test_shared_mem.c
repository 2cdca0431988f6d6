/*
 * test_shared_mem.c -- end-to-end: shared memory and __syncthreads
 * (kernels/shared_mem.cu).
 *
 * block_reduce: five block shapes (256, 100, 33, 8x4x3, 7x7 threads) over
 *   grids of 1-D, 2-D and 3-D shape; per block an int sum and a float sum of
 *   small integers (exact in any order) against the CPU.
 * matmul_tiled: four matrix sizes, three with partial tiles at the edges;
 *   the CPU repeats the kernel's fmaf chain in k order, so results match
 *   bit for bit.
 * stencil2d: four grid sizes (one smaller than a block), halo cells at the
 *   border read as 0.
 * dyn_scan: four block sizes with the dynamic shared size computed per
 *   launch (two int buffers plus a double array after them).
 */
#include <math.h>

#include "e2e.h"

#define FILL 0xcd

static void test_block_reduce(void)
{
    static const e2e_shape shapes[] = {
        {"grid 5, block 256", {5, 1, 1}, {256, 1, 1}},
        {"grid 4x3, block 100", {4, 3, 1}, {100, 1, 1}},
        {"grid 2x2x2, block 33", {2, 2, 2}, {33, 1, 1}},
        {"grid 3, 3-D block 8x4x3", {3, 1, 1}, {8, 4, 3}},
        {"grid 2x5, 2-D block 7x7", {2, 5, 1}, {7, 7, 1}},
    };
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "shared_mem.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "block_reduce");
    if (!k)
        goto out;
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        const e2e_shape *sh = &shapes[si];
        size_t threads = (size_t)e2e_shape_threads(sh), tpb = (size_t)e2e_dim3_count(sh->block);
        size_t blocks = (size_t)e2e_dim3_count(sh->grid), n = threads - tpb / 2 - 1;
        int32_t *in = malloc(n * 4), *isum = calloc(blocks, 4), *igot = malloc(blocks * 4);
        float *fsum = calloc(blocks, 4), *fgot = malloc(blocks * 4);
        lockstep_dptr din = 0, di = 0, df = 0;
        uint64_t st = 0x5ed + si;
        if (!in || !isum || !igot || !fsum || !fgot)
            goto next;
        for (size_t i = 0; i < n; i++) {
            in[i] = (int32_t)e2e_rand_range(&st, -1000000, 1000000);
            isum[i / tpb] += in[i];
            fsum[i / tpb] += (float)(in[i] % 100);
        }
        din = e2e_upload(dev, in, n * 4);
        di = e2e_alloc(dev, blocks * 4);
        df = e2e_alloc(dev, blocks * 4);
        if (!din || !di || !df)
            goto next;
        int nn = (int)n;
        void *args[] = {&din, &di, &df, &nn};
        if (!e2e_launch(dev, k, sh->name, sh->grid, sh->block, 0, args))
            goto next;
        if (e2e_download(dev, igot, di, blocks * 4) && e2e_download(dev, fgot, df, blocks * 4)) {
            char what[128];
            snprintf(what, sizeof what, "block_reduce int sum per block, %s", sh->name);
            e2e_cmp_i32(what, igot, isum, blocks, NULL);
            snprintf(what, sizeof what, "block_reduce float sum per block, %s", sh->name);
            e2e_cmp_f32(what, fgot, fsum, blocks, 0, NULL, NULL);
        }
    next:
        e2e_free(dev, din);
        e2e_free(dev, di);
        e2e_free(dev, df);
        free(in);
        free(isum);
        free(igot);
        free(fsum);
        free(fgot);
    }
out:
    e2e_device_destroy(dev);
}

static void test_matmul(void)
{
    static const int sizes[][3] = {{37, 45, 29}, {16, 16, 16}, {5, 70, 33}, {64, 20, 3}};
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "shared_mem.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "matmul_tiled");
    if (!k)
        goto out;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        int M = sizes[si][0], N = sizes[si][1], K = sizes[si][2];
        float *A = malloc((size_t)M * K * 4), *B = malloc((size_t)K * N * 4);
        float *C = malloc((size_t)M * N * 4), *G = malloc((size_t)M * N * 4);
        lockstep_dptr dA = 0, dB = 0, dC = 0;
        uint64_t st = 0x3a7 + si;
        if (!A || !B || !C || !G)
            goto next;
        for (int i = 0; i < M * K; i++)
            A[i] = (float)e2e_rand_range(&st, -1000000, 1000000) / 524288.0f;
        for (int i = 0; i < K * N; i++)
            B[i] = (float)e2e_rand_range(&st, -1000000, 1000000) / 393216.0f;
        for (int r = 0; r < M; r++)
            for (int c = 0; c < N; c++) {
                float acc = 0.0f;
                for (int kk = 0; kk < K; kk++)
                    acc = fmaf(A[r * K + kk], B[kk * N + c], acc);
                C[r * N + c] = acc;
            }
        dA = e2e_upload(dev, A, (size_t)M * K * 4);
        dB = e2e_upload(dev, B, (size_t)K * N * 4);
        dC = e2e_alloc(dev, (size_t)M * N * 4);
        if (!dA || !dB || !dC)
            goto next;
        lockstep_dim3 grid = e2e_dim3((uint32_t)(N + 15) / 16, (uint32_t)(M + 15) / 16, 1);
        char what[128];
        snprintf(what, sizeof what, "matmul_tiled %dx%dx%d", M, N, K);
        void *args[] = {&dA, &dB, &dC, &M, &N, &K};
        if (!e2e_launch(dev, k, what, grid, e2e_dim3(16, 16, 1), 0, args))
            goto next;
        if (e2e_download(dev, G, dC, (size_t)M * N * 4)) {
            snprintf(what, sizeof what, "matmul_tiled C (index r*N+c), %dx%dx%d", M, N, K);
            e2e_cmp_f32(what, G, C, (size_t)M * N, 0, NULL, NULL);
        }
    next:
        e2e_free(dev, dA);
        e2e_free(dev, dB);
        e2e_free(dev, dC);
        free(A);
        free(B);
        free(C);
        free(G);
    }
out:
    e2e_device_destroy(dev);
}

static void test_stencil(void)
{
    static const int sizes[][2] = {{50, 19}, {16, 8}, {33, 17}, {5, 3}};
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "shared_mem.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "stencil2d");
    if (!k)
        goto out;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        int w = sizes[si][0], h = sizes[si][1];
        size_t cells = (size_t)w * h;
        int32_t *in = malloc(cells * 4), *exp = malloc(cells * 4), *got = malloc(cells * 4);
        lockstep_dptr din = 0, dout = 0;
        uint64_t st = 0x57e + si;
        if (!in || !exp || !got)
            goto next;
        for (size_t i = 0; i < cells; i++)
            in[i] = (int32_t)e2e_rand_range(&st, -1000, 1000);
#define AT(x, y) (((x) >= 0 && (x) < w && (y) >= 0 && (y) < h) ? in[(y) * w + (x)] : 0)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                exp[y * w + x] = 4 * AT(x, y) - AT(x, y - 1) - AT(x, y + 1) - AT(x - 1, y) -
                                 AT(x + 1, y);
#undef AT
        din = e2e_upload(dev, in, cells * 4);
        dout = e2e_alloc(dev, cells * 4);
        if (!din || !dout || !e2e_fill(dev, dout, FILL, cells * 4))
            goto next;
        lockstep_dim3 grid = e2e_dim3((uint32_t)(w + 15) / 16, (uint32_t)(h + 7) / 8, 1);
        char what[128];
        snprintf(what, sizeof what, "stencil2d %dx%d", w, h);
        void *args[] = {&din, &dout, &w, &h};
        if (!e2e_launch(dev, k, what, grid, e2e_dim3(16, 8, 1), 0, args))
            goto next;
        if (e2e_download(dev, got, dout, cells * 4)) {
            snprintf(what, sizeof what, "stencil2d out (index y*w+x), %dx%d", w, h);
            e2e_cmp_i32(what, got, exp, cells, NULL);
        }
    next:
        e2e_free(dev, din);
        e2e_free(dev, dout);
        free(in);
        free(exp);
        free(got);
    }
out:
    e2e_device_destroy(dev);
}

static void test_dyn_scan(void)
{
    static const uint32_t blocks[] = {128, 100, 33, 256};
    const size_t n = 1000;
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "shared_mem.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "dyn_scan");
    int32_t *in = malloc(n * 4), *exp = malloc(n * 4), *got = malloc(n * 4);
    double *dexp = malloc(n * 8), *dgot = malloc(n * 8);
    lockstep_dptr din = 0, dout = 0, ddout = 0;
    uint64_t st = 0xd5;
    if (!k || !in || !exp || !got || !dexp || !dgot)
        goto out;
    for (size_t i = 0; i < n; i++)
        in[i] = (int32_t)e2e_rand_range(&st, -50000, 50000);
    din = e2e_upload(dev, in, n * 4);
    dout = e2e_alloc(dev, n * 4);
    ddout = e2e_alloc(dev, n * 8);
    if (!din || !dout || !ddout)
        goto out;
    for (size_t bi = 0; bi < sizeof blocks / sizeof blocks[0]; bi++) {
        uint32_t nt = blocks[bi], grid = (uint32_t)((n + nt - 1) / nt);
        uint32_t shmem = 2 * ((nt + 1) & ~1u) * 4 + nt * 8;
        for (size_t i = 0; i < n; i++) {
            size_t t = i % nt;
            exp[i] = (t == 0 ? 0 : exp[i - 1]) + in[i];
            dexp[i] = (double)(nt - 1 - t) * 0.5;
        }
        char what[128];
        snprintf(what, sizeof what, "dyn_scan block %u, %u B dynamic shared", nt, shmem);
        int nn = (int)n;
        void *args[] = {&din, &dout, &ddout, &nn};
        if (!e2e_launch(dev, k, what, e2e_dim3(grid, 1, 1), e2e_dim3(nt, 1, 1), shmem, args))
            continue;
        if (e2e_download(dev, got, dout, n * 4) && e2e_download(dev, dgot, ddout, n * 8)) {
            e2e_cmp_i32(what, got, exp, n, NULL);
            snprintf(what, sizeof what, "dyn_scan double array, block %u", nt);
            e2e_cmp_f64(what, dgot, dexp, n, 0, NULL, NULL);
        }
    }
out:
    e2e_free(dev, din);
    e2e_free(dev, dout);
    e2e_free(dev, ddout);
    free(in);
    free(exp);
    free(got);
    free(dexp);
    free(dgot);
    e2e_device_destroy(dev);
}

int main(void)
{
    RUN(test_block_reduce);
    RUN(test_matmul);
    RUN(test_stencil);
    RUN(test_dyn_scan);
    return test_summary();
}
