/*
 * icnt.h -- one direction of the crossbar interconnect between the SMs and
 * the memory partitions: N input ports, M output ports.  The GPU model holds
 * two of these, one carrying requests (SM -> partition) and one carrying
 * replies (partition -> SM).  The timing engine in src/timing pushes packets
 * at the inputs, advances the network in time and pops what the outputs
 * deliver; payloads are opaque.
 *
 * Model.  A packet of `bytes` is cut into F = max(1, ceil(bytes / flit_bytes))
 * flits.  Each input has a FIFO bounded in flits; each cycle an input sends
 * at most one flit and an output accepts at most one flit; a packet holds its
 * output from its first flit to its last (no interleaving).  Outputs arbitrate
 * round-robin from a seeded initial pointer, or by a seeded random pick
 * (modeled hardware nondeterminism, DESIGN principle 2).  Each output has an
 * ejection buffer of out_buffer_pkts packets: while that many delivered
 * packets wait to be popped the output grants no new packet (back-pressure);
 * packets already in the latency pipeline still land behind them.  A
 * receiver that pops as packets arrive sees full throughput for any size.
 *
 * Timing convention.  A packet pushed at cycle t (icnt_push(now = t)) can
 * move its first flit at cycle t + 1 at the earliest: the push cycle itself
 * never moves a flit.  Uncontended, its F flits cross at t+1 .. t+F and it is
 * deliverable (icnt_pop returns it after icnt_advance(t + F + latency)) at
 *
 *     t + F + latency.
 *
 * Bypass (bypass = N > 0).  An input whose head packet waits for a busy
 * output may send instead the oldest of its next N packets whose output is
 * free and to which no older packet of the input is queued, as a router with
 * per-destination queues does: a request to a congested partition no longer
 * holds back the SM's requests to the others, so two requests of one SM to
 * different partitions can arrive in either order (docs/MEMORY-MODEL.md).
 *
 * Ordering.  Packets from one input to one output are delivered in push
 * order.  At most one packet completes per output per cycle, so deliveries at
 * an output are in the canonical order (delivery cycle, source, per-source
 * sequence number) and the whole network is a function of its call sequence
 * and seed (DESIGN principles 1 and 4).
 *
 * Windows.  A parallel engine runs every SM and partition through a window
 * of W cycles [T, T+W) on its own and only then advances the crossbar
 * through T+W-1.  That is exact when nothing a component sees in the window
 * depends on crossbar cycles >= T:
 *   - deliveries: icnt_pop_at(t) returns packets whose deliverable cycle is
 *     before t, which crossed at least `latency` cycles earlier, so W <=
 *     latency suffices;
 *   - input space: a flit sent at cycle e frees its slot for the source from
 *     e + credit_delay + 1 on (icnt_has_space_at), so credit_delay >= W - 1;
 *   - ejection space: pops carry their cycle; the arbiter at cycle c counts
 *     only pops made at cycles <= c, so the order in which the receivers
 *     and the crossbar are run does not matter.
 * With credit_delay 0 and calls made cycle by cycle, the network behaves as
 * one without windows.
 */
#ifndef LOCKSTEP_MEM_ICNT_H
#define LOCKSTEP_MEM_ICNT_H

#include <stdint.h>

typedef struct icnt_config {
    uint32_t nin, nout;       /* ports, >= 1 each */
    uint32_t flit_bytes;      /* e.g. 32 (-icnt_flit_size), >= 1 */
    uint32_t latency;         /* cycles from a packet's last flit crossing to delivery, >= 1 */
    uint32_t in_queue_flits;  /* input FIFO capacity in flits, >= 1 (a packet larger than this
                                 still fits alone when the queue is empty) */
    uint32_t out_buffer_pkts; /* ejection buffer per output, packets, >= 1: an output stops
                                 granting while this many wait to be popped */
    int random_arbitration;   /* 0: round-robin (seeded start), 1: seeded random pick */
    uint32_t credit_delay;    /* extra cycles before a source sees the space its sent flits
                                 freed (0: the next cycle); see "Windows" above */
    uint32_t bypass;          /* 0: each input is one FIFO; N: an input whose head waits for a
                                 busy output may send instead the oldest of its next N packets
                                 whose output is free and that no older queued packet of the
                                 input is bound for (per-destination order is kept) */
    int seeded_start;         /* 1: each output's round-robin pointer starts at a seeded
                                 input; 0: at input 0 */
    uint32_t ordered_pairs;   /* 0: inputs are independent; K (2K <= nin): input K + i is
                                 ordered behind input i, i < K: a packet of K + i starts to
                                 cross only once every packet pushed before it into input i
                                 has crossed (a store buffer draining behind its loads) */
} icnt_config;

typedef struct icnt icnt;

/* A network for config c whose arbiters draw from stream (seed, RNG_ICNT,
 * instance).  Output o's initial round-robin pointer is the o-th draw of
 * rng_below(nin) from that stream.  NULL on OOM or bad config (a zero port
 * count, flit size, latency or capacity). */
icnt *icnt_create(const icnt_config *c, uint64_t seed, uint32_t instance);
void icnt_free(icnt *n);

/* Flits a packet of `bytes` occupies: max(1, ceil(bytes / flit_bytes)). */
uint32_t icnt_packet_flits(const icnt *n, uint32_t bytes);
/* The cycle the network has been advanced to (0 after create). */
uint64_t icnt_now(const icnt *n);

/* Can input `src` take a packet of `bytes` at cycle t (> the advanced time)?
 * (A const query: refusals are counted by icnt_push only.)  icnt_has_space
 * asks for the cycle after the advanced time. */
int icnt_has_space_at(const icnt *n, uint32_t src, uint32_t bytes, uint64_t t);
int icnt_has_space(const icnt *n, uint32_t src, uint32_t bytes);
/* The first cycle >= t at which icnt_has_space_at(n, src, bytes, .) holds,
 * while no push to src and no advance changes the network (UINT64_MAX: not
 * before one of them does). */
uint64_t icnt_space_from(const icnt *n, uint32_t src, uint32_t bytes, uint64_t t);
/* Queue a packet at input src for output dst at cycle `now` (taken as the
 * advanced time if earlier); payload is opaque.  0, or -1 if there is no space
 * (counted in push_refused) or src/dst is out of range. */
int icnt_push(icnt *n, uint64_t now, uint32_t src, uint32_t dst, uint32_t bytes, void *payload);
/* icnt_push with a key the pusher can look for while the packet waits at
 * its input (icnt_in_held_until). */
int icnt_push_tag(icnt *n, uint64_t now, uint32_t src, uint32_t dst, uint32_t bytes, void *payload,
                  uint64_t tag);
/* Whether input src holds, as its source sees at cycle t (> the advanced
 * time), a packet pushed with this tag: one not yet sent whole, or one
 * whose last flit left at a cycle e with e + credit_delay >= t, the rule
 * icnt_has_space_at follows for the space it frees, so the answer does not
 * depend on how far the network was advanced within a window.  0: it does
 * not; otherwise the first cycle from which it no longer does while no
 * advance changes the network (UINT64_MAX: a packet not yet sent whole). */
uint64_t icnt_in_held_until(const icnt *n, uint32_t src, uint64_t tag, uint64_t t);
/* Simulate cycles up to and including `now` (non-decreasing; an earlier time
 * is a no-op).  Idle stretches are jumped, not looped over. */
void icnt_advance(icnt *n, uint64_t now);
/* Pop the next packet delivered at output dst by the time advanced to:
 * 1 with its payload and source (either pointer may be NULL), or 0. */
int icnt_pop(icnt *n, uint32_t dst, void **payload, uint32_t *src);
/* A delivered packet with its timing: icnt_pop_msg's answer.  At one output,
 * ready_cycle strictly increases from one packet to the next. */
typedef struct icnt_msg {
    void *payload;
    uint64_t push_cycle;  /* as stamped by icnt_push */
    uint64_t ready_cycle; /* cycle it became deliverable */
    uint64_t seq;         /* per-source sequence number (0, 1, ... per input) */
    uint32_t src, flits;
} icnt_msg;
/* Like icnt_pop, filling *m (which may be NULL). */
int icnt_pop_msg(icnt *n, uint32_t dst, icnt_msg *m);
/* Pop, at receiver cycle t, the next packet of output dst whose deliverable
 * cycle is before t (it may be later than the advanced time, see Windows);
 * its ejection slot is free for the arbiter from cycle t.  icnt_pop and
 * icnt_pop_msg pop at the cycle after the advanced time. */
int icnt_pop_at(icnt *n, uint32_t dst, uint64_t t, icnt_msg *m);
/* The first cycle at which icnt_pop_at can return output dst's next packet
 * (its deliverable cycle + 1), or UINT64_MAX if none has crossed. */
uint64_t icnt_next_delivery(const icnt *n, uint32_t dst);
/* Earliest cycle > the advanced time at which anything changes (a flit can
 * move or a packet becomes deliverable); UINT64_MAX if nothing will change
 * until the next push or pop. */
uint64_t icnt_next_event(const icnt *n);
/* Has output dst a packet ready to pop now? */
int icnt_ready(const icnt *n, uint32_t dst);
/* Nothing queued, in flight or waiting to be popped? */
int icnt_idle(const icnt *n);

typedef struct icnt_stats {
    uint64_t packets, flits;  /* delivered (became deliverable) */
    uint64_t push_refused;    /* icnt_push said no (input queue full) */
    uint64_t arb_stalls;      /* flit-cycles a head flit could not move because another input
                                 held or won its output */
    uint64_t out_full_stalls; /* flit-cycles blocked because the ejection buffer was full */
    uint64_t total_latency;   /* sum over delivered packets of (deliverable cycle - push cycle) */
    uint64_t bypasses;        /* packets an input sent ahead of its blocked head (bypass) */
    uint64_t order_stalls;    /* cycles an ordered input's head waited for its partner's older
                                 packets (ordered_pairs) */
} icnt_stats;
void icnt_get_stats(const icnt *n, icnt_stats *s);

#endif
