/*
 * dmr.c -- redundant execution (-lockstep_redundancy dmr): Sheaffer et
 * al.'s dual issue with a comparator where results are written, carried
 * over to compute kernels (docs/RELIABILITY.md, "Redundant execution: DMR").
 *
 * The sphere of replication is the SMs.  Every CTA runs twice, as a pair
 * of copies in two CTA slots dispatched together (engine.c).  Each global
 * store or atomic line request of a copy carries its key: (pair, warp
 * index, the warp's global-write sequence number).  The comparator sits
 * at the memory partitions, where the request would write (partition.c's
 * serve, after the L2's ordering):
 *
 *   - the first copy's store is held in the partition's log, not written,
 *     and acknowledged at once; the second copy's store with the same key
 *     is compared bitwise (bytes written and their values): agreement
 *     makes the entry AGREED, a difference fails the pair;
 *   - the first copy's atomic waits (no reply); the second with equal
 *     operands makes it ATOM_AGREED, and the serial step commits the
 *     pair's agreed log, then releases the atomic, which executes once and
 *     answers both copies with the same old values;
 *   - a copy's load sees its own logged writes laid over the line (and no
 *     other copy's); its reply fills no L1, nor does any reply for a line
 *     with unconfirmed writes, so no other CTA sees them.
 *
 * Partitions change only their own comparator in a window; everything
 * that looks at several partitions (a pair's failure, an atomic's release,
 * an atomic that can never be matched, a finished pair's check, commit or
 * reissue) happens in dmr_step, in the serial step, in partition and list
 * order, so results do not depend on host threads or window order.
 *
 * A pair whose copies have both finished is confirmed when no entry of it
 * is left unmatched and no mismatch was found: its agreed log is written
 * to memory, each line also sent to its partition's L2 as a write (the
 * cost).  A failed pair that has committed nothing is reissued (both
 * copies from the CTA's start), up to -dmr_max_reissues times; one that
 * has committed (an atomic released) cannot be: the launch fails with
 * LOCKSTEP_ERROR_REDUNDANCY.
 */
#include <stdlib.h>
#include <string.h>

#include "timing/timing_int.h"
#include "util/check.h"
#include "util/common.h"

#define DMR_BUCKETS 1024u

#define DMR_LINE_COUNTERS 16384u

/* Changes to the entries of (pair, warp) in partition p: what a waiting
 * atomic's decision reads (dmr_step).  A CTA has at most 32 warps. */
#define TM_DMR_WARPS 32u
#define PGEN(p, pair, warp) ((p)->dmr_pgen[(size_t)(pair) * TM_DMR_WARPS + ((warp) & (TM_DMR_WARPS - 1))])

/* The comparator's entries are found by key (pair, warp, seq) in dmr_b;
 * which lines have unconfirmed writes, by a counting filter over line
 * addresses (dmr_lines: a false positive only keeps a reply out of an L1). */
static uint32_t bucket_of(const tm_part *p, uint32_t pair, uint32_t warp, uint32_t seq)
{
    uint64_t k = ((uint64_t)pair << 32 | (uint64_t)warp << 24) ^ seq;
    return (uint32_t)(k * 0x9E3779B97F4A7C15ull >> 40) & (p->dmr_nb - 1);
}

#define DMR_LINE_BUCKETS 4096u

static uint32_t lbucket_of(uint32_t pair, uint64_t line)
{
    return (uint32_t)(((line / TM_LINE) ^ (uint64_t)pair << 40) * 0x9E3779B97F4A7C15ull >> 40) &
           (DMR_LINE_BUCKETS - 1);
}

static uint32_t *line_counter(tm_part *p, uint64_t line)
{
    return &p->dmr_lines[(uint32_t)((line / TM_LINE) * 0x9E3779B97F4A7C15ull >> 40) &
                         (DMR_LINE_COUNTERS - 1)];
}

int dmr_part_init(tm_part *p)
{
    p->dmr_nb = DMR_BUCKETS;
    p->dmr_b = calloc(p->dmr_nb, sizeof *p->dmr_b);
    p->dmr_lines = calloc(DMR_LINE_COUNTERS, sizeof *p->dmr_lines);
    p->dmr_lb = calloc(DMR_LINE_BUCKETS, sizeof *p->dmr_lb);
    return p->dmr_b && p->dmr_lines && p->dmr_lb ? 0 : -1;
}

/* The pair and held-atomic lists of an entry. */
static void plist_append(tm_part *p, tm_dmrent *e)
{
    e->pnext = NULL;
    e->pprev = p->dmr_ptail[e->pair];
    if (e->pprev)
        e->pprev->pnext = e;
    else
        p->dmr_phead[e->pair] = e;
    p->dmr_ptail[e->pair] = e;
}

static void held_add(tm_part *p, tm_dmrent *e)
{
    e->held = 1;
    e->hprev = NULL;
    e->hnext = p->dmr_hhead;
    if (e->hnext)
        e->hnext->hprev = e;
    p->dmr_hhead = e;
}

static void held_remove(tm_part *p, tm_dmrent *e)
{
    if (!e->held)
        return;
    e->held = 0;
    if (e->hprev)
        e->hprev->hnext = e->hnext;
    else
        p->dmr_hhead = e->hnext;
    if (e->hnext)
        e->hnext->hprev = e->hprev;
}

/* Remove entry e from p's log and free it. */
static void unlink_free(tm_part *p, tm_dmrent *e)
{
    PGEN(p, e->pair, e->warp)++;
    tm_dmrent **pp = &p->dmr_b[bucket_of(p, e->pair, e->warp, e->seq)];
    while (*pp != e)
        pp = &(*pp)->next;
    *pp = e->next;
    if (e->type == REQ_WR)
        (*line_counter(p, e->line))--;
    if (e->lprev)
        e->lprev->lnext = e->lnext;
    else
        p->dmr_lb[lbucket_of(e->pair, e->line)] = e->lnext;
    if (e->lnext)
        e->lnext->lprev = e->lprev;
    if (e->pprev)
        e->pprev->pnext = e->pnext;
    else
        p->dmr_phead[e->pair] = e->pnext;
    if (e->pnext)
        e->pnext->pprev = e->pprev;
    else
        p->dmr_ptail[e->pair] = e->pprev;
    held_remove(p, e);
    p->dmr_n--;
    free(e);
}

/* Drop every entry (after a fault, or at release). */
void dmr_part_reset(tm_part *p)
{
    for (uint32_t b = 0; p->dmr_b && b < p->dmr_nb; b++) {
        tm_dmrent *e = p->dmr_b[b], *n;
        for (; e; e = n) {
            n = e->next;
            free(e);
        }
        p->dmr_b[b] = NULL;
    }
    p->dmr_n = 0;
    p->dmr_hhead = NULL;
    if (p->dmr_lines)
        memset(p->dmr_lines, 0, DMR_LINE_COUNTERS * sizeof *p->dmr_lines);
    if (p->dmr_lb)
        memset(p->dmr_lb, 0, DMR_LINE_BUCKETS * sizeof *p->dmr_lb);
    if (p->dmr_pcap) {
        memset(p->dmr_phead, 0, p->dmr_pcap * sizeof *p->dmr_phead);
        memset(p->dmr_ptail, 0, p->dmr_pcap * sizeof *p->dmr_ptail);
        memset(p->dmr_pgen, 0, (size_t)p->dmr_pcap * TM_DMR_WARPS * sizeof *p->dmr_pgen);
    }
    p->dmr_nfail = p->dmr_nready = 0;
    /* commit requests dropped with the queues are free again */
    p->dmr_free = NULL;
    for (uint32_t i = 0; i < p->dmr_nreqs; i++) {
        p->dmr_reqs[i]->next = p->dmr_free;
        p->dmr_free = p->dmr_reqs[i];
    }
}

void dmr_part_release(tm_part *p)
{
    dmr_part_reset(p);
    free(p->dmr_b);
    free(p->dmr_lines);
    free(p->dmr_lb);
    free(p->dmr_phead);
    free(p->dmr_ptail);
    free(p->dmr_pgen);
    free(p->dmr_fail);
    free(p->dmr_ready);
    free(p->dmr_scratch);
    for (uint32_t i = 0; i < p->dmr_nreqs; i++)
        free(p->dmr_reqs[i]);
    free(p->dmr_reqs);
}

static int grow(void **v, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    uint32_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *n = realloc(*v, (size_t)c * size);
    if (!n)
        return -1;
    *v = n;
    *cap = c;
    return 0;
}

/* The partition found pair `pair` disagreeing; the serial step decides. */
static void fail_local(tm_part *p, uint32_t pair)
{
    for (uint32_t i = 0; i < p->dmr_nfail; i++)
        if (p->dmr_fail[i] == pair)
            return;
    if (grow((void **)&p->dmr_fail, &p->dmr_fail_cap, p->dmr_nfail + 1, sizeof *p->dmr_fail)) {
        p->L.oom = 1;
        return;
    }
    p->dmr_fail[p->dmr_nfail++] = pair;
}

/* Answer an atomic of a failed pair without changing memory: each lane's
 * old value is what memory holds (the pair's results are discarded). */
static void answer_read(tm_part *p, exec_launch *L, tm_req *r)
{
    (void)p;
    for (uint32_t k = r->lanes; k; k &= k - 1) {
        int l = ctz32(k);
        uint64_t v = 0;
        exec_global_read(L, r->mop->ad.a[l], (uint8_t *)&v, 8);
        memcpy(r->data + 8 * l, &v, 8);
    }
}

/* Do two atomic line requests carry the same operation and operands? */
static int atom_equal(const tm_req *a, const tm_req *b)
{
    const tm_mop *x = a->mop, *y = b->mop;
    if (a->line != b->line || a->lanes != b->lanes || x->in != y->in)
        return 0;
    for (uint32_t k = a->lanes; k; k &= k - 1) {
        int l = ctz32(k);
        if (x->ad.a[l] != y->ad.a[l] || x->b[l] != y->b[l] || x->cv[l] != y->cv[l])
            return 0;
    }
    return 1;
}

static int store_equal(const tm_dmrent *e, const tm_req *r)
{
    if (e->line != r->line || e->bmask[0] != r->bmask[0] || e->bmask[1] != r->bmask[1])
        return 0;
    for (uint32_t b = 0; b < TM_LINE; b++)
        if (((e->bmask[b >> 6] >> (b & 63)) & 1) && e->data[b] != r->data[b])
            return 0;
    return 1;
}

int dmr_write(tm_part *p, tm_req *r, uint64_t now)
{
    timing_gpu *g = p->g;
    const tm_dmrpair *pr = &g->dmr_pairs[r->dmr_pair];
    uint32_t b = bucket_of(p, r->dmr_pair, r->dmr_warp, r->dmr_seq);
    if (pr->failed) {
        if (r->type == REQ_ATOM)
            answer_read(p, &p->L, r);
        return 0;
    }
    PGEN(p, r->dmr_pair, r->dmr_warp)++; /* an entry is made, matched or found to differ */
    tm_dmrent *e = p->dmr_b[b];
    while (e && !(e->pair == r->dmr_pair && e->warp == r->dmr_warp && e->seq == r->dmr_seq &&
                  e->line == r->line))
        e = e->next;
    if (!e) {
        /* the first copy: the full bit set */
        if (!(e = malloc(sizeof *e))) {
            p->L.oom = 1;
            return 0;
        }
        e->ord = p->dmr_ord++;
        e->line = r->line;
        e->pline = r->pline;
        e->since = now;
        e->pair = r->dmr_pair;
        e->seq = r->dmr_seq;
        e->first = r->dmr_first;
        e->warp = r->dmr_warp;
        e->state = r->dmr_copy ? DMR_HELD1 : DMR_HELD0;
        e->type = r->type;
        e->sectors = r->sectors;
        e->req = e->req2 = NULL;
        e->held = 0;
        e->chk_ok = 0;
        if (r->type == REQ_WR) {
            (*line_counter(p, r->line))++;
            e->bmask[0] = r->bmask[0];
            e->bmask[1] = r->bmask[1];
            memcpy(e->data, r->data, TM_LINE);
        } else {
            e->bmask[0] = e->bmask[1] = 0;
            e->req = r;
            held_add(p, e);
        }
        e->next = p->dmr_b[b];
        p->dmr_b[b] = e;
        plist_append(p, e);
        tm_dmrent **lh = &p->dmr_lb[lbucket_of(e->pair, e->line)];
        e->lprev = NULL;
        e->lnext = *lh;
        if (*lh)
            (*lh)->lprev = e;
        *lh = e;
        p->dmr_n++;
        p->dmr_max = MAX(p->dmr_max, p->dmr_n);
        return r->type == REQ_ATOM;
    }
    /* the second copy (or a second request with a key already seen) */
    p->st.dmr_comparisons++;
    uint8_t other = r->dmr_copy ? DMR_HELD0 : DMR_HELD1;
    int same = e->state == other && e->type == r->type &&
               (r->type == REQ_WR ? store_equal(e, r) : atom_equal(e->req, r));
    if (same)
        e->matched = now;
    if (same && r->type == REQ_WR) {
        e->state = DMR_AGREED;
        return 0;
    }
    if (same) {
        e->state = DMR_ATOM_AGREED;
        e->chk_ok = 0;
        e->req2 = r;
        held_remove(p, e);
        p->st.dmr_comparator_stall_cycles += now - e->since;
        if (grow((void **)&p->dmr_ready, &p->dmr_ready_cap, p->dmr_nready + 1,
                 sizeof *p->dmr_ready)) {
            p->L.oom = 1;
            return 0;
        }
        p->dmr_ready[p->dmr_nready++] = e;
        return 1;
    }
    /* a mismatch: the pair fails; a held atomic is let go */
    fail_local(p, r->dmr_pair);
    if (e->req && e->state != DMR_ATOM_AGREED && e->state != DMR_BAD) {
        tm_req *h = e->req;
        answer_read(p, &p->L, h);
        h->t = now + g->l2_lat;
        reqq_push(&p->replies, h);
        held_remove(p, e);
        p->st.dmr_comparator_stall_cycles += now - e->since;
        e->req = NULL;
    }
    if (e->state != DMR_ATOM_AGREED)
        e->state = DMR_BAD;
    if (r->type == REQ_ATOM)
        answer_read(p, &p->L, r);
    return 0;
}

/* Entries of `pair` in partition p, in arrival order, into p's scratch;
 * their number, or -1 (no memory).  line: only that line (else all). */
static int64_t collect(tm_part *p, uint32_t pair, int one_line, uint64_t line)
{
    uint32_t n = 0;
    if (!one_line) {
        /* the pair's list is in arrival order already */
        for (tm_dmrent *e = p->dmr_phead[pair]; e; e = e->pnext) {
            if (grow((void **)&p->dmr_scratch, &p->dmr_scratch_cap, n + 1,
                     sizeof *p->dmr_scratch))
                return -1;
            p->dmr_scratch[n++] = e;
        }
        return n;
    }
    for (tm_dmrent *e = p->dmr_lb[lbucket_of(pair, line)]; e; e = e->lnext) {
        if (e->pair != pair || e->line != line)
            continue;
        if (grow((void **)&p->dmr_scratch, &p->dmr_scratch_cap, n + 1, sizeof *p->dmr_scratch))
            return -1;
        p->dmr_scratch[n++] = e;
    }
    /* the chain is newest first: reverse it into arrival order */
    for (uint32_t i = 0; i < n / 2; i++) {
        tm_dmrent *x = p->dmr_scratch[i];
        p->dmr_scratch[i] = p->dmr_scratch[n - 1 - i];
        p->dmr_scratch[n - 1 - i] = x;
    }
    return n;
}

void dmr_overlay(tm_part *p, tm_req *r)
{
    if (!*line_counter(p, r->line))
        return;
    r->flags |= REQF_DMR_PRIV;
    if (!r->dmr_pair)
        return;
    int64_t n = collect(p, r->dmr_pair, 1, r->line);
    if (n < 0) {
        p->L.oom = 1;
        return;
    }
    uint8_t own = r->dmr_copy ? DMR_HELD1 : DMR_HELD0;
    for (int64_t i = 0; i < n; i++) {
        const tm_dmrent *e = p->dmr_scratch[i];
        if (e->type != REQ_WR ||
            (e->state != DMR_AGREED && e->state != DMR_COMMITTING && e->state != own))
            continue;
        for (uint32_t x = 0; x < TM_LINE; x++)
            if ((e->bmask[x >> 6] >> (x & 63)) & 1)
                r->data[x] = e->data[x];
    }
}

/* Unlink and free the entries of `pair` in p in state `state` (-1: all). */
static void drop_entries(tm_part *p, uint32_t pair, int state)
{
    tm_dmrent *e = p->dmr_phead[pair], *n;
    for (; e; e = n) {
        n = e->pnext;
        if (state < 0 || e->state == state)
            unlink_free(p, e);
    }
}

/* A commit write request of partition p: a timing-only line write to the L2. */
static tm_req *commit_req(tm_part *p)
{
    tm_req *r = p->dmr_free;
    if (r) {
        p->dmr_free = r->next;
        return r;
    }
    if (grow((void **)&p->dmr_reqs, &p->dmr_reqs_cap, p->dmr_nreqs + 1, sizeof *p->dmr_reqs) ||
        !(r = calloc(1, sizeof *r)))
        return NULL;
    p->dmr_reqs[p->dmr_nreqs++] = r;
    return r;
}

static void part_touched(tm_part *p, uint64_t end)
{
    p->next_ev = part_next_event(p, end - 1);
}

/* Send pair's stores agreed by cycle upto to their L2s as writes that
 * carry the bytes, in each partition's arrival order, from cycle t on:
 * memory changes when each reaches the L2 (serve), as a store would; until
 * then the entry stays (COMMITTING) so that the copies' loads still see
 * it.  (An atomic's release commits what was agreed when it was decided,
 * not what the serial step happens to find agreed.)  0 or -1. */
static int commit(timing_gpu *g, uint32_t pair, uint64_t t, uint64_t upto, uint64_t end)
{
    for (uint32_t q = 0; q < g->nparts; q++) {
        tm_part *p = &g->parts[q];
        if (!p->dmr_n)
            continue;
        int64_t n = collect(p, pair, 0, 0);
        if (n < 0)
            return -1;
        int sent = 0;
        for (int64_t i = 0; i < n; i++) {
            tm_dmrent *e = p->dmr_scratch[i];
            if (e->state != DMR_AGREED || e->matched > upto)
                continue;
            g->st->dmr_commit_writes++;
            tm_req *r = commit_req(p);
            if (!r)
                return -1;
            memset(r, 0, offsetof(tm_req, data));
            r->line = e->line;
            r->pline = e->pline;
            r->part = q;
            r->type = REQ_WR;
            r->flags = REQF_VALUES | REQF_DMR_COMMIT;
            r->sectors = e->sectors;
            r->mshr = -1;
            r->bmask[0] = e->bmask[0];
            r->bmask[1] = e->bmask[1];
            memcpy(r->data, e->data, TM_LINE);
            r->dmr_ent = e;
            r->t = t;
            e->state = DMR_COMMITTING;
            PGEN(p, pair, e->warp)++;
            part_rop_insert(p, r);
            sent = 1;
        }
        if (sent)
            part_touched(p, end);
    }
    return 0;
}

void dmr_committed(tm_part *p, tm_req *r)
{
    if (exec_global_write(&p->L, r->line, r->data, r->bmask, TM_LINE))
        p->L.oom = 1;
    unlink_free(p, r->dmr_ent);
    r->next = p->dmr_free;
    p->dmr_free = r;
}

static void cta_coords(const exec_launch *L, uint64_t id, uint32_t xyz[3])
{
    xyz[0] = (uint32_t)(id % L->grid[0]);
    xyz[1] = (uint32_t)(id / L->grid[0] % L->grid[1]);
    xyz[2] = (uint32_t)(id / ((uint64_t)L->grid[0] * L->grid[1]));
}

/* Pair `pair` disagrees: count it, let its held atomics go, and fail the
 * launch if it has committed.  0, or -1 after the fault. */
static int pair_failed(timing_gpu *g, uint32_t pair, uint64_t end)
{
    tm_dmrpair *pr = &g->dmr_pairs[pair];
    if (pr->failed)
        return 0;
    pr->failed = 1;
    g->st->dmr_mismatches++;
    for (uint32_t q = 0; q < g->nparts; q++) {
        tm_part *p = &g->parts[q];
        int sent = 0;
        tm_dmrent *e = p->dmr_hhead, *n;
        for (; e; e = n) {
            n = e->hnext;
            if (e->pair != pair)
                continue;
            answer_read(p, g->L, e->req);
            e->req->t = end + g->l2_lat;
            reqq_push(&p->replies, e->req);
            g->st->dmr_comparator_stall_cycles += end - e->since;
            e->req = NULL;
            e->state = DMR_BAD;
            PGEN(p, pair, e->warp)++;
            held_remove(p, e);
            sent = 1;
        }
        if (sent)
            part_touched(p, end);
    }
    if (pr->committed) {
        uint32_t xyz[3];
        cta_coords(g->L, pr->cta, xyz);
        exec_fault(g->L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_REDUNDANCY, 0,
                   "DMR mismatch in CTA (%u,%u,%u) after it committed an atomic: not recoverable",
                   xyz[0], xyz[1], xyz[2]);
        return -1;
    }
    return 0;
}

uint32_t dmr_pair_new(timing_gpu *g, uint64_t cta, uint32_t reissues)
{
    if (g->dmr_npairs == 0)
        g->dmr_npairs = 1; /* id 0: none */
    if (grow((void **)&g->dmr_pairs, &g->dmr_pairs_cap, g->dmr_npairs + 1, sizeof *g->dmr_pairs))
        return 0;
    for (uint32_t q = 0; q < g->nparts; q++) {
        tm_part *p = &g->parts[q];
        uint32_t cap = p->dmr_pcap;
        if (g->dmr_npairs >= cap) {
            uint32_t c = cap ? 2 * cap : 64;
            tm_dmrent **h = realloc(p->dmr_phead, c * sizeof *h);
            if (!h)
                return 0;
            p->dmr_phead = h;
            tm_dmrent **t = realloc(p->dmr_ptail, c * sizeof *t);
            if (!t)
                return 0;
            p->dmr_ptail = t;
            uint32_t *gen = realloc(p->dmr_pgen, (size_t)c * TM_DMR_WARPS * sizeof *gen);
            if (!gen)
                return 0;
            p->dmr_pgen = gen;
            memset(h + cap, 0, (c - cap) * sizeof *h);
            memset(t + cap, 0, (c - cap) * sizeof *t);
            memset(gen + (size_t)cap * TM_DMR_WARPS, 0,
                   (size_t)(c - cap) * TM_DMR_WARPS * sizeof *gen);
            p->dmr_pcap = c;
        }
        p->dmr_phead[g->dmr_npairs] = p->dmr_ptail[g->dmr_npairs] = NULL;
        memset(&PGEN(p, g->dmr_npairs, 0), 0, TM_DMR_WARPS * sizeof *p->dmr_pgen);
    }
    tm_dmrpair *pr = &g->dmr_pairs[g->dmr_npairs];
    memset(pr, 0, sizeof *pr);
    pr->cta = cta;
    pr->reissues = reissues;
    return g->dmr_npairs++;
}

void dmr_echo_free(timing_gpu *g)
{
    for (uint32_t i = 1; i < g->dmr_npairs; i++) {
        exec_echo_free(g->dmr_pairs[i].echo);
        g->dmr_pairs[i].echo = NULL;
    }
}

int dmr_copy_fault(timing_gpu *g, tm_sm *sm)
{
    exec_launch *v = &sm->L;
    if (v->fault == LOCKSTEP_SUCCESS || v->oom || !v->fault_c ||
        v->fault == LOCKSTEP_ERROR_OUT_OF_MEMORY || v->fault == LOCKSTEP_ERROR_REDUNDANCY)
        return 0;
    tm_cta *tc = NULL;
    for (uint32_t k = 0; k < sm->nresident_slots && !tc; k++)
        if (sm->ctas[k].active && sm->ctas[k].c == v->fault_c && sm->ctas[k].dmr_pair)
            tc = &sm->ctas[k];
    if (!tc)
        return 0;
    if (!dmr_stop_copy(g, sm, tc, v->fault, v->fault_pc, v->fault_cycle))
        return 0;
    v->fault = LOCKSTEP_SUCCESS;
    v->fault_c = NULL;
    sb_clear(&v->fault_msg);
    return 1;
}

int dmr_stop_copy(timing_gpu *g, tm_sm *sm, tm_cta *tc, lockstep_status st, uint32_t pc,
                  uint64_t t)
{
    tm_dmrpair *pr = &g->dmr_pairs[tc->dmr_pair];
    int c = tc->dmr_copy;
    if (pr->fault[!c] == st && pr->fault_pc[!c] == pc)
        return 0; /* both copies fault alike: the program's own fault */
    pr->fault[c] = st;
    pr->fault_pc[c] = pc;
    sm_cta_stop(sm, tc, t);
    return 1;
}

void dmr_copy_done(timing_gpu *g, tm_cta *tc)
{
    tm_dmrpair *pr = &g->dmr_pairs[tc->dmr_pair];
    pr->done[tc->dmr_copy] = 1;
    pr->done_at = MAX(pr->done_at, tc->done_at);
    if (pr->done[0] != pr->done[1] && g->dmr_copy_timeout) {
        /* the first copy done: the other is watched (dmr_step) */
        if (grow((void **)&g->dmr_half, &g->dmr_half_cap, g->dmr_nhalf + 1, sizeof *g->dmr_half))
            g->L->oom = 1;
        else
            g->dmr_half[g->dmr_nhalf++] = tc->dmr_pair;
    }
    if (pr->done[0] && pr->done[1] &&
        !grow((void **)&g->dmr_done, &g->dmr_done_cap, g->dmr_ndone + 1, sizeof *g->dmr_done))
        g->dmr_done[g->dmr_ndone++] = tc->dmr_pair;
    else if (pr->done[0] && pr->done[1])
        g->L->oom = 1;
    tc->dmr_pair = 0;
}

/* Write requests of (pair, copy, warp) before sequence number `below`
 * the comparator holds: atomics waiting for the partner, or agreed and
 * waiting for release. */
static uint32_t held_reqs(timing_gpu *g, uint32_t pair, int copy, uint32_t warp, uint32_t below,
                          uint64_t *last)
{
    uint32_t total = 0;
    for (uint32_t q = 0; q < g->nparts; q++) {
        tm_part *p = &g->parts[q];
        for (tm_dmrent *e = p->dmr_phead[pair]; e; e = e->pnext) {
            if (e->warp != warp || e->type != REQ_ATOM || e->seq >= below ||
                (e->state != DMR_HELD0 && e->state != DMR_HELD1 && e->state != DMR_ATOM_AGREED))
                continue;
            if (e->req && e->req->dmr_copy == copy) {
                total++;
                *last = MAX(*last, e->since);
            }
            if (e->req2 && e->req2->dmr_copy == copy) {
                total++;
                *last = MAX(*last, e->matched);
            }
        }
    }
    return total;
}

/* Of warp tw's write requests before sequence number `below`: how many
 * are not answered yet; *t takes the latest answer to the others. */
static uint32_t answered_before(const tm_warp *tw, uint32_t below, uint64_t *t)
{
    uint32_t lo = MIN(tw->dmr_lo, below), pending = 0;
    if (lo)
        *t = MAX(*t, tw->dmr_acks[lo - 1]); /* the latest answer up to lo - 1 */
    for (uint32_t i = lo; i < below; i++) {
        if (tw->dmr_acks[i] == TM_NEVER)
            pending++;
        else
            *t = MAX(*t, tw->dmr_acks[i]);
    }
    return pending;
}

/* Can the partner of e (a held store or atomic) never come?  The other
 * copy's warp has ended or gone past e's sequence number, and every write
 * request of it not answered yet is an atomic the comparator holds: its
 * request with e's key went elsewhere (was answered, or is held under
 * another line). */
static int never_matched(timing_gpu *g, const tm_dmrent *e)
{
    const tm_dmrpair *pr = &g->dmr_pairs[e->pair];
    int oc = e->state == DMR_HELD0 ? 1 : 0;
    if (pr->done[oc])
        return 1;
    tm_cta *tc = &g->sms[pr->s[oc]].ctas[pr->k[oc]];
    if (e->warp >= g->L->nwarps)
        return 1;
    tm_warp *ow = &tc->warps[e->warp];
    int past = ow->w->state == WARP_DONE || ow->dmr_seq > e->seq;
    uint64_t last = 0;
    return past && ow->dmr_wr_out == held_reqs(g, e->pair, oc, e->warp, UINT32_MAX, &last);
}


static int add_event(timing_gpu *g, uint64_t t, uint64_t upto, uint32_t pair, uint32_t part,
                     tm_dmrent *e)
{
    if (grow((void **)&g->dmr_ev, &g->dmr_ev_cap, g->dmr_nev + 1, sizeof *g->dmr_ev))
        return -1;
    g->dmr_ev[g->dmr_nev++] = (struct tm_dmrev){t, upto, pair, part, e};
    return 0;
}

static int ev_cmp(const void *a, const void *b)
{
    const struct tm_dmrev *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->pair != y->pair)
        return x->pair < y->pair ? -1 : 1;
    /* one pair's atomics released at one cycle: by warp and sequence (qsort
     * is not stable); its confirmation comes after them */
    uint64_t kx = x->e ? (uint64_t)x->e->warp << 32 | x->e->seq : UINT64_MAX;
    uint64_t ky = y->e ? (uint64_t)y->e->warp << 32 | y->e->seq : UINT64_MAX;
    return kx < ky ? -1 : kx > ky;
}

/* Did pair x finish before pair y (then by pair id)? */
static int done_before(const timing_gpu *g, uint32_t x, uint32_t y)
{
    uint64_t tx = g->dmr_pairs[x].done_at, ty = g->dmr_pairs[y].done_at;
    return tx != ty ? tx < ty : x < y;
}

void dmr_stop_hung(timing_gpu *g, uint64_t end)
{
    /* the partner's run time sets the limit; the serial step at or after
     * it stops the copy (before retirement, which then takes it) */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < g->dmr_nhalf; i++) {
        uint32_t pair = g->dmr_half[i];
        tm_dmrpair *pr = &g->dmr_pairs[pair];
        if (pr->done[0] && pr->done[1])
            continue;
        int c = !pr->done[0] ? 0 : 1; /* the copy still running */
        uint64_t ran = pr->done_at > pr->start ? pr->done_at - pr->start : 0;
        uint64_t limit = pr->done_at + MAX((uint64_t)(g->dmr_copy_timeout - 1) * ran, 10000);
        tm_sm *sm = &g->sms[pr->s[c]];
        tm_cta *tc = &sm->ctas[pr->k[c]];
        if (end < limit || pr->fault[c] || !tc->active || tc->finished || tc->dmr_pair != pair) {
            g->dmr_half[kept++] = pair;
            continue;
        }
        g->st->dmr_copy_timeouts++;
        dmr_stop_copy(g, sm, tc, LOCKSTEP_ERROR_LAUNCH_TIMEOUT, IR_NO_PC, end);
    }
    g->dmr_nhalf = kept;
}

static int lvq_step(timing_gpu *g, uint64_t end);
static void lvq_drop_pair(timing_gpu *g, uint32_t pair);

/* What the serial step's decisions about a waiting atomic e read (whether
 * it may be released; whether its partner can never come): the entries of
 * its (pair, warp) in every partition, that warp's write requests in both
 * copies (issued, answered), whether those warps and the copies are done,
 * and whether the pair failed.  Every counter only grows, so an equal
 * snapshot means nothing changed, and a decision to wait stands. */
typedef struct dmr_snap {
    uint64_t sum;
    uint32_t gen[2];
    uint8_t fl;
} dmr_snap;

/* Take e's snapshot into *s; 1 if it equals the one remembered. */
static int unchanged(timing_gpu *g, tm_dmrent *e, dmr_snap *s)
{
    const tm_dmrpair *pr = &g->dmr_pairs[e->pair];
    if (e->warp >= g->L->nwarps)
        return e->chk_ok = 0;
    s->sum = 0;
    s->fl = (uint8_t)(pr->failed | pr->done[0] << 1 | pr->done[1] << 2);
    for (int c = 0; c < 2; c++) {
        const tm_warp *tw = &g->sms[pr->s[c]].ctas[pr->k[c]].warps[e->warp];
        s->gen[c] = tw->dmr_gen;
        if (!pr->done[c] && tw->w)
            s->fl |= (uint8_t)((tw->w->state == WARP_DONE) << (3 + c));
    }
    for (uint32_t q = 0; q < g->nparts; q++)
        s->sum += PGEN(&g->parts[q], e->pair, e->warp);
    return e->chk_ok && e->chk_sum == s->sum && e->chk_g[0] == s->gen[0] &&
           e->chk_g[1] == s->gen[1] && e->chk_fl == s->fl;
}

static void remember(tm_dmrent *e, const dmr_snap *s)
{
    e->chk_ok = 1;
    e->chk_sum = s->sum;
    e->chk_g[0] = s->gen[0];
    e->chk_g[1] = s->gen[1];
    e->chk_fl = s->fl;
}

int dmr_step(timing_gpu *g, uint64_t end, uint64_t *done)
{
    exec_launch *L = g->L;
    /* 0. load-value replication: the queue, its differences and waits
     * (first, so what it finds failed counts in the decisions below) */
    if (g->dmr_lvr && lvq_step(g, end))
        return -1;
    /* 1. the partitions' mismatches, in partition order */
    for (uint32_t q = 0; q < g->nparts; q++) {
        tm_part *p = &g->parts[q];
        for (uint32_t i = 0; i < p->dmr_nfail; i++)
            if (pair_failed(g, p->dmr_fail[i], end))
                return -1;
        p->dmr_nfail = 0;
    }
    /* 2. agreed atomics: commit the pair's log, then release the atomic.
     * An atomic waits while a store its warp wrote before it has not been
     * compared (the other copy's may still be on its way) and while a write
     * request of its warp has not reached its partition; a store whose
     * partner can never come fails the pair. */
    for (uint32_t q = 0; q < g->nparts; q++) {
        tm_part *p = &g->parts[q];
        uint32_t kept = 0;
        for (uint32_t i = 0; i < p->dmr_nready; i++) {
            tm_dmrent *e = p->dmr_ready[i];
            tm_dmrpair *pr = &g->dmr_pairs[e->pair];
            tm_req *r = e->req2;
            uint64_t t = e->matched;
            int wait = 0;
            dmr_snap now;
            if (unchanged(g, e, &now)) {
                p->dmr_ready[kept++] = e;
                continue;
            }
            for (uint32_t q2 = 0; q2 < g->nparts && !pr->failed && !wait; q2++) {
                tm_part *p2 = &g->parts[q2];
                for (tm_dmrent *x = p2->dmr_phead[e->pair]; x && !wait; x = x->pnext) {
                    if (x->warp != e->warp || x->seq > e->seq || x->type != REQ_WR)
                        continue;
                    if (x->state == DMR_AGREED || x->state == DMR_COMMITTING)
                        t = MAX(t, x->matched);
                    else if (x->state == DMR_HELD0 || x->state == DMR_HELD1)
                        wait = 1;
                    if (wait && never_matched(g, x)) {
                        if (pair_failed(g, e->pair, end))
                            return -1;
                        wait = 0;
                    }
                }
            }
            /* and while a write its warp (either copy) issued before the
             * atomic is on its way: such a store may arrive after it.  The
             * release counts from the last answer to those writes and the
             * last arrival of the warp's held atomics before it, not from
             * this step; writes issued after the atomic do not count, nor
             * do the other lines of the same atomic instruction (issued
             * with it, released in this step or another), so neither the
             * decision nor its time depends on where the step falls */
            for (int c = 0; c < 2 && !wait && !pr->failed; c++) {
                const tm_warp *tw = &g->sms[pr->s[c]].ctas[pr->k[c]].warps[e->warp];
                uint32_t pending = answered_before(tw, e->first, &t);
                wait = pending != held_reqs(g, e->pair, c, e->warp, e->first, &t);
            }
            if (wait) {
                remember(e, &now); /* (a wait changed nothing: what it read is what it saw) */
                p->dmr_ready[kept++] = e;
                continue;
            }
            uint64_t upto = t; /* what decided the release */
            t = MAX(end, t + g->xwin);
            if (pr->failed) {
                answer_read(p, L, e->req);
                answer_read(p, L, r);
                e->req->t = r->t = t + g->l2_lat;
                reqq_push(&p->replies, e->req);
                reqq_push(&p->replies, r);
                part_touched(p, end);
                unlink_free(p, e);
            } else if (add_event(g, t, upto, e->pair, q, e)) {
                goto oom;
            }
        }
        p->dmr_nready = kept;
    }
    /* 3. atomics whose partner can never come */
    for (uint32_t q = 0; q < g->nparts; q++) {
        tm_part *p = &g->parts[q];
        tm_dmrent *e = p->dmr_hhead, *n;
        for (; e; e = n) {
            n = e->hnext; /* pair_failed takes e (and maybe n) off the list */
            if (g->dmr_pairs[e->pair].failed)
                continue;
            dmr_snap now;
            if (unchanged(g, e, &now))
                continue;
            if (never_matched(g, e)) {
                if (pair_failed(g, e->pair, end))
                    return -1;
                n = p->dmr_hhead; /* start over: the list changed */
            } else {
                remember(e, &now);
            }
        }
    }
    /* 4. finished pairs, in the order they finished: check, then commit or
     * reissue */
    for (uint32_t i = 1; i < g->dmr_ndone; i++) { /* insertion sort: a few a step */
        uint32_t x = g->dmr_done[i], j = i;
        while (j > 0 && done_before(g, x, g->dmr_done[j - 1])) {
            g->dmr_done[j] = g->dmr_done[j - 1];
            j--;
        }
        g->dmr_done[j] = x;
    }
    for (uint32_t i = 0; i < g->dmr_ndone; i++) {
        uint32_t pair = g->dmr_done[i];
        tm_dmrpair *pr = &g->dmr_pairs[pair];
        /* a copy stopped by its own fault (the other did not fault alike) */
        if ((pr->fault[0] || pr->fault[1]) && pair_failed(g, pair, end))
            return -1;
        for (uint32_t q = 0; q < g->nparts && !pr->failed; q++) {
            tm_part *p = &g->parts[q];
            for (tm_dmrent *e = p->dmr_phead[pair]; e; e = e->pnext)
                if (e->state != DMR_AGREED && e->state != DMR_COMMITTING) {
                    /* an empty bit left full: an address, a count or a path differed */
                    if (pair_failed(g, pair, end))
                        return -1;
                    break;
                }
        }
        lvq_drop_pair(g, pair);
        if (!pr->failed) {
            if (add_event(g, MAX(end, pr->done_at + g->xwin), UINT64_MAX, pair, 0, NULL))
                goto oom;
            (*done)++;
            continue;
        }
        for (uint32_t q = 0; q < g->nparts; q++)
            drop_entries(&g->parts[q], pair, -1);
        if (pr->reissues >= g->dmr_max_reissues) {
            uint32_t xyz[3];
            cta_coords(L, pr->cta, xyz);
            exec_fault(L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_REDUNDANCY, 0,
                       "DMR mismatch in CTA (%u,%u,%u) in each of its %u runs "
                       "(-dmr_max_reissues %u): not corrected",
                       xyz[0], xyz[1], xyz[2], pr->reissues + 1, g->dmr_max_reissues);
            return -1;
        }
        if (grow((void **)&g->dmr_redo, &g->dmr_redo_cap, g->dmr_nredo + 1, sizeof *g->dmr_redo))
            goto oom;
        g->dmr_redo[g->dmr_nredo++] = pair;
        g->st->dmr_reissues++;
    }
    g->dmr_ndone = 0;
    /* 5. the commits, in the order (t, pair, warp, seq): the order their writes and
     * atomics enter the ROP queues does not depend on which serial step
     * saw them (an event at cycle x is seen by the step after x's window,
     * and commits from x + the crossbar latency, so of two steps' events
     * the earlier step's come first) */
    if (g->dmr_nev > 1)
        qsort(g->dmr_ev, g->dmr_nev, sizeof *g->dmr_ev, ev_cmp);
    for (uint32_t i = 0; i < g->dmr_nev; i++) {
        struct tm_dmrev *v = &g->dmr_ev[i];
        if (commit(g, v->pair, v->t, v->upto, end))
            goto oom;
        if (!v->e) {
            /* the confirmed pair's frees, after its writes (exec_echo) */
            if (exec_echo_commit(g->dmr_pairs[v->pair].echo, L))
                return -1;
            continue;
        }
        tm_part *p = &g->parts[v->part];
        tm_req *r = v->e->req2;
        g->dmr_pairs[v->pair].committed = 1;
        r->twin = v->e->req;
        r->dmr_go = 1;
        r->t = v->t;
        part_rop_insert(p, r);
        part_touched(p, end);
        unlink_free(p, v->e);
    }
    g->dmr_nev = 0;
    return 0;
oom:
    L->oom = 1;
    exec_fault(L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
               "out of host memory in the DMR comparator");
    return -1;
}

/* ---- load-value replication (-dmr_load_values) ---------------------------------------
 *
 * The copies of a pair read global memory at different times, so a kernel
 * whose CTAs read what other CTAs change during the launch can give its
 * copies different values, and a mismatch the copies did not cause.  With
 * load-value replication, copy 1's global loads take copy 0's values (the
 * load value queue of redundant multithreading): each global load mop of
 * copy 0 records its lanes' addresses and bytes (dmr_lvq_issue,
 * dmr_lvq_reply) and, when its last reply is back, goes to its SM's
 * outbox; the serial step puts outboxes into the queue (g->lvq_b), which
 * SMs only read during windows.  Copy 1's same load (same pair, warp and
 * load count) still makes its own accesses, whose timing is modelled; when
 * its last reply is back it takes copy 0's entry: same instruction, lanes
 * and addresses, or the pair fails (an address fault in either copy).  Its
 * values are available from copy 0's plus a crossbar trip (entry.ready),
 * and it waits for the entry if copy 0 has not loaded yet (the serial step
 * finishes it, lvq_step).  The queue is outside the sphere of replication:
 * a fault in what copy 0 read (its L1, the L2, DRAM) reaches both copies.
 */

#define LVQ_BUCKETS 4096u

static uint32_t lvq_bucket(const timing_gpu *g, uint32_t pair, uint32_t warp, uint32_t seq)
{
    uint64_t k = ((uint64_t)pair << 32 | (uint64_t)warp << 20) ^ seq;
    return (uint32_t)(k * 0x9E3779B97F4A7C15ull >> 40) & (g->lvq_nb - 1);
}

static tm_lvq *lvq_find(const timing_gpu *g, const tm_lvq *k)
{
    if (!g->lvq_b)
        return NULL;
    for (tm_lvq *e = g->lvq_b[lvq_bucket(g, k->pair, k->warp, k->seq)]; e; e = e->next)
        if (e->pair == k->pair && e->warp == k->warp && e->seq == k->seq)
            return e;
    return NULL;
}

int dmr_lvq_issue(tm_warp *tw, tm_mop *m)
{
    if (exec_mem_size(m->in) > TM_LVQ_BYTES)
        return 0; /* (no such load today; both copies would skip it alike) */
    tm_lvq *e = malloc(sizeof *e);
    if (!e)
        return -1;
    e->next = e->pnext = e->pprev = e->onext = NULL;
    e->in = m->in;
    e->ready = 0;
    e->pair = tw->tc->dmr_pair;
    e->copy = tw->tc->dmr_copy;
    e->warp = (uint16_t)tw->w->id;
    e->seq = tw->dmr_ldseq++;
    e->used = 0;
    e->lanes = 0;
    m->lv = e;
    return 0;
}

int dmr_lvq_reply(tm_mop *m, uint32_t lanes, uint64_t base, const uint8_t *bytes)
{
    tm_lvq *e = m->lv;
    uint32_t size = exec_mem_size(m->in);
    for (uint32_t k = lanes; k; k &= k - 1) {
        int l = ctz32(k);
        e->a[l] = m->ad.a[l];
        memcpy(e->v[l], bytes + (m->ad.a[l] - base), size);
    }
    e->lanes |= lanes;
    return e->copy;
}

/* Write values src (its lanes) to m's destinations. */
static void lvq_write(tm_sm *sm, tm_mop *m, const tm_lvq *src)
{
    exec_addr ad;
    for (uint32_t k = src->lanes; k; k &= k - 1) {
        int l = ctz32(k);
        ad.a[l] = (uint64_t)l * TM_LVQ_BYTES;
        ad.space[l] = m->ad.space[l];
    }
    if (src->lanes)
        exec_reply_load(&sm->L, m->tw->tc->c, m->tw->w, m->reg_base, m->in, src->lanes, &ad, 0,
                        &src->v[0][0]);
}

/* Copy 1's mop m takes its values: copy 0's entry x when they agree (the
 * same instruction, lanes and addresses), else (x NULL, or an address
 * fault in either copy) its own.  m's buffer is freed.  1 if it took x's. */
static int lvq_take(tm_sm *sm, tm_mop *m, const tm_lvq *x)
{
    tm_lvq *e = m->lv;
    int same = x && x->in == e->in && x->lanes == e->lanes;
    for (uint32_t k = e->lanes; k && same; k &= k - 1)
        same = x->a[ctz32(k)] == e->a[ctz32(k)];
    lvq_write(sm, m, same ? x : e);
    if (same) {
        m->done_at = MAX(m->done_at, x->ready);
        sm->st.dmr_lvq_loads++;
    }
    m->lv = NULL;
    free(e);
    return same;
}

static void lvq_oom(tm_sm *sm, const tm_mop *m)
{
    sm->L.oom = 1;
    exec_fault(&sm->L, m->tw->tc->c, m->tw->w, -1, IR_NO_PC, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
               "out of host memory in the DMR load value queue");
}

static void lvq_note_fail(tm_sm *sm, const tm_mop *m, uint32_t pair)
{
    if (grow((void **)&sm->lvq_fail, &sm->lvq_fail_cap, sm->lvq_nfail + 1, sizeof *sm->lvq_fail))
        lvq_oom(sm, m);
    else
        sm->lvq_fail[sm->lvq_nfail++] = pair;
}

int dmr_lvq_done(tm_sm *sm, tm_mop *m)
{
    timing_gpu *g = sm->g;
    tm_lvq *e = m->lv;
    if (e->copy == 0) {
        /* copy 0: the entry waits in the outbox for the serial step */
        e->ready = m->done_at + g->xwin;
        e->onext = sm->lvq_out;
        sm->lvq_out = e;
        m->lv = NULL;
        return 0;
    }
    uint32_t pair = e->pair;
    tm_lvq *x = lvq_find(g, e);
    if (x) {
        if (!lvq_take(sm, m, x)) {
            lvq_note_fail(sm, m, pair);
        } else {
            x->used = 1; /* only this mop has its key; freed at the serial step */
            x->onext = sm->lvq_used;
            sm->lvq_used = x;
        }
        return 0;
    }
    if (!g->dmr_pairs[pair].failed &&
        !grow((void **)&sm->lvq_wait, &sm->lvq_wait_cap, sm->lvq_nwait + 1, sizeof *sm->lvq_wait)) {
        /* copy 0 has not loaded yet: wait for it */
        e->ready = m->done_at; /* (a waiting copy 1's: when its own values came) */
        sm->lvq_wait[sm->lvq_nwait++] = m;
        return 1;
    }
    if (!g->dmr_pairs[pair].failed)
        lvq_oom(sm, m);
    lvq_take(sm, m, NULL); /* a failed pair runs to its end on its own values */
    return 0;
}

static void lvq_unlink_free(timing_gpu *g, tm_lvq *e)
{
    tm_lvq **pp = &g->lvq_b[lvq_bucket(g, e->pair, e->warp, e->seq)];
    while (*pp != e)
        pp = &(*pp)->next;
    *pp = e->next;
    if (e->pprev)
        e->pprev->pnext = e->pnext;
    else
        g->dmr_pairs[e->pair].lvq = e->pnext;
    if (e->pnext)
        e->pnext->pprev = e->pprev;
    g->lvq_n--;
    free(e);
}

/* Pair `pair` is done with (confirmed, or failed and finished): its entries go. */
static void lvq_drop_pair(timing_gpu *g, uint32_t pair)
{
    while (g->dmr_pairs[pair].lvq)
        lvq_unlink_free(g, g->dmr_pairs[pair].lvq);
}

/* Can copy 0 of e's pair still make the load e waits for?  Not once it has
 * finished or was stopped, nor once the warp has ended with every load of
 * it back (the queue already holds all it made). */
static int lvq_never(const timing_gpu *g, const tm_lvq *e)
{
    const tm_dmrpair *pr = &g->dmr_pairs[e->pair];
    if (pr->done[0] || pr->fault[0])
        return 1;
    const tm_warp *ow = &g->sms[pr->s[0]].ctas[pr->k[0]].warps[e->warp];
    return ow->w->state == WARP_DONE && !ow->loads_out;
}

/* The serial step's part: copy 0's finished loads join the queue, taken
 * entries go, differences fail their pairs, and copy 1's waiting loads
 * take what came (or their own values, if the pair failed or copy 0 can
 * never load it, or after -dmr_lvq_timeout cycles of waiting: a wait
 * copy 0 may be caught in too, when a fault sent the copies different
 * ways).  SMs in order, each's lists in order. */
static int lvq_step(timing_gpu *g, uint64_t end)
{
    for (uint32_t s = 0; s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        tm_lvq *e = sm->lvq_out, *n;
        sm->lvq_out = NULL;
        for (; e; e = n) {
            n = e->onext;
            tm_dmrpair *pr = &g->dmr_pairs[e->pair];
            if (pr->failed) {
                free(e);
                continue;
            }
            if (!g->lvq_b) {
                g->lvq_nb = LVQ_BUCKETS;
                if (!(g->lvq_b = calloc(g->lvq_nb, sizeof *g->lvq_b))) {
                    free(e);
                    for (e = n; e; e = n) {
                        n = e->onext;
                        free(e);
                    }
                    g->L->oom = 1;
                    exec_fault(g->L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
                               "out of host memory in the DMR load value queue");
                    return -1;
                }
            }
            tm_lvq **b = &g->lvq_b[lvq_bucket(g, e->pair, e->warp, e->seq)];
            e->next = *b;
            *b = e;
            e->pprev = NULL;
            e->pnext = pr->lvq;
            if (pr->lvq)
                pr->lvq->pprev = e;
            pr->lvq = e;
            e->onext = NULL;
            g->lvq_n++;
            g->st->dmr_lvq_entries_max = MAX(g->st->dmr_lvq_entries_max, g->lvq_n);
        }
    }
    for (uint32_t s = 0; s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        tm_lvq *e = sm->lvq_used, *n;
        sm->lvq_used = NULL;
        for (; e; e = n) {
            n = e->onext;
            lvq_unlink_free(g, e);
        }
    }
    for (uint32_t s = 0; s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        for (uint32_t i = 0; i < sm->lvq_nfail; i++)
            if (pair_failed(g, sm->lvq_fail[i], end))
                return -1;
        sm->lvq_nfail = 0;
    }
    for (uint32_t s = 0; s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        uint32_t kept = 0;
        for (uint32_t i = 0; i < sm->lvq_nwait; i++) {
            tm_mop *m = sm->lvq_wait[i];
            tm_lvq *e = m->lv;
            uint32_t pair = e->pair;
            uint64_t since = e->ready; /* its own values' cycle */
            tm_lvq *x = lvq_find(g, e);
            int failed = 0;
            if (x) {
                failed = !lvq_take(sm, m, x);
                if (!failed)
                    lvq_unlink_free(g, x);
            } else if (g->dmr_pairs[pair].failed || lvq_never(g, e) ||
                       end >= since + g->dmr_lvq_timeout) {
                failed = 1;
                lvq_take(sm, m, NULL);
            } else {
                sm->lvq_wait[kept++] = m;
                continue;
            }
            g->st->dmr_lvq_waits++;
            m->done_at = MAX(m->done_at, end);
            g->st->dmr_lvq_wait_cycles += m->done_at - since;
            sm_mop_finish(sm, m, m->done_at);
            if (failed && pair_failed(g, pair, end)) {
                sm->lvq_nwait = kept; /* (the launch ends: nothing more to finish) */
                return -1;
            }
        }
        sm->lvq_nwait = kept;
    }
    return 0;
}

void dmr_lvq_reset(timing_gpu *g)
{
    for (uint32_t s = 0; s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        for (tm_lvq *e = sm->lvq_out, *n; e; e = n) {
            n = e->onext;
            free(e);
        }
        sm->lvq_out = sm->lvq_used = NULL; /* (used entries are in the queue) */
        sm->lvq_nwait = sm->lvq_nfail = 0;
        for (uint32_t i = 0; i < sm->nmops; i++) {
            free(sm->mops[i]->lv);
            sm->mops[i]->lv = NULL;
        }
    }
    for (uint32_t b = 0; g->lvq_b && b < g->lvq_nb; b++) {
        for (tm_lvq *e = g->lvq_b[b], *n; e; e = n) {
            n = e->next;
            free(e);
        }
        g->lvq_b[b] = NULL;
    }
    g->lvq_n = 0;
    for (uint32_t p = 0; p < g->dmr_npairs; p++)
        g->dmr_pairs[p].lvq = NULL;
}

/* ---- fault injection into the comparator's log (site dmr_log) ----------------------- */

/* Count the log's words, or find the k-th (*e, *word, *part). */
static uint64_t log_walk(const timing_gpu *g, uint64_t k, tm_dmrent **hit, uint32_t *word,
                         uint32_t *part)
{
    uint64_t n = 0;
    for (uint32_t q = 0; q < g->nparts; q++) {
        const tm_part *p = &g->parts[q];
        if (!p->dmr_n)
            continue;
        for (uint32_t pair = 1; pair < g->dmr_npairs && pair < p->dmr_pcap; pair++)
            for (tm_dmrent *e = p->dmr_phead[pair]; e; e = e->pnext) {
                if (e->type != REQ_WR || e->state == DMR_BAD)
                    continue;
                for (uint32_t w = 0; w < TM_LINE / 4; w++) {
                    uint32_t b = 4 * w;
                    if (((e->bmask[b >> 6] >> (b & 63)) & 0xf) != 0xf)
                        continue;
                    if (n++ == k) {
                        *hit = e;
                        *word = w;
                        *part = q;
                        return k;
                    }
                }
            }
    }
    return n;
}

uint64_t timing_dmr_log_words(const timing_gpu *g)
{
    tm_dmrent *e;
    uint32_t w, q;
    return g->dmr ? log_walk(g, UINT64_MAX, &e, &w, &q) : 0;
}

uint8_t *timing_dmr_log_word(timing_gpu *g, uint64_t k, uint32_t *part, uint64_t *addr,
                             int *state)
{
    tm_dmrent *e = NULL;
    uint32_t w = 0;
    if (!g->dmr || k == UINT64_MAX || log_walk(g, k, &e, &w, part) != k || !e)
        return NULL;
    *addr = e->line + 4ull * w;
    *state = e->state == DMR_COMMITTING ? 2 : e->state == DMR_AGREED ? 1 : 0;
    return e->data + 4 * w;
}
