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
 *             as GPUdet-base does).  Its global stores go to its own store
 *             buffer, not to memory: a linear log in the warp's private
 *             memory, an entry per 128-byte chunk a store instruction
 *             writes, with a byte mask, behind a Bloom filter; the log's
 *             lines go through the SM's L1 (-gpudet_sb_l1).  So global
 *             memory does not change while warps run, and every load reads
 *             the state the last commit left, plus the warp's own buffered
 *             bytes (a filter hit searches the whole log).
 *   commit    when every warp has ended its quantum (or waits at a CTA
 *             barrier, or is done) and no memory operation is in flight,
 *             the logs are written to memory in a deterministic order:
 *             the Z-test of the Z-buffer units, depth -(quantum << m) +
 *             warp id, lets the lowest warp id of the quantum win a byte.
 *             The commit's cycles are modelled (commit() below); the L1s
 *             are flushed after it.
 *   serial    the warps that ended at an atomic or a built-in call run
 *             that one instruction on the ordinary memory system, one SM
 *             at a time with its warps issuing in warp order (CU-Ser: the
 *             crossbar and the partitions keep one SM's requests to one
 *             partition in order), or one warp at a time (W-Ser,
 *             -gpudet_serial warp).
 *
 * A kernel that can never finish is reported: a quantum in which no warp
 * can issue (a deadlock), or a quantum boundary whose state repeats an
 * earlier one with global memory unchanged in between (a livelock:
 * livelock() below).
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
 * The commit's cost is an analytical model of the Z-buffer units (their
 * throughput, a simulated LRU Z-cache, the request buffer's overlap of
 * misses) or of CoreDet's lock-based commit, not a cycle-by-cycle
 * simulation of the units.  Dirty log lines the L1 evicts are counted, not
 * sent through the crossbar.  Shared memory is not made deterministic (the
 * paper's limitation too).
 */
#include <stdlib.h>
#include <string.h>

#include "timing/timing_int.h"
#include "util/common.h"
#include "util/hash.h"

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

/* ---- the log in the warp's private memory, cached by the L1 ---------------------------- */

/* The address of entry e of tw's log: the warp's private memory, in a
 * range no global address uses (bit 63 set), one 128-byte line an entry. */
static uint64_t log_line(const tm_sm *sm, const tm_warp *tw, uint32_t e)
{
    uint64_t slot = (uint64_t)(tw->tc - sm->ctas) * 1024 + (uint64_t)(tw - tw->tc->warps);
    return (1ull << 63) | (slot << 32) | (uint64_t)e * CHUNK;
}

/* One access of the SM's L1 to a line of a log (-gpudet_sb_l1): 1 if it
 * missed and its data had to come from the L2 (`fetch`: the line's old
 * contents are needed; a new entry's line is written whole). */
static int log_l1(tm_sm *sm, uint64_t line, int write, int fetch)
{
    sm->st.det_sb_l1_accesses++;
    if (!sm->l1) {
        sm->st.det_sb_l1_misses++;
        return fetch;
    }
    uint32_t valid;
    int reserved;
    int idx = cache_probe(sm->l1, line, &valid, &reserved, 1, sm->now);
    if (idx >= 0 && !reserved && valid) {
        if (write)
            cache_set_dirty(sm->l1, idx, valid);
        return 0;
    }
    sm->st.det_sb_l1_misses++;
    if (idx < 0) {
        cache_victim ev;
        idx = cache_allocate(sm->l1, line, 0, &ev, sm->now);
        if (ev.valid && ev.dirty)
            sm->st.det_sb_l1_writebacks++; /* another log line, written back */
        if (idx >= 0) {
            const cache_config *cc = cache_get_config(sm->l1);
            uint32_t all = cc->line_bytes / cc->sector_bytes;
            all = all >= 32 ? 0xffffffffu : (1u << all) - 1;
            cache_fill(sm->l1, idx, all, NULL);
            if (write)
                cache_set_dirty(sm->l1, idx, all);
        }
    }
    return fetch;
}

/* A linear search of tw's log (every entry, as a load after a Bloom-filter
 * hit does): the cycles it takes. */
static uint64_t log_search_cost(tm_sm *sm, tm_warp *tw)
{
    const timing_gpu *g = sm->g;
    uint32_t n = tw->det.n, misses = 0;
    if (!g->det_sb_l1)
        return n;
    for (uint32_t e = 0; e < n; e++)
        misses += log_l1(sm, log_line(sm, tw, e), 0, 1);
    /* one entry a cycle; the misses overlap: one L2 round trip */
    return n + (misses ? 2 * (uint64_t)g->icnt_lat + g->l2_lat : 0);
}

/* Append an entry for chunk to the log (a new coalesced write); NULL when
 * the host is out of memory. */
static tm_detentry *log_append(tm_sm *sm, tm_warp *tw, uint64_t chunk)
{
    tm_detwarp *d = &tw->det;
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? 2 * d->cap : 8;
        tm_detentry *v = realloc(d->log, cap * sizeof *v);
        if (!v)
            return NULL;
        d->log = v;
        d->cap = cap;
    }
    if (sm->g->det_sb_l1)
        (void)log_l1(sm, log_line(sm, tw, d->n), 1, 0);
    tm_detentry *e = &d->log[d->n++];
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

/* A chunk as the warp's log has it: its bytes written this quantum, the
 * entries overlaid in log order (a later entry wins). */
typedef struct overlay {
    uint64_t chunk;
    uint64_t mask[2];
    uint8_t data[CHUNK];
} overlay;

static void overlay_build(const tm_detwarp *d, overlay *o)
{
    memset(o->mask, 0, sizeof o->mask);
    for (uint32_t e = 0; e < d->n; e++) {
        const tm_detentry *x = &d->log[e];
        if (x->chunk != o->chunk)
            continue;
        for (uint32_t b = 0; b < CHUNK; b++)
            if (x->mask[b / 64] >> (b % 64) & 1)
                o->data[b] = x->data[b];
        o->mask[0] |= x->mask[0];
        o->mask[1] |= x->mask[1];
    }
}

/* The first stage of an SM's interposer chain in parallel mode: a global
 * store appends its coalesced chunks to the warp's log; a global load
 * whose chunks the log holds is answered from memory overlaid with the
 * log's bytes. */
int gpudet_request(void *ud, exec_launch *L, exec_cta *c, exec_warp *w, exec_memreq *rq,
                   exec_memres *res)
{
    tm_sm *sm = ud;
    timing_gpu *g = sm->g;
    tm_warp *tw = w->timing;
    tm_detwarp *d = &tw->det;
    const ir_insn *in = rq->in;
    /* a cp.async copy reads global memory as a load does: its lanes
     * that read bytes (src-size), each its own number of them */
    if (in->op == OP_CP && in->mode != CPA_COPY)
        return 0; /* cp.async.mbarrier.arrive: no bytes of its own to read */
    int cp = in->op == OP_CP;
    uint32_t glob = 0;
    for (uint32_t m = rq->lanes; m; m &= m - 1) {
        int l = ctz32(m);
        if (is_global(rq->ad.space[l]) && (!cp || rq->v[1][l]))
            glob |= 1u << l;
    }
    if (!glob || (ptx_op_props(in->op) & OPF_ATOMIC))
        return 0; /* not global, or an atomic: serial mode's, not here */
    uint64_t now = *L->cycle;
    if (in->op == OP_ST) {
        /* checked as the memory system would (bounds, alignment, freed) */
        if (exec_mem_check(L, c, w, in, rq->lanes, &rq->ad))
            return -1;
        if (perform_other_lanes(L, c, w, rq, glob))
            return -1;
        /* one entry per 128-byte chunk the instruction writes (the
         * coalescer's), filled lane by lane in order: a later lane wins a
         * byte, as the coalescer's order does */
        uint32_t first = d->n;
        uint8_t bytes[32];
        for (uint32_t m = glob; m; m &= m - 1) {
            int l = ctz32(m);
            exec_store_bytes(rq, l, bytes);
            tm_detentry *e = NULL;
            for (uint32_t b = 0; b < rq->size && b < sizeof bytes; b++) {
                uint64_t a = rq->ad.a[l] + b, ch = a & ~(uint64_t)(CHUNK - 1);
                if (!e || e->chunk != ch) {
                    e = NULL;
                    for (uint32_t k = first; k < d->n && !e; k++)
                        if (d->log[k].chunk == ch)
                            e = &d->log[k];
                    if (!e && !(e = log_append(sm, tw, ch))) {
                        L->oom = 1;
                        exec_fault(L, c, w, l, rq->pc, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
                                   "out of host memory for a GPUDet store buffer");
                        return -1;
                    }
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
    if ((in->op != OP_LD && !cp) || !d->n)
        return 0;
    if (d->searched_pc == rq->pc + 1) {
        d->searched_pc = 0;
        return 0; /* its searches found nothing and took their time: to memory */
    }
    /* a load: for each chunk it reads, the filter first, then a search of
     * the whole log */
    uint64_t cost = 0;
    uint32_t nseen = 0, nhit = 0;
    uint64_t seen[2 * WARP_SIZE];
    overlay hit[2 * WARP_SIZE];
    for (uint32_t m = glob; m; m &= m - 1) {
        int l = ctz32(m);
        /* a copy's src-size is checked when it is performed (a fault
         * above the copy's size): bounded here by the copy's size */
        uint32_t size = cp ? (uint32_t)MIN(rq->v[1][l], (uint64_t)rq->size) : rq->size;
        uint64_t first = rq->ad.a[l] & ~(uint64_t)(CHUNK - 1);
        uint64_t last = (rq->ad.a[l] + size - 1) & ~(uint64_t)(CHUNK - 1);
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
            if (nhit == 2 * WARP_SIZE)
                break; /* cannot happen: a lane reads at most 2 chunks */
            overlay *o = &hit[nhit];
            o->chunk = ch;
            overlay_build(d, o);
            int in_log = (o->mask[0] | o->mask[1]) != 0;
            if (g->det_bloom_bits || in_log) /* an ideal filter searches only on a hit */
                cost += log_search_cost(sm, tw);
            if (in_log)
                nhit++;
            else if (g->det_bloom_bits)
                sm->st.det_bloom_false_positives++;
        }
    }
    if (cost)
        sm->st.det_sb_searches++;
    if (!nhit) {
        if (!cost)
            return 0; /* to memory, unchanged since the last commit */
        /* the searches found nothing: after them, to memory (the log does
         * not change before the warp issues again) */
        d->searched_pc = rq->pc + 1;
        res->status = EXEC_MEM_RETRY;
        res->ready = now + cost;
        return 1;
    }
    /* answer it here: memory overlaid with the log, lane by lane (a copy:
     * into shared memory, the bytes it does not read zeroed) */
    if (cp) {
        if (exec_acp_check(L, c, w, rq))
            return -1;
        exec_acp_zero(L, c, rq->lanes, rq->v[0], rq->v[1], rq->size);
    } else if (exec_mem_check(L, c, w, in, rq->lanes, &rq->ad) ||
               perform_other_lanes(L, c, w, rq, glob)) {
        return -1;
    }
    uint8_t bytes[32];
    for (uint32_t m = glob; m; m &= m - 1) {
        int l = ctz32(m);
        /* a copy's src-size is checked when it is performed (a fault
         * above the copy's size): bounded here by the copy's size */
        uint32_t size = cp ? (uint32_t)MIN(rq->v[1][l], (uint64_t)rq->size) : rq->size;
        uint32_t n = size < sizeof bytes ? size : sizeof bytes;
        exec_global_read(L, rq->ad.a[l], bytes, n);
        const overlay *o = NULL;
        for (uint32_t b = 0; b < n; b++) {
            uint64_t a = rq->ad.a[l] + b, ch = a & ~(uint64_t)(CHUNK - 1);
            if (!o || o->chunk != ch) { /* a lane's bytes are in one chunk, or two */
                o = NULL;
                for (uint32_t j = 0; j < nhit && !o; j++)
                    if (hit[j].chunk == ch)
                        o = &hit[j];
            }
            uint32_t off = (uint32_t)(a & (CHUNK - 1));
            if (o && (o->mask[off / 64] >> (off % 64) & 1))
                bytes[b] = o->data[off];
        }
        if (cp)
            exec_acp_deliver(L, c, 1u << l, &rq->ad, rq->v[0], rq->v[1], rq->ad.a[l], n, bytes);
        else
            exec_reply_load(L, c, w, w->reg_base, in, 1u << l, &rq->ad, rq->ad.a[l], bytes);
    }
    sm->st.det_sb_load_hits++;
    res->status = EXEC_MEM_DONE;
    res->ready = now + g->det_l1_lat + cost;
    return 1;
}

/* ---- the gate and the issue count -------------------------------------------------------- */

/* Whether `in` releases: it makes the warp's earlier stores visible to
 * another thread that observes it (st.release, a release or stronger
 * shared atomic, an mbarrier arrive: release unless .relaxed, which is
 * treated as release here).  Like a fence, it waits for the warp's store
 * buffer to be committed, or a reader could see it before those stores:
 * the flag or the mbarrier is in shared memory, or in the same commit. */
static int releases(const ir_insn *in)
{
    if (in->sem == SEM_RELEASE || in->sem == SEM_ACQ_REL || in->sem == SEM_SC)
        return 1;
    return in->op == OP_MBARRIER && (in->mode == MBAR_ARRIVE || in->mode == MBAR_ARRIVE_DROP);
}

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
    if ((props & OPF_FENCE) || releases(in))
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
                tm_warp_wait(sm, nx, sm->now + 1, LOCKSTEP_STALL_SCOREBOARD);
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

/* The Z-test of one commit: per chunk, the bytes warps before the current
 * one wrote (done) and the current warp wrote (cur). */
typedef struct tm_zslot {
    uint64_t chunk;   /* the chunk's address | 1; 0: an empty slot */
    uint64_t owner;   /* the warp (commit sequence number + 1) that wrote cur */
    uint64_t done[2], cur[2];
} tm_zslot;

static tm_zslot *ztab_get(timing_gpu *g, uint64_t chunk)
{
    uint64_t key = chunk | 1; /* chunks are 128-byte aligned: bit 0 marks a used slot */
    uint32_t mask = g->det_ztab_cap - 1;
    uint32_t i = (uint32_t)((chunk >> 7) * 0x9e3779b97f4a7c15ull >> 40) & mask;
    while (g->det_ztab[i].chunk && g->det_ztab[i].chunk != key)
        i = (i + 1) & mask;
    g->det_ztab[i].chunk = key;
    return &g->det_ztab[i];
}

/* Make the Z-test table hold n entries' chunks, empty; -1: out of memory. */
static int ztab_reset(timing_gpu *g, uint64_t n)
{
    uint64_t cap = 64;
    while (cap < 2 * n)
        cap *= 2;
    if (cap > g->det_ztab_cap) {
        if (cap > UINT32_MAX / 2)
            return -1;
        tm_zslot *t = realloc(g->det_ztab, cap * sizeof *t);
        if (!t)
            return -1;
        g->det_ztab = t;
        g->det_ztab_cap = (uint32_t)cap;
    }
    memset(g->det_ztab, 0, g->det_ztab_cap * sizeof *g->det_ztab);
    return 0;
}

/* Bytes whose value the write of x's masked bytes changes. */
static int changes_memory(exec_launch *L, const tm_detentry *x, const uint64_t mask[2])
{
    uint8_t cur[CHUNK];
    exec_global_read(L, x->chunk, cur, CHUNK);
    for (uint32_t b = 0; b < CHUNK; b++)
        if ((mask[b / 64] >> (b % 64) & 1) && cur[b] != x->data[b])
            return 1;
    return 0;
}

/* Write every warp's log to memory, empty the logs, and return the
 * commit's cycles.  The Z-test decides each byte: the lowest warp id (SM,
 * CTA slot, warp) of the quantum wins, and within a warp its latest entry;
 * a word that loses to a lower warp id is a Z-test drop.
 *
 * Z-buffer commit: each SM reads its warps' logs (one entry a cycle) and
 * sends each entry to its partition's Z-buffer unit, which takes
 * -gpudet_zunit_cycles an entry; an entry whose chunk's depths miss in the
 * unit's Z-cache (-gpudet_zcache_kb, LRU) waits for them from memory, a
 * wait the request buffer (-gpudet_zunit_entries) overlaps.  The commit
 * lasts as long as the slowest SM or unit, plus a crossbar round trip.
 * Depths are -(quantum id << m) + warp id with m bits for the GPU's warps;
 * when the quantum id no longer fits -gpudet_zdepth_bits, the Z-buffers are
 * reset: every partition rewrites the depths of its share of the device's
 * allocated memory, a 128-byte line a cycle.
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
    FOR_EACH_WARP(g, occ, nwarps, sm, tc, tw) {
        (void)sm;
        (void)tc;
        entries += tw->det.n; /* a finished CTA's warps too: their logs wait for this commit */
    }
    if (!entries)
        return 0;
    if (ztab_reset(g, entries)) {
        L->oom = 1;
        return 0;
    }
    uint64_t reset = 0, seq = 0;
    if (!g->det_lock_commit) {
        /* the Z-buffer depths: does this quantum's id still fit? */
        uint64_t warps = (uint64_t)g->nsms * occ * nwarps, m = 0;
        while ((1ull << m) < warps)
            m++;
        uint32_t qbits = g->det_zdepth_bits - 1 > m ? g->det_zdepth_bits - 1 - (uint32_t)m : 0;
        if (qbits < 63 && ++g->det_zquantum >= (1ull << qbits)) {
            g->det_zquantum = 0;
            g->st->det_zbuffer_resets++;
            memset(g->det_zcache, 0, (size_t)g->nparts * g->det_zlines * sizeof *g->det_zcache);
            reset = devmem_used(L->dm) / ((uint64_t)g->nparts * CHUNK) + 1;
        }
    }
    entries = 0;
    for (uint32_t s = 0; s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        uint64_t sm_entries = 0;
        for (uint32_t k = 0; k < occ; k++) {
            tm_cta *tc = &sm->ctas[k];
            for (uint32_t i = 0; i < nwarps; i++) {
                tm_detwarp *d = &tc->warps[i].det;
                seq++;
                for (uint32_t e = d->n; e-- > 0;) {
                    tm_detentry *x = &d->log[e];
                    tm_zslot *z = ztab_get(g, x->chunk);
                    if (z->owner != seq) {
                        z->done[0] |= z->cur[0];
                        z->done[1] |= z->cur[1];
                        z->cur[0] = z->cur[1] = 0;
                        z->owner = seq;
                    }
                    uint64_t win[2], lost[2];
                    for (int h = 0; h < 2; h++) {
                        lost[h] = x->mask[h] & z->done[h];
                        win[h] = x->mask[h] & ~z->done[h] & ~z->cur[h];
                        z->cur[h] |= win[h];
                    }
                    for (uint32_t w4 = 0; w4 < CHUNK / 4; w4++)
                        g->st->det_ztest_drops += (lost[w4 / 16] >> (w4 % 16 * 4) & 0xf) != 0;
                    if (win[0] | win[1]) {
                        if (!g->det_q_changed && changes_memory(L, x, win))
                            g->det_q_changed = 1;
                        if (exec_global_write(L, x->chunk, x->data, win, CHUNK))
                            L->oom = 1;
                    }
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
    if (g->det_lock_commit)
        return MAX(warp_max * 3 * rt, part_max);
    return reset + MAX(sm_max, part_max) + rt;
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
                    tm_warp_wait(sm, tw, t, LOCKSTEP_STALL_SCOREBOARD);
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

/* ---- the livelock check (-gpudet_livelock) ---------------------------------------------- */

/* Under GPUDet what a quantum does depends only on the architectural state
 * at its start: the warps' registers, predicates, PCs and SIMT stacks, the
 * CTAs' shared and local memory and barriers, which CTAs occupy which
 * slots, and global memory.  So if that state at a quantum boundary
 * equals the state at an earlier one, the kernel repeats the quanta in
 * between forever: it can never finish, in this or any run.  The check
 * looks for a repeat while quanta leave global memory unchanged (commits
 * and serial atomics wrote only the values memory held; no built-in call
 * ran), with Brent's cycle finding over quantum boundaries: a cheap hash of
 * the control state first, the full state only when that matches. */
static uint64_t state_hash(const timing_gpu *g, uint32_t occ, uint32_t nwarps, int full)
{
    const exec_launch *L = g->L;
    uint64_t h = HASH_INIT;
    for (uint32_t s = 0; s < g->nsms; s++) {
        const tm_sm *sm = &g->sms[s];
        for (uint32_t k = 0; k < occ; k++) {
            const tm_cta *tc = &sm->ctas[k];
            h = hash_mix(h, (uint64_t)tc->active << 63 | tc->c->linear);
            if (!tc->active)
                continue;
            const exec_cta *c = tc->c;
            if (full) {
                h = hash_bytes(h, c->bars, sizeof c->bars);
                h = hash_bytes(h, c->shared, L->shared_bytes);
                h = hash_bytes(h, c->local, (size_t)L->nthreads * L->local_bytes);
            }
            for (uint32_t i = 0; i < nwarps; i++) {
                const exec_warp *w = tc->warps[i].w;
                h = hash_mix(h, (uint64_t)w->state << 32 | w->live);
                h = hash_mix(h, (uint64_t)w->func << 32 | w->sp);
                h = hash_bytes(h, w->stack, w->sp * sizeof *w->stack);
                if (!full)
                    continue;
                h = hash_mix(h, (uint64_t)w->bar_id << 32 | w->bar_active);
                h = hash_mix(h, (uint64_t)w->carry << 32 | w->ncalls);
                h = hash_mix(h, (uint64_t)w->reg_base << 32 | w->pred_base);
                h = hash_mix(h, w->frame_base);
                h = hash_bytes(h, w->calls, w->ncalls * sizeof *w->calls);
                h = hash_bytes(h, w->regs, (size_t)w->regs_cap * WARP_SIZE * sizeof *w->regs);
                h = hash_bytes(h, w->preds, w->preds_cap * sizeof *w->preds);
            }
        }
    }
    return hash_final(h, full);
}

/* At a quantum boundary: 1 if the kernel is in a livelock (recorded as a
 * fault). */
static int livelock(timing_gpu *g, uint32_t occ, uint32_t nwarps)
{
    uint64_t atoms = 0;
    for (uint32_t p = 0; p < g->nparts; p++)
        atoms += g->parts[p].atom_changes;
    int quiet = !g->det_q_changed && atoms == g->det_atom_seen;
    g->det_q_changed = 0;
    g->det_atom_seen = atoms;
    if (!g->det_livelock)
        return 0;
    if (!quiet) {
        g->det_quiet = 0;
        return 0;
    }
    uint64_t pcs = state_hash(g, occ, nwarps, 0);
    if (g->det_quiet++ == 0 || g->det_quiet == g->det_brent) {
        /* Brent: save this boundary; look for it again for twice as long */
        g->det_brent = g->det_quiet == 1 ? 2 : 2 * g->det_brent;
        g->det_saved_pcs = pcs;
        g->det_saved_full = state_hash(g, occ, nwarps, 1);
        return 0;
    }
    if (pcs != g->det_saved_pcs || state_hash(g, occ, nwarps, 1) != g->det_saved_full)
        return 0;
    exec_fault(g->L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_BARRIER_DEADLOCK, 0,
               "GPUDet: livelock: the kernel's state at the start of quantum %llu repeats an "
               "earlier one, with global memory unchanged in between, so it repeats forever "
               "(warps wait for a value no warp will write: a spin lock never released, a flag "
               "never set; -gpudet_livelock 0 turns the check off)",
               (unsigned long long)g->st->det_quanta + 1);
    return 1;
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
        tw->det.searched_pc = 0;
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
            if (tc->active && tw->det.end == DET_END_CALL)
                g->det_q_changed = 1; /* printf, malloc: output, the heap */
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
            if (livelock(g, occ, nwarps))
                return 0;
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
    if (livelock(g, occ, nwarps))
        return 0;
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
    g->det_q_changed = 0;
    g->det_quiet = 0;
    g->det_atom_seen = 0;
    for (uint32_t p = 0; p < g->nparts; p++)
        g->det_atom_seen += g->parts[p].atom_changes;
    for (uint32_t s = 0; s < g->nsms; s++) {
        g->sms[s].det_issued = 0;
        g->sms[s].det_next = NULL;
    }
}
