/*
 * test_fault.c -- fault injection (-lockstep_fault_*, src/rel/inject.c,
 * docs/RELIABILITY.md) through the C API:
 *
 *  - site none leaves the golden result and reports landed 0 with the
 *    program's totals;
 *  - each site changes what it must: small PTX kernels whose results the
 *    report predicts exactly (the reported lane's output changes by the
 *    reported old -> new, the reported shared/local/device word is the one
 *    that changed, a lane taken off the SIMT mask never stores, a word of
 *    the L1's copy of a line reaches a load that hits it but not memory,
 *    a word of an L2 line reaches the loads that hit it and stays in
 *    memory only if its sector was dirty when the line left, a corrupted
 *    L1 or L2 tag makes the old address miss and the new one hit with the
 *    line's bytes, a dirty L2 line's bytes going to the new address), and
 *    the report's old/new differ as the model says;
 *  - the same options and seed give byte-identical reports and outputs,
 *    in timing mode on 1 and 2 host threads and both window orders;
 *  - different seeds choose different targets (both modes); a fault point
 *    past the program's end lands nowhere, the program's last warp
 *    instruction is still one; a fault point in a later launch lands there;
 *  - ibuf: the instruction at the fault point runs once with one field
 *    changed (a guard's negation: the other lanes add; an immediate: the
 *    lanes add another value; a register or predicate index past the
 *    function's rows: an illegal instruction),
 *    the module's code stays intact, in timing mode a load whose
 *    destination moved never leaves the scoreboard waiting, and under DAB
 *    an atomic issued again after a full buffer runs the corrupted copy;
 *  - every site and model at many points of a divergent kernel ends the
 *    run cleanly (run under ASan/UBSan and TSan in CI);
 *  - bad option values are refused, naming the option and the choices;
 *  - the program-wide bounds stop the launch that passes them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define MAXT 256          /* threads of a launch at most */
#define SENTINEL 0xdeadbeefu

/* ---- kernels ------------------------------------------------------------------------------ */

static const char ptx_head[] = ".version 8.0\n.target sm_75\n.address_size 64\n";

/* chain: out[g] = g + 1000 + 7 * (1 + ... + 40) (+ 1000000 for g < 16),
 * a chain of dependent adds whose only live values are the running sum and
 * the store's address; a guarded add reads predicate %p1 (the only one). */
#define CHAIN_N 40
static char chain_ptx[8192];
static int chain_line_lo, chain_line_hi; /* PTX lines of the chain's adds */

static void build_chain(void)
{
    size_t n = 0;
    int line = 1;
#define EMIT(...)                                                                               \
    do {                                                                                        \
        n += (size_t)snprintf(chain_ptx + n, sizeof chain_ptx - n, __VA_ARGS__);                \
        line++;                                                                                 \
    } while (0)
    n += (size_t)snprintf(chain_ptx + n, sizeof chain_ptx - n, "%s", ptx_head);
    line += 3;
    EMIT(".visible .entry k(.param .u64 out, .param .u64 in)\n");
    EMIT("{\n");
    EMIT("  .reg .b32 %%r<64>;\n");
    EMIT("  .reg .b64 %%rd<8>;\n");
    EMIT("  .reg .pred %%p1;\n");
    EMIT("  ld.param.u64 %%rd1, [out];\n");               /* 0 */
    EMIT("  mov.u32 %%r1, %%tid.x;\n");                   /* 1 */
    EMIT("  mov.u32 %%r3, %%ctaid.x;\n");                 /* 2 */
    EMIT("  mov.u32 %%r4, %%ntid.x;\n");                  /* 3 */
    EMIT("  mad.lo.u32 %%r5, %%r3, %%r4, %%r1;\n");       /* 4 */
    EMIT("  setp.lt.u32 %%p1, %%r5, 16;\n");              /* 5 */
    EMIT("  mul.wide.u32 %%rd2, %%r5, 4;\n");             /* 6 */
    EMIT("  add.u64 %%rd3, %%rd1, %%rd2;\n");             /* 7 */
    chain_line_lo = line;
    EMIT("  add.u32 %%r10, %%r5, 1000;\n");               /* 8 */
    for (int k = 0; k < CHAIN_N; k++) {                   /* 9 .. 28, 30 .. 49 */
        EMIT("  add.u32 %%r%d, %%r%d, %d;\n", 11 + k, 10 + k, 7 * (k + 1));
        if (k == 19)                                      /* 29 */
            EMIT("  @%%p1 add.u32 %%r30, %%r30, 1000000;\n");
    }
    chain_line_hi = line - 1;
    EMIT("  st.global.u32 [%%rd3], %%r50;\n");            /* 50 */
    EMIT("  ret;\n");                                     /* 51 */
    EMIT("}\n");
#undef EMIT
}
#define CHAIN_INSTS 52 /* warp instructions per warp */

static uint32_t chain_golden(uint32_t g)
{
    return g + 1000 + 7 * (CHAIN_N * (CHAIN_N + 1) / 2) + (g < 16 ? 1000000 : 0);
}

/* shared: each thread writes sh[t] = 3t + 0x100, a barrier, then reads it
 * back and stores it: instruction 10 is the ld.shared. */
static const char shared_body[] =
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n  .shared .align 4 .b32 sh[32];\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n  mov.u64 %rd4, sh;\n  add.u64 %rd5, %rd4, %rd2;\n"
    "  mul.lo.u32 %r2, %r1, 3;\n  add.u32 %r2, %r2, 256;\n  st.shared.u32 [%rd5], %r2;\n"
    "  bar.sync 0;\n  ld.shared.u32 %r3, [%rd5];\n  st.global.u32 [%rd3], %r3;\n  ret;\n}\n";
#define SHARED_LD 10

/* local: four words of a local array, then their xor: instruction 14 is
 * the first ld.local. */
static const char local_body[] =
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n  .local .align 4 .b32 lo[4];\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n  mov.u64 %rd4, lo;\n"
    "  mul.lo.u32 %r2, %r1, 3;\n  add.u32 %r2, %r2, 256;\n  mul.lo.u32 %r3, %r1, 5;\n"
    "  xor.b32 %r4, %r1, 21845;\n  add.u32 %r5, %r1, 489335;\n"
    "  st.local.u32 [%rd4], %r2;\n  st.local.u32 [%rd4+4], %r3;\n"
    "  st.local.u32 [%rd4+8], %r4;\n  st.local.u32 [%rd4+12], %r5;\n"
    "  ld.local.u32 %r6, [%rd4];\n  ld.local.u32 %r7, [%rd4+4];\n"
    "  ld.local.u32 %r8, [%rd4+8];\n  ld.local.u32 %r9, [%rd4+12];\n"
    "  xor.b32 %r6, %r6, %r7;\n  xor.b32 %r6, %r6, %r8;\n  xor.b32 %r6, %r6, %r9;\n"
    "  st.global.u32 [%rd3], %r6;\n  ret;\n}\n";
#define LOCAL_LD 14

static uint32_t local_golden(uint32_t t)
{
    return (t * 3 + 256) ^ (t * 5) ^ (t ^ 21845) ^ (t + 489335);
}

/* diverge: a loop with a per-lane trip count, shared memory, a barrier */
static const char diverge_body[] =
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p<4>;\n"
    "  .shared .align 4 .b32 sh[64];\n  .local .align 4 .b32 lo[2];\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n  mov.u32 %r2, 0;\n  mov.u32 %r3, 0;\n  and.b32 %r4, %r1, 7;\n"
    "LOOP:\n  setp.lt.u32 %p1, %r3, %r4;\n  @!%p1 bra DONE;\n  add.u32 %r2, %r2, %r3;\n"
    "  add.u32 %r3, %r3, 1;\n  bra LOOP;\n"
    "DONE:\n  mov.u64 %rd4, sh;\n  add.u64 %rd5, %rd4, %rd2;\n  st.shared.u32 [%rd5], %r2;\n"
    "  mov.u64 %rd6, lo;\n  st.local.u32 [%rd6], %r2;\n"
    "  bar.sync 0;\n  xor.b32 %r5, %r1, 1;\n  mul.wide.u32 %rd6, %r5, 4;\n"
    "  add.u64 %rd7, %rd4, %rd6;\n  ld.shared.u32 %r6, [%rd7];\n  add.u32 %r6, %r6, %r2;\n"
    "  st.global.u32 [%rd3], %r6;\n  ret;\n}\n";

/* l1: out[t] = in[t], loaded twice through the L1 (.ca) with a chain of
 * adds that waits for the first load between them (built below) */
static char l1_ptx[8192];

static void build_l1(void)
{
    size_t n = (size_t)snprintf(
        l1_ptx, sizeof l1_ptx,
        "%s.visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
        "  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<8>;\n"
        "  ld.param.u64 %%rd1, [out];\n  ld.param.u64 %%rd5, [in];\n  mov.u32 %%r1, %%tid.x;\n"
        "  mul.wide.u32 %%rd2, %%r1, 4;\n  add.u64 %%rd3, %%rd1, %%rd2;\n"
        "  add.u64 %%rd6, %%rd5, %%rd2;\n  ld.global.ca.u32 %%r2, [%%rd6];\n"
        "  add.u32 %%r4, %%r2, 1;\n",
        ptx_head);
    for (int k = 0; k < 64; k++)
        n += (size_t)snprintf(l1_ptx + n, sizeof l1_ptx - n, "  add.u32 %%r4, %%r4, %d;\n", k);
    snprintf(l1_ptx + n, sizeof l1_ptx - n,
             "  ld.global.ca.u32 %%r3, [%%rd6];\n  st.global.u32 [%%rd3], %%r3;\n  ret;\n}\n");
}

/* l2: the same, loaded twice through the L2 alone (.cg); rmw: in[t] += 1
 * first (a store that makes the line dirty in the L2), then out[t] = in[t]
 * loaded after the chain */
static char l2_ptx[8192], rmw_ptx[8192];

static void build_l2(void)
{
    char *d = l2_ptx;
    for (const char *p = l1_ptx; *p; p++) {
        if (!strncmp(p, ".ca.", 4)) {
            memcpy(d, ".cg.", 4);
            d += 4;
            p += 3;
            continue;
        }
        *d++ = *p;
    }
    *d = 0;
    size_t n = (size_t)snprintf(
        rmw_ptx, sizeof rmw_ptx,
        "%s.visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
        "  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<8>;\n"
        "  ld.param.u64 %%rd1, [out];\n  ld.param.u64 %%rd5, [in];\n  mov.u32 %%r1, %%tid.x;\n"
        "  mul.wide.u32 %%rd2, %%r1, 4;\n  add.u64 %%rd3, %%rd1, %%rd2;\n"
        "  add.u64 %%rd6, %%rd5, %%rd2;\n  ld.global.cg.u32 %%r2, [%%rd6];\n"
        "  add.u32 %%r4, %%r2, 1;\n  st.global.u32 [%%rd6], %%r4;\n",
        ptx_head);
    for (int k = 0; k < 64; k++)
        n += (size_t)snprintf(rmw_ptx + n, sizeof rmw_ptx - n, "  add.u32 %%r4, %%r4, %d;\n", k);
    snprintf(rmw_ptx + n, sizeof rmw_ptx - n,
             "  ld.global.cg.u32 %%r3, [%%rd6];\n  st.global.u32 [%%rd3], %%r3;\n  ret;\n}\n");
}

/* tag: y = b[t] after a[t] was loaded, z = a[t] again, each load after a
 * chain that waits for the one before; out[t] = y, out[32 + t] = z.  The
 * host passes b = a + 4096 with bit 12 of a clear: a and b are the same
 * line address but for bit 12, so they map to the same set of a linearly
 * indexed L1 of 32 128-byte sets. */
static char tag_ptx[16384];

static void build_tag(void)
{
    size_t n = (size_t)snprintf(
        tag_ptx, sizeof tag_ptx,
        "%s.visible .entry k(.param .u64 out, .param .u64 a, .param .u64 b)\n{\n"
        "  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<12>;\n"
        "  ld.param.u64 %%rd1, [out];\n  ld.param.u64 %%rd5, [a];\n  ld.param.u64 %%rd7, [b];\n"
        "  mov.u32 %%r1, %%tid.x;\n  mul.wide.u32 %%rd2, %%r1, 4;\n  add.u64 %%rd3, %%rd1, %%rd2;\n"
        "  add.u64 %%rd6, %%rd5, %%rd2;\n  add.u64 %%rd8, %%rd7, %%rd2;\n"
        "  ld.global.ca.u32 %%r2, [%%rd6];\n  add.u32 %%r4, %%r2, 1;\n",
        ptx_head);
    for (int k = 0; k < 64; k++)
        n += (size_t)snprintf(tag_ptx + n, sizeof tag_ptx - n, "  add.u32 %%r4, %%r4, %d;\n", k);
    n += (size_t)snprintf(tag_ptx + n, sizeof tag_ptx - n,
                          "  ld.global.ca.u32 %%r3, [%%rd8];\n  add.u32 %%r5, %%r3, 1;\n");
    for (int k = 0; k < 64; k++)
        n += (size_t)snprintf(tag_ptx + n, sizeof tag_ptx - n, "  add.u32 %%r5, %%r5, %d;\n", k);
    snprintf(tag_ptx + n, sizeof tag_ptx - n,
             "  ld.global.ca.u32 %%r6, [%%rd6];\n  st.global.u32 [%%rd3], %%r3;\n"
             "  add.u64 %%rd9, %%rd3, 128;\n  st.global.u32 [%%rd9], %%r6;\n  ret;\n}\n");
}

/* tag2: tag's kernel through the L2 alone (.cg), with a[t] += 1 first: a
 * store that makes a's line dirty in the L2 */
static char tag2_ptx[16384];

static void build_tag2(void)
{
    const char *p = strstr(tag_ptx, "  add.u32 %r4, %r2, 1;\n");
    size_t n = (size_t)(p - tag_ptx);
    memcpy(tag2_ptx, tag_ptx, n);
    n += (size_t)snprintf(tag2_ptx + n, sizeof tag2_ptx - n,
                          "  add.u32 %%r4, %%r2, 1;\n  st.global.u32 [%%rd6], %%r4;\n%s",
                          p + strlen("  add.u32 %r4, %r2, 1;\n"));
    for (char *q = tag2_ptx; (q = strstr(q, ".ca.")); q += 4)
        memcpy(q, ".cg.", 4);
}

/* copy: out[t] = in[t] + 1 */
static const char copy_body[] =
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd5, [in];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd3, %rd1, %rd2;\n  add.u64 %rd6, %rd5, %rd2;\n"
    "  ld.global.u32 %r2, [%rd6];\n  add.u32 %r2, %r2, 1;\n  st.global.u32 [%rd3], %r2;\n"
    "  ret;\n}\n";

/* red2: out[t] += 1 (32 entries: a full DAB buffer), then in[0] += 5 from
 * every lane, at pc 6, waiting for its address (a parameter) */
static const char red2_body[] =
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n  red.global.add.u32 [%rd3], 1;\n  ld.param.u64 %rd5, [in];\n"
    "  red.global.add.u32 [%rd5], 5;\n  ret;\n}\n";

static char *with_head(const char *body)
{
    static char buf[4][4096];
    static int k;
    char *b = buf[k++ & 3];
    snprintf(b, sizeof buf[0], "%s%s", ptx_head, body);
    return b;
}

/* ---- running ------------------------------------------------------------------------------ */

typedef struct run_res {
    lockstep_status st;       /* the first launch that failed, or success */
    uint32_t out[MAXT], in[MAXT];
    char rep[2048];
    char err[1024];
    lockstep_dptr out_base, in_base;
    uint64_t l1d_misses, l2_writebacks; /* summed over the launches (timing mode) */
} run_res;

static uint32_t in_value(uint32_t i) { return i * 0x01010101u + 0x55; }

/* Load ptx, launch k `launches` times with grid x block threads (<= MAXT)
 * under the options `opts` (config-file syntax), read out and in back. */
static void run(const char *ptx, const char *opts, uint32_t grid, uint32_t block,
                int launches, run_res *r)
{
    memset(r, 0, sizeof *r);
    lockstep_config *cfg = NULL;
    lockstep_device *dev = NULL;
    r->st = lockstep_config_create(&cfg);
    if (!r->st)
        r->st = lockstep_config_parse(cfg, opts, strlen(opts), "test");
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
    lockstep_dptr out = 0, in = 0;
    uint32_t n = grid * block;
    r->st = lockstep_module_load_ptx(dev, ptx, strlen(ptx), "fault.ptx", &mod);
    if (!r->st)
        r->st = lockstep_module_get_kernel(mod, "k", &k);
    if (!r->st)
        r->st = lockstep_malloc(dev, n * 4, &out);
    if (!r->st)
        r->st = lockstep_malloc(dev, n * 4, &in);
    if (!r->st) {
        uint32_t init[MAXT];
        for (uint32_t i = 0; i < n; i++)
            init[i] = in_value(i);
        lockstep_memcpy_htod(dev, in, init, n * 4);
        for (uint32_t i = 0; i < n; i++)
            init[i] = SENTINEL;
        lockstep_memcpy_htod(dev, out, init, n * 4);
        void *args[] = {&out, &in};
        for (int l = 0; l < launches && !r->st; l++) {
            lockstep_launch_stats ls;
            r->st = lockstep_launch_args(dev, k, (lockstep_dim3){grid, 1, 1},
                                         (lockstep_dim3){block, 1, 1}, 0, args, &ls);
            if (ls.timing) {
                r->l1d_misses += ls.t.l1d_misses;
                r->l2_writebacks += ls.t.l2_writebacks;
            }
        }
        if (r->st)
            snprintf(r->err, sizeof r->err, "%s", lockstep_device_last_error(dev));
        lockstep_synchronize(dev);
        lockstep_memcpy_dtoh(dev, r->out, out, n * 4);
        lockstep_memcpy_dtoh(dev, r->in, in, n * 4);
    } else {
        snprintf(r->err, sizeof r->err, "%s", lockstep_device_last_error(dev));
    }
    r->out_base = out;
    r->in_base = in;
    size_t len = lockstep_fault_report(dev, r->rep, sizeof r->rep);
    CHECK(len > 0 && len < sizeof r->rep);
    lockstep_device_destroy(dev);
}

/* The report's field `key`: a number, or a "0x..." string's value; -1 if absent. */
static int64_t jnum(const char *rep, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(rep, pat);
    if (!p)
        return -1;
    p += strlen(pat);
    if (*p == '"')
        return (int64_t)strtoull(p + 1, NULL, 16);
    return (int64_t)strtoull(p, NULL, 10);
}

/* The report's string field `key` into out ("" if absent). */
static void jstr(const char *rep, const char *key, char *out, size_t n)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *p = strstr(rep, pat);
    out[0] = 0;
    if (!p)
        return;
    p += strlen(pat);
    const char *e = strchr(p, '"');
    snprintf(out, n, "%.*s", e ? (int)(e - p) : 0, p);
}

/* old -> new as model says (within the low `bits`). */
static void check_model(const char *rep, const char *model, int bits)
{
    uint64_t old = (uint64_t)jnum(rep, "old"), nv = (uint64_t)jnum(rep, "new");
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t d = (old ^ nv) & mask;
    int64_t bit = jnum(rep, "bit");
    if (!strcmp(model, "bit1")) {
        CHECK_MSG(__builtin_popcountll(d) == 1 && bit >= 0 && d == 1ull << bit, "%s", rep);
    } else if (!strcmp(model, "bit2")) {
        CHECK_MSG(bit >= 0 && bit + 1 < bits && d == 3ull << bit, "%s", rep);
    } else if (!strcmp(model, "zero")) {
        CHECK_MSG((nv & mask) == 0 && jnum(rep, "bit") < 0, "%s", rep);
    }
}

static char opts[1024];
static const char *mkopts(const char *mode, const char *site, const char *model, uint64_t at,
                          uint64_t seed, const char *extra)
{
    snprintf(opts, sizeof opts,
             "-lockstep_mode %s\n-lockstep_fault_site %s\n-lockstep_fault_model %s\n"
             "-lockstep_fault_at %" PRIu64 "\n-lockstep_fault_seed %" PRIu64 "\n%s",
             mode, site, model, at, seed, extra ? extra : "");
    return opts;
}

/* ---- tests ------------------------------------------------------------------------------------ */

static void test_golden(void)
{
    static run_res r;
    const char *modes[] = {"functional", "timing"};
    for (int m = 0; m < 2; m++) {
        run(chain_ptx, mkopts(modes[m], "none", "bit1", 0, 0, NULL), 1, 32, 2, &r);
        CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
        for (uint32_t g = 0; g < 32; g++)
            CHECK_EQ_U64(r.out[g], chain_golden(g));
        CHECK_STR_CONTAINS(r.rep, "{\"site\":\"none\",\"model\":\"bit1\",\"at\":0,\"seed\":0,"
                                  "\"landed\":0,\"total_cycles\":");
        CHECK_EQ_INT(jnum(r.rep, "total_warp_insts"), 2 * CHAIN_INSTS);
        CHECK_EQ_INT(jnum(r.rep, "launches"), 2);
        if (m == 0)
            CHECK_EQ_INT(jnum(r.rep, "total_cycles"), 0);
        else
            CHECK(jnum(r.rep, "total_cycles") > 100);
        CHECK(jnum(r.rep, "target") < 0 && jnum(r.rep, "lane") < 0);
    }
}

/* insn_out / alu in functional mode: the instruction at the fault point
 * is a chain add, so the reported lane's output moves by new - old. */
static void test_insn_out(void)
{
    static run_res r;
    const char *sites[] = {"insn_out", "alu"};
    const char *models[] = {"bit1", "bit2", "zero"};
    for (int s = 0; s < 2; s++)
        for (int m = 0; m < 3; m++)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                run(chain_ptx, mkopts("functional", sites[s], models[m], 20, seed, NULL), 1, 32,
                    1, &r);
                CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
                CHECK_MSG(jnum(r.rep, "landed") == 1, "%s", r.rep);
                int64_t line = jnum(r.rep, "ptx_line"), lane = jnum(r.rep, "lane");
                CHECK_MSG(line >= chain_line_lo && line <= chain_line_hi, "%s", r.rep);
                CHECK_EQ_INT(jnum(r.rep, "warp_inst"), 20);
                check_model(r.rep, models[m], 32);
                uint32_t delta = (uint32_t)jnum(r.rep, "new") - (uint32_t)jnum(r.rep, "old");
                CHECK(delta != 0);
                for (uint32_t g = 0; g < 32; g++)
                    CHECK_EQ_U64(r.out[g], chain_golden(g) + (g == (uint32_t)lane ? delta : 0));
            }
}

/* reg_live: at a chain add the live rows are the running sum (32 bits) and
 * the store's address (64 bits): the sum moves the output by new - old,
 * the address sends the lane's store elsewhere or faults. */
static void test_reg_live(void)
{
    static run_res r;
    int sums = 0, addrs = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        run(chain_ptx, mkopts("functional", "reg_live", seed & 1 ? "bit1" : "zero", 20, seed,
                              NULL),
            1, 32, 1, &r);
        CHECK_MSG(jnum(r.rep, "landed") == 1, "%s", r.rep);
        uint64_t old = (uint64_t)jnum(r.rep, "old");
        uint32_t lane = (uint32_t)jnum(r.rep, "lane");
        check_model(r.rep, seed & 1 ? "bit1" : "zero", old >> 32 ? 64 : 32);
        if (old >> 32) { /* the address */
            addrs++;
            CHECK(r.st != LOCKSTEP_SUCCESS || r.out[lane] == SENTINEL || r.out[lane] == chain_golden(lane));
            continue;
        }
        sums++;
        CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
        uint32_t delta = (uint32_t)jnum(r.rep, "new") - (uint32_t)old;
        for (uint32_t g = 0; g < 32; g++)
            CHECK_EQ_U64(r.out[g], chain_golden(g) + (g == lane ? delta : 0));
    }
    CHECK_MSG(sums > 0 && addrs > 0, "sums %d addrs %d", sums, addrs);
}

/* reg_any: any row of any lane; zero leaves the row 0.  Different seeds
 * choose different targets; the same seed the same one. */
static void test_reg_any(void)
{
    static run_res r, r2;
    char seen[8][96];
    int distinct = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        run(chain_ptx, mkopts("functional", "reg_any", "zero", 20, seed, NULL), 1, 32, 1, &r);
        CHECK_MSG(jnum(r.rep, "landed") == 1, "%s", r.rep);
        CHECK_EQ_INT(jnum(r.rep, "new"), 0);
        char t[32], key[96];
        jstr(r.rep, "target", t, sizeof t);
        CHECK(t[0] == 'r');
        snprintf(key, sizeof key, "%s/%lld", t, (long long)jnum(r.rep, "lane"));
        int dup = 0;
        for (int i = 0; i < distinct; i++)
            dup |= !strcmp(seen[i], key);
        if (!dup)
            snprintf(seen[distinct++], sizeof seen[0], "%s", key);
        run(chain_ptx, opts, 1, 32, 1, &r2);
        CHECK(!strcmp(r.rep, r2.rep));
        CHECK(!memcmp(r.out, r2.out, sizeof r.out));
    }
    CHECK_MSG(distinct >= 4, "%d distinct targets of 8 seeds", distinct);
}

/* pred: %p1 is the only predicate; flipping a lane's copy moves its output
 * by 1000000 (the guarded add is still ahead at instruction 20). */
static void test_pred(void)
{
    static run_res r;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        run(chain_ptx, mkopts("functional", "pred", "bit1", 20, seed, NULL), 1, 32, 1, &r);
        CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
        CHECK_MSG(jnum(r.rep, "landed") == 1, "%s", r.rep);
        uint32_t lane = (uint32_t)jnum(r.rep, "lane");
        CHECK_EQ_INT(jnum(r.rep, "old") ^ jnum(r.rep, "new"), 1);
        for (uint32_t g = 0; g < 32; g++) {
            uint32_t want = chain_golden(g);
            if (g == lane)
                want += g < 16 ? -1000000u : 1000000u;
            CHECK_EQ_U64(r.out[g], want);
        }
    }
}

/* simt: a lane taken off the mask never stores; one put on... cannot be
 * (every lane is on); the reported bit is the lane. */
static void test_simt(void)
{
    static run_res r;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        run(chain_ptx, mkopts("functional", "simt", "bit1", 20, seed, NULL), 1, 32, 1, &r);
        CHECK_MSG(jnum(r.rep, "landed") == 1, "%s", r.rep);
        uint32_t lane = (uint32_t)jnum(r.rep, "lane");
        CHECK_EQ_INT(jnum(r.rep, "bit"), lane);
        CHECK_EQ_U64(jnum(r.rep, "old"), 0xffffffffu);
        CHECK_EQ_U64(jnum(r.rep, "new"), 0xffffffffu & ~(1u << lane));
        for (uint32_t g = 0; g < 32; g++)
            CHECK_EQ_U64(r.out[g], g == lane ? SENTINEL : chain_golden(g));
    }
}

/* shared: between the store and the load, the reported word changes by
 * exactly the reported bits. */
static void test_shared(void)
{
    static run_res r;
    const char *models[] = {"bit1", "bit2", "zero", "random"};
    for (int m = 0; m < 4; m++) {
        run(with_head(shared_body), mkopts("functional", "shared", models[m], SHARED_LD, 7, NULL),
            1, 32, 1, &r);
        CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
        CHECK_MSG(jnum(r.rep, "landed") == 1, "%s", r.rep);
        check_model(r.rep, models[m], 32);
        uint32_t word = (uint32_t)jnum(r.rep, "addr") / 4;
        CHECK(word < 32);
        CHECK_EQ_U64(jnum(r.rep, "old"), word * 3 + 256);
        uint32_t d = (uint32_t)(jnum(r.rep, "old") ^ jnum(r.rep, "new"));
        for (uint32_t t = 0; t < 32; t++)
            CHECK_EQ_U64(r.out[t], (t * 3 + 256) ^ (t == word ? d : 0));
    }
}

/* local: between the stores and the loads, a word of one thread's local
 * memory. */
static void test_local(void)
{
    static run_res r;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        run(with_head(local_body), mkopts("functional", "local", "bit1", LOCAL_LD, seed, NULL), 1,
            32, 1, &r);
        CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
        CHECK_MSG(jnum(r.rep, "landed") == 1, "%s", r.rep);
        check_model(r.rep, "bit1", 32);
        uint32_t lane = (uint32_t)jnum(r.rep, "lane"), off = (uint32_t)jnum(r.rep, "addr");
        uint32_t d = off < 16 ? (uint32_t)(jnum(r.rep, "old") ^ jnum(r.rep, "new")) : 0;
        for (uint32_t t = 0; t < 32; t++)
            CHECK_EQ_U64(r.out[t], local_golden(t) ^ (t == lane ? d : 0));
    }
}

/* dram: before the first instruction, a word of `in` (read later: the
 * output follows it) or of `out` (overwritten). */
static void test_dram(void)
{
    static run_res r;
    int ins = 0, outs = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        run(with_head(copy_body), mkopts("functional", "dram", "bit1", 0, seed, NULL), 1, 32, 1,
            &r);
        CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
        CHECK_MSG(jnum(r.rep, "landed") == 1, "%s", r.rep);
        check_model(r.rep, "bit1", 32);
        uint64_t addr = (uint64_t)jnum(r.rep, "addr");
        uint32_t d = (uint32_t)(jnum(r.rep, "old") ^ jnum(r.rep, "new"));
        if (addr >= r.in_base && addr < r.in_base + 128) {
            ins++;
            uint32_t k = (uint32_t)(addr - r.in_base) / 4;
            CHECK_EQ_U64(jnum(r.rep, "old"), in_value(k));
            for (uint32_t t = 0; t < 32; t++) {
                CHECK_EQ_U64(r.in[t], in_value(t) ^ (t == k ? d : 0));
                CHECK_EQ_U64(r.out[t], (in_value(t) ^ (t == k ? d : 0)) + 1);
            }
        } else {
            outs++;
            CHECK(addr >= r.out_base && addr < r.out_base + 128);
            CHECK_EQ_U64(jnum(r.rep, "old"), SENTINEL);
            for (uint32_t t = 0; t < 32; t++)
                CHECK_EQ_U64(r.out[t], in_value(t) + 1);
        }
    }
    CHECK_MSG(ins > 0 && outs > 0, "in %d out %d", ins, outs);
}

/* Timing mode: insn_out landing in the chain moves the lane's output by
 * new - old, as in functional mode. */
static void test_timing_insn_out(void)
{
    static run_res g, r;
    run(chain_ptx, mkopts("timing", "none", "bit1", 0, 0, NULL), 1, 32, 1, &g);
    int64_t total = jnum(g.rep, "total_cycles");
    CHECK(total > 200);
    int in_chain = 0;
    for (int64_t at = 20; at < total; at += total / 8) {
        run(chain_ptx, mkopts("timing", "insn_out", "bit1", (uint64_t)at, 3, NULL), 1, 32, 1, &r);
        if (jnum(r.rep, "landed") != 1)
            continue;
        CHECK(jnum(r.rep, "cycle") >= at);
        check_model(r.rep, "bit1", 32);
        int64_t line = jnum(r.rep, "ptx_line");
        if (line < chain_line_lo || line > chain_line_hi)
            continue;
        in_chain++;
        CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
        uint32_t lane = (uint32_t)jnum(r.rep, "lane");
        uint32_t delta = (uint32_t)jnum(r.rep, "new") - (uint32_t)jnum(r.rep, "old");
        for (uint32_t t = 0; t < 32; t++)
            CHECK_EQ_U64(r.out[t], chain_golden(t) + (t == lane ? delta : 0));
    }
    CHECK_MSG(in_chain > 0, "no fault point landed in the chain (total %lld cycles)",
              (long long)total);
}

/* ibuf, functional mode: the only warp's instruction at the fault point
 * runs corrupted once.  At the chain's guarded add (pc 29, guard %p1 =
 * g < 16, the function's only predicate) the field drawn decides the
 * outcome exactly: the guard's negation flipped adds 1000000 to the other
 * half of the lanes; the immediate 1000000 changed is what the guarded
 * lanes add; the guard's index (one bit: one predicate) flipped names a
 * predicate that does not exist, an illegal instruction (a DUE); a
 * register index changed either lands past the rows (the same DUE) or the
 * run ends with some lane's sum changed.  Every seed lands there, at that
 * warp instruction. */
static void test_ibuf(void)
{
    static run_res r;
    int seen_neg = 0, seen_guard = 0, seen_reg = 0, seen_imm = 0;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        run(chain_ptx, mkopts("functional", "ibuf", "bit1", 29, seed, NULL), 1, 32, 1, &r);
        CHECK_MSG(jnum(r.rep, "landed") == 1, "%s", r.rep);
        CHECK_STR_CONTAINS(r.rep, "\"target\":\"ibuf\"");
        CHECK_EQ_INT(jnum(r.rep, "warp_inst"), 29);
        CHECK_EQ_INT(jnum(r.rep, "pc"), 29);
        CHECK_EQ_INT(jnum(r.rep, "warp"), 0);
        CHECK(jnum(r.rep, "lane") < 0 && jnum(r.rep, "cycle") < 0);
        CHECK_EQ_INT(jnum(r.rep, "ptx_line"), chain_line_lo + 21);
        char field[16];
        jstr(r.rep, "field", field, sizeof field);
        check_model(r.rep, "bit1", 32);
        if (!strcmp(field, "guard_neg")) {
            seen_neg++;
            CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
            CHECK(jnum(r.rep, "old") == 0 && jnum(r.rep, "new") == 1);
            for (uint32_t g = 0; g < 32; g++)
                CHECK_EQ_U64(r.out[g], g < 16 ? chain_golden(g) - 1000000
                                              : chain_golden(g) + 1000000);
        } else if (!strcmp(field, "imm_s1")) {
            /* the immediate 1000000, held by the copy: the lanes under the
             * guard add the new value instead */
            seen_imm++;
            CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
            CHECK_EQ_INT(jnum(r.rep, "old"), 1000000);
            uint32_t nv = (uint32_t)jnum(r.rep, "new");
            for (uint32_t g = 0; g < 32; g++)
                CHECK_EQ_U64(r.out[g], g < 16 ? (uint32_t)(chain_golden(g) - 1000000 + nv)
                                              : chain_golden(g));
        } else if (!strcmp(field, "guard")) {
            seen_guard++;
            CHECK_EQ_INT(r.st, LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION);
            CHECK_STR_CONTAINS(r.err, "illegal instruction");
            CHECK_STR_CONTAINS(r.err, "names predicate 1, past the 1 predicates of function 'k'");
            CHECK_STR_CONTAINS(r.err, "pc 29");
        } else {
            seen_reg++;
            CHECK_MSG(!strcmp(field, "d0") || !strcmp(field, "s0"), "%s", r.rep);
            if (r.st == LOCKSTEP_SUCCESS) {
                int changed = 0;
                for (uint32_t g = 0; g < 32; g++)
                    changed += r.out[g] != chain_golden(g);
                CHECK_MSG(changed > 0, "%s", r.rep);
            } else {
                CHECK_EQ_INT(r.st, LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION);
                CHECK_STR_CONTAINS(r.err, "names register row");
            }
        }
    }
    CHECK_MSG(seen_neg && seen_guard && seen_reg && seen_imm,
              "fields: %d guard_neg, %d guard, %d register, %d immediate", seen_neg, seen_guard,
              seen_reg, seen_imm);
    /* the module's code is not changed: the next launch runs the golden chain */
    run(chain_ptx, mkopts("functional", "ibuf", "zero", 29, 1, NULL), 1, 32, 2, &r);
    CHECK_MSG(jnum(r.rep, "landed") == 1 && jnum(r.rep, "launch") == 0, "%s", r.rep);
    if (r.st == LOCKSTEP_SUCCESS) {
        /* out holds the second launch's result: the golden one */
        for (uint32_t g = 0; g < 32; g++)
            CHECK_EQ_U64(r.out[g], chain_golden(g));
    }
    /* an instruction with no field (ret) passes the fault on to the warp's
     * next one: here the warp has none, so nothing lands */
    run(chain_ptx, mkopts("functional", "ibuf", "bit1", CHAIN_INSTS - 1, 1, NULL), 1, 32, 1, &r);
    CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
    CHECK_MSG(jnum(r.rep, "landed") == 0, "%s", r.rep);
}

/* ibuf, timing mode: a warp armed at the serial step runs its next
 * instruction corrupted.  A corrupted load's destination is the row its
 * reply writes and the scoreboard waits for (issue marks the executed
 * instruction's registers, not code[pc]'s): a load whose destination moved
 * never leaves the original row waiting forever.  copy: out[t] = in[t] + 1
 * with the load at pc 6.  Then a retried atomic under DAB (below). */
static void test_timing_ibuf(void)
{
    static run_res g, r;
    run(with_head(copy_body), mkopts("timing", "none", "bit1", 0, 0, NULL), 1, 32, 1, &g);
    CHECK_EQ_INT(g.st, LOCKSTEP_SUCCESS);
    int64_t total = jnum(g.rep, "total_cycles");
    int landed = 0, load_dst = 0, ok = 0;
    for (int64_t at = 0; at < total; at += 5)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            run(with_head(copy_body), mkopts("timing", "ibuf", "bit1", (uint64_t)at, seed, NULL),
                1, 32, 1, &r);
            CHECK(r.st == LOCKSTEP_SUCCESS || r.st == LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION ||
                  r.st == LOCKSTEP_ERROR_ILLEGAL_ADDRESS ||
                  r.st == LOCKSTEP_ERROR_MISALIGNED_ADDRESS);
            CHECK_MSG(r.st != LOCKSTEP_ERROR_LAUNCH_TIMEOUT, "%s", r.rep);
            if (jnum(r.rep, "landed") != 1)
                continue;
            landed++;
            CHECK(jnum(r.rep, "cycle") >= at);
            CHECK_STR_CONTAINS(r.rep, "\"target\":\"ibuf\"");
            char field[16];
            jstr(r.rep, "field", field, sizeof field);
            if (jnum(r.rep, "pc") == 6 && !strcmp(field, "d0")) {
                load_dst++;
                ok += r.st == LOCKSTEP_SUCCESS;
            }
        }
    CHECK_MSG(landed > 10, "%d landed", landed);
    CHECK_MSG(load_dst > 0 && ok > 0, "%d faults in the load's destination, %d ran to the end",
              load_dst, ok);
    /* Under DAB the second reduction finds the warp's atomic buffer full
     * (the first one's 32 entries) and is issued again after the flush
     * (EXEC_MEM_RETRY): the corrupted copy is what runs then too.  A
     * changed immediate is what every lane adds to in[0] (fused into one
     * entry); the same on 2 threads. */
    static run_res r2;
    const char *dab = "-lockstep_det dab\n-dab_level warp\n";
    char dab1[128], dab2[128];
    snprintf(dab1, sizeof dab1, "%s-lockstep_threads 1\n", dab);
    snprintf(dab2, sizeof dab2, "%s-lockstep_threads 2\n", dab);
    run(with_head(red2_body), mkopts("timing", "none", "bit1", 0, 0, dab), 1, 32, 1, &g);
    CHECK_MSG(g.st == LOCKSTEP_SUCCESS, "%s", g.err);
    CHECK_EQ_U64(g.in[0], in_value(0) + 32 * 5);
    total = jnum(g.rep, "total_cycles");
    int imm = 0;
    for (int64_t at = 0; at < total; at += 3)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            run(with_head(red2_body), mkopts("timing", "ibuf", "bit1", (uint64_t)at, seed, dab1),
                1, 32, 1, &r);
            char field[16];
            jstr(r.rep, "field", field, sizeof field);
            if (jnum(r.rep, "landed") != 1 || jnum(r.rep, "pc") != 6 || strcmp(field, "imm_s0"))
                continue;
            run(with_head(red2_body), mkopts("timing", "ibuf", "bit1", (uint64_t)at, seed, dab2),
                1, 32, 1, &r2);
            CHECK_MSG(!strcmp(r.rep, r2.rep), "\n  %s\n  %s", r.rep, r2.rep);
            CHECK(r.st == r2.st && !memcmp(r.in, r2.in, sizeof r.in));
            CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
            CHECK_EQ_INT(jnum(r.rep, "old"), 5);
            CHECK_EQ_U64(r.in[0], (uint32_t)(in_value(0) + 32 * (uint32_t)jnum(r.rep, "new")));
            imm++;
        }
    CHECK_MSG(imm > 0, "no DAB run with the reduction's immediate changed");
}

/* l1d: the L1's copy of a line changes, memory does not: the second load
 * hits and sees the fault.  Before the first load fills the line the L1
 * holds nothing, so a fault point at 0 lands just after the fill.  A
 * sectored L1 (with the default non-sectored one a load of a whole line
 * never hits: its request's four sectors are compared with the line's one
 * valid bit, sm.c). */
#define L1_SECTORED "-gpgpu_cache:dl1 S:32:128:4,L:L:m:N:H,A:32:8,8\n"
static void test_l1d(void)
{
    static run_res g, r;
    run(l1_ptx, mkopts("timing", "none", "bit1", 0, 0, L1_SECTORED), 1, 32, 1, &g);
    CHECK_EQ_INT(g.st, LOCKSTEP_SUCCESS);
    for (uint32_t t = 0; t < 32; t++)
        CHECK_EQ_U64(g.out[t], in_value(t));
    int64_t total = jnum(g.rep, "total_cycles");
    int seen = 0;
    const char *models[] = {"bit1", "bit2", "zero"};
    for (int64_t at = 0; at < total; at += total / 6)
        for (int m = 0; m < 3; m++) {
            run(l1_ptx,
                mkopts("timing", "l1d", models[m], (uint64_t)at, (uint64_t)(at + m), L1_SECTORED),
                1, 32, 1, &r);
            CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
            if (jnum(r.rep, "landed") != 1) {
                CHECK_MSG(at > total / 2, "%s", r.rep); /* late: the kernel may be over */
                continue;
            }
            check_model(r.rep, models[m], 32);
            CHECK_STR_CONTAINS(r.rep, "\"target\":\"l1d\"");
            CHECK(jnum(r.rep, "cta") < 0 && jnum(r.rep, "sm") >= 0);
            uint64_t addr = (uint64_t)jnum(r.rep, "addr");
            CHECK(addr >= r.in_base && addr < r.in_base + 128);
            uint32_t k = (uint32_t)(addr - r.in_base) / 4;
            uint32_t d = (uint32_t)(jnum(r.rep, "old") ^ jnum(r.rep, "new"));
            CHECK_EQ_U64(jnum(r.rep, "old"), in_value(k));
            for (uint32_t t = 0; t < 32; t++) {
                CHECK_EQ_U64(r.in[t], in_value(t)); /* memory never sees it */
                if (t != k)
                    CHECK_EQ_U64(r.out[t], in_value(t));
            }
            CHECK(r.out[k] == in_value(k) || r.out[k] == (in_value(k) ^ d));
            if (r.out[k] == (in_value(k) ^ d))
                seen++;
            if (at == 0)
                CHECK_EQ_U64(r.out[k], in_value(k) ^ d);
        }
    CHECK(seen >= 3);
    /* functional mode has no caches */
    run(l1_ptx, mkopts("functional", "l1d", "bit1", 0, 0, NULL), 1, 32, 1, &r);
    CHECK_EQ_INT(r.st, LOCKSTEP_ERROR_INVALID_CONFIG);
}

/* l2d: the L2's copy of a line changes.  With the default L2 nothing is
 * evicted: the second load hits the line and sees the fault, and so does
 * the host's read afterwards (through the L2).  With an L2 of one line the
 * store to out evicts in's line: a clean sector is dropped and memory
 * keeps the intact word; a dirty one is written back and the fault stays
 * in memory.  Functional mode has no L2. */
#define L2_ONE_LINE "-gpgpu_n_mem 1\n-gpgpu_cache:dl2 N:1:128:1,L:B:m:W:L,A:32:4,4\n"
static void test_l2d(void)
{
    static run_res g, r;
    for (int tiny = 0; tiny < 2; tiny++) {
        const char *extra = tiny ? L2_ONE_LINE : NULL;
        run(l2_ptx, mkopts("timing", "none", "bit1", 0, 0, extra), 1, 32, 1, &g);
        CHECK_EQ_INT(g.st, LOCKSTEP_SUCCESS);
        for (uint32_t t = 0; t < 32; t++)
            CHECK_EQ_U64(g.out[t], in_value(t));
        int64_t total = jnum(g.rep, "total_cycles");
        int seen = 0, landed = 0;
        const char *models[] = {"bit1", "bit2", "zero", "random"};
        for (int64_t at = 0; at < total; at += total / 8)
            for (int m = 0; m < 4; m++) {
                run(l2_ptx, mkopts("timing", "l2d", models[m], (uint64_t)at, (uint64_t)(at + m),
                                   extra),
                    1, 32, 1, &r);
                CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
                if (jnum(r.rep, "landed") != 1) {
                    CHECK_MSG(at > total / 2, "%s", r.rep);
                    continue;
                }
                landed++;
                check_model(r.rep, models[m], 32);
                CHECK_STR_CONTAINS(r.rep, "\"target\":\"l2d\"");
                CHECK_MSG(jnum(r.rep, "cta") < 0 && jnum(r.rep, "sm") < 0 &&
                              jnum(r.rep, "partition") >= 0 && jnum(r.rep, "dirty") >= 0,
                          "%s", r.rep);
                if (tiny)
                    CHECK_EQ_INT(jnum(r.rep, "partition"), 0);
                uint64_t addr = (uint64_t)jnum(r.rep, "addr");
                uint32_t old = (uint32_t)jnum(r.rep, "old"), nv = (uint32_t)jnum(r.rep, "new");
                if (addr >= r.out_base && addr < r.out_base + 128) {
                    /* late: out's line, written by the stores: dirty, and it stays */
                    uint32_t k = (uint32_t)(addr - r.out_base) / 4;
                    CHECK_MSG(jnum(r.rep, "dirty") == 1 && old == in_value(k), "%s", r.rep);
                    for (uint32_t t = 0; t < 32; t++)
                        CHECK_EQ_U64(r.out[t], t == k ? nv : in_value(t));
                    continue;
                }
                CHECK_MSG(addr >= r.in_base && addr < r.in_base + 128, "%s", r.rep);
                CHECK_EQ_INT(jnum(r.rep, "dirty"), 0);
                uint32_t k = (uint32_t)(addr - r.in_base) / 4;
                CHECK_EQ_U64(old, in_value(k));
                for (uint32_t t = 0; t < 32; t++) {
                    if (t != k) {
                        CHECK_EQ_U64(r.out[t], in_value(t));
                        CHECK_EQ_U64(r.in[t], in_value(t));
                    }
                }
                /* the line stays (default L2): the host reads the fault through it;
                 * evicted clean (one line): memory has the intact word */
                CHECK_EQ_U64(r.in[k], tiny ? in_value(k) : nv);
                CHECK(r.out[k] == old || r.out[k] == nv);
                seen += r.out[k] == nv && old != nv;
                if (at == 0 && old != nv)
                    CHECK_EQ_U64(r.out[k], nv); /* just after the fill: the second load hits */
            }
        CHECK_MSG(seen >= 3 && landed >= 12, "seen %d landed %d", seen, landed);
    }
    /* a dirty line: written back, the fault reaches memory */
    run(rmw_ptx, mkopts("timing", "none", "bit1", 0, 0, L2_ONE_LINE), 1, 32, 1, &g);
    CHECK_EQ_INT(g.st, LOCKSTEP_SUCCESS);
    for (uint32_t t = 0; t < 32; t++)
        CHECK(g.out[t] == in_value(t) + 1 && g.in[t] == in_value(t) + 1);
    int64_t total = jnum(g.rep, "total_cycles");
    int dirty = 0, clean = 0;
    for (int64_t at = 0; at < total; at += total / 40) {
        run(rmw_ptx, mkopts("timing", "l2d", "bit1", (uint64_t)at, (uint64_t)at, L2_ONE_LINE), 1,
            32, 1, &r);
        CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
        if (jnum(r.rep, "landed") != 1)
            continue;
        uint64_t addr = (uint64_t)jnum(r.rep, "addr");
        uint32_t old = (uint32_t)jnum(r.rep, "old"), nv = (uint32_t)jnum(r.rep, "new");
        if (addr < r.in_base || addr >= r.in_base + 128)
            continue; /* out's line, at the end */
        uint32_t k = (uint32_t)(addr - r.in_base) / 4;
        for (uint32_t t = 0; t < 32; t++)
            if (t != k)
                CHECK(r.in[t] == in_value(t) + 1 && r.out[t] == in_value(t) + 1);
        if (jnum(r.rep, "dirty") == 1) {
            /* after the store: the write-back takes it to memory */
            dirty++;
            CHECK_EQ_U64(old, in_value(k) + 1);
            CHECK_EQ_U64(r.in[k], nv);
            CHECK(r.out[k] == old || r.out[k] == nv);
            CHECK_MSG(r.l2_writebacks >= 1, "%s", r.rep);
        } else {
            /* before it: the store overwrites the word */
            clean++;
            CHECK_EQ_U64(old, in_value(k));
            CHECK_EQ_U64(r.in[k], in_value(k) + 1);
            CHECK_EQ_U64(r.out[k], in_value(k) + 1);
        }
    }
    CHECK_MSG(dirty >= 3 && clean >= 1, "dirty %d clean %d", dirty, clean);
    run(l2_ptx, mkopts("functional", "l2d", "bit1", 0, 0, NULL), 1, 32, 1, &r);
    CHECK_EQ_INT(r.st, LOCKSTEP_ERROR_INVALID_CONFIG);
}

/* Run tag_ptx on one warp under opts: in is a 16 KiB buffer of in_value,
 * a its first 8 KiB-aligned line, b = a + 4096; out[0..63] (y, z) back,
 * with a's address and the L1 misses. */
typedef struct tag_res {
    lockstep_status st;
    uint32_t y[32], z[32];
    char rep[2048];
    uint64_t a, in, misses;
    uint32_t mem[4096];   /* in afterwards */
} tag_res;

static void run_tag_ptx(const char *ptx, const char *o, tag_res *r)
{
    memset(r, 0, sizeof *r);
    lockstep_config *cfg = NULL;
    lockstep_device *dev = NULL;
    lockstep_module *mod = NULL;
    lockstep_kernel *k = NULL;
    lockstep_dptr out = 0, in = 0;
    static uint32_t buf[4096];
    r->st = lockstep_config_create(&cfg);
    if (!r->st)
        r->st = lockstep_config_parse(cfg, o, strlen(o), "test");
    if (!r->st)
        r->st = lockstep_device_create(cfg, &dev);
    lockstep_config_destroy(cfg);
    if (r->st)
        return;
    r->st = lockstep_module_load_ptx(dev, ptx, strlen(ptx), "tag.ptx", &mod);
    if (!r->st)
        r->st = lockstep_module_get_kernel(mod, "k", &k);
    if (!r->st)
        r->st = lockstep_malloc(dev, 64 * 4, &out);
    if (!r->st)
        r->st = lockstep_malloc(dev, sizeof buf, &in);
    if (!r->st) {
        for (uint32_t i = 0; i < 4096; i++)
            buf[i] = in_value(i);
        lockstep_memcpy_htod(dev, in, buf, sizeof buf);
        lockstep_dptr a = (in + 8191) & ~(lockstep_dptr)8191, b = a + 4096;
        r->a = a;
        r->in = in;
        void *args[] = {&out, &a, &b};
        lockstep_launch_stats ls;
        r->st = lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1}, (lockstep_dim3){32, 1, 1},
                                     0, args, &ls);
        r->misses = ls.t.l1d_misses;
        lockstep_synchronize(dev);
        uint32_t o2[64];
        lockstep_memcpy_dtoh(dev, o2, out, sizeof o2);
        memcpy(r->y, o2, sizeof r->y);
        memcpy(r->z, o2 + 32, sizeof r->z);
        lockstep_memcpy_dtoh(dev, r->mem, in, sizeof r->mem);
    }
    size_t len = lockstep_fault_report(dev, r->rep, sizeof r->rep);
    CHECK(len > 0 && len < sizeof r->rep);
    lockstep_device_destroy(dev);
}

static void run_tag(const char *o, tag_res *r) { run_tag_ptx(tag_ptx, o, r); }

/* Whether v holds the 32 words of run_tag's in buffer at device address x. */
static int tag_vals(const uint32_t *v, const tag_res *r, uint64_t x)
{
    uint64_t in = r->in;
    for (uint32_t t = 0; t < 32; t++)
        if (v[t] != in_value((uint32_t)((x - in) / 4) + t))
            return 0;
    return 1;
}

/* l1tag: a line's tag changes within its set.  Fault point 0 lands on a's
 * line just after its fill: a then misses again (one more L1 miss), and
 * when the flip is bit 12 -- a's tag becomes b's -- the load of b hits
 * and gets a's bytes.  Later points may hit b's line too.  A hashed L1
 * (Fermi's H) keeps its set as well (only bits outside the hash flip). */
#define L1_LINEAR "-gpgpu_cache:dl1 S:32:128:4,L:L:m:N:L,A:32:8,8\n"
static void test_l1tag(void)
{
    static tag_res g, r;
    run_tag(mkopts("timing", "none", "bit1", 0, 0, L1_LINEAR), &g);
    CHECK_EQ_INT(g.st, LOCKSTEP_SUCCESS);
    CHECK(tag_vals(g.z, &g, g.a) && tag_vals(g.y, &g, g.a + 4096));
    CHECK_EQ_U64(g.misses, 2);
    int alias = 0, moved = 0;
    for (uint64_t seed = 1; seed <= 120; seed++) {
        run_tag(mkopts("timing", "l1tag", "bit1", 0, seed, L1_LINEAR), &r);
        CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
        CHECK_MSG(jnum(r.rep, "landed") == 1, "%s", r.rep);
        CHECK_STR_CONTAINS(r.rep, "\"target\":\"l1tag\"");
        CHECK(jnum(r.rep, "sm") >= 0 && jnum(r.rep, "cta") < 0);
        uint64_t old = (uint64_t)jnum(r.rep, "old"), nv = (uint64_t)jnum(r.rep, "new");
        int64_t bit = jnum(r.rep, "bit");
        CHECK_EQ_U64((uint64_t)jnum(r.rep, "addr"), r.a);
        CHECK_EQ_U64(old, r.a);
        /* a bit above the set index (bits 7 to 11), inside the tag */
        CHECK_MSG(bit >= 12 && bit < 48 && nv == (old ^ (1ull << bit)), "%s", r.rep);
        CHECK(tag_vals(r.z, &r, r.a)); /* a misses: memory's a */
        if (nv == r.a + 4096) {
            alias++;
            CHECK(tag_vals(r.y, &r, r.a)); /* b hits a's line: a's bytes */
            CHECK_EQ_U64(r.misses, 2);
        } else {
            moved++;
            CHECK(tag_vals(r.y, &r, r.a + 4096));
            CHECK_EQ_U64(r.misses, 3);
        }
    }
    CHECK_MSG(alias >= 1 && moved >= 100, "alias %d moved %d", alias, moved);
    /* the other models keep to the tag bits that keep the set */
    const char *models[] = {"bit2", "zero", "random"};
    for (int m = 0; m < 3; m++) {
        run_tag(mkopts("timing", "l1tag", models[m], 0, 7, L1_LINEAR), &r);
        CHECK_MSG(jnum(r.rep, "landed") == 1, "%s", r.rep);
        uint64_t d = (uint64_t)(jnum(r.rep, "old") ^ jnum(r.rep, "new"));
        uint64_t tagm = ((1ull << 48) - 1) & ~((1ull << 12) - 1);
        CHECK_MSG((d & ~tagm) == 0, "%s", r.rep);
        if (m == 0)
            CHECK_MSG(d == 3ull << jnum(r.rep, "bit"), "%s", r.rep);
        if (m == 1)
            CHECK_MSG(((uint64_t)jnum(r.rep, "new") & tagm) == 0, "%s", r.rep);
        if (m == 2)
            CHECK_MSG(d != 0, "%s", r.rep);
        CHECK(tag_vals(r.z, &r, r.a));
        CHECK_EQ_U64(r.misses, d ? 3 : 2);
    }
    /* any point, any model: b's line may be hit as well (a's tag may then
     * appear twice in the set: the lower way answers); the outputs are
     * what the report says */
    const char *all[] = {"bit1", "bit2", "zero", "random"};
    int64_t total = jnum(g.rep, "total_cycles");
    for (int64_t at = 0; at < total; at += total / 12)
        for (int m = 0; m < 4; m++)
            for (uint64_t seed = 0; seed < 4; seed++) {
                run_tag(mkopts("timing", "l1tag", all[m], (uint64_t)at, seed * 31 + 12, L1_LINEAR),
                        &r);
                CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
                if (jnum(r.rep, "landed") != 1)
                    continue;
                uint64_t old = (uint64_t)jnum(r.rep, "old"), nv = (uint64_t)jnum(r.rep, "new");
                CHECK_MSG(old == r.a || old == r.a + 4096, "%s", r.rep);
                int y_a = old == r.a && nv == r.a + 4096, z_b = old == r.a + 4096 && nv == r.a;
                CHECK(tag_vals(r.y, &r, r.a + 4096) ||
                      (y_a && tag_vals(r.y, &r, r.a)));
                CHECK(tag_vals(r.z, &r, r.a) || (z_b && tag_vals(r.z, &r, r.a + 4096)));
            }
    /* Fermi's hashed index: bits 7-11 and 13, 14, 15, 17, 19 choose the set */
    for (uint64_t seed = 1; seed <= 40; seed++) {
        run_tag(mkopts("timing", "l1tag", seed & 1 ? "bit1" : "bit2", 0, seed, L1_SECTORED), &r);
        CHECK_MSG(jnum(r.rep, "landed") == 1, "%s", r.rep);
        uint64_t d = (uint64_t)(jnum(r.rep, "old") ^ jnum(r.rep, "new"));
        if (seed & 1) {
            uint64_t hashed = 0xf80ull | 1ull << 13 | 1ull << 14 | 1ull << 15 | 1ull << 17 |
                              1ull << 19;
            CHECK_MSG(!(d & hashed) && d >= 1ull << 12, "%s", r.rep);
        }
        CHECK(tag_vals(r.z, &r, r.a));
    }
    run_tag(mkopts("functional", "l1tag", "bit1", 0, 0, NULL), &r);
    CHECK_EQ_INT(r.st, LOCKSTEP_ERROR_INVALID_CONFIG);
}

/* l2tag: an L2 line's tag changes within its set (one partition: the
 * slice's tag is the address).  Whatever the point and model, the outputs
 * and memory are what the report says: the line's old address reads DRAM
 * again (for a dirty line: without the store, which is lost to it), its
 * new address gets the line's bytes (the host reads them through the L2,
 * or from DRAM after a dirty line's write-back); with an L2 of one line a
 * clean line is dropped and its new address reads its own bytes again.
 * A flip to b (bit 12) makes the load of b hit a's line, and with one
 * line a flip of b's line to a makes the last load of a hit it. */
#define L2_SMALL "-gpgpu_n_mem 1\n-gpgpu_cache:dl2 N:4:128:4,L:B:m:W:L,A:32:4,4\n"
#define L2_ONE "-gpgpu_n_mem 1\n-gpgpu_cache:dl2 N:1:128:1,L:B:m:W:L,A:32:4,4\n"
static void test_l2tag(void)
{
    static tag_res g, r;
    const char *cfgs[] = {L2_SMALL, L2_ONE};
    const char *models[] = {"bit1", "bit2", "zero", "random"};
    int alias_b = 0, dirty_a = 0, clean_a = 0, b_line = 0;
    for (int c = 0; c < 2; c++) {
        run_tag_ptx(tag2_ptx, mkopts("timing", "none", "bit1", 0, 0, cfgs[c]), &g);
        CHECK_EQ_INT(g.st, LOCKSTEP_SUCCESS);
        uint64_t a = g.a, b = g.a + 4096, ia = (a - g.in) / 4, ib = (b - g.in) / 4;
        for (uint32_t t = 0; t < 32; t++)
            CHECK(g.y[t] == in_value((uint32_t)ib + t) && g.z[t] == in_value((uint32_t)ia + t) + 1);
        int64_t total = jnum(g.rep, "total_cycles");
        for (int64_t at = 0; at < total; at += total / 16)
            for (int m = 0; m < 4; m++)
                for (uint64_t seed = 0; seed < (m ? 3u : 24u); seed++) {
                    run_tag_ptx(tag2_ptx,
                                mkopts("timing", "l2tag", models[m], (uint64_t)at,
                                       seed * 977 + (uint64_t)at, cfgs[c]),
                                &r);
                    CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
                    if (jnum(r.rep, "landed") != 1)
                        continue;
                    CHECK_STR_CONTAINS(r.rep, "\"target\":\"l2tag\"");
                    CHECK_EQ_INT(jnum(r.rep, "partition"), 0);
                    uint64_t old = (uint64_t)jnum(r.rep, "old"), nv = (uint64_t)jnum(r.rep, "new");
                    uint64_t al = (uint64_t)jnum(r.rep, "alias");
                    int dirty = (int)jnum(r.rep, "dirty");
                    int64_t bit = jnum(r.rep, "bit");
                    /* one partition: tag, address and alias agree; the set index
                     * (bits 7-8, or none) keeps */
                    CHECK_MSG(old == (uint64_t)jnum(r.rep, "addr") && nv == al, "%s", r.rep);
                    CHECK_MSG(((old ^ nv) & (c ? 0x7full : 0x1ffull)) == 0 && (old ^ nv) >> 48 == 0,
                              "%s", r.rep);
                    if (m == 0)
                        CHECK_MSG(nv == (old ^ (1ull << bit)), "%s", r.rep);
                    if (m == 1)
                        CHECK_MSG(nv == (old ^ (3ull << bit)), "%s", r.rep);
                    if (old != a && old != b)
                        continue; /* out's lines */
                    CHECK(old != nv || m == 2);
                    /* the line's bytes, and what each word of in must read */
                    uint32_t line[32];
                    for (uint32_t t = 0; t < 32; t++)
                        line[t] = old == b ? in_value((uint32_t)ib + t)
                                           : in_value((uint32_t)ia + t) + (dirty ? 1 : 0);
                    static uint32_t want[4096];
                    for (uint32_t i = 0; i < 4096; i++)
                        want[i] = in_value(i) + (i >= ia && i < ia + 32 ? 1 : 0);
                    if (old == a && dirty) {
                        dirty_a++;
                        for (uint32_t t = 0; t < 32; t++)
                            want[ia + t] = in_value((uint32_t)ia + t); /* the store is lost */
                    } else if (old == a) {
                        clean_a++;
                    } else {
                        b_line++;
                    }
                    int kept = dirty || !c; /* still in the L2, or written back */
                    if (nv != old && al >= r.in && al < r.in + sizeof r.mem && kept)
                        for (uint32_t t = 0; t < 32; t++)
                            want[(al - r.in) / 4 + t] = line[t];
                    for (uint32_t i = 0; i < 4096; i++)
                        if (r.mem[i] != want[i]) {
                            CHECK_MSG(0, "in[%u] = 0x%x, want 0x%x: %s", i, r.mem[i], want[i],
                                      r.rep);
                            break;
                        }
                    /* the loads: b hits the line only if it now answers for b; a
                     * reads DRAM's bytes after a dirty line left it */
                    int y_line = 1, y_b = 1, z_new = 1, z_old = 1, z_line = 1;
                    for (uint32_t t = 0; t < 32; t++) {
                        y_line &= r.y[t] == line[t];
                        z_line &= r.z[t] == line[t];
                        y_b &= r.y[t] == in_value((uint32_t)ib + t);
                        z_new &= r.z[t] == in_value((uint32_t)ia + t) + 1;
                        z_old &= r.z[t] == in_value((uint32_t)ia + t);
                    }
                    CHECK_MSG(y_b || (al == b && y_line), "%s", r.rep);
                    /* (b's line may answer for a once a's has left the L2) */
                    CHECK_MSG(z_new || (old == a && dirty && z_old) || (al == a && z_line), "%s",
                              r.rep);
                    if (al == b && y_line && !y_b)
                        alias_b++;
                }
    }
    CHECK_MSG(alias_b >= 1 && dirty_a >= 10 && clean_a >= 1 && b_line >= 1,
              "alias_b %d dirty_a %d clean_a %d b_line %d", alias_b, dirty_a, clean_a, b_line);
    run_tag_ptx(tag2_ptx, mkopts("functional", "l2tag", "bit1", 0, 0, NULL), &r);
    CHECK_EQ_INT(r.st, LOCKSTEP_ERROR_INVALID_CONFIG);
}

/* Same options and seed: byte-identical reports and outputs, in timing
 * mode on 1 and 2 host threads and in both window orders, every site. */
static void test_deterministic(void)
{
    static run_res g, a, b;
    const char *sites[] = {"reg_live", "reg_any", "pred", "insn_out", "alu",   "shared", "local",
                           "dram",     "simt",    "ibuf", "l1d",      "l2d",   "l1tag",  "l2tag"};
    for (int s = 0; s < 14; s++) {
        const char *ptx = !strcmp(sites[s], "shared")  ? with_head(shared_body)
                          : !strcmp(sites[s], "l1d")   ? l1_ptx
                          : !strcmp(sites[s], "l1tag") ? l1_ptx
                          : !strcmp(sites[s], "l2d")   ? l2_ptx
                          : !strcmp(sites[s], "l2tag") ? rmw_ptx
                          : !strcmp(sites[s], "local") ? with_head(local_body)
                          : !strcmp(sites[s], "dram")  ? with_head(copy_body)
                                                       : chain_ptx;
        /* the shared and local kernels index by %tid.x alone: 32 threads a CTA */
        uint32_t block = ptx == chain_ptx ? 64 : 32;
        run(ptx, mkopts("timing", "none", "bit1", 0, 0, NULL), 4, block, 2, &g);
        CHECK_EQ_INT(g.st, LOCKSTEP_SUCCESS);
        int64_t at = jnum(g.rep, "total_cycles") * 3 / 8;
        int64_t at_insts = jnum(g.rep, "total_warp_insts") * 3 / 8;
        run(ptx, mkopts("timing", sites[s], "bit1", (uint64_t)at, 11,
                        "-lockstep_threads 1\n-lockstep_window_order 0\n"),
            4, block, 2, &a);
        CHECK_MSG(jnum(a.rep, "landed") == 1, "%s: %s", sites[s], a.rep);
        run(ptx, mkopts("timing", sites[s], "bit1", (uint64_t)at, 11,
                        "-lockstep_threads 2\n-lockstep_window_order 1\n"),
            4, block, 2, &b);
        CHECK_MSG(!strcmp(a.rep, b.rep), "%s:\n  %s\n  %s", sites[s], a.rep, b.rep);
        CHECK(a.st == b.st && !memcmp(a.out, b.out, sizeof a.out));
        run(ptx, mkopts("timing", sites[s], "bit1", (uint64_t)at, 11,
                        "-lockstep_threads 2\n-lockstep_window_order 0\n"),
            4, block, 2, &b);
        CHECK_MSG(!strcmp(a.rep, b.rep), "%s:\n  %s\n  %s", sites[s], a.rep, b.rep);
        CHECK(a.st == b.st && !memcmp(a.out, b.out, sizeof a.out));
        if (!strcmp(sites[s], "l1d") || !strcmp(sites[s], "l2d") || !strcmp(sites[s], "l1tag") ||
            !strcmp(sites[s], "l2tag"))
            continue; /* timing mode only */
        /* functional mode twice */
        run(ptx, mkopts("functional", sites[s], "random", (uint64_t)at_insts, 5, NULL), 4, block,
            2, &a);
        CHECK_MSG(jnum(a.rep, "landed") == 1, "%s: %s", sites[s], a.rep);
        run(ptx, opts, 4, block, 2, &b);
        CHECK(!strcmp(a.rep, b.rep));
        CHECK(a.st == b.st && !memcmp(a.out, b.out, sizeof a.out));
    }
}

/* Timing mode: different seeds choose different targets at one point. */
static void test_seeds_timing(void)
{
    static run_res g, r;
    run(chain_ptx, mkopts("timing", "none", "bit1", 0, 0, NULL), 4, 64, 1, &g);
    uint64_t at = (uint64_t)jnum(g.rep, "total_cycles") / 4;
    char seen[8][160];
    int distinct = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        run(chain_ptx, mkopts("timing", "reg_any", "bit1", at, seed, NULL), 4, 64, 1, &r);
        CHECK_MSG(jnum(r.rep, "landed") == 1, "%s", r.rep);
        char t[32], key[160];
        jstr(r.rep, "target", t, sizeof t);
        snprintf(key, sizeof key, "%lld/%lld/%lld/%lld/%s", (long long)jnum(r.rep, "sm"),
                 (long long)jnum(r.rep, "warp"), (long long)jnum(r.rep, "lane"),
                 (long long)jnum(r.rep, "bit"), t);
        int dup = 0;
        for (int i = 0; i < distinct; i++)
            dup |= !strcmp(seen[i], key);
        if (!dup)
            snprintf(seen[distinct++], sizeof seen[0], "%s", key);
    }
    CHECK_MSG(distinct >= 6, "%d distinct targets of 8 seeds", distinct);
}

/* Every site and model at many points of a kernel with divergence, a
 * loop, shared and local memory and a barrier, in both modes (the cache
 * sites in timing mode): a run ends (with its result or a kernel fault),
 * never crashes, and lands. */
static void test_robust(void)
{
    static run_res g, r;
    const char *sites[] = {"reg_live", "reg_any", "pred", "insn_out", "alu", "shared", "local",
                           "dram",     "simt",    "ibuf", "l1d",      "l2d", "l1tag",  "l2tag"};
    const char *models[] = {"bit1", "bit2", "random", "zero"};
    const char *modes[] = {"functional", "timing"};
    const char *bound = "-lockstep_max_program_warp_insts 20000\n"
                        "-lockstep_max_program_cycles 200000\n";
    for (int m = 0; m < 2; m++) {
        run(with_head(diverge_body), mkopts(modes[m], "none", "bit1", 0, 0, NULL), 2, 64, 1, &g);
        CHECK_EQ_INT(g.st, LOCKSTEP_SUCCESS);
        int64_t span = jnum(g.rep, m ? "total_cycles" : "total_warp_insts");
        int landed = 0, runs = 0, cache_landed = 0;
        for (int s = 0; s < (m ? 14 : 10); s++) /* the cache sites: timing mode only */
            for (int mo = 0; mo < 4; mo++)
                for (int k = 0; k < 4; k++) {
                    uint64_t at = (uint64_t)(span * (2 * k + 1) / 16); /* the first half: warps resident */
                    run(with_head(diverge_body),
                        mkopts(modes[m], sites[s], models[mo], at, (uint64_t)(s * 16 + mo * 4 + k),
                               bound),
                        2, 64, 1, &r);
                    CHECK_MSG(strstr(r.rep, "\"landed\":") != NULL, "%s", r.rep);
                    if (s >= 10) {
                        /* whether a cache holds lines then depends on the kernel */
                        cache_landed += jnum(r.rep, "landed") == 1;
                        continue;
                    }
                    runs++;
                    landed += jnum(r.rep, "landed") == 1;
                }
        CHECK_MSG(landed * 10 >= runs * 9, "%s: %d of %d runs landed", modes[m], landed, runs);
        CHECK_MSG(!m || cache_landed >= 16, "%d cache faults landed", cache_landed);
    }
}

/* The fault point counts over the whole program. */
static void test_program_wide(void)
{
    static run_res r;
    /* in the second launch */
    run(chain_ptx, mkopts("functional", "insn_out", "bit1", CHAIN_INSTS + 20, 1, NULL), 1, 32, 2,
        &r);
    CHECK_MSG(jnum(r.rep, "landed") == 1 && jnum(r.rep, "launch") == 1, "%s", r.rep);
    CHECK_EQ_INT(jnum(r.rep, "warp_inst"), CHAIN_INSTS + 20);
    CHECK_STR_CONTAINS(r.rep, "\"kernel\":\"k\"");
    /* past the end: nothing lands */
    run(chain_ptx, mkopts("functional", "reg_any", "bit1", 2 * CHAIN_INSTS, 1, NULL), 1, 32, 2,
        &r);
    CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
    CHECK_MSG(jnum(r.rep, "landed") == 0 && jnum(r.rep, "target") < 0, "%s", r.rep);
    for (uint32_t g = 0; g < 32; g++)
        CHECK_EQ_U64(r.out[g], chain_golden(g));
    /* functional mode counts exactly the warp instructions the launches
     * report: the last one is a fault point, the one after it is not */
    run(with_head(diverge_body), mkopts("functional", "none", "bit1", 0, 0, NULL), 2, 64, 1, &r);
    int64_t insts = jnum(r.rep, "total_warp_insts");
    run(with_head(diverge_body), mkopts("functional", "reg_any", "bit1", (uint64_t)insts - 1, 1,
                                        NULL),
        2, 64, 1, &r);
    CHECK_MSG(jnum(r.rep, "landed") == 1 && jnum(r.rep, "warp_inst") == insts - 1, "%s", r.rep);
    CHECK_EQ_INT(jnum(r.rep, "total_warp_insts"), insts);
    run(with_head(diverge_body), mkopts("functional", "reg_any", "bit1", (uint64_t)insts, 1, NULL),
        2, 64, 1, &r);
    CHECK_MSG(jnum(r.rep, "landed") == 0, "%s", r.rep);
    /* timing: in the second launch too */
    run(chain_ptx, mkopts("timing", "none", "bit1", 0, 0, NULL), 1, 32, 1, &r);
    int64_t one = jnum(r.rep, "total_cycles");
    run(chain_ptx, mkopts("timing", "reg_any", "bit1", (uint64_t)one + 10, 1, NULL), 1, 32, 2,
        &r);
    CHECK_MSG(jnum(r.rep, "landed") == 1 && jnum(r.rep, "launch") == 1 &&
                  jnum(r.rep, "cycle") >= one + 10,
              "%s", r.rep);
}

/* Bounds over the whole program. */
static void test_program_bounds(void)
{
    static run_res r;
    char extra[128];
    run(chain_ptx, mkopts("timing", "none", "bit1", 0, 0, NULL), 1, 32, 1, &r);
    int64_t one = jnum(r.rep, "total_cycles");
    snprintf(extra, sizeof extra, "-lockstep_max_program_cycles %lld\n", (long long)one + 10);
    run(chain_ptx, mkopts("timing", "none", "bit1", 0, 0, extra), 1, 32, 1, &r);
    CHECK_EQ_INT(r.st, LOCKSTEP_SUCCESS);
    run(chain_ptx, mkopts("timing", "none", "bit1", 0, 0, extra), 1, 32, 2, &r);
    CHECK_EQ_INT(r.st, LOCKSTEP_ERROR_LAUNCH_TIMEOUT);
    CHECK_STR_CONTAINS(r.err, "-lockstep_max_program_cycles");
    CHECK_EQ_INT(jnum(r.rep, "launches"), 2);
    snprintf(extra, sizeof extra, "-lockstep_max_program_warp_insts %d\n", CHAIN_INSTS + 10);
    const char *modes[] = {"functional", "timing"};
    for (int m = 0; m < 2; m++) {
        run(chain_ptx, mkopts(modes[m], "none", "bit1", 0, 0, extra), 1, 32, 2, &r);
        CHECK_EQ_INT(r.st, LOCKSTEP_ERROR_INSN_LIMIT);
        CHECK_STR_CONTAINS(r.err, "-lockstep_max_program_warp_insts");
    }
}

static void test_bad_options(void)
{
    lockstep_config *cfg;
    if (lockstep_config_create(&cfg))
        return;
    CHECK_EQ_INT(lockstep_config_set(cfg, "-lockstep_fault_site", "l3"),
                 LOCKSTEP_ERROR_INVALID_CONFIG);
    CHECK_STR_CONTAINS(lockstep_config_last_error(cfg), "-lockstep_fault_site");
    CHECK_STR_CONTAINS(lockstep_config_last_error(cfg),
                       "expected none, reg_live, reg_any, pred, insn_out, alu, shared, local, "
                       "dram, simt, ibuf, l1d, l2d, l1tag, l2tag or dmr_log");
    CHECK_EQ_INT(lockstep_config_set(cfg, "-lockstep_fault_model", "bit3"),
                 LOCKSTEP_ERROR_INVALID_CONFIG);
    CHECK_STR_CONTAINS(lockstep_config_last_error(cfg), "-lockstep_fault_model");
    CHECK_STR_CONTAINS(lockstep_config_last_error(cfg), "expected bit1, bit2, random or zero");
    CHECK_EQ_INT(lockstep_config_set(cfg, "-lockstep_fault_at", "soon"),
                 LOCKSTEP_ERROR_INVALID_CONFIG);
    CHECK_EQ_INT(lockstep_config_set(cfg, "-lockstep_fault_site", "dram"), LOCKSTEP_SUCCESS);
    lockstep_config_destroy(cfg);
    char buf[8] = "x";
    CHECK_EQ_INT(lockstep_fault_report(NULL, buf, sizeof buf), 0);
    CHECK(buf[0] == 0);
}

int main(void)
{
    build_chain();
    build_l1();
    build_l2();
    build_tag();
    build_tag2();
    RUN(test_golden);
    RUN(test_insn_out);
    RUN(test_reg_live);
    RUN(test_reg_any);
    RUN(test_pred);
    RUN(test_simt);
    RUN(test_shared);
    RUN(test_local);
    RUN(test_dram);
    RUN(test_l1d);
    RUN(test_l2d);
    RUN(test_l1tag);
    RUN(test_l2tag);
    RUN(test_timing_insn_out);
    RUN(test_ibuf);
    RUN(test_timing_ibuf);
    RUN(test_deterministic);
    RUN(test_seeds_timing);
    RUN(test_robust);
    RUN(test_program_wide);
    RUN(test_program_bounds);
    RUN(test_bad_options);
    return test_summary();
}
