/*
 * cfg.h -- control flow of decoded functions: successors of each
 * instruction, immediate post-dominators, and from them the reconvergence
 * point of every conditional branch (the SIMT stack's RPC).
 */
#ifndef LOCKSTEP_PTX_CFG_H
#define LOCKSTEP_PTX_CFG_H

#include "ptx/diag.h"
#include "ptx/ir.h"

/* Set ir_insn.reconv of every guarded branch in m; 0, or -1 on host OOM. */
int cfg_compute_reconvergence(ir_module *m, diag *d);

/* Set ir_func.zero_rows of every function of m: the register rows some
 * path from the function's start reads before every path to that read has
 * written them (an unguarded write; a guarded one may leave lanes
 * unwritten), plus every register a shfl reads (it reads other lanes,
 * which may never have written it).  0, or -1 on host OOM. */
int cfg_compute_zero_rows(ir_module *m, diag *d);

/* The immediate post-dominator of each instruction of function f, as
 * instruction indices relative to f->start; f->end - f->start stands for
 * the exit, and UINT32_MAX for instructions that never reach the exit.
 * Returns a malloc'd array of (end - start) entries, or NULL on OOM. */
uint32_t *cfg_ipdom(const ir_module *m, const ir_func *f);

/* The register rows live on entry to each instruction of function f: a
 * row is live at i when some path from i reads it before an unguarded
 * instruction writes it (a guarded write may leave lanes unwritten, so it
 * does not end a row's life).  A malloc'd array of (end - start) bitsets of
 * (nregs + 63) / 64 words each, or NULL on OOM. */
uint64_t *cfg_live_in(const ir_module *m, const ir_func *f);

/* The register rows (in the function's window) instruction `in` reads:
 * its register sources, d[] when they are read (IRF_DSRC), the address
 * base, an indirect call's target, a wmma's fragments.  Writes at most 28
 * into out and returns their number.  Liveness and ACE analysis
 * (src/rel/ace.c) share it. */
int cfg_reg_reads(const ir_module *m, const ir_insn *in, uint32_t out[28]);

#endif
