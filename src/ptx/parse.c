/*
 * parse.c -- the PTX parser: tokens (lex.c) to the AST of ast.h.
 *
 * A recursive-descent parser over the grammar nvcc's output uses (PTX ISA
 * 6.x-9.x).  Each parse function starts with the rule it implements.  The
 * parser only checks syntax; names, types and modifiers are checked by the
 * lowering (lower.c), which knows what each instruction accepts.
 *
 * Errors are collected in a diag (file:line:col); after an error the parser
 * skips to the end of the statement (';') or block ('}') and goes on, so
 * one run reports many problems.  It never allocates without checking and
 * never recurses without bound: block nesting and expression depth are
 * limited, so hostile input (the fuzz target) cannot exhaust the stack.
 */
#include "ptx/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/lex.h"

#define MAX_NESTING 64

typedef struct parser {
    lexer lx;
    token tok;        /* current token */
    diag *d;
    ast_module *m;
    arena *A;
    int oom;
    uint16_t loc_file; /* current .loc */
    uint32_t loc_line;
    int depth;         /* recursion guard for blocks and expressions */
    int header;        /* where the module is in its header (HDR_*) */
    int late_version;  /* the first directive was not .version ... */
    ast_loc first_dir; /* ... but this one */
} parser;

static void advance(parser *p) { p->tok = lex_next(&p->lx); }

static ast_loc tok_loc(const token *t) { return (ast_loc){t->line, t->col}; }

static void tok_describe(const token *t, char *buf, size_t n)
{
    switch (t->kind) {
    case TK_EOF:
        snprintf(buf, n, "end of file");
        break;
    case TK_ERROR:
        snprintf(buf, n, "%.*s", (int)t->len, t->text);
        break;
    case TK_STRING:
        snprintf(buf, n, "string \"%.*s\"", (int)(t->len > 40 ? 40 : t->len), t->text);
        break;
    default: {
        /* the token's text, with bytes that would not show (a NUL, a
         * control character, a byte past ASCII) as \xNN */
        size_t k = 0, len = t->len > 60 ? 60 : t->len;
        if (k + 1 < n)
            buf[k++] = '\'';
        for (size_t i = 0; i < len && k + 5 < n; i++) {
            unsigned char c = (unsigned char)t->text[i];
            if (c >= 0x20 && c < 0x7f)
                buf[k++] = (char)c;
            else
                k += (size_t)snprintf(buf + k, n - k, "\\x%02x", c);
        }
        if (k + 1 < n)
            buf[k++] = '\'';
        buf[k < n ? k : n - 1] = 0;
        break;
    }
    }
}

/* "expected X, found Y" at the current token. */
static void expected(parser *p, const char *what)
{
    char found[96];
    tok_describe(&p->tok, found, sizeof found);
    if (p->tok.kind == TK_ERROR)
        diag_error(p->d, tok_loc(&p->tok), "%s", found);
    else
        diag_error(p->d, tok_loc(&p->tok), "expected %s, found %s", what, found);
}

static char *dup_tok(parser *p, const token *t)
{
    char *s = arena_strndup(p->A, t->text, t->len);
    if (!s)
        p->oom = 1;
    return s;
}

static void *alloc(parser *p, size_t n)
{
    void *v = arena_alloc(p->A, n);
    if (!v)
        p->oom = 1;
    return v;
}

static int accept_punct(parser *p, char c)
{
    if (tok_is_punct(&p->tok, c)) {
        advance(p);
        return 1;
    }
    return 0;
}

static int expect_punct(parser *p, char c)
{
    if (accept_punct(p, c))
        return 1;
    char what[8] = {'\'', c, '\'', 0};
    expected(p, what);
    return 0;
}

/* Skip to the end of the statement: past the next ';', or up to (not past)
 * a '{' or '}' so the block structure survives the error. */
static void sync_statement(parser *p)
{
    while (p->tok.kind != TK_EOF) {
        if (tok_is_punct(&p->tok, ';')) {
            advance(p);
            return;
        }
        if (tok_is_punct(&p->tok, '{') || tok_is_punct(&p->tok, '}'))
            return;
        advance(p);
    }
}

static int too_many_errors(const parser *p) { return p->d->nerrors >= DIAG_MAX_ERRORS || p->oom; }

/* ---- constant expressions ----------------------------------------------- */

static int parse_expr(parser *p, int prec, int in_parens, uint64_t *out);

/* primary := INT | '(' expr ')' | ('-' | '~' | '!') primary */
static int parse_unary(parser *p, int in_parens, uint64_t *out)
{
    if (p->depth > MAX_NESTING) {
        expected(p, "a shallower expression");
        return 0;
    }
    if (p->tok.kind == TK_INT) {
        if (p->tok.int_overflow)
            diag_error(p->d, tok_loc(&p->tok), "integer literal does not fit in 64 bits");
        *out = p->tok.bits;
        advance(p);
        return 1;
    }
    if (tok_is_punct(&p->tok, '(')) {
        advance(p);
        p->depth++;
        int ok = parse_expr(p, 0, 1, out);
        p->depth--;
        return ok && expect_punct(p, ')');
    }
    char c = p->tok.kind == TK_PUNCT ? p->tok.punct : 0;
    if (c == '-' || c == '~' || c == '!') {
        advance(p);
        uint64_t v;
        p->depth++;
        int ok = parse_unary(p, in_parens, &v);
        p->depth--;
        if (!ok)
            return 0;
        *out = c == '-' ? (uint64_t)0 - v : c == '~' ? ~v : (uint64_t)(v == 0);
        return 1;
    }
    expected(p, "an integer constant");
    return 0;
}

static int binop_prec(const token *t, int in_parens)
{
    if (t->kind != TK_PUNCT)
        return -1;
    switch (t->punct) {
    case '*': case '/': case '%': return 5;
    case '+': case '-': return 4;
    case '<': case '>': return 3; /* << >> (two tokens) */
    case '&': return 2;
    case '^': return 1;
    case '|': return in_parens ? 0 : -1; /* a|b outside parens is a predicate pair */
    default: return -1;
    }
}

/* expr := unary { binop unary }, precedence climbing, C's precedences. */
static int parse_expr(parser *p, int prec, int in_parens, uint64_t *out)
{
    uint64_t lhs;
    if (!parse_unary(p, in_parens, &lhs))
        return 0;
    for (;;) {
        int bp = binop_prec(&p->tok, in_parens);
        if (bp < prec || bp < 0)
            break;
        char op = p->tok.punct;
        ast_loc oploc = tok_loc(&p->tok);
        advance(p);
        if (op == '<' || op == '>') {
            if (!tok_is_punct(&p->tok, op)) {
                expected(p, op == '<' ? "'<<'" : "'>>'");
                return 0;
            }
            advance(p);
        }
        uint64_t rhs;
        p->depth++;
        int ok = parse_expr(p, bp + 1, in_parens, &rhs);
        p->depth--;
        if (!ok)
            return 0;
        switch (op) {
        case '*': lhs *= rhs; break;
        case '/':
        case '%':
            if (rhs == 0) {
                diag_error(p->d, oploc, "division by zero in a constant expression");
                return 0;
            }
            lhs = op == '/' ? (uint64_t)((int64_t)lhs == INT64_MIN && (int64_t)rhs == -1
                                             ? lhs : (uint64_t)((int64_t)lhs / (int64_t)rhs))
                            : (uint64_t)((int64_t)lhs == INT64_MIN && (int64_t)rhs == -1
                                             ? 0 : (uint64_t)((int64_t)lhs % (int64_t)rhs));
            break;
        case '+': lhs += rhs; break;
        case '-': lhs -= rhs; break;
        case '<': lhs = rhs >= 64 ? 0 : lhs << rhs; break;
        case '>': lhs = rhs >= 64 ? 0 : lhs >> rhs; break;
        case '&': lhs &= rhs; break;
        case '^': lhs ^= rhs; break;
        case '|': lhs |= rhs; break;
        default: break;
        }
    }
    *out = lhs;
    return 1;
}

/* ---- operands --------------------------------------------------------------- */

static int parse_operand(parser *p, ast_opnd *o, int in_call);

/* name := IDENT [ '.' component ]   (%tid.x: the component must touch the name) */
static const char *parse_name(parser *p)
{
    token t = p->tok;
    advance(p);
    if (p->tok.kind == TK_DOTNAME && !p->tok.space_before) {
        size_t n = (size_t)(p->tok.text + p->tok.len - t.text);
        advance(p);
        char *s = arena_strndup(p->A, t.text, n);
        if (!s)
            p->oom = 1;
        return s;
    }
    return dup_tok(p, &t);
}

/* offset := ('+' | '-') expr */
static int parse_offset(parser *p, int64_t *off)
{
    *off = 0;
    if (tok_is_punct(&p->tok, '+') || tok_is_punct(&p->tok, '-')) {
        int neg = p->tok.punct == '-';
        advance(p);
        uint64_t v;
        if (!parse_expr(p, 4 + 1, 0, &v))
            return 0;
        *off = (int64_t)(neg ? 0 - v : v); /* wraps: -(2^63) is INT64_MIN, not UB */
    }
    return 1;
}

/* Parse a comma-separated list of operands up to the closing `close`. */
static int parse_operand_list(parser *p, char close, ast_opnd **out, uint32_t *n, int in_call)
{
    ast_opnd_vec list = {0};
    int ok = 1;
    if (!tok_is_punct(&p->tok, close)) {
        for (;;) {
            ast_opnd o;
            if (!parse_operand(p, &o, in_call)) {
                ok = 0;
                break;
            }
            if (vec_push(&list, o)) {
                p->oom = 1;
                ok = 0;
                break;
            }
            if (!accept_punct(p, ','))
                break;
        }
    }
    if (ok)
        ok = expect_punct(p, close);
    if (ok && list.n) {
        *out = alloc(p, list.n * sizeof(ast_opnd));
        if (*out)
            memcpy(*out, list.v, list.n * sizeof(ast_opnd));
        else
            ok = 0;
    } else {
        *out = NULL;
    }
    *n = (uint32_t)list.n;
    vec_free(&list);
    return ok;
}

/*
 * operand := ['!'] primary ['|' (IDENT | '_')]
 * primary := '_' | name [offset] | expr | FLOAT | '-' FLOAT
 *          | '[' (name [offset] | expr) ']' | '{' operand {',' operand} '}'
 *          | '(' operand-list ')'            (call operands only)
 */
static int parse_operand(parser *p, ast_opnd *o, int in_call)
{
    memset(o, 0, sizeof *o);
    o->loc = tok_loc(&p->tok);
    if (p->depth > MAX_NESTING) {
        expected(p, "a less deeply nested operand");
        return 0;
    }
    if (accept_punct(p, '!'))
        o->neg = 1;
    if (tok_is_punct(&p->tok, '[')) {
        advance(p);
        o->kind = AO_ADDR;
        if (p->tok.kind == TK_IDENT) {
            o->name = parse_name(p);
            if (!parse_offset(p, &o->off))
                return 0;
        } else {
            uint64_t v;
            if (!parse_expr(p, 0, 1, &v))
                return 0;
            o->off = (int64_t)v;
        }
        if (tok_is_punct(&p->tok, ',')) {
            /* texture/surface operands: [tex, {coords}]; kept as a list so the
             * lowering can name the (unsupported) instruction */
            advance(p);
            p->depth++;
            int ok = parse_operand_list(p, ']', &o->elems, &o->nelems, 0);
            p->depth--;
            return ok;
        }
        return expect_punct(p, ']');
    }
    if (tok_is_punct(&p->tok, '{')) {
        advance(p);
        o->kind = AO_VEC;
        p->depth++;
        int ok = parse_operand_list(p, '}', &o->elems, &o->nelems, 0);
        p->depth--;
        if (ok && o->nelems == 0) {
            diag_error(p->d, o->loc, "empty vector operand");
            return 0;
        }
        return ok;
    }
    if (in_call && tok_is_punct(&p->tok, '(')) {
        advance(p);
        o->kind = AO_LIST;
        p->depth++;
        int ok = parse_operand_list(p, ')', &o->elems, &o->nelems, 0);
        p->depth--;
        return ok;
    }
    if (p->tok.kind == TK_F32 || p->tok.kind == TK_F64) {
        o->kind = p->tok.kind == TK_F32 ? AO_F32 : AO_F64;
        o->bits = p->tok.bits;
        advance(p);
        return 1;
    }
    if (tok_is_punct(&p->tok, '-')) {
        /* -0f3F800000 / -1.5 / -(expr) */
        lexer save = p->lx;
        token savetok = p->tok;
        advance(p);
        if (p->tok.kind == TK_F32 || p->tok.kind == TK_F64) {
            o->kind = p->tok.kind == TK_F32 ? AO_F32 : AO_F64;
            o->bits = p->tok.bits ^ (p->tok.kind == TK_F32 ? 0x80000000ull : 0x8000000000000000ull);
            advance(p);
            return 1;
        }
        p->lx = save;
        p->tok = savetok;
    }
    if (p->tok.kind == TK_IDENT) {
        if (p->tok.len == 1 && p->tok.text[0] == '_') {
            o->kind = AO_SINK;
            advance(p);
        } else {
            o->kind = AO_NAME;
            o->name = parse_name(p);
            if (!parse_offset(p, &o->off))
                return 0;
        }
        if (tok_is_punct(&p->tok, '|')) {
            advance(p);
            if (p->tok.kind != TK_IDENT) {
                expected(p, "a predicate register after '|'");
                return 0;
            }
            const char *first = o->kind == AO_SINK ? "_" : o->name;
            o->kind = AO_PAIR;
            o->name = first;
            o->name2 = parse_name(p);
        }
        return 1;
    }
    uint64_t v;
    if (!parse_expr(p, 0, 0, &v))
        return 0;
    o->kind = AO_INT;
    o->bits = v;
    return 1;
}

/* ---- declarations ------------------------------------------------------------ */

static int parse_u32(parser *p, uint32_t *out, const char *what)
{
    uint64_t v;
    ast_loc loc = tok_loc(&p->tok);
    if (p->tok.kind != TK_INT && !tok_is_punct(&p->tok, '(')) {
        expected(p, what);
        return 0;
    }
    if (!parse_expr(p, 0, 0, &v))
        return 0;
    if (v > UINT32_MAX) {
        diag_error(p->d, loc, "%s is too large", what);
        return 0;
    }
    *out = (uint32_t)v;
    return 1;
}

static int is_power_of_two(uint64_t v) { return v && !(v & (v - 1)); }

/* init-item := expr | FLOAT | name [offset] | 'generic' '(' name ')' [offset] | '{' items '}' */
static int parse_init_items(parser *p, ast_init_vec *items, int depth)
{
    if (depth > 8) {
        expected(p, "a less deeply nested initializer");
        return 0;
    }
    if (accept_punct(p, '{')) {
        if (!tok_is_punct(&p->tok, '}')) {
            do {
                if (!parse_init_items(p, items, depth + 1))
                    return 0;
            } while (accept_punct(p, ','));
        }
        return expect_punct(p, '}');
    }
    ast_init it;
    memset(&it, 0, sizeof it);
    it.loc = tok_loc(&p->tok);
    if (p->tok.kind == TK_F32 || p->tok.kind == TK_F64) {
        it.kind = p->tok.kind == TK_F32 ? AI_F32 : AI_F64;
        it.bits = p->tok.bits;
        advance(p);
    } else if (tok_is(&p->tok, "generic")) {
        advance(p);
        if (!expect_punct(p, '('))
            return 0;
        if (p->tok.kind != TK_IDENT) {
            expected(p, "a variable name");
            return 0;
        }
        it.kind = AI_GENERIC_SYM;
        it.name = dup_tok(p, &p->tok);
        advance(p);
        if (!expect_punct(p, ')') || !parse_offset(p, &it.off))
            return 0;
    } else if (p->tok.kind == TK_IDENT) {
        it.kind = AI_SYM;
        it.name = dup_tok(p, &p->tok);
        advance(p);
        if (!parse_offset(p, &it.off))
            return 0;
    } else if (tok_is_punct(&p->tok, '-') || p->tok.kind == TK_INT || tok_is_punct(&p->tok, '(') ||
               tok_is_punct(&p->tok, '~')) {
        lexer save = p->lx;
        token savetok = p->tok;
        if (tok_is_punct(&p->tok, '-')) {
            advance(p);
            if (p->tok.kind == TK_F32 || p->tok.kind == TK_F64) {
                it.kind = p->tok.kind == TK_F32 ? AI_F32 : AI_F64;
                it.bits = p->tok.bits ^ (it.kind == AI_F32 ? 0x80000000ull : 0x8000000000000000ull);
                advance(p);
                return vec_push(items, it) ? (p->oom = 1, 0) : 1;
            }
            p->lx = save;
            p->tok = savetok;
        }
        uint64_t v;
        if (!parse_expr(p, 0, 0, &v))
            return 0;
        it.kind = AI_INT;
        it.bits = v;
    } else {
        expected(p, "an initializer value");
        return 0;
    }
    if (vec_push(items, it)) {
        p->oom = 1;
        return 0;
    }
    return 1;
}

/*
 * Variable attributes, in any order:
 *   .align N | .vN | type | .ptr [.space] [.align N] | .attribute(...)
 * Fills v; stops at the first token that is not an attribute.
 */
static int parse_var_attrs(parser *p, ast_var *v)
{
    for (;;) {
        if (p->tok.kind != TK_DOTNAME)
            return 1;
        ast_loc loc = tok_loc(&p->tok);
        char word[24];
        size_t n = p->tok.len < sizeof word - 1 ? p->tok.len : sizeof word - 1;
        memcpy(word, p->tok.text, n);
        word[n] = 0;
        ptx_type t = ptx_type_from_name(word);
        if (t != PT_NONE) {
            if (v->type != PT_NONE)
                diag_error(p->d, loc, "a second type '%s' in one declaration", word);
            v->type = (uint8_t)t;
            advance(p);
        } else if (!strcmp(word, ".align")) {
            advance(p);
            uint32_t a;
            if (!parse_u32(p, &a, "an alignment"))
                return 0;
            if (!is_power_of_two(a)) {
                diag_error(p->d, loc, ".align %u is not a power of two", a);
                return 0;
            }
            v->align = a;
        } else if (!strcmp(word, ".v2") || !strcmp(word, ".v4") || !strcmp(word, ".v8")) {
            v->vec = (uint8_t)(word[2] - '0');
            advance(p);
        } else if (!strcmp(word, ".ptr")) {
            advance(p);
            v->ptr_space = SP_GENERIC;
            while (p->tok.kind == TK_DOTNAME) {
                if (tok_is(&p->tok, ".global"))
                    v->ptr_space = SP_GLOBAL;
                else if (tok_is(&p->tok, ".shared"))
                    v->ptr_space = SP_SHARED;
                else if (tok_is(&p->tok, ".const"))
                    v->ptr_space = SP_CONST;
                else if (tok_is(&p->tok, ".local"))
                    v->ptr_space = SP_LOCAL;
                else if (tok_is(&p->tok, ".align")) {
                    advance(p);
                    if (!parse_u32(p, &v->ptr_align, "an alignment"))
                        return 0;
                    continue;
                } else
                    break;
                advance(p);
            }
        } else if (!strcmp(word, ".attribute")) {
            advance(p);
            if (!expect_punct(p, '('))
                return 0;
            while (p->tok.kind == TK_DOTNAME || tok_is_punct(&p->tok, ','))
                advance(p);
            if (!expect_punct(p, ')'))
                return 0;
        } else if (!strcmp(word, ".texref") || !strcmp(word, ".surfref") ||
                   !strcmp(word, ".samplerref")) {
            diag_unsupported(p->d, loc, "'%s' variables (textures and surfaces) are not supported yet",
                             word);
            return 0;
        } else {
            return 1;
        }
    }
}

/* One declarator: name ['<' N '>'] {'[' [N] ']'} ['=' init]. Appends to out. */
static int parse_declarator(parser *p, const ast_var *proto, int allow_init, ast_var_vec *out)
{
    if (p->tok.kind != TK_IDENT) {
        expected(p, "a name");
        return 0;
    }
    ast_var v = *proto;
    v.loc = tok_loc(&p->tok);
    v.name = dup_tok(p, &p->tok);
    v.count = 1;
    advance(p);
    if (tok_is_punct(&p->tok, '<') && !p->tok.space_before) {
        advance(p);
        if (p->tok.kind != TK_INT || p->tok.bits > UINT32_MAX) {
            expected(p, "a register count");
            return 0;
        }
        uint32_t n = (uint32_t)p->tok.bits;
        advance(p);
        if (!expect_punct(p, '>'))
            return 0;
        if (v.space != SP_REG) {
            diag_error(p->d, v.loc, "'<N>' ranges are only for .reg declarations");
            return 0;
        }
        if (n == 0 || n > (1u << 20)) {
            diag_error(p->d, v.loc, "register count %u out of range (1..%u)", n, 1u << 20);
            return 0;
        }
        v.nregs = n;
    }
    while (tok_is_punct(&p->tok, '[')) {
        ast_loc bl = tok_loc(&p->tok);
        advance(p);
        v.is_array = 1;
        if (accept_punct(p, ']')) {
            if (v.is_unsized) {
                diag_error(p->d, bl, "only the first array dimension can be left out");
                return 0;
            }
            v.is_unsized = 1;
            v.count = 0;
            continue;
        }
        uint64_t n;
        if (!parse_expr(p, 0, 1, &n) || !expect_punct(p, ']'))
            return 0;
        if (n == 0 || n > (1ull << 40) || (v.count && n > (1ull << 40) / v.count)) {
            diag_error(p->d, bl, "array size %llu out of range", (unsigned long long)n);
            return 0;
        }
        v.count = v.is_unsized ? n : v.count * n;
        if (v.is_unsized)
            v.count = 0; /* element count decided by the initializer */
    }
    if (tok_is_punct(&p->tok, '=')) {
        ast_loc eq = tok_loc(&p->tok);
        advance(p);
        if (!allow_init) {
            diag_error(p->d, eq, "this declaration cannot have an initializer");
            return 0;
        }
        ast_init_vec items = {0};
        int ok = parse_init_items(p, &items, 0);
        if (ok && items.n) {
            v.init = alloc(p, items.n * sizeof(ast_init));
            if (v.init)
                memcpy(v.init, items.v, items.n * sizeof(ast_init));
            v.ninit = (uint32_t)items.n;
        }
        vec_free(&items);
        if (!ok)
            return 0;
    }
    if (vec_push(out, v)) {
        p->oom = 1;
        return 0;
    }
    return 1;
}

/*
 * var-decl := space attrs declarator {',' declarator} ';'
 * The space token is current.  linkage comes from a preceding word.
 */
static int parse_var_decl(parser *p, int linkage, uint32_t scope, ast_var_vec *out)
{
    ast_var proto;
    memset(&proto, 0, sizeof proto);
    proto.linkage = (uint8_t)linkage;
    proto.scope = scope;
    proto.vec = 1;
    if (tok_is(&p->tok, ".reg"))
        proto.space = SP_REG;
    else if (tok_is(&p->tok, ".global"))
        proto.space = SP_GLOBAL;
    else if (tok_is(&p->tok, ".shared"))
        proto.space = SP_SHARED;
    else if (tok_is(&p->tok, ".local"))
        proto.space = SP_LOCAL;
    else if (tok_is(&p->tok, ".const"))
        proto.space = SP_CONST;
    else
        proto.space = SP_PARAM;
    ast_loc loc = tok_loc(&p->tok);
    advance(p);
    if (!parse_var_attrs(p, &proto))
        return 0;
    if (proto.type == PT_NONE) {
        expected(p, "a type (.u32, .f32, .b8, ...)");
        return 0;
    }
    (void)loc;
    int allow_init = proto.space == SP_GLOBAL || proto.space == SP_CONST;
    do {
        if (!parse_declarator(p, &proto, allow_init, out))
            return 0;
    } while (accept_punct(p, ','));
    return expect_punct(p, ';');
}

/* param := ('.param' | '.reg') attrs name {'[' N ']'} */
static int parse_param(parser *p, ast_var_vec *out)
{
    if (!tok_is(&p->tok, ".param") && !tok_is(&p->tok, ".reg")) {
        expected(p, "'.param'");
        return 0;
    }
    ast_var proto;
    memset(&proto, 0, sizeof proto);
    proto.space = tok_is(&p->tok, ".reg") ? SP_REG : SP_PARAM;
    proto.vec = 1;
    advance(p);
    if (!parse_var_attrs(p, &proto))
        return 0;
    if (proto.type == PT_NONE) {
        expected(p, "a parameter type");
        return 0;
    }
    if (p->tok.kind == TK_IDENT && p->tok.len == 1 && p->tok.text[0] == '_') {
        /* prototypes name parameters '_' */
        ast_var v = proto;
        v.loc = tok_loc(&p->tok);
        v.name = "_";
        v.count = 1;
        advance(p);
        while (tok_is_punct(&p->tok, '[')) {
            advance(p);
            uint64_t n;
            if (!parse_expr(p, 0, 1, &n) || !expect_punct(p, ']'))
                return 0;
            v.is_array = 1;
            v.count *= n ? n : 1;
        }
        if (vec_push(out, v)) {
            p->oom = 1;
            return 0;
        }
        return 1;
    }
    return parse_declarator(p, &proto, 0, out);
}

/* param-list := '(' [param {',' param}] ')' */
static int parse_param_list(parser *p, ast_var **vars, uint32_t *n)
{
    ast_var_vec list = {0};
    int ok = expect_punct(p, '(');
    if (ok && !tok_is_punct(&p->tok, ')')) {
        do {
            if (!parse_param(p, &list)) {
                ok = 0;
                break;
            }
        } while (accept_punct(p, ','));
    }
    if (ok)
        ok = expect_punct(p, ')');
    *vars = NULL;
    *n = 0;
    if (ok && list.n) {
        *vars = alloc(p, list.n * sizeof(ast_var));
        if (*vars)
            memcpy(*vars, list.v, list.n * sizeof(ast_var));
        *n = (uint32_t)list.n;
    }
    vec_free(&list);
    return ok;
}

/* ---- function bodies ------------------------------------------------------- */

/* .loc file line col [, ...rest of line] -- no terminating ';' */
static void parse_loc(parser *p)
{
    uint32_t line = p->tok.line;
    advance(p);
    uint64_t vals[3] = {0, 0, 0};
    for (int i = 0; i < 3 && p->tok.kind == TK_INT && p->tok.line == line; i++) {
        vals[i] = p->tok.bits;
        advance(p);
    }
    while (p->tok.kind != TK_EOF && p->tok.line == line && !tok_is_punct(&p->tok, ';') &&
           !tok_is_punct(&p->tok, '}'))
        advance(p);
    accept_punct(p, ';');
    p->loc_file = (uint16_t)(vals[0] > 0xffff ? 0 : vals[0]);
    p->loc_line = (uint32_t)(vals[1] > UINT32_MAX ? 0 : vals[1]);
}

/* insn := [ '@' ['!'] IDENT ] IDENT {DOTNAME} [operand {',' operand}] ';' */
static int parse_insn(parser *p, ast_func *f, uint32_t scope)
{
    ast_insn in;
    memset(&in, 0, sizeof in);
    in.scope = scope;
    in.src_file = p->loc_file;
    in.src_line = p->loc_line;
    if (accept_punct(p, '@')) {
        if (accept_punct(p, '!'))
            in.guard_neg = 1;
        if (p->tok.kind != TK_IDENT) {
            expected(p, "a predicate register after '@'");
            return 0;
        }
        in.guardloc = tok_loc(&p->tok);
        in.guard = dup_tok(p, &p->tok);
        advance(p);
    }
    if (p->tok.kind != TK_IDENT) {
        expected(p, "an instruction");
        return 0;
    }
    in.loc = tok_loc(&p->tok);
    in.op = dup_tok(p, &p->tok);
    advance(p);
    while (p->tok.kind == TK_DOTNAME && !p->tok.space_before) {
        if (in.nmods == AST_MAX_MODS) {
            diag_error(p->d, tok_loc(&p->tok), "too many modifiers on '%s'", in.op);
            return 0;
        }
        in.modlocs[in.nmods] = tok_loc(&p->tok);
        in.mods[in.nmods++] = dup_tok(p, &p->tok);
        advance(p);
    }
    int in_call = in.op && !strcmp(in.op, "call");
    if (!tok_is_punct(&p->tok, ';')) {
        ast_opnd_vec ops = {0};
        int ok = 1;
        for (;;) {
            ast_opnd o;
            if (!parse_operand(p, &o, in_call)) {
                ok = 0;
                break;
            }
            if (vec_push(&ops, o)) {
                p->oom = 1;
                ok = 0;
                break;
            }
            if (!accept_punct(p, ','))
                break;
        }
        if (ok && ops.n) {
            in.ops = alloc(p, ops.n * sizeof(ast_opnd));
            if (in.ops)
                memcpy(in.ops, ops.v, ops.n * sizeof(ast_opnd));
            in.nops = (uint32_t)ops.n;
        }
        vec_free(&ops);
        if (!ok)
            return 0;
    }
    if (!expect_punct(p, ';'))
        return 0;
    if (vec_push(&f->insns, in)) {
        p->oom = 1;
        return 0;
    }
    return 1;
}

/* proto := IDENT ':' '.callprototype' ['(' param ')'] '_' ['(' params ')'] ';' */
static int parse_callprototype(parser *p, ast_func *f, const token *name, uint32_t scope)
{
    ast_proto pr;
    memset(&pr, 0, sizeof pr);
    pr.name = dup_tok(p, name);
    pr.loc = tok_loc(name);
    pr.scope = scope;
    advance(p); /* .callprototype */
    if (tok_is_punct(&p->tok, '(') && !parse_param_list(p, &pr.rets, &pr.nrets))
        return 0;
    if (!(p->tok.kind == TK_IDENT && p->tok.len == 1 && p->tok.text[0] == '_')) {
        expected(p, "'_' in .callprototype");
        return 0;
    }
    advance(p);
    if (tok_is_punct(&p->tok, '(') && !parse_param_list(p, &pr.params, &pr.nparams))
        return 0;
    while (p->tok.kind == TK_DOTNAME) /* .noreturn, ... */
        advance(p);
    if (!expect_punct(p, ';'))
        return 0;
    if (vec_push(&f->protos, pr)) {
        p->oom = 1;
        return 0;
    }
    return 1;
}

/* block := '{' { statement } '}'   (the '{' has been consumed) */
static void parse_block(parser *p, ast_func *f, uint32_t scope)
{
    for (;;) {
        if (too_many_errors(p))
            return;
        token t = p->tok;
        if (t.kind == TK_EOF) {
            expected(p, "'}' closing the function body");
            return;
        }
        if (tok_is_punct(&t, '}')) {
            advance(p);
            return;
        }
        if (tok_is_punct(&t, ';')) {
            advance(p);
            continue;
        }
        if (tok_is_punct(&t, '{')) {
            advance(p);
            if (p->depth >= MAX_NESTING) {
                diag_error(p->d, tok_loc(&t), "blocks nested more than %d deep", MAX_NESTING);
                return;
            }
            uint32_t child = (uint32_t)f->scope_parent.n;
            if (vec_push(&f->scope_parent, scope)) {
                p->oom = 1;
                return;
            }
            p->depth++;
            parse_block(p, f, child);
            p->depth--;
            continue;
        }
        if (t.kind == TK_DOTNAME) {
            int ok = 1;
            if (tok_is(&t, ".reg") || tok_is(&t, ".local") || tok_is(&t, ".shared") ||
                tok_is(&t, ".param") || tok_is(&t, ".const") || tok_is(&t, ".global")) {
                ok = parse_var_decl(p, AL_NONE, scope, &f->vars);
            } else if (tok_is(&t, ".loc")) {
                parse_loc(p);
            } else if (tok_is(&t, ".pragma")) {
                advance(p);
                if (p->tok.kind != TK_STRING) {
                    expected(p, "a string after .pragma");
                    ok = 0;
                } else {
                    advance(p);
                    ok = expect_punct(p, ';');
                }
            } else if (tok_is(&t, ".file")) {
                /* tolerated inside bodies: skip to the end of the line */
                uint32_t line = t.line;
                while (p->tok.kind != TK_EOF && p->tok.line == line)
                    advance(p);
            } else if (tok_is(&t, ".branchtargets")) {
                diag_unsupported(p->d, tok_loc(&t), "'.branchtargets' (brx.idx jump tables) is not supported yet");
                ok = 0;
            } else {
                char what[64];
                tok_describe(&t, what, sizeof what);
                diag_error(p->d, tok_loc(&t), "unknown directive %s in a function body", what);
                ok = 0;
            }
            if (!ok)
                sync_statement(p);
            continue;
        }
        if (t.kind == TK_IDENT) {
            /* label or prototype: IDENT ':' */
            lexer save = p->lx;
            advance(p);
            if (tok_is_punct(&p->tok, ':')) {
                advance(p);
                if (tok_is(&p->tok, ".callprototype")) {
                    if (!parse_callprototype(p, f, &t, scope))
                        sync_statement(p);
                    continue;
                }
                ast_label l;
                l.name = dup_tok(p, &t);
                l.loc = tok_loc(&t);
                l.insn = (uint32_t)f->insns.n;
                l.scope = scope;
                if (vec_push(&f->labels, l))
                    p->oom = 1;
                continue;
            }
            p->lx = save;
            p->tok = t;
        }
        if (t.kind == TK_IDENT || tok_is_punct(&t, '@')) {
            if (!parse_insn(p, f, scope))
                sync_statement(p);
            continue;
        }
        expected(p, "an instruction, a label or a declaration");
        sync_statement(p);
        if (p->tok.kind == TK_EOF)
            return;
        if (tok_is_punct(&p->tok, '{')) /* don't loop on a stray '{' we refused */
            continue;
    }
}

/*
 * func := ('.entry' | '.func') ['(' rets ')'] IDENT ['(' params ')']
 *         { perf-directive } (';' | '{' body '}')
 */
static void parse_func(parser *p, int linkage)
{
    ast_func f;
    memset(&f, 0, sizeof f);
    f.linkage = (uint8_t)linkage;
    f.is_entry = tok_is(&p->tok, ".entry");
    ast_loc kwloc = tok_loc(&p->tok);
    advance(p);
    if (!f.is_entry && tok_is_punct(&p->tok, '(')) {
        if (!parse_param_list(p, &f.rets, &f.nrets))
            goto fail;
    }
    if (p->tok.kind != TK_IDENT) {
        expected(p, f.is_entry ? "a kernel name" : "a function name");
        goto fail;
    }
    f.name = dup_tok(p, &p->tok);
    f.loc = tok_loc(&p->tok);
    advance(p);
    if (tok_is_punct(&p->tok, '(') && !parse_param_list(p, &f.params, &f.nparams))
        goto fail;
    for (;;) {
        token t = p->tok;
        if (tok_is(&t, ".maxntid") || tok_is(&t, ".reqntid") || tok_is(&t, ".reqnctapercluster")) {
            uint32_t *dst = tok_is(&t, ".maxntid") ? f.maxntid : tok_is(&t, ".reqntid") ? f.reqntid : NULL;
            uint32_t tmp[3] = {1, 1, 1};
            int said_zero = 0;
            advance(p);
            for (int i = 0; i < 3; i++) {
                ast_loc vloc = tok_loc(&p->tok);
                if (!parse_u32(p, &tmp[i], "a thread count"))
                    goto fail;
                if (!tmp[i] && dst && !said_zero++) /* ptxas: "Positive non-zero value expected" */
                    diag_error(p->d, vloc, "%.*s needs positive thread counts, not 0",
                               (int)t.len, t.text);
                if (!accept_punct(p, ','))
                    break;
            }
            if (dst)
                memcpy(dst, tmp, sizeof tmp);
        } else if (tok_is(&t, ".minnctapersm") || tok_is(&t, ".maxnreg") ||
                   tok_is(&t, ".maxnctapersm") || tok_is(&t, ".maxclusterrank")) {
            uint32_t v;
            advance(p);
            ast_loc vloc = tok_loc(&p->tok);
            if (!parse_u32(p, &v, "a count"))
                goto fail;
            if (!v && (tok_is(&t, ".maxnreg") || tok_is(&t, ".minnctapersm")))
                diag_error(p->d, vloc, "%.*s needs a positive count, not 0", (int)t.len, t.text);
            if (tok_is(&t, ".minnctapersm"))
                f.minnctapersm = v;
            else if (tok_is(&t, ".maxnreg"))
                f.maxnreg = v;
        } else if (tok_is(&t, ".noreturn")) {
            f.noreturn = 1;
            advance(p);
        } else if (tok_is(&t, ".explicitcluster") || tok_is(&t, ".blocksareclusters")) {
            advance(p);
        } else if (tok_is(&t, ".pragma")) {
            advance(p);
            if (p->tok.kind != TK_STRING) {
                expected(p, "a string after .pragma");
                goto fail;
            }
            advance(p);
            if (!expect_punct(p, ';'))
                goto fail;
        } else {
            break;
        }
    }
    if (accept_punct(p, ';')) {
        f.has_body = 0;
    } else if (accept_punct(p, '{')) {
        f.has_body = 1;
        if (vec_push(&f.scope_parent, 0u)) {
            p->oom = 1;
            goto fail;
        }
        p->loc_file = 0;
        p->loc_line = 0;
        parse_block(p, &f, 0);
    } else {
        expected(p, "'{' or ';' after the function header");
        goto fail;
    }
    if (vec_push(&p->m->funcs, f)) {
        p->oom = 1;
        goto fail;
    }
    return;
fail:
    (void)kwloc;
    vec_free(&f.insns);
    vec_free(&f.labels);
    vec_free(&f.vars);
    vec_free(&f.protos);
    vec_free(&f.scope_parent);
    sync_statement(p);
    /* a body we could not enter: skip it whole */
    if (tok_is_punct(&p->tok, '{')) {
        int depth = 0;
        do {
            if (tok_is_punct(&p->tok, '{'))
                depth++;
            else if (tok_is_punct(&p->tok, '}'))
                depth--;
            advance(p);
        } while (depth > 0 && p->tok.kind != TK_EOF);
    }
}

/* ---- module level ------------------------------------------------------------ */

/* .section name { ... } : debug sections from -G; skipped whole. */
static void skip_section(parser *p)
{
    advance(p);
    while (p->tok.kind != TK_EOF && !tok_is_punct(&p->tok, '{'))
        advance(p);
    int depth = 0;
    while (p->tok.kind != TK_EOF) {
        if (tok_is_punct(&p->tok, '{'))
            depth++;
        else if (tok_is_punct(&p->tok, '}') && --depth == 0) {
            advance(p);
            return;
        }
        advance(p);
    }
}

/* A .target word: sm_NN / compute_NN (NN one to three digits, then a
 * or f), or one of the target modifiers. */
static int valid_target(const token *t)
{
    static const char *const mods[] = {"texmode_unified", "texmode_independent", "debug",
                                       "map_f64_to_f32"};
    for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++)
        if (t->len == strlen(mods[i]) && !memcmp(t->text, mods[i], t->len))
            return 1;
    const char *s = t->text, *e = t->text + t->len;
    if (t->len > 3 && !memcmp(s, "sm_", 3))
        s += 3;
    else if (t->len > 8 && !memcmp(s, "compute_", 8))
        s += 8;
    else
        return 0;
    int nd = 0;
    while (s < e && *s >= '0' && *s <= '9')
        s++, nd++;
    if (s < e && (*s == 'a' || *s == 'f'))
        s++;
    return nd >= 1 && nd <= 3 && s == e;
}

/* .version MAJOR.MINOR -- the lexer reads "9.0" as a decimal float literal. */
static void parse_version(parser *p)
{
    ast_loc loc = tok_loc(&p->tok);
    advance(p);
    if (p->tok.kind != TK_F64 && p->tok.kind != TK_INT) {
        expected(p, "a version number such as 9.0");
        sync_statement(p);
        return;
    }
    /* MAJOR.MINOR, each one to three digits: no overflow can wrap a huge
     * number into a plausible version */
    unsigned maj = 0, min = 0;
    const char *s = p->tok.text, *e = s + p->tok.len;
    int nd = 0;
    while (s < e && *s >= '0' && *s <= '9' && nd < 4)
        maj = maj * 10 + (unsigned)(*s++ - '0'), nd++;
    int ok = nd >= 1 && nd <= 3;
    if (ok && s < e && *s == '.') {
        s++;
        nd = 0;
        while (s < e && *s >= '0' && *s <= '9' && nd < 4)
            min = min * 10 + (unsigned)(*s++ - '0'), nd++;
        ok = nd >= 1 && nd <= 3;
    }
    if (!ok || s != e) {
        expected(p, "a version number such as 9.0");
        advance(p);
        return;
    }
    advance(p);
    p->m->version_major = maj;
    p->m->version_minor = min;
    if (maj < 6 || maj > 9)
        diag_unsupported(p->d, loc, "PTX ISA version %u.%u is not supported (6.x to 9.x are)", maj, min);
}

/*
 * The header, as ptxas wants it: .version first, then .target (which may
 * be repeated with the same target), before any other directive; neither
 * comes again later.  Reports the first violation only.
 */
enum { HDR_START, HDR_VERSION, HDR_TARGET, HDR_BODY, HDR_BAD };

static void check_header(parser *p, const token *t)
{
    int is_version = tok_is(t, ".version"), is_target = tok_is(t, ".target");
    const char *what = NULL;
    switch (p->header) {
    case HDR_START:
        if (!is_version) {
            /* reported at the end: "missing .version directive" if there is
             * none at all, or that it came too late */
            p->late_version = 1;
            p->first_dir = tok_loc(t);
            p->header = HDR_BAD;
            return;
        }
        p->header = HDR_VERSION;
        break;
    case HDR_VERSION:
        if (!is_target)
            what = is_version ? "a second .version directive"
                              : "a .target directive must follow .version";
        p->header = HDR_TARGET;
        break;
    case HDR_TARGET: case HDR_BODY:
        if (is_version)
            what = "a second .version directive";
        else if (is_target && p->header == HDR_BODY)
            what = ".target must directly follow .version";
        else if (!is_target)
            p->header = HDR_BODY;
        break;
    default:
        return;
    }
    if (what) {
        diag_error(p->d, tok_loc(t), "%s", what);
        p->header = HDR_BAD;
    }
}

/* module := { directive } */
static void parse_module(parser *p)
{
    int linkage = AL_NONE;
    ast_loc linkloc = {0, 0};
    while (p->tok.kind != TK_EOF && !too_many_errors(p)) {
        token t = p->tok;
        if (tok_is_punct(&t, ';')) {
            advance(p);
            continue;
        }
        if (t.kind != TK_DOTNAME) {
            char what[96];
            tok_describe(&t, what, sizeof what);
            if (t.kind == TK_ERROR)
                diag_error(p->d, tok_loc(&t), "%s", what);
            else
                diag_error(p->d, tok_loc(&t), "expected a directive at module scope, found %s", what);
            advance(p);
            sync_statement(p);
            continue;
        }
        check_header(p, &t);
        if (tok_is(&t, ".visible") || tok_is(&t, ".extern") || tok_is(&t, ".weak") ||
            tok_is(&t, ".common")) {
            if (linkage != AL_NONE)
                diag_error(p->d, tok_loc(&t), "two linkage directives in a row");
            linkage = tok_is(&t, ".visible") ? AL_VISIBLE
                      : tok_is(&t, ".extern") ? AL_EXTERN
                      : tok_is(&t, ".weak")   ? AL_WEAK
                                              : AL_COMMON;
            linkloc = tok_loc(&t);
            advance(p);
            continue;
        }
        if (tok_is(&t, ".entry") || tok_is(&t, ".func")) {
            parse_func(p, linkage);
        } else if (tok_is(&t, ".global") || tok_is(&t, ".const") || tok_is(&t, ".shared") ||
                   tok_is(&t, ".local")) {
            if (!parse_var_decl(p, linkage, 0, &p->m->vars))
                sync_statement(p);
        } else if (linkage != AL_NONE) {
            diag_error(p->d, linkloc, "a linkage directive must precede .entry, .func or a variable");
            linkage = AL_NONE;
            continue;
        } else if (tok_is(&t, ".version")) {
            parse_version(p);
        } else if (tok_is(&t, ".target")) {
            advance(p);
            int first = 1;
            do {
                if (p->tok.kind != TK_IDENT) {
                    expected(p, "a target name such as sm_75");
                    break;
                }
                if (!valid_target(&p->tok))
                    diag_error(p->d, tok_loc(&p->tok),
                               "unknown target '%.*s' (expected sm_NN or compute_NN, NN up to 3 "
                               "digits, optionally with a or f, or texmode_unified, "
                               "texmode_independent, debug, map_f64_to_f32)",
                               (int)(p->tok.len > 64 ? 64 : p->tok.len), p->tok.text);
                if (first && p->m->target &&
                    (strlen(p->m->target) != p->tok.len ||
                     memcmp(p->m->target, p->tok.text, p->tok.len)))
                    diag_error(p->d, tok_loc(&p->tok),
                               "conflicting .target '%.*s' (the file already said '%s')",
                               (int)(p->tok.len > 64 ? 64 : p->tok.len), p->tok.text,
                               p->m->target);
                if (first && !p->m->target)
                    p->m->target = dup_tok(p, &p->tok);
                first = 0;
                advance(p);
            } while (accept_punct(p, ','));
        } else if (tok_is(&t, ".address_size")) {
            advance(p);
            uint32_t n;
            ast_loc loc = tok_loc(&p->tok);
            if (parse_u32(p, &n, "32 or 64")) {
                p->m->address_size = n;
                if (n != 64)
                    diag_unsupported(p->d, loc, ".address_size %u is not supported (only 64)", n);
            }
        } else if (tok_is(&t, ".file")) {
            advance(p);
            uint32_t id;
            if (parse_u32(p, &id, "a file number")) {
                if (p->tok.kind != TK_STRING) {
                    expected(p, "a file name string");
                } else {
                    ast_file fl = {id, dup_tok(p, &p->tok)};
                    if (vec_push(&p->m->files, fl))
                        p->oom = 1;
                    advance(p);
                    while (accept_punct(p, ',')) { /* timestamp, size */
                        uint64_t dummy;
                        if (!parse_expr(p, 0, 0, &dummy))
                            break;
                    }
                }
            }
        } else if (tok_is(&t, ".section")) {
            skip_section(p);
        } else if (tok_is(&t, ".pragma")) {
            advance(p);
            if (p->tok.kind == TK_STRING)
                advance(p);
            else
                expected(p, "a string after .pragma");
            expect_punct(p, ';');
        } else if (tok_is(&t, ".loc")) {
            parse_loc(p);
        } else {
            char what[96];
            tok_describe(&t, what, sizeof what);
            if (tok_is(&t, ".alias"))
                diag_unsupported(p->d, tok_loc(&t), "directive %s is not supported", what);
            else
                diag_error(p->d, tok_loc(&t), "unknown directive %s", what);
            advance(p);
            sync_statement(p);
        }
        linkage = AL_NONE;
    }
}

int ptx_parse(const char *src, size_t len, const char *filename, ast_module *m, diag *d)
{
    return ptx_parse_at(src, len, filename, 1, m, d);
}

int ptx_parse_at(const char *src, size_t len, const char *filename, uint32_t first_line,
                 ast_module *m, diag *d)
{
    int before = d->nerrors; /* d may hold other texts' messages (link.c) */
    memset(m, 0, sizeof *m);
    arena_init(&m->mem);
    m->filename = filename;
    parser p;
    memset(&p, 0, sizeof p);
    p.d = d;
    p.m = m;
    p.A = &m->mem;
    lex_init(&p.lx, src, len);
    p.lx.line = first_line ? first_line : 1;
    advance(&p);
    parse_module(&p);
    if (p.oom) {
        d->oom = 1;
        diag_error(d, tok_loc(&p.tok), "out of host memory while parsing");
    }
    if (!m->version_major && d->nerrors == before)
        diag_error(d, (ast_loc){first_line ? first_line : 1, 1},
                   "missing .version directive");
    else if (p.late_version)
        diag_error(d, p.first_dir, ".version must be the first directive");
    else if (!m->target && d->nerrors == before)
        diag_error(d, tok_loc(&p.tok), "missing .target directive (after .version)");
    return d->nerrors > before ? -1 : 0;
}

void ast_module_free(ast_module *m)
{
    for (size_t i = 0; i < m->funcs.n; i++) {
        ast_func *f = &m->funcs.v[i];
        vec_free(&f->insns);
        vec_free(&f->labels);
        vec_free(&f->vars);
        vec_free(&f->protos);
        vec_free(&f->scope_parent);
    }
    vec_free(&m->funcs);
    vec_free(&m->vars);
    vec_free(&m->files);
    arena_free(&m->mem);
}
