/*
 * diag.h -- diagnostics of the PTX front end: every message is
 * "file:line:col: error: text", one per line, collected in order.  After
 * DIAG_MAX_ERRORS the rest are counted but not kept, so a garbage input
 * cannot produce megabytes of messages.
 */
#ifndef LOCKSTEP_PTX_DIAG_H
#define LOCKSTEP_PTX_DIAG_H

#include <stdint.h>

#include "ptx/ast.h"
#include "util/strbuf.h"

#define DIAG_MAX_ERRORS 50

typedef struct diag {
    const char *filename;
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

#endif
