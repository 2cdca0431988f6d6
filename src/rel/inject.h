/*
 * inject.h -- fault injection: one fault, in one run, deterministically
 * (-lockstep_fault_site, -lockstep_fault_model, -lockstep_fault_at,
 * -lockstep_fault_seed; docs/RELIABILITY.md).
 *
 * The injector is a mechanism at the seams (docs/ARCHITECTURE.md): it
 * attaches as an exec_hooks observer, never inside the interpreter or the
 * timing model.  In timing mode the fault lands in the timing engine's
 * serial step between windows (exec_hooks.step), so the run is the same for
 * any number of host threads and window order; in functional mode it lands
 * in the per-instruction hook (exec_hooks.before), counting warp
 * instructions.  Instruction-output sites arm a warp there and corrupt its
 * next destination write at the write point (exec_hooks.written); the
 * instruction-buffer site (ibuf) arms one the same way and hands its next
 * instruction back to the interpreter corrupted (exec_hooks.before's
 * replacement), a copy the injector owns: the decoded program is never
 * changed.
 *
 * The device (src/core) owns one injector, tells it where each launch
 * starts in the program (cycles, warp instructions) and asks it for the
 * report: one line of JSON saying what the fault hit.
 */
#ifndef LOCKSTEP_REL_INJECT_H
#define LOCKSTEP_REL_INJECT_H

#include <stdint.h>

#include "config/config.h"
#include "exec/exec.h"
#include "mem/devmem.h"
#include "util/strbuf.h"

typedef struct rel_injector rel_injector;

/* An injector for cfg's fault options; device memory dm (the dram site
 * draws from the live allocations whose tag has its bit in dram_tags).
 * NULL on host OOM.  With site none it only keeps the program totals. */
rel_injector *rel_inject_create(const lockstep_config *cfg, devmem *dm, uint32_t dram_tags);
void rel_inject_free(rel_injector *inj);

/* The observers to attach (device_set_hooks) and their trap bits, or NULL
 * when nothing is to be injected (site none): then nothing is attached. */
const exec_hooks *rel_inject_hooks(rel_injector *inj, uint32_t *trap);

/* A launch starts: `timing` whether it runs on the timing model.  Takes
 * the hooks off L when the fault has landed already (nothing more to pay). */
void rel_inject_launch_begin(rel_injector *inj, exec_launch *L, int timing);
/* A launch ended after `cycles` simulated cycles (0 in functional mode) and
 * L->warp_insts warp instructions, with redundant execution's mismatches
 * and reissues (its dmr_mismatches and dmr_reissues; 0 without it): they
 * count into the program totals. */
void rel_inject_launch_end(rel_injector *inj, const exec_launch *L, uint64_t cycles,
                           uint64_t dmr_mismatches, uint64_t dmr_reissues);

/* The program so far: cycles and warp instructions of every finished
 * launch, and their number. */
void rel_inject_totals(const rel_injector *inj, uint64_t *cycles, uint64_t *insts,
                       uint64_t *launches);

/* Append the report, one line of JSON without the newline
 * (docs/RELIABILITY.md, "The report"). */
void rel_inject_report_json(const rel_injector *inj, strbuf *sb);

#endif
