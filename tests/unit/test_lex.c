/*
 * test_lex.c -- the PTX lexer: token kinds, values, line/column, comments,
 * numeric literal forms (hex floats, 64-bit decimals, octal, binary, U
 * suffixes), qualified modifiers and bad characters.
 */
#include <string.h>

#include "ptx/lex.h"
#include "test.h"

static token first(const char *src)
{
    lexer lx;
    lex_init(&lx, src, strlen(src));
    return lex_next(&lx);
}

static void test_kinds(void)
{
    const char *src = "ld.global.v4.u32 {%r1,%r2}, [%rd1+-16]; // comment\n"
                      "/* block\n comment */ @!%p1 bra $L__BB0_2;";
    lexer lx;
    lex_init(&lx, src, strlen(src));
    token t = lex_next(&lx);
    CHECK(t.kind == TK_IDENT && tok_is(&t, "ld") && t.line == 1 && t.col == 1);
    t = lex_next(&lx);
    CHECK(t.kind == TK_DOTNAME && tok_is(&t, ".global") && !t.space_before);
    t = lex_next(&lx);
    CHECK(tok_is(&t, ".v4"));
    t = lex_next(&lx);
    CHECK(tok_is(&t, ".u32"));
    t = lex_next(&lx);
    CHECK(tok_is_punct(&t, '{') && t.space_before);
    t = lex_next(&lx);
    CHECK(t.kind == TK_IDENT && tok_is(&t, "%r1"));
    int n = 0;
    while ((t = lex_next(&lx)).kind != TK_EOF) {
        n++;
        if (tok_is(&t, "$L__BB0_2"))
            CHECK(t.line == 3 && t.col == 23);
        if (tok_is_punct(&t, '@'))
            CHECK(t.line == 3 && t.col == 13);
    }
    CHECK_EQ_INT(n, 17);
}

static void test_numbers(void)
{
    token t = first("0f3F800000");
    CHECK(t.kind == TK_F32 && t.bits == 0x3F800000u);
    t = first("0dC008000000000000");
    CHECK(t.kind == TK_F64 && t.bits == 0xC008000000000000ull);
    t = first("18446744073709551615");
    CHECK(t.kind == TK_INT && t.bits == UINT64_MAX && !t.int_overflow); /* not truncated to 32 bits */
    t = first("18446744073709551616");
    CHECK(t.kind == TK_INT && t.int_overflow);
    t = first("0x7fffffffffffffff");
    CHECK(t.kind == TK_INT && t.bits == 0x7fffffffffffffffull);
    t = first("017");
    CHECK(t.kind == TK_INT && t.bits == 15);
    t = first("0b1011");
    CHECK(t.kind == TK_INT && t.bits == 11);
    t = first("42U");
    CHECK(t.kind == TK_INT && t.bits == 42 && t.unsigned_suffix);
    t = first("0");
    CHECK(t.kind == TK_INT && t.bits == 0);
    t = first("1.5");
    double d;
    memcpy(&d, &t.bits, 8);
    CHECK(t.kind == TK_F64 && d == 1.5);
    t = first("2e3");
    memcpy(&d, &t.bits, 8);
    CHECK(t.kind == TK_F64 && d == 2000.0);
    CHECK(first("0f3F80").kind == TK_ERROR);
    CHECK(first("12abc").kind == TK_ERROR);
    CHECK(first("0x").kind == TK_ERROR);
}

static void test_modifiers_and_errors(void)
{
    lexer lx;
    const char *src = "ld.shared::cta.L2::128B.u32 tex.2d";
    lex_init(&lx, src, strlen(src));
    token t = lex_next(&lx);
    t = lex_next(&lx);
    CHECK(tok_is(&t, ".shared::cta"));
    t = lex_next(&lx);
    CHECK(tok_is(&t, ".L2::128B"));
    t = lex_next(&lx);
    CHECK(tok_is(&t, ".u32"));
    t = lex_next(&lx);
    t = lex_next(&lx);
    CHECK(tok_is(&t, ".2d"));
    t = first("#");
    CHECK(t.kind == TK_ERROR && t.line == 1 && t.col == 1);
    t = first("\"abc");
    CHECK(t.kind == TK_ERROR);
    t = first("\"a\\\"b\"");
    CHECK(t.kind == TK_STRING && t.len == 4);
    t = first("%");
    CHECK(t.kind == TK_ERROR);
    /* an unterminated block comment is an error where it opened, then EOF */
    lex_init(&lx, "a /* never\n closed", 19);
    t = lex_next(&lx);
    CHECK(t.kind == TK_IDENT);
    t = lex_next(&lx);
    CHECK(t.kind == TK_ERROR && t.line == 1 && t.col == 3);
    CHECK(t.len > 26 && !strncmp(t.text, "unterminated block comment", 26));
    t = lex_next(&lx);
    CHECK(t.kind == TK_EOF);
    t = first("");
    CHECK(t.kind == TK_EOF);
}

int main(void)
{
    RUN(test_kinds);
    RUN(test_numbers);
    RUN(test_modifiers_and_errors);
    return test_summary();
}
