/*
 * test_devmem.c -- unit tests of the simulated device memory (mem/devmem.c):
 * allocator placement and reuse, coalescing, capacity limits, the live
 * allocation lookups, sparse backing (untouched memory reads as zeros and
 * costs nothing), bulk access across pages, and zeroing on free.
 */
#include "test.h"

#include "mem/addrmap.h"
#include "mem/devmem.h"

#define B ADDR_GLOBAL_BASE
#define PG DEVMEM_PAGE_SIZE
#define MiB (1ull << 20)
#define GiB (1ull << 30)

static void test_alloc_placement(void)
{
    devmem *dm = devmem_create(64 * MiB);
    CHECK(dm != NULL);
    uint64_t a, b, c, d;
    CHECK_EQ_INT(devmem_alloc_block(dm, 100, 256, 0, &a), 0);
    CHECK_EQ_U64(a, B);
    CHECK_EQ_INT(devmem_alloc_block(dm, 1, 0, 0, &b), 0); /* align 0 -> 256 */
    CHECK_EQ_U64(b, B + 256);
    CHECK_EQ_INT(devmem_alloc_block(dm, 300, 4096, 7, &c), 0);
    CHECK_EQ_U64(c, B + 4096);
    CHECK_EQ_INT(devmem_alloc_block(dm, 256, 256, 0, &d), 0); /* fills the gap after b */
    CHECK_EQ_U64(d, B + 512);
    CHECK_EQ_U64(devmem_used(dm), 256 + 256 + 512 + 256);
    CHECK_EQ_U64(devmem_alloc_count(dm), 4);
    uint32_t h = 0;
    const devmem_alloc *al = devmem_find(dm, c, 1, &h);
    CHECK(al && al->base == c && al->size == 300 && al->tag == 7);
    /* bad alignments */
    uint64_t x;
    CHECK_EQ_INT(devmem_alloc_block(dm, 16, 384, 0, &x), -1);
    CHECK_EQ_INT(devmem_alloc_block(dm, 0, 256, 0, &x), -1);
    CHECK_EQ_INT(devmem_alloc_block(dm, 16, 1ull << 63, 0, &x), -1);
    devmem_destroy(dm);

    /* The same call sequence gives the same addresses. */
    uint64_t r1[20], r2[20];
    for (int round = 0; round < 2; round++) {
        uint64_t *r = round ? r2 : r1;
        dm = devmem_create(16 * MiB);
        for (int i = 0; i < 20; i++) {
            CHECK_EQ_INT(devmem_alloc_block(dm, (uint64_t)(i * 777 + 1), 256u << (i % 4), 0,
                                            &r[i]),
                         0);
            if (i % 3 == 2)
                CHECK_EQ_INT(devmem_free_block(dm, r[i - 1]), 0);
        }
        devmem_destroy(dm);
    }
    CHECK(memcmp(r1, r2, sizeof r1) == 0);
}

static void test_first_fit_reuse_and_coalesce(void)
{
    devmem *dm = devmem_create(1 * MiB);
    uint64_t a[4];
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(devmem_alloc_block(dm, 1000, 256, 0, &a[i]), 0); /* 1024 each */
    CHECK_EQ_U64(a[3], B + 3 * 1024);
    CHECK_EQ_INT(devmem_free_block(dm, a[1]), 0);
    CHECK_EQ_INT(devmem_free_block(dm, a[1]), -1); /* double free */
    CHECK_EQ_INT(devmem_free_block(dm, a[0] + 256), -1); /* not a base */
    uint64_t x, y;
    CHECK_EQ_INT(devmem_alloc_block(dm, 512, 256, 0, &x), 0);
    CHECK_EQ_U64(x, a[1]); /* first fit: the hole */
    CHECK_EQ_INT(devmem_alloc_block(dm, 1024, 256, 0, &y), 0);
    CHECK_EQ_U64(y, B + 4 * 1024); /* the rest of the hole is too small */
    CHECK_EQ_INT(devmem_free_block(dm, x), 0);
    /* Free a[0] and a[2] around the hole: one 3 KiB range */
    CHECK_EQ_INT(devmem_free_block(dm, a[0]), 0);
    CHECK_EQ_INT(devmem_free_block(dm, a[2]), 0);
    CHECK_EQ_INT(devmem_alloc_block(dm, 3 * 1024, 256, 0, &x), 0);
    CHECK_EQ_U64(x, B);
    CHECK_EQ_INT(devmem_free_block(dm, x), 0);
    CHECK_EQ_INT(devmem_free_block(dm, a[3]), 0);
    CHECK_EQ_INT(devmem_free_block(dm, y), 0);
    CHECK_EQ_U64(devmem_used(dm), 0);
    CHECK_EQ_U64(devmem_alloc_count(dm), 0);
    /* Everything coalesced back: the whole capacity fits in one block. */
    CHECK_EQ_INT(devmem_alloc_block(dm, 1 * MiB, 256, 0, &x), 0);
    CHECK_EQ_U64(x, B);
    devmem_destroy(dm);
}

static void test_capacity(void)
{
    devmem *dm = devmem_create(4096);
    uint64_t a, b, c;
    CHECK_EQ_INT(devmem_alloc_block(dm, 4097, 256, 0, &a), -1);
    CHECK_EQ_INT(devmem_alloc_block(dm, UINT64_MAX, 256, 0, &a), -1);
    CHECK_EQ_INT(devmem_alloc_block(dm, 2000, 256, 0, &a), 0); /* 2048 */
    CHECK_EQ_INT(devmem_alloc_block(dm, 2048, 256, 0, &b), 0);
    CHECK_EQ_U64(devmem_used(dm), 4096);
    CHECK_EQ_INT(devmem_alloc_block(dm, 1, 256, 0, &c), -1);
    CHECK_EQ_INT(devmem_free_block(dm, a), 0);
    CHECK_EQ_INT(devmem_alloc_block(dm, 2048, 2048, 0, &c), 0);
    CHECK_EQ_U64(c, B);
    CHECK_EQ_U64(devmem_capacity(dm), 4096);
    devmem_destroy(dm);

    /* Alignment can make a request fail although the bytes are there. */
    dm = devmem_create(8192);
    CHECK_EQ_INT(devmem_alloc_block(dm, 256, 256, 0, &a), 0);
    CHECK_EQ_INT(devmem_alloc_block(dm, 4096, 8192, 0, &b), -1);
    CHECK_EQ_INT(devmem_alloc_block(dm, 4096, 4096, 0, &b), 0);
    CHECK_EQ_U64(b, B + 4096);
    devmem_destroy(dm);

    /* Capacity not a multiple of 256, and zero. */
    dm = devmem_create(1000);
    CHECK_EQ_INT(devmem_alloc_block(dm, 768, 256, 0, &a), 0);
    CHECK_EQ_INT(devmem_alloc_block(dm, 1, 256, 0, &b), -1);
    devmem_destroy(dm);
    dm = devmem_create(0);
    CHECK(dm != NULL);
    CHECK_EQ_INT(devmem_alloc_block(dm, 1, 256, 0, &a), -1);
    CHECK(devmem_rptr(dm, B) == NULL);
    devmem_destroy(dm);
    CHECK(devmem_create(UINT64_MAX) == NULL);
}

static void test_find(void)
{
    devmem *dm = devmem_create(1 * MiB);
    uint64_t a, b, c;
    CHECK_EQ_INT(devmem_alloc_block(dm, 100, 256, 0, &a), 0);
    CHECK_EQ_INT(devmem_alloc_block(dm, 256, 256, 1, &b), 0);
    CHECK_EQ_INT(devmem_alloc_block(dm, 4096, 256, 2, &c), 0);
    uint32_t h = 0;
    CHECK(devmem_find(dm, a, 100, &h) != NULL);
    CHECK(devmem_find(dm, a + 96, 4, &h) != NULL);
    CHECK(devmem_find(dm, a + 97, 4, &h) == NULL); /* 1 byte past the end */
    CHECK(devmem_find(dm, a + 100, 1, &h) == NULL); /* rounding padding is illegal */
    CHECK(devmem_find(dm, a - 1, 1, &h) == NULL);
    CHECK(devmem_find(dm, b - 4, 8, &h) == NULL); /* straddles a and b */
    const devmem_alloc *f = devmem_find(dm, b + 255, 1, &h);
    CHECK(f && f->base == b);
    CHECK(devmem_find(dm, b + 255, 2, &h) == NULL); /* straddles b and c */
    f = devmem_find(dm, c + 4000, 96, &h);
    CHECK(f && f->base == c && f->tag == 2);
    CHECK_EQ_U64(h, 2);
    /* Hint hits, and a stale hint out of range is harmless. */
    f = devmem_find(dm, c + 8, 8, &h);
    CHECK(f && f->base == c);
    h = 1000;
    f = devmem_find(dm, a + 8, 8, &h);
    CHECK(f && f->base == a);
    CHECK_EQ_U64(h, 0);
    h = 2; /* wrong hint */
    f = devmem_find(dm, b, 4, &h);
    CHECK(f && f->base == b);
    /* size 0 counts as 1 */
    CHECK(devmem_find(dm, c, 0, &h) != NULL);
    /* overflow of addr + size */
    CHECK(devmem_find(dm, c + 8, UINT64_MAX, &h) == NULL);
    CHECK(devmem_find(dm, c + 8, UINT64_MAX - c - 4, &h) == NULL);
    CHECK(devmem_find(dm, UINT64_MAX, 2, &h) == NULL);
    CHECK(devmem_find(dm, 0, 16, &h) == NULL);
    /* nearest */
    CHECK(devmem_nearest(dm, a + 150)->base == a);
    CHECK(devmem_nearest(dm, b)->base == b);
    CHECK(devmem_nearest(dm, c + 1 * MiB)->base == c);
    CHECK(devmem_nearest(dm, B - 8)->base == a); /* nothing below: the first */
    CHECK_EQ_INT(devmem_free_block(dm, b), 0);
    CHECK(devmem_nearest(dm, b + 8)->base == a);
    CHECK(devmem_find(dm, b, 1, &h) == NULL);
    devmem_destroy(dm);
    dm = devmem_create(1 * MiB);
    CHECK(devmem_nearest(dm, B) == NULL);
    h = 0;
    CHECK(devmem_find(dm, B, 1, &h) == NULL);
    devmem_destroy(dm);
}

static void test_sparse_reads(void)
{
    devmem *dm = devmem_create(1 * GiB);
    uint64_t a;
    CHECK_EQ_INT(devmem_alloc_block(dm, 256 * MiB, 256, 0, &a), 0);
    const uint8_t *r = devmem_rptr(dm, a + 12345);
    CHECK(r != NULL && r[0] == 0 && r[PG - 12345 % PG - 1] == 0);
    uint8_t buf[3 * PG];
    memset(buf, 0xaa, sizeof buf);
    CHECK_EQ_INT(devmem_read(dm, a + 100, buf, sizeof buf), 0);
    int zeros = 1;
    for (size_t i = 0; i < sizeof buf; i++)
        zeros &= buf[i] == 0;
    CHECK(zeros);
    CHECK_EQ_U64(devmem_resident_bytes(dm), 0);
    /* writing or filling zeros into untouched pages stays sparse */
    memset(buf, 0, sizeof buf);
    CHECK_EQ_INT(devmem_write(dm, a, buf, sizeof buf), 0);
    CHECK_EQ_INT(devmem_fill(dm, a, 0, 256 * MiB), 0);
    CHECK_EQ_U64(devmem_resident_bytes(dm), 0);
    /* a copy between untouched pages too */
    CHECK_EQ_INT(devmem_copy(dm, a + 64 * MiB, a, 3 * PG), 0);
    CHECK_EQ_U64(devmem_resident_bytes(dm), 0);
    /* one write makes one page */
    uint8_t *w = devmem_wptr(dm, a + 5 * PG + 7);
    CHECK(w != NULL);
    if (w)
        *w = 42;
    CHECK_EQ_U64(devmem_resident_bytes(dm), PG);
    CHECK_EQ_U64(*devmem_rptr(dm, a + 5 * PG + 7), 42);
    CHECK_EQ_U64(*devmem_rptr(dm, a + 5 * PG + 6), 0);
    /* out of range */
    CHECK(devmem_rptr(dm, B - 1) == NULL);
    CHECK(devmem_wptr(dm, B + 1 * GiB) == NULL);
    CHECK(devmem_rptr(dm, B + 1 * GiB - 1) != NULL);
    CHECK_EQ_INT(devmem_read(dm, B + 1 * GiB - 4, buf, 8), -1);
    CHECK_EQ_INT(devmem_write(dm, B - 4, buf, 8), -1);
    CHECK_EQ_INT(devmem_read(dm, B + 8, buf, UINT64_MAX), -1);
    devmem_destroy(dm);
}

/* A deterministic byte pattern. */
static uint8_t pat(uint64_t i) { return (uint8_t)(i * 131 + (i >> 8) * 7 + 1); }

static void test_bulk_cross_page(void)
{
    devmem *dm = devmem_create(64 * MiB);
    uint64_t a;
    CHECK_EQ_INT(devmem_alloc_block(dm, 8 * PG, 256, 0, &a), 0);
    size_t n = 3 * PG + 333;
    uint8_t *src = malloc(n), *dst = malloc(n);
    for (size_t i = 0; i < n; i++)
        src[i] = pat(i);
    uint64_t at = a + PG - 100; /* starts 100 bytes before a page boundary */
    CHECK_EQ_INT(devmem_write(dm, at, src, n), 0);
    CHECK_EQ_U64(devmem_resident_bytes(dm), 5 * PG);
    CHECK_EQ_INT(devmem_read(dm, at, dst, n), 0);
    CHECK(memcmp(src, dst, n) == 0);
    /* byte-wise through rptr, across the boundary */
    CHECK_EQ_U64(*devmem_rptr(dm, a + PG - 1), pat(99));
    CHECK_EQ_U64(*devmem_rptr(dm, a + PG), pat(100));
    CHECK_EQ_U64(*devmem_rptr(dm, at - 1), 0);

    /* fill across pages */
    CHECK_EQ_INT(devmem_fill(dm, a + 2 * PG - 10, 0x5c, 20), 0);
    uint8_t t[24];
    CHECK_EQ_INT(devmem_read(dm, a + 2 * PG - 12, t, 24), 0);
    /* byte a + o holds src[o - (PG - 100)] */
    CHECK_EQ_U64(t[0], pat(2 * PG - 12 - (PG - 100))); /* unchanged */
    CHECK_EQ_U64(t[1], pat(2 * PG - 11 - (PG - 100)));
    int ok = 1;
    for (int i = 2; i < 22; i++)
        ok &= t[i] == 0x5c;
    CHECK(ok);
    CHECK_EQ_U64(t[22], pat(2 * PG + 10 - (PG - 100)));
    /* restore */
    CHECK_EQ_INT(devmem_write(dm, at, src, n), 0);

    /* overlapping copy, destination above the source (backwards) */
    CHECK_EQ_INT(devmem_copy(dm, at + 1000, at, n - 1000), 0);
    CHECK_EQ_INT(devmem_read(dm, at, dst, n), 0);
    ok = 1;
    for (size_t i = 0; i < 1000; i++)
        ok &= dst[i] == src[i];
    for (size_t i = 1000; i < n; i++)
        ok &= dst[i] == src[i - 1000];
    CHECK(ok);
    /* overlapping copy, destination below the source (forwards) */
    CHECK_EQ_INT(devmem_write(dm, at, src, n), 0);
    CHECK_EQ_INT(devmem_copy(dm, at, at + PG + 3, n - PG - 3), 0);
    CHECK_EQ_INT(devmem_read(dm, at, dst, n), 0);
    ok = 1;
    for (size_t i = 0; i < n - PG - 3; i++)
        ok &= dst[i] == src[i + PG + 3];
    for (size_t i = n - PG - 3; i < n; i++)
        ok &= dst[i] == src[i];
    CHECK(ok);
    /* copy from untouched memory overwrites with zeros */
    CHECK_EQ_INT(devmem_copy(dm, at, a + 7 * PG, 10), 0);
    CHECK_EQ_INT(devmem_read(dm, at, dst, 12), 0);
    CHECK(dst[0] == 0 && dst[9] == 0 && dst[10] == src[PG + 3 + 10]);
    /* copy onto itself, and of nothing */
    CHECK_EQ_INT(devmem_copy(dm, at, at, n), 0);
    CHECK_EQ_INT(devmem_copy(dm, at, at + 5, 0), 0);
    free(src);
    free(dst);
    devmem_destroy(dm);
}

static void test_free_zeroes(void)
{
    devmem *dm = devmem_create(64 * MiB);
    uint64_t a, b, c;
    /* a: small, shares page 0 with b; c: spans 3 whole pages and two partial */
    CHECK_EQ_INT(devmem_alloc_block(dm, 1000, 256, 0, &a), 0);
    CHECK_EQ_INT(devmem_alloc_block(dm, 1000, 256, 0, &b), 0);
    CHECK_EQ_INT(devmem_alloc_block(dm, 4 * PG, 256, 0, &c), 0);
    CHECK_EQ_INT(devmem_fill(dm, a, 0x11, 1000), 0);
    CHECK_EQ_INT(devmem_fill(dm, b, 0x22, 1000), 0);
    CHECK_EQ_INT(devmem_fill(dm, c, 0x33, 4 * PG), 0);
    CHECK_EQ_U64(devmem_resident_bytes(dm), 5 * PG);
    CHECK_EQ_INT(devmem_free_block(dm, c), 0);
    /* pages 1..3 are released; page 0 (shared with a, b) and page 4 are kept */
    CHECK_EQ_U64(devmem_resident_bytes(dm), 2 * PG);
    CHECK_EQ_INT(devmem_free_block(dm, a), 0);
    CHECK_EQ_U64(*devmem_rptr(dm, b), 0x22);
    CHECK_EQ_U64(*devmem_rptr(dm, b + 999), 0x22);
    uint64_t x;
    CHECK_EQ_INT(devmem_alloc_block(dm, 1000, 256, 0, &x), 0);
    CHECK_EQ_U64(x, a);
    uint8_t buf[1024];
    CHECK_EQ_INT(devmem_read(dm, x, buf, sizeof buf), 0);
    int z = 1;
    for (size_t i = 0; i < sizeof buf; i++)
        z &= buf[i] == 0;
    CHECK(z);
    uint64_t y;
    CHECK_EQ_INT(devmem_alloc_block(dm, 4 * PG, 256, 0, &y), 0);
    CHECK_EQ_U64(y, c);
    z = 1;
    for (uint64_t o = 0; o < 4 * PG; o += 97)
        z &= *devmem_rptr(dm, y + o) == 0;
    z &= *devmem_rptr(dm, y + 4 * PG - 1) == 0;
    CHECK(z);
    devmem_destroy(dm);
}

static void test_huge_sparse(void)
{
    uint64_t cap = 1ull << 40; /* 1 TiB */
    devmem *dm = devmem_create(cap);
    CHECK(dm != NULL);
    if (!dm)
        return;
    uint64_t a, b;
    CHECK_EQ_INT(devmem_alloc_block(dm, 600 * GiB, 256, 0, &a), 0);
    CHECK_EQ_INT(devmem_alloc_block(dm, 400 * GiB, 1ull << 30, 0, &b), 0);
    CHECK_EQ_U64(b, a + 600 * GiB);
    uint64_t x;
    CHECK_EQ_INT(devmem_alloc_block(dm, 30 * GiB, 256, 0, &x), -1);
    /* touch a few bytes spread over the terabyte */
    for (uint64_t i = 0; i < 16; i++) {
        uint64_t at = a + i * 37 * GiB + i * 12345;
        CHECK_EQ_INT(devmem_fill(dm, at, (uint8_t)(i + 1), 16), 0);
    }
    CHECK_EQ_U64(devmem_resident_bytes(dm), 16 * PG);
    for (uint64_t i = 0; i < 16; i++) {
        uint64_t at = a + i * 37 * GiB + i * 12345;
        CHECK_EQ_U64(*devmem_rptr(dm, at + 15), i + 1);
        CHECK_EQ_U64(*devmem_rptr(dm, at + 16), 0);
    }
    uint8_t *w = devmem_wptr(dm, b + 400 * GiB - 1);
    CHECK(w != NULL);
    if (w)
        *w = 9;
    CHECK_EQ_U64(*devmem_rptr(dm, b + 400 * GiB - 1), 9);
    CHECK_EQ_U64(devmem_resident_bytes(dm), 17 * PG);
    CHECK_EQ_INT(devmem_free_block(dm, a), 0);
    CHECK_EQ_U64(devmem_resident_bytes(dm), PG);
    CHECK_EQ_INT(devmem_free_block(dm, b), 0);
    CHECK_EQ_U64(devmem_resident_bytes(dm), 0);
    CHECK_EQ_U64(*devmem_rptr(dm, b + 400 * GiB - 1), 0);
    /* the last byte of the capacity is addressable (outside any allocation) */
    CHECK(devmem_wptr(dm, B + cap - 1) != NULL);
    CHECK(devmem_wptr(dm, B + cap) == NULL);
    CHECK_EQ_U64(devmem_resident_bytes(dm), PG);
    devmem_destroy(dm);
}

int main(void)
{
    RUN(test_alloc_placement);
    RUN(test_first_fit_reuse_and_coalesce);
    RUN(test_capacity);
    RUN(test_find);
    RUN(test_sparse_reads);
    RUN(test_bulk_cross_page);
    RUN(test_free_zeroes);
    RUN(test_huge_sparse);
    return test_summary();
}
