/*
 * ace.h -- ACE lifetime analysis of a run: an AVF estimate per structure
 * (-lockstep_ace 1; docs/RELIABILITY.md, "ACE lifetime analysis").
 *
 * The analysis is an observer at the seams, like fault injection: it
 * attaches as exec_hooks (exec.h) and watches every warp instruction
 * (`before`: the registers, predicates and shared-memory words it reads,
 * and the shared words it writes) and every register write (`written`).
 * A value is ACE (needed for architecturally correct execution) from its
 * write to its last read; dead values, the time after the last read and
 * never-written storage are un-ACE.  Per structure it reports the ACE
 * bit-time and two AVFs: over what the launches allocated (resident warps'
 * registers and predicates, resident CTAs' shared memory, over their
 * residency) and over the configured structure (every SM's register file
 * or shared memory, over the whole run).
 *
 * Time is the program-wide simulated cycle in timing mode and the
 * program-wide warp instruction in functional mode.  In timing mode the
 * hooks run on the SMs' host threads: each SM keeps its own state and
 * integer sums, merged in SM order at the end of a launch, so the result
 * is the same for any number of host threads and window order.
 *
 * One observer is attached to a device at a time: ACE measures the golden
 * run and is refused together with -lockstep_fault_site (config.c).
 */
#ifndef LOCKSTEP_REL_ACE_H
#define LOCKSTEP_REL_ACE_H

#include <stdint.h>

#include "config/config.h"
#include "exec/exec.h"
#include "util/strbuf.h"

typedef struct rel_ace rel_ace;

/* The structures, in report order. */
enum { ACE_REG, ACE_PRED, ACE_SHARED, ACE_NSTRUCT };
extern const char *const rel_ace_struct_names[ACE_NSTRUCT];

/* The analysis for cfg (-lockstep_ace), or NULL on host OOM. */
rel_ace *rel_ace_create(const lockstep_config *cfg);
void rel_ace_free(rel_ace *a);

/* The observers to attach (device_set_hooks) with their trap bits, or NULL
 * when -lockstep_ace is 0. */
const exec_hooks *rel_ace_hooks(rel_ace *a, uint32_t *trap);

/* A launch starts (`timing`: on the timing model): per-function facts of
 * its module, the trap bits.  Returns 0, or -1 on host OOM (the launch then
 * runs without the analysis and the report says it is incomplete). */
int rel_ace_launch_begin(rel_ace *a, exec_launch *L, int timing);
/* A launch ended after `cycles` simulated cycles (0 in functional mode):
 * the residency of its last CTAs, the SMs' sums merged in SM order. */
void rel_ace_launch_end(rel_ace *a, const exec_launch *L, uint64_t cycles);

/* The result so far: a JSON object (no newline), or text lines. */
void rel_ace_report_json(const rel_ace *a, strbuf *sb);
void rel_ace_report_text(const rel_ace *a, strbuf *sb);

#endif
