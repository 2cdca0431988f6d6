/* symbols.cu -- module-scope __device__ and __constant__ variables.
 *
 * A small polynomial-evaluation workload whose coefficients live in constant
 * memory and whose statistics are accumulated into __device__ variables.
 * Covers scalars and arrays, with and without initializers, of int, float and
 * double; cudaMemcpyToSymbol / cudaMemcpyFromSymbol with and without an
 * offset, host-to-device and device-to-device; their Async forms on a stream;
 * and cudaGetSymbolAddress, whose pointer is used both by cudaMemcpy and by a
 * kernel. */
#include "common.cuh"

#define NCOEF 8

__constant__ float c_coef[NCOEF];                         /* set by the host */
__constant__ int c_scale = 3;                             /* initialized */
__constant__ double c_dtab[4] = {0.5, 0.25, -2.0, 1024.0}; /* initialized array */
__constant__ int c_lut[16];                               /* set with offsets */

__device__ int d_counter;                                  /* no initializer */
__device__ int d_init = 42;                                /* initialized scalar */
__device__ int d_arr_init[5] = {10, 20, 30, 40, 50};       /* initialized array */
__device__ float d_buf[256];                               /* device-side array */
__device__ unsigned long long d_sum;                       /* 64-bit accumulator */

/* out[i] = c_scale * poly(x[i]) with Horner over c_coef; counts positives. */
__global__ void poly_eval(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = 0.0f;
        for (int k = NCOEF - 1; k >= 0; k--)
            v = v * x[i] + c_coef[k];
        v *= (float)c_scale;
        out[i] = v;
        if (v > 0.0f)
            atomicAdd(&d_counter, 1);
    }
}

/* Reads the initialized device and constant variables into out. */
__global__ void read_initialized(double *out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        out[0] = (double)d_init;
        for (int k = 0; k < 5; k++)
            out[1 + k] = (double)d_arr_init[k];
        for (int k = 0; k < 4; k++)
            out[6 + k] = c_dtab[k];
        out[10] = (double)c_scale;
    }
}

/* d_buf[i] = lut[i % 16] + i; d_sum += every value. */
__global__ void fill_buf(void)
{
    int i = threadIdx.x;
    float v = (float)(c_lut[i % 16] + i);
    d_buf[i] = v;
    atomicAdd(&d_sum, (unsigned long long)(c_lut[i % 16] + i));
}

/* Doubles whatever p points to (a symbol's address passed as a pointer). */
__global__ void double_through_pointer(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] *= 2.0f;
}

int main(void)
{
    /* Initialized variables, read by the host and by a kernel. */
    {
        int v = 0;
        CHECK(cudaMemcpyFromSymbol(&v, d_init, sizeof v));
        check_int("initialized __device__ int via cudaMemcpyFromSymbol", 42, v);
        int arr[5] = {0};
        CHECK(cudaMemcpyFromSymbol(arr, d_arr_init, sizeof arr));
        const int exp_arr[5] = {10, 20, 30, 40, 50};
        check_array_exact("initialized __device__ int[5]", exp_arr, arr, 5);
        int tail[2] = {0};
        CHECK(cudaMemcpyFromSymbol(tail, d_arr_init, sizeof tail, 3 * sizeof(int)));
        check_array_exact("cudaMemcpyFromSymbol with offset 12", exp_arr + 3, tail, 2);
        double d2 = 0;
        CHECK(cudaMemcpyFromSymbol(&d2, c_dtab, sizeof d2, 2 * sizeof(double),
                                   cudaMemcpyDeviceToHost));
        check_true("initialized __constant__ double[4] element 2 read by the host", d2 == -2.0);

        double *dout, hout[11];
        CHECK(cudaMalloc(&dout, sizeof hout));
        read_initialized<<<1, 32>>>(dout);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
        const double exp[11] = {42, 10, 20, 30, 40, 50, 0.5, 0.25, -2.0, 1024.0, 3};
        check_array_near("initialized variables read by a kernel", exp, hout, 11, 0.0);
        CHECK(cudaFree(dout));
    }

    /* Constant coefficients from the host; a counter zeroed through the
     * symbol and read back after the kernel. */
    const int n = 5000;
    float *hx = (float *)malloc(n * sizeof(float)), *ref = (float *)malloc(n * sizeof(float));
    float *hout = (float *)malloc(n * sizeof(float));
    const float coef[NCOEF] = {1.0f, -0.5f, 0.25f, 2.0f, -1.0f, 0.125f, 0.0f, 0.5f};
    for (int i = 0; i < n; i++)
        hx[i] = (float)(i % 41 - 20) / 8.0f; /* exact in binary */
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToSymbol(c_coef, coef, sizeof coef));
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(d_counter, &zero, sizeof zero, 0, cudaMemcpyHostToDevice));

    int positives = 0;
    for (int i = 0; i < n; i++) {
        float v = 0.0f;
        for (int k = NCOEF - 1; k >= 0; k--)
            v = fmaf(v, hx[i], coef[k]); /* nvcc contracts v * x + c to fma */
        ref[i] = v * 3.0f;
        positives += ref[i] > 0.0f;
    }
    poly_eval<<<(n + 127) / 128, 128>>>(dx, dy, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hout, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    check_array_near("polynomial with __constant__ coefficients", ref, hout, n, 1e-5);
    int count = -1;
    CHECK(cudaMemcpyFromSymbol(&count, d_counter, sizeof count));
    check_int("__device__ counter incremented by atomicAdd", positives, count);

    /* Partial update of the coefficients through an offset: change the
     * upper four only, then evaluate again. */
    {
        const float upper[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        CHECK(cudaMemcpyToSymbol(c_coef, upper, sizeof upper, 4 * sizeof(float)));
        float back[NCOEF];
        CHECK(cudaMemcpyFromSymbol(back, c_coef, sizeof back));
        const float exp[NCOEF] = {1.0f, -0.5f, 0.25f, 2.0f, 0.0f, 0.0f, 0.0f, 0.0f};
        check_array_near("cudaMemcpyToSymbol with offset 16", exp, back, NCOEF, 0.0);
        CHECK(cudaMemcpyToSymbol(d_counter, &zero, sizeof zero));
        poly_eval<<<(n + 127) / 128, 128>>>(dx, dy, n);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(hout, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
        positives = 0;
        for (int i = 0; i < n; i++) {
            float v = 0.0f;
            for (int k = NCOEF - 1; k >= 0; k--)
                v = fmaf(v, hx[i], exp[k]);
            ref[i] = v * 3.0f;
            positives += ref[i] > 0.0f;
        }
        check_array_near("polynomial after the partial update", ref, hout, n, 1e-5);
        CHECK(cudaMemcpyFromSymbol(&count, d_counter, sizeof count));
        check_int("__device__ counter after the second launch", positives, count);
    }

    /* Async symbol copies on a stream, including device-to-device ones and
     * offsets into the lookup table. */
    {
        cudaStream_t s;
        CHECK(cudaStreamCreate(&s));
        int *hlut;
        CHECK(cudaMallocHost(&hlut, 16 * sizeof(int)));
        for (int k = 0; k < 16; k++)
            hlut[k] = 100 * k;
        int *dlut;
        CHECK(cudaMalloc(&dlut, 16 * sizeof(int)));
        CHECK(cudaMemcpy(dlut, hlut, 16 * sizeof(int), cudaMemcpyHostToDevice));
        /* Entries 0..7 from the host, entries 8..15 from device memory. */
        CHECK(cudaMemcpyToSymbolAsync(c_lut, hlut, 8 * sizeof(int), 0, cudaMemcpyHostToDevice, s));
        CHECK(cudaMemcpyToSymbolAsync(c_lut, dlut + 8, 8 * sizeof(int), 8 * sizeof(int),
                                      cudaMemcpyDeviceToDevice, s));
        unsigned long long zero64 = 0;
        CHECK(cudaMemcpyToSymbolAsync(d_sum, &zero64, sizeof zero64, 0, cudaMemcpyHostToDevice, s));
        fill_buf<<<1, 256, 0, s>>>();
        CHECK_LAUNCH();
        float *hbuf;
        CHECK(cudaMallocHost(&hbuf, 256 * sizeof(float)));
        CHECK(cudaMemcpyFromSymbolAsync(hbuf, d_buf, 256 * sizeof(float), 0,
                                        cudaMemcpyDeviceToHost, s));
        unsigned long long sum = 0;
        CHECK(cudaMemcpyFromSymbolAsync(&sum, d_sum, sizeof sum, 0, cudaMemcpyDeviceToHost, s));
        /* Device-to-device out of a symbol, at an offset. */
        float *dpart;
        CHECK(cudaMalloc(&dpart, 64 * sizeof(float)));
        CHECK(cudaMemcpyFromSymbolAsync(dpart, d_buf, 64 * sizeof(float), 100 * sizeof(float),
                                        cudaMemcpyDeviceToDevice, s));
        CHECK(cudaStreamSynchronize(s));

        float exp[256];
        unsigned long long esum = 0;
        for (int i = 0; i < 256; i++) {
            exp[i] = (float)(100 * (i % 16) + i);
            esum += (unsigned long long)(100 * (i % 16) + i);
        }
        check_array_near("d_buf filled from __constant__ lut (async copies)", exp, hbuf, 256, 0.0);
        check_int("__device__ unsigned long long sum (async)", (long long)esum, (long long)sum);
        float part[64];
        CHECK(cudaMemcpy(part, dpart, sizeof part, cudaMemcpyDeviceToHost));
        check_array_near("cudaMemcpyFromSymbolAsync device-to-device at offset 400", exp + 100,
                         part, 64, 0.0);
        CHECK(cudaFree(dpart));
        CHECK(cudaFree(dlut));
        CHECK(cudaFreeHost(hlut));

        /* cudaGetSymbolAddress: the pointer works with cudaMemcpy and as a
         * kernel argument, and aliases the symbol. */
        float *pbuf = NULL;
        CHECK(cudaGetSymbolAddress((void **)&pbuf, d_buf));
        check_true("cudaGetSymbolAddress returned a pointer", pbuf != NULL);
        double_through_pointer<<<2, 128, 0, s>>>(pbuf, 256);
        CHECK_LAUNCH();
        CHECK(cudaStreamSynchronize(s));
        float direct[256];
        CHECK(cudaMemcpy(direct, pbuf, sizeof direct, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 256; i++)
            exp[i] *= 2.0f;
        check_array_near("kernel write through the symbol's address, read by cudaMemcpy", exp,
                         direct, 256, 0.0);
        CHECK(cudaMemcpyFromSymbol(hbuf, d_buf, 256 * sizeof(float)));
        check_array_near("the same data read through the symbol", exp, hbuf, 256, 0.0);

        int *pinit = NULL;
        CHECK(cudaGetSymbolAddress((void **)&pinit, d_arr_init));
        const int seven = 7;
        CHECK(cudaMemcpy(pinit + 4, &seven, sizeof seven, cudaMemcpyHostToDevice));
        int arr[5];
        CHECK(cudaMemcpyFromSymbol(arr, d_arr_init, sizeof arr));
        const int exp_arr[5] = {10, 20, 30, 40, 7};
        check_array_exact("cudaMemcpy through cudaGetSymbolAddress into d_arr_init[4]", exp_arr,
                          arr, 5);
        CHECK(cudaFreeHost(hbuf));
        CHECK(cudaStreamDestroy(s));
    }

    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    free(hx);
    free(ref);
    free(hout);
    return finish();
}
