// device_functions.cu -- end-to-end kernels for real (non-inlined) calls
// (driver: test_device_functions.c).
//
// calls: per thread, from code where lanes diverge:
//   - mix(): a __noinline__ function with seven parameters of mixed types
//     (int, unsigned, long long, float, double, char, pointer) returning an
//     int and writing a second result through the pointer;
//   - fib() and fact(): recursive __noinline__ functions (depth <= 11 and
//     <= 20), called with a different depth in each lane;
//   - step(): takes a struct by value and returns a struct by value
//     (.param .align 8 .b8 arrays on both sides of the call);
//   - collatz_len(): a __noinline__ function with a data-dependent loop,
//     called only by the lanes of one side of a branch;
//   - an indirect call through a table of function pointers in a __device__
//     array (nvcc emits call through a register with a .callprototype), with
//     a different target in neighbouring lanes.
// All arithmetic is integer or exact in floating point (products of small
// integers and powers of two), so the CPU reference reproduces it exactly.
#include "common.cuh"

#define DF_OUTS 10

extern "C" __device__ __noinline__ int mix(int a, unsigned b, long long c, float d, double e,
                                           char ch, int *second)
{
    *second = (int)(c >> 3) - a;
    return a * 3 + (int)(b >> 1) + (int)c + (int)(d * 2.0f) + (int)(e * 4.0) + ch;
}

extern "C" __device__ __noinline__ int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

extern "C" __device__ __noinline__ unsigned long long fact(unsigned n)
{
    return n <= 1u ? 1ull : (unsigned long long)n * fact(n - 1u);
}

struct State {
    int count;
    float scale;
    double total;
    char flag;
    short id;
};

extern "C" __device__ __noinline__ State step(State s, int v)
{
    State r;
    r.count = s.count + 1;
    r.scale = s.scale * 2.0f;
    r.total = s.total + (double)v * (double)s.scale;
    r.flag = (char)(s.flag ^ (char)v);
    r.id = (short)(s.id + 7);
    return r;
}

extern "C" __device__ __noinline__ int collatz_len(unsigned c)
{
    int k = 0;
    while (c > 1u) {
        c = (c & 1u) ? 3u * c + 1u : c / 2u;
        k++;
    }
    return k;
}

extern "C" __device__ __noinline__ int op_add(int a, int b) { return a + b; }
extern "C" __device__ __noinline__ int op_sub(int a, int b) { return a - b; }
extern "C" __device__ __noinline__ int op_mul(int a, int b) { return a * b; }
extern "C" __device__ __noinline__ int op_max(int a, int b) { return a > b ? a : b; }

typedef int (*binop)(int, int);
__device__ binop op_table[4] = {op_add, op_sub, op_mul, op_max};

extern "C" __global__ void calls(const int *in, int *out, unsigned long long *fout, double *dout,
                                 int n)
{
    unsigned g = e2e_gtid();
    if (g >= (unsigned)n)
        return;
    int v = in[g];
    int *o = out + (size_t)g * DF_OUTS;

    int second = 0;
    o[0] = mix(v, (unsigned)v * 5u, (long long)v * 1000, (float)(v & 63) * 0.5f,
               (double)(v % 50) * 0.25, (char)(v & 0x3f), &second);
    o[1] = second;
    o[2] = fib((int)((unsigned)v % 12u));
    fout[g] = fact((unsigned)v % 21u);

    State s = {v & 7, 0.5f, 1.0, (char)1, (short)v};
    for (int k = 0; k < (v & 3); k++)
        s = step(s, v + k);
    o[3] = s.count;
    o[4] = (int)(s.scale * 16.0f);
    o[5] = (int)s.flag;
    o[6] = (int)s.id;
    dout[g] = s.total;

    if (v & 1)
        o[7] = collatz_len((unsigned)v & 255u);
    else
        o[7] = -collatz_len(((unsigned)v >> 3) & 127u);

    binop f = op_table[(unsigned)v % 4u];
    o[8] = f(v, (int)g);
    o[9] = op_table[(g + 1u) % 4u](v & 0xfff, 3);
}
