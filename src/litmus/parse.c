/*
 * parse.c -- the litmus-test front end: text to one lit_test (litmus.h).
 *
 * Three formats share one grammar and differ in a few places:
 *
 *   test     := header init code [scopetree] [memmap] [locations] cond EOF
 *   header   := ('GPU_PTX' | 'PTX') NAME STRING*
 *   init     := '{' (entry ';')* [entry] '}'
 *   code     := threads ';' (row ';')*       one row per line, cells split by '|'
 *   scopetree:= ('ScopeTree' | 'scopeTree') sexpr
 *   memmap   := LOC ':' REGION (',' LOC ':' REGION)*
 *   locations:= 'locations' '[' (item ';')* [item] ']'
 *   cond     := ('exists' | '~' 'exists' | 'forall') formula
 *
 * "GPU_PTX" with threads T0 | T1 is the thesis's format (registers declared
 * with ".reg", a ScopeTree and a full memory map required); "GPU_PTX" with
 * P0 | P1 is herd's 2015 dialect (registers typed by use, scopeTree);
 * "PTX" is the scoped memory-model syntax ("P0@cta 0,gpu 0", locations
 * global unless a memory map says otherwise).
 *
 * DESIGN
 *   - The lexer works on (text, len), never past len, and needs no NUL.  It
 *     keeps a three-token lookahead; each token knows whether a newline came
 *     before it, which is how a code row missing its ';' is caught.
 *   - Names resolve while parsing: a word in an operand is a register of the
 *     thread if it is one, or looks like one (r3, p0, %r1), else a location.
 *     What needs the whole test (undeclared types, location types, branch
 *     targets, the memory map, shared memory across CTAs) is checked by
 *     finish() once everything is read.
 *   - Every error is one "file:line:col: error: ..." line.  After an error in
 *     an instruction the parser skips to the next cell and goes on; any other
 *     error ends the parse.  At most MAX_ERRORS lines are written.
 *   - Memory is the lit_test the caller gave and the parser state on the
 *     stack (a few KiB): no allocation at all.  Recursion (scope tree, formula) is
 *     bounded by MAX_DEPTH.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus.h"

#define MAX_ERRORS 20
#define MAX_DEPTH 64

/* Tokens ------------------------------------------------------------------ */

enum {
    K_EOF, K_WORD, K_NUM, K_STR, K_LBRACE, K_RBRACE, K_LPAR, K_RPAR, K_LBRACK, K_RBRACK,
    K_SEMI, K_COMMA, K_PIPE, K_COLON, K_EQ, K_EQEQ, K_NE, K_AT, K_BANG, K_TILDE,
    K_PLUS, K_MINUS, K_AND, K_OR, K_IMPL, K_BAD,
};

typedef struct ltok {
    int k;
    const char *s;  /* the token's text, inside the input */
    size_t n;
    int line, col;  /* where it starts */
    int eline, ecol; /* just past its end */
    int nl;         /* a newline came between the previous token and this one */
    uint64_t u;     /* K_NUM: its value (two's complement for big hex) */
} ltok;

/* Registers: what the parser knows beyond lit_reg. */
typedef struct reg_info {
    int typed;      /* declared with .reg (or a setp destination, thesis format) */
    int line, col;  /* first mention */
} reg_info;

typedef struct loc_info {
    int explicit_type;
    int line, col;          /* first mention */
    int init_line, init_col; /* its entry in the initial state, if any */
    int map_line, map_col;  /* its memory-map entry, if any */
    int in_map;
} loc_info;

typedef struct parser {
    const char *text;
    size_t len, pos;
    int line, col;
    ltok la[3];
    int nla;
    int pe_line, pe_col; /* just past the last token consumed */
    const char *file;
    strbuf *err;
    int nerr, stop;
    lit_test *t;
    int arch_ptx;        /* "PTX" header: the scoped format */
    int thread_letter;   /* 'T' or 'P' once the code's header row is read */
    int depth;
    reg_info regs[LIT_MAX_THREADS][LIT_MAX_REGS];
    int thr_line[LIT_MAX_THREADS], thr_col[LIT_MAX_THREADS]; /* first init entry */
    loc_info locs[LIT_MAX_LOCS];
    int code_errors;
    int tree_line, tree_col;
} parser;

/* Errors ------------------------------------------------------------------ */

static void perr(parser *p, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void perr(parser *p, int line, int col, const char *fmt, ...)
{
    if (p->nerr >= MAX_ERRORS) {
        p->stop = 1;
        return;
    }
    p->nerr++;
    sb_printf(p->err, "%s:%d:%d: error: ", p->file, line, col);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(p->err, fmt, ap);
    va_end(ap);
    sb_putc(p->err, '\n');
    if (p->nerr >= MAX_ERRORS) {
        sb_printf(p->err, "%s:%d:%d: error: too many errors, giving up\n", p->file, line, col);
        p->stop = 1;
    }
}

/* A token for a message: 'text' (cut to 32 bytes), or what it is. */
static const char *describe(const ltok *t, char *buf, size_t n)
{
    switch (t->k) {
    case K_EOF: snprintf(buf, n, "end of file"); break;
    case K_STR: snprintf(buf, n, "a string"); break;
    case K_BAD: snprintf(buf, n, "a bad token"); break;
    default:
        if (t->n > 32)
            snprintf(buf, n, "'%.32s...'", t->s);
        else
            snprintf(buf, n, "'%.*s'", (int)t->n, t->s);
        break;
    }
    return buf;
}

/* Character classes (ASCII only, whatever the locale). */
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_word_start(int c) { return is_alpha(c) || c == '_' || c == '.' || c == '%' || c == '$'; }
static int is_word(int c) { return is_word_start(c) || is_digit(c); }
static int is_space(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/* Lexer ------------------------------------------------------------------- */

static int ch(const parser *p, size_t off)
{
    return p->pos + off < p->len ? (unsigned char)p->text[p->pos + off] : -1;
}

static void bump(parser *p)
{
    if (p->pos >= p->len)
        return;
    if (p->text[p->pos] == '\n') {
        if (p->line < INT_MAX)
            p->line++;
        p->col = 1;
    } else if (p->col < INT_MAX) {
        p->col++;
    }
    p->pos++;
}

/* Skip blanks and comments; 1 if a newline was skipped, -1 on an
 * unterminated comment (reported). */
static int skip_blank(parser *p)
{
    int nl = 0;
    for (;;) {
        int c = ch(p, 0);
        if (c == '\n') {
            nl = 1;
            bump(p);
        } else if (c >= 0 && is_space(c)) {
            bump(p);
        } else if (c == '(' && ch(p, 1) == '*') {
            /* (* ... *), nested as in herd and OCaml */
            int line = p->line, col = p->col;
            bump(p);
            bump(p);
            for (long depth = 1; depth;) {
                if (p->pos >= p->len) {
                    perr(p, line, col, "unterminated comment: '(*' without '*)'");
                    return -1;
                }
                if (ch(p, 0) == '*' && ch(p, 1) == ')') {
                    depth--;
                    bump(p);
                } else if (ch(p, 0) == '(' && ch(p, 1) == '*') {
                    depth++;
                    bump(p);
                }
                nl |= ch(p, 0) == '\n';
                bump(p);
            }
        } else if (c == '/' && ch(p, 1) == '/') {
            while (p->pos < p->len && ch(p, 0) != '\n')
                bump(p);
        } else {
            return nl;
        }
    }
}

/* Check a number token's text and compute its value. */
static int lex_number(parser *p, ltok *t)
{
    const char *s = t->s;
    size_t n = t->n, i = 0;
    uint64_t v = 0;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (i = 2; i < n; i++) {
            int c = (unsigned char)s[i], d;
            if (is_digit(c))
                d = c - '0';
            else if (c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
            else
                break;
            if (v >> 60) {
                perr(p, t->line, t->col, "number '%.*s' does not fit in 64 bits", (int)(n > 40 ? 40 : n), s);
                return -1;
            }
            v = v << 4 | (uint64_t)d;
        }
    } else {
        for (i = 0; i < n && is_digit((unsigned char)s[i]); i++) {
            uint64_t d = (uint64_t)(s[i] - '0');
            if (v > (UINT64_MAX - d) / 10) {
                perr(p, t->line, t->col, "number '%.*s' does not fit in 64 bits", (int)(n > 40 ? 40 : n), s);
                return -1;
            }
            v = v * 10 + d;
        }
    }
    if (i != n) {
        perr(p, t->line, t->col, "bad number '%.*s'", (int)(n > 40 ? 40 : n), s);
        return -1;
    }
    t->u = v;
    return 0;
}

static void lex_one(parser *p, ltok *t)
{
    memset(t, 0, sizeof *t);
    int nl = skip_blank(p);
    t->nl = nl > 0;
    t->line = p->line;
    t->col = p->col;
    t->s = p->text + p->pos;
    if (nl < 0) {
        t->k = K_BAD;
        p->pos = p->len;
        goto done;
    }
    int c = ch(p, 0);
    if (c < 0) {
        t->k = K_EOF;
        t->s = "";
        goto done;
    }
    if (is_word_start(c)) {
        t->k = K_WORD;
        while (ch(p, 0) >= 0 && is_word(ch(p, 0)))
            bump(p);
    } else if (is_digit(c)) {
        t->k = K_NUM;
        while (ch(p, 0) >= 0 && (is_word(ch(p, 0)) && ch(p, 0) != '.' && ch(p, 0) != '%'))
            bump(p);
        t->n = (size_t)(p->text + p->pos - t->s);
        if (lex_number(p, t))
            t->k = K_BAD;
    } else if (c == '"') {
        bump(p);
        while (p->pos < p->len && ch(p, 0) != '"')
            bump(p);
        if (p->pos >= p->len) {
            perr(p, t->line, t->col, "unterminated string: '\"' without its closing '\"'");
            t->k = K_BAD;
        } else {
            bump(p);
            t->k = K_STR;
        }
    } else {
        int two = 0;
        switch (c) {
        case '{': t->k = K_LBRACE; break;
        case '}': t->k = K_RBRACE; break;
        case '(': t->k = K_LPAR; break;
        case ')': t->k = K_RPAR; break;
        case '[': t->k = K_LBRACK; break;
        case ']': t->k = K_RBRACK; break;
        case ';': t->k = K_SEMI; break;
        case ',': t->k = K_COMMA; break;
        case '|': t->k = K_PIPE; break;
        case ':': t->k = K_COLON; break;
        case '@': t->k = K_AT; break;
        case '~': t->k = K_TILDE; break;
        case '+': t->k = K_PLUS; break;
        case '-': t->k = K_MINUS; break;
        case '=':
            t->k = ch(p, 1) == '=' ? K_EQEQ : ch(p, 1) == '>' ? K_IMPL : K_EQ;
            two = t->k != K_EQ;
            break;
        case '<': /* herd's other spelling of != */
            t->k = ch(p, 1) == '>' ? K_NE : K_BAD;
            two = t->k == K_NE;
            break;
        case '!':
            t->k = ch(p, 1) == '=' ? K_NE : K_BANG;
            two = t->k == K_NE;
            break;
        case '/':
            t->k = ch(p, 1) == '\\' ? K_AND : K_BAD;
            two = t->k == K_AND;
            break;
        case '\\':
            t->k = ch(p, 1) == '/' ? K_OR : K_BAD;
            two = t->k == K_OR;
            break;
        default: t->k = K_BAD; break;
        }
        if (t->k == K_BAD) {
            if (c > 0x20 && c < 0x7f)
                perr(p, t->line, t->col, "unexpected character '%c'", c);
            else
                perr(p, t->line, t->col, "unexpected byte 0x%02x", (unsigned)c);
        }
        bump(p);
        if (two)
            bump(p);
    }
done:
    t->n = (size_t)(p->text + p->pos - t->s);
    if (t->k == K_EOF)
        t->n = 0;
    t->eline = p->line;
    t->ecol = p->col;
}

static ltok *peek(parser *p, int k)
{
    while (p->nla <= k) {
        lex_one(p, &p->la[p->nla]);
        p->nla++;
    }
    return &p->la[k];
}

static void adv(parser *p)
{
    ltok *t = peek(p, 0);
    p->pe_line = t->eline;
    p->pe_col = t->ecol;
    memmove(&p->la[0], &p->la[1], sizeof p->la[0] * (size_t)(p->nla - 1));
    p->nla--;
}

static int tok_is(const ltok *t, const char *word)
{
    return t->k == K_WORD && t->n == strlen(word) && !memcmp(t->s, word, t->n);
}

/* Report "expected WHAT, found TOKEN" (nothing more for a token the lexer
 * already reported). */
static int expected(parser *p, const ltok *t, const char *what)
{
    if (t->k != K_BAD) {
        char buf[64];
        perr(p, t->line, t->col, "expected %s, found %s", what, describe(t, buf, sizeof buf));
    }
    return -1;
}

static int expect(parser *p, int k, const char *what)
{
    if (peek(p, 0)->k != k)
        return expected(p, peek(p, 0), what);
    adv(p);
    return 0;
}

/* Copy a word into a name buffer (LIT_MAX_NAME). */
static int take_name(parser *p, const ltok *t, char *dst, const char *what)
{
    if (t->n >= LIT_MAX_NAME) {
        perr(p, t->line, t->col, "%s name '%.32s...' is too long (at most %d characters)", what, t->s,
             LIT_MAX_NAME - 1);
        return -1;
    }
    memcpy(dst, t->s, t->n);
    dst[t->n] = 0;
    return 0;
}

/* Names ------------------------------------------------------------------- */

/* "T3" / "P3" -> 3 (and its letter), else -1. */
static int thread_name(const ltok *t, int *letter)
{
    if (t->k != K_WORD || t->n < 2 || t->n > 3 || (t->s[0] != 'T' && t->s[0] != 'P'))
        return -1;
    int v = 0;
    for (size_t i = 1; i < t->n; i++) {
        if (!is_digit((unsigned char)t->s[i]))
            return -1;
        v = v * 10 + (t->s[i] - '0');
    }
    if (letter)
        *letter = t->s[0];
    return v;
}

/* Does a word look like a register: r3, p0, %r1, %rd2, %p1? */
static int reg_like(const ltok *t)
{
    const char *s = t->s;
    size_t n = t->n, i = 0;
    if (n && s[0] == '%')
        return n > 1;
    if (n < 2 || (s[0] != 'r' && s[0] != 'p'))
        return 0;
    for (i = 1; i < n; i++)
        if (!is_digit((unsigned char)s[i]))
            return 0;
    return 1;
}

static int loc_like(const ltok *t)
{
    if (t->k != K_WORD || !(is_alpha((unsigned char)t->s[0]) || t->s[0] == '_'))
        return 0;
    for (size_t i = 0; i < t->n; i++)
        if (!is_alpha((unsigned char)t->s[i]) && !is_digit((unsigned char)t->s[i]) && t->s[i] != '_')
            return 0;
    return 1;
}

static int find_reg(const lit_thread *th, const char *s, size_t n)
{
    for (int r = 0; r < th->nregs; r++)
        if (strlen(th->regs[r].name) == n && !memcmp(th->regs[r].name, s, n))
            return r;
    return -1;
}

static int find_loc(const lit_test *t, const char *s, size_t n)
{
    for (int k = 0; k < t->nlocs; k++)
        if (strlen(t->locs[k].name) == n && !memcmp(t->locs[k].name, s, n))
            return k;
    return -1;
}

static const char *thread_label(const parser *p, int ti, char *buf, size_t n)
{
    snprintf(buf, n, "%c%d", p->thread_letter ? p->thread_letter : (p->arch_ptx ? 'P' : 'T'), ti);
    return buf;
}

/* A new register of thread ti named by token t. */
static int add_reg(parser *p, int ti, const ltok *t)
{
    lit_thread *th = &p->t->threads[ti];
    char tb[16];
    if (th->nregs >= LIT_MAX_REGS) {
        perr(p, t->line, t->col, "too many registers in thread %s (at most %d)",
             thread_label(p, ti, tb, sizeof tb), LIT_MAX_REGS);
        return -1;
    }
    lit_reg *g = &th->regs[th->nregs];
    if (take_name(p, t, g->name, "register"))
        return -1;
    g->type = LIT_S32;
    g->init_loc = -1;
    g->init = 0;
    p->regs[ti][th->nregs] = (reg_info){0, t->line, t->col};
    return th->nregs++;
}

/* The location named by token t, created on first mention. */
static int get_loc(parser *p, const ltok *t)
{
    lit_test *T = p->t;
    int k = find_loc(T, t->s, t->n);
    if (k >= 0)
        return k;
    if (!loc_like(t)) {
        char buf[64];
        perr(p, t->line, t->col, "expected a location name, found %s", describe(t, buf, sizeof buf));
        return -1;
    }
    if (T->nlocs >= LIT_MAX_LOCS) {
        perr(p, t->line, t->col, "too many locations (at most %d): '%.*s'", LIT_MAX_LOCS,
             (int)(t->n > 32 ? 32 : t->n), t->s);
        return -1;
    }
    lit_loc *l = &T->locs[T->nlocs];
    if (take_name(p, t, l->name, "location"))
        return -1;
    l->region = LIT_GLOBAL;
    l->type = LIT_S32;
    l->init = 0;
    p->locs[T->nlocs] = (loc_info){0, t->line, t->col, 0, 0, 0, 0, 0};
    return T->nlocs++;
}

/* Numbers ----------------------------------------------------------------- */

/* number := ['-'] NUM */
static int parse_number(parser *p, int64_t *out)
{
    ltok *t = peek(p, 0);
    int neg = 0, line = t->line, col = t->col;
    if (t->k == K_MINUS) {
        neg = 1;
        adv(p);
        t = peek(p, 0);
    }
    if (t->k != K_NUM)
        return expected(p, t, "a number");
    uint64_t u = t->u;
    adv(p);
    if (neg) {
        if (u > (uint64_t)1 << 63) {
            perr(p, line, col, "number is below the 64-bit range");
            return -1;
        }
        *out = (int64_t)(0 - u);
    } else {
        *out = (int64_t)u;
    }
    return 0;
}

/* Header and initial state ------------------------------------------------ */

static const struct { const char *name; lit_rtype type; } type_quals[] = {
    {".s32", LIT_S32}, {".u32", LIT_U32}, {".b32", LIT_B32}, {".s64", LIT_S64},
    {".u64", LIT_U64}, {".b64", LIT_B64}, {".pred", LIT_PRED},
};

static int ptx_type(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof type_quals / sizeof type_quals[0]; i++)
        if (strlen(type_quals[i].name) == n && !memcmp(type_quals[i].name, s, n))
            return (int)type_quals[i].type;
    return -1;
}

/* A location declaration's type word: C names and the PTX types. */
static int loc_type_word(const ltok *t)
{
    static const struct { const char *w; lit_rtype ty; } words[] = {
        {"int", LIT_S32}, {"int32_t", LIT_S32}, {"uint32_t", LIT_U32}, {"unsigned", LIT_U32},
        {"int64_t", LIT_S64}, {"uint64_t", LIT_U64},
    };
    if (t->k != K_WORD)
        return -1;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (tok_is(t, words[i].w))
            return (int)words[i].ty;
    int ty = ptx_type(t->s, t->n);
    return ty == LIT_PRED ? -1 : ty;
}

/* header := ('GPU_PTX' | 'PTX') NAME STRING*
 * The name is read as raw text (it may hold '+', '-', '.'). */
static int parse_header(parser *p)
{
    ltok *t = peek(p, 0);
    if (t->k == K_EOF) {
        perr(p, t->line, t->col,
             "empty test: expected 'GPU_PTX' or 'PTX' and a test name, found end of file");
        return -1;
    }
    if (tok_is(t, "GPU_PTX"))
        p->arch_ptx = 0;
    else if (tok_is(t, "PTX"))
        p->arch_ptx = 1;
    else
        return expected(p, t, "'GPU_PTX' or 'PTX' and a test name at the start of the test");
    /* nothing beyond this token is lexed yet: the name is read from the text */
    p->nla = 0;
    p->pos = (size_t)(t->s + t->n - p->text);
    p->line = t->eline;
    p->col = t->ecol;
    while (ch(p, 0) == ' ' || ch(p, 0) == '\t')
        bump(p);
    int line = p->line, col = p->col;
    size_t start = p->pos;
    while (ch(p, 0) > 0x20 && ch(p, 0) < 0x7f)
        bump(p);
    size_t n = p->pos - start;
    if (n == 0) {
        int c = ch(p, 0);
        if (c < 0 || c == '\n' || c == '\r')
            perr(p, line, col, "expected a test name after '%s', found end of line",
                 p->arch_ptx ? "PTX" : "GPU_PTX");
        else
            perr(p, line, col, "expected a test name after '%s', found byte 0x%02x",
                 p->arch_ptx ? "PTX" : "GPU_PTX", (unsigned)c);
        return -1;
    }
    if (n >= sizeof p->t->name) {
        perr(p, line, col, "test name is too long (at most %d characters)", (int)sizeof p->t->name - 1);
        return -1;
    }
    memcpy(p->t->name, p->text + start, n);
    p->t->name[n] = 0;
    while (peek(p, 0)->k == K_STR)
        adv(p);
    return 0;
}

/* value := number | LOC   (a location's address) */
static int parse_init_value(parser *p, int64_t *v, int *loc)
{
    ltok *t = peek(p, 0);
    *loc = -1;
    *v = 0;
    if (t->k == K_WORD) {
        int k = get_loc(p, t);
        if (k < 0)
            return -1;
        adv(p);
        *loc = k;
        return 0;
    }
    if (t->k != K_NUM && t->k != K_MINUS)
        return expected(p, t, "a number or a location name");
    return parse_number(p, v);
}

/* The thread index of an init entry or condition item: NUM or T3/P3. */
static int thread_ref(parser *p, const ltok *t)
{
    int v = -1;
    if (t->k == K_NUM)
        v = t->u < 1000 ? (int)t->u : 1000;
    else
        v = thread_name(t, NULL);
    if (v < 0)
        return expected(p, t, "a thread number");
    return v;
}

/* entry := THREAD ':' '.reg' TYPE NAME ['=' value]
 *        | THREAD ':' NAME '=' value */
static int parse_reg_entry(parser *p)
{
    ltok *t = peek(p, 0);
    int line = t->line, col = t->col;
    int ti = thread_ref(p, t);
    if (ti < 0)
        return -1;
    if (ti >= LIT_MAX_THREADS) {
        perr(p, line, col, "thread %d is out of range (at most %d threads)", ti, LIT_MAX_THREADS);
        return -1;
    }
    adv(p);
    if (expect(p, K_COLON, "':' after the thread number"))
        return -1;
    if (!p->thr_line[ti]) {
        p->thr_line[ti] = line;
        p->thr_col[ti] = col;
    }
    int typed = -1;
    t = peek(p, 0);
    if (tok_is(t, ".reg")) {
        adv(p);
        t = peek(p, 0);
        typed = t->k == K_WORD ? ptx_type(t->s, t->n) : -1;
        if (typed < 0)
            return expected(p, t, "a register type (.s32, .u32, .b32, .s64, .u64, .b64 or .pred)");
        adv(p);
    }
    t = peek(p, 0);
    if (t->k != K_WORD || t->s[0] == '.')
        return expected(p, t, "a register name");
    lit_thread *th = &p->t->threads[ti];
    int r = find_reg(th, t->s, t->n);
    if (r >= 0) {
        perr(p, t->line, t->col, "register '%.*s' of thread %d is declared twice (first at %d:%d)", (int)t->n,
             t->s, ti, p->regs[ti][r].line, p->regs[ti][r].col);
        return -1;
    }
    r = add_reg(p, ti, t);
    if (r < 0)
        return -1;
    adv(p);
    lit_reg *g = &th->regs[r];
    if (typed >= 0) {
        g->type = (lit_rtype)typed;
        p->regs[ti][r].typed = 1;
    }
    if (peek(p, 0)->k == K_EQ || typed < 0) {
        if (expect(p, K_EQ, "'=' and the register's initial value"))
            return -1;
        if (parse_init_value(p, &g->init, &g->init_loc))
            return -1;
    }
    return 0;
}

/* entry := [TYPEWORD] LOC '=' number | '[' LOC ']' '=' number */
static int parse_loc_entry(parser *p)
{
    ltok *t = peek(p, 0);
    int ty = -1, bracket = 0;
    if (t->k == K_WORD && peek(p, 1)->k == K_WORD) {
        ty = loc_type_word(t);
        if (ty < 0) {
            char buf[64];
            perr(p, t->line, t->col,
                 "expected a location type (int, uint32_t, int64_t, uint64_t, .b32...), found %s",
                 describe(t, buf, sizeof buf));
            return -1;
        }
        adv(p);
        t = peek(p, 0);
    } else if (t->k == K_LBRACK) {
        bracket = 1;
        adv(p);
        t = peek(p, 0);
    }
    if (t->k != K_WORD)
        return expected(p, t, "a location or a register (N:reg)");
    int line = t->line, col = t->col;
    int k = get_loc(p, t);
    if (k < 0)
        return -1;
    adv(p);
    if (bracket && expect(p, K_RBRACK, "']' after the location"))
        return -1;
    loc_info *li = &p->locs[k];
    if (li->init_line) {
        perr(p, line, col, "location '%s' is initialised twice (first at %d:%d)", p->t->locs[k].name,
             li->init_line, li->init_col);
        return -1;
    }
    li->init_line = line;
    li->init_col = col;
    if (ty >= 0) {
        p->t->locs[k].type = (lit_rtype)ty;
        li->explicit_type = 1;
    }
    if (expect(p, K_EQ, "'=' and the location's initial value"))
        return -1;
    t = peek(p, 0);
    if (t->k == K_WORD) {
        perr(p, t->line, t->col, "a location's initial value must be a number, found '%.*s'",
             (int)(t->n > 32 ? 32 : t->n), t->s);
        return -1;
    }
    return parse_number(p, &p->t->locs[k].init);
}

/* init := '{' (entry ';')* [entry] '}' */
static int parse_init(parser *p)
{
    if (expect(p, K_LBRACE, "'{' to open the initial state"))
        return -1;
    for (;;) {
        ltok *t = peek(p, 0);
        if (t->k == K_RBRACE) {
            adv(p);
            return 0;
        }
        if (t->k == K_SEMI) {
            adv(p);
            continue;
        }
        int r;
        ltok *t1 = peek(p, 1);
        if ((t->k == K_NUM || thread_name(t, NULL) >= 0) && t1->k == K_COLON)
            r = parse_reg_entry(p);
        else if (t->k == K_WORD || t->k == K_LBRACK)
            r = parse_loc_entry(p);
        else
            return expected(p, t, "an initial value (x=0; 0:r1=x; 0:.reg .s32 r0;) or '}'");
        if (r)
            return -1;
        t = peek(p, 0);
        if (t->k != K_SEMI && t->k != K_RBRACE)
            return expected(p, t, "';' after the initial value");
    }
}

/* Instructions ------------------------------------------------------------ */

enum { Q_SEM, Q_SCOPE, Q_SPACE, Q_COP, Q_AOP, Q_TYPE, Q_CMP, Q_LO, Q_UNI, Q_GL, Q_NCAT };

static const struct { const char *name; int cat, val; } quals[] = {
    {".weak", Q_SEM, LIT_SEM_NONE}, {".relaxed", Q_SEM, LIT_SEM_RELAXED},
    {".acquire", Q_SEM, LIT_SEM_ACQUIRE}, {".release", Q_SEM, LIT_SEM_RELEASE},
    {".acq_rel", Q_SEM, LIT_SEM_ACQ_REL}, {".sc", Q_SEM, LIT_SEM_SC},
    {".cta", Q_SCOPE, LIT_SCOPE_CTA}, {".gpu", Q_SCOPE, LIT_SCOPE_GPU}, {".sys", Q_SCOPE, LIT_SCOPE_SYS},
    {".gl", Q_GL, LIT_SCOPE_GPU},
    {".global", Q_SPACE, LIT_SP_GLOBAL}, {".shared", Q_SPACE, LIT_SP_SHARED},
    {".ca", Q_COP, LIT_COP_CA}, {".cg", Q_COP, LIT_COP_CG}, {".cs", Q_COP, LIT_COP_CS},
    {".cv", Q_COP, LIT_COP_CV}, {".lu", Q_COP, LIT_COP_LU}, {".wb", Q_COP, LIT_COP_WB},
    {".wt", Q_COP, LIT_COP_WT}, {".volatile", Q_COP, LIT_COP_VOLATILE},
    {".add", Q_AOP, LIT_A_ADD}, {".exch", Q_AOP, LIT_A_EXCH}, {".cas", Q_AOP, LIT_A_CAS},
    {".inc", Q_AOP, LIT_A_INC}, {".dec", Q_AOP, LIT_A_DEC}, {".and", Q_AOP, LIT_A_AND},
    {".or", Q_AOP, LIT_A_OR}, {".xor", Q_AOP, LIT_A_XOR}, {".min", Q_AOP, LIT_A_MIN},
    {".max", Q_AOP, LIT_A_MAX},
    {".s32", Q_TYPE, LIT_S32}, {".u32", Q_TYPE, LIT_U32}, {".b32", Q_TYPE, LIT_B32},
    {".s64", Q_TYPE, LIT_S64}, {".u64", Q_TYPE, LIT_U64}, {".b64", Q_TYPE, LIT_B64},
    {".pred", Q_TYPE, LIT_PRED},
    {".eq", Q_CMP, LIT_EQ}, {".ne", Q_CMP, LIT_NE}, {".lt", Q_CMP, LIT_LT},
    {".le", Q_CMP, LIT_LE}, {".gt", Q_CMP, LIT_GT}, {".ge", Q_CMP, LIT_GE},
    {".lo", Q_LO, 1}, {".uni", Q_UNI, 1},
};

static const char *const cat_names[Q_NCAT] = {
    "memory-semantics", "scope", "state-space", "cache-operator", "atomic-operation",
    "type", "comparison", "'.lo'", "'.uni'", "scope",
};

/* The opcodes, with the qualifier categories each accepts. */
enum { O_LD, O_ST, O_ATOM, O_RED, O_MEMBAR, O_FENCE, O_MOV, O_ADD, O_SUB, O_MUL, O_AND, O_OR,
       O_XOR, O_SHL, O_SHR, O_SETP, O_BRA };
#define B(c) (1u << (c))
static const struct { const char *name; unsigned cats; } opcodes[] = {
    [O_LD] = {"ld", B(Q_SEM) | B(Q_SCOPE) | B(Q_SPACE) | B(Q_COP) | B(Q_TYPE)},
    [O_ST] = {"st", B(Q_SEM) | B(Q_SCOPE) | B(Q_SPACE) | B(Q_COP) | B(Q_TYPE)},
    [O_ATOM] = {"atom", B(Q_SEM) | B(Q_SCOPE) | B(Q_SPACE) | B(Q_AOP) | B(Q_TYPE)},
    [O_RED] = {"red", B(Q_SEM) | B(Q_SCOPE) | B(Q_SPACE) | B(Q_AOP) | B(Q_TYPE)},
    [O_MEMBAR] = {"membar", B(Q_SCOPE) | B(Q_GL)},
    [O_FENCE] = {"fence", B(Q_SEM) | B(Q_SCOPE)},
    [O_MOV] = {"mov", B(Q_TYPE)},
    [O_ADD] = {"add", B(Q_TYPE)},
    [O_SUB] = {"sub", B(Q_TYPE)},
    [O_MUL] = {"mul", B(Q_TYPE) | B(Q_LO)},
    [O_AND] = {"and", B(Q_TYPE)},
    [O_OR] = {"or", B(Q_TYPE)},
    [O_XOR] = {"xor", B(Q_TYPE)},
    [O_SHL] = {"shl", B(Q_TYPE)},
    [O_SHR] = {"shr", B(Q_TYPE)},
    [O_SETP] = {"setp", B(Q_CMP) | B(Q_TYPE)},
    [O_BRA] = {"bra", B(Q_UNI)},
};
#undef B

/* The qualifiers of one mnemonic: value and column of each category. */
typedef struct qualset {
    int has[Q_NCAT], val[Q_NCAT], col[Q_NCAT];
    const char *text[Q_NCAT];
    int len[Q_NCAT];
} qualset;

/* Operand roles: how a new register is typed and whether it may be created. */
enum { R_READ, R_WRITE, R_SETP, R_GUARD, R_ADDR };

/* reg := NAME, a register of thread ti (created on first use outside the
 * thesis format; there a setp destination may be undeclared: a predicate). */
static int operand_reg(parser *p, int ti, int role)
{
    ltok *t = peek(p, 0);
    lit_thread *th = &p->t->threads[ti];
    char tb[16];
    if (t->k != K_WORD || t->s[0] == '.')
        return expected(p, t, role == R_GUARD ? "a predicate register after '@'" : "a register");
    int r = find_reg(th, t->s, t->n);
    if (r < 0) {
        if (find_loc(p->t, t->s, t->n) >= 0) {
            perr(p, t->line, t->col, "expected a register, found location '%.*s'", (int)t->n, t->s);
            return -1;
        }
        if (p->t->format == LIT_FMT_THESIS && role != R_SETP) {
            perr(p, t->line, t->col,
                 "undeclared register '%.*s' in thread %s (declare it in the initial state: %d:.reg .s32 "
                 "%.*s;)",
                 (int)(t->n > 32 ? 32 : t->n), t->s, thread_label(p, ti, tb, sizeof tb), ti,
                 (int)(t->n > 32 ? 32 : t->n), t->s);
            return -1;
        }
        r = add_reg(p, ti, t);
        if (r < 0)
            return -1;
        if (p->t->format == LIT_FMT_THESIS && role == R_SETP) {
            th->regs[r].type = LIT_PRED;
            p->regs[ti][r].typed = 1;
        }
    }
    adv(p);
    return r;
}

/* value := REG | number | LOC (where allowed: mov's source) */
static int parse_value(parser *p, int ti, lit_operand *o, int allow_loc)
{
    ltok *t = peek(p, 0);
    o->kind = LIT_O_NONE;
    o->reg = o->loc = -1;
    o->imm = 0;
    if (t->k == K_NUM || t->k == K_MINUS) {
        o->kind = LIT_O_IMM;
        return parse_number(p, &o->imm);
    }
    if (t->k != K_WORD)
        return expected(p, t, allow_loc ? "a register, a number or a location" : "a register or a number");
    lit_thread *th = &p->t->threads[ti];
    int known_loc = find_loc(p->t, t->s, t->n) >= 0;
    if (find_reg(th, t->s, t->n) >= 0 || (!known_loc && reg_like(t)) || !loc_like(t)) {
        int r = operand_reg(p, ti, R_READ);
        if (r < 0)
            return -1;
        o->kind = LIT_O_REG;
        o->reg = r;
        return 0;
    }
    if (!allow_loc) {
        perr(p, t->line, t->col,
             "expected a register or a number, found location '%.*s' (only mov takes a location's address)",
             (int)t->n, t->s);
        return -1;
    }
    int k = get_loc(p, t);
    if (k < 0)
        return -1;
    adv(p);
    o->kind = LIT_O_LOC;
    o->loc = k;
    return 0;
}

/* addr := '[' (REG | LOC) [('+' | '-') NUM] ']'  |  LOC  (PTX format only) */
static int parse_addr(parser *p, int ti, lit_operand *o)
{
    ltok *t = peek(p, 0);
    int bracket = t->k == K_LBRACK;
    o->kind = LIT_O_NONE;
    o->reg = o->loc = -1;
    o->imm = 0;
    if (bracket) {
        adv(p);
        t = peek(p, 0);
    } else if (!(p->t->format == LIT_FMT_PTXMM && t->k == K_WORD)) {
        return expected(p, t, "an address '[...]'");
    }
    if (t->k != K_WORD)
        return expected(p, t, "a register or a location in the address");
    lit_thread *th = &p->t->threads[ti];
    int known_loc = find_loc(p->t, t->s, t->n) >= 0;
    if (find_reg(th, t->s, t->n) >= 0 || (!known_loc && reg_like(t))) {
        int r = operand_reg(p, ti, R_ADDR);
        if (r < 0)
            return -1;
        o->kind = LIT_O_REG;
        o->reg = r;
    } else {
        int k = get_loc(p, t);
        if (k < 0)
            return -1;
        adv(p);
        o->kind = LIT_O_LOC;
        o->loc = k;
    }
    if (!bracket)
        return 0;
    t = peek(p, 0);
    if (t->k == K_PLUS || t->k == K_MINUS) {
        int neg = t->k == K_MINUS;
        adv(p);
        t = peek(p, 0);
        if (t->k != K_NUM)
            return expected(p, t, "an offset after the address's '+' or '-'");
        if (t->u > (uint64_t)INT64_MAX) {
            perr(p, t->line, t->col, "address offset is out of range");
            return -1;
        }
        o->imm = neg ? -(int64_t)t->u : (int64_t)t->u;
        adv(p);
    }
    return expect(p, K_RBRACK, "']' to close the address");
}

static int comma(parser *p, const char *what)
{
    ltok *t = peek(p, 0);
    if (t->k == K_COMMA) {
        adv(p);
        return 0;
    }
    char buf[96];
    snprintf(buf, sizeof buf, "',' and %s", what);
    return expected(p, t, buf);
}

static int type_is(int ty, const char *set)
{
    /* set: a string of type letters: s/u/b for 32 and 64 bits */
    const char *c = ty == LIT_S32 || ty == LIT_S64 ? "s" : ty == LIT_U32 || ty == LIT_U64 ? "u" : "b";
    if (ty == LIT_PRED)
        return 0;
    return strchr(set, c[0]) != NULL;
}

/* Check the qualifiers against what PTX allows and fill the instruction. */
static int check_quals(parser *p, int op, const qualset *q, lit_insn *in, const ltok *mn)
{
    const char *name = opcodes[op].name;
    int line = mn->line;
#define QERR(cat, ...) (perr(p, line, q->col[cat], __VA_ARGS__), -1)
    int sem = q->has[Q_SEM] ? q->val[Q_SEM] : -1;
    int weak = q->has[Q_SEM] && sem == LIT_SEM_NONE;
    int strong = q->has[Q_SEM] && sem != LIT_SEM_NONE;
    in->sem = q->has[Q_SEM] ? (lit_sem)sem : LIT_SEM_NONE;
    in->scope = q->has[Q_SCOPE] ? (lit_scope)q->val[Q_SCOPE] : LIT_SCOPE_NONE;
    in->space = q->has[Q_SPACE] ? (lit_space)q->val[Q_SPACE] : LIT_SP_GENERIC;
    in->cop = q->has[Q_COP] ? (lit_cop)q->val[Q_COP] : LIT_COP_NONE;
    in->type = q->has[Q_TYPE] ? (lit_rtype)q->val[Q_TYPE] : LIT_S32;
    if (q->has[Q_TYPE] && q->val[Q_TYPE] == LIT_PRED)
        return QERR(Q_TYPE, "'.pred' is not a type '%s' takes here (only setp writes a predicate)", name);
    switch (op) {
    case O_LD:
    case O_ST: {
        int ld = op == O_LD;
        if (ld && (sem == LIT_SEM_RELEASE || sem == LIT_SEM_ACQ_REL || sem == LIT_SEM_SC))
            return QERR(Q_SEM, "'%.*s' is not allowed on a load (ld takes .weak, .relaxed or .acquire)",
                        q->len[Q_SEM], q->text[Q_SEM]);
        if (!ld && (sem == LIT_SEM_ACQUIRE || sem == LIT_SEM_ACQ_REL || sem == LIT_SEM_SC))
            return QERR(Q_SEM, "'%.*s' is not allowed on a store (st takes .weak, .relaxed or .release)",
                        q->len[Q_SEM], q->text[Q_SEM]);
        if (strong && !q->has[Q_SCOPE])
            return QERR(Q_SEM, "'%.*s' needs a scope (.cta, .gpu or .sys)", q->len[Q_SEM], q->text[Q_SEM]);
        if (q->has[Q_SCOPE] && !strong)
            return QERR(Q_SCOPE, "scope '%.*s' needs %s", q->len[Q_SCOPE], q->text[Q_SCOPE],
                        ld ? "'.relaxed' or '.acquire'" : "'.relaxed' or '.release'");
        if (in->cop == LIT_COP_VOLATILE && q->has[Q_SEM])
            return QERR(Q_COP, "'.volatile' cannot be combined with '%.*s'", q->len[Q_SEM], q->text[Q_SEM]);
        if (q->has[Q_COP] && in->cop != LIT_COP_VOLATILE) {
            if (strong)
                return QERR(Q_COP, "cache operator '%.*s' cannot be combined with '%.*s'", q->len[Q_COP],
                            q->text[Q_COP], q->len[Q_SEM], q->text[Q_SEM]);
            int c = in->cop;
            if (ld && (c == LIT_COP_WB || c == LIT_COP_WT))
                return QERR(Q_COP, "cache operator '%.*s' is for stores, not loads", q->len[Q_COP],
                            q->text[Q_COP]);
            if (!ld && (c == LIT_COP_CA || c == LIT_COP_LU || c == LIT_COP_CV))
                return QERR(Q_COP, "cache operator '%.*s' is for loads, not stores", q->len[Q_COP],
                            q->text[Q_COP]);
        }
        break;
    }
    case O_ATOM:
    case O_RED: {
        int atom = op == O_ATOM;
        if (weak)
            return QERR(Q_SEM, "'%s' cannot be '.weak' (it takes .relaxed, .acquire, .release or .acq_rel)",
                        name);
        if (sem == LIT_SEM_SC)
            return QERR(Q_SEM, "'%s' cannot be '.sc'", name);
        if (!atom && (sem == LIT_SEM_ACQUIRE || sem == LIT_SEM_ACQ_REL))
            return QERR(Q_SEM, "'red' cannot be '%.*s' (it takes .relaxed or .release)", q->len[Q_SEM],
                        q->text[Q_SEM]);
        if (!q->has[Q_AOP]) {
            perr(p, line, mn->col,
                 "'%s' needs an operation (.add, .exch, .cas, .inc, .dec, .and, .or, .xor, .min or .max)",
                 name);
            return -1;
        }
        in->sub = q->val[Q_AOP];
        if (!atom && (in->sub == LIT_A_CAS || in->sub == LIT_A_EXCH))
            return QERR(Q_AOP, "'red' has no '%.*s' form (use atom)", q->len[Q_AOP], q->text[Q_AOP]);
        if (!q->has[Q_TYPE]) {
            if (p->t->format != LIT_FMT_PTXMM) {
                perr(p, line, mn->ecol, "'%s' needs a type (.b32, .u32, .s32, .b64, .u64 or .s64)", name);
                return -1;
            }
            in->type = in->sub == LIT_A_INC || in->sub == LIT_A_DEC ? LIT_U32
                       : in->sub == LIT_A_ADD || in->sub == LIT_A_MIN || in->sub == LIT_A_MAX ? LIT_S32
                                                                                          : LIT_B32;
        }
        const char *ok;
        switch (in->sub) {
        case LIT_A_AND:
        case LIT_A_OR:
        case LIT_A_XOR: ok = "b"; break;
        case LIT_A_ADD:
        case LIT_A_MIN:
        case LIT_A_MAX: ok = "su"; break;
        case LIT_A_INC:
        case LIT_A_DEC: ok = in->type == LIT_U32 ? "u" : ""; break;
        default: ok = "sub"; break;
        }
        if (q->has[Q_TYPE] && !type_is(in->type, ok))
            return QERR(Q_TYPE, "'%s%.*s' does not take type '%.*s'", name, q->len[Q_AOP], q->text[Q_AOP],
                        q->len[Q_TYPE], q->text[Q_TYPE]);
        break;
    }
    case O_MEMBAR:
        in->op = LIT_FENCE;
        in->membar = 1;
        in->sem = LIT_SEM_SC;
        if (q->has[Q_SCOPE] && q->has[Q_GL])
            return QERR(Q_GL, "'membar' takes one scope");
        if (q->has[Q_GL])
            in->scope = LIT_SCOPE_GPU;
        else if (q->has[Q_SCOPE] && in->scope == LIT_SCOPE_GPU)
            return QERR(Q_SCOPE, "'membar.gpu' is spelt 'membar.gl' (membar takes .cta, .gl or .sys)");
        else if (!q->has[Q_SCOPE]) {
            perr(p, line, mn->ecol, "'membar' needs a scope (.cta, .gl or .sys)");
            return -1;
        }
        break;
    case O_FENCE:
        in->op = LIT_FENCE;
        in->membar = 0;
        if (q->has[Q_SEM] && sem != LIT_SEM_SC && sem != LIT_SEM_ACQ_REL)
            return QERR(Q_SEM, "'fence' takes '.sc' or '.acq_rel', not '%.*s'", q->len[Q_SEM],
                        q->text[Q_SEM]);
        if (!q->has[Q_SEM])
            in->sem = LIT_SEM_ACQ_REL; /* PTX: fence.scope is fence.acq_rel.scope */
        if (!q->has[Q_SCOPE]) {
            perr(p, line, mn->ecol, "'fence' needs a scope (.cta, .gpu or .sys)");
            return -1;
        }
        break;
    case O_SETP:
        if (!q->has[Q_CMP]) {
            perr(p, line, mn->ecol, "'setp' needs a comparison (.eq, .ne, .lt, .le, .gt or .ge)");
            return -1;
        }
        in->sub = q->val[Q_CMP];
        if (q->has[Q_TYPE] && (in->sub != LIT_EQ && in->sub != LIT_NE) && !type_is(in->type, "su"))
            return QERR(Q_TYPE, "'setp%.*s' needs a signed or unsigned type, not '%.*s'", q->len[Q_CMP],
                        q->text[Q_CMP], q->len[Q_TYPE], q->text[Q_TYPE]);
        break;
    case O_ADD:
    case O_SUB:
    case O_MUL:
        if (q->has[Q_TYPE] && !type_is(in->type, "su"))
            return QERR(Q_TYPE, "'%s' needs a signed or unsigned type, not '%.*s'", name, q->len[Q_TYPE],
                        q->text[Q_TYPE]);
        break;
    case O_AND:
    case O_OR:
    case O_XOR:
    case O_SHL:
        if (q->has[Q_TYPE] && !type_is(in->type, "b"))
            return QERR(Q_TYPE, "'%s' needs a bit type (.b32 or .b64), not '%.*s'", name, q->len[Q_TYPE],
                        q->text[Q_TYPE]);
        break;
    default: break;
    }
    /* a type where one is needed (the PTX format lets ld/st leave it out) */
    int needs_type = op != O_MEMBAR && op != O_FENCE && op != O_BRA;
    int optional = p->t->format == LIT_FMT_PTXMM && (op == O_LD || op == O_ST);
    if (needs_type && !q->has[Q_TYPE] && !optional && op != O_ATOM && op != O_RED) {
        perr(p, line, mn->ecol, "'%s' needs a type (.s32, .u32, .b32, .s64, .u64 or .b64)", name);
        return -1;
    }
    return 0;
#undef QERR
}

/* insn := ['@' ['!'] REG] MNEMONIC operands */
static int parse_insn(parser *p, int ti, lit_insn *in)
{
    ltok *t = peek(p, 0);
    memset(in, 0, sizeof *in);
    in->line = t->line;
    in->col = t->col;
    in->guard = -1;
    in->target = -1;
    in->dst.reg = in->dst.loc = in->addr.reg = in->addr.loc = -1;
    in->src[0].reg = in->src[0].loc = in->src[1].reg = in->src[1].loc = -1;
    if (t->k == K_AT) {
        adv(p);
        if (peek(p, 0)->k == K_BANG) {
            adv(p);
            in->guard_neg = 1;
        }
        int g = operand_reg(p, ti, R_GUARD);
        if (g < 0)
            return -1;
        in->guard = g;
        t = peek(p, 0);
    }
    if (t->k != K_WORD || t->s[0] == '.')
        return expected(p, t, "an instruction");
    ltok mn = *t;
    /* split the mnemonic at its dots: opcode, then qualifiers */
    size_t end = 0;
    while (end < mn.n && mn.s[end] != '.')
        end++;
    int op = -1;
    for (int i = 0; i < (int)(sizeof opcodes / sizeof opcodes[0]); i++)
        if (strlen(opcodes[i].name) == end && !memcmp(opcodes[i].name, mn.s, end))
            op = i;
    if (op < 0) {
        perr(p, mn.line, mn.col, "unknown instruction '%.*s'", (int)(end > 32 ? 32 : end), mn.s);
        return -1;
    }
    qualset q;
    memset(&q, 0, sizeof q);
    for (size_t i = end; i < mn.n;) {
        size_t j = i + 1;
        while (j < mn.n && mn.s[j] != '.')
            j++;
        int col = mn.col + (int)i;
        const char *qs = mn.s + i;
        int qn = (int)(j - i);
        int found = -1;
        for (int k = 0; k < (int)(sizeof quals / sizeof quals[0]); k++)
            if ((int)strlen(quals[k].name) == qn && !memcmp(quals[k].name, qs, (size_t)qn))
                found = k;
        if (qn == 1) {
            perr(p, mn.line, col, "empty qualifier in '%.*s'", (int)(mn.n > 40 ? 40 : mn.n), mn.s);
            return -1;
        }
        if (found < 0) {
            perr(p, mn.line, col, "unknown qualifier '%.*s' on '%s'", qn > 32 ? 32 : qn, qs,
                 opcodes[op].name);
            return -1;
        }
        int cat = quals[found].cat;
        if (!(opcodes[op].cats & (1u << cat))) {
            perr(p, mn.line, col, "'%s' takes no %s qualifier ('%.*s')", opcodes[op].name, cat_names[cat], qn,
                 qs);
            return -1;
        }
        if (q.has[cat] || (cat == Q_GL && q.has[Q_SCOPE]) || (cat == Q_SCOPE && q.has[Q_GL])) {
            perr(p, mn.line, col, "a second %s qualifier '%.*s' on '%s'", cat_names[cat], qn, qs,
                 opcodes[op].name);
            return -1;
        }
        q.has[cat] = 1;
        q.val[cat] = quals[found].val;
        q.col[cat] = col;
        q.text[cat] = qs;
        q.len[cat] = qn;
        i = j;
    }
    adv(p);
    static const lit_op ops[] = {
        [O_LD] = LIT_LD, [O_ST] = LIT_ST, [O_ATOM] = LIT_ATOM, [O_RED] = LIT_RED,
        [O_MEMBAR] = LIT_FENCE, [O_FENCE] = LIT_FENCE, [O_MOV] = LIT_MOV, [O_ADD] = LIT_ALU,
        [O_SUB] = LIT_ALU, [O_MUL] = LIT_ALU, [O_AND] = LIT_ALU, [O_OR] = LIT_ALU,
        [O_XOR] = LIT_ALU, [O_SHL] = LIT_ALU, [O_SHR] = LIT_ALU, [O_SETP] = LIT_SETP,
        [O_BRA] = LIT_BRA,
    };
    static const int alus[] = {
        [O_ADD] = LIT_ADD, [O_SUB] = LIT_SUB, [O_MUL] = LIT_MUL, [O_AND] = LIT_AND,
        [O_OR] = LIT_OR, [O_XOR] = LIT_XOR, [O_SHL] = LIT_SHL, [O_SHR] = LIT_SHR,
    };
    in->op = ops[op];
    if (in->op == LIT_ALU)
        in->sub = alus[op];
    if (check_quals(p, op, &q, in, &mn))
        return -1;
    int r;
    switch (in->op) {
    case LIT_LD:
        if ((r = operand_reg(p, ti, R_WRITE)) < 0)
            return -1;
        in->dst = (lit_operand){LIT_O_REG, r, -1, 0};
        if (comma(p, "the address") || parse_addr(p, ti, &in->addr))
            return -1;
        break;
    case LIT_ST:
        if (parse_addr(p, ti, &in->addr) || comma(p, "the value to store") ||
            parse_value(p, ti, &in->src[0], 0))
            return -1;
        break;
    case LIT_ATOM:
    case LIT_RED: {
        if (in->op == LIT_ATOM) {
            if ((r = operand_reg(p, ti, R_WRITE)) < 0)
                return -1;
            in->dst = (lit_operand){LIT_O_REG, r, -1, 0};
            if (comma(p, "the address"))
                return -1;
        }
        if (parse_addr(p, ti, &in->addr) || comma(p, "the operand") || parse_value(p, ti, &in->src[0], 0))
            return -1;
        int cas = in->op == LIT_ATOM && in->sub == LIT_A_CAS;
        ltok *c = peek(p, 0);
        if (cas) {
            if (c->k != K_COMMA) {
                char buf[64];
                perr(p, c->line, c->col,
                     "atom.cas takes 4 operands (dst, [addr], compare, new): expected ',' and the new value, "
                     "found %s",
                     describe(c, buf, sizeof buf));
                return -1;
            }
            adv(p);
            if (parse_value(p, ti, &in->src[1], 0))
                return -1;
        } else if (c->k == K_COMMA) {
            perr(p, c->line, c->col, "too many operands: '%s' takes %s", in->op == LIT_ATOM ? "atom" : "red",
                 in->op == LIT_ATOM ? "3 (dst, [addr], value)" : "2 ([addr], value)");
            return -1;
        }
        break;
    }
    case LIT_MOV:
        if ((r = operand_reg(p, ti, R_WRITE)) < 0)
            return -1;
        in->dst = (lit_operand){LIT_O_REG, r, -1, 0};
        if (comma(p, "the source") || parse_value(p, ti, &in->src[0], 1))
            return -1;
        break;
    case LIT_ALU:
    case LIT_SETP:
        if ((r = operand_reg(p, ti, in->op == LIT_SETP ? R_SETP : R_WRITE)) < 0)
            return -1;
        in->dst = (lit_operand){LIT_O_REG, r, -1, 0};
        if (comma(p, "the first source") || parse_value(p, ti, &in->src[0], 0) ||
            comma(p, "the second source") || parse_value(p, ti, &in->src[1], 0))
            return -1;
        break;
    case LIT_BRA:
        t = peek(p, 0);
        if (t->k != K_WORD || !loc_like(t))
            return expected(p, t, "a label after 'bra'");
        if (take_name(p, t, in->label, "label"))
            return -1;
        adv(p);
        break;
    default: break;
    }
    return 0;
}

/* Code -------------------------------------------------------------------- */

/* Does the code end here (a section keyword, the condition, a memory map)? */
static int code_ends(parser *p)
{
    ltok *t = peek(p, 0);
    if (t->k == K_EOF || t->k == K_TILDE)
        return 1;
    if (tok_is(t, "ScopeTree") || tok_is(t, "scopeTree") || tok_is(t, "exists") || tok_is(t, "forall") ||
        (tok_is(t, "locations") && peek(p, 1)->k == K_LBRACK) || tok_is(t, "filter"))
        return 1;
    ltok *t2 = peek(p, 2);
    return t->k == K_WORD && peek(p, 1)->k == K_COLON &&
           (tok_is(t2, "global") || tok_is(t2, "shared") || tok_is(t2, "local"));
}

/* place := 'cta' NUM | 'gpu' NUM    (after '@', comma separated) */
static int parse_placement(parser *p, int ti, int *cta_of)
{
    int seen_cta = 0, seen_gpu = 0;
    for (;;) {
        ltok *t = peek(p, 0);
        int is_cta = tok_is(t, "cta"), is_gpu = tok_is(t, "gpu");
        if (!is_cta && !is_gpu)
            return expected(p, t, "'cta N' or 'gpu N' in the thread's placement");
        if ((is_cta && seen_cta) || (is_gpu && seen_gpu)) {
            perr(p, t->line, t->col, "'%s' given twice in the placement of P%d", is_cta ? "cta" : "gpu", ti);
            return -1;
        }
        adv(p);
        t = peek(p, 0);
        if (t->k != K_NUM)
            return expected(p, t, is_cta ? "a CTA number after 'cta'" : "a GPU number after 'gpu'");
        if (is_gpu && t->u != 0) {
            perr(p, t->line, t->col,
                 "multi-GPU tests are not supported (P%d is on gpu %.*s; all threads must be on gpu 0)", ti,
                 (int)(t->n > 20 ? 20 : t->n), t->s);
            return -1;
        }
        if (is_cta)
            *cta_of = t->u > 1000000 ? 1000000 : (int)t->u;
        seen_cta |= is_cta;
        seen_gpu |= is_gpu;
        adv(p);
        if (peek(p, 0)->k != K_COMMA)
            return 0;
        adv(p);
    }
}

/* threads := thread ('|' thread)* ';'     thread := (T|P)N ['@' place (',' place)*] */
static int parse_threads(parser *p)
{
    lit_test *T = p->t;
    int cta_num[LIT_MAX_THREADS];
    for (int i = 0;; i++) {
        ltok *t = peek(p, 0);
        int letter = 0, v = thread_name(t, &letter);
        if (v < 0)
            return expected(p, t,
                            i ? "a thread name after '|'" : "the threads' names (T0 | T1 ; or P0 | P1 ;)");
        if (i == 0) {
            p->thread_letter = letter;
            if (p->arch_ptx && letter != 'P') {
                perr(p, t->line, t->col, "a PTX test names its threads P0, P1, ..., found '%.*s'", (int)t->n,
                     t->s);
                return -1;
            }
            T->format = p->arch_ptx ? LIT_FMT_PTXMM : letter == 'T' ? LIT_FMT_THESIS : LIT_FMT_HERD;
        }
        if (letter != p->thread_letter || v != i) {
            perr(p, t->line, t->col, "expected thread '%c%d' here, found '%.*s' (threads are named in order)",
                 p->thread_letter, i, (int)t->n, t->s);
            return -1;
        }
        if (i >= LIT_MAX_THREADS) {
            perr(p, t->line, t->col, "too many threads (at most %d)", LIT_MAX_THREADS);
            return -1;
        }
        snprintf(T->threads[i].name, sizeof T->threads[i].name, "%c%d", letter, i);
        T->nthreads = i + 1;
        cta_num[i] = -1;
        adv(p);
        t = peek(p, 0);
        if (t->k == K_AT) {
            if (T->format != LIT_FMT_PTXMM) {
                perr(p, t->line, t->col,
                     "'@' placements belong to PTX tests; a GPU_PTX test places threads with its scope tree");
                return -1;
            }
            adv(p);
            if (parse_placement(p, i, &cta_num[i]))
                return -1;
            t = peek(p, 0);
        }
        if (t->k == K_SEMI)
            break;
        if (t->k != K_PIPE)
            return expected(p, t, "'|' or ';' after the thread name");
        adv(p);
    }
    adv(p); /* ';' */
    if (T->format == LIT_FMT_PTXMM) {
        /* CTA groups in order of first appearance; a thread without a cta
         * number gets its own; every thread is its own warp */
        for (int i = 0; i < T->nthreads; i++) {
            int g = -1;
            for (int j = 0; j < i && cta_num[i] >= 0; j++)
                if (cta_num[j] == cta_num[i])
                    g = T->threads[j].cta;
            T->threads[i].cta = g >= 0 ? g : T->nctas++;
            T->threads[i].warp = T->nwarps++;
        }
    }
    return 0;
}

static lit_insn *new_insn(parser *p, int ti, const ltok *at)
{
    lit_thread *th = &p->t->threads[ti];
    if (th->ninsns >= LIT_MAX_INSNS) {
        perr(p, at->line, at->col, "too many instructions in thread %s (at most %d)", th->name,
             LIT_MAX_INSNS);
        return NULL;
    }
    return &th->code[th->ninsns++];
}

/* cell := [LABEL ':'] [insn] */
static int parse_cell(parser *p, int ti)
{
    ltok *t = peek(p, 0);
    int label = 0;
    if (t->k == K_WORD && peek(p, 1)->k == K_COLON) {
        label = 1;
        lit_insn *in = new_insn(p, ti, t);
        if (!in)
            return -1;
        memset(in, 0, sizeof *in);
        in->op = LIT_LABEL;
        in->line = t->line;
        in->col = t->col;
        in->guard = -1;
        in->target = -1;
        in->dst.reg = in->dst.loc = in->addr.reg = in->addr.loc = -1;
        in->src[0].reg = in->src[0].loc = in->src[1].reg = in->src[1].loc = -1;
        if (!loc_like(t)) {
            char buf[64];
            perr(p, t->line, t->col, "bad label name %s", describe(t, buf, sizeof buf));
            return -1;
        }
        if (take_name(p, t, in->label, "label"))
            return -1;
        lit_thread *th = &p->t->threads[ti];
        for (int i = 0; i + 1 < th->ninsns; i++)
            if (th->code[i].op == LIT_LABEL && !strcmp(th->code[i].label, in->label)) {
                perr(p, t->line, t->col, "label '%s' is defined twice in thread %s (first at %d:%d)",
                     in->label, th->name, th->code[i].line, th->code[i].col);
                return -1;
            }
        adv(p);
        adv(p);
        t = peek(p, 0);
    }
    /* (a row's first token follows a newline; after a label, one ends the cell) */
    if (t->k == K_PIPE || t->k == K_SEMI || t->k == K_EOF || (label && t->nl))
        return 0;
    lit_insn *in = new_insn(p, ti, t);
    if (!in)
        return -1;
    if (parse_insn(p, ti, in)) {
        p->t->threads[ti].ninsns--;
        return -1;
    }
    return 0;
}

/* code := threads (row ';')*     row := cell ('|' cell)*   (one row per line) */
static int parse_code(parser *p)
{
    if (parse_threads(p))
        return -1;
    lit_test *T = p->t;
    while (!code_ends(p) && !p->stop) {
        int cell = 0;
        for (;;) {
            if (parse_cell(p, cell)) {
                p->code_errors++;
                /* recover: skip to the end of this cell */
                while (peek(p, 0)->k != K_PIPE && peek(p, 0)->k != K_SEMI && peek(p, 0)->k != K_EOF)
                    adv(p);
                if (p->stop || peek(p, 0)->k == K_EOF)
                    return -1;
            }
            ltok *t = peek(p, 0);
            if (t->k == K_SEMI) {
                if (cell + 1 != T->nthreads) {
                    perr(p, t->line, t->col, "this row has %d column%s, expected %d (one per thread)",
                         cell + 1, cell ? "s" : "", T->nthreads);
                    return -1;
                }
                adv(p);
                break;
            }
            if (t->k == K_PIPE) {
                if (cell + 1 >= T->nthreads) {
                    perr(p, t->line, t->col, "too many columns: the test has %d thread%s", T->nthreads,
                         T->nthreads > 1 ? "s" : "");
                    return -1;
                }
                adv(p);
                cell++;
                continue;
            }
            if (t->nl || t->k == K_EOF) {
                perr(p, p->pe_line, p->pe_col, "expected ';' at the end of the code row, found end of line");
                return -1;
            }
            return expected(p, t, "'|' or ';' after the instruction");
        }
    }
    return p->code_errors ? -1 : 0;
}

/* Scope tree -------------------------------------------------------------- */

enum { L_DEVICE, L_KERNEL, L_CTA, L_WARP };

/* sexpr := '(' LEVEL (sexpr | THREAD)+ ')'
 * cta and warp are the enclosing groups (-1: none yet), seen[] the threads
 * placed so far. */
static int parse_sexpr(parser *p, int parent, int cta, int warp, int *seen)
{
    lit_test *T = p->t;
    char buf[64];
    if (++p->depth > MAX_DEPTH) {
        perr(p, peek(p, 0)->line, peek(p, 0)->col, "scope tree nested too deeply");
        return -1;
    }
    ltok *open = peek(p, 0);
    int oline = open->line, ocol = open->col;
    if (expect(p, K_LPAR, "'(' to open a scope-tree list"))
        return -1;
    ltok *t = peek(p, 0);
    int level;
    if (tok_is(t, "device") || tok_is(t, "grid"))
        level = L_DEVICE;
    else if (tok_is(t, "kernel"))
        level = L_KERNEL;
    else if (tok_is(t, "cta") || tok_is(t, "block") || tok_is(t, "work_group"))
        level = L_CTA;
    else if (tok_is(t, "warp") || tok_is(t, "sub_group"))
        level = L_WARP;
    else if (t->k == K_WORD) {
        perr(p, t->line, t->col, "unknown scope-tree level %s (expected device, kernel, cta or warp)",
             describe(t, buf, sizeof buf));
        return -1;
    } else
        return expected(p, t, "a scope-tree level (device, kernel, cta or warp)");
    const char *lname = level == L_DEVICE   ? "device"
                        : level == L_KERNEL ? "kernel"
                        : level == L_CTA    ? "cta"
                                            : "warp";
    if (parent < 0 && level != L_DEVICE) {
        perr(p, t->line, t->col, "the scope tree starts with (device ...), found '%s'", lname);
        return -1;
    }
    if (parent >= 0 && level <= parent) {
        static const char *const pn[] = {"device", "kernel", "cta", "warp"};
        perr(p, t->line, t->col, "a '%s' list cannot be inside a '%s' list", lname, pn[parent]);
        return -1;
    }
    adv(p);
    if (level == L_CTA)
        cta = T->nctas++;
    if (level == L_WARP) {
        if (cta < 0)
            cta = T->nctas++;
        warp = T->nwarps++;
    }
    int nkids = 0, nkernels = 0;
    for (;;) {
        t = peek(p, 0);
        if (t->k == K_RPAR)
            break;
        if (t->k == K_LPAR) {
            if (tok_is(peek(p, 1), "kernel") && nkernels++) {
                perr(p, peek(p, 1)->line, peek(p, 1)->col, "a second kernel: a test runs in one kernel");
                return -1;
            }
            if (parse_sexpr(p, level, cta, warp, seen))
                return -1;
            nkids++;
            continue;
        }
        int letter = 0, v = thread_name(t, &letter);
        if (v < 0 || letter != p->thread_letter) {
            if (t->k == K_EOF || t->k == K_WORD)
                perr(p, t->line, t->col, "expected ')' to close the '(%s' list opened at %d:%d, found %s",
                     lname, oline, ocol, describe(t, buf, sizeof buf));
            else
                expected(p, t, "a thread name, '(' or ')' in the scope tree");
            return -1;
        }
        if (v >= T->nthreads) {
            perr(p, t->line, t->col, "unknown thread '%.*s' in the scope tree (the test has %d threads)",
                 (int)t->n, t->s, T->nthreads);
            return -1;
        }
        if (seen[v]) {
            perr(p, t->line, t->col, "thread %.*s appears twice in the scope tree", (int)t->n, t->s);
            return -1;
        }
        seen[v] = 1;
        /* a thread outside a warp list is its own warp (and CTA) */
        T->threads[v].cta = cta >= 0 ? cta : T->nctas++;
        T->threads[v].warp = warp >= 0 ? warp : T->nwarps++;
        adv(p);
        nkids++;
    }
    if (!nkids) {
        perr(p, t->line, t->col, "empty '%s' list in the scope tree", lname);
        return -1;
    }
    adv(p);
    p->depth--;
    return 0;
}

/* scopetree := ('ScopeTree' | 'scopeTree') sexpr */
static int parse_scope_tree(parser *p)
{
    lit_test *T = p->t;
    ltok *t = peek(p, 0);
    if (!tok_is(t, "ScopeTree") && !tok_is(t, "scopeTree")) {
        if (T->format == LIT_FMT_THESIS)
            return expected(p, t, "'ScopeTree' after the code");
        return expected(p, t, "'scopeTree' after the code");
    }
    p->tree_line = t->line;
    p->tree_col = t->col;
    adv(p);
    int seen[LIT_MAX_THREADS] = {0};
    if (parse_sexpr(p, -1, -1, -1, seen))
        return -1;
    for (int i = 0; i < T->nthreads; i++)
        if (!seen[i]) {
            perr(p, p->tree_line, p->tree_col, "thread %s is not in the scope tree", T->threads[i].name);
            return -1;
        }
    return 0;
}

/* memmap := LOC ':' ('global' | 'shared' | 'local') (',' ...)* */
static int parse_memory_map(parser *p)
{
    for (;;) {
        ltok *t = peek(p, 0);
        if (!(t->k == K_WORD && peek(p, 1)->k == K_COLON))
            return 0;
        int line = t->line, col = t->col;
        int k = get_loc(p, t);
        if (k < 0)
            return -1;
        adv(p);
        adv(p);
        loc_info *li = &p->locs[k];
        if (li->in_map) {
            perr(p, line, col, "location '%s' is twice in the memory map (first at %d:%d)",
                 p->t->locs[k].name, li->map_line, li->map_col);
            return -1;
        }
        t = peek(p, 0);
        if (tok_is(t, "global"))
            p->t->locs[k].region = LIT_GLOBAL;
        else if (tok_is(t, "shared") || tok_is(t, "local"))
            p->t->locs[k].region = LIT_SHARED;
        else
            return expected(p, t, "'global' or 'shared' in the memory map");
        adv(p);
        li->in_map = 1;
        li->map_line = line;
        li->map_col = col;
        if (peek(p, 0)->k == K_COMMA)
            adv(p);
    }
}

/* Condition --------------------------------------------------------------- */

static int add_observed(parser *p, lit_item it, int line, int col)
{
    lit_test *T = p->t;
    for (int i = 0; i < T->nobserved; i++)
        if (T->observed[i].thread == it.thread && T->observed[i].index == it.index)
            return 0;
    if (T->nobserved >= LIT_MAX_OBSERVED) {
        perr(p, line, col, "too many observed items (at most %d)", LIT_MAX_OBSERVED);
        return -1;
    }
    T->observed[T->nobserved++] = it;
    return 0;
}

/* item := THREAD ':' REG | LOC | '[' LOC ']' */
static int parse_item(parser *p, lit_item *it)
{
    lit_test *T = p->t;
    ltok *t = peek(p, 0);
    if ((t->k == K_NUM || thread_name(t, NULL) >= 0) && peek(p, 1)->k == K_COLON) {
        int ti = thread_ref(p, t);
        if (ti < 0)
            return -1;
        if (ti >= T->nthreads) {
            perr(p, t->line, t->col, "unknown thread %.*s (the test has %d thread%s)",
                 (int)(t->n > 20 ? 20 : t->n), t->s, T->nthreads, T->nthreads > 1 ? "s" : "");
            return -1;
        }
        adv(p);
        adv(p);
        t = peek(p, 0);
        if (t->k != K_WORD)
            return expected(p, t, "a register name after ':'");
        int r = find_reg(&T->threads[ti], t->s, t->n);
        if (r < 0) {
            perr(p, t->line, t->col, "thread %s has no register '%.*s'", T->threads[ti].name,
                 (int)(t->n > 32 ? 32 : t->n), t->s);
            return -1;
        }
        adv(p);
        *it = (lit_item){ti, r};
        return 0;
    }
    int bracket = t->k == K_LBRACK;
    if (bracket) {
        adv(p);
        t = peek(p, 0);
    }
    if (t->k != K_WORD)
        return expected(p, t, "a register (N:reg) or a location");
    int k = find_loc(T, t->s, t->n);
    if (k < 0) {
        perr(p, t->line, t->col, "unknown location '%.*s'", (int)(t->n > 32 ? 32 : t->n), t->s);
        return -1;
    }
    adv(p);
    if (bracket && expect(p, K_RBRACK, "']' after the location"))
        return -1;
    *it = (lit_item){-1, k};
    return 0;
}

static int new_expr(parser *p, lit_ekind kind, const ltok *at)
{
    lit_test *T = p->t;
    if (T->nexprs >= LIT_MAX_EXPRS) {
        perr(p, at->line, at->col, "the condition is too large (at most %d nodes)", LIT_MAX_EXPRS);
        return -1;
    }
    lit_expr *e = &T->exprs[T->nexprs];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->value_loc = -1;
    e->a = e->b = -1;
    return T->nexprs++;
}

static int parse_disj(parser *p);

/* atom := item ('=' | '==' | '!=') (number | LOC) */
static int parse_atom(parser *p)
{
    lit_test *T = p->t;
    ltok at = *peek(p, 0);
    lit_item it;
    if (parse_item(p, &it))
        return -1;
    if (add_observed(p, it, at.line, at.col))
        return -1;
    ltok *t = peek(p, 0);
    int ne = t->k == K_NE;
    if (t->k != K_EQ && t->k != K_EQEQ && !ne)
        return expected(p, t, "'=' after the register or location");
    adv(p);
    int e = new_expr(p, LIT_E_EQ, &at);
    if (e < 0)
        return -1;
    T->exprs[e].item = it;
    t = peek(p, 0);
    if (t->k == K_WORD) {
        int k = find_loc(T, t->s, t->n);
        if (k < 0) {
            perr(p, t->line, t->col, "unknown location '%.*s' as a value", (int)(t->n > 32 ? 32 : t->n),
                 t->s);
            return -1;
        }
        adv(p);
        T->exprs[e].value_loc = k;
        T->exprs[e].value = (int64_t)lit_loc_addr(k);
    } else if (t->k == K_NUM || t->k == K_MINUS) {
        if (parse_number(p, &T->exprs[e].value))
            return -1;
    } else {
        return expected(p, t, "a number or a location after '='");
    }
    if (ne) {
        int n = new_expr(p, LIT_E_NOT, &at);
        if (n < 0)
            return -1;
        T->exprs[n].a = e;
        return n;
    }
    return e;
}

/* unary := '~' unary | '(' disj ')' | 'true' | 'false' | atom */
static int parse_unary(parser *p)
{
    lit_test *T = p->t;
    ltok t = *peek(p, 0);
    if (++p->depth > MAX_DEPTH) {
        perr(p, t.line, t.col, "the condition is nested too deeply");
        return -1;
    }
    int e;
    if (t.k == K_TILDE || tok_is(&t, "not")) {
        adv(p);
        int a = parse_unary(p);
        if (a < 0)
            return -1;
        if ((e = new_expr(p, LIT_E_NOT, &t)) < 0)
            return -1;
        T->exprs[e].a = a;
    } else if (t.k == K_LPAR) {
        adv(p);
        e = parse_disj(p);
        if (e < 0)
            return -1;
        ltok *c = peek(p, 0);
        if (c->k != K_RPAR) {
            if (c->k != K_BAD) {
                char buf[64];
                perr(p, c->line, c->col, "expected ')' to close the '(' at %d:%d, found %s", t.line, t.col,
                     describe(c, buf, sizeof buf));
            }
            return -1;
        }
        adv(p);
    } else if (tok_is(&t, "true") || tok_is(&t, "false")) {
        adv(p);
        e = new_expr(p, tok_is(&t, "true") ? LIT_E_TRUE : LIT_E_FALSE, &t);
    } else {
        e = parse_atom(p);
    }
    p->depth--;
    return e;
}

/* conj := unary ('/\' unary)*      disj := conj ('\/' conj)* */
static int parse_binary(parser *p, int kind)
{
    lit_test *T = p->t;
    int e = kind == LIT_E_AND ? parse_unary(p) : parse_binary(p, LIT_E_AND);
    while (e >= 0 && peek(p, 0)->k == (kind == LIT_E_AND ? K_AND : K_OR)) {
        ltok op = *peek(p, 0);
        adv(p);
        int b = kind == LIT_E_AND ? parse_unary(p) : parse_binary(p, LIT_E_AND);
        if (b < 0)
            return -1;
        int n = new_expr(p, (lit_ekind)kind, &op);
        if (n < 0)
            return -1;
        T->exprs[n].a = e;
        T->exprs[n].b = b;
        e = n;
    }
    return e;
}

/* impl := disj ['=>' impl]  (herd's implication: A => B is ~A \/ B) */
static int parse_disj(parser *p)
{
    lit_test *T = p->t;
    int e = parse_binary(p, LIT_E_OR);
    if (e < 0 || peek(p, 0)->k != K_IMPL)
        return e;
    ltok op = *peek(p, 0);
    if (++p->depth > MAX_DEPTH) {
        perr(p, op.line, op.col, "the condition is nested too deeply");
        return -1;
    }
    adv(p);
    /* (the NOT before the right side: the order lit_print's output parses in) */
    int n = new_expr(p, LIT_E_NOT, &op);
    if (n < 0)
        return -1;
    T->exprs[n].a = e;
    int b = parse_disj(p);
    p->depth--;
    if (b < 0)
        return -1;
    int o = new_expr(p, LIT_E_OR, &op);
    if (o < 0)
        return -1;
    T->exprs[o].a = n;
    T->exprs[o].b = b;
    return o;
}

/* locations := 'locations' '[' (item ';')* [item] ']' */
static int parse_locations(parser *p)
{
    adv(p);
    if (expect(p, K_LBRACK, "'[' after 'locations'"))
        return -1;
    for (;;) {
        ltok at = *peek(p, 0);
        if (at.k == K_RBRACK) {
            adv(p);
            return 0;
        }
        lit_item it;
        if (parse_item(p, &it) || add_observed(p, it, at.line, at.col))
            return -1;
        ltok *t = peek(p, 0);
        if (t->k == K_SEMI || t->k == K_COMMA)
            adv(p);
        else if (t->k != K_RBRACK)
            return expected(p, t, "';' or ']' in the locations list");
    }
}

/* cond := ('exists' | '~' 'exists' | 'forall') disj */
static int parse_cond(parser *p)
{
    lit_test *T = p->t;
    ltok *t = peek(p, 0);
    if (t->k == K_TILDE && tok_is(peek(p, 1), "exists")) {
        T->quant = LIT_NOT_EXISTS;
        adv(p);
    } else if (tok_is(t, "exists")) {
        T->quant = LIT_EXISTS;
    } else if (tok_is(t, "forall")) {
        T->quant = LIT_FORALL;
    } else {
        return expected(p, t, "the condition ('exists', '~exists' or 'forall')");
    }
    adv(p);
    int e = parse_disj(p);
    if (e < 0)
        return -1;
    T->cond = e;
    t = peek(p, 0);
    if (t->k != K_EOF)
        return expected(p, t, "the end of the test after the condition");
    return 0;
}

/* Whole-test checks -------------------------------------------------------- */

static int pred_ok(const lit_thread *th, const lit_operand *o)
{
    return o->kind != LIT_O_REG || th->regs[o->reg].type != LIT_PRED;
}

/* Everything that needs the whole test: types by inference, location types,
 * branch targets, predicates, the memory map, shared memory per CTA. */
static int finish(parser *p)
{
    lit_test *T = p->t;
    int before = p->nerr;
    char tb[16];
    for (int ti = T->nthreads; ti < LIT_MAX_THREADS; ti++)
        if (T->threads[ti].nregs) {
            perr(p, p->thr_line[ti], p->thr_col[ti],
                 "initial state of thread %d, but the test has %d thread%s", ti, T->nthreads,
                 T->nthreads > 1 ? "s" : "");
            return -1;
        }
    for (int ti = 0; ti < T->nthreads; ti++) {
        lit_thread *th = &T->threads[ti];
        for (int r = 0; r < th->nregs; r++) {
            if (p->regs[ti][r].typed)
                continue;
            if (T->format == LIT_FMT_THESIS) {
                perr(p, p->regs[ti][r].line, p->regs[ti][r].col,
                     "register '%s' of thread %d has no type: the thesis format declares it (%d:.reg .s32 "
                     "%s;)",
                     th->regs[r].name, ti, ti, th->regs[r].name);
                continue;
            }
            th->regs[r].type = lit_reg_infer_type(th, r);
        }
    }
    if (p->nerr > before)
        return -1;
    for (int k = 0; k < T->nlocs; k++) {
        lit_rtype ty;
        if (!p->locs[k].explicit_type && lit_loc_access_type(T, k, &ty))
            T->locs[k].type = ty;
    }
    for (int ti = 0; ti < T->nthreads; ti++) {
        lit_thread *th = &T->threads[ti];
        thread_label(p, ti, tb, sizeof tb);
        for (int i = 0; i < th->ninsns; i++) {
            lit_insn *in = &th->code[i];
            if (in->op == LIT_BRA) {
                for (int j = 0; j < th->ninsns; j++)
                    if (th->code[j].op == LIT_LABEL && !strcmp(th->code[j].label, in->label))
                        in->target = j;
                if (in->target < 0)
                    perr(p, in->line, in->col, "branch to unknown label '%s' in thread %s", in->label, tb);
            }
            if (in->guard >= 0 && th->regs[in->guard].type != LIT_PRED)
                perr(p, in->line, in->col, "guard '%s' is not a predicate register (it is %s%s)",
                     th->regs[in->guard].name, T->format == LIT_FMT_THESIS ? "declared " : "",
                     (const char *[]){".s32", ".u32", ".b32", ".s64", ".u64", ".b64",
                                      ".pred"}[th->regs[in->guard].type]);
            if (in->op == LIT_SETP && th->regs[in->dst.reg].type != LIT_PRED)
                perr(p, in->line, in->col, "setp writes a predicate, but '%s' is not a .pred register",
                     th->regs[in->dst.reg].name);
            if ((in->op != LIT_SETP && !pred_ok(th, &in->dst)) || !pred_ok(th, &in->addr) ||
                !pred_ok(th, &in->src[0]) || !pred_ok(th, &in->src[1]))
                perr(p, in->line, in->col, "a predicate register can only be a guard or a setp destination");
        }
    }
    if (p->nerr > before)
        return -1;
    /* the memory map: complete in the thesis format */
    for (int k = 0; k < T->nlocs; k++)
        if (T->format == LIT_FMT_THESIS && !p->locs[k].in_map)
            perr(p, p->locs[k].line, p->locs[k].col,
                 "location '%s' is not in the memory map (add '%s: global' or '%s: shared' after the scope "
                 "tree)",
                 T->locs[k].name, T->locs[k].name, T->locs[k].name);
    if (p->nerr > before)
        return -1;
    /* an instruction's explicit state space is its location's region */
    for (int ti = 0; ti < T->nthreads; ti++) {
        const lit_thread *th = &T->threads[ti];
        for (int i = 0; i < th->ninsns; i++) {
            const lit_insn *in = &th->code[i];
            /* a constant must fit a 32-bit instruction's type (as ptxas
             * says of PTX: either signed or unsigned reading) */
            int narrow = in->type == LIT_S32 || in->type == LIT_U32 || in->type == LIT_B32;
            for (int k = 0; k < 2 && narrow; k++)
                if (in->src[k].kind == LIT_O_IMM &&
                    (in->src[k].imm < INT32_MIN || in->src[k].imm > (int64_t)UINT32_MAX))
                    perr(p, in->line, in->col, "the constant %lld does not fit this 32-bit instruction",
                         (long long)in->src[k].imm);
            int k = in->addr.kind == LIT_O_LOC ? in->addr.loc
                    : in->addr.kind == LIT_O_REG ? th->regs[in->addr.reg].init_loc
                                                 : -1;
            for (int j = 0; k >= 0 && in->addr.kind == LIT_O_REG && j < th->ninsns; j++)
                if (th->code[j].dst.kind == LIT_O_REG && th->code[j].dst.reg == in->addr.reg)
                    k = -1; /* (an address the thread computes: not known here) */
            if (k >= 0 && in->addr.imm != 0) {
                perr(p, in->line, in->col,
                     "this access's address is location '%s' %s %lld bytes: an access must address a "
                     "location itself, not inside or past it, so it accesses an address that is no "
                     "location",
                     T->locs[k].name, in->addr.imm < 0 ? "-" : "+",
                     in->addr.imm < 0 ? -(long long)in->addr.imm : (long long)in->addr.imm);
                continue;
            }
            if (k < 0 || in->space == LIT_SP_GENERIC)
                continue;
            int shared = in->space == LIT_SP_SHARED;
            if (shared != (T->locs[k].region == LIT_SHARED))
                perr(p, in->line, in->col,
                     "a .%s access to location '%s', which is in %s memory%s",
                     shared ? "shared" : "global", T->locs[k].name, shared ? "global" : "shared",
                     T->format == LIT_FMT_PTXMM ? " (every location of this format is global)" : "");
        }
    }
    if (p->nerr > before)
        return -1;
    /* shared memory belongs to one CTA */
    for (int k = 0; k < T->nlocs; k++) {
        if (T->locs[k].region != LIT_SHARED)
            continue;
        int first = -1;
        for (int ti = 0; ti < T->nthreads; ti++) {
            const lit_thread *th = &T->threads[ti];
            int uses = 0;
            for (int r = 0; r < th->nregs; r++)
                uses |= th->regs[r].init_loc == k;
            for (int i = 0; i < th->ninsns; i++) {
                const lit_insn *in = &th->code[i];
                uses |= (in->addr.kind == LIT_O_LOC && in->addr.loc == k) ||
                        (in->src[0].kind == LIT_O_LOC && in->src[0].loc == k);
            }
            if (!uses)
                continue;
            if (first < 0) {
                first = ti;
            } else if (T->threads[first].cta != th->cta) {
                int line = p->locs[k].in_map ? p->locs[k].map_line : p->locs[k].line;
                int col = p->locs[k].in_map ? p->locs[k].map_col : p->locs[k].col;
                perr(p, line, col,
                     "shared location '%s' is used by %s and %s, which are in different CTAs (shared memory "
                     "is per CTA)",
                     T->locs[k].name, T->threads[first].name, th->name);
                break;
            }
        }
    }
    return p->nerr > before ? -1 : 0;
}

/* Entry points ------------------------------------------------------------ */

/* herd's filter clause (which runs count) changes what a histogram
 * means: refused by name rather than ignored. */
static int no_filter(parser *p)
{
    ltok *t = peek(p, 0);
    if (!tok_is(t, "filter"))
        return 0;
    perr(p, t->line, t->col,
         "herd's 'filter' clause (count only the runs it accepts) is not supported: remove it, or "
         "make it part of the condition");
    return -1;
}

/* test := header init code [scopetree] [memmap] [locations] cond EOF */
static int parse_test(parser *p)
{
    if (parse_header(p) || parse_init(p) || parse_code(p))
        return -1;
    if (p->t->format != LIT_FMT_PTXMM) {
        if (parse_scope_tree(p))
            return -1;
    } else if (tok_is(peek(p, 0), "ScopeTree") || tok_is(peek(p, 0), "scopeTree")) {
        ltok *t = peek(p, 0);
        perr(p, t->line, t->col, "a PTX test places its threads with 'P0@cta N,gpu 0', not a scope tree");
        return -1;
    }
    if (parse_memory_map(p))
        return -1;
    if (no_filter(p) || (tok_is(peek(p, 0), "locations") && parse_locations(p)) || no_filter(p))
        return -1;
    if (parse_cond(p))
        return -1;
    return finish(p);
}

int lit_parse(const char *text, size_t len, const char *filename, lit_test *out, strbuf *err)
{
    parser ps, *p = &ps;
    memset(p, 0, sizeof *p);
    memset(out, 0, sizeof *out);
    p->text = text ? text : "";
    p->len = text ? len : 0;
    p->line = p->col = 1;
    p->file = filename ? filename : "<input>";
    p->err = err;
    p->t = out;
    snprintf(out->filename, sizeof out->filename, "%s", p->file);
    out->cond = -1;
    for (int i = 0; i < LIT_MAX_THREADS; i++)
        out->threads[i].cta = out->threads[i].warp = -1;
    int rc = parse_test(p) || p->nerr ? -1 : 0;
    if (rc && !p->nerr)
        perr(p, p->line, p->col, "invalid litmus test");
    return rc;
}

int lit_parse_file(const char *path, lit_test *out, strbuf *err)
{
    strbuf text = STRBUF_INIT;
    errno = 0;
    int rc = sb_read_file(&text, path, 16u << 20);
    if (rc) {
        int why = errno;
        memset(out, 0, sizeof *out);
        sb_printf(err, "%s:1:1: error: %s", path,
                  rc == -3 ? "the file is too large for a litmus test (over 16 MiB)"
                  : rc == -2 ? "out of memory reading the file"
                             : "cannot read the file");
        if (rc != -3 && rc != -2 && why)
            sb_printf(err, ": %s", strerror(why));
        sb_putc(err, '\n');
        sb_free(&text);
        return -1;
    }
    rc = lit_parse(text.s, text.len, path, out, err);
    sb_free(&text);
    return rc;
}
