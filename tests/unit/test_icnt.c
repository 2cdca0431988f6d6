/*
 * test_icnt.c -- unit tests of one direction of the crossbar (mem/icnt.c):
 * exact delivery cycles for one- and multi-flit packets (push at t ->
 * deliverable at t + F + latency), serialization and arb stalls at a
 * contended output, independence of distinct outputs, input-queue and
 * ejection-buffer back-pressure, per-(src,dst) ordering and exactly-once
 * delivery under seeded random traffic, seeded arbitration (different seeds
 * differ, one seed repeats), event-driven skipping of idle time that matches
 * cycle-by-cycle stepping, windowed runs (sources, receivers, then the
 * crossbar, per window) equal to cycle-by-cycle ones, the credit delay, and
 * ordered pairs of inputs (a store input behind its load input), and
 * rejection of bad configurations.
 *
 * Expected values are computed from the parameters, never read back from
 * the implementation.
 */
#include "test.h"

#include <stdint.h>

#include "mem/icnt.h"
#include "util/rng.h"

#define FLIT 32u
#define LAT 4u

static icnt_config make_cfg(uint32_t nin, uint32_t nout)
{
    icnt_config c;
    memset(&c, 0, sizeof c);
    c.nin = nin;
    c.nout = nout;
    c.flit_bytes = FLIT;
    c.latency = LAT;
    c.in_queue_flits = 16;
    c.out_buffer_pkts = 4;
    c.random_arbitration = 0;
    c.seeded_start = 1;
    return c;
}

/* Step one cycle at a time from the advanced time until output dst has a
 * packet ready; the cycle it became ready, or 0 if not by `limit`. */
static uint64_t ready_at(icnt *n, uint32_t dst, uint64_t limit)
{
    for (uint64_t t = icnt_now(n) + 1; t <= limit; t++) {
        icnt_advance(n, t);
        if (icnt_ready(n, dst))
            return t;
    }
    return 0;
}

/* The initial round-robin pointer of output o, from the documented contract:
 * the o-th draw of rng_below(nin) on stream (seed, RNG_ICNT, instance). */
static uint32_t expected_rr(uint64_t seed, uint32_t instance, uint32_t nin, uint32_t o)
{
    rng r;
    rng_seed(&r, seed, RNG_ICNT, instance);
    uint32_t v = 0;
    for (uint32_t k = 0; k <= o; k++)
        v = rng_below(&r, nin);
    return v;
}

static void test_one_flit_timing(void)
{
    icnt_config c = make_cfg(2, 2);
    icnt *n = icnt_create(&c, 1, 0);
    CHECK(n != NULL);
    int x = 0;
    const uint64_t t = 5;
    icnt_advance(n, t);
    CHECK(icnt_idle(n));
    CHECK_EQ_U64(icnt_next_event(n), UINT64_MAX);
    CHECK_EQ_INT(icnt_push(n, t, 1, 0, FLIT, &x), 0);
    CHECK(!icnt_idle(n));
    /* The push cycle never moves a flit: the first flit crosses at t + 1. */
    CHECK_EQ_U64(icnt_next_event(n), t + 1);
    CHECK_EQ_U64(ready_at(n, 0, 100), t + 1 + LAT);
    icnt_advance(n, t + 1); /* earlier than now: no-op */
    CHECK_EQ_U64(icnt_now(n), t + 1 + LAT);
    CHECK(!icnt_ready(n, 1));
    void *pl = NULL;
    uint32_t src = 99;
    CHECK_EQ_INT(icnt_pop(n, 0, &pl, &src), 1);
    CHECK(pl == &x);
    CHECK_EQ_INT(src, 1);
    CHECK_EQ_INT(icnt_pop(n, 0, &pl, &src), 0);
    CHECK(icnt_idle(n));
    icnt_stats s;
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.packets, 1);
    CHECK_EQ_U64(s.flits, 1);
    CHECK_EQ_U64(s.total_latency, 1 + LAT);
    CHECK_EQ_U64(s.arb_stalls, 0);
    CHECK_EQ_U64(s.out_full_stalls, 0);

    /* A push stamped later than the advanced time counts from its stamp. */
    icnt_advance(n, 20);
    CHECK_EQ_INT(icnt_push(n, 30, 0, 1, 1, NULL), 0);
    CHECK_EQ_U64(icnt_next_event(n), 31);
    CHECK_EQ_U64(ready_at(n, 1, 100), 30 + 1 + LAT);
    icnt_free(n);
}

static void test_multi_flit_timing(void)
{
    icnt_config c = make_cfg(1, 1);
    icnt *n = icnt_create(&c, 2, 0);
    CHECK(n != NULL);
    CHECK_EQ_INT(icnt_packet_flits(n, 0), 1);
    CHECK_EQ_INT(icnt_packet_flits(n, 1), 1);
    CHECK_EQ_INT(icnt_packet_flits(n, FLIT), 1);
    CHECK_EQ_INT(icnt_packet_flits(n, FLIT + 1), 2);
    CHECK_EQ_INT(icnt_packet_flits(n, 5 * FLIT), 5);
    CHECK_EQ_INT(icnt_packet_flits(n, 5 * FLIT + 1), 6);
    const uint64_t t = 3;
    const uint32_t F = 5;
    icnt_advance(n, t);
    CHECK_EQ_INT(icnt_push(n, t, 0, 0, F * FLIT - 7, NULL), 0);
    CHECK_EQ_U64(ready_at(n, 0, 100), t + F + LAT);
    icnt_stats s;
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.packets, 1);
    CHECK_EQ_U64(s.flits, F);
    CHECK_EQ_U64(s.total_latency, F + LAT);
    icnt_free(n);
}

/* Two inputs, one output, F-flit packets pushed at the same cycle: the
 * round-robin winner (the seeded initial pointer) goes first, the other
 * waits F cycles (F arb stalls) and packets are not interleaved. */
static void test_contention_serializes(void)
{
    const uint32_t F = 3;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        icnt_config c = make_cfg(2, 1);
        icnt *n = icnt_create(&c, seed, 7);
        CHECK(n != NULL);
        CHECK_EQ_INT(icnt_push(n, 0, 0, 0, F * FLIT, NULL), 0);
        CHECK_EQ_INT(icnt_push(n, 0, 1, 0, F * FLIT, NULL), 0);
        uint32_t first = expected_rr(seed, 7, 2, 0), src = 9;
        CHECK_EQ_U64(ready_at(n, 0, 100), F + LAT);
        CHECK_EQ_INT(icnt_pop(n, 0, NULL, &src), 1);
        CHECK_EQ_INT(src, first);
        CHECK_EQ_U64(ready_at(n, 0, 100), 2 * F + LAT);
        CHECK_EQ_INT(icnt_pop(n, 0, NULL, &src), 1);
        CHECK_EQ_INT(src, 1 - first);
        icnt_stats s;
        icnt_get_stats(n, &s);
        CHECK_EQ_U64(s.arb_stalls, F);
        CHECK_EQ_U64(s.total_latency, (F + LAT) + (2 * F + LAT));
        CHECK(icnt_idle(n));
        icnt_free(n);
    }
}

/* Round-robin is fair: two inputs with three 1-flit packets each for one
 * output alternate, starting with the seeded pointer's input. */
static void test_round_robin_alternates(void)
{
    for (uint64_t seed = 0; seed < 4; seed++) {
        icnt_config c = make_cfg(2, 1);
        icnt *n = icnt_create(&c, seed, 0);
        for (uint32_t k = 0; k < 3; k++) {
            CHECK_EQ_INT(icnt_push(n, 0, 0, 0, FLIT, NULL), 0);
            CHECK_EQ_INT(icnt_push(n, 0, 1, 0, FLIT, NULL), 0);
        }
        uint32_t first = expected_rr(seed, 0, 2, 0);
        for (uint32_t k = 0; k < 6; k++) {
            uint32_t src = 9;
            CHECK_EQ_U64(ready_at(n, 0, 100), 1 + k + LAT);
            CHECK_EQ_INT(icnt_pop(n, 0, NULL, &src), 1);
            CHECK_EQ_INT(src, (first + k) % 2);
        }
        icnt_stats s;
        icnt_get_stats(n, &s);
        CHECK_EQ_U64(s.arb_stalls, 5); /* one loser in each of cycles 1..5 */
        icnt_free(n);
    }
}

static void test_distinct_outputs_independent(void)
{
    const uint32_t F = 4;
    icnt_config c = make_cfg(2, 2);
    icnt *n = icnt_create(&c, 3, 0);
    CHECK(n != NULL);
    CHECK_EQ_INT(icnt_push(n, 0, 0, 0, F * FLIT, NULL), 0);
    CHECK_EQ_INT(icnt_push(n, 0, 1, 1, F * FLIT, NULL), 0);
    icnt_advance(n, F + LAT - 1);
    CHECK(!icnt_ready(n, 0) && !icnt_ready(n, 1));
    icnt_advance(n, F + LAT);
    CHECK(icnt_ready(n, 0) && icnt_ready(n, 1));
    icnt_stats s;
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.arb_stalls, 0);
    icnt_free(n);

    /* One input, two outputs: an input sends one flit per cycle, so the
     * second packet follows the first (not an arbitration stall). */
    n = icnt_create(&c, 3, 0);
    CHECK_EQ_INT(icnt_push(n, 0, 0, 0, F * FLIT, NULL), 0);
    CHECK_EQ_INT(icnt_push(n, 0, 0, 1, F * FLIT, NULL), 0);
    CHECK_EQ_U64(ready_at(n, 0, 100), F + LAT);
    CHECK_EQ_U64(ready_at(n, 1, 100), 2 * F + LAT);
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.arb_stalls, 0);
    icnt_free(n);
}

static void test_input_queue_full(void)
{
    icnt_config c = make_cfg(2, 1);
    c.in_queue_flits = 4;
    icnt *n = icnt_create(&c, 4, 0);
    CHECK(n != NULL);
    for (uint32_t k = 0; k < 4; k++)
        CHECK_EQ_INT(icnt_push(n, 0, 0, 0, FLIT, NULL), 0);
    CHECK_EQ_INT(icnt_has_space(n, 0, FLIT), 0);
    CHECK_EQ_INT(icnt_push(n, 0, 0, 0, FLIT, NULL), -1);
    CHECK_EQ_INT(icnt_has_space(n, 1, FLIT), 1); /* the other input is free */
    icnt_stats s;
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.push_refused, 1);
    icnt_advance(n, 1); /* one flit left the queue */
    CHECK_EQ_INT(icnt_has_space(n, 0, FLIT), 1);
    CHECK_EQ_INT(icnt_has_space(n, 0, 2 * FLIT), 0);
    /* Out-of-range ports are errors, not refusals. */
    CHECK_EQ_INT(icnt_push(n, 1, 2, 0, FLIT, NULL), -1);
    CHECK_EQ_INT(icnt_push(n, 1, 0, 1, FLIT, NULL), -1);
    CHECK_EQ_INT(icnt_has_space(n, 2, FLIT), 0);
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.push_refused, 1);
    icnt_free(n);

    /* A packet larger than the queue fits alone in an empty queue; its flits
     * leave one per cycle, so a 1-flit packet fits again once
     * 10 - sent + 1 <= 4, i.e. after 7 flits (cycle 7). */
    n = icnt_create(&c, 4, 0);
    CHECK_EQ_INT(icnt_has_space(n, 0, 10 * FLIT), 1);
    CHECK_EQ_INT(icnt_push(n, 0, 0, 0, 10 * FLIT, NULL), 0);
    CHECK_EQ_INT(icnt_push(n, 0, 0, 0, FLIT, NULL), -1);
    icnt_advance(n, 6);
    CHECK_EQ_INT(icnt_has_space(n, 0, FLIT), 0);
    icnt_advance(n, 7);
    CHECK_EQ_INT(icnt_has_space(n, 0, FLIT), 1);
    CHECK_EQ_INT(icnt_push(n, 7, 0, 0, FLIT, NULL), 0);
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.push_refused, 1);
    /* The big packet's last flit crosses at 10, the small one at 11. */
    CHECK_EQ_U64(ready_at(n, 0, 100), 10 + LAT);
    CHECK_EQ_INT(icnt_pop(n, 0, NULL, NULL), 1);
    CHECK_EQ_U64(ready_at(n, 0, 100), 11 + LAT);
    icnt_free(n);
}

/* One input sends P = 8 one-flit packets to an output with a B = 2 packet
 * ejection buffer that nobody pops.  The k-th flit (k = 1, 2, ...) crosses at
 * cycle k and is ready at k + LAT; a grant at cycle c needs fewer than B
 * ready packets, i.e. c - LAT < B, so packets 1 .. B+LAT-1 cross and the
 * next head is blocked from cycle B + LAT on.  Popping down to B - 1 ready
 * packets at cycle T lets the rest cross at T+1, T+2, ...  `step` advances
 * one cycle at a time instead of jumping; the results must be the same. */
static void run_backpressure(int step, icnt_stats *out)
{
    const uint32_t B = 2, P = 8, crossed = B + LAT - 1;
    const uint64_t T = 100;
    icnt_config c = make_cfg(1, 1);
    c.out_buffer_pkts = B;
    icnt *n = icnt_create(&c, 5, 0);
    CHECK(n != NULL);
    for (uint32_t k = 1; k <= P; k++)
        CHECK_EQ_INT(icnt_push(n, 0, 0, 0, FLIT, (void *)(uintptr_t)k), 0);
    for (uint64_t t = step ? 1 : T; t <= T; t++)
        icnt_advance(n, t);
    icnt_stats s;
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.packets, crossed);
    CHECK_EQ_U64(s.out_full_stalls, T - (B + LAT) + 1);
    CHECK_EQ_U64(icnt_next_event(n), UINT64_MAX); /* only a pop can change things */
    void *pl = NULL;
    uint32_t k = 1;
    for (; k <= crossed - B; k++) { /* still full after these pops */
        CHECK_EQ_INT(icnt_pop(n, 0, &pl, NULL), 1);
        CHECK(pl == (void *)(uintptr_t)k);
        CHECK_EQ_U64(icnt_next_event(n), UINT64_MAX);
    }
    CHECK_EQ_INT(icnt_pop(n, 0, &pl, NULL), 1); /* now B - 1 wait: open */
    CHECK(pl == (void *)(uintptr_t)k);
    k++;
    CHECK_EQ_U64(icnt_next_event(n), T + 1);
    for (uint64_t t = step ? T + 1 : T + 50; t <= T + 50; t++)
        icnt_advance(n, t);
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.out_full_stalls, T - (B + LAT) + 1); /* the rest never blocked */
    CHECK_EQ_U64(s.packets, P);
    uint64_t lat = 0;
    for (uint32_t j = 1; j <= crossed; j++)
        lat += j + LAT;
    for (uint32_t j = 1; j <= P - crossed; j++)
        lat += T + j + LAT;
    CHECK_EQ_U64(s.total_latency, lat);
    for (; k <= P; k++) {
        CHECK_EQ_INT(icnt_pop(n, 0, &pl, NULL), 1);
        CHECK(pl == (void *)(uintptr_t)k);
    }
    CHECK(icnt_idle(n));
    *out = s;
    icnt_free(n);
}

static void test_ejection_backpressure(void)
{
    icnt_stats a, b;
    run_backpressure(0, &a);
    run_backpressure(1, &b);
    CHECK(memcmp(&a, &b, sizeof a) == 0);

    /* Two inputs, B = 1, latency 1: the winner crosses at 1 and is ready at 2;
     * the loser stalls on arbitration at 1 and on the full buffer at 2..T,
     * a stretch that is jumped, not stepped; after a pop at T it crosses at
     * T + 1 and is ready at T + 2. */
    icnt_config c = make_cfg(2, 1);
    c.out_buffer_pkts = 1;
    c.latency = 1;
    icnt *n = icnt_create(&c, 6, 0);
    CHECK_EQ_INT(icnt_push(n, 0, 0, 0, FLIT, NULL), 0);
    CHECK_EQ_INT(icnt_push(n, 0, 1, 0, FLIT, NULL), 0);
    const uint64_t T = 1000000000;
    icnt_advance(n, T);
    icnt_stats s;
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.arb_stalls, 1);
    CHECK_EQ_U64(s.out_full_stalls, T - 1);
    uint32_t src, first = expected_rr(6, 0, 2, 0);
    CHECK_EQ_INT(icnt_pop(n, 0, NULL, &src), 1);
    CHECK_EQ_INT(src, first);
    CHECK_EQ_U64(ready_at(n, 0, T + 100), T + 2);
    CHECK_EQ_INT(icnt_pop(n, 0, NULL, &src), 1);
    CHECK_EQ_INT(src, 1 - first);
    icnt_free(n);

    /* A head stamped in the future counts out-full stalls only from the cycle
     * after its stamp: full from 2 on, stamped 60, blocked 61..100. */
    n = icnt_create(&c, 6, 0);
    CHECK_EQ_INT(icnt_push(n, 0, 0, 0, FLIT, NULL), 0);
    icnt_advance(n, 50);
    CHECK_EQ_INT(icnt_push(n, 60, 1, 0, FLIT, NULL), 0);
    icnt_advance(n, 100);
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.out_full_stalls, 100 - 61 + 1);
    icnt_free(n);
}

/* ---- randomized traffic ------------------------------------------------ */

#define ST_NIN 6u
#define ST_NOUT 3u
#define ST_MAXPKT 6000u
#define ST_LAT 3u

typedef struct st_rec {
    uint32_t src, dst, seq, flits; /* seq: per (src, dst) */
    uint64_t src_seq, push;        /* per-source sequence number, push cycle */
    int delivered;
} st_rec;

typedef struct st_result {
    uint64_t hash;
    icnt_stats stats;
    uint32_t npkts;
} st_result;

static uint64_t fnv(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Pop (some or all of) what is ready at every output, checking exactly-once
 * delivery, per-(src,dst) order, the message's timing and sequence fields
 * and strictly increasing ready cycles per output; hash (time, output, id). */
static void st_pop_all(icnt *n, st_rec *recs, uint32_t next[ST_NIN][ST_NOUT],
                       uint64_t last_ready[ST_NOUT], rng *r, int all, uint64_t *hash)
{
    for (uint32_t o = 0; o < ST_NOUT; o++) {
        uint32_t budget = all ? UINT32_MAX : rng_below(r, 3);
        icnt_msg m;
        while (budget-- && icnt_pop_msg(n, o, &m)) {
            uint32_t id = (uint32_t)(uintptr_t)m.payload - 1, src = m.src;
            st_rec *p = &recs[id];
            CHECK_EQ_U64(m.seq, p->src_seq);
            CHECK_EQ_U64(m.push_cycle, p->push);
            CHECK_EQ_INT(m.flits, p->flits);
            CHECK(m.ready_cycle <= icnt_now(n));
            CHECK(m.ready_cycle >= p->push + p->flits + ST_LAT);
            CHECK(m.ready_cycle > last_ready[o]);
            last_ready[o] = m.ready_cycle;
            CHECK_MSG(!p->delivered, "packet %u delivered twice", id);
            CHECK_EQ_INT(p->dst, o);
            CHECK_EQ_INT(p->src, src);
            CHECK_MSG(p->seq == next[src][o], "src %u dst %u: seq %u, expected %u", src, o,
                      p->seq, next[src][o]);
            next[src][o] = p->seq + 1;
            p->delivered = 1;
            *hash = fnv(fnv(fnv(*hash, icnt_now(n)), o), id);
        }
    }
}

/* Random traffic on a small crossbar with tight buffers: pushes at random
 * times (with idle gaps), receivers that pop only sometimes.  `step` walks
 * every cycle; otherwise the network jumps straight to each action time. */
static void stress(uint64_t traffic_seed, uint64_t net_seed, int random_arb, int step,
                   st_result *res)
{
    static st_rec recs[ST_MAXPKT];
    uint32_t next[ST_NIN][ST_NOUT], seqs[ST_NIN][ST_NOUT];
    uint64_t last_ready[ST_NOUT] = {0}, src_seq[ST_NIN] = {0};
    memset(next, 0, sizeof next);
    memset(seqs, 0, sizeof seqs);
    memset(res, 0, sizeof *res);
    icnt_config c = make_cfg(ST_NIN, ST_NOUT);
    c.latency = ST_LAT;
    c.in_queue_flits = 8;
    c.out_buffer_pkts = 2;
    c.random_arbitration = random_arb;
    icnt *n = icnt_create(&c, net_seed, 1);
    CHECK(n != NULL);
    rng r;
    rng_seed(&r, traffic_seed, RNG_TEST, 0);
    uint64_t t = 0, refused = 0, flits = 0, hash = 0xcbf29ce484222325ull;
    uint32_t np = 0;
    while (np < ST_MAXPKT) {
        t += rng_below(&r, 8) == 0 ? 40 : rng_below(&r, 3);
        for (uint64_t u = step ? icnt_now(n) + 1 : t; u <= t; u++)
            icnt_advance(n, u);
        CHECK_EQ_U64(icnt_now(n), t);
        for (uint32_t s = 0; s < ST_NIN && np < ST_MAXPKT; s++) {
            if (rng_below(&r, 2))
                continue;
            uint32_t dst = rng_below(&r, ST_NOUT), bytes = 1 + rng_below(&r, 5 * FLIT);
            if (!icnt_has_space(n, s, bytes)) {
                CHECK_EQ_INT(icnt_push(n, t, s, dst, bytes, NULL), -1);
                refused++;
                continue;
            }
            st_rec *p = &recs[np];
            p->src = s;
            p->dst = dst;
            p->seq = seqs[s][dst]++;
            p->flits = (bytes + FLIT - 1) / FLIT;
            p->src_seq = src_seq[s]++;
            p->push = t;
            p->delivered = 0;
            flits += p->flits;
            CHECK_EQ_INT(icnt_push(n, t, s, dst, bytes, (void *)(uintptr_t)(np + 1)), 0);
            np++;
        }
        st_pop_all(n, recs, next, last_ready, &r, 0, &hash);
    }
    /* Drain by jumping from event to event. */
    uint32_t rounds = 0;
    while (!icnt_idle(n) && rounds++ < 10 * ST_MAXPKT) {
        st_pop_all(n, recs, next, last_ready, &r, 1, &hash);
        uint64_t ev = icnt_next_event(n);
        if (ev == UINT64_MAX)
            continue;
        for (uint64_t u = step ? icnt_now(n) + 1 : ev; u <= ev; u++)
            icnt_advance(n, u);
    }
    CHECK(icnt_idle(n));
    uint32_t missing = 0;
    for (uint32_t k = 0; k < np; k++)
        missing += !recs[k].delivered;
    CHECK_EQ_INT(missing, 0);
    icnt_get_stats(n, &res->stats);
    CHECK_EQ_U64(res->stats.packets, np);
    CHECK_EQ_U64(res->stats.flits, flits);
    CHECK_EQ_U64(res->stats.push_refused, refused);
    CHECK(refused > 0);                       /* the input queues did fill */
    CHECK(res->stats.arb_stalls > 0);         /* outputs were contended */
    CHECK(res->stats.out_full_stalls > 0);    /* and back-pressured */
    CHECK(res->stats.total_latency >= res->stats.flits + (uint64_t)np * c.latency);
    res->hash = hash;
    res->npkts = np;
    icnt_free(n);
}

static void test_random_order_and_determinism(void)
{
    for (int ra = 0; ra <= 1; ra++) {
        st_result a, b, d, st;
        stress(11, 100, ra, 0, &a);
        stress(11, 100, ra, 0, &b); /* same seeds: identical */
        CHECK_EQ_U64(a.hash, b.hash);
        CHECK(memcmp(&a.stats, &b.stats, sizeof a.stats) == 0);
        stress(11, 100, ra, 1, &st); /* stepping every cycle == jumping */
        CHECK_EQ_U64(a.hash, st.hash);
        CHECK(memcmp(&a.stats, &st.stats, sizeof a.stats) == 0);
        stress(11, 101, ra, 0, &d); /* another arbitration seed: same traffic, */
        CHECK(a.hash != d.hash);    /* different outcome */
        stress(12, 100, ra, 0, &d); /* and other traffic still checks out */
    }
}

/* Four inputs each send one 1-flit packet to output 0 at cycle 0.
 * Round-robin serves them in the rotation starting at the seeded pointer;
 * random arbitration gives some permutation.  Over 16 seeds both must show
 * more than one outcome. */
static void test_seeded_arbitration(void)
{
    for (int ra = 0; ra <= 1; ra++) {
        uint32_t orders[16];
        for (uint64_t seed = 0; seed < 16; seed++) {
            icnt_config c = make_cfg(4, 1);
            c.random_arbitration = ra;
            icnt *n = icnt_create(&c, seed, 3);
            for (uint32_t s = 0; s < 4; s++)
                CHECK_EQ_INT(icnt_push(n, 0, s, 0, FLIT, NULL), 0);
            uint32_t order = 0, seen = 0, rr = expected_rr(seed, 3, 4, 0);
            for (uint32_t k = 0; k < 4; k++) {
                uint32_t src = 9;
                /* One flit per output per cycle: k-th delivery at 1 + k + LAT. */
                CHECK_EQ_U64(ready_at(n, 0, 100), 1 + k + LAT);
                CHECK_EQ_INT(icnt_pop(n, 0, NULL, &src), 1);
                CHECK(src < 4 && !(seen >> src & 1));
                seen |= 1u << (src & 31);
                order = order * 4 + src;
                if (!ra)
                    CHECK_EQ_INT(src, (rr + k) % 4);
            }
            icnt_stats s;
            icnt_get_stats(n, &s);
            CHECK_EQ_U64(s.arb_stalls, 3 + 2 + 1);
            orders[seed] = order;
            icnt_free(n);
        }
        int distinct = 0;
        for (int k = 1; k < 16; k++)
            distinct |= orders[k] != orders[0];
        CHECK(distinct);
    }
}

static void test_next_event_skips_idle(void)
{
    icnt_config c = make_cfg(2, 2);
    icnt *n = icnt_create(&c, 8, 0);
    CHECK_EQ_INT(icnt_push(n, 0, 0, 1, FLIT, NULL), 0);
    /* Event-driven caller: two events (the flit crossing, the delivery). */
    uint32_t events = 0;
    uint64_t last = 0;
    while (!icnt_idle(n) && events < 10) {
        uint64_t ev = icnt_next_event(n);
        CHECK(ev != UINT64_MAX);
        icnt_advance(n, ev);
        events++;
        last = ev;
        icnt_pop(n, 1, NULL, NULL);
    }
    CHECK_EQ_INT(events, 2);
    CHECK_EQ_U64(last, 1 + LAT);
    CHECK_EQ_U64(icnt_next_event(n), UINT64_MAX);

    /* Jump far: a packet pushed at 0 is delivered by 10^12 at the same cycle. */
    const uint64_t BIG = 1000000000000ull;
    CHECK_EQ_INT(icnt_push(n, icnt_now(n), 1, 0, 3 * FLIT, NULL), 0);
    icnt_advance(n, BIG);
    CHECK_EQ_U64(icnt_now(n), BIG);
    CHECK_EQ_INT(icnt_ready(n, 0), 1);
    icnt_stats s;
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.total_latency, (1 + LAT) + (3 + LAT));
    CHECK_EQ_INT(icnt_pop(n, 0, NULL, NULL), 1);
    /* And timing is exact after the jump. */
    CHECK_EQ_INT(icnt_push(n, BIG, 0, 0, 3 * FLIT, NULL), 0);
    CHECK_EQ_U64(icnt_next_event(n), BIG + 1);
    icnt_advance(n, BIG + 3 + LAT - 1);
    CHECK_EQ_INT(icnt_ready(n, 0), 0);
    CHECK_EQ_U64(icnt_next_event(n), BIG + 3 + LAT);
    icnt_advance(n, 2 * BIG);
    CHECK_EQ_INT(icnt_ready(n, 0), 1);
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.total_latency, (1 + LAT) + (3 + LAT) + (3 + LAT));
    icnt_free(n);
}

static void test_bad_config(void)
{
    icnt_config good = make_cfg(2, 2), c;
    icnt *n = icnt_create(&good, 0, 0);
    CHECK(n != NULL);
    icnt_free(n);
    icnt_free(NULL);
    CHECK(icnt_create(NULL, 0, 0) == NULL);
    c = good, c.nin = 0;
    CHECK(icnt_create(&c, 0, 0) == NULL);
    c = good, c.nout = 0;
    CHECK(icnt_create(&c, 0, 0) == NULL);
    c = good, c.flit_bytes = 0;
    CHECK(icnt_create(&c, 0, 0) == NULL);
    c = good, c.latency = 0;
    CHECK(icnt_create(&c, 0, 0) == NULL);
    c = good, c.in_queue_flits = 0;
    CHECK(icnt_create(&c, 0, 0) == NULL);
    c = good, c.out_buffer_pkts = 0;
    CHECK(icnt_create(&c, 0, 0) == NULL);
}

/* Windows (icnt.h).  Sources push multi-flit packets to random outputs and
 * retry when the input looks full; receivers pop at most two packets per
 * cycle and none on every third cycle, so both kinds of back-pressure act.
 * Every source and receiver decides from its own state and the cycle only.
 * Run once cycle by cycle and once in windows of W = latency cycles (every
 * source through the window, then every receiver, then the crossbar): with
 * credit_delay W - 1, the two runs must pop the same packets at the same
 * cycles with the same statistics. */
#define WN_IN 5u
#define WN_OUT 3u
#define WN_PKTS 60u
typedef struct wn_src {
    rng r;
    uint32_t sent, dst, bytes;
} wn_src;

static void wn_source_cycle(icnt *n, wn_src *s, uint32_t i, uint64_t t)
{
    if (s->sent == WN_PKTS || rng_below(&s->r, 4) == 0)
        return;
    if (!icnt_has_space_at(n, i, s->bytes, t))
        return;
    uint64_t tag = ((uint64_t)i << 32) | s->sent;
    CHECK_EQ_INT(icnt_push(n, t, i, s->dst, s->bytes, (void *)(uintptr_t)(tag + 1)), 0);
    s->sent++;
    s->dst = rng_below(&s->r, WN_OUT);
    s->bytes = 1 + rng_below(&s->r, 4 * FLIT);
}

static uint64_t wn_receiver_cycle(icnt *n, uint32_t o, uint64_t t, uint64_t h, uint32_t *got)
{
    icnt_msg m;
    for (int k = 0; k < 2 && t % 3 && icnt_pop_at(n, o, t, &m); k++) {
        CHECK(m.ready_cycle < t);
        h = fnv(fnv(fnv(h, (uintptr_t)m.payload), t), m.ready_cycle);
        (*got)++;
    }
    return h;
}

static uint64_t wn_run(uint32_t window, uint64_t seed, icnt_stats *st)
{
    icnt_config c = make_cfg(WN_IN, WN_OUT);
    c.in_queue_flits = 6;
    c.out_buffer_pkts = 2;
    c.latency = 5;
    c.credit_delay = c.latency - 1;
    icnt *n = icnt_create(&c, seed, 0);
    CHECK(n != NULL);
    wn_src src[WN_IN];
    for (uint32_t i = 0; i < WN_IN; i++) {
        rng_seed(&src[i].r, seed, RNG_SCHED, i);
        src[i].sent = 0;
        src[i].dst = rng_below(&src[i].r, WN_OUT);
        src[i].bytes = 1 + rng_below(&src[i].r, 4 * FLIT);
    }
    uint64_t h[WN_OUT]; /* one per output: the runs visit outputs in different orders */
    for (uint32_t o = 0; o < WN_OUT; o++)
        h[o] = 14695981039346656037ull;
    uint32_t got = 0;
    for (uint64_t T = 1; got < WN_IN * WN_PKTS && T < 100000; T += window) {
        for (uint32_t i = 0; i < WN_IN; i++)
            for (uint64_t t = T; t < T + window; t++)
                wn_source_cycle(n, &src[i], i, t);
        for (uint32_t o = 0; o < WN_OUT; o++)
            for (uint64_t t = T; t < T + window; t++)
                h[o] = wn_receiver_cycle(n, o, t, h[o], &got);
        icnt_advance(n, T + window - 1);
    }
    CHECK_EQ_INT(got, WN_IN * WN_PKTS);
    CHECK(icnt_idle(n));
    icnt_get_stats(n, st);
    icnt_free(n);
    return fnv(fnv(h[0], h[1]), h[2]);
}

static void test_windows_equal_cycles(void)
{
    for (uint64_t seed = 1; seed <= 20; seed++) {
        icnt_stats a, b;
        uint64_t ha = wn_run(1, seed, &a), hb = wn_run(5, seed, &b);
        CHECK_EQ_U64(ha, hb);
        CHECK_EQ_U64(a.packets, b.packets);
        CHECK_EQ_U64(a.arb_stalls, b.arb_stalls);
        CHECK_EQ_U64(a.out_full_stalls, b.out_full_stalls);
        CHECK_EQ_U64(a.total_latency, b.total_latency);
        CHECK(a.out_full_stalls > 0); /* back-pressure did act */
    }
}

/* A flit sent at cycle e frees its input slot for the source at e +
 * credit_delay + 1, not earlier. */
static void test_credit_delay(void)
{
    icnt_config c = make_cfg(1, 1);
    c.in_queue_flits = 2;
    c.credit_delay = 3;
    icnt *n = icnt_create(&c, 1, 0);
    CHECK(n != NULL);
    CHECK_EQ_INT(icnt_push(n, 0, 0, 0, 2 * FLIT, NULL), 0); /* fills the queue */
    CHECK(!icnt_has_space_at(n, 0, FLIT, 1));
    icnt_advance(n, 2); /* its flits leave at cycles 1 and 2 */
    CHECK(!icnt_has_space_at(n, 0, FLIT, 3));
    CHECK(!icnt_has_space_at(n, 0, FLIT, 4));
    CHECK(icnt_has_space_at(n, 0, FLIT, 5));      /* the flit of cycle 1 */
    CHECK(!icnt_has_space_at(n, 0, 2 * FLIT, 5)); /* not yet the one of cycle 2 */
    CHECK(icnt_has_space_at(n, 0, 2 * FLIT, 6));
    CHECK_EQ_INT(icnt_push(n, 4, 0, 0, FLIT, NULL), -1); /* refused, and counted */
    icnt_stats s;
    icnt_get_stats(n, &s);
    CHECK_EQ_U64(s.push_refused, 1);
    icnt_free(n);
}

/* Bypass: with output 0's ejection buffer full, packets for output 1 queued
 * behind one for output 0 still go; those for output 0 keep their order;
 * without bypass nothing passes the blocked head.  Jumping from event to
 * event gives the same deliveries as stepping. */
static void run_bypass(uint32_t bypass, int jump, uint64_t got[4], uint64_t *bypasses)
{
    icnt_config c = make_cfg(1, 2);
    c.out_buffer_pkts = 1;
    c.bypass = bypass;
    icnt *n = icnt_create(&c, 1, 0);
    CHECK(n != NULL);
    int pa = 0, p[4] = {0, 1, 2, 3};
    CHECK_EQ_INT(icnt_push(n, 0, 0, 0, FLIT, &pa), 0);
    CHECK_EQ_U64(ready_at(n, 0, 100), 1 + LAT); /* A waits unpopped: output 0 is full */
    /* B -> 0, C -> 1, D -> 0, E -> 1 */
    uint32_t dst[4] = {0, 1, 0, 1};
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(icnt_push(n, 10, 0, dst[i], FLIT, &p[i]), 0);
    for (int i = 0; i < 4; i++)
        got[i] = 0;
    for (uint64_t t = 11; t <= 60; t++) {
        if (jump)
            icnt_advance(n, t < 30 ? 30 : 60), t = t < 30 ? 30 : 60;
        else
            icnt_advance(n, t);
        void *pl;
        uint32_t src;
        if (t == 30) { /* the receiver of output 0 pops A */
            CHECK_EQ_INT(icnt_pop_at(n, 0, t, &(icnt_msg){0}), 1);
        }
        while (icnt_pop(n, 1, &pl, &src))
            got[*(int *)pl] = t;
        while (t > 30 && icnt_pop(n, 0, &pl, &src))
            got[*(int *)pl] = t;
    }
    icnt_stats st;
    icnt_get_stats(n, &st);
    *bypasses = st.bypasses;
    icnt_free(n);
}

static void test_bypass(void)
{
    uint64_t got[4], by;
    run_bypass(0, 0, got, &by);
    /* FIFO: C (-> 1) is stuck behind B until A is popped at 30 */
    CHECK(got[1] > 30 && got[3] > 30 && by == 0);
    CHECK(got[0] < got[1] && got[1] < got[2] && got[2] < got[3]);
    run_bypass(4, 0, got, &by);
    CHECK_MSG(got[1] && got[1] < 30 && got[3] && got[3] < 30, "C at %llu, E at %llu",
              (unsigned long long)got[1], (unsigned long long)got[3]);
    CHECK(got[0] > 30 && got[2] > got[0]); /* B then D: order per output kept */
    CHECK_EQ_U64(by, 2);
    uint64_t jumped[4], by2;
    run_bypass(4, 1, jumped, &by2);
    CHECK_EQ_U64(by2, by);
    for (int i = 0; i < 4; i++) /* delivered by the same time whether stepped or jumped */
        CHECK((got[i] <= 30) == (jumped[i] <= 30));
}

/* icnt_in_held_until: an input holds a tagged packet until its last flit has
 * crossed, whether it waits at the head, behind others, or mid-packet; with
 * a credit delay, until the source sees the departure, as it sees space. */
static void test_in_holds(void)
{
    icnt_config c = make_cfg(2, 2);
    icnt *n = icnt_create(&c, 1, 0);
    CHECK(n != NULL);
    int a = 0, b = 1;
    CHECK_EQ_INT(icnt_in_held_until(n, 0, 7, 1), 0);
    CHECK_EQ_INT(icnt_push_tag(n, 0, 0, 0, 3 * FLIT, &a, 7), 0); /* three flits */
    CHECK_EQ_INT(icnt_push_tag(n, 0, 0, 1, FLIT, &b, 9), 0);
    CHECK_EQ_INT(icnt_push(n, 0, 1, 0, FLIT, &b), 0); /* tag 0 */
    CHECK_EQ_U64(icnt_in_held_until(n, 0, 7, 1), UINT64_MAX); /* not sent whole */
    CHECK(icnt_in_held_until(n, 0, 9, 1) && !icnt_in_held_until(n, 0, 8, 1));
    CHECK(!icnt_in_held_until(n, 1, 7, 1) && icnt_in_held_until(n, 1, 0, 1) && !icnt_in_held_until(n, 5, 7, 1));
    icnt_advance(n, 2); /* two of the first packet's flits crossed */
    CHECK(icnt_in_held_until(n, 0, 7, 3));
    icnt_advance(n, 3); /* its last */
    CHECK(!icnt_in_held_until(n, 0, 7, 4) && icnt_in_held_until(n, 0, 9, 4));
    icnt_advance(n, 4);
    CHECK(!icnt_in_held_until(n, 0, 9, 5));
    icnt_free(n);

    /* credit delay 3: the first packet's last flit leaves at cycle 3, and
     * the source sees it gone from cycle 3 + 3 + 1 on, however far the
     * network has been advanced */
    c.credit_delay = 3;
    n = icnt_create(&c, 1, 0);
    CHECK(n != NULL);
    CHECK_EQ_INT(icnt_push_tag(n, 0, 0, 0, 3 * FLIT, &a, 7), 0);
    icnt_advance(n, 5);
    CHECK_EQ_U64(icnt_in_held_until(n, 0, 7, 6), 7);
    CHECK_EQ_U64(icnt_in_held_until(n, 0, 7, 7), 0);
    icnt_advance(n, 20);
    CHECK(!icnt_in_held_until(n, 0, 7, 21));
    icnt_free(n);
}

/* Ordered pairs (the store path's store buffer): with ordered_pairs 1,
 * input 1 is ordered behind input 0.  Output 0's ejection buffer is held
 * full by X until the receiver pops it at cycle 30.  A (input 0 -> output 0)
 * waits for that; S (input 1 -> output 1, pushed after A) waits for A,
 * though its own output is free, and crosses the cycle after A, counting an
 * order stall each cycle between.  Without the pair, S goes at once.  A
 * packet of input 0 never waits for input 1.  Jumping from event to event
 * gives the same cycles and counts as stepping. */
static void run_ordered(uint32_t pairs, int store_first, int jump, uint64_t *a_ready,
                        uint64_t *s_ready, icnt_stats *st)
{
    icnt_config c = make_cfg(2, 2);
    c.out_buffer_pkts = 1;
    c.ordered_pairs = pairs;
    icnt *n = icnt_create(&c, 1, 0);
    CHECK(n != NULL);
    int x = 0, a = 1, s = 2;
    CHECK_EQ_INT(icnt_push(n, 0, 0, 0, FLIT, &x), 0);
    CHECK_EQ_U64(ready_at(n, 0, 100), 1 + LAT); /* X waits unpopped */
    if (store_first) { /* S -> output 0 (full), then A -> output 1 */
        CHECK_EQ_INT(icnt_push(n, 10, 1, 0, FLIT, &s), 0);
        CHECK_EQ_INT(icnt_push(n, 10, 0, 1, FLIT, &a), 0);
    } else {
        CHECK_EQ_INT(icnt_push(n, 10, 0, 0, FLIT, &a), 0);
        CHECK_EQ_INT(icnt_push(n, 10, 1, 1, FLIT, &s), 0);
    }
    *a_ready = *s_ready = 0;
    for (uint64_t t = 11; t <= 80; t++) {
        if (jump) {
            uint64_t ev = icnt_next_event(n);
            uint64_t to = ev < 30 ? ev : t <= 30 ? 30 : ev;
            if (to > 80)
                break;
            t = to;
        }
        icnt_advance(n, t);
        if (t == 30)
            CHECK_EQ_INT(icnt_pop_at(n, 0, t, &(icnt_msg){0}), 1); /* X */
        for (uint32_t o = 0; o < 2; o++) {
            icnt_msg m;
            while ((o == 1 || t > 30) && icnt_pop_at(n, o, t + 1, &m)) {
                if (m.payload == &a)
                    *a_ready = m.ready_cycle;
                else if (m.payload == &s)
                    *s_ready = m.ready_cycle;
            }
        }
    }
    icnt_get_stats(n, st);
    icnt_free(n);
}

static void test_ordered_pairs(void)
{
    uint64_t ar, sr, ar2, sr2;
    icnt_stats st, st2;
    run_ordered(0, 0, 0, &ar, &sr, &st);
    CHECK_MSG(sr == 11 + LAT && ar > 30, "unordered: S ready at %llu, A at %llu",
              (unsigned long long)sr, (unsigned long long)ar);
    CHECK_EQ_U64(st.order_stalls, 0);
    run_ordered(1, 0, 0, &ar, &sr, &st);
    CHECK_MSG(ar > 30 && sr == ar + 1, "ordered: S ready at %llu, A at %llu",
              (unsigned long long)sr, (unsigned long long)ar);
    CHECK_EQ_U64(st.order_stalls, ar - LAT - 10); /* cycles 11 .. A's crossing */
    run_ordered(1, 0, 1, &ar2, &sr2, &st2);
    CHECK_EQ_U64(ar2, ar);
    CHECK_EQ_U64(sr2, sr);
    CHECK_EQ_U64(st2.order_stalls, st.order_stalls);
    CHECK_EQ_U64(st2.out_full_stalls, st.out_full_stalls);
    /* input 0 passes input 1: A goes while S waits for the full output */
    run_ordered(1, 1, 0, &ar, &sr, &st);
    CHECK_MSG(ar == 11 + LAT && sr > 30, "A ready at %llu, S at %llu", (unsigned long long)ar,
              (unsigned long long)sr);
    CHECK_EQ_U64(st.order_stalls, 0);
    /* a pair needs two inputs */
    icnt_config c = make_cfg(3, 1);
    c.ordered_pairs = 2;
    CHECK(icnt_create(&c, 1, 0) == NULL);
}

int main(void)
{
    RUN(test_ordered_pairs);
    RUN(test_in_holds);
    RUN(test_bypass);
    RUN(test_one_flit_timing);
    RUN(test_multi_flit_timing);
    RUN(test_contention_serializes);
    RUN(test_round_robin_alternates);
    RUN(test_distinct_outputs_independent);
    RUN(test_input_queue_full);
    RUN(test_ejection_backpressure);
    RUN(test_random_order_and_determinism);
    RUN(test_seeded_arbitration);
    RUN(test_next_event_skips_idle);
    RUN(test_bad_config);
    RUN(test_windows_equal_cycles);
    RUN(test_credit_delay);
    return test_summary();
}
