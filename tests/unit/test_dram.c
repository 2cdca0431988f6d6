/*
 * test_dram.c -- unit tests of the DRAM channel (mem/dram.c): exact command
 * timing derived from the timing parameters (tRCD/CL for a closed bank,
 * tCCD/tCCDL for row hits, tRAS/tRP/tRC/tRTPL for row conflicts, tRRD,
 * tCDLR and tWR after writes, bus turnaround), FR-FCFS against FIFO, the
 * statistics, queue-full refusal, seeded refresh and jitter (phase and
 * draws recomputed here from rng.h), determinism of a random request
 * stream, the timing-string parser, dram_next_event, and cheap idle skips.
 * Expected cycles are computed from the config, never read back from the model.
 */
#include "test.h"

#include <time.h>

#include "mem/dram.h"
#include "util/rng.h"

#define MAXREQ 4096

/* Defaults with refresh and jitter off: the exact-timing tests' config. */
static dram_config plain(void)
{
    dram_config c;
    dram_config_default(&c);
    c.tREFI = 0;
    c.jitter = 0;
    return c;
}

/* Data-bus cycles per column command. */
static uint64_t bt(const dram_config *c)
{
    return (c->burst_length + c->data_rate - 1) / c->data_rate;
}

/* Address of bank b, row r, byte offset col. */
static uint64_t addr(const dram_config *c, uint32_t b, uint64_t r, uint64_t col)
{
    return (r * c->nbk + b) * c->row_bytes + col;
}

static uint64_t max2(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Run the channel event by event until nothing is left; record the
 * completions (tag, cycle) in pop order.  Returns how many. */
static size_t drain(dram *d, uint64_t *tags, uint64_t *dones, size_t max)
{
    size_t n = 0;
    for (int guard = 0; guard < 1000000; guard++) {
        uint64_t t = dram_next_event(d);
        if (t == UINT64_MAX)
            break;
        dram_advance(d, t);
        uint64_t tag, done;
        while (dram_pop_done(d, &tag, &done)) {
            if (n < max) {
                tags[n] = tag;
                dones[n] = done;
            }
            n++;
        }
    }
    return n;
}

/* Drain and return the single completion's cycle (checking its tag). */
static uint64_t drain1(dram *d, uint64_t want_tag)
{
    uint64_t tag = 0, done = 0;
    size_t n = drain(d, &tag, &done, 1);
    CHECK_EQ_U64(n, 1);
    CHECK_EQ_U64(tag, want_tag);
    return done;
}

static void test_mapping(void)
{
    dram_config c = plain();
    dram *d = dram_create(&c, 1, 0);
    CHECK(d != NULL);
    uint32_t b;
    uint64_t r;
    dram_map(d, 0, &b, &r);
    CHECK(b == 0 && r == 0);
    dram_map(d, c.row_bytes - 1, &b, &r);
    CHECK(b == 0 && r == 0);
    dram_map(d, c.row_bytes, &b, &r);
    CHECK(b == 1 && r == 0);
    dram_map(d, (uint64_t)c.row_bytes * c.nbk, &b, &r);
    CHECK(b == 0 && r == 1);
    dram_map(d, addr(&c, 5, 77, 96), &b, &r);
    CHECK(b == 5 && r == 77);
    dram_free(d);
}

static void test_single_read(void)
{
    dram_config c = plain();
    uint64_t xfer = (uint64_t)c.bus_width * c.chips * c.burst_length;
    dram *d = dram_create(&c, 1, 0);
    CHECK_EQ_INT(dram_push(d, 0, 0, (uint32_t)xfer, 0, 7), 0);
    uint64_t want = c.tRCD + c.CL + bt(&c);
    CHECK_EQ_U64(drain1(d, 7), want);
    dram_stats s;
    dram_get_stats(d, &s);
    CHECK_EQ_U64(s.reads, 1);
    CHECK_EQ_U64(s.writes, 0);
    CHECK_EQ_U64(s.activates, 1);
    CHECK_EQ_U64(s.row_misses, 1);
    CHECK_EQ_U64(s.row_hits, 0);
    CHECK_EQ_U64(s.busy_cycles, bt(&c));
    CHECK_EQ_U64(s.total_latency, want);
    dram_free(d);

    /* A request pushed later: latency counts from its push. */
    d = dram_create(&c, 1, 0);
    dram_advance(d, 499);
    CHECK_EQ_INT(dram_push(d, 500, addr(&c, 3, 9, 0), 32, 0, 8), 0);
    CHECK_EQ_U64(drain1(d, 8), 500 + want);
    dram_free(d);

    /* Two transfers' worth: two column commands, tCCD (or the bus) apart. */
    d = dram_create(&c, 1, 0);
    CHECK_EQ_INT(dram_push(d, 0, 0, (uint32_t)(2 * xfer), 0, 9), 0);
    CHECK_EQ_U64(drain1(d, 9), c.tRCD + max2(c.tCCD, bt(&c)) + c.CL + bt(&c));
    dram_get_stats(d, &s);
    CHECK_EQ_U64(s.busy_cycles, 2 * bt(&c));
    dram_free(d);
}

/* Two hits to a fresh row are tCCD (or the burst) apart; a later one costs CL
 * plus the burst.  Run with the default tCCD and with one longer than the burst. */
static void test_row_hit(void)
{
    for (int v = 0; v < 2; v++) {
        dram_config c = plain();
        if (v == 1)
            c.tCCD = 5;
        dram *d = dram_create(&c, 1, 0);
        CHECK_EQ_INT(dram_push(d, 0, addr(&c, 2, 5, 0), 64, 0, 1), 0);
        CHECK_EQ_INT(dram_push(d, 0, addr(&c, 2, 5, 64), 64, 0, 2), 0);
        uint64_t tags[4], dones[4];
        CHECK_EQ_U64(drain(d, tags, dones, 4), 2);
        CHECK(tags[0] == 1 && tags[1] == 2);
        CHECK_EQ_U64(dones[0], c.tRCD + c.CL + bt(&c));
        CHECK_EQ_U64(dones[1], c.tRCD + max2(c.tCCD, bt(&c)) + c.CL + bt(&c));
        /* Much later, the row is still open: CL + burst only. */
        CHECK_EQ_INT(dram_push(d, 1000, addr(&c, 2, 5, 1024), 64, 0, 3), 0);
        CHECK_EQ_U64(drain1(d, 3), 1000 + c.CL + bt(&c));
        dram_stats s;
        dram_get_stats(d, &s);
        CHECK_EQ_U64(s.activates, 1);
        CHECK_EQ_U64(s.precharges, 0);
        CHECK_EQ_U64(s.row_hits, 2);
        CHECK_EQ_U64(s.row_misses, 1);
        CHECK_EQ_U64(s.reads, 3);
        dram_free(d);
    }
}

/* tCCDL between column commands in the same bank group, tCCD across groups. */
static void test_bank_groups(void)
{
    dram_config c = plain();
    c.nbkgrp = 4;
    c.tCCD = 1;
    c.tCCDL = 4;
    uint32_t grp = c.nbk / c.nbkgrp;
    for (int same = 0; same <= 1; same++) {
        uint32_t b2 = same ? 1 : grp; /* bank 1 shares bank 0's group; bank grp does not */
        dram *d = dram_create(&c, 1, 0);
        dram_push(d, 0, addr(&c, 0, 0, 0), 32, 0, 1);
        dram_push(d, 0, addr(&c, b2, 0, 0), 32, 0, 2);
        uint64_t tags[4], dones[4];
        CHECK_EQ_U64(drain(d, tags, dones, 4), 2);
        uint64_t t = 1000;
        dram_push(d, t, addr(&c, 0, 0, 64), 32, 0, 3);
        dram_push(d, t, addr(&c, b2, 0, 64), 32, 0, 4);
        CHECK_EQ_U64(drain(d, tags, dones, 4), 2);
        uint64_t gap = max2(same ? max2(c.tCCDL, c.tCCD) : c.tCCD, bt(&c));
        CHECK_EQ_U64(dones[0], t + c.CL + bt(&c));
        CHECK_EQ_U64(dones[1], t + gap + c.CL + bt(&c));
        dram_free(d);
    }
}

/* A second row in the same bank: PRE after tRAS (and tRTPL), ACT after tRP
 * and tRC, then tRCD + CL + burst.  Four configs make each bound bind. */
static void test_row_conflict(void)
{
    for (int v = 0; v < 4; v++) {
        dram_config c = plain();
        if (v == 1)
            c.tRTPL = 25; /* tRCD + tRTPL > tRAS */
        if (v == 2)
            c.tRC = 70;   /* tRC > PRE + tRP */
        if (v == 3)
            c.tRC = c.tRAS; /* only tRAS + tRP bounds the second ACT (tRC < tRAS is refused) */
        dram *d = dram_create(&c, 1, 0);
        dram_push(d, 0, addr(&c, 0, 0, 0), 64, 0, 1);
        dram_push(d, 0, addr(&c, 0, 1, 0), 64, 0, 2);
        uint64_t tags[4], dones[4];
        CHECK_EQ_U64(drain(d, tags, dones, 4), 2);
        CHECK(tags[0] == 1 && tags[1] == 2);
        CHECK_EQ_U64(dones[0], c.tRCD + c.CL + bt(&c));
        uint64_t pre = max2(c.tRAS, c.tRCD + c.tRTPL);
        uint64_t act = max2(pre + c.tRP, c.tRC);
        CHECK_EQ_U64(dones[1], act + c.tRCD + c.CL + bt(&c));
        dram_stats s;
        dram_get_stats(d, &s);
        CHECK_EQ_U64(s.activates, 2);
        CHECK_EQ_U64(s.precharges, 1);
        CHECK_EQ_U64(s.row_misses, 2);
        CHECK_EQ_U64(s.row_hits, 0);
        dram_free(d);
    }
}

/* After row A is open, push an older miss (row B) and a younger hit (row A)
 * of hit_bytes. */
static void frfcfs_case(uint32_t scheduler, uint32_t hit_bytes, uint64_t *tags, uint64_t *dones,
                        dram_stats *s)
{
    dram_config c = plain();
    c.scheduler = scheduler;
    dram *d = dram_create(&c, 1, 0);
    dram_push(d, 0, addr(&c, 0, 0, 0), 64, 0, 100);
    uint64_t t0[2], d0[2];
    CHECK_EQ_U64(drain(d, t0, d0, 2), 1);
    dram_push(d, 1000, addr(&c, 0, 1, 0), 64, 0, 1);         /* older, row miss */
    dram_push(d, 1000, addr(&c, 0, 0, 64), hit_bytes, 0, 2); /* younger, row hit */
    CHECK_EQ_U64(drain(d, tags, dones, 2), 2);
    dram_get_stats(d, s);
    dram_free(d);
}

static void test_frfcfs_vs_fifo(void)
{
    dram_config c = plain();
    uint64_t T = 1000, b = bt(&c), tags[2], dones[2];
    dram_stats s;

    frfcfs_case(1, 64, tags, dones, &s);
    CHECK_EQ_U64(tags[0], 2); /* the younger hit first */
    CHECK_EQ_U64(tags[1], 1);
    CHECK_EQ_U64(dones[0], T + c.CL + b);
    /* RD at T, PRE at T+1 (one command per cycle), ACT tRP later. */
    CHECK_EQ_U64(dones[1], T + 1 + c.tRP + c.tRCD + c.CL + b);
    CHECK_EQ_U64(s.row_hits, 1);
    CHECK_EQ_U64(s.row_misses, 2);
    CHECK_EQ_U64(s.activates, 2);

    /* A two-column hit: no PRE while its second column waits for tCCD. */
    uint64_t xfer = (uint64_t)c.bus_width * c.chips * c.burst_length;
    uint64_t gap = max2(c.tCCD, b);
    CHECK(gap > 1);
    frfcfs_case(1, (uint32_t)(2 * xfer), tags, dones, &s);
    CHECK_EQ_U64(tags[0], 2);
    CHECK_EQ_U64(dones[0], T + gap + c.CL + b);
    CHECK_EQ_U64(dones[1], T + gap + 1 + c.tRP + c.tRCD + c.CL + b);

    frfcfs_case(0, 64, tags, dones, &s);
    CHECK_EQ_U64(tags[0], 1); /* FIFO: the older miss first */
    CHECK_EQ_U64(tags[1], 2);
    uint64_t act1 = T + c.tRP;
    uint64_t rd1 = act1 + c.tRCD;
    CHECK_EQ_U64(dones[0], rd1 + c.CL + b);
    uint64_t pre2 = max2(act1 + c.tRAS, rd1 + c.tRTPL);
    uint64_t act2 = max2(pre2 + c.tRP, act1 + c.tRC);
    CHECK_EQ_U64(dones[1], act2 + c.tRCD + c.CL + b);
    CHECK_EQ_U64(s.row_hits, 0);
    CHECK_EQ_U64(s.row_misses, 3);
    CHECK_EQ_U64(s.activates, 3);
    CHECK_EQ_U64(s.precharges, 2);
}

/* A ready row-hit column command goes before an older request's ACT to
 * another bank in the same cycle. */
static void test_column_first(void)
{
    dram_config c = plain();
    uint64_t T = 1000, b = bt(&c), tags[2], dones[2];
    dram *d = dram_create(&c, 1, 0);
    dram_push(d, 0, addr(&c, 0, 0, 0), 64, 0, 100);
    CHECK_EQ_U64(drain(d, tags, dones, 2), 1);
    dram_push(d, T, addr(&c, 1, 0, 0), 64, 0, 1);  /* older, bank closed */
    dram_push(d, T, addr(&c, 0, 0, 64), 64, 0, 2); /* younger, row hit */
    CHECK_EQ_U64(drain(d, tags, dones, 2), 2);
    CHECK_EQ_U64(tags[0], 2);
    CHECK_EQ_U64(dones[0], T + c.CL + b);
    CHECK_EQ_U64(dones[1], T + 1 + c.tRCD + c.CL + b);
    dram_free(d);
}

static void test_trrd(void)
{
    dram_config c = plain();
    c.tRRD = 9;
    CHECK(c.tRRD >= c.tCCD && c.tRRD >= bt(&c)); /* so only tRRD separates them */
    dram *d = dram_create(&c, 1, 0);
    dram_push(d, 0, addr(&c, 0, 0, 0), 64, 0, 1);
    dram_push(d, 0, addr(&c, 1, 0, 0), 64, 0, 2);
    uint64_t tags[2], dones[2];
    CHECK_EQ_U64(drain(d, tags, dones, 2), 2);
    CHECK_EQ_U64(dones[0], c.tRCD + c.CL + bt(&c));
    CHECK_EQ_U64(dones[1], c.tRRD + c.tRCD + c.CL + bt(&c));
    dram_free(d);
}

static void test_write_timing(void)
{
    dram_config c = plain();
    uint64_t b = bt(&c), tags[2], dones[2];
    dram_stats s;

    /* Write then read of the same row: the read waits tCDLR after the write data. */
    dram *d = dram_create(&c, 1, 0);
    dram_push(d, 0, addr(&c, 0, 0, 0), 64, 1, 1);
    dram_push(d, 0, addr(&c, 0, 0, 64), 64, 0, 2);
    CHECK_EQ_U64(drain(d, tags, dones, 2), 2);
    uint64_t wend = c.tRCD + c.WL + b;
    CHECK_EQ_U64(dones[0], wend);
    CHECK(wend + c.tCDLR > c.tRCD + c.tCCD); /* tCDLR is the binding bound */
    CHECK_EQ_U64(dones[1], wend + c.tCDLR + c.CL + b);
    dram_get_stats(d, &s);
    CHECK_EQ_U64(s.writes, 1);
    CHECK_EQ_U64(s.reads, 1);
    dram_free(d);

    /* Write then read of another row: tWR before the precharge. */
    d = dram_create(&c, 1, 0);
    dram_push(d, 0, addr(&c, 0, 0, 0), 64, 1, 1);
    dram_push(d, 0, addr(&c, 0, 1, 0), 64, 0, 2);
    CHECK_EQ_U64(drain(d, tags, dones, 2), 2);
    CHECK(wend + c.tWR > c.tRAS);
    uint64_t act = max2(wend + c.tWR + c.tRP, c.tRC);
    CHECK_EQ_U64(dones[1], act + c.tRCD + c.CL + b);
    dram_free(d);

    /* Read then write: the write's data follows the read's on the bus. */
    d = dram_create(&c, 1, 0);
    dram_push(d, 0, addr(&c, 0, 0, 0), 64, 0, 1);
    dram_push(d, 0, addr(&c, 0, 0, 64), 64, 1, 2);
    CHECK_EQ_U64(drain(d, tags, dones, 2), 2);
    CHECK_EQ_U64(dones[0], c.tRCD + c.CL + b);
    CHECK_EQ_U64(dones[1], c.tRCD + c.CL + 2 * b);
    dram_free(d);
}

static void test_queue_full(void)
{
    dram_config c = plain();
    c.queue_size = 2;
    dram *d = dram_create(&c, 1, 0);
    CHECK_EQ_INT(dram_can_accept(d), 1);
    CHECK_EQ_INT(dram_push(d, 0, 0, 64, 0, 1), 0);
    CHECK_EQ_INT(dram_push(d, 0, 64, 64, 0, 2), 0);
    CHECK_EQ_INT(dram_can_accept(d), 0);
    CHECK_EQ_INT(dram_push(d, 0, 128, 64, 0, 3), -1);
    dram_advance(d, 0); /* ACT only */
    CHECK_EQ_INT(dram_can_accept(d), 0);
    dram_advance(d, c.tRCD); /* first RD: request 1 leaves the queue */
    CHECK_EQ_INT(dram_can_accept(d), 1);
    CHECK_EQ_U64(dram_queue_len(d), 1);
    /* Bad sizes are refused without counting as queue-full. */
    CHECK_EQ_INT(dram_push(d, c.tRCD, 0, 0, 0, 4), -1);
    CHECK_EQ_INT(dram_push(d, c.tRCD, 0, 48, 0, 4), -1);
    CHECK_EQ_INT(dram_push(d, c.tRCD, 0, c.row_bytes + 32, 0, 4), -1);
    dram_stats s;
    dram_get_stats(d, &s);
    CHECK_EQ_U64(s.queue_full, 1);
    uint64_t tags[4], dones[4];
    CHECK_EQ_U64(drain(d, tags, dones, 4), 2);
    dram_free(d);
}

/* The refresh phase the channel must draw: the first number of its stream. */
static uint64_t want_phase(uint64_t seed, uint32_t inst, uint32_t trefi)
{
    rng r; /* the phase's own stream (dram.c) */
    rng_seed(&r, seed, RNG_DRAM, inst | 0x80000000u);
    return rng_below(&r, trefi);
}

static void test_refresh(void)
{
    dram_config c = plain();
    c.tREFI = 1000;
    c.tRFC = 100;
    uint64_t b = bt(&c);
    /* A seed whose phase leaves room for a request before it. */
    uint64_t seed = 1, p;
    while ((p = want_phase(seed, 3, c.tREFI)) < 200)
        seed++;

    /* A request arriving when refresh is due waits tRFC. */
    dram *d = dram_create(&c, seed, 3);
    CHECK_EQ_U64(dram_refresh_phase(d), p);
    dram_push(d, p, addr(&c, 4, 2, 0), 64, 0, 1);
    CHECK_EQ_U64(drain1(d, 1), p + c.tRFC + c.tRCD + c.CL + b);
    dram_stats s;
    dram_get_stats(d, &s);
    CHECK_EQ_U64(s.refreshes, 1);
    /* Idle: refresh keeps going every tREFI. */
    dram_advance(d, p + 5 * c.tREFI);
    dram_get_stats(d, &s);
    CHECK_EQ_U64(s.refreshes, 6);
    dram_free(d);

    /* An open row is precharged for refresh; the hit becomes a miss. */
    d = dram_create(&c, seed, 3);
    dram_push(d, 0, addr(&c, 4, 2, 0), 64, 0, 1);
    CHECK_EQ_U64(drain1(d, 1), c.tRCD + c.CL + b);
    dram_push(d, p, addr(&c, 4, 2, 64), 64, 0, 2);
    CHECK_EQ_U64(drain1(d, 2), p + c.tRP + c.tRFC + c.tRCD + c.CL + b);
    dram_get_stats(d, &s);
    CHECK_EQ_U64(s.refreshes, 1);
    CHECK_EQ_U64(s.precharges, 1);
    CHECK_EQ_U64(s.activates, 2);
    CHECK_EQ_U64(s.row_misses, 2);
    dram_free(d);

    /* Refresh off: no phase, no refreshes. */
    c.tREFI = 0;
    d = dram_create(&c, seed, 3);
    CHECK_EQ_U64(dram_refresh_phase(d), UINT64_MAX);
    dram_advance(d, 100000);
    dram_get_stats(d, &s);
    CHECK_EQ_U64(s.refreshes, 0);
    dram_free(d);
}

/* Run a pseudo-random stream (from its own test stream) through a channel;
 * record completions.  Returns the count. */
static size_t run_stream(const dram_config *c, uint64_t seed, uint64_t *tags, uint64_t *dones,
                         dram_stats *s)
{
    dram *d = dram_create(c, seed, 0);
    rng r;
    rng_seed(&r, 12345, RNG_TEST, 0);
    size_t n = 0;
    uint64_t now = 0;
    for (uint64_t i = 0; i < 400;) {
        now += rng_below(&r, 12);
        dram_advance(d, now);
        uint64_t tag, done;
        while (dram_pop_done(d, &tag, &done)) {
            tags[n] = tag;
            dones[n++] = done;
        }
        if (!dram_can_accept(d))
            continue;
        uint64_t a = addr(c, rng_below(&r, c->nbk), rng_below(&r, 4), 0);
        uint32_t bytes = 32 * (1 + rng_below(&r, 4));
        CHECK_EQ_INT(dram_push(d, now, a, bytes, rng_below(&r, 4) == 0, i), 0);
        i++;
    }
    n += drain(d, tags + n, dones + n, MAXREQ - n);
    dram_get_stats(d, s);
    dram_free(d);
    return n;
}

static void test_determinism(void)
{
    static uint64_t t1[MAXREQ], d1[MAXREQ], t2[MAXREQ], d2[MAXREQ];
    dram_config c;
    dram_config_default(&c);
    c.tREFI = 500;
    c.tRFC = 60;
    c.jitter = 3;
    dram_stats s1, s2;
    size_t n1 = run_stream(&c, 42, t1, d1, &s1);
    size_t n2 = run_stream(&c, 42, t2, d2, &s2);
    CHECK_EQ_U64(n1, 400);
    CHECK_EQ_U64(n2, 400);
    CHECK(memcmp(t1, t2, n1 * sizeof t1[0]) == 0);
    CHECK(memcmp(d1, d2, n1 * sizeof d1[0]) == 0);
    CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
    /* Invariants: every tag once, completions in cycle order, stats add up. */
    static uint8_t seen[400];
    memset(seen, 0, sizeof seen);
    int ok = 1;
    for (size_t i = 0; i < n1; i++) {
        ok &= t1[i] < 400 && !seen[t1[i]];
        if (t1[i] < 400)
            seen[t1[i]] = 1;
        ok &= i == 0 || d1[i - 1] <= d1[i];
    }
    CHECK(ok);
    CHECK_EQ_U64(s1.reads + s1.writes, 400);
    CHECK_EQ_U64(s1.row_hits + s1.row_misses, 400);
    CHECK(s1.row_misses <= s1.activates);
    CHECK(s1.row_hits > 0);
    CHECK(s1.refreshes > 0);
    /* A different seed moves the refreshes (and jitter): other cycles. */
    size_t n3 = run_stream(&c, 43, t2, d2, &s2);
    CHECK_EQ_U64(n3, 400);
    CHECK(memcmp(d1, d2, n1 * sizeof d1[0]) != 0);
    CHECK(s1.total_latency != s2.total_latency);

    /* Refresh and jitter off: the seed has no effect at all. */
    c.tREFI = 0;
    c.jitter = 0;
    n1 = run_stream(&c, 1, t1, d1, &s1);
    n2 = run_stream(&c, 2, t2, d2, &s2);
    CHECK_EQ_U64(n1, n2);
    CHECK(memcmp(t1, t2, n1 * sizeof t1[0]) == 0);
    CHECK(memcmp(d1, d2, n1 * sizeof d1[0]) == 0);
    CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
}

static void test_jitter(void)
{
    dram_config c = plain();
    c.jitter = 7;
    uint64_t base = c.tRCD + c.CL + bt(&c);
    int distinct = 0;
    uint64_t first = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        /* Refresh off: the read's jitter is the stream's first draw. */
        rng r;
        rng_seed(&r, seed, RNG_DRAM, 5);
        uint64_t want = base + rng_below(&r, c.jitter + 1);
        dram *d = dram_create(&c, seed, 5);
        dram_push(d, 0, 0, 64, 0, 1);
        uint64_t got = drain1(d, 1);
        CHECK_EQ_U64(got, want);
        CHECK(got >= base && got <= base + c.jitter);
        if (seed == 1)
            first = got;
        else if (got != first)
            distinct = 1;
        dram_free(d);
        /* Writes are not jittered. */
        d = dram_create(&c, seed, 5);
        dram_push(d, 0, 0, 64, 1, 2);
        CHECK_EQ_U64(drain1(d, 2), c.tRCD + c.WL + bt(&c));
        dram_free(d);
    }
    CHECK(distinct);
}

static void test_next_event(void)
{
    dram_config c = plain();
    dram *d = dram_create(&c, 1, 0);
    CHECK_EQ_U64(dram_next_event(d), UINT64_MAX);
    dram_push(d, 0, 0, 64, 0, 1);
    CHECK_EQ_U64(dram_next_event(d), 0); /* the ACT can issue at once */
    dram_advance(d, 0);
    CHECK_EQ_U64(dram_next_event(d), c.tRCD);
    dram_advance(d, c.tRCD - 1);
    CHECK_EQ_U64(dram_next_event(d), c.tRCD);
    dram_advance(d, c.tRCD);
    uint64_t done = c.tRCD + c.CL + bt(&c);
    CHECK_EQ_U64(dram_next_event(d), done);
    uint64_t tag, cyc;
    dram_advance(d, done - 1);
    CHECK_EQ_INT(dram_pop_done(d, &tag, &cyc), 0);
    dram_advance(d, done);
    CHECK_EQ_INT(dram_pop_done(d, &tag, &cyc), 1);
    CHECK_EQ_U64(cyc, done);
    CHECK_EQ_INT(dram_pop_done(d, &tag, &cyc), 0);
    CHECK_EQ_U64(dram_next_event(d), UINT64_MAX);
    /* A request pushed for a future cycle: the event is its arrival. */
    dram_push(d, 5000, addr(&c, 1, 0, 0), 64, 0, 2);
    CHECK_EQ_U64(dram_next_event(d), 5000);
    dram_free(d);
}

static void test_parse(void)
{
    char err[256];
    dram_config c, orig;
    dram_config_default(&c);
    c.nbk = 1;
    c.CL = 1;
    CHECK_EQ_INT(dram_timing_parse("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:"
                                   "CDLR=5:WR=12:nbkgrp=1:CCDL=0:RTPL=0",
                                   &c, err, sizeof err),
                 0);
    CHECK(c.nbk == 16 && c.tCCD == 2 && c.tRRD == 6 && c.tRCD == 12 && c.tRAS == 28);
    CHECK(c.tRP == 12 && c.tRC == 40 && c.CL == 12 && c.WL == 4 && c.tCDLR == 5);
    CHECK(c.tWR == 12 && c.nbkgrp == 1 && c.tCCDL == 0 && c.tRTPL == 0);
    /* Any order, blanks, missing keys keep their values. */
    CHECK_EQ_INT(dram_timing_parse("RTPL=3: CL=20 :nbkgrp=4:CCDL=3", &c, err, sizeof err), 0);
    CHECK(c.tRTPL == 3 && c.CL == 20 && c.nbkgrp == 4 && c.tCCDL == 3 && c.tRCD == 12);

    orig = c;
    CHECK_EQ_INT(dram_timing_parse("CL=12:FOO=3", &c, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "unknown key 'FOO'");
    CHECK(memcmp(&c, &orig, sizeof c) == 0);
    CHECK_EQ_INT(dram_timing_parse("CL=1x", &c, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "bad number '1x' for key CL");
    CHECK_EQ_INT(dram_timing_parse("RP=-1", &c, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "bad number");
    CHECK_EQ_INT(dram_timing_parse("RP=", &c, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "bad number");
    CHECK_EQ_INT(dram_timing_parse("RP=99999999999", &c, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "bad number");
    CHECK_EQ_INT(dram_timing_parse("nbk=0", &c, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "nbk must be at least 1");
    CHECK_EQ_INT(dram_timing_parse("nbk=16:nbkgrp=3", &c, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "not a multiple of nbkgrp");
    CHECK_EQ_INT(dram_timing_parse("CL", &c, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "expected KEY=VALUE");
    CHECK_EQ_INT(dram_timing_parse("RAS=100:RC=10", &c, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "RC (10) is shorter than RAS (100)");
    CHECK_EQ_INT(dram_timing_parse("CL=0", &c, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "CL must be at least 1");
    CHECK(memcmp(&c, &orig, sizeof c) == 0);
    CHECK(strchr(err, '\n') == NULL);

    /* dram_create refuses a bad config. */
    c.nbk = 0;
    CHECK(dram_create(&c, 1, 0) == NULL);
}

static void test_long_idle(void)
{
    dram_config c;
    dram_config_default(&c); /* refresh on */
    clock_t t0 = clock();
    dram *d = dram_create(&c, 99, 1);
    uint64_t p = dram_refresh_phase(d);
    CHECK_EQ_U64(p, want_phase(99, 1, c.tREFI));
    dram_push(d, 0, 0, 64, 0, 1);
    uint64_t end = 1000000000000ull;
    dram_advance(d, end);
    uint64_t tag, cyc;
    CHECK_EQ_INT(dram_pop_done(d, &tag, &cyc), 1);
    CHECK_EQ_U64(tag, 1);
    CHECK(cyc < 1000);
    CHECK_EQ_U64(dram_next_event(d), UINT64_MAX);
    dram_stats s;
    dram_get_stats(d, &s);
    CHECK_EQ_U64(s.refreshes, (end - p) / c.tREFI + 1);
    /* A request far in the future, pushed before the channel gets there. */
    dram_push(d, 2 * end, addr(&c, 3, 1, 0), 64, 0, 2);
    dram_advance(d, 3 * end);
    CHECK_EQ_INT(dram_pop_done(d, &tag, &cyc), 1);
    CHECK(cyc >= 2 * end && cyc < 2 * end + 1000);
    dram_get_stats(d, &s);
    CHECK_EQ_U64(s.refreshes, (3 * end - p) / c.tREFI + 1);
    dram_free(d);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    CHECK_MSG(secs < 1.0, "skipping idle time took %.2f s", secs);
}

int main(void)
{
    RUN(test_mapping);
    RUN(test_single_read);
    RUN(test_row_hit);
    RUN(test_bank_groups);
    RUN(test_row_conflict);
    RUN(test_frfcfs_vs_fifo);
    RUN(test_column_first);
    RUN(test_trrd);
    RUN(test_write_timing);
    RUN(test_queue_full);
    RUN(test_refresh);
    RUN(test_determinism);
    RUN(test_jitter);
    RUN(test_next_event);
    RUN(test_parse);
    RUN(test_long_idle);
    return test_summary();
}
