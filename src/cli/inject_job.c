/*
 * inject_job.c -- faults, command lines, reports and outcomes for
 * `lockstep inject` (inject_job.h).  The report reader is a small JSON
 * reader for one object: it takes the fields the classification needs and
 * steps over everything else (nested values included), so the injector
 * may add fields freely.
 */
#define _GNU_SOURCE /* getline */
#include "cli/inject_job.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "lockstep.h"

const char *const inj_sites[] = {"reg_live", "reg_any", "pred", "insn_out", "alu",
                                 "shared",   "local",   "dram", "simt",     "l1d",
                                 "l2d",      "l1tag",   "l2tag", "ibuf",     "dmr_log",
                                 NULL};
const char *const inj_models[] = {"bit1", "bit2", "random", "zero", NULL};

static const char *const outcome_names[INJ_NOUTCOMES] = {
    "masked", "sdc", "due", "hang", "perf", "error", "corrected", "detected"};

const inj_outcome inj_outcome_order[INJ_NOUTCOMES] = {
    INJ_MASKED, INJ_SDC, INJ_DUE, INJ_HANG, INJ_PERF, INJ_CORRECTED, INJ_DETECTED, INJ_ERROR};

const char *inj_outcome_name(inj_outcome o)
{
    return (unsigned)o < INJ_NOUTCOMES ? outcome_names[o] : "?";
}

int inj_parse_list(const char *arg, const char *const *known, int *out, int max, char *bad,
                   size_t badlen)
{
    int n = 0;
    if (!strcmp(arg, "all")) {
        for (int k = 0; known[k] && n < max; k++)
            out[n++] = k;
        return n;
    }
    const char *p = arg;
    for (;;) {
        size_t len = strcspn(p, ",");
        int found = -1;
        for (int k = 0; known[k]; k++)
            if (strlen(known[k]) == len && !strncmp(known[k], p, len))
                found = k;
        for (int j = 0; j < n && found >= 0; j++)
            if (out[j] == found)
                found = -2; /* named twice */
        if (found < 0 || n == max) {
            snprintf(bad, badlen, "%.*s", (int)len, p);
            return -1;
        }
        out[n++] = found;
        if (!p[len])
            break;
        p += len + 1;
    }
    return n;
}

inj_fault inj_fault_for(const inj_space *sp, uint64_t index)
{
    campaign_job job = campaign_job_make(sp->seed, index);
    rng r;
    campaign_job_rng(&job, &r);
    inj_fault f;
    f.index = index;
    f.job_seed = job.seed;
    f.site = inj_sites[sp->sites[index % (uint64_t)sp->nsites]];
    f.model = inj_models[sp->models[(index / (uint64_t)sp->nsites) % (uint64_t)sp->nmodels]];
    f.at = campaign_uniform(&r, sp->total);
    f.fault_seed = rng_next(&r) >> 1; /* 63 bits, like every seed we store */
    return f;
}

/* argv[n++] = "-NAME VALUE" after a "-O", the string kept in owned. */
static int add_O(char **argv, int *n, int max, char ***owned, int *nowned, const char *name,
                 const char *value)
{
    if (*n + 2 >= max)
        return -1;
    size_t len = strlen(name) + strlen(value) + 2;
    char *s = malloc(len);
    char **o = realloc(*owned, (size_t)(*nowned + 1) * sizeof *o);
    if (!s || !o) {
        free(s);
        if (o)
            *owned = o;
        return -1;
    }
    *owned = o;
    snprintf(s, len, "%s %s", name, value);
    o[(*nowned)++] = s;
    argv[(*n)++] = "-O";
    argv[(*n)++] = s;
    return 0;
}

int inj_build_argv(char **argv, int max, char *const *run_opts, int nrun_opts,
                   const inj_fault *f, uint64_t bound, int functional, char *const *prog,
                   int nprog, char ***owned, int *nowned)
{
    int n = 0;
    *owned = NULL;
    *nowned = 0;
    if (max < nrun_opts + nprog + 16)
        return -1;
    argv[n++] = "lockstep";
    argv[n++] = "run";
    for (int k = 0; k < nrun_opts; k++)
        argv[n++] = run_opts[k];
    argv[n++] = "--no-stats";
    argv[n++] = "--no-progress";
    char at[24], seed[24], b[24];
    int bad = 0;
    if (!f) {
        bad |= add_O(argv, &n, max, owned, nowned, INJ_OPT_SITE, "none");
        bad |= add_O(argv, &n, max, owned, nowned, INJ_OPT_ACE, "1");
    } else {
        snprintf(at, sizeof at, "%" PRIu64, f->at);
        snprintf(seed, sizeof seed, "%" PRIu64, f->fault_seed);
        bad |= add_O(argv, &n, max, owned, nowned, INJ_OPT_SITE, f->site);
        bad |= add_O(argv, &n, max, owned, nowned, INJ_OPT_MODEL, f->model);
        bad |= add_O(argv, &n, max, owned, nowned, INJ_OPT_AT, at);
        bad |= add_O(argv, &n, max, owned, nowned, INJ_OPT_SEED, seed);
    }
    if (bound) {
        snprintf(b, sizeof b, "%" PRIu64, bound);
        bad |= add_O(argv, &n, max, owned, nowned, functional ? INJ_OPT_BOUND_INSTS : INJ_OPT_BOUND,
                     b);
    }
    if (bad) {
        inj_argv_free(*owned, *nowned);
        *owned = NULL;
        *nowned = 0;
        return -1;
    }
    argv[n++] = "--";
    for (int k = 0; k < nprog; k++)
        argv[n++] = prog[k];
    argv[n] = NULL;
    return n;
}

void inj_argv_free(char **owned, int nowned)
{
    for (int k = 0; k < nowned; k++)
        free(owned[k]);
    free(owned);
}

/* ---- the report line ------------------------------------------------------------------- */

static void skip_ws(const char **p)
{
    while (**p == ' ' || **p == '\t' || **p == '\r' || **p == '\n')
        (*p)++;
}

/* string := '"' chars '"'; into out (truncated), 0 or -1 */
static int json_string(const char **p, char *out, size_t n)
{
    const char *s = *p;
    size_t k = 0;
    if (*s++ != '"')
        return -1;
    while (*s && *s != '"') {
        char c = *s++;
        if (c == '\\') {
            c = *s++;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u':
                for (int i = 0; i < 4; i++)
                    if (!isxdigit((unsigned char)*s++))
                        return -1;
                c = '?';
                break;
            case '"': case '\\': case '/': break;
            default: return -1;
            }
        } else if ((unsigned char)c < 0x20) {
            return -1;
        }
        if (out && k + 1 < n)
            out[k++] = c;
    }
    if (*s != '"')
        return -1;
    if (out && n)
        out[k] = 0;
    *p = s + 1;
    return 0;
}

/* number := '-'? digits ('.' digits)? ([eE] [+-]? digits)?; its integer part */
static int json_number(const char **p, int64_t *v)
{
    const char *s = *p;
    int neg = *s == '-';
    s += neg;
    if (!isdigit((unsigned char)*s))
        return -1;
    uint64_t x = 0;
    while (isdigit((unsigned char)*s)) {
        unsigned d = (unsigned)(*s++ - '0');
        x = x > (UINT64_MAX - d) / 10 ? UINT64_MAX : x * 10 + d;
    }
    if (*s == '.') {
        s++;
        if (!isdigit((unsigned char)*s))
            return -1;
        while (isdigit((unsigned char)*s))
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        s += *s == '+' || *s == '-';
        if (!isdigit((unsigned char)*s))
            return -1;
        while (isdigit((unsigned char)*s))
            s++;
    }
    if (x > INT64_MAX)
        x = INT64_MAX;
    *v = neg ? -(int64_t)x : (int64_t)x;
    *p = s;
    return 0;
}

/* value := string | number | object | array | true | false | null */
static int json_skip(const char **p, int depth)
{
    skip_ws(p);
    const char *s = *p;
    int64_t v;
    if (depth > 32)
        return -1;
    if (*s == '"')
        return json_string(p, NULL, 0);
    if (*s == '-' || isdigit((unsigned char)*s))
        return json_number(p, &v);
    static const char *const words[] = {"true", "false", "null"};
    for (int k = 0; k < 3; k++)
        if (!strncmp(s, words[k], strlen(words[k]))) {
            *p = s + strlen(words[k]);
            return 0;
        }
    if (*s != '[' && *s != '{')
        return -1;
    char close = *s == '[' ? ']' : '}';
    *p = s + 1;
    skip_ws(p);
    if (**p == close) {
        (*p)++;
        return 0;
    }
    for (;;) {
        if (close == '}') {
            skip_ws(p);
            if (json_string(p, NULL, 0))
                return -1;
            skip_ws(p);
            if (*(*p)++ != ':')
                return -1;
        }
        if (json_skip(p, depth + 1))
            return -1;
        skip_ws(p);
        if (**p == ',') {
            (*p)++;
            continue;
        }
        if (**p != close)
            return -1;
        (*p)++;
        return 0;
    }
}

static void report_clear(inj_report *r)
{
    memset(r, 0, sizeof *r);
    r->landed = -1;
    r->cycle = r->warp_inst = r->total_cycles = r->total_warp_insts = -1;
    r->dmr_mismatches = r->dmr_reissues = -1;
}

/* object := '{' (string ':' value (',' string ':' value)*)? '}' */
int inj_report_parse(const char *line, inj_report *r)
{
    report_clear(r);
    const char *p = line;
    skip_ws(&p);
    if (*p++ != '{')
        return -1;
    skip_ws(&p);
    if (*p == '}')
        p++;
    else
        for (;;) {
            char key[64];
            skip_ws(&p);
            if (json_string(&p, key, sizeof key))
                goto bad;
            skip_ws(&p);
            if (*p++ != ':')
                goto bad;
            skip_ws(&p);
            int64_t *num = !strcmp(key, "cycle")              ? &r->cycle
                           : !strcmp(key, "warp_inst")        ? &r->warp_inst
                           : !strcmp(key, "total_cycles")     ? &r->total_cycles
                           : !strcmp(key, "total_warp_insts") ? &r->total_warp_insts
                           : !strcmp(key, "dmr_mismatches")   ? &r->dmr_mismatches
                           : !strcmp(key, "dmr_reissues")     ? &r->dmr_reissues
                                                              : NULL;
            char *str = !strcmp(key, "site")         ? r->site
                        : !strcmp(key, "model")      ? r->model
                        : !strcmp(key, "redundancy") ? r->redundancy
                                                     : NULL;
            size_t strn = !strcmp(key, "site")    ? sizeof r->site
                          : !strcmp(key, "model") ? sizeof r->model
                                                  : sizeof r->redundancy;
            if (num && (*p == '-' || isdigit((unsigned char)*p))) {
                if (json_number(&p, num))
                    goto bad;
            } else if (str && *p == '"') {
                if (json_string(&p, str, strn))
                    goto bad;
            } else if (!strcmp(key, "landed") && !strncmp(p, "true", 4)) {
                r->landed = 1;
                p += 4;
            } else if (!strcmp(key, "landed") && !strncmp(p, "false", 5)) {
                r->landed = 0;
                p += 5;
            } else if (!strcmp(key, "landed") && (*p == '-' || isdigit((unsigned char)*p))) {
                int64_t v;
                if (json_number(&p, &v))
                    goto bad;
                r->landed = v != 0;
            } else if (json_skip(&p, 0)) {
                goto bad;
            }
            skip_ws(&p);
            if (*p == ',') {
                p++;
                continue;
            }
            if (*p++ != '}')
                goto bad;
            break;
        }
    skip_ws(&p);
    if (*p)
        goto bad;
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        n--;
    r->json = strndup(line, n);
    if (!r->json)
        goto bad;
    r->valid = 1;
    return 0;
bad:
    report_clear(r);
    return -1;
}

int inj_report_read(const char *path, inj_report *r)
{
    report_clear(r);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    int rc = getline(&line, &cap, f) > 0 ? inj_report_parse(line, r) : -1;
    free(line);
    fclose(f);
    return rc;
}

void inj_report_free(inj_report *r)
{
    free(r->json);
    r->json = NULL;
}

/* ---- the ACE estimate ------------------------------------------------------------------- */

const char *const inj_ace_structs[INJ_ACE_N] = {"reg", "pred", "shared"};
const char *const inj_ace_sites[INJ_ACE_N] = {"reg_any", "pred", "shared"};

/* The number after "key": at or after p and before end, or -1 if absent. */
static double ace_num(const char *p, const char *end, const char *key)
{
    char pat[48];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *q = strstr(p, pat);
    if (!q || q >= end)
        return -1;
    return strtod(q + strlen(pat), NULL);
}

int inj_ace_parse(const char *line, inj_ace *a)
{
    memset(a, 0, sizeof *a);
    const char *p = line ? strstr(line, "\"ace\":{") : NULL;
    if (!p)
        return -1;
    a->valid = 1;
    a->functional = strstr(p, "\"time_base\":\"warp_insts\"") != NULL;
    for (int k = 0; k < INJ_ACE_N; k++) {
        char pat[32];
        snprintf(pat, sizeof pat, "\"%s\":{", inj_ace_structs[k]);
        const char *q = strstr(p, pat);
        const char *end = q ? strchr(q, '}') : NULL;
        if (!q || !end)
            continue;
        a->has[k] = 1;
        a->avf_alloc[k] = ace_num(q, end, "avf_allocated");
        a->avf_cfg[k] = ace_num(q, end, "avf_configured");
    }
    return 0;
}

/* ---- classification ------------------------------------------------------------------- */

void inj_run_facts(const run_rec *rec, int have_record, const inj_report *rep, inj_run *out)
{
    memset(out, 0, sizeof *out);
    out->have_record = have_record;
    out->exit_status = rec->exit_status;
    out->cycles = out->warp_insts = -1;
    out->dmr_mismatches = out->dmr_reissues = -1;
    if (have_record) {
        out->ended = rec->ended;
        uint64_t sum = 0;
        for (size_t k = 0; k < rec->nlaunches; k++) {
            out->launch_faults += rec->launches[k].status != 0;
            out->redundancy_faults += rec->launches[k].status == LOCKSTEP_ERROR_REDUNDANCY;
            sum += rec->launches[k].cycles;
        }
        out->output_hash = runrec_output_hash(rec);
        if (sum)
            out->cycles = (int64_t)sum;
    }
    if (rep && rep->valid) {
        if (rep->total_cycles >= 0)
            out->cycles = rep->total_cycles;
        if (rep->total_warp_insts >= 0)
            out->warp_insts = rep->total_warp_insts;
        out->dmr_mismatches = rep->dmr_mismatches;
        out->dmr_reissues = rep->dmr_reissues;
    }
}

inj_outcome inj_classify(const inj_golden *g, const inj_run *r, uint64_t bound)
{
    if (!r->have_record)
        return INJ_ERROR;
    /* redundancy's own verdict first: whatever the program did after it */
    if (r->redundancy_faults)
        return INJ_DETECTED;
    int64_t measure = g->functional ? r->warp_insts : r->cycles;
    int64_t gmeasure = g->functional ? g->warp_insts : g->cycles;
    if (bound && measure >= 0 && (uint64_t)measure >= bound)
        return INJ_HANG;
    if (r->exit_status != 0 || !r->ended || r->launch_faults)
        return INJ_DUE;
    if (r->output_hash != g->output_hash)
        return INJ_SDC;
    if (r->dmr_mismatches > 0)
        return INJ_CORRECTED;
    if (measure < 0 || gmeasure < 0 || measure == gmeasure)
        return INJ_MASKED;
    return INJ_PERF;
}

void inj_json_str(strbuf *sb, const char *s)
{
    sb_putc(sb, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sb_printf(sb, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            sb_printf(sb, "\\u%04x", (unsigned)(unsigned char)*s);
        else
            sb_putc(sb, *s);
    }
    sb_putc(sb, '"');
}
