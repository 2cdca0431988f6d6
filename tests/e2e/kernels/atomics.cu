// atomics.cu -- end-to-end kernels for atomic operations (driver: test_atomics.c).
//
// atomics_global: every thread i < n applies, to one shared set of counters
//   in global memory (struct Counters, mirrored by the driver):
//   atomicAdd on int / unsigned / unsigned long long / float / double (the
//   float and double addends are small integers and powers of two, so the sum
//   is exact in any order), atomicSub, atomicExch (the returned old values
//   must form a chain: a permutation of the initial value and all ids but
//   one), atomicMin / atomicMax signed, unsigned and 64-bit, atomicInc and
//   atomicDec with wrap limits (the returned values are a fixed multiset
//   whatever the order), atomicAnd / atomicOr / atomicXor (32 and 64 bit),
//   atomicCAS loops implementing a float max and a 32-bit product (both
//   order-independent), and a 64-bit atomicCAS increment.  The old value
//   returned by a +1 atomicAdd is stored per thread (a permutation of 0..n-1).
// atomics_shared: the same kinds of operations on __shared__ variables of each
//   block (32-bit add/sub/min/max/and/or/xor/inc/dec/exch and CAS loops, float
//   and double add, 64-bit add and CAS), then thread 0 writes the block's
//   results out.
// histogram: a 64-bin histogram of bytes, privatised per block in shared
//   memory and merged into global memory with atomicAdd, grid-stride loop.
#include "common.cuh"

struct Counters {
    int i_add;
    unsigned u_add;
    unsigned long long ull_add;
    float f_add;
    int pad0;
    double d_add;
    int i_sub;
    int exch;
    int i_min;
    int i_max;
    unsigned u_min;
    unsigned u_max;
    unsigned long long ull_min;
    unsigned long long ull_max;
    long long ll_min;
    long long ll_max;
    unsigned inc;
    unsigned dec;
    unsigned and_bits;
    unsigned or_bits;
    unsigned xor_bits;
    int f_max_bits;
    unsigned long long or64;
    unsigned long long and64;
    unsigned long long xor64;
    unsigned product;
    int ticket;
    unsigned long long cas64;
};

// A float max through a CAS loop on the bit pattern (not a spin on another
// thread: each iteration either installs our value or sees a larger one).
__device__ float atomic_max_float(float *addr, float v)
{
    int *ia = (int *)addr;
    int old = *ia;
    while (__int_as_float(old) < v) {
        int seen = atomicCAS(ia, old, __float_as_int(v));
        if (seen == old)
            break;
        old = seen;
    }
    return __int_as_float(old);
}

__device__ unsigned atomic_mul(unsigned *addr, unsigned v)
{
    unsigned old = *addr, seen;
    do {
        seen = old;
        old = atomicCAS(addr, seen, seen * v);
    } while (old != seen);
    return old;
}

extern "C" __global__ void atomics_global(Counters *c, const int *vals, int *exch_old,
                                          unsigned *inc_old, unsigned *dec_old, int *ticket_old,
                                          int n)
{
    unsigned i = e2e_gtid();
    if (i >= (unsigned)n)
        return;
    int v = vals[i];
    atomicAdd(&c->i_add, v);
    atomicAdd(&c->u_add, (unsigned)v * 2654435761u);
    atomicAdd(&c->ull_add, (unsigned long long)(unsigned)v << 20 | i);
    atomicAdd(&c->f_add, (float)(v & 15));
    atomicAdd(&c->d_add, ldexp(1.0, -(int)(i % 20u)));
    atomicSub(&c->i_sub, v);
    exch_old[i] = atomicExch(&c->exch, (int)i);
    atomicMin(&c->i_min, v);
    atomicMax(&c->i_max, v);
    atomicMin(&c->u_min, (unsigned)v);
    atomicMax(&c->u_max, (unsigned)v);
    atomicMin(&c->ull_min, (unsigned long long)(unsigned)v * 977u);
    atomicMax(&c->ull_max, (unsigned long long)(unsigned)v * 977u);
    atomicMin(&c->ll_min, (long long)v * 100003);
    atomicMax(&c->ll_max, (long long)v * 100003);
    inc_old[i] = atomicInc(&c->inc, 16u);
    dec_old[i] = atomicDec(&c->dec, 9u);
    atomicAnd(&c->and_bits, ~(1u << (i % 32u)) | (i % 3u == 0 ? 0u : 0x80000000u));
    atomicOr(&c->or_bits, 1u << ((unsigned)v % 29u));
    atomicXor(&c->xor_bits, (unsigned)v);
    atomic_max_float((float *)&c->f_max_bits, (float)v * 0.25f);
    atomicOr(&c->or64, 1ull << (i % 61u));
    atomicAnd(&c->and64, ~(1ull << ((unsigned)v % 64u)));
    atomicXor(&c->xor64, (unsigned long long)(unsigned)v << (i % 33u));
    atomic_mul(&c->product, 2u * (unsigned)v + 1u);
    ticket_old[i] = atomicAdd(&c->ticket, 1);
    unsigned long long old = c->cas64, seen;
    do {
        seen = old;
        old = atomicCAS(&c->cas64, seen, seen + 3ull);
    } while (old != seen);
}

// Per block results written by atomics_shared, mirrored by the driver.
struct BlockResult {
    int add;
    float fadd;
    int min;
    int max;
    unsigned umax;
    unsigned and_bits;
    unsigned or_bits;
    unsigned xor_bits;
    unsigned inc;
    int exch_sum;
    float fmax;
    unsigned product;
    int sub;
    unsigned dec;
    unsigned umin;
    int pad0;
    unsigned long long ull_add;
    double dadd;
    unsigned long long cas64;
};

extern "C" __global__ void atomics_shared(const int *vals, BlockResult *res, int n)
{
    __shared__ int s_add, s_min, s_max, s_exch;
    __shared__ unsigned s_umax, s_and, s_or, s_xor, s_inc, s_prod;
    __shared__ float s_fadd, s_fmax;
    __shared__ int s_exch_sum, s_sub;
    __shared__ unsigned s_dec, s_umin;
    __shared__ unsigned long long s_ull, s_cas64;
    __shared__ double s_dadd;
    unsigned t = e2e_tid_in_block();
    if (t == 0) {
        s_add = 0;
        s_min = 0x7fffffff;
        s_max = (int)0x80000000;
        s_exch = -1;
        s_umax = 0;
        s_and = 0xffffffffu;
        s_or = 0;
        s_xor = 0;
        s_inc = 0;
        s_prod = 1;
        s_fadd = 0.0f;
        s_fmax = -1.0e30f;
        s_exch_sum = 0;
        s_sub = 1000;
        s_dec = 0;
        s_umin = 0xffffffffu;
        s_ull = 1ull << 40;
        s_cas64 = 7;
        s_dadd = 0.0;
    }
    __syncthreads();
    unsigned g = e2e_gtid();
    if (g < (unsigned)n) {
        int v = vals[g];
        atomicAdd(&s_add, v);
        atomicAdd(&s_fadd, (float)(v & 7));
        atomicMin(&s_min, v);
        atomicMax(&s_max, v);
        atomicMax(&s_umax, (unsigned)v);
        atomicAnd(&s_and, (unsigned)v | 0x0f0f0f0fu);
        atomicOr(&s_or, (unsigned)v & 0x00ff00ffu);
        atomicXor(&s_xor, (unsigned)v);
        atomicInc(&s_inc, 6u);
        int old = atomicExch(&s_exch, (int)t);
        atomicAdd(&s_exch_sum, old);
        atomic_max_float(&s_fmax, (float)(v % 1000) * 0.5f);
        atomic_mul(&s_prod, (unsigned)v | 1u);
        atomicSub(&s_sub, v);
        atomicDec(&s_dec, 4u);
        atomicMin(&s_umin, (unsigned)v);
        atomicAdd(&s_ull, (unsigned long long)(unsigned)v << 12);
        atomicAdd(&s_dadd, ldexp(1.0, -(int)(t % 12u)));
        unsigned long long o64 = s_cas64, seen64;
        do {
            seen64 = o64;
            o64 = atomicCAS(&s_cas64, seen64, seen64 + 5ull);
        } while (o64 != seen64);
    }
    __syncthreads();
    if (t == 0) {
        BlockResult *r = res + e2e_block_id();
        r->add = s_add;
        r->fadd = s_fadd;
        r->min = s_min;
        r->max = s_max;
        r->umax = s_umax;
        r->and_bits = s_and;
        r->or_bits = s_or;
        r->xor_bits = s_xor;
        r->inc = s_inc;
        r->exch_sum = s_exch_sum + s_exch;
        r->fmax = s_fmax;
        r->product = s_prod;
        r->sub = s_sub;
        r->dec = s_dec;
        r->umin = s_umin;
        r->pad0 = 0;
        r->ull_add = s_ull;
        r->dadd = s_dadd;
        r->cas64 = s_cas64;
    }
}

#define BINS 64

extern "C" __global__ void histogram(const unsigned char *data, int n, unsigned *hist)
{
    __shared__ unsigned local[BINS];
    unsigned t = e2e_tid_in_block();
    unsigned nt = e2e_block_threads();
    for (unsigned b = t; b < BINS; b += nt)
        local[b] = 0;
    __syncthreads();
    unsigned stride = nt * gridDim.x * gridDim.y * gridDim.z;
    for (unsigned k = e2e_gtid(); k < (unsigned)n; k += stride)
        atomicAdd(&local[data[k] >> 2], 1u);
    __syncthreads();
    for (unsigned b = t; b < BINS; b += nt)
        if (local[b])
            atomicAdd(&hist[b], local[b]);
}
