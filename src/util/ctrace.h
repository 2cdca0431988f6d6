/*
 * ctrace.h -- a streaming writer for the Chrome Trace Event Format: the
 * JSON file that Perfetto (ui.perfetto.dev) and chrome://tracing open.
 * Events go to the file as they are emitted, one per line, so a trace of
 * any length costs constant memory:
 *
 *   {"displayTimeUnit":"ns","traceEvents":[
 *   {"ph":"M","pid":1,"name":"process_name","args":{"name":"SM 0"}},
 *   {"ph":"X","pid":1,"tid":3,"name":"ld.global","cat":"mem","ts":12.000,"dur":4.000},
 *   ...
 *   ]}
 *
 * Timestamps and durations are in microseconds (the format's unit), printed
 * as "%.3f": exact for integers up to 2^53 and to the nanosecond.  Every
 * string is JSON-escaped; a non-finite number is written as 0, so the file
 * is valid JSON whatever the caller passes (args_json aside: it is inserted
 * verbatim).  A NULL string argument is written as "".
 *
 * Errors: a failed write (disk full, out of memory) is latched in the handle
 * and later events are dropped; ctrace_close() reports it.  Nothing aborts.
 * Every function is a no-op on a NULL handle, so a caller can keep one
 * `ctrace *` that is NULL when tracing is off.
 */
#ifndef LOCKSTEP_CTRACE_H
#define LOCKSTEP_CTRACE_H

#include <stddef.h>
#include <stdint.h>

typedef struct ctrace ctrace;

/* Create or truncate `path` and write the header.  NULL on failure, with a
 * message naming the path and the reason in err (when err and errlen > 0). */
ctrace *ctrace_open(const char *path, char *err, size_t errlen);

/* Write the closing "]}" and a newline, close the file, free the handle.
 * 0, or -1 if any write (or the close) failed, with errno set to the first
 * error.  NULL-safe (returns 0). */
int ctrace_close(ctrace *t);

/* Whether a write has failed so far (1) or not (0); 0 for NULL. */
int ctrace_failed(const ctrace *t);

/* Metadata ("ph":"M"): the names Perfetto shows for a process / thread
 * track, and the order of the tracks (lower sort index first). */
void ctrace_process_name(ctrace *t, uint32_t pid, const char *name);
void ctrace_thread_name(ctrace *t, uint32_t pid, uint32_t tid, const char *name);
void ctrace_process_sort(ctrace *t, uint32_t pid, int32_t index);
void ctrace_thread_sort(ctrace *t, uint32_t pid, uint32_t tid, int32_t index);

/* A complete event ("ph":"X"): a slice from ts_us lasting dur_us.  cat may
 * be NULL (no "cat" field).  args_json is NULL or "" (no "args"), or a
 * formatted JSON object such as {"cycles":123}, written verbatim. */
void ctrace_complete(ctrace *t, uint32_t pid, uint32_t tid, const char *name,
                     const char *cat, double ts_us, double dur_us, const char *args_json);

/* A counter event ("ph":"C"): series[i] takes values[i] at ts_us, for i < n
 * (args {series[0]: values[0], ...}).  Values are printed with up to 17
 * significant digits, as few as give back the same double. */
void ctrace_counter(ctrace *t, uint32_t pid, const char *name, double ts_us, uint32_t n,
                    const char *const *series, const double *values);

/* An instant event ("ph":"i") scoped to its thread ("s":"t"). */
void ctrace_instant(ctrace *t, uint32_t pid, uint32_t tid, const char *name, double ts_us);

#endif
