/*
 * ptx_fatbin.h -- for the runtime tests: wrap hand-written PTX in a fat
 * binary laid out as nvcc 13's (see src/cudart/fatbin.c), ready for
 * __cudaRegisterFatBinary, so the tests need no nvcc.
 */
#ifndef LOCKSTEP_TESTS_PTX_FATBIN_H
#define LOCKSTEP_TESTS_PTX_FATBIN_H

#include <stdint.h>
#include <string.h>

#include "cudart/cuda_abi.h"

/* Fill buf (8-byte aligned, cap bytes) with a fat binary of the n bytes of
 * ptx (its terminating NUL included) and *w with its wrapper; 0, or -1 when
 * it does not fit. */
static int ptx_fatbin(const char *ptx, size_t n, unsigned char *buf, size_t cap, fatbin_wrapper *w)
{
    size_t padded = (n + 7) & ~(size_t)7;
    if (96 + padded > cap)
        return -1;
    memset(buf, 0, 96 + padded);
    uint32_t magic = 0xBA55ED50u;
    uint16_t ver = 1, hs = 16;
    uint64_t total = 80 + padded;
    memcpy(buf, &magic, 4);
    memcpy(buf + 4, &ver, 2);
    memcpy(buf + 6, &hs, 2);
    memcpy(buf + 8, &total, 8);
    unsigned char *e = buf + 16;
    uint16_t kind = 1, ever = 0x0101;
    uint32_t ehs = 80, arch = 75;
    uint64_t psize = padded, flags = 0x11;
    memcpy(e, &kind, 2);
    memcpy(e + 2, &ever, 2);
    memcpy(e + 4, &ehs, 4);
    memcpy(e + 8, &psize, 8);
    memcpy(e + 28, &arch, 4);
    memcpy(e + 40, &flags, 8);
    memcpy(e + 80, ptx, n);
    *w = (fatbin_wrapper){FATBINC_MAGIC, 2, (const unsigned long long *)(void *)buf, NULL};
    return 0;
}

#endif
