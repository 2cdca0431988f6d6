/*
 * timing_int.h -- the timing model's internal structures, shared by its
 * three files:
 *
 *   engine.c     the GPU: configuration, the cycle loop with idle skipping,
 *                CTA dispatch with occupancy limits, statistics
 *   sm.c         an SM: warp schedulers, scoreboard, functional units, the
 *                LD/ST unit (coalescer, L1D with MSHRs, shared-memory banks,
 *                constant cache) and what it does with replies
 *   partition.c  a memory partition: ROP delay, L2 slice with MSHRs, the
 *                atomic unit, the DRAM channel, the reply queue
 *
 * SMs and partitions talk only through the two crossbar directions
 * (src/mem/icnt.c): tm_req messages go SM -> partition and come back as
 * replies.  Every time is a core-clock cycle except inside the DRAM model.
 *
 * Per-component state.  Each SM and each partition owns everything it
 * changes during a window: its clock, its counters (a lockstep_timing_stats
 * of its own, summed at the end of a launch), its request pool, its
 * crossbar ports, its progress mark, and its view of the launch (an
 * exec_launch copy with its own instruction counters, fault, memory answer
 * and clock).  What it reads of the rest (configuration, latencies, the
 * program, the launch's parameters, device memory's allocation table) does
 * not change during a window.  So the components of a window can run on
 * any number of host threads and give the same result (docs/ARCHITECTURE.md,
 * "The threaded engine").  What touches the whole GPU -- CTA dispatch and
 * retirement, built-in calls (printf, malloc), faults, limits, the
 * crossbars' advance, the trace -- happens in the serial step between
 * windows, in a fixed order.
 */
#ifndef LOCKSTEP_TIMING_INT_H
#define LOCKSTEP_TIMING_INT_H

#include "mem/cache.h"
#include "mem/dram.h"
#include "mem/icnt.h"
#include "timing/timing.h"
#include "util/rng.h"

#define TM_LINE 128u           /* coalescing and L1/L2 line bytes */
#define TM_SECTOR 32u
#define TM_NEVER UINT64_MAX
#define TM_MAX_SCHED 4

enum tm_unit { TU_SP, TU_SFU, TU_DP, TU_INT, TU_LDST, TU_NONE, TU_TENSOR, TU_COUNT };
enum tm_req_type { REQ_RD, REQ_WR, REQ_ATOM };
enum {
    REQF_VALUES = 1,   /* carries values (global memory); else timing only */
    REQF_CONST = 2,    /* fills the constant cache on return */
    REQF_TEX = 4,      /* fills the texture cache on return */
    REQF_DMR_PRIV = 8, /* DMR: a reply for a line with unconfirmed writes: no L1 fill */
    REQF_DMR_COMMIT = 16, /* DMR: a confirmed pair's write-back to the L2 (no reply) */
    REQF_PAST = 32,    /* a store's or atomic's request counted in its warp's st_past */
};

/* Per-pc facts the scheduler needs, computed once per launch. */
typedef struct tm_insn {
    uint8_t unit;       /* tm_unit */
    uint8_t complex;    /* 1: must wait until the warp has no memory load pending;
                           2: no memory operation at all (a built-in call) */
    uint8_t nsr, ndr, nsp, ndp;
    uint16_t lat, ii;
    uint16_t sr[20], dr[8]; /* source / destination register rows (window-relative) */
    uint16_t sp[4], dp[2];  /* source / destination predicates */
} tm_insn;

struct tm_warp;

/* A memory instruction of a warp in flight. */
typedef struct tm_mop {
    struct tm_mop *next_free;
    struct tm_warp *tw;
    const ir_insn *in;
    uint32_t reg_base;
    uint32_t pending;      /* line requests not yet completed */
    uint64_t done_at;      /* when the last completed part's value is available */
    int is_store;          /* store / atomic: counted for fences */
    int values;            /* global data travels with the requests */
    int acquire;           /* an acquire load or atomic: later accesses of the warp wait for
                            * it; at gpu/sys scope it invalidates the L1 when done */
    int replayed;          /* has passes in the SM's replay queue (tm_warp.replays) */
    int acp;               /* a cp.async copy: b[] its lanes' shared destinations, cv[]
                              the bytes each reads; of group acp_group */
    uint32_t acp_group, acp_seq;
    /* DMR load-value replication (-dmr_load_values, dmr.c): the global
     * lanes' values as they arrive; copy 0's becomes the queue's entry,
     * copy 1's is what it falls back to when the pair fails */
    struct tm_lvq *lv;
    exec_addr ad;
    /* atomic operands captured at issue; immutable afterwards, so the
     * partition may read them through the request (a message by reference) */
    uint64_t b[WARP_SIZE], cv[WARP_SIZE];
} tm_mop;

/* DMR load-value replication (-dmr_load_values, dmr.c): one global load of
 * a warp of a pair's copy 0, keyed (pair, warp, the warp's load count),
 * with its global lanes' addresses and the bytes each lane read.  Built on
 * copy 0's SM while the load's replies arrive, it joins the launch's load
 * value queue in the serial step (g->lvq); copy 1's same load takes its
 * values from it.  The largest per-lane access is 32 bytes (v4.b64). */
#define TM_LVQ_BYTES 32
typedef struct tm_lvq {
    struct tm_lvq *next;     /* the queue's bucket chain */
    struct tm_lvq *pnext, *pprev; /* its pair's entries (tm_dmrpair.lvq) */
    struct tm_lvq *onext;    /* an SM's outbox or used list */
    const ir_insn *in;
    uint64_t ready;          /* when copy 1 may have the values (copy 0's + a crossbar trip) */
    uint32_t pair, seq, lanes;
    uint16_t warp;
    uint8_t copy, used;      /* used: copy 1 took it (freed at the serial step) */
    uint64_t a[WARP_SIZE];
    uint8_t v[WARP_SIZE][TM_LVQ_BYTES];
} tm_lvq;

/* A later pass of a load the LD/ST unit replays (-lockstep_ldst_replay):
 * at cycle `at`, a global line request enters the LD/ST queue (r), or
 * shared-memory lanes read their words (r NULL).  Until then the unit takes
 * other instructions, the warp's next loads among them. */
typedef struct tm_replay {
    uint64_t at;
    struct tm_mop *m;
    struct tm_req *r;
    uint32_t lanes, pc;
    uint8_t cached;
} tm_replay;

/* A coalesced line request: SM -> partition, and back as its reply. */
typedef struct tm_req {
    struct tm_req *next;
    tm_mop *mop;
    uint64_t line;         /* line address: where the data is read and written */
    uint64_t pline;        /* its modelled physical address: what the caches, the
                              partition map and DRAM go by (devmem_phys) */
    uint64_t t;            /* when it may move on (ROP exit, reply ready) */
    uint32_t sm, part;
    uint8_t type, flags;
    uint32_t lanes;        /* lanes of mop it serves */
    uint32_t sectors;
    int32_t mshr;          /* SM L1 MSHR, -1 none */
    uint64_t bmask[2];     /* store: bytes to write */
    /* DMR (dmr.c): the request's pair (0: none), copy, warp index in the
     * CTA and the warp's global-write sequence number (the comparator's
     * key); go: an agreed atomic released by the serial step; twin: the
     * first copy's request, answered with the same old values */
    uint32_t dmr_pair, dmr_seq;
    uint32_t dmr_first;    /* the sequence number of its instruction's first request */
    uint16_t dmr_warp;
    uint8_t dmr_copy, dmr_go;
    struct tm_req *twin;
    struct tm_dmrent *dmr_ent; /* a commit write: the entry it commits */
    uint8_t data[WARP_SIZE * 8]; /* load: line bytes read at the partition; store: bytes to
                                    write; atomic reply: old value per lane (uint64) */
} tm_req;

typedef struct tm_reqq {
    tm_req *head, *tail;
    uint32_t n;
} tm_reqq;

static inline void reqq_push(tm_reqq *q, tm_req *r)
{
    r->next = NULL;
    if (q->tail)
        q->tail->next = r;
    else
        q->head = r;
    q->tail = r;
    q->n++;
}

static inline tm_req *reqq_pop(tm_reqq *q)
{
    tm_req *r = q->head;
    if (r) {
        q->head = r->next;
        if (!q->head)
            q->tail = NULL;
        q->n--;
    }
    return r;
}

typedef struct tm_cta tm_cta;

/* GPUDet (gpudet.c): a store-buffer entry, a 128-byte chunk of global
 * memory with the bytes written to it, and a warp's quantum state. */
typedef struct tm_detentry {
    uint64_t chunk;
    uint64_t mask[2];
    uint8_t data[128];
} tm_detentry;

enum { DET_END_COUNT = 1, DET_END_ATOMIC, DET_END_FENCE, DET_END_BARRIER, DET_END_CALL };
enum { DET_PARALLEL, DET_SERIAL };

typedef struct tm_detwarp {
    uint32_t q_insts;       /* instructions issued in this quantum's parallel mode */
    uint8_t end;            /* why it ended its parallel mode (DET_END_*), 0: running */
    uint8_t serial;         /* its next instruction runs in serial mode */
    uint8_t serial_issued;  /* and it has issued */
    uint32_t searched_pc;   /* pc + 1 of a load whose log searches found nothing (0: none) */
    tm_detentry *log;       /* the store buffer: a linear write log */
    uint32_t n, cap;
    uint64_t bloom[16];     /* up to 1024 bits: 4 sub-arrays */
} tm_detwarp;

/* DAB (dab.c): an atomic buffer's entry, a buffer, a warp's state, and a
 * scheduler's fixed order and turn. */
typedef struct tm_dabentry {
    uint64_t addr;
    const ir_insn *in;      /* the atomic: operation and type */
    uint64_t b, c;          /* its operands (fused: the combined operand) */
} tm_dabentry;

typedef struct tm_dabbuf {
    tm_dabentry *e;         /* -num_buffer_entries of them */
    uint32_t n;
    uint32_t tier;          /* the CTA generation of its entries */
} tm_dabbuf;

enum { DAB_SRR, DAB_GTRR, DAB_GTAR, DAB_GWAT };

typedef struct tm_dabwarp {
    uint8_t wait;           /* it waits for the next flush (dab.c's DW_*) */
    uint8_t stopped;        /* gtrr, gtar: it has reached an atomic (gtar: 2, in the round on) */
    uint8_t serial_issued;  /* its serial-phase atomic has issued */
    uint32_t gated;         /* pc + 1 of the instruction waiting for its turn (0: none) */
    uint32_t wait_pc;       /* pc + 1 of the instruction waiting for the flush */
    uint32_t pass_pc;       /* pc + 1 of an instruction the flush has let through */
    uint32_t sched, order;  /* its scheduler and place in the scheduler's order */
    uint32_t slotwarp;      /* slot * warps + warp: its warp-level buffer */
} tm_dabwarp;

typedef struct tm_dabsched {
    struct tm_warp **w;     /* the scheduler's warps in slot and warp order */
    uint32_t nw;
    uint32_t token;         /* the turn starts looking here (an index in w) */
    uint8_t srr;            /* gtrr: switched to strict round robin */
    uint8_t round;          /* gtar: a round of atomics is on */
} tm_dabsched;

/* A warp scheduler's ready queue: its warps, by place k in its list (bit
 * k), filed by ready_at as it stands at `base` (the cycle of the
 * scheduler's last scan), so that a scan looks only at the warps that may
 * issue and finds the others' earliest ready_at and highest stall reason
 * without visiting them.  A warp with ready_at <= base is in `ready`, one
 * in (base, base + TM_RQ_SPAN] in bucket[ready_at % TM_RQ_SPAN], a later
 * one in `far`, one at TM_NEVER in none; every warp is in why[its
 * ready_why].  tm_warp_wait keeps it as ready_at and ready_why change;
 * sm_cycle moves `base` forward (the buckets it passes join `ready`). */
#define TM_RQ_SPAN 64
typedef struct tm_rq {
    uint64_t base;
    uint64_t ready;
    uint64_t far;
    uint64_t far_min;      /* <= the ready_at of every warp in far */
    uint64_t nb;           /* bit b: bucket[b] is not empty */
    uint64_t bucket[TM_RQ_SPAN];
    uint64_t why[LOCKSTEP_STALL_COUNT];
} tm_rq;

static inline void tm_rq_add(tm_rq *q, uint64_t bit, uint64_t at)
{
    if (at == TM_NEVER)
        return;
    if (at <= q->base) {
        q->ready |= bit;
    } else if (at - q->base <= TM_RQ_SPAN) {
        q->bucket[at % TM_RQ_SPAN] |= bit;
        q->nb |= 1ull << (at % TM_RQ_SPAN);
    } else {
        q->far |= bit;
        if (at < q->far_min)
            q->far_min = at;
    }
}

static inline void tm_rq_del(tm_rq *q, uint64_t bit, uint64_t at)
{
    if (at == TM_NEVER)
        return;
    if (at <= q->base) {
        q->ready &= ~bit;
    } else if (at - q->base <= TM_RQ_SPAN) {
        if (!(q->bucket[at % TM_RQ_SPAN] &= ~bit))
            q->nb &= ~(1ull << (at % TM_RQ_SPAN));
    } else {
        q->far &= ~bit;
    }
}

#define TM_ACP_SLOTS 16
#define TM_ACP_ARRIVES 4

typedef struct tm_warp {
    exec_warp *w;
    tm_cta *tc;
    uint64_t *rready;      /* per absolute register row: cycle its value is ready */
    uint32_t rcap;
    uint64_t *pready;      /* per predicate */
    uint32_t pcap;
    uint32_t loads_out;    /* mops with destinations in flight */
    uint32_t stores_out;   /* store / atomic mops in flight */
    uint32_t st_parts;     /* parts of those not yet done */
    uint32_t st_past;      /* of those parts, line requests past the LD/ST unit, waiting only
                              for the L2 (counted with -lockstep_cta_fence_local) */
    uint32_t replays;      /* its loads with replayed passes not yet done: its atomics,
                              barriers and fences wait (-lockstep_ldst_replay) */
    uint32_t rp_queued;    /* its replayed passes not yet back in the LD/ST unit: its
                              plain stores wait only for these (replay_release) */
    /* set only with tm_warp_wait, which keeps the scheduler's ready queue */
    uint64_t ready_at;     /* no issue before this cycle (a hint; TM_NEVER: woken by an event) */
    uint8_t ready_why;     /* the stall reason until ready_at (lockstep_stall) */
    uint64_t sleep_until;  /* nanosleep: no issue before this cycle, whatever wakes it */
    uint8_t rq_s, rq_k;    /* its scheduler and place in its list (tm_rq) */
    uint64_t age;          /* dispatch order (GTO: oldest first) */
    int acq_pending;       /* an acquire load is in flight: later memory operations wait */
    /* instruction buffer: ib_n decoded instructions from ib_pc on, usable
     * from cycle ib_ready (fetch.c's model in sm.c) */
    uint32_t ib_pc, ib_n;
    uint64_t ib_ready;
    /* the next pc exec_warp_next_pc gave while the warp ran (IR_NO_PC:
     * ask again); only the warp's own execution (issue, sm_syscall) moves
     * it, and those forget it */
    uint32_t npc;
    uint64_t sys_at;       /* the cycle it issued the built-in call it waits for */
    /* the pc (npc) at which the busy LD/ST unit was the only obstacle: every
     * other check passed, and none of them can fail again before the warp
     * issues (can_issue's fast path); IR_NO_PC: none */
    uint32_t ldst_pc;
    tm_detwarp det;        /* GPUDet's per-warp state (-lockstep_det gpudet) */
    tm_dabwarp dab;        /* DAB's (-lockstep_det dab) */
    uint32_t dmr_seq;      /* DMR: global write requests issued (the comparator's key) */
    uint32_t dmr_wr_out;   /* DMR: of those, not answered yet */
    /* DMR: by sequence number, when each was answered (TM_NEVER: not
     * yet); dmr_lo: the first not answered; below it an entry holds the
     * latest answer of all up to it (dmr_answered_before) */
    uint64_t *dmr_acks;
    size_t dmr_acks_cap;
    uint32_t dmr_lo;
    uint32_t dmr_ldseq;    /* DMR load-value replication: global loads issued (its key) */
    uint32_t dmr_gen;      /* DMR: changes to dmr_seq, dmr_acks (a write issued or answered) */
    /* cp.async copies in flight by group (exec_warp.acp_commits at issue):
     * slot g % TM_ACP_SLOTS counts group acp_g[slot]'s; a copy whose slot
     * holds an older group waits for it (can_issue) */
    uint32_t acp_n[TM_ACP_SLOTS], acp_g[TM_ACP_SLOTS];
    /* cp.async.mbarrier.arrive waiting for the copies in flight at its
     * issue: `left` of them (those numbered below seq) not done yet; in
     * issue order.  acp_seq numbers the warp's copies, acp_live counts
     * those in flight. */
    struct tm_acparrive {
        const ir_insn *in;
        uint32_t lanes, seq, left;
        exec_addr ad;
    } acp_arr[TM_ACP_ARRIVES];
    uint32_t acp_narr, acp_seq, acp_live;
} tm_warp;

struct tm_cta {
    exec_cta *c;
    tm_warp *warps;
    int active;
    uint64_t age;
    /* the last cycle one of its warps ended or a memory operation of an
     * ended warp completed: when the CTA finished, once it retires (the
     * next CTA of the slot starts from it, not from where a window ends) */
    uint64_t done_at;
    int finished;          /* every warp ended and nothing of theirs in flight (not yet retired) */
    uint32_t dmr_pair;     /* DMR: its pair (g->dmr_pairs), 0: none */
    uint8_t dmr_copy;      /* DMR: copy 0 or 1 */
    uint32_t flip_stores;  /* -dmr_flip_store: global store requests counted */
    uint32_t flip_writes;  /* -dmr_flip_line: global write requests counted */
    uint32_t flip_loads;   /* -dmr_flip_load: global loads counted */
};

/* DMR (dmr.c): a comparator entry at a partition, one global write request
 * (a store line or an atomic line) of a CTA pair, keyed by (pair, warp,
 * seq).  Full/empty: HELD0 / HELD1 hold the first copy's request, AGREED
 * the second matched it (a store), ATOM_AGREED an atomic whose two copies
 * agree and wait for the serial step to release it, BAD a mismatch,
 * COMMITTING an agreed store whose commit write is on its way to the L2
 * (the copies' loads still see it until the write lands). */
enum { DMR_HELD0, DMR_HELD1, DMR_AGREED, DMR_ATOM_AGREED, DMR_BAD, DMR_COMMITTING };
typedef struct tm_dmrent {
    struct tm_dmrent *next; /* its bucket's chain, newest first */
    struct tm_dmrent *pnext, *pprev; /* its pair's entries in the partition, in arrival order */
    struct tm_dmrent *hnext, *hprev; /* the partition's held atomics (held: on that list) */
    struct tm_dmrent *lnext, *lprev; /* its (pair, line) bucket's chain, newest first */
    uint8_t held;
    uint64_t ord;           /* arrival order in the partition */
    uint64_t line, pline, since;
    uint64_t matched;       /* when the second copy's request agreed */
    uint32_t pair, seq;
    uint32_t first;         /* its instruction's first request's seq (an atomic's lines) */
    uint16_t warp;
    uint8_t state, type;    /* DMR_*, REQ_WR or REQ_ATOM */
    uint32_t sectors;
    uint64_t bmask[2];
    uint8_t data[TM_LINE];
    struct tm_req *req;     /* an atomic: the first copy's request, waiting */
    struct tm_req *req2;    /* ATOM_AGREED: the second copy's */
    /* ATOM_AGREED and waiting: what the serial step saw when it last
     * decided to wait (dmr_step); unchanged, the answer is the same */
    uint64_t chk_sum;
    uint32_t chk_g[2];
    uint8_t chk_fl, chk_ok;
} tm_dmrent;

/* DMR: a CTA pair, one run of a logical CTA on two slots. */
typedef struct tm_dmrpair {
    uint64_t cta;           /* the logical CTA (linear id) */
    uint32_t reissues;      /* runs before this one */
    uint8_t failed;         /* a mismatch was found (the serial step's decision) */
    uint8_t committed;      /* it has written memory (an atomic released): no reissue */
    uint8_t done[2];        /* copy finished and retired */
    /* a copy's own kernel fault (dmr_copy_fault): its status and pc; a
     * copy that faulted was stopped, and the pair fails when both are done
     * unless both faulted alike (then the fault is the program's) */
    lockstep_status fault[2];
    uint32_t fault_pc[2];
    uint64_t done_at;       /* the later copy's finish (its done_at) */
    uint64_t start;         /* the cycle both copies started */
    uint32_t s[2], k[2];    /* its slots: SM, slot */
    tm_lvq *lvq;            /* its entries in the load value queue */
    exec_echo *echo;        /* the built-in calls its copies share (exec.h) */
} tm_dmrpair;

/* One queued line access of the LD/ST unit. */
typedef struct tm_lacc {
    tm_req *req;           /* prepared at issue */
    uint8_t cached;        /* a load that may hit in / fill the L1 */
    uint8_t counted;       /* its L1 access is already in the statistics (a retry) */
} tm_lacc;

typedef struct tm_mshr {
    uint64_t line;
    uint32_t sectors;
    int used, stale, l1line;
    uint32_t nw;
    tm_mop **wmop;
    uint32_t *wlanes;
} tm_mshr;

/* A texture-cache line being fetched (the texture cache's MSHR): later
 * fetches that miss on it wait for its reply instead of sending their own. */
typedef struct tm_texmiss {
    uint64_t line;         /* the probed line address */
    struct tm_req *req;    /* the read in flight; NULL: the entry is free */
    uint32_t nw;
    tm_mop **wmop;         /* the fetches merged into it (up to the MSHR's merge) */
} tm_texmiss;

typedef struct tm_sm {
    uint32_t id;
    struct timing_gpu *g;     /* read-only during a window */
    exec_launch L;            /* this SM's view of the launch (see the top) */
    uint64_t now;             /* its clock: the cycle it is at */
    lockstep_timing_stats st; /* its counters for this launch */
    uint64_t progress_at;     /* last cycle anything issued or moved here */
    tm_req *free_reqs;        /* its request pool */
    tm_req **reqs;            /* every request it ever allocated */
    uint32_t nreqs, reqs_cap;
    int retire_hint;          /* a warp stopped running or finished its memory operations:
                                 a CTA may be done (the serial step looks only then) */
    struct tm_warp **sys;     /* warps waiting for a built-in call (serial step) */
    uint32_t nsys, sys_cap;
    tm_cta *ctas;
    uint32_t nresident;
    uint32_t nfinished;       /* of those, CTAs that finished and wait for the serial step to
                                 retire them: they do nothing, wherever the window ends */
    tm_warp **sched[TM_MAX_SCHED];
    uint32_t nsw;          /* warps per scheduler list */
    /* the schedulers' ready queues (sm_cycle): used when rq_on (no
     * two-level policy, no determinism mode, at most 64 warps a list);
     * rq_live: built and kept (a dispatch's reordering or a new launch
     * clears it, the next scan rebuilds them) */
    uint8_t rq_on, rq_live;
    tm_rq rq[TM_MAX_SCHED];
    uint32_t rr[TM_MAX_SCHED];
    tm_warp *last[TM_MAX_SCHED];
    uint8_t last_reason[TM_MAX_SCHED];
    uint64_t *unit_free[TU_COUNT];
    cache *l1, *cc, *tc; /* L1 data, constant and texture caches */
    tm_mshr *mshr;
    uint32_t nmshr;
    uint64_t *mshr_used;   /* bit i: mshr[i].used (searches visit only these) */
    tm_texmiss *texmiss;   /* the texture cache's MSHR entries */
    uint32_t ntexmiss, texmiss_used, texmiss_merge;
    tm_lacc *lq;           /* LD/ST line accesses: ring */
    uint32_t lq_head, lq_n, lq_cap;
    uint64_t lq_blocked;   /* the cycle the head access found no MSHR or L1 way free
                              (TM_NEVER: not blocked); it waits for a fill */
    uint64_t ldst_busy_until;
    tm_replay *rp;         /* replayed load passes, by time (-lockstep_ldst_replay) */
    uint32_t rp_n;
    size_t rp_cap;
    uint64_t rp_at;        /* the first one's time (TM_NEVER: none) */
    tm_reqq out;           /* waiting to enter the crossbar */
    uint64_t out_wait;     /* its head fits in the crossbar's input from this cycle on
                              (sm_window: within a window only the SM's own pushes change
                              its input, and it asks again after each; 0 at a window's start) */
    tm_mop *free_mops;
    tm_mop **mops;         /* every mop ever allocated (freed with the SM) */
    uint32_t nmops, mops_cap;
    uint64_t wake;         /* earliest cycle it may act */
    uint64_t charged;      /* its schedulers' stall reasons are counted for the cycles before
                              this one (sm_settle: the cycles it did not step are counted
                              together, when something they depend on is about to change) */
    uint64_t resume_at;    /* where its last window stopped (after a fault: the next
                              cycle to run) */
    uint64_t sched_at;     /* earliest cycle a scheduler may issue (see sm_cycle) */
    uint64_t fetch_free;   /* the fetch unit's next free cycle (one warp's fetch a cycle) */
    uint32_t nresident_slots; /* CTA slots of this launch (ctas[]) */
    int out_waiters;       /* warps wait for the queue to the crossbar to drain */
    uint64_t last_active;  /* last cycle it issued, stepped its LD/ST unit or took a reply */
    uint32_t phys_hint;    /* devmem_phys's lookup hint */
    uint64_t insts;        /* warp instructions issued, all launches */
    uint64_t stall[LOCKSTEP_STALL_COUNT];
    rng rng;
    exec_interposer *det_chain; /* GPUDet's store buffer, then the device's chain */
    struct tm_warp *det_next;   /* GPUDet CU-Ser: the next of its warps that may issue */
    uint64_t det_issued;        /* GPUDet: instructions issued this quantum */
    tm_dabbuf *dab_buf;         /* DAB: its atomic buffers (per scheduler, or per warp) */
    uint32_t dab_nbuf, dab_nbuf_cap;
    tm_dabsched dab_sched[TM_MAX_SCHED];
    uint64_t dab_gate;          /* DAB: no warp issues before this cycle (a flush) */
    uint64_t dab_events;        /* DAB: warps that stopped or went on since the serial step looked */
    uint64_t dab_waits;         /* DAB: of those, warps that began to wait for a flush */
    struct tm_warp *dab_serial_next; /* DAB: its warp whose atomic runs next in a serial phase */
    /* modelled nondeterminism (sm_nondet_begin): */
    rng skew_rng;          /* start skew and clock drift */
    rng disp_rng;          /* CTA dispatch delays */
    uint64_t start_at;     /* this launch's warps issue from here on (start skew) */
    uint64_t drift_at;     /* the next cycle this SM loses (TM_NEVER: none) */
    /* DMR load-value replication (dmr.c): copy 0's finished loads for the
     * serial step to queue; entries copy 1 took; copy 1's loads waiting
     * for copy 0's; pairs whose copies loaded from different addresses */
    tm_lvq *lvq_out, *lvq_used;
    tm_mop **lvq_wait;
    uint32_t lvq_nwait, lvq_wait_cap;
    uint32_t *lvq_fail;
    uint32_t lvq_nfail, lvq_fail_cap;
} tm_sm;

typedef struct tm_l2mshr {
    uint64_t line;
    int used, l2line;
    tm_reqq waiting;
    uint32_t merged; /* -lockstep_l2_write_merge: L2 sectors written while the fill was out */
} tm_l2mshr;

/* A DRAM access waiting dram_latency to enter the DRAM queue. */
typedef struct tm_djob {
    uint64_t t, addr;
    uint32_t tag;          /* L2 MSHR index, or TM_WRITEBACK */
    uint8_t write;
} tm_djob;
#define TM_WRITEBACK 0xffffffffu

typedef struct tm_part {
    uint32_t id;
    struct timing_gpu *g;     /* read-only during a window */
    exec_launch L;            /* its view of the launch: global memory, host-memory failure */
    lockstep_timing_stats st; /* its counters for this launch */
    uint64_t progress_at;
    cache *l2;
    dram *dram;
    tm_reqq rop;           /* entered, waiting rop_latency */
    tm_djob *dq;           /* ring of DRAM jobs */
    uint32_t dq_head, dq_n, dq_cap;
    tm_reqq replies;       /* serviced, waiting to leave (t) */
    tm_l2mshr *mshr;
    uint32_t nmshr;
    /* the MSHRs in use by line (open addressing, linear probing, -1:
     * empty), and a bitmask of the free ones: a lookup and the lowest free
     * one without a scan */
    int32_t *mshr_index;
    uint32_t mshr_index_mask;
    uint64_t *mshr_free;
    uint64_t dram_now;     /* DRAM cycles advanced to */
    uint64_t next_ev;      /* its next event (part_next_event), kept by part_window */
    uint64_t last_active;  /* last cycle it took a request or stepped with work */
    rng rng;               /* reply order */
    rng l2_rng;            /* L2 latency jitter */
    uint64_t atom_changes; /* atomic lanes that changed global memory (GPUDet's livelock check) */
    /* the L2 could not take the ROP's head (no MSHR, or every way of its
     * set reserved): only a DRAM completion frees either, so the head waits
     * for one instead of retrying every cycle */
    int l2_stuck;
    /* A cache fault (l2d, l2tag) left words whose value the L2 holds
     * differently from DRAM in clean sectors of the line with (local)
     * address `line`: device memory holds the L2's copy (l2[w] at dev[w]
     * for each word w in `words`), DRAM's value is dram[w].  When the line
     * leaves the L2 with a word's sector still clean, device memory gets
     * DRAM's value back (unless something else has changed it since: a
     * host copy); a dirty sector is written back and the L2's copy stays. */
    struct {
        int on;
        uint64_t line;
        uint32_t words;
        uint64_t dev[TM_LINE / 4];
        uint32_t dram[TM_LINE / 4], l2[TM_LINE / 4];
    } fault;
    /* l2tag only (-lockstep_fault_site l2tag): DRAM's bytes of each line's
     * sectors in dram_mask[line], taken when a sector first becomes dirty
     * (device memory then holds the new bytes, DRAM keeps these until the
     * write-back): a tag fault sends the line's old address back to them */
    uint8_t *dram_copy;
    uint32_t *dram_mask;
    /* DMR's comparator (dmr.c): entries by line (dmr_nb buckets), how
     * many and the most at once; the pairs it found to disagree and the
     * agreed atomics waiting for the serial step (in arrival order); a pool
     * of commit write requests */
    tm_dmrent **dmr_b;
    uint32_t dmr_nb, dmr_n, dmr_max;
    tm_dmrent **dmr_phead, **dmr_ptail; /* by pair id: its entries here */
    uint32_t *dmr_pgen;                 /* by pair id and warp: changes to its entries here */
    uint32_t dmr_pcap;
    tm_dmrent *dmr_hhead;               /* atomics waiting for their partner */
    uint32_t *dmr_lines;                /* counting filter: lines with logged stores */
    tm_dmrent **dmr_lb;                 /* entries by (pair, line) */
    uint64_t dmr_ord;
    uint32_t *dmr_fail, dmr_nfail, dmr_fail_cap;
    tm_dmrent **dmr_ready;
    uint32_t dmr_nready, dmr_ready_cap;
    tm_dmrent **dmr_scratch;
    uint32_t dmr_scratch_cap;
    tm_req *dmr_free;
    tm_req **dmr_reqs;
    uint32_t dmr_nreqs, dmr_reqs_cap;
} tm_part;

/* observe.c's snapshot of one SM at the last trace sample */
typedef struct tm_obs_sm {
    uint64_t insts;
    uint64_t stall[LOCKSTEP_STALL_COUNT];
} tm_obs_sm;

/* -dmr_pair: where a pair's two copies may run */
enum { DMR_PAIR_SM, DMR_PAIR_SLOT, DMR_PAIR_CORE };

/* The engine shares a window out to its host threads only after a window
 * of at least this many steps (engine.c, run_loop). */
#define TM_SHARE_STEPS 160

/* A host thread's tally of the steps its window items took (sm_cycle and
 * part_cycle calls), alone on its cache line. */
typedef struct tm_tally {
    uint64_t steps;
    char pad[64 - sizeof(uint64_t)];
} tm_tally;

struct timing_gpu {
    const lockstep_config *cfg;
    uint32_t nsms, nparts, nsched;
    int store_path;                  /* -lockstep_store_path: SM s's stores enter input nsms + s */
    uint32_t xwin;                   /* the exact window: the crossbar latency in core cycles */
    uint32_t *sys_next;              /* run_syscalls' scratch: per SM, the calls taken */
    double mhz[4];
    uint32_t rop_lat, l2_lat, dram_lat; /* in core cycles (the config gives L2 cycles) */
    uint32_t lat[3][5], ii[3][5];   /* int, fp, dp */
    uint32_t threads_per_sm, regs_per_sm, shmem_per_sm;
    int policy;                      /* 0 lrr, 1 gto, 2 two-level */
    uint32_t two_level_n;
    uint32_t units[TU_COUNT];
    cache_config l1cfg, ccfg, tcfg, l2cfg;
    int have_l1;
    dram_config dcfg;
    icnt *reqnet, *repnet;
    tm_sm *sms;
    tm_part *parts;
    uint32_t part_offset;            /* seeded: which partition address 0 starts in */
    /* GPUDet (gpudet.c; det 0: off) */
    int det;
    uint32_t det_quantum, det_bloom_bits, det_zunit, det_sync, det_l1_lat, icnt_lat;
    int det_cu_ser;                  /* serial mode one SM at a time (CU-Ser), else one warp */
    int det_bta;                     /* a CTA barrier does not end the quantum (BTA) */
    int det_lock_commit;             /* commit with locks (CoreDet), not Z-buffer units */
    int det_dwp;                     /* deterministic workgroup partitioning */
    uint64_t *det_dwp_next;          /* DWP: per slot (k * nsms + s) the next CTA it runs */
    uint64_t det_total_ctas;
    uint32_t det_zlines, det_zentries;
    uint64_t *det_zcache;            /* per partition det_zlines chunk addresses, MRU first */
    uint32_t det_serial_sm;          /* CU-Ser: the SM whose turn it is */
    int det_mode;                    /* DET_PARALLEL, DET_SERIAL */
    int det_dispatch;                /* CTAs may be dispatched (work distribution) */
    uint64_t det_gate;               /* no warp issues before this cycle (commit, syncs) */
    uint64_t det_mode_start;
    struct tm_warp *det_serial_warp; /* serial mode: the warp whose turn it is */
    uint64_t *det_scratch;           /* per partition */
    int det_sb_l1;                   /* the store buffers' traffic goes through the L1 */
    uint32_t det_zdepth_bits;
    uint64_t det_zquantum;           /* quanta since the Z-buffers were last reset */
    struct tm_zslot *det_ztab;       /* commit: chunk -> bytes written (the Z-test) */
    uint32_t det_ztab_cap;
    /* DAB (dab.c; dab 0: off) */
    int dab, dab_active;             /* on; the launch's module has global atomics */
    int dab_warp_level, dab_sched, dab_fusion, dab_coalesce, dab_overlap, dab_no_sync;
    int dab_no_reorder, dab_offset;
    uint32_t dab_entries, dab_chunk;
    uint64_t dab_nslots;
    const ir_module *dab_mod;        /* the module dab_kind describes */
    uint8_t *dab_kind;               /* per pc: what DAB does with it */
    int dab_serial;                  /* a serial phase is on: SM dab_serial_sm's turn */
    uint32_t dab_serial_sm;
    uint64_t dab_serial_start, dab_busy_until, dab_pushed_until, dab_first_wait;
    tm_dabentry *dab_fe;             /* a flush's entries, by transaction */
    size_t dab_fe_cap;
    void *dab_txn, *dab_txp;         /* a flush's transactions, and pointers to them */
    size_t dab_txn_cap, dab_txp_cap;
    uint64_t *dab_arr;
    size_t dab_arr_cap;
    uint8_t *dab_taken;
    uint64_t *dab_pscratch;          /* 3 per partition */
    uint32_t *dab_round;             /* per partition and cluster */
    /* DMR (dmr.c; dmr 0: off) */
    tm_tally *tally;          /* per pool thread (pfor_self) */
    int dmr;
    uint8_t dmr_pairing;   /* -dmr_pair: DMR_PAIR_SM, DMR_PAIR_SLOT or DMR_PAIR_CORE */
    uint32_t dmr_max_reissues, dmr_flip, dmr_flip_line, dmr_flip_load;
    int dmr_lvr;                     /* -dmr_load_values: load-value replication */
    uint32_t dmr_copy_timeout;       /* -dmr_copy_timeout (0: off) */
    uint32_t *dmr_half;              /* pairs with one copy finished, in the order it did */
    uint32_t dmr_nhalf, dmr_half_cap;
    uint64_t dmr_lvq_timeout;
    tm_lvq **lvq_b;                  /* the load value queue by key (changed in the serial
                                        step only; SMs look entries up during windows) */
    uint32_t lvq_nb, lvq_n;
    tm_dmrpair *dmr_pairs;           /* by pair id (0 unused); grows in the serial step only */
    uint32_t dmr_npairs, dmr_pairs_cap;
    uint32_t *dmr_redo;              /* failed pairs whose CTA runs again, in order */
    uint32_t dmr_nredo, dmr_redo_cap;
    uint32_t *dmr_done;              /* pairs whose second copy retired in this serial step */
    uint32_t dmr_ndone, dmr_done_cap;
    struct tm_dmrev {                /* a serial step's commits (a pair confirmed, or an
                                        atomic released), in the order (t, pair) */
        uint64_t t;
        uint64_t upto;               /* it commits the stores agreed by this cycle */
        uint32_t pair, part;
        tm_dmrent *e;                /* the atomic's entry, NULL: the pair confirmed */
    } *dmr_ev;
    uint32_t dmr_nev, dmr_ev_cap;
    /* livelock check (gpudet.c, -gpudet_livelock): a quantum boundary's
     * state repeating with global memory unchanged in between */
    int det_livelock;
    int det_q_changed;               /* this quantum changed global memory or called out */
    uint64_t det_atom_seen;          /* partitions' atom_changes at the last boundary */
    uint64_t det_quiet;              /* quiet quanta in a row */
    uint64_t det_brent;              /* Brent's next power of two */
    uint64_t det_saved_pcs, det_saved_full; /* the state saved at det_brent / 2 quiet quanta */
    /* the seeded sources in effect (0 / 1: off; all off with -lockstep_nondet 0) */
    uint32_t nd_skew, nd_drift, nd_cta_delay, nd_l2_jitter, nd_reply_shuffle;
    uint64_t now;                    /* core cycle of the serial step (windows: see tm_sm.now) */
    uint64_t end;                    /* the cycle after the last launch's last active one */
    uint64_t seq;
    /* the launch being run */
    exec_launch *L;
    tm_insn *ti;
    uint32_t ti_n;
    lockstep_timing_stats *st;
    uint64_t progress_at;            /* last cycle anything issued or moved (only grows) */
    uint32_t window;                 /* cycles per window: the crossbar latency */
    int exact;                       /* window <= the crossbar latency: exact */
    struct pfor *pool;               /* host threads that run a window's components */
    /* observe.c: the trace and the progress line */
    struct ctrace *trace;
    char *trace_partial;             /* the file being written: the trace's name + .partial */
    tm_obs_sm *obs_last;
    uint64_t *obs_slots;             /* per SM and CTA slot: the CTA's dispatch cycle */
    uint32_t obs_nslots, obs_named_slots;
    uint64_t obs_start, obs_at, obs_next, obs_windows, obs_done, obs_total;
    double obs_host0, obs_host_last;
    int obs_printed;
};

/* engine.c: the facts of instruction `in` of m (g->ti holds those of m's
 * code; issue computes them for a replacement, exec_hooks.before) */
void tm_insn_facts(const timing_gpu *g, const ir_module *m, const ir_insn *in, tm_insn *t);

/* sm.c */
int sm_init(timing_gpu *g, tm_sm *sm, uint32_t id);
void sm_release(tm_sm *sm);
void sm_launch_begin(tm_sm *sm);
void sm_cycle(tm_sm *sm, uint64_t now);
void sm_out_drained(tm_sm *sm, uint64_t t);
void sm_reply(tm_sm *sm, tm_req *r, uint64_t now);
int sm_mem_issue(exec_launch *L, exec_cta *c, exec_warp *w, const exec_memreq *rq,
                 exec_memres *res);
void sm_warp_bind(tm_sm *sm, tm_warp *tw, exec_warp *w, tm_cta *tc, uint64_t age);
/* Modelled nondeterminism at a launch's start (at `now`): the SM's start
 * skew and its next drift cycle. */
void sm_nondet_begin(tm_sm *sm, uint64_t now);
/* The cycle from which the warps of a CTA dispatched at `now` may issue:
 * after the SM's start skew, plus a seeded dispatch delay. */
uint64_t sm_cta_start_cycle(tm_sm *sm, uint64_t now);
/* Warp tw of SM sm waits until `at` (TM_NEVER: an event) for reason
 * `why`: the only way its ready_at and ready_why change. */
static inline void tm_warp_wait(tm_sm *sm, tm_warp *tw, uint64_t at, uint8_t why)
{
    if (sm->rq_live) {
        tm_rq *q = &sm->rq[tw->rq_s];
        uint64_t bit = 1ull << tw->rq_k;
        tm_rq_del(q, bit, tw->ready_at);
        tm_rq_add(q, bit, at);
        if (why != tw->ready_why) {
            q->why[tw->ready_why] &= ~bit;
            q->why[why] |= bit;
        }
    }
    tw->ready_at = at;
    tw->ready_why = why;
}
/* A warp of an empty CTA slot: the scheduler passes over it (idle). */
static inline void sm_warp_park(tm_sm *sm, tm_warp *tw)
{
    tm_warp_wait(sm, tw, TM_NEVER, LOCKSTEP_STALL_IDLE);
}
/* The serial step runs warp tw's built-in call on launch L at cycle now. */
void sm_syscall(tm_sm *sm, tm_warp *tw, exec_launch *L, uint64_t now);
int sm_busy(const tm_sm *sm);
/* Does the LD/ST unit have an access it can try this cycle? */
static inline int sm_lq_active(const tm_sm *sm)
{
    return sm->lq_n && sm->lq_blocked == TM_NEVER;
}

/* Count the cycles [sm->charged, t), in which SM sm did not step, for each
 * scheduler under its current reason (idle when no CTA runs).  Called
 * before what they depend on changes (a step, a CTA dispatched, retired or
 * finished) and at the end of each window, so each such cycle is counted
 * under the state it had. */
static inline void sm_settle(tm_sm *sm, uint64_t t)
{
    if (t <= sm->charged)
        return;
    uint64_t n = t - sm->charged;
    sm->charged = t;
    uint32_t nsched = sm->g->nsched;
    if (sm->nresident > sm->nfinished)
        for (uint32_t q = 0; q < nsched; q++)
            sm->stall[sm->last_reason[q]] += n;
    else
        sm->stall[LOCKSTEP_STALL_IDLE] += n * nsched;
}

/* Forget every request and memory operation in flight (after a fault). */
void sm_reset_inflight(tm_sm *sm);
void part_reset_inflight(tm_part *p);

/* partition.c */
int part_init(timing_gpu *g, tm_part *p, uint32_t id);
void part_release(tm_part *p);
int part_can_accept(const tm_part *p, uint64_t now);
void part_accept(tm_part *p, tm_req *r, uint64_t now);
void part_rop_insert(tm_part *p, tm_req *r);
void part_cycle(tm_part *p, uint64_t now);
uint64_t part_next_event(const tm_part *p, uint64_t now);
int part_idle(const tm_part *p);
/* l2tag: line (present, no fill pending) now holds local line address la
 * (same set, not present, no fill pending for it); device memory follows
 * (partition.c).  0, or -1. */
int part_retag(tm_part *p, int line, uint64_t la);
/* Whether local line address la can take a tag fault's new address: not
 * present in the L2, no fill pending for it. */
int part_tag_free(tm_part *p, uint64_t la);
uint64_t tm_part_global(const timing_gpu *g, uint32_t part, uint64_t la);
int tm_dev_of_phys(const devmem *dm, uint64_t pa, uint64_t *dev);

/* engine.c */
tm_req *tm_req_new(tm_sm *sm);
void tm_req_free(tm_sm *sm, tm_req *r);
uint32_t tm_part_of(const timing_gpu *g, uint64_t addr);

/* gpudet.c */
int gpudet_request(void *ud, exec_launch *L, exec_cta *c, exec_warp *w, exec_memreq *rq,
                   exec_memres *res);
/* May warp tw issue the instruction at pc now?  (Its quantum may end here.) */
int gpudet_gate(tm_sm *sm, tm_warp *tw, uint32_t pc, uint64_t now);
/* Warp tw issued an instruction. */
void gpudet_issued(tm_sm *sm, tm_warp *tw);
/* The serial step at the end of a window: end the quantum, commit, step
 * serial mode; 1 if the mode changed. */
int gpudet_step(timing_gpu *g, uint32_t occ, uint32_t nwarps, uint64_t end, int work_left);
void gpudet_launch_begin(timing_gpu *g, uint64_t now);
/* DWP: has SM sm a free slot with a CTA of its partition left? */
int gpudet_dwp_pending(const timing_gpu *g, const tm_sm *sm, uint32_t occ);

/* dab.c */
int dab_request(void *ud, exec_launch *L, exec_cta *c, exec_warp *w, exec_memreq *rq,
                exec_memres *res);
/* May warp tw issue its instruction at pc now (0: not yet; a flush, its
 * turn or the serial phase wakes it)? */
int dab_gate(tm_sm *sm, tm_warp *tw, uint32_t pc, uint64_t now);
/* Warp tw issued its instruction at pc. */
void dab_issued(tm_sm *sm, tm_warp *tw, uint32_t pc);
void dab_cta_started(tm_sm *sm, uint32_t slot, uint64_t now);
/* The flush controller, in the serial step after the window ending at end;
 * all_done: every CTA has finished.  1 if it changed anything. */
int dab_step(timing_gpu *g, uint32_t occ, uint32_t nwarps, uint64_t end, int all_done);
/* Nothing buffered and no serial phase. */
int dab_idle(const timing_gpu *g);
int dab_launch_begin(timing_gpu *g, const ir_module *m, uint32_t kernel, uint32_t occ,
                     uint32_t nwarps, uint64_t nslots);
void dab_free(timing_gpu *g);

/* dmr.c */
/* A DMR global write request (store or atomic, not released) at the L2:
 * 1 if the comparator holds it (an atomic waiting for its partner: no
 * reply now), 0 if it is answered now (a store's acknowledgement, or a
 * failed pair's atomic with zeros). */
int dmr_write(tm_part *p, tm_req *r, uint64_t now);
/* A DMR copy's load read its line: lay the copy's own logged writes over it. */
void dmr_overlay(tm_part *p, tm_req *r);
/* A commit write reached the L2: memory takes its bytes, its entry goes. */
void dmr_committed(tm_part *p, tm_req *r);
/* The serial step after retirement at the window ending at end: failures,
 * released atomics, atomics that can never match, finished pairs (commit
 * or reissue).  Adds confirmed CTAs to *done.  0, or -1 after a fault. */
int dmr_step(timing_gpu *g, uint64_t end, uint64_t *done);
/* A copy still running long after its partner finished (-dmr_copy_timeout
 * times the partner's run time, and 10,000 cycles at least) is hung (a
 * fault sent it round a loop): stop it at cycle end, a difference between
 * the copies like a fault.  Serial step, before retirement. */
void dmr_stop_hung(timing_gpu *g, uint64_t end);
/* Copy tc (of SM s, slot k) finished and retired. */
void dmr_copy_done(timing_gpu *g, tm_cta *tc);
/* SM sm's view stopped at a kernel fault in a DMR copy: 1 if it is the
 * copy's alone (the copy is stopped, the fault cleared, the pair will
 * fail and be reissued), 0 if it stands (not a copy's, or its partner
 * faulted alike: the program's fault). */
int dmr_copy_fault(timing_gpu *g, tm_sm *sm);
/* Stop copy tc at cycle t for its own fault st at pc; 0 (nothing done)
 * when its partner faulted alike. */
int dmr_stop_copy(timing_gpu *g, tm_sm *sm, tm_cta *tc, lockstep_status st, uint32_t pc,
                  uint64_t t);
/* Stop every warp of CTA tc at cycle t (sm.c). */
void sm_cta_stop(tm_sm *sm, tm_cta *tc, uint64_t t);
int dmr_part_init(tm_part *p);
void dmr_part_release(tm_part *p);
void dmr_part_reset(tm_part *p);
/* A new pair running CTA cta (reissues: runs before); its id, or 0 (no memory). */
uint32_t dmr_pair_new(timing_gpu *g, uint64_t cta, uint32_t reissues);
/* Free the pairs' shared built-in calls (launch start, teardown). */
void dmr_echo_free(timing_gpu *g);
/* Load-value replication (-dmr_load_values): global load mop m of warp tw
 * (a pair's copy) is issued: give it its key and value buffer.  0, or -1
 * on host OOM. */
int dmr_lvq_issue(tm_warp *tw, tm_mop *m);
/* A reply brought m's values for lanes (lane l's at bytes + m->ad.a[l] -
 * base): keep them.  0 when the caller writes them to the registers (copy
 * 0), 1 when they wait for the mop's end (copy 1). */
int dmr_lvq_reply(tm_mop *m, uint32_t lanes, uint64_t base, const uint8_t *bytes);
/* Every part of m is back: 0 to finish it now (copy 0's entry goes to the
 * outbox; copy 1 took copy 0's values or found a difference), 1 when it
 * waits for copy 0's load (the serial step finishes it). */
int dmr_lvq_done(tm_sm *sm, tm_mop *m);
/* The launch ends (or fails): free every entry and buffer. */
void dmr_lvq_reset(timing_gpu *g);
/* Finish mop m, every part of it done, the last at cycle t (sm.c). */
void sm_mop_finish(tm_sm *sm, tm_mop *m, uint64_t t);

/* CTAs go to slots by the deterministic partitioning (GPUDet's DWP, DAB's
 * CTA distribution). */
static inline int tm_dwp(const timing_gpu *g) { return g->dab || (g->det && g->det_dwp); }
uint64_t tm_part_local(const timing_gpu *g, uint64_t addr);
uint32_t tm_req_bytes(const tm_req *r, int reply);

/* observe.c */
int tm_observe_open(timing_gpu *g, char *err, size_t errlen);
int tm_observe_close(timing_gpu *g);
void tm_observe_begin(timing_gpu *g, uint32_t slots_per_sm);
void tm_observe_cta_start(timing_gpu *g, uint32_t sm, uint32_t slot, uint64_t now);
void tm_observe_cta_end(timing_gpu *g, uint32_t sm, uint32_t slot, const exec_cta *c,
                        uint64_t now);
void tm_observe_window(timing_gpu *g, uint64_t now, uint64_t done_ctas, uint64_t total_ctas);
void tm_observe_end(timing_gpu *g, const lockstep_timing_stats *st);

/* Note that something moved at cycle now in a component (its progress
 * mark; the deadlock watchdog takes the latest at each window's end). */
static inline void tm_progress(uint64_t *at, uint64_t now)
{
    if (now > *at)
        *at = now;
}

#endif
