/*
 * test_ace.c -- ACE lifetime analysis (-lockstep_ace, src/rel/ace.c,
 * docs/RELIABILITY.md "ACE lifetime analysis") through the C API:
 *
 *  - functional mode, one warp, time in warp instructions: small PTX
 *    kernels whose register, predicate and shared-memory ACE bit-time is
 *    computed by hand -- a value written and never read adds nothing, a
 *    value read N instructions after its write adds N x its width per
 *    lane, a value read twice counts to its last read, a guarded
 *    instruction reads its guard in every lane of the warp but its sources
 *    only in the active lanes, a shared word stored and loaded back counts
 *    from the store to the last load;
 *  - AVFs lie in [0, 1] and the report names its time base;
 *  - timing mode: a multi-CTA kernel with shared memory and divergence
 *    gives byte-identical reports on 1 and 2 host threads and both window
 *    orders, with nonzero ACE in every structure;
 *  - off by default (empty report); bad values and the combination with
 *    fault injection are refused with clear errors.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

static const char ptx_head[] = ".version 8.0\n.target sm_75\n.address_size 64\n";

/* ---- running ---------------------------------------------------------------------------------- */

typedef struct ace_res {
    lockstep_status st;
    char rep[4096];
    char text[4096];
    char err[1024];
} ace_res;

/* Load ptx, launch k once with grid x block threads under `opts`
 * (config-file syntax) and fetch the ACE report. */
static void run(const char *ptx, const char *opts, uint32_t grid, uint32_t block, ace_res *r)
{
    memset(r, 0, sizeof *r);
    lockstep_config *cfg = NULL;
    lockstep_device *dev = NULL;
    r->st = lockstep_config_create(&cfg);
    if (!r->st)
        r->st = lockstep_config_parse(cfg, opts, strlen(opts), "test");
    if (!r->st)
        r->st = lockstep_config_validate(cfg);
    if (r->st) {
        snprintf(r->err, sizeof r->err, "%s", cfg ? lockstep_config_last_error(cfg) : "");
        lockstep_config_destroy(cfg);
        return;
    }
    r->st = lockstep_device_create(cfg, &dev);
    lockstep_config_destroy(cfg);
    if (r->st)
        return;
    lockstep_module *mod = NULL;
    lockstep_kernel *k = NULL;
    lockstep_dptr out = 0;
    uint32_t n = grid * block;
    r->st = lockstep_module_load_ptx(dev, ptx, strlen(ptx), "ace.ptx", &mod);
    if (!r->st)
        r->st = lockstep_module_get_kernel(mod, "k", &k);
    if (!r->st)
        r->st = lockstep_malloc(dev, n * 4, &out);
    if (!r->st) {
        void *args[] = {&out};
        r->st = lockstep_launch_args(dev, k, (lockstep_dim3){grid, 1, 1},
                                     (lockstep_dim3){block, 1, 1}, 0, args, NULL);
        lockstep_synchronize(dev);
    }
    if (r->st)
        snprintf(r->err, sizeof r->err, "%s", lockstep_device_last_error(dev));
    size_t len = lockstep_ace_report(dev, 0, r->rep, sizeof r->rep);
    CHECK(len < sizeof r->rep);
    len = lockstep_ace_report(dev, 1, r->text, sizeof r->text);
    CHECK(len < sizeof r->text);
    lockstep_device_destroy(dev);
}

/* The number `key` inside the object of structure `st` ("reg", ...), or -1. */
static int64_t field(const char *rep, const char *st, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":{", st);
    const char *p = strstr(rep, pat);
    if (!p)
        return -1;
    const char *end = strchr(p, '}');
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *q = strstr(p, pat);
    if (!q || (end && q > end))
        return -1;
    return (int64_t)strtoll(q + strlen(pat), NULL, 10);
}

static double fieldf(const char *rep, const char *st, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":{", st);
    const char *p = strstr(rep, pat);
    if (!p)
        return -1;
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *q = strstr(p, pat);
    return q ? strtod(q + strlen(pat), NULL) : -1;
}

static char opts[512];
static const char *mkopts(const char *mode, const char *extra)
{
    snprintf(opts, sizeof opts, "-lockstep_mode %s\n-lockstep_ace 1\n%s", mode,
             extra ? extra : "");
    return opts;
}

/* ---- kernels ---------------------------------------------------------------------------------- */

static char ptx[16384];

/* The register kernel (instruction indices on the left; one warp, all
 * lanes active):
 *   0 ld.param rd1   1 mov r1 = tid   2 mul.wide rd2 = r1 * 4   3 add rd3 = rd1 + rd2
 *   4 mov r2 = 77    5 .. 4+n: mov r4 = 0 (dead)
 *   then `tail` (reads of r1 or r2 and a store), ret.
 * Up to instruction 3 every lane holds ACE: r1 1 x 32, rd1 3 x 64, rd2 1 x 64. */
#define BASE_ACE (1 * 32 + 3 * 64 + 1 * 64)
static const char *reg_kernel(int n, const char *tail)
{
    size_t k = (size_t)snprintf(
        ptx, sizeof ptx,
        "%s.visible .entry k(.param .u64 out)\n{\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<8>;\n"
        "  ld.param.u64 %%rd1, [out];\n  mov.u32 %%r1, %%tid.x;\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
        "  add.u64 %%rd3, %%rd1, %%rd2;\n  mov.u32 %%r2, 77;\n",
        ptx_head);
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(ptx + k, sizeof ptx - k, "  mov.u32 %%r4, 0;\n");
    snprintf(ptx + k, sizeof ptx - k, "%s  ret;\n}\n", tail);
    return ptx;
}

/* ---- tests ------------------------------------------------------------------------------------ */

/* r2 is written and never read: it adds nothing; r1 is read at 5 + n. */
static void test_dead_value(void)
{
    static ace_res r;
    for (int n = 0; n <= 7; n += 7) {
        run(reg_kernel(n, "  st.global.u32 [%rd3], %r1;\n"), mkopts("functional", NULL), 1, 32,
            &r);
        CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
        /* rd3 3 -> 5+n, r1 2 -> 5+n */
        int64_t want = 32 * (BASE_ACE + (2 + n) * 64 + (3 + n) * 32);
        CHECK_EQ_INT(field(r.rep, "reg", "ace_bit_time"), want);
        CHECK_EQ_INT(field(r.rep, "pred", "ace_bit_time"), 0);
        CHECK_EQ_INT(field(r.rep, "shared", "ace_bit_time"), 0);
        CHECK_STR_CONTAINS(r.rep, "\"time_base\":\"warp_insts\"");
        /* run time: every warp instruction, ret included */
        CHECK_STR_CONTAINS(r.rep, n ? "\"run_time\":14," : "\"run_time\":7,");
        CHECK_STR_CONTAINS(r.rep, "\"complete\":1");
    }
}

/* r2 is read n + 1 instructions after its write: exactly (n + 1) x 32 bits
 * per lane more than nothing. */
static void test_read_later(void)
{
    static ace_res r;
    for (int n = 0; n <= 20; n += 5) {
        run(reg_kernel(n, "  st.global.u32 [%rd3], %r2;\n"), mkopts("functional", NULL), 1, 32,
            &r);
        CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
        int64_t want = 32 * (BASE_ACE + (2 + n) * 64 + (1 + n) * 32);
        CHECK_EQ_INT(field(r.rep, "reg", "ace_bit_time"), want);
        double avf = fieldf(r.rep, "reg", "avf_allocated");
        CHECK(avf > 0 && avf <= 1);
        double avfc = fieldf(r.rep, "reg", "avf_configured");
        CHECK(avfc > 0 && avfc < avf);
    }
}

/* r2 read twice: the ACE span ends at the second read, m instructions
 * after the first. */
static void test_read_twice(void)
{
    static ace_res r;
    int n = 3;
    for (int m = 1; m <= 9; m += 4) {
        char tail[2048];
        size_t k = (size_t)snprintf(tail, sizeof tail, "  st.global.u32 [%%rd3], %%r2;\n");
        for (int i = 0; i < m - 1; i++)
            k += (size_t)snprintf(tail + k, sizeof tail - k, "  mov.u32 %%r5, 1;\n");
        snprintf(tail + k, sizeof tail - k, "  st.global.u32 [%%rd3], %%r2;\n");
        run(reg_kernel(n, tail), mkopts("functional", NULL), 1, 32, &r);
        CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
        /* rd3 3 -> 5+n+m, r2 4 -> 5+n+m */
        int64_t want = 32 * (BASE_ACE + (2 + n + m) * 64 + (1 + n + m) * 32);
        CHECK_EQ_INT(field(r.rep, "reg", "ace_bit_time"), want);
    }
}

/* A guard is read in every lane of the warp, sources only in active lanes:
 *   0 ld.param rd1  1 mov r1  2 setp p1 = r1 < 16  3 mul.wide rd2  4 add rd3
 *   5 @p1 st [rd3], r1  6 ret */
static void test_predicate(void)
{
    static ace_res r;
    snprintf(ptx, sizeof ptx,
             "%s.visible .entry k(.param .u64 out)\n{\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<8>;\n"
             "  .reg .pred %%p1;\n  ld.param.u64 %%rd1, [out];\n  mov.u32 %%r1, %%tid.x;\n"
             "  setp.lt.u32 %%p1, %%r1, 16;\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
             "  add.u64 %%rd3, %%rd1, %%rd2;\n  @%%p1 st.global.u32 [%%rd3], %%r1;\n  ret;\n}\n",
             ptx_head);
    run(ptx, mkopts("functional", NULL), 1, 32, &r);
    CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
    CHECK_EQ_INT(field(r.rep, "pred", "ace_bit_time"), 3 * 32);
    /* all lanes: r1 1->2->3, rd1 0->4, rd2 3->4; lanes 0-15: rd3 4->5, r1 3->5 */
    CHECK_EQ_INT(field(r.rep, "reg", "ace_bit_time"),
                 32 * (32 + 32 + 4 * 64 + 64) + 16 * (64 + 2 * 32));
    /* the warp's register rows at their widths: %r0-%r7 32 bits, %rd1-%rd3 written
     * with 64-bit values, the other %rd rows never written (32 bits); 32 lanes,
     * resident from instruction 0 to 6 */
    CHECK_EQ_INT(field(r.rep, "reg", "allocated_bit_time"), 6 * 32 * (8 * 32 + 3 * 64 + 5 * 32));
    /* one predicate, 32 lanes, resident from instruction 0 to 6 */
    CHECK_EQ_INT(field(r.rep, "pred", "allocated_bit_time"), 6 * 32);
    CHECK(fieldf(r.rep, "pred", "avf_allocated") > 0.49 &&
          fieldf(r.rep, "pred", "avf_allocated") < 0.51);
}

/* Shared memory: each lane stores word tid at 5, loads it back at 6 + n
 * and 7 + n:
 *   0 ld.param rd1  1 mov r1  2 mul.wide rd2  3 mov rd4 = sh  4 add rd5
 *   5 st.shared [rd5], r1   6 .. 5+n: mov r4 (dead)   6+n, 7+n: ld.shared r3
 *   8+n add rd3  9+n st.global [rd3], r3  10+n ret */
static void test_shared(void)
{
    static ace_res r;
    for (int n = 0; n <= 6; n += 3) {
        size_t k = (size_t)snprintf(
            ptx, sizeof ptx,
            "%s.visible .entry k(.param .u64 out)\n{\n  .reg .b32 %%r<8>;\n"
            "  .reg .b64 %%rd<8>;\n  .shared .align 4 .b32 sh[64];\n"
            "  ld.param.u64 %%rd1, [out];\n  mov.u32 %%r1, %%tid.x;\n"
            "  mul.wide.u32 %%rd2, %%r1, 4;\n  mov.u64 %%rd4, sh;\n  add.u64 %%rd5, %%rd4, %%rd2;\n"
            "  st.shared.u32 [%%rd5], %%r1;\n",
            ptx_head);
        for (int i = 0; i < n; i++)
            k += (size_t)snprintf(ptx + k, sizeof ptx - k, "  mov.u32 %%r4, 0;\n");
        snprintf(ptx + k, sizeof ptx - k,
                 "  ld.shared.u32 %%r3, [%%rd5];\n  ld.shared.u32 %%r3, [%%rd5];\n"
                 "  add.u64 %%rd3, %%rd1, %%rd2;\n  st.global.u32 [%%rd3], %%r3;\n  ret;\n}\n");
        run(ptx, mkopts("functional", NULL), 1, 32, &r);
        CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
        /* 32 words of 32 bits, each ACE from 5 to 7 + n */
        CHECK_EQ_INT(field(r.rep, "shared", "ace_bit_time"), 32 * 32 * (2 + n));
        /* 64 words allocated, resident from 0 to 10 + n */
        CHECK_EQ_INT(field(r.rep, "shared", "allocated_bit_time"), 64 * 32 * (10 + n));
        /* registers: r1 1->2->5, rd1 0->8+n, rd2 2->4->8+n, rd4 3->4, rd5 4->5->6+n->7+n,
         * r3 written at 6+n and again at 7+n, read at 9+n, rd3 8+n->9+n */
        int64_t lane = 4 * 32 + (8 + n) * 64 + (6 + n) * 64 + 64 + (3 + n) * 64 + 2 * 32 + 64;
        CHECK_EQ_INT(field(r.rep, "reg", "ace_bit_time"), 32 * lane);
    }
}

/* a divergent loop, shared memory, a barrier, several CTAs */
static const char diverge_body[] =
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p<4>;\n"
    "  .shared .align 4 .b32 sh[128];\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r7, %ctaid.x;\n"
    "  mov.u32 %r8, %ntid.x;\n  mad.lo.u32 %r9, %r7, %r8, %r1;\n  mul.wide.u32 %rd2, %r9, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n  mov.u32 %r2, 0;\n  mov.u32 %r3, 0;\n  and.b32 %r4, %r9, 7;\n"
    "LOOP:\n  setp.lt.u32 %p1, %r3, %r4;\n  @!%p1 bra DONE;\n  add.u32 %r2, %r2, %r3;\n"
    "  add.u32 %r3, %r3, 1;\n  bra LOOP;\n"
    "DONE:\n  mov.u64 %rd4, sh;\n  mul.wide.u32 %rd6, %r1, 4;\n  add.u64 %rd5, %rd4, %rd6;\n"
    "  st.shared.u32 [%rd5], %r2;\n  bar.sync 0;\n  xor.b32 %r5, %r1, 1;\n"
    "  mul.wide.u32 %rd6, %r5, 4;\n  add.u64 %rd7, %rd4, %rd6;\n  ld.shared.u32 %r6, [%rd7];\n"
    "  atom.shared.add.u32 %r10, [%rd4], %r6;\n  add.u32 %r6, %r6, %r2;\n"
    "  st.global.u32 [%rd3], %r6;\n  ret;\n}\n";

static void test_timing_threads(void)
{
    static ace_res r1, r2, r3;
    snprintf(ptx, sizeof ptx, "%s%s", ptx_head, diverge_body);
    run(ptx, mkopts("timing", "-lockstep_threads 1\n-lockstep_window_order 0\n"), 12, 128, &r1);
    run(ptx, mkopts("timing", "-lockstep_threads 2\n-lockstep_window_order 0\n"), 12, 128, &r2);
    run(ptx, mkopts("timing", "-lockstep_threads 2\n-lockstep_window_order 1\n"), 12, 128, &r3);
    CHECK_EQ_INT(r1.st, LOCKSTEP_SUCCESS);
    CHECK_EQ_INT(r2.st, LOCKSTEP_SUCCESS);
    CHECK_EQ_INT(r3.st, LOCKSTEP_SUCCESS);
    CHECK(r1.rep[0] != 0);
    CHECK_MSG(!strcmp(r1.rep, r2.rep), "1 thread: %s\n2 threads: %s", r1.rep, r2.rep);
    CHECK_MSG(!strcmp(r1.rep, r3.rep), "1 thread: %s\nwindow order 1: %s", r1.rep, r3.rep);
    CHECK(!strcmp(r1.text, r2.text));
    CHECK_STR_CONTAINS(r1.rep, "\"time_base\":\"cycles\"");
    CHECK_STR_CONTAINS(r1.text, "simulated cycles");
    const char *st[] = {"reg", "pred", "shared"};
    for (int i = 0; i < 3; i++) {
        int64_t ace = field(r1.rep, st[i], "ace_bit_time");
        int64_t alloc = field(r1.rep, st[i], "allocated_bit_time");
        CHECK_MSG(ace > 0 && ace <= alloc, "%s: ace %lld allocated %lld", st[i], (long long)ace,
                  (long long)alloc);
    }
    /* functional mode: also sane */
    run(ptx, mkopts("functional", NULL), 12, 128, &r1);
    CHECK_EQ_INT(r1.st, LOCKSTEP_SUCCESS);
    for (int i = 0; i < 3; i++) {
        int64_t ace = field(r1.rep, st[i], "ace_bit_time");
        CHECK(ace > 0 && ace <= field(r1.rep, st[i], "allocated_bit_time"));
    }
}

static void test_off_and_bad_options(void)
{
    static ace_res r;
    run(reg_kernel(0, "  st.global.u32 [%rd3], %r1;\n"), "-lockstep_mode functional\n", 1, 32, &r);
    CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
    CHECK(r.rep[0] == 0 && r.text[0] == 0);
    run(reg_kernel(0, "  st.global.u32 [%rd3], %r1;\n"), "-lockstep_ace 2\n", 1, 32, &r);
    CHECK_EQ_INT(r.st, LOCKSTEP_ERROR_INVALID_CONFIG);
    CHECK_STR_CONTAINS(r.err, "-lockstep_ace");
    run(reg_kernel(0, "  st.global.u32 [%rd3], %r1;\n"),
        "-lockstep_ace 1\n-lockstep_fault_site reg_any\n", 1, 32, &r);
    CHECK_EQ_INT(r.st, LOCKSTEP_ERROR_INVALID_CONFIG);
    CHECK_STR_CONTAINS(r.err, "-lockstep_ace 1 analyses the golden run");
    CHECK_STR_CONTAINS(r.err, "-lockstep_fault_site reg_any");
    char buf[8] = "x";
    CHECK_EQ_INT(lockstep_ace_report(NULL, 0, buf, sizeof buf), 0);
    CHECK(buf[0] == 0);
}

int main(void)
{
    RUN(test_dead_value);
    RUN(test_read_later);
    RUN(test_read_twice);
    RUN(test_predicate);
    RUN(test_shared);
    RUN(test_timing_threads);
    RUN(test_off_and_bad_options);
    return test_summary();
}
