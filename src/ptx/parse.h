/*
 * parse.h -- PTX text to AST (ast.h).  Syntax only: names and modifiers are
 * checked later by the lowering.
 */
#ifndef LOCKSTEP_PTX_PARSE_H
#define LOCKSTEP_PTX_PARSE_H

#include <stddef.h>

#include "ptx/ast.h"
#include "ptx/diag.h"

/* Parse src into m (which the caller frees with ast_module_free, also on
 * failure).  Returns 0, or -1 with the errors in d. */
int ptx_parse(const char *src, size_t len, const char *filename, ast_module *m, diag *d);

#endif
