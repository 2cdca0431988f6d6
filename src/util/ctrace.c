/*
 * ctrace.c -- the Chrome Trace Event Format writer of ctrace.h.
 *
 * Each event is built in the handle's strbuf and handed to stdio with one
 * fwrite, so a failure is seen (and its errno caught) at one place per event
 * and at the final flush.  The first failure is latched in `err`; from then
 * on events are dropped and ctrace_close() returns -1.
 *
 * Numbers are formatted with snprintf, whose decimal point follows the C
 * locale's LC_NUMERIC: ct_number() rewrites whatever the locale put there as
 * '.', so a program that calls setlocale() still gets valid JSON.
 */
#include "util/ctrace.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

struct ctrace {
    FILE *f;
    strbuf ev;   /* the event being built */
    int nevents; /* 0 until the first event: it gets no leading comma */
    int err;     /* first errno of a failed write, or 0 */
};

static const char ct_header[] = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";

/* Latch the first error. */
static void ct_fail(ctrace *t, int err)
{
    if (!t->err)
        t->err = err ? err : EIO;
}

/* Write the bytes; latch a failure. */
static void ct_write(ctrace *t, const char *s, size_t n)
{
    if (t->err || n == 0)
        return;
    errno = 0;
    if (fwrite(s, 1, n, t->f) != n)
        ct_fail(t, errno);
}

/* Append the snprintf output in buf as a JSON number: digits, sign and
 * exponent kept, any other run of bytes (the locale's decimal point, which
 * may be several bytes) written as '.'. */
static void ct_number_text(strbuf *sb, const char *buf)
{
    int in_point = 0;
    for (const char *p = buf; *p; p++) {
        char c = *p;
        if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e' || c == 'E') {
            sb_putc(sb, c);
            in_point = 0;
        } else if (!in_point) {
            sb_putc(sb, '.');
            in_point = 1;
        }
    }
}

/* Append v with three decimals (a timestamp or a duration in us). */
static void ct_fixed3(strbuf *sb, double v)
{
    char buf[400]; /* DBL_MAX in %.3f is 309 digits + ".000" */
    if (!isfinite(v))
        v = 0;
    int n = snprintf(buf, sizeof buf, "%.3f", v);
    if (n < 0 || (size_t)n >= sizeof buf) {
        sb_putc(sb, '0');
        return;
    }
    ct_number_text(sb, buf);
}

/* Append v with the fewest of 15..17 significant digits that give back v. */
static void ct_general(strbuf *sb, double v)
{
    char buf[40];
    if (!isfinite(v))
        v = 0;
    int n = snprintf(buf, sizeof buf, "%.15g", v);
    if (n >= 0 && (size_t)n < sizeof buf && strtod(buf, NULL) != v)
        n = snprintf(buf, sizeof buf, "%.17g", v);
    if (n < 0 || (size_t)n >= sizeof buf) {
        sb_putc(sb, '0');
        return;
    }
    ct_number_text(sb, buf);
}

/* Start an event: separator, '{', "ph", "pid".  0, or -1 if the trace has
 * failed and the event is to be dropped. */
static int ct_begin(ctrace *t, const char *ph, uint32_t pid)
{
    if (t->err)
        return -1;
    sb_clear(&t->ev);
    sb_puts(&t->ev, t->nevents ? ",\n{\"ph\":" : "\n{\"ph\":");
    sb_json_string(&t->ev, ph);
    sb_printf(&t->ev, ",\"pid\":%" PRIu32, pid);
    return 0;
}

/* Finish the event started by ct_begin() and write it. */
static void ct_end(ctrace *t)
{
    sb_putc(&t->ev, '}');
    if (t->ev.oom) {
        ct_fail(t, ENOMEM);
        return;
    }
    ct_write(t, t->ev.s, t->ev.len);
    t->nevents = 1;
}

static void ct_key(strbuf *sb, const char *key)
{
    sb_putc(sb, ',');
    sb_json_string(sb, key);
    sb_putc(sb, ':');
}

ctrace *ctrace_open(const char *path, char *err, size_t errlen)
{
    int e;
    ctrace *t = calloc(1, sizeof *t);
    if (!t) {
        e = ENOMEM;
        goto fail;
    }
    if (!path || !*path) {
        e = EINVAL;
        goto fail;
    }
    errno = 0;
    t->f = fopen(path, "w");
    if (!t->f) {
        e = errno ? errno : EIO;
        goto fail;
    }
    ct_write(t, ct_header, sizeof ct_header - 1);
    return t;

fail:
    free(t);
    if (err && errlen)
        snprintf(err, errlen, "cannot create trace file %s: %s", path ? path : "(null)",
                 strerror(e));
    return NULL;
}

int ctrace_close(ctrace *t)
{
    if (!t)
        return 0;
    ct_write(t, "\n]}\n", 4);
    errno = 0;
    if (fflush(t->f) != 0 || ferror(t->f))
        ct_fail(t, errno);
    errno = 0;
    if (fclose(t->f) != 0)
        ct_fail(t, errno);
    int e = t->err;
    sb_free(&t->ev);
    free(t);
    if (e) {
        errno = e;
        return -1;
    }
    return 0;
}

int ctrace_failed(const ctrace *t) { return t && t->err; }

/* A metadata event: {"ph":"M","pid":..[,"tid":..],"name":what,"args":{key:...}}
 * with the argument a string (sval) or an integer (ival, when sval is NULL). */
static void ct_meta(ctrace *t, uint32_t pid, const uint32_t *tid, const char *what,
                    const char *key, const char *sval, int32_t ival)
{
    if (!t || ct_begin(t, "M", pid))
        return;
    if (tid)
        sb_printf(&t->ev, ",\"tid\":%" PRIu32, *tid);
    ct_key(&t->ev, "name");
    sb_json_string(&t->ev, what);
    sb_puts(&t->ev, ",\"args\":{");
    sb_json_string(&t->ev, key);
    sb_putc(&t->ev, ':');
    if (sval)
        sb_json_string(&t->ev, sval);
    else
        sb_printf(&t->ev, "%" PRId32, ival);
    sb_putc(&t->ev, '}');
    ct_end(t);
}

void ctrace_process_name(ctrace *t, uint32_t pid, const char *name)
{
    ct_meta(t, pid, NULL, "process_name", "name", name ? name : "", 0);
}

void ctrace_thread_name(ctrace *t, uint32_t pid, uint32_t tid, const char *name)
{
    ct_meta(t, pid, &tid, "thread_name", "name", name ? name : "", 0);
}

void ctrace_process_sort(ctrace *t, uint32_t pid, int32_t index)
{
    ct_meta(t, pid, NULL, "process_sort_index", "sort_index", NULL, index);
}

void ctrace_thread_sort(ctrace *t, uint32_t pid, uint32_t tid, int32_t index)
{
    ct_meta(t, pid, &tid, "thread_sort_index", "sort_index", NULL, index);
}

void ctrace_complete(ctrace *t, uint32_t pid, uint32_t tid, const char *name,
                     const char *cat, double ts_us, double dur_us, const char *args_json)
{
    if (!t || ct_begin(t, "X", pid))
        return;
    sb_printf(&t->ev, ",\"tid\":%" PRIu32, tid);
    ct_key(&t->ev, "name");
    sb_json_string(&t->ev, name);
    if (cat) {
        ct_key(&t->ev, "cat");
        sb_json_string(&t->ev, cat);
    }
    ct_key(&t->ev, "ts");
    ct_fixed3(&t->ev, ts_us);
    ct_key(&t->ev, "dur");
    ct_fixed3(&t->ev, dur_us);
    if (args_json && *args_json) {
        ct_key(&t->ev, "args");
        sb_puts(&t->ev, args_json);
    }
    ct_end(t);
}

void ctrace_counter(ctrace *t, uint32_t pid, const char *name, double ts_us, uint32_t n,
                    const char *const *series, const double *values)
{
    if (!t || ct_begin(t, "C", pid))
        return;
    ct_key(&t->ev, "name");
    sb_json_string(&t->ev, name);
    ct_key(&t->ev, "ts");
    ct_fixed3(&t->ev, ts_us);
    sb_puts(&t->ev, ",\"args\":{");
    for (uint32_t i = 0; series && values && i < n; i++) {
        if (i)
            sb_putc(&t->ev, ',');
        sb_json_string(&t->ev, series[i]);
        sb_putc(&t->ev, ':');
        ct_general(&t->ev, values[i]);
    }
    sb_putc(&t->ev, '}');
    ct_end(t);
}

void ctrace_instant(ctrace *t, uint32_t pid, uint32_t tid, const char *name, double ts_us)
{
    if (!t || ct_begin(t, "i", pid))
        return;
    sb_printf(&t->ev, ",\"tid\":%" PRIu32, tid);
    ct_key(&t->ev, "name");
    sb_json_string(&t->ev, name);
    sb_puts(&t->ev, ",\"s\":\"t\"");
    ct_key(&t->ev, "ts");
    ct_fixed3(&t->ev, ts_us);
    ct_end(t);
}
