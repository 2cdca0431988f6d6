/*
 * partition.c -- a memory partition of the timing model: the requests of
 * one address range arrive from the crossbar, wait the ROP latency, and are
 * served by the L2 slice in arrival order.  This is where global memory
 * values live (DESIGN principle 3): a load reads its line's bytes when the
 * L2 serves it, a store writes its bytes, an atomic read-modify-writes
 * lane by lane (the atomic unit).  A miss allocates an L2 MSHR; later
 * requests to the same line queue behind it, so one line's requests are
 * always served in arrival order.  Dirty evictions and fills go to the
 * DRAM channel (src/mem/dram.c) after the DRAM latency; the DRAM runs in
 * its own clock, converted from core cycles by the clock ratio.
 *
 * Modelled nondeterminism here: DRAM refresh phase and latency jitter
 * (inside the DRAM model) and, with -lockstep_nondet, the order in which
 * replies that are ready in the same cycle leave the partition.
 */
#include <stdlib.h>
#include <string.h>

#include "timing/timing_int.h"
#include "util/check.h"
#include "util/common.h"

/* DRAM cycles elapsed at core cycle t, and the core cycle at DRAM cycle d. */
static uint64_t dram_cycle_at(const timing_gpu *g, uint64_t t)
{
    return (uint64_t)((double)t * g->mhz[3] / g->mhz[0]);
}

static uint64_t core_cycle_at(const timing_gpu *g, uint64_t d)
{
    uint64_t t = (uint64_t)((double)d * g->mhz[0] / g->mhz[3]);
    while (dram_cycle_at(g, t) < d)
        t++;
    return t;
}

/* ---- the MSHR index ------------------------------------------------------------------- */

static uint32_t mshr_slot(const tm_part *p, uint64_t line)
{
    return (uint32_t)((line / TM_LINE) * 0x9E3779B97F4A7C15ull >> 32) & p->mshr_index_mask;
}

/* The MSHR in use for line, or -1. */
static int mshr_find(const tm_part *p, uint64_t line)
{
    for (uint32_t h = mshr_slot(p, line);; h = (h + 1) & p->mshr_index_mask) {
        int32_t i = p->mshr_index[h];
        if (i < 0 || p->mshr[i].line == line)
            return i;
    }
}

/* The lowest-numbered free MSHR, or -1. */
static int mshr_lowest_free(const tm_part *p)
{
    for (uint32_t w = 0; w * 64 < p->nmshr; w++)
        if (p->mshr_free[w])
            return (int)(w * 64 + (uint32_t)__builtin_ctzll(p->mshr_free[w]));
    return -1;
}

static void mshr_take(tm_part *p, uint32_t i, uint64_t line)
{
    LS_ASSERT(!p->mshr[i].used && mshr_find(p, line) < 0);
    p->mshr[i].used = 1;
    p->mshr[i].line = line;
    p->mshr_free[i / 64] &= ~(1ull << (i % 64));
    uint32_t h = mshr_slot(p, line);
    while (p->mshr_index[h] >= 0)
        h = (h + 1) & p->mshr_index_mask;
    p->mshr_index[h] = (int32_t)i;
}

/* Free MSHR i: its index slot is emptied and the entries after it in its
 * probe run move back where a lookup finds them (deletion without
 * tombstones). */
static void mshr_release(tm_part *p, uint32_t i)
{
    LS_ASSERT(p->mshr[i].used);
    uint32_t mask = p->mshr_index_mask;
    uint32_t h = mshr_slot(p, p->mshr[i].line);
    while (p->mshr_index[h] != (int32_t)i)
        h = (h + 1) & mask;
    for (uint32_t j = (h + 1) & mask; p->mshr_index[j] >= 0; j = (j + 1) & mask) {
        uint32_t home = mshr_slot(p, p->mshr[p->mshr_index[j]].line);
        /* entry j may fill the hole at h unless its home lies cyclically in (h, j] */
        if (((j - home) & mask) >= ((j - h) & mask)) {
            p->mshr_index[h] = p->mshr_index[j];
            h = j;
        }
    }
    p->mshr_index[h] = -1;
    p->mshr[i].used = 0;
    p->mshr_free[i / 64] |= 1ull << (i % 64);
}

int part_init(timing_gpu *g, tm_part *p, uint32_t id)
{
    memset(p, 0, sizeof *p);
    p->id = id;
    p->g = g;
    if (!(p->l2 = cache_create(&g->l2cfg, 0)))
        return -1;
    if (config_fault_site(g->cfg->fault_site) == FSITE_L2TAG) {
        uint32_t n = cache_nlines(p->l2);
        if (!(p->dram_copy = malloc((size_t)n * TM_LINE)) ||
            !(p->dram_mask = calloc(n, sizeof *p->dram_mask)))
            return -1;
    }
    if (!(p->dram = dram_create(&g->dcfg, g->cfg->nondet ? g->cfg->nondet_seed : 0, id)))
        return -1;
    p->nmshr = g->l2cfg.mshr_entries ? g->l2cfg.mshr_entries : 1;
    if (!(p->mshr = calloc(p->nmshr, sizeof *p->mshr)))
        return -1;
    uint32_t cap = 4;
    while (cap < 2 * p->nmshr)
        cap *= 2;
    p->mshr_index_mask = cap - 1;
    if (!(p->mshr_index = malloc(cap * sizeof *p->mshr_index)) ||
        !(p->mshr_free = calloc((p->nmshr + 63) / 64, sizeof *p->mshr_free)))
        return -1;
    for (uint32_t h = 0; h < cap; h++)
        p->mshr_index[h] = -1;
    for (uint32_t i = 0; i < p->nmshr; i++)
        p->mshr_free[i / 64] |= 1ull << (i % 64);
    p->dq_cap = 64;
    if (!(p->dq = calloc(p->dq_cap, sizeof *p->dq)))
        return -1;
    if (g->dmr && dmr_part_init(p))
        return -1;
    rng_seed(&p->rng, g->cfg->nondet_seed, RNG_REPLY, id);
    rng_seed(&p->l2_rng, g->cfg->nondet_seed, RNG_L2, id);
    return 0;
}

void part_release(tm_part *p)
{
    sb_free(&p->L.fault_msg);
    cache_free(p->l2);
    free(p->dram_copy);
    free(p->dram_mask);
    dram_free(p->dram);
    free(p->mshr);
    free(p->mshr_index);
    free(p->mshr_free);
    free(p->dq);
    dmr_part_release(p);
}

int part_idle(const tm_part *p)
{
    if (p->rop.n || p->replies.n)
        return 0;
    for (uint32_t i = 0; i < p->nmshr; i++)
        if (p->mshr[i].used)
            return 0;
    /* write-backs too: a launch ends when they have drained, so that what
     * the next launch finds in the DRAM does not depend on where the last
     * window ended (docs/ARCHITECTURE.md, "Jumping over idle time") */
    return p->dq_n == 0 && dram_idle(p->dram);
}

void part_reset_inflight(tm_part *p)
{
    dmr_part_reset(p);
    p->l2_stuck = 0;
    p->rop.head = p->rop.tail = NULL;
    p->rop.n = 0;
    p->replies.head = p->replies.tail = NULL;
    p->replies.n = 0;
    for (uint32_t i = 0; i < p->nmshr; i++) {
        if (p->mshr[i].used) {
            cache_victim ev;
            cache_fill(p->l2, p->mshr[i].l2line, 0, NULL); /* release the reservation */
            cache_invalidate(p->l2, tm_part_local(p->g, p->mshr[i].line), &ev);
            mshr_release(p, i);
        }
        p->mshr[i].waiting.head = p->mshr[i].waiting.tail = NULL;
        p->mshr[i].waiting.n = 0;
    }
    /* DRAM jobs of dropped fills become plain reads nobody waits for */
    for (uint32_t i = 0; i < p->dq_n; i++)
        p->dq[(p->dq_head + i) % p->dq_cap].tag = TM_WRITEBACK;
    /* and what the DRAM has accepted runs to completion now, so that no
     * late completion can reach an MSHR a later launch reuses */
    uint64_t t, tag, done;
    while ((t = dram_next_event(p->dram)) != UINT64_MAX) {
        dram_advance(p->dram, t);
        p->dram_now = t;
        while (dram_pop_done(p->dram, &tag, &done))
            ;
    }
    if (p->dram_now) {
        uint64_t c = core_cycle_at(p->g, p->dram_now) + 1;
        if (c > p->g->now)
            p->g->now = c;
    }
}

/* -lockstep_l2_queue: is there room past the ROP delay for one more?  The
 * ROP pipeline is a FIFO with one latency, so the requests waiting for the
 * L2 are a prefix of it. */
int part_can_accept(const tm_part *p, uint64_t now)
{
    uint32_t lim = p->g->cfg->l2_queue;
    if (!lim)
        return 1;
    uint32_t n = 0;
    for (const tm_req *r = p->rop.head; r && r->t <= now && n < lim; r = r->next)
        n++;
    return n < lim;
}

/* DMR's commit writes and released atomics enter the ROP queue from the
 * serial step, with the cycle they may go on (dmr.c). */
static int rop_injected(const tm_req *r)
{
    return (r->flags & REQF_DMR_COMMIT) || r->dmr_go;
}

/* Put r in the ROP queue in the order (t, arrivals before injected
 * requests, then the order they came), whatever serial step injected a
 * request: so the order does not depend on where windows fall.  Without
 * injected requests the queue is in t order and r goes last. */
void part_rop_insert(tm_part *p, tm_req *r)
{
    int inj = rop_injected(r);
    tm_req *tail = p->rop.tail;
    if (!tail || tail->t < r->t || (tail->t == r->t && (inj || !rop_injected(tail)))) {
        reqq_push(&p->rop, r);
        return;
    }
    /* (a head the L2 could not take has t <= now, before anything new) */
    tm_req **pp = &p->rop.head;
    while (*pp && !((*pp)->t > r->t || ((*pp)->t == r->t && !inj && rop_injected(*pp))))
        pp = &(*pp)->next;
    r->next = *pp;
    *pp = r;
    if (!r->next)
        p->rop.tail = r;
    p->rop.n++;
}

void part_accept(tm_part *p, tm_req *r, uint64_t now)
{
    r->t = now + p->g->rop_lat;
    part_rop_insert(p, r);
}

static int dq_push(tm_part *p, uint64_t t, uint64_t addr, uint32_t tag, int write)
{
    if (p->dq_n == p->dq_cap) {
        tm_djob *n = malloc(2 * p->dq_cap * sizeof *n);
        if (!n)
            return -1;
        for (uint32_t i = 0; i < p->dq_n; i++)
            n[i] = p->dq[(p->dq_head + i) % p->dq_cap];
        free(p->dq);
        p->dq = n;
        p->dq_head = 0;
        p->dq_cap *= 2;
    }
    p->dq[(p->dq_head + p->dq_n) % p->dq_cap] = (tm_djob){t, addr, tag, (uint8_t)write};
    p->dq_n++;
    return 0;
}

/* A line left the L2: the end of a cache fault in it (tm_part.fault). */
static void l2_fault_evicted(tm_part *p, const cache_victim *ev)
{
    if (!p->fault.on || !ev->valid || ev->line_addr != p->fault.line)
        return;
    p->fault.on = 0;
    for (uint32_t m = p->fault.words; m; m &= m - 1) {
        uint32_t w = (uint32_t)ctz32(m);
        if (ev->dirty & cache_sector_mask(p->l2, p->fault.line + 4 * w, 4))
            continue; /* written back: DRAM holds the L2's word now */
        uint8_t b[4];
        uint32_t v;
        exec_global_read(&p->L, p->fault.dev[w], b, 4);
        memcpy(&v, b, 4);
        if (v != p->fault.l2[w])
            continue;
        uint64_t mask[2] = {0xf, 0};
        memcpy(b, &p->fault.dram[w], 4);
        if (exec_global_write(&p->L, p->fault.dev[w], b, mask, 4))
            p->L.oom = 1;
    }
}

/* l2tag: before the sectors sec of line (device line address dline) may
 * become dirty, keep DRAM's bytes of those that are clean (tm_part.dram_copy). */
static void dram_keep(tm_part *p, int line, uint64_t dline, uint32_t sec)
{
    if (!p->dram_copy)
        return;
    cache_line_state st;
    cache_line_get(p->l2, line, &st);
    uint32_t need = sec & ~st.dirty & ~p->dram_mask[line], sb = p->g->l2cfg.sector_bytes;
    for (uint32_t m = need; m; m &= m - 1) {
        uint32_t o = (uint32_t)ctz32(m) * sb;
        exec_global_read(&p->L, dline + o, p->dram_copy + (size_t)line * TM_LINE + o, sb);
    }
    p->dram_mask[line] |= need;
}

int part_tag_free(tm_part *p, uint64_t la)
{
    return cache_probe(p->l2, la, NULL, NULL, 0, 0) < 0 &&
           mshr_find(p, tm_part_global(p->g, p->id, la)) < 0;
}

/* The values follow the tag: the new address answers with the line's
 * bytes; the old one reads DRAM again (the bytes dram_keep kept for a dirty
 * sector; a clean one's are the line's).  For the clean sectors DRAM's
 * bytes of the new address are what device memory gets back when the line
 * leaves the L2 clean (tm_part.fault); the dirty ones will be written back
 * to the new address.  Words outside every live allocation are not kept
 * (no program can read them). */
int part_retag(tm_part *p, int line, uint64_t la)
{
    timing_gpu *g = p->g;
    exec_launch *L = g->L;
    cache_line_state st;
    cache_line_get(p->l2, line, &st);
    if (!L || !p->dram_copy || !st.present || st.reserved)
        return -1;
    if (la == st.line_addr)
        return 0;
    if (cache_set_of(p->l2, la) != cache_set_of(p->l2, st.line_addr) || !part_tag_free(p, la))
        return -1;
    uint64_t ga = tm_part_global(g, p->id, st.line_addr), ga2 = tm_part_global(g, p->id, la);
    uint64_t mask[2] = {0xf, 0};
    p->fault.on = 1;
    p->fault.line = la;
    p->fault.words = 0;
    for (uint32_t w = 0; w < TM_LINE / 4; w++) {
        uint32_t sec = cache_sector_mask(p->l2, st.line_addr + 4 * w, 4);
        if (!(st.valid & sec))
            continue;
        uint64_t d1, d2;
        int has1 = !tm_dev_of_phys(L->dm, ga + 4 * w, &d1);
        int has2 = !tm_dev_of_phys(L->dm, ga2 + 4 * w, &d2);
        uint8_t cur[4] = {0}, old2[4] = {0};
        if (has1)
            exec_global_read(L, d1, cur, 4);
        if (has2) {
            exec_global_read(L, d2, old2, 4);
            if (exec_global_write(L, d2, cur, mask, 4))
                L->oom = 1;
        }
        if (st.dirty & sec) {
            if (has1 && (p->dram_mask[line] & sec) &&
                exec_global_write(L, d1, p->dram_copy + (size_t)line * TM_LINE + 4 * w, mask, 4))
                L->oom = 1;
        } else if (has2) {
            p->fault.words |= 1u << w;
            p->fault.dev[w] = d2;
            memcpy(&p->fault.dram[w], old2, 4);
            memcpy(&p->fault.l2[w], cur, 4);
        }
    }
    /* what DRAM holds for the line's clean sectors is in fault now */
    p->dram_mask[line] |= st.valid;
    return cache_retag(p->l2, line, la);
}

/* Every line that leaves the L2 comes here: a dirty one is written back. */
static void writeback(tm_part *p, const cache_victim *ev, uint64_t now)
{
    l2_fault_evicted(p, ev);
    if (!ev->valid || !ev->dirty)
        return;
    p->st.l2_writebacks++;
    dq_push(p, now + p->g->dram_lat, ev->line_addr, TM_WRITEBACK, 1);
}

/* Serve request r at the L2 now: the data moves here. */
static void serve(tm_part *p, tm_req *r, uint64_t now)
{
    timing_gpu *g = p->g;
    exec_launch *L = &p->L;
    if (r->flags & REQF_DMR_COMMIT) {
        /* a confirmed DMR pair's write (dmr.c): no reply */
        dmr_committed(p, r);
        return;
    }
    if ((r->flags & REQF_VALUES) && r->dmr_pair && r->type != REQ_RD && !r->dmr_go) {
        /* DMR: the comparator takes a copy's store or atomic here */
        if (dmr_write(p, r, now))
            return;
    } else if (r->flags & REQF_VALUES) {
        switch (r->type) {
        case REQ_RD:
            exec_global_read(L, r->line, r->data, TM_LINE);
            if (g->dmr && p->dmr_n)
                dmr_overlay(p, r);
            break;
        case REQ_WR:
            if (exec_global_write(L, r->line, r->data, r->bmask, TM_LINE))
                L->oom = 1;
            break;
        default: {
            uint64_t old[WARP_SIZE];
            tm_mop *m = r->mop;
            int changed = exec_atom_global(L, m->in, r->lanes, &m->ad, m->b, m->cv, old);
            if (changed < 0)
                L->oom = 1;
            else
                p->atom_changes += (uint64_t)changed;
            for (uint32_t k = r->lanes; k; k &= k - 1) {
                int l = ctz32(k);
                memcpy(r->data + 8 * l, &old[l], 8);
            }
            if (r->twin) {
                /* DMR: the atomic ran once; both copies get its old values */
                memcpy(r->twin->data, r->data, sizeof r->data);
                r->twin->t = now + g->l2_lat;
                reqq_push(&p->replies, r->twin);
                r->twin = NULL;
            }
            break;
        }
        }
    }
    r->t = now + g->l2_lat;
    if (g->nd_l2_jitter) /* modelled: seeded L2 latency jitter */
        r->t += rng_below(&p->l2_rng, g->nd_l2_jitter + 1);
    reqq_push(&p->replies, r);
}

/* -lockstep_l2_write_merge: may store r, whose line's fill m is
 * outstanding, be performed before the requests waiting for that fill?
 * Only a plain store (not an atomic, not one DMR's comparator holds), and
 * only if no request of its own SM waits there: one SM's requests to one
 * line are still performed in the order they arrive, so no thread sees its
 * own later store, and a warp's store never passes its own earlier load. */
static int write_merges(const tm_part *p, const tm_l2mshr *m, const tm_req *r)
{
    if (!p->g->cfg->l2_write_merge || r->type != REQ_WR || r->dmr_pair ||
        (r->flags & REQF_DMR_COMMIT))
        return 0;
    for (const tm_req *q = m->waiting.head; q; q = q->next)
        if (q->sm == r->sm)
            return 0;
    return 1;
}

/* The L2 access of the oldest request past the ROP; 0 if it must wait. */
static int l2_access(tm_part *p, tm_req *r, uint64_t now)
{
    timing_gpu *g = p->g;
    lockstep_timing_stats *st = &p->st;
    uint64_t la = tm_part_local(g, r->pline);
    int busy = mshr_find(p, r->pline);
    if (busy >= 0) {
        tm_l2mshr *m = &p->mshr[busy];
        st->l2_accesses++;
        if (write_merges(p, m, r)) {
            /* -lockstep_l2_write_merge: performed now, into the line
             * being filled (write-validate): its sectors stay the L2's
             * when the fill lands, and the loads waiting for the fill
             * read them then */
            uint32_t sec = cache_sectors_of(p->l2, r->sectors, TM_SECTOR);
            st->l2_misses++;
            m->merged |= sec;
            dram_keep(p, m->l2line, r->line, sec);
            serve(p, r, now);
            return 1;
        }
        /* a fill of this line is outstanding: wait behind it, in order */
        reqq_push(&m->waiting, r);
        return 1;
    }
    uint32_t valid = 0;
    int reserved = 0;
    int idx = cache_probe(p->l2, la, &valid, &reserved, 1, now);
    /* the request's 32-byte sectors as the L2's (a normal cache's one) */
    uint32_t sec = cache_sectors_of(p->l2, r->sectors, TM_SECTOR);
    cache_victim ev;
    if (r->type == REQ_WR) {
        /* write-allocate without a fetch: the written sectors become valid */
        if (idx < 0) {
            idx = cache_allocate(p->l2, la, 0, &ev, now);
            if (idx < 0)
                return 0;
            writeback(p, &ev, now);
            if (p->dram_mask)
                p->dram_mask[idx] = 0;
        }
        st->l2_accesses++;
        if ((valid & sec) != sec)
            st->l2_misses++;
        dram_keep(p, idx, r->line, sec);
        cache_fill(p->l2, idx, sec, NULL);
        cache_set_dirty(p->l2, idx, sec);
        serve(p, r, now);
        return 1;
    }
    if (idx >= 0 && !reserved && (valid & sec) == sec) {
        st->l2_accesses++;
        if (r->type == REQ_ATOM) {
            dram_keep(p, idx, r->line, sec);
            cache_set_dirty(p->l2, idx, sec);
        }
        serve(p, r, now);
        return 1;
    }
    int free_i = mshr_lowest_free(p);
    if (free_i < 0)
        return 0;
    tm_l2mshr *m = &p->mshr[free_i];
    if (idx >= 0) {
        /* present with other sectors: refetch it whole as a reserved line */
        cache_invalidate(p->l2, la, &ev);
        writeback(p, &ev, now);
    }
    int li = cache_allocate(p->l2, la, 1, &ev, now);
    if (li < 0)
        return 0;
    writeback(p, &ev, now);
    if (p->dram_mask)
        p->dram_mask[li] = 0;
    st->l2_accesses++;
    st->l2_misses++;
    mshr_take(p, (uint32_t)free_i, r->pline);
    m->l2line = li;
    m->merged = 0;
    m->waiting.head = m->waiting.tail = NULL;
    m->waiting.n = 0;
    reqq_push(&m->waiting, r);
    if (dq_push(p, now + g->dram_lat, la, (uint32_t)(m - p->mshr), 0)) {
        p->L.oom = 1;
        return 1;
    }
    return 1;
}

void part_cycle(tm_part *p, uint64_t now)
{
    timing_gpu *g = p->g;
    /* DRAM: fills that completed serve their waiting requests in order */
    uint64_t dnow = dram_cycle_at(g, now);
    if (dnow < p->dram_now)
        dnow = p->dram_now;
    dram_advance(p->dram, dnow);
    p->dram_now = dnow;
    uint64_t tag, done;
    while (dram_pop_done(p->dram, &tag, &done)) {
        tm_progress(&p->progress_at, now);
        p->l2_stuck = 0;
        if (tag == TM_WRITEBACK)
            continue;
        tm_l2mshr *m = &p->mshr[tag];
        if (!m->used)
            continue;
        uint32_t all = (1u << (TM_LINE / TM_SECTOR)) - 1;
        cache_fill(p->l2, m->l2line, all, NULL);
        if (m->merged) /* stores performed while the fill was out: newer than DRAM */
            cache_set_dirty(p->l2, m->l2line, m->merged);
        tm_req *r;
        while ((r = reqq_pop(&m->waiting))) {
            if (r->type == REQ_WR || r->type == REQ_ATOM) {
                uint32_t sec = cache_sectors_of(p->l2, r->sectors, TM_SECTOR);
                dram_keep(p, m->l2line, r->line, sec);
                cache_set_dirty(p->l2, m->l2line, sec);
            }
            serve(p, r, now);
        }
        mshr_release(p, (uint32_t)tag);
    }
    while (p->dq_n && p->dq[p->dq_head].t <= now && dram_can_accept(p->dram)) {
        tm_djob *j = &p->dq[p->dq_head];
        dram_push(p->dram, dnow, j->addr, TM_LINE, j->write, j->tag);
        p->dq_head = (p->dq_head + 1) % p->dq_cap;
        p->dq_n--;
    }
    /* the L2 takes one request per cycle */
    if (p->rop.head && p->rop.head->t <= now && !p->l2_stuck) {
        tm_req *r = reqq_pop(&p->rop);
        if (l2_access(p, r, now)) {
            tm_progress(&p->progress_at, now);
        } else {
            /* no MSHR or line free: back to the head, retried after the
             * next DRAM completion (nothing else frees either, and a try
             * before it would fail the same way: the only state a failed
             * try changes is its line's LRU stamp, and no other access
             * touches the L2 in between) */
            p->l2_stuck = 1;
            r->next = p->rop.head;
            p->rop.head = r;
            if (!p->rop.tail)
                p->rop.tail = r;
            p->rop.n++;
        }
    }
    /* replies leave through the crossbar */
    while (p->replies.head && p->replies.head->t <= now) {
        if (g->nd_reply_shuffle > 1 && p->replies.n > 1) {
            /* modelled nondeterminism: which of the replies ready now goes first */
            uint32_t nready = 0;
            for (tm_req *q = p->replies.head; q && q->t <= now && nready < g->nd_reply_shuffle;
                 q = q->next)
                nready++;
            uint32_t k = nready > 1 ? rng_below(&p->rng, nready) : 0;
            if (k) {
                tm_req *prev = p->replies.head;
                for (uint32_t i = 1; i < k; i++)
                    prev = prev->next;
                tm_req *q = prev->next;
                prev->next = q->next;
                if (p->replies.tail == q)
                    p->replies.tail = prev;
                q->next = p->replies.head;
                p->replies.head = q;
            }
        }
        tm_req *r = p->replies.head;
        uint32_t bytes = tm_req_bytes(r, 1);
        if (!icnt_has_space_at(g->repnet, p->id, bytes, now))
            break;
        reqq_pop(&p->replies);
        icnt_push(g->repnet, now, p->id, r->sm, bytes, r);
        tm_progress(&p->progress_at, now);
    }
}

uint64_t part_next_event(const tm_part *p, uint64_t now)
{
    const timing_gpu *g = p->g;
    uint64_t t = TM_NEVER;
    if (p->rop.head && !p->l2_stuck)
        t = MIN(t, p->rop.head->t > now ? p->rop.head->t : now + 1);
    if (p->replies.head)
        t = MIN(t, p->replies.head->t > now ? p->replies.head->t : now + 1);
    if (p->dq_n)
        t = MIN(t, p->dq[p->dq_head].t > now ? p->dq[p->dq_head].t : now + 1);
    uint64_t d = dram_next_event(p->dram);
    if (d != UINT64_MAX) {
        uint64_t c = core_cycle_at(g, d);
        t = MIN(t, c > now ? c : now + 1);
    }
    return t;
}
