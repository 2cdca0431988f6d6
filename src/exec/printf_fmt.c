/*
 * printf_fmt.c -- formatting of device printf (printf_fmt.h): the executor
 * hands over the format string and the argument buffer nvcc built for
 * vprintf(fmt, buf); this file walks the format, takes each argument from
 * the buffer at the offset nvcc gave it, and appends the text to a strbuf.
 *
 * DESIGN
 *
 * The buffer carries no types, so, as CUDA's own vprintf does, the format
 * decides them: a conversion's size is that of its default-promoted C type
 * on a 64-bit Linux host (4 bytes for int-sized and smaller integers and
 * %c, 8 for l/ll/z/j/t/L integers, pointers, %s, %n and every floating
 * conversion, since float travels as double), and each argument sits at the
 * next offset aligned to its size.
 *
 * Numbers are formatted by the host's snprintf, one conversion at a time,
 * through a format rebuilt here from the parsed fields.  The rebuilt format
 * never contains what C leaves undefined: the length modifier is exactly
 * the one the value passed has ("ll" with long long for 8-byte integers,
 * "hh"/"h"/none with int for 4-byte ones, none with double), and flags or a
 * precision a conversion does not define ('#' on %d, '0' on %c) are dropped.
 * %c, %s and %p are padded here; %p prints like glibc ("0x..." or "(nil)")
 * whatever the host, so the output does not depend on the host's libc.
 *
 * Following the CUDA Programming Guide ("Formatted Output"): at most 32
 * arguments are taken; a conversion that would need more is printed as
 * written.  Width and precision are clamped to FMT_MAX_FIELD so a kernel
 * cannot ask the host for gigabytes of padding.
 */
#include "exec/printf_fmt.h"

#include <stdio.h>
#include <string.h>

#define FMT_MAX_ARGS 32           /* CUDA: "at most 32 arguments" */
#define FMT_MAX_FIELD 65536       /* clamp for width and precision */
#define FMT_MAX_STRING 65536      /* longest %s read from device memory */
#define FMT_CHUNK 64              /* %s reads in aligned chunks of this size */

static const char missing_marker[] = "<printf: missing arguments>";

/* One parsed conversion specification. */
typedef struct spec {
    int minus, plus, space, hash, zero;
    int width;     /* -1: none */
    int prec;      /* -1: none */
    int width_star, prec_star;
    char len[3];   /* length modifier as written: "", "hh", "h", "l", "ll", "z", "j", "t", "L" */
    char conv;     /* conversion character, 0 at end of string */
} spec;

/* Take the next argument of `size` bytes (4 or 8), little-endian as on the
 * device, at the next offset aligned to its size; -1 if it is not there. */
static int take_arg(const uint8_t *args, size_t args_len, size_t *off, unsigned size,
                    uint64_t *v)
{
    size_t o = (*off + size - 1) & ~(size_t)(size - 1);
    if (o < *off || o > args_len || size > args_len - o)
        return -1;
    uint64_t x = 0;
    for (unsigned i = 0; i < size; i++)
        x |= (uint64_t)args[o + i] << (8 * i);
    *v = x;
    *off = o + size;
    return 0;
}

/* Parse a run of decimal digits, saturating at FMT_MAX_FIELD. */
static int parse_num(const char **pp)
{
    const char *p = *pp;
    int n = 0;
    while (*p >= '0' && *p <= '9') {
        n = n * 10 + (*p - '0');
        if (n > FMT_MAX_FIELD)
            n = FMT_MAX_FIELD;
        p++;
    }
    *pp = p;
    return n;
}

/* spec := '%' flags* (digits | '*')? ('.' (digits | '*')?)? length? conv
 * Parse from just after the '%'; *pp is left after the conversion character
 * (or at the terminating NUL when the string ends inside the spec). */
static void parse_spec(const char **pp, spec *s)
{
    const char *p = *pp;
    memset(s, 0, sizeof *s);
    s->width = s->prec = -1;
    for (;; p++) {
        if (*p == '-')
            s->minus = 1;
        else if (*p == '+')
            s->plus = 1;
        else if (*p == ' ')
            s->space = 1;
        else if (*p == '#')
            s->hash = 1;
        else if (*p == '0')
            s->zero = 1;
        else
            break;
    }
    if (*p == '*') {
        s->width_star = 1;
        p++;
    } else if (*p >= '1' && *p <= '9') {
        s->width = parse_num(&p);
    }
    if (*p == '.') {
        p++;
        if (*p == '*') {
            s->prec_star = 1;
            p++;
        } else {
            s->prec = parse_num(&p); /* "." alone means precision 0 */
        }
    }
    if ((p[0] == 'h' && p[1] == 'h') || (p[0] == 'l' && p[1] == 'l')) {
        s->len[0] = p[0];
        s->len[1] = p[1];
        p += 2;
    } else if (*p && strchr("hlzjtL", *p)) {
        s->len[0] = *p++;
    }
    s->conv = *p;
    if (*p)
        p++;
    *pp = p;
}

/* Bytes of argument the conversion takes: 0 for none (%%, unknown). */
static unsigned conv_arg_size(const spec *s)
{
    switch (s->conv) {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
        return (s->len[0] == 'l' || s->len[0] == 'z' || s->len[0] == 'j' ||
                s->len[0] == 't' || s->len[0] == 'L') ? 8 : 4;
    case 'c':
        return 4;
    case 's': case 'p': case 'n':
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
        return 8;
    default:
        return 0;
    }
}

/* Build the single-conversion host format: '%', the flags allowed for the
 * conversion, width, precision, `len` and `conv`. */
static void host_format(char *buf, size_t cap, const spec *s, int allow_hash, int allow_sign,
                        const char *len, char conv)
{
    char flags[8];
    size_t n = 0;
    if (s->minus)
        flags[n++] = '-';
    if (s->plus && allow_sign)
        flags[n++] = '+';
    if (s->space && allow_sign)
        flags[n++] = ' ';
    if (s->hash && allow_hash)
        flags[n++] = '#';
    if (s->zero)
        flags[n++] = '0';
    flags[n] = 0;
    char w[16] = "", pr[16] = "";
    if (s->width >= 0)
        snprintf(w, sizeof w, "%d", s->width);
    if (s->prec >= 0)
        snprintf(pr, sizeof pr, ".%d", s->prec);
    snprintf(buf, cap, "%%%s%s%s%s%c", flags, w, pr, len, conv);
}

/* Append n spaces. */
static void pad(strbuf *out, int n)
{
    static const char spaces[] = "                                ";
    while (n > 0) {
        int k = n < (int)sizeof spaces - 1 ? n : (int)sizeof spaces - 1;
        sb_append(out, spaces, (size_t)k);
        n -= k;
    }
}

/* Append text padded with spaces to the spec's width. */
static void put_padded(strbuf *out, const spec *s, const char *text, size_t n)
{
    int fill = s->width > 0 && (size_t)s->width > n ? s->width - (int)n : 0;
    if (!s->minus)
        pad(out, fill);
    sb_append(out, text, n);
    if (s->minus)
        pad(out, fill);
}

/* Append the NUL-terminated string at device address addr, at most max
 * bytes.  Reads go in aligned chunks; a chunk that cannot be read whole is
 * retried byte by byte, so a string ending just before unreadable memory
 * is still found.  Returns the bytes appended, or -1 if not even the first
 * byte is readable. */
static long append_device_string(strbuf *out, printf_read_fn rd, void *ud, uint64_t addr,
                                 size_t max)
{
    if (!addr || !rd)
        return -1;
    size_t got = 0;
    uint8_t buf[FMT_CHUNK];
    while (got < max) {
        uint64_t a = addr + got;
        size_t want = FMT_CHUNK - (size_t)(a & (FMT_CHUNK - 1));
        if (want > max - got)
            want = max - got;
        size_t n = want;
        if (rd(ud, a, buf, want)) {
            n = 0;
            while (n < want && rd(ud, a + n, buf + n, 1) == 0)
                n++;
            if (n == 0)
                return got ? (long)got : -1;
        }
        const uint8_t *z = memchr(buf, 0, n);
        size_t take = z ? (size_t)(z - buf) : n;
        sb_append(out, (const char *)buf, take);
        got += take;
        if (z || n < want)
            break; /* at the NUL, or at unreadable memory */
    }
    return (long)got;
}

/* %s: the string, cut to the precision, padded to the width. */
static void put_string(strbuf *out, const spec *s, uint64_t addr, printf_read_fn rd, void *ud)
{
    size_t max = s->prec >= 0 && s->prec < FMT_MAX_STRING ? (size_t)s->prec : FMT_MAX_STRING;
    size_t start = out->len;
    long n = max ? append_device_string(out, rd, ud, addr, max) : 0;
    if (n < 0) {
        /* glibc prints "(null)" whole or, under a shorter precision, not at all */
        const char *null_text = max >= 6 ? "(null)" : "";
        put_padded(out, s, null_text, strlen(null_text));
        return;
    }
    if (out->oom)
        return;
    int fill = s->width > 0 && (size_t)s->width > (size_t)n ? s->width - (int)n : 0;
    if (fill == 0)
        return;
    pad(out, fill);
    if (!s->minus && !out->oom) {
        /* The string went in first (its length was unknown); move it
         * behind the padding. */
        memmove(out->s + start + fill, out->s + start, (size_t)n);
        memset(out->s + start, ' ', (size_t)fill);
    }
}

/* Format one conversion whose arguments were taken: v is its value, 4- or
 * 8-byte as conv_arg_size says. */
static void put_conv(strbuf *out, const spec *s, uint64_t v, unsigned size, printf_read_fn rd,
                     void *ud)
{
    char hf[64];
    switch (s->conv) {
    case 'd':
    case 'i':
        if (size == 8) {
            host_format(hf, sizeof hf, s, 0, 1, "ll", 'd');
            sb_printf(out, hf, (long long)v);
        } else {
            const char *len = s->len[0] == 'h' ? s->len : "";
            host_format(hf, sizeof hf, s, 0, 1, len, 'd');
            sb_printf(out, hf, (int)(int32_t)(uint32_t)v);
        }
        break;
    case 'u':
    case 'o':
    case 'x':
    case 'X':
        if (size == 8) {
            host_format(hf, sizeof hf, s, s->conv != 'u', 0, "ll", s->conv);
            sb_printf(out, hf, (unsigned long long)v);
        } else {
            const char *len = s->len[0] == 'h' ? s->len : "";
            host_format(hf, sizeof hf, s, s->conv != 'u', 0, len, s->conv);
            sb_printf(out, hf, (unsigned)(uint32_t)v);
        }
        break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
        double d;
        memcpy(&d, &v, sizeof d);
        host_format(hf, sizeof hf, s, 1, 1, "", s->conv);
        sb_printf(out, hf, d);
        break;
    }
    case 'c': {
        char ch = (char)(uint8_t)v;
        put_padded(out, s, &ch, 1);
        break;
    }
    case 's':
        put_string(out, s, v, rd, ud);
        break;
    case 'p':
        if (v == 0) {
            put_padded(out, s, "(nil)", 5);
        } else {
            spec ps = *s;
            ps.hash = 1;
            host_format(hf, sizeof hf, &ps, 1, 0, "ll", 'x');
            sb_printf(out, hf, (unsigned long long)v);
        }
        break;
    default: /* 'n': nothing to print */
        break;
    }
}

int printf_format(const char *fmt, const uint8_t *args, size_t args_len, printf_read_fn rd,
                  void *ud, strbuf *out)
{
    size_t off = 0;
    int used = 0;
    const char *p = fmt;
    while (*p) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            size_t n = q ? (size_t)(q - p) : strlen(p);
            sb_append(out, p, n);
            p += n;
            continue;
        }
        const char *text = p++;
        spec s;
        parse_spec(&p, &s);
        if (s.conv == '%') {
            sb_putc(out, '%');
            continue;
        }
        unsigned size = conv_arg_size(&s);
        int need = size ? 1 + s.width_star + s.prec_star : 0;
        if (!size || used + need > FMT_MAX_ARGS) {
            /* Unknown conversion, the string ended inside the spec, or
             * past CUDA's argument limit: print the spec as written. */
            sb_append(out, text, (size_t)(p - text));
            continue;
        }
        uint64_t v;
        if (s.width_star) {
            if (take_arg(args, args_len, &off, 4, &v))
                goto missing;
            int64_t w = (int32_t)(uint32_t)v;
            if (w < 0) {
                s.minus = 1;
                w = -w;
            }
            s.width = w > FMT_MAX_FIELD ? FMT_MAX_FIELD : (int)w;
        }
        if (s.prec_star) {
            if (take_arg(args, args_len, &off, 4, &v))
                goto missing;
            int32_t pr = (int32_t)(uint32_t)v;
            s.prec = pr < 0 ? -1 : pr > FMT_MAX_FIELD ? FMT_MAX_FIELD : pr;
        }
        if (take_arg(args, args_len, &off, size, &v))
            goto missing;
        used += need;
        put_conv(out, &s, v, size, rd, ud);
    }
    return used;

missing:
    /* The format asked for more than the buffer holds: keep what was
     * formatted and say why the rest is absent. */
    sb_append(out, missing_marker, sizeof missing_marker - 1);
    return -1;
}
