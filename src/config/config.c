/*
 * config.c -- lockstep_config: the option table of config.h, parsing of
 * GPGPU-Sim style option text ("-name value", '#' comments), and errors
 * that name file:line and the option.
 */
#include "config/config.h"

#include "mem/cache.h"
#include "mem/dram.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct opt_row {
    lockstep_option_info info;
    int type;
    size_t offset;
    uint64_t lo, hi;
} opt_row;

static const opt_row rows[] = {
#define X(type, field, name, def, lo, hi, help)                                                \
    {{name, #type[0] == 'S' ? "string" : "integer", def, help}, CFG_##type,                     \
     offsetof(lockstep_config, field), (uint64_t)(lo), (uint64_t)(hi)},
    LOCKSTEP_OPTIONS(X)
#undef X
};

size_t lockstep_config_option_count(void) { return sizeof rows / sizeof rows[0]; }

const lockstep_option_info *lockstep_config_option(size_t i)
{
    return i < lockstep_config_option_count() ? &rows[i].info : NULL;
}

static const opt_row *find_row(const char *name)
{
    const char *n = name[0] == '-' ? name + 1 : name;
    for (size_t i = 0; i < lockstep_config_option_count(); i++)
        if (!strcmp(rows[i].info.name + 1, n))
            return &rows[i];
    return NULL;
}

/* Parse an unsigned integer with an optional K/M/G (binary) suffix.  It is
 * decimal, as GPGPU-Sim reads it, whatever its leading zeros ("0120" is
 * 120, not octal 80); 0x starts a hexadecimal one. */
static int parse_uint(const char *s, uint64_t *out)
{
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        if (!isxdigit((unsigned char)*s))
            return -1;
    }
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, base);
    if (errno)
        return -1;
    uint64_t mul = 1;
    if (*end == 'K' || *end == 'k')
        mul = 1ull << 10;
    else if (*end == 'M' || *end == 'm')
        mul = 1ull << 20;
    else if (*end == 'G' || *end == 'g')
        mul = 1ull << 30;
    if (mul != 1)
        end++;
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return -1;
    if (v > UINT64_MAX / mul)
        return -1;
    *out = (uint64_t)v * mul;
    return 0;
}

static lockstep_status set_row(lockstep_config *cfg, const opt_row *r, const char *value,
                               const char *where)
{
    char *base = (char *)cfg + r->offset;
    if (r->type == CFG_STR) {
        char *dup = strdup(value);
        if (!dup)
            return LOCKSTEP_ERROR_OUT_OF_MEMORY;
        char msg[200];
        if (config_check_string(r->info.name, value, msg, sizeof msg)) {
            free(dup);
            sb_clear(&cfg->err);
            sb_printf(&cfg->err, "%s%s: bad value '%s' (%s)", where, r->info.name, value, msg);
            return LOCKSTEP_ERROR_INVALID_CONFIG;
        }
        if (!strcmp(r->info.name, "-gpgpu_shader_core_pipeline")) {
            unsigned threads, warp;
            char extra;
            if (sscanf(value, "%u:%u%c", &threads, &warp, &extra) != 2 || warp != 32 ||
                threads < 32 || threads % 32) {
                free(dup);
                sb_clear(&cfg->err);
                sb_printf(&cfg->err, "%s%s: bad value '%s' (expected THREADS:32, THREADS a multiple of 32)",
                          where, r->info.name, value);
                return LOCKSTEP_ERROR_INVALID_CONFIG;
            }
        }
        char **slot = (char **)(void *)base;
        free(*slot);
        *slot = dup;
        return LOCKSTEP_SUCCESS;
    }
    uint64_t v;
    if (parse_uint(value, &v) || v < r->lo || v > r->hi) {
        sb_clear(&cfg->err);
        sb_printf(&cfg->err, "%s%s: bad value '%s' (expected an integer from %llu to %llu)", where,
                  r->info.name, value, (unsigned long long)r->lo, (unsigned long long)r->hi);
        return LOCKSTEP_ERROR_INVALID_CONFIG;
    }
    if (r->type == CFG_U64)
        memcpy(base, &v, sizeof v);
    else {
        uint32_t v32 = (uint32_t)v;
        memcpy(base, &v32, sizeof v32);
    }
    return LOCKSTEP_SUCCESS;
}

lockstep_status lockstep_config_create(lockstep_config **out)
{
    if (!out)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    lockstep_config *cfg = calloc(1, sizeof *cfg);
    if (!cfg)
        return LOCKSTEP_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < lockstep_config_option_count(); i++)
        if (set_row(cfg, &rows[i], rows[i].info.def, "") != LOCKSTEP_SUCCESS) {
            lockstep_config_destroy(cfg);
            return LOCKSTEP_ERROR_OUT_OF_MEMORY;
        }
    *out = cfg;
    return LOCKSTEP_SUCCESS;
}

void lockstep_config_destroy(lockstep_config *cfg)
{
    if (!cfg)
        return;
    for (size_t i = 0; i < lockstep_config_option_count(); i++)
        if (rows[i].type == CFG_STR)
            free(*(char **)(void *)((char *)cfg + rows[i].offset));
    sb_free(&cfg->err);
    free(cfg);
}

lockstep_status lockstep_config_copy(const lockstep_config *src, lockstep_config **out)
{
    if (!src || !out)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    lockstep_config *cfg;
    lockstep_status st = lockstep_config_create(&cfg);
    if (st != LOCKSTEP_SUCCESS)
        return st;
    char buf[256];
    for (size_t i = 0; i < lockstep_config_option_count(); i++) {
        if (lockstep_config_get(src, rows[i].info.name, buf, sizeof buf) != LOCKSTEP_SUCCESS ||
            set_row(cfg, &rows[i], buf, "") != LOCKSTEP_SUCCESS) {
            lockstep_config_destroy(cfg);
            return LOCKSTEP_ERROR_OUT_OF_MEMORY;
        }
    }
    *out = cfg;
    return LOCKSTEP_SUCCESS;
}

lockstep_status lockstep_config_set(lockstep_config *cfg, const char *name, const char *value)
{
    if (!cfg || !name || !value)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    const opt_row *r = find_row(name);
    if (!r) {
        sb_clear(&cfg->err);
        sb_printf(&cfg->err, "unknown option '%s%s' (lockstep config --help lists them)",
                  name[0] == '-' ? "" : "-", name);
        return LOCKSTEP_ERROR_INVALID_CONFIG;
    }
    return set_row(cfg, r, value, "");
}

lockstep_status lockstep_config_get(const lockstep_config *cfg, const char *name, char *buf,
                                    size_t buflen)
{
    if (!cfg || !name || !buf || !buflen)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    const opt_row *r = find_row(name);
    if (!r)
        return LOCKSTEP_ERROR_INVALID_CONFIG;
    const char *base = (const char *)cfg + r->offset;
    int n;
    if (r->type == CFG_STR)
        n = snprintf(buf, buflen, "%s", *(char *const *)(const void *)base);
    else if (r->type == CFG_U64) {
        uint64_t v;
        memcpy(&v, base, sizeof v);
        n = snprintf(buf, buflen, "%llu", (unsigned long long)v);
    } else {
        uint32_t v;
        memcpy(&v, base, sizeof v);
        n = snprintf(buf, buflen, "%u", v);
    }
    return n < 0 || (size_t)n >= buflen ? LOCKSTEP_ERROR_INVALID_VALUE : LOCKSTEP_SUCCESS;
}

const char *lockstep_config_last_error(const lockstep_config *cfg)
{
    return cfg ? sb_cstr(&cfg->err) : "";
}

/*
 * option-text := { ['-'name value] ['#' comment] '\n' }
 * Several options may share a line; a value may be quoted.
 */
lockstep_status lockstep_config_parse(lockstep_config *cfg, const char *text, size_t len,
                                      const char *filename)
{
    if (!cfg || (!text && len))
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (!filename)
        filename = "<config>";
    size_t i = 0;
    unsigned line = 1;
    char word[256], value[1024], where[300];
    /* the line each option was first given on in this text: given again with
     * a different value, it is an error (one of the two lines is a mistake;
     * -O after --config is how to override a file) */
    unsigned seen[sizeof rows / sizeof rows[0]] = {0};
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
        i = 3; /* a UTF-8 byte-order mark, as some editors write: not text */
    while (i < len) {
        char ch = text[i];
        if (ch == '\n') {
            line++;
            i++;
            continue;
        }
        if (isspace((unsigned char)ch)) {
            i++;
            continue;
        }
        if (ch == '#') {
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        snprintf(where, sizeof where, "%s:%u: ", filename, line);
        size_t n = 0;
        while (i < len && !isspace((unsigned char)text[i]) && text[i] != '#') {
            if (n + 1 < sizeof word)
                word[n++] = text[i];
            i++;
        }
        word[n] = 0;
        if (word[0] != '-') {
            sb_clear(&cfg->err);
            sb_printf(&cfg->err, "%sexpected an option such as -gpgpu_n_clusters, found '", where);
            for (const char *c = word; *c; c++) /* bytes that would not show, as \xNN */
                if ((unsigned char)*c >= 0x20 && (unsigned char)*c < 0x7f)
                    sb_putc(&cfg->err, *c);
                else
                    sb_printf(&cfg->err, "\\x%02x", (unsigned char)*c);
            sb_putc(&cfg->err, '\'');
            return LOCKSTEP_ERROR_INVALID_CONFIG;
        }
        const opt_row *r = find_row(word);
        if (!r) {
            sb_clear(&cfg->err);
            sb_printf(&cfg->err, "%sunknown option '%s' (lockstep config --help lists them)", where,
                      word);
            return LOCKSTEP_ERROR_INVALID_CONFIG;
        }
        while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
            i++;
        n = 0;
        if (i < len && text[i] == '"') {
            i++;
            while (i < len && text[i] != '"' && text[i] != '\n') {
                if (n + 1 < sizeof value)
                    value[n++] = text[i];
                i++;
            }
            if (i >= len || text[i] != '"') {
                sb_clear(&cfg->err);
                sb_printf(&cfg->err, "%s%s: unterminated quoted value", where, word);
                return LOCKSTEP_ERROR_INVALID_CONFIG;
            }
            i++;
        } else {
            while (i < len && !isspace((unsigned char)text[i]) && text[i] != '#') {
                if (n + 1 < sizeof value)
                    value[n++] = text[i];
                i++;
            }
        }
        value[n] = 0;
        if (!n) {
            sb_clear(&cfg->err);
            sb_printf(&cfg->err, "%s%s: missing value", where, word);
            return LOCKSTEP_ERROR_INVALID_CONFIG;
        }
        size_t ri = (size_t)(r - rows);
        char before[1024] = "", after[1024] = "";
        if (seen[ri])
            lockstep_config_get(cfg, word, before, sizeof before);
        lockstep_status st = set_row(cfg, r, value, where);
        if (st != LOCKSTEP_SUCCESS)
            return st;
        if (seen[ri]) {
            lockstep_config_get(cfg, word, after, sizeof after);
            if (strcmp(before, after)) {
                sb_clear(&cfg->err);
                sb_printf(&cfg->err,
                          "%s%s given again, as '%s', after '%s' on line %u: remove one of the two",
                          where, r->info.name, after, before, seen[ri]);
                return LOCKSTEP_ERROR_INVALID_CONFIG;
            }
        } else {
            seen[ri] = line;
        }
    }
    return LOCKSTEP_SUCCESS;
}

lockstep_status lockstep_config_load_file(lockstep_config *cfg, const char *path)
{
    if (!cfg || !path)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    strbuf text = STRBUF_INIT;
    int rc = sb_read_file(&text, path, SB_MAX_CONFIG);
    if (rc) {
        int err = errno;
        sb_free(&text);
        sb_clear(&cfg->err);
        if (rc == -2) {
            sb_printf(&cfg->err, "%s: out of host memory", path);
            return LOCKSTEP_ERROR_OUT_OF_MEMORY;
        }
        if (rc == -3) {
            sb_printf(&cfg->err, "%s: more than %u MiB: not a configuration file", path,
                      SB_MAX_CONFIG >> 20);
            return LOCKSTEP_ERROR_INVALID_CONFIG;
        }
        sb_printf(&cfg->err, "%s: cannot open: %s", path, strerror(err));
        return LOCKSTEP_ERROR_IO;
    }
    lockstep_status st = lockstep_config_parse(cfg, sb_cstr(&text), text.len, path);
    sb_free(&text);
    return st;
}

uint32_t config_threads_per_sm(const lockstep_config *cfg)
{
    unsigned threads = 1536, warp = 32;
    if (cfg->core_pipeline)
        sscanf(cfg->core_pipeline, "%u:%u", &threads, &warp);
    return threads;
}

uint32_t config_occupancy_regs(const lockstep_config *cfg, uint32_t kernel_regs)
{
    if (cfg->regs_per_thread)
        return cfg->regs_per_thread;
    return kernel_regs > 32 ? 32 : kernel_regs;
}

uint32_t config_cta_occupancy(const lockstep_config *cfg, uint32_t threads, uint32_t regs,
                              uint32_t shared)
{
    uint32_t lanes = (threads + 31) / 32 * 32, n = cfg->shader_cta;
    if (!lanes)
        return 0;
    uint32_t by_threads = config_threads_per_sm(cfg) / lanes;
    n = n < by_threads ? n : by_threads;
    if (regs) {
        uint64_t by_regs = cfg->shader_registers / ((uint64_t)regs * lanes);
        n = n < by_regs ? n : (uint32_t)by_regs;
    }
    if (shared) {
        uint32_t by_shared = cfg->shmem_size / shared;
        n = n < by_shared ? n : by_shared;
    }
    return n;
}

/* "a,b,c,d,e": five unsigned numbers. */
static int parse_list5(const char *v, uint32_t out[5])
{
    for (int i = 0; i < 5; i++) {
        char *end;
        if (!isdigit((unsigned char)*v))
            return -1;
        errno = 0;
        unsigned long x = strtoul(v, &end, 10);
        if (errno || x == 0 || x > 1000000)
            return -1;
        out[i] = (uint32_t)x;
        v = end;
        if (i < 4) {
            if (*v != ',')
                return -1;
            v++;
        }
    }
    return *v ? -1 : 0;
}

void config_list5(const char *value, uint32_t out[5])
{
    if (!value || parse_list5(value, out))
        for (int i = 0; i < 5; i++)
            out[i] = 1;
}

/* "core:icnt:l2:dram" in MHz. */
static int parse_clocks(const char *v, double mhz[4])
{
    for (int i = 0; i < 4; i++) {
        char *end;
        errno = 0;
        double x = strtod(v, &end);
        if (end == v || errno || !(x >= 1.0 && x <= 100000.0))
            return -1;
        mhz[i] = x;
        v = end;
        if (i < 3) {
            if (*v != ':')
                return -1;
            v++;
        }
    }
    return *v ? -1 : 0;
}

void config_clocks(const lockstep_config *cfg, double mhz[4])
{
    if (!cfg->clock_domains || parse_clocks(cfg->clock_domains, mhz))
        mhz[0] = mhz[1] = mhz[2] = mhz[3] = 1000.0;
}

const char *const config_fault_site_names[FSITE_COUNT] = {
#define X(e, s) s,
    LOCKSTEP_FAULT_SITES(X)
#undef X
};
const char *const config_fault_model_names[FMODEL_COUNT] = {
#define X(e, s) s,
    LOCKSTEP_FAULT_MODELS(X)
#undef X
};

int config_fault_site(const char *name)
{
    for (int i = 0; i < FSITE_COUNT; i++)
        if (!strcmp(name, config_fault_site_names[i]))
            return i;
    return -1;
}

int config_fault_site_timing_only(int site)
{
    return site == FSITE_L1D || site == FSITE_L2D || site == FSITE_L1TAG || site == FSITE_L2TAG ||
           site == FSITE_DMR_LOG;
}

int config_fault_model(const char *name)
{
    for (int i = 0; i < FMODEL_COUNT; i++)
        if (!strcmp(name, config_fault_model_names[i]))
            return i;
    return -1;
}

/* "expected a, b, ... or z" from a name table into err. */
static void expected_one_of(const char *const *names, int n, char *err, size_t errlen)
{
    size_t len = (size_t)snprintf(err, errlen, "expected");
    for (int i = 0; i < n && len < errlen; i++)
        len += (size_t)snprintf(err + len, errlen - len, "%s %s", i == 0 ? "" : i == n - 1 ? " or" : ",",
                                names[i]);
}

int config_check_string(const char *name, const char *value, char *err, size_t errlen)
{
    err[0] = 0;
    if (!strcmp(name, "-lockstep_fault_site")) {
        if (config_fault_site(value) < 0) {
            expected_one_of(config_fault_site_names, FSITE_COUNT, err, errlen);
            return -1;
        }
        return 0;
    }
    if (!strcmp(name, "-lockstep_fault_model")) {
        if (config_fault_model(value) < 0) {
            expected_one_of(config_fault_model_names, FMODEL_COUNT, err, errlen);
            return -1;
        }
        return 0;
    }
    if (!strcmp(name, "-lockstep_mode")) {
        if (strcmp(value, "timing") && strcmp(value, "functional")) {
            snprintf(err, errlen, "expected timing or functional");
            return -1;
        }
    } else if (!strcmp(name, "-lockstep_det")) {
        if (strcmp(value, "none") && strcmp(value, "gpudet") && strcmp(value, "dab")) {
            snprintf(err, errlen, "expected none, gpudet or dab");
            return -1;
        }
    } else if (!strcmp(name, "-lockstep_redundancy")) {
        if (strcmp(value, "none") && strcmp(value, "dmr")) {
            snprintf(err, errlen, "expected none or dmr");
            return -1;
        }
    } else if (!strcmp(name, "-dmr_pair")) {
        if (strcmp(value, "sm") && strcmp(value, "slot") && strcmp(value, "core")) {
            snprintf(err, errlen,
                     "expected sm (copies on different SMs), slot (any two slots) or core "
                     "(both on one SM)");
            return -1;
        }
    } else if (!strcmp(name, "-dab_level")) {
        if (strcmp(value, "sched") && strcmp(value, "warp")) {
            snprintf(err, errlen, "expected sched (a buffer per warp scheduler) or warp");
            return -1;
        }
    } else if (!strcmp(name, "-dab_scheduler")) {
        if (strcmp(value, "srr") && strcmp(value, "gtrr") && strcmp(value, "gtar") &&
            strcmp(value, "gwat")) {
            snprintf(err, errlen, "expected srr, gtrr, gtar or gwat");
            return -1;
        }
    } else if (!strcmp(name, "-gpudet_commit")) {
        if (strcmp(value, "zbuffer") && strcmp(value, "lock")) {
            snprintf(err, errlen, "expected zbuffer or lock");
            return -1;
        }
    } else if (!strcmp(name, "-gpudet_serial")) {
        if (strcmp(value, "cu") && strcmp(value, "warp")) {
            snprintf(err, errlen, "expected cu (CU-Ser) or warp (W-Ser)");
            return -1;
        }
    } else if (!strcmp(name, "-gpgpu_clock_domains")) {
        double mhz[4];
        if (parse_clocks(value, mhz)) {
            snprintf(err, errlen, "expected CORE:ICNT:L2:DRAM in MHz, each 1 to 100000");
            return -1;
        }
    } else if (!strncmp(name, "-ptx_opcode_", 12) && strcmp(name, "-ptx_opcode_latency_sfu") &&
               strcmp(name, "-ptx_opcode_initiation_sfu")) {
        uint32_t v[5];
        if (parse_list5(value, v)) {
            snprintf(err, errlen, "expected five cycle counts ADD,MAX,MUL,MAD,DIV, each 1 to 1000000");
            return -1;
        }
    } else if (!strcmp(name, "-gpgpu_scheduler")) {
        unsigned n;
        char extra;
        if (strcmp(value, "lrr") && strcmp(value, "gto") &&
            !(sscanf(value, "two_level_active:%u%c", &n, &extra) == 1 && n >= 1 && n <= 64)) {
            snprintf(err, errlen, "expected lrr, gto or two_level_active:N with N from 1 to 64");
            return -1;
        }
    } else if (!strncmp(name, "-gpgpu_cache:", 13) || !strcmp(name, "-gpgpu_const_cache:l1") ||
               !strcmp(name, "-gpgpu_tex_cache:l1")) {
        if (!strcmp(name, "-gpgpu_cache:dl1") && !strcmp(value, "none"))
            return 0;
        cache_config c;
        if (cache_config_parse(value, &c, err, errlen))
            return -1;
        if (strcmp(name, "-gpgpu_const_cache:l1")) {
            /* the data caches of the timing model: 128-byte lines (the
             * coalescer's unit) and at least one MSHR, or no miss could
             * ever be sent */
            if (c.line_bytes != 128) {
                snprintf(err, errlen, "lockstep models 128-byte data-cache lines, not %u",
                         c.line_bytes);
                return -1;
            }
            if (!c.mshr_entries || !c.mshr_max_merge || !c.miss_queue) {
                snprintf(err, errlen,
                         "MSHR entries, MSHR merges and the miss queue must each be at least 1 "
                         "(with %s, no miss could be sent)",
                         !c.mshr_entries ? "0 MSHRs" : !c.mshr_max_merge ? "0 merges"
                                                                          : "a 0-entry miss queue");
                return -1;
            }
        }
    } else if (!strcmp(name, "-gpgpu_dram_timing_opt")) {
        dram_config d;
        dram_config_default(&d);
        if (dram_timing_parse(value, &d, err, errlen))
            return -1;
    }
    return 0;
}

int config_dram(const lockstep_config *cfg, dram_config *d, char *err, size_t errlen)
{
    dram_config_default(d);
    char msg[200];
    if (dram_timing_parse(cfg->dram_timing, d, msg, sizeof msg)) {
        snprintf(err, errlen, "-gpgpu_dram_timing_opt: %s", msg);
        return -1;
    }
    d->burst_length = cfg->dram_burst;
    d->bus_width = cfg->dram_buswidth;
    d->chips = cfg->dram_chips;
    d->queue_size = cfg->dram_queue;
    d->scheduler = cfg->dram_sched;
    d->tREFI = cfg->dram_refi;
    d->tRFC = cfg->dram_rfc;
    d->jitter = cfg->nondet ? cfg->dram_jitter : 0;
    d->seeded_phase = cfg->nondet && cfg->dram_phase;
    if (dram_config_check(d, msg, sizeof msg)) {
        if (d->tREFI && d->tRFC >= d->tREFI)
            snprintf(err, errlen,
                     "-lockstep_dram_tRFC %u must be less than -lockstep_dram_tREFI %u (a refresh "
                     "must end before the next one is due)",
                     d->tRFC, d->tREFI);
        else
            snprintf(err, errlen, "DRAM options: %s", msg);
        return -1;
    }
    return 0;
}

/* Checks that involve more than one option, or the model's limits: what
 * passes here builds a GPU that can run a launch. */
lockstep_status lockstep_config_validate(lockstep_config *cfg)
{
    if (!cfg)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    char msg[300];
    dram_config d;
    const char *what = NULL;
    if (config_dram(cfg, &d, msg, sizeof msg))
        what = msg;
    else if (cfg->partition_chunk & (cfg->partition_chunk - 1) || cfg->partition_chunk < 128) {
        snprintf(msg, sizeof msg,
                 "-lockstep_partition_chunk %u: must be a power of two of at least 128 (a cache "
                 "line belongs to one partition)",
                 cfg->partition_chunk);
        what = msg;
    } else if ((uint64_t)cfg->n_clusters * cfg->cores_per_cluster > CONFIG_MAX_SMS) {
        snprintf(msg, sizeof msg,
                 "-gpgpu_n_clusters %u x -gpgpu_n_cores_per_cluster %u = %llu SMs: lockstep models "
                 "at most %u (each SM's state is built before the first launch)",
                 cfg->n_clusters, cfg->cores_per_cluster,
                 (unsigned long long)cfg->n_clusters * cfg->cores_per_cluster, CONFIG_MAX_SMS);
        what = msg;
    } else if (config_threads_per_sm(cfg) / 32 * 32 != config_threads_per_sm(cfg)) {
        what = "-gpgpu_shader_core_pipeline: threads per SM must be a multiple of 32";
    } else if (strcmp(cfg->det, "none") && strcmp(cfg->mode, "timing")) {
        snprintf(msg, sizeof msg,
                 "-lockstep_det %s runs on the timing model (-lockstep_mode timing); functional "
                 "mode is deterministic by itself", cfg->det);
        what = msg;
    } else if (strcmp(cfg->redundancy, "none") && strcmp(cfg->mode, "timing")) {
        snprintf(msg, sizeof msg,
                 "-lockstep_redundancy %s runs on the timing model (-lockstep_mode timing): the "
                 "comparator sits at the memory partitions", cfg->redundancy);
        what = msg;
    } else if (cfg->dmr_flip_line && strcmp(cfg->redundancy, "dmr")) {
        what = "-dmr_flip_line is a test knob of DMR: it needs -lockstep_redundancy dmr";
    } else if (cfg->dmr_flip_load && (strcmp(cfg->redundancy, "dmr") || !cfg->dmr_load_values)) {
        what = "-dmr_flip_load is a test knob of DMR's load-value replication: it needs "
               "-lockstep_redundancy dmr and -dmr_load_values 1";
    } else if (cfg->dmr_load_values && strcmp(cfg->redundancy, "dmr")) {
        what = "-dmr_load_values 1 replicates load values between DMR's copies: it needs "
               "-lockstep_redundancy dmr";
    } else if (strcmp(cfg->redundancy, "none") && strcmp(cfg->det, "none")) {
        snprintf(msg, sizeof msg,
                 "-lockstep_redundancy %s cannot be combined with -lockstep_det %s (both hold "
                 "back global writes; run them separately)", cfg->redundancy, cfg->det);
        what = msg;
    } else if (config_fault_site(cfg->fault_site) == FSITE_DMR_LOG &&
               strcmp(cfg->redundancy, "dmr")) {
        what = "-lockstep_fault_site dmr_log corrupts DMR's comparator log: it needs "
               "-lockstep_redundancy dmr";
    } else if (config_fault_site_timing_only(config_fault_site(cfg->fault_site)) &&
               strcmp(cfg->mode, "timing")) {
        snprintf(msg, sizeof msg,
                 "-lockstep_fault_site %s corrupts a cache of the timing model; it needs "
                 "-lockstep_mode timing", cfg->fault_site);
        what = msg;
    } else if (cfg->ace && config_fault_site(cfg->fault_site) > FSITE_NONE) {
        snprintf(msg, sizeof msg,
                 "-lockstep_ace 1 analyses the golden run; it cannot be combined with "
                 "-lockstep_fault_site %s (run them separately)", cfg->fault_site);
        what = msg;
    } else if (cfg->gpudet_bloom % 128 && cfg->gpudet_bloom != 0) {
        snprintf(msg, sizeof msg,
                 "-gpudet_bloom_bits %u: give a multiple of 128 from 128 to 1024, or 0 (ideal)",
                 cfg->gpudet_bloom);
        what = msg;
    }
    if (!what)
        return LOCKSTEP_SUCCESS;
    sb_clear(&cfg->err);
    sb_printf(&cfg->err, "invalid configuration: %s", what);
    return LOCKSTEP_ERROR_INVALID_CONFIG;
}
