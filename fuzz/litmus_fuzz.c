/*
 * litmus_fuzz.c -- libFuzzer target for the litmus front end.  Each input
 * is parsed as a litmus test; when it parses, it is printed, the printed
 * text must parse again and print to the same text (the round trip the
 * printer promises), and the condition is evaluated on an all-zero final
 * state.  Any crash, sanitizer report, leak, hang or broken round trip is a
 * bug.
 *
 *   make fuzz && build-fuzz/litmus_fuzz -max_total_time=60 fuzz/corpus-litmus
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static lit_test t1, t2; /* large: static, the fuzzer runs one input at a time */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    strbuf err = STRBUF_INIT, p1 = STRBUF_INIT, p2 = STRBUF_INIT;
    if (lit_parse((const char *)data, size, "fuzz.litmus", &t1, &err) == 0) {
        if (err.len)
            abort(); /* success with error text */
        static const int64_t zeros[LIT_MAX_OBSERVED];
        (void)lit_cond_eval(&t1, zeros);
        lit_print(&p1, &t1);
        sb_clear(&err);
        if (lit_parse(p1.s, p1.len, "printed.litmus", &t2, &err) != 0) {
            fprintf(stderr, "the printed test does not parse:\n%s\n%s", sb_cstr(&p1), sb_cstr(&err));
            abort();
        }
        lit_print(&p2, &t2);
        if (p1.len != p2.len || memcmp(p1.s, p2.s, p1.len)) {
            fprintf(stderr, "printing the reparse differs:\n%s\n---\n%s", sb_cstr(&p1), sb_cstr(&p2));
            abort();
        }
    } else if (err.len == 0) {
        abort(); /* failure without a message */
    }
    sb_free(&err);
    sb_free(&p1);
    sb_free(&p2);
    return 0;
}
