/*
 * check.h -- invariant checks for the core (SQLite's assert/ALWAYS/NEVER
 * style).  Debug builds (LOCKSTEP_DEBUG: make DEBUG=1, and the sanitizer
 * builds CI runs) stop at the first broken invariant with its file, line
 * and expression; release builds keep only what the code relies on.
 *
 *   LS_ASSERT(x)   x must hold.  Debug: checked.  Release: not evaluated,
 *                  so x must have no side effects.
 *   LS_ALWAYS(x)   x should always be true, and the code handles it being
 *                  false:  if (!LS_ALWAYS(n <= cap)) return error;
 *   LS_NEVER(x)    x should never be true, handled likewise:
 *                  if (LS_NEVER(p == NULL)) return error;
 *                  Debug: both stop when the expectation fails.
 *                  Release: both are just (x), a real check.
 *
 * A broken invariant is a bug in lockstep, never a user error: inputs are
 * checked with messages where they are read, not here.
 */
#ifndef LOCKSTEP_CHECK_H
#define LOCKSTEP_CHECK_H

#ifdef LOCKSTEP_DEBUG
_Noreturn void ls_check_failed(const char *file, int line, const char *expr);
#define LS_ASSERT(x) ((x) ? (void)0 : ls_check_failed(__FILE__, __LINE__, #x))
#define LS_ALWAYS(x) ((x) ? 1 : (ls_check_failed(__FILE__, __LINE__, #x), 0))
#define LS_NEVER(x) ((x) ? (ls_check_failed(__FILE__, __LINE__, "!(" #x ")"), 1) : 0)
#else
#define LS_ASSERT(x) ((void)0)
#define LS_ALWAYS(x) (!!(x))
#define LS_NEVER(x) (!!(x))
#endif

#endif
