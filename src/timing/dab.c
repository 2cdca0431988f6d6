/*
 * dab.c -- DAB, deterministic atomic buffering (Chou et al., MICRO 2021),
 * on the timing model (`-lockstep_det dab`, docs/DETERMINISM.md).
 *
 * A global atomic whose result nothing reads (every `red`, and an `atom`
 * whose destination register the function never reads) does not go to
 * memory when it issues: each lane's operation becomes an entry of an
 * atomic buffer (address, operation, operands), one buffer per warp
 * scheduler (-dab_level sched) or per warp (-dab_level warp) with
 * -num_buffer_entries entries.  Entries to the same address with the same
 * operation fuse into one (atomic fusion, -buffer_coalesce): add, min,
 * max, and, or, xor and exch.  A warp whose lanes do not fit waits (the
 * full bit); so does one whose CTA is of a later generation (tier) than
 * the entries its buffer holds.  Which buffer a CTA's warps use is fixed:
 * CTA slot i of SM s runs CTAs s + S*i, s + S*i + T, ... (the engine's
 * deterministic partitioning; S SMs, T slots).
 *
 * Within a scheduler-level buffer, the order of the warps' atomics is set
 * by a determinism-aware scheduler (-dab_scheduler):
 *   srr   strict round robin: one instruction per warp in a fixed order;
 *   gtrr  greedy (GTO) until every warp has reached its first atomic (or
 *         waits for a flush, or has ended), then strict round robin;
 *   gtar  greedy, but atomics in rounds: when every warp has reached an
 *         atomic (or waits for a flush, or has ended), their atomics issue
 *         in the fixed order, and the warps go on greedily;
 *   gwat  greedy, and a token that only its holder may issue an atomic
 *         with; it passes to the next warp when the holder issues an
 *         atomic or ends.
 * The fixed order is the scheduler's warps by CTA slot and warp, those of
 * the oldest CTA generation (tier) present first; a later tier's atomics
 * wait until the earlier tier's warps are done.  A warp waiting for a flush
 * loses its turn until the flush (it would wait whatever the timing).
 * With scheduler-level buffers a CTA barrier is a flush point
 * (syncthreads orders memory): a warp waits for the next flush before it
 * executes bar, and the controller executes the barrier for all the CTA's
 * warps at once after the flush, so no warp ever waits at a barrier for a
 * time that depends on another scheduler.  Warp-level buffers need no turns
 * and barriers do not flush there.
 *
 * Buffer flushing (dab_step, in the engine's serial step) happens when no
 * warp of the GPU can go on without it: every warp is done, waits at a
 * barrier (warp-level buffers), waits for the flush (a full buffer, a
 * fence or an acquire or release access, a CTA barrier, a later tier, an
 * atomic whose result it uses) or waits for its turn behind one that does.
 * Then every cluster sends each partition a pre-flush message with the
 * number of transactions to expect, and pushes its buffers (its SMs in
 * order, each SM's buffers in order, from the middle of the buffer on
 * even SMs with -dab_offset_flush, -flush_chunk_size entries a cycle, one
 * transaction a cycle into the crossbar; entries to one 32-byte sector
 * coalesce into one transaction with -atomic_coalesce).  Each partition
 * applies the transactions in a fixed order, round robin over the
 * clusters, parking those that arrive early in its flush buffer; the warps
 * go on when the partitions have acknowledged everything, and the next
 * flush waits for that too (-overlap_flushes: the warps go on, and the
 * next flush may start, once the clusters have pushed everything).  The flush is simulated transaction by transaction in
 * its own model of the clusters' crossbar ports and the partitions' atomic
 * units (with the crossbar's latency and its seeded jitter), not through
 * the crossbar of the rest of the simulator.
 *
 * Atomics whose result is used (a ticket, a CAS loop), and ordered
 * atomics (.acquire, .release), wait for a flush and then run on the
 * ordinary memory system in a serial phase: one SM at a time, its warps'
 * atomics in slot and warp order (the crossbar and the partitions keep one
 * SM's requests to a partition in order), so a program whose only races
 * are atomics of any kind is deterministic.  Plain data races are outside DAB's guarantee.
 *
 * The limit studies of the paper's Figure 18 are options that give up
 * determinism: -no_reordering (partitions apply transactions in arrival
 * order), -no_sync_flush (each cluster flushes on its own when its own
 * warps wait).  Shared-memory atomics are not buffered (the paper's
 * design covers global memory).
 */
#include <stdlib.h>
#include <string.h>

#include "timing/timing_int.h"
#include "util/common.h"
#include "util/rng.h"

/* What DAB does with the instruction at a pc (g->dab_kind). */
enum { DK_NONE, DK_BUF, DK_USED, DK_FENCE, DK_BAR };
/* Why a warp waits for the next flush (tm_dabwarp.wait). */
enum { DW_NONE, DW_FULL, DW_FENCE, DW_USED, DW_TIER, DW_BAR };

/* ---- what each instruction is to DAB ------------------------------------------------------ */

/* Classify the module's instructions: a global (or generic) atomic is
 * buffered unless its destination register is read anywhere in its
 * function or it is ordered; fences, and the memory-ordering semantics of
 * loads and stores, flush; barriers flush under srr, gtrr and gtar.
 * 0, or -1 when the host is out of memory. */
static int classify(timing_gpu *g, const ir_module *m, uint32_t kernel)
{
    /* active: the kernel, or a function it may call, has a global atomic */
    const ir_func *kf = &m->funcs[kernel];
    if (g->dab_mod == m) {
        g->dab_active = 0;
        for (uint32_t f = 0; f < m->nfuncs && !g->dab_active; f++) {
            const ir_func *fn = &m->funcs[f];
            if (fn->is_entry && fn != kf)
                continue;
            for (uint32_t pc = fn->start; pc < fn->end && !g->dab_active; pc++)
                g->dab_active = g->dab_kind[pc] == DK_BUF || g->dab_kind[pc] == DK_USED;
        }
        return 0;
    }
    uint8_t *kind = realloc(g->dab_kind, m->ncode ? m->ncode : 1);
    if (!kind)
        return -1;
    g->dab_kind = kind;
    memset(kind, DK_NONE, m->ncode);
    int bar_flush = !g->dab_warp_level;
    g->dab_active = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ir_func *fn = &m->funcs[f];
        uint8_t *read = calloc(fn->nregs ? fn->nregs : 1, 1);
        if (!read)
            return -1;
        for (uint32_t pc = fn->start; pc < fn->end; pc++) {
            const ir_insn *in = &m->code[pc];
            for (int k = 0; k < 4; k++)
                if (in->s[k].kind == IRO_REG && in->s[k].idx < fn->nregs)
                    read[in->s[k].idx] = 1;
            if (in->addr.kind == IRO_REG && in->addr.idx < fn->nregs)
                read[in->addr.idx] = 1;
        }
        for (uint32_t pc = fn->start; pc < fn->end; pc++) {
            const ir_insn *in = &m->code[pc];
            uint32_t props = ptx_op_props(in->op);
            if ((props & OPF_ATOMIC) && in->space != SP_SHARED) {
                int used = in->op == OP_ATOM && in->ndst && in->d[0].kind == IRO_REG &&
                           (in->d[0].idx >= fn->nregs || read[in->d[0].idx]);
                int ordered = in->sem == SEM_ACQUIRE || in->sem == SEM_RELEASE ||
                              in->sem == SEM_ACQ_REL || in->sem == SEM_SC;
                kind[pc] = used || ordered ? DK_USED : DK_BUF;
                g->dab_active |= !fn->is_entry || fn == kf;
            } else if ((props & OPF_FENCE) ||
                       ((props & OPF_MEM) && in->space != SP_SHARED &&
                        (in->sem == SEM_ACQUIRE || in->sem == SEM_RELEASE || in->sem == SEM_SC))) {
                kind[pc] = DK_FENCE;
            } else if ((props & OPF_BARRIER) && bar_flush) {
                kind[pc] = DK_BAR;
            }
        }
        free(read);
    }
    g->dab_mod = m;
    return 0;
}

/* ---- buffers, tiers and the fixed order ----------------------------------------------------- */

static tm_dabbuf *buffer_of(tm_sm *sm, const tm_warp *tw)
{
    return &sm->dab_buf[sm->g->dab_warp_level ? tw->dab.slotwarp : tw->dab.sched];
}

/* The CTA generation of the CTA in slot tc: its index among the CTAs the
 * slot runs. */
static uint32_t tier_of(const timing_gpu *g, const tm_cta *tc)
{
    return (uint32_t)(tc->c->linear / g->dab_nslots);
}

/* The oldest tier with warps left in scheduler q of sm (*ready: its CTAs
 * have all started; a slot between two CTAs is not ready); UINT32_MAX when
 * none. */
static uint32_t level_of(const tm_sm *sm, uint32_t q, int *ready)
{
    const timing_gpu *g = sm->g;
    const tm_dabsched *ds = &sm->dab_sched[q];
    uint32_t level = UINT32_MAX;
    *ready = 1;
    for (uint32_t k = 0; k < ds->nw; k++) {
        const tm_warp *tw = ds->w[k];
        const tm_cta *tc = tw->tc;
        uint32_t t;
        int pending = 0;
        if (tc->active && tw->w->state != WARP_DONE) {
            t = tier_of(g, tc);
        } else {
            /* a free slot, or a finished warp: the slot's next CTA will
             * run here (a CTA whose warps are all done has not left its
             * slot yet: its successor counts already) */
            uint32_t slot = (uint32_t)(tc - sm->ctas);
            uint64_t next = g->det_dwp_next[(size_t)slot * g->nsms + sm->id];
            if (next >= g->det_total_ctas)
                continue;
            t = (uint32_t)(next / g->dab_nslots);
            pending = 1;
        }
        if (t < level) {
            level = t;
            *ready = !pending;
        } else if (t == level && pending) {
            *ready = 0;
        }
    }
    return level;
}

/* May warp tw take turns at tier `level`?  Not when it is done, and not
 * while it is inside a CTA barrier: under independent thread scheduling a
 * warp can be there while others of its CTA still run (the controller's
 * execution of bar let it in, see try_flush); it leaves only at a flush,
 * whatever the timing, so passing over it is deterministic, and it must
 * not hold the turn the warps it waits for need. */
static int eligible(const timing_gpu *g, const tm_warp *tw, uint32_t level)
{
    return tw->tc->active && tw->w->state == WARP_RUNNING && tier_of(g, tw->tc) == level;
}

/* The warp whose turn it is in scheduler q from the pointer on (NULL:
 * none).  The turn passes over warps waiting for a flush: they wait until
 * the next flush whatever the timing, so passing over them is
 * deterministic (and a warp waiting for a flush must not hold up others). */
static tm_warp *holder(const tm_sm *sm, uint32_t q, uint32_t level)
{
    const tm_dabsched *ds = &sm->dab_sched[q];
    for (uint32_t k = 0; k < ds->nw; k++) {
        tm_warp *tw = ds->w[(ds->token + k) % ds->nw];
        if (eligible(sm->g, tw, level) && !tw->dab.wait)
            return tw;
    }
    return NULL;
}

/* gtrr, gtar: every warp of the tier has stopped (reached an atomic, waits
 * for a flush, waits at a barrier) or is done. */
static int all_stopped(const tm_sm *sm, uint32_t q, uint32_t level)
{
    const tm_dabsched *ds = &sm->dab_sched[q];
    for (uint32_t k = 0; k < ds->nw; k++) {
        const tm_warp *tw = ds->w[k];
        if (eligible(sm->g, tw, level) && !tw->dab.stopped && !tw->dab.wait)
            return 0;
    }
    return 1;
}

/* Wake scheduler q's warps that wait for their turn, from t. */
static void wake_sched(tm_sm *sm, uint32_t q, uint64_t t)
{
    tm_dabsched *ds = &sm->dab_sched[q];
    for (uint32_t k = 0; k < ds->nw; k++) {
        tm_warp *tw = ds->w[k];
        if (tw->dab.gated && tw->ready_at > t) {
            tm_warp_wait(sm, tw, t, LOCKSTEP_STALL_SCOREBOARD);
        }
    }
    sm->sched_at = MIN(sm->sched_at, t);
    sm->wake = MIN(sm->wake, t);
    sm->dab_events++;
}

/* May warp tw issue an instruction of kind `kind` now, as its scheduler's
 * policy orders it?  (The atomic kinds are DK_BUF and DK_USED.) */
static int my_turn(tm_sm *sm, tm_warp *tw, int kind)
{
    timing_gpu *g = sm->g;
    int atomic = kind == DK_BUF || kind == DK_USED;
    if (g->dab_warp_level)
        return 1;
    uint32_t q = tw->dab.sched;
    tm_dabsched *ds = &sm->dab_sched[q];
    int srr = g->dab_sched == DAB_SRR || (g->dab_sched == DAB_GTRR && ds->srr);
    if (!atomic && !srr)
        return 1;
    int ready;
    uint32_t level = level_of(sm, q, &ready);
    if (!ready || tier_of(g, tw->tc) != level)
        return 0; /* a later tier, or the tier's CTAs have not all started */
    if (atomic && (g->dab_sched == DAB_GTRR || g->dab_sched == DAB_GTAR) && !tw->dab.stopped) {
        tw->dab.stopped = 1; /* reached an atomic: it waits for the others */
        wake_sched(sm, q, sm->now + 1);
    }
    if (g->dab_sched == DAB_GTRR && !ds->srr) {
        if (!all_stopped(sm, q, level))
            return 0;
        ds->srr = 1; /* every warp has reached its first atomic: strict round robin */
        srr = 1;
    }
    if (g->dab_sched == DAB_GTAR) {
        if (!ds->round) {
            if (!all_stopped(sm, q, level))
                return 0;
            /* a round of atomics, in the fixed order: the warps stopped at
             * an atomic now; one that reaches an atomic during the round
             * waits for the next */
            ds->round = 1;
            for (uint32_t k = 0; k < ds->nw; k++)
                if (eligible(g, ds->w[k], level) && ds->w[k]->dab.stopped == 1)
                    ds->w[k]->dab.stopped = 2;
        }
        /* the turn: the next warp of the round with an atomic to issue */
        for (uint32_t k = 0; k < ds->nw; k++) {
            tm_warp *x = ds->w[(ds->token + k) % ds->nw];
            if (x->dab.stopped == 2 && !x->dab.wait)
                return x == tw;
        }
        return 0;
    }
    return holder(sm, q, level) == tw;
}

static tm_warp *sm_next_serial(tm_sm *sm, const tm_warp *after);

/* Warp tw has had its turn (issued its atomic, reached an atomic whose
 * result it uses, or issued anything under strict round robin): the turn
 * passes on. */
static void passed_turn(tm_sm *sm, tm_warp *tw)
{
    tm_dabsched *ds = &sm->dab_sched[tw->dab.sched];
    ds->token = tw->dab.order + 1;
    if (sm->g->dab_sched == DAB_GTAR) {
        tw->dab.stopped = 0;
        int left = 0; /* the round ends when every warp in it has had its turn */
        for (uint32_t k = 0; k < ds->nw; k++)
            left |= ds->w[k]->dab.stopped == 2;
        if (!left)
            ds->round = 0;
    }
    wake_sched(sm, tw->dab.sched, sm->now + 1);
}

/* ---- the gate and the issue hook (the SM's thread) ----------------------------------------- */

int dab_gate(tm_sm *sm, tm_warp *tw, uint32_t pc, uint64_t now)
{
    timing_gpu *g = sm->g;
    tm_dabwarp *d = &tw->dab;
    if (now < sm->dab_gate)
        return 0; /* a flush */
    if (g->dab_serial)
        return sm->id == g->dab_serial_sm && tw == sm->dab_serial_next && d->pass_pc == pc + 1;
    if (!g->dab_active)
        return 1;
    if (d->wait)
        return 0;
    int kind = g->dab_kind[pc];
    if (d->pass_pc == pc + 1 && (kind == DK_FENCE || kind == DK_BAR))
        return 1; /* the flush it waited for has happened */
    if ((kind == DK_FENCE || kind == DK_BAR) && !g->dab_warp_level && !my_turn(sm, tw, kind)) {
        d->gated = pc + 1;
        return 0;
    }
    if (kind == DK_FENCE || kind == DK_BAR) {
        d->wait = kind == DK_FENCE ? DW_FENCE : DW_BAR;
        d->wait_pc = pc + 1;
        sm->st.dab_fence_flushes++;
        sm->dab_events++;
        sm->dab_waits++;
        if (!g->dab_warp_level)
            wake_sched(sm, d->sched, now + 1); /* srr passes over it now */
        return 0;
    }
    if (!my_turn(sm, tw, kind)) {
        if (!d->gated)
            sm->st.dab_token_waits++;
        d->gated = pc + 1;
        sm->dab_events++;
        return 0;
    }
    if (kind == DK_USED) {
        /* a used result: after the next flush, in the serial phase; the
         * turn passes on as if it had issued */
        d->wait = DW_USED;
        d->wait_pc = pc + 1;
        d->gated = 0;
        sm->dab_events++;
        sm->dab_waits++;
        if (!g->dab_warp_level)
            passed_turn(sm, tw);
        return 0;
    }
    return 1;
}

void dab_issued(tm_sm *sm, tm_warp *tw, uint32_t pc)
{
    timing_gpu *g = sm->g;
    tm_dabwarp *d = &tw->dab;
    if (!g->dab_active)
        return;
    int kind = g->dab_kind[pc];
    d->gated = 0;
    if (d->pass_pc == pc + 1) {
        d->pass_pc = 0;
        if (kind == DK_USED) {
            /* the serial phase's atomic (no turn to pass): the SM's next
             * warp with one issues from the next cycle; the crossbar and the
             * partitions keep one SM's requests to a partition in order */
            d->serial_issued = 1;
            tm_warp *nx = sm->dab_serial_next = sm_next_serial(sm, tw);
            if (nx) {
                nx->dab.pass_pc = nx->dab.wait_pc;
                tm_warp_wait(sm, nx, sm->now + 1, LOCKSTEP_STALL_SCOREBOARD);
                sm->sched_at = MIN(sm->sched_at, sm->now + 1);
                sm->wake = MIN(sm->wake, sm->now + 1);
            }
            return;
        }
    }
    int done = tw->w->state == WARP_DONE;
    int bar = (ptx_op_props(sm->L.mod->code[pc].op) & OPF_BARRIER) != 0;
    if (done || bar)
        sm->dab_events++; /* it may be the last warp the flush waits for */
    if (g->dab_warp_level)
        return;
    uint32_t q = d->sched;
    const tm_dabsched *ds = &sm->dab_sched[q];
    int srr = g->dab_sched == DAB_SRR || (g->dab_sched == DAB_GTRR && ds->srr);
    if (srr || kind == DK_BUF) {
        passed_turn(sm, tw);
    } else if (done || bar) {
        wake_sched(sm, q, sm->now + 1); /* the turn moves past it, or one more has stopped */
    }
}

/* A CTA started in slot `slot` of sm: its warps start afresh, and warps
 * of its tier may now take their turns. */
void dab_cta_started(tm_sm *sm, uint32_t slot, uint64_t now)
{
    for (uint32_t i = 0; i < sm->L.nwarps; i++) {
        tm_dabwarp *d = &sm->ctas[slot].warps[i].dab;
        d->wait = d->stopped = 0;
        d->gated = d->pass_pc = d->wait_pc = 0;
        d->serial_issued = 0;
    }
    if (!sm->g->dab_active || sm->g->dab_warp_level)
        return;
    for (uint32_t q = 0; q < sm->g->nsched; q++)
        wake_sched(sm, q, now);
}

/* ---- the buffers (the first stage of the SM's interposer chain) --------------------------- */

static int fusable(const ir_insn *a, const ir_insn *b)
{
    if (a->mode != b->mode || a->type != b->type)
        return 0;
    switch (a->mode) {
    case ATOM_ADD: case ATOM_MIN: case ATOM_MAX: case ATOM_AND: case ATOM_OR: case ATOM_XOR:
    case ATOM_EXCH:
        return 1;
    default:
        return 0;
    }
}

static tm_dabentry *find_fusable(tm_dabbuf *b, uint64_t addr, const ir_insn *in)
{
    for (uint32_t i = 0; i < b->n; i++)
        if (b->e[i].addr == addr && fusable(b->e[i].in, in))
            return &b->e[i];
    return NULL;
}

/* The atomic waits for the next flush (`why`), and issues again after it. */
static int wait_flush(tm_sm *sm, tm_warp *tw, uint8_t why, exec_memres *res)
{
    tw->dab.wait = why;
    sm->dab_events++;
    sm->dab_waits++;
    res->status = EXEC_MEM_RETRY;
    res->ready = TM_NEVER;
    return 1;
}

int dab_request(void *ud, exec_launch *L, exec_cta *c, exec_warp *w, exec_memreq *rq,
                exec_memres *res)
{
    tm_sm *sm = ud;
    timing_gpu *g = sm->g;
    tm_warp *tw = w->timing;
    if (!g->dab_active || g->dab_kind[rq->pc] != DK_BUF)
        return 0; /* a used result runs on memory in the serial phase */
    uint32_t glob = 0;
    for (uint32_t m = rq->lanes; m; m &= m - 1) {
        int l = ctz32(m);
        if (rq->ad.space[l] == SP_GLOBAL)
            glob |= 1u << l;
    }
    if (!glob)
        return 0;
    const ir_insn *in = rq->in;
    if (exec_mem_check(L, c, w, in, rq->lanes, &rq->ad))
        return -1;
    tm_dabbuf *b = buffer_of(sm, tw);
    uint32_t tier = tier_of(g, tw->tc);
    if (b->n && b->tier != tier) {
        /* a buffer never holds two CTA generations: after the flush */
        sm->st.dab_tier_stalls++;
        return wait_flush(sm, tw, DW_TIER, res);
    }
    /* the entries the lanes need, in lane order */
    uint32_t need = 0;
    uint64_t fresh[WARP_SIZE];
    for (uint32_t m = glob; m; m &= m - 1) {
        int l = ctz32(m);
        uint64_t a = rq->ad.a[l];
        int fuse = g->dab_fusion && find_fusable(b, a, in);
        for (uint32_t j = 0; g->dab_fusion && !fuse && j < need; j++)
            fuse = fresh[j] == a && fusable(in, in);
        if (!fuse)
            fresh[need++] = a;
    }
    if (b->n + need > g->dab_entries) {
        sm->st.dab_full_stalls++;
        return wait_flush(sm, tw, DW_FULL, res);
    }
    if (glob != rq->lanes) { /* shared lanes of a generic atomic: at once */
        exec_memreq rest = *rq;
        rest.lanes = rq->lanes & ~glob;
        if (exec_mem_perform(L, c, w, &rest))
            return -1;
    }
    b->tier = tier;
    for (uint32_t m = glob; m; m &= m - 1) {
        int l = ctz32(m);
        uint64_t a = rq->ad.a[l], v = rq->v[0][l], cv = rq->v[1] ? rq->v[1][l] : 0;
        tm_dabentry *e = g->dab_fusion ? find_fusable(b, a, in) : NULL;
        sm->st.dab_buffered++;
        if (e) {
            e->b = exec_atom_value(in, e->b, v, 0);
            sm->st.dab_fusion_hits++;
            continue;
        }
        e = &b->e[b->n++];
        e->addr = a;
        e->in = in;
        e->b = v;
        e->c = cv;
    }
    res->status = EXEC_MEM_DONE;
    res->ready = *L->cycle + 1;
    return 1;
}

/* ---- the flush (the engine's serial step) -------------------------------------------------- */

typedef struct dab_txn {
    uint32_t cluster, part;
    uint32_t first, count;   /* entries in g->dab_fe[first .. first + count) */
    uint64_t arrive;         /* at its partition */
    uint64_t seq;            /* its place in the partition's order */
} dab_txn;

static int by_arrival(const void *a, const void *b)
{
    const dab_txn *x = *(dab_txn *const *)a, *y = *(dab_txn *const *)b;
    if (x->arrive != y->arrive)
        return x->arrive < y->arrive ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_order(const void *a, const void *b)
{
    const dab_txn *x = *(dab_txn *const *)a, *y = *(dab_txn *const *)b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Flush the buffers of SMs [s0, s1) from cycle t0: the values reach
 * memory now, in the order the partitions apply them; returns the cycle
 * the last acknowledgement arrives (*pushed: the cycle the last
 * transaction left its cluster).  -1 (as UINT64_MAX): out of host memory. */
static uint64_t flush(timing_gpu *g, uint32_t s0, uint32_t s1, uint64_t t0, uint64_t *pushed)
{
    exec_launch *L = g->L;
    uint32_t cpc = g->cfg->cores_per_cluster, nc = g->nsms / cpc, np = g->nparts;
    uint32_t nt = 0, ne = 0;
    /* the transactions, cluster by cluster in push order */
    for (uint32_t s = s0; s < s1; s++) {
        tm_sm *sm = &g->sms[s];
        for (uint32_t k = 0; k < sm->dab_nbuf; k++) {
            tm_dabbuf *b = &sm->dab_buf[k];
            if (!b->n)
                continue;
            if (vec_grow_((void **)&g->dab_fe, &g->dab_fe_cap, ne + b->n, sizeof *g->dab_fe) ||
                vec_grow_((void **)&g->dab_txn, &g->dab_txn_cap, nt + b->n, sizeof(dab_txn)))
                return UINT64_MAX;
            uint32_t off = g->dab_offset && s % 2 == 0 ? MIN(b->n, g->dab_entries / 2) : 0;
            dab_txn *tx = (dab_txn *)g->dab_txn;
            uint8_t *taken = g->dab_taken;
            memset(taken, 0, b->n);
            for (uint32_t j = 0; j < b->n; j++) {
                uint32_t i = (off + j) % b->n;
                if (taken[i])
                    continue;
                /* a transaction: this entry, and with coalescing the later
                 * ones to the same 32-byte sector */
                dab_txn *t = &tx[nt++];
                t->cluster = s / cpc;
                t->part = tm_part_of(g, b->e[i].addr);
                t->first = ne;
                t->count = 0;
                for (uint32_t jj = j; jj < b->n; jj++) {
                    uint32_t ii = (off + jj) % b->n;
                    if (taken[ii] || (ii != i && (!g->dab_coalesce ||
                                                  b->e[ii].addr / 32 != b->e[i].addr / 32)))
                        continue;
                    taken[ii] = 1;
                    g->dab_fe[ne++] = b->e[ii];
                    t->count++;
                }
            }
            g->st->dab_flush_entries += b->n;
            b->n = 0;
        }
    }
    dab_txn *tx = (dab_txn *)g->dab_txn;
    if (vec_grow_((void **)&g->dab_txp, &g->dab_txp_cap, nt + 1, sizeof(dab_txn *)) ||
        vec_grow_((void **)&g->dab_arr, &g->dab_arr_cap, nt + 1, sizeof(uint64_t)))
        return UINT64_MAX;
    dab_txn **pt = (dab_txn **)g->dab_txp;
    uint64_t *ready = g->dab_pscratch;          /* per partition: every pre-flush count is in */
    uint64_t *last_in = g->dab_pscratch + np;   /* its input port's last arrival */
    uint64_t *count = g->dab_pscratch + 2 * np; /* transactions to it so far / its arrivals */
    uint32_t *round = g->dab_round;             /* per (partition, cluster): transactions so far */
    memset(round, 0, (size_t)np * nc * sizeof *round);
    g->st->dab_flush_transactions += nt;
    /* each cluster first sends every partition its pre-flush count, one
     * message a cycle, then its transactions, one a cycle (a transaction of
     * more entries than a chunk takes a cycle per chunk to read out) */
    for (uint32_t p = 0; p < np; p++) {
        ready[p] = t0 + p + 1 + g->icnt_lat;
        last_in[p] = 0;
        count[p] = 0;
    }
    rng jit;
    uint32_t jitter = g->cfg->nondet && g->cfg->icnt_random ? g->icnt_lat / 2 : 0;
    rng_seed(&jit, g->cfg->nondet_seed, RNG_DAB, (uint32_t)g->st->dab_flushes);
    uint64_t push_end = t0;
    uint32_t i = 0;
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t t = t0 + np;
        for (; i < nt && tx[i].cluster == c; i++) {
            tx[i].arrive = t + g->icnt_lat + (jitter ? rng_below(&jit, jitter + 1) : 0);
            t += MAX(1u, (tx[i].count + g->dab_chunk - 1) / g->dab_chunk);
            /* the partition's order: round robin over the clusters, each
             * cluster's transactions to it in push order */
            tx[i].seq = (uint64_t)round[tx[i].part * nc + c]++ * nc + c;
        }
        push_end = MAX(push_end, t);
    }
    /* a partition's input port takes one transaction a cycle, in arrival order */
    for (i = 0; i < nt; i++)
        pt[i] = &tx[i];
    qsort(pt, nt, sizeof *pt, by_arrival);
    for (i = 0; i < nt; i++) {
        dab_txn *t = pt[i];
        t->arrive = MAX(t->arrive, last_in[t->part] + 1);
        last_in[t->part] = t->arrive;
        count[t->part]++;
    }
    /* the arrival times per partition, in order (for the flush buffer) */
    uint64_t *arr = g->dab_arr, *base = last_in; /* reused: where each partition's run starts */
    uint64_t run = 0;
    for (uint32_t p = 0; p < np; p++) {
        base[p] = run;
        run += count[p];
        count[p] = base[p];
    }
    for (i = 0; i < nt; i++)
        arr[count[pt[i]->part]++] = pt[i]->arrive;
    if (g->dab_no_reorder) /* the limit study: applied in arrival order */
        for (i = 0; i < nt; i++)
            pt[i]->seq = i;
    qsort(pt, nt, sizeof *pt, by_order);
    /* apply, partition by partition, in its order; its atomic unit takes a
     * transaction a cycle, once every pre-flush count is in; those that
     * arrived and wait for their turn sit in its flush buffer */
    uint64_t end = push_end;
    for (uint32_t p = 0; p < np; p++) {
        uint64_t busy = ready[p], applied = 0, seen = base[p], stop = count[p];
        for (i = 0; i < nt; i++) {
            dab_txn *t = pt[i];
            if (t->part != p)
                continue;
            if (t->arrive < ready[p])
                g->st->dab_preflush_wait_cycles += ready[p] - t->arrive;
            uint64_t start = MAX(busy, t->arrive);
            while (seen < stop && arr[seen] <= start)
                seen++;
            uint64_t waiting = seen - base[p] - applied - 1;
            g->st->dab_flushbuf_max = MAX(g->st->dab_flushbuf_max, waiting);
            for (uint32_t e = 0; e < t->count; e++) {
                tm_dabentry *x = &g->dab_fe[t->first + e];
                exec_addr ad;
                ad.a[0] = x->addr;
                ad.space[0] = SP_GLOBAL;
                uint64_t old;
                if (exec_atom_global(L, x->in, 1, &ad, &x->b, &x->c, &old) < 0)
                    L->oom = 1;
            }
            busy = start + 1;
            applied++;
        }
        if (applied)
            end = MAX(end, busy + g->l2_lat + g->icnt_lat); /* the L2's access, the ack */
    }
    *pushed = push_end;
    return end;
}

/* Is warp tw stopped until the next flush (see the top)? */
static int closed(tm_sm *sm, tm_warp *tw, uint64_t end)
{
    if (!tw->tc->active || tw->w->state != WARP_RUNNING || tw->dab.wait)
        return 1;
    if (!tw->dab.gated)
        return 0;
    /* it waits for its turn: it is stopped while the turn is another's */
    uint32_t pc = tw->dab.gated - 1;
    if (!my_turn(sm, tw, sm->g->dab_kind[pc]))
        return 1;
    tm_warp_wait(sm, tw, end, LOCKSTEP_STALL_SCOREBOARD); /* its turn has come: let it see */
    sm->sched_at = MIN(sm->sched_at, end);
    sm->wake = MIN(sm->wake, end);
    return 0;
}

/* Wake every running warp of SMs [s0, s1) from t. */
static void wake_range(timing_gpu *g, uint32_t s0, uint32_t s1, uint32_t occ, uint32_t nwarps,
                       uint64_t t)
{
    for (uint32_t s = s0; s < s1; s++) {
        tm_sm *sm = &g->sms[s];
        for (uint32_t k = 0; k < occ; k++)
            for (uint32_t i = 0; sm->ctas[k].active && i < nwarps; i++) {
                tm_warp *tw = &sm->ctas[k].warps[i];
                if (tw->w->state == WARP_RUNNING) {
                    tm_warp_wait(sm, tw, t, LOCKSTEP_STALL_SCOREBOARD);
                }
            }
        sm->sched_at = MIN(sm->sched_at, t);
        sm->wake = MIN(sm->wake, t);
    }
}

/* sm's next warp after `after` (NULL: its first) in slot and warp order
 * with an atomic for the serial phase, or NULL. */
static tm_warp *sm_next_serial(tm_sm *sm, const tm_warp *after)
{
    int past = after == NULL;
    for (uint32_t k = 0; k < sm->nresident_slots; k++)
        for (uint32_t i = 0; i < sm->L.nwarps; i++) {
            tm_warp *tw = &sm->ctas[k].warps[i];
            if (!past) {
                past = tw == after;
                continue;
            }
            if (sm->ctas[k].active && tw->dab.wait == DW_USED && !tw->dab.serial_issued)
                return tw;
        }
    return NULL;
}

/* The serial phase: start the turn of the first SM from `from` on with
 * atomics to run, at t; 0 if there is none. */
static int serial_turn(timing_gpu *g, uint32_t from, uint64_t t)
{
    for (uint32_t s = from; s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        tm_warp *first = sm_next_serial(sm, NULL);
        if (!first)
            continue;
        g->dab_serial = 1;
        g->dab_serial_sm = s;
        sm->dab_serial_next = first;
        first->dab.pass_pc = first->dab.wait_pc;
        tm_warp_wait(sm, first, t, LOCKSTEP_STALL_SCOREBOARD);
        sm->sched_at = MIN(sm->sched_at, t);
        sm->wake = MIN(sm->wake, t);
        return 1;
    }
    g->dab_serial = 0;
    return 0;
}

/* Flush SMs [s0, s1) if every warp there is stopped and there is anything
 * to flush or anyone waiting; 1 if it did. */
static int try_flush(timing_gpu *g, uint32_t s0, uint32_t s1, uint32_t occ, uint32_t nwarps,
                     uint64_t end)
{
    int waiting = 0, nonempty = 0;
    for (uint32_t s = s0; s < s1; s++) {
        tm_sm *sm = &g->sms[s];
        for (uint32_t k = 0; k < sm->dab_nbuf; k++)
            nonempty |= sm->dab_buf[k].n != 0;
        for (uint32_t k = 0; k < occ; k++)
            for (uint32_t i = 0; sm->ctas[k].active && i < nwarps; i++) {
                tm_warp *tw = &sm->ctas[k].warps[i];
                if (!closed(sm, tw, end))
                    return 0;
                waiting |= tw->dab.wait != 0;
            }
    }
    if (!waiting && !nonempty)
        return 0;
    /* flushes do not overlap: the next starts when the last one's
     * acknowledgements are in (-overlap_flushes: when it is pushed) */
    uint64_t t0 = MAX(end, g->dab_overlap ? g->dab_pushed_until : g->dab_busy_until), pushed;
    if (g->dab_first_wait && t0 > g->dab_first_wait)
        g->st->dab_sync_cycles += t0 - g->dab_first_wait;
    g->dab_first_wait = 0;
    uint64_t fin = nonempty ? flush(g, s0, s1, t0, &pushed) : (pushed = t0);
    if (fin == UINT64_MAX) {
        g->L->oom = 1;
        return 0;
    }
    if (nonempty) {
        g->st->dab_flushes++;
        g->st->dab_flush_cycles += fin - t0;
        g->st->dab_ack_wait_cycles += fin - pushed;
    }
    uint64_t resume = g->dab_overlap ? pushed : fin;
    g->dab_busy_until = MAX(g->dab_busy_until, fin);
    g->dab_pushed_until = pushed;
    for (uint32_t s = s0; s < s1; s++) {
        tm_sm *sm = &g->sms[s];
        sm->dab_gate = resume;
        for (uint32_t k = 0; k < occ; k++) {
            /* a CTA barrier goes ahead when all of the CTA's warps wait at
             * one; until then they wait on, so it always completes right
             * after a flush, whatever the timing.  A warp may already be in
             * the barrier itself: under independent thread scheduling the
             * controller's execution of bar only parks a path while other
             * paths of the warp still run, the other warps go in, and this
             * warp comes back to DW_BAR when its last path arrives */
            int all_bar = 1;
            for (uint32_t i = 0; sm->ctas[k].active && i < nwarps; i++) {
                const tm_warp *tw = &sm->ctas[k].warps[i];
                all_bar &= tw->w->state == WARP_DONE || tw->w->state == WARP_BARRIER ||
                           tw->dab.wait == DW_BAR;
            }
            for (uint32_t i = 0; sm->ctas[k].active && i < nwarps; i++) {
                tm_warp *tw = &sm->ctas[k].warps[i];
                tm_dabwarp *d = &tw->dab;
                if (d->wait == DW_BAR) {
                    if (!all_bar)
                        continue;
                    /* the controller executes the barrier for the warp
                     * now, so no warp of the CTA ever waits at it in the
                     * time between: the last one releases the others */
                    d->wait = DW_NONE;
                    sm_syscall(sm, tw, &sm->L, resume); /* (it counts the instruction) */
                    continue;
                }
                if (d->wait == DW_FENCE)
                    d->pass_pc = d->wait_pc;
                if (d->wait != DW_USED)
                    d->wait = DW_NONE;
            }
        }
    }
    /* atomics whose result is used: one SM at a time, from `resume` */
    if (serial_turn(g, 0, resume)) {
        g->dab_serial_start = resume;
        for (uint32_t s = 0; s < g->nsms; s++)
            g->sms[s].dab_gate = MAX(g->sms[s].dab_gate, resume);
        return 1;
    }
    wake_range(g, s0, s1, occ, nwarps, resume);
    return 1;
}

int dab_step(timing_gpu *g, uint32_t occ, uint32_t nwarps, uint64_t end, int all_done)
{
    if (!g->dab_active)
        return 0;
    uint64_t events = 0, waits = 0;
    for (uint32_t s = 0; s < g->nsms; s++) {
        events += g->sms[s].dab_events;
        waits += g->sms[s].dab_waits;
        g->sms[s].dab_events = 0;
        g->sms[s].dab_waits = 0;
    }
    if (waits && !g->dab_first_wait)
        g->dab_first_wait = end;
    if (g->dab_serial) {
        /* the serial phase: has the SM's turn issued its atomics, and have
         * they come back? */
        tm_sm *sm = &g->sms[g->dab_serial_sm];
        if (sm->dab_serial_next)
            return 0;
        for (uint32_t k = 0; k < occ; k++)
            for (uint32_t i = 0; sm->ctas[k].active && i < nwarps; i++) {
                const tm_warp *tw = &sm->ctas[k].warps[i];
                if (tw->dab.serial_issued && (tw->loads_out || tw->stores_out))
                    return 0;
            }
        for (uint32_t k = 0; k < occ; k++)
            for (uint32_t i = 0; sm->ctas[k].active && i < nwarps; i++) {
                tm_dabwarp *d = &sm->ctas[k].warps[i].dab;
                if (d->serial_issued) {
                    d->wait = DW_NONE;
                    d->serial_issued = 0;
                    g->st->dab_serial_atomics++;
                }
            }
        if (serial_turn(g, g->dab_serial_sm + 1, end))
            return 1;
        g->st->dab_serial_cycles += end - g->dab_serial_start;
        wake_range(g, 0, g->nsms, occ, nwarps, end);
        return 1;
    }
    if (!events && !all_done)
        return 0;
    if (!g->dab_no_sync)
        return try_flush(g, 0, g->nsms, occ, nwarps, end);
    int any = 0;
    uint32_t cpc = g->cfg->cores_per_cluster;
    for (uint32_t s = 0; s < g->nsms; s += cpc)
        any |= try_flush(g, s, s + cpc, occ, nwarps, end);
    if (!any)
        g->dab_first_wait = end; /* still waiting; look again at the next event */
    return any;
}

int dab_idle(const timing_gpu *g)
{
    if (g->dab_serial)
        return 0;
    for (uint32_t s = 0; s < g->nsms; s++)
        for (uint32_t k = 0; k < g->sms[s].dab_nbuf; k++)
            if (g->sms[s].dab_buf[k].n)
                return 0;
    return 1;
}

/* ---- a launch ------------------------------------------------------------------------------ */

int dab_launch_begin(timing_gpu *g, const ir_module *m, uint32_t kernel, uint32_t occ,
                     uint32_t nwarps, uint64_t nslots)
{
    if (classify(g, m, kernel))
        return -1;
    g->dab_nslots = nslots ? nslots : 1;
    g->dab_serial = 0;
    g->dab_first_wait = 0;
    g->dab_busy_until = g->dab_pushed_until = g->now;
    uint32_t nc = g->nsms / g->cfg->cores_per_cluster;
    free(g->dab_taken);
    free(g->dab_pscratch);
    free(g->dab_round);
    g->dab_pscratch = malloc(3 * (size_t)g->nparts * sizeof *g->dab_pscratch);
    g->dab_round = malloc((size_t)g->nparts * nc * sizeof *g->dab_round);
    if (!(g->dab_taken = malloc(g->dab_entries)) || !g->dab_pscratch || !g->dab_round)
        return -1;
    for (uint32_t s = 0; s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        uint32_t nbuf = g->dab_warp_level ? occ * nwarps : g->nsched;
        if (nbuf > sm->dab_nbuf_cap) {
            tm_dabbuf *v = realloc(sm->dab_buf, nbuf * sizeof *v);
            if (!v)
                return -1;
            sm->dab_buf = v;
            for (uint32_t k = sm->dab_nbuf_cap; k < nbuf; k++)
                sm->dab_buf[k].e = NULL;
            sm->dab_nbuf_cap = nbuf;
        }
        sm->dab_nbuf = nbuf;
        for (uint32_t k = 0; k < nbuf; k++) {
            tm_dabbuf *b = &sm->dab_buf[k];
            free(b->e);
            if (!(b->e = malloc((size_t)g->dab_entries * sizeof *b->e)))
                return -1;
            b->n = 0;
            b->tier = 0;
        }
        sm->dab_gate = 0;
        sm->dab_events = 0;
        sm->dab_waits = 0;
        for (uint32_t q = 0; q < g->nsched; q++) {
            tm_dabsched *ds = &sm->dab_sched[q];
            free(ds->w);
            if (!(ds->w = malloc((size_t)(occ * nwarps / g->nsched + 1) * sizeof *ds->w)))
                return -1;
            ds->nw = 0;
            ds->token = 0;
            ds->srr = 0;
            ds->round = 0;
        }
        for (uint32_t k = 0; k < occ; k++)
            for (uint32_t i = 0; i < nwarps; i++) {
                tm_warp *tw = &sm->ctas[k].warps[i];
                uint32_t q = (k * nwarps + i) % g->nsched;
                tm_dabsched *ds = &sm->dab_sched[q];
                memset(&tw->dab, 0, sizeof tw->dab);
                tw->dab.sched = q;
                tw->dab.order = ds->nw;
                tw->dab.slotwarp = k * nwarps + i;
                ds->w[ds->nw++] = tw;
            }
    }
    return 0;
}

void dab_free(timing_gpu *g)
{
    for (uint32_t s = 0; g->sms && s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        for (uint32_t k = 0; k < sm->dab_nbuf_cap; k++)
            free(sm->dab_buf[k].e);
        free(sm->dab_buf);
        for (uint32_t q = 0; q < TM_MAX_SCHED; q++)
            free(sm->dab_sched[q].w);
    }
    free(g->dab_kind);
    free(g->dab_fe);
    free(g->dab_txn);
    free(g->dab_txp);
    free(g->dab_taken);
    free(g->dab_pscratch);
    free(g->dab_round);
    free(g->dab_arr);
}
