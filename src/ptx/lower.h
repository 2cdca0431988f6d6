/*
 * lower.h -- AST (ast.h) to IR (ir.h): resolves names, checks every
 * instruction's modifiers and operands against what PTX allows, lays out
 * parameters, frames and module variables, builds call sites, and computes
 * branch reconvergence points (cfg.c).  Anything lockstep does not
 * implement is an error naming the instruction or directive here, at load
 * time, never at run time.
 */
#ifndef LOCKSTEP_PTX_LOWER_H
#define LOCKSTEP_PTX_LOWER_H

#include <stdint.h>

#include "ptx/ast.h"
#include "ptx/diag.h"
#include "ptx/ir.h"

/* How the lowering places module .global/.const variables in device memory. */
typedef struct lower_env {
    void *ud;
    int (*alloc_global)(void *ud, uint64_t size, uint32_t align, uint64_t *addr); /* 0 ok */
    int (*free_global)(void *ud, uint64_t addr);
    int (*write_global)(void *ud, uint64_t addr, const void *data, uint64_t n);  /* 0 ok */
} lower_env;

/* Returns 0 and the module, or -1 with errors in d (allocations undone).
 * env may be NULL: variables then get addresses from a counter and no data
 * is written (for checking PTX without a device). */
int ptx_lower(const ast_module *am, const lower_env *env, diag *d, ir_module **out);

#endif
