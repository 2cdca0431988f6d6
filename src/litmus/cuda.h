/*
 * cuda.h -- the CUDA generator: a standalone CUDA program per litmus test
 * that runs the same harness kernel (inline PTX), places instances with the
 * same code (place.c, copied in) and prints the same litmus7-style
 * histogram, so a chip's results compare line by line with lockstep's.
 */
#ifndef LOCKSTEP_LITMUS_CUDA_H
#define LOCKSTEP_LITMUS_CUDA_H

#include "litmus/harness.h"

/* The harness kernel's shape for these options, as lit_run builds it. */
void lit_cuda_shape(const lit_test *t, const lit_opts *o, lit_shape *s);
/* The program's text. */
int lit_cuda_source(const lit_test *t, const lit_opts *o, strbuf *out, strbuf *err);
/* Write DIR/<test name>.cu; a line saying so goes to msg. */
int lit_emit_cuda(const lit_test *t, const lit_opts *o, const char *dir, strbuf *msg, strbuf *err);

#endif
