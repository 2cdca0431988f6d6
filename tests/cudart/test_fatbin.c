/*
 * test_fatbin.c -- the fat-binary reader on synthetic fat binaries laid
 * out like nvcc 13's: plain PTX, zstd-compressed PTX (nvcc's default),
 * several PTX entries (the highest architecture wins), machine code only
 * (a clear "rebuild with ..." error), relocatable device code, and damaged
 * headers, which must fail cleanly.
 */
#include <stdint.h>
#include <string.h>

#include "cudart/cuda_abi.h"
#include "cudart/fatbin.h"
#include "test.h"

#ifdef LOCKSTEP_HAVE_ZSTD
#include <zstd.h>
#endif

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

static void test_compressed(void)
{
#ifdef LOCKSTEP_HAVE_ZSTD
    static builder b;
    uint8_t z[4096];
    size_t zn = ZSTD_compress(z, sizeof z, ptx75, sizeof ptx75, 3);
    CHECK(!ZSTD_isError(zn));
    begin(&b);
    entry(&b, 1, 75, z, zn, 1, sizeof ptx75);
    finish(&b);
    fatbin_wrapper w = {FATBINC_MAGIC, 2, (const unsigned long long *)b.buf, NULL};
    fatbin_ptx p;
    char err[256] = "";
    CHECK_MSG(fatbin_extract_ptx(&w, &p, err, sizeof err) == 0, "%s", err);
    CHECK(p.text && !strcmp(p.text, ptx75)); /* the stored NUL is dropped */
    free(p.text);
    /* a damaged compressed payload fails cleanly */
    b.buf[16 + 80 + 5] ^= 0xff;
    b.buf[16 + 80 + 9] ^= 0xff;
    if (fatbin_extract_ptx(&w, &p, err, sizeof err) == 0)
        free(p.text); /* zstd may still decode; what matters is no crash */
#else
    printf("SKIP: built without libzstd\n");
#endif
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
    int prelinked = 1;
    w.filename_or_fatbins = &prelinked;
    CHECK(fatbin_extract_ptx(&w, &p, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "-rdc=true");
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

int main(void)
{
    RUN(test_plain_and_highest_arch);
    RUN(test_compressed);
    RUN(test_errors);
    return test_summary();
}
