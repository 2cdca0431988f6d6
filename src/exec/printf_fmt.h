/*
 * printf_fmt.h -- formats one device-side printf call the way CUDA's
 * vprintf does: the format string, and an argument buffer in which nvcc
 * placed each argument at the next offset aligned to its size (int,
 * unsigned, char and short as 4 bytes; long, long long, size_t, pointers
 * and strings' addresses as 8; float promoted to double, 8).
 *
 * %s arguments are device addresses, read through the caller's callback.
 */
#ifndef LOCKSTEP_PRINTF_FMT_H
#define LOCKSTEP_PRINTF_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* Read n bytes at a device generic address into dst; 0 on success, -1 if
 * the address is not readable. */
typedef int (*printf_read_fn)(void *ud, uint64_t addr, void *dst, size_t n);

/* Append the formatted text to out.  Returns the number of arguments the
 * format consumed, or -1 when the format asks for more bytes than args_len
 * holds (the text formatted so far is kept, followed by a marker). */
int printf_format(const char *fmt, const uint8_t *args, size_t args_len, printf_read_fn rd,
                  void *ud, strbuf *out);

#endif
