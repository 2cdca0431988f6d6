/*
 * icnt.c -- one direction of the SM <-> memory-partition crossbar (icnt.h):
 * input FIFOs, per-output arbitration, the fixed-latency pipeline and the
 * ejection buffers.  The timing engine (src/timing) pushes requests or
 * replies and pops deliveries; deliveries come out in the canonical order
 * (cycle, source, sequence) so a parallel engine that exchanges messages at
 * window boundaries stays bit-identical to a sequential one.
 *
 * DESIGN
 *
 * State.  Input i is a ring of packet records (capacity in_queue_flits, which
 * bounds the packet count because every queued packet has at least one
 * unsent flit), the number of flits still queued, how many flits of its
 * head packet have crossed, and (credit_delay > 0) the cycles at which its
 * last flits left, whose space the source does not see yet.  Output o is a
 * ring of out_buffer_pkts + latency records holding the packets that crossed
 * and are in the latency pipeline or ready to pop, its ejection occupancy
 * `occ` (packets that became deliverable, less the pops the crossbar has
 * seen), the cycles of pops not yet seen, the input holding it (mid packet,
 * or granted this cycle), and its round-robin pointer.  A
 * global FIFO records (deliverable cycle, output) of in-flight packets; the latency
 * is constant and cycles are simulated in order, so it is sorted by time.
 *
 * Ordered pairs.  With ordered_pairs K, input K + i is ordered behind input
 * i (the engine's store path: an SM's store input behind its load input).
 * Pushes to the two inputs of a pair take their order from one counter, and
 * a packet of input K + i requests its output only once no packet pushed
 * before it is left in input i; while it waits, its input counts order
 * stalls.  Packets of input i never wait for K + i, so loads may pass
 * stores but stores never pass loads.
 *
 * Ports belong to their endpoints.  icnt_push touches only its input's
 * state (and, for a pair, the pair's order counter, which belongs to the
 * same endpoint) and icnt_pop_at only its output's, so a parallel engine's
 * components may push and pop on different host threads within a window;
 * everything network-wide (the active list, the in-flight FIFO, the
 * statistics, whether the network is idle) is updated or computed by the
 * serial calls between windows (icnt_advance, icnt_next_event, icnt_idle,
 * icnt_get_stats).
 *
 * Active inputs.  Only inputs with queued packets are visited: icnt_advance
 * collects them, in index order, and drops those that empty, so a cycle
 * costs O(active inputs + granted outputs) and every pass visits inputs in
 * index order, which makes the arbitration, and the random draws it makes,
 * a function of the state only.
 *
 * A cycle c (icnt_cycle): (0) pops made at cycles <= c free their ejection
 * slots; (1) packets whose deliverable cycle is c become ready; (2) every
 * idle input whose head packet was pushed before c requests the head's
 * output, unless it waits for its partner input (order stall), the output
 * is held by another input (arb stall) or its ejection buffer is full
 * (out-full stall) -- with bypass, such an
 * input requests instead the output of the oldest of its next `bypass`
 * packets whose output is open and which no older packet of it is bound for
 * (the input remembers the packet's offset, `off`, until its last flit
 * crosses, and the packets it passed then move up one); (3) each requested output
 * grants one requester, round-robin from its pointer or by a seeded random
 * pick, the losers counting arb stalls; (4) every input
 * holding or granted an output sends one flit; a packet whose last flit
 * crossed goes to its output's ring with deliverable cycle c + latency.
 *
 * Ejection buffer.  An output grants a new packet only while fewer than
 * out_buffer_pkts delivered packets wait to be popped.  Packets already in
 * the pipeline still land (the pipeline stages hold them, at most one per
 * cycle of latency), so a receiver that pops as packets arrive sees full
 * throughput for any buffer size.  Bound on the ring: at a grant at cycle g,
 * ready <= B - 1 and at most L - 1 packets are in flight (completed in
 * (g - L, g)); the output is held until the granted packet completes, so
 * the ring never holds more than B + L - 1 packets.  Only icnt_pop frees
 * buffer space, so a full output stays full until a pop.
 *
 * Skipping time.  icnt_advance simulates only cycles at which something can
 * change (icnt_next_event: a flit can move, a packet becomes deliverable);
 * in the cycles between, nothing can move, and the only effect, inputs
 * blocked on a full ejection buffer, is added in bulk (icnt_account_gap), so
 * jumping and stepping give identical results and statistics.
 */
#include "mem/icnt.h"
#include "util/check.h"

#include <stdlib.h>

#include "util/rng.h"

#define ICNT_NONE UINT32_MAX

/* A packet, in an input ring or an output ring. */
typedef struct icnt_pkt {
    void *payload;
    uint64_t push; /* cycle it was pushed */
    uint64_t when; /* cycle it becomes deliverable (set when its last flit crosses) */
    uint64_t seq;  /* per-source sequence number */
    uint64_t tag;  /* the pusher's key (icnt_push_tag; 0 from icnt_push) */
    uint64_t ord;  /* push order within an ordered pair of inputs (ordered_pairs) */
    uint32_t src, dst, nflits;
} icnt_pkt;

typedef struct icnt_in {
    icnt_pkt *q;    /* ring of in_queue_flits records */
    uint64_t *cred; /* ring of credit_delay + 1 cycles: flits sent, space not yet seen */
    uint64_t *ctag; /* the tag of each of those flits' packet (icnt_in_held_until) */
    uint32_t chead, ccount;
    uint32_t head, count;
    uint32_t qflits; /* flits queued and not yet sent */
    uint32_t sent;   /* flits of the chosen packet already sent (> 0: it holds its output) */
    uint32_t off;    /* the chosen packet: offset from head (0 unless bypass picked another) */
    uint64_t seq;    /* next sequence number, = packets pushed */
    uint64_t ord;    /* the pair's next push order (the pair's first input keeps it) */
    uint64_t refused; /* pushes refused for lack of space */
} icnt_in;

typedef struct icnt_out {
    icnt_pkt *q; /* ring of ocap records: pipeline, then ready */
    uint32_t head, count;
    uint32_t occ;  /* ejection occupancy the arbiter sees */
    uint64_t *pops; /* ring of ocap cycles: pops the arbiter has not seen yet */
    uint32_t phead, pcount;
    uint32_t holder; /* input holding the output, or ICNT_NONE */
    uint32_t rr;     /* round-robin pointer: the input with first claim */
    uint32_t nreq, best, pick; /* arbitration scratch, valid within one cycle */
    uint64_t popped;           /* packets popped */
} icnt_out;

typedef struct icnt_flight {
    uint64_t when, push;
    uint32_t dst, nflits;
} icnt_flight;

struct icnt {
    icnt_config c;
    uint64_t now; /* cycles up to and including now are simulated */
    rng r;
    icnt_in *in;
    icnt_out *out;
    uint32_t ocap; /* output ring capacity: out_buffer_pkts + latency */
    icnt_pkt *inq, *outq; /* backing stores of the rings */
    uint64_t *credq, *popq; /* backing stores of the credit and pop rings */
    uint64_t *ctagq;        /* backing store of the credit rings' tags */
    uint32_t ccap;          /* credit ring capacity: credit_delay + 1 */
    uint32_t *act;        /* active inputs, sorted by index */
    uint32_t nact;
    uint32_t *req;     /* this cycle's requesting inputs, in index order */
    uint32_t *touched; /* this cycle's requested outputs */
    icnt_flight *fl;   /* in-flight packets, sorted by deliverable cycle */
    size_t fl_cap, fl_head, fl_count;
    icnt_stats st;
};

/* The packet `off` places behind input in's head. */
static icnt_pkt *icnt_in_pkt(const icnt *n, const icnt_in *in, uint32_t off)
{
    uint32_t i = in->head + off; /* head, off < in_queue_flits: no division */
    return &in->q[i >= n->c.in_queue_flits ? i - n->c.in_queue_flits : i];
}

/* Whether packet p of input i must wait for its partner input: i is the
 * second of an ordered pair and the first still holds a packet pushed
 * before p (ordered_pairs).  An input's ring keeps its packets in push
 * order (bypass removes one and closes the gap), so the partner's head is
 * its oldest, and when one packet of i waits, so do all behind it. */
static inline int icnt_waits_partner(const icnt *n, uint32_t i, const icnt_pkt *p)
{
    uint32_t k = n->c.ordered_pairs;
    if (i < k || i >= 2 * k)
        return 0;
    const icnt_in *first = &n->in[i - k];
    return first->count && first->q[first->head].ord < p->ord;
}

/* Bypass: may packet `off` of input in go before the older ones?  Only if
 * none of them is bound for its output. */
static inline int icnt_first_for_dst(const icnt *n, const icnt_in *in, uint32_t off)
{
    uint32_t dst = icnt_in_pkt(n, in, off)->dst;
    for (uint32_t j = 0; j < off; j++)
        if (icnt_in_pkt(n, in, j)->dst == dst)
            return 0;
    return 1;
}

/* Overflow-checked a * b * elem bytes; 0 on overflow. */
static size_t icnt_size(size_t a, size_t b, size_t elem)
{
    if (a && b > SIZE_MAX / a)
        return 0;
    if (elem && a * b > SIZE_MAX / elem)
        return 0;
    return a * b * elem;
}

/* Allocate and wire up the network; every array is calloc'd so a failure
 * midway leaves NULLs that icnt_free skips. */
icnt *icnt_create(const icnt_config *c, uint64_t seed, uint32_t instance)
{
    if (!c || !c->nin || !c->nout || !c->flit_bytes || !c->latency || !c->in_queue_flits ||
        !c->out_buffer_pkts || c->nin == ICNT_NONE || c->ordered_pairs > c->nin / 2)
        return NULL;
    icnt *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->c = *c;
    n->c.random_arbitration = c->random_arbitration != 0;
    size_t inq = icnt_size(c->nin, c->in_queue_flits, sizeof(icnt_pkt));
    if ((uint64_t)c->out_buffer_pkts + c->latency > UINT32_MAX)
        goto fail;
    n->ocap = c->out_buffer_pkts + c->latency;
    size_t outq = icnt_size(c->nout, n->ocap, sizeof(icnt_pkt));
    n->fl_cap = (size_t)c->nout * n->ocap;
    if (!inq || !outq || !icnt_size(n->fl_cap, 1, sizeof(icnt_flight)))
        goto fail;
    n->in = calloc(c->nin, sizeof *n->in);
    n->out = calloc(c->nout, sizeof *n->out);
    n->inq = malloc(inq);
    n->outq = malloc(outq);
    n->act = calloc(c->nin, sizeof *n->act);
    n->req = calloc(c->nin, sizeof *n->req);
    n->touched = calloc(c->nout, sizeof *n->touched);
    n->fl = calloc(n->fl_cap, sizeof *n->fl);
    if (c->credit_delay >= UINT32_MAX / 2)
        goto fail;
    n->ccap = c->credit_delay + 1;
    n->credq = calloc(icnt_size(c->nin, n->ccap, 1), sizeof *n->credq);
    n->ctagq = calloc(icnt_size(c->nin, n->ccap, 1), sizeof *n->ctagq);
    n->popq = calloc(icnt_size(c->nout, n->ocap, 1), sizeof *n->popq);
    if (!n->in || !n->out || !n->inq || !n->outq || !n->act || !n->req || !n->touched || !n->fl ||
        !n->credq || !n->ctagq || !n->popq)
        goto fail;
    rng_seed(&n->r, seed, RNG_ICNT, instance);
    for (uint32_t i = 0; i < c->nin; i++) {
        n->in[i].q = n->inq + (size_t)i * c->in_queue_flits;
        n->in[i].cred = n->credq + (size_t)i * n->ccap;
        n->in[i].ctag = n->ctagq + (size_t)i * n->ccap;
    }
    for (uint32_t o = 0; o < c->nout; o++) {
        n->out[o].q = n->outq + (size_t)o * n->ocap;
        n->out[o].pops = n->popq + (size_t)o * n->ocap;
        n->out[o].holder = ICNT_NONE;
        n->out[o].rr = c->seeded_start ? rng_below(&n->r, c->nin) : 0;
    }
    return n;
fail:
    icnt_free(n);
    return NULL;
}

/* Release the network (NULL is fine); payloads still inside are the caller's. */
void icnt_free(icnt *n)
{
    if (!n)
        return;
    free(n->in);
    free(n->out);
    free(n->inq);
    free(n->outq);
    free(n->act);
    free(n->req);
    free(n->touched);
    free(n->fl);
    free(n->credq);
    free(n->ctagq);
    free(n->popq);
    free(n);
}

uint32_t icnt_packet_flits(const icnt *n, uint32_t bytes)
{
    uint32_t f = bytes / n->c.flit_bytes + (bytes % n->c.flit_bytes != 0);
    return f ? f : 1;
}

uint64_t icnt_now(const icnt *n) { return n->now; }

/* Flits of input `in` that left at cycles the source does not see at cycle
 * t: a flit sent at cycle e frees its space for the source from cycle
 * e + credit_delay + 1 on. */
static uint32_t icnt_uncredited(const icnt *n, const icnt_in *in, uint64_t t)
{
    uint32_t u = 0;
    for (uint32_t k = in->ccount; k > 0; k--) {
        uint64_t e = in->cred[(in->chead + k - 1) % n->ccap];
        if (e + n->c.credit_delay + 1 <= t)
            break;
        u++;
    }
    return u;
}

/* A packet fits if the queue looks empty (even one larger than the queue) or
 * if its flits fit beside the queued ones and those whose space the source
 * has not seen freed yet. */
int icnt_has_space_at(const icnt *n, uint32_t src, uint32_t bytes, uint64_t t)
{
    if (src >= n->c.nin)
        return 0;
    const icnt_in *in = &n->in[src];
    uint32_t f = icnt_packet_flits(n, bytes);
    uint32_t u = in->ccount ? icnt_uncredited(n, in, t) : 0;
    return (in->count == 0 && u == 0) || (uint64_t)in->qflits + u + f <= n->c.in_queue_flits;
}

/* The ring holds send cycles in increasing order (an input sends at most
 * one flit a cycle, and cycles are simulated in order), and the source sees
 * them, oldest first, one by one: entry k (k-th oldest) from cred[k] +
 * credit_delay + 1 on, after which the k + 1 oldest are seen. */
uint64_t icnt_space_from(const icnt *n, uint32_t src, uint32_t bytes, uint64_t t)
{
    if (src >= n->c.nin)
        return UINT64_MAX;
    if (icnt_has_space_at(n, src, bytes, t))
        return t;
    const icnt_in *in = &n->in[src];
    uint32_t f = icnt_packet_flits(n, bytes);
    uint64_t best = UINT64_MAX;
    if ((uint64_t)in->qflits + f <= n->c.in_queue_flits && in->ccount) {
        /* fits once at most `room` entries are unseen */
        uint32_t room = n->c.in_queue_flits - in->qflits - f;
        if (room < in->ccount) {
            uint32_t k = in->ccount - room - 1; /* the newest entry that must be seen */
            uint64_t e = in->cred[(in->chead + k) % n->ccap] + n->c.credit_delay + 1;
            best = e > t ? e : t;
        }
    }
    if (in->count == 0 && in->ccount) {
        /* an empty queue takes any packet once nothing is unseen */
        uint64_t e = in->cred[(in->chead + in->ccount - 1) % n->ccap] + n->c.credit_delay + 1;
        if (e < best)
            best = e > t ? e : t;
    }
    LS_ASSERT(best > t && (best == UINT64_MAX || icnt_has_space_at(n, src, bytes, best)));
    LS_ASSERT(best == UINT64_MAX || !icnt_has_space_at(n, src, bytes, best - 1));
    return best;
}

int icnt_has_space(const icnt *n, uint32_t src, uint32_t bytes)
{
    return icnt_has_space_at(n, src, bytes, n->now + 1);
}

/* Append to src's ring and, if src was empty, insert it into the sorted
 * active list (O(active), only when an input wakes up). */
int icnt_push(icnt *n, uint64_t now, uint32_t src, uint32_t dst, uint32_t bytes, void *payload)
{
    return icnt_push_tag(n, now, src, dst, bytes, payload, 0);
}

int icnt_push_tag(icnt *n, uint64_t now, uint32_t src, uint32_t dst, uint32_t bytes, void *payload,
                  uint64_t tag)
{
    if (src >= n->c.nin || dst >= n->c.nout)
        return -1;
    if (!icnt_has_space_at(n, src, bytes, now > n->now ? now : n->now + 1)) {
        n->in[src].refused++;
        return -1;
    }
    icnt_in *in = &n->in[src];
    uint32_t cap = n->c.in_queue_flits;
    LS_ASSERT(in->count < cap && in->qflits < cap);
    icnt_pkt *p = &in->q[(in->head + in->count) % cap];
    p->payload = payload;
    p->push = now > n->now ? now : n->now;
    p->when = 0;
    p->seq = in->seq++;
    p->tag = tag;
    if (src < 2 * n->c.ordered_pairs)
        p->ord = n->in[src < n->c.ordered_pairs ? src : src - n->c.ordered_pairs].ord++;
    p->src = src;
    p->dst = dst;
    p->nflits = icnt_packet_flits(n, bytes);
    in->count++;
    in->qflits += p->nflits;
    return 0;
}

uint64_t icnt_in_held_until(const icnt *n, uint32_t src, uint64_t tag, uint64_t t)
{
    if (src >= n->c.nin)
        return 0;
    const icnt_in *in = &n->in[src];
    for (uint32_t k = 0; k < in->count; k++)
        if (icnt_in_pkt(n, in, k)->tag == tag)
            return UINT64_MAX;
    /* a packet whose last flit left at cycle e is gone for the source from
     * e + credit_delay + 1 on, as its space is (icnt_uncredited); the
     * newest such flit decides */
    for (uint32_t k = in->ccount; k > 0; k--) {
        uint32_t j = (in->chead + k - 1) % n->ccap;
        uint64_t gone = in->cred[j] + n->c.credit_delay + 1;
        if (gone <= t)
            break;
        if (in->ctag[j] == tag)
            return gone;
    }
    return 0;
}

/* Earliest cycle after n->now at which a flit can move or a packet becomes
 * deliverable.  An input mid-packet, or whose head's output is open, moves
 * (or loses to one that moves) as soon as its head is eligible; an input
 * blocked on a full ejection buffer waits for a pop, which is no event.
 * With bypass, the packets that may pass a blocked head count too; which of
 * them icnt_cycle may pick (the first for its output) does not matter to
 * the minimum: an older packet bound for the same output opens at the same
 * cycle and was pushed no later. */
uint64_t icnt_next_event(const icnt *n)
{
    const uint64_t soonest = n->now + 1; /* nothing can be earlier */
    uint64_t ev = n->fl_count ? n->fl[n->fl_head].when : UINT64_MAX;
    if (ev <= soonest)
        return soonest;
    /* every input: pushes since the last advance are not in the active list */
    for (uint32_t i = 0; i < n->c.nin; i++) {
        const icnt_in *in = &n->in[i];
        if (!in->count)
            continue;
        if (in->sent)
            return soonest; /* a holder moves */
        uint32_t look = in->count < n->c.bypass + 1 ? in->count : n->c.bypass + 1;
        const icnt_out *hout = &n->out[in->q[in->head].dst];
        if (hout->holder == ICNT_NONE && hout->occ < n->c.out_buffer_pkts)
            look = 1;
        for (uint32_t off = 0; off < look; off++) {
            const icnt_pkt *p = icnt_in_pkt(n, in, off);
            const icnt_out *out = &n->out[p->dst];
            /* it and those behind it wait for the partner input's older
             * packets, whose crossing is an event of that input */
            if (icnt_waits_partner(n, i, p))
                break;
            /* (An output with a holder has an input with in->sent > 0.) */
            uint64_t t = p->push + 1 > soonest ? p->push + 1 : soonest;
            if (out->holder == ICNT_NONE && out->occ >= n->c.out_buffer_pkts) {
                uint32_t j = out->occ - n->c.out_buffer_pkts; /* pops before one that opens it */
                if (j >= out->pcount)
                    continue; /* waits for a pop, which is no event */
                uint64_t f = out->pops[(out->phead + j) % n->ocap];
                if (f > t)
                    t = f;
            }
            if (t < ev) {
                if (t == soonest)
                    return soonest;
                ev = t;
            }
        }
    }
    return ev;
}

/* Charge the out-full stalls of cycles (a, b], in which nothing moves: every
 * idle input whose head is eligible and whose output's buffer is full. */
static void icnt_account_gap(icnt *n, uint64_t a, uint64_t b)
{
    for (uint32_t k = 0; k < n->nact; k++) {
        const icnt_in *in = &n->in[n->act[k]];
        const icnt_pkt *p = &in->q[in->head];
        const icnt_out *out = &n->out[p->dst];
        if (in->sent)
            continue;
        uint64_t first = p->push + 1 > a + 1 ? p->push + 1 : a + 1;
        if (first > b)
            continue;
        if (icnt_waits_partner(n, n->act[k], p))
            n->st.order_stalls += b - first + 1;
        else if (out->holder == ICNT_NONE && out->occ >= n->c.out_buffer_pkts)
            n->st.out_full_stalls += b - first + 1;
    }
}

/* Simulate cycle c (see DESIGN: deliver, request, grant, move). */
static void icnt_cycle(icnt *n, uint64_t c)
{
    const uint32_t nin = n->c.nin, obuf = n->c.out_buffer_pkts, iq = n->c.in_queue_flits;
    const uint32_t ocap = n->ocap;

    /* (0) Pops up to this cycle free their ejection slots. */
    for (uint32_t o = 0; o < n->c.nout; o++) {
        icnt_out *out = &n->out[o];
        while (out->pcount && out->pops[out->phead] <= c) {
            LS_ASSERT(out->occ > 0);
            out->occ--;
            out->phead = (out->phead + 1) % ocap;
            out->pcount--;
        }
    }

    /* (1) Packets whose pipeline delay has passed become ready. */
    while (n->fl_count && n->fl[n->fl_head].when <= c) {
        const icnt_flight *f = &n->fl[n->fl_head];
        n->out[f->dst].occ++;
        n->st.packets++;
        n->st.flits += f->nflits;
        n->st.total_latency += f->when - f->push;
        n->fl_head = (n->fl_head + 1) % n->fl_cap;
        n->fl_count--;
    }

    /* (2) Requests from idle inputs with an eligible head. */
    uint32_t nreq = 0, nt = 0;
    int draw = 0;
    for (uint32_t k = 0; k < n->nact; k++) {
        uint32_t i = n->act[k];
        icnt_in *in = &n->in[i];
        if (in->sent)
            continue;
        in->off = 0;
        const icnt_pkt *p = &in->q[in->head];
        if (p->push >= c)
            continue;
        if (icnt_waits_partner(n, i, p)) {
            n->st.order_stalls++;
            continue;
        }
        icnt_out *out = &n->out[p->dst];
        if (n->c.bypass && (out->holder != ICNT_NONE || out->occ >= obuf)) {
            /* the head waits: the oldest of the next packets whose output is free */
            uint32_t look = in->count < n->c.bypass + 1 ? in->count : n->c.bypass + 1;
            for (uint32_t off = 1; off < look; off++) {
                const icnt_pkt *q = icnt_in_pkt(n, in, off);
                if (q->push >= c || icnt_waits_partner(n, i, q))
                    break;
                const icnt_out *oq = &n->out[q->dst];
                /* the first open one is the first for its output too: an
                 * older packet for the same output would be open as well */
                if (oq->holder == ICNT_NONE && oq->occ < obuf) {
                    LS_ASSERT(icnt_first_for_dst(n, in, off));
                    in->off = off;
                    p = q;
                    out = &n->out[q->dst];
                    n->st.bypasses++;
                    break;
                }
            }
        }
        if (out->holder != ICNT_NONE) {
            n->st.arb_stalls++;
            continue;
        }
        if (out->occ >= obuf) {
            n->st.out_full_stalls++;
            continue;
        }
        if (out->nreq == 0) {
            n->touched[nt++] = p->dst;
            out->best = i;
        } else if ((i + nin - out->rr) % nin < (out->best + nin - out->rr) % nin) {
            out->best = i;
        }
        out->nreq++;
        n->req[nreq++] = i;
    }

    /* (3) Grants.  Random mode draws the rank of the winner among an output's
     * requesters (index order), one draw per contended output, in the order
     * the outputs were first requested, then finds it in one pass. */
    if (n->c.random_arbitration) {
        for (uint32_t t = 0; t < nt; t++) {
            icnt_out *out = &n->out[n->touched[t]];
            out->pick = out->nreq > 1 ? rng_below(&n->r, out->nreq) : 0;
            draw |= out->nreq > 1;
        }
        for (uint32_t k = 0; draw && k < nreq; k++) {
            uint32_t i = n->req[k];
            icnt_out *out = &n->out[icnt_in_pkt(n, &n->in[i], n->in[i].off)->dst];
            if (out->pick == 0)
                out->best = i;
            out->pick--; /* wraps past 0: never matches again */
        }
    }
    for (uint32_t t = 0; t < nt; t++) {
        icnt_out *out = &n->out[n->touched[t]];
        out->holder = out->best;
        out->rr = (out->best + 1) % nin;
        n->st.arb_stalls += out->nreq - 1;
        out->nreq = 0;
    }

    /* (4) Holders send a flit; finished packets enter the pipeline; emptied
     * inputs leave the active list (compacted in place, order kept). */
    uint32_t w = 0;
    for (uint32_t k = 0; k < n->nact; k++) {
        uint32_t i = n->act[k];
        icnt_in *in = &n->in[i];
        icnt_pkt *p = icnt_in_pkt(n, in, in->off);
        icnt_out *out = &n->out[p->dst];
        if (out->holder == i) {
            in->sent++;
            in->qflits--;
            if (n->c.credit_delay) {
                /* forget sends every future query already sees, then note this one */
                while (in->ccount && in->cred[in->chead] + n->c.credit_delay < c) {
                    in->chead = (in->chead + 1) % n->ccap;
                    in->ccount--;
                }
                in->ctag[(in->chead + in->ccount) % n->ccap] = p->tag;
                in->cred[(in->chead + in->ccount++) % n->ccap] = c;
            }
            LS_ASSERT(in->sent <= p->nflits);
            if (in->sent == p->nflits) {
                LS_ASSERT(out->count < ocap && n->fl_count < n->fl_cap);
                icnt_pkt *d = &out->q[(out->head + out->count) % ocap];
                *d = *p;
                d->when = c + n->c.latency;
                out->count++;
                out->holder = ICNT_NONE;
                icnt_flight *f = &n->fl[(n->fl_head + n->fl_count) % n->fl_cap];
                f->when = d->when;
                f->push = d->push;
                f->dst = p->dst;
                f->nflits = d->nflits;
                n->fl_count++;
                /* remove it: the older packets it bypassed move up one */
                for (uint32_t j = in->off; j > 0; j--)
                    *icnt_in_pkt(n, in, j) = *icnt_in_pkt(n, in, j - 1);
                in->head = (in->head + 1) % iq;
                in->count--;
                in->sent = 0;
                in->off = 0;
            }
        }
        if (in->count)
            n->act[w++] = i;
    }
    n->nact = w;
}

/* Jump from event to event up to `now`, charging the quiet cycles between. */
void icnt_advance(icnt *n, uint64_t now)
{
    /* collect the inputs with queued packets (pushes add none to the list) */
    n->nact = 0;
    for (uint32_t i = 0; i < n->c.nin; i++)
        if (n->in[i].count)
            n->act[n->nact++] = i;
    while (n->now < now) {
        uint64_t ev = icnt_next_event(n);
        uint64_t stop = ev <= now ? ev - 1 : now;
        if (stop > n->now) {
            icnt_account_gap(n, n->now, stop);
            n->now = stop;
        }
        if (ev > now)
            break;
        icnt_cycle(n, ev);
        n->now = ev;
    }
}

/* Take the oldest packet of output dst deliverable before cycle t; its
 * ejection slot is free for the arbiter from cycle t on. */
int icnt_pop_at(icnt *n, uint32_t dst, uint64_t t, icnt_msg *m)
{
    if (dst >= n->c.nout)
        return 0;
    icnt_out *out = &n->out[dst];
    if (!out->count || out->q[out->head].when >= t)
        return 0;
    const icnt_pkt *p = &out->q[out->head];
    if (m) {
        m->payload = p->payload;
        m->push_cycle = p->push;
        m->ready_cycle = p->when;
        m->seq = p->seq;
        m->src = p->src;
        m->flits = p->nflits;
    }
    LS_ASSERT(out->count > 0);
    out->head = (out->head + 1) % n->ocap;
    out->count--;
    if (t <= n->now || out->pcount == n->ocap) {
        out->occ--; /* the arbiter has passed t already */
    } else {
        out->pops[(out->phead + out->pcount++) % n->ocap] = t;
    }
    out->popped++;
    return 1;
}

int icnt_pop_msg(icnt *n, uint32_t dst, icnt_msg *m) { return icnt_pop_at(n, dst, n->now + 1, m); }

int icnt_pop(icnt *n, uint32_t dst, void **payload, uint32_t *src)
{
    icnt_msg m;
    if (!icnt_pop_msg(n, dst, &m))
        return 0;
    if (payload)
        *payload = m.payload;
    if (src)
        *src = m.src;
    return 1;
}

int icnt_ready(const icnt *n, uint32_t dst)
{
    return icnt_next_delivery(n, dst) <= n->now + 1;
}

uint64_t icnt_next_delivery(const icnt *n, uint32_t dst)
{
    if (dst >= n->c.nout || !n->out[dst].count)
        return UINT64_MAX;
    return n->out[dst].q[n->out[dst].head].when + 1;
}

int icnt_idle(const icnt *n)
{
    uint64_t pushed = 0, popped = 0;
    for (uint32_t i = 0; i < n->c.nin; i++)
        pushed += n->in[i].seq;
    for (uint32_t o = 0; o < n->c.nout; o++)
        popped += n->out[o].popped;
    return pushed == popped;
}

void icnt_get_stats(const icnt *n, icnt_stats *s)
{
    *s = n->st;
    for (uint32_t i = 0; i < n->c.nin; i++)
        s->push_refused += n->in[i].refused;
}
