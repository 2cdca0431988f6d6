/*
 * test_texture.c -- texture and surface objects through the C API and the
 * PTX texture instructions, in functional and timing mode: txq and suq
 * answers, integer-coordinate fetches with each address mode, a linearly
 * filtered 1-D fetch with its 8-bit weight, layered and 3-D surface
 * accesses, half-float and signed normalized texels, the faults (a handle
 * that is no texture object, a destroyed one, a surface access outside the
 * surface under .trap, a misaligned one), the checks lockstep_texture_create
 * makes, and the texture cache's counters in timing mode.
 */
#include <string.h>

#include "lockstep.h"
#include "test.h"

static const char ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    /* out[t*8 + 0..7] = txq width, height, depth, filter, normalized, addr0, array_size, suq width */
    ".visible .entry q(.param .u64 out, .param .u64 t, .param .u64 s)\n{\n"
    "  .reg .b32 %r<9>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [t]; ld.param.u64 %rd3, [s];\n"
    "  txq.width.b32 %r1, [%rd2]; txq.height.b32 %r2, [%rd2]; txq.depth.b32 %r3, [%rd2];\n"
    "  txq.filter_mode.b32 %r4, [%rd2]; txq.normalized_coords.b32 %r5, [%rd2];\n"
    "  txq.addr_mode_0.b32 %r6, [%rd2]; txq.array_size.b32 %r7, [%rd2]; suq.width.b32 %r8, [%rd3];\n"
    "  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n"
    "  st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};\n  ret;\n}\n"
    /* out[tid] = channel 0 of tex.1d with integer coordinate tid + base */
    ".visible .entry fetch(.param .u64 out, .param .u64 t, .param .u32 base)\n{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [t]; ld.param.u32 %r5, [base];\n"
    "  mov.u32 %r6, %tid.x; add.s32 %r7, %r6, %r5;\n"
    "  tex.1d.v4.u32.s32 {%r1, %r2, %r3, %r4}, [%rd2, {%r7}];\n"
    "  mul.wide.u32 %rd3, %r6, 16; add.u64 %rd3, %rd1, %rd3;\n"
    "  st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n  ret;\n}\n"
    /* out[tid] = tex.1d.f32 at x (float) = tid / 8 */
    ".visible .entry lin(.param .u64 out, .param .u64 t)\n{\n"
    "  .reg .b32 %r<3>; .reg .f32 %f<6>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [t];\n"
    "  mov.u32 %r1, %tid.x; cvt.rn.f32.u32 %f5, %r1; mul.f32 %f5, %f5, 0f3E000000;\n"
    "  tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd2, {%f5}];\n"
    "  mul.wide.u32 %rd3, %r1, 4; add.u64 %rd3, %rd1, %rd3;\n"
    "  st.global.f32 [%rd3], %f1;\n  ret;\n}\n"
    /* a2d surface: layer = tid / 4, x = (tid % 4) * 4 bytes, y = 1: write tid, read back */
    ".visible .entry surf(.param .u64 out, .param .u64 s)\n{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [s];\n"
    "  mov.u32 %r1, %tid.x; shr.u32 %r2, %r1, 2; and.b32 %r3, %r1, 3; shl.b32 %r3, %r3, 2;\n"
    "  mov.u32 %r4, 1; add.u32 %r5, %r1, 100;\n"
    "  sust.b.a2d.b32.trap [%rd2, {%r2, %r3, %r4, %r4}], {%r5};\n"
    "  suld.b.a2d.b32.trap {%r6}, [%rd2, {%r2, %r3, %r4, %r4}];\n"
    "  mul.wide.u32 %rd3, %r1, 4; add.u64 %rd3, %rd1, %rd3;\n"
    "  st.global.u32 [%rd3], %r6;\n  ret;\n}\n"
    /* a surface access at byte x, row 0 (2-D) */
    ".visible .entry poke(.param .u64 s, .param .u32 x)\n{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [s]; ld.param.u32 %r1, [x]; mov.u32 %r2, 0; mov.u32 %r3, 5;\n"
    "  sust.b.2d.b32.trap [%rd1, {%r1, %r2}], {%r3};\n  ret;\n}\n";

static lockstep_device *make_with(const char *mode, const char *opt, const char *val,
                                  lockstep_module **mod)
{
    lockstep_config *cfg;
    lockstep_device *dev = NULL;
    lockstep_config_create(&cfg);
    lockstep_config_set(cfg, "-lockstep_mode", mode);
    if (opt)
        CHECK(lockstep_config_set(cfg, opt, val) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS);
    lockstep_config_destroy(cfg);
    lockstep_status st = lockstep_module_load_ptx(dev, ptx, strlen(ptx), "tex.ptx", mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s", lockstep_device_last_error(dev));
    return dev;
}

static lockstep_device *make(const char *mode, lockstep_module **mod)
{
    return make_with(mode, NULL, NULL, mod);
}

static lockstep_texture_desc desc1d(lockstep_dptr base, uint32_t w, int kind, int bits, int ch)
{
    lockstep_texture_desc d;
    memset(&d, 0, sizeof d);
    d.base = base;
    d.width = w;
    d.height = d.depth = 1;
    d.dims = 1;
    d.channels = (uint8_t)ch;
    d.bits = (uint8_t)bits;
    d.kind = (uint8_t)kind;
    d.pitch = (uint64_t)w * (uint64_t)(ch * bits / 8);
    return d;
}

static void run_mode(const char *mode)
{
    lockstep_module *mod;
    lockstep_device *dev = make(mode, &mod);
    lockstep_kernel *kq, *kf, *kl, *ks, *kp;
    CHECK(lockstep_module_get_kernel(mod, "q", &kq) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "fetch", &kf) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "lin", &kl) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "surf", &ks) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "poke", &kp) == LOCKSTEP_SUCCESS);
    lockstep_dptr img, out;
    CHECK(lockstep_malloc(dev, 4096, &img) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_malloc(dev, 4096, &out) == LOCKSTEP_SUCCESS);
    int32_t v[16];
    for (int i = 0; i < 16; i++)
        v[i] = i * 10 - 30; /* signed 32-bit texels */
    CHECK(lockstep_memcpy_htod(dev, img, v, sizeof v) == LOCKSTEP_SUCCESS);

    /* integer fetches, one texture per address mode: coordinates -4 .. 27 */
    for (int mode_i = 0; mode_i < 4; mode_i++) {
        lockstep_texture_desc d = desc1d(img, 16, LOCKSTEP_TEX_SIGNED, 32, 1);
        d.address[0] = (uint8_t)mode_i;
        d.border[0] = -7.0f;
        uint64_t h;
        CHECK(lockstep_texture_create(dev, &d, &h) == LOCKSTEP_SUCCESS);
        int32_t base = -4;
        void *args[] = {&out, &h, &base};
        CHECK(lockstep_launch_args(dev, kf, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1}, 0,
                                   args, NULL) == LOCKSTEP_SUCCESS);
        int32_t r[32][4];
        lockstep_memcpy_dtoh(dev, r, out, sizeof r);
        for (int t = 0; t < 32; t++) {
            int x = t - 4, want;
            /* unnormalized coordinates: wrap and mirror behave as clamp */
            if (mode_i == LOCKSTEP_TEX_BORDER)
                want = x < 0 || x >= 16 ? -7 : v[x];
            else
                want = v[x < 0 ? 0 : x > 15 ? 15 : x];
            CHECK_MSG(r[t][0] == want, "%s mode %d x %d: got %d, want %d", mode, mode_i, x,
                      r[t][0], want);
            CHECK_MSG(r[t][1] == 0 && r[t][2] == 0 && r[t][3] == (mode_i == 3 && (x < 0 || x >= 16) ? 0 : 1),
                      "%s: missing channels (0, 0, 1) at %d: %d %d %d", mode, x, r[t][1], r[t][2],
                      r[t][3]);
        }
        lockstep_texture_destroy(dev, h);
    }

    /* txq / suq */
    {
        lockstep_texture_desc d = desc1d(img, 4, LOCKSTEP_TEX_FLOAT, 32, 1);
        d.dims = 2;
        d.height = 3;
        d.pitch = 16;
        d.layers = 5;
        d.layer_stride = 48;
        d.address[0] = LOCKSTEP_TEX_MIRROR;
        d.linear_filter = 1;
        d.normalized_coords = 1;
        uint64_t h, sh;
        CHECK(lockstep_texture_create(dev, &d, &h) == LOCKSTEP_SUCCESS);
        lockstep_texture_desc sd = d; /* a surface object over the same texels */
        sd.surface = 1;
        sd.linear_filter = 0;
        CHECK(lockstep_texture_create(dev, &sd, &sh) == LOCKSTEP_SUCCESS);
        void *args[] = {&out, &h, &sh};
        CHECK(lockstep_launch_args(dev, kq, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){1, 1, 1}, 0,
                                   args, NULL) == LOCKSTEP_SUCCESS);
        uint32_t r[8];
        lockstep_memcpy_dtoh(dev, r, out, sizeof r);
        uint32_t want[8] = {4, 3, 1, 1, 1, LOCKSTEP_TEX_MIRROR, 5, 4};
        for (int i = 0; i < 8; i++)
            CHECK_MSG(r[i] == want[i], "%s: query %d: got %u, want %u", mode, i, r[i], want[i]);

        /* the layered surface: 4 x 3 x 5 layers of 4-byte texels */
        memset(v, 0, sizeof v);
        void *sargs[] = {&out, &sh};
        CHECK(lockstep_launch_args(dev, ks, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){20, 1, 1}, 0,
                                   sargs, NULL) == LOCKSTEP_SUCCESS);
        uint32_t got[20], raw[60];
        lockstep_memcpy_dtoh(dev, got, out, sizeof got);
        lockstep_memcpy_dtoh(dev, raw, img, sizeof raw);
        for (uint32_t t = 0; t < 20; t++) {
            CHECK_EQ_U64(got[t], t + 100);
            /* layer t/4, row 1, column t%4: word (t/4)*12 + 4 + t%4 */
            CHECK_EQ_U64(raw[(t / 4) * 12 + 4 + t % 4], t + 100);
        }
        /* outside the surface under .trap, and misaligned */
        uint32_t x = 16;
        void *pargs[] = {&sh, &x};
        lockstep_status st = lockstep_launch_args(dev, kp, (lockstep_dim3){1, 1, 1},
                                                  (lockstep_dim3){1, 1, 1}, 0, pargs, NULL);
        CHECK_MSG(st == LOCKSTEP_ERROR_ILLEGAL_ADDRESS &&
                      strstr(lockstep_device_last_error(dev), "outside the surface"),
                  "%s: %s", mode, lockstep_device_last_error(dev));
        lockstep_synchronize(dev);
        x = 2;
        st = lockstep_launch_args(dev, kp, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){1, 1, 1}, 0,
                                  pargs, NULL);
        CHECK_MSG(st == LOCKSTEP_ERROR_MISALIGNED_ADDRESS, "%s: %s", mode,
                  lockstep_device_last_error(dev));
        lockstep_synchronize(dev);
        /* a texture object is no surface: sust through it faults */
        void *targs[] = {&h, &x};
        x = 0;
        st = lockstep_launch_args(dev, kp, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){1, 1, 1}, 0,
                                  targs, NULL);
        CHECK_MSG(st == LOCKSTEP_ERROR_ILLEGAL_ADDRESS &&
                      strstr(lockstep_device_last_error(dev), "no live surface object"),
                  "%s: %s", mode, lockstep_device_last_error(dev));
        lockstep_synchronize(dev);
        lockstep_texture_destroy(dev, sh);
        /* a destroyed object is no texture */
        CHECK(lockstep_texture_destroy(dev, h) == LOCKSTEP_SUCCESS);
        CHECK(lockstep_texture_destroy(dev, h) == LOCKSTEP_ERROR_INVALID_VALUE);
        st = lockstep_launch_args(dev, kq, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){1, 1, 1}, 0,
                                  args, NULL);
        CHECK_MSG(st == LOCKSTEP_ERROR_ILLEGAL_ADDRESS &&
                      strstr(lockstep_device_last_error(dev), "no live texture object"),
                  "%s: %s", mode, lockstep_device_last_error(dev));
        lockstep_synchronize(dev);
    }

    /* linear filtering of half floats 0, 1, 2, ... at x = t/8: the blend
     * of texels floor(x - 0.5) and the next, weight frac(x - 0.5) */
    {
        uint16_t hv[8];
        for (int i = 0; i < 8; i++) {
            /* small integers as half floats: exponent 15 + e */
            uint16_t bits = 0;
            if (i) {
                int e = 0;
                while ((i >> (e + 1)) != 0)
                    e++;
                bits = (uint16_t)(((15 + e) << 10) | ((i << (10 - e)) & 0x3ff));
            }
            hv[i] = bits;
        }
        CHECK(lockstep_memcpy_htod(dev, img, hv, sizeof hv) == LOCKSTEP_SUCCESS);
        lockstep_texture_desc d = desc1d(img, 8, LOCKSTEP_TEX_FLOAT, 16, 1);
        d.address[0] = LOCKSTEP_TEX_CLAMP;
        d.linear_filter = 1;
        uint64_t h;
        CHECK(lockstep_texture_create(dev, &d, &h) == LOCKSTEP_SUCCESS);
        void *args[] = {&out, &h};
        lockstep_launch_stats stats;
        CHECK(lockstep_launch_args(dev, kl, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){64, 1, 1}, 0,
                                   args, &stats) == LOCKSTEP_SUCCESS);
        float r[64];
        lockstep_memcpy_dtoh(dev, r, out, sizeof r);
        for (int t = 0; t < 64; t++) {
            float xb = t / 8.0f - 0.5f;
            int i = xb < 0 ? -1 : (int)xb;
            float a = xb - (float)i;
            int i0 = i < 0 ? 0 : i > 7 ? 7 : i, i1 = i + 1 > 7 ? 7 : i + 1 < 0 ? 0 : i + 1;
            float want = (1 - a) * (float)i0 + a * (float)i1;
            CHECK_MSG(r[t] == want, "%s: linear at %g: got %g, want %g", mode, t / 8.0, r[t], want);
        }
        if (stats.timing) {
            /* two warps, each of whose texels lie in one line */
            CHECK_EQ_U64(stats.t.tex_accesses, 2);
            CHECK(stats.t.tex_misses >= 1 && stats.t.tex_misses <= 2);
        }
        lockstep_texture_destroy(dev, h);
    }

    /* signed 8-bit texels read as normalized floats */
    {
        int8_t sv[4] = {-128, -127, 0, 127};
        CHECK(lockstep_memcpy_htod(dev, img, sv, sizeof sv) == LOCKSTEP_SUCCESS);
        lockstep_texture_desc d = desc1d(img, 4, LOCKSTEP_TEX_SIGNED, 8, 1);
        d.read_normalized = 1;
        uint64_t h;
        CHECK(lockstep_texture_create(dev, &d, &h) == LOCKSTEP_SUCCESS);
        int32_t base = 0;
        void *args[] = {&out, &h, &base};
        CHECK(lockstep_launch_args(dev, kf, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){4, 1, 1}, 0,
                                   args, NULL) == LOCKSTEP_SUCCESS);
        uint32_t r[4][4];
        lockstep_memcpy_dtoh(dev, r, out, sizeof r);
        float f[4];
        for (int i = 0; i < 4; i++)
            memcpy(&f[i], &r[i][0], 4);
        CHECK(f[0] == -1.0f && f[1] == -1.0f && f[2] == 0.0f && f[3] == 1.0f);
        uint32_t one = 0x3f800000u;
        CHECK_EQ_U64(r[0][3], one); /* a float texture's missing alpha is 1.0 */
        lockstep_texture_destroy(dev, h);
    }

    /* what lockstep_texture_create refuses */
    {
        lockstep_texture_desc d = desc1d(img, 16, LOCKSTEP_TEX_UNSIGNED, 32, 1);
        uint64_t h;
        d.linear_filter = 1;
        CHECK(lockstep_texture_create(dev, &d, &h) == LOCKSTEP_ERROR_INVALID_VALUE);
        d.linear_filter = 0;
        d.read_normalized = 1;
        CHECK(lockstep_texture_create(dev, &d, &h) == LOCKSTEP_ERROR_INVALID_VALUE);
        d.read_normalized = 0;
        d.channels = 3;
        CHECK(lockstep_texture_create(dev, &d, &h) == LOCKSTEP_ERROR_INVALID_VALUE);
        d.channels = 1;
        d.width = 2000; /* past the 4 KiB allocation */
        CHECK(lockstep_texture_create(dev, &d, &h) == LOCKSTEP_ERROR_INVALID_VALUE);
        CHECK(strstr(lockstep_device_last_error(dev), "allocation") != NULL);
    }
    lockstep_device_destroy(dev);
}

/* The texture cache's MSHR: two warps fetching the same line at nearly
 * the same time send one read (the second waits for the first's reply);
 * -lockstep_perfect_tex makes every fetch a hit, ready the next cycle. */
static void test_tex_cache_timing(void)
{
    lockstep_timing_stats t[2];
    for (int perfect = 0; perfect < 2; perfect++) {
        lockstep_module *mod;
        lockstep_device *dev =
            make_with("timing", "-lockstep_perfect_tex", perfect ? "1" : "0", &mod);
        lockstep_kernel *kl;
        CHECK(lockstep_module_get_kernel(mod, "lin", &kl) == LOCKSTEP_SUCCESS);
        lockstep_dptr img, out;
        CHECK(lockstep_malloc(dev, 4096, &img) == LOCKSTEP_SUCCESS);
        CHECK(lockstep_malloc(dev, 4096, &out) == LOCKSTEP_SUCCESS);
        uint16_t hv[8] = {0};
        CHECK(lockstep_memcpy_htod(dev, img, hv, sizeof hv) == LOCKSTEP_SUCCESS);
        lockstep_texture_desc d = desc1d(img, 8, LOCKSTEP_TEX_FLOAT, 16, 1);
        uint64_t h;
        CHECK(lockstep_texture_create(dev, &d, &h) == LOCKSTEP_SUCCESS);
        void *args[] = {&out, &h};
        lockstep_launch_stats stats;
        CHECK(lockstep_launch_args(dev, kl, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){64, 1, 1}, 0,
                                   args, &stats) == LOCKSTEP_SUCCESS);
        CHECK(stats.timing);
        t[perfect] = stats.t;
        lockstep_device_destroy(dev);
    }
    CHECK_EQ_U64(t[0].tex_accesses, 2);
    CHECK_MSG(t[0].tex_misses == 1, "one read for the line both warps fetch: %" PRIu64,
              t[0].tex_misses);
    CHECK_EQ_U64(t[1].tex_accesses, 2);
    CHECK_EQ_U64(t[1].tex_misses, 0);
    CHECK_MSG(t[1].cycles + 100 < t[0].cycles,
              "perfect texture cache: %" PRIu64 " cycles, real %" PRIu64, t[1].cycles,
              t[0].cycles);
}

static void test_functional(void) { run_mode("functional"); }
static void test_timing(void) { run_mode("timing"); }

int main(void)
{
    RUN(test_functional);
    RUN(test_timing);
    RUN(test_tex_cache_timing);
    return test_summary();
}
