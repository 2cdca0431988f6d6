/*
 * sm.c -- one streaming multiprocessor of the timing model.
 *
 * Each cycle an SM (1) lets its LD/ST unit handle one coalesced line access
 * (L1 lookup, MSHR merge or allocation, a request into the out queue),
 * and (2) lets each warp scheduler issue at most one instruction from its
 * warps, chosen by the policy (LRR, GTO, two-level).  A warp may issue when
 * the scoreboard says its operands are ready, the functional unit's
 * pipeline can accept (initiation interval) and, for memory instructions,
 * the LD/ST unit is free.  Issue runs the instruction in the functional
 * core at once (arithmetic, control flow, barriers, shared memory), except
 * global memory: its data moves with the requests (sm_mem_issue prepares
 * them), and destination registers stay pending until the replies arrive.
 *
 * Ordering that makes race-free programs give functional mode's results:
 * requests from one SM to one partition arrive in order (the crossbar
 * keeps per source/destination order) and the partition serves one line's
 * requests in arrival order; a store or atomic evicts the line from this
 * SM's L1 and marks an outstanding fill of it stale, so the SM never reads
 * its own stale data.  Other SMs' L1s are not updated: that is the
 * modelled non-coherence, visible only to racy programs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/addrmap.h"
#include "util/check.h"
#include "timing/timing_int.h"
#include "util/common.h"

int sm_init(timing_gpu *g, tm_sm *sm, uint32_t id)
{
    memset(sm, 0, sizeof *sm);
    sm->id = id;
    sm->g = g;
    for (int u = 0; u < TU_COUNT; u++) {
        uint32_t n = g->units[u] ? g->units[u] : 1;
        if (!(sm->unit_free[u] = calloc(n, sizeof(uint64_t))))
            return -1;
    }
    if (g->have_l1 && !(sm->l1 = cache_create(&g->l1cfg, 1)))
        return -1;
    if (!(sm->cc = cache_create(&g->ccfg, 0)) || !(sm->tc = cache_create(&g->tcfg, 0)))
        return -1;
    sm->ntexmiss = g->tcfg.mshr_entries;
    sm->texmiss_merge = g->tcfg.mshr_max_merge;
    if (sm->ntexmiss && sm->texmiss_merge) {
        if (!(sm->texmiss = calloc(sm->ntexmiss, sizeof *sm->texmiss)))
            return -1;
        for (uint32_t i = 0; i < sm->ntexmiss; i++)
            if (!(sm->texmiss[i].wmop = calloc(sm->texmiss_merge, sizeof(tm_mop *))))
                return -1;
    } else {
        sm->ntexmiss = 0;
    }
    sm->nmshr = g->have_l1 ? g->l1cfg.mshr_entries : 0;
    if (sm->nmshr) {
        uint32_t merge = g->l1cfg.mshr_max_merge ? g->l1cfg.mshr_max_merge : 1;
        if (!(sm->mshr = calloc(sm->nmshr, sizeof *sm->mshr)) ||
            !(sm->mshr_used = calloc((sm->nmshr + 63) / 64, sizeof *sm->mshr_used)))
            return -1;
        for (uint32_t i = 0; i < sm->nmshr; i++) {
            sm->mshr[i].wmop = calloc(merge, sizeof(tm_mop *));
            sm->mshr[i].wlanes = calloc(merge, sizeof(uint32_t));
            if (!sm->mshr[i].wmop || !sm->mshr[i].wlanes)
                return -1;
        }
    }
    sm->lq_cap = 2 * WARP_SIZE + 8;
    sm->lq_blocked = TM_NEVER;
    sm->rp_at = TM_NEVER;
    if (!(sm->lq = calloc(sm->lq_cap, sizeof *sm->lq)))
        return -1;
    rng_seed(&sm->rng, g->cfg->nondet_seed, RNG_SCHED, id);
    rng_seed(&sm->skew_rng, g->cfg->nondet_seed, RNG_SKEW, id);
    rng_seed(&sm->disp_rng, g->cfg->nondet_seed, RNG_DISPATCH, id);
    sm->drift_at = TM_NEVER;
    return 0;
}

/* The L1 MSHRs' used mask (tm_sm.mshr_used). */
static void mshr_mark(tm_sm *sm, const tm_mshr *e, int used)
{
    uint32_t i = (uint32_t)(e - sm->mshr);
    if (used)
        sm->mshr_used[i / 64] |= 1ull << (i % 64);
    else
        sm->mshr_used[i / 64] &= ~(1ull << (i % 64));
}

static void mshr_clear(tm_sm *sm)
{
    for (uint32_t i = 0; i < sm->nmshr; i++)
        sm->mshr[i].used = 0;
    if (sm->nmshr)
        memset(sm->mshr_used, 0, (sm->nmshr + 63) / 64 * sizeof *sm->mshr_used);
}

/* Clock drift: the next cycle the SM loses, 1..2N cycles after `now`. */
static uint64_t next_drift(tm_sm *sm, uint64_t now)
{
    uint32_t n = sm->g->nd_drift;
    return n ? now + 1 + rng_below(&sm->skew_rng, 2 * n) : TM_NEVER;
}

void sm_nondet_begin(tm_sm *sm, uint64_t now)
{
    timing_gpu *g = sm->g;
    sm->start_at = now + (g->nd_skew ? rng_below(&sm->skew_rng, g->nd_skew + 1) : 0);
    sm->drift_at = next_drift(sm, now);
}

uint64_t sm_cta_start_cycle(tm_sm *sm, uint64_t now)
{
    timing_gpu *g = sm->g;
    uint64_t t = sm->start_at > now ? sm->start_at : now;
    if (g->nd_cta_delay)
        t += rng_below(&sm->disp_rng, g->nd_cta_delay + 1);
    return t;
}

void sm_release(tm_sm *sm)
{
    for (int u = 0; u < TU_COUNT; u++)
        free(sm->unit_free[u]);
    cache_free(sm->l1);
    cache_free(sm->cc);
    cache_free(sm->tc);
    for (uint32_t i = 0; i < sm->ntexmiss && sm->texmiss; i++)
        free(sm->texmiss[i].wmop);
    free(sm->texmiss);
    for (uint32_t i = 0; i < sm->nmshr && sm->mshr; i++) {
        free(sm->mshr[i].wmop);
        free(sm->mshr[i].wlanes);
    }
    free(sm->mshr);
    free(sm->mshr_used);
    free(sm->lq);
    free(sm->rp);
    for (uint32_t i = 0; i < sm->nmops; i++)
        free(sm->mops[i]);
    free(sm->mops);
    for (int s = 0; s < TM_MAX_SCHED; s++)
        free(sm->sched[s]);
    for (uint32_t i = 0; i < sm->nreqs; i++)
        free(sm->reqs[i]);
    free(sm->reqs);
    free(sm->sys);
    free(sm->lvq_wait);
    free(sm->lvq_fail);
    free(sm->det_chain);
    sb_free(&sm->L.fault_msg);
}

/* A kernel starts: empty L1 and constant cache, fresh scheduler state. */
void sm_launch_begin(tm_sm *sm)
{
    timing_gpu *g = sm->g;
    if (sm->l1)
        cache_invalidate_all(sm->l1);
    cache_invalidate_all(sm->cc);
    cache_invalidate_all(sm->tc);
    mshr_clear(sm);
    memset(sm->stall, 0, sizeof sm->stall);
    for (uint32_t s = 0; s < g->nsched; s++) {
        /* modelled nondeterminism: the scheduler's initial state */
        sm->rr[s] = g->cfg->nondet && g->cfg->sched_start && sm->nsw ? rng_below(&sm->rng, sm->nsw)
                                                                      : 0;
        sm->last[s] = NULL;
        sm->last_reason[s] = LOCKSTEP_STALL_IDLE;
    }
    sm->wake = 0;
    sm->sched_at = 0;
    sm->rq_on = g->policy != 2 && !g->det && !g->dab && sm->nsw <= 64;
    sm->rq_live = 0;
    sm->fetch_free = 0;
    sm->out_waiters = 0;
    sm->nsys = 0;
    sm->progress_at = 0;
    memset(&sm->st, 0, sizeof sm->st);
}

/* A CTA starts in slot tc: its warps get fresh scoreboards. */
void sm_warp_bind(tm_sm *sm, tm_warp *tw, exec_warp *w, tm_cta *tc, uint64_t age)
{
    tw->w = w;
    tw->tc = tc;
    w->timing = tw;
    tw->loads_out = tw->stores_out = tw->replays = tw->rp_queued = 0;
    tw->st_parts = tw->st_past = 0;
    memset(tw->acp_n, 0, sizeof tw->acp_n);
    tw->acp_narr = tw->acp_seq = tw->acp_live = 0;
    tw->sleep_until = 0;
    tm_warp_wait(sm, tw, 0, LOCKSTEP_STALL_SCOREBOARD);
    tw->age = age;
    tw->acq_pending = 0;
    tw->ib_n = 0;
    tw->ib_ready = 0;
    tw->npc = IR_NO_PC;
    tw->ldst_pc = IR_NO_PC;
    tw->dmr_seq = tw->dmr_wr_out = tw->dmr_lo = tw->dmr_ldseq = 0;
    if (tw->rcap)
        memset(tw->rready, 0, tw->rcap * sizeof *tw->rready);
    if (tw->pcap)
        memset(tw->pready, 0, tw->pcap * sizeof *tw->pready);
}

/* Grow the scoreboard to the warp's register file (calls can grow it). */
static int sb_fit(tm_warp *tw)
{
    exec_warp *w = tw->w;
    if (tw->rcap < w->regs_cap) {
        uint64_t *r = realloc(tw->rready, w->regs_cap * sizeof *r);
        if (!r)
            return -1;
        memset(r + tw->rcap, 0, (w->regs_cap - tw->rcap) * sizeof *r);
        tw->rready = r;
        tw->rcap = w->regs_cap;
    }
    if (tw->pcap < w->preds_cap) {
        uint64_t *p = realloc(tw->pready, w->preds_cap * sizeof *p);
        if (!p)
            return -1;
        memset(p + tw->pcap, 0, (w->preds_cap - tw->pcap) * sizeof *p);
        tw->pready = p;
        tw->pcap = w->preds_cap;
    }
    return 0;
}

/* A warp of tc ended, or an ended warp's last memory operation completed,
 * at cycle t: the CTA finishes if that was the last thing it did. */
static void cta_maybe_finished(tm_sm *sm, tm_cta *tc, uint64_t t)
{
    sm->retire_hint = 1;
    tc->done_at = MAX(tc->done_at, t);
    if (tc->finished)
        return;
    for (uint32_t i = 0; i < sm->L.nwarps; i++) {
        const tm_warp *tw = &tc->warps[i];
        if (tw->w->state != WARP_DONE || tw->loads_out || tw->stores_out)
            return; /* (warps at a barrier are not finished: a deadlock is the serial step's) */
    }
    tc->finished = 1;
    sm_settle(sm, sm->now); /* the cycles before this one count with it running */
    sm->nfinished++;
}

void sm_cta_stop(tm_sm *sm, tm_cta *tc, uint64_t t)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < sm->nsys; i++) /* its built-in calls are not run */
        if (sm->sys[i]->tc != tc)
            sm->sys[kept++] = sm->sys[i];
    sm->nsys = kept;
    for (uint32_t i = 0; i < sm->L.nwarps; i++) {
        tm_warp *tw = &tc->warps[i];
        tw->w->state = WARP_DONE;
        sm_warp_park(sm, tw);
    }
    cta_maybe_finished(sm, tc, t);
}

int sm_busy(const tm_sm *sm)
{
    return sm->lq_n || sm->rp_n || sm->out.n || sm->nresident;
}

/* ---- memory operations ------------------------------------------------------------- */

static tm_mop *mop_new(tm_sm *sm)
{
    tm_mop *m = sm->free_mops;
    if (m) {
        sm->free_mops = m->next_free;
    } else {
        if (sm->nmops == sm->mops_cap) {
            uint32_t cap = sm->mops_cap ? 2 * sm->mops_cap : 64;
            tm_mop **v = realloc(sm->mops, cap * sizeof *v);
            if (!v)
                return NULL;
            sm->mops = v;
            sm->mops_cap = cap;
        }
        if (!(m = malloc(sizeof *m)))
            return NULL;
        sm->mops[sm->nmops++] = m;
    }
    memset(m, 0, offsetof(tm_mop, ad));
    return m;
}

void sm_reset_inflight(tm_sm *sm)
{
    sm->free_mops = NULL;
    for (uint32_t i = 0; i < sm->nmops; i++) {
        sm->mops[i]->next_free = sm->free_mops;
        sm->free_mops = sm->mops[i];
    }
    sm->lq_n = 0;
    sm->rp_n = 0;
    sm->rp_at = TM_NEVER;
    sm->lq_blocked = TM_NEVER;
    sm->out.head = sm->out.tail = NULL;
    sm->out.n = 0;
    mshr_clear(sm);
    for (uint32_t i = 0; i < sm->ntexmiss; i++)
        sm->texmiss[i].req = NULL;
    sm->texmiss_used = 0;
    sm->ldst_busy_until = 0;
}

/* -lockstep_cta_fence_local: a CTA-scope fence (membar.cta, fence.*.cta)
 * orders the warp's accesses only for its own CTA, whose warps share this
 * SM's L1 and its path to the L2, and that path keeps one line's requests
 * in order (sm_req_input).  So it waits for the warp's loads, and for its
 * stores and atomics to pass the LD/ST unit (where the L1 drops or updates
 * the line), not for the L2 to acknowledge them: another CTA may see them
 * in another order (the thesis's inter-CTA tests with .cta fences, Fermi
 * and Kepler, sec. 4.3-4.5). */
static int cta_fence_is_local(const timing_gpu *g, const ir_insn *in, uint32_t props)
{
    return g->cfg->cta_fence_local && (props & OPF_FENCE) && in->scope == SCOPE_CTA;
}

static int cta_fence_passes(const tm_warp *tw)
{
    return !tw->loads_out && tw->st_parts == tw->st_past;
}

/* What tw waits for at a fence may be over from t on: it looks again then
 * (a fence that still cannot pass waits again: can_issue_checks decides). */
static void fence_wake(tm_sm *sm, tm_warp *tw, uint64_t t)
{
    if (tw->ready_why != LOCKSTEP_STALL_FENCE || tw->ready_at <= t)
        return;
    tm_warp_wait(sm, tw, t, LOCKSTEP_STALL_SCOREBOARD);
    if (sm->wake > t)
        sm->wake = t;
    if (sm->sched_at > t)
        sm->sched_at = t;
}

/* A store part of tw's passed the unit or finished at t. */
static void cta_fence_check(tm_sm *sm, tm_warp *tw, uint64_t t)
{
    if (sm->g->cfg->cta_fence_local && cta_fence_passes(tw))
        fence_wake(sm, tw, t);
}

/* One request of m is done; its value is available at t. */
static void mop_part_done(tm_sm *sm, tm_mop *m, uint64_t t)
{
    if (t > m->done_at)
        m->done_at = t;
    LS_ASSERT(m->pending > 0);
    if (m->is_store) {
        LS_ASSERT(m->tw->st_parts > 0);
        m->tw->st_parts--;
        cta_fence_check(sm, m->tw, t);
    }
    if (--m->pending)
        return;
    if (m->lv && dmr_lvq_done(sm, m))
        return; /* a DMR copy 1's load waits for copy 0's values */
    sm_mop_finish(sm, m, t);
}

/* A cp.async copy of tw's is done: out of its group, and the arrivals
 * (cp.async.mbarrier.arrive) that waited for it and nothing else happen,
 * in issue order. */
static void acp_done(tm_sm *sm, tm_warp *tw, const tm_mop *m)
{
    tw->acp_n[m->acp_group % TM_ACP_SLOTS]--;
    tw->acp_live--;
    uint32_t k = 0;
    for (uint32_t i = 0; i < tw->acp_narr; i++) {
        struct tm_acparrive *e = &tw->acp_arr[i];
        if (m->acp_seq < e->seq && !--e->left) {
            /* a fault stops the launch; the SM's loop sees it */
            exec_acp_arrive(&sm->L, tw->tc->c, tw->w, e->in, e->lanes, &e->ad, 1);
            continue;
        }
        if (k != i)
            tw->acp_arr[k] = *e;
        k++;
    }
    tw->acp_narr = k;
}

void sm_mop_finish(tm_sm *sm, tm_mop *m, uint64_t t)
{
    tm_warp *tw = m->tw;
    LS_ASSERT(m->is_store ? tw->stores_out > 0 : tw->loads_out > 0);
    const ir_insn *in = m->in;
    uint64_t done = m->done_at;
    int nd = ptx_op_props(in->op) & (OPF_LOAD | OPF_SAMPLE) ? in->vec : in->op == OP_ATOM ? 1 : 0;
    for (int i = 0; i < nd; i++)
        if (in->d[i].kind == IRO_REG)
            tw->rready[m->reg_base + in->d[i].idx] = done;
    if (m->is_store)
        tw->stores_out--;
    else
        tw->loads_out--;
    if (m->acp)
        acp_done(sm, tw, m);
    if (m->replayed)
        tw->replays--;
    if (!tw->loads_out && !tw->stores_out && tw->w->state != WARP_RUNNING)
        cta_maybe_finished(sm, tw->tc, t);
    if (m->acquire) {
        tw->acq_pending = 0;
        if (m->acquire == 2 && sm->l1) { /* gpu or sys scope */
            cache_invalidate_all(sm->l1);
            for (uint32_t i = 0; i < sm->nmshr; i++)
                sm->mshr[i].stale = 1;
        }
    }
    /* a reply can end a wait for operands or a fence, not one for the LD/ST
     * unit, a functional unit or a fetch: those keep their time */
    if ((tw->ready_at > done || tw->ready_at == TM_NEVER) &&
        (tw->ready_why == LOCKSTEP_STALL_SCOREBOARD || tw->ready_why == LOCKSTEP_STALL_FENCE)) {
        tm_warp_wait(sm, tw, done, LOCKSTEP_STALL_SCOREBOARD);
    }
    if (sm->wake > done)
        sm->wake = done;
    if (sm->sched_at > done)
        sm->sched_at = done;
    m->next_free = sm->free_mops;
    sm->free_mops = m;
}

/* A reply brought global values for lanes of load m (lane l's at bytes +
 * m->ad.a[l] - base): its destinations take them, unless DMR's load-value
 * replication holds them until the mop is done (dmr.c). */
static inline void load_reply(tm_sm *sm, tm_mop *m, uint32_t lanes, uint64_t base,
                              const uint8_t *bytes)
{
    if (m->acp) {
        /* a cp.async copy: shared memory takes the bytes */
        exec_acp_deliver(&sm->L, m->tw->tc->c, lanes, &m->ad, m->b, m->cv, base, TM_LINE, bytes);
        return;
    }
    if (m->lv && dmr_lvq_reply(m, lanes, base, bytes))
        return;
    exec_reply_load(&sm->L, m->tw->tc->c, m->tw->w, m->reg_base, m->in, lanes, &m->ad, base,
                    bytes);
}

/* The texture read r is back: the fetches merged into it are done too. */
static void texmiss_done(tm_sm *sm, const tm_req *r, uint64_t now)
{
    for (uint32_t k = 0, seen = 0; k < sm->ntexmiss && seen < sm->texmiss_used; k++) {
        tm_texmiss *t = &sm->texmiss[k];
        if (!t->req)
            continue;
        seen++;
        if (t->req != r)
            continue;
        t->req = NULL;
        sm->texmiss_used--;
        for (uint32_t i = 0; i < t->nw; i++)
            mop_part_done(sm, t->wmop[i], now);
        t->nw = 0;
        return;
    }
}

/* Which partition serves an address, and a request's crossbar size. */
static tm_req *req_make(tm_sm *sm, tm_mop *m, uint64_t line, uint8_t type, uint8_t flags)
{
    timing_gpu *g = sm->g;
    tm_req *r = tm_req_new(sm);
    if (!r)
        return NULL;
    r->mop = m;
    r->line = line;
    /* placement (partition, sets, banks) goes by the modelled physical
     * address, never by where the host put pinned or managed memory */
    r->pline = devmem_phys(sm->L.dm, line, &sm->phys_hint);
    r->sm = sm->id;
    r->part = tm_part_of(g, r->pline);
    r->type = type;
    r->flags = flags;
    r->lanes = r->sectors = 0;
    r->mshr = -1;
    r->bmask[0] = r->bmask[1] = 0;
    m->pending++;
    if (m->is_store)
        m->tw->st_parts++;
    return r;
}

static int lq_push(tm_sm *sm, tm_req *r, int cached)
{
    if (sm->lq_n == sm->lq_cap)
        return -1;
    tm_lacc *a = &sm->lq[(sm->lq_head + sm->lq_n) % sm->lq_cap];
    a->req = r;
    a->cached = (uint8_t)cached;
    a->counted = 0;
    sm->lq_n++;
    return 0;
}

/* Does this load go through the L1 (principle 3: cached data may be stale)? */
static int l1_cacheable(const timing_gpu *g, const ir_insn *in)
{
    if (!g->have_l1 || g->cfg->gmem_skip_l1 || !(ptx_op_props(in->op) & OPF_LOAD))
        return 0;
    if (in->cache == CACHE_CG || in->cache == CACHE_CV || (in->flags & IRF_VOLATILE))
        return 0;
    return in->sem == SEM_NONE || in->sem == SEM_WEAK;
}

/* Shared-memory bank conflicts: the most distinct 4-byte words any bank
 * must deliver (lanes reading the same word share it: broadcast). */
static uint32_t bank_degree(const timing_gpu *g, const exec_addr *ad, uint32_t lanes,
                            uint32_t size)
{
    uint32_t nb = g->cfg->smem_banks;
    uint32_t seen[64][4];
    uint8_t cnt[64];
    uint32_t deg = 1;
    memset(cnt, 0, sizeof cnt);
    uint32_t words = size >= 4 ? size / 4 : 1;
    for (uint32_t m = lanes; m; m &= m - 1) {
        int l = ctz32(m);
        for (uint32_t k = 0; k < words; k++) {
            uint32_t word = (uint32_t)(ad->a[l] / 4) + k;
            uint32_t b = word % nb;
            int dup = 0;
            for (uint32_t j = 0; j < cnt[b] && j < 4; j++)
                dup |= seen[b][j] == word;
            if (dup)
                continue;
            if (cnt[b] < 4)
                seen[b][cnt[b]] = word;
            if (cnt[b] < 255)
                cnt[b]++;
            if (cnt[b] > deg)
                deg = cnt[b];
        }
    }
    return deg;
}

/* Can the instruction's later passes be replayed, and pass or be passed by
 * the warp's other loads (-lockstep_ldst_replay)?  Plain loads only. */
static inline int replayable(const ir_insn *in)
{
    return in->op == OP_LD || in->op == OP_LDU;
}

/* Replayed loads (-lockstep_ldst_replay): which pass of the LD/ST unit
 * reads each shared lane's words (*pass, its highest word's; a bank
 * delivers its distinct words one a pass, in order of the first lane
 * asking; lanes reading one word share it).  Returns the lanes of passes
 * after the first. */
static uint32_t smem_passes(const timing_gpu *g, const exec_addr *ad, uint32_t lanes,
                            uint32_t size, uint8_t *pass)
{
    uint32_t nb = g->cfg->smem_banks;
    uint32_t word[WARP_SIZE * 8];
    uint8_t rank[WARP_SIZE * 8], cnt[64];
    uint32_t nw = 0, later = 0;
    memset(cnt, 0, sizeof cnt);
    uint32_t words = size >= 4 ? size / 4 : 1;
    for (uint32_t m = lanes; m; m &= m - 1) {
        int l = ctz32(m);
        pass[l] = 0;
        for (uint32_t k = 0; k < words; k++) {
            uint32_t wd = (uint32_t)(ad->a[l] / 4) + k, j = 0;
            while (j < nw && word[j] != wd)
                j++;
            if (j == nw) {
                LS_ASSERT(nw < WARP_SIZE * 8);
                word[nw] = wd;
                rank[nw++] = cnt[wd % nb]++;
            }
            if (rank[j] > pass[l])
                pass[l] = rank[j];
        }
        if (pass[l])
            later |= 1u << l;
    }
    return later;
}

/* Queue a later pass of load m for cycle `at`: line request r, or shared
 * lanes (r NULL).  The queue stays in time order, passes of one cycle in
 * the order queued. */
static int replay_push(tm_sm *sm, uint64_t at, tm_mop *m, tm_req *r, uint32_t lanes,
                       uint32_t pc, int cached)
{
    if (vec_grow_((void **)&sm->rp, &sm->rp_cap, sm->rp_n + 1ull, sizeof *sm->rp))
        return -1;
    uint32_t i = sm->rp_n++;
    while (i > 0 && sm->rp[i - 1].at > at) {
        sm->rp[i] = sm->rp[i - 1];
        i--;
    }
    sm->rp[i] = (tm_replay){.at = at, .m = m, .r = r, .lanes = lanes, .pc = pc,
                            .cached = (uint8_t)cached};
    sm->rp_at = sm->rp[0].at;
    if (!m->replayed) {
        m->replayed = 1;
        m->tw->replays++;
    }
    m->tw->rp_queued++;
    if (!r) {
        m->pending++; /* a line request counted itself (req_make) */
        if (m->is_store)
            m->tw->st_parts++;
    }
    sm->st.ldst_replays++;
    return 0;
}

/* A replayed pass of tw's re-entered the LD/ST unit at `now`: with none
 * left outside it, a plain store of tw waiting for them may go from the
 * next cycle on (the unit and the paths behind it keep the order, so the
 * store stays behind them). */
static void replay_entered(tm_sm *sm, tm_warp *tw, uint64_t now)
{
    LS_ASSERT(tw->rp_queued > 0);
    if (!--tw->rp_queued)
        fence_wake(sm, tw, now + 1);
}

/* The replayed passes due at `now` re-enter the LD/ST unit: a line request
 * joins its queue (behind whatever entered since the load issued), shared
 * lanes read their words, one pass a cycle. */
static void replay_release(tm_sm *sm, uint64_t now)
{
    uint32_t k = 0;
    for (; k < sm->rp_n && sm->rp[k].at <= now; k++) {
        const tm_replay *p = &sm->rp[k];
        tm_mop *m = p->m;
        if (p->r) {
            if (lq_push(sm, p->r, p->cached))
                break; /* the queue is full: from the next cycle on */
            replay_entered(sm, m->tw, now);
            continue;
        }
        if (sm->ldst_busy_until > now)
            break;
        tm_warp *tw = m->tw;
        LS_ASSERT(tw->w->reg_base == m->reg_base); /* calls wait for loads */
        exec_memreq rq;
        rq.in = m->in;
        rq.pc = p->pc;
        rq.lanes = p->lanes;
        rq.size = exec_mem_size(m->in);
        memcpy(&rq.ad, &m->ad, sizeof rq.ad);
        memset(rq.v, 0, sizeof rq.v);
        rq.texels = NULL;
        if (exec_mem_perform(&sm->L, tw->tc->c, tw->w, &rq)) {
            k++; /* the launch stops at its fault */
            break;
        }
        sm->ldst_busy_until = now + 1;
        replay_entered(sm, tw, now);
        mop_part_done(sm, m, now + sm->g->cfg->smem_latency);
    }
    if (k) {
        sm->rp_n -= k;
        memmove(sm->rp, sm->rp + k, sm->rp_n * sizeof *sm->rp);
    }
    sm->rp_at = sm->rp_n ? sm->rp[0].at : TM_NEVER;
}

/*
 * The memory system's stage of the seam (exec_launch.mem_issue): after
 * the interposers, shared, local and parameter accesses and constant loads
 * execute at once (no other SM can see them, or they are read-only);
 * global accesses become line requests whose data moves with them (the
 * captured store values and atomic operands go with the requests).
 * Timing-only requests model local memory traffic and constant-cache
 * misses.  *res: DONE (ready at res->ready) or PENDING (res->token, the
 * memory operation, completes with the replies).
 */
/*
 * A texture fetch (tex, tld4), its values already computed (the texture is
 * read-only while the kernel runs): the SM's texture cache is probed for
 * every line of the texels read, one line a cycle; each missing line is a
 * timing-only read through the memory system that fills the cache when it
 * returns, and the destinations are ready when the last one is back (or
 * -lockstep_tex_latency after issue when every line hit).  A line already
 * being fetched is not fetched again: the fetch waits for that read's reply
 * (the texture cache's MSHR, its entries and merges from the cache string;
 * with every entry busy or the line's merges used up a miss sends its own
 * read).  tex_cache_accesses counts lines probed, tex_cache_misses the
 * reads they sent.  With -lockstep_perfect_tex the cache is perfect and
 * zero-latency, as in Sheaffer et al.'s perfect-cache runs: every fetch
 * hits and its destinations are ready the next cycle, the LD/ST unit busy
 * for that cycle.
 */
static int tex_issue(tm_sm *sm, exec_launch *L, exec_cta *c, exec_warp *w, const exec_memreq *rq,
                     exec_memres *res)
{
    timing_gpu *g = sm->g;
    uint64_t now = sm->now;
    const exec_texels *tx = rq->texels;
    uint64_t lines[EXEC_MAX_TEXELS];
    uint32_t nl = 0;
    for (uint32_t i = 0; tx && i < tx->n; i++) {
        uint64_t line = cache_line_addr(sm->tc, tx->a[i]);
        uint32_t j = 0;
        while (j < nl && lines[j] != line)
            j++;
        if (j == nl)
            lines[nl++] = line;
    }
    sm->st.tex_accesses += nl;
    if (g->cfg->perfect_tex)
        nl = 0;
    uint64_t ready = g->cfg->perfect_tex ? now + 1 : now + g->cfg->tex_latency + (nl ? nl - 1 : 0);
    if (sm->ldst_busy_until < now + (nl ? nl : 1))
        sm->ldst_busy_until = now + (nl ? nl : 1);
    tm_mop *mop = NULL;
    for (uint32_t j = 0; j < nl; j++) {
        uint32_t valid;
        int reserved;
        if (cache_probe(sm->tc, lines[j], &valid, &reserved, 1, now) >= 0 && valid)
            continue;
        tm_texmiss *merge = NULL, *slot = NULL;
        for (uint32_t k = 0, seen = 0; k < sm->ntexmiss && seen < sm->texmiss_used; k++) {
            tm_texmiss *t = &sm->texmiss[k];
            if (!t->req)
                continue;
            seen++;
            if (t->line == lines[j] && t->nw < sm->texmiss_merge) {
                merge = t;
                break;
            }
        }
        if (!merge && sm->texmiss_used < sm->ntexmiss)
            for (uint32_t k = 0; !slot; k++)
                if (!sm->texmiss[k].req)
                    slot = &sm->texmiss[k];
        if (!mop) {
            if (!(mop = mop_new(sm)))
                goto oom;
            mop->tw = w->timing;
            mop->in = rq->in;
            mop->reg_base = w->reg_base;
            mop->is_store = 0;
        }
        if (merge) {
            merge->wmop[merge->nw++] = mop;
            mop->pending++;
            continue;
        }
        sm->st.tex_misses++;
        tm_req *r = req_make(sm, mop, lines[j] & ~(uint64_t)(TM_LINE - 1), REQ_RD, REQF_TEX);
        if (!r)
            goto oom;
        r->sectors = 0xf;
        r->lanes = 0;
        lq_push(sm, r, 0);
        if (slot) {
            slot->line = lines[j];
            slot->req = r;
            slot->nw = 0;
            sm->texmiss_used++;
        }
    }
    res->status = EXEC_MEM_DONE;
    res->ready = ready;
    res->token = NULL;
    if (mop) {
        mop->done_at = ready;
        ((tm_warp *)w->timing)->loads_out++;
        res->status = EXEC_MEM_PENDING;
        res->token = mop;
    }
    return 0;
oom:
    L->oom = 1;
    exec_fault(L, c, w, -1, rq->pc, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0, "out of host memory");
    return -1;
}

/*
 * A cp.async copy (async.c): checked whole at issue; the bytes a lane does
 * not read (src-size, ignore-src) are zeroed at once, since nothing may
 * read the destination before the copy completes; the reads go as a load's
 * line requests (through the L1 for .ca, around it for .cg) whose replies
 * write shared memory instead of registers.  The mop counts in its warp's
 * group (tm_warp.acp_n) until its last reply.  (Under GPUDet a copy that
 * reads the warp's own buffered stores is answered by the store buffer
 * instead, at once: gpudet_request.)
 */
static int acp_issue(tm_sm *sm, exec_launch *L, exec_cta *c, exec_warp *w, const exec_memreq *rq,
                     exec_memres *res)
{
    timing_gpu *g = sm->g;
    tm_warp *tw = w->timing;
    uint64_t now = sm->now;
    const ir_insn *in = rq->in;
    if (in->mode == CPA_MBAR_ARRIVE) {
        /* the increment now; the arrival when the copies in flight are done */
        if (exec_acp_arrive(L, c, w, in, rq->lanes, &rq->ad, 0))
            return -1;
        res->status = EXEC_MEM_DONE;
        res->ready = now + 1;
        res->token = NULL;
        if (!tw->acp_live)
            return exec_acp_arrive(L, c, w, in, rq->lanes, &rq->ad, 1);
        LS_ASSERT(tw->acp_narr < TM_ACP_ARRIVES); /* can_issue waited for room */
        struct tm_acparrive *e = &tw->acp_arr[tw->acp_narr++];
        e->in = in;
        e->lanes = rq->lanes;
        e->seq = tw->acp_seq;
        e->left = tw->acp_live;
        memcpy(&e->ad, &rq->ad, sizeof e->ad);
        return 0;
    }
    if (exec_acp_check(L, c, w, rq))
        return -1;
    exec_acp_zero(L, c, rq->lanes, rq->v[0], rq->v[1], rq->size);
    uint32_t glob = 0;
    for (uint32_t m = rq->lanes; m; m &= m - 1)
        if (rq->v[1][ctz32(m)])
            glob |= 1u << ctz32(m);
    sm->ldst_busy_until = now + 1;
    res->status = EXEC_MEM_DONE;
    res->ready = now + 1;
    res->token = NULL;
    if (!glob)
        return 0;
    tm_mop *mop = mop_new(sm);
    if (!mop)
        goto oom;
    mop->tw = tw;
    mop->in = in;
    mop->reg_base = w->reg_base;
    mop->is_store = 0;
    mop->values = 1;
    mop->acp = 1;
    mop->acp_group = w->acp_commits;
    memcpy(&mop->ad, &rq->ad, sizeof mop->ad);
    for (uint32_t m = glob; m; m &= m - 1) {
        int l = ctz32(m);
        mop->b[l] = rq->v[0][l];
        mop->cv[l] = rq->v[1][l];
    }
    int cached = g->have_l1 && !g->cfg->gmem_skip_l1 && in->cache == CACHE_CA;
    tm_req *reqs[WARP_SIZE];
    uint32_t nl = 0;
    for (uint32_t m = glob; m; m &= m - 1) {
        int l = ctz32(m);
        uint64_t a = rq->ad.a[l], line = a & ~(uint64_t)(TM_LINE - 1);
        uint32_t j = 0;
        while (j < nl && reqs[j]->line != line)
            j++;
        if (j == nl) {
            if (!(reqs[nl] = req_make(sm, mop, line, REQ_RD, REQF_VALUES)))
                goto oom;
            nl++;
        }
        /* an aligned copy of at most 16 bytes never leaves its line */
        uint32_t off = (uint32_t)(a - line), n = (uint32_t)rq->v[1][l];
        reqs[j]->lanes |= 1u << l;
        for (uint32_t s = off / TM_SECTOR; s <= (off + n - 1) / TM_SECTOR; s++)
            reqs[j]->sectors |= 1u << s;
    }
    for (uint32_t j = 0; j < nl; j++) {
        tm_cta *tc = tw->tc;
        if (tc->dmr_pair) {
            reqs[j]->dmr_pair = tc->dmr_pair;
            reqs[j]->dmr_copy = tc->dmr_copy;
            reqs[j]->dmr_warp = (uint16_t)w->id;
        }
        lq_push(sm, reqs[j], cached);
    }
    sm->st.mem_requests += nl;
    mop->done_at = now + 1;
    tw->loads_out++;
    tw->acp_n[mop->acp_group % TM_ACP_SLOTS]++;
    tw->acp_g[mop->acp_group % TM_ACP_SLOTS] = mop->acp_group;
    mop->acp_seq = tw->acp_seq++;
    tw->acp_live++;
    res->status = EXEC_MEM_PENDING;
    res->token = mop;
    return 0;
oom:
    L->oom = 1;
    exec_fault(L, c, w, -1, rq->pc, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
               "out of host memory in the timing model");
    return -1;
}

/* Must warp tw wait before cp.async instruction `in` issues: a wait for
 * copies of its groups still in flight (wait_group N: groups older than
 * the N most recently committed; wait_all: all), a copy whose group slot
 * an older group still holds, or a cp.async.mbarrier.arrive with no room
 * to wait for its copies? */
static int acp_blocked(const tm_warp *tw, const ir_insn *in)
{
    uint32_t commits = tw->w->acp_commits;
    if (in->mode == CPA_MBAR_ARRIVE)
        return tw->acp_narr == TM_ACP_ARRIVES;
    for (uint32_t k = 0; k < TM_ACP_SLOTS; k++) {
        if (!tw->acp_n[k])
            continue;
        switch (in->mode) {
        case CPA_COPY:
            if (k == commits % TM_ACP_SLOTS && tw->acp_g[k] != commits)
                return 1;
            break;
        case CPA_WAIT_GROUP:
            if ((uint64_t)tw->acp_g[k] + (uint64_t)in->imm < commits)
                return 1;
            break;
        case CPA_WAIT_ALL:
            return 1;
        default:
            break;
        }
    }
    return 0;
}

int sm_mem_issue(exec_launch *L, exec_cta *c, exec_warp *w, const exec_memreq *rq,
                 exec_memres *res)
{
    if (ptx_op_props(rq->in->op) & OPF_SAMPLE)
        return tex_issue(L->timing, L, c, w, rq, res);
    if (rq->in->op == OP_CP)
        return acp_issue(L->timing, L, c, w, rq, res);
    tm_sm *sm = L->timing;
    timing_gpu *g = sm->g;
    tm_warp *tw = w->timing;
    uint64_t now = sm->now;
    lockstep_timing_stats *st = &sm->st;
    const ir_insn *in = rq->in;
    const exec_addr *ad = &rq->ad;
    uint32_t active = rq->lanes, props = ptx_op_props(in->op);
    if (exec_mem_check(L, c, w, in, active, ad))
        return -1;
    uint32_t glob = 0, shared = 0, local = 0, param = 0;
    for (uint32_t m = active; m; m &= m - 1) {
        int l = ctz32(m);
        switch (ad->space[l]) {
        case SP_SHARED: shared |= 1u << l; break;
        case SP_LOCAL: local |= 1u << l; break;
        case SP_KPARAM: param |= 1u << l; break;
        default: glob |= 1u << l; break;
        }
    }
    int is_const = in->space == SP_CONST;
    uint32_t size = exec_mem_size(in);
    /* -lockstep_ldst_replay: a load's passes after the first replay */
    const uint32_t replay = g->cfg->ldst_replay;
    uint32_t deg = 1, shared_later = 0;
    uint8_t pass[WARP_SIZE];
    if (shared) {
        deg = bank_degree(g, ad, shared, size);
        if (deg > 1 && replay && replayable(in))
            shared_later = smem_passes(g, ad, shared, size, pass);
    }
    uint32_t at_once = (shared & ~shared_later) | local | param | (is_const ? glob : 0);
    if (at_once == active) {
        if (exec_mem_perform(L, c, w, rq))
            return -1;
    } else if (at_once) {
        exec_memreq part = *rq;
        part.lanes = at_once;
        if (exec_mem_perform(L, c, w, &part))
            return -1;
    }
    uint64_t ready = now + 1;
    if (shared) {
        st->shmem_accesses++;
        st->shmem_conflict_cycles += deg - 1;
        /* replayed, the unit is busy for the first pass only */
        uint32_t passes = shared_later ? 1 : deg;
        if (ready < now + g->cfg->smem_latency + passes - 1)
            ready = now + g->cfg->smem_latency + passes - 1;
        sm->ldst_busy_until = now + passes;
    }
    if (param && ready < now + g->cfg->const_latency)
        ready = now + g->cfg->const_latency;

    tm_mop *mop = NULL;
#define NEED_MOP()                                                                         \
    do {                                                                                   \
        if (!mop) {                                                                        \
            if (!(mop = mop_new(sm)))                                                      \
                goto oom;                                                                  \
            mop->tw = tw;                                                                  \
            mop->in = in;                                                                  \
            mop->reg_base = w->reg_base;                                                   \
            mop->is_store = !(props & OPF_LOAD);                                           \
        }                                                                                  \
    } while (0)

    if (shared_later) {
        /* pass k re-enters the unit replay + k - 1 cycles after issue */
        NEED_MOP();
        memcpy(&mop->ad, ad, sizeof *ad);
        for (uint32_t k = 1; k < deg; k++) {
            uint32_t lanes = 0;
            for (uint32_t m = shared_later; m; m &= m - 1)
                if (pass[ctz32(m)] == k)
                    lanes |= 1u << ctz32(m);
            if (lanes && replay_push(sm, now + replay + k - 1, mop, NULL, lanes, rq->pc, 0))
                goto oom;
        }
    }

    if (is_const && glob) {
        /* the constant cache delivers one address per cycle */
        uint64_t lines[WARP_SIZE];
        uint32_t nl = 0, naddr = 0;
        uint64_t addrs[WARP_SIZE];
        for (uint32_t m = glob; m; m &= m - 1) {
            int l = ctz32(m);
            int dup = 0;
            for (uint32_t j = 0; j < naddr; j++)
                dup |= addrs[j] == ad->a[l];
            if (!dup)
                addrs[naddr++] = ad->a[l];
            uint64_t line = cache_line_addr(sm->cc, ad->a[l]);
            dup = 0;
            for (uint32_t j = 0; j < nl; j++)
                dup |= lines[j] == line;
            if (!dup)
                lines[nl++] = line;
        }
        st->const_accesses++;
        if (ready < now + g->cfg->const_latency + naddr - 1)
            ready = now + g->cfg->const_latency + naddr - 1;
        if (sm->ldst_busy_until < now + naddr)
            sm->ldst_busy_until = now + naddr;
        for (uint32_t j = 0; j < nl; j++) {
            uint32_t valid;
            int reserved;
            if (cache_probe(sm->cc, lines[j], &valid, &reserved, 1, now) >= 0 && valid)
                continue;
            st->const_misses++;
            NEED_MOP();
            tm_req *r = req_make(sm, mop, lines[j] & ~(uint64_t)(TM_LINE - 1), REQ_RD, REQF_CONST);
            if (!r)
                goto oom;
            r->sectors = 1u << ((lines[j] & (TM_LINE - 1)) / TM_SECTOR);
            r->lanes = 0;
            lq_push(sm, r, 0);
        }
        glob = 0;
    }

    if (local) {
        /* local memory as the hardware lays it out: word k of every lane of
         * a warp side by side, so a warp's same-offset access is one line */
        NEED_MOP();
        uint64_t wslot = ((uint64_t)c->smid * 1024 + (uint64_t)(tw->tc - sm->ctas)) * 64 + w->id;
        uint64_t words = (L->local_bytes + 3) / 4;
        uint64_t lines[WARP_SIZE];
        uint32_t lanes_of[WARP_SIZE], nl = 0;
        for (uint32_t m = local; m; m &= m - 1) {
            int l = ctz32(m);
            uint64_t ta = ADDR_LOCAL_WINDOW + ((wslot * words + ad->a[l] / 4) * WARP_SIZE + l) * 4;
            uint64_t line = ta & ~(uint64_t)(TM_LINE - 1);
            uint32_t j = 0;
            while (j < nl && lines[j] != line)
                j++;
            if (j == nl) {
                lines[nl] = line;
                lanes_of[nl++] = 0;
            }
            lanes_of[j] |= 1u << l;
        }
        for (uint32_t j = 0; j < nl; j++) {
            tm_req *r = req_make(sm, mop, lines[j], props & OPF_LOAD ? REQ_RD : REQ_WR, 0);
            if (!r)
                goto oom;
            r->lanes = lanes_of[j];
            r->sectors = 0xf;
            if (r->type == REQ_WR)
                r->bmask[0] = r->bmask[1] = ~0ull;
            lq_push(sm, r, (props & OPF_LOAD) && g->have_l1);
        }
    }

    if (glob) {
        NEED_MOP();
        mop->values = 1;
        memcpy(&mop->ad, ad, sizeof *ad);
        /* the PTX memory model's acquire (ld.acquire, atom.acquire/.acq_rel)
         * on any configuration: a Fermi config keeps Fermi's incoherent L1
         * for the instructions Fermi had (membar, ld.ca), but code built
         * for the scoped model (grid.sync(), cuda::atomic) gets its
         * semantics */
        if (((props & OPF_LOAD) && in->sem == SEM_ACQUIRE) ||
            ((props & OPF_ATOMIC) && (in->sem == SEM_ACQUIRE || in->sem == SEM_ACQ_REL))) {
            mop->acquire = in->scope == SCOPE_CTA ? 1 : 2;
            tw->acq_pending = 1;
        }
        uint8_t type = props & OPF_LOAD ? REQ_RD : props & OPF_STORE ? REQ_WR : REQ_ATOM;
        if (type == REQ_ATOM) {
            /* the operands captured at issue travel with the requests */
            for (uint32_t m = glob; m; m &= m - 1) {
                int l = ctz32(m);
                mop->b[l] = rq->v[0][l];
                mop->cv[l] = rq->v[1] ? rq->v[1][l] : 0;
            }
        }
        tm_cta *tc = tw->tc;
        if (type == REQ_RD && g->dmr_lvr && tc->dmr_pair) {
            /* DMR load-value replication: the load's key and value buffer */
            if (g->dmr_flip_load && tc->c->linear == 0 && tc->dmr_copy == 1 &&
                g->dmr_pairs[tc->dmr_pair].reissues == 0 && ++tc->flip_loads == g->dmr_flip_load) {
                /* -dmr_flip_load: a test knob, an address fault in one copy's load (the
                 * neighbouring element: the same line, the same alignment) */
                mop->ad.a[ctz32(glob)] ^= size;
                ad = &mop->ad;
            }
            if (dmr_lvq_issue(tw, mop))
                goto oom;
        }
        int cached = l1_cacheable(g, in);
        /* coalesce: one request per 128-byte line, in order of first lane */
        tm_req *reqs[WARP_SIZE];
        uint32_t nl = 0;
        for (uint32_t m = glob; m; m &= m - 1) {
            int l = ctz32(m);
            uint64_t line = ad->a[l] & ~(uint64_t)(TM_LINE - 1);
            uint32_t j = 0;
            while (j < nl && reqs[j]->line != line)
                j++;
            if (j == nl) {
                if (!(reqs[nl] = req_make(sm, mop, line, type, REQF_VALUES)))
                    goto oom;
                nl++;
            }
            tm_req *r = reqs[j];
            uint32_t off = (uint32_t)(ad->a[l] - line);
            r->lanes |= 1u << l;
            for (uint32_t s = off / TM_SECTOR; s <= (off + size - 1) / TM_SECTOR; s++)
                r->sectors |= 1u << s;
            if (type == REQ_WR) {
                exec_store_bytes(rq, l, r->data + off);
                for (uint32_t b = off; b < off + size; b++)
                    r->bmask[b >> 6] |= 1ull << (b & 63);
            }
        }
        uint32_t first = tw->dmr_seq; /* DMR: the instruction's first write request */
        for (uint32_t j = 0; j < nl; j++) {
            tm_req *r = reqs[j];
            if (tc->dmr_pair) {
                /* DMR: the comparator's key (dmr.c) */
                r->dmr_pair = tc->dmr_pair;
                r->dmr_copy = tc->dmr_copy;
                r->dmr_warp = (uint16_t)w->id;
                if (type != REQ_RD) {
                    if (vec_grow_((void **)&tw->dmr_acks, &tw->dmr_acks_cap, tw->dmr_seq + 1ull,
                                  sizeof *tw->dmr_acks))
                        goto oom;
                    tw->dmr_acks[tw->dmr_seq] = TM_NEVER;
                    r->dmr_seq = tw->dmr_seq++;
                    r->dmr_first = first;
                    tw->dmr_wr_out++;
                    tw->dmr_gen++;
                }
            }
            if (type == REQ_WR && g->dmr_flip && tc->c->linear == 0 &&
                (!g->dmr || (tc->dmr_copy == 1 && g->dmr_pairs[tc->dmr_pair].reissues == 0)) &&
                ++tc->flip_stores == g->dmr_flip) {
                /* -dmr_flip_store: a test knob, a fault in one copy's store */
                uint32_t b0 = r->bmask[0] ? (uint32_t)__builtin_ctzll(r->bmask[0])
                                          : 64 + (uint32_t)__builtin_ctzll(r->bmask[1]);
                r->data[b0] ^= 1;
            }
            if (type != REQ_RD && g->dmr_flip_line && tc->dmr_pair && tc->c->linear == 0 &&
                tc->dmr_copy == 1 && g->dmr_pairs[tc->dmr_pair].reissues == 0 &&
                ++tc->flip_writes == g->dmr_flip_line) {
                /* -dmr_flip_line: a test knob, an address fault in one copy's write */
                r->line += TM_LINE;
                r->pline = devmem_phys(sm->L.dm, r->line, &sm->phys_hint);
                r->part = tm_part_of(g, r->pline);
            }
            if (j > 0 && replay && type == REQ_RD && replayable(in)) {
                /* line j re-enters the unit replay + j - 1 cycles after issue */
                if (replay_push(sm, now + replay + j - 1, mop, r, 0, rq->pc, cached))
                    goto oom;
            } else {
                lq_push(sm, r, cached);
            }
        }
        st->mem_requests += nl;
    }
    res->status = EXEC_MEM_DONE;
    res->ready = ready;
    res->token = NULL;
    if (mop) {
        mop->done_at = ready;
        if (mop->is_store)
            tw->stores_out++;
        else
            tw->loads_out++;
        res->status = EXEC_MEM_PENDING;
        res->token = mop;
    }
    return 0;
#undef NEED_MOP
oom:
    L->oom = 1;
    exec_fault(L, c, w, -1, exec_insn_pc(L, in), LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
               "out of host memory in the timing model");
    return -1;
}

/* ---- the LD/ST unit ---------------------------------------------------------------- */

static void mark_stale(tm_sm *sm, uint64_t line)
{
    for (uint32_t w = 0; w * 64 < sm->nmshr; w++)
        for (uint64_t m = sm->mshr_used[w]; m; m &= m - 1) {
            tm_mshr *e = &sm->mshr[w * 64 + (uint32_t)__builtin_ctzll(m)];
            if (e->line == line)
                e->stale = 1;
        }
}

/* Handle the oldest queued line access; returns 0 when it must wait. */
static int ldst_step(tm_sm *sm, uint64_t now)
{
    timing_gpu *g = sm->g;
    lockstep_timing_stats *st = &sm->st;
    tm_lacc *a = &sm->lq[sm->lq_head];
    tm_req *r = a->req;
    tm_mop *m = r->mop;
    if (sm->out.n >= g->cfg->ldst_queue)
        return 0;
    if (r->type == REQ_RD && a->cached && sm->l1) {
        uint32_t valid = 0;
        int reserved = 0;
        int idx = cache_probe(sm->l1, r->pline, &valid, &reserved, 1, now);
        int count = (r->flags & REQF_VALUES) && !a->counted;
        a->counted = 1;
        if (count)
            st->l1d_accesses++;
        uint32_t need = cache_sectors_of(sm->l1, r->sectors, TM_SECTOR);
        if (idx >= 0 && !reserved && (valid & need) == need) {
            /* hit: the value is the L1's copy, now */
            if (m->values)
                load_reply(sm, m, r->lanes, r->line, cache_data(sm->l1, idx));
            mop_part_done(sm, m, now + g->cfg->l1_latency);
            tm_req_free(sm, r);
            goto done;
        }
        if (count)
            st->l1d_misses++;
        tm_mshr *hit = NULL;
        for (uint32_t w = 0; w * 64 < sm->nmshr && !hit; w++)
            for (uint64_t mu = sm->mshr_used[w]; mu; mu &= mu - 1) {
                tm_mshr *e = &sm->mshr[w * 64 + (uint32_t)__builtin_ctzll(mu)];
                if (e->line == r->pline && !e->stale) {
                    hit = e;
                    break;
                }
            }
        uint32_t merge = g->l1cfg.mshr_max_merge ? g->l1cfg.mshr_max_merge : 1;
        /* DMR: a reply may carry a copy's own unconfirmed writes
         * (dmr_overlay): only the same CTA's accesses share it */
        if (hit && (hit->sectors & r->sectors) == r->sectors && hit->nw < merge &&
            (!g->dmr || hit->wmop[0]->tw->tc == m->tw->tc)) {
            hit->wmop[hit->nw] = m;
            hit->wlanes[hit->nw++] = r->lanes;
            if (r->flags & REQF_VALUES)
                st->l1d_pending_hits++;
            tm_req_free(sm, r);
            goto done;
        }
        if (!hit && !reserved) {
            tm_mshr *e = NULL;
            for (uint32_t w = 0; w * 64 < sm->nmshr; w++) {
                uint64_t fr = ~sm->mshr_used[w];
                if (sm->nmshr - w * 64 < 64)
                    fr &= (1ull << (sm->nmshr - w * 64)) - 1;
                if (fr) {
                    e = &sm->mshr[w * 64 + (uint32_t)__builtin_ctzll(fr)];
                    break;
                }
            }
            if (!e) {
                st->l1d_reservation_fails++;
                sm->lq_blocked = now;
                return 0;
            }
            cache_victim ev;
            if (idx >= 0)
                cache_invalidate(sm->l1, r->pline, &ev);
            int li = cache_allocate(sm->l1, r->pline, 1, &ev, now);
            if (ev.valid && ev.dirty) /* only GPUDet's store-buffer lines are dirty */
                st->det_sb_l1_writebacks++;
            if (li < 0) {
                st->l1d_reservation_fails++;
                sm->lq_blocked = now;
                return 0;
            }
            e->used = 1;
            mshr_mark(sm, e, 1);
            e->stale = 0;
            e->line = r->pline;
            e->l1line = li;
            if (g->l1cfg.type != 'S')
                r->sectors = (1u << (TM_LINE / TM_SECTOR)) - 1;
            e->sectors = r->sectors;
            e->nw = 1;
            e->wmop[0] = m;
            e->wlanes[0] = r->lanes;
            r->mshr = (int32_t)(e - sm->mshr);
        }
        /* else: a fill of this line is outstanding but cannot take this
         * access (other sectors, merge limit, or stale): an uncached request */
    } else if (r->type != REQ_RD) {
        /* stores and atomics: write-evict (write-through updates in place),
         * and a fill of the line in flight no longer installs */
        if (sm->l1) {
            uint32_t valid;
            int reserved;
            int idx = cache_probe(sm->l1, r->pline, &valid, &reserved, 0, now);
            if (idx >= 0) {
                /* DMR: a copy's unconfirmed store must not reach another
                 * CTA through the L1: evict instead */
                if (r->type == REQ_WR && g->l1cfg.write_policy == 'T' && !reserved && !g->dmr) {
                    uint8_t *d = cache_data(sm->l1, idx);
                    for (uint32_t b = 0; b < TM_LINE; b++)
                        if ((r->bmask[b >> 6] >> (b & 63)) & 1)
                            d[b] = r->data[b];
                } else {
                    cache_victim ev;
                    cache_invalidate(sm->l1, r->pline, &ev);
                }
            }
            mark_stale(sm, r->pline);
        }
    }
    r->t = now;
    if (g->cfg->cta_fence_local && r->type != REQ_RD && m && m->is_store &&
        !(r->flags & REQF_DMR_COMMIT)) {
        r->flags |= REQF_PAST;
        m->tw->st_past++;
        cta_fence_check(sm, m->tw, now + 1);
    }
    reqq_push(&sm->out, r);
done:
    LS_ASSERT(sm->lq_n > 0);
    sm->lq_head = (sm->lq_head + 1) % sm->lq_cap;
    sm->lq_n--;
    return 1;
}

/* Something may have freed an MSHR or an L1 way (a reply, an L1
 * invalidation): an LD/ST unit blocked on them tries again from cycle
 * `next` on.  It would have tried, and failed, in every cycle since it
 * blocked until then (the retries change nothing but that count): count
 * those. */
static void lq_unblock(tm_sm *sm, uint64_t next)
{
    if (sm->lq_blocked != TM_NEVER) {
        sm->st.l1d_reservation_fails += next - sm->lq_blocked - 1;
        sm->lq_blocked = TM_NEVER;
    }
}

/* A reply arrives from a partition. */
void sm_reply(tm_sm *sm, tm_req *r, uint64_t now)
{
    tm_mop *m = r->mop;
    lq_unblock(sm, now);
    if (r->flags & REQF_PAST) {
        LS_ASSERT(m->tw->st_past > 0);
        m->tw->st_past--;
    }
    if (r->dmr_pair && r->type != REQ_RD) {
        tm_warp *tw = m->tw;
        tw->dmr_wr_out--;
        tw->dmr_gen++;
        tw->dmr_acks[r->dmr_seq] = now;
        /* below dmr_lo an entry holds the latest answer up to it */
        for (; tw->dmr_lo < tw->dmr_seq && tw->dmr_acks[tw->dmr_lo] != TM_NEVER; tw->dmr_lo++)
            if (tw->dmr_lo)
                tw->dmr_acks[tw->dmr_lo] = MAX(tw->dmr_acks[tw->dmr_lo],
                                               tw->dmr_acks[tw->dmr_lo - 1]);
    }
    if (r->type == REQ_RD) {
        if (r->mshr >= 0) {
            tm_mshr *e = &sm->mshr[r->mshr];
            cache_fill(sm->l1, e->l1line, cache_sectors_of(sm->l1, r->sectors, TM_SECTOR),
                       r->data);
            if (e->stale || (r->flags & REQF_DMR_PRIV)) {
                /* a stale fill, or a line with unconfirmed DMR writes: not kept */
                cache_victim ev;
                cache_invalidate(sm->l1, e->line, &ev);
            }
            for (uint32_t i = 0; i < e->nw; i++) {
                tm_mop *wm = e->wmop[i];
                if (wm->values)
                    load_reply(sm, wm, e->wlanes[i], r->line, r->data);
                mop_part_done(sm, wm, now);
            }
            e->used = 0;
            mshr_mark(sm, e, 0);
            e->nw = 0;
            tm_req_free(sm, r);
            return;
        }
        if (r->flags & (REQF_CONST | REQF_TEX)) {
            cache *cc = r->flags & REQF_TEX ? sm->tc : sm->cc;
            uint32_t valid;
            int reserved;
            uint64_t a = r->flags & REQF_TEX ? r->pline
                                             : r->pline + (uint64_t)ctz32(r->sectors) * TM_SECTOR;
            if (cache_probe(cc, a, &valid, &reserved, 0, now) < 0) {
                cache_victim ev;
                int li = cache_allocate(cc, a, 0, &ev, now);
                if (li >= 0)
                    cache_fill(cc, li, (1u << (cache_get_config(cc)->line_bytes /
                                               cache_get_config(cc)->sector_bytes)) - 1,
                               NULL);
            }
            if (r->flags & REQF_TEX)
                texmiss_done(sm, r, now);
        } else if (m->values) {
            load_reply(sm, m, r->lanes, r->line, r->data);
        }
    } else if (r->type == REQ_ATOM) {
        uint64_t old[WARP_SIZE];
        for (uint32_t k = r->lanes; k; k &= k - 1) {
            int l = ctz32(k);
            memcpy(&old[l], r->data + 8 * l, 8);
        }
        exec_reply_atom(&sm->L, m->tw->tc->c, m->tw->w, m->reg_base, m->in, r->lanes, old);
    }
    mop_part_done(sm, m, now);
    tm_req_free(sm, r);
}

/* ---- issue ------------------------------------------------------------------------- */

/* Instruction fetch and decode.  The SM's fetch unit serves one warp a
 * cycle: it reads `-lockstep_ibuffer` consecutive instructions from pc into
 * the warp's buffer, decoded fetch_latency cycles later.  Issue takes the
 * buffer's head; a control transfer the buffer did not follow (a taken
 * branch, a call, reconvergence) empties it, and the warp fetches again
 * right after the issue that redirected it.  (No i-cache misses: kernels
 * are small next to an instruction cache.) */
static void fetch(tm_sm *sm, tm_warp *tw, uint32_t pc, uint64_t now)
{
    uint64_t t = sm->fetch_free > now ? sm->fetch_free : now;
    sm->fetch_free = t + 1;
    tw->ib_pc = pc;
    tw->ib_n = sm->g->cfg->ibuffer;
    tw->ib_ready = t + sm->g->cfg->fetch_latency;
}

/* Is the LD/ST unit busy at `now` (unable to take an instruction)?  Only
 * an issue, a step of the LD/ST unit or the crossbar's taking a request
 * changes the answer, none of them during a scheduler's scan. */
static inline int ldst_busy(const tm_sm *sm, uint64_t now)
{
    return sm->lq_n || sm->ldst_busy_until > now || sm->out.n >= sm->g->cfg->ldst_queue;
}

/* The earliest cycle the busy LD/ST unit may take an instruction, as seen
 * at `now` (TM_NEVER: when the crossbar takes a request, and the waiting
 * warps are noted for sm_out_drained). */
static inline uint64_t ldst_free_at(tm_sm *sm, uint64_t now)
{
    /* the LD/ST unit takes one queued line access per cycle, so it is not
     * free before its queue has drained */
    uint64_t t1 = now + (sm->lq_n ? sm->lq_n : 1);
    if (sm->ldst_busy_until > t1)
        t1 = sm->ldst_busy_until;
    if (sm->out.n >= sm->g->cfg->ldst_queue) {
        /* nothing moves until the crossbar takes a request: sm_out_drained
         * wakes the warp then */
        sm->out_waiters = 1;
        t1 = TM_NEVER;
    }
    return t1;
}

/* Is the LD/ST unit unable to take an instruction at `now`?  If so, the
 * warp's stall: *when, and tw's ready_at and ready_why. */
static inline int ldst_stall(tm_sm *sm, tm_warp *tw, uint64_t now, uint64_t *when)
{
    if (!ldst_busy(sm, now))
        return 0;
    uint64_t t1 = ldst_free_at(sm, now);
    tm_warp_wait(sm, tw, t1, LOCKSTEP_STALL_MEMORY);
    *when = t1;
    return 1;
}

/* Out of line, so that can_issue's fast path, inlined into the scan,
 * saves no registers for it. */
__attribute__((noinline)) static int can_issue_checks(tm_sm *sm, tm_warp *tw, uint64_t now,
                                                      uint32_t *pc_out, uint64_t *when);

/* Why warp tw cannot issue at `now` (or ISSUED if it can); *when: the
 * earliest cycle it might (TM_NEVER: an event will wake it).
 *
 * Fast path: a warp whose instruction waited only for the busy LD/ST unit
 * (tw->ldst_pc) asks only that again.  Its other checks cannot fail before
 * it issues: its registers' ready times and its outstanding loads, stores
 * and acquires only move towards ready without an issue of its own, and
 * its instruction buffer holds the instruction.  The determinism modes'
 * gates can close again, so they always take the full path. */
static inline int can_issue(tm_sm *sm, tm_warp *tw, uint64_t now, uint32_t *pc_out,
                            uint64_t *when)
{
    if (tw->ldst_pc != IR_NO_PC && tw->ldst_pc == tw->npc && tw->ready_at <= now &&
        tw->w->state == WARP_RUNNING && !sm->g->det && !sm->g->dab) {
        int why = LOCKSTEP_STALL_ISSUED;
        *pc_out = tw->npc;
        *when = TM_NEVER;
        if (ldst_stall(sm, tw, now, when))
            why = LOCKSTEP_STALL_MEMORY;
#ifdef LOCKSTEP_DEBUG
        /* the full checks must agree (they change nothing they did not
         * set the same way the first time; ready_at is set here past
         * tm_warp_wait, and back, which leaves the ready queue as it was:
         * the checks file the warp where it already is) */
        uint64_t ready_at = tw->ready_at, when2;
        uint32_t pc2;
        tw->ready_at = now;
        LS_ASSERT(can_issue_checks(sm, tw, now, &pc2, &when2) == why && pc2 == *pc_out);
        tw->ready_at = ready_at;
#endif
        return why;
    }
    return can_issue_checks(sm, tw, now, pc_out, when);
}

__attribute__((noinline)) static int can_issue_checks(tm_sm *sm, tm_warp *tw, uint64_t now,
                                                      uint32_t *pc_out, uint64_t *when)
{
    timing_gpu *g = sm->g;
    exec_launch *L = &sm->L;
    exec_warp *w = tw->w;
    *when = TM_NEVER;
    if (w->state == WARP_BARRIER)
        return LOCKSTEP_STALL_BARRIER;
    if (w->state == WARP_DONE)
        return LOCKSTEP_STALL_IDLE;
    if (tw->ready_at > now) {
        *when = tw->ready_at;
        return tw->ready_why;
    }
    if (UNLIKELY(tw->sleep_until > now)) {
        /* asleep (nanosleep), though an event of its CTA woke it */
        *when = tw->sleep_until;
        tm_warp_wait(sm, tw, *when, LOCKSTEP_STALL_SLEEP);
        return LOCKSTEP_STALL_SLEEP;
    }
    uint32_t pc = tw->npc;
    if (pc == IR_NO_PC) {
        pc = tw->npc = exec_warp_next_pc(L, tw->tc->c, w);
        if (pc == IR_NO_PC)
            return w->state == WARP_BARRIER ? LOCKSTEP_STALL_BARRIER : LOCKSTEP_STALL_IDLE;
    }
    *pc_out = pc;
    if (g->det && !gpudet_gate(sm, tw, pc, now)) {
        /* GPUDet: the warp's quantum is over, or it is not its turn; the
         * controller wakes it (gpudet_step) */
        *when = now < g->det_gate ? g->det_gate : TM_NEVER;
        tm_warp_wait(sm, tw, *when, LOCKSTEP_STALL_DET);
        return LOCKSTEP_STALL_DET;
    }
    if (g->dab && !dab_gate(sm, tw, pc, now)) {
        /* DAB: a flush, or not its turn; the flush or the turn wakes it */
        *when = now < sm->dab_gate ? sm->dab_gate : TM_NEVER;
        tm_warp_wait(sm, tw, *when, LOCKSTEP_STALL_DET);
        return LOCKSTEP_STALL_DET;
    }
    if (sb_fit(tw)) {
        /* a host allocation failure is reported as one (the SM's loop
         * stops at its launch fault) */
        L->oom = 1;
        exec_fault(L, tw->tc->c, w, -1, pc, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
                   "out of host memory growing a warp's scoreboard");
        return LOCKSTEP_STALL_IDLE;
    }
    if (g->cfg->ibuffer) {
        if (!tw->ib_n || tw->ib_pc != pc)
            fetch(sm, tw, pc, now); /* empty, or a jump the buffer did not follow */
        if (tw->ib_ready > now) {
            *when = tw->ib_ready;
            tm_warp_wait(sm, tw, *when, LOCKSTEP_STALL_NO_INST);
            return LOCKSTEP_STALL_NO_INST;
        }
    }
    const tm_insn *ti = &g->ti[pc];
    const ir_insn *in = &L->mod->code[pc];
    uint64_t t = 0;
    const uint64_t *rr = tw->rready + w->reg_base;
    for (int i = 0; i < ti->nsr; i++)
        if (rr[ti->sr[i]] > t)
            t = rr[ti->sr[i]];
    for (int i = 0; i < ti->ndr; i++)
        if (rr[ti->dr[i]] > t)
            t = rr[ti->dr[i]];
    const uint64_t *pr = tw->pready + w->pred_base;
    for (int i = 0; i < ti->nsp; i++)
        if (pr[ti->sp[i]] > t)
            t = pr[ti->sp[i]];
    for (int i = 0; i < ti->ndp; i++)
        if (pr[ti->dp[i]] > t)
            t = pr[ti->dp[i]];
    if (t > now) {
        *when = t;
        tm_warp_wait(sm, tw, t, LOCKSTEP_STALL_SCOREBOARD);
        return LOCKSTEP_STALL_SCOREBOARD;
    }
    if (UNLIKELY(in->op == OP_CP) && acp_blocked(tw, in)) {
        /* cp.async's waits: the last of the copies waited for wakes it
         * (sm_mop_finish) */
        tm_warp_wait(sm, tw, TM_NEVER, LOCKSTEP_STALL_FENCE);
        return LOCKSTEP_STALL_FENCE;
    }
    if (tw->loads_out || tw->stores_out) {
        /* the orders the warp's outstanding memory operations impose (an
         * acquire or a replayed load is one of them) */
        if (ti->complex && tw->loads_out) {
            tm_warp_wait(sm, tw, TM_NEVER, LOCKSTEP_STALL_SCOREBOARD);
            return LOCKSTEP_STALL_SCOREBOARD;
        }
        uint32_t props = ptx_op_props(in->op);
        int fence = (props & OPF_FENCE) || ti->complex == 2 ||
                    (ti->unit == TU_LDST && (tw->acq_pending || in->sem == SEM_RELEASE ||
                                             in->sem == SEM_ACQ_REL || in->sem == SEM_SC));
        if (fence && cta_fence_is_local(g, in, props))
            fence = !cta_fence_passes(tw);
        /* only loads pass a replayed load: an atomic or barrier of the
         * warp waits for it; a plain store only until its passes are
         * back in the LD/ST unit, which keeps them ahead of it on every
         * path (so its own later store never reaches it, but a store to
         * another line may be performed first) */
        if (fence || (tw->replays && (props & (OPF_MEM | OPF_BARRIER)) && !replayable(in) &&
                      (in->op != OP_ST || tw->rp_queued))) {
            tm_warp_wait(sm, tw, TM_NEVER, LOCKSTEP_STALL_FENCE);
            return LOCKSTEP_STALL_FENCE;
        }
    }
    if (ti->unit == TU_LDST) {
        if (ldst_stall(sm, tw, now, when)) {
            tw->ldst_pc = pc;
            return LOCKSTEP_STALL_MEMORY;
        }
    } else if (ti->unit != TU_NONE) {
        uint32_t n = g->units[ti->unit];
        uint64_t best = TM_NEVER;
        for (uint32_t k = 0; k < n; k++)
            if (sm->unit_free[ti->unit][k] < best)
                best = sm->unit_free[ti->unit][k];
        if (best > now) {
            *when = best; /* units only get busier until then */
            tm_warp_wait(sm, tw, best, LOCKSTEP_STALL_FU_BUSY);
            return LOCKSTEP_STALL_FU_BUSY;
        }
    }
    return LOCKSTEP_STALL_ISSUED;
}

/* The crossbar took requests at cycle t and the SM's queue to it is no
 * longer full: warps that waited for that may look again at t + 1. */
void sm_out_drained(tm_sm *sm, uint64_t t)
{
    sm->out_waiters = 0;
    for (uint32_t k = 0; k < sm->nresident_slots; k++) {
        tm_cta *tc = &sm->ctas[k];
        if (!tc->active)
            continue;
        for (uint32_t i = 0; i < sm->L.nwarps; i++) {
            tm_warp *tw = &tc->warps[i];
            if (tw->ready_why == LOCKSTEP_STALL_MEMORY && tw->ready_at > t + 1)
                tm_warp_wait(sm, tw, t + 1, LOCKSTEP_STALL_MEMORY);
        }
    }
    if (sm->sched_at > t + 1)
        sm->sched_at = t + 1;
    if (sm->wake > t + 1)
        sm->wake = t + 1;
}

/* A warp that does not run (at a barrier, or done) waits for an event
 * with its state as the reason; the scheduler's scan then needs only the
 * warp's ready_at and ready_why.  Only the warp's own execution and a
 * barrier's release (wake_cta) change the state, and both come here. */
static void park_if_stopped(tm_sm *sm, tm_warp *tw)
{
    uint32_t state = tw->w->state;
    if (state != WARP_RUNNING)
        tm_warp_wait(sm, tw, TM_NEVER,
                     state == WARP_BARRIER ? LOCKSTEP_STALL_BARRIER : LOCKSTEP_STALL_IDLE);
}

/* Wake every warp of tw's CTA (a barrier may have been released). */
static void wake_cta(tm_sm *sm, tm_cta *tc, uint32_t nwarps, uint64_t t)
{
    for (uint32_t i = 0; i < nwarps; i++) {
        tm_warp *tw = &tc->warps[i];
        if (tw->w->state != WARP_RUNNING)
            park_if_stopped(sm, tw);
        else if (tw->ready_at == TM_NEVER || tw->ready_at > t ||
                 tw->ready_why == LOCKSTEP_STALL_BARRIER)
            tm_warp_wait(sm, tw, t, LOCKSTEP_STALL_SCOREBOARD);
    }
}

/* The instruction buffer after warp tw issued the instruction at its head. */
static void ibuffer_next(tm_sm *sm, tm_warp *tw, exec_launch *L, uint64_t now)
{
    exec_warp *w = tw->w;
    if (sm->g->cfg->ibuffer && tw->ib_n) {
        /* take the buffer's head; fetch again at once if the warp goes
         * elsewhere than the next buffered instruction, or ran out */
        tw->ib_pc++;
        tw->ib_n--;
        if (w->state == WARP_RUNNING) {
            uint32_t next = tw->npc = exec_warp_next_pc(L, tw->tc->c, w);
            if (next != IR_NO_PC && (!tw->ib_n || next != tw->ib_pc))
                fetch(sm, tw, next, now);
        }
    }
}

/* A built-in call (vprintf, malloc, free, __assertfail) changes what the
 * whole GPU shares (device memory's allocator, the printf buffer), so the
 * serial step between windows runs it, on the launch itself: the warp
 * waits for it (it has no memory operation in flight: the call waited as
 * a fence does). */
static void syscall_enqueue(tm_sm *sm, tm_warp *tw)
{
    if (sm->nsys == sm->sys_cap) {
        uint32_t cap = sm->sys_cap ? 2 * sm->sys_cap : 16;
        tm_warp **v = realloc(sm->sys, cap * sizeof *v);
        if (!v) {
            sm->L.oom = 1;
            exec_fault(&sm->L, tw->tc->c, tw->w, -1, IR_NO_PC, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
                       "out of host memory for a built-in call");
            return;
        }
        sm->sys = v;
        sm->sys_cap = cap;
    }
    sm->sys[sm->nsys++] = tw;
    tw->sys_at = sm->now;
    tm_warp_wait(sm, tw, TM_NEVER, LOCKSTEP_STALL_FENCE);
}

void sm_syscall(tm_sm *sm, tm_warp *tw, exec_launch *L, uint64_t now)
{
    exec_warp *w = tw->w;
    tw->npc = IR_NO_PC;
    tw->ldst_pc = IR_NO_PC;
    uint32_t n = exec_warp_run(L, tw->tc->c, w, 1);
    sm->insts += n;
    L->warp_insts += n; /* the launch's own count (the serial step runs it) */
    ibuffer_next(sm, tw, L, now);
    if (w->state != WARP_RUNNING) {
        wake_cta(sm, tw->tc, L->nwarps, now);
        cta_maybe_finished(sm, tw->tc, now);
    }
    tm_warp_wait(sm, tw, now, LOCKSTEP_STALL_SCOREBOARD);
    park_if_stopped(sm, tw);
    if (sm->wake > now)
        sm->wake = now;
    if (sm->sched_at > now)
        sm->sched_at = now;
}

/* Issue warp tw's instruction at pc. */
static void issue(tm_sm *sm, tm_warp *tw, uint32_t pc, uint64_t now)
{
    timing_gpu *g = sm->g;
    exec_launch *L = &sm->L;
    exec_warp *w = tw->w;
    const tm_insn *ti = &g->ti[pc];
    const ir_insn *in = &L->mod->code[pc];
    uint32_t reg_base = w->reg_base, pred_base = w->pred_base;
    tw->ldst_pc = IR_NO_PC;
    if (ti->complex == 2) {
        if (g->det)
            gpudet_issued(sm, tw);
        if (g->dab)
            dab_issued(sm, tw, pc);
        syscall_enqueue(sm, tw);
        tm_progress(&sm->progress_at, now);
        return;
    }
    L->mem.status = EXEC_MEM_NONE;
    /* a gpu/sys-scope fence of the PTX memory model (fence.sc, fence.acq_rel)
     * invalidates the L1 on every configuration; membar.gl/.sys (Fermi's
     * fences, which did not) only with -lockstep_l1_invalidate_on_fence 1 */
    if ((ptx_op_props(in->op) & OPF_FENCE) && sm->l1 && in->scope != SCOPE_CTA &&
        (in->op == OP_FENCE || g->cfg->l1_inval_on_fence)) {
        lq_unblock(sm, now + 1); /* this cycle's try came before the issue */
        cache_invalidate_all(sm->l1);
        for (uint32_t i = 0; i < sm->nmshr; i++)
            sm->mshr[i].stale = 1;
    }
    tw->npc = IR_NO_PC;
    uint32_t n = exec_warp_run(L, tw->tc->c, w, 1);
    if (L->mem.status == EXEC_MEM_RETRY) {
        /* an interposer did not take the request yet: the instruction did
         * not issue; the warp tries again when it says */
        tm_warp_wait(sm, tw, L->mem.ready > now ? L->mem.ready : now + 1, LOCKSTEP_STALL_MEMORY);
        return;
    }
    L->warp_insts += n;
    sm->insts += n;
    tm_insn sub;
    if (UNLIKELY(L->subst)) {
        /* an observer ran a replacement of code[pc] (exec_hooks.before: a
         * corrupted instruction buffer): the scoreboard marks the registers
         * it wrote, which its replies will clear (mop_part_done reads the
         * replacement); unit, latency and the sources waited for were
         * code[pc]'s (can_issue) */
        tm_insn_facts(g, L->mod, &L->subst->in, &sub);
        ti = &sub;
    }
    if (g->det)
        gpudet_issued(sm, tw);
    if (g->dab)
        dab_issued(sm, tw, pc);
    ibuffer_next(sm, tw, L, now);
    if (ti->unit != TU_NONE && ti->unit != TU_LDST) {
        uint32_t nu = g->units[ti->unit];
        uint32_t best = 0;
        for (uint32_t k = 1; k < nu; k++)
            if (sm->unit_free[ti->unit][k] < sm->unit_free[ti->unit][best])
                best = k;
        sm->unit_free[ti->unit][best] = now + ti->ii;
    }
    /* destinations: a memory operation in flight writes them with its
     * replies; one done at issue when it says; the rest after the latency */
    uint64_t ready = L->mem.status == EXEC_MEM_PENDING ? TM_NEVER
                     : L->mem.status == EXEC_MEM_DONE  ? L->mem.ready
                                                       : now + ti->lat;
    uint64_t *rr = tw->rready + reg_base;
    for (int i = 0; i < ti->ndr; i++)
        if (reg_base + ti->dr[i] < tw->rcap)
            rr[ti->dr[i]] = ready;
    uint64_t *pr = tw->pready + pred_base;
    for (int i = 0; i < ti->ndp; i++)
        if (pred_base + ti->dp[i] < tw->pcap)
            pr[ti->dp[i]] = now + ti->lat;
    if ((ptx_op_props(in->op) & (OPF_BARRIER | OPF_ENDS)) || w->state != WARP_RUNNING)
        wake_cta(sm, tw->tc, L->nwarps, now + 1);
    if (w->state != WARP_RUNNING)
        cta_maybe_finished(sm, tw->tc, now);
    if (UNLIKELY(in->op == OP_NANOSLEEP) && L->sleep_ns && w->state == WARP_RUNNING) {
        /* modelled: the warp sleeps for the delay at the core clock (PTX
         * allows anything in [0, 2t]; lockstep takes t); a wake-up is
         * progress to come, not a deadlock */
        tw->sleep_until = now + 1 + (uint64_t)ceil((double)L->sleep_ns / L->cycle_ns);
        tm_warp_wait(sm, tw, tw->sleep_until, LOCKSTEP_STALL_SLEEP);
        tm_progress(&sm->progress_at, tw->sleep_until);
    } else {
        tm_warp_wait(sm, tw, now + 1, LOCKSTEP_STALL_SCOREBOARD);
    }
    park_if_stopped(sm, tw);
    /* a stopped warp waits for an event: the scheduler's scan relies on it */
    LS_ASSERT(w->state == WARP_RUNNING || tw->ready_at == TM_NEVER);
    tm_progress(&sm->progress_at, now);
}

/* ---- the schedulers' ready queues (tm_rq) ---- */

/* File every warp of every list anew, at `now`. */
static void rq_build(tm_sm *sm, uint64_t now)
{
    for (uint32_t s = 0; s < sm->g->nsched; s++) {
        tm_rq *q = &sm->rq[s];
        memset(q, 0, sizeof *q);
        q->base = now;
        q->far_min = TM_NEVER;
        for (uint32_t k = 0; k < sm->nsw; k++) {
            tm_warp *tw = sm->sched[s][k];
            if (!tw)
                continue;
            tw->rq_s = (uint8_t)s;
            tw->rq_k = (uint8_t)k;
            tm_rq_add(q, 1ull << k, tw->ready_at);
            q->why[tw->ready_why] |= 1ull << k;
        }
    }
    sm->rq_live = 1;
}

static inline uint64_t rotr64(uint64_t x, uint32_t r)
{
    return r ? x >> r | x << (64 - r) : x;
}

/* Move queue q (of list `list`) to `now`: the warps whose ready_at came
 * join `ready`, far warps that are near now go to their buckets. */
static void rq_advance(tm_rq *q, tm_warp *const *list, uint64_t now)
{
    if (now <= q->base)
        return;
    uint64_t d = now - q->base;
    if (q->nb) {
        /* buckets of the cycles base + 1 .. now */
        uint64_t m = q->nb;
        if (d < TM_RQ_SPAN)
            m &= rotr64((1ull << d) - 1, (uint32_t)((TM_RQ_SPAN - (q->base + 1) % TM_RQ_SPAN) %
                                                    TM_RQ_SPAN));
        q->nb &= ~m;
        for (; m; m &= m - 1) {
            uint32_t b = (uint32_t)__builtin_ctzll(m);
            q->ready |= q->bucket[b];
            q->bucket[b] = 0;
        }
    }
    q->base = now;
    if (q->far && q->far_min <= now + TM_RQ_SPAN) {
        uint64_t f = q->far;
        q->far = 0;
        q->far_min = TM_NEVER;
        for (; f; f &= f - 1) {
            uint32_t k = (uint32_t)__builtin_ctzll(f);
            tm_rq_add(q, 1ull << k, list[k]->ready_at);
        }
    }
}

/* The earliest ready_at of queue q's warps that wait (TM_NEVER: none). */
static uint64_t rq_next(const tm_rq *q, tm_warp *const *list)
{
    if (q->nb) {
        uint32_t r = (uint32_t)((q->base + 1) % TM_RQ_SPAN);
        return q->base + 1 + (uint64_t)__builtin_ctzll(rotr64(q->nb, r));
    }
    uint64_t t = TM_NEVER;
    for (uint64_t f = q->far; f; f &= f - 1) {
        uint64_t a = list[__builtin_ctzll(f)]->ready_at;
        if (a < t)
            t = a;
    }
    return t;
}

#ifdef LOCKSTEP_DEBUG
/* Queue s holds what its warps' ready_at and ready_why say. */
static void rq_check(const tm_sm *sm, uint32_t s)
{
    const tm_rq *q = &sm->rq[s];
    uint64_t all = 0, whys = 0;
    for (uint32_t k = 0; k < sm->nsw; k++) {
        const tm_warp *tw = sm->sched[s][k];
        if (!tw)
            continue;
        uint64_t bit = 1ull << k, at = tw->ready_at;
        all |= bit;
        LS_ASSERT(tw->rq_s == s && tw->rq_k == k);
        LS_ASSERT(!!(q->ready & bit) == (at <= q->base));
        LS_ASSERT(!!(q->far & bit) == (at != TM_NEVER && at > q->base + TM_RQ_SPAN));
        int in_bucket = at > q->base && at != TM_NEVER && at - q->base <= TM_RQ_SPAN;
        for (uint32_t b = 0; b < TM_RQ_SPAN; b++)
            LS_ASSERT(!!(q->bucket[b] & bit) == (in_bucket && at % TM_RQ_SPAN == b));
        if (q->far & bit)
            LS_ASSERT(q->far_min <= at);
        for (uint32_t r = 0; r < LOCKSTEP_STALL_COUNT; r++)
            LS_ASSERT(!!(q->why[r] & bit) == (tw->ready_why == r));
    }
    for (uint32_t r = 0; r < LOCKSTEP_STALL_COUNT; r++)
        whys |= q->why[r];
    LS_ASSERT(!((q->ready | q->far | whys) & ~all));
    for (uint32_t b = 0; b < TM_RQ_SPAN; b++)
        LS_ASSERT(!(q->bucket[b] & ~all) && !!q->bucket[b] == !!(q->nb & 1ull << b));
}
#endif

/* One cycle of the SM. */
void sm_cycle(tm_sm *sm, uint64_t now)
{
    timing_gpu *g = sm->g;
    uint64_t wake = TM_NEVER; /* the schedulers' earliest next issue */
    if (now >= sm->drift_at) {
        /* modelled clock drift: this SM loses the cycle (a drift cycle
         * that passed while the SM slept is not made up) */
        int lose = now == sm->drift_at;
        sm->drift_at = next_drift(sm, now);
        if (lose) {
            sm->st.sm_lost_cycles++;
            for (uint32_t s = 0; s < g->nsched; s++)
                sm->stall[sm->last_reason[s]]++;
            sm->wake = now + 1;
            return;
        }
    }
    if (sm->rp_at <= now)
        replay_release(sm, now);
    int lq = sm_lq_active(sm);
    if (lq && ldst_step(sm, now))
        tm_progress(&sm->progress_at, now);
    if (now < sm->sched_at) {
        /* no warp can issue before sched_at and none has changed since the
         * schedulers last looked (mop_part_done and dispatch lower it): the
         * same stall reasons as then */
        for (uint32_t s = 0; s < g->nsched; s++)
            sm->stall[sm->last_reason[s]]++;
        sm->wake = lq || sm->out.n ? now + 1 : sm->sched_at;
        if (sm->wake > sm->rp_at)
            sm->wake = sm->rp_at > now ? sm->rp_at : now + 1;
        return;
    }
    if (sm->rq_on && !sm->rq_live)
        rq_build(sm, now);
    for (uint32_t s = 0; s < g->nsched && sm->L.fault == LOCKSTEP_SUCCESS; s++) {
        tm_warp **list = sm->sched[s];
        tm_rq *q = sm->rq_live ? &sm->rq[s] : NULL;
        if (q) {
            rq_advance(q, list, now);
#ifdef LOCKSTEP_DEBUG
            rq_check(sm, s);
#endif
        }
        uint32_t n = sm->nsw;
        int best_reason = LOCKSTEP_STALL_IDLE;
        static const uint8_t rank[LOCKSTEP_STALL_COUNT] = {
            [LOCKSTEP_STALL_ISSUED] = 9, [LOCKSTEP_STALL_IDLE] = 0,
            [LOCKSTEP_STALL_SLEEP] = 1, [LOCKSTEP_STALL_BARRIER] = 2,
            [LOCKSTEP_STALL_SCOREBOARD] = 3, [LOCKSTEP_STALL_NO_INST] = 4,
            [LOCKSTEP_STALL_FENCE] = 5, [LOCKSTEP_STALL_FU_BUSY] = 6,
            [LOCKSTEP_STALL_MEMORY] = 7, [LOCKSTEP_STALL_DET] = 2};
        tm_warp *chosen = NULL;
        uint32_t chosen_pc = 0, chosen_k = 0;
        uint32_t start = 0;
        const int policy = g->policy, greedy = policy == 1;
        uint8_t best_rank = rank[best_reason]; /* = rank[best_reason] throughout */
        if (!greedy)
            start = sm->rr[s] % (n ? n : 1);
        uint32_t limit = n, considered = 0;
        if (greedy && sm->last[s] && sm->last[s]->tc->active) {
            uint32_t pc;
            uint64_t when;
            int why = can_issue(sm, sm->last[s], now, &pc, &when);
            if (why == LOCKSTEP_STALL_ISSUED) {
                chosen = sm->last[s];
                chosen_pc = pc;
            } else {
                if (rank[why] > best_rank) {
                    best_reason = why;
                    best_rank = rank[why];
                }
                if (when < wake)
                    wake = when;
            }
        }
        const tm_warp *skip = greedy ? sm->last[s] : NULL;
        if (q && !chosen) {
            /* the same scan, visiting only the warps with ready_at <= now
             * (in the same order: from `start` on, round the list); the
             * others' part (their ready_why's rank, their ready_at) comes
             * from the queue.  A visit changes only the visited warp, and
             * a warp that then waits is filed with what can_issue
             * answered, so the queue's part afterwards covers the waiting
             * warps as the scan would have seen them at their turn. */
            uint64_t cand = q->ready & ~(skip ? 1ull << skip->rq_k : 0);
            uint64_t part[2] = {cand & (~0ull << start), cand & ((1ull << start) - 1)};
            uint32_t fault_k = UINT32_MAX;
            /* While the LD/ST unit is busy (it stays so for the whole
             * scan), a warp on can_issue's fast path (its instruction
             * waited only for the unit) cannot issue: the scan notes it in
             * lsw and files all of them at once, below, as can_issue
             * would have one by one (no determinism mode here, so
             * can_issue's fast path is written out below). */
            uint64_t lsw = 0;
            for (int h = 0; h < 2 && !chosen && fault_k == UINT32_MAX; h++)
                for (uint64_t m = part[h]; m; m &= m - 1) {
                    uint32_t k = (uint32_t)__builtin_ctzll(m);
                    tm_warp *tw = list[k];
                    LS_ASSERT(tw && tw->ready_at <= now);
                    uint32_t pc;
                    uint64_t when;
                    int why;
                    if (tw->ldst_pc != IR_NO_PC && tw->ldst_pc == tw->npc &&
                        tw->w->state == WARP_RUNNING) {
                        /* can_issue's fast path: only the LD/ST unit counts */
                        if (ldst_busy(sm, now)) {
                            lsw |= 1ull << k;
                            continue;
                        }
#ifdef LOCKSTEP_DEBUG
                        why = can_issue(sm, tw, now, &pc, &when);
                        LS_ASSERT(why == LOCKSTEP_STALL_ISSUED);
#else
                        why = LOCKSTEP_STALL_ISSUED;
                        pc = tw->npc;
                        when = TM_NEVER;
#endif
                    } else {
                        why = can_issue_checks(sm, tw, now, &pc, &when);
                    }
                    if (why == LOCKSTEP_STALL_ISSUED) {
                        chosen = tw;
                        chosen_pc = pc;
                        chosen_k = k;
                        break;
                    }
                    if (rank[why] > best_rank) {
                        best_reason = why;
                        best_rank = rank[why];
                    }
                    if (when < wake)
                        wake = when;
                    if (sm->L.fault != LOCKSTEP_SUCCESS) {
                        fault_k = k;
                        break;
                    }
                }
            if (lsw) {
                /* the LD/ST waiters the scan passed (before the chosen
                 * warp, or the fault): ldst_stall's answer for each */
                LS_ASSERT(!g->det && !g->dab);
                uint64_t t1 = ldst_free_at(sm, now);
                for (uint64_t m = lsw; m; m &= m - 1) {
#ifdef LOCKSTEP_DEBUG
                    /* the full checks agree, and file the warp the same way */
                    uint32_t pc2;
                    uint64_t when2;
                    LS_ASSERT(can_issue_checks(sm, list[__builtin_ctzll(m)], now, &pc2,
                                               &when2) == LOCKSTEP_STALL_MEMORY &&
                              when2 == t1);
#else
                    tm_warp_wait(sm, list[__builtin_ctzll(m)], t1, LOCKSTEP_STALL_MEMORY);
#endif
                }
                if (rank[LOCKSTEP_STALL_MEMORY] > best_rank) {
                    best_reason = LOCKSTEP_STALL_MEMORY;
                    best_rank = rank[LOCKSTEP_STALL_MEMORY];
                }
                if (t1 < wake)
                    wake = t1;
            }
            if (!chosen && fault_k == UINT32_MAX) {
                /* the waiting warps: the highest reason, the earliest time
                 * (the scan's answer does not depend on the order it met
                 * them: no two reasons share a rank but BARRIER and DET,
                 * and DET comes only in the determinism modes, which scan
                 * the list) */
                static const uint8_t by_rank[] = {
                    LOCKSTEP_STALL_MEMORY, LOCKSTEP_STALL_FU_BUSY, LOCKSTEP_STALL_FENCE,
                    LOCKSTEP_STALL_NO_INST, LOCKSTEP_STALL_SCOREBOARD, LOCKSTEP_STALL_BARRIER,
                    LOCKSTEP_STALL_DET, LOCKSTEP_STALL_SLEEP};
                uint64_t waiting = ~q->ready;
                for (uint32_t i = 0; i < sizeof by_rank; i++)
                    if (q->why[by_rank[i]] & waiting) {
                        if (rank[by_rank[i]] > best_rank) {
                            best_reason = by_rank[i];
                            best_rank = rank[by_rank[i]];
                        }
                        break;
                    }
                uint64_t t = rq_next(q, list);
                if (t < wake)
                    wake = t;
            } else if (!chosen) {
                /* a fault stopped the scan at fault_k: the waiting warps
                 * it passed until then */
                for (uint32_t k = start;; k = k + 1 == n ? 0 : k + 1) {
                    tm_warp *tw = list[k];
                    if (tw && tw != skip && tw->ready_at > now) {
                        if (rank[tw->ready_why] > best_rank) {
                            best_reason = tw->ready_why;
                            best_rank = rank[tw->ready_why];
                        }
                        if (tw->ready_at < wake)
                            wake = tw->ready_at;
                    }
                    if (k == fault_k)
                        break;
                }
            }
            limit = 0; /* done: the list scan below is for the other cases */
        }
        for (uint32_t i = 0, k = start; !chosen && i < limit; i++, k = k + 1 == n ? 0 : k + 1) {
            tm_warp *tw = list[k];
            if (!tw || tw == skip)
                continue;
            uint64_t ready_at = tw->ready_at;
            if (policy == 2) {
                /* two-level: only the first N warps not waiting on memory compete */
                if (!tw->tc->active || (ready_at == TM_NEVER && tw->loads_out))
                    continue;
                if (considered++ >= g->two_level_n)
                    break;
            }
            /* can_issue's first answer, without the call: most warps wait,
             * and a warp of an empty slot or one that does not run waits
             * for an event (park_if_stopped, sm_cta_slot_free) */
            if (ready_at > now) {
                uint8_t r = rank[tw->ready_why];
                if (r > best_rank) {
                    best_reason = tw->ready_why;
                    best_rank = r;
                }
                if (ready_at < wake)
                    wake = ready_at;
                continue;
            }
            uint32_t pc;
            uint64_t when;
            int why = can_issue(sm, tw, now, &pc, &when);
            if (why == LOCKSTEP_STALL_ISSUED) {
                chosen = tw;
                chosen_pc = pc;
                chosen_k = k;
                break;
            }
            if (rank[why] > best_rank) {
                best_reason = why;
                best_rank = rank[why];
            }
            if (when < wake)
                wake = when;
            if (sm->L.fault != LOCKSTEP_SUCCESS)
                break;
        }
        if (chosen) {
            issue(sm, chosen, chosen_pc, now);
            sm->last[s] = chosen;
            if (g->policy != 1)
                sm->rr[s] = chosen_k + 1;
            best_reason = LOCKSTEP_STALL_ISSUED;
            wake = now + 1;
        }
        sm->stall[best_reason]++;
        sm->last_reason[s] = (uint8_t)best_reason;
    }
    sm->sched_at = wake;
    if ((lq || sm->out.n) && wake > now + 1)
        wake = now + 1;
    if (wake > sm->rp_at)
        wake = sm->rp_at > now ? sm->rp_at : now + 1;
    sm->wake = wake;
}
