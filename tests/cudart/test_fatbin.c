/*
 * test_fatbin.c -- the fat-binary reader on synthetic fat binaries laid
 * out like nvcc 13's: plain PTX, several PTX entries (the highest
 * architecture wins), machine code only (a clear "rebuild with ..." error),
 * relocatable device code (a version-2 wrapper listing each translation
 * unit's fat binary: every unit's PTX, one of them nvcc's own, and the
 * errors of a unit without PTX, at an unmapped address, or no unit), and
 * damaged headers, which must fail cleanly;
 * and on two fat binaries nvcc made (tests/cudart/fixtures, committed, so
 * this needs no nvcc): zstd-compressed (nvcc's default, decompressed with
 * the system's libzstd.so.1 loaded at run time) and uncompressed.  Every
 * image is read from a buffer of exactly its size, so the sanitizer build
 * catches any read past the end; random mutations of a real fat binary
 * must never crash.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cudart/cuda_abi.h"
#include "cudart/fatbin.h"
#include "test.h"
#include "util/rng.h"

typedef struct builder {
    uint8_t buf[1 << 16];
    size_t n;
} builder;

static void put(builder *b, const void *p, size_t n)
{
    memcpy(b->buf + b->n, p, n);
    b->n += n;
}

static void put16(builder *b, uint16_t v) { put(b, &v, 2); }
static void put32(builder *b, uint32_t v) { put(b, &v, 4); }
static void put64(builder *b, uint64_t v) { put(b, &v, 8); }

static void begin(builder *b)
{
    memset(b, 0, sizeof *b);
    put32(b, 0xBA55ED50u);
    put16(b, 1);
    put16(b, 16);
    put64(b, 0); /* patched by finish() */
}

/* One entry: kind 1 (PTX) or 2 (ELF), an 80-byte header, the payload padded to 8. */
static void entry(builder *b, int kind, unsigned arch, const void *payload, size_t n,
                  int compressed, size_t usize)
{
    size_t padded = (n + 7) & ~(size_t)7;
    put16(b, (uint16_t)kind);
    put16(b, 0x0101);
    put32(b, 80);
    put64(b, padded);
    put32(b, compressed ? (uint32_t)n : 0);
    put32(b, 0x40);
    put16(b, 0);      /* PTX ISA minor */
    put16(b, 9);      /* major */
    put32(b, arch);
    put32(b, 0);
    put32(b, 0);
    put64(b, compressed ? 0x8011 : 0x11);
    put64(b, 0);
    put64(b, compressed ? usize : 0);
    put64(b, 0);
    put64(b, 0); /* to 80 bytes */
    put(b, payload, n);
    b->n += padded - n;
}

static void finish(builder *b)
{
    uint64_t total = b->n - 16;
    memcpy(b->buf + 8, &total, 8);
}

static const char ptx75[] = ".version 9.0\n.target sm_75\n.address_size 64\n// seventy-five\n";
static const char ptx80[] = ".version 9.0\n.target sm_80\n.address_size 64\n// eighty\n";

static void test_plain_and_highest_arch(void)
{
    static builder b;
    begin(&b);
    entry(&b, 2, 75, "\x7f" "ELF....", 8, 0, 0);
    entry(&b, 1, 75, ptx75, sizeof ptx75, 0, 0); /* with its NUL, like nvcc */
    entry(&b, 1, 80, ptx80, sizeof ptx80 - 1, 0, 0);
    finish(&b);
    fatbin_wrapper w = {FATBINC_MAGIC, 2, (const unsigned long long *)b.buf, NULL};
    fatbin_ptx p;
    char err[256] = "";
    CHECK_MSG(fatbin_extract_ptx(&w, &p, err, sizeof err) == 0, "%s", err);
    CHECK_EQ_INT(p.arch, 80);
    CHECK_EQ_INT(p.ptx_major, 9);
    CHECK(p.text && !strcmp(p.text, ptx80));
    CHECK_EQ_INT(p.len, strlen(ptx80));
    free(p.text);
}

/* A fixture read into a buffer of exactly its size. */
static uint8_t *fixture(const char *name, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/cudart/fixtures/%s", LOCKSTEP_SRC_DIR, name);
    FILE *f = fopen(path, "rb");
    CHECK_MSG(f != NULL, "cannot open %s", path);
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len);
    CHECK(b && fread(b, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* The fat binary in an .nv_fatbin section that holds PTX.  nvcc 13 puts
 * two fat binaries in a program's section (the first carries only machine
 * code); each is registered on its own.  Sets *n to its size. */
static uint8_t *ptx_fatbin(uint8_t *sec, size_t secn, size_t *n)
{
    size_t off = 0;
    uint8_t *found = NULL;
    while (off + 16 <= secn) {
        uint16_t hs;
        uint64_t tot;
        memcpy(&hs, sec + off + 6, 2);
        memcpy(&tot, sec + off + 8, 8);
        fatbin_ptx p;
        char err[512];
        if (fatbin_parse(sec + off, hs + tot, 0, &p, err, sizeof err) == 0) {
            CHECK(found == NULL);
            found = sec + off;
            *n = hs + tot;
            free(p.text);
        } else {
            CHECK_STR_CONTAINS(err, "holds no PTX, only machine code for sm_75");
        }
        off += hs + tot;
    }
    CHECK(found != NULL && off == secn);
    return found;
}

/* nvcc's own output, compressed and not: the same PTX comes out of both. */
static void test_nvcc_fixtures(void)
{
    size_t zsn = 0, psn = 0, zn = 0, pn = 0;
    uint8_t *zsec = fixture("scale.zstd.fatbin", &zsn), *psec = fixture("scale.plain.fatbin", &psn);
    if (!zsec || !psec)
        return;
    uint8_t *z = ptx_fatbin(zsec, zsn, &zn), *pl = ptx_fatbin(psec, psn, &pn);
    if (!z || !pl)
        return;
    fatbin_ptx a = {0}, b = {0};
    char err[512] = "";
    CHECK_MSG(fatbin_parse(pl, pn, 0, &a, err, sizeof err) == 0, "%s", err);
    CHECK_MSG(fatbin_parse(z, zn, 0, &b, err, sizeof err) == 0, "%s", err);
    if (!a.text || !b.text)
        return;
    CHECK_STR_CONTAINS(a.text, ".entry _Z5scalePffi");
    CHECK(a.len == b.len && !memcmp(a.text, b.text, a.len));
    CHECK_EQ_INT(strlen(b.text), b.len);
    CHECK_EQ_INT(a.arch, 75);
    CHECK_EQ_INT(b.arch, 75);
    free(a.text);
    free(b.text);

    /* the same through a wrapper, as a program registers it */
    fatbin_wrapper w = {FATBINC_MAGIC, 1, (const unsigned long long *)(void *)z, NULL};
    CHECK_MSG(fatbin_extract_ptx(&w, &b, err, sizeof err) == 0, "%s", err);
    free(b.text);

    /* a machine without libzstd.so.1: a message saying what to do */
    fatbin_zstd_library("liblockstep-no-such-zstd.so.9");
    CHECK(fatbin_parse(z, zn, 0, &b, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "zstd library cannot be loaded");
    CHECK_STR_CONTAINS(err, "libzstd1");
    CHECK_STR_CONTAINS(err, "-Xfatbin=-compress=false");
    /* the uncompressed one needs no library */
    CHECK_MSG(fatbin_parse(pl, pn, 0, &a, err, sizeof err) == 0, "%s", err);
    free(a.text);
    fatbin_zstd_library(NULL);
    CHECK_MSG(fatbin_parse(z, zn, 0, &b, err, sizeof err) == 0, "%s", err);
    free(b.text);

    /* every truncation of both fails cleanly or still finds the PTX */
    const uint8_t *imgs[2] = {z, pl};
    size_t lens[2] = {zn, pn};
    for (int k = 0; k < 2; k++)
        for (size_t cut = 0; cut < lens[k]; cut += 7) {
            uint8_t *t = malloc(cut ? cut : 1);
            memcpy(t, imgs[k], cut);
            if (fatbin_parse(t, cut, 0, &a, err, sizeof err) == 0)
                free(a.text);
            free(t);
        }
    free(zsec);
    free(psec);
}

/* Header mutations of a real fat binary: no crash, no read outside the
 * image (the sanitizer build checks), for declared sizes up to 2^64. */
static void test_mutations(void)
{
    size_t zsn = 0, zn = 0;
    uint8_t *zsec = fixture("scale.zstd.fatbin", &zsn);
    uint8_t *z = zsec ? ptx_fatbin(zsec, zsn, &zn) : NULL;
    if (!z)
        return;
    uint8_t *t = malloc(zn);
    fatbin_ptx p;
    char err[512];
    /* the ones found by hand: header_size 0xffff, payload_size 1 GiB */
    memcpy(t, z, zn);
    t[6] = t[7] = 0xff;
    CHECK(fatbin_parse(t, zn, 0, &p, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "header is damaged");
    memcpy(t, z, zn);
    uint64_t gig = 1ull << 30;
    memcpy(t + 16 + 8, &gig, 8);
    CHECK(fatbin_parse(t, zn, 0, &p, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "damaged entry");
    rng r;
    rng_seed(&r, 12345, RNG_TEST, 0);
    int ok = 0, failed = 0;
    for (int i = 0; i < 3000; i++) {
        memcpy(t, z, zn);
        int flips = 1 + (int)(rng_next(&r) % 4);
        for (int f = 0; f < flips; f++) {
            /* mostly the headers (the first 200 bytes), sometimes anywhere */
            size_t at = (rng_next(&r) & 3) ? rng_next(&r) % 200 : rng_next(&r) % zn;
            uint64_t v = rng_next(&r);
            switch (rng_next(&r) % 3) {
            case 0: t[at] ^= (uint8_t)(1u << (v & 7)); break;
            case 1: t[at] = (uint8_t)v; break;
            default:
                if (at + 8 <= zn)
                    memcpy(t + at, &v, 8);
            }
        }
        if (fatbin_parse(t, zn, 0, &p, err, sizeof err) == 0) {
            CHECK(p.text != NULL && strlen(p.text) == p.len);
            free(p.text);
            ok++;
        } else {
            CHECK(err[0] != 0);
            failed++;
        }
    }
    CHECK(ok > 0 && failed > 0);
    free(t);
    free(zsec);
}

static void test_errors(void)
{
    static builder b;
    fatbin_ptx p;
    char err[512];
    begin(&b);
    entry(&b, 2, 90, "\x7f" "ELF....", 8, 0, 0);
    finish(&b);
    fatbin_wrapper w = {FATBINC_MAGIC, 2, (const unsigned long long *)b.buf, NULL};
    CHECK(fatbin_extract_ptx(&w, &p, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "holds no PTX, only machine code for sm_90");
    CHECK_STR_CONTAINS(err, "code=compute_XX");
    fatbin_wrapper bad = {0x12345678, 1, (const unsigned long long *)b.buf, NULL};
    CHECK(fatbin_extract_ptx(&bad, &p, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "not a CUDA fat binary");
    CHECK(fatbin_extract_ptx(NULL, &p, err, sizeof err) == -1);
    /* an entry claiming more payload than the fat binary holds */
    begin(&b);
    entry(&b, 1, 75, ptx75, sizeof ptx75, 0, 0);
    finish(&b);
    uint64_t huge = 1ull << 30;
    memcpy(b.buf + 16 + 8, &huge, 8);
    fatbin_wrapper w2 = {FATBINC_MAGIC, 2, (const unsigned long long *)b.buf, NULL};
    CHECK(fatbin_extract_ptx(&w2, &p, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "damaged");
    /* a wrong magic in the fat binary itself */
    b.buf[0] = 0;
    CHECK(fatbin_extract_ptx(&w2, &p, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "unknown format");
}

/* Relocatable device code (nvcc -rdc=true): a version-2 wrapper listing
 * each translation unit's fat binary, NULL-terminated; the units' PTX in
 * order.  nvcc's own unit (the fixture) and a synthetic one. */
static void test_rdc_units(void)
{
    size_t rn = 0;
    uint8_t *rel = fixture("scale.rdc.fatbin", &rn);
    if (!rel)
        return;
    static builder b, elf;
    begin(&b);
    entry(&b, 2, 80, "\x7f" "ELF....", 8, 0, 0);
    entry(&b, 1, 80, ptx80, sizeof ptx80, 0, 0);
    finish(&b);
    begin(&elf);
    entry(&elf, 2, 90, "\x7f" "ELF....", 8, 0, 0);
    finish(&elf);
    static builder linked; /* the device-linked image: machine code only */
    begin(&linked);
    entry(&linked, 2, 75, "\x7f" "ELF....", 8, 0, 0);
    finish(&linked);
    const void *list[3] = {rel, b.buf, NULL};
    fatbin_wrapper w = {FATBINC_MAGIC, 2, (const unsigned long long *)linked.buf, (void *)list};
    fatbin_ptx *u = NULL;
    size_t n = 0;
    int is_linked = 0;
    char err[512] = "";
    CHECK_MSG(fatbin_extract_units(&w, &u, &n, &is_linked, err, sizeof err) == 0, "%s", err);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(is_linked, 1);
    if (u && n == 2) {
        CHECK_STR_CONTAINS(u[0].text, ".visible .entry _Z5scalePffi");
        CHECK_EQ_INT(u[0].arch, 75);
        CHECK_EQ_INT(strlen(u[0].text), u[0].len);
        CHECK(!strcmp(u[1].text, ptx80));
        CHECK_EQ_INT(u[1].arch, 80);
    }
    fatbin_units_free(u, n);

    /* an ordinary wrapper: one unit, not linked */
    fatbin_wrapper one = {FATBINC_MAGIC, 1, (const unsigned long long *)b.buf, NULL};
    CHECK_MSG(fatbin_extract_units(&one, &u, &n, &is_linked, err, sizeof err) == 0, "%s", err);
    CHECK(n == 1 && !is_linked && u && !strcmp(u[0].text, ptx80));
    fatbin_units_free(u, n);

    /* a unit with machine code only, a unit at an unmapped address, no unit */
    const void *no_ptx[3] = {b.buf, elf.buf, NULL};
    w.filename_or_fatbins = (void *)no_ptx;
    CHECK(fatbin_extract_units(&w, &u, &n, &is_linked, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "translation unit 2 of 2: ");
    CHECK_STR_CONTAINS(err, "relocatable device code (nvcc -rdc=true) holds no PTX, only machine "
                            "code for sm_90");
    CHECK(u == NULL && n == 0);
    const void *unmapped[2] = {(const void *)16, NULL};
    w.filename_or_fatbins = (void *)unmapped;
    CHECK(fatbin_extract_units(&w, &u, &n, &is_linked, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "translation unit 1 of 1: it points at unmapped memory");
    const void *none[1] = {NULL};
    w.filename_or_fatbins = (void *)none;
    CHECK(fatbin_extract_units(&w, &u, &n, &is_linked, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "of no translation unit");
    /* a list without its NULL end, running into a page that cannot be read */
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(m != MAP_FAILED);
    if (m != MAP_FAILED) {
        CHECK(mprotect(m + pg, pg, PROT_NONE) == 0);
        const void **tail = (const void **)(m + pg) - 1;
        *tail = b.buf;
        w.filename_or_fatbins = (void *)tail;
        CHECK(fatbin_extract_units(&w, &u, &n, &is_linked, err, sizeof err) == -1);
        CHECK_STR_CONTAINS(err, "list of relocatable device code is damaged");
        munmap(m, 2 * pg);
    }
    free(rel);
}

int main(void)
{
    RUN(test_plain_and_highest_arch);
    RUN(test_nvcc_fixtures);
    RUN(test_mutations);
    RUN(test_errors);
    RUN(test_rdc_units);
    return test_summary();
}
