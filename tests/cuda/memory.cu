/* memory.cu -- every way of getting and moving memory a simple program uses.
 *
 * A vector "a*x + y" workload carried through each allocator and copy kind:
 * cudaMalloc/cudaFree, cudaMallocHost/cudaFreeHost, cudaHostAlloc,
 * cudaMallocManaged (host writes, kernel reads and writes, host reads after
 * cudaDeviceSynchronize), cudaMemset (whole buffers and an inner range),
 * cudaMemcpy HostToDevice, DeviceToHost, DeviceToDevice, HostToHost and
 * Default (direction inferred from the pointers), including copies into the
 * middle of buffers.  Every result is compared with a CPU reference. */
#include "common.cuh"

#include <stdint.h>

__global__ void axpy(int a, const int *x, const int *y, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * x[i] + y[i];
}

/* In place on managed memory: v[i] = v[i] * v[i] - i. */
__global__ void square_minus_index(long long *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * v[i] - i;
}

/* Reads back what cudaMemset left, as bytes, to check the fill per byte. */
__global__ void copy_bytes(const unsigned char *src, unsigned char *dst, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[i];
}

int main(void)
{
    const int n = 10007; /* not a multiple of the block size */
    const int block = 128;
    const int grid = (n + block - 1) / block;
    const size_t bytes = n * sizeof(int);

    /* Plain host memory and the reference. */
    int *hx = (int *)malloc(bytes), *hy = (int *)malloc(bytes), *ref = (int *)malloc(bytes);
    int *hout = (int *)malloc(bytes);
    for (int i = 0; i < n; i++) {
        hx[i] = (i * 37) % 1001 - 500;
        hy[i] = (i * 11) % 97;
        ref[i] = 7 * hx[i] + hy[i];
    }

    /* cudaMalloc + H2D + kernel + D2H. */
    int *dx, *dy, *dout;
    CHECK(cudaMalloc(&dx, bytes));
    CHECK(cudaMalloc(&dy, bytes));
    CHECK(cudaMalloc(&dout, bytes));
    CHECK(cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dout, 0, bytes));
    axpy<<<grid, block>>>(7, dx, dy, dout, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hout, dout, bytes, cudaMemcpyDeviceToHost));
    check_array_exact("axpy via cudaMalloc/H2D/D2H", ref, hout, n);

    /* DeviceToDevice: copy the result into a second buffer, and a shifted
     * window of x into the middle of another. */
    int *dcopy;
    CHECK(cudaMalloc(&dcopy, bytes));
    CHECK(cudaMemset(dcopy, 0xff, bytes));
    CHECK(cudaMemcpy(dcopy, dout, bytes, cudaMemcpyDeviceToDevice));
    memset(hout, 0, bytes);
    CHECK(cudaMemcpy(hout, dcopy, bytes, cudaMemcpyDeviceToHost));
    check_array_exact("cudaMemcpyDeviceToDevice whole buffer", ref, hout, n);

    CHECK(cudaMemset(dcopy, 0, bytes));
    CHECK(cudaMemcpy(dcopy + 100, dx + 5, 1000 * sizeof(int), cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(hout, dcopy, bytes, cudaMemcpyDeviceToHost));
    {
        int *exp = (int *)calloc(n, sizeof(int));
        for (int i = 0; i < 1000; i++)
            exp[100 + i] = hx[5 + i];
        check_array_exact("cudaMemcpyDeviceToDevice with offsets", exp, hout, n);
        free(exp);
    }

    /* cudaMemset: byte fill of a whole buffer, then an inner range. */
    {
        const int nb = 3001;
        unsigned char *db, *db2, hb[3001], exp[3001];
        CHECK(cudaMalloc(&db, nb));
        CHECK(cudaMalloc(&db2, nb));
        CHECK(cudaMemset(db, 0x5a, nb));
        CHECK(cudaMemset(db + 17, 0xc3, 1000));
        copy_bytes<<<(nb + 255) / 256, 256>>>(db, db2, nb);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(hb, db2, nb, cudaMemcpyDeviceToHost));
        for (int i = 0; i < nb; i++)
            exp[i] = (i >= 17 && i < 1017) ? 0xc3 : 0x5a;
        check_array_exact("cudaMemset byte fill and inner range", exp, hb, nb);

        int word;
        CHECK(cudaMemcpy(&word, db + 20, sizeof word, cudaMemcpyDeviceToHost));
        check_int("cudaMemset value as a 32-bit word", (int)0xc3c3c3c3, word);
        CHECK(cudaFree(db));
        CHECK(cudaFree(db2));
    }

    /* Pinned host memory from cudaMallocHost and cudaHostAlloc. */
    {
        int *px, *py, *pout;
        /* With a void ** the C function cudaMallocHost is called; with a
         * typed pointer the header's template calls cudaHostAlloc. */
        CHECK(cudaMallocHost((void **)&px, bytes));
        CHECK(cudaHostAlloc(&py, bytes, cudaHostAllocDefault));
        CHECK(cudaHostAlloc(&pout, bytes, cudaHostAllocPortable));
        for (int i = 0; i < n; i++) {
            px[i] = hx[i];
            py[i] = hy[i];
            pout[i] = -1;
        }
        CHECK(cudaMemset(dout, 0, bytes));
        CHECK(cudaMemcpy(dx, px, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dy, py, bytes, cudaMemcpyHostToDevice));
        axpy<<<grid, block>>>(7, dx, dy, dout, n);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(pout, dout, bytes, cudaMemcpyDeviceToHost));
        check_array_exact("axpy via cudaMallocHost/cudaHostAlloc buffers", ref, pout, n);

        /* HostToHost between pinned and pageable memory. */
        memset(hout, 0, bytes);
        CHECK(cudaMemcpy(hout, pout, bytes, cudaMemcpyHostToHost));
        check_array_exact("cudaMemcpyHostToHost", ref, hout, n);

        CHECK(cudaFreeHost(px));
        CHECK(cudaFreeHost(py));
        CHECK(cudaFreeHost(pout));
    }

    /* cudaMemcpyDefault: the runtime works out each direction. */
    {
        int *back = (int *)malloc(bytes);
        CHECK(cudaMemset(dcopy, 0, bytes));
        CHECK(cudaMemcpy(dcopy, hx, bytes, cudaMemcpyDefault));         /* H2D */
        CHECK(cudaMemcpy(dout, dcopy, bytes, cudaMemcpyDefault));       /* D2D */
        CHECK(cudaMemcpy(back, dout, bytes, cudaMemcpyDefault));        /* D2H */
        check_array_exact("cudaMemcpyDefault H2D, D2D, D2H", hx, back, n);
        memset(hout, 0, bytes);
        CHECK(cudaMemcpy(hout, back, bytes, cudaMemcpyDefault));        /* H2H */
        check_array_exact("cudaMemcpyDefault H2H", hx, hout, n);
        free(back);
    }

    /* Managed memory: the host writes, a kernel updates in place, the host
     * reads after cudaDeviceSynchronize. */
    {
        const int m = 4099;
        long long *mv;
        CHECK(cudaMallocManaged(&mv, m * sizeof(long long)));
        for (int i = 0; i < m; i++)
            mv[i] = (long long)i * 1000003LL - 2000000000LL;
        square_minus_index<<<(m + 63) / 64, 64>>>(mv, m);
        CHECK_LAUNCH();
        CHECK(cudaDeviceSynchronize());
        long long *exp = (long long *)malloc(m * sizeof(long long));
        for (int i = 0; i < m; i++) {
            long long v = (long long)i * 1000003LL - 2000000000LL;
            exp[i] = v * v - i;
        }
        check_array_exact("cudaMallocManaged kernel update", exp, mv, m);

        /* A managed buffer also works as the source of a plain copy. */
        long long *dm;
        CHECK(cudaMalloc(&dm, m * sizeof(long long)));
        CHECK(cudaMemcpy(dm, mv, m * sizeof(long long), cudaMemcpyDefault));
        long long *back = (long long *)malloc(m * sizeof(long long));
        CHECK(cudaMemcpy(back, dm, m * sizeof(long long), cudaMemcpyDeviceToHost));
        check_array_exact("cudaMemcpyDefault from managed memory", exp, back, m);
        free(back);
        free(exp);
        CHECK(cudaFree(dm));
        CHECK(cudaFree(mv));
    }

    /* Many small allocations freed out of order, then reused. */
    {
        int *p[16];
        for (int i = 0; i < 16; i++)
            CHECK(cudaMalloc(&p[i], (size_t)(i + 1) * 1000));
        for (int i = 0; i < 16; i += 2)
            CHECK(cudaFree(p[i]));
        for (int i = 0; i < 16; i += 2)
            CHECK(cudaMalloc(&p[i], (size_t)(16 - i) * 1000));
        int ok = 1;
        for (int i = 0; i < 16; i++) {
            int v = i * 3 + 1, got = 0;
            CHECK(cudaMemcpy(p[i], &v, sizeof v, cudaMemcpyHostToDevice));
            CHECK(cudaMemcpy(&got, p[i], sizeof got, cudaMemcpyDeviceToHost));
            ok &= (got == v);
        }
        for (int i = 0; i < 16; i++)
            ok &= ((uintptr_t)p[i] % 256 == 0);
        check_true("16 allocations, freed and reused, 256-byte aligned", ok != 0);
        for (int i = 0; i < 16; i++)
            CHECK(cudaFree(p[i]));
        CHECK(cudaFree(NULL)); /* freeing NULL is a no-op */
    }

    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dcopy));
    free(hx);
    free(hy);
    free(ref);
    free(hout);
    return finish();
}
