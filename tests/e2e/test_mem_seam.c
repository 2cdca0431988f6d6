/*
 * test_mem_seam.c -- the seams of the functional core (src/exec/exec.h):
 *
 *  - the memory seam gives functional and timing mode the same values: a
 *    kernel per memory form the PTX census lists (ld, st, atom, red in every
 *    state space, vector width, semantics and cache qualifier nvcc emits,
 *    with register and immediate operands) runs in both modes, and the
 *    results, the global buffer and the shared memory must agree byte for
 *    byte (race-free: each thread uses its own bytes, and the one shared
 *    address gets a commutative integer reduction);
 *  - an interposer on the chain sees every request, can answer a load
 *    itself and can delay (retry) a store, in both modes;
 *  - the write point: an observer sees every destination write exactly
 *    once, the same writes in both modes (in timing mode values brought
 *    by replies included), and can change a value before any other
 *    instruction reads it (what fault injection into instruction output
 *    does).
 */
#include "core/device_int.h"
#include "exec/exec.h"
#include "e2e.h"

#define NT 64           /* threads per CTA */
#define NC 2            /* CTAs */
#define OUT_PER 64      /* bytes of out per thread */
#define BUF_PER 16      /* bytes of buf per thread */

static const char head[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".const .align 16 .u32 cdata[256] = {";
static const char entry[] =
    "};\n"
    ".visible .entry k(.param .u64 out, .param .u64 buf, .param .u32 pv, .param .align 16 .b8 pvec[16])\n"
    "{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n  .reg .f32 %f<8>;\n  .reg .f64 %fd<8>;\n"
    "  .reg .pred %p<4>;\n  .reg .b16 %h<4>;\n"
    "  .shared .align 16 .b8 sh[1024];\n  .local .align 16 .b8 lo[64];\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd2, [buf];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r10, %ctaid.x;\n  mad.lo.u32 %r11, %r10, 64, %r1;\n"
    "  mul.wide.u32 %rd3, %r11, 16;\n  add.u64 %rd4, %rd2, %rd3;\n"        /* my buf bytes */
    "  mul.wide.u32 %rd8, %r1, 16;\n  mov.u64 %rd5, sh;\n  add.u64 %rd5, %rd5, %rd8;\n" /* my shared */
    "  cvta.shared.u64 %rd6, %rd5;\n"                                       /* generic of it */
    "  mul.wide.u32 %rd7, %r11, 64;\n  add.u64 %rd7, %rd1, %rd7;\n"         /* my out bytes */
    "  mov.u64 %rd9, lo;\n  cvta.local.u64 %rd10, %rd9;\n"
    "  add.u32 %r12, %r1, 100;\n  mul.lo.u32 %r13, %r1, 3;\n"
    "  st.shared.v4.u32 [%rd5], {%r1, %r12, %r13, %r11};\n"
    "  cvt.rn.f32.u32 %f1, %r1;\n  cvt.rn.f64.u32 %fd1, %r1;\n  cvt.u16.u32 %h1, %r1;\n"
    "  bar.sync 0;\n";
static const char tail[] =
    "  bar.sync 0;\n"
    "  ld.shared.v4.u32 {%r12, %r13, %r14, %r15}, [%rd5];\n"
    "  st.global.v4.u32 [%rd7+48], {%r12, %r13, %r14, %r15};\n"
    "  ret;\n}\n";

/* One memory form: its census name and the body that exercises it. */
typedef struct form {
    const char *name;
    const char *body;
} form;

static const form forms[] = {
    {"ld.global", "ld.global.u32 %r2, [%rd4];\nst.global.u32 [%rd7], %r2;"},
    {"ld.global.v2", "ld.global.v2.u32 {%r2, %r3}, [%rd4+8];\nst.global.v2.u32 [%rd7], {%r2, %r3};"},
    {"ld.global.v4", "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];\nst.global.v4.u32 [%rd7], {%r2, %r3, %r4, %r5};"},
    {"ld.global.nc", "ld.global.nc.u32 %r2, [%rd4+4];\nst.global.u32 [%rd7], %r2;"},
    {"ld.global.nc.v2", "ld.global.nc.v2.u64 {%rd11, %rd12}, [%rd4];\nst.global.v2.u64 [%rd7], {%rd11, %rd12};"},
    {"ld.global.nc.v4", "ld.global.nc.v4.f32 {%f2, %f3, %f4, %f5}, [%rd4];\nst.global.v4.f32 [%rd7], {%f2, %f3, %f4, %f5};"},
    {"ld.ca", "ld.global.ca.u32 %r2, [%rd4+8];\nst.global.u32 [%rd7], %r2;"},
    {"ld.cg", "ld.global.cg.s32 %r2, [%rd4+12];\nst.global.s32 [%rd7], %r2;"},
    {"ld (generic global)", "ld.u32 %r2, [%rd4];\nst.global.u32 [%rd7], %r2;"},
    {"ld (generic shared)", "ld.u32 %r2, [%rd6+4];\nst.global.u32 [%rd7], %r2;"},
    {"ld.volatile.global", "ld.volatile.global.u32 %r2, [%rd4];\nst.global.u32 [%rd7], %r2;"},
    {"ld.volatile.global.v4", "ld.volatile.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];\nst.global.v4.u32 [%rd7], {%r2, %r3, %r4, %r5};"},
    {"ld.volatile", "ld.volatile.u32 %r2, [%rd4];\nst.global.u32 [%rd7], %r2;"},
    {"ld.relaxed.gpu", "ld.relaxed.gpu.global.u32 %r2, [%rd4];\nst.global.u32 [%rd7], %r2;"},
    {"ld.relaxed.gpu.v2", "ld.relaxed.gpu.global.v2.u32 {%r2, %r3}, [%rd4];\nst.global.v2.u32 [%rd7], {%r2, %r3};"},
    {"ld.relaxed.cta", "ld.relaxed.cta.u32 %r2, [%rd6];\nst.global.u32 [%rd7], %r2;"},
    {"ld.acquire.gpu", "ld.acquire.gpu.u32 %r2, [%rd4];\nst.global.u32 [%rd7], %r2;"},
    {"ld.acquire.cta", "ld.acquire.cta.shared.u32 %r2, [%rd5+8];\nst.global.u32 [%rd7], %r2;"},
    {"ld.acquire.sys.global", "ld.acquire.sys.global.u32 %r2, [%rd4];\nst.global.u32 [%rd7], %r2;"},
    {"ld.shared", "ld.shared.u32 %r2, [%rd5+12];\nst.global.u32 [%rd7], %r2;"},
    {"ld.shared.v2", "ld.shared.v2.u32 {%r2, %r3}, [%rd5];\nst.global.v2.u32 [%rd7], {%r2, %r3};"},
    {"ld.shared.v4", "ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [%rd5];\nst.global.v4.u32 [%rd7], {%r2, %r3, %r4, %r5};"},
    {"ld.volatile.shared", "ld.volatile.shared.u32 %r2, [%rd5+4];\nst.global.u32 [%rd7], %r2;"},
    {"ld.const", "mul.wide.u32 %rd11, %r1, 4;\nmov.u64 %rd12, cdata;\nadd.u64 %rd12, %rd12, %rd11;\nld.const.u32 %r2, [%rd12];\nst.global.u32 [%rd7], %r2;"},
    {"ld.const.v2", "ld.const.v2.u32 {%r2, %r3}, [cdata+8];\nst.global.v2.u32 [%rd7], {%r2, %r3};"},
    {"ld.const.v4", "ld.const.v4.u32 {%r2, %r3, %r4, %r5}, [cdata+16];\nst.global.v4.u32 [%rd7], {%r2, %r3, %r4, %r5};"},
    {"ld.param", "ld.param.u32 %r2, [pv];\nst.global.u32 [%rd7], %r2;"},
    {"ld.param.v2", "ld.param.v2.u32 {%r2, %r3}, [pvec+8];\nst.global.v2.u32 [%rd7], {%r2, %r3};"},
    {"ld.param.v4", "ld.param.v4.u32 {%r2, %r3, %r4, %r5}, [pvec];\nst.global.v4.u32 [%rd7], {%r2, %r3, %r4, %r5};"},
    {"ld.local / st.local", "st.local.u32 [lo+4], %r1;\nld.local.u32 %r2, [lo+4];\nst.global.u32 [%rd7], %r2;"},
    {"ld.local.v4 / st.local.v4", "st.local.v4.u32 [lo], {%r1, 7, %r1, 9};\nld.local.v4.u32 {%r2, %r3, %r4, %r5}, [lo];\nst.global.v4.u32 [%rd7], {%r2, %r3, %r4, %r5};"},
    {"st.local.v2 (generic read)", "st.local.v2.u32 [lo+8], {%r1, 11};\nld.v2.u32 {%r2, %r3}, [%rd10+8];\nst.global.v2.u32 [%rd7], {%r2, %r3};"},
    {"st.global", "st.global.u32 [%rd4], %r1;\nst.global.u32 [%rd4+4], 77;"},
    {"st.global.v2", "st.global.v2.u32 [%rd4+8], {%r1, 5};"},
    {"st.global.v4", "st.global.v4.f32 [%rd4], {%f1, %f1, 0f3F800000, %f1};"},
    {"st.global (u8, u16, u64, f64)", "st.global.u8 [%rd4+1], %h1;\nst.global.u16 [%rd4+2], 513;\nst.global.u64 [%rd7], 0x123456789;\nst.global.f64 [%rd7+8], %fd1;"},
    {"st.cg", "st.global.cg.u32 [%rd4+12], %r1;"},
    {"st (generic global)", "st.u32 [%rd4], %r1;"},
    {"st (generic shared)", "st.u32 [%rd6+8], %r1;"},
    {"st.volatile.global", "st.volatile.global.u32 [%rd4], %r1;"},
    {"st.volatile", "st.volatile.u32 [%rd4+4], 3;"},
    {"st.volatile.shared", "st.volatile.shared.u32 [%rd5+12], %r1;"},
    {"st.relaxed.cta", "st.relaxed.cta.u32 [%rd6], %r1;"},
    {"st.relaxed.gpu.v2", "st.relaxed.gpu.global.v2.u32 [%rd4], {%r1, %r1};"},
    {"st.release.gpu", "st.release.gpu.u32 [%rd4+8], %r1;"},
    {"st.release.sys.global", "st.release.sys.global.u32 [%rd4+12], %r1;"},
    {"st.shared", "st.shared.u32 [%rd5], 99;"},
    {"st.shared.v2", "st.shared.v2.u32 [%rd5+8], {%r1, 1};"},
    {"st.shared.v4", "st.shared.v4.u32 [%rd5], {%r1, 1, 2, %r1};"},
    {"atom.global.add", "atom.global.add.u32 %r2, [%rd4], %r1;\nst.global.u32 [%rd7], %r2;"},
    {"atom.global.and", "atom.global.and.b32 %r2, [%rd4+4], 0xf0f0f0f0;\nst.global.u32 [%rd7], %r2;"},
    {"atom.global.or", "atom.global.or.b32 %r2, [%rd4], %r1;\nst.global.u32 [%rd7], %r2;"},
    {"atom.global.xor", "atom.global.xor.b32 %r2, [%rd4+8], %r12;\nst.global.u32 [%rd7], %r2;"},
    {"atom.global.min", "atom.global.min.s32 %r2, [%rd4], %r13;\nst.global.u32 [%rd7], %r2;"},
    {"atom.global.max", "atom.global.max.u32 %r2, [%rd4+4], %r13;\nst.global.u32 [%rd7], %r2;"},
    {"atom.global.inc", "atom.global.inc.u32 %r2, [%rd4], 1000;\nst.global.u32 [%rd7], %r2;"},
    {"atom.global.dec", "atom.global.dec.u32 %r2, [%rd4+12], 1000;\nst.global.u32 [%rd7], %r2;"},
    {"atom.global.exch", "atom.global.exch.b32 %r2, [%rd4], %r1;\nst.global.u32 [%rd7], %r2;"},
    {"atom.global.cas", "ld.global.u32 %r3, [%rd4];\natom.global.cas.b32 %r2, [%rd4], %r3, %r1;\natom.global.cas.b32 %r4, [%rd4+4], 1, 2;\nst.global.v2.u32 [%rd7], {%r2, %r4};"},
    {"atom.global.sys.add", "atom.global.sys.add.u64 %rd11, [%rd4], 5;\nst.global.u64 [%rd7], %rd11;"},
    {"atom.global.sys.cas", "atom.global.sys.cas.b64 %rd11, [%rd4+8], 0, %rd3;\nst.global.u64 [%rd7], %rd11;"},
    {"atom.global.add.f32", "atom.global.add.f32 %f2, [%rd4], %f1;\nst.global.f32 [%rd7], %f2;"},
    {"atom.global.add.f64", "atom.global.add.f64 %fd2, [%rd4+8], %fd1;\nst.global.f64 [%rd7], %fd2;"},
    {"atom.add (generic)", "atom.add.u32 %r2, [%rd4], 3;\nst.global.u32 [%rd7], %r2;"},
    {"atom.add.relaxed.cta", "atom.add.relaxed.cta.u32 %r2, [%rd6], 3;\nst.global.u32 [%rd7], %r2;"},
    {"atom.add.acquire.cta", "atom.add.acquire.cta.u32 %r2, [%rd4], %r1;\nst.global.u32 [%rd7], %r2;"},
    {"atom.add.release.gpu", "atom.add.release.gpu.u32 %r2, [%rd4+4], %r1;\nst.global.u32 [%rd7], %r2;"},
    {"atom.add.acq_rel.cta", "atom.add.acq_rel.cta.u32 %r2, [%rd6+4], %r1;\nst.global.u32 [%rd7], %r2;"},
    {"atom.or.acq_rel.cta", "atom.or.acq_rel.cta.b32 %r2, [%rd4+8], %r1;\nst.global.u32 [%rd7], %r2;"},
    {"atom.shared.add", "atom.shared.add.u32 %r2, [%rd5], %r1;\nst.global.u32 [%rd7], %r2;"},
    {"atom.shared.exch", "atom.shared.exch.b32 %r2, [%rd5+4], 42;\nst.global.u32 [%rd7], %r2;"},
    {"atom.shared.or", "atom.shared.or.b32 %r2, [%rd5+8], %r1;\nst.global.u32 [%rd7], %r2;"},
    {"red.global.add (one address)", "red.global.add.u32 [%rd2], 1;\nred.global.add.u64 [%rd2+8], %rd3;"},
    {"red.global.and / or / xor", "red.global.and.b32 [%rd4], 0xff00ff00;\nred.global.or.b32 [%rd4+4], %r1;\nred.global.xor.b32 [%rd4+8], %r12;"},
    {"red.global.min / max / inc / dec", "red.global.min.u32 [%rd4], %r13;\nred.global.max.s32 [%rd4+4], %r13;\nred.global.inc.u32 [%rd4+8], 7;\nred.global.dec.u32 [%rd4+12], 7;"},
    {"red.and.release.cta", "red.and.release.cta.b32 [%rd6], %r1;"},
    {"red.shared.add", "red.shared.add.u32 [%rd5+12], %r1;"},
};

/* The module of one form. */
static char *form_ptx(const form *f)
{
    static char buf[16384];
    size_t n = (size_t)snprintf(buf, sizeof buf, "%s", head);
    for (int i = 0; i < 256; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d", i ? ", " : "", i * 37 + 11);
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", entry);
    const char *b = f->body;
    while (*b) { /* indent each line */
        const char *e = strchr(b, '\n');
        size_t len = e ? (size_t)(e - b) : strlen(b);
        n += (size_t)snprintf(buf + n, sizeof buf - n, "  %.*s\n", (int)len, b);
        b += len + (e != NULL);
    }
    snprintf(buf + n, sizeof buf - n, "%s", tail);
    return buf;
}

typedef struct result {
    uint8_t out[NC * NT * OUT_PER];
    uint8_t buf[NC * NT * BUF_PER];
    lockstep_status st;
    char err[1024];
} result;

/* Run a module in mode with interposers/hooks; fills r. */
static void run_module(const char *ptx, const char *mode, const exec_interposer *chain,
                       uint32_t nchain, const exec_hooks *hooks, uint32_t trap, result *r)
{
    lockstep_config *cfg;
    lockstep_device *dev = NULL;
    memset(r, 0, sizeof *r);
    lockstep_config_create(&cfg);
    lockstep_config_set(cfg, "-lockstep_mode", mode);
    /* the observers below keep plain counters: one host thread (hooks run
     * on the thread of the SM they observe, exec.h) */
    lockstep_config_set(cfg, "-lockstep_threads", "1");
    r->st = lockstep_device_create(cfg, &dev);
    lockstep_config_destroy(cfg);
    if (r->st)
        return;
    device_set_interposers(dev, chain, nchain);
    device_set_hooks(dev, hooks, trap);
    lockstep_module *mod = NULL;
    lockstep_kernel *k = NULL;
    lockstep_dptr out = 0, buf = 0;
    r->st = lockstep_module_load_ptx(dev, ptx, strlen(ptx), "form.ptx", &mod);
    if (!r->st)
        r->st = lockstep_module_get_kernel(mod, "k", &k);
    if (!r->st)
        r->st = lockstep_malloc(dev, sizeof r->out, &out);
    if (!r->st)
        r->st = lockstep_malloc(dev, sizeof r->buf, &buf);
    if (!r->st) {
        uint8_t init[sizeof r->buf];
        for (size_t i = 0; i < sizeof init; i++)
            init[i] = (uint8_t)(i * 7 + 3);
        lockstep_memcpy_htod(dev, buf, init, sizeof init);
        lockstep_memset(dev, out, 0, sizeof r->out);
        uint32_t pv = 0xabcd1234;
        uint32_t pvec[4] = {1, 2, 3, 4};
        void *args[] = {&out, &buf, &pv, pvec};
        r->st = lockstep_launch_args(dev, k, (lockstep_dim3){NC, 1, 1}, (lockstep_dim3){NT, 1, 1},
                                     0, args, NULL);
    }
    if (!r->st) {
        lockstep_memcpy_dtoh(dev, r->out, out, sizeof r->out);
        lockstep_memcpy_dtoh(dev, r->buf, buf, sizeof r->buf);
    }
    snprintf(r->err, sizeof r->err, "%s", lockstep_device_last_error(dev));
    lockstep_device_destroy(dev);
}

static void test_forms_agree(void)
{
    static result a, b;
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        const char *ptx = form_ptx(&forms[i]);
        run_module(ptx, "functional", NULL, 0, NULL, 0, &a);
        run_module(ptx, "timing", NULL, 0, NULL, 0, &b);
        CHECK_MSG(a.st == LOCKSTEP_SUCCESS, "%s (functional): %s", forms[i].name, a.err);
        CHECK_MSG(b.st == LOCKSTEP_SUCCESS, "%s (timing): %s", forms[i].name, b.err);
        CHECK_MSG(!memcmp(a.out, b.out, sizeof a.out), "%s: results differ between the modes",
                  forms[i].name);
        CHECK_MSG(!memcmp(a.buf, b.buf, sizeof a.buf), "%s: global memory differs between the modes",
                  forms[i].name);
    }
}

/* ---- an interposer ---------------------------------------------------------------- */

/* Counts the requests it sees; answers 32-bit global loads of the magic
 * bytes (buf + 12 of each thread) itself with 0x5eed0000 + lane; makes
 * every global store wait once (RETRY), then lets it pass. */
typedef struct spy {
    uint64_t loads, stores, atomics, answered, retried;
    uint64_t magic_lo, magic_hi;
    int retry_pending;
} spy;

static int spy_request(void *ud, exec_launch *L, exec_cta *c, exec_warp *w, exec_memreq *rq,
                       exec_memres *res)
{
    spy *s = ud;
    uint32_t props = ptx_op_props(rq->in->op);
    int global = rq->ad.space[__builtin_ctz(rq->lanes)] == SP_GLOBAL;
    if (props & OPF_LOAD) {
        s->loads++;
        uint64_t a = rq->ad.a[__builtin_ctz(rq->lanes)];
        if (global && rq->size == 4 && a >= s->magic_lo && a < s->magic_hi && (a & 15) == 12) {
            uint64_t bytes[WARP_SIZE];
            for (int l = 0; l < WARP_SIZE; l++)
                bytes[l] = 0x5eed0000u + (uint32_t)l;
            exec_addr ad;
            for (int l = 0; l < WARP_SIZE; l++)
                ad.a[l] = (uint64_t)l * 8;
            exec_reply_load(L, c, w, w->reg_base, rq->in, rq->lanes, &ad, 0,
                            (const uint8_t *)bytes);
            s->answered++;
            res->status = EXEC_MEM_DONE;
            res->ready = L->cycle ? *L->cycle + 1 : 0;
            return 1;
        }
    } else if (props & OPF_STORE) {
        if (global && !s->retry_pending) {
            s->retry_pending = 1;
            s->retried++;
            res->status = EXEC_MEM_RETRY;
            res->ready = L->cycle ? *L->cycle + 5 : 0;
            return 1;
        }
        s->retry_pending = 0;
        s->stores++;
    } else if (props & OPF_ATOMIC) {
        s->atomics++;
    }
    return 0;
}

static const char spy_body[] =
    "ld.global.u32 %r2, [%rd4+12];\n" /* answered by the spy */
    "ld.global.u32 %r3, [%rd4+8];\n"  /* from memory */
    "st.global.v2.u32 [%rd7], {%r2, %r3};\n"
    "atom.global.add.u32 %r4, [%rd4], 1;\n"
    "st.global.u32 [%rd7+8], %r4;";

static void test_interposer(void)
{
    form f = {"spy", spy_body};
    const char *ptx = form_ptx(&f);
    static result plain, a, b;
    run_module(ptx, "functional", NULL, 0, NULL, 0, &plain);
    for (int mode = 0; mode < 2; mode++) {
        spy s;
        memset(&s, 0, sizeof s);
        /* lockstep_malloc places buf after out in a fresh device: the same
         * addresses every run, found from the first run's layout */
        s.magic_lo = 0;
        s.magic_hi = UINT64_MAX;
        exec_interposer chain[1] = {{"spy", &s, spy_request}};
        result *r = mode ? &b : &a;
        run_module(ptx, mode ? "timing" : "functional", chain, 1, NULL, 0, r);
        CHECK_MSG(r->st == LOCKSTEP_SUCCESS, "%s", r->err);
        /* per warp: 2 loads of ours plus the shared copy-back and the
         * prologue's; 4 warps */
        CHECK_MSG(s.answered == NC * NT / 32, "answered %llu", (unsigned long long)s.answered);
        CHECK_MSG(s.retried >= 1 && s.stores >= NC * NT / 32 * 3, "retried %llu, stores %llu",
                  (unsigned long long)s.retried, (unsigned long long)s.stores);
        CHECK_EQ_INT(s.atomics, NC * NT / 32);
        for (int t = 0; t < NC * NT; t++) {
            uint32_t got, mem, plain_mem, old, plain_old;
            memcpy(&got, r->out + t * OUT_PER, 4);
            memcpy(&mem, r->out + t * OUT_PER + 4, 4);
            memcpy(&plain_mem, plain.out + t * OUT_PER + 4, 4);
            memcpy(&old, r->out + t * OUT_PER + 8, 4);
            memcpy(&plain_old, plain.out + t * OUT_PER + 8, 4);
            if (got != 0x5eed0000u + (uint32_t)(t % 32) || mem != plain_mem || old != plain_old) {
                CHECK_MSG(0, "%s: thread %d: got 0x%x 0x%x 0x%x", mode ? "timing" : "functional",
                          t, got, mem, old);
                break;
            }
        }
        CHECK(!memcmp(r->buf, plain.buf, sizeof r->buf));
    }
}

/* ---- the write point --------------------------------------------------------------- */

/* Counts destination writes per opcode, in lanes (one instruction's
 * replies write disjoint lane sets); flips bit 0 of every value a
 * 32-bit add writes (what an instruction-output fault does). */
typedef struct watcher {
    uint64_t writes[OP_COUNT];
    uint64_t replies, befores;
    int corrupt;
} watcher;

static const exec_subst *watch_before(void *ud, exec_launch *L, exec_cta *c, exec_warp *w,
                                     const ir_insn *in, uint32_t active)
{
    (void)L, (void)c, (void)w, (void)in, (void)active;
    ((watcher *)ud)->befores++;
    return NULL;
}

static void watch_written(void *ud, exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                          uint32_t lanes, int reply)
{
    (void)L, (void)c;
    watcher *x = ud;
    x->writes[in->op] += (uint64_t)__builtin_popcount(lanes);
    x->replies += reply;
    if (x->corrupt && in->op == OP_ADD && in->type == PT_U32 && in->d[0].kind == IRO_REG) {
        uint64_t *D = w->regs + ((size_t)w->reg_base + in->d[0].idx) * WARP_SIZE;
        for (uint32_t m = lanes; m; m &= m - 1)
            D[__builtin_ctz(m)] ^= 1;
    }
}

static const char watch_body[] =
    "ld.global.u32 %r2, [%rd4];\n"
    "add.u32 %r3, %r2, 1;\n"
    "atom.global.add.u32 %r4, [%rd4+4], %r3;\n"
    "ld.shared.u32 %r5, [%rd5];\n"
    "st.global.v4.u32 [%rd7], {%r2, %r3, %r4, %r5};";

static void test_write_point(void)
{
    form f = {"watch", watch_body};
    const char *ptx = form_ptx(&f);
    static result plain, r[2];
    static watcher x[2];
    run_module(ptx, "functional", NULL, 0, NULL, 0, &plain);
    for (int mode = 0; mode < 2; mode++) {
        exec_hooks h = {&x[mode], watch_before, watch_written, NULL};
        memset(&x[mode], 0, sizeof x[mode]);
        run_module(ptx, mode ? "timing" : "functional", NULL, 0, &h,
                   EXEC_TRAP_BEFORE | EXEC_TRAP_WRITTEN, &r[mode]);
        CHECK_MSG(r[mode].st == LOCKSTEP_SUCCESS, "%s", r[mode].err);
        CHECK(!memcmp(r[mode].out, plain.out, sizeof plain.out)); /* observing changes nothing */
        CHECK(x[mode].befores > 0);
    }
    /* the same writes in both modes; in timing mode the global load and the
     * atomic arrive as replies */
    for (int op = 0; op < OP_COUNT; op++)
        CHECK_MSG(x[0].writes[op] == x[1].writes[op], "%s: %llu writes functional, %llu timing",
                  ptx_op_names[op], (unsigned long long)x[0].writes[op],
                  (unsigned long long)x[1].writes[op]);
    CHECK_EQ_INT(x[0].replies, 0);
    CHECK_MSG(x[1].replies >= 2 * NC * NT / 32, "%llu replies", (unsigned long long)x[1].replies);
    CHECK_EQ_INT(x[0].writes[OP_ATOM], NC * NT);
    CHECK_EQ_INT(x[0].writes[OP_LD], x[1].writes[OP_LD]);
    CHECK(x[0].befores == x[1].befores);
    /* an observer that changes a value: every add result has bit 0 flipped
     * before the atomic and the store read it */
    for (int mode = 0; mode < 2; mode++) {
        static watcher y;
        memset(&y, 0, sizeof y);
        y.corrupt = 1;
        exec_hooks h = {&y, NULL, watch_written, NULL};
        static result c;
        run_module(ptx, mode ? "timing" : "functional", NULL, 0, &h, EXEC_TRAP_WRITTEN, &c);
        CHECK(c.st == LOCKSTEP_SUCCESS);
        for (int t = 0; t < NC * NT; t++) {
            uint32_t a, b;
            memcpy(&a, plain.out + t * OUT_PER + 4, 4);
            memcpy(&b, c.out + t * OUT_PER + 4, 4);
            if (b != (a ^ 1)) {
                CHECK_MSG(0, "thread %d: add result 0x%x, want 0x%x", t, b, a ^ 1);
                break;
            }
        }
    }
}

int main(void)
{
    RUN(test_forms_agree);
    RUN(test_interposer);
    RUN(test_write_point);
    return test_summary();
}
