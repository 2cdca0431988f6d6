/*
 * lex.h -- the PTX lexer: turns PTX text into tokens carrying their line and
 * column.  Comments (// and block) vanish here; everything else is a token.
 * The parser (parse.c) pulls tokens one at a time with one token of
 * lookahead it keeps itself.
 *
 * Identifier tokens cover registers (%r1, %tid), labels ($L__BB0_2), plain
 * names (vprintf, r0 in inline asm) and opcodes (ld); `.name` is its own
 * DOTNAME token, so "ld.global.u32" is IDENT DOTNAME DOTNAME with no gaps
 * between them (tok.space_before tells the parser whether there was a gap).
 */
#ifndef LOCKSTEP_PTX_LEX_H
#define LOCKSTEP_PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

typedef enum tok_kind {
    TK_EOF = 0,
    TK_IDENT,   /* [A-Za-z][A-Za-z0-9_$]* or [_$%][A-Za-z0-9_$]+ */
    TK_DOTNAME, /* .version, .u32, .global ... (text includes the dot) */
    TK_INT,     /* decimal, 0x hex, 0 octal, 0b binary; optional U suffix */
    TK_F32,     /* 0fXXXXXXXX: value in .bits */
    TK_F64,     /* 0dXXXXXXXXXXXXXXXX, or a decimal literal with . or exponent */
    TK_STRING,  /* "..." (text excludes the quotes; escapes kept verbatim) */
    TK_PUNCT,   /* one character: , ; : ( ) [ ] { } < > + - * / % ! @ | & ^ ~ = ? */
    TK_ERROR    /* a character or literal the lexer cannot read; text says why */
} tok_kind;

typedef struct token {
    tok_kind kind;
    char punct;        /* for TK_PUNCT */
    uint8_t space_before; /* whitespace or a comment precedes the token */
    uint8_t unsigned_suffix; /* TK_INT written with a U suffix */
    uint8_t int_overflow; /* TK_INT too large for 64 bits */
    uint32_t line, col;
    const char *text;  /* points into the source; not NUL-terminated */
    uint32_t len;
    uint64_t bits;     /* TK_INT value, TK_F32/TK_F64 IEEE bits */
} token;

typedef struct lexer {
    const char *src;
    size_t len;
    size_t pos;
    uint32_t line;
    uint32_t line_start; /* pos of the first character of the current line */
    int open_comment;    /* a block comment ran to the end of the input */
    uint32_t open_line, open_col; /* where the last block comment opened */
} lexer;

void lex_init(lexer *lx, const char *src, size_t len);
/* The next token. Never fails: bad input becomes TK_ERROR. */
token lex_next(lexer *lx);
int tok_is(const token *t, const char *s);          /* IDENT/DOTNAME text equals s */
int tok_is_punct(const token *t, char c);

#endif
