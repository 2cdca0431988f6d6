/*
 * strbuf.c -- the growable string of strbuf.h.
 */
#include "util/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sb_reserve(strbuf *sb, size_t extra)
{
    if (sb->oom)
        return -1;
    if (sb->len + extra + 1 <= sb->cap)
        return 0;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *s = realloc(sb->s, cap);
    if (!s) {
        sb->oom = 1;
        return -1;
    }
    sb->s = s;
    sb->cap = cap;
    return 0;
}

void sb_append(strbuf *sb, const char *s, size_t n)
{
    if (sb_reserve(sb, n))
        return;
    memcpy(sb->s + sb->len, s, n);
    sb->len += n;
    sb->s[sb->len] = 0;
}

void sb_puts(strbuf *sb, const char *s) { sb_append(sb, s, strlen(s)); }

void sb_putc(strbuf *sb, char c) { sb_append(sb, &c, 1); }

void sb_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        sb_append(sb, small, (size_t)n);
        return;
    }
    if (sb_reserve(sb, (size_t)n))
        return;
    vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

void sb_clear(strbuf *sb)
{
    sb->len = 0;
    if (sb->s)
        sb->s[0] = 0;
}

void sb_free(strbuf *sb)
{
    free(sb->s);
    sb->s = NULL;
    sb->len = sb->cap = 0;
    sb->oom = 0;
}

const char *sb_cstr(const strbuf *sb) { return sb->s ? sb->s : ""; }

char *sb_detach(strbuf *sb)
{
    char *s = sb->s;
    if (!s) {
        s = malloc(1);
        if (s)
            s[0] = 0;
    }
    sb->s = NULL;
    sb->len = sb->cap = 0;
    return s;
}

int sb_read_file(strbuf *sb, const char *path, size_t max)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char buf[65536];
    size_t n, total = 0;
    int rc = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (n > max - total) { /* a file past the cap, or one that never ends */
            rc = -3;
            break;
        }
        total += n;
        sb_append(sb, buf, n);
        if (sb->oom) {
            rc = -2;
            break;
        }
    }
    if (!rc && ferror(f))
        rc = -1;
    int saved = errno;
    fclose(f);
    errno = saved;
    return rc;
}

/* Append s as a JSON string literal, quotes included: '"' and '\\' and the
 * control characters escaped, bytes >= 0x80 passed through. */
void sb_json_string(strbuf *sb, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    if (!s)
        s = "";
    sb_putc(sb, '"');
    const char *run = s; /* start of the bytes not yet appended */
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        sb_append(sb, run, (size_t)(s - run));
        run = s + 1;
        char esc[7] = {'\\', 0};
        size_t n = 2;
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            n = 6;
            break;
        }
        sb_append(sb, esc, n);
    }
    sb_append(sb, run, (size_t)(s - run));
    sb_putc(sb, '"');
}
