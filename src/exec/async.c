/*
 * async.c -- asynchronous copies (cp.async) and mbarrier objects.
 *
 * An mbarrier is 8 bytes of the CTA's shared memory in lockstep's own
 * encoding (PTX leaves it opaque):
 *
 *   bits  0..19  arrivals still pending in the current phase
 *   bits 20..39  the expected arrivals each phase starts with
 *   bits 40..62  the phase number (its low bit is the phase parity)
 *   bit  63      initialized (mbarrier.init sets it, .inval clears it)
 *
 * The state an arrive returns is the word with the phase it arrived in and
 * the pending count after it; test_wait compares phases, pending_count
 * reads the count.  mbarrier operations are shared-memory accesses at
 * issue in both modes, lane by lane in lane order, as atomics are.
 *
 * cp.async.ca/.cg is a request through the memory seam whose addresses are
 * the global source's, with v[0] each lane's .shared destination and v[1]
 * the bytes it reads (src-size; 0 with ignore-src); the rest of the copy is
 * zeros.  Functional mode copies at once (exec_async_perform), so its
 * waits have nothing to wait for.  The timing model sends the reads through
 * the memory system as a load with no registers to write, writes shared
 * memory as the lines arrive (exec_acp_deliver), counts the copies in
 * flight by group and holds a warp at cp.async.wait_group, .wait_all and
 * cp.async.mbarrier.arrive until the copies they wait for are done
 * (timing/sm.c).  A group is a number per warp: w->acp_commits, which
 * commit_group and wait_all advance.
 *
 * cp.async.mbarrier.arrive is a request through the seam too, its
 * addresses the lanes' mbarriers: at issue the pending count goes up by
 * one (not with .noinc), and the arrival (exec_acp_arrive) comes when the
 * thread's earlier copies are done: at once in functional mode, when the
 * last of the warp's copies in flight at its issue is done in the timing
 * model.
 */
#include <string.h>

#include "exec/exec.h"
#include "util/addrmap.h"
#include "util/common.h"

#define MB_COUNT_MASK 0xfffffull
#define MB_PENDING(v) ((uint32_t)((v) & MB_COUNT_MASK))
#define MB_EXPECTED(v) ((uint32_t)(((v) >> 20) & MB_COUNT_MASK))
#define MB_PHASE(v) (((v) >> 40) & 0x7fffffull)
#define MB_VALID (1ull << 63)
#define MB_MAKE(phase, expected, pending)                                                  \
    (MB_VALID | ((uint64_t)(phase) & 0x7fffff) << 40 | (uint64_t)(expected) << 20 |         \
     (uint64_t)(pending))

static const char *const op_words[ASYNC_OP_COUNT] = {
    [MBAR_INIT] = "mbarrier.init", [MBAR_INVAL] = "mbarrier.inval",
    [MBAR_ARRIVE] = "mbarrier.arrive", [MBAR_ARRIVE_DROP] = "mbarrier.arrive_drop",
    [MBAR_TEST_WAIT] = "mbarrier.test_wait", [MBAR_TRY_WAIT] = "mbarrier.try_wait",
    [MBAR_PENDING_COUNT] = "mbarrier.pending_count", [CPA_COPY] = "cp.async",
    [CPA_COMMIT] = "cp.async.commit_group", [CPA_WAIT_GROUP] = "cp.async.wait_group",
    [CPA_WAIT_ALL] = "cp.async.wait_all", [CPA_MBAR_ARRIVE] = "cp.async.mbarrier.arrive",
};

/* The mbarrier of lane l at ad: its word in shared memory, checked (a
 * .shared address, 8-byte aligned, inside the CTA's shared memory). */
static uint8_t *mbar_ptr(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, int l,
                         const exec_addr *ad)
{
    uint32_t pc = exec_insn_pc(L, in);
    uint64_t a = ad->a[l];
    const char *what = op_words[in->mode];
    if (ad->space[l] != SP_SHARED) {
        exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, a,
                   "%s: the mbarrier address 0x%llx is not in shared memory", what,
                   (unsigned long long)a);
        return NULL;
    }
    if (a & 7) {
        exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_MISALIGNED_ADDRESS, a,
                   "%s: misaligned mbarrier at shared offset 0x%llx (must be 8-byte aligned)",
                   what, (unsigned long long)a);
        return NULL;
    }
    if (a + 8 > L->shared_bytes) {
        exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, a,
                   "%s: the mbarrier at shared offset 0x%llx is outside the CTA's %u bytes of "
                   "shared memory", what, (unsigned long long)a, L->shared_bytes);
        return NULL;
    }
    return c->shared + a;
}

/* The word of an initialized mbarrier (else a fault and -1). */
static int mbar_load(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, int l,
                     const exec_addr *ad, const uint8_t *p, uint64_t *v)
{
    memcpy(v, p, 8);
    if (*v & MB_VALID)
        return 0;
    exec_fault(L, c, w, l, exec_insn_pc(L, in), LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, ad->a[l],
               "%s on shared offset 0x%llx, which holds no initialized mbarrier",
               op_words[in->mode], (unsigned long long)ad->a[l]);
    return -1;
}

/* Count `count` arrivals (and, for a drop, fewer expected from the next
 * phase on) on the word *v; the state to return in *state.  0, or -1 after
 * a fault (more arrivals than pending, a .noComplete that completes). */
static int mbar_arrive(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, int l,
                       uint64_t a, uint64_t *v, uint32_t count, int drop, int nocomplete,
                       uint64_t *state)
{
    uint32_t pc = exec_insn_pc(L, in);
    uint32_t pend = MB_PENDING(*v), exp = MB_EXPECTED(*v);
    uint64_t phase = MB_PHASE(*v);
    if (count == 0 || count > pend || (drop && count > exp)) {
        exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, a,
                   "%s: %u arrivals on the mbarrier at shared offset 0x%llx, which expects %u "
                   "more in this phase", op_words[in->mode], count, (unsigned long long)a, pend);
        return -1;
    }
    pend -= count;
    if (drop)
        exp -= count;
    if (state)
        *state = MB_MAKE(phase, exp, pend);
    if (pend == 0) {
        if (nocomplete) {
            exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, a,
                       "%s.noComplete completes the phase of the mbarrier at shared offset 0x%llx",
                       op_words[in->mode], (unsigned long long)a);
            return -1;
        }
        phase++;
        pend = exp;
    }
    *v = MB_MAKE(phase, exp, pend);
    return 0;
}

/* Lane mask of a predicate operand (with its '!'). */
static uint32_t pred_of(const exec_launch *L, const exec_warp *w, const ir_opnd *o)
{
    uint32_t v = o->kind == IRO_PRED ? w->preds[w->pred_base + o->idx]
                 : o->kind == IRO_CONST ? (uint32_t)L->mod->kpool[(size_t)o->idx * WARP_SIZE]
                                        : 0;
    return o->neg ? ~v : v;
}

/* The mbarrier instructions, at issue. */
static int mbarrier_op(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                       uint32_t active)
{
    uint64_t t0[WARP_SIZE];
    uint64_t *R = w->regs + (size_t)w->reg_base * WARP_SIZE;
    if (in->mode == MBAR_PENDING_COUNT) {
        const uint64_t *S = exec_operand(L, c, w, &in->s[0], t0, active);
        uint64_t *D = R + (size_t)in->d[0].idx * WARP_SIZE;
        for (uint32_t m = active; m; m &= m - 1) {
            int l = ctz32(m);
            D[l] = MB_PENDING(S[l]);
        }
        return 0;
    }
    exec_addr ad;
    if (exec_mem_addr(L, c, w, in, active, &ad))
        return -1;
    const uint64_t *S0 = in->nsrc > 0 ? exec_operand(L, c, w, &in->s[0], t0, active) : NULL;
    uint32_t done = 0;
    for (uint32_t m = active; m; m &= m - 1) {
        int l = ctz32(m);
        uint8_t *p = mbar_ptr(L, c, w, in, l, &ad);
        uint64_t v;
        if (!p)
            return -1;
        switch (in->mode) {
        case MBAR_INIT: {
            uint64_t n = (uint32_t)S0[l];
            if (n < 1 || n > MB_COUNT_MASK) {
                exec_fault(L, c, w, l, exec_insn_pc(L, in), LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION,
                           ad.a[l], "mbarrier.init: count %llu is not in 1 .. %llu",
                           (unsigned long long)n, (unsigned long long)MB_COUNT_MASK);
                return -1;
            }
            v = MB_MAKE(0, n, n);
            memcpy(p, &v, 8);
            break;
        }
        case MBAR_INVAL:
            v = 0;
            memcpy(p, &v, 8);
            break;
        case MBAR_ARRIVE: case MBAR_ARRIVE_DROP: {
            uint64_t state;
            uint32_t n = (in->flags & IRF_HAS_C) ? (uint32_t)S0[l] : 1;
            if (mbar_load(L, c, w, in, l, &ad, p, &v) ||
                mbar_arrive(L, c, w, in, l, ad.a[l], &v, n, in->mode == MBAR_ARRIVE_DROP,
                            !!(in->bop & IRA_NOCOMPLETE), &state))
                return -1;
            memcpy(p, &v, 8);
            R[(size_t)in->d[0].idx * WARP_SIZE + l] = state;
            break;
        }
        default: { /* MBAR_TEST_WAIT, MBAR_TRY_WAIT */
            if (mbar_load(L, c, w, in, l, &ad, p, &v))
                return -1;
            int complete = (in->bop & IRA_PARITY) ? (MB_PHASE(v) & 1) != (S0[l] & 1)
                                                  : MB_PHASE(v) != MB_PHASE(S0[l]);
            done |= (uint32_t)complete << l;
            break;
        }
        }
    }
    if (in->mode == MBAR_TEST_WAIT || in->mode == MBAR_TRY_WAIT) {
        uint32_t *P = w->preds + w->pred_base;
        P[in->d[0].idx] = (P[in->d[0].idx] & ~active) | done;
    }
    return 0;
}

int exec_acp_arrive(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t lanes,
                    const exec_addr *ad, int done)
{
    for (uint32_t m = lanes; m; m &= m - 1) {
        int l = ctz32(m);
        uint8_t *p = mbar_ptr(L, c, w, in, l, ad);
        uint64_t v;
        if (!p || mbar_load(L, c, w, in, l, ad, p, &v))
            return -1;
        if (done) {
            if (mbar_arrive(L, c, w, in, l, ad->a[l], &v, 1, 0, 0, NULL))
                return -1;
        } else if (!(in->bop & IRA_NOINC)) {
            if (MB_PENDING(v) == MB_COUNT_MASK) {
                exec_fault(L, c, w, l, exec_insn_pc(L, in), LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION,
                           ad->a[l], "cp.async.mbarrier.arrive: the mbarrier at shared offset "
                           "0x%llx cannot count more pending arrivals",
                           (unsigned long long)ad->a[l]);
                return -1;
            }
            v++; /* one more pending arrival: the one the copies' completion makes */
        }
        memcpy(p, &v, 8);
    }
    return 0;
}

/* cp.async.mbarrier.arrive: a request through the memory seam whose
 * addresses are the lanes' mbarriers. */
static int cp_mbar_arrive(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                          uint32_t active)
{
    exec_memreq rq;
    if (exec_mem_addr(L, c, w, in, active, &rq.ad))
        return L->mem.status = EXEC_MEM_FAULT;
    rq.in = in;
    rq.pc = exec_insn_pc(L, in);
    rq.lanes = active;
    rq.size = 8;
    rq.texels = NULL;
    memset(rq.v, 0, sizeof rq.v);
    return exec_mem_issue_req(L, c, w, &rq);
}

/* cp.async.ca/.cg: the request through the memory seam. */
static int cp_copy(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                   uint32_t active)
{
    exec_memreq rq;
    uint64_t t0[WARP_SIZE], t1[WARP_SIZE];
    uint32_t size = exec_mem_size(in);
    if (exec_mem_addr(L, c, w, in, active, &rq.ad))
        return L->mem.status = EXEC_MEM_FAULT;
    rq.in = in;
    rq.pc = exec_insn_pc(L, in);
    rq.lanes = active;
    rq.size = size;
    rq.texels = NULL;
    memset(rq.v, 0, sizeof rq.v);
    const uint64_t *D = exec_operand(L, c, w, &in->s[0], t0, active);
    const uint64_t *N = NULL;
    uint32_t ignore = 0;
    if (in->bop & IRA_SRC_SIZE)
        N = exec_operand(L, c, w, &in->s[1], t1, active);
    else if (in->bop & IRA_IGNORE_SRC)
        ignore = pred_of(L, w, &in->s[1]);
    for (uint32_t m = active; m; m &= m - 1) {
        int l = ctz32(m);
        rq.tmp[0][l] = (uint32_t)(D[l] + in->target);
        rq.tmp[1][l] = N ? (uint32_t)N[l] : (ignore >> l & 1) ? 0 : size;
    }
    rq.v[0] = rq.tmp[0];
    rq.v[1] = rq.tmp[1];
    return exec_mem_issue_req(L, c, w, &rq);
}

int exec_async(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active)
{
    exec_memres *res = &L->mem;
    int rc = 0;
    switch (in->mode) {
    case CPA_COPY:
        return cp_copy(L, c, w, in, active);
    case CPA_COMMIT: case CPA_WAIT_ALL:
        w->acp_commits++;
        break;
    case CPA_WAIT_GROUP:
        break;
    case CPA_MBAR_ARRIVE:
        return cp_mbar_arrive(L, c, w, in, active);
    default:
        rc = mbarrier_op(L, c, w, in, active);
        break;
    }
    return res->status = rc ? EXEC_MEM_FAULT : EXEC_MEM_NONE;
}

int exec_acp_check(exec_launch *L, exec_cta *c, exec_warp *w, const exec_memreq *rq)
{
    const ir_insn *in = rq->in;
    uint32_t size = rq->size;
    for (uint32_t m = rq->lanes; m; m &= m - 1) {
        int l = ctz32(m);
        uint64_t dst = rq->v[0][l], n = rq->v[1][l], a = rq->ad.a[l];
        if (n > size) {
            exec_fault(L, c, w, l, rq->pc, LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, a,
                       "cp.async: src-size %llu is larger than the copy's %u bytes",
                       (unsigned long long)n, size);
            return -1;
        }
        if ((dst & (size - 1)) || (a & (size - 1))) {
            int d = (dst & (size - 1)) != 0;
            exec_fault(L, c, w, l, rq->pc, LOCKSTEP_ERROR_MISALIGNED_ADDRESS, d ? dst : a,
                       "misaligned %u-byte cp.async: its %s address 0x%llx (must be %u-byte "
                       "aligned)", size, d ? "shared destination" : "global source",
                       (unsigned long long)(d ? dst : a), size);
            return -1;
        }
        if (dst + size > L->shared_bytes) {
            exec_fault(L, c, w, l, rq->pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, dst,
                       "%u-byte cp.async to shared offset 0x%llx is outside the CTA's %u bytes "
                       "of shared memory", size, (unsigned long long)dst, L->shared_bytes);
            return -1;
        }
        if (rq->ad.space[l] != SP_GLOBAL) {
            exec_fault(L, c, w, l, rq->pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, a,
                       "cp.async: the source address 0x%llx is not in global memory",
                       (unsigned long long)a);
            return -1;
        }
        uint32_t hint = 0;
        if (n && !devmem_find(L->dm, a, (uint32_t)n, &hint)) {
            exec_global_fault(L, c, w, in, l, a, (uint32_t)n, rq->pc);
            return -1;
        }
    }
    return 0;
}

void exec_acp_deliver(exec_launch *L, exec_cta *c, uint32_t lanes, const exec_addr *src,
                      const uint64_t *dst, const uint64_t *len, uint64_t base, uint32_t n,
                      const uint8_t *bytes)
{
    for (uint32_t m = lanes; m; m &= m - 1) {
        int l = ctz32(m);
        uint64_t a = src->a[l], e = a + len[l];
        uint64_t lo = a > base ? a : base, hi = e < base + n ? e : base + n;
        if (lo < hi)
            memcpy(c->shared + (uint32_t)dst[l] + (lo - a), bytes + (lo - base), hi - lo);
    }
    (void)L;
}

void exec_acp_zero(exec_launch *L, exec_cta *c, uint32_t lanes, const uint64_t *dst,
                   const uint64_t *len, uint32_t size)
{
    for (uint32_t m = lanes; m; m &= m - 1) {
        int l = ctz32(m);
        if (len[l] < size)
            memset(c->shared + (uint32_t)dst[l] + len[l], 0, size - len[l]);
    }
    (void)L;
}

int exec_async_perform(exec_launch *L, exec_cta *c, exec_warp *w, const exec_memreq *rq)
{
    if (rq->in->mode == CPA_MBAR_ARRIVE)
        /* the thread's earlier copies are done: the increment and the arrival at once */
        return exec_acp_arrive(L, c, w, rq->in, rq->lanes, &rq->ad, 0) ||
                       exec_acp_arrive(L, c, w, rq->in, rq->lanes, &rq->ad, 1)
                   ? -1
                   : 0;
    if (rq->in->mode != CPA_COPY) {
        exec_fault(L, c, w, ctz32(rq->lanes), rq->pc, LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, 0,
                   "%s reached the memory system", op_words[rq->in->mode]);
        return -1;
    }
    if (exec_acp_check(L, c, w, rq))
        return -1;
    uint8_t buf[16];
    for (uint32_t m = rq->lanes; m; m &= m - 1) {
        int l = ctz32(m);
        uint32_t n = (uint32_t)rq->v[1][l];
        exec_global_read(L, rq->ad.a[l], buf, n);
        exec_acp_deliver(L, c, 1u << l, &rq->ad, rq->v[0], rq->v[1], rq->ad.a[l], n, buf);
    }
    exec_acp_zero(L, c, rq->lanes, rq->v[0], rq->v[1], rq->size);
    return 0;
}
