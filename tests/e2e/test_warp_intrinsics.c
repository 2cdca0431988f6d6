/*
 * test_warp_intrinsics.c -- end-to-end: warp-level intrinsics
 * (kernels/warp_intrinsics.cu).
 *
 * warp_ops and warp_reduce_scan run in four shapes: whole warps; 2-D blocks
 * of 50 threads (a warp of 32 and one of 18); 3-D blocks of 42 (32 + 10);
 * one block of 20.  Threads past n take part in the intrinsics with the
 * value -1 - lane but store nothing.  The reference evaluates each
 * intrinsic per warp from the lanes' values with the PTX rules for source
 * lanes (clamping at the segment for up/down/xor with a width, index taken
 * modulo the width), where the kernel stores a marker when a source lane does
 * not exist, and __activemask() inside the divergent branch equal to the
 * lanes that took the same side.
 */
#include "e2e.h"

#define W_OUTS 22
#define W_UNDEF 0x5a5a5a5au
#define FILL 0xcd

static const char *const w_names[W_OUTS] = {
    "shfl idx (7l+3)%n", "shfl_up 1",       "shfl_down 2",     "shfl_xor 5 w8",
    "shfl idx 3 w16",    "shfl_up 3 w8",    "shfl_down 1 w4",  "shfl_xor 1 u64 lo",
    "shfl_xor 1 u64 hi", "shfl f64",        "ballot",          "any",
    "all",               "activemask",      "match_any",       "match_all mask",
    "match_all pred",    "shfl 16-lane mask", "lanemask_lt rank", "shfl idx l+33",
    "member mask",       "shfl idx 0",
};

typedef struct shape_n {
    e2e_shape s;
    size_t n;
} shape_n;

static const shape_n shapes[] = {
    {{"1-D grid 3, block 96", {3, 1, 1}, {96, 1, 1}}, 280},
    {{"2-D grid 2x2, 2-D block 10x5", {2, 2, 1}, {10, 5, 1}}, 190},
    {{"grid 3, 3-D block 7x3x2", {3, 1, 1}, {7, 3, 2}}, 120},
    {{"one block of 20", {1, 1, 1}, {20, 1, 1}}, 20},
};
#define N_SHAPES (sizeof shapes / sizeof shapes[0])

static uint32_t popc32(uint32_t x)
{
    uint32_t n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* Outputs of the lanes of one warp with nl lanes holding values vv[]. */
static void ref_warp(const int32_t *vv, uint32_t nl, uint32_t out[][W_OUTS])
{
    uint32_t full = nl == 32 ? 0xffffffffu : (1u << nl) - 1u;
    uint32_t ballot = 0, pos = 0, any = 0, all = 1, same_hi = 1;
    for (uint32_t j = 0; j < nl; j++) {
        ballot |= (uint32_t)(vv[j] & 1) << j;
        pos |= (uint32_t)(vv[j] > 0) << j;
        any |= vv[j] > 900;
        all &= (vv[j] & 3) != 0;
        same_hi &= (vv[j] >> 16) == (vv[0] >> 16);
    }
    for (uint32_t l = 0; l < nl; l++) {
        uint32_t *r = out[l], j;
        int32_t v = vv[l];
        r[0] = (uint32_t)vv[(l * 7 + 3) % nl];
        r[1] = (uint32_t)(l >= 1 ? vv[l - 1] : v);
        j = l + 2;
        r[2] = j >= 32 ? (uint32_t)v : j < nl ? (uint32_t)vv[j] : W_UNDEF;
        j = l ^ 5;
        r[3] = j < nl ? (uint32_t)vv[j] : W_UNDEF;
        j = (l & 16) | 3;
        r[4] = j < nl ? (uint32_t)vv[j] : W_UNDEF;
        r[5] = (uint32_t)((l % 8) >= 3 ? vv[l - 3] : v);
        r[6] = (l & 3) == 3 ? (uint32_t)v : l + 1 < nl ? (uint32_t)vv[l + 1] : W_UNDEF;
        j = l ^ 1;
        r[7] = j < nl ? (uint32_t)vv[j] * 3u : W_UNDEF;
        r[8] = j < nl ? (uint32_t)vv[j] : W_UNDEF;
        r[9] = (uint32_t)vv[(l + 5) % nl];
        r[10] = ballot;
        r[11] = any;
        r[12] = all;
        uint32_t am = 0, mm = 0;
        for (uint32_t k = 0; k < nl; k++) {
            am |= (uint32_t)(((vv[k] & 2) != 0) == ((v & 2) != 0)) << k;
            mm |= (uint32_t)((vv[k] & 3) == (v & 3)) << k;
        }
        r[13] = am;
        r[14] = mm;
        r[15] = same_hi ? full : 0;
        r[16] = same_hi;
        if (l < 16) {
            uint32_t n16 = nl < 16 ? nl : 16;
            r[17] = (uint32_t)vv[n16 - 1 - l];
        } else {
            r[17] = W_UNDEF;
        }
        r[18] = popc32(pos & ((1u << l) - 1u));
        j = (l + 1) & 31;
        r[19] = j < nl ? (uint32_t)vv[j] : W_UNDEF;
        r[20] = full;
        r[21] = 0;
    }
}

static void make_vals(int32_t *in, size_t n, uint64_t seed)
{
    uint64_t st = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = e2e_rand(&st);
        /* warps of class 0 agree on v >> 16 (match_all true), class 1 has
         * some negative values, class 2 one lane in eight with another v >> 16 */
        size_t cls = (i / 32) % 3;
        int32_t hi = (cls == 2 && (r & 7) == 0) ? 6 : 5;
        in[i] = (int32_t)((uint32_t)hi << 16 | (uint32_t)((r >> 8) % 1200));
        if (cls == 1 && (r & 0x30) == 0)
            in[i] = -(int32_t)((r >> 20) % 1000);
    }
}

static void test_warp_ops(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "warp_intrinsics.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "warp_ops");
    if (!k)
        goto out;
    for (size_t si = 0; si < N_SHAPES; si++) {
        const shape_n *sh = &shapes[si];
        size_t n = sh->n, threads = (size_t)e2e_shape_threads(&sh->s);
        size_t tpb = (size_t)e2e_dim3_count(sh->s.block), outs = threads * W_OUTS;
        int32_t *in = malloc(n * 4);
        uint32_t *exp = malloc(outs * 4), *got = malloc(outs * 4);
        uint32_t (*wout)[W_OUTS] = malloc(32 * sizeof *wout);
        lockstep_dptr din = 0, dout = 0;
        if (!in || !exp || !got || !wout)
            goto next;
        make_vals(in, n, 0x3a2 + si);
        memset(exp, FILL, outs * 4);
        for (size_t base = 0; base < threads; base += tpb)
            for (size_t w = 0; w < tpb; w += 32) {
                uint32_t nl = (uint32_t)(tpb - w < 32 ? tpb - w : 32);
                int32_t vv[32];
                for (uint32_t l = 0; l < nl; l++) {
                    size_t g = base + w + l;
                    vv[l] = g < n ? in[g] : -1 - (int32_t)l;
                }
                ref_warp(vv, nl, wout);
                for (uint32_t l = 0; l < nl; l++)
                    if (base + w + l < n)
                        memcpy(exp + (base + w + l) * W_OUTS, wout[l], sizeof wout[l]);
            }
        din = e2e_upload(dev, in, n * 4);
        dout = e2e_alloc(dev, outs * 4);
        if (!din || !dout || !e2e_fill(dev, dout, FILL, outs * 4))
            goto next;
        int nn = (int)n;
        void *args[] = {&din, &dout, &nn};
        if (!e2e_launch(dev, k, sh->s.name, sh->s.grid, sh->s.block, 0, args))
            goto next;
        if (e2e_download(dev, got, dout, outs * 4)) {
            e2e_layout lay = {W_OUTS, w_names};
            char what[128];
            snprintf(what, sizeof what, "warp_ops out, %s", sh->s.name);
            e2e_cmp_u32(what, got, exp, outs, &lay);
        }
    next:
        e2e_free(dev, din);
        e2e_free(dev, dout);
        free(in);
        free(exp);
        free(got);
        free(wout);
    }
out:
    e2e_device_destroy(dev);
}

static void test_warp_reduce_scan(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "warp_intrinsics.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "warp_reduce_scan");
    if (!k)
        goto out;
    for (size_t si = 0; si < N_SHAPES; si++) {
        const shape_n *sh = &shapes[si];
        size_t n = sh->n, threads = (size_t)e2e_shape_threads(&sh->s);
        size_t tpb = (size_t)e2e_dim3_count(sh->s.block), wpb = (tpb + 31) / 32;
        size_t nw = (size_t)e2e_dim3_count(sh->s.grid) * wpb;
        int32_t *in = malloc(n * 4), *scan = malloc(n * 4), *sgot = malloc(n * 4);
        int32_t *wsum = calloc(nw, 4), *wgot = malloc(nw * 4);
        lockstep_dptr din = 0, dw = 0, ds = 0;
        uint64_t st = 0x5ca + si;
        if (!in || !scan || !sgot || !wsum || !wgot)
            goto next;
        for (size_t i = 0; i < n; i++)
            in[i] = (int32_t)e2e_rand_range(&st, -100000, 100000);
        for (size_t g = 0; g < threads && g < n; g++) {
            size_t t = g % tpb, lane = t % 32, wi = (g / tpb) * wpb + t / 32;
            wsum[wi] += in[g];
            scan[g] = (lane == 0 ? 0 : scan[g - 1]) + in[g];
        }
        din = e2e_upload(dev, in, n * 4);
        dw = e2e_alloc(dev, nw * 4);
        ds = e2e_alloc(dev, n * 4);
        if (!din || !dw || !ds)
            goto next;
        int nn = (int)n;
        void *args[] = {&din, &dw, &ds, &nn};
        if (!e2e_launch(dev, k, sh->s.name, sh->s.grid, sh->s.block, 0, args))
            goto next;
        if (e2e_download(dev, wgot, dw, nw * 4) && e2e_download(dev, sgot, ds, n * 4)) {
            char what[128];
            snprintf(what, sizeof what, "warp_reduce_scan sums per warp, %s", sh->s.name);
            e2e_cmp_i32(what, wgot, wsum, nw, NULL);
            snprintf(what, sizeof what, "warp_reduce_scan inclusive scan, %s", sh->s.name);
            e2e_cmp_i32(what, sgot, scan, n, NULL);
        }
    next:
        e2e_free(dev, din);
        e2e_free(dev, dw);
        e2e_free(dev, ds);
        free(in);
        free(scan);
        free(sgot);
        free(wsum);
        free(wgot);
    }
out:
    e2e_device_destroy(dev);
}

/* Lanes of one converged warp that name different groups in their masks
 * (a labeled partition: even lanes 0x55555555, odd 0xaaaaaaaa): each lane's
 * vote, match and redux are over its own group's lanes, in functional and
 * timing mode. */
static const char group_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry groups(.param .u64 out)\n{\n"
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<6>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n  setp.eq.u32 %p1, %r2, 0;\n"
    "  selp.b32 %r3, 0x55555555, 0xaaaaaaaa, %p1;\n"
    "  redux.sync.add.u32 %r4, %r1, %r3;\n"
    "  setp.gt.u32 %p2, %r1, 3;\n  vote.sync.ballot.b32 %r5, %p2, %r3;\n"
    "  setp.eq.u32 %p3, %r2, 1;\n  vote.sync.all.pred %p4, %p3, %r3;\n"
    "  selp.u32 %r6, 1, 0, %p4;\n  shr.u32 %r7, %r1, 2;\n"
    "  match.any.sync.b32 %r8, %r7, %r3;\n"
    "  redux.sync.max.u32 %r9, %r1, %r3;\n"
    "  match.all.sync.b32 %r10|%p5, %r2, %r3;\n  selp.u32 %r11, 1, 0, %p5;\n"
    "  add.u32 %r6, %r6, %r11;\n  add.u32 %r6, %r6, %r11;\n"
    "  mul.wide.u32 %rd2, %r1, 20;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r4;\n  st.global.u32 [%rd3+4], %r5;\n"
    "  st.global.u32 [%rd3+8], %r6;\n  st.global.u32 [%rd3+12], %r8;\n"
    "  st.global.u32 [%rd3+16], %r9;\n  ret;\n}\n";

static void test_per_lane_masks(void)
{
    for (int timing = 0; timing < 2; timing++) {
        lockstep_device *dev = timing ? e2e_timing_device("configs/titanv.config", NULL) : e2e_device();
        lockstep_module *mod = NULL;
        lockstep_kernel *k = NULL;
        lockstep_dptr d = 0;
        uint32_t got[32 * 5], want[32 * 5];
        if (!dev)
            continue;
        CHECK(lockstep_module_load_ptx(dev, group_ptx, strlen(group_ptx), "groups.ptx", &mod) ==
              LOCKSTEP_SUCCESS);
        if (!mod || lockstep_module_get_kernel(mod, "groups", &k) != LOCKSTEP_SUCCESS ||
            !(d = e2e_alloc(dev, sizeof got)))
            goto out;
        for (uint32_t l = 0; l < 32; l++) {
            uint32_t m = l & 1 ? 0xaaaaaaaau : 0x55555555u, sum = 0, gt3 = 0, same = 0, max = 0;
            for (uint32_t j = 0; j < 32; j++) {
                if (!(m >> j & 1))
                    continue;
                sum += j;
                max = j > max ? j : max;
                gt3 |= (uint32_t)(j > 3) << j;
                same |= (uint32_t)((j >> 2) == (l >> 2)) << j;
            }
            uint32_t *w = want + 5 * l;
            w[0] = sum;
            w[1] = gt3;
            w[2] = (l & 1) + 2; /* vote.all over odd lanes only; match.all holds */
            w[3] = same;
            w[4] = max;
        }
        void *args[] = {&d};
        lockstep_dim3 one = {1, 1, 1}, warp = {32, 1, 1};
        if (e2e_launch(dev, k, "one warp", one, warp, 0, args) &&
            e2e_download(dev, got, d, sizeof got))
            e2e_cmp_u32(timing ? "per-lane masks, timing" : "per-lane masks, functional", got,
                        want, 32 * 5, NULL);
    out:
        e2e_free(dev, d);
        e2e_device_destroy(dev);
    }
}

int main(void)
{
    RUN(test_warp_ops);
    RUN(test_warp_reduce_scan);
    RUN(test_per_lane_masks);
    return test_summary();
}
