/*
 * dram.c -- one DRAM channel of a memory partition (the model is described
 * in dram.h).  The partition in src/timing drives it with DRAM-clock times.
 *
 * DESIGN.  The channel is event driven.  State changes only when a command
 * issues, so at any cycle t every candidate command (a row hit's column
 * command, a bank's ACT or PRE, a refresh's PRE or REF) has a ready time
 * computed from the timing registers below; scan() finds the best command
 * ready at t, or else the next cycle at which one can become ready (a ready
 * time, a request's arrival, refresh becoming due).  dram_advance() jumps
 * from one such cycle to the next and issues at most one command per cycle,
 * so its cost is proportional to commands, not cycles.  With no request
 * waiting and every bank closed, only refreshes happen; those are counted in
 * closed form, so skipping 10^12 idle cycles costs a handful of operations.
 *
 * Requests wait in `q` in push order until their last column command issues;
 * then they move to `dn`, kept sorted by (completion cycle, push sequence).
 * Entries of dn[head, counted) have completed by the time advanced to and
 * are in the statistics; dn[counted, end) are still in flight.  dram_push
 * reserves room in dn for every queued request, so advancing never allocates.
 */
#include "mem/dram.h"
#include "util/check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/rng.h"

typedef struct dram_req {
    uint64_t arrive, push, seq, tag, row;
    uint32_t bank, cols_left;
    uint8_t is_write, missed;
} dram_req;

typedef struct dram_done {
    uint64_t done, push, seq, tag;
    uint8_t is_write, missed;
} dram_done;

typedef struct dram_bank {
    uint64_t row;
    uint64_t act_ready;  /* tRP after PRE, tRC after ACT, tRFC after REF */
    uint64_t col_ready;  /* tRCD after ACT */
    uint64_t pre_ready;  /* tRAS after ACT, tWR after write data, tRTPL after RD */
    int open;
} dram_bank;

enum { CMD_NONE, CMD_ACT, CMD_PRE, CMD_COL, CMD_REF };

/* A candidate command; lower (cls, key) wins among those ready. */
typedef struct dram_cmd {
    int kind;
    uint32_t bank;
    size_t qi;      /* queue index: the column's request, or the ACT's target */
    int cls;        /* 0 column, 1 ACT/PRE, 2 REF */
    uint64_t key;   /* request sequence (or bank index for refresh PREs) */
} dram_cmd;

struct dram {
    dram_config c;
    rng r;
    uint32_t bt;          /* data-bus cycles per column command */
    uint32_t xfer;        /* bytes per column command */
    uint32_t grp_size;    /* banks per bank group */
    uint64_t phase;       /* first refresh due time */
    uint64_t cur;         /* first cycle not yet simulated */
    uint64_t next_ref;    /* next refresh due time (when tREFI != 0) */
    uint64_t rrd_ready, ccd_ready, cdlr_ready, bus_free;
    uint64_t ccdl_ready[DRAM_MAX_BANKS];
    dram_bank bank[DRAM_MAX_BANKS];
    uint32_t open_count;
    dram_req *q;
    size_t qn, qcap;
    dram_done *dn;
    size_t head, counted, end, dcap;
    uint64_t seq;
    dram_stats st;
    uint64_t ev;          /* dram_next_event's answer while ev_ok: the state is unchanged */
    int ev_ok;
    /* the command dram_next_event's scan found ready at cur, kept for
     * dram_advance while no push and no issue changed the state */
    dram_cmd pend;
    uint64_t pend_at;
    int pend_ok;
};

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

void dram_config_default(dram_config *c)
{
    memset(c, 0, sizeof *c);
    c->nbk = 16;
    c->tCCD = 2;
    c->tRRD = 6;
    c->tRCD = 12;
    c->tRAS = 28;
    c->tRP = 12;
    c->tRC = 40;
    c->CL = 12;
    c->WL = 4;
    c->tCDLR = 5;
    c->tWR = 12;
    c->nbkgrp = 1;
    c->tCCDL = 0;
    c->tRTPL = 0;
    c->burst_length = 8;
    c->bus_width = 4;
    c->chips = 2;
    c->data_rate = 4;
    c->row_bytes = 2048;
    c->queue_size = 16;
    c->scheduler = 1;
    c->tREFI = 3600;  /* 3.9 us at a 924 MHz command clock */
    c->tRFC = 100;    /* about 110 ns */
    c->jitter = 0;
    c->seeded_phase = 1;
}

int dram_config_check(const dram_config *c, char *err, size_t errlen)
{
    const char *msg = NULL;
    char buf[128];
    if (c->nbk == 0)
        msg = "nbk must be at least 1";
    else if (c->nbk > DRAM_MAX_BANKS)
        msg = "nbk must be at most 64";
    else if (c->nbkgrp == 0)
        msg = "nbkgrp must be at least 1";
    else if (c->nbk % c->nbkgrp) {
        snprintf(buf, sizeof buf, "nbk (%u) is not a multiple of nbkgrp (%u)", c->nbk, c->nbkgrp);
        msg = buf;
    } else if (c->burst_length == 0 || c->bus_width == 0 || c->chips == 0 || c->data_rate == 0)
        msg = "burst_length, bus_width, chips and data_rate must be at least 1";
    else if ((uint64_t)c->burst_length * c->bus_width * c->chips > UINT32_MAX)
        msg = "burst_length * bus_width * chips is too large";
    else if (c->row_bytes < 32 || c->row_bytes % 32)
        msg = "row_bytes must be a positive multiple of 32";
    else if (c->scheduler > 1)
        msg = "scheduler must be 0 (FIFO) or 1 (FR-FCFS)";
    else if (c->tRC < c->tRAS) {
        snprintf(buf, sizeof buf, "RC (%u) is shorter than RAS (%u): a row cycle includes the row's "
                 "active time", c->tRC, c->tRAS);
        msg = buf;
    } else if (c->CL == 0)
        msg = "CL must be at least 1";
    else if (c->tREFI && c->tRFC >= c->tREFI)
        msg = "tRFC must be less than tREFI";
    else if (c->jitter == UINT32_MAX)
        msg = "jitter is too large";
    if (!msg)
        return 0;
    if (err && errlen)
        snprintf(err, errlen, "dram config: %s", msg);
    return -1;
}

/* The timing-option keys, with the field each sets. */
static const struct {
    const char *name;
    size_t off;
} dram_keys[] = {
    {"nbk", offsetof(dram_config, nbk)},       {"CCD", offsetof(dram_config, tCCD)},
    {"RRD", offsetof(dram_config, tRRD)},      {"RCD", offsetof(dram_config, tRCD)},
    {"RAS", offsetof(dram_config, tRAS)},      {"RP", offsetof(dram_config, tRP)},
    {"RC", offsetof(dram_config, tRC)},        {"CL", offsetof(dram_config, CL)},
    {"WL", offsetof(dram_config, WL)},         {"CDLR", offsetof(dram_config, tCDLR)},
    {"WR", offsetof(dram_config, tWR)},        {"nbkgrp", offsetof(dram_config, nbkgrp)},
    {"CCDL", offsetof(dram_config, tCCDL)},    {"RTPL", offsetof(dram_config, tRTPL)},
};

static int key_eq(const char *a, size_t n, const char *key)
{
    size_t i;
    for (i = 0; i < n && key[i]; i++) {
        char x = a[i], y = key[i];
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = (char)(y - 'A' + 'a');
        if (x != y)
            return 0;
    }
    return i == n && key[i] == 0;
}

static int is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

/* timing := [item (':' item)*], item := blank* KEY '=' NUMBER blank* */
int dram_timing_parse(const char *s, dram_config *c, char *err, size_t errlen)
{
    dram_config t = *c;
    const char *p = s;
    char dummy[1];
    if (!err || !errlen) {
        err = dummy;
        errlen = sizeof dummy;
    }
    while (*p) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *a = p, *b = p + len;
        while (a < b && is_blank(*a))
            a++;
        while (b > a && is_blank(b[-1]))
            b--;
        p += len + (end != NULL);
        if (a == b)
            continue; /* empty item: "a=1::b=2" or a trailing ':' */
        const char *eq = memchr(a, '=', (size_t)(b - a));
        if (!eq) {
            snprintf(err, errlen, "dram timing: '%.*s': expected KEY=VALUE", (int)(b - a), a);
            return -1;
        }
        const char *ke = eq;
        while (ke > a && is_blank(ke[-1]))
            ke--;
        size_t k;
        for (k = 0; k < sizeof dram_keys / sizeof dram_keys[0]; k++)
            if (key_eq(a, (size_t)(ke - a), dram_keys[k].name))
                break;
        if (k == sizeof dram_keys / sizeof dram_keys[0]) {
            snprintf(err, errlen,
                     "dram timing: unknown key '%.*s' (expected nbk, CCD, RRD, RCD, RAS, RP, "
                     "RC, CL, WL, CDLR, WR, nbkgrp, CCDL or RTPL)",
                     (int)(ke - a), a);
            return -1;
        }
        const char *v = eq + 1;
        while (v < b && is_blank(*v))
            v++;
        char num[24];
        size_t vn = (size_t)(b - v);
        int ok = vn > 0 && vn < sizeof num;
        for (size_t i = 0; ok && i < vn; i++)
            ok = v[i] >= '0' && v[i] <= '9';
        unsigned long long val = 0;
        if (ok) {
            memcpy(num, v, vn);
            num[vn] = 0;
            errno = 0;
            val = strtoull(num, NULL, 10);
            ok = errno == 0 && val <= UINT32_MAX;
        }
        if (!ok) {
            snprintf(err, errlen, "dram timing: bad number '%.*s' for key %s (expected 0..%u)",
                     (int)vn, v, dram_keys[k].name, (unsigned)UINT32_MAX);
            return -1;
        }
        uint32_t u = (uint32_t)val;
        memcpy((char *)&t + dram_keys[k].off, &u, sizeof u);
    }
    if (dram_config_check(&t, err, errlen))
        return -1;
    *c = t;
    return 0;
}

dram *dram_create(const dram_config *c, uint64_t seed, uint32_t instance)
{
    if (dram_config_check(c, NULL, 0))
        return NULL;
    dram *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->c = *c;
    rng_seed(&d->r, seed, RNG_DRAM, instance);
    d->bt = (c->burst_length + c->data_rate - 1) / c->data_rate;
    d->xfer = c->burst_length * c->bus_width * c->chips;
    d->grp_size = c->nbk / c->nbkgrp;
    rng pr; /* the phase has its own stream, so it can be fixed while jitter is seeded */
    rng_seed(&pr, c->seeded_phase ? seed : 0, RNG_DRAM, instance | 0x80000000u);
    d->phase = c->tREFI ? rng_below(&pr, c->tREFI) : UINT64_MAX;
    d->next_ref = d->phase;
    if (c->queue_size) {
        d->q = malloc(c->queue_size * sizeof *d->q);
        d->dn = malloc(c->queue_size * sizeof *d->dn);
        if (!d->q || !d->dn)
            goto fail;
        d->qcap = d->dcap = c->queue_size;
    }
    return d;
fail:
    dram_free(d);
    return NULL;
}

void dram_free(dram *d)
{
    if (!d)
        return;
    free(d->q);
    free(d->dn);
    free(d);
}

void dram_map(const dram *d, uint64_t local_addr, uint32_t *bank, uint64_t *row)
{
    uint64_t r = local_addr / d->c.row_bytes;
    *bank = (uint32_t)(r % d->c.nbk);
    *row = r / d->c.nbk;
}

int dram_idle(const dram *d) { return d->qn == 0 && d->head == d->end; }

int dram_can_accept(const dram *d)
{
    return d->c.queue_size == 0 || d->qn < d->c.queue_size;
}

uint32_t dram_queue_len(const dram *d) { return (uint32_t)d->qn; }

uint64_t dram_refresh_phase(const dram *d) { return d->phase; }

/* Grow *p (elements of `size` bytes, capacity *cap) to hold `need`: 0, or -1 on OOM. */
static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *np = realloc(*p, n * size);
    if (!np)
        return -1;
    *p = np;
    *cap = n;
    return 0;
}

/* Move the live completions dn[head, end) to the front of the array. */
static void compact_done(dram *d)
{
    if (d->head == 0)
        return;
    memmove(d->dn, d->dn + d->head, (d->end - d->head) * sizeof *d->dn);
    d->counted -= d->head;
    d->end -= d->head;
    d->head = 0;
}

int dram_push(dram *d, uint64_t now, uint64_t local_addr, uint32_t bytes, int is_write,
              uint64_t tag)
{
    if (bytes == 0 || bytes % 32 || bytes > d->c.row_bytes)
        return -1;
    d->ev_ok = 0;
    d->pend_ok = 0;
    if (!dram_can_accept(d)) {
        d->st.queue_full++;
        return -1;
    }
    /* Room for this request in q, and in dn for every request queued (see DESIGN). */
    if (grow((void **)&d->q, &d->qcap, d->qn + 1, sizeof *d->q))
        return -1;
    if (d->end - d->head + d->qn + 1 > d->dcap - d->head)
        compact_done(d);
    if (grow((void **)&d->dn, &d->dcap, d->end + d->qn + 1, sizeof *d->dn))
        return -1;
    /* scan() relies on arrivals in queue order */
    LS_ASSERT(d->qn == 0 || d->q[d->qn - 1].arrive <= now);
    dram_req *r = &d->q[d->qn++];
    memset(r, 0, sizeof *r);
    r->arrive = now;
    r->push = now;
    r->seq = d->seq++;
    r->tag = tag;
    dram_map(d, local_addr, &r->bank, &r->row);
    r->cols_left = (bytes + d->xfer - 1) / d->xfer;
    r->is_write = is_write != 0;
    return 0;
}

/* When request r's next column command may issue (its bank has its row open). */
static uint64_t col_ready(const dram *d, const dram_req *r)
{
    const dram_bank *b = &d->bank[r->bank];
    uint64_t t = max64(b->col_ready, max64(d->ccd_ready, d->ccdl_ready[r->bank / d->grp_size]));
    uint32_t lat = r->is_write ? d->c.WL : d->c.CL;
    if (d->bus_free > lat)
        t = max64(t, d->bus_free - lat);
    if (!r->is_write)
        t = max64(t, d->cdlr_ready);
    return t;
}

/* Offer candidate c, ready at `ready`, at cycle t: keep the best ready one in
 * *best and the earliest future ready time in *next. */
static void offer(const dram_cmd *c, uint64_t ready, uint64_t t, dram_cmd *best, uint64_t *next)
{
    if (ready > t) {
        *next = min64(*next, ready);
        return;
    }
    if (best->kind == CMD_NONE || c->cls < best->cls || (c->cls == best->cls && c->key < best->key))
        *best = *c;
}

/* The best command that can issue at cycle t (1 and *best), else 0; *next is
 * the earliest cycle > t at which the candidate set or a readiness changes. */
static int scan(const dram *d, uint64_t t, dram_cmd *best, uint64_t *next)
{
    size_t oldest[DRAM_MAX_BANKS];
    uint64_t has = 0, hit = 0; /* banks with an arrived request; with a row hit among them */
    uint32_t nbk = d->c.nbk;
    int pending = d->c.tREFI && d->next_ref <= t;
    dram_cmd c;
    best->kind = CMD_NONE;
    *next = UINT64_MAX;
    if (d->c.tREFI && !pending)
        *next = d->next_ref;

    if (pending) {
        /* Refresh due: close every open bank, then REF once all are ready. */
        uint64_t ref_ready = 0;
        for (uint32_t b = 0; b < nbk; b++) {
            const dram_bank *bk = &d->bank[b];
            ref_ready = max64(ref_ready, bk->act_ready);
            if (bk->open) {
                c = (dram_cmd){CMD_PRE, b, 0, 1, b};
                offer(&c, bk->pre_ready, t, best, next);
            }
        }
        if (d->open_count == 0) {
            c = (dram_cmd){CMD_REF, 0, 0, 2, 0};
            offer(&c, ref_ready, t, best, next);
        }
        return best->kind != CMD_NONE;
    }

    /* Column commands of row hits among the requests that have arrived.
     * The queue is in sequence order, so the first ready one wins: no
     * later column command, and no ACT or PRE, can beat it (and *next
     * matters only when nothing is ready).  A request's column readiness
     * depends only on its bank and direction: computed once per scan. */
    uint64_t colr[DRAM_MAX_BANKS][2];
    uint64_t known[2] = {0, 0}; /* banks whose colr[b][w] is computed */
    size_t i;
    for (i = 0; i < d->qn && d->q[i].arrive <= t; i++) {
        const dram_req *r = &d->q[i];
        const dram_bank *bk = &d->bank[r->bank];
        uint64_t bit = 1ull << r->bank;
        int first = !(has & bit);
        if (first) {
            has |= bit;
            oldest[r->bank] = i;
        }
        if (!bk->open || bk->row != r->row)
            continue;
        hit |= bit;
        if (d->c.scheduler == 0 && !first)
            continue; /* FIFO: only the bank's oldest request */
        uint32_t w = r->is_write;
        if (!(known[w] & bit)) {
            known[w] |= bit;
            colr[r->bank][w] = col_ready(d, r);
        }
        c = (dram_cmd){CMD_COL, r->bank, i, 0, r->seq};
        offer(&c, colr[r->bank][w], t, best, next);
        if (best->kind != CMD_NONE)
            return 1;
    }
    if (i < d->qn)
        *next = min64(*next, d->q[i].arrive);

    /* ACT for closed banks, PRE for conflicting open ones: the banks with
     * a request, in index order */
    (void)nbk;
    for (uint64_t m = has; m; m &= m - 1) {
        uint32_t b = (uint32_t)__builtin_ctzll(m);
        const dram_bank *bk = &d->bank[b];
        const dram_req *r = &d->q[oldest[b]];
        if (!bk->open) {
            c = (dram_cmd){CMD_ACT, b, oldest[b], 1, r->seq};
            offer(&c, max64(bk->act_ready, d->rrd_ready), t, best, next);
        } else if (d->c.scheduler == 0 ? bk->row != r->row : !(hit >> b & 1)) {
            c = (dram_cmd){CMD_PRE, b, oldest[b], 1, r->seq};
            offer(&c, bk->pre_ready, t, best, next);
        }
    }
    return best->kind != CMD_NONE;
}

/* Insert a completion into dn, keeping (done, seq) order (room is reserved). */
static void add_done(dram *d, const dram_req *r, uint64_t done)
{
    if (d->end == d->dcap)
        compact_done(d);
    size_t k = d->end;
    while (k > d->counted && (d->dn[k - 1].done > done ||
                              (d->dn[k - 1].done == done && d->dn[k - 1].seq > r->seq)))
        k--;
    memmove(d->dn + k + 1, d->dn + k, (d->end - k) * sizeof *d->dn);
    d->dn[k] = (dram_done){done, r->push, r->seq, r->tag, r->is_write, r->missed};
    d->end++;
}

/* Issue a REF at cycle t. */
static void issue_ref(dram *d, uint64_t t)
{
    d->pend_ok = 0;
    for (uint32_t b = 0; b < d->c.nbk; b++)
        d->bank[b].act_ready = max64(d->bank[b].act_ready, t + d->c.tRFC);
    d->st.refreshes++;
    d->next_ref += d->c.tREFI;
}

/* Issue command c at cycle t and update the timing registers. */
static void issue(dram *d, const dram_cmd *c, uint64_t t)
{
    const dram_config *k = &d->c;
    dram_bank *bk = &d->bank[c->bank];
    d->pend_ok = 0;
    switch (c->kind) {
    case CMD_ACT: {
        dram_req *r = &d->q[c->qi];
        LS_ASSERT(!bk->open && c->qi < d->qn && t >= bk->act_ready);
        bk->open = 1;
        bk->row = r->row;
        bk->col_ready = t + k->tRCD;
        bk->pre_ready = max64(bk->pre_ready, t + k->tRAS);
        bk->act_ready = max64(bk->act_ready, t + k->tRC);
        d->rrd_ready = t + k->tRRD;
        d->open_count++;
        r->missed = 1;
        d->st.activates++;
        break;
    }
    case CMD_PRE:
        LS_ASSERT(bk->open && d->open_count > 0 && t >= bk->pre_ready);
        bk->open = 0;
        bk->act_ready = max64(bk->act_ready, t + k->tRP);
        d->open_count--;
        d->st.precharges++;
        break;
    case CMD_REF:
        issue_ref(d, t);
        break;
    case CMD_COL: {
        dram_req *r = &d->q[c->qi];
        LS_ASSERT(c->qi < d->qn && bk->open && bk->row == r->row && r->cols_left > 0);
        LS_ASSERT(t >= col_ready(d, r));
        uint64_t start = t + (r->is_write ? k->WL : k->CL), end = start + d->bt;
        d->bus_free = end;
        d->st.busy_cycles += d->bt;
        d->ccd_ready = t + k->tCCD;
        d->ccdl_ready[c->bank / d->grp_size] = t + k->tCCDL;
        if (r->is_write) {
            d->cdlr_ready = max64(d->cdlr_ready, end + k->tCDLR);
            bk->pre_ready = max64(bk->pre_ready, end + k->tWR);
        } else {
            bk->pre_ready = max64(bk->pre_ready, t + k->tRTPL);
        }
        if (--r->cols_left == 0) {
            uint64_t done = end;
            if (!r->is_write && k->jitter)
                done += rng_below(&d->r, k->jitter + 1);
            add_done(d, r, done);
            memmove(d->q + c->qi, d->q + c->qi + 1, (d->qn - c->qi - 1) * sizeof *d->q);
            d->qn--;
        }
        break;
    }
    default:
        break;
    }
}

/* With no request waiting before `lim` and every bank closed, only refreshes
 * happen: issue the next one if it falls at or before lim, and if the ones
 * after it fall exactly on their due times, count them all in one step.
 * Returns 1 if it advanced, 0 if nothing happens up to lim. */
static int idle_refresh(dram *d, uint64_t lim)
{
    const dram_config *k = &d->c;
    if (!k->tREFI || d->next_ref > lim)
        return 0;
    uint64_t t0 = max64(d->next_ref, d->cur);
    for (uint32_t b = 0; b < k->nbk; b++)
        t0 = max64(t0, d->bank[b].act_ready);
    if (t0 > lim)
        return 0;
    issue_ref(d, t0);
    d->cur = t0 + 1;
    /* Once the previous refresh has ended by the next due time (tRFC < tREFI),
     * every further refresh issues exactly when due. */
    if (d->next_ref <= lim && d->next_ref >= t0 + k->tRFC && d->next_ref >= d->cur) {
        uint64_t n = (lim - d->next_ref) / k->tREFI + 1;
        uint64_t last = d->next_ref + (n - 1) * k->tREFI;
        for (uint32_t b = 0; b < k->nbk; b++)
            d->bank[b].act_ready = max64(d->bank[b].act_ready, last + k->tRFC);
        d->st.refreshes += n;
        d->next_ref = last + k->tREFI;
        d->cur = last + 1;
    }
    return 1;
}

/* Move completions with done <= now into the statistics. */
static void count_done(dram *d, uint64_t now)
{
    while (d->counted < d->end && d->dn[d->counted].done <= now) {
        const dram_done *e = &d->dn[d->counted++];
        if (e->is_write)
            d->st.writes++;
        else
            d->st.reads++;
        if (e->missed)
            d->st.row_misses++;
        else
            d->st.row_hits++;
        d->st.total_latency += e->done - e->push;
    }
}

void dram_advance(dram *d, uint64_t now)
{
    /* the remembered next event stays right while nothing issues or
     * completes: until then the command candidates do not change */
    if (d->qn && d->ev_ok && d->ev > now) {
        /* nothing issues or completes before the remembered event (it
         * covers the queue's commands, arrivals, refresh and completions) */
        if (d->cur <= now)
            d->cur = now + 1;
        return;
    }
    if (d->qn && d->ev_ok && d->ev > d->cur) {
        /* the remembered event came from a scan at cur (or at an earlier
         * cycle, with no command before now + 1) that found no command
         * before it, and nothing has changed since: the scans in between
         * would find none (ev is no later than the next arrival, the next
         * refresh and the next readiness) */
        d->cur = d->ev;
    }
    size_t counted = d->counted;
    int acted = 0, known = 0;
    uint64_t known_next = 0; /* the last scan's next change, when it ended the loop */
    while (d->cur <= now) {
        if (d->open_count == 0 && (d->qn == 0 || d->q[0].arrive > d->cur)) {
            /* Nothing can happen but refreshes until the next arrival. */
            uint64_t lim = d->qn ? min64(now, d->q[0].arrive - 1) : now;
            if (idle_refresh(d, lim)) {
                acted = 1;
                continue;
            }
            if (d->qn == 0 || d->q[0].arrive > now)
                break;
            d->cur = d->q[0].arrive;
            continue;
        }
        dram_cmd c;
        uint64_t next;
        if (d->pend_ok && d->pend_at == d->cur) {
            /* dram_next_event found it at this cycle, in this state */
            c = d->pend;
            issue(d, &c, d->cur);
            acted = 1;
            d->cur++;
            continue;
        }
        if (scan(d, d->cur, &c, &next)) {
            issue(d, &c, d->cur);
            acted = 1;
            d->cur++;
            continue;
        }
        if (next > now) {
            known = 1;
            known_next = next;
            break;
        }
        d->cur = next;
    }
    if (d->cur <= now)
        d->cur = now + 1;
    count_done(d, now);
    if (known && d->qn) {
        /* the scan at the old cur holds until known_next > now: what
         * dram_next_event would find at now + 1 (which looks at no
         * command while the queue is empty) */
        uint64_t t = known_next;
        if (d->counted < d->end)
            t = min64(t, d->dn[d->counted].done);
        d->ev = t;
        d->ev_ok = 1;
    } else if (acted || d->counted != counted || (d->ev_ok && d->ev < d->cur)) {
        d->ev_ok = 0;
    }
}

int dram_pop_done(dram *d, uint64_t *tag, uint64_t *done_cycle)
{
    if (d->head == d->counted)
        return 0;
    /* the remembered next event stays right: it looks at the queue and at
     * the first completion not yet counted, and a pop takes a counted one */
    const dram_done *e = &d->dn[d->head++];
    if (tag)
        *tag = e->tag;
    if (done_cycle)
        *done_cycle = e->done;
    if (d->head == d->end)
        d->head = d->counted = d->end = 0;
    return 1;
}

uint64_t dram_next_event(dram *d)
{
    if (d->ev_ok)
        return d->ev;
    uint64_t t = UINT64_MAX;
    if (d->counted < d->end)
        t = d->dn[d->counted].done;
    if (d->qn) {
        dram_cmd c;
        uint64_t next;
        if (scan(d, d->cur, &c, &next)) {
            next = d->cur;
            d->pend = c;
            d->pend_at = d->cur;
            d->pend_ok = 1;
        }
        t = min64(t, next);
    }
    d->ev = t;
    d->ev_ok = 1;
    return t;
}

void dram_get_stats(const dram *d, dram_stats *s)
{
    *s = d->st;
}
