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
 * `wrapper` (a __fatBinC_Wrapper_t), reading no further than the memory
 * behind it is mapped.  Returns 0, or -1 with a message in err saying why
 * and, where the program's build is the cause, what nvcc flag fixes it. */
int fatbin_extract_ptx(const void *wrapper, fatbin_ptx *out, char *err, size_t errlen);

/* The same for a fat binary image of exactly `size` bytes at `data` (the
 * .nv_fatbin section of a program, or a fuzzer's input); rdc says the
 * image is a translation unit's relocatable device code (nvcc -rdc=true),
 * for the message when it holds no PTX.  Reads nothing outside
 * [data, data + size). */
int fatbin_parse(const void *data, size_t size, int rdc, fatbin_ptx *out, char *err,
                 size_t errlen);

/* The PTX of every translation unit registered with `wrapper`, in
 * registration order (the link order): one for an ordinary fat binary;
 * for relocatable device code (nvcc -rdc=true: a version-2 wrapper whose
 * filename_or_fatbins lists the units' fat binaries) one per unit, and
 * *linked = 1: they must be linked into one module.  Returns 0 with *units
 * malloc'd (fatbin_units_free), or -1 with a message in err. */
#define FATBIN_MAX_UNITS 65535
int fatbin_extract_units(const void *wrapper, fatbin_ptx **units, size_t *n, int *linked,
                         char *err, size_t errlen);
void fatbin_units_free(fatbin_ptx *units, size_t n);

/* Load zstd from this shared-object name instead of libzstd.so.1 from the
 * next decompression on (tests: a name that does not exist shows the
 * message a machine without the library gives). */
void fatbin_zstd_library(const char *soname);

#endif
