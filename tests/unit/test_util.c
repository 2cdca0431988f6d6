/*
 * test_util.c -- the small utilities every module uses: the growable
 * string (strbuf), growable arrays (VEC), the bump allocator (arena) and
 * the name map (strmap), including scopes and growth past many rehashes.
 */
#include <stdio.h>
#include <string.h>

#include "test.h"
#include "util/arena.h"
#include "util/common.h"
#include "util/strbuf.h"
#include "util/strmap.h"

static void test_strbuf(void)
{
    strbuf sb = STRBUF_INIT;
    CHECK(!strcmp(sb_cstr(&sb), ""));
    sb_puts(&sb, "ab");
    sb_putc(&sb, 'c');
    sb_printf(&sb, "%d-%s", 42, "x");
    CHECK(!strcmp(sb_cstr(&sb), "abc42-x"));
    CHECK_EQ_INT(sb.len, 7);
    char big[1000];
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = 0;
    sb_printf(&sb, "%s", big); /* longer than the formatter's small buffer */
    CHECK_EQ_INT(sb.len, 7 + 999);
    sb_clear(&sb);
    CHECK(sb.len == 0 && !strcmp(sb_cstr(&sb), ""));
    sb_puts(&sb, "keep");
    char *d = sb_detach(&sb);
    CHECK(d && !strcmp(d, "keep") && sb.s == NULL);
    free(d);
    sb_free(&sb);
}

static void test_vec(void)
{
    VEC(int) v = {0};
    for (int i = 0; i < 10000; i++)
        CHECK(vec_push(&v, i) == 0);
    CHECK_EQ_INT(v.n, 10000);
    CHECK_EQ_INT(v.v[9999], 9999);
    CHECK(v.cap >= v.n);
    vec_free(&v);
    CHECK(v.v == NULL && v.n == 0);
}

static void test_arena(void)
{
    arena a;
    arena_init(&a);
    char *p = arena_alloc(&a, 3);
    CHECK(p && ((uintptr_t)p & 15) == 0 && p[0] == 0);
    char *big = arena_alloc(&a, 200000); /* bigger than a block */
    CHECK(big && big[199999] == 0);
    char *s = arena_strndup(&a, "hello world", 5);
    CHECK(s && !strcmp(s, "hello"));
    for (int i = 0; i < 5000; i++)
        CHECK(arena_alloc(&a, 100) != NULL);
    arena_free(&a);
    CHECK(a.head == NULL);
}

static void test_strmap(void)
{
    strmap m;
    strmap_init(&m);
    uint32_t v = 99;
    CHECK(!strmap_get(&m, "x", 0, &v));
    static char names[5000][16];
    for (int i = 0; i < 5000; i++) {
        snprintf(names[i], sizeof names[i], "%%r%d", i);
        CHECK(strmap_put(&m, names[i], (uint32_t)(i % 3), (uint32_t)i) == 0);
    }
    for (int i = 0; i < 5000; i++) {
        CHECK(strmap_get(&m, names[i], (uint32_t)(i % 3), &v) && v == (uint32_t)i);
        CHECK(!strmap_get(&m, names[i], (uint32_t)(i % 3) + 1, &v)); /* other scope */
    }
    CHECK(strmap_put(&m, names[7], 1, 12345) == 0); /* replace */
    CHECK(strmap_get(&m, names[7], 1, &v) && v == 12345);
    CHECK_EQ_INT(m.n, 5000);
    strmap_free(&m);
    CHECK(!strmap_get(&m, names[7], 1, &v));
}

static void test_bits(void)
{
    CHECK_EQ_INT(popc32(0), 0);
    CHECK_EQ_INT(popc32(0xffffffffu), 32);
    CHECK_EQ_INT(popc32(0x80000001u), 2);
    for (uint32_t x = 1; x; x <<= 1)
        CHECK_EQ_INT(popc32(x), 1);
    CHECK_EQ_U64(align_up64(17, 16), 32);
    CHECK_EQ_U64(align_up64(32, 16), 32);
}

int main(void)
{
    RUN(test_strbuf);
    RUN(test_vec);
    RUN(test_arena);
    RUN(test_strmap);
    RUN(test_bits);
    return test_summary();
}
