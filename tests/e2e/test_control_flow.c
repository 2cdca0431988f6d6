/*
 * test_control_flow.c -- end-to-end: SIMT control flow (kernels/control_flow.cu).
 *
 * control_flow runs in three shapes (1-D blocks of 5 warps; 2-D blocks of 65
 * threads, so each block ends with a one-lane warp; 3-D blocks of 72) over
 * random data with a bias towards values that make neighbouring lanes take
 * different paths.  The reference replays the kernel's code per thread with
 * the same lane numbering; slots after an early return must keep the fill
 * pattern.  grid2d runs over a 70 x 45 image with three block shapes, one of
 * them with whole blocks outside the image.  Finally two identical launches
 * must give identical outputs and launch statistics.
 */
#include "e2e.h"

#define CF_OUTS 8
#define FILL 0xcd

static const char *const cf_names[CF_OUTS] = {
    "nested if/else", "nested loops", "switch", "collatz while", "lane loop",
    "short-circuit", "do/while", "else-if chain",
};

static void ref_control_flow(const int32_t *in, size_t n, size_t i, uint32_t lane, uint32_t *o)
{
    int32_t v = in[i];
    int32_t r0;
    if (lane & 1) {
        r0 = (v & 4) ? v * 3 : v - 100;
    } else {
        r0 = (v & 8) ? (v ^ 0x55) : -v;
        if (v & 16)
            r0 += (int32_t)lane;
    }
    o[0] = (uint32_t)r0;
    if (v % 11 == 0) {
        o[1] = (uint32_t)-1;
        return;
    }

    int32_t acc = 0;
    int32_t outer = (v & 7) + 1, inner = (v >> 3) & 7;
    for (int32_t a = 0; a < outer; a++) {
        if (a == 5 && (v & 64))
            break;
        for (int32_t b = 0; b <= inner + a; b++) {
            if ((a + b) % 3 == 0)
                continue;
            acc += a * 10 + b;
            if (acc > 300)
                break;
        }
        acc ^= a;
    }
    o[1] = (uint32_t)acc;

    int32_t s;
    switch ((uint32_t)v % 9u) {
    case 0:
        s = 11;
        break;
    case 1:
        s = v + 1;
        break;
    case 2:
    case 3:
        s = v * 2;
        break;
    case 4: /* -v, then falls through into case 5, which overwrites it */
    case 5:
        s = (v & 0xff) + 5;
        break;
    case 7:
        s = v >> 2;
        break;
    default:
        s = 1000 + (int32_t)((uint32_t)v % 9u);
        break;
    }
    o[2] = (uint32_t)s;

    uint32_t c = ((uint32_t)v & 1023u) + 1u;
    int32_t steps = 0;
    while (c != 1u) {
        c = (c & 1u) ? 3u * c + 1u : c >> 1;
        steps++;
    }
    o[3] = (uint32_t)steps;

    int32_t t = 0;
    for (int32_t k = 0; k < (int32_t)(lane % 7u) + (v & 3); k++) {
        if (k & 1)
            t += k;
        else
            t -= v & 0xff;
        if (t < -300)
            break;
    }
    o[4] = (uint32_t)t;

    o[5] = (i + 1 < n && in[i + 1] > v) ? 1 : ((i > 0 && in[i - 1] < v) ? 2 : 3);

    uint32_t bits = (uint32_t)v;
    int32_t pos = 0;
    do {
        if ((bits & 3u) == 3u)
            break;
        bits >>= 1;
        pos++;
    } while (bits != 0u);
    o[6] = (uint32_t)pos;

    int32_t w;
    if (lane < 8)
        w = 1;
    else if (lane < 16)
        w = 2;
    else if (lane < 24 && (v & 1))
        w = 3;
    else
        w = 4;
    o[7] = (uint32_t)(w * 1000 + (int32_t)lane);
}

typedef struct shape_n {
    e2e_shape s;
    size_t n;
} shape_n;

static void test_control_flow(void)
{
    static const shape_n shapes[] = {
        {{"1-D grid 4, block 160", {4, 1, 1}, {160, 1, 1}}, 600},
        {{"2-D grid 3x3, 2-D block 13x5", {3, 3, 1}, {13, 5, 1}}, 580},
        {{"2-D grid 2x2, 3-D block 6x4x3", {2, 2, 1}, {6, 4, 3}}, 283},
    };
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "control_flow.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "control_flow");
    if (!k)
        goto out;
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        const shape_n *sh = &shapes[si];
        size_t n = sh->n, threads = (size_t)e2e_shape_threads(&sh->s);
        size_t tpb = (size_t)e2e_dim3_count(sh->s.block), outs = threads * CF_OUTS;
        int32_t *in = malloc(n * 4);
        uint32_t *exp = malloc(outs * 4), *got = malloc(outs * 4);
        lockstep_dptr din = 0, dout = 0;
        uint64_t st = 0xc0f + si;
        if (!in || !exp || !got)
            goto next;
        for (size_t i = 0; i < n; i++) {
            uint64_t r = e2e_rand(&st);
            in[i] = (r & 7) == 0 ? 11 * (int32_t)((r >> 8) % 200) - 1100
                                 : (int32_t)((r >> 16) % 4001) - 2000;
        }
        memset(exp, FILL, outs * 4);
        for (size_t i = 0; i < n; i++)
            ref_control_flow(in, n, i, (uint32_t)((i % tpb) & 31), exp + i * CF_OUTS);
        din = e2e_upload(dev, in, n * 4);
        dout = e2e_alloc(dev, outs * 4);
        if (!din || !dout || !e2e_fill(dev, dout, FILL, outs * 4))
            goto next;
        int nn = (int)n;
        void *args[] = {&din, &dout, &nn};
        if (!e2e_launch(dev, k, sh->s.name, sh->s.grid, sh->s.block, 0, args))
            goto next;
        if (e2e_download(dev, got, dout, outs * 4)) {
            e2e_layout lay = {CF_OUTS, cf_names};
            char what[128];
            snprintf(what, sizeof what, "control_flow out, %s", sh->s.name);
            e2e_cmp_u32(what, got, exp, outs, &lay);
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

static void test_grid2d(void)
{
    static const e2e_shape shapes[] = {
        {"grid 5x6, block 16x8", {5, 6, 1}, {16, 8, 1}},
        {"grid 3x12, block 32x4", {3, 12, 1}, {32, 4, 1}},
        {"grid 7x8, block 16x8 (whole blocks outside)", {7, 8, 1}, {16, 8, 1}},
    };
    const int w = 70, h = 45;
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "control_flow.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "grid2d");
    int32_t *exp = malloc((size_t)w * h * 4), *got = malloc((size_t)w * h * 4);
    lockstep_dptr dout = e2e_alloc(dev, (size_t)w * h * 4);
    if (!k || !exp || !got || !dout)
        goto out;
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        const e2e_shape *sh = &shapes[si];
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                uint32_t bx = (uint32_t)x / sh->block.x, by = (uint32_t)y / sh->block.y;
                int32_t val;
                if ((bx + by) & 1) {
                    val = x * 100 + y;
                } else {
                    val = 0;
                    for (int kk = 0; kk <= x % 5; kk++)
                        val += y + kk;
                    val = -val;
                }
                exp[y * w + x] = val;
            }
        if (!e2e_fill(dev, dout, FILL, (size_t)w * h * 4))
            break;
        int ww = w, hh = h;
        void *args[] = {&dout, &ww, &hh};
        if (!e2e_launch(dev, k, sh->name, sh->grid, sh->block, 0, args))
            continue;
        if (e2e_download(dev, got, dout, (size_t)w * h * 4)) {
            char what[128];
            snprintf(what, sizeof what, "grid2d out (index y*70+x), %s", sh->name);
            e2e_cmp_i32(what, got, exp, (size_t)w * h, NULL);
        }
    }
out:
    e2e_free(dev, dout);
    free(exp);
    free(got);
    e2e_device_destroy(dev);
}

/* Two launches of the same divergent kernel on the same data give the same
 * output and the same instruction counts. */
static void test_repeatable(void)
{
    const size_t n = 300, outs = 320 * CF_OUTS;
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "control_flow.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "control_flow");
    int32_t in[300];
    uint32_t *first = malloc(outs * 4), *second = malloc(outs * 4);
    lockstep_launch_stats st[2];
    uint64_t seed = 0x5eed;
    lockstep_dptr din = 0, dout = 0;
    for (size_t i = 0; i < n; i++)
        in[i] = (int32_t)e2e_rand_range(&seed, -5000, 5000);
    din = e2e_upload(dev, in, sizeof in);
    dout = e2e_alloc(dev, outs * 4);
    if (!k || !first || !second || !din || !dout)
        goto out;
    int nn = (int)n;
    void *args[] = {&din, &dout, &nn};
    for (int r = 0; r < 2; r++) {
        memset(&st[r], 0, sizeof st[r]);
        if (!e2e_fill(dev, dout, 0, outs * 4) ||
            !E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(5, 1, 1), e2e_dim3(64, 1, 1), 0,
                                              args, &st[r])) ||
            !E2E_OK(dev, lockstep_synchronize(dev)) ||
            !e2e_download(dev, r ? second : first, dout, outs * 4))
            goto out;
    }
    CHECK_MSG(memcmp(first, second, outs * 4) == 0, "control_flow: two runs differ");
    /* the instruction counts repeat exactly; the cycles need not (the
     * second launch finds the L2 warm): test_timing.c covers those */
    CHECK_MSG(memcmp(&st[0], &st[1], offsetof(lockstep_launch_stats, timing)) == 0,
              "control_flow: stats differ between runs: warp_insts %" PRIu64 " / %" PRIu64
              ", thread_insts %" PRIu64 " / %" PRIu64,
              st[0].warp_insts, st[1].warp_insts, st[0].thread_insts, st[1].thread_insts);
    e2e_check_stats("control_flow repeat", e2e_dim3(5, 1, 1), e2e_dim3(64, 1, 1), &st[0]);
out:
    e2e_free(dev, din);
    e2e_free(dev, dout);
    free(first);
    free(second);
    e2e_device_destroy(dev);
}

int main(void)
{
    RUN(test_control_flow);
    RUN(test_repeatable);
    RUN(test_grid2d);
    return test_summary();
}
