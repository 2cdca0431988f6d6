/*
 * diag.c -- the diagnostics collector of diag.h.
 */
#include "ptx/diag.h"

#include <stdarg.h>

void diag_init(diag *d, const char *filename)
{
    d->filename = filename ? filename : "<ptx>";
    d->text = (strbuf)STRBUF_INIT;
    d->nerrors = d->nunsupported = d->oom = 0;
}

void diag_free(diag *d) { sb_free(&d->text); }

static void diag_v(diag *d, ast_loc loc, const char *fmt, va_list ap)
{
    d->nerrors++;
    if (d->nerrors > DIAG_MAX_ERRORS)
        return;
    sb_printf(&d->text, "%s:%u:%u: error: ", d->filename, loc.line, loc.col);
    sb_vprintf(&d->text, fmt, ap);
    sb_putc(&d->text, '\n');
    if (d->nerrors == DIAG_MAX_ERRORS)
        sb_printf(&d->text, "%s: too many errors; stopping here\n", d->filename);
}

void diag_error(diag *d, ast_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_v(d, loc, fmt, ap);
    va_end(ap);
}

void diag_unsupported(diag *d, ast_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    d->nunsupported++;
    diag_v(d, loc, fmt, ap);
    va_end(ap);
}
