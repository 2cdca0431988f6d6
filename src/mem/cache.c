/*
 * cache.c -- the cache array and GPGPU-Sim cache-string parser (cache.h).
 *
 * DESIGN
 *
 * Storage is structure-of-arrays over the nsets*assoc lines, line i being
 * way (i % assoc) of set (i / assoc):
 *
 *     tag[i]      line address held, or TAG_NONE (all ones: never a line
 *                 address, since lines are >= 32 bytes and aligned)
 *     valid[i]    sector masks
 *     dirty[i]
 *     reserved[i] 1 while a fill is pending
 *     stamp[i]    replacement key: the sequence number of the last touch
 *                 (LRU) or of the allocation (FIFO); smallest = victim
 *     data        nlines * line_bytes, when kept
 *
 * so a probe reads one contiguous run of assoc tags.  The tag is the whole
 * line address (not just the bits above the index), as in GPGPU-Sim, which
 * keeps hashed set functions correct.  Sequence numbers come from a per-
 * cache counter bumped on every touch and allocation; they are unique, so
 * the victim is never a tie and never depends on anything but the calls.
 *
 * The parser walks the string field by field; each field is the text up to
 * the next ':' or ',' and must be preceded by the separator the grammar
 * (in cache.h) puts there, so a message can always name the field.
 */
#include "mem/cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_NONE UINT64_MAX

struct cache {
    cache_config cfg;
    uint32_t nlines, assoc;
    uint32_t line_shift, nset_shift, nset_mask;
    uint32_t sector_shift, nsectors;
    int lru;                /* 1: LRU, 0: FIFO */
    char set_fn;            /* cfg.set_index */
    uint64_t seq;           /* last sequence number handed out */
    uint64_t *tag;
    uint64_t *stamp;
    uint32_t *valid;
    uint32_t *dirty;
    uint8_t *reserved;
    uint8_t *data;          /* NULL when data is not kept */
};

/* ---------------------------------------------------------------------- */
/* Configuration parsing                                                  */
/* ---------------------------------------------------------------------- */

static int is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

static uint32_t log2_u32(uint32_t x)
{
    uint32_t n = 0;
    while (x >>= 1)
        n++;
    return n;
}

/* The parser's cursor: the string, the position, the field number (1-based)
 * and where messages go. */
typedef struct pcur {
    const char *s;
    size_t pos, end;
    int field;
    char *err;
    size_t errlen;
} pcur;

/* Report msg about field `name` starting at column col; returns -1. */
static int perr(pcur *p, const char *name, size_t col, const char *msg)
{
    if (p->err && p->errlen)
        snprintf(p->err, p->errlen, "cache config: <%s> (field %d, column %zu): %s", name,
                 p->field, col + 1, msg);
    return -1;
}

/* field := [sep] text up to the next ':' or ',' or the end.  `sep` is the
 * separator the grammar puts before this field (0 for the first one).
 * Sets *tok and *len; -1 and a message when the field is missing or empty. */
static int next_field(pcur *p, char sep, const char *name, const char **tok, size_t *len)
{
    char m[96];
    p->field++;
    if (sep) {
        if (p->pos >= p->end)
            return perr(p, name, p->pos, "missing (the string ends before it)");
        if (p->s[p->pos] != sep) {
            snprintf(m, sizeof m, "missing: expected '%c' before it, got '%c'", sep,
                     p->s[p->pos]);
            return perr(p, name, p->pos, m);
        }
        p->pos++;
    }
    size_t b = p->pos;
    while (p->pos < p->end && p->s[p->pos] != ':' && p->s[p->pos] != ',')
        p->pos++;
    if (p->pos == b)
        return perr(p, name, b, "missing (empty)");
    *tok = p->s + b;
    *len = p->pos - b;
    return 0;
}

/* letter := one of the characters of `letters`; `help` lists them with
 * their meanings for the message. */
static int parse_letter(pcur *p, char sep, const char *name, const char *letters,
                        const char *help, char *out)
{
    const char *t;
    size_t n;
    if (next_field(p, sep, name, &t, &n))
        return -1;
    if (n != 1 || !strchr(letters, t[0])) {
        char m[240];
        snprintf(m, sizeof m, "'%.*s' is not one of %s", (int)(n > 40 ? 40 : n), t, help);
        return perr(p, name, (size_t)(t - p->s), m);
    }
    *out = t[0];
    return 0;
}

/* number := decimal digits, at most 2^32 - 1. */
static int parse_num(pcur *p, char sep, const char *name, uint32_t *out)
{
    const char *t;
    size_t n;
    if (next_field(p, sep, name, &t, &n))
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        const char *why = NULL;
        if (t[i] < '0' || t[i] > '9')
            why = "is not a number (decimal digits only)";
        else if ((v = v * 10 + (uint64_t)(t[i] - '0')) > UINT32_MAX)
            why = "is too large";
        if (why) {
            char m[96];
            snprintf(m, sizeof m, "\"%.*s\" %s", (int)(n > 40 ? 40 : n), t, why);
            return perr(p, name, (size_t)(t - p->s), m);
        }
    }
    *out = (uint32_t)v;
    return 0;
}

static int cfg_err(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "cache config: %s", msg);
    return -1;
}

/* Semantic checks shared by the parser and cache_create: geometry, letters
 * the array must interpret, and the combinations GPGPU-Sim refuses. */
int cache_config_check(const cache_config *c, char *err, size_t errlen)
{
    char m[200];
    if (c->type != 'N' && c->type != 'S')
        return cfg_err(err, errlen, "<type> must be N (normal) or S (sectored)");
    if (c->nsets < 1)
        return cfg_err(err, errlen, "<nsets> must be at least 1");
    if (!is_pow2(c->nsets)) {
        snprintf(m, sizeof m, "<nsets> %u is not a power of two", c->nsets);
        return cfg_err(err, errlen, m);
    }
    if (c->line_bytes < 1)
        return cfg_err(err, errlen, "<line bytes> must be at least 1");
    if (c->line_bytes < 32 || !is_pow2(c->line_bytes)) {
        snprintf(m, sizeof m,
                 "<line bytes> %u must be a power of two and at least 32 (a multiple of 32)",
                 c->line_bytes);
        return cfg_err(err, errlen, m);
    }
    if (c->assoc < 1)
        return cfg_err(err, errlen, "<assoc> must be at least 1");
    if ((uint64_t)c->nsets * c->assoc > INT32_MAX) {
        snprintf(m, sizeof m, "<nsets>*<assoc> = %llu lines is too many",
                 (unsigned long long)c->nsets * c->assoc);
        return cfg_err(err, errlen, m);
    }
    uint32_t want_sector = c->type == 'S' ? CACHE_SECTOR_BYTES : c->line_bytes;
    if (c->sector_bytes != want_sector) {
        snprintf(m, sizeof m, "sector_bytes %u should be %u for <type> %c", c->sector_bytes,
                 want_sector, c->type);
        return cfg_err(err, errlen, m);
    }
    if (c->line_bytes / c->sector_bytes > CACHE_MAX_SECTORS) {
        snprintf(m, sizeof m, "<line bytes> %u of a sectored cache is more than %u sectors",
                 c->line_bytes, CACHE_MAX_SECTORS);
        return cfg_err(err, errlen, m);
    }
    if (!c->replacement || !strchr("LF", c->replacement))
        return cfg_err(err, errlen, "<replacement> must be L (LRU) or F (FIFO)");
    switch (c->set_index) {
    case 'L':
    case 'X':
        break;
    case 'H':
        if (c->nsets != 32 && c->nsets != 64) {
            snprintf(m, sizeof m, "<set index> H (Fermi hash) needs 32 or 64 sets, not %u",
                     c->nsets);
            return cfg_err(err, errlen, m);
        }
        break;
    case 'P':
        if (c->nsets != 16 && c->nsets != 32 && c->nsets != 64) {
            snprintf(m, sizeof m, "<set index> P (IPOLY hash) needs 16, 32 or 64 sets, not %u",
                     c->nsets);
            return cfg_err(err, errlen, m);
        }
        break;
    default:
        return cfg_err(err, errlen, "<set index> must be L, H, P or X");
    }
    /* Fields recorded for the simulator: only their letters are checked. */
    if (!c->write_policy || !strchr("RBTEL", c->write_policy))
        return cfg_err(err, errlen, "<write policy> must be R, B, T, E or L");
    if (!c->alloc_policy || !strchr("mfs", c->alloc_policy))
        return cfg_err(err, errlen, "<alloc policy> must be m, f or s");
    if (!c->write_alloc || !strchr("NWFL", c->write_alloc))
        return cfg_err(err, errlen, "<write alloc> must be N, W, F or L");
    if (!c->mshr_type || !strchr("ASFT", c->mshr_type))
        return cfg_err(err, errlen, "<mshr type> must be A, S, F or T");
    /* GPGPU-Sim treats streaming as allocate-on-fill for these two checks. */
    int on_fill = c->alloc_policy == 'f' || c->alloc_policy == 's';
    if (on_fill && c->write_policy == 'B')
        return cfg_err(err, errlen,
                       "<write policy> B (write-back) cannot go with <alloc policy> f or s "
                       "(allocate on fill): a fill evicting a dirty line can deadlock");
    if (on_fill && (c->write_alloc == 'F' || c->write_alloc == 'L'))
        return cfg_err(err, errlen,
                       "<write alloc> F or L needs <alloc policy> m (allocate on miss)");
    if (c->data_port_width && c->line_bytes % c->data_port_width) {
        snprintf(m, sizeof m, "<data port width> %u does not divide <line bytes> %u",
                 c->data_port_width, c->line_bytes);
        return cfg_err(err, errlen, m);
    }
    return 0;
}

/* config := type ':' nsets ':' line ':' assoc
 *           ',' rp ':' wp ':' ap ':' wap ':' sif
 *           ',' mshr ':' entries ':' merge
 *           ',' missq [ ':' resultfifo [ ',' portwidth ] ]
 * Leading and trailing white space is ignored. */
int cache_config_parse(const char *s, cache_config *c, char *err, size_t errlen)
{
    cache_config t;
    memset(&t, 0, sizeof t);
    if (err && errlen)
        err[0] = 0;
    if (!s)
        return cfg_err(err, errlen, "no configuration string");
    pcur p = {s, 0, strlen(s), 0, err, errlen};
    while (p.pos < p.end && (s[p.pos] == ' ' || s[p.pos] == '\t'))
        p.pos++;
    while (p.end > p.pos && (s[p.end - 1] == ' ' || s[p.end - 1] == '\t' ||
                             s[p.end - 1] == '\n' || s[p.end - 1] == '\r'))
        p.end--;
    if (p.end - p.pos == 4 && !memcmp(s + p.pos, "none", 4))
        return cfg_err(err, errlen, "\"none\" (no cache) is not allowed here");

    if (parse_letter(&p, 0, "type", "NS", "N (normal), S (sectored)", &t.type) ||
        parse_num(&p, ':', "nsets", &t.nsets) ||
        parse_num(&p, ':', "line bytes", &t.line_bytes) ||
        parse_num(&p, ':', "assoc", &t.assoc) ||
        parse_letter(&p, ',', "replacement", "LF", "L (LRU), F (FIFO)", &t.replacement) ||
        parse_letter(&p, ':', "write policy", "RBTEL",
                     "R (read-only), B (write-back), T (write-through), E (write-evict), "
                     "L (local write-back, global write-through)",
                     &t.write_policy) ||
        parse_letter(&p, ':', "alloc policy", "mfs", "m (on miss), f (on fill), s (streaming)",
                     &t.alloc_policy) ||
        parse_letter(&p, ':', "write alloc", "NWFL",
                     "N (none), W (write-allocate), F (fetch-on-write), L (lazy fetch-on-read)",
                     &t.write_alloc) ||
        parse_letter(&p, ':', "set index", "LHPX",
                     "L (linear), H (Fermi hash), P (IPOLY hash), X (bitwise XOR)",
                     &t.set_index) ||
        parse_letter(&p, ',', "mshr type", "ASFT",
                     "A (associative), S (sector associative), F (texture FIFO), "
                     "T (sector texture FIFO)",
                     &t.mshr_type) ||
        parse_num(&p, ':', "mshr entries", &t.mshr_entries) ||
        parse_num(&p, ':', "mshr max merge", &t.mshr_max_merge) ||
        parse_num(&p, ',', "miss queue", &t.miss_queue))
        return -1;
    t.nfields = 13;
    if (p.pos < p.end && s[p.pos] == ':') {
        if (parse_num(&p, ':', "result fifo", &t.result_fifo))
            return -1;
        t.nfields = 14;
        if (p.pos < p.end && s[p.pos] == ',') {
            if (parse_num(&p, ',', "data port width", &t.data_port_width))
                return -1;
            t.nfields = 15;
        }
    }
    if (p.pos < p.end) {
        static const char *const last[] = {"miss queue", "result fifo", "data port width"};
        char m[96];
        snprintf(m, sizeof m, "unexpected \"%.*s\" after it",
                 (int)(p.end - p.pos > 40 ? 40 : p.end - p.pos), s + p.pos);
        return perr(&p, last[t.nfields - 13], p.pos, m);
    }
    t.sector_bytes = t.type == 'S' ? CACHE_SECTOR_BYTES : t.line_bytes;
    if (cache_config_check(&t, err, errlen))
        return -1;
    *c = t;
    return 0;
}

/* Inverse of cache_config_parse (the optional fields as they were given). */
int cache_config_format(const cache_config *c, char *buf, size_t n)
{
    char tail[32] = "";
    if (c->nfields >= 15)
        snprintf(tail, sizeof tail, ":%u,%u", c->result_fifo, c->data_port_width);
    else if (c->nfields == 14)
        snprintf(tail, sizeof tail, ":%u", c->result_fifo);
    return snprintf(buf, n, "%c:%u:%u:%u,%c:%c:%c:%c:%c,%c:%u:%u,%u%s", c->type, c->nsets,
                    c->line_bytes, c->assoc, c->replacement, c->write_policy, c->alloc_policy,
                    c->write_alloc, c->set_index, c->mshr_type, c->mshr_entries,
                    c->mshr_max_merge, c->miss_queue, tail);
}

uint64_t cache_config_bytes(const cache_config *c)
{
    return (uint64_t)c->nsets * c->line_bytes * c->assoc;
}

/* ---------------------------------------------------------------------- */
/* The array                                                              */
/* ---------------------------------------------------------------------- */

/* Allocate every array once; nothing allocates afterwards. */
cache *cache_create(const cache_config *cfg, int with_data)
{
    if (!cfg || cache_config_check(cfg, NULL, 0))
        return NULL;
    cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->cfg = *cfg;
    c->assoc = cfg->assoc;
    c->nlines = cfg->nsets * cfg->assoc;
    c->line_shift = log2_u32(cfg->line_bytes);
    c->nset_shift = log2_u32(cfg->nsets);
    c->nset_mask = cfg->nsets - 1;
    c->sector_shift = log2_u32(cfg->sector_bytes);
    c->nsectors = cfg->line_bytes / cfg->sector_bytes;
    c->lru = cfg->replacement == 'L';
    c->set_fn = cfg->set_index;
    size_t n = c->nlines;
    c->tag = malloc(n * sizeof *c->tag);
    c->stamp = calloc(n, sizeof *c->stamp);
    c->valid = calloc(n, sizeof *c->valid);
    c->dirty = calloc(n, sizeof *c->dirty);
    c->reserved = calloc(n, 1);
    if (!c->tag || !c->stamp || !c->valid || !c->dirty || !c->reserved)
        goto fail;
    if (with_data) {
        if ((uint64_t)n * cfg->line_bytes > SIZE_MAX)
            goto fail;
        c->data = calloc(n, cfg->line_bytes);
        if (!c->data)
            goto fail;
    }
    for (size_t i = 0; i < n; i++)
        c->tag[i] = TAG_NONE;
    return c;
fail:
    cache_free(c);
    return NULL;
}

void cache_free(cache *c)
{
    if (!c)
        return;
    free(c->tag);
    free(c->stamp);
    free(c->valid);
    free(c->dirty);
    free(c->reserved);
    free(c->data);
    free(c);
}

uint64_t cache_line_addr(const cache *c, uint64_t addr)
{
    return addr & ~(((uint64_t)1 << c->line_shift) - 1);
}

/* IPOLY: index XOR (hi * x^n mod P), where hi is the `hibits` bits of the
 * line address above the index and P the degree-n polynomial (its x^n term
 * included).  Reduction from the top bit down, one XOR per set bit. */
static uint32_t ipoly(uint64_t line, uint32_t n, uint32_t poly, uint32_t hibits)
{
    uint64_t v = (line >> n) & (((uint64_t)1 << hibits) - 1);
    v <<= n;
    for (int b = (int)(n + hibits) - 1; b >= (int)n; b--)
        if (v >> b & 1)
            v ^= (uint64_t)poly << (b - (int)n);
    return (uint32_t)(v ^ line) & ((1u << n) - 1);
}

/* See cache.h for the functions; H and P were restricted to the set counts
 * they are defined for by cache_config_check. */
uint32_t cache_set_of(const cache *c, uint64_t addr)
{
    uint64_t line = addr >> c->line_shift;
    switch (c->set_fn) {
    case 'H': {
        uint32_t lower = (uint32_t)line & 0x1f;
        uint32_t upper = (uint32_t)((addr >> 13) & 7)       /* bits 13-15 -> 0-2 */
                         | (uint32_t)((addr >> 17) & 1) << 3 /* bit 17 -> 3 */
                         | (uint32_t)((addr >> 19) & 1) << 4; /* bit 19 -> 4 */
        uint32_t set = lower ^ upper;
        if (c->nset_mask == 63)
            set |= (uint32_t)((addr >> 12) & 1) << 5;
        return set;
    }
    case 'P':
        switch (c->nset_shift) {
        case 4:
            return ipoly(line, 4, 0x13, 13);  /* x^4 + x + 1 */
        case 5:
            return ipoly(line, 5, 0x25, 15);  /* x^5 + x^2 + 1 */
        default:
            return ipoly(line, 6, 0x43, 19);  /* x^6 + x + 1 */
        }
    case 'X':
        return (uint32_t)(line ^ (line >> c->nset_shift)) & c->nset_mask;
    default:
        return (uint32_t)line & c->nset_mask;
    }
}

uint32_t cache_sector_mask(const cache *c, uint64_t addr, uint32_t bytes)
{
    if (!bytes)
        return 0;
    uint64_t line_bytes = c->cfg.line_bytes;
    uint64_t off = addr & (line_bytes - 1);
    uint64_t end = off + bytes < line_bytes ? off + bytes : line_bytes;
    uint32_t first = (uint32_t)(off >> c->sector_shift);
    uint32_t last = (uint32_t)((end - 1) >> c->sector_shift);
    uint64_t upto = ((uint64_t)2 << last) - 1;      /* bits 0..last */
    return (uint32_t)(upto & ~(((uint64_t)1 << first) - 1));
}

uint32_t cache_sectors_of(const cache *c, uint32_t mask, uint32_t unit)
{
    if (unit == c->cfg.sector_bytes)
        return mask;
    uint32_t out = 0;
    for (; mask; mask &= mask - 1)
        out |= 1u << ((uint32_t)__builtin_ctz(mask) * unit / c->cfg.sector_bytes);
    return out;
}

/* The way of addr's set holding its tag, as a line index, or -1. */
static int find(const cache *c, uint64_t addr, uint64_t *tagp)
{
    uint64_t tag = cache_line_addr(c, addr);
    uint32_t base = cache_set_of(c, addr) * c->assoc;
    *tagp = tag;
    const uint64_t *t = c->tag + base;
    for (uint32_t w = 0; w < c->assoc; w++)
        if (t[w] == tag)
            return (int)(base + w);
    return -1;
}

int cache_probe(cache *c, uint64_t addr, uint32_t *valid, int *reserved, int touch, uint64_t now)
{
    (void)now;
    uint64_t tag;
    int i = find(c, addr, &tag);
    if (i < 0) {
        if (valid)
            *valid = 0;
        if (reserved)
            *reserved = 0;
        return -1;
    }
    if (valid)
        *valid = c->valid[i];
    if (reserved)
        *reserved = c->reserved[i];
    if (touch && c->lru)
        c->stamp[i] = ++c->seq;
    return i;
}

/* Record in *ev what line i held (valid: it had a valid or dirty sector). */
static void victim_of(const cache *c, uint32_t i, cache_victim *ev)
{
    if (!ev)
        return;
    ev->valid = c->tag[i] != TAG_NONE && (c->valid[i] | c->dirty[i]) != 0;
    ev->line_addr = c->tag[i] != TAG_NONE ? c->tag[i] : 0;
    ev->dirty = c->tag[i] != TAG_NONE ? c->dirty[i] : 0;
}

/* One pass over the set: the existing line, else the first empty way, else
 * the unreserved way with the smallest stamp. */
int cache_allocate(cache *c, uint64_t addr, int reserve, cache_victim *ev, uint64_t now)
{
    (void)now;
    if (ev)
        memset(ev, 0, sizeof *ev);
    uint64_t tag = cache_line_addr(c, addr);
    uint32_t base = cache_set_of(c, addr) * c->assoc;
    int empty = -1, victim = -1;
    uint64_t best = UINT64_MAX;
    for (uint32_t w = 0; w < c->assoc; w++) {
        uint32_t i = base + w;
        uint64_t t = c->tag[i];
        if (t == tag)
            return (int)i;                  /* already present: unchanged */
        if (t == TAG_NONE) {
            if (empty < 0)
                empty = (int)i;
        } else if (!c->reserved[i] && c->stamp[i] < best) {
            best = c->stamp[i];
            victim = (int)i;
        }
    }
    int i = empty >= 0 ? empty : victim;
    if (i < 0)
        return -1;                          /* every way reserved */
    victim_of(c, (uint32_t)i, ev);
    c->tag[i] = tag;
    c->valid[i] = 0;
    c->dirty[i] = 0;
    c->reserved[i] = reserve ? 1 : 0;
    c->stamp[i] = ++c->seq;
    return i;
}

void cache_fill(cache *c, int line, uint32_t sectors, const uint8_t *data)
{
    uint32_t all = c->nsectors >= 32 ? UINT32_MAX : (1u << c->nsectors) - 1;
    sectors &= all;
    c->valid[line] |= sectors;
    c->reserved[line] = 0;
    if (c->data && data) {
        uint8_t *dst = c->data + (size_t)line * c->cfg.line_bytes;
        uint32_t sb = c->cfg.sector_bytes;
        /* Copy runs of consecutive sectors with one memcpy each. */
        while (sectors) {
            uint32_t first = (uint32_t)__builtin_ctz(sectors);
            uint32_t run = first;
            while (run < 32 && (sectors >> run & 1))
                run++;
            memcpy(dst + (size_t)first * sb, data + (size_t)first * sb,
                   (size_t)(run - first) * sb);
            sectors &= run >= 32 ? 0 : ~((1u << run) - 1);
        }
    }
}

void cache_set_dirty(cache *c, int line, uint32_t sectors)
{
    uint32_t all = c->nsectors >= 32 ? UINT32_MAX : (1u << c->nsectors) - 1;
    c->dirty[line] |= sectors & all;
}

void cache_clear_dirty(cache *c, int line, uint32_t sectors)
{
    c->dirty[line] &= ~sectors;
}

/* Empty line i (its data bytes stay; they are unreachable until refilled). */
static void drop(cache *c, uint32_t i)
{
    c->tag[i] = TAG_NONE;
    c->valid[i] = 0;
    c->dirty[i] = 0;
    c->reserved[i] = 0;
    c->stamp[i] = 0;
}

int cache_invalidate(cache *c, uint64_t addr, cache_victim *ev)
{
    if (ev)
        memset(ev, 0, sizeof *ev);
    uint64_t tag;
    int i = find(c, addr, &tag);
    if (i < 0 || c->reserved[i])
        return 0;
    victim_of(c, (uint32_t)i, ev);
    int was_valid = (c->valid[i] | c->dirty[i]) != 0;
    drop(c, (uint32_t)i);
    return was_valid;
}

void cache_invalidate_all(cache *c)
{
    for (uint32_t i = 0; i < c->nlines; i++)
        if (!c->reserved[i])
            drop(c, i);
}

uint8_t *cache_data(cache *c, int line)
{
    return c->data ? c->data + (size_t)line * c->cfg.line_bytes : NULL;
}

int cache_retag(cache *c, int line, uint64_t addr)
{
    uint64_t tag = cache_line_addr(c, addr);
    if (c->tag[line] == TAG_NONE || tag == TAG_NONE ||
        cache_set_of(c, addr) != (uint32_t)line / c->assoc)
        return -1;
    c->tag[line] = tag;
    return 0;
}

void cache_line_get(const cache *c, int line, cache_line_state *st)
{
    st->present = c->tag[line] != TAG_NONE;
    st->reserved = c->reserved[line];
    st->line_addr = st->present ? c->tag[line] : 0;
    st->valid = c->valid[line];
    st->dirty = c->dirty[line];
}

uint32_t cache_nlines(const cache *c) { return c->nlines; }

const cache_config *cache_get_config(const cache *c) { return &c->cfg; }
