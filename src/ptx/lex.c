/*
 * lex.c -- the PTX lexer of lex.h.  A hand-written scanner over the source
 * buffer: no allocation, no global state, every token tagged with its line
 * and column (1-based, columns counting bytes).
 */
#include "ptx/lex.h"

#include <stdlib.h>
#include <string.h>

void lex_init(lexer *lx, const char *src, size_t len)
{
    lx->src = src;
    lx->len = len;
    lx->pos = 0;
    lx->line = 1;
    lx->line_start = 0;
    lx->open_comment = 0;
    lx->open_line = lx->open_col = 0;
}

static int is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}

static int is_ident_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$';
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int peekc(const lexer *lx, size_t k)
{
    return lx->pos + k < lx->len ? (unsigned char)lx->src[lx->pos + k] : -1;
}

/* Skip whitespace and comments; returns 1 if anything was skipped.  An
 * unterminated block comment is remembered (lx->open_comment) and becomes
 * an error token at the end of the input. */
static int skip_space(lexer *lx)
{
    int skipped = 0;
    while (lx->pos < lx->len) {
        int c = peekc(lx, 0);
        if (c == '\n') {
            lx->pos++;
            lx->line++;
            lx->line_start = (uint32_t)lx->pos;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->pos++;
        } else if (c == '/' && peekc(lx, 1) == '/') {
            while (lx->pos < lx->len && lx->src[lx->pos] != '\n')
                lx->pos++;
        } else if (c == '/' && peekc(lx, 1) == '*') {
            lx->open_line = lx->line;
            lx->open_col = (uint32_t)(lx->pos - lx->line_start) + 1;
            lx->pos += 2;
            while (lx->pos < lx->len && !(lx->src[lx->pos] == '*' && peekc(lx, 1) == '/')) {
                if (lx->src[lx->pos] == '\n') {
                    lx->line++;
                    lx->line_start = (uint32_t)lx->pos + 1;
                }
                lx->pos++;
            }
            if (lx->pos + 2 <= lx->len)
                lx->pos += 2;
            else {
                lx->pos = lx->len;
                lx->open_comment = 1;
            }
        } else {
            break;
        }
        skipped = 1;
    }
    return skipped;
}

static token make_error(token t, const char *msg)
{
    t.kind = TK_ERROR;
    t.text = msg;
    t.len = (uint32_t)strlen(msg);
    return t;
}

/* Hex float literal 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX; pos is at the '0'. */
static token lex_hexfloat(lexer *lx, token t, int ndigits)
{
    uint64_t v = 0;
    size_t p = lx->pos + 2;
    int n = 0;
    while (p < lx->len && hexval((unsigned char)lx->src[p]) >= 0) {
        v = (v << 4) | (uint64_t)hexval((unsigned char)lx->src[p]);
        p++;
        n++;
    }
    t.len = (uint32_t)(p - lx->pos);
    lx->pos = p;
    if (n != ndigits)
        return make_error(t, ndigits == 8 ? "an f32 literal 0f needs exactly 8 hex digits"
                                          : "an f64 literal 0d needs exactly 16 hex digits");
    if (p < lx->len && is_ident_char((unsigned char)lx->src[p]))
        return make_error(t, "malformed floating-point literal");
    t.kind = ndigits == 8 ? TK_F32 : TK_F64;
    t.bits = v;
    return t;
}

static token lex_number(lexer *lx, token t)
{
    size_t start = lx->pos;
    int c1 = peekc(lx, 1);
    if (peekc(lx, 0) == '0' && (c1 == 'f' || c1 == 'F') && hexval(peekc(lx, 2)) >= 0)
        return lex_hexfloat(lx, t, 8);
    if (peekc(lx, 0) == '0' && (c1 == 'd' || c1 == 'D') && hexval(peekc(lx, 2)) >= 0)
        return lex_hexfloat(lx, t, 16);

    /* Decimal floating literal: digits '.' digits, or digits with exponent. */
    size_t p = start;
    while (p < lx->len && lx->src[p] >= '0' && lx->src[p] <= '9')
        p++;
    int is_float = 0;
    if (p < lx->len && lx->src[p] == '.' && p + 1 < lx->len && lx->src[p + 1] >= '0' &&
        lx->src[p + 1] <= '9')
        is_float = 1;
    if (p < lx->len && (lx->src[p] == 'e' || lx->src[p] == 'E') && !(c1 == 'x' || c1 == 'X'))
        is_float = 1;
    if (is_float) {
        char buf[128];
        size_t q = start;
        while (q < lx->len && q - start < sizeof buf - 1 &&
               ((lx->src[q] >= '0' && lx->src[q] <= '9') || lx->src[q] == '.' ||
                lx->src[q] == 'e' || lx->src[q] == 'E' ||
                ((lx->src[q] == '+' || lx->src[q] == '-') &&
                 (lx->src[q - 1] == 'e' || lx->src[q - 1] == 'E'))))
            q++;
        memcpy(buf, lx->src + start, q - start);
        buf[q - start] = 0;
        char *end;
        double d = strtod(buf, &end);
        t.len = (uint32_t)(q - start);
        lx->pos = q;
        if (*end)
            return make_error(t, "malformed floating-point literal");
        /* ptxas: "Constant overflow" for a decimal literal beyond .f64's
         * range (1e999); one that only overflows .f32 rounds to infinity */
        if (d > 1.7976931348623157e308 || d < -1.7976931348623157e308)
            return make_error(t, "floating-point constant overflow: beyond the range of .f64");
        t.kind = TK_F64;
        memcpy(&t.bits, &d, sizeof d);
        return t;
    }

    int base = 10;
    p = start;
    if (lx->src[p] == '0' && (c1 == 'x' || c1 == 'X')) {
        base = 16;
        p += 2;
    } else if (lx->src[p] == '0' && (c1 == 'b' || c1 == 'B')) {
        base = 2;
        p += 2;
    } else if (lx->src[p] == '0' && c1 >= '0' && c1 <= '7') {
        base = 8;
        p += 1;
    }
    size_t digits = p;
    uint64_t v = 0;
    int overflow = 0;
    while (p < lx->len) {
        int d = hexval((unsigned char)lx->src[p]);
        if (d < 0 || d >= base)
            break;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            overflow = 1;
        v = v * (uint64_t)base + (uint64_t)d;
        p++;
    }
    t.len = (uint32_t)(p - start);
    lx->pos = p;
    if (p == digits && base != 8)
        return make_error(t, "malformed integer literal");
    if (p < lx->len && (lx->src[p] == 'U' || lx->src[p] == 'u')) {
        t.unsigned_suffix = 1;
        lx->pos++;
        p++;
        t.len++;
    }
    if (p < lx->len && is_ident_char((unsigned char)lx->src[p]))
        return make_error(t, "malformed integer literal");
    t.kind = TK_INT;
    t.bits = v;
    t.int_overflow = (uint8_t)overflow;
    return t;
}

token lex_next(lexer *lx)
{
    token t;
    memset(&t, 0, sizeof t);
    t.space_before = (uint8_t)skip_space(lx);
    t.line = lx->line;
    t.col = (uint32_t)(lx->pos - lx->line_start) + 1;
    t.text = lx->src + lx->pos;
    if (lx->pos >= lx->len) {
        t.kind = TK_EOF;
        if (lx->open_comment) { /* reported once, where it opened */
            lx->open_comment = 0;
            t.line = lx->open_line;
            t.col = lx->open_col;
            return make_error(t, "unterminated block comment: /* without a closing */");
        }
        return t;
    }
    int c = peekc(lx, 0);
    int c1 = peekc(lx, 1);
    if (c == '.' && ((is_ident_start(c1) && c1 != '%') || (c1 >= '0' && c1 <= '9'))) {
        /* .name; also .1d/.2d/.3d (texture geometries) */
        size_t p = lx->pos + 1;
        while (p < lx->len && is_ident_char((unsigned char)lx->src[p]))
            p++;
        /* qualified modifiers: .shared::cta, .L2::128B, .level::eviction_priority */
        while (p + 2 < lx->len && lx->src[p] == ':' && lx->src[p + 1] == ':' &&
               is_ident_char((unsigned char)lx->src[p + 2])) {
            p += 2;
            while (p < lx->len && is_ident_char((unsigned char)lx->src[p]))
                p++;
        }
        t.kind = TK_DOTNAME;
        t.len = (uint32_t)(p - lx->pos);
        lx->pos = p;
        return t;
    }
    if (is_ident_start(c)) {
        size_t p = lx->pos + 1;
        while (p < lx->len && is_ident_char((unsigned char)lx->src[p]))
            p++;
        if (p == lx->pos + 1 && (c == '%' || c == '$')) {
            lx->pos = p;
            t.len = 1;
            return make_error(t, "a name needs a character after '%' or '$'");
        }
        t.kind = TK_IDENT;
        t.len = (uint32_t)(p - lx->pos);
        lx->pos = p;
        return t;
    }
    if (c >= '0' && c <= '9')
        return lex_number(lx, t);
    if (c == '"') {
        size_t p = lx->pos + 1;
        while (p < lx->len && lx->src[p] != '"' && lx->src[p] != '\n') {
            if (lx->src[p] == '\\' && p + 1 < lx->len && lx->src[p + 1] != '\n')
                p++;
            p++;
        }
        if (p >= lx->len || lx->src[p] != '"') {
            t.len = (uint32_t)(p - lx->pos);
            lx->pos = p;
            return make_error(t, "unterminated string");
        }
        t.kind = TK_STRING;
        t.text = lx->src + lx->pos + 1;
        t.len = (uint32_t)(p - lx->pos - 1);
        lx->pos = p + 1;
        return t;
    }
    if (strchr(",;:()[]{}<>+-*/%!@|&^~=?", c)) {
        t.kind = TK_PUNCT;
        t.punct = (char)c;
        t.len = 1;
        lx->pos++;
        return t;
    }
    lx->pos++;
    t.len = 1;
    return make_error(t, "unexpected character");
}

int tok_is(const token *t, const char *s)
{
    size_t n = strlen(s);
    return (t->kind == TK_IDENT || t->kind == TK_DOTNAME) && t->len == n &&
           memcmp(t->text, s, n) == 0;
}

int tok_is_punct(const token *t, char c) { return t->kind == TK_PUNCT && t->punct == c; }
