/*
 * check.c -- where a debug build stops when an invariant of check.h fails:
 * one line naming the place and the expression, then abort() so a
 * debugger or the sanitizer runtime shows the stack.
 */
#include "util/check.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef LOCKSTEP_DEBUG
void ls_check_failed(const char *file, int line, const char *expr)
{
    fprintf(stderr, "lockstep: internal check failed at %s:%d: %s\n", file, line, expr);
    fflush(stderr);
    abort();
}
#else
/* an empty translation unit is not ISO C */
typedef int ls_check_unused;
#endif
