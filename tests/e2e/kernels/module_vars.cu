// module_vars.cu -- end-to-end kernels for module-scope variables
// (driver: test_module_vars.c).
//
// Variables with initializers in .global and .const state space: scalars of
// several sizes, arrays (int, float, short, char string, unsigned long long),
// a zero-initialised array, and a pointer initialised with the address of
// another variable (PTX "generic(g_target)").  The host reads and writes them
// through lockstep_module_get_symbol + memcpy (cudaMemcpyToSymbol style).
//
// read_vars:   copies every variable into output arrays.
// update_vars: each thread i < n bumps g_counter atomically, writes
//              g_squares[i] = c_coeffs[i % 16] * i, adds into g_table, and
//              writes through g_ptr; one thread rewrites g_dscalar.
// use_consts:  y[i] = x[i] * c_scale + c_coeffs[i % 16] with the __constant__
//              values the host has overwritten before the launch.
#include "common.cuh"

__device__ int g_counter = 5;
__device__ float g_table[8] = {1.5f, -2.25f, 3.0f, 0.125f, 1e10f, -0.0f, 7.75f, 8.0f};
__device__ double g_dscalar = 2.25;
__device__ short g_shorts[5] = {1, -2, 300, -32768, 32767};
__device__ char g_name[16] = "lockstep";
__device__ unsigned long long g_big[3] = {0x0123456789abcdefull, 1ull, 0xffffffffffffffffull};
__device__ int g_squares[64];
__device__ int g_target[4] = {10, 20, 30, 40};
__device__ int *g_ptr = g_target;

__constant__ int c_coeffs[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
__constant__ float c_scale = 0.5f;
__constant__ unsigned long long c_big = 0xfedcba9876543210ull;
__constant__ char c_tag[4] = {'a', 'b', 'c', 0};

extern "C" __global__ void read_vars(int *iout, float *fout, double *dout,
                                     unsigned long long *uout)
{
    if (e2e_gtid() != 0)
        return;
    iout[0] = g_counter;
    for (int k = 0; k < 5; k++)
        iout[1 + k] = g_shorts[k];
    for (int k = 0; k < 16; k++)
        iout[6 + k] = g_name[k];
    for (int k = 0; k < 16; k++)
        iout[22 + k] = c_coeffs[k];
    for (int k = 0; k < 4; k++)
        iout[38 + k] = g_ptr[k];
    for (int k = 0; k < 4; k++)
        iout[42 + k] = c_tag[k];
    iout[46] = g_squares[63];
    for (int k = 0; k < 8; k++)
        fout[k] = g_table[k];
    fout[8] = c_scale;
    dout[0] = g_dscalar;
    for (int k = 0; k < 3; k++)
        uout[k] = g_big[k];
    uout[3] = c_big;
}

extern "C" __global__ void update_vars(int n)
{
    unsigned i = e2e_gtid();
    if (i >= (unsigned)n)
        return;
    atomicAdd(&g_counter, 1);
    if (i < 64u)
        g_squares[i] = c_coeffs[i % 16u] * (int)i;
    atomicAdd(&g_table[i % 8u], 1.0f);
    if (i < 4u)
        g_ptr[i] += (int)i;
    if (i == 0u)
        g_dscalar = g_dscalar * 4.0;
}

extern "C" __global__ void use_consts(const float *x, float *y, int n)
{
    unsigned i = e2e_gtid();
    if (i < (unsigned)n)
        y[i] = __fadd_rn(__fmul_rn(x[i], c_scale), (float)c_coeffs[i % 16u]);
}
