/*
 * gpudet.c -- GPUDet (Jooybar et al., ASPLOS 2013) on the timing model:
 * deterministic execution of any program, racy or not
 * (`-lockstep_det gpudet`, docs/DETERMINISM.md).
 *
 * A kernel runs in quanta.  Each quantum has three modes:
 *
 *   parallel  every warp runs until its quantum ends: after
 *             -gpudet_quantum_size instructions, or before a global
 *             atomic, a fence, a built-in call (printf, malloc), or at
 *             exit.  A warp at a CTA barrier waits there, and counts as
 *             stopped for the quantum's end: if all of its CTA arrive, they
 *             go on in the same quantum (barrier termination avoidance,
 *             BTA; -gpudet_bta 0 ends the quantum before a barrier instead,
 *             as GPUdet-base does).  Its global stores go to its own store buffer (a
 *             linear log of 128-byte chunks with byte masks behind a Bloom
 *             filter), not to memory, so global memory does not change
 *             while warps run and every load reads the state the last
 *             commit left, plus the warp's own buffered bytes.
 *   commit    when every warp has ended its quantum (or waits at a CTA
 *             barrier, or is done) and no memory operation is in flight,
 *             the buffers are written to memory in a deterministic order:
 *             within a quantum the lowest warp id wins a byte, as the
 *             Z-buffer commit with depth -(quantum << m) + warp id does.
 *             The commit's cycles are modelled (gpudet_commit below); the
 *             L1s are flushed after it.
 *   serial    the warps that ended at an atomic or a built-in call run
 *             that one instruction on the ordinary memory system, one SM
 *             at a time with its warps issuing in warp order (CU-Ser: the
 *             crossbar and the partitions keep one SM's requests to one
 *             partition in order), or one warp at a time (W-Ser,
 *             -gpudet_serial warp).
 *
 * CTAs are placed by deterministic workgroup partitioning (DWP,
 * -gpudet_dwp): slot G of the GPU runs CTAs G, G + slots, G + 2 slots...,
 * each as soon as the slot frees, in the middle of a quantum too; with
 * -gpudet_dwp 0 they are dispatched only between quanta (work-distribution
 * mode), into free slots in slot order.  Everything a warp does in a quantum depends
 * only on memory as the last commit left it, so the results are the same
 * for every --nondet-seed and every number of host threads; the cycles
 * are not (the modelled hardware's variation stays).
 *
 * The controller runs in the engine's serial step (gpudet_step); the SMs
 * ask it, in can_issue, whether a warp may issue (gpudet_gate) and tell
 * it what issued (gpudet_issued); the store buffer is the first stage of
 * each SM's interposer chain (gpudet_request).
 *
 * Not modelled (yet): the store buffer's traffic through the L1 (a log
 * search costs one cycle per entry).  The commit's cost is an analytical model of the
 * Z-buffer units (their throughput, Z-cache and request buffer) or of
 * CoreDet's lock-based commit (commit() below).
 * Shared memory is not made deterministic (the paper's limitation too).
 */
#include <stdlib.h>
#include <string.h>

#include "timing/timing_int.h"
#include "util/common.h"

enum { CHUNK = 128 };

/* ---- the store buffer ------------------------------------------------------------------ */

static uint32_t bloom_index(uint64_t chunk, int k, uint32_t bits_per)
{
    uint64_t h = (chunk >> 7) * (0x9e3779b97f4a7c15ull + 2 * (uint64_t)k + 1);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return (uint32_t)(h % bits_per) + (uint32_t)k * bits_per;
}

/* The filter's 4 sub-arrays of bits/4 bits each (a parallel Bloom filter);
 * bits 0: ideal (answers exactly). */
static void bloom_add(const timing_gpu *g, tm_detwarp *d, uint64_t chunk)
{
    uint32_t per = g->det_bloom_bits / 4;
    for (int k = 0; per && k < 4; k++) {
        uint32_t b = bloom_index(chunk, k, per);
        d->bloom[b / 64] |= 1ull << (b % 64);
    }
}

static int bloom_maybe(const timing_gpu *g, const tm_detwarp *d, uint64_t chunk)
{
    uint32_t per = g->det_bloom_bits / 4;
    for (int k = 0; per && k < 4; k++) {
        uint32_t b = bloom_index(chunk, k, per);
        if (!(d->bloom[b / 64] & (1ull << (b % 64))))
            return 0;
    }
    return 1;
}

/* The log entry of chunk, or NULL; *searched grows by the entries read. */
static tm_detentry *log_find(tm_detwarp *d, uint64_t chunk, uint32_t *searched)
{
    for (uint32_t i = 0; i < d->n; i++) {
        (*searched)++;
        if (d->log[i].chunk == chunk)
            return &d->log[i];
    }
    return NULL;
}

static tm_detentry *log_get(tm_sm *sm, tm_detwarp *d, uint64_t chunk)
{
    uint32_t searched = 0;
    tm_detentry *e = log_find(d, chunk, &searched);
    if (e)
        return e;
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? 2 * d->cap : 8;
        tm_detentry *v = realloc(d->log, cap * sizeof *v);
        if (!v)
            return NULL;
        d->log = v;
        d->cap = cap;
    }
    e = &d->log[d->n++];
    memset(e, 0, sizeof *e);
    e->chunk = chunk;
    bloom_add(sm->g, d, chunk);
    sm->st.det_sb_entries++;
    return e;
}

static int is_global(uint8_t space) { return space == SP_GLOBAL || space == SP_CONST; }

/* Perform the lanes of rq outside `glob` (shared or local memory: private
 * to the CTA or the thread) at once, as they are: 0, or -1 (a fault). */
static int perform_other_lanes(exec_launch *L, exec_cta *c, exec_warp *w, const exec_memreq *rq,
                               uint32_t glob)
{
    if (glob == rq->lanes)
        return 0;
    exec_memreq rest = *rq;
    rest.lanes = rq->lanes & ~glob;
    return exec_mem_perform(L, c, w, &rest);
}

/* The first stage of an SM's interposer chain in parallel mode: global
 * stores into the warp's log; global loads that touch a chunk in the log
 * answered from memory overlaid with the log's bytes. */
int gpudet_request(void *ud, exec_launch *L, exec_cta *c, exec_warp *w, exec_memreq *rq,
                   exec_memres *res)
{
    tm_sm *sm = ud;
    timing_gpu *g = sm->g;
    tm_warp *tw = w->timing;
    tm_detwarp *d = &tw->det;
    const ir_insn *in = rq->in;
    uint32_t glob = 0;
    for (uint32_t m = rq->lanes; m; m &= m - 1) {
        int l = ctz32(m);
        if (is_global(rq->ad.space[l]))
            glob |= 1u << l;
    }
    if (!glob || (ptx_op_props(in->op) & OPF_ATOMIC))
        return 0; /* not global, or an atomic: serial mode's, not here */
    uint64_t now = *L->cycle;
    if (in->op == OP_ST) {
        /* checked as the memory system would (bounds, alignment, freed) */
        if (exec_mem_check(L, c, w, in, rq->lanes, &rq->ad))
            return -1;
        /* the global lanes go to the log, lane by lane in order, so a
         * later lane wins a byte as the coalescer's order does */
        if (perform_other_lanes(L, c, w, rq, glob))
            return -1;
        uint8_t bytes[32];
        for (uint32_t m = glob; m; m &= m - 1) {
            int l = ctz32(m);
            exec_store_bytes(rq, l, bytes);
            for (uint32_t b = 0; b < rq->size && b < sizeof bytes; b++) {
                uint64_t a = rq->ad.a[l] + b;
                tm_detentry *e = log_get(sm, d, a & ~(uint64_t)(CHUNK - 1));
                if (!e) {
                    L->oom = 1;
                    exec_fault(L, c, w, l, rq->pc, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
                               "out of host memory for a GPUDet store buffer");
                    return -1;
                }
                uint32_t o = (uint32_t)(a & (CHUNK - 1));
                e->data[o] = bytes[b];
                e->mask[o / 64] |= 1ull << (o % 64);
            }
        }
        res->status = EXEC_MEM_DONE;
        res->ready = now + 1;
        return 1;
    }
    if (in->op != OP_LD || !d->n)
        return 0;
    /* a load: the filter first, then the log, once per chunk the lanes touch */
    uint32_t searched = 0, hit = 0, nseen = 0;
    uint64_t seen[2 * WARP_SIZE];
    for (uint32_t m = glob; m; m &= m - 1) {
        int l = ctz32(m);
        uint64_t first = rq->ad.a[l] & ~(uint64_t)(CHUNK - 1);
        uint64_t last = (rq->ad.a[l] + rq->size - 1) & ~(uint64_t)(CHUNK - 1);
        for (uint64_t ch = first; ch <= last; ch += CHUNK) {
            uint32_t j = 0;
            while (j < nseen && seen[j] != ch)
                j++;
            if (j < nseen)
                continue;
            if (nseen < 2 * WARP_SIZE)
                seen[nseen++] = ch;
            if (g->det_bloom_bits && !bloom_maybe(g, d, ch))
                continue;
            uint32_t before = searched;
            if (log_find(d, ch, &searched))
                hit = 1;
            else if (g->det_bloom_bits)
                sm->st.det_bloom_false_positives++;
            if (!g->det_bloom_bits)
                searched = before; /* an ideal filter answers without a search */
        }
    }
    if (searched)
        sm->st.det_sb_searches++;
    if (!hit)
        return 0; /* to memory, unchanged since the last commit */
    if (exec_mem_check(L, c, w, in, rq->lanes, &rq->ad))
        return -1;
    /* answer it here: memory overlaid with the log, lane by lane */
    if (perform_other_lanes(L, c, w, rq, glob))
        return -1;
    uint8_t bytes[32];
    for (uint32_t m = glob; m; m &= m - 1) {
        int l = ctz32(m);
        uint32_t n = rq->size < sizeof bytes ? rq->size : sizeof bytes;
        exec_global_read(L, rq->ad.a[l], bytes, n);
        const tm_detentry *e = NULL;
        uint64_t e_chunk = 1; /* no chunk: chunks are 128-byte aligned */
        for (uint32_t b = 0; b < n; b++) {
            uint64_t a = rq->ad.a[l] + b, ch = a & ~(uint64_t)(CHUNK - 1);
            if (ch != e_chunk) { /* a lane's bytes are in one chunk, or two */
                uint32_t unused = 0;
                e = log_find(d, ch, &unused);
                e_chunk = ch;
            }
            uint32_t o = (uint32_t)(a & (CHUNK - 1));
            if (e && (e->mask[o / 64] >> (o % 64) & 1))
                bytes[b] = e->data[o];
        }
        exec_reply_load(L, c, w, w->reg_base, in, 1u << l, &rq->ad, rq->ad.a[l], bytes);
    }
    sm->st.det_sb_load_hits++;
    res->status = EXEC_MEM_DONE;
    res->ready = now + g->det_l1_lat + searched;
    return 1;
}

/* ---- the gate and the issue count -------------------------------------------------------- */

/* Why the instruction at pc ends the warp's parallel mode (DET_END_*), 0
 * if it does not; *serial: it runs in serial mode. */
static int ends_quantum(const timing_gpu *g, const tm_warp *tw, const ir_insn *in, uint32_t pc,
                        int *serial)
{
    uint32_t props = ptx_op_props(in->op);
    *serial = 0;
    if ((props & OPF_ATOMIC) && in->space != SP_SHARED) {
        *serial = 1;
        return DET_END_ATOMIC;
    }
    if (g->ti[pc].complex == 2) {
        *serial = 1;
        return DET_END_CALL;
    }
    if (tw->det.q_insts == 0)
        return 0; /* a fence or barrier first in a quantum runs in it */
    if (tw->det.q_insts >= g->det_quantum)
        return DET_END_COUNT;
    if (props & OPF_FENCE)
        return DET_END_FENCE;
    if ((props & OPF_BARRIER) && !g->det_bta)
        return DET_END_BARRIER;
    return 0;
}

int gpudet_gate(tm_sm *sm, tm_warp *tw, uint32_t pc, uint64_t now)
{
    timing_gpu *g = sm->g;
    tm_detwarp *d = &tw->det;
    if (now < g->det_gate)
        return 0;
    if (g->det_mode == DET_SERIAL)
        return g->det_cu_ser ? sm->id == g->det_serial_sm && tw == sm->det_next
                             : tw == g->det_serial_warp && !d->serial_issued;
    if (d->end)
        return 0;
    int serial;
    int why = ends_quantum(g, tw, &sm->L.mod->code[pc], pc, &serial);
    if (why) {
        d->end = (uint8_t)why;
        d->serial = (uint8_t)serial;
        switch (why) {
        case DET_END_COUNT: sm->st.det_end_count++; break;
        case DET_END_ATOMIC: sm->st.det_end_atomic++; break;
        case DET_END_FENCE: sm->st.det_end_fence++; break;
        case DET_END_BARRIER: sm->st.det_end_barrier++; break;
        default: sm->st.det_end_call++; break;
        }
        return 0;
    }
    return 1;
}

/* CU-Ser: the serial warp of sm after `after` (NULL: the first), in slot
 * and warp order. */
static tm_warp *sm_next_serial(tm_sm *sm, const tm_warp *after)
{
    int past = after == NULL;
    for (uint32_t k = 0; k < sm->nresident_slots; k++) {
        tm_cta *tc = &sm->ctas[k];
        for (uint32_t i = 0; i < sm->L.nwarps; i++) {
            tm_warp *tw = &tc->warps[i];
            if (!past) {
                past = tw == after;
                continue;
            }
            if (tc->active && tw->det.serial && !tw->det.serial_issued &&
                tw->w->state == WARP_RUNNING)
                return tw;
        }
    }
    return NULL;
}

void gpudet_issued(tm_sm *sm, tm_warp *tw)
{
    tm_detwarp *d = &tw->det;
    if (sm->g->det_mode == DET_SERIAL) {
        d->serial_issued = 1;
        sm->st.det_serial_ops++;
        if (sm->g->det_cu_ser) {
            /* the SM's next serial warp may issue from the next cycle */
            tm_warp *nx = sm->det_next = sm_next_serial(sm, tw);
            if (nx) {
                nx->ready_at = sm->now + 1;
                nx->ready_why = LOCKSTEP_STALL_SCOREBOARD;
                sm->sched_at = MIN(sm->sched_at, sm->now + 1);
                sm->wake = MIN(sm->wake, sm->now + 1);
            }
        }
    } else {
        d->q_insts++;
        if (tw->w->state == WARP_DONE)
            sm->st.det_end_exit++;
    }
    sm->det_issued++;
}

/* ---- the controller (the engine's serial step) ----------------------------------------- */

/* The warps in commit and serial order: SM, CTA slot, warp. */
#define FOR_EACH_WARP(g, occ, nwarps, sm, tc, tw)                                          \
    for (uint32_t s_ = 0; s_ < (g)->nsms; s_++)                                            \
        for (tm_sm *sm = &(g)->sms[s_]; sm; sm = NULL)                                     \
            for (uint32_t k_ = 0; k_ < (occ); k_++)                                        \
                for (tm_cta *tc = &sm->ctas[k_]; tc; tc = NULL)                            \
                    for (uint32_t i_ = 0; i_ < (nwarps); i_++)                             \
                        for (tm_warp *tw = &tc->warps[i_]; tw; tw = NULL)

int gpudet_dwp_pending(const timing_gpu *g, const tm_sm *sm, uint32_t occ)
{
    for (uint32_t k = 0; k < occ; k++)
        if (!sm->ctas[k].active && g->det_dwp_next[(size_t)k * g->nsms + sm->id] < g->det_total_ctas)
            return 1;
    return 0;
}

/* Every warp has stopped for the quantum and nothing is in flight (with
 * DWP: and every free slot that has CTAs left has taken its next one, and
 * every finished CTA has left its slot, so the quantum's work does not
 * depend on when the serial step got to them). */
static int all_stopped(const timing_gpu *g, uint32_t occ, uint32_t nwarps)
{
    for (uint32_t s = 0; s < g->nsms; s++) {
        const tm_sm *sm = &g->sms[s];
        if (sm->lq_n || sm->out.n || sm->nsys)
            return 0;
        if (g->det_dwp && gpudet_dwp_pending(g, sm, occ))
            return 0;
        for (uint32_t k = 0; g->det_dwp && k < occ; k++) {
            const tm_cta *tc = &sm->ctas[k];
            uint32_t done = 0;
            for (uint32_t i = 0; tc->active && i < nwarps; i++)
                done += tc->warps[i].w->state == WARP_DONE;
            if (tc->active && done == nwarps)
                return 0;
        }
        for (uint32_t k = 0; k < occ; k++) {
            const tm_cta *tc = &sm->ctas[k];
            if (!tc->active)
                continue;
            for (uint32_t i = 0; i < nwarps; i++) {
                const tm_warp *tw = &tc->warps[i];
                if (tw->loads_out || tw->stores_out)
                    return 0;
                if (tw->w->state == WARP_RUNNING && !tw->det.end)
                    return 0;
            }
        }
    }
    return 1;
}

/* The Z-cache of partition p: 1 if chunk's depths were there (they are
 * now, most recently used); chunks are kept MRU first, 0 empty. */
static int zcache_access(timing_gpu *g, uint32_t p, uint64_t chunk)
{
    uint64_t *z = g->det_zcache + (size_t)p * g->det_zlines;
    uint32_t n = g->det_zlines, i = 0;
    while (i < n && z[i] && z[i] != chunk)
        i++;
    int hit = i < n && z[i] == chunk;
    if (i == n)
        i = n - 1; /* full: the least recently used goes */
    memmove(z + 1, z, i * sizeof *z);
    z[0] = chunk;
    return hit;
}

/* Write every warp's log to memory (lowest warp id wins: the highest id
 * writes first), empty the logs, and return the commit's cycles.
 *
 * Z-buffer commit: each SM reads its warps' logs (one entry a cycle) and
 * sends each entry to its partition's Z-buffer unit, which takes
 * -gpudet_zunit_cycles an entry; an entry whose chunk's depths miss in the
 * unit's Z-cache (-gpudet_zcache_kb, LRU) waits for them from memory, a
 * wait the request buffer (-gpudet_zunit_entries) overlaps.  The commit
 * lasts as long as the slowest SM or unit, plus a crossbar round trip.
 *
 * Lock-based commit (CoreDet's, -gpudet_commit lock): each warp takes a
 * lock for each of its entries with an atomic, writes it and releases the
 * lock, one entry after another; the warps of the GPU do this in parallel,
 * so the commit lasts as long as the warp with the most entries (three
 * round trips an entry), or the busiest partition (three operations an
 * entry), whichever is longer. */
static uint64_t commit(timing_gpu *g, exec_launch *L, uint32_t occ, uint32_t nwarps)
{
    uint64_t *per_part = g->det_scratch, sm_max = 0, part_max = 0, entries = 0, warp_max = 0;
    uint64_t rt = 2 * (uint64_t)g->icnt_lat + g->rop_lat + g->l2_lat; /* a round trip */
    uint64_t miss = g->l2_lat + g->dram_lat;
    uint64_t miss_cost = MAX((uint64_t)g->det_zunit, (miss + g->det_zentries - 1) / g->det_zentries);
    memset(per_part, 0, g->nparts * sizeof *per_part);
    for (uint32_t s = g->nsms; s-- > 0;) {
        tm_sm *sm = &g->sms[s];
        uint64_t sm_entries = 0;
        for (uint32_t k = occ; k-- > 0;) {
            tm_cta *tc = &sm->ctas[k];
            for (uint32_t i = nwarps; i-- > 0;) {
                tm_detwarp *d = &tc->warps[i].det;
                for (uint32_t e = 0; e < d->n; e++) {
                    tm_detentry *x = &d->log[e];
                    if (exec_global_write(L, x->chunk, x->data, x->mask, CHUNK))
                        L->oom = 1;
                    uint32_t p = tm_part_of(g, x->chunk);
                    if (g->det_lock_commit) {
                        per_part[p] += 3;
                    } else if (zcache_access(g, p, x->chunk)) {
                        per_part[p] += g->det_zunit;
                        g->st->det_zcache_hits++;
                    } else {
                        per_part[p] += miss_cost;
                        g->st->det_zcache_misses++;
                    }
                }
                sm_entries += d->n;
                warp_max = MAX(warp_max, d->n);
                d->n = 0;
                memset(d->bloom, 0, sizeof d->bloom);
            }
        }
        entries += sm_entries;
        sm_max = MAX(sm_max, sm_entries);
    }
    for (uint32_t p = 0; p < g->nparts; p++)
        part_max = MAX(part_max, per_part[p]);
    g->st->det_commit_entries += entries;
    if (!entries)
        return 0;
    if (g->det_lock_commit)
        return MAX(warp_max * 3 * rt, part_max);
    return MAX(sm_max, part_max) + rt;
}

/* Let every warp issue again from cycle t (the gate decides which). */
static void wake_all(timing_gpu *g, uint32_t occ, uint32_t nwarps, uint64_t t)
{
    for (uint32_t s = 0; s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        for (uint32_t k = 0; k < occ; k++) {
            tm_cta *tc = &sm->ctas[k];
            if (!tc->active)
                continue;
            for (uint32_t i = 0; i < nwarps; i++) {
                tm_warp *tw = &tc->warps[i];
                if (tw->w->state == WARP_RUNNING) {
                    tw->ready_at = t;
                    tw->ready_why = LOCKSTEP_STALL_SCOREBOARD;
                }
            }
        }
        sm->sched_at = MIN(sm->sched_at, t);
        sm->wake = MIN(sm->wake, t);
    }
}

/* W-Ser: the next warp for serial mode after the current one, in warp
 * order (SM, slot, warp). */
static tm_warp *next_serial(timing_gpu *g)
{
    const tm_warp *cur = g->det_serial_warp;
    for (uint32_t s = cur ? cur->tc->c->smid : 0; s < g->nsms; s++) {
        tm_warp *tw = sm_next_serial(&g->sms[s], cur && cur->tc->c->smid == s ? cur : NULL);
        if (tw)
            return tw;
    }
    return NULL;
}

/* Start a quantum's parallel mode at t: counts reset, CTAs dispatched into
 * the free slots (work distribution), every warp woken. */
static void start_parallel(timing_gpu *g, uint32_t occ, uint32_t nwarps, uint64_t t)
{
    g->det_mode = DET_PARALLEL;
    g->det_gate = t;
    g->det_dispatch = 1;
    for (uint32_t s = 0; s < g->nsms; s++)
        g->sms[s].det_next = NULL;
    FOR_EACH_WARP(g, occ, nwarps, sm, tc, tw) {
        (void)sm;
        (void)tc;
        tw->det.q_insts = 0;
        tw->det.end = 0;
        tw->det.serial = 0;
        tw->det.serial_issued = 0;
    }
    wake_all(g, occ, nwarps, t);
}

/* Serial mode: has the current turn (a warp, or an SM's warps) finished
 * its instructions, replies and built-in calls? */
static int serial_turn_done(timing_gpu *g, uint32_t occ, uint32_t nwarps)
{
    if (!g->det_cu_ser) {
        tm_warp *tw = g->det_serial_warp;
        if (!tw)
            return 1;
        if (tw->w->state == WARP_RUNNING && !tw->det.serial_issued)
            return 0;
        return !tw->loads_out && !tw->stores_out && !g->sms[tw->tc->c->smid].nsys;
    }
    tm_sm *sm = &g->sms[g->det_serial_sm];
    if (sm->det_next || sm->nsys || sm->lq_n || sm->out.n)
        return 0;
    for (uint32_t k = 0; k < occ; k++)
        for (uint32_t i = 0; i < nwarps; i++) {
            const tm_warp *tw = &sm->ctas[k].warps[i];
            if (tw->det.serial && (tw->loads_out || tw->stores_out))
                return 0;
        }
    return 1;
}

/* Serial mode's next turn: the next warp (W-Ser) or the next SM with
 * serial warps (CU-Ser); 0 when there is none. */
static int next_serial_turn(timing_gpu *g)
{
    if (!g->det_cu_ser)
        return (g->det_serial_warp = next_serial(g)) != NULL;
    uint32_t s = g->det_mode == DET_SERIAL ? g->det_serial_sm + 1 : 0;
    for (; s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        if ((sm->det_next = sm_next_serial(sm, NULL)) != NULL) {
            g->det_serial_sm = s;
            return 1;
        }
    }
    return 0;
}

int gpudet_step(timing_gpu *g, uint32_t occ, uint32_t nwarps, uint64_t end, int work_left)
{
    exec_launch *L = g->L;
    if (g->det_mode == DET_PARALLEL) {
        if (!all_stopped(g, occ, nwarps))
            return 0;
        /* a quantum in which no warp issued anything, with work left, is
         * the state the next one starts from too: nothing can progress in
         * this deterministic schedule (warps wait at barriers that never
         * release, or for each other) */
        uint64_t issued = 0;
        for (uint32_t s = 0; s < g->nsms; s++) {
            issued += g->sms[s].det_issued;
            g->sms[s].det_issued = 0;
        }
        int serial = 0; /* a warp waits to run its atomic or call in serial mode */
        FOR_EACH_WARP(g, occ, nwarps, sm, tc, tw) {
            (void)sm;
            serial |= tc->active && tw->det.serial;
        }
        if (!issued && work_left && !serial) {
            exec_fault(L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_BARRIER_DEADLOCK, 0,
                       "GPUDet: a quantum ended with no warp able to issue and work left: no "
                       "warp can make progress (warps wait at CTA barriers or for each other)");
            return 0;
        }
        /* the quantum's parallel mode is over: commit, then serial mode */
        g->st->det_quanta++;
        g->st->det_parallel_cycles += end - g->det_mode_start;
        uint64_t c = g->det_sync + commit(g, L, occ, nwarps);
        g->st->det_commit_cycles += c;
        for (uint32_t s = 0; s < g->nsms; s++)
            if (g->sms[s].l1) {
                cache_invalidate_all(g->sms[s].l1);
                for (uint32_t i = 0; i < g->sms[s].nmshr; i++)
                    g->sms[s].mshr[i].stale = 1;
            }
        uint64_t t = end + c;
        g->det_mode_start = t;
        g->det_serial_warp = NULL;
        if (next_serial_turn(g)) {
            g->det_mode = DET_SERIAL;
            g->det_gate = t + g->det_sync;
            wake_all(g, occ, nwarps, g->det_gate);
        } else {
            start_parallel(g, occ, nwarps, t + g->det_sync);
        }
        g->progress_at = MAX(g->progress_at, end);
        return 1;
    }
    if (!serial_turn_done(g, occ, nwarps))
        return 0;
    g->progress_at = MAX(g->progress_at, end);
    if (next_serial_turn(g)) {
        wake_all(g, occ, nwarps, end);
        return 1;
    }
    g->st->det_serial_cycles += end - g->det_mode_start;
    g->det_mode_start = end + g->det_sync;
    start_parallel(g, occ, nwarps, end + g->det_sync);
    return 1;
}

void gpudet_launch_begin(timing_gpu *g, uint64_t now)
{
    g->det_mode = DET_PARALLEL;
    g->det_gate = now;
    g->det_dispatch = 1;
    g->det_mode_start = now;
    g->det_serial_warp = NULL;
    for (uint32_t s = 0; s < g->nsms; s++) {
        g->sms[s].det_issued = 0;
        g->sms[s].det_next = NULL;
    }
}
