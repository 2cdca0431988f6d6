// half_ops.cu -- end-to-end kernels for 16-bit float comparisons and atomics,
// packed 16-bit integer SIMD and multi-warp cooperative-groups tiles (driver:
// test_half_ops.c).  Built for sm_90 (regen.sh reads the line below): bf16
// atomics, bf16 set and add/min/max .u16x2/.s16x2 need it.
// nvcc-arch: sm_90
//
// half_cmp: thread i compares a[i] with b[i] as two halves (__half2 and
//   __nv_bfloat162: the same bits) with every cuda_fp16.h / cuda_bf16.h
//   comparison that nvcc makes a set instruction of (set.CmpOp.f16x2.f16x2,
//   set.CmpOp.u32.f16x2 for the _mask forms, set.nan.f16.f16 for __hisnan,
//   the bf16 forms), HCMP_N words per thread.
// half_atomics: thread i < n adds v[i] to its own slot of each kind
//   (atomicAdd on __half, __half2, __nv_bfloat16, __nv_bfloat162: one add
//   each, so the rounding of every sum and the old value are checked), then
//   small exact addends to one global counter of each kind (any order gives
//   the same sum) and to a __shared__ counter of each kind per block, which
//   thread 0 adds to global results once the block is done.
// i16x2_ops: the SIMD-within-a-word intrinsics sm_90 compiles to add, min and
//   max .u16x2/.s16x2 (.relu), I16_N words per thread.
// cg_tile64: cooperative_groups::tiled_partition<64> and <128> of the block
//   (sm_80 and later keep their scratch in the reserved shared memory at
//   %reserved_smem_offset_1): reduce, shfl, sync and the ranks, with a
//   __shared__ array in use beside it.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "common.cuh"

namespace cg = cooperative_groups;

#define HCMP_N 21
#define I16_N 10

__device__ __forceinline__ unsigned h2u(__half2 h) { return *reinterpret_cast<unsigned *>(&h); }
__device__ __forceinline__ unsigned b2u(__nv_bfloat162 h)
{
    return *reinterpret_cast<unsigned *>(&h);
}

extern "C" __global__ void half_cmp(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    unsigned i = e2e_gtid();
    if (i >= (unsigned)n)
        return;
    unsigned x = a[i], y = b[i];
    __half2 ha = *reinterpret_cast<__half2 *>(&x), hb = *reinterpret_cast<__half2 *>(&y);
    __nv_bfloat162 ba = *reinterpret_cast<__nv_bfloat162 *>(&x);
    __nv_bfloat162 bb = *reinterpret_cast<__nv_bfloat162 *>(&y);
    unsigned *o = out + (size_t)i * HCMP_N;
    o[0] = h2u(__heq2(ha, hb));
    o[1] = h2u(__hne2(ha, hb));
    o[2] = h2u(__hlt2(ha, hb));
    o[3] = h2u(__hle2(ha, hb));
    o[4] = h2u(__hgt2(ha, hb));
    o[5] = h2u(__hge2(ha, hb));
    o[6] = h2u(__hequ2(ha, hb));
    o[7] = h2u(__hneu2(ha, hb));
    o[8] = h2u(__hltu2(ha, hb));
    o[9] = h2u(__hleu2(ha, hb));
    o[10] = h2u(__hgtu2(ha, hb));
    o[11] = h2u(__hgeu2(ha, hb));
    o[12] = h2u(__hisnan2(ha));
    o[13] = __heq2_mask(ha, hb);
    o[14] = __hltu2_mask(ha, hb);
    o[15] = b2u(__heq2(ba, bb));
    o[16] = b2u(__hlt2(ba, bb));
    o[17] = b2u(__hgeu2(ba, bb));
    o[18] = b2u(__hisnan2(ba));
    o[19] = __hisnan(__low2half(ha)) ? 1u : 0u;
    o[20] = __hisnan(__high2bfloat16(ba)) ? 1u : 0u;
}

// slots: h[n] (__half), h2[n], bh[n] (__nv_bfloat16), b2[n]; old[4 n] the old
// values; sums[4]: global counters (half, half2, bf16, bf162, as 16/32-bit
// words); blk[6]: the shared counters' totals (halves and quarters times 4),
// added per block
extern "C" __global__ void half_atomics(__half *h, __half2 *h2, __nv_bfloat16 *bh,
                                        __nv_bfloat162 *b2, const unsigned *v, unsigned *old,
                                        unsigned *sums, unsigned *blk, int n)
{
    __shared__ __half s_h;
    __shared__ __half2 s_h2;
    __shared__ __nv_bfloat16 s_b;
    __shared__ __nv_bfloat162 s_b2;
    unsigned t = e2e_tid_in_block();
    if (t == 0) {
        s_h = __float2half(0.0f);
        s_h2 = __floats2half2_rn(0.0f, 0.0f);
        s_b = __float2bfloat16(0.0f);
        s_b2 = __floats2bfloat162_rn(0.0f, 0.0f);
    }
    __syncthreads();
    unsigned i = e2e_gtid();
    if (i < (unsigned)n) {
        unsigned x = v[i];
        __half xh = __ushort_as_half((unsigned short)x);
        __half2 xh2 = *reinterpret_cast<__half2 *>(&x);
        __nv_bfloat16 xb = __ushort_as_bfloat16((unsigned short)(x >> 16));
        __nv_bfloat162 xb2 = *reinterpret_cast<__nv_bfloat162 *>(&x);
        old[4 * i + 0] = __half_as_ushort(atomicAdd(&h[i], xh));
        old[4 * i + 1] = h2u(atomicAdd(&h2[i], xh2));
        old[4 * i + 2] = __bfloat16_as_ushort(atomicAdd(&bh[i], xb));
        old[4 * i + 3] = b2u(atomicAdd(&b2[i], xb2));
        // exact in any order: f16 sums of 0..3 and of halves and quarters (all
        // below 1024), bf16 sums of ones and twos (all below 256)
        float q = (float)(i & 3), r = (i & 1) ? 0.5f : 0.25f;
        float o = (i & 7) == 0 ? 1.0f : 0.0f, w = (i & 7) == 1 ? 2.0f : 0.0f;
        atomicAdd(reinterpret_cast<__half *>(sums), __float2half(q));
        atomicAdd(reinterpret_cast<__half2 *>(sums + 1), __floats2half2_rn(q, r));
        atomicAdd(reinterpret_cast<__nv_bfloat16 *>(sums + 2), __float2bfloat16(o));
        atomicAdd(reinterpret_cast<__nv_bfloat162 *>(sums + 3), __floats2bfloat162_rn(o, w));
        atomicAdd(&s_h, __float2half(q));
        atomicAdd(&s_h2, __floats2half2_rn(q, r));
        atomicAdd(&s_b, __float2bfloat16(o));
        atomicAdd(&s_b2, __floats2bfloat162_rn(o, w));
    }
    __syncthreads();
    if (t == 0) {
        atomicAdd(&blk[0], (unsigned)__half2float(s_h));
        atomicAdd(&blk[1], (unsigned)(__low2float(s_h2) * 4.0f));
        atomicAdd(&blk[2], (unsigned)(__high2float(s_h2) * 4.0f));
        atomicAdd(&blk[3], (unsigned)__bfloat162float(s_b));
        atomicAdd(&blk[4], (unsigned)(__low2float(s_b2)));
        atomicAdd(&blk[5], (unsigned)(__high2float(s_b2)));
    }
}

extern "C" __global__ void i16x2_ops(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    unsigned i = e2e_gtid();
    if (i >= (unsigned)n)
        return;
    unsigned x = a[i], y = b[i];
    unsigned *o = out + (size_t)i * I16_N;
    o[0] = __vadd2(x, y);
    o[1] = __vsub2(x, y);
    o[2] = __vminu2(x, y);
    o[3] = __vmins2(x, y);
    o[4] = __vmaxu2(x, y);
    o[5] = __vmaxs2(x, y);
    o[6] = __vimax_s16x2_relu(x, y);
    o[7] = __vimin_s16x2_relu(x, y);
    o[8] = __vneg2(x);
    o[9] = __vimax3_u16x2(x, y, x ^ y);
}

// out[3 t]: the sum of the 64-thread tile's inputs, out[3 t + 1]: tile
// thread 5's input, out[3 t + 2]: meta_group_rank * 1000 + thread_rank; then
// the same for tiles of 128 in out2; sh[] is written and read around them
extern "C" __global__ void cg_tile64(const int *in, int *out, int *out2)
{
    __shared__ int sh[256];
    cg::thread_block b = cg::this_thread_block();
    unsigned t = b.thread_rank();
    sh[t] = (int)t * 7;
    cg::thread_block_tile<64> t64 = cg::tiled_partition<64>(b);
    int v = in[b.group_index().x * b.size() + t];
    int s = cg::reduce(t64, v, cg::plus<int>());
    int first = t64.shfl(v, 5);
    t64.sync();
    int *o = out + 3 * (b.group_index().x * b.size() + t);
    o[0] = s;
    o[1] = first;
    o[2] = (int)(t64.meta_group_rank() * 1000 + t64.thread_rank());
    cg::thread_block_tile<128> t128 = cg::tiled_partition<128>(b);
    int s2 = cg::reduce(t128, v + sh[t ^ 1], cg::plus<int>());
    int last = t128.shfl(v, 127);
    int *o2 = out2 + 3 * (b.group_index().x * b.size() + t);
    o2[0] = s2;
    o2[1] = last;
    o2[2] = (int)(t128.meta_group_rank() * 1000 + t128.thread_rank());
}
