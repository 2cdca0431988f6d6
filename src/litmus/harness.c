/*
 * harness.c -- running a litmus test on the timing model and collecting
 * its histogram (harness.h).
 *
 * One device (made from the user's configuration, forced to timing mode,
 * with the nondeterminism seed --seed) runs the harness kernel once per
 * iteration; each launch continues every component's seeded stream, so
 * iterations differ and the whole run is reproducible.  The placement
 * stream (place.c) is separate (--place-seed), so a placement can be kept
 * while the hardware's nondeterminism varies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "litmus/harness.h"
#include "litmus/place.h"
#include "util/hash.h"

void lit_opts_default(lit_opts *o)
{
    memset(o, 0, sizeof *o);
    o->iterations = 100;
    o->warps = 8;
    o->stride = 16;
    o->stress_iters = 32;
    o->stress_lines = 4096;
    o->stress_stride = 0; /* partitions x interleave (lit_stress_stride) */
    o->sc_check = 1;
}

static const struct {
    const char *name;
    unsigned bit;
} incants[] = {
    {"bank", LIT_INC_BANK}, {"stress", LIT_INC_STRESS}, {"random", LIT_INC_RANDOM}, {"sync", LIT_INC_SYNC},
};
#define NINCANTS (sizeof incants / sizeof incants[0])

/* Measured on the GTX 480 config, every incantation on: 23 K cycles a
 * launch with 32 stress trips, 177 K with 256, 736 K with 1024 (~720 a
 * trip).  The limit leaves about 10x room over that. */
#define LIT_BASE_CYCLES UINT64_C(2000000)
#define LIT_CYCLES_PER_TRIP UINT64_C(8000)

uint64_t lit_max_cycles(const lit_opts *o)
{
    return LIT_BASE_CYCLES + (uint64_t)o->stress_iters * LIT_CYCLES_PER_TRIP;
}

int lit_parse_incantations(const char *s, unsigned *out, strbuf *err)
{
    *out = 0;
    if (!strcmp(s, "all")) {
        *out = LIT_INC_BANK | LIT_INC_STRESS | LIT_INC_RANDOM | LIT_INC_SYNC;
        return 0;
    }
    if (!strcmp(s, "none") || !*s)
        return 0;
    const char *p = s;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        size_t i;
        for (i = 0; i < NINCANTS; i++)
            if (strlen(incants[i].name) == n && !strncmp(incants[i].name, p, n))
                break;
        if (i == NINCANTS) {
            sb_printf(err, "unknown incantation '%.*s' (bank, stress, random, sync, all, none)",
                      (int)n, p);
            return -1;
        }
        *out |= incants[i].bit;
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

void lit_incantations_name(strbuf *sb, unsigned inc)
{
    int any = 0;
    for (size_t i = 0; i < NINCANTS; i++)
        if (inc & incants[i].bit) {
            sb_printf(sb, "%s%s", any ? "," : "", incants[i].name);
            any = 1;
        }
    if (!any)
        sb_puts(sb, "none");
}

void lit_histo_free(lit_histo *h)
{
    free(h->vals);
    free(h->count);
    lit_outcomes_free(&h->sc);
    memset(h, 0, sizeof *h);
}

static int row_cmp_w;
static int row_cmp(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    for (int i = 0; i < row_cmp_w; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

void lit_histo_sort(lit_histo *h)
{
    /* sort (row, count) pairs by row: pack the count after each row */
    int w = h->width + 1;
    int64_t *tmp = malloc(sizeof(int64_t) * (size_t)(h->n ? h->n : 1) * (size_t)w);
    if (!tmp)
        return;
    for (int i = 0; i < h->n; i++) {
        memcpy(&tmp[(size_t)i * (size_t)w], &h->vals[(size_t)i * (size_t)h->width],
               sizeof(int64_t) * (size_t)h->width);
        tmp[(size_t)i * (size_t)w + (size_t)h->width] = (int64_t)h->count[i];
    }
    row_cmp_w = h->width;
    qsort(tmp, (size_t)h->n, sizeof(int64_t) * (size_t)w, row_cmp);
    for (int i = 0; i < h->n; i++) {
        memcpy(&h->vals[(size_t)i * (size_t)h->width], &tmp[(size_t)i * (size_t)w],
               sizeof(int64_t) * (size_t)h->width);
        h->count[i] = (uint64_t)tmp[(size_t)i * (size_t)w + (size_t)h->width];
    }
    free(tmp);
}

int lit_histo_is_sc(const lit_histo *h, int i)
{
    return h->sc_known && lit_outcomes_has(&h->sc, &h->vals[(size_t)i * (size_t)h->width]);
}

static int histo_add(lit_histo *h, const int64_t *v)
{
    size_t w = (size_t)h->width;
    for (int i = 0; i < h->n; i++)
        if (!memcmp(&h->vals[(size_t)i * w], v, sizeof(int64_t) * w)) {
            h->count[i]++;
            return 0;
        }
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 16;
        int64_t *nv = realloc(h->vals, sizeof(int64_t) * (size_t)cap * (w ? w : 1));
        if (!nv)
            return -1;
        h->vals = nv;
        uint64_t *nc = realloc(h->count, sizeof(uint64_t) * (size_t)cap);
        if (!nc)
            return -1;
        h->count = nc;
        h->cap = cap;
    }
    memcpy(&h->vals[(size_t)h->n * w], v, sizeof(int64_t) * w);
    h->count[h->n++] = 1;
    return 0;
}

/* The test's shape for place.c. */
static void shape_of(const lit_test *t, lp_test *p)
{
    memset(p, 0, sizeof *p);
    p->nthreads = t->nthreads;
    p->nctas = t->nctas;
    p->nwarps = t->nwarps;
    p->nlocs = t->nlocs;
    for (int k = 0; k < t->nthreads; k++) {
        p->thread_cta[k] = t->threads[k].cta;
        p->thread_warp[k] = t->threads[k].warp;
        int m = 0;
        for (int i = 0; i < t->threads[k].ninsns && m < LP_MAX_MEM; i++) {
            lit_op op = t->threads[k].code[i].op;
            if (op == LIT_LD || op == LIT_ST || op == LIT_ATOM || op == LIT_RED)
                p->mem_load[k][m++] = op == LIT_LD;
        }
        p->nmem[k] = m;
    }
    for (int l = 0; l < t->nlocs; l++) {
        p->loc_shared[l] = t->locs[l].region == LIT_SHARED;
        int rec = lit_recorder(t, l);
        p->loc_cta[l] = p->loc_shared[l] && rec >= 0 ? t->threads[rec].cta : -1;
        lit_rtype ty = t->locs[l].type;
        p->loc_bytes[l] = ty == LIT_S64 || ty == LIT_U64 || ty == LIT_B64 ? 8 : 4;
    }
    p->loops = lit_has_backward_branch(t);
}

uint32_t lit_stress_stride(const lockstep_config *cfg, uint32_t requested)
{
    if (requested)
        return requested;
    char a[32], b[32];
    unsigned long nmem = 6, chunk = 256;
    if (!lockstep_config_get(cfg, "-gpgpu_n_mem", a, sizeof a) &&
        !lockstep_config_get(cfg, "-lockstep_partition_chunk", b, sizeof b)) {
        nmem = strtoul(a, NULL, 10);
        chunk = strtoul(b, NULL, 10);
    }
    unsigned long s = nmem * chunk;
    return s < 128 || s % 128 || s > UINT32_MAX ? 128u : (uint32_t)s;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint32_t n_sms(const lockstep_config *cfg)
{
    char a[32], b[32];
    if (lockstep_config_get(cfg, "-gpgpu_n_clusters", a, sizeof a) ||
        lockstep_config_get(cfg, "-gpgpu_n_cores_per_cluster", b, sizeof b))
        return 15;
    unsigned long n = strtoul(a, NULL, 10) * strtoul(b, NULL, 10);
    return n ? (uint32_t)n : 1;
}

int lit_run(const lit_test *t, const lockstep_config *ucfg, const lit_opts *o, lit_histo *h,
            strbuf *err)
{
    int rc = -1;
    lockstep_config *cfg = NULL;
    lockstep_device *dev = NULL;
    lockstep_module *mod = NULL;
    lockstep_kernel *kern = NULL;
    strbuf ptx = STRBUF_INIT;
    lp_layout lay = {0};
    uint64_t *dev_addrs = NULL, *res = NULL;
    uint8_t *region = NULL;
    int64_t *vec = NULL;
    lockstep_dptr d_roles = 0, d_addrs = 0, d_res = 0, d_sync = 0, d_acc = 0, d_scratch = 0,
                  d_region = 0;
    memset(h, 0, sizeof *h);
    h->width = t->nobserved;

    lockstep_status st = ucfg ? lockstep_config_copy(ucfg, &cfg) : lockstep_config_create(&cfg);
    if (st)
        goto oom;
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
    if (lockstep_config_set(cfg, "-lockstep_mode", "timing") ||
        lockstep_config_set(cfg, "-lockstep_nondet_seed", seed)) {
        sb_printf(err, "%s", lockstep_config_last_error(cfg));
        goto out;
    }

    lp_test pt;
    shape_of(t, &pt);
    uint32_t sstride = lit_stress_stride(cfg, o->stress_stride);
    lp_opts po = {o->ctas ? o->ctas : n_sms(cfg), o->warps ? o->warps : 8, o->incant, o->stride ? o->stride : 16,
                  o->max_instances, sstride};
    lp_sizes sz;
    char msg[256];
    if (lp_sizes_of(&pt, &po, &sz, msg, sizeof msg)) {
        sb_printf(err, "%s: %s", t->name, msg);
        goto out;
    }
    lit_shape shape = {o->incant, o->stress_iters, o->stress_lines, po.stress_stride, 0, 0, 1};
    shape.smem_dummy = (sz.smem_loc_bytes + 127) & ~127u;
    shape.smem_bytes = shape.smem_dummy + 4096;
    if (lit_kernel_module(t, &shape, &ptx, err))
        goto oom;

    if ((st = lockstep_device_create(cfg, &dev))) {
        sb_printf(err, "cannot create the device: %s", lockstep_status_string(st));
        goto out;
    }
    if ((st = lockstep_module_load_ptx(dev, ptx.s, ptx.len, "<litmus harness>", &mod)) ||
        (st = lockstep_module_get_kernel(mod, "litmus_test", &kern))) {
        sb_printf(err, "%s: internal: the harness kernel does not load: %s", t->name,
                  lockstep_device_last_error(dev));
        goto out;
    }
    size_t nl = (size_t)(t->nlocs ? t->nlocs : 1), nobs = (size_t)(t->nobserved ? t->nobserved : 1);
    uint64_t scratch_bytes = 4096 + 2 * (uint64_t)po.stress_stride +
                             (uint64_t)(o->stress_lines ? o->stress_lines : 1) * po.stress_stride;
    lay.roles = malloc(sizeof(uint32_t) * sz.threads);
    lay.offs = malloc(sizeof(uint64_t) * sz.max_inst * nl);
    lay.acc = malloc(sizeof(uint32_t) * LP_ACC_WORDS);
    lay.scratch_u32 = malloc(sizeof(uint32_t) * (sz.max_inst > po.warps * 32 ? sz.max_inst : po.warps * 32));
    dev_addrs = malloc(sizeof(uint64_t) * sz.max_inst * nl);
    res = malloc(sizeof(uint64_t) * sz.max_inst * nobs);
    region = calloc(1, (size_t)sz.region_bytes);
    vec = malloc(sizeof(int64_t) * nobs);
    if (!lay.roles || !lay.offs || !lay.acc || !lay.scratch_u32 || !dev_addrs || !res || !region || !vec)
        goto oom;
    if (lockstep_malloc(dev, sz.threads * 4u, &d_roles) ||
        lockstep_malloc(dev, sz.max_inst * nl * 8, &d_addrs) ||
        lockstep_malloc(dev, sz.max_inst * nobs * 8, &d_res) ||
        lockstep_malloc(dev, sz.max_inst * 4u, &d_sync) ||
        lockstep_malloc(dev, LP_ACC_WORDS * 4, &d_acc) ||
        lockstep_malloc(dev, scratch_bytes, &d_scratch) ||
        lockstep_malloc(dev, sz.region_bytes, &d_region)) {
        sb_printf(err, "%s: device memory: %s", t->name, lockstep_device_last_error(dev));
        goto out;
    }
    if (o->sc_check) {
        strbuf e2 = STRBUF_INIT;
        int nsc = lit_sc_outcomes(t, 2000000, &h->sc, &e2);
        if (nsc >= 0)
            h->sc_known = 1;
        else if (nsc == -2) { /* the test is wrong: refuse it, do not run it */
            sb_puts(err, sb_cstr(&e2));
            sb_free(&e2);
            goto out;
        }
        sb_free(&e2);
    }

    uint64_t rng = o->place_seed;
    uint64_t digest = HASH_INIT;
    double t0 = now_s();
    for (uint64_t it = 0; it < o->iterations; it++) {
        lp_place(&pt, &po, &sz, &rng, &lay);
        if (!lay.ninst) {
            sb_printf(err, "%s: no instance fits the grid", t->name);
            goto out;
        }
        memset(region, 0, (size_t)sz.region_bytes);
        for (uint32_t i = 0; i < lay.ninst; i++)
            for (int l = 0; l < t->nlocs; l++) {
                uint64_t off = lay.offs[(size_t)i * nl + (size_t)l];
                if (t->locs[l].region == LIT_SHARED) {
                    dev_addrs[(size_t)i * nl + (size_t)l] = off;
                    continue;
                }
                dev_addrs[(size_t)i * nl + (size_t)l] = d_region + off;
                int64_t v = t->locs[l].init;
                memcpy(region + off, &v, pt.loc_bytes[l]); /* little-endian host */
            }
        void *params[6];
        uint64_t pv[6] = {d_roles, d_addrs, d_res, d_sync, d_acc, d_scratch};
        for (int i = 0; i < 6; i++)
            params[i] = &pv[i];
        lockstep_launch_stats ls;
        if (lockstep_memcpy_htod(dev, d_roles, lay.roles, sz.threads * 4u) ||
            lockstep_memcpy_htod(dev, d_addrs, dev_addrs, lay.ninst * nl * 8) ||
            lockstep_memcpy_htod(dev, d_acc, lay.acc, LP_ACC_WORDS * 4) ||
            lockstep_memcpy_htod(dev, d_region, region, sz.region_bytes) ||
            lockstep_memset(dev, d_sync, 0, lay.ninst * 4u) ||
            lockstep_memset(dev, d_res, 0, lay.ninst * nobs * 8)) {
            sb_printf(err, "%s: %s", t->name, lockstep_device_last_error(dev));
            goto out;
        }
        lockstep_dim3 grid = {po.ctas, 1, 1}, block = {po.warps * 32, 1, 1};
        st = lockstep_launch_args(dev, kern, grid, block, 0, params, &ls);
        if (st) {
            sb_printf(err, "%s: iteration %llu: %s", t->name, (unsigned long long)it,
                      lockstep_device_last_error(dev));
            if (st == LOCKSTEP_ERROR_LAUNCH_TIMEOUT) {
                sb_puts(err, "\n  does a thread of the test wait for a value that never comes?");
                if (h->sc_known && h->sc.n == 0)
                    sb_puts(err, " (no interleaving of its threads ends: see --sc)");
                sb_puts(err, "\n  a longer run needs -O \"-lockstep_max_cycles N\"");
            }
            goto out;
        }
        h->cycles += ls.t.cycles;
        h->warp_insts += ls.warp_insts;
        h->icnt_stalls += ls.t.icnt_stalls;
        h->l2_misses += ls.t.l2_misses;
        if (lockstep_memcpy_dtoh(dev, res, d_res, lay.ninst * nobs * 8) ||
            lockstep_memcpy_dtoh(dev, region, d_region, sz.region_bytes)) {
            sb_printf(err, "%s: %s", t->name, lockstep_device_last_error(dev));
            goto out;
        }
        for (uint32_t i = 0; i < lay.ninst; i++) {
            const uint64_t *ia = &dev_addrs[(size_t)i * nl];
            for (int j = 0; j < t->nobserved; j++) {
                lit_item itm = t->observed[j];
                int64_t v;
                if (itm.thread >= 0) {
                    v = (int64_t)res[(size_t)i * nobs + (size_t)j];
                    const lit_reg *rg = &t->threads[itm.thread].regs[itm.index];
                    if (rg->type == LIT_S64 || rg->type == LIT_U64 || rg->type == LIT_B64)
                        for (int l = 0; l < t->nlocs; l++) /* an address: name it */
                            if (t->locs[l].region == LIT_GLOBAL && (uint64_t)v == ia[l])
                                v = (int64_t)lit_loc_addr(l);
                } else if (t->locs[itm.index].region == LIT_SHARED) {
                    v = (int64_t)res[(size_t)i * nobs + (size_t)j];
                } else {
                    int64_t raw = 0;
                    memcpy(&raw, region + lay.offs[(size_t)i * nl + (size_t)itm.index],
                           pt.loc_bytes[itm.index]);
                    v = lit_norm(t->locs[itm.index].type, raw);
                }
                vec[j] = v;
            }
            if (histo_add(h, vec))
                goto oom;
            if (lit_cond_eval(t, vec))
                h->positive++;
            else
                h->negative++;
            digest = hash_bytes(digest, vec, sizeof(int64_t) * nobs);
        }
        h->instances += lay.ninst;
        h->per_launch = lay.ninst;
    }
    h->seconds = now_s() - t0;
    h->digest = hash_final(digest, h->instances);
    lit_histo_sort(h);
    rc = 0;
    goto out;
oom:
    sb_printf(err, "%s: host out of memory", t->name);
out:
    free(lay.roles);
    free(lay.offs);
    free(lay.acc);
    free(lay.scratch_u32);
    free(dev_addrs);
    free(res);
    free(region);
    free(vec);
    sb_free(&ptx);
    if (dev)
        lockstep_device_destroy(dev);
    lockstep_config_destroy(cfg);
    return rc;
}

/* Printing ------------------------------------------------------------------ */

static const char *quant_name(lit_quant q)
{
    return q == LIT_EXISTS ? "exists" : q == LIT_NOT_EXISTS ? "~exists" : "forall";
}

int lit_histo_validated(const lit_test *t, const lit_histo *h)
{
    switch (t->quant) {
    case LIT_EXISTS: return h->positive > 0;
    case LIT_NOT_EXISTS: return h->positive == 0;
    case LIT_FORALL: return h->negative == 0;
    }
    return 0;
}

/* A value as a number, unsigned for the 64-bit unsigned and bit types. */
static void number_print(strbuf *sb, const lit_test *t, lit_item it, int64_t v)
{
    if (LIT_PRINTS_UNSIGNED(lit_item_type(t, it)))
        sb_printf(sb, "%llu", (unsigned long long)v);
    else
        sb_printf(sb, "%lld", (long long)v);
}

static void value_print(strbuf *sb, const lit_test *t, lit_item it, int64_t v)
{
    for (int l = 0; l < t->nlocs; l++)
        if ((uint64_t)v == lit_loc_addr(l) && v >= (int64_t)LIT_LOC_BASE) {
            sb_puts(sb, t->locs[l].name);
            return;
        }
    number_print(sb, t, it, v);
}

static void state_print(strbuf *sb, const lit_test *t, const int64_t *v)
{
    for (int j = 0; j < t->nobserved; j++) {
        lit_item_name(sb, t, t->observed[j]);
        sb_puts(sb, "=");
        value_print(sb, t, t->observed[j], v[j]);
        sb_puts(sb, "; ");
    }
}

void lit_histo_print(strbuf *sb, const lit_test *t, const lit_histo *h)
{
    const char *kind = t->quant == LIT_EXISTS ? "Allowed" : t->quant == LIT_FORALL ? "Required" : "Forbidden";
    sb_printf(sb, "Test %s %s\nHistogram (%d states)\n", t->name, kind, h->n);
    for (int i = 0; i < h->n; i++) {
        const int64_t *v = &h->vals[(size_t)i * (size_t)h->width];
        sb_printf(sb, "%-8llu%s>", (unsigned long long)h->count[i], lit_cond_eval(t, v) ? "*" : ":");
        state_print(sb, t, v);
        sb_puts(sb, "\n");
    }
    int ok = lit_histo_validated(t, h);
    sb_printf(sb, "%s\n\nWitnesses\nPositive: %llu, Negative: %llu\n", ok ? "Ok" : "No",
              (unsigned long long)h->positive, (unsigned long long)h->negative);
    sb_printf(sb, "Condition %s (", quant_name(t->quant));
    lit_cond_print(sb, t);
    sb_printf(sb, ") is %svalidated\n", ok ? "" : "NOT ");
    sb_printf(sb, "Hash=%016llx\n", (unsigned long long)h->digest);
    const char *obs = h->positive == 0 ? "Never" : h->negative == 0 ? "Always" : "Sometimes";
    sb_printf(sb, "Observation %s %s %llu %llu\n", t->name, obs, (unsigned long long)h->positive,
              (unsigned long long)h->negative);
    if (h->sc_known) {
        uint64_t weak = 0;
        int nweak = 0;
        for (int i = 0; i < h->n; i++)
            if (!lit_histo_is_sc(h, i)) {
                weak += h->count[i];
                nweak++;
            }
        sb_printf(sb, "SC outcomes %s %d, weak states %d, weak instances %llu\n", t->name, h->sc.n,
                  nweak, (unsigned long long)weak);
        for (int i = 0; i < h->n; i++)
            if (!lit_histo_is_sc(h, i)) {
                sb_printf(sb, "Weak %-8llu>", (unsigned long long)h->count[i]);
                state_print(sb, t, &h->vals[(size_t)i * (size_t)h->width]);
                sb_puts(sb, "\n");
            }
    }
    sb_printf(sb, "Time %s %.2f\n", t->name, h->seconds);
}

static void json_str(strbuf *sb, const char *s)
{
    sb_putc(sb, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sb_printf(sb, "\\%c", c);
        else if (c < 0x20)
            sb_printf(sb, "\\u%04x", c);
        else
            sb_putc(sb, (char)c);
    }
    sb_putc(sb, '"');
}

void lit_histo_json(strbuf *sb, const lit_test *t, const lit_histo *h, const lit_opts *o,
                    const char *config_name)
{
    strbuf tmp = STRBUF_INIT;
    sb_puts(sb, "{\"test\": ");
    json_str(sb, t->name);
    sb_puts(sb, ", \"file\": ");
    json_str(sb, t->filename);
    sb_puts(sb, ", \"config\": ");
    json_str(sb, config_name ? config_name : "default");
    lit_incantations_name(&tmp, o->incant);
    sb_puts(sb, ", \"incantations\": ");
    json_str(sb, sb_cstr(&tmp));
    sb_printf(sb,
              ", \"iterations\": %llu, \"seed\": %llu, \"place_seed\": %llu, \"instances\": %llu, "
              "\"instances_per_launch\": %llu",
              (unsigned long long)o->iterations, (unsigned long long)o->seed,
              (unsigned long long)o->place_seed, (unsigned long long)h->instances,
              (unsigned long long)h->per_launch);
    sb_clear(&tmp);
    lit_cond_print(&tmp, t);
    sb_printf(sb, ", \"condition\": {\"quantifier\": \"%s\", \"formula\": ", quant_name(t->quant));
    json_str(sb, sb_cstr(&tmp));
    sb_puts(sb, "}, \"states\": [");
    for (int i = 0; i < h->n; i++) {
        const int64_t *v = &h->vals[(size_t)i * (size_t)h->width];
        sb_printf(sb, "%s{\"count\": %llu, \"values\": {", i ? ", " : "", (unsigned long long)h->count[i]);
        for (int j = 0; j < t->nobserved; j++) {
            sb_clear(&tmp);
            lit_item_name(&tmp, t, t->observed[j]);
            sb_puts(sb, j ? ", " : "");
            json_str(sb, sb_cstr(&tmp));
            sb_puts(sb, ": ");
            number_print(sb, t, t->observed[j], v[j]);
        }
        sb_printf(sb, "}, \"condition\": %s", lit_cond_eval(t, v) ? "true" : "false");
        if (h->sc_known)
            sb_printf(sb, ", \"sc\": %s", lit_histo_is_sc(h, i) ? "true" : "false");
        sb_puts(sb, "}");
    }
    uint64_t weak = 0;
    for (int i = 0; i < h->n; i++)
        if (h->sc_known && !lit_histo_is_sc(h, i))
            weak += h->count[i];
    const char *obs = h->positive == 0 ? "Never" : h->negative == 0 ? "Always" : "Sometimes";
    sb_printf(sb,
              "], \"positive\": %llu, \"negative\": %llu, \"validated\": %s, \"observation\": \"%s\", "
              "\"sc_outcomes\": %d, \"weak_instances\": %llu, \"hash\": \"%016llx\", \"cycles\": %llu, "
              "\"warp_insts\": %llu, \"icnt_stall_cycles\": %llu, "
              "\"l2_misses\": %llu, \"seconds\": %.3f}\n",
              (unsigned long long)h->positive, (unsigned long long)h->negative,
              lit_histo_validated(t, h) ? "true" : "false", obs, h->sc_known ? h->sc.n : -1,
              (unsigned long long)weak, (unsigned long long)h->digest, (unsigned long long)h->cycles,
              (unsigned long long)h->warp_insts, (unsigned long long)h->icnt_stalls,
              (unsigned long long)h->l2_misses, h->seconds);
    sb_free(&tmp);
}
