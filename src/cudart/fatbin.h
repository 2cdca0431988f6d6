/*
 * fatbin.h -- finds the PTX in the fat binary nvcc embeds in a program
 * (what __cudaRegisterFatBinary receives), decompressing it when nvcc
 * compressed it (its default: zstd), so lockstep can load it.
 */
#ifndef LOCKSTEP_CUDART_FATBIN_H
#define LOCKSTEP_CUDART_FATBIN_H

#include <stddef.h>

typedef struct fatbin_ptx {
    char *text;      /* malloc'd, NUL-terminated */
    size_t len;
    unsigned arch;   /* the sm_XX the PTX was generated for (75 for sm_75) */
    unsigned ptx_major, ptx_minor;
} fatbin_ptx;

/* Extract the PTX of the highest architecture from the fat binary behind
 * `wrapper` (a __fatBinC_Wrapper_t).  Returns 0, or -1 with a message in
 * err saying why and, where the program's build is the cause, what nvcc
 * flag fixes it. */
int fatbin_extract_ptx(const void *wrapper, fatbin_ptx *out, char *err, size_t errlen);

#endif
