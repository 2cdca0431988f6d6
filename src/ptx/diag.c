/*
 * diag.c -- the diagnostics collector of diag.h.
 */
#include "ptx/diag.h"

#include <stdarg.h>
#include <stdio.h>

void diag_init(diag *d, const char *filename)
{
    d->filename = filename ? filename : "<ptx>";
    d->units = NULL;
    d->nunits = 0;
    d->text = (strbuf)STRBUF_INIT;
    d->nerrors = d->nunsupported = d->oom = 0;
}

void diag_free(diag *d) { sb_free(&d->text); }

uint32_t diag_unit_of(const diag *d, uint32_t line)
{
    uint32_t lo = 0, hi = d->nunits; /* the last unit whose first line is <= line */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->units[mid].first_line <= line)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void diag_where(const diag *d, ast_loc loc, char *buf, size_t n)
{
    if (d->nunits && loc.line) {
        const diag_unit *u = &d->units[diag_unit_of(d, loc.line)];
        snprintf(buf, n, "%s:%u:%u", u->name, loc.line - u->first_line + 1, loc.col);
    } else {
        snprintf(buf, n, "%s:%u:%u", d->filename, loc.line, loc.col);
    }
}

static void diag_v(diag *d, ast_loc loc, const char *fmt, va_list ap)
{
    d->nerrors++;
    if (d->nerrors > DIAG_MAX_ERRORS)
        return;
    if (d->nunits && loc.line) {
        const diag_unit *u = &d->units[diag_unit_of(d, loc.line)];
        sb_printf(&d->text, "%s:%u:%u: error: ", u->name, loc.line - u->first_line + 1, loc.col);
    } else {
        sb_printf(&d->text, "%s:%u:%u: error: ", d->filename, loc.line, loc.col);
    }
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
