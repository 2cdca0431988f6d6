/*
 * timing.h -- the cycle-level timing model (timing mode): SMs with warp
 * schedulers, a scoreboard and functional units, an LD/ST unit with a
 * coalescer, L1 data cache, shared-memory banks and a constant cache; a
 * crossbar; memory partitions with an L2 slice, an atomic unit and a DRAM
 * channel.  It drives the functional core (src/exec) one instruction at a
 * time and carries memory values with the timing (DESIGN principle 3):
 * a global load gets its bytes when an L1 hit or the L2 slice services it,
 * a store changes memory when it reaches its partition, atomics execute
 * at the partition.  Modelled nondeterminism comes from per-component
 * PRNG streams of one seed (principle 2).
 *
 * A timing_gpu lives as long as its device: L2 contents and the simulated
 * clock carry over from one launch to the next; L1s start each kernel
 * empty.
 */
#ifndef LOCKSTEP_TIMING_H
#define LOCKSTEP_TIMING_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "exec/exec.h"

typedef struct timing_gpu timing_gpu;

/* A GPU built from cfg; NULL with a message in err if cfg describes an
 * impossible GPU or the host is out of memory. */
timing_gpu *timing_gpu_create(const lockstep_config *cfg, int *oom, char *err, size_t errlen);
void timing_gpu_free(timing_gpu *g);

/* Run launch L (filled in as for exec_run) on the model; fills st. */
lockstep_status timing_run(timing_gpu *g, exec_launch *L, lockstep_timing_stats *st);

/* Total simulated core cycles so far (gpu_tot_sim_cycle). */
uint64_t timing_total_cycles(const timing_gpu *g);
/* Fault injection into the L1 data caches, between windows only: the
 * 32-bit words in valid sectors of every SM's L1D, and a pointer to the
 * k-th of them (SM by SM, line by line, in address order within a line)
 * in the L1's own copy of the line, with its SM and device address (NULL
 * if there is none). */
uint64_t timing_l1d_words(const timing_gpu *g);
uint8_t *timing_l1d_word(timing_gpu *g, uint64_t k, uint32_t *sm, uint64_t *addr);
/* Fault injection into the L2 slices (l2d), between windows only.  The
 * L2 keeps tags, not bytes: device memory holds the value every access
 * sees, the L2's copy of a line it holds, so a changed word is a change of
 * device memory that the partition takes back (DRAM's value) if its line
 * leaves the L2 with the word's sector clean.  The words: 32-bit words in
 * valid sectors of lines with no fill pending, inside a live allocation,
 * partition by partition, line by line, in address order within a line.
 * timing_l2d_word: the k-th's partition, physical address, whether its
 * sector is dirty, and value; 0, or -1 if there is none.
 * timing_l2d_write: change it to v; 0, or -1. */
uint64_t timing_l2d_words(const timing_gpu *g);
int timing_l2d_word(const timing_gpu *g, uint64_t k, uint32_t *part, uint64_t *addr,
                    int *dirty, uint32_t *val);
int timing_l2d_write(timing_gpu *g, uint64_t k, uint32_t v);
/* Tag faults in the L1 data caches (l1tag), between windows only.  A tag
 * holds the line address bits from log2(line bytes) to TIMING_TAG_BITS - 1.
 * The lines: those with a valid sector and no fill pending, SM by SM, line
 * by line.  timing_l1_line: the k-th's SM and line address, the address
 * bits whose flip keeps the line in its set (bit b of *keep) and those
 * bits b whose flip together with b + 1 does (*keep2); 0, or -1.
 * timing_l1_retag: the k-th line now holds line_addr (in its set; see
 * cache_retag); 0, or -1. */
#define TIMING_TAG_BITS 48
uint64_t timing_l1_lines(const timing_gpu *g);
int timing_l1_line(const timing_gpu *g, uint64_t k, uint32_t *sm, uint64_t *line_addr,
                   uint64_t *keep, uint64_t *keep2);
int timing_l1_retag(timing_gpu *g, uint64_t k, uint64_t line_addr);
/* Tag faults in the L2 slices (l2tag), between windows only; only with
 * -lockstep_fault_site l2tag (the partitions then keep DRAM's bytes of
 * their dirty sectors; otherwise there are no lines).  The tag is the
 * partition-local line address (an L2 slice sees addresses with the
 * partition bits removed).  The lines: those with a valid sector and no
 * fill pending, partition by partition, line by line.  timing_l2_line:
 * the k-th's partition, tag, physical address, whether a sector of it is
 * dirty, and the tag bits whose flip
 * (*keep) or flip with the next bit (*keep2) keeps the line in its set and
 * gives an address the L2 neither holds nor is filling (the value model
 * cannot hold two copies of one address).  timing_l2_retag: the k-th line
 * now holds tag (same conditions); *alias: the physical address it answers
 * for now.  0, or -1. */
uint64_t timing_l2_lines(const timing_gpu *g);
int timing_l2_line(timing_gpu *g, uint64_t k, uint32_t *part, uint64_t *tag,
                   uint64_t *addr, int *dirty, uint64_t *keep, uint64_t *keep2);
int timing_l2_retag(timing_gpu *g, uint64_t k, uint64_t tag, uint64_t *alias);
/* Fault injection into DMR's comparator log (dmr_log), between windows
 * only: the 32-bit words a held or agreed store entry will write (all four
 * bytes in its byte mask), partition by partition, pair by pair, entry by
 * entry in arrival order, word by word.  timing_dmr_log_word: a pointer to
 * the k-th in the entry's bytes, its partition, device address and the
 * entry's state: 0 held (the first copy's, waiting for the second's to be
 * compared with it), 1 agreed (waiting to be committed: what memory will
 * get), 2 committing (its write is on its way with its own copy of the
 * bytes; the copies' loads still read the entry); NULL if there is none. */
uint64_t timing_dmr_log_words(const timing_gpu *g);
uint8_t *timing_dmr_log_word(timing_gpu *g, uint64_t k, uint32_t *part, uint64_t *addr,
                             int *state);
/* End the Chrome trace (-lockstep_trace), if one is being written: close
 * the file; later launches are not traced.  0, or -1 if a write failed. */
int timing_trace_finish(timing_gpu *g);
/* Core clock in MHz (for converting cycles to time). */
double timing_core_mhz(const timing_gpu *g);
uint32_t timing_num_sms(const timing_gpu *g);
/* The last launch's scheduler-cycle breakdown of SM sm: 0, or -1. */
/* The name of a stall reason ("scoreboard"), NULL past the last. */
const char *timing_stall_name(lockstep_stall s);
int timing_sm_stalls(const timing_gpu *g, uint32_t sm, uint64_t stall[LOCKSTEP_STALL_COUNT]);

#endif
