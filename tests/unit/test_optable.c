/*
 * test_optable.c -- the instruction table (src/ptx/optable.h) and the
 * handlers agree: every row's sample instruction, placed in a small kernel,
 * loads and runs in functional mode and on the timing model without the
 * interpreter's "no handler" fault, giving the same register results in
 * both; trap and brkpt stop with LOCKSTEP_ERROR_TRAP.  A row added without
 * its semantics fails here.  Also: the table's names are unique and its
 * properties hang together (a memory row is in the MEM unit, and so on).
 */
#include <string.h>

#include "lockstep.h"
#include "ptx/ir.h"
#include "test.h"

static const char prologue[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".func fn()\n{\n  ret;\n}\n"
    ".visible .entry k(.param .u64 out, .param .u64 tex, .param .u64 surf)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<9>;\n  .reg .f32 %f<8>;\n  .reg .f64 %fd<8>;\n"
    "  .reg .b16 %h<4>;\n  .reg .pred %p<4>;\n"
    "  .shared .align 8 .b8 sh[256];\n"
    "  ld.param.u64 %rd7, [out];\n  mov.u64 %rd1, %rd7;\n  ld.param.u64 %rd4, [tex];\n  ld.param.u64 %rd8, [surf];\n"
    "  mov.u32 %r1, 0;\n  mov.u32 %r2, %tid.x;\n  add.u32 %r2, %r2, 7;\n"
    "  mov.u32 %r3, 3;\n  mov.u32 %r4, 0x01020304;\n"
    "  mov.u64 %rd2, 0;\n  cvt.u64.u32 %rd3, %r2;\n"
    "  mov.f32 %f2, 0f3FC00000;\n  mov.f32 %f3, 0f40100000;\n  mov.f32 %f4, 0f3F000000;\n"
    "  mov.f64 %fd2, 0d3FF8000000000000;\n  mov.f64 %fd3, 0d4002000000000000;\n"
    "  setp.ne.u32 %p1, %r2, 9;\n  setp.eq.u32 %p2, %r3, 3;\n  setp.eq.u32 %p3, %r3, 4;\n"
    "  st.shared.u32 [sh], %r3;\n  bar.sync 0;\n";

static const char epilogue[] =
    "L1:\n"
    "  mov.u32 %r5, %tid.x;\n  mul.wide.u32 %rd6, %r5, 32;\n  add.u64 %rd6, %rd7, %rd6;\n"
    "  st.global.u32 [%rd6], %r1;\n  cvt.rzi.s32.f32 %r6, %f1;\n  st.global.u32 [%rd6+4], %r6;\n"
    "  mov.b64 %rd5, %fd1;\n  st.global.u64 [%rd6+8], %rd5;\n  st.global.u64 [%rd6+16], %rd1;\n"
    "  selp.u32 %r6, 1, 0, %p1;\n  st.global.u32 [%rd6+24], %r6;\n"
    "  ret;\n}\n";

/* Run the sample kernel of op in mode; 0, or the failing status.  out gets
 * each thread's 32 result bytes. */
static lockstep_status run_sample(const char *ptx, const char *mode, uint8_t out[32 * 32],
                                  char *err, size_t errlen)
{
    lockstep_config *cfg;
    lockstep_device *dev;
    lockstep_module *mod;
    lockstep_kernel *k;
    lockstep_config_create(&cfg);
    lockstep_config_set(cfg, "-lockstep_mode", mode);
    lockstep_config_set(cfg, "-lockstep_max_warp_insts", "100000");
    lockstep_status st = lockstep_device_create(cfg, &dev);
    lockstep_config_destroy(cfg);
    if (st)
        return st;
    st = lockstep_module_load_ptx(dev, ptx, strlen(ptx), "sample.ptx", &mod);
    if (!st)
        st = lockstep_module_get_kernel(mod, "k", &k);
    lockstep_dptr buf = 0, img = 0;
    uint64_t tex = 0, surf = 0;
    if (!st)
        st = lockstep_malloc(dev, 32 * 32, &buf);
    if (!st)
        st = lockstep_memset(dev, buf, 0, 32 * 32);
    /* %rd4: an 8 x 8 texture of floats i + 0.5 */
    if (!st)
        st = lockstep_malloc(dev, 8 * 8 * 4, &img);
    if (!st) {
        float v[64];
        for (int i = 0; i < 64; i++)
            v[i] = (float)i + 0.5f;
        st = lockstep_memcpy_htod(dev, img, v, sizeof v);
    }
    if (!st) {
        lockstep_texture_desc d;
        memset(&d, 0, sizeof d);
        d.base = img;
        d.pitch = 32;
        d.width = d.height = 8;
        d.depth = 1;
        d.dims = 2;
        d.channels = 1;
        d.bits = 32;
        d.kind = LOCKSTEP_TEX_FLOAT;
        d.address[0] = d.address[1] = LOCKSTEP_TEX_CLAMP;
        d.linear_filter = 1;
        st = lockstep_texture_create(dev, &d, &tex);
        /* and a surface object over the same texels in %rd8 */
        d.linear_filter = 0;
        d.surface = 1;
        if (!st)
            st = lockstep_texture_create(dev, &d, &surf);
    }
    if (!st) {
        void *args[] = {&buf, &tex, &surf};
        st = lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1}, 0,
                                  args, NULL);
        if (!st)
            st = lockstep_memcpy_dtoh(dev, out, buf, 32 * 32);
    }
    snprintf(err, errlen, "%s", lockstep_device_last_error(dev));
    lockstep_device_destroy(dev);
    return st;
}

static void test_every_row_has_a_handler(void)
{
    for (int op = 0; op < OP_COUNT; op++) {
        const ptx_opinfo *r = ptx_op_info(op);
        char ptx[4096];
        snprintf(ptx, sizeof ptx, "%s  %s\n%s", prologue, r->sample, epilogue);
        uint8_t a[32 * 32], b[32 * 32];
        char ea[2048], eb[2048];
        memset(a, 0, sizeof a);
        memset(b, 0, sizeof b);
        lockstep_status sa = run_sample(ptx, "functional", a, ea, sizeof ea);
        lockstep_status sb = run_sample(ptx, "timing", b, eb, sizeof eb);
        lockstep_status want = (r->props & OPF_STOP) ? LOCKSTEP_ERROR_TRAP : LOCKSTEP_SUCCESS;
        CHECK_MSG(sa == want, "%s (functional): %s: %s", r->name, lockstep_status_name(sa), ea);
        CHECK_MSG(sb == want, "%s (timing): %s: %s", r->name, lockstep_status_name(sb), eb);
        CHECK_MSG(!strstr(ea, "no handler") && !strstr(eb, "no handler"), "%s: %s", r->name, ea);
        if (sa == LOCKSTEP_SUCCESS && sb == LOCKSTEP_SUCCESS)
            CHECK_MSG(!memcmp(a, b, sizeof a), "%s: the modes disagree", r->name);
    }
}

static void test_rows_hang_together(void)
{
    for (int op = 0; op < OP_COUNT; op++) {
        const ptx_opinfo *r = ptx_op_info(op);
        CHECK_MSG(r->name && r->sample && !strncmp(r->sample, r->name, strlen(r->name)),
                  "row %d: its sample does not start with its name", op);
        for (int j = 0; j < op; j++)
            CHECK_MSG(strcmp(ptx_op_info(j)->name, r->name), "%s twice", r->name);
        uint32_t p = r->props;
        if (p & (OPF_LOAD | OPF_STORE | OPF_ATOMIC))
            CHECK_MSG((p & OPF_MEM) && r->unit == UNIT_MEM && r->mix == MK_MEM, "%s", r->name);
        if (p & OPF_MEM)
            CHECK_MSG(r->unit == UNIT_MEM && r->lat == LAT_NONE, "%s", r->name);
        if (p & OPF_FENCE)
            CHECK_MSG(r->mix == MK_FENCE, "%s", r->name);
        if (p & OPF_BARRIER)
            CHECK_MSG(r->mix == MK_BARRIER && r->fam == FAM_BAR, "%s", r->name);
        if (p & OPF_WARPX)
            CHECK_MSG(r->unit == UNIT_WARP && r->mix == MK_WARP, "%s", r->name);
        if (p & (OPF_BRANCH | OPF_CALL | OPF_RET | OPF_EXIT | OPF_STOP))
            CHECK_MSG(r->unit == UNIT_CTRL, "%s", r->name);
        CHECK(r->fam < FAM_COUNT && r->lat <= LAT_NONE);
        CHECK_EQ_INT(strcmp(ptx_op_names[op], r->name), 0);
    }
}

int main(void)
{
    RUN(test_rows_hang_together);
    RUN(test_every_row_has_a_handler);
    return test_summary();
}
