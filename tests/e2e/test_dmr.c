/*
 * test_dmr.c -- redundant execution (-lockstep_redundancy dmr, src/timing/dmr.c,
 * docs/RELIABILITY.md "Redundant execution: DMR") through the C API, on small
 * PTX kernels in timing mode:
 *
 *  - DMR gives exactly the unprotected run's outputs (and the CPU's): plain
 *    stores; a CTA storing, passing a barrier and loading its own stores;
 *    a ticket counter (atomics whose results are stored); a shared-memory
 *    reduction finished with one atomic per CTA; with copies on two SMs
 *    and on two slots of any SM;
 *  - a fault in one copy's store (the -dmr_flip_store test knob) spoils
 *    the unprotected output, and under DMR is detected and corrected: the
 *    output is right, dmr_mismatches and dmr_reissues are at least 1;
 *  - a fault after the pair committed an atomic is an uncorrectable error
 *    (LOCKSTEP_ERROR_REDUNDANCY, "after it committed an atomic"); a fault
 *    in every run past -dmr_max_reissues is one too;
 *  - statistics and outputs are identical on 1 and 2 host threads, in
 *    window order 1 and without idle skipping;
 *  - load-value replication (-dmr_load_values 1): a kernel whose CTAs read
 *    a counter other CTAs change gives its copies the same values, so DMR
 *    runs it (without replication its copies disagree after committing an
 *    atomic); an address fault in one copy's load (-dmr_flip_load) is
 *    found by the address comparison and corrected; results are the same
 *    on 1 and 2 threads, in window order 1 and without idle skipping;
 *  - a copy still running long after its partner finished (a kernel whose
 *    path depends on %smid, as a fault in a loop counter would make it) is
 *    stopped as hung (-dmr_copy_timeout) and the pair reissued, instead of
 *    running on; with copies that take the same path nothing is stopped;
 *  - a fault in the comparator's log (-lockstep_fault_site dmr_log) reaches
 *    memory from an agreed entry and is corrected from a held one;
 *  - bad option values and refused combinations give clear errors.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define MAXN 2048

static const char ptx_head[] = ".version 8.0\n.target sm_75\n.address_size 64\n";

/* out[g] = in[g] + 1 */
static const char k_store[] =
    ".visible .entry k(.param .u64 out, .param .u64 in, .param .u64 aux)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd5, [in];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.u32 %r5, %r3, %r4, %r1;\n"
    "  mul.wide.u32 %rd2, %r5, 4;\n  add.u64 %rd3, %rd1, %rd2;\n  add.u64 %rd6, %rd5, %rd2;\n"
    "  ld.global.u32 %r2, [%rd6];\n  add.u32 %r2, %r2, 1;\n  st.global.u32 [%rd3], %r2;\n"
    "  ret;\n}\n";

/* in[g] = in[g] * 3; barrier; out[g] = in[base + (tid + 1) % ntid] + 1 */
static const char k_own[] =
    ".visible .entry k(.param .u64 out, .param .u64 in, .param .u64 aux)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd5, [in];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.u32 %r5, %r3, %r4, %r1;\n"
    "  mul.wide.u32 %rd2, %r5, 4;\n  add.u64 %rd3, %rd1, %rd2;\n  add.u64 %rd6, %rd5, %rd2;\n"
    "  ld.global.u32 %r2, [%rd6];\n  mul.lo.u32 %r2, %r2, 3;\n  st.global.u32 [%rd6], %r2;\n"
    "  bar.sync 0;\n"
    "  add.u32 %r6, %r1, 1;\n  rem.u32 %r6, %r6, %r4;\n  mad.lo.u32 %r7, %r3, %r4, %r6;\n"
    "  mul.wide.u32 %rd7, %r7, 4;\n  add.u64 %rd8, %rd5, %rd7;\n"
    "  ld.global.u32 %r8, [%rd8];\n  add.u32 %r8, %r8, 1;\n  st.global.u32 [%rd3], %r8;\n"
    "  ret;\n}\n";

/* out[g] = atomicAdd(&aux[0], 1) + in[g] * 0 (a ticket); used result */
static const char k_ticket[] =
    ".visible .entry k(.param .u64 out, .param .u64 in, .param .u64 aux)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd4, [aux];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.u32 %r5, %r3, %r4, %r1;\n"
    "  mul.wide.u32 %rd2, %r5, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  atom.global.add.u32 %r2, [%rd4], 1;\n  st.global.u32 [%rd3], %r2;\n"
    "  ret;\n}\n";

/* per CTA: s[tid] = in[g]; tree reduction in shared memory (ntid = 64);
 * thread 0: out[cta] = sum, atomicAdd(&aux[0], sum) */
static const char k_reduce[] =
    ".visible .entry k(.param .u64 out, .param .u64 in, .param .u64 aux)\n{\n"
    "  .shared .align 4 .b8 s[256];\n"
    "  .reg .b32 %r<24>;\n  .reg .b64 %rd<12>;\n  .reg .pred %p<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd5, [in];\n  ld.param.u64 %rd9, [aux];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.u32 %r5, %r3, %r4, %r1;\n"
    "  mul.wide.u32 %rd2, %r5, 4;\n  add.u64 %rd6, %rd5, %rd2;\n"
    "  ld.global.u32 %r2, [%rd6];\n"
    "  mov.u32 %r10, s;\n  shl.b32 %r11, %r1, 2;\n  add.u32 %r12, %r10, %r11;\n"
    "  st.shared.u32 [%r12], %r2;\n  bar.sync 0;\n"
    "  mov.u32 %r13, 32;\n"
    "L1:\n"
    "  setp.lt.u32 %p1, %r1, %r13;\n"
    "  @!%p1 bra L2;\n"
    "  shl.b32 %r14, %r13, 2;\n  add.u32 %r15, %r12, %r14;\n"
    "  ld.shared.u32 %r16, [%r15];\n  ld.shared.u32 %r17, [%r12];\n"
    "  add.u32 %r17, %r17, %r16;\n  st.shared.u32 [%r12], %r17;\n"
    "L2:\n"
    "  bar.sync 0;\n  shr.u32 %r13, %r13, 1;\n  setp.ne.u32 %p2, %r13, 0;\n  @%p2 bra L1;\n"
    "  setp.ne.u32 %p3, %r1, 0;\n  @%p3 bra L3;\n"
    "  ld.shared.u32 %r18, [%r10];\n"
    "  mul.wide.u32 %rd7, %r3, 4;\n  add.u64 %rd8, %rd1, %rd7;\n  st.global.u32 [%rd8], %r18;\n"
    "  red.global.add.u32 [%rd9], %r18;\n"
    "L3:\n"
    "  ret;\n}\n";

/* out[g] = atomicAdd(&aux[0], 1) + in[g]: the store after a committed atomic */
static const char k_atom_then_store[] =
    ".visible .entry k(.param .u64 out, .param .u64 in, .param .u64 aux)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd5, [in];\n  ld.param.u64 %rd4, [aux];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.u32 %r5, %r3, %r4, %r1;\n"
    "  mul.wide.u32 %rd2, %r5, 4;\n  add.u64 %rd3, %rd1, %rd2;\n  add.u64 %rd6, %rd5, %rd2;\n"
    "  atom.global.add.u32 %r2, [%rd4], 1;\n"
    "  ld.global.u32 %r6, [%rd6];\n  mul.lo.u32 %r2, %r2, 0;\n  add.u32 %r2, %r2, %r6;\n"
    "  st.global.u32 [%rd3], %r2;\n"
    "  ret;\n}\n";

/* in[g] = in[g] (the store -dmr_flip_store flips); barrier; v = in[g];
 * r = atomicAdd(&aux[(v & 1) * STRIDE / 4], 1); out[g] = v + r * 0.  A
 * flipped store sends one copy's atomic lane elsewhere: STRIDE 4, the same
 * line with other operands (a mismatch at the comparator); STRIDE 128,
 * another line (a partner that can never come). */
#define K_ATOM_AFTER_FLIP(STRIDE)                                                          \
    ".visible .entry k(.param .u64 out, .param .u64 in, .param .u64 aux)\n{\n"                \
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<12>;\n"                                           \
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd5, [in];\n  ld.param.u64 %rd4, [aux];\n" \
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"            \
    "  mad.lo.u32 %r5, %r3, %r4, %r1;\n"                                                    \
    "  mul.wide.u32 %rd2, %r5, 4;\n  add.u64 %rd3, %rd1, %rd2;\n  add.u64 %rd6, %rd5, %rd2;\n" \
    "  ld.global.u32 %r2, [%rd6];\n  st.global.u32 [%rd6], %r2;\n  bar.sync 0;\n"            \
    "  ld.global.cg.u32 %r6, [%rd6];\n  and.b32 %r7, %r6, 1;\n  mul.lo.u32 %r7, %r7, " #STRIDE ";\n" \
    "  cvt.u64.u32 %rd7, %r7;\n  add.u64 %rd8, %rd4, %rd7;\n"                               \
    "  atom.global.add.u32 %r8, [%rd8], 1;\n  mul.lo.u32 %r8, %r8, 0;\n  add.u32 %r8, %r8, %r6;\n" \
    "  st.global.u32 [%rd3], %r8;\n  ret;\n}\n"

/* 16 times: every thread adds aux[0] (a plain read of what other CTAs
 * change while it runs) to its sum, and thread 0 increments it with
 * atomicCAS(&aux[0], v, v + 1) on the value v it read (again until it
 * succeeds); out[g] = the sum */
static const char k_racy[] =
    ".visible .entry k(.param .u64 out, .param .u64 in, .param .u64 aux)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<12>;\n  .reg .pred %p<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd4, [aux];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.u32 %r5, %r3, %r4, %r1;\n"
    "  mul.wide.u32 %rd2, %r5, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  mov.u32 %r9, 16;\n  mov.u32 %r10, 0;\n  setp.ne.u32 %p1, %r1, 0;\n"
    "L0:\n  ld.global.cg.u32 %r2, [%rd4];\n  add.u32 %r10, %r10, %r2;\n"
    "  @%p1 bra L2;\n"
    "L1:\n  add.u32 %r7, %r2, 1;\n  atom.global.cas.b32 %r8, [%rd4], %r2, %r7;\n"
    "  setp.ne.u32 %p2, %r8, %r2;\n  mov.u32 %r2, %r8;\n  @%p2 bra L1;\n"
    "L2:\n  sub.u32 %r9, %r9, 1;\n  setp.ne.u32 %p3, %r9, 0;\n  @%p3 bra L0;\n"
    "  st.global.u32 [%rd3], %r10;\n"
    "  ret;\n}\n";

/* Pieces of the kernels below: their head; out[g] = in[g] + 1; N turns
 * of a loop; the same on SM 0 only (a path one copy takes and its partner
 * on another SM does not) */
#define K_HEAD                                                                             \
    ".visible .entry k(.param .u64 out, .param .u64 in, .param .u64 aux)\n{\n"                \
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p<4>;\n"
#define K_STORE_PLUS1                                                                      \
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd5, [in];\n"                              \
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"            \
    "  mad.lo.u32 %r5, %r3, %r4, %r1;\n"                                                    \
    "  mul.wide.u32 %rd2, %r5, 4;\n  add.u64 %rd3, %rd1, %rd2;\n  add.u64 %rd6, %rd5, %rd2;\n" \
    "  ld.global.u32 %r2, [%rd6];\n  add.u32 %r2, %r2, 1;\n  st.global.u32 [%rd3], %r2;\n"
#define K_SPIN(N)                                                                          \
    "  mov.u32 %r10, 0;\n"                                                                  \
    "L0:\n  add.u32 %r10, %r10, 1;\n  setp.lt.u32 %p2, %r10, " #N ";\n  @%p2 bra L0;\n"
#define K_SPIN_ON_SM0(N)                                                                   \
    "  mov.u32 %r9, %smid;\n  setp.ne.u32 %p1, %r9, 0;\n  @%p1 bra L1;\n" K_SPIN(N) "L1:\n"

/* out[g] = in[g] + 1, after 20000 turns of a loop on SM 0 only */
static const char k_slow_on_sm0[] = K_HEAD K_SPIN_ON_SM0(20000) K_STORE_PLUS1 "  ret;\n}\n";

/* out[g] = in[g] + 1, then 4000 turns of a loop: the pair's stores wait,
 * agreed, in the comparator's log until both copies finish */
static const char k_store_then_spin[] = K_HEAD K_STORE_PLUS1 K_SPIN(4000) "  ret;\n}\n";

/* the copy on SM 0 first turns a loop 4000 times, then out[g] = in[g] + 1:
 * the other copy's stores wait, held, for it */
static const char k_spin_on_sm0_then_store[] =
    K_HEAD K_SPIN_ON_SM0(4000) K_STORE_PLUS1 "  ret;\n}\n";

/* on SM 0 only, 2000 turns of a loop; then a load whose value nobody
 * uses, and the end: a copy on another SM ends with that load waiting for
 * its partner's */
static const char k_last_load_unused[] =
    K_HEAD K_SPIN_ON_SM0(2000)
    "  ld.param.u64 %rd5, [in];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd6, %rd5, %rd2;\n"
    "  ld.global.u32 %r2, [%rd6];\n  ret;\n}\n";

static const char k_atom_same_line[] = K_ATOM_AFTER_FLIP(4);
static const char k_atom_other_line[] = K_ATOM_AFTER_FLIP(128);

static char *with_head(const char *body)
{
    static char buf[4][8192];
    static int k;
    char *b = buf[k++ & 3];
    snprintf(b, sizeof buf[0], "%s%s", ptx_head, body);
    return b;
}

typedef struct run_res {
    lockstep_status st;
    uint32_t out[MAXN], in[MAXN], aux[64];
    char err[1024];
    lockstep_timing_stats t;
} run_res;

static uint32_t in_value(uint32_t i) { return i * 0x01010101u + 0x55; }

/* Run ptx's kernel k on grid x block threads under opts (config syntax). */
static void run(const char *ptx, const char *opts, uint32_t grid, uint32_t block, run_res *r)
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
    r->st = lockstep_config_validate(cfg);
    if (!r->st)
        r->st = lockstep_device_create(cfg, &dev);
    if (r->st) {
        snprintf(r->err, sizeof r->err, "%s", lockstep_config_last_error(cfg));
        lockstep_config_destroy(cfg);
        return;
    }
    lockstep_config_destroy(cfg);
    lockstep_module *mod = NULL;
    lockstep_kernel *k = NULL;
    lockstep_dptr out = 0, in = 0, aux = 0;
    uint32_t n = grid * block;
    r->st = lockstep_module_load_ptx(dev, ptx, strlen(ptx), "dmr.ptx", &mod);
    if (!r->st)
        r->st = lockstep_module_get_kernel(mod, "k", &k);
    if (!r->st)
        r->st = lockstep_malloc(dev, n * 4, &out);
    if (!r->st)
        r->st = lockstep_malloc(dev, n * 4, &in);
    if (!r->st)
        r->st = lockstep_malloc(dev, sizeof r->aux, &aux);
    if (!r->st) {
        static uint32_t init[MAXN];
        for (uint32_t i = 0; i < n; i++)
            init[i] = in_value(i);
        lockstep_memcpy_htod(dev, in, init, n * 4);
        for (uint32_t i = 0; i < n; i++)
            init[i] = 0xdeadbeefu;
        lockstep_memcpy_htod(dev, out, init, n * 4);
        uint32_t z[64] = {0};
        lockstep_memcpy_htod(dev, aux, z, sizeof z);
        void *args[] = {&out, &in, &aux};
        lockstep_launch_stats ls;
        memset(&ls, 0, sizeof ls);
        r->st = lockstep_launch_args(dev, k, (lockstep_dim3){grid, 1, 1},
                                     (lockstep_dim3){block, 1, 1}, 0, args, &ls);
        if (ls.timing)
            r->t = ls.t;
        if (r->st)
            snprintf(r->err, sizeof r->err, "%s", lockstep_device_last_error(dev));
        lockstep_synchronize(dev);
        lockstep_memcpy_dtoh(dev, r->out, out, n * 4);
        lockstep_memcpy_dtoh(dev, r->in, in, n * 4);
        lockstep_memcpy_dtoh(dev, r->aux, aux, sizeof r->aux);
    } else {
        snprintf(r->err, sizeof r->err, "%s", lockstep_device_last_error(dev));
    }
    lockstep_device_destroy(dev);
}

#define BASE "-lockstep_mode timing\n"
#define DMR BASE "-lockstep_redundancy dmr\n"

static run_res ra, rb; /* big: static */

/* DMR's outputs are the unprotected run's, for both pairings. */
static void same_as_unprotected(const char *name, const char *body, uint32_t grid,
                                uint32_t block, int ticket)
{
    const char *modes[] = {DMR, DMR "-dmr_pair slot\n", DMR "-dmr_pair core\n"};
    uint32_t n = grid * block;
    run(with_head(body), BASE, grid, block, &ra);
    CHECK_MSG(ra.st == LOCKSTEP_SUCCESS, "%s unprotected: %s", name, ra.err);
    for (int m = 0; m < 3; m++) {
        run(with_head(body), modes[m], grid, block, &rb);
        CHECK_MSG(rb.st == LOCKSTEP_SUCCESS, "%s dmr: %s", name, rb.err);
        if (ticket) {
            /* the tickets' order depends on timing: a permutation of 0..n-1 */
            static uint8_t seen[MAXN];
            memset(seen, 0, sizeof seen);
            int ok = rb.aux[0] == n;
            for (uint32_t i = 0; i < n && ok; i++)
                ok = rb.out[i] < n && !seen[rb.out[i]]++;
            CHECK_MSG(ok, "%s (%d): tickets are not a permutation (counter %u)", name, m,
                      rb.aux[0]);
        } else {
            CHECK_MSG(!memcmp(ra.out, rb.out, n * 4) && !memcmp(ra.in, rb.in, n * 4) &&
                          !memcmp(ra.aux, rb.aux, sizeof ra.aux),
                      "%s (%d): DMR's outputs differ from the unprotected run's", name, m);
        }
        CHECK_MSG(rb.t.dmr_comparisons > 0 && rb.t.dmr_mismatches == 0 &&
                      rb.t.dmr_reissues == 0 && rb.t.dmr_log_entries_max > 0,
                  "%s (%d): comparisons %" PRIu64 " mismatches %" PRIu64 " reissues %" PRIu64
                  " log max %" PRIu64,
                  name, m, rb.t.dmr_comparisons, rb.t.dmr_mismatches, rb.t.dmr_reissues,
                  rb.t.dmr_log_entries_max);
        CHECK_MSG(rb.t.cycles > ra.t.cycles, "%s: DMR took %" PRIu64 " cycles, unprotected %" PRIu64,
                  name, rb.t.cycles, ra.t.cycles);
    }
}

static void test_dmr_outputs_equal(void)
{
    uint32_t grid = 24, block = 64, n = grid * block;
    same_as_unprotected("store", k_store, grid, block, 0);
    for (uint32_t i = 0; i < n; i++)
        CHECK_MSG(rb.out[i] == in_value(i) + 1, "store out[%u] = %u", i, rb.out[i]);
    CHECK(rb.t.dmr_commit_writes > 0);
    same_as_unprotected("own stores across a barrier", k_own, grid, block, 0);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i / block * block + (i % block + 1) % block;
        CHECK_MSG(rb.out[i] == in_value(j) * 3 + 1, "own out[%u] = %u", i, rb.out[i]);
    }
    same_as_unprotected("ticket", k_ticket, grid, block, 1);
    CHECK(rb.t.dmr_comparator_stall_cycles > 0);
    same_as_unprotected("reduction", k_reduce, grid, block, 0);
    uint32_t total = 0;
    for (uint32_t c = 0; c < grid; c++) {
        uint32_t sum = 0;
        for (uint32_t t = 0; t < block; t++)
            sum += in_value(c * block + t);
        CHECK_MSG(rb.out[c] == sum, "reduce out[%u] = %u, expected %u", c, rb.out[c], sum);
        total += sum;
    }
    CHECK_MSG(rb.aux[0] == total, "reduction total %u, expected %u", rb.aux[0], total);
}

static void test_dmr_corrects_a_flipped_store(void)
{
    uint32_t grid = 8, block = 64, n = grid * block;
    run(with_head(k_store), BASE "-dmr_flip_store 1\n", grid, block, &ra);
    CHECK_MSG(ra.st == LOCKSTEP_SUCCESS, "%s", ra.err);
    CHECK_MSG(ra.out[0] == ((in_value(0) + 1) ^ 1), "unprotected: the flip lands in out[0]: %u",
              ra.out[0]);
    const char *modes[] = {DMR "-dmr_flip_store 1\n", DMR "-dmr_flip_store 2\n-dmr_pair slot\n",
                           DMR "-dmr_flip_store 1\n-dmr_pair core\n"};
    for (int m = 0; m < 3; m++) {
        run(with_head(k_store), modes[m], grid, block, &rb);
        CHECK_MSG(rb.st == LOCKSTEP_SUCCESS, "%s", rb.err);
        int ok = 1;
        for (uint32_t i = 0; i < n; i++)
            ok &= rb.out[i] == in_value(i) + 1;
        CHECK_MSG(ok, "(%d) DMR's output is not corrected", m);
        CHECK_MSG(rb.t.dmr_mismatches == 1 && rb.t.dmr_reissues == 1,
                  "(%d) mismatches %" PRIu64 " reissues %" PRIu64, m, rb.t.dmr_mismatches,
                  rb.t.dmr_reissues);
    }
    /* with a store, then a load of it across a barrier: the reissue runs from the start */
    run(with_head(k_own), DMR "-dmr_flip_store 1\n", grid, block, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_SUCCESS, "%s", rb.err);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i / block * block + (i % block + 1) % block;
        CHECK_MSG(rb.out[i] == in_value(j) * 3 + 1 && rb.in[i] == in_value(i) * 3,
                  "own out[%u] = %u", i, rb.out[i]);
    }
    CHECK(rb.t.dmr_mismatches == 1 && rb.t.dmr_reissues == 1);
    /* no reissue allowed: the mismatch is not corrected */
    run(with_head(k_store), DMR "-dmr_flip_store 1\n-dmr_max_reissues 0\n", grid, block, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_ERROR_REDUNDANCY && strstr(rb.err, "CTA (0,0,0)") &&
                  strstr(rb.err, "not corrected"),
              "%s: %s", lockstep_status_name(rb.st), rb.err);
}

/* A flipped store that changes a later atomic's operands (same line) or
 * line (another partition's comparator: its partner never comes) before
 * anything committed: detected, the pair reissued, every atomic counted
 * once. */
static void test_dmr_atomic_mismatch_corrected(void)
{
    uint32_t grid = 8, block = 64, n = grid * block;
    const char *bodies[] = {k_atom_same_line, k_atom_other_line};
    for (int b = 0; b < 2; b++) {
        /* the knob flips the flipped copy's lane 0 value: (v & 1) changes */
        run(with_head(bodies[b]), BASE "-dmr_flip_store 1\n", grid, block, &ra);
        CHECK_MSG(ra.st == LOCKSTEP_SUCCESS, "%s", ra.err);
        CHECK_MSG(ra.out[0] == (in_value(0) ^ 1), "(%d) unprotected: the flip reaches out[0]", b);
        run(with_head(bodies[b]), DMR "-dmr_flip_store 1\n", grid, block, &rb);
        CHECK_MSG(rb.st == LOCKSTEP_SUCCESS, "(%d) %s", b, rb.err);
        int ok = 1;
        uint32_t even = 0;
        for (uint32_t i = 0; i < n; i++) {
            ok &= rb.out[i] == in_value(i) && rb.in[i] == in_value(i);
            even += !(in_value(i) & 1);
        }
        uint32_t k = b ? 32 : 1; /* aux index of the odd values' counter */
        CHECK_MSG(ok && rb.aux[0] == even && rb.aux[k] == n - even,
                  "(%d) outputs %d, counters %u %u (expected %u %u)", b, ok, rb.aux[0], rb.aux[k],
                  even, n - even);
        CHECK_MSG(rb.t.dmr_mismatches == 1 && rb.t.dmr_reissues == 1,
                  "(%d) mismatches %" PRIu64 " reissues %" PRIu64, b, rb.t.dmr_mismatches,
                  rb.t.dmr_reissues);
    }
}

/* An address fault in one copy's write (-dmr_flip_line): a store whose
 * entry is left unmatched when the pair finishes; a store before an atomic
 * (the atomic waits for it, then finds its partner never comes); an atomic
 * whose partner goes to another line (both wait; neither can come).  Each
 * is detected, the pair reissued, the output right. */
static void test_dmr_address_faults_corrected(void)
{
    uint32_t grid = 8, block = 64, n = grid * block;
    run(with_head(k_store), DMR "-dmr_flip_line 2\n", grid, block, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_SUCCESS, "%s", rb.err);
    int ok = 1;
    for (uint32_t i = 0; i < n; i++)
        ok &= rb.out[i] == in_value(i) + 1;
    CHECK_MSG(ok && rb.t.dmr_mismatches == 1 && rb.t.dmr_reissues == 1,
              "store: outputs %d, mismatches %" PRIu64 " reissues %" PRIu64, ok,
              rb.t.dmr_mismatches, rb.t.dmr_reissues);
    /* k_reduce: thread 0 stores out[cta], then red: the red waits for the store */
    run(with_head(k_reduce), BASE, grid, block, &ra);
    run(with_head(k_reduce), DMR "-dmr_flip_line 1\n", grid, block, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_SUCCESS, "%s", rb.err);
    CHECK_MSG(!memcmp(ra.out, rb.out, grid * 4) && ra.aux[0] == rb.aux[0] &&
                  rb.t.dmr_mismatches == 1 && rb.t.dmr_reissues == 1,
              "reduce: total %u vs %u, mismatches %" PRIu64 " reissues %" PRIu64, rb.aux[0],
              ra.aux[0], rb.t.dmr_mismatches, rb.t.dmr_reissues);
    /* the ticket, one warp a CTA (so nothing of CTA 0 commits first): the
     * atomic of copy 1 goes to another line */
    grid = 16;
    block = 32;
    n = grid * block;
    run(with_head(k_ticket), DMR "-dmr_flip_line 1\n", grid, block, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_SUCCESS, "%s", rb.err);
    static uint8_t seen[MAXN];
    memset(seen, 0, sizeof seen);
    ok = rb.aux[0] == n;
    for (uint32_t i = 0; i < n && ok; i++)
        ok = rb.out[i] < n && !seen[rb.out[i]]++;
    CHECK_MSG(ok && rb.t.dmr_mismatches == 1 && rb.t.dmr_reissues == 1,
              "ticket: permutation %d (counter %u), mismatches %" PRIu64 " reissues %" PRIu64, ok,
              rb.aux[0], rb.t.dmr_mismatches, rb.t.dmr_reissues);
    /* only with DMR */
    run(with_head(k_store), BASE "-dmr_flip_line 1\n", grid, block, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_ERROR_INVALID_CONFIG && strstr(rb.err, "needs -lockstep_redundancy dmr"),
              "%s: %s", lockstep_status_name(rb.st), rb.err);
}

static void test_dmr_uncorrectable_after_an_atomic(void)
{
    uint32_t grid = 8, block = 64, n = grid * block;
    run(with_head(k_atom_then_store), DMR, grid, block, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_SUCCESS, "%s", rb.err);
    for (uint32_t i = 0; i < n; i++)
        CHECK_MSG(rb.out[i] == in_value(i), "out[%u] = %u", i, rb.out[i]);
    CHECK(rb.aux[0] == n);
    run(with_head(k_atom_then_store), DMR "-dmr_flip_store 1\n", grid, block, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_ERROR_REDUNDANCY &&
                  strstr(rb.err, "DMR mismatch in CTA (0,0,0) after it committed an atomic: "
                                 "not recoverable"),
              "%s: %s", lockstep_status_name(rb.st), rb.err);
}

static void test_dmr_same_on_threads_and_orders(void)
{
    const char *bodies[] = {k_own, k_ticket, k_reduce};
    /* a flipped store: k_ticket stores after its atomic (not correctable) */
    const char *extra[] = {"-lockstep_threads 2\n", "-lockstep_window_order 1\n",
                           "-lockstep_threads 2\n-lockstep_window_order 1\n", "-lockstep_skip 0\n"};
    char opts[512];
    for (int b = 0; b < 3; b++)
        for (int f = 0; f < (b == 1 ? 1 : 2); f++) {
            snprintf(opts, sizeof opts, "%s-lockstep_threads 1\n%s", DMR,
                     f ? "-dmr_flip_store 1\n" : "");
            run(with_head(bodies[b]), opts, 16, 64, &ra);
            CHECK_MSG(ra.st == LOCKSTEP_SUCCESS, "%s", ra.err);
            /* -lockstep_skip 0: exact for runs without a mismatch (a failed
             * pair's waiting atomics are answered at a serial step) */
            for (int e = 0; e < (f ? 3 : 4); e++) {
                snprintf(opts, sizeof opts, "%s%s%s", DMR, extra[e],
                         f ? "-dmr_flip_store 1\n" : "");
                run(with_head(bodies[b]), opts, 16, 64, &rb);
                CHECK_MSG(rb.st == LOCKSTEP_SUCCESS, "%s", rb.err);
                CHECK_MSG(!memcmp(&ra.t, &rb.t, sizeof ra.t) && !memcmp(ra.out, rb.out, sizeof ra.out) &&
                              !memcmp(ra.aux, rb.aux, sizeof ra.aux),
                          "kernel %d flip %d: %s differs from 1 thread (cycles %" PRIu64
                          " vs %" PRIu64 ")",
                          b, f, extra[e], rb.t.cycles, ra.t.cycles);
            }
        }
}

/* The fault injector's faults in the SMs (one copy's) are corrected: each
 * seed that makes the unprotected run's output wrong, or stops it with a
 * kernel fault (a bad address, a barrier deadlock), gives the right output
 * under DMR: one copy's fault is a difference between the copies. */
static void test_dmr_corrects_injected_faults(void)
{
    uint32_t grid = 16, block = 64, n = grid * block;
    static run_res golden;
    run(with_head(k_own), BASE, grid, block, &golden);
    CHECK_MSG(golden.st == LOCKSTEP_SUCCESS, "%s", golden.err);
    int sdc = 0, corrected = 0, due = 0;
    char opts[512];
    for (int seed = 1; seed <= 40; seed++) {
        const char *site = seed & 1 ? "insn_out" : "reg_live";
        snprintf(opts, sizeof opts,
                 BASE "-lockstep_fault_site %s\n-lockstep_fault_at %d\n-lockstep_fault_seed %d\n",
                 site, 50 + 29 * seed, seed);
        run(with_head(k_own), opts, grid, block, &ra);
        if (ra.st == LOCKSTEP_SUCCESS && !memcmp(ra.out, golden.out, n * 4))
            continue;
        if (ra.st == LOCKSTEP_SUCCESS)
            sdc++;
        else
            due++;
        snprintf(opts, sizeof opts,
                 DMR "-lockstep_fault_site %s\n-lockstep_fault_at %d\n-lockstep_fault_seed %d\n",
                 site, 50 + 29 * seed, seed);
        run(with_head(k_own), opts, grid, block, &rb);
        CHECK_MSG(rb.st == LOCKSTEP_SUCCESS, "%s seed %d (%s without DMR): %s", site, seed,
                  lockstep_status_name(ra.st), rb.err);
        CHECK_MSG(!memcmp(rb.out, golden.out, n * 4) && !memcmp(rb.in, golden.in, n * 4),
                  "%s seed %d: an SDC or DUE without DMR is still wrong with it", site, seed);
        corrected += rb.st == LOCKSTEP_SUCCESS && rb.t.dmr_mismatches >= 1 &&
                     rb.t.dmr_reissues >= 1;
    }
    /* (the fault under DMR lands among twice the warps: not always where it
     * did without, so some runs have nothing to correct) */
    CHECK_MSG(sdc >= 3 && due >= 2 && 2 * corrected >= sdc + due,
              "%d SDCs and %d DUEs without DMR, %d corrected with it", sdc, due, corrected);
}

/* A fault of the program itself (both copies fault alike) stops the launch
 * as it does without DMR: an illegal address, a barrier deadlock. */
static const char *k_bad_store =
    ".visible .entry k(.param .u64 out, .param .u64 in, .param .u64 aux)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %ctaid.x;\n"
    "  setp.eq.u32 %p1, %r1, 3;\n  @%p1 mov.u64 %rd1, 64;\n"
    "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";
static const char *k_bad_barrier =
    ".visible .entry k(.param .u64 out, .param .u64 in, .param .u64 aux)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .pred %p<3>;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n"
    "  setp.eq.u32 %p1, %r2, 2;\n  setp.lt.u32 %p2, %r1, 32;\n  and.pred %p1, %p1, %p2;\n"
    "  @%p1 bra W;\n  bar.sync 0;\n  ret;\nW:\n  bar.sync 1;\n  ret;\n}\n";

static void test_dmr_program_faults_stand(void)
{
    const char *bodies[] = {k_bad_store, k_bad_barrier};
    for (int b = 0; b < 2; b++) {
        run(with_head(bodies[b]), BASE, 8, 64, &ra);
        CHECK_MSG(ra.st != LOCKSTEP_SUCCESS, "kernel %d: no fault without DMR", b);
        const char *modes[] = {DMR, DMR "-dmr_pair core\n"};
        for (int m = 0; m < 2; m++) {
            run(with_head(bodies[b]), modes[m], 8, 64, &rb);
            CHECK_MSG(rb.st == ra.st, "kernel %d (%d): %s under DMR, %s without: %s", b, m,
                      lockstep_status_name(rb.st), lockstep_status_name(ra.st), rb.err);
            CHECK_MSG(rb.t.dmr_reissues == 0, "kernel %d (%d): %" PRIu64 " reissues", b, m,
                      rb.t.dmr_reissues);
        }
    }
}

#define LVR DMR "-dmr_load_values 1\n"

/* k_racy's counter ends at 16 * grid; every sum is at most 16 times that. */
static int racy_ok(const run_res *r, uint32_t grid, uint32_t block)
{
    int ok = r->aux[0] == 16 * grid;
    for (uint32_t i = 0; i < grid * block && ok; i++)
        ok = r->out[i] <= 16 * 16 * grid;
    return ok;
}

static void test_dmr_load_values(void)
{
    uint32_t grid = 32, block = 64;
    const char *pairs[] = {"", "-dmr_pair core\n", "-dmr_pair slot\n"};
    char opts[256];
    /* without replication the copies read different counters */
    run(with_head(k_racy), DMR, grid, block, &ra);
    CHECK_MSG(ra.st == LOCKSTEP_ERROR_REDUNDANCY || ra.t.dmr_mismatches > 0,
              "k_racy without load-value replication: %s, %" PRIu64 " mismatches",
              lockstep_status_name(ra.st), ra.t.dmr_mismatches);
    for (int p = 0; p < 3; p++) {
        snprintf(opts, sizeof opts, "%s%s", LVR, pairs[p]);
        run(with_head(k_racy), opts, grid, block, &rb);
        CHECK_MSG(rb.st == LOCKSTEP_SUCCESS, "k_racy %s: %s", pairs[p], rb.err);
        CHECK_MSG(racy_ok(&rb, grid, block), "k_racy %s: counter %u", pairs[p], rb.aux[0]);
        CHECK_MSG(rb.t.dmr_mismatches == 0 && rb.t.dmr_lvq_loads >= 16ull * grid * block / 32 &&
                      rb.t.dmr_lvq_entries_max > 0,
                  "k_racy %s: %" PRIu64 " mismatches, %" PRIu64 " loads replicated", pairs[p],
                  rb.t.dmr_mismatches, rb.t.dmr_lvq_loads);
    }
    /* a copy whose last act is a load waiting for its partner's: the serial
     * step that gives it the values finishes the CTA, and the launch goes on
     * to retire it */
    run(with_head(k_last_load_unused), LVR "-dmr_copy_timeout 0\n", 1, 32, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_SUCCESS && rb.t.dmr_lvq_waits == 1 && rb.t.dmr_mismatches == 0,
              "last load waits: %s: %s, %" PRIu64 " waits", lockstep_status_name(rb.st), rb.err,
              rb.t.dmr_lvq_waits);
    /* kernels without races: the outputs of the unprotected run */
    run(with_head(k_own), BASE, grid, block, &ra);
    run(with_head(k_own), LVR, grid, block, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_SUCCESS && !memcmp(ra.out, rb.out, sizeof ra.out) &&
                  !memcmp(ra.in, rb.in, sizeof ra.in) && rb.t.dmr_mismatches == 0 &&
                  rb.t.dmr_lvq_loads == 2ull * grid * block / 32,
              "k_own: %s, %" PRIu64 " loads replicated", rb.err, rb.t.dmr_lvq_loads);
    /* an address fault in one copy's load: found, the pair reissued */
    for (uint32_t n = 1; n <= 2; n++) {
        snprintf(opts, sizeof opts, "%s-dmr_flip_load %u\n", LVR, n);
        run(with_head(k_own), opts, grid, block, &rb);
        CHECK_MSG(rb.st == LOCKSTEP_SUCCESS && !memcmp(ra.out, rb.out, sizeof ra.out) &&
                      rb.t.dmr_mismatches == 1 && rb.t.dmr_reissues == 1,
                  "k_own, load %u moved: %s, %" PRIu64 " mismatches %" PRIu64 " reissues", n,
                  rb.err, rb.t.dmr_mismatches, rb.t.dmr_reissues);
    }
    /* k_racy's load moved after its atomic committed: not correctable */
    run(with_head(k_racy), LVR "-dmr_flip_load 4\n", grid, block, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_ERROR_REDUNDANCY && strstr(rb.err, "after it committed an atomic"),
              "k_racy, load moved: %s: %s", lockstep_status_name(rb.st), rb.err);
    /* the same on threads, window orders and without idle skipping */
    const char *extra[] = {"-lockstep_threads 2\n", "-lockstep_window_order 1\n",
                           "-lockstep_skip 0\n"};
    const char *bodies[] = {k_racy, k_own};
    for (int b = 0; b < 2; b++)
        for (int f = 0; f < 2; f++) {
            const char *flip = f ? "-dmr_flip_load 1\n" : "";
            snprintf(opts, sizeof opts, "%s-lockstep_threads 1\n%s", LVR, flip);
            run(with_head(bodies[b]), opts, grid, block, &ra);
            /* (-lockstep_skip 0: exact for runs without a mismatch, whose
             * decisions are taken at serial steps) */
            for (int e = 0; e < (f ? 2 : 3); e++) {
                snprintf(opts, sizeof opts, "%s%s%s", LVR, extra[e], flip);
                run(with_head(bodies[b]), opts, grid, block, &rb);
                /* waits for the serial step are counted where windows end;
                 * what they do to the timing is not */
                rb.t.dmr_lvq_waits = ra.t.dmr_lvq_waits;
                rb.t.dmr_lvq_wait_cycles = ra.t.dmr_lvq_wait_cycles;
                rb.t.dmr_lvq_entries_max = ra.t.dmr_lvq_entries_max;
                /* (and the comparator's peak: entries leave at serial steps) */
                rb.t.dmr_log_entries_max = ra.t.dmr_log_entries_max;
                CHECK_MSG(ra.st == rb.st && !memcmp(&ra.t, &rb.t, sizeof ra.t) &&
                              !memcmp(ra.out, rb.out, sizeof ra.out),
                          "kernel %d flip %d: %s differs from 1 thread (cycles %" PRIu64
                          " vs %" PRIu64 ")",
                          b, f, extra[e], rb.t.cycles, ra.t.cycles);
            }
        }
}

static void test_dmr_copy_timeout(void)
{
    /* without the limit the slow copy runs to its end: the copies agree */
    run(with_head(k_slow_on_sm0), DMR "-dmr_copy_timeout 0\n", 1, 32, &ra);
    CHECK_MSG(ra.st == LOCKSTEP_SUCCESS && ra.t.dmr_copy_timeouts == 0 && ra.t.cycles > 100000,
              "%s: %s, %" PRIu64 " cycles", lockstep_status_name(ra.st), ra.err, ra.t.cycles);
    for (uint32_t i = 0; i < 32; i++)
        CHECK_MSG(ra.out[i] == in_value(i) + 1, "out[%u] = %u", i, ra.out[i]);
    /* with it, the copy on SM 0 is stopped once its partner has been done
     * for 7 times its run time, and the pair reissued (on other SMs) */
    run(with_head(k_slow_on_sm0), DMR, 1, 32, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_SUCCESS && rb.t.dmr_copy_timeouts == 1 && rb.t.dmr_reissues == 1 &&
                  rb.t.cycles < ra.t.cycles / 2,
              "%s: %s, %" PRIu64 " stopped, %" PRIu64 " reissues, %" PRIu64 " cycles",
              lockstep_status_name(rb.st), rb.err, rb.t.dmr_copy_timeouts, rb.t.dmr_reissues,
              rb.t.cycles);
    for (uint32_t i = 0; i < 32; i++)
        CHECK_MSG(rb.out[i] == in_value(i) + 1, "out[%u] = %u", i, rb.out[i]);
    /* both copies on one SM take the same path: nothing is stopped */
    run(with_head(k_slow_on_sm0), DMR "-dmr_pair core\n", 1, 32, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_SUCCESS && rb.t.dmr_copy_timeouts == 0 && rb.t.dmr_mismatches == 0,
              "core pairs: %s: %s", lockstep_status_name(rb.st), rb.err);
    /* the same on threads and window orders */
    run(with_head(k_slow_on_sm0), DMR "-lockstep_threads 1\n", 1, 32, &ra);
    run(with_head(k_slow_on_sm0), DMR "-lockstep_threads 2\n-lockstep_window_order 1\n", 1, 32,
        &rb);
    CHECK_MSG(ra.st == LOCKSTEP_SUCCESS && rb.st == LOCKSTEP_SUCCESS &&
                  !memcmp(&ra.t, &rb.t, sizeof ra.t) && !memcmp(ra.out, rb.out, sizeof ra.out),
              "%" PRIu64 " vs %" PRIu64 " cycles", ra.t.cycles, rb.t.cycles);
}

/* A fault in the comparator's log (-lockstep_fault_site dmr_log): in an
 * agreed entry it is what memory gets (the comparator is outside the
 * sphere: one output word off by the flipped bit); in a held one it makes
 * the second copy's comparison fail, and the pair is reissued. */
static void test_dmr_log_faults(void)
{
    char opts[512];
    for (uint64_t seed = 1; seed <= 4; seed++) {
        snprintf(opts, sizeof opts,
                 "%s-lockstep_fault_site dmr_log\n-lockstep_fault_at 3000\n"
                 "-lockstep_fault_seed %" PRIu64 "\n", DMR, seed);
        run(with_head(k_store_then_spin), opts, 2, 64, &rb);
        uint32_t off = 0, bad = 0;
        for (uint32_t i = 0; i < 128; i++)
            if (rb.out[i] != in_value(i) + 1) {
                bad++;
                off = rb.out[i] ^ (in_value(i) + 1);
            }
        CHECK_MSG(rb.st == LOCKSTEP_SUCCESS && rb.t.dmr_mismatches == 0 && bad == 1 &&
                      (off & (off - 1)) == 0,
                  "agreed entry, seed %" PRIu64 ": %s, %" PRIu64 " mismatches, %u words off (%#x)",
                  seed, rb.err, rb.t.dmr_mismatches, bad, off);
        snprintf(opts, sizeof opts,
                 "%s-dmr_copy_timeout 0\n-lockstep_fault_site dmr_log\n-lockstep_fault_at 3000\n"
                 "-lockstep_fault_seed %" PRIu64 "\n", DMR, seed);
        run(with_head(k_spin_on_sm0_then_store), opts, 1, 64, &rb);
        CHECK_MSG(rb.st == LOCKSTEP_SUCCESS && rb.t.dmr_mismatches == 1 && rb.t.dmr_reissues == 1,
                  "held entry, seed %" PRIu64 ": %s, %" PRIu64 " mismatches %" PRIu64 " reissues",
                  seed, rb.err, rb.t.dmr_mismatches, rb.t.dmr_reissues);
        for (uint32_t i = 0; i < 64; i++)
            CHECK_MSG(rb.out[i] == in_value(i) + 1, "held entry: out[%u] = %u", i, rb.out[i]);
    }
    /* where it lands does not depend on host threads or window order */
    const char *log = "-lockstep_fault_site dmr_log\n-lockstep_fault_at 3000\n"
                      "-lockstep_fault_seed 7\n";
    snprintf(opts, sizeof opts, "%s%s-lockstep_threads 1\n", DMR, log);
    run(with_head(k_store_then_spin), opts, 8, 64, &ra);
    snprintf(opts, sizeof opts, "%s%s-lockstep_threads 2\n-lockstep_window_order 1\n", DMR, log);
    run(with_head(k_store_then_spin), opts, 8, 64, &rb);
    CHECK_MSG(ra.st == LOCKSTEP_SUCCESS && rb.st == LOCKSTEP_SUCCESS &&
                  !memcmp(&ra.t, &rb.t, sizeof ra.t) && !memcmp(ra.out, rb.out, sizeof ra.out),
              "dmr_log on 2 threads: %" PRIu64 " vs %" PRIu64 " cycles", ra.t.cycles, rb.t.cycles);
}

static void test_dmr_refusals(void)
{
    struct {
        const char *opts, *want;
    } bad[] = {
        {BASE "-lockstep_redundancy tmr\n", "expected none or dmr"},
        {DMR "-dmr_pair tmr\n", "expected sm"},
        {DMR "-dmr_max_reissues -1\n", "-dmr_max_reissues"},
        {"-lockstep_mode functional\n-lockstep_redundancy dmr\n", "runs on the timing model"},
        {DMR "-lockstep_det dab\n", "cannot be combined with -lockstep_det dab"},
        {DMR "-lockstep_det gpudet\n", "cannot be combined with -lockstep_det gpudet"},
        {BASE "-dmr_load_values 1\n", "needs -lockstep_redundancy dmr"},
        {DMR "-dmr_load_values 2\n", "-dmr_load_values"},
        {DMR "-dmr_flip_load 1\n", "needs -lockstep_redundancy dmr and -dmr_load_values 1"},
        {LVR "-dmr_lvq_timeout 0\n", "-dmr_lvq_timeout"},
        {DMR "-dmr_copy_timeout -2\n", "-dmr_copy_timeout"},
        {BASE "-lockstep_fault_site dmr_log\n", "needs -lockstep_redundancy dmr"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run(with_head(k_store), bad[i].opts, 2, 32, &rb);
        CHECK_MSG(rb.st == LOCKSTEP_ERROR_INVALID_CONFIG && strstr(rb.err, bad[i].want),
                  "%s: %s: %s", bad[i].opts, lockstep_status_name(rb.st), rb.err);
    }
    /* one SM cannot hold a pair on two SMs */
    run(with_head(k_store), DMR "-gpgpu_n_clusters 1\n-gpgpu_n_cores_per_cluster 1\n", 2, 32, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES && strstr(rb.err, "needs two SMs"),
              "%s: %s", lockstep_status_name(rb.st), rb.err);
    run(with_head(k_store),
        DMR "-gpgpu_n_clusters 1\n-gpgpu_n_cores_per_cluster 1\n-dmr_pair slot\n", 4, 32, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_SUCCESS, "%s", rb.err);
    for (uint32_t i = 0; i < 128; i++)
        CHECK_MSG(rb.out[i] == in_value(i) + 1, "one SM, slot pairs: out[%u] = %u", i, rb.out[i]);
    /* core pairs need two CTA slots on one SM */
    run(with_head(k_store), DMR "-gpgpu_shader_cta 1\n-dmr_pair core\n", 4, 32, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES &&
                  strstr(rb.err, "needs two CTA slots on an SM"),
              "%s: %s", lockstep_status_name(rb.st), rb.err);
    run(with_head(k_store),
        DMR "-gpgpu_n_clusters 1\n-gpgpu_n_cores_per_cluster 1\n-dmr_pair core\n", 4, 32, &rb);
    CHECK_MSG(rb.st == LOCKSTEP_SUCCESS, "%s", rb.err);
    for (uint32_t i = 0; i < 128; i++)
        CHECK_MSG(rb.out[i] == in_value(i) + 1, "one SM, core pairs: out[%u] = %u", i, rb.out[i]);
}

static void test_dmr_refuses_cooperative_launches(void)
{
    lockstep_config *cfg = NULL;
    lockstep_device *dev = NULL;
    const char *opts = DMR;
    CHECK(lockstep_config_create(&cfg) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_config_parse(cfg, opts, strlen(opts), "test") == LOCKSTEP_SUCCESS);
    CHECK(lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS);
    lockstep_config_destroy(cfg);
    lockstep_module *mod = NULL;
    lockstep_kernel *k = NULL;
    const char *ptx = with_head(k_store);
    CHECK(lockstep_module_load_ptx(dev, ptx, strlen(ptx), "dmr.ptx", &mod) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_module_get_kernel(mod, "k", &k) == LOCKSTEP_SUCCESS);
    lockstep_dptr out = 0, in = 0, aux = 0;
    CHECK(lockstep_malloc(dev, 256, &out) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_malloc(dev, 256, &in) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_malloc(dev, 16, &aux) == LOCKSTEP_SUCCESS);
    void *args[] = {&out, &in, &aux};
    lockstep_status st = lockstep_launch_cooperative(dev, k, (lockstep_dim3){2, 1, 1},
                                                     (lockstep_dim3){32, 1, 1}, 0, args, NULL);
    CHECK_MSG(st == LOCKSTEP_ERROR_INVALID_LAUNCH &&
                  strstr(lockstep_device_last_error(dev), "-lockstep_redundancy dmr"),
              "%s: %s", lockstep_status_name(st), lockstep_device_last_error(dev));
    lockstep_device_destroy(dev);
}

/* Idle skipping off changes nothing, for kernels with atomics too (their
 * releases count from the events that allowed them, not from the serial
 * step that saw them). */
static void test_dmr_skip0_atomics(void)
{
    const char *bodies[] = {k_ticket, k_reduce, k_atom_then_store};
    for (int b = 0; b < 3; b++)
        for (uint32_t grid = 8; grid <= 32; grid += 8) {
            run(with_head(bodies[b]), DMR, grid, 64, &ra);
            run(with_head(bodies[b]), DMR "-lockstep_skip 0\n", grid, 64, &rb);
            CHECK_MSG(ra.st == LOCKSTEP_SUCCESS && rb.st == LOCKSTEP_SUCCESS &&
                          !memcmp(&ra.t, &rb.t, sizeof ra.t) && !memcmp(ra.out, rb.out, sizeof ra.out),
                      "kernel %d grid %u: %" PRIu64 " cycles, %" PRIu64 " with -lockstep_skip 0", b,
                      grid, ra.t.cycles, rb.t.cycles);
        }
}

int main(void)
{
    RUN(test_dmr_outputs_equal);
    RUN(test_dmr_corrects_a_flipped_store);
    RUN(test_dmr_atomic_mismatch_corrected);
    RUN(test_dmr_address_faults_corrected);
    RUN(test_dmr_uncorrectable_after_an_atomic);
    RUN(test_dmr_same_on_threads_and_orders);
    RUN(test_dmr_skip0_atomics);
    RUN(test_dmr_corrects_injected_faults);
    RUN(test_dmr_program_faults_stand);
    RUN(test_dmr_load_values);
    RUN(test_dmr_copy_timeout);
    RUN(test_dmr_log_faults);
    RUN(test_dmr_refusals);
    RUN(test_dmr_refuses_cooperative_launches);
    return test_summary();
}
