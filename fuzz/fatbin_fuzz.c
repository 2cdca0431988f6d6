/*
 * fatbin_fuzz.c -- libFuzzer target for the fat-binary reader
 * (src/cudart/fatbin.c), which runs inside a user's program before main:
 * each input is a fat binary image of exactly the input's size, read the
 * way __cudaRegisterFatBinary's wrapper is.  Any crash, sanitizer report
 * (a read past the image), leak or hang is a bug.  The corpus holds the
 * fat binaries nvcc 13 puts in a program, zstd-compressed and plain.
 *
 *   make fuzz && build-fuzz/fatbin_fuzz -max_total_time=60 fuzz/corpus-fatbin
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a copy of exactly `size` bytes, so ASan sees any read past it */
    uint8_t *img = malloc(size ? size : 1);
    if (!img)
        return 0;
    memcpy(img, data, size);
    fatbin_ptx p;
    char err[512];
    if (fatbin_parse(img, size, size & 1, &p, err, sizeof err) == 0) {
        if (strlen(p.text) != p.len)
            abort();
        free(p.text);
    } else if (!err[0]) {
        abort(); /* every failure says why */
    }
    free(img);
    return 0;
}
