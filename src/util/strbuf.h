/*
 * strbuf.h -- a growable NUL-terminated string.  Used for diagnostics,
 * printf output and CLI listings.  Out of host memory sets `oom` and drops
 * further text instead of failing each call: callers check it once at the end.
 */
#ifndef LOCKSTEP_STRBUF_H
#define LOCKSTEP_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
    char *s;     /* NUL-terminated when len > 0 or after any append; may be NULL when empty */
    size_t len;
    size_t cap;
    int oom;
} strbuf;

#define STRBUF_INIT {NULL, 0, 0, 0}

void sb_append(strbuf *sb, const char *s, size_t n);
void sb_puts(strbuf *sb, const char *s);
void sb_putc(strbuf *sb, char c);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *sb, const char *fmt, va_list ap);
void sb_clear(strbuf *sb);            /* len = 0, keeps the memory */
void sb_free(strbuf *sb);             /* releases the memory */
const char *sb_cstr(const strbuf *sb); /* never NULL */
/* Append s (NULL: "") as a JSON string literal, quotes included: '"', '\\'
 * and the control characters escaped, bytes >= 0x80 passed through. */
void sb_json_string(strbuf *sb, const char *s);
char *sb_detach(strbuf *sb);          /* malloc'd copy owner transfer; NULL on OOM */
/* Append the whole file at path, at most max bytes: 0; -1 if it cannot be
 * opened or read (errno says why); -2 if the host is out of memory; -3 if
 * it holds more than max bytes (or never ends, like /dev/zero).  Reading
 * stops at the first failure. */
int sb_read_file(strbuf *sb, const char *path, size_t max);

/* Input size caps (bytes): a configuration file, a PTX file. */
#define SB_MAX_CONFIG (16u << 20)
#define SB_MAX_PTX (512u << 20)

#endif
