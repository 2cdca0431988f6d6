/*
 * diag.h -- diagnostics of the PTX front end: every message is
 * "file:line:col: error: text", one per line, collected in order.  After
 * DIAG_MAX_ERRORS the rest are counted but not kept, so a garbage input
 * cannot produce megabytes of messages.  Several texts loaded as one
 * (link.c) share one line numbering; the diag maps it back, so each
 * message still names its own text and line.
 */
#ifndef LOCKSTEP_PTX_DIAG_H
#define LOCKSTEP_PTX_DIAG_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ast.h"
#include "util/strbuf.h"

#define DIAG_MAX_ERRORS 50

/* One PTX text of several numbered as one (a linked program, link.c): its
 * lines are first_line, first_line + 1, ... of the shared numbering. */
typedef struct diag_unit {
    const char *name;
    uint32_t first_line;
} diag_unit;

typedef struct diag {
    const char *filename;
    const diag_unit *units; /* NULL, or nunits texts by ascending first_line */
    uint32_t nunits;
    strbuf text;
    int nerrors;
    int nunsupported; /* errors about valid PTX lockstep does not implement */
    int oom;          /* host memory ran out */
} diag;

void diag_init(diag *d, const char *filename);
void diag_free(diag *d);
void diag_error(diag *d, ast_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_unsupported(diag *d, ast_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "file:line:col" of loc into buf, as messages print it (a shared line
 * number becomes its own text's name and line). */
void diag_where(const diag *d, ast_loc loc, char *buf, size_t n);
/* The unit holding shared line `line` (0 when d has no units). */
uint32_t diag_unit_of(const diag *d, uint32_t line);

#endif
