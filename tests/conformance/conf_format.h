/*
 * conf_format.h -- the conformance suite's file formats, shared by the native
 * runner (native_runner.c, built with nvcc on a GPU machine) and lockstep's
 * test (tests/e2e/test_conformance.c).  Header-only, plain C11, no
 * dependencies: each program includes it once.
 *
 * The files (all written by gen.py except golden.bin):
 *
 *   cases.txt   one case per line, '#' comments:
 *                 name form inputs width tolerance set n block hash
 *   inputs.bin  "LSCINPT1" u32 version u32 nsets, then per set
 *                 char name[32]; u32 n; u32 0; u64 a[n]; u64 b[n]; u64 c[n];
 *   conf.ptx    the kernels; each one between "// @case NAME" and "// @end",
 *               the module header is the text before the first "// @case "
 *   golden.bin  "LSCGOLD1" u32 version u32 ncases char device[96]
 *               u32 driver_version u32 cc_major u32 cc_minor u32 0, then per case
 *                 char name[64]; char note[64]; u64 hash; u32 status;
 *                 u32 width; u32 n; u32 0; and, if status is CONF_OK,
 *                 n results of `width` bytes each (the low bytes of out[i]).
 *
 * All integers are little-endian.  Every parser checks sizes and returns
 * -1 with a message in err[] instead of trusting the file.
 */
#ifndef LOCKSTEP_CONF_FORMAT_H
#define LOCKSTEP_CONF_FORMAT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONF_INPUTS_MAGIC "LSCINPT1"
#define CONF_GOLDEN_MAGIC "LSCGOLD1"
#define CONF_GOLDEN_VERSION 1u
#define CONF_GOLDEN_HEADER_BYTES (8 + 4 + 4 + 96 + 16)
#define CONF_GOLDEN_RECORD_BYTES (64 + 64 + 8 + 16)

enum { CONF_OK = 0, CONF_MISSING = 1 };

typedef struct conf_case {
    char name[64];
    char form[128];
    int nin;           /* inputs the kernel reads (a, b, c) */
    unsigned width;    /* natural result width in bytes: 1, 2, 4 or 8 */
    char tol[32];      /* tolerance kind, "exact" for bit-exact */
    char set[32];      /* input set name in inputs.bin */
    unsigned n;        /* threads = results */
    unsigned block;    /* threads per CTA */
    uint64_t hash;     /* digest of kernel text + inputs + launch shape */
} conf_case;

typedef struct conf_set {
    char name[33];
    uint32_t n;
    const unsigned char *a, *b, *c; /* n little-endian u64 each, inside the file buffer */
} conf_set;

typedef struct conf_golden {
    char name[65];
    char note[65];
    uint64_t hash;
    uint32_t status, width, n;
    const unsigned char *data; /* n * width bytes when status == CONF_OK */
} conf_golden;

static inline uint32_t conf_rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t conf_rd64(const unsigned char *p)
{
    return (uint64_t)conf_rd32(p) | (uint64_t)conf_rd32(p + 4) << 32;
}

static inline void conf_wr32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static inline void conf_wr64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Little-endian value of `width` bytes at p. */
static inline uint64_t conf_rdn(const unsigned char *p, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* Read a whole file into a NUL-terminated malloc'd buffer; NULL on failure. */
static inline unsigned char *conf_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size >= 0 && fseek(f, 0, SEEK_SET) == 0)
        buf = (unsigned char *)malloc((size_t)size + 1);
    if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[size] = 0;
        if (len)
            *len = (size_t)size;
    }
    return buf;
}

/* Copy a whitespace-delimited token of at most cap-1 characters. */
static inline const char *conf_token(const char *p, char *out, size_t cap, int *ok)
{
    size_t n = 0;
    while (*p == ' ' || *p == '\t')
        p++;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
        if (n + 1 >= cap)
            *ok = 0;
        else
            out[n++] = *p;
        p++;
    }
    out[n] = 0;
    if (n == 0)
        *ok = 0;
    return p;
}

/* Parse cases.txt.  On success *out is a malloc'd array of *count cases. */
static inline int conf_parse_cases(const char *text, conf_case **out, size_t *count, char *err,
                                   size_t errlen)
{
    size_t cap = 1024, n = 0;
    conf_case *v = (conf_case *)malloc(cap * sizeof *v);
    int line = 0;
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t ll = eol ? (size_t)(eol - p) : strlen(p);
        line++;
        if (ll > 0 && p[0] != '#') {
            char tok[9][128];
            int ok = 1;
            const char *q = p;
            for (int i = 0; i < 9; i++)
                q = conf_token(q, tok[i], sizeof tok[i], &ok);
            if (n == cap) {
                conf_case *nv = (conf_case *)realloc(v, 2 * cap * sizeof *v);
                if (!nv) {
                    free(v);
                    snprintf(err, errlen, "out of memory");
                    return -1;
                }
                v = nv;
                cap *= 2;
            }
            conf_case *c = &v[n];
            char *end = NULL;
            memset(c, 0, sizeof *c);
            if (ok && strlen(tok[0]) < sizeof c->name && strlen(tok[4]) < sizeof c->tol &&
                strlen(tok[5]) < sizeof c->set) {
                strcpy(c->name, tok[0]);
                strcpy(c->form, tok[1]);
                c->nin = atoi(tok[2]);
                c->width = (unsigned)atoi(tok[3]);
                strcpy(c->tol, tok[4]);
                strcpy(c->set, tok[5]);
                c->n = (unsigned)strtoul(tok[6], NULL, 10);
                c->block = (unsigned)strtoul(tok[7], NULL, 10);
                c->hash = (uint64_t)strtoull(tok[8], &end, 16);
            } else {
                ok = 0;
            }
            if (!ok || !end || *end || c->n == 0 || c->block == 0 || c->block > 1024 ||
                (c->width != 1 && c->width != 2 && c->width != 4 && c->width != 8)) {
                free(v);
                snprintf(err, errlen, "cases.txt:%d: malformed line", line);
                return -1;
            }
            n++;
        }
        p = eol ? eol + 1 : p + ll;
    }
    *out = v;
    *count = n;
    return 0;
}

/* Parse inputs.bin (kept in buf; the sets point into it). */
static inline int conf_parse_inputs(const unsigned char *buf, size_t len, conf_set **out,
                                    size_t *count, char *err, size_t errlen)
{
    if (len < 16 || memcmp(buf, CONF_INPUTS_MAGIC, 8) != 0 || conf_rd32(buf + 8) != 1) {
        snprintf(err, errlen, "inputs.bin: bad magic or version");
        return -1;
    }
    size_t nsets = conf_rd32(buf + 12), off = 16;
    conf_set *v = (conf_set *)calloc(nsets ? nsets : 1, sizeof *v);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < nsets; i++) {
        if (len - off < 40) {
            free(v);
            snprintf(err, errlen, "inputs.bin: truncated at set %zu", i);
            return -1;
        }
        memcpy(v[i].name, buf + off, 32);
        v[i].name[32] = 0;
        v[i].n = conf_rd32(buf + off + 32);
        off += 40;
        if (v[i].n > (len - off) / 24) {
            snprintf(err, errlen, "inputs.bin: set %s truncated", v[i].name);
            free(v);
            return -1;
        }
        v[i].a = buf + off;
        v[i].b = buf + off + (size_t)v[i].n * 8;
        v[i].c = buf + off + (size_t)v[i].n * 16;
        off += (size_t)v[i].n * 24;
    }
    *out = v;
    *count = nsets;
    return 0;
}

static inline const conf_set *conf_find_set(const conf_set *sets, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(sets[i].name, name) == 0)
            return &sets[i];
    return NULL;
}

/* Length of the module header: the text before the first "// @case ". */
static inline size_t conf_ptx_header_len(const char *ptx)
{
    const char *p = strstr(ptx, "// @case ");
    return p ? (size_t)(p - ptx) : 0;
}

/* Find the text of one kernel ("// @case NAME" .. "// @end"); 0 if found. */
static inline int conf_ptx_case(const char *ptx, const char *name, size_t *off, size_t *len)
{
    size_t nl = strlen(name);
    for (const char *p = strstr(ptx, "// @case "); p; p = strstr(p + 1, "// @case ")) {
        const char *q = p + 9;
        if (strncmp(q, name, nl) == 0 && (q[nl] == '\n' || q[nl] == '\r')) {
            const char *e = strstr(q, "// @end");
            if (!e)
                return -1;
            *off = (size_t)(p - ptx);
            *len = (size_t)(e - p) + 7;
            return 0;
        }
    }
    return -1;
}

/* Parse golden.bin (kept in buf).  Fills the device string (>= 97 bytes). */
static inline int conf_parse_golden(const unsigned char *buf, size_t len, conf_golden **out,
                                    size_t *count, char *device, char *err, size_t errlen)
{
    if (len < CONF_GOLDEN_HEADER_BYTES || memcmp(buf, CONF_GOLDEN_MAGIC, 8) != 0 ||
        conf_rd32(buf + 8) != CONF_GOLDEN_VERSION) {
        snprintf(err, errlen, "golden.bin: bad magic or version");
        return -1;
    }
    size_t n = conf_rd32(buf + 12), off = CONF_GOLDEN_HEADER_BYTES;
    memcpy(device, buf + 16, 96);
    device[96] = 0;
    conf_golden *v = (conf_golden *)calloc(n ? n : 1, sizeof *v);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        conf_golden *g = &v[i];
        if (len - off < CONF_GOLDEN_RECORD_BYTES) {
            free(v);
            snprintf(err, errlen, "golden.bin: truncated at record %zu", i);
            return -1;
        }
        memcpy(g->name, buf + off, 64);
        g->name[64] = 0;
        memcpy(g->note, buf + off + 64, 64);
        g->note[64] = 0;
        g->hash = conf_rd64(buf + off + 128);
        g->status = conf_rd32(buf + off + 136);
        g->width = conf_rd32(buf + off + 140);
        g->n = conf_rd32(buf + off + 144);
        off += CONF_GOLDEN_RECORD_BYTES;
        if (g->status == CONF_OK) {
            if (g->width > 8 || (uint64_t)g->n * g->width > len - off) {
                snprintf(err, errlen, "golden.bin: record %s truncated", g->name);
                free(v);
                return -1;
            }
            g->data = buf + off;
            off += (size_t)g->n * g->width;
        }
    }
    *out = v;
    *count = n;
    return 0;
}

#endif
