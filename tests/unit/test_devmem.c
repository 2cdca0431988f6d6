/*
 * test_devmem.c -- unit tests of the simulated device memory (mem/devmem.c):
 * allocator placement and reuse, coalescing, capacity limits, the live
 * allocation lookups, sparse backing (untouched memory reads as zeros and
 * costs nothing), bulk access across pages, zeroing on free, a million
 * allocations (the trees must be logarithmic), a differential test against
 * a naive first-fit model, modelled physical addresses of host mappings,
 * use-after-free diagnosis, and reserved ranges (addresses whose memory is
 * mapped and unmapped in place).
 */
#include "test.h"

#include "util/addrmap.h"
#include "mem/devmem.h"
#include "util/rng.h"

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

/* Allocate n blocks of 256..4096 bytes; they are placed back to back. */
static void alloc_many(devmem *dm, uint64_t *addr, size_t n, rng *r)
{
    int ok = 1;
    uint64_t next = B;
    for (size_t i = 0; i < n; i++) {
        uint64_t size = 256 + rng_below(r, 4096 - 256 + 1);
        ok &= devmem_alloc_block(dm, size, 256, 0, &addr[i]) == 0 && addr[i] == next;
        next += (size + 255) & ~255ull;
    }
    CHECK(ok);
    CHECK_EQ_U64(devmem_alloc_count(dm), n);
}

/* Everything freed: no bytes used, and one free range spans the capacity. */
static void check_all_free(devmem *dm, uint64_t cap)
{
    CHECK_EQ_U64(devmem_used(dm), 0);
    CHECK_EQ_U64(devmem_alloc_count(dm), 0);
    uint64_t x = 0;
    CHECK_EQ_INT(devmem_alloc_block(dm, cap, 256, 0, &x), 0);
    CHECK_EQ_U64(x, B);
    CHECK_EQ_INT(devmem_free_block(dm, x), 0);
}

/* 10^6 allocations, then frees in allocation order, in reverse, and
 * interleaved (every other block, then the rest).  Quadratic structures
 * would take minutes here; the trees take seconds. */
static void test_million(void)
{
    enum { N = 1000000 };
    uint64_t cap = 8 * GiB;
    devmem *dm = devmem_create(cap);
    uint64_t *addr = malloc(N * sizeof *addr);
    CHECK(dm != NULL && addr != NULL);
    if (!dm || !addr) {
        devmem_destroy(dm);
        free(addr);
        return;
    }
    rng r;
    rng_seed(&r, 1, RNG_TEST, 1);
    for (int order = 0; order < 3; order++) {
        alloc_many(dm, addr, N, &r);
        uint32_t h = 0;
        const devmem_alloc *f = devmem_find(dm, addr[N / 2] + 8, 8, &h);
        CHECK(f && f->base == addr[N / 2]);
        int ok = 1;
        if (order == 0) {
            for (size_t i = 0; i < N; i++)
                ok &= devmem_free_block(dm, addr[i]) == 0;
        } else if (order == 1) {
            for (size_t i = N; i-- > 0;)
                ok &= devmem_free_block(dm, addr[i]) == 0;
        } else {
            for (size_t i = 0; i < N; i += 2)
                ok &= devmem_free_block(dm, addr[i]) == 0;
            /* the holes are reused first fit, in address order */
            uint64_t x = 0;
            ok &= devmem_alloc_block(dm, 256, 256, 0, &x) == 0 && x == addr[0];
            ok &= devmem_free_block(dm, x) == 0;
            for (size_t i = 1; i < N; i += 2)
                ok &= devmem_free_block(dm, addr[i]) == 0;
        }
        CHECK(ok);
        check_all_free(dm, cap);
    }
    free(addr);
    devmem_destroy(dm);
}

/* The reference model: the naive allocator the trees replaced (a sorted
 * array of free ranges scanned first fit, and an array of live blocks). */
typedef struct ref_range {
    uint64_t base, size;
    uint32_t tag;
} ref_range;

typedef struct ref_model {
    ref_range fr[4096], live[4096];
    size_t nf, nl;
    uint64_t used, cap;
} ref_model;

static int ref_alloc(ref_model *m, uint64_t size, uint64_t align, uint32_t tag, uint64_t *addr)
{
    if (align < 256)
        align = 256;
    uint64_t rsize = (size + 255) & ~255ull;
    if (rsize > m->cap - m->used)
        return -1;
    for (size_t i = 0; i < m->nf; i++) {
        uint64_t base = m->fr[i].base, end = base + m->fr[i].size;
        uint64_t start = (base + align - 1) & ~(align - 1);
        if (start >= end || rsize > end - start)
            continue;
        /* replace range i by what is left below and above the block */
        ref_range lo = {base, start - base, 0}, hi = {start + rsize, end - start - rsize, 0};
        memmove(&m->fr[i], &m->fr[i + 1], (m->nf - i - 1) * sizeof m->fr[0]);
        m->nf--;
        if (hi.size) {
            memmove(&m->fr[i + 1], &m->fr[i], (m->nf - i) * sizeof m->fr[0]);
            m->fr[i] = hi;
            m->nf++;
        }
        if (lo.size) {
            memmove(&m->fr[i + 1], &m->fr[i], (m->nf - i) * sizeof m->fr[0]);
            m->fr[i] = lo;
            m->nf++;
        }
        size_t at = 0;
        while (at < m->nl && m->live[at].base < start)
            at++;
        memmove(&m->live[at + 1], &m->live[at], (m->nl - at) * sizeof m->live[0]);
        m->live[at] = (ref_range){start, size, tag};
        m->nl++;
        m->used += rsize;
        *addr = start;
        return 0;
    }
    return -1;
}

/* Free live block i: insert its rounded range and merge neighbours. */
static void ref_free(ref_model *m, size_t i)
{
    uint64_t base = m->live[i].base, rsize = (m->live[i].size + 255) & ~255ull;
    memmove(&m->live[i], &m->live[i + 1], (m->nl - i - 1) * sizeof m->live[0]);
    m->nl--;
    m->used -= rsize;
    size_t at = 0;
    while (at < m->nf && m->fr[at].base < base)
        at++;
    memmove(&m->fr[at + 1], &m->fr[at], (m->nf - at) * sizeof m->fr[0]);
    m->fr[at] = (ref_range){base, rsize, 0};
    m->nf++;
    if (at + 1 < m->nf && m->fr[at].base + m->fr[at].size == m->fr[at + 1].base) {
        m->fr[at].size += m->fr[at + 1].size;
        memmove(&m->fr[at + 1], &m->fr[at + 2], (m->nf - at - 2) * sizeof m->fr[0]);
        m->nf--;
    }
    if (at > 0 && m->fr[at - 1].base + m->fr[at - 1].size == m->fr[at].base) {
        m->fr[at - 1].size += m->fr[at].size;
        memmove(&m->fr[at], &m->fr[at + 1], (m->nf - at - 1) * sizeof m->fr[0]);
        m->nf--;
    }
}

/* The model's live block containing [addr, addr+size), or -1. */
static long ref_find(const ref_model *m, uint64_t addr, uint64_t size)
{
    for (size_t i = 0; i < m->nl; i++) {
        uint64_t off = addr - m->live[i].base;
        if (off < m->live[i].size && size <= m->live[i].size - off)
            return (long)i;
    }
    return -1;
}

/* 20,000 random allocs (assorted sizes and alignments), frees (some of
 * non-bases), finds and tagged frees, every result compared with the model. */
static void test_differential(void)
{
    static ref_model m;
    static const uint64_t aligns[] = {0, 256, 256, 256, 512, 4096, 65536, 1 << 20};
    memset(&m, 0, sizeof m);
    m.cap = 16 * MiB + 1000;
    m.fr[0] = (ref_range){B, m.cap & ~255ull, 0};
    m.nf = 1;
    devmem *dm = devmem_create(m.cap);
    CHECK(dm != NULL);
    if (!dm)
        return;
    rng r;
    rng_seed(&r, 7, RNG_TEST, 2);
    int mismatches = 0;
    uint32_t hint = 0;
    for (int op = 0; op < 20000 && mismatches < 10; op++) {
        uint32_t kind = rng_below(&r, 100);
        if (kind < 50 && m.nl < 4000) {
            uint64_t size = rng_below(&r, 16) == 0 ? 1 + rng_below(&r, 4 * MiB)
                                                  : 1 + rng_below(&r, 20000);
            uint64_t align = aligns[rng_below(&r, (uint32_t)(sizeof aligns / sizeof aligns[0]))];
            uint32_t tag = rng_below(&r, 3);
            uint64_t a = 0, b = 0;
            int ra = devmem_alloc_block(dm, size, align, tag, &a);
            int rb = ref_alloc(&m, size, align, tag, &b);
            if (ra != rb || (ra == 0 && a != b)) {
                mismatches++;
                CHECK_MSG(0,
                          "op %d: alloc(%" PRIu64 ", %" PRIu64 "): %d 0x%" PRIx64
                          " vs model %d 0x%" PRIx64,
                          op, size, align, ra, a, rb, b);
            }
        } else if (kind < 75) {
            if (m.nl == 0)
                continue;
            size_t i = rng_below(&r, (uint32_t)m.nl);
            if (rng_below(&r, 10) == 0) { /* not a base (bases are 256-aligned): refused */
                uint64_t inside = m.live[i].base + 8 * (1 + rng_below(&r, 31));
                CHECK_EQ_INT(devmem_free_block(dm, inside), -1);
                continue;
            }
            uint64_t base = m.live[i].base;
            ref_free(&m, i);
            if (devmem_free_block(dm, base) != 0) {
                mismatches++;
                CHECK_MSG(0, "op %d: free 0x%" PRIx64 " failed", op, base);
            }
        } else if (kind < 99) {
            /* an address near a live block, or anywhere in the range */
            uint64_t addr = B + rng_next(&r) % (m.cap + 4096);
            if (m.nl && rng_below(&r, 4)) {
                size_t i = rng_below(&r, (uint32_t)m.nl);
                addr = m.live[i].base + rng_below(&r, (uint32_t)m.live[i].size + 600) - 300;
            }
            uint64_t size = 1 + rng_below(&r, 64);
            if (rng_below(&r, 3) == 0)
                hint = rng_below(&r, 5000); /* a stale or wrong hint */
            const devmem_alloc *f = devmem_find(dm, addr, size, &hint);
            long j = ref_find(&m, addr, size);
            int same = j < 0 ? f == NULL
                             : f && f->base == m.live[j].base && f->size == m.live[j].size &&
                                   f->tag == m.live[j].tag && f->phys == f->base;
            if (!same) {
                mismatches++;
                CHECK_MSG(0, "op %d: find 0x%" PRIx64 "+%" PRIu64 " differs", op, addr, size);
            }
            const devmem_alloc *n = devmem_nearest(dm, addr);
            if (m.nl) {
                size_t k = 0;
                while (k + 1 < m.nl && m.live[k + 1].base <= addr)
                    k++;
                CHECK(n && n->base == m.live[k].base);
            } else {
                CHECK(n == NULL);
            }
        } else if (rng_below(&r, 4) == 0) {
            uint32_t tag = rng_below(&r, 3);
            devmem_free_tagged(dm, tag);
            for (size_t i = m.nl; i-- > 0;)
                if (m.live[i].tag == tag)
                    ref_free(&m, i);
        }
        if (devmem_used(dm) != m.used || devmem_alloc_count(dm) != m.nl) {
            mismatches++;
            CHECK_MSG(0, "op %d: used %" PRIu64 "/%zu vs model %" PRIu64 "/%zu", op,
                      devmem_used(dm), devmem_alloc_count(dm), m.used, m.nl);
        }
    }
    CHECK_EQ_INT(mismatches, 0);
    /* free the rest: back to one range */
    while (m.nl) {
        CHECK_EQ_INT(devmem_free_block(dm, m.live[m.nl - 1].base), 0);
        ref_free(&m, m.nl - 1);
    }
    CHECK_EQ_U64(m.nf, 1);
    check_all_free(dm, m.cap & ~255ull);
    devmem_destroy(dm);
}

/* Host mappings get physical addresses from their mapping order alone;
 * device addresses are their own. */
static void test_phys(void)
{
    uint64_t cap = 3 * GiB + 12345;
    uint64_t region = B + 4 * GiB; /* span rounded up to 1 GiB */
    devmem *dm[2];
    uint8_t *buf[2][3], *mem[2][3];
    uint64_t sizes[3] = {1000, 70000, 65536};
    for (int k = 0; k < 2; k++) {
        dm[k] = devmem_create(cap);
        CHECK(dm[k] != NULL);
        if (!dm[k])
            return;
        /* different host buffers, as another run's address-space layout
         * would give: whole pages apart (the second set is a page further
         * into its allocations), at the same offset within a 128-byte line
         * (16 * i), which the physical address keeps */
        for (int i = 0; i < 3; i++) {
            mem[k][i] = malloc(sizes[i] + 8192 + 128);
            uintptr_t at = ((uintptr_t)mem[k][i] + 127) & ~(uintptr_t)127;
            buf[k][i] = (uint8_t *)at + k * 4096 + 16 * i;
        }
        for (int i = 0; i < 3; i++)
            CHECK_EQ_INT(devmem_map_host(dm[k], buf[k][i], sizes[i], 0), 0);
    }
    uint64_t want[3] = {region, region + 64 * 1024 + 16, region + 3 * 64 * 1024 + 32};
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 2; k++) {
            uint32_t h = 0;
            uint64_t host = (uint64_t)(uintptr_t)buf[k][i];
            const devmem_alloc *a = devmem_find(dm[k], host, 1, &h);
            CHECK(a && a->host == buf[k][i] && a->phys == want[i]);
            CHECK_EQ_U64(devmem_phys(dm[k], host, &h), want[i]);
            CHECK_EQ_U64(devmem_phys(dm[k], host + sizes[i] - 1, &h), want[i] + sizes[i] - 1);
        }
        uint32_t h0 = 0, h1 = 0;
        CHECK_EQ_U64(devmem_phys(dm[0], (uint64_t)(uintptr_t)buf[0][i] + 77, &h0),
                     devmem_phys(dm[1], (uint64_t)(uintptr_t)buf[1][i] + 77, &h1));
    }
    /* an unmapped buffer's range is not reused */
    CHECK_EQ_INT(devmem_unmap_host(dm[0], buf[0][1]), 0);
    CHECK_EQ_INT(devmem_map_host(dm[0], buf[0][1], 10, 0), 0);
    uint32_t h = 0;
    CHECK_EQ_U64(devmem_phys(dm[0], (uint64_t)(uintptr_t)buf[0][1] + 3, &h),
                 region + 5 * 64 * 1024 + 16 + 3); /* the third ran 32 bytes past 4 * 64 KiB */
    /* device addresses, in blocks or not, and unmapped addresses are themselves */
    uint64_t a;
    CHECK_EQ_INT(devmem_alloc_block(dm[0], 5000, 256, 0, &a), 0);
    h = 0;
    const devmem_alloc *al = devmem_find(dm[0], a, 1, &h);
    CHECK(al && al->phys == a);
    CHECK_EQ_U64(devmem_phys(dm[0], a + 4999, &h), a + 4999);
    CHECK_EQ_U64(devmem_phys(dm[0], B + 2 * GiB, &h), B + 2 * GiB);
    CHECK_EQ_U64(devmem_phys(dm[0], 4096, &h), 4096);
    CHECK_EQ_U64(devmem_phys(dm[0], (uint64_t)(uintptr_t)buf[0][0] + 1000, &h),
                 (uint64_t)(uintptr_t)buf[0][0] + 1000);
    for (int k = 0; k < 2; k++) {
        devmem_destroy(dm[k]);
        for (int i = 0; i < 3; i++)
            free(mem[k][i]);
    }
}

/* A freed block is found until its bytes are allocated again. */
static void test_freed(void)
{
    devmem *dm = devmem_create(1 * MiB);
    uint64_t a, b, c, x;
    CHECK_EQ_INT(devmem_alloc_block(dm, 1000, 256, 0, &a), 0);
    CHECK_EQ_INT(devmem_alloc_block(dm, 4096, 256, 0, &b), 0);
    CHECK(devmem_freed(dm, a) == NULL); /* never freed */
    CHECK_EQ_INT(devmem_free_block(dm, a), 0);
    const devmem_alloc *f = devmem_freed(dm, a + 10);
    CHECK(f && f->base == a && f->size == 1000);
    CHECK(devmem_freed(dm, a + 1000) == NULL); /* rounding padding was never in it */
    CHECK(devmem_freed(dm, b + 8) == NULL);    /* live */
    CHECK_EQ_INT(devmem_alloc_block(dm, 1000, 256, 0, &x), 0);
    CHECK_EQ_U64(x, a);
    CHECK(devmem_freed(dm, a + 10) == NULL); /* allocated again */
    /* the newest freed block holding the address wins */
    CHECK_EQ_INT(devmem_free_block(dm, x), 0);
    CHECK_EQ_INT(devmem_free_block(dm, b), 0);
    CHECK_EQ_INT(devmem_alloc_block(dm, 5000, 256, 0, &c), 0);
    CHECK_EQ_U64(c, a);
    CHECK_EQ_INT(devmem_free_block(dm, c), 0);
    f = devmem_freed(dm, a + 10);
    CHECK(f && f->base == c && f->size == 5000);
    /* reusing part of the block's bytes ends the diagnosis */
    CHECK_EQ_INT(devmem_alloc_block(dm, 256, 256, 0, &x), 0);
    CHECK(devmem_freed(dm, a + 2000) == NULL);
    CHECK_EQ_INT(devmem_free_block(dm, x), 0);
    f = devmem_freed(dm, a + 2000);
    CHECK(f && f->base == c && f->size == 5000);
    /* only the last 1024 frees are remembered */
    for (int i = 0; i < 1100; i++) {
        CHECK_EQ_INT(devmem_alloc_block(dm, 256, 256, 0, &x), 0);
        CHECK_EQ_INT(devmem_free_block(dm, x), 0);
    }
    f = devmem_freed(dm, a + 100);
    CHECK(f && f->base == a && f->size == 256);
    CHECK(devmem_freed(dm, a + 2000) == NULL);
    devmem_destroy(dm);
}

/* Reserved ranges: addresses without memory, mapped and unmapped in place;
 * memory charged apart. */
static void test_reserved(void)
{
    devmem *dm = devmem_create(1 * MiB);
    uint64_t a, r, r2, x;
    uint32_t h = 0;
    CHECK_EQ_INT(devmem_alloc_block(dm, 100, 256, 0, &a), 0);
    CHECK_EQ_INT(devmem_reserve(dm, 1000, &r), 0);
    CHECK_EQ_U64(r, B + 256); /* placed first fit, like a block */
    CHECK_EQ_U64(devmem_used(dm), 256);           /* addresses only */
    CHECK(devmem_find(dm, r, 4, &h) == NULL);     /* nothing live there */
    CHECK_EQ_INT(devmem_alloc_block(dm, 100, 256, 0, &x), 0);
    CHECK_EQ_U64(x, B + 256 + 1024);              /* allocations go around it */
    CHECK_EQ_INT(devmem_map_reserved(dm, x, 100, 5), -1); /* not reserved */
    CHECK_EQ_INT(devmem_map_reserved(dm, r, 2000, 5), -1); /* larger than the range */
    CHECK_EQ_INT(devmem_map_reserved(dm, r + 1, 10, 5), -1);
    CHECK_EQ_INT(devmem_map_reserved(dm, r, 600, 5), 0);
    CHECK_EQ_INT(devmem_map_reserved(dm, r, 600, 5), -1); /* mapped already */
    const devmem_alloc *al = devmem_find(dm, r + 596, 4, &h);
    CHECK(al && al->base == r && al->size == 600 && al->tag == 5 && al->reserved);
    CHECK(devmem_find(dm, r + 600, 4, &h) == NULL);
    CHECK_EQ_INT(devmem_free_block(dm, r), -1); /* only unmapping ends it */
    CHECK_EQ_INT(devmem_unreserve(dm, r, 1000), -1); /* something is mapped */
    uint32_t v = 0xdeadbeef;
    CHECK_EQ_INT(devmem_write(dm, r + 8, &v, 4), 0);
    CHECK_EQ_INT(devmem_unmap_reserved(dm, r), 0);
    CHECK_EQ_INT(devmem_unmap_reserved(dm, r), -1);
    CHECK_EQ_INT(devmem_unmap_reserved(dm, a), -1); /* an ordinary block */
    CHECK(devmem_find(dm, r + 8, 4, &h) == NULL);
    const devmem_alloc *f = devmem_freed(dm, r + 8);
    CHECK(f && f->base == r && f->size == 600); /* a use after free */
    CHECK_EQ_INT(devmem_map_reserved(dm, r, 1000, 5), 0); /* mapped again, zeroed */
    v = 1;
    CHECK_EQ_INT(devmem_read(dm, r + 8, &v, 4), 0);
    CHECK_EQ_U64(v, 0);
    CHECK(devmem_freed(dm, r + 8) == NULL);
    CHECK_EQ_INT(devmem_unmap_reserved(dm, r), 0);
    CHECK_EQ_U64(devmem_used(dm), 512);
    /* memory is charged apart, within the capacity */
    CHECK_EQ_INT(devmem_charge(dm, 1000), 0);
    CHECK_EQ_U64(devmem_used(dm), 512 + 1024);
    CHECK_EQ_INT(devmem_charge(dm, 1 * MiB), -1);
    CHECK_EQ_INT(devmem_alloc_block(dm, 1 * MiB - 1024, 256, 0, &x), -1); /* charged bytes count */
    devmem_uncharge(dm, 1000);
    CHECK_EQ_U64(devmem_used(dm), 512);
    /* giving the addresses back merges them with the free ranges */
    CHECK_EQ_INT(devmem_unreserve(dm, r, 1000), 0);
    CHECK_EQ_INT(devmem_unreserve(dm, r, 1000), -1); /* free already */
    CHECK_EQ_INT(devmem_alloc_block(dm, 1024, 256, 0, &x), 0);
    CHECK_EQ_U64(x, r);
    CHECK_EQ_INT(devmem_reserve(dm, 2 * MiB, &r2), -1);
    CHECK_EQ_INT(devmem_reserve(dm, 0, &r2), -1);
    /* freeing every user block leaves a mapping in a reserved range alone */
    CHECK_EQ_INT(devmem_reserve(dm, 256, &r2), 0);
    CHECK_EQ_INT(devmem_map_reserved(dm, r2, 256, 0), 0);
    devmem_free_tagged(dm, 0);
    CHECK(devmem_find(dm, r2, 4, &h) != NULL);
    CHECK(devmem_find(dm, a, 4, &h) == NULL);
    CHECK_EQ_INT(devmem_unmap_reserved(dm, r2), 0);
    CHECK_EQ_INT(devmem_unreserve(dm, r2, 256), 0);
    CHECK_EQ_U64(devmem_used(dm), 0);
    CHECK_EQ_INT(devmem_alloc_block(dm, 1 * MiB, 256, 0, &x), 0); /* all of it is free again */
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
    RUN(test_million);
    RUN(test_differential);
    RUN(test_phys);
    RUN(test_freed);
    RUN(test_reserved);
    return test_summary();
}
