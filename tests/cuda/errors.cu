/* errors.cu -- the error-reporting API and recoverable errors.
 *
 * cudaGetErrorName and cudaGetErrorString for a table of codes (the texts
 * CUDA has used for years), for an unknown code (some text, never NULL);
 * launch-configuration errors (too many threads per block, a zero grid, a
 * block too deep in z, too much dynamic shared memory) seen through
 * cudaPeekAtLastError (which keeps the error) and cudaGetLastError (which
 * clears it) -- the code for a bad shape is documented as
 * cudaErrorInvalidConfiguration, but CUDA 13.0 on an H100 returned
 * cudaErrorInvalidValue, so either is accepted; cudaMalloc of an impossible
 * size (cudaErrorMemoryAllocation); cudaMemcpy with an invalid kind; a
 * failed cudaSetDevice; the last error surviving later successful calls.
 * None of these errors is sticky, so between them an ordinary vector-add
 * workload must keep giving the right answer. */
#include "common.cuh"

__global__ void vadd(const int *a, const int *b, int *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void uses_dynamic_shared(int *out)
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}

static const int N = 4096;
static int *g_da, *g_db, *g_dc;
static int g_ha[N], g_hb[N];

/* The workload: one vector add, checked in full. */
static void workload(const char *when)
{
    int got[N], exp[N];
    CHECK(cudaMemset(g_dc, 0, sizeof got));
    vadd<<<N / 128, 128>>>(g_da, g_db, g_dc, N);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, g_dc, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        exp[i] = g_ha[i] + g_hb[i];
    char what[128];
    snprintf(what, sizeof what, "vector add %s", when);
    check_array_exact(what, exp, got, N);
}

int main(void)
{
    /* Names and descriptions. */
    struct { cudaError_t e; const char *name, *text; } table[] = {
        {cudaSuccess, "cudaSuccess", "no error"},
        {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
        {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
        {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
         "invalid configuration argument"},
        {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
        {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
         "invalid copy direction for memcpy"},
        {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
        {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
         "an illegal memory access was encountered"},
        {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
         "too many resources requested for launch"},
        {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction",
         "invalid device function"},
    };
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
        char what[128];
        snprintf(what, sizeof what, "cudaGetErrorName(%d)", (int)table[k].e);
        check_str(what, table[k].name, cudaGetErrorName(table[k].e));
        snprintf(what, sizeof what, "cudaGetErrorString(%s)", table[k].name);
        check_str(what, table[k].text, cudaGetErrorString(table[k].e));
    }
    const char *unk = cudaGetErrorString((cudaError_t)12345);
    check_true("cudaGetErrorString of an unknown code is some text", unk && unk[0]);
    unk = cudaGetErrorName((cudaError_t)12345);
    check_true("cudaGetErrorName of an unknown code is some text", unk && unk[0]);

    check_err("cudaGetLastError at start", cudaSuccess, cudaGetLastError());

    for (int i = 0; i < N; i++) {
        g_ha[i] = i * 5 - 3;
        g_hb[i] = 1000 - i;
    }
    CHECK(cudaMalloc(&g_da, N * sizeof(int)));
    CHECK(cudaMalloc(&g_db, N * sizeof(int)));
    CHECK(cudaMalloc(&g_dc, N * sizeof(int)));
    CHECK(cudaMemcpy(g_da, g_ha, sizeof g_ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(g_db, g_hb, sizeof g_hb, cudaMemcpyHostToDevice));
    workload("before any error");

    /* Too many threads per block: cudaErrorInvalidConfiguration by the
     * documentation, cudaErrorInvalidValue from CUDA 13.0 on an H100.
     * Either is accepted; peek and get must agree. */
    vadd<<<1, 2048>>>(g_da, g_db, g_dc, N);
    cudaError_t bad = cudaPeekAtLastError();
    check_true("cudaPeekAtLastError after a 2048-thread block is a launch-shape error",
               bad == cudaErrorInvalidConfiguration || bad == cudaErrorInvalidValue,
               cudaGetErrorName(bad));
    check_err("cudaPeekAtLastError again (not cleared)", bad, cudaPeekAtLastError());
    check_err("cudaGetLastError returns it", bad, cudaGetLastError());
    check_err("cudaGetLastError then is cudaSuccess", cudaSuccess, cudaGetLastError());
    check_err("cudaPeekAtLastError then is cudaSuccess", cudaSuccess, cudaPeekAtLastError());
    workload("after a 2048-thread launch");

    /* A zero-sized grid and a block deeper than 64 in z. */
    vadd<<<0, 128>>>(g_da, g_db, g_dc, N);
    bad = cudaGetLastError();
    check_true("launch with grid 0 is a launch-shape error",
               bad == cudaErrorInvalidConfiguration || bad == cudaErrorInvalidValue,
               cudaGetErrorName(bad));
    vadd<<<1, dim3(1, 1, 65)>>>(g_da, g_db, g_dc, N);
    bad = cudaGetLastError();
    check_true("launch with block z 65 is a launch-shape error",
               bad == cudaErrorInvalidConfiguration || bad == cudaErrorInvalidValue,
               cudaGetErrorName(bad));
    check_err("and it is cleared", cudaSuccess, cudaGetLastError());
    workload("after bad launch shapes");

    /* More dynamic shared memory than any block may have: refused at
     * launch (CUDA has reported this as an invalid argument). */
    {
        int *dout;
        CHECK(cudaMalloc(&dout, 64 * sizeof(int)));
        uses_dynamic_shared<<<1, 64, 16 << 20>>>(dout);
        cudaError_t e = cudaGetLastError();
        check_true("launch with 16 MiB of dynamic shared memory fails",
                   e == cudaErrorInvalidValue || e == cudaErrorLaunchOutOfResources ||
                       e == cudaErrorInvalidConfiguration,
                   cudaGetErrorName(e));
        /* 4 GiB + 256 bytes: refused, not cut to its low 32 bits (256) */
        uses_dynamic_shared<<<1, 64, (size_t(1) << 32) + 64 * sizeof(int)>>>(dout);
        e = cudaGetLastError();
        check_true("launch with 4 GiB + 256 bytes of dynamic shared memory fails",
                   e == cudaErrorInvalidValue || e == cudaErrorLaunchOutOfResources ||
                       e == cudaErrorInvalidConfiguration,
                   cudaGetErrorName(e));
        uses_dynamic_shared<<<1, 64, 64 * sizeof(int)>>>(dout);
        CHECK_LAUNCH();
        int got[64], exp[64];
        CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 64; i++)
            exp[i] = 63 - i;
        check_array_exact("the same kernel with 256 bytes of dynamic shared memory", exp, got, 64);
        CHECK(cudaFree(dout));
    }

    /* An impossible allocation. */
    void *huge = NULL;
    check_err("cudaMalloc of 2^60 bytes", cudaErrorMemoryAllocation,
              cudaMalloc(&huge, (size_t)1 << 60));
    /* The error survives later successful calls until it is read. */
    CHECK(cudaMemset(g_dc, 0, N * sizeof(int)));
    CHECK(cudaDeviceSynchronize());
    check_err("cudaPeekAtLastError after later successful calls", cudaErrorMemoryAllocation,
              cudaPeekAtLastError());
    check_err("cudaGetLastError returns the allocation failure", cudaErrorMemoryAllocation,
              cudaGetLastError());
    check_err("cleared afterwards", cudaSuccess, cudaGetLastError());
    workload("after a failed cudaMalloc");

    /* An invalid copy kind. */
    int tmp[4] = {0};
    check_err("cudaMemcpy with kind 99", cudaErrorInvalidMemcpyDirection,
              cudaMemcpy(g_dc, tmp, sizeof tmp, (cudaMemcpyKind)99));
    check_err("cudaGetLastError returns the copy-kind error", cudaErrorInvalidMemcpyDirection,
              cudaGetLastError());

    /* A failed cudaSetDevice. */
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    check_err("cudaSetDevice(-1)", cudaErrorInvalidDevice, cudaSetDevice(-1));
    check_err("cudaGetLastError returns the device error", cudaErrorInvalidDevice,
              cudaGetLastError());

    workload("at the end");
    check_err("cudaDeviceSynchronize at the end", cudaSuccess, cudaDeviceSynchronize());
    check_err("cudaGetLastError at the end", cudaSuccess, cudaGetLastError());
    CHECK(cudaFree(g_da));
    CHECK(cudaFree(g_db));
    CHECK(cudaFree(g_dc));
    return finish();
}
