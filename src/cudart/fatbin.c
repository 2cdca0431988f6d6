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
 * Relocatable device code (nvcc -rdc=true) is registered differently: the
 * host code nvlink adds (crt/link.stub) collects every translation unit's
 * wrapper, then registers one wrapper of version 2 whose data is the
 * device-linked image (machine code only) and whose filename_or_fatbins is
 * a NULL-terminated array of the units' fat binaries (each in the
 * __nv_relfatbin section: a relocatable ELF and the unit's PTX).  The PTX
 * of every unit is what lockstep links (fatbin_extract_units).
 *
 * DESIGN
 * - Every size a header declares is checked against the bytes that really
 *   exist: fatbin_parse takes the image with its length, and
 *   fatbin_extract_ptx measures how far the memory behind the program's
 *   pointer is mapped readable (/proc/self/maps) before it reads anything,
 *   so a damaged or hostile fat binary is an error, never a wild read.
 * - nvcc compresses the PTX with zstd by default.  The decompressor is the
 *   system's libzstd.so.1, loaded with dlopen on first need: every Debian
 *   system has that library (dpkg itself uses it), but not its headers, so
 *   lockstep's build never depends on a -dev package.  The five functions
 *   used are declared here with the types zstd's stable API gives them.
 */
#include "cudart/fatbin.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/cuda_abi.h"

#define FATBIN_MAGIC 0xBA55ED50u
#define FLAG_COMPRESSED 0x8000ull
#define ENTRY_MIN 64          /* bytes of an entry header we read */
#define PTX_MAX (1ull << 30)  /* the largest PTX text we accept: 1 GiB */

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

/* ---- zstd, loaded at run time ------------------------------------------------------ */

#define ZSTD_CONTENTSIZE_UNKNOWN (0ULL - 1)
#define ZSTD_CONTENTSIZE_ERROR (0ULL - 2)

typedef struct zstd_api {
    size_t (*find_frame_compressed_size)(const void *src, size_t size);
    unsigned long long (*get_frame_content_size)(const void *src, size_t size);
    size_t (*decompress)(void *dst, size_t cap, const void *src, size_t size);
    unsigned (*is_error)(size_t code);
    const char *(*get_error_name)(size_t code);
} zstd_api;

static pthread_mutex_t zstd_lock = PTHREAD_MUTEX_INITIALIZER;
static int zstd_tried;
static zstd_api zstd;
static char zstd_why[256];
static char zstd_soname[128] = "libzstd.so.1";

void fatbin_zstd_library(const char *soname)
{
    pthread_mutex_lock(&zstd_lock);
    snprintf(zstd_soname, sizeof zstd_soname, "%s", soname ? soname : "libzstd.so.1");
    zstd_tried = 0; /* the handle of an earlier library stays loaded: it is cheap */
    memset(&zstd, 0, sizeof zstd);
    pthread_mutex_unlock(&zstd_lock);
}

/* The zstd functions, loading the library on first use; NULL with the
 * reason in zstd_why when it cannot be loaded. */
static const zstd_api *zstd_get(void)
{
    pthread_mutex_lock(&zstd_lock);
    if (!zstd_tried) {
        zstd_tried = 1;
        void *h = dlopen(zstd_soname, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char *e = dlerror();
            snprintf(zstd_why, sizeof zstd_why, "%s", e ? e : "dlopen failed");
        } else {
            /* POSIX guarantees that a data pointer from dlsym converts to a
             * function pointer; memcpy says so without a cast warning. */
            void *f[5] = {dlsym(h, "ZSTD_findFrameCompressedSize"),
                          dlsym(h, "ZSTD_getFrameContentSize"), dlsym(h, "ZSTD_decompress"),
                          dlsym(h, "ZSTD_isError"), dlsym(h, "ZSTD_getErrorName")};
            int ok = 1;
            for (int i = 0; i < 5; i++)
                ok &= f[i] != NULL;
            if (ok) {
                memcpy(&zstd.find_frame_compressed_size, &f[0], sizeof f[0]);
                memcpy(&zstd.get_frame_content_size, &f[1], sizeof f[1]);
                memcpy(&zstd.decompress, &f[2], sizeof f[2]);
                memcpy(&zstd.is_error, &f[3], sizeof f[3]);
                memcpy(&zstd.get_error_name, &f[4], sizeof f[4]);
            } else {
                snprintf(zstd_why, sizeof zstd_why, "%s lacks the zstd decompression functions",
                         zstd_soname);
            }
        }
    }
    const zstd_api *z = zstd.decompress ? &zstd : NULL;
    pthread_mutex_unlock(&zstd_lock);
    return z;
}

/* ---- the reader --------------------------------------------------------------------- */

/* Decompress a zstd frame of PTX out of payload[0, psize). */
static int inflate_ptx(const uint8_t *entry, const uint8_t *payload, uint64_t psize,
                       fatbin_ptx *out, char *err, size_t errlen)
{
    const zstd_api *z = zstd_get();
    if (!z) {
        snprintf(err, errlen,
                 "the program's PTX is zstd-compressed (nvcc's default) and the zstd library "
                 "cannot be loaded (%s); install it (Debian: apt-get install libzstd1) or build "
                 "the program with nvcc -Xfatbin=-compress=false",
                 zstd_why);
        return -1;
    }
    uint64_t csize = rd32(entry + 16), usize = rd64(entry + 56);
    if (!csize || csize > psize)
        csize = psize;
    size_t frame = z->find_frame_compressed_size(payload, (size_t)csize);
    if (z->is_error(frame)) {
        snprintf(err, errlen, "the fat binary's compressed PTX is damaged (%s)",
                 z->get_error_name(frame));
        return -1;
    }
    unsigned long long content = z->get_frame_content_size(payload, frame);
    if (content != ZSTD_CONTENTSIZE_UNKNOWN && content != ZSTD_CONTENTSIZE_ERROR)
        usize = content;
    if (!usize || usize > PTX_MAX) {
        snprintf(err, errlen,
                 "the fat binary's compressed PTX declares %llu bytes; lockstep reads 1 to %llu",
                 (unsigned long long)usize, (unsigned long long)PTX_MAX);
        return -1;
    }
    char *text = malloc((size_t)usize + 1);
    if (!text) {
        snprintf(err, errlen, "out of host memory decompressing %llu bytes of PTX",
                 (unsigned long long)usize);
        return -1;
    }
    size_t got = z->decompress(text, (size_t)usize, payload, frame);
    if (z->is_error(got)) {
        snprintf(err, errlen, "cannot decompress the fat binary's PTX (%s)",
                 z->get_error_name(got));
        free(text);
        return -1;
    }
    while (got && text[got - 1] == 0) /* nvcc stores the terminating NUL */
        got--;
    if (memchr(text, 0, got)) {
        snprintf(err, errlen, "the fat binary's compressed PTX holds binary data, not PTX text");
        free(text);
        return -1;
    }
    text[got] = 0;
    out->text = text;
    out->len = got;
    return 0;
}

/* Copy a PTX payload out (decompressing it if needed) into out. */
static int take_ptx(const uint8_t *entry, const uint8_t *payload, uint64_t psize,
                    fatbin_ptx *out, char *err, size_t errlen)
{
    if (rd64(entry + 40) & FLAG_COMPRESSED)
        return inflate_ptx(entry, payload, psize, out, err, errlen);
    /* uncompressed: the text may be padded with NULs */
    size_t n = (size_t)psize;
    while (n && payload[n - 1] == 0)
        n--;
    if (memchr(payload, 0, n)) {
        snprintf(err, errlen, "the fat binary's PTX entry holds binary data, not PTX text");
        return -1;
    }
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

int fatbin_parse(const void *data, size_t size, int rdc, fatbin_ptx *out, char *err,
                 size_t errlen)
{
    memset(out, 0, sizeof *out);
    const uint8_t *h = data;
    if (!h || size < 16) {
        snprintf(err, errlen, "the fat binary is truncated (%zu bytes, its header needs 16)",
                 h ? size : (size_t)0);
        return -1;
    }
    if (rd32(h) != FATBIN_MAGIC) {
        snprintf(err, errlen, "the fat binary has an unknown format (magic 0x%08x)", rd32(h));
        return -1;
    }
    uint16_t hsize = rd16(h + 6);
    uint64_t total = rd64(h + 8);
    if (hsize < 16 || hsize > size || total > size - hsize) {
        snprintf(err, errlen,
                 "the fat binary header is damaged: it declares a %u-byte header and %llu bytes "
                 "of entries, and %zu bytes are there",
                 hsize, (unsigned long long)total, size);
        return -1;
    }
    const uint8_t *e = h + hsize, *end = h + hsize + total;
    const uint8_t *best = NULL, *best_payload = NULL;
    uint64_t best_size = 0;
    unsigned best_arch = 0, elf_archs[16], nelf = 0;
    while ((size_t)(end - e) >= ENTRY_MIN) {
        uint16_t kind = rd16(e);
        uint32_t ehs = rd32(e + 4);
        uint64_t psize = rd64(e + 8);
        uint64_t left = (uint64_t)(end - e);
        if (ehs < ENTRY_MIN || ehs > left || psize > left - ehs) {
            snprintf(err, errlen,
                     "the fat binary has a damaged entry at offset %zu: a %u-byte header and "
                     "%llu bytes of payload, and %llu bytes are left",
                     (size_t)(e - h), ehs, (unsigned long long)psize, (unsigned long long)left);
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
        char archs[160] = "";
        size_t k = 0;
        for (unsigned i = 0; i < nelf && k + 24 < sizeof archs; i++)
            k += (size_t)snprintf(archs + k, sizeof archs - k, "%ssm_%u", i ? ", " : "",
                                  elf_archs[i] % 100000);
        snprintf(err, errlen,
                 "the program's %s holds no PTX, only machine code for %s; lockstep runs PTX: "
                 "rebuild with nvcc -arch=sm_XX (which embeds PTX too) or add "
                 "-gencode arch=compute_XX,code=compute_XX",
                 rdc ? "relocatable device code (nvcc -rdc=true)" : "fat binary",
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

/* How many bytes from p on are mapped readable in this process: the
 * mapping holding p and those that follow it without a gap.  0 when p is
 * not mapped readable; SIZE_MAX when /proc/self/maps cannot be read (then
 * the headers' own sizes are all there is to go by). */
static size_t readable_from(const void *p)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return SIZE_MAX;
    uintptr_t a = (uintptr_t)p, run_end = 0;
    int in_run = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3)
            continue;
        int readable = perms[0] == 'r';
        if (in_run) {
            if (lo == run_end && readable)
                run_end = hi;
            else
                break;
        } else if (a >= lo && a < hi) {
            if (!readable)
                break;
            in_run = 1;
            run_end = hi;
        }
        if (!strchr(line, '\n')) { /* a path longer than the buffer: skip the rest */
            int c;
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
        }
    }
    fclose(f);
    return in_run ? (size_t)(run_end - a) : 0;
}

int fatbin_extract_ptx(const void *wrapper, fatbin_ptx *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const fatbin_wrapper *w = wrapper;
    if (!w || readable_from(w) < sizeof *w || w->magic != (int)FATBINC_MAGIC || !w->data) {
        snprintf(err, errlen, "the program registered something that is not a CUDA fat binary");
        return -1;
    }
    size_t avail = readable_from(w->data);
    if (!avail) {
        snprintf(err, errlen, "the program's fat binary points at unmapped memory");
        return -1;
    }
    return fatbin_parse(w->data, avail, 0, out, err, errlen);
}

void fatbin_units_free(fatbin_ptx *units, size_t n)
{
    for (size_t i = 0; units && i < n; i++)
        free(units[i].text);
    free(units);
}

int fatbin_extract_units(const void *wrapper, fatbin_ptx **units, size_t *n, int *linked,
                         char *err, size_t errlen)
{
    *units = NULL;
    *n = 0;
    *linked = 0;
    const fatbin_wrapper *w = wrapper;
    if (!w || readable_from(w) < sizeof *w || w->magic != (int)FATBINC_MAGIC) {
        snprintf(err, errlen, "the program registered something that is not a CUDA fat binary");
        return -1;
    }
    if (w->version < 2 || !w->filename_or_fatbins) {
        fatbin_ptx *one = calloc(1, sizeof *one);
        if (!one) {
            snprintf(err, errlen, "out of host memory reading the fat binary");
            return -1;
        }
        if (fatbin_extract_ptx(wrapper, one, err, errlen)) {
            free(one);
            return -1;
        }
        *units = one;
        *n = 1;
        return 0;
    }
    /* version 2: the units' fat binaries, a NULL-terminated array of pointers */
    const void *const *list = w->filename_or_fatbins;
    size_t room = readable_from(list) / sizeof *list, count = 0;
    while (count < room && count < FATBIN_MAX_UNITS && list[count])
        count++;
    if (count == room || count == FATBIN_MAX_UNITS) {
        snprintf(err, errlen,
                 "the program's list of relocatable device code is damaged (no end within %zu "
                 "entries)",
                 count);
        return -1;
    }
    if (!count) {
        snprintf(err, errlen,
                 "the program registered relocatable device code of no translation unit");
        return -1;
    }
    fatbin_ptx *u = calloc(count, sizeof *u);
    if (!u) {
        snprintf(err, errlen, "out of host memory reading the fat binary");
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        size_t avail = readable_from(list[i]);
        char why[400];
        if (!avail)
            snprintf(why, sizeof why, "it points at unmapped memory");
        if (!avail || fatbin_parse(list[i], avail, 1, &u[i], why, sizeof why)) {
            snprintf(err, errlen, "translation unit %zu of %zu: %s", i + 1, count, why);
            fatbin_units_free(u, count);
            return -1;
        }
    }
    *units = u;
    *n = count;
    *linked = 1;
    return 0;
}
