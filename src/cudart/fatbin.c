/*
 * fatbin.c -- reading nvcc's fat binaries.
 *
 * The layout (measured on nvcc 13 output; cuobjdump is not needed):
 *
 *   wrapper  { int magic 0x466243b1; int version; u64 *data; void *prelinked }
 *   data  -> header { u32 magic 0xba55ed50; u16 version; u16 header_size;
 *                     u64 entries_size }
 *            entries, each:
 *              +0  u16 kind          1 = PTX, 2 = ELF (machine code)
 *              +4  u32 header_size   the payload follows the entry header
 *              +8  u64 payload_size  (padded)
 *              +16 u32 compressed_size, when compressed
 *              +24 u16 minor, u16 major   PTX ISA version of a PTX entry
 *              +28 u32 arch          sm_XX
 *              +40 u64 flags         0x8000: payload is zstd-compressed
 *              +56 u64 uncompressed_size, when compressed
 *
 * Everything is bounds-checked against the sizes the headers declare.
 */
#include "cudart/fatbin.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/cuda_abi.h"

#ifdef LOCKSTEP_HAVE_ZSTD
#include <zstd.h>
#endif

#define FATBIN_MAGIC 0xBA55ED50u
#define FLAG_COMPRESSED 0x8000ull

static uint16_t rd16(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* Copy a PTX payload out (decompressing it if needed) into out. */
static int take_ptx(const uint8_t *entry, const uint8_t *payload, uint64_t psize,
                    fatbin_ptx *out, char *err, size_t errlen)
{
    uint64_t flags = rd64(entry + 40);
    if (flags & FLAG_COMPRESSED) {
#ifdef LOCKSTEP_HAVE_ZSTD
        uint64_t csize = rd32(entry + 16), usize = rd64(entry + 56);
        if (!csize || csize > psize)
            csize = psize;
        size_t frame = ZSTD_findFrameCompressedSize(payload, (size_t)csize);
        if (ZSTD_isError(frame)) {
            snprintf(err, errlen, "the fat binary's compressed PTX is damaged (%s)",
                     ZSTD_getErrorName(frame));
            return -1;
        }
        unsigned long long content = ZSTD_getFrameContentSize(payload, frame);
        if (content != ZSTD_CONTENTSIZE_UNKNOWN && content != ZSTD_CONTENTSIZE_ERROR)
            usize = content;
        if (!usize || usize > (1ull << 31)) {
            snprintf(err, errlen, "the fat binary's compressed PTX has no usable size");
            return -1;
        }
        char *text = malloc((size_t)usize + 1);
        if (!text) {
            snprintf(err, errlen, "out of host memory decompressing the PTX");
            return -1;
        }
        size_t got = ZSTD_decompress(text, (size_t)usize, payload, frame);
        if (ZSTD_isError(got)) {
            free(text);
            snprintf(err, errlen, "cannot decompress the fat binary's PTX (%s)",
                     ZSTD_getErrorName(got));
            return -1;
        }
        while (got && text[got - 1] == 0) /* nvcc stores the terminating NUL */
            got--;
        text[got] = 0;
        out->text = text;
        out->len = got;
        return 0;
#else
        (void)payload;
        (void)psize;
        snprintf(err, errlen,
                 "the program's PTX is zstd-compressed and this lockstep was built without "
                 "libzstd; rebuild lockstep with libzstd-dev installed, or build the program "
                 "with nvcc -Xfatbin=-compress=false");
        return -1;
#endif
    }
    /* uncompressed: the text may be padded with NULs */
    size_t n = (size_t)psize;
    while (n && payload[n - 1] == 0)
        n--;
    char *text = malloc(n + 1);
    if (!text) {
        snprintf(err, errlen, "out of host memory copying the PTX");
        return -1;
    }
    memcpy(text, payload, n);
    text[n] = 0;
    out->text = text;
    out->len = n;
    return 0;
}

int fatbin_extract_ptx(const void *wrapper, fatbin_ptx *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const fatbin_wrapper *w = wrapper;
    if (!w || w->magic != (int)FATBINC_MAGIC || !w->data) {
        snprintf(err, errlen, "the program registered something that is not a CUDA fat binary");
        return -1;
    }
    const uint8_t *h = (const uint8_t *)w->data;
    if (rd32(h) != FATBIN_MAGIC) {
        snprintf(err, errlen, "the fat binary has an unknown format (magic 0x%08x)", rd32(h));
        return -1;
    }
    uint16_t hsize = rd16(h + 6);
    uint64_t total = rd64(h + 8);
    if (hsize < 16 || total > (1ull << 34)) {
        snprintf(err, errlen, "the fat binary header is damaged");
        return -1;
    }
    const uint8_t *e = h + hsize, *end = h + hsize + total;
    const uint8_t *best = NULL, *best_payload = NULL;
    uint64_t best_size = 0;
    unsigned best_arch = 0, elf_archs[16], nelf = 0;
    while (e + 64 <= end) {
        uint16_t kind = rd16(e);
        uint32_t ehs = rd32(e + 4);
        uint64_t psize = rd64(e + 8);
        if (ehs < 64 || (uint64_t)(end - e) < ehs || psize > (uint64_t)(end - e) - ehs) {
            snprintf(err, errlen, "the fat binary has a damaged entry");
            return -1;
        }
        unsigned arch = rd32(e + 28);
        if (kind == 1 && (!best || arch > best_arch)) {
            best = e;
            best_payload = e + ehs;
            best_size = psize;
            best_arch = arch;
        } else if (kind == 2 && nelf < 16) {
            elf_archs[nelf++] = arch;
        }
        e += ehs + psize;
    }
    if (!best) {
        char archs[128] = "";
        size_t k = 0;
        for (unsigned i = 0; i < nelf && k + 16 < sizeof archs; i++)
            k += (size_t)snprintf(archs + k, sizeof archs - k, "%ssm_%u", i ? ", " : "", elf_archs[i]);
        if (w->version >= 2 && w->filename_or_fatbins)
            snprintf(err, errlen,
                     "the program was built with relocatable device code (nvcc -rdc=true), whose "
                     "PTX lockstep cannot link yet; rebuild without -rdc=true");
        else
            snprintf(err, errlen,
                     "the program's fat binary holds no PTX, only machine code for %s; lockstep "
                     "runs PTX: rebuild with nvcc -arch=sm_XX (which embeds PTX too) or add "
                     "-gencode arch=compute_XX,code=compute_XX",
                     nelf ? archs : "no architecture");
        return -1;
    }
    if (take_ptx(best, best_payload, best_size, out, err, errlen))
        return -1;
    out->arch = best_arch;
    out->ptx_minor = rd16(best + 24);
    out->ptx_major = rd16(best + 26);
    return 0;
}
