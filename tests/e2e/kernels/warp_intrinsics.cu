// warp_intrinsics.cu -- end-to-end kernels for warp-level intrinsics
// (driver: test_warp_intrinsics.c).
//
// warp_ops: every thread of the block takes part (threads past n carry the
//   value -1 - lane and store nothing), and the member mask of each *_sync
//   call is exactly the lanes that exist in the warp, so blocks whose size is
//   not a multiple of 32 are legal.  Per thread it records:
//   __shfl_sync (computed source lane, source lane >= 32 taken modulo 32,
//   width 16), __shfl_up_sync (width 32 and 8), __shfl_down_sync (width 32
//   and 4), __shfl_xor_sync (width 8, and on a 64-bit integer), a shuffle of
//   a double, __ballot_sync, __any_sync, __all_sync, __activemask() inside
//   both sides of a divergent branch, __match_any_sync, __match_all_sync,
//   a shuffle with a 16-lane member mask inside a branch only lanes 0..15
//   take, and a rank computed from %lanemask_lt.  Where a shuffle's source
//   lane does not exist in a partial warp the result is undefined, so the
//   kernel stores a fixed marker instead (the driver does the same).
// warp_reduce_scan: a warp sum with __shfl_down_sync and an inclusive warp
//   prefix scan with __shfl_up_sync, correct for partial warps too.
#include "common.cuh"

#define W_OUTS 22
#define W_UNDEF 0x5a5a5a5a

extern "C" __global__ void warp_ops(const int *in, int *out, int n)
{
    unsigned t = e2e_tid_in_block();
    unsigned nt = e2e_block_threads();
    unsigned lane = t & 31u;
    unsigned nlanes = min(32u, nt - (t & ~31u));
    unsigned full = nlanes == 32u ? 0xffffffffu : (1u << nlanes) - 1u;
    unsigned g = e2e_gtid();
    int v = g < (unsigned)n ? in[g] : -1 - (int)lane;
    int r[W_OUTS];

    r[0] = __shfl_sync(full, v, (lane * 7u + 3u) % nlanes);
    r[1] = __shfl_up_sync(full, v, 1);
    int d2 = __shfl_down_sync(full, v, 2);
    r[2] = (lane + 2u >= 32u || lane + 2u < nlanes) ? d2 : W_UNDEF;
    int x5 = __shfl_xor_sync(full, v, 5, 8);
    r[3] = (lane ^ 5u) < nlanes ? x5 : W_UNDEF;
    int i3 = __shfl_sync(full, v, 3, 16);
    r[4] = (lane & ~15u) + 3u < nlanes ? i3 : W_UNDEF;
    r[5] = __shfl_up_sync(full, v, 3, 8);
    int d1 = __shfl_down_sync(full, v, 1, 4);
    r[6] = ((lane & 3u) == 3u || lane + 1u < nlanes) ? d1 : W_UNDEF;
    long long lv = ((long long)v << 32) | (unsigned)(v * 3);
    long long lx = __shfl_xor_sync(full, lv, 1);
    r[7] = (lane ^ 1u) < nlanes ? (int)(unsigned)lx : W_UNDEF;
    r[8] = (lane ^ 1u) < nlanes ? (int)(lx >> 32) : W_UNDEF;
    double dv = (double)v * 0.5;
    double dx = __shfl_sync(full, dv, (lane + 5u) % nlanes);
    r[9] = (int)(dx * 2.0);
    r[10] = (int)__ballot_sync(full, v & 1);
    r[11] = __any_sync(full, v > 900);
    r[12] = __all_sync(full, (v & 3) != 0);

    unsigned am;
    if (v & 2) {
        am = __activemask();
    } else {
        am = __activemask() ^ 0x80000000u; // a different body, so the sides stay apart
    }
    r[13] = (int)(am ^ ((v & 2) ? 0u : 0x80000000u));
    __syncwarp(full);

    r[14] = (int)__match_any_sync(full, v & 3);
    int pred;
    r[15] = (int)__match_all_sync(full, v >> 16, &pred);
    r[16] = pred;

    int sub = W_UNDEF;
    if (lane < 16u) {
        unsigned m16 = full & 0xffffu;
        unsigned n16 = min(nlanes, 16u);
        sub = __shfl_sync(m16, v, n16 - 1u - lane);
    }
    r[17] = sub;

    unsigned lt;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    unsigned pos = __ballot_sync(full, v > 0);
    r[18] = __popc(pos & lt);
    int w33 = __shfl_sync(full, v, lane + 33u);
    r[19] = ((lane + 1u) & 31u) < nlanes ? w33 : W_UNDEF;
    r[20] = (int)full;
    r[21] = __shfl_sync(full, (int)lane * 10, 0);

    if (g < (unsigned)n) {
        int *o = out + (size_t)g * W_OUTS;
        for (int k = 0; k < W_OUTS; k++)
            o[k] = r[k];
    }
}

extern "C" __global__ void warp_reduce_scan(const int *in, int *wsum, int *scan, int n)
{
    unsigned t = e2e_tid_in_block();
    unsigned nt = e2e_block_threads();
    unsigned lane = t & 31u;
    unsigned nlanes = min(32u, nt - (t & ~31u));
    unsigned full = nlanes == 32u ? 0xffffffffu : (1u << nlanes) - 1u;
    unsigned g = e2e_gtid();
    int v = g < (unsigned)n ? in[g] : 0;

    int s = v;
    for (unsigned off = 16; off > 0; off >>= 1) {
        int o = __shfl_down_sync(full, s, off);
        if (lane + off < nlanes)
            s += o;
    }
    if (lane == 0) {
        unsigned warps_per_block = (nt + 31u) / 32u;
        wsum[e2e_block_id() * warps_per_block + t / 32u] = s;
    }

    int p = v;
    for (unsigned off = 1; off < 32u; off <<= 1) {
        int o = __shfl_up_sync(full, p, off);
        if (lane >= off)
            p += o;
    }
    if (g < (unsigned)n)
        scan[g] = p;
}
