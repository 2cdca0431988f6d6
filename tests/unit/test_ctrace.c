/*
 * test_ctrace.c -- the Chrome Trace Event Format writer (util/ctrace): a
 * trace with every event kind and names that need escaping is read back and
 * checked with a small JSON validator written here, plus the exact text of
 * some fields; an empty trace, opening in a missing directory, write errors
 * on /dev/full, and calls on a NULL handle.
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "util/ctrace.h"

/* ---- a recursive-descent JSON validator (RFC 8259 grammar) ---- */

typedef struct jv {
    const char *p;
    int depth;
} jv;

static int jv_value(jv *v);

static void jv_ws(jv *v)
{
    while (*v->p == ' ' || *v->p == '\t' || *v->p == '\n' || *v->p == '\r')
        v->p++;
}

static int jv_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int jv_digit(char c) { return c >= '0' && c <= '9'; }

/* string = '"' *( unescaped / '\' ( ["\/bfnrt] / 'u' 4HEXDIG ) ) '"' */
static int jv_string(jv *v)
{
    if (*v->p != '"')
        return 0;
    v->p++;
    for (;;) {
        unsigned char c = (unsigned char)*v->p;
        if (c == '"') {
            v->p++;
            return 1;
        }
        if (c < 0x20) /* raw control characters, and the end of the text */
            return 0;
        if (c == '\\') {
            v->p++;
            char e = *v->p;
            if (e == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!jv_hex(v->p[i]))
                        return 0;
                v->p += 5;
                continue;
            }
            if (!strchr("\"\\/bfnrt", e) || !e)
                return 0;
        }
        v->p++;
    }
}

/* number = [ '-' ] ( '0' / [1-9] *DIGIT ) [ '.' 1*DIGIT ] [ [eE] [+-] 1*DIGIT ] */
static int jv_number(jv *v)
{
    if (*v->p == '-')
        v->p++;
    if (*v->p == '0')
        v->p++;
    else if (jv_digit(*v->p))
        while (jv_digit(*v->p))
            v->p++;
    else
        return 0;
    if (*v->p == '.') {
        v->p++;
        if (!jv_digit(*v->p))
            return 0;
        while (jv_digit(*v->p))
            v->p++;
    }
    if (*v->p == 'e' || *v->p == 'E') {
        v->p++;
        if (*v->p == '+' || *v->p == '-')
            v->p++;
        if (!jv_digit(*v->p))
            return 0;
        while (jv_digit(*v->p))
            v->p++;
    }
    return 1;
}

static int jv_word(jv *v, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(v->p, w, n))
        return 0;
    v->p += n;
    return 1;
}

/* object = '{' [ string ':' value *( ',' string ':' value ) ] '}'
 * array  = '[' [ value *( ',' value ) ] ']' */
static int jv_container(jv *v, char open, char close)
{
    if (++v->depth > 64)
        return 0;
    v->p++; /* open */
    jv_ws(v);
    if (*v->p == close) {
        v->p++;
        v->depth--;
        return 1;
    }
    for (;;) {
        jv_ws(v);
        if (open == '{') {
            if (!jv_string(v))
                return 0;
            jv_ws(v);
            if (*v->p++ != ':')
                return 0;
        }
        if (!jv_value(v))
            return 0;
        jv_ws(v);
        if (*v->p == ',') {
            v->p++;
            continue;
        }
        if (*v->p != close)
            return 0;
        v->p++;
        v->depth--;
        return 1;
    }
}

/* value = ws ( object / array / string / number / true / false / null ) ws */
static int jv_value(jv *v)
{
    jv_ws(v);
    int ok;
    switch (*v->p) {
    case '{': ok = jv_container(v, '{', '}'); break;
    case '[': ok = jv_container(v, '[', ']'); break;
    case '"': ok = jv_string(v); break;
    case 't': ok = jv_word(v, "true"); break;
    case 'f': ok = jv_word(v, "false"); break;
    case 'n': ok = jv_word(v, "null"); break;
    default: ok = jv_number(v); break;
    }
    jv_ws(v);
    return ok;
}

/* Whether text is exactly one JSON value (surrounding whitespace allowed). */
static int json_valid(const char *text)
{
    jv v = {text, 0};
    return text && jv_value(&v) && *v.p == 0;
}

static void test_validator(void)
{
    CHECK(json_valid("{}"));
    CHECK(json_valid(" [1, -0.5e+3, \"a\\u00e9\\n\", true, false, null, {\"k\":[]}] \n"));
    CHECK(!json_valid(""));
    CHECK(!json_valid("[1,]"));
    CHECK(!json_valid("[,1]"));
    CHECK(!json_valid("{\"a\":1,}"));
    CHECK(!json_valid("{\"a\" 1}"));
    CHECK(!json_valid("[01]"));
    CHECK(!json_valid("[1.]"));
    CHECK(!json_valid("[nan]"));
    CHECK(!json_valid("[\"a\nb\"]"));
    CHECK(!json_valid("[\"\\x\"]"));
    CHECK(!json_valid("[\"\\u12g4\"]"));
    CHECK(!json_valid("[\"abc"));
    CHECK(!json_valid("{} {}"));
}

/* ---- the writer ---- */

/* A fresh temporary file's path in buf (the file exists, empty). */
static int temp_path(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/test_ctrace_XXXXXX");
    int fd = mkstemp(buf);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

static void test_all_events(void)
{
    char path[64];
    char err[256] = "";
    if (temp_path(path, sizeof path)) {
        CHECK_MSG(0, "mkstemp: %s", strerror(errno));
        return;
    }
    const char *nasty = "a\"b\\c\n\x01";
    ctrace *t = ctrace_open(path, err, sizeof err);
    CHECK_MSG(t != NULL, "%s", err);
    if (!t)
        return;
    ctrace_process_name(t, 1, "SM 0");
    ctrace_process_sort(t, 1, -2);
    ctrace_thread_name(t, 1, 7, nasty);
    ctrace_thread_sort(t, 1, 7, 3);
    ctrace_complete(t, 1, 7, nasty, "mem", 12.0, 4.5, "{\"cycles\":123}");
    ctrace_complete(t, 1, 7, "nocat", NULL, 9007199254740992.0, 0.001, NULL);
    ctrace_complete(t, 1, 7, "nonfinite", "", NAN, INFINITY, "");
    ctrace_complete(t, 2, 0, NULL, "\t\r\b\f\x1f\x7f\xc3\xa9", 1.0005, -INFINITY, NULL);
    const char *series[] = {"busy", "idle", nasty};
    const double values[] = {1.0, 0.1, NAN};
    ctrace_counter(t, 1, "occupancy", 20.25, 3, series, values);
    ctrace_counter(t, 1, "empty", 21.0, 0, NULL, NULL);
    ctrace_instant(t, 1, 7, "fault", 30.0);
    CHECK(!ctrace_failed(t));
    CHECK_EQ_INT(ctrace_close(t), 0);

    size_t len = 0;
    char *text = test_read_file(path, &len);
    unlink(path);
    CHECK(text != NULL);
    if (!text)
        return;
    CHECK_MSG(json_valid(text), "not valid JSON:\n%s", text);
    CHECK(!strncmp(text, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", 39));
    CHECK(len >= 4 && !strcmp(text + len - 4, "\n]}\n"));
    CHECK_STR_CONTAINS(text, "[\n{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\","
                             "\"args\":{\"name\":\"SM 0\"}},\n");
    CHECK_STR_CONTAINS(text, "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_sort_index\","
                             "\"args\":{\"sort_index\":-2}}");
    CHECK_STR_CONTAINS(text, "{\"ph\":\"M\",\"pid\":1,\"tid\":7,\"name\":\"thread_name\","
                             "\"args\":{\"name\":\"a\\\"b\\\\c\\n\\u0001\"}}");
    CHECK_STR_CONTAINS(text, "{\"ph\":\"M\",\"pid\":1,\"tid\":7,\"name\":\"thread_sort_index\","
                             "\"args\":{\"sort_index\":3}}");
    CHECK_STR_CONTAINS(text, "\"ph\":\"X\"");
    CHECK_STR_CONTAINS(text, "\"dur\":");
    CHECK_STR_CONTAINS(text, "{\"ph\":\"X\",\"pid\":1,\"tid\":7,\"name\":\"a\\\"b\\\\c\\n\\u0001\","
                             "\"cat\":\"mem\",\"ts\":12.000,\"dur\":4.500,"
                             "\"args\":{\"cycles\":123}}");
    CHECK_STR_CONTAINS(text, "\"name\":\"nocat\",\"ts\":9007199254740992.000,\"dur\":0.001}");
    CHECK_STR_CONTAINS(text, "\"name\":\"nonfinite\",\"cat\":\"\",\"ts\":0.000,\"dur\":0.000}");
    CHECK_STR_CONTAINS(text, "{\"ph\":\"X\",\"pid\":2,\"tid\":0,\"name\":\"\","
                             "\"cat\":\"\\t\\r\\b\\f\\u001f\x7f\xc3\xa9\",");
    CHECK_STR_CONTAINS(text, "{\"ph\":\"C\",\"pid\":1,\"name\":\"occupancy\",\"ts\":20.250,"
                             "\"args\":{\"busy\":1,\"idle\":0.1,\"a\\\"b\\\\c\\n\\u0001\":0}}");
    CHECK_STR_CONTAINS(text, "\"name\":\"empty\",\"ts\":21.000,\"args\":{}}");
    CHECK_STR_CONTAINS(text, "{\"ph\":\"i\",\"pid\":1,\"tid\":7,\"name\":\"fault\","
                             "\"s\":\"t\",\"ts\":30.000}\n]}");
    CHECK(!strstr(text, "inf") && !strstr(text, "nan"));
    free(text);
}

static void test_empty_trace(void)
{
    char path[64];
    if (temp_path(path, sizeof path)) {
        CHECK_MSG(0, "mkstemp: %s", strerror(errno));
        return;
    }
    ctrace *t = ctrace_open(path, NULL, 0);
    CHECK(t != NULL);
    CHECK_EQ_INT(ctrace_close(t), 0);
    char *text = test_read_file(path, NULL);
    unlink(path);
    CHECK(text && json_valid(text));
    CHECK(text && !strcmp(text, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n]}\n"));
    free(text);
}

static void test_open_fails(void)
{
    const char *path = "/nonexistent-dir-for-test_ctrace/x/trace.json";
    char err[256] = "";
    ctrace *t = ctrace_open(path, err, sizeof err);
    CHECK(t == NULL);
    CHECK(err[0] != 0);
    CHECK_STR_CONTAINS(err, path);
    CHECK_STR_CONTAINS(err, strerror(ENOENT));
    ctrace_close(t);
    /* a tiny or missing err buffer is not overrun */
    char tiny[4] = "xyz";
    CHECK(ctrace_open(path, tiny, 1) == NULL && tiny[0] == 0 && tiny[1] == 'y');
    CHECK(ctrace_open(path, NULL, 0) == NULL);
    CHECK(ctrace_open(NULL, err, sizeof err) == NULL && err[0] != 0);
}

static void test_write_error(void)
{
    if (access("/dev/full", W_OK) != 0) {
        printf("test_ctrace: /dev/full is absent: write-error check skipped\n");
        return;
    }
    char err[256] = "";
    ctrace *t = ctrace_open("/dev/full", err, sizeof err);
    CHECK_MSG(t != NULL, "%s", err);
    if (!t)
        return;
    /* more than a stdio buffer, so the failure is seen before the close */
    for (int i = 0; i < 2000; i++)
        ctrace_complete(t, 1, 1, "event", "cat", i, 1, "{\"k\":1}");
    CHECK(ctrace_failed(t));
    errno = 0;
    CHECK_EQ_INT(ctrace_close(t), -1);
    CHECK_EQ_INT(errno, ENOSPC);

    /* a few events stay in the buffer: the failure shows at the close */
    t = ctrace_open("/dev/full", err, sizeof err);
    CHECK(t != NULL);
    ctrace_instant(t, 1, 1, "x", 1);
    CHECK_EQ_INT(ctrace_close(t), -1);
}

static void test_null_handle(void)
{
    const char *s[] = {"a"};
    const double v[] = {1};
    ctrace_process_name(NULL, 1, "p");
    ctrace_thread_name(NULL, 1, 2, "t");
    ctrace_process_sort(NULL, 1, 0);
    ctrace_thread_sort(NULL, 1, 2, 0);
    ctrace_complete(NULL, 1, 2, "n", "c", 0, 1, NULL);
    ctrace_counter(NULL, 1, "n", 0, 1, s, v);
    ctrace_instant(NULL, 1, 2, "n", 0);
    CHECK(!ctrace_failed(NULL));
    CHECK_EQ_INT(ctrace_close(NULL), 0);
}

/* A locale with a decimal comma must not leak into the numbers. */
static void test_locale(void)
{
    if (!setlocale(LC_NUMERIC, "de_DE.UTF-8") && !setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
        printf("test_ctrace: no decimal-comma locale installed: locale check skipped\n");
        return;
    }
    char path[64];
    if (temp_path(path, sizeof path) == 0) {
        ctrace *t = ctrace_open(path, NULL, 0);
        const char *s[] = {"x"};
        const double v[] = {2.5};
        ctrace_complete(t, 1, 1, "n", NULL, 1.5, 0.25, NULL);
        ctrace_counter(t, 1, "c", 3.5, 1, s, v);
        CHECK_EQ_INT(ctrace_close(t), 0);
        char *text = test_read_file(path, NULL);
        unlink(path);
        CHECK(text && json_valid(text));
        CHECK_STR_CONTAINS(text, "\"ts\":1.500,\"dur\":0.250}");
        CHECK_STR_CONTAINS(text, "\"ts\":3.500,\"args\":{\"x\":2.5}}");
        free(text);
    }
    setlocale(LC_NUMERIC, "C");
}

int main(void)
{
    RUN(test_validator);
    RUN(test_all_events);
    RUN(test_empty_trace);
    RUN(test_open_fails);
    RUN(test_write_error);
    RUN(test_null_handle);
    RUN(test_locale);
    return test_summary();
}
