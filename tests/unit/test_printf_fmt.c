/*
 * test_printf_fmt.c -- unit tests of device printf formatting
 * (exec/printf_fmt.c): every conversion and flag against expected text,
 * nvcc's argument layout (each argument aligned to its own size), `*`
 * width and precision, %s through a fake device-memory reader, NULL and
 * unreadable strings, CUDA's 32-argument limit, and missing arguments.
 */
#include "test.h"

#include "exec/printf_fmt.h"

/* An argument buffer laid out as nvcc does: each value at the next offset
 * aligned to its size (the host running the tests is little-endian, as the
 * device is). */
typedef struct abuf {
    uint8_t b[1024];
    size_t n;
} abuf;

static void put(abuf *a, const void *v, size_t size)
{
    a->n = (a->n + size - 1) & ~(size - 1);
    memcpy(a->b + a->n, v, size);
    a->n += size;
}
static void pi(abuf *a, int32_t v) { put(a, &v, 4); }
static void pl(abuf *a, int64_t v) { put(a, &v, 8); }
static void pd(abuf *a, double v) { put(a, &v, 8); }

/* Fake device memory: `len` bytes at `base`; anything else is unreadable. */
typedef struct fakemem {
    uint64_t base;
    const uint8_t *bytes;
    size_t len;
    uint64_t max_end; /* highest address + 1 ever read */
    int calls;
} fakemem;

static int fake_read(void *ud, uint64_t addr, void *dst, size_t n)
{
    fakemem *m = ud;
    m->calls++;
    if (addr < m->base || addr - m->base > m->len || n > m->len - (addr - m->base))
        return -1;
    memcpy(dst, m->bytes + (addr - m->base), n);
    if (addr + n > m->max_end)
        m->max_end = addr + n;
    return 0;
}

static fakemem mem_of(uint64_t base, const char *bytes, size_t len)
{
    fakemem m = {base, (const uint8_t *)bytes, len, 0, 0};
    return m;
}

/* Format and compare text and return value. */
#define EXPECT(fmt, a, m, want, want_ret)                                                   \
    do {                                                                                   \
        strbuf sb_ = STRBUF_INIT;                                                          \
        int r_ = printf_format((fmt), (a)->b, (a)->n, fake_read, (m), &sb_);               \
        CHECK_MSG(strcmp(sb_cstr(&sb_), (want)) == 0, "%s: got '%s', want '%s'", (fmt),    \
                  sb_cstr(&sb_), (want));                                                  \
        CHECK_MSG(r_ == (want_ret), "%s: returned %d, want %d", (fmt), r_, (want_ret));     \
        sb_free(&sb_);                                                                     \
    } while (0)

static fakemem nomem;

static void test_plain(void)
{
    abuf a = {{0}, 0};
    EXPECT("hello\n", &a, &nomem, "hello\n", 0);
    EXPECT("", &a, &nomem, "", 0);
    EXPECT("100%%", &a, &nomem, "100%", 0);
    EXPECT("%5%|", &a, &nomem, "%|", 0);
    EXPECT("tail%", &a, &nomem, "tail%", 0);
    EXPECT("tail%-5", &a, &nomem, "tail%-5", 0);
    EXPECT("%y %k", &a, &nomem, "%y %k", 0);
    EXPECT("%5.2y!", &a, &nomem, "%5.2y!", 0);
}

static void test_integers(void)
{
    abuf a = {{0}, 0};
    pi(&a, 42);
    EXPECT("%d", &a, &nomem, "42", 1);
    EXPECT("%i", &a, &nomem, "42", 1);
    EXPECT("[%5d]", &a, &nomem, "[   42]", 1);
    EXPECT("[%-5d]", &a, &nomem, "[42   ]", 1);
    EXPECT("[%05d]", &a, &nomem, "[00042]", 1);
    EXPECT("[%-05d]", &a, &nomem, "[42   ]", 1);
    EXPECT("[%+d]", &a, &nomem, "[+42]", 1);
    EXPECT("[% d]", &a, &nomem, "[ 42]", 1);
    EXPECT("[%.4d]", &a, &nomem, "[0042]", 1);
    EXPECT("[%8.4d]", &a, &nomem, "[    0042]", 1);
    EXPECT("[%#d]", &a, &nomem, "[42]", 1); /* '#' is undefined for d: dropped */
    EXPECT("%o %x %X", &a, &nomem, "52 <printf: missing arguments>", -1); /* one argument */

    a.n = 0;
    pi(&a, -42);
    EXPECT("%d", &a, &nomem, "-42", 1);
    EXPECT("[%6d]", &a, &nomem, "[   -42]", 1);
    EXPECT("[%06d]", &a, &nomem, "[-00042]", 1);
    EXPECT("%u", &a, &nomem, "4294967254", 1);
    EXPECT("%x", &a, &nomem, "ffffffd6", 1);
    EXPECT("[%+u]", &a, &nomem, "[4294967254]", 1);
    EXPECT("%hd", &a, &nomem, "-42", 1);
    EXPECT("%hhu", &a, &nomem, "214", 1);

    a.n = 0;
    pi(&a, 255);
    pi(&a, 70000);
    pi(&a, 0x1ff);
    EXPECT("%hhd %hu %hhx", &a, &nomem, "-1 4464 ff", 3);

    a.n = 0;
    pi(&a, 0xabcdef);
    EXPECT("%x %X %#x %#X %o %#o", &a, &nomem, "abcdef <printf: missing arguments>", -1);
    a.n = 0;
    pi(&a, 0xabcdef);
    pi(&a, 0xabcdef);
    pi(&a, 0xabcdef);
    pi(&a, 0xabcdef);
    pi(&a, 8);
    pi(&a, 0);
    EXPECT("%x %X %#x %#X %o %#o", &a, &nomem, "abcdef ABCDEF 0xabcdef 0XABCDEF 10 0", 6);
    EXPECT("[%#10x]", &a, &nomem, "[  0xabcdef]", 1);
    EXPECT("[%#010x]", &a, &nomem, "[0x00abcdef]", 1);

    /* 8-byte integers: l ll z j t L */
    a.n = 0;
    pl(&a, -1);
    EXPECT("%ld", &a, &nomem, "-1", 1);
    EXPECT("%lld", &a, &nomem, "-1", 1);
    EXPECT("%lu", &a, &nomem, "18446744073709551615", 1);
    EXPECT("%llx", &a, &nomem, "ffffffffffffffff", 1);
    EXPECT("%zu", &a, &nomem, "18446744073709551615", 1);
    EXPECT("%zd", &a, &nomem, "-1", 1);
    EXPECT("%jd", &a, &nomem, "-1", 1);
    EXPECT("%td", &a, &nomem, "-1", 1);
    EXPECT("%Ld", &a, &nomem, "-1", 1);
    EXPECT("%lo", &a, &nomem, "1777777777777777777777", 1);
    a.n = 0;
    pl(&a, (int64_t)0xdeadbeefcafebabeull);
    EXPECT("%lx %lX", &a, &nomem, "deadbeefcafebabe <printf: missing arguments>", -1);
    a.n = 0;
    pl(&a, INT64_MIN);
    EXPECT("%lld", &a, &nomem, "-9223372036854775808", 1);
    EXPECT("%d", &a, &nomem, "0", 1); /* a 4-byte read of the low half */
}

/* Compare with the host's own printf for the same double. */
static void expect_double(const char *fmt, double v)
{
    abuf a = {{0}, 0};
    pd(&a, v);
    char want[512];
    snprintf(want, sizeof want, fmt, v);
    EXPECT(fmt, &a, &nomem, want, 1);
}

static void test_floats(void)
{
    abuf a = {{0}, 0};
    pd(&a, 3.14159265);
    EXPECT("%f", &a, &nomem, "3.141593", 1);
    EXPECT("%F", &a, &nomem, "3.141593", 1);
    EXPECT("%.2f", &a, &nomem, "3.14", 1);
    EXPECT("[%8.3f]", &a, &nomem, "[   3.142]", 1);
    EXPECT("[%-8.3f]", &a, &nomem, "[3.142   ]", 1);
    EXPECT("[%08.3f]", &a, &nomem, "[0003.142]", 1);
    EXPECT("[%+.1f]", &a, &nomem, "[+3.1]", 1);
    EXPECT("[% .1f]", &a, &nomem, "[ 3.1]", 1);
    EXPECT("%lf", &a, &nomem, "3.141593", 1);
    EXPECT("%Lf", &a, &nomem, "3.141593", 1);
    EXPECT("%hf", &a, &nomem, "3.141593", 1);
    EXPECT("%e", &a, &nomem, "3.141593e+00", 1);
    EXPECT("%E", &a, &nomem, "3.141593E+00", 1);
    EXPECT("%g", &a, &nomem, "3.14159", 1);
    EXPECT("%G", &a, &nomem, "3.14159", 1);
    a.n = 0;
    pd(&a, 12345.678);
    EXPECT("%e", &a, &nomem, "1.234568e+04", 1);
    EXPECT("[%-14.2e]", &a, &nomem, "[1.23e+04      ]", 1);
    a.n = 0;
    pd(&a, 1.0);
    EXPECT("%#.0f", &a, &nomem, "1.", 1);
    EXPECT("%#g", &a, &nomem, "1.00000", 1);
    EXPECT("%g", &a, &nomem, "1", 1);
    EXPECT("%a", &a, &nomem, "0x1p+0", 1);
    EXPECT("%A", &a, &nomem, "0X1P+0", 1);
    a.n = 0;
    pd(&a, 1e-10);
    EXPECT("%g %G", &a, &nomem, "1e-10 <printf: missing arguments>", -1);
    expect_double("%G", 1e-10);
    expect_double("%a", -0.1);
    expect_double("%.3a", 3.0);
    expect_double("%f", 1.0 / 0.0);
    expect_double("%F", -1.0 / 0.0);
    expect_double("%e", 0.0 / 0.0);
    expect_double("%f", 1e300);
    expect_double("%.0f", 2.5);
    expect_double("%+.0f", 2.5);
    expect_double("%.30g", 0.1);
}

static void test_char_and_pointer(void)
{
    abuf a = {{0}, 0};
    pi(&a, 'A');
    pi(&a, 'b' + 0x100); /* only the low byte is a char */
    EXPECT("%c%c", &a, &nomem, "Ab", 2);
    EXPECT("[%3c][%-3c]", &a, &nomem, "[  A][b  ]", 2);
    EXPECT("[%03c]", &a, &nomem, "[  A]", 1); /* '0' undefined for c: spaces */
    EXPECT("%lc", &a, &nomem, "A", 1);
    a.n = 0;
    pi(&a, 0);
    strbuf sb = STRBUF_INIT;
    CHECK_EQ_INT(printf_format("x%cy", a.b, a.n, fake_read, &nomem, &sb), 1);
    CHECK_EQ_U64(sb.len, 3);
    CHECK(sb.len == 3 && sb.s[0] == 'x' && sb.s[1] == 0 && sb.s[2] == 'y');
    sb_free(&sb);

    a.n = 0;
    pl(&a, 0x7f0000000100ll);
    pl(&a, 0);
    EXPECT("%p %p", &a, &nomem, "0x7f0000000100 (nil)", 2);
    EXPECT("[%18p]", &a, &nomem, "[    0x7f0000000100]", 1);
    EXPECT("[%-18p]", &a, &nomem, "[0x7f0000000100    ]", 1);
    a.n = 0;
    pl(&a, 0);
    EXPECT("[%7p][%-6p]", &a, &nomem, "[  (nil)][<printf: missing arguments>", -1);
    pl(&a, 0);
    EXPECT("[%7p][%-6p]", &a, &nomem, "[  (nil)][(nil) ]", 2);
}

static void test_percent_n(void)
{
    abuf a = {{0}, 0};
    pl(&a, 0x7f0000000000ll);
    pi(&a, 7);
    EXPECT("ab%ncd%d", &a, &nomem, "abcd7", 2);
    EXPECT("%hhn%d", &a, &nomem, "7", 2); /* still an 8-byte pointer */
}

/* The layouts nvcc produces: every argument at the next offset aligned to
 * its own size, written here byte by byte at explicit offsets. */
static void test_layout(void)
{
    static const char hello[] = "hi there";
    fakemem m = mem_of(0x7f0000001000ull, hello, sizeof hello);
    abuf a = {{0}, 32};
    int32_t i = -7;
    double d = 2.5;
    uint64_t s = 0x7f0000001000ull;
    int64_t l = 1234567890123ll;
    memset(a.b, 0xee, sizeof a.b); /* padding bytes are garbage */
    memcpy(a.b + 0, &i, 4);
    memcpy(a.b + 8, &d, 8);
    memcpy(a.b + 16, &s, 8);
    memcpy(a.b + 24, &l, 8);
    EXPECT("%d %f %s %ld", &a, &m, "-7 2.500000 hi there 1234567890123", 4);

    abuf c = {{0}, 12};
    int32_t c1 = 'x', c2 = 'y', n = 99;
    memcpy(c.b + 0, &c1, 4);
    memcpy(c.b + 4, &c2, 4);
    memcpy(c.b + 8, &n, 4);
    EXPECT("%c%c%d", &c, &nomem, "xy99", 3);

    /* int then long long: 4 bytes of padding */
    abuf e = {{0}, 16};
    memset(e.b, 0xee, sizeof e.b);
    int32_t e1 = 5;
    int64_t e2 = -6;
    memcpy(e.b + 0, &e1, 4);
    memcpy(e.b + 8, &e2, 8);
    EXPECT("%d %lld", &e, &nomem, "5 -6", 2);
    /* the same buffer is one byte short */
    e.n = 15;
    EXPECT("%d %lld", &e, &nomem, "5 <printf: missing arguments>", -1);
}

static void test_star(void)
{
    static const char hello[] = "hello";
    fakemem m = mem_of(0x1000, hello, sizeof hello);
    abuf a = {{0}, 0};
    pi(&a, 5);
    pi(&a, 42);
    EXPECT("[%*d]", &a, &nomem, "[   42]", 2);
    a.n = 0;
    pi(&a, -5);
    pi(&a, 42);
    EXPECT("[%*d]", &a, &nomem, "[42   ]", 2);
    a.n = 0;
    pi(&a, 2);
    pd(&a, 3.14159);
    EXPECT("[%.*f]", &a, &nomem, "[3.14]", 2);
    a.n = 0;
    pi(&a, -1); /* negative precision: as if none */
    pd(&a, 3.14159);
    EXPECT("[%.*f]", &a, &nomem, "[3.141590]", 2);
    a.n = 0;
    pi(&a, 6);
    pi(&a, 2);
    pl(&a, 0x1000);
    EXPECT("[%*.*s]", &a, &m, "[    he]", 3);
    a.n = 0;
    pi(&a, 8);
    pi(&a, 3);
    pl(&a, 12345);
    EXPECT("[%-*.*ld]", &a, &nomem, "[12345   ]", 3);
    a.n = 0;
    pi(&a, INT32_MIN); /* -INT_MIN: clamped, no overflow */
    pi(&a, 1);
    strbuf sb = STRBUF_INIT;
    CHECK_EQ_INT(printf_format("%*d", a.b, a.n, fake_read, &nomem, &sb), 2);
    CHECK_EQ_U64(sb.len, 65536);
    CHECK(sb.len && sb.s[0] == '1' && sb.s[sb.len - 1] == ' ');
    sb_free(&sb);
    /* a huge written width is clamped too */
    a.n = 0;
    pi(&a, 1);
    CHECK_EQ_INT(printf_format("%999999999999d", a.b, a.n, fake_read, &nomem, &sb), 1);
    CHECK_EQ_U64(sb.len, 65536);
    sb_free(&sb);
}

static void test_strings(void)
{
    static const char text[] = "abc\0second";
    fakemem m = mem_of(0x2000, text, sizeof text);
    abuf a = {{0}, 0};
    pl(&a, 0x2000);
    EXPECT("%s!", &a, &m, "abc!", 1);
    EXPECT("[%8s]", &a, &m, "[     abc]", 1);
    EXPECT("[%-8s]", &a, &m, "[abc     ]", 1);
    EXPECT("[%08s]", &a, &m, "[     abc]", 1);
    EXPECT("[%2s]", &a, &m, "[abc]", 1);
    EXPECT("[%.2s]", &a, &m, "[ab]", 1);
    EXPECT("[%.0s]", &a, &m, "[]", 1);
    EXPECT("%ls", &a, &m, "abc", 1);
    a.n = 0;
    pl(&a, 0x2004);
    EXPECT("%s", &a, &m, "second", 1);

    /* precision limits what is read */
    m.max_end = 0;
    a.n = 0;
    pl(&a, 0x2004);
    EXPECT("%.3s", &a, &m, "sec", 1);
    CHECK(m.max_end <= 0x2007);

    /* NULL and unreadable addresses */
    a.n = 0;
    pl(&a, 0);
    EXPECT("%s", &a, &m, "(null)", 1);
    EXPECT("[%8s]", &a, &m, "[  (null)]", 1);
    EXPECT("[%.3s]", &a, &m, "[]", 1);
    a.n = 0;
    pl(&a, 0x9000);
    EXPECT("%s|", &a, &m, "(null)|", 1);
    strbuf sb = STRBUF_INIT;
    CHECK_EQ_INT(printf_format("%s", a.b, a.n, NULL, NULL, &sb), 1);
    CHECK(strcmp(sb_cstr(&sb), "(null)") == 0);
    sb_free(&sb);

    /* A string without NUL that ends where readable memory ends, read in
     * chunks that straddle the end: what could be read is printed. */
    static const char tail[] = "0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ";
    fakemem t = mem_of(0x3010, tail, sizeof tail - 1); /* no NUL in range */
    a.n = 0;
    pl(&a, 0x3010);
    EXPECT("%s|", &a, &t, "0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ|", 1);
    a.n = 0;
    pl(&a, 0x3011);
    EXPECT("[%60s]", &a, &t, "[     123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ]", 1);

    /* A long string across many chunks, and the 64 KiB cap. */
    size_t big = 70000;
    char *s = malloc(big + 1);
    for (size_t i = 0; i < big; i++)
        s[i] = (char)('a' + i % 26);
    s[big] = 0;
    fakemem bm = mem_of(0x10003, s, big + 1);
    a.n = 0;
    pl(&a, 0x10003);
    CHECK_EQ_INT(printf_format("%s", a.b, a.n, fake_read, &bm, &sb), 1);
    CHECK_EQ_U64(sb.len, 65536);
    CHECK(sb.len == 65536 && memcmp(sb.s, s, 65536) == 0);
    sb_free(&sb);
    s[1000] = 0;
    CHECK_EQ_INT(printf_format("[%1005s]", a.b, a.n, fake_read, &bm, &sb), 1);
    CHECK_EQ_U64(sb.len, 1007);
    CHECK(sb.len == 1007 && memcmp(sb.s, "[     abcde", 11) == 0 && sb.s[1006] == ']');
    sb_free(&sb);
    free(s);
}

static void test_missing(void)
{
    abuf a = {{0}, 0};
    pi(&a, 5);
    EXPECT("%d %d", &a, &nomem, "5 <printf: missing arguments>", -1);
    EXPECT("a%fb", &a, &nomem, "a<printf: missing arguments>", -1);
    EXPECT("%*d", &a, &nomem, "<printf: missing arguments>", -1);
    a.n = 0;
    EXPECT("x%sy", &a, &nomem, "x<printf: missing arguments>", -1);
    EXPECT("no args %% %y", &a, &nomem, "no args % %y", 0);
    strbuf sb = STRBUF_INIT;
    CHECK_EQ_INT(printf_format("%d", NULL, 0, NULL, NULL, &sb), -1);
    CHECK(strcmp(sb_cstr(&sb), "<printf: missing arguments>") == 0);
    sb_free(&sb);
}

/* CUDA takes at most 32 arguments; later conversions print as written. */
static void test_arg_limit(void)
{
    abuf a = {{0}, 0};
    char fmt[256] = "", want[256] = "";
    for (int i = 0; i < 34; i++) {
        pi(&a, i);
        strcat(fmt, "%d ");
        if (i < 32)
            sprintf(want + strlen(want), "%d ", i);
        else
            strcat(want, "%d ");
    }
    EXPECT(fmt, &a, &nomem, want, 32);
    /* a `*` counts as an argument */
    a.n = 0;
    strcpy(fmt, "");
    strcpy(want, "");
    for (int i = 0; i < 31; i++) {
        pi(&a, i);
        strcat(fmt, "%d,");
        sprintf(want + strlen(want), "%d,", i);
    }
    pi(&a, 3);
    pi(&a, 7);
    strcat(fmt, "%*d");
    strcat(want, "%*d");
    EXPECT(fmt, &a, &nomem, want, 31);
}

int main(void)
{
    RUN(test_plain);
    RUN(test_integers);
    RUN(test_floats);
    RUN(test_char_and_pointer);
    RUN(test_percent_n);
    RUN(test_layout);
    RUN(test_star);
    RUN(test_strings);
    RUN(test_missing);
    RUN(test_arg_limit);
    return test_summary();
}
