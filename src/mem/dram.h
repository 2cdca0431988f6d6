/*
 * dram.h -- one DRAM channel of a memory partition: banks with row buffers,
 * an FR-FCFS (or FIFO) command scheduler and GDDR timing constraints, in the
 * spirit of GPGPU-Sim's dram.cc but written from scratch.  The partition
 * (src/timing) pushes the L2's misses and write-backs with channel-local
 * addresses and DRAM command-clock times, advances the channel, pops
 * completions, and asks dram_next_event() how far it may skip idle time.
 *
 * Time.  Everything is in DRAM command-clock cycles.  One command (ACT, PRE,
 * RD, WR, REF) issues per cycle.  A request pushed at cycle `now` can issue
 * its first command at `now` (or at the first cycle not yet advanced, if
 * later).  A column command at cycle t moves burst_length beats starting at
 * t+CL (read) or t+WL (write); the data bus is busy for
 * ceil(burst_length / data_rate) cycles per column command.
 *
 * data_rate is beats per command clock: GPGPU-Sim's
 * -dram_data_command_freq_ratio.  GDDR5's data clock runs at 2x the command
 * clock with data on both edges, so 4 beats per command clock (the default):
 * a burst of 8 occupies the bus for 2 cycles.  DDR would use 2.
 *
 * Transfer size.  A column command moves bus_width * chips * burst_length
 * bytes (4 * 2 * 8 = 64 by default); a request of `bytes` takes
 * ceil(bytes / that) column commands, all to the row of its first byte.
 *
 * Address mapping (channel-local byte address a):
 *     column = a % row_bytes
 *     bank   = (a / row_bytes) % nbk
 *     row    = (a / row_bytes) / nbk
 * so consecutive rows' worth of bytes go to consecutive banks.  Bank b is in
 * bank group b / (nbk / nbkgrp), as in GPGPU-Sim.
 *
 * Constraints modelled: tRCD (ACT to RD/WR), tRAS (ACT to PRE), tRP (PRE to
 * ACT), tRC (ACT to ACT, same bank), tRRD (ACT to ACT, any two), tCCD (column
 * to column, any banks), tCCDL (column to column, same bank group), tCDLR
 * (end of write data to RD), tWR (end of write data to PRE), tRTPL (RD to
 * PRE), CL / WL, and data-bus occupancy (which also provides read-to-write
 * turnaround).  No tFAW.  Rows stay open until a conflict or a refresh
 * closes them (open-page policy).
 *
 * Scheduling.  FR-FCFS: each cycle the oldest ready column command of a row
 * hit wins; otherwise the ACT or PRE of the bank whose oldest request is
 * oldest (among those ready).  A closed bank is activated for its oldest
 * request; an open bank is precharged only when no queued request still hits
 * its row.  FIFO: only each bank's oldest request is considered.  A request
 * leaves the queue when its last column command issues.
 *
 * Row hits and misses.  A request is a row miss if an ACT was issued on its
 * behalf (it was its bank's target when the bank was activated), a row hit
 * otherwise; so row_hits + row_misses = reads + writes, row_misses <= activates.
 *
 * Modelled nondeterminism (DESIGN, principle 2), from the channel's own
 * stream rng_seed(seed, RNG_DRAM, instance):
 *   - refresh: when tREFI != 0, the stream's first draw, rng_below(tREFI),
 *     taken at dram_create, is the phase; refresh is due at phase,
 *     phase + tREFI, ...  When due, no ACT or column command issues;
 *     open banks are precharged (respecting their timing), then REF issues and
 *     every bank is blocked for tRFC cycles.
 *   - jitter: each read, when its last column command issues, draws
 *     rng_below(jitter + 1) extra cycles added to its completion (the data
 *     bus is not held longer).  Draws follow the issue order, which is
 *     deterministic.
 * Given (config, seed, instance, call sequence) every result is identical.
 */
#ifndef LOCKSTEP_DRAM_H
#define LOCKSTEP_DRAM_H

#include <stddef.h>
#include <stdint.h>

/* Banks per channel supported (the scheduler keeps per-bank scratch on the stack). */
#define DRAM_MAX_BANKS 64

typedef struct dram_config {
    /* GPGPU-Sim -gpgpu_dram_timing_opt keys, in DRAM command-clock cycles */
    uint32_t nbk, tCCD, tRRD, tRCD, tRAS, tRP, tRC, CL, WL, tCDLR, tWR, nbkgrp, tCCDL, tRTPL;
    uint32_t burst_length;    /* -gpgpu_dram_burst_length (beats), e.g. 8 */
    uint32_t bus_width;       /* -gpgpu_dram_buswidth: bytes per beat per chip, e.g. 4 */
    uint32_t chips;           /* -gpgpu_n_mem_per_ctrlr: chips per channel, e.g. 2 */
    uint32_t data_rate;       /* beats per command clock (-dram_data_command_freq_ratio):
                                 2 for DDR, 4 for GDDR5 (the default) */
    uint32_t row_bytes;       /* bytes per row per channel (column space), e.g. 2048 */
    uint32_t queue_size;      /* -gpgpu_frfcfs_dram_sched_queue_size; 0 = unlimited */
    uint32_t scheduler;       /* 0 FIFO, 1 FR-FCFS (-gpgpu_dram_scheduler) */
    uint32_t tREFI, tRFC;     /* refresh interval and duration; tREFI 0 = no refresh */
    uint32_t jitter;          /* extra 0..jitter cycles added to each read's data return,
                                 seeded; 0 = none */
    uint32_t seeded_phase;    /* 1: the refresh phase comes from the seed; 0: from seed 0
                                 (each channel's own, the same for every seed) */
} dram_config;

/* GTX 480-like GDDR5 defaults (GPGPU-Sim's GTX480 timing string, 64-byte
 * bursts, 16-entry FR-FCFS queue, refresh every 3600 cycles for 100). */
void dram_config_default(dram_config *c);
/* Check a config for consistency: 0, or -1 and a one-line message in err. */
int dram_config_check(const dram_config *c, char *err, size_t errlen);
/* Parse GPGPU-Sim's "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:
 * nbkgrp=1:CCDL=0:RTPL=0" into c (keys in any order, case-insensitive, blanks around
 * tokens allowed; missing keys keep their value).  Unknown key, bad number or an
 * inconsistent result -> -1, c unchanged, and a one-line message in err. */
int dram_timing_parse(const char *s, dram_config *c, char *err, size_t errlen);

typedef struct dram dram;
/* A channel in its reset state (all banks closed, cycle 0).  NULL when the
 * host is out of memory or the config fails dram_config_check. */
dram *dram_create(const dram_config *c, uint64_t seed, uint32_t instance);
void dram_free(dram *d);

/* Where a channel-local byte address lands (mapping in the comment above). */
void dram_map(const dram *d, uint64_t local_addr, uint32_t *bank, uint64_t *row);
/* 1 when the scheduler queue has room for another request. */
int dram_can_accept(const dram *d);
/* Nothing queued, and every completion popped. */
int dram_idle(const dram *d);
/* Enqueue a read or write of `bytes` (a multiple of 32, 32..row_bytes) at a
 * channel-local address, arriving at DRAM cycle `now`; `tag` comes back on
 * completion.  0, or -1 if the queue is full (counted in queue_full), the size
 * is invalid, or the host is out of memory. */
int dram_push(dram *d, uint64_t now, uint64_t local_addr, uint32_t bytes, int is_write,
              uint64_t tag);
/* Simulate every DRAM cycle up to and including `now` (non-decreasing, below
 * UINT64_MAX).  Idle stretches, refreshes included, are jumped over. */
void dram_advance(dram *d, uint64_t now);
/* The oldest completed request (completion cycle, then push order) whose
 * completion cycle <= the time advanced to: 1 with its tag and cycle, else 0. */
int dram_pop_done(dram *d, uint64_t *tag, uint64_t *done_cycle);
/* The earliest cycle > the last advanced time at which something can happen
 * (a command can issue, a request completes, a refresh starts or ends);
 * UINT64_MAX when nothing is queued or in flight. */
uint64_t dram_next_event(dram *d); /* remembers its answer until the state changes */

/* The channel's refresh phase (the first cycle refresh is due), or
 * UINT64_MAX when refresh is off. */
uint64_t dram_refresh_phase(const dram *d);
/* Requests queued (not yet fully issued). */
uint32_t dram_queue_len(const dram *d);

typedef struct dram_stats {
    uint64_t reads, writes;       /* requests completed */
    uint64_t row_hits, row_misses;/* requests that found their row open / needed activate */
    uint64_t activates, precharges, refreshes;
    uint64_t busy_cycles;         /* cycles the data bus transferred data (counted at issue) */
    uint64_t queue_full;          /* pushes refused */
    uint64_t total_latency;       /* sum over completed requests of (done - push) */
} dram_stats;
void dram_get_stats(const dram *d, dram_stats *s);

#endif
