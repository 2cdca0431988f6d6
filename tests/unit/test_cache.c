/*
 * test_cache.c -- unit tests of the cache array and the GPGPU-Sim cache
 * string parser (src/mem/cache.c), linked alone.
 *
 * Parsing: real GPGPU-Sim strings give the expected fields and each kind of
 * malformed string fails with a message naming its field.  Behaviour: hits,
 * sector masks, LRU and FIFO victims, reservations, dirty victims,
 * invalidation, the data copy, the set-index functions and determinism.
 */
#include "mem/cache.h"
#include "test.h"

/* A cache from a string that must parse. */
static cache *make(const char *s, int with_data)
{
    cache_config cfg;
    char err[256];
    if (cache_config_parse(s, &cfg, err, sizeof err)) {
        fprintf(stderr, "unexpected parse error for %s: %s\n", s, err);
        return NULL;
    }
    return cache_create(&cfg, with_data);
}

/* Allocate and fill every sector of the line for addr; its index. */
static int load(cache *c, uint64_t addr, cache_victim *ev)
{
    int i = cache_allocate(c, addr, 0, ev, 0);
    if (i >= 0)
        cache_fill(c, i, UINT32_MAX, NULL);
    return i;
}

static void test_parse_gtx480(void)
{
    cache_config c;
    char err[256] = "";
    CHECK_EQ_INT(cache_config_parse("N:64:128:6,L:L:m:N:H,A:128:8,8", &c, err, sizeof err), 0);
    CHECK_EQ_INT(c.type, 'N');
    CHECK_EQ_U64(c.nsets, 64);
    CHECK_EQ_U64(c.line_bytes, 128);
    CHECK_EQ_U64(c.assoc, 6);
    CHECK_EQ_U64(c.sector_bytes, 128);
    CHECK_EQ_INT(c.replacement, 'L');
    CHECK_EQ_INT(c.write_policy, 'L');
    CHECK_EQ_INT(c.alloc_policy, 'm');
    CHECK_EQ_INT(c.write_alloc, 'N');
    CHECK_EQ_INT(c.set_index, 'H');
    CHECK_EQ_INT(c.mshr_type, 'A');
    CHECK_EQ_U64(c.mshr_entries, 128);
    CHECK_EQ_U64(c.mshr_max_merge, 8);
    CHECK_EQ_U64(c.miss_queue, 8);
    CHECK_EQ_INT(c.nfields, 13);
    CHECK_EQ_U64(cache_config_bytes(&c), 48 * 1024);

    /* GTX 480 L2 slice: write-back, write-allocate, linear index. */
    CHECK_EQ_INT(cache_config_parse("N:64:128:8,L:B:m:W:L,A:32:4,4", &c, err, sizeof err), 0);
    CHECK_EQ_U64(c.nsets, 64);
    CHECK_EQ_U64(c.assoc, 8);
    CHECK_EQ_INT(c.write_policy, 'B');
    CHECK_EQ_INT(c.write_alloc, 'W');
    CHECK_EQ_INT(c.set_index, 'L');
    CHECK_EQ_U64(c.mshr_entries, 32);
    CHECK_EQ_U64(c.mshr_max_merge, 4);
    CHECK_EQ_U64(c.miss_queue, 4);
    CHECK_EQ_U64(cache_config_bytes(&c), 64 * 1024);

    /* The constant cache: read-only, allocate on fill, 64-byte lines. */
    CHECK_EQ_INT(cache_config_parse("N:64:64:2,L:R:f:N:L,A:2:32,4", &c, err, sizeof err), 0);
    CHECK_EQ_U64(c.line_bytes, 64);
    CHECK_EQ_INT(c.alloc_policy, 'f');
    CHECK_EQ_INT(c.write_policy, 'R');
}

static void test_parse_sectored(void)
{
    cache_config c;
    char err[256] = "";
    CHECK_EQ_INT(cache_config_parse("S:64:128:16,L:B:m:W:L,A:1024:1024,4:0,32", &c, err,
                                    sizeof err), 0);
    CHECK_EQ_INT(c.type, 'S');
    CHECK_EQ_U64(c.sector_bytes, 32);
    CHECK_EQ_U64(c.assoc, 16);
    CHECK_EQ_U64(c.mshr_entries, 1024);
    CHECK_EQ_U64(c.mshr_max_merge, 1024);
    CHECK_EQ_U64(c.miss_queue, 4);
    CHECK_EQ_U64(c.result_fifo, 0);
    CHECK_EQ_U64(c.data_port_width, 32);
    CHECK_EQ_INT(c.nfields, 15);
    /* Accel-Sim's Volta L2 (IPOLY) and streaming L1 (one set). */
    CHECK_EQ_INT(cache_config_parse("S:32:128:24,L:B:m:L:P,A:192:4,32:0,32", &c, err,
                                    sizeof err), 0);
    CHECK_EQ_INT(c.set_index, 'P');
    CHECK_EQ_INT(cache_config_parse("S:1:128:256,L:L:s:N:L,A:256:8,16:0,32", &c, err,
                                    sizeof err), 0);
    CHECK_EQ_U64(c.nsets, 1);
    CHECK_EQ_INT(c.alloc_policy, 's');
    /* Result FIFO alone; surrounding white space. */
    CHECK_EQ_INT(cache_config_parse(" N:32:128:4,L:T:m:N:L,F:128:4,128:2\n", &c, err,
                                    sizeof err), 0);
    CHECK_EQ_INT(c.mshr_type, 'F');
    CHECK_EQ_U64(c.result_fifo, 2);
    CHECK_EQ_INT(c.nfields, 14);

    /* Formatting gives the string back. */
    char buf[128];
    const char *s = "S:64:128:16,L:B:m:W:L,A:1024:1024,4:0,32";
    CHECK_EQ_INT(cache_config_parse(s, &c, err, sizeof err), 0);
    cache_config_format(&c, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, s);
    CHECK_EQ_U64(strlen(buf), strlen(s));
}

/* s must fail with a message containing `field`. */
static void bad(const char *s, const char *field)
{
    cache_config c;
    memset(&c, 0x5a, sizeof c);
    cache_config before = c;
    char err[256] = "";
    int rc = cache_config_parse(s, &c, err, sizeof err);
    CHECK_MSG(rc == -1, "'%s' parsed", s);
    CHECK_MSG(strstr(err, field) != NULL, "'%s': message '%s' does not name %s", s, err, field);
    CHECK_MSG(strchr(err, '\n') == NULL, "'%s': message is not one line", s);
    CHECK_MSG(!memcmp(&c, &before, sizeof c), "'%s': *c changed on error", s);
}

static void test_parse_errors(void)
{
    /* Missing fields. */
    bad("N:64:128,L:L:m:N:H,A:128:8,8", "<assoc>");
    bad("N:64:128:6,L:L:m:N,A:128:8,8", "<set index>");
    bad("N:64:128:6,L:L:m:N:H,A:128:8", "<miss queue>");
    bad("N:64:128:6,L:L:m:N:H,A:128,8", "<mshr max merge>");
    bad("N:64:128:6,L:L:m:N:H", "<mshr type>");
    bad("", "<type>");
    bad("N::128:6,L:L:m:N:H,A:128:8,8", "<nsets>");
    /* Letters not allowed. */
    bad("Q:64:128:6,L:L:m:N:H,A:128:8,8", "<type>");
    bad("N:64:128:6,R:L:m:N:H,A:128:8,8", "<replacement>");
    bad("N:64:128:6,L:Z:m:N:H,A:128:8,8", "<write policy>");
    bad("N:64:128:6,L:L:M:N:H,A:128:8,8", "<alloc policy>");
    bad("N:64:128:6,L:L:m:Y:H,A:128:8,8", "<write alloc>");
    bad("N:64:128:6,L:L:m:N:C,A:128:8,8", "<set index>");
    bad("N:64:128:6,L:L:m:N:H,B:128:8,8", "<mshr type>");
    bad("N:64:128:6,LL:L:m:N:H,A:128:8,8", "<replacement>");
    /* Geometry. */
    bad("N:0:128:6,L:L:m:N:H,A:128:8,8", "<nsets>");
    bad("N:48:128:6,L:L:m:N:L,A:128:8,8", "<nsets>");
    bad("N:64:100:6,L:L:m:N:L,A:128:8,8", "<line bytes>");
    bad("N:64:16:6,L:L:m:N:L,A:128:8,8", "<line bytes>");
    bad("N:64:128:0,L:L:m:N:L,A:128:8,8", "<assoc>");
    bad("S:64:2048:4,L:L:m:N:L,A:128:8,8", "<line bytes>");
    bad("N:16:128:4,L:L:m:N:H,A:128:8,8", "<set index>");   /* H needs 32 or 64 sets */
    bad("N:128:128:4,L:L:m:N:P,A:128:8,8", "<set index>");  /* P needs 16, 32 or 64 */
    /* Junk in and after numbers. */
    bad("N:64x:128:6,L:L:m:N:H,A:128:8,8", "<nsets>");
    bad("N:64:128:6,L:L:m:N:H,A:128:8,8x", "<miss queue>");
    bad("N:64:128:6,L:L:m:N:H,A:-1:8,8", "<mshr entries>");
    bad("N:64:128:6,L:L:m:N:H,A:128:8,8:0,32,7", "<data port width>");
    bad("N:64:128:6,L:L:m:N:H,A:128:8,8,32", "<miss queue>");
    bad("N:64:99999999999:6,L:L:m:N:H,A:128:8,8", "<line bytes>");
    bad("N:64:128:6,L:L:m:N:H,A:128:8,8:0,48", "<data port width>");
    /* Combinations GPGPU-Sim refuses; "none". */
    bad("N:64:128:6,L:B:f:N:L,A:128:8,8", "<write policy>");
    bad("N:64:128:6,L:T:s:F:L,A:128:8,8", "<write alloc>");
    bad("none", "none");

    /* The exact message for one case, column included. */
    cache_config c;
    char err[256];
    CHECK_EQ_INT(cache_config_parse("N:64x:128:6,L:L:m:N:H,A:128:8,8", &c, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "<nsets> (field 2, column 3): \"64x\" is not a number");
    /* A hand-built config is checked by cache_create. */
    CHECK_EQ_INT(cache_config_parse("N:64:128:6,L:L:m:N:L,A:128:8,8", &c, err, sizeof err), 0);
    c.nsets = 48;
    CHECK(cache_create(&c, 0) == NULL);
    CHECK_EQ_INT(cache_config_check(&c, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "power of two");
}

static void test_hit_after_fill(void)
{
    cache *c = make("N:4:128:4,L:B:m:W:L,A:8:4,4", 0);
    CHECK(c != NULL);
    if (!c)
        return;
    uint32_t valid = 99;
    int res = 99;
    CHECK_EQ_INT(cache_probe(c, 0x1040, &valid, &res, 0, 0), -1);
    CHECK_EQ_U64(valid, 0);
    cache_victim ev;
    int i = cache_allocate(c, 0x1040, 0, &ev, 0);
    CHECK(i >= 0);
    CHECK_EQ_INT(ev.valid, 0);
    /* Allocated, not yet filled: present with no valid sectors. */
    CHECK_EQ_INT(cache_probe(c, 0x1000, &valid, &res, 0, 0), i);
    CHECK_EQ_U64(valid, 0);
    CHECK_EQ_INT(res, 0);
    cache_fill(c, i, cache_sector_mask(c, 0x1000, 128), NULL);
    CHECK_EQ_INT(cache_probe(c, 0x107f, &valid, &res, 1, 0), i);
    CHECK_EQ_U64(valid, 1);
    CHECK_EQ_INT(cache_probe(c, 0x1080, &valid, &res, 0, 0), -1);
    CHECK_EQ_U64(cache_line_addr(c, 0x107f), 0x1000);
    CHECK_EQ_U64(cache_nlines(c), 16);
    cache_line_state st;
    cache_line_get(c, i, &st);
    CHECK(st.present && !st.reserved && st.line_addr == 0x1000 && st.valid == 1);
    /* Allocating a present line changes nothing. */
    CHECK_EQ_INT(cache_allocate(c, 0x1000, 1, &ev, 0), i);
    CHECK_EQ_INT(ev.valid, 0);
    CHECK_EQ_INT(cache_probe(c, 0x1000, &valid, &res, 0, 0), i);
    CHECK_EQ_U64(valid, 1);
    CHECK_EQ_INT(res, 0);
    cache_free(c);
}

static void test_sector_masks(void)
{
    cache *c = make("S:4:128:4,L:B:m:W:L,A:8:4,4", 0);
    CHECK(c != NULL);
    if (!c)
        return;
    CHECK_EQ_U64(cache_sector_mask(c, 40, 4), 0x2);
    CHECK_EQ_U64(cache_sector_mask(c, 0x1000 + 40, 4), 0x2);
    CHECK_EQ_U64(cache_sector_mask(c, 32, 64), 0x6);     /* sectors 1-2 */
    CHECK_EQ_U64(cache_sector_mask(c, 40, 64), 0xe);     /* 40..103: sectors 1-3 */
    CHECK_EQ_U64(cache_sector_mask(c, 0, 128), 0xf);
    CHECK_EQ_U64(cache_sector_mask(c, 120, 16), 0x8);    /* clipped at the line's end */
    CHECK_EQ_U64(cache_sector_mask(c, 63, 2), 0x6);      /* bytes 63, 64 */
    CHECK_EQ_U64(cache_sector_mask(c, 64, 0), 0);

    /* Sector misses: a line with sector 1 valid. */
    int i = cache_allocate(c, 0x2000, 1, NULL, 0);
    cache_fill(c, i, cache_sector_mask(c, 0x2000 + 40, 4), NULL);
    uint32_t valid;
    int res;
    CHECK_EQ_INT(cache_probe(c, 0x2000 + 100, &valid, &res, 0, 0), i);
    CHECK_EQ_U64(valid, 0x2);
    CHECK_EQ_INT(res, 0);
    cache_free(c);

    /* A normal cache has one sector. */
    c = make("N:4:128:4,L:B:m:W:L,A:8:4,4", 0);
    CHECK(c != NULL);
    if (!c)
        return;
    CHECK_EQ_U64(cache_sector_mask(c, 40, 4), 0x1);
    CHECK_EQ_U64(cache_sector_mask(c, 40, 64), 0x1);
    cache_free(c);
}

/* Lines that all map to set 0 of a 4-set, 128-byte-line linear cache. */
#define SET0(k) ((uint64_t)(k) * 4 * 128)

static void test_lru(void)
{
    cache *c = make("N:4:128:4,L:B:m:W:L,A:8:4,4", 0);
    CHECK(c != NULL);
    if (!c)
        return;
    cache_victim ev;
    for (int k = 0; k < 4; k++) {
        CHECK(load(c, SET0(k), &ev) >= 0);
        CHECK_EQ_INT(ev.valid, 0);
    }
    /* Touch line 0: line 1 is now the least recently used. */
    CHECK(cache_probe(c, SET0(0), NULL, NULL, 1, 0) >= 0);
    CHECK(load(c, SET0(4), &ev) >= 0);
    CHECK_EQ_INT(ev.valid, 1);
    CHECK_EQ_U64(ev.line_addr, SET0(1));
    CHECK_EQ_INT(cache_probe(c, SET0(1), NULL, NULL, 0, 0), -1);
    /* A probe without touch changes nothing: line 2 goes next, then 3. */
    CHECK(cache_probe(c, SET0(2), NULL, NULL, 0, 0) >= 0);
    CHECK(load(c, SET0(5), &ev) >= 0);
    CHECK_EQ_U64(ev.line_addr, SET0(2));
    /* Touch 3 and 0 (same cycle: order still exact): 4 is the oldest now. */
    CHECK(cache_probe(c, SET0(3), NULL, NULL, 1, 7) >= 0);
    CHECK(cache_probe(c, SET0(0), NULL, NULL, 1, 7) >= 0);
    CHECK(load(c, SET0(6), &ev) >= 0);
    CHECK_EQ_U64(ev.line_addr, SET0(4));
    CHECK(load(c, SET0(7), &ev) >= 0);
    CHECK_EQ_U64(ev.line_addr, SET0(5));
    CHECK(load(c, SET0(8), &ev) >= 0);
    CHECK_EQ_U64(ev.line_addr, SET0(3));
    /* Other sets were untouched. */
    CHECK_EQ_INT(cache_probe(c, 128, NULL, NULL, 0, 0), -1);
    cache_free(c);
}

static void test_fifo(void)
{
    cache *c = make("N:4:128:4,F:B:m:W:L,A:8:4,4", 0);
    CHECK(c != NULL);
    if (!c)
        return;
    cache_victim ev;
    for (int k = 0; k < 4; k++)
        load(c, SET0(k), &ev);
    CHECK(cache_probe(c, SET0(0), NULL, NULL, 1, 0) >= 0);
    CHECK(cache_probe(c, SET0(0), NULL, NULL, 1, 0) >= 0);
    CHECK(load(c, SET0(4), &ev) >= 0);
    CHECK_EQ_INT(ev.valid, 1);
    CHECK_EQ_U64(ev.line_addr, SET0(0));      /* oldest allocation, touches ignored */
    CHECK(cache_probe(c, SET0(1), NULL, NULL, 1, 0) >= 0);
    CHECK(load(c, SET0(5), &ev) >= 0);
    CHECK_EQ_U64(ev.line_addr, SET0(1));
    cache_free(c);
}

static void test_reserved(void)
{
    cache *c = make("N:4:128:4,L:B:m:W:L,A:8:4,4", 0);
    CHECK(c != NULL);
    if (!c)
        return;
    cache_victim ev;
    /* Line 0 reserved first (the oldest), lines 1-3 valid. */
    int r = cache_allocate(c, SET0(0), 1, &ev, 0);
    CHECK(r >= 0);
    uint32_t valid = 9;
    int res = 0;
    CHECK_EQ_INT(cache_probe(c, SET0(0), &valid, &res, 1, 0), r);
    CHECK_EQ_INT(res, 1);
    CHECK_EQ_U64(valid, 0);
    for (int k = 1; k < 4; k++)
        load(c, SET0(k), &ev);
    CHECK(load(c, SET0(4), &ev) >= 0);
    CHECK_EQ_U64(ev.line_addr, SET0(1));     /* not the reserved line 0 */
    CHECK(cache_probe(c, SET0(0), NULL, &res, 0, 0) == r && res == 1);
    /* Invalidation leaves reserved lines alone. */
    CHECK_EQ_INT(cache_invalidate(c, SET0(0), &ev), 0);
    cache_invalidate_all(c);
    CHECK_EQ_INT(cache_probe(c, SET0(0), NULL, &res, 0, 0), r);
    CHECK_EQ_INT(res, 1);
    CHECK_EQ_INT(cache_probe(c, SET0(4), NULL, NULL, 0, 0), -1);
    /* The fill clears the reservation. */
    cache_fill(c, r, 1, NULL);
    CHECK_EQ_INT(cache_probe(c, SET0(0), &valid, &res, 0, 0), r);
    CHECK_EQ_INT(res, 0);
    CHECK_EQ_U64(valid, 1);
    cache_free(c);

    /* A set full of reserved lines refuses to allocate. */
    c = make("N:4:128:4,L:B:m:W:L,A:8:4,4", 0);
    CHECK(c != NULL);
    if (!c)
        return;
    for (int k = 0; k < 4; k++)
        CHECK(cache_allocate(c, SET0(k), 1, &ev, 0) >= 0);
    ev.valid = 5;
    CHECK_EQ_INT(cache_allocate(c, SET0(4), 1, &ev, 0), -1);
    CHECK_EQ_INT(ev.valid, 0);
    CHECK_EQ_INT(cache_allocate(c, SET0(4), 0, &ev, 0), -1);
    CHECK(cache_allocate(c, 128, 1, &ev, 0) >= 0);          /* set 1 is free */
    cache_fill(c, cache_probe(c, SET0(2), NULL, NULL, 0, 0), 1, NULL);
    CHECK(load(c, SET0(4), &ev) >= 0);                      /* the one filled line goes */
    CHECK_EQ_U64(ev.line_addr, SET0(2));
    cache_free(c);
}

static void test_dirty_victims(void)
{
    cache *c = make("S:4:128:4,L:B:m:W:L,A:8:4,4", 0);
    CHECK(c != NULL);
    if (!c)
        return;
    cache_victim ev;
    int i0 = load(c, SET0(0), &ev);
    cache_set_dirty(c, i0, cache_sector_mask(c, SET0(0) + 40, 4));
    int i1 = load(c, SET0(1), &ev);
    cache_set_dirty(c, i1, 0x9);
    load(c, SET0(2), &ev);
    load(c, SET0(3), &ev);
    CHECK(load(c, SET0(4), &ev) >= 0);
    CHECK_EQ_INT(ev.valid, 1);
    CHECK_EQ_U64(ev.line_addr, SET0(0));
    CHECK_EQ_U64(ev.dirty, 0x2);
    /* The new line starts clean. */
    cache_line_state st;
    cache_line_get(c, i0, &st);
    CHECK_EQ_U64(st.dirty, 0);
    CHECK(load(c, SET0(5), &ev) >= 0);
    CHECK_EQ_U64(ev.line_addr, SET0(1));
    CHECK_EQ_U64(ev.dirty, 0x9);
    CHECK(load(c, SET0(6), &ev) >= 0);
    CHECK_EQ_U64(ev.dirty, 0);                 /* a clean victim */
    /* Written back: clear_dirty. */
    int i3 = cache_probe(c, SET0(3), NULL, NULL, 0, 0);
    cache_set_dirty(c, i3, 0xf);
    cache_clear_dirty(c, i3, 0x3);
    CHECK(load(c, SET0(7), &ev) >= 0);
    CHECK_EQ_U64(ev.line_addr, SET0(3));
    CHECK_EQ_U64(ev.dirty, 0xc);
    cache_free(c);
}

static void test_invalidate(void)
{
    cache *c = make("N:4:128:4,L:B:m:W:L,A:8:4,4", 0);
    CHECK(c != NULL);
    if (!c)
        return;
    cache_victim ev;
    int i = load(c, 0x3000, &ev);
    cache_set_dirty(c, i, 1);
    CHECK_EQ_INT(cache_invalidate(c, 0x3010, &ev), 1);
    CHECK_EQ_INT(ev.valid, 1);
    CHECK_EQ_U64(ev.line_addr, 0x3000);
    CHECK_EQ_U64(ev.dirty, 1);
    CHECK_EQ_INT(cache_probe(c, 0x3000, NULL, NULL, 0, 0), -1);
    CHECK_EQ_INT(cache_invalidate(c, 0x3000, &ev), 0);     /* no longer there */
    CHECK_EQ_INT(ev.valid, 0);
    /* invalidate_all drops every valid line. */
    for (int k = 0; k < 8; k++)
        load(c, (uint64_t)k * 128, &ev);
    cache_invalidate_all(c);
    for (int k = 0; k < 8; k++)
        CHECK_EQ_INT(cache_probe(c, (uint64_t)k * 128, NULL, NULL, 0, 0), -1);
    /* Freed ways are reused before any valid line is evicted. */
    for (int k = 0; k < 4; k++) {
        load(c, SET0(k), &ev);
        CHECK_EQ_INT(ev.valid, 0);
    }
    cache_free(c);
}

static void test_data(void)
{
    cache *c = make("S:4:128:4,L:L:m:N:L,A:8:4,4", 1);
    cache *t = make("S:4:128:4,L:L:m:N:L,A:8:4,4", 0);
    CHECK(c != NULL && t != NULL);
    if (!c || !t) {
        cache_free(c);
        cache_free(t);
        return;
    }
    CHECK(cache_data(t, 0) == NULL);
    uint8_t line[128], other[128];
    for (int b = 0; b < 128; b++) {
        line[b] = (uint8_t)(b * 7 + 1);
        other[b] = (uint8_t)(255 - b);
    }
    int i = cache_allocate(c, 0x4000, 1, NULL, 0);
    cache_fill(c, i, 0xf, line);
    const uint8_t *d = cache_data(c, i);
    CHECK(d != NULL);
    if (d)
        CHECK(!memcmp(d, line, 128));
    /* A partial fill copies only its sectors: 0 and 2. */
    int j = cache_allocate(c, 0x5000, 1, NULL, 0);
    cache_fill(c, j, 0x5, line);
    cache_fill(c, j, 0x2, NULL);                /* valid, no data given: bytes unchanged */
    d = cache_data(c, j);
    CHECK(d != NULL);
    if (d) {
        CHECK(!memcmp(d, line, 32));
        CHECK(!memcmp(d + 64, line + 64, 32));
        CHECK_EQ_INT(d[32], 0);
        CHECK_EQ_INT(d[127], 0);
    }
    /* Refilling one sector replaces just those bytes (stale elsewhere). */
    cache_fill(c, i, 0x8, other);
    d = cache_data(c, i);
    CHECK(!memcmp(d, line, 96));
    CHECK(!memcmp(d + 96, other + 96, 32));
    /* Writes through the pointer stay (a store hitting in L1). */
    cache_data(c, i)[5] = 0xab;
    CHECK_EQ_INT(cache_data(c, cache_probe(c, 0x4005, NULL, NULL, 0, 0))[5], 0xab);
    cache_free(c);
    cache_free(t);
}

/* A tag fault: the line answers for its new address only, keeps its
 * sectors and data; a new address in another set is refused; two ways
 * holding one tag answer lowest way first. */
static void test_retag(void)
{
    cache *c = make("S:4:128:4,L:L:m:N:L,A:8:4,4", 1);
    CHECK(c != NULL);
    if (!c)
        return;
    cache_victim ev;
    int i = load(c, 0x4000, &ev);     /* set 0 */
    cache_set_dirty(c, i, 0x2);
    cache_data(c, i)[3] = 0x5a;
    CHECK_EQ_INT(cache_retag(c, i, 0x4080), -1); /* set 1: refused */
    CHECK_EQ_INT(cache_retag(c, 7, 0x4000), -1); /* an empty way: refused */
    CHECK_EQ_INT(cache_probe(c, 0x4000, NULL, NULL, 0, 0), i);
    CHECK_EQ_INT(cache_retag(c, i, 0x4200), 0);  /* bit 9: set 0 still */
    uint32_t valid = 0;
    CHECK_EQ_INT(cache_probe(c, 0x4000, NULL, NULL, 0, 0), -1);
    CHECK_EQ_INT(cache_probe(c, 0x4210, &valid, NULL, 0, 0), i);
    CHECK_EQ_INT(valid, 0xf);
    CHECK_EQ_INT(cache_data(c, i)[3], 0x5a);
    /* the address it had comes back in another way; then a second line
     * takes the same tag as the first */
    int j = load(c, 0x4000, &ev);
    CHECK(j >= 0 && j != i && !ev.valid);
    CHECK_EQ_INT(cache_retag(c, j, 0x4200), 0);
    int lo = i < j ? i : j, hi = i < j ? j : i;
    CHECK_EQ_INT(cache_probe(c, 0x4200, NULL, NULL, 0, 0), lo);
    CHECK_EQ_INT(cache_allocate(c, 0x4200, 0, &ev, 0), lo);
    CHECK_EQ_INT(cache_invalidate(c, 0x4200, &ev), 1);
    CHECK(ev.line_addr == 0x4200 && ev.dirty == (lo == i ? 0x2u : 0));
    CHECK_EQ_INT(cache_probe(c, 0x4200, NULL, NULL, 0, 0), hi);
    CHECK_EQ_INT(cache_invalidate(c, 0x4200, &ev), 1);
    CHECK_EQ_INT(cache_probe(c, 0x4200, NULL, NULL, 0, 0), -1);
    cache_free(c);
}

static void test_set_index(void)
{
    cache *lin = make("N:64:128:4,L:L:m:N:L,A:32:8,8", 0);
    cache *h = make("N:64:128:4,L:L:m:N:H,A:32:8,8", 0);
    cache *h32 = make("N:32:128:4,L:L:m:N:H,A:32:8,8", 0);
    cache *x = make("N:64:128:4,L:L:m:N:X,A:32:8,8", 0);
    cache *p = make("N:32:128:4,L:L:m:N:P,A:32:8,8", 0);
    CHECK(lin && h && h32 && x && p);
    if (lin && h && h32 && x && p) {
        /* A stride of nsets*line: linear puts it all in set 0, H does not. */
        uint32_t seen_h = 0, seen_h32 = 0, seen_x = 0, seen_p = 0;
        uint64_t used_h[2] = {0, 0};
        for (uint64_t k = 0; k < 64; k++) {
            uint64_t a = k * 64 * 128;
            CHECK_EQ_U64(cache_set_of(lin, a), 0);
            uint32_t s = cache_set_of(h, a);
            CHECK(s < 64);
            used_h[s / 64] |= 1ull << (s % 64);
            seen_h |= s != 0;
            seen_h32 |= cache_set_of(h32, k * 32 * 128) != 0;
            seen_x |= cache_set_of(x, a) != 0;
            seen_p |= cache_set_of(p, k * 32 * 128) != 0;
            CHECK(cache_set_of(p, k * 32 * 128) < 32);
        }
        CHECK(seen_h && seen_h32 && seen_x && seen_p);
        int nused = 0;
        for (int b = 0; b < 64; b++)
            nused += (int)(used_h[0] >> b & 1);
        CHECK_MSG(nused >= 8, "H used only %d sets", nused);
        /* The Fermi hash bit by bit (line 128, 64 sets). */
        CHECK_EQ_U64(cache_set_of(h, 0x80), 1);          /* index bit 7 */
        CHECK_EQ_U64(cache_set_of(h, 0x1000), 32);       /* bit 12: the 64-set bit */
        CHECK_EQ_U64(cache_set_of(h, 0x2000), 1);        /* bit 13 -> 0 */
        CHECK_EQ_U64(cache_set_of(h, 0x2080), 0);        /* 1 ^ 1 */
        CHECK_EQ_U64(cache_set_of(h, 0x8000), 4);        /* bit 15 -> 2 */
        CHECK_EQ_U64(cache_set_of(h, 0x10000), 0);       /* bit 16: unused */
        CHECK_EQ_U64(cache_set_of(h, 0x20000), 8);       /* bit 17 -> 3 */
        CHECK_EQ_U64(cache_set_of(h, 0x80000), 16);      /* bit 19 -> 4 */
        CHECK_EQ_U64(cache_set_of(h32, 0x1000), 0);      /* 32 sets: bit 12 unused */
        /* X: index XOR the next log2(nsets) line bits. */
        CHECK_EQ_U64(cache_set_of(x, (1ull << 13) | 0x180), 2);
        /* IPOLY(37), 32 sets: the first bit above the index is x^5 = x^2+1
         * (sets 5), bit 14 above it x^19 = x^2+x (6), bit 15 and up unused. */
        CHECK_EQ_U64(cache_set_of(p, 1ull << 12), 5);
        CHECK_EQ_U64(cache_set_of(p, 1ull << 26), 6);
        CHECK_EQ_U64(cache_set_of(p, 1ull << 27), 0);
        CHECK_EQ_U64(cache_set_of(p, (1ull << 12) | (3 << 7)), 6);
        /* Lines in different hashed sets coexist; the tag is the whole line. */
        cache_victim ev;
        for (uint64_t k = 0; k < 16; k++)
            load(h, k * 64 * 128, &ev);
        int hits = 0;
        for (uint64_t k = 0; k < 16; k++)
            hits += cache_probe(h, k * 64 * 128, NULL, NULL, 0, 0) >= 0;
        CHECK_EQ_INT(hits, 16);
        for (uint64_t k = 0; k < 16; k++)
            load(lin, k * 64 * 128, &ev);
        hits = 0;
        for (uint64_t k = 0; k < 16; k++)
            hits += cache_probe(lin, k * 64 * 128, NULL, NULL, 0, 0) >= 0;
        CHECK_EQ_INT(hits, 4);                  /* all in set 0: assoc 4 survive */
    }
    cache_free(lin);
    cache_free(h);
    cache_free(h32);
    cache_free(x);
    cache_free(p);
}

/* Run a fixed pseudo-random access sequence; return a hash of every victim
 * and the number of evictions. */
static uint64_t run_sequence(const char *cfg, int *nevict)
{
    cache *c = make(cfg, 1);
    if (!c)
        return 0;
    uint64_t x = 0x9e3779b97f4a7c15ull, h = 1469598103934665603ull;
    uint8_t buf[128] = {0};
    *nevict = 0;
    for (int n = 0; n < 20000; n++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t addr = (x >> 8) % (64 * 1024);
        uint32_t valid;
        int res;
        int i = cache_probe(c, addr, &valid, &res, (int)(x & 1), (uint64_t)n / 4);
        if (i < 0) {
            cache_victim ev;
            i = cache_allocate(c, addr, (int)(x >> 3 & 1), &ev, (uint64_t)n / 4);
            if (ev.valid) {
                (*nevict)++;
                h = (h ^ ev.line_addr ^ (uint64_t)ev.dirty << 56) * 1099511628211ull;
            }
            h = (h ^ (uint64_t)(i + 1)) * 1099511628211ull;
        }
        if (i >= 0 && (x >> 5 & 3) == 0) {
            buf[0] = (uint8_t)n;
            cache_fill(c, i, cache_sector_mask(c, addr, 4), buf);
            if (x >> 9 & 1)
                cache_set_dirty(c, i, cache_sector_mask(c, addr, 4));
        }
    }
    cache_free(c);
    return h;
}

static void test_determinism(void)
{
    static const char *const cfgs[] = {"S:16:128:4,L:B:m:W:L,A:8:4,4",
                                       "N:32:128:4,F:L:m:N:H,A:8:4,4"};
    for (size_t k = 0; k < 2; k++) {
        int n1 = 0, n2 = 0;
        uint64_t a = run_sequence(cfgs[k], &n1);
        uint64_t b = run_sequence(cfgs[k], &n2);
        CHECK_EQ_U64(a, b);
        CHECK_EQ_INT(n1, n2);
        CHECK_MSG(n1 > 100, "only %d evictions: the sequence does not exercise replacement", n1);
    }
}

int main(void)
{
    RUN(test_parse_gtx480);
    RUN(test_parse_sectored);
    RUN(test_parse_errors);
    RUN(test_hit_after_fill);
    RUN(test_sector_masks);
    RUN(test_lru);
    RUN(test_fifo);
    RUN(test_reserved);
    RUN(test_dirty_victims);
    RUN(test_invalidate);
    RUN(test_data);
    RUN(test_retag);
    RUN(test_set_index);
    RUN(test_determinism);
    return test_summary();
}
