/*
 * parse.h -- PTX text to AST (ast.h).  Syntax only: names and modifiers are
 * checked later by the lowering.
 */
#ifndef LOCKSTEP_PTX_PARSE_H
#define LOCKSTEP_PTX_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ast.h"
#include "ptx/diag.h"

/* Parse src into m (which the caller frees with ast_module_free, also on
 * failure).  Returns 0, or -1 with the errors in d. */
int ptx_parse(const char *src, size_t len, const char *filename, ast_module *m, diag *d);
/* The same, numbering the text's lines from first_line (the texts of a
 * linked program share one numbering: link.c; d maps it back). */
int ptx_parse_at(const char *src, size_t len, const char *filename, uint32_t first_line,
                 ast_module *m, diag *d);

#endif
