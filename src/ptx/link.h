/*
 * link.h -- several PTX texts loaded as one module, each .extern
 * declaration bound to the definition another text holds: what nvlink
 * does for a program built with relocatable device code (nvcc -rdc=true),
 * done on the PTX.  The texts are parsed one by one, merged at the AST and
 * lowered once (lower.c knows nothing of linking).
 */
#ifndef LOCKSTEP_PTX_LINK_H
#define LOCKSTEP_PTX_LINK_H

#include <stddef.h>

#include "ptx/diag.h"
#include "ptx/ir.h"
#include "ptx/lower.h"

typedef struct ptx_link_unit {
    const char *text; /* need not be NUL-terminated */
    size_t len;
    const char *name; /* names the text in messages and in ir_module.ptx_files */
} ptx_link_unit;

/* Parse, link and lower n >= 1 texts into one module (env and the result
 * as ptx_lower's).  Every message names its own text, line and column.
 * Returns 0, or -1 with the errors in d (initialized by the caller; its
 * filename names the whole). */
int ptx_link(const ptx_link_unit *units, size_t n, const lower_env *env, diag *d,
             ir_module **out);

#endif
