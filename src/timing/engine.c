/*
 * engine.c -- the timing model's GPU: it builds SMs, partitions and the two
 * crossbar directions from the configuration, dispatches CTAs to SMs under
 * the occupancy limits (threads, registers, shared memory, CTA slots), and
 * runs the cycle loop.
 *
 * Time advances in windows of W = crossbar latency cycles: every SM runs
 * through the window, then every partition, then the crossbars; between
 * windows a serial step retires and dispatches CTAs and checks faults.
 * Components run in index order, so a run is a pure function of (program,
 * config, seed); and since nothing crosses from one component to another
 * within a window, the order does not matter either, which is what lets a
 * parallel engine run them on separate threads (docs/ARCHITECTURE.md).
 * Idle time is free: each component jumps to its next event within a
 * window, and the loop jumps to the earliest cycle at which any can act
 * (DESIGN, "Idle time is free"), charging the skipped cycles to each
 * scheduler's current reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/hostfp.h"
#include "util/check.h"
#include "timing/timing_int.h"
#include "util/common.h"
#include "util/pfor.h"

/* ---- requests ---------------------------------------------------------------------- */

/* A request from SM sm's pool.  A request stays the SM's: it travels to a
 * partition, comes back as the reply, and is freed by the SM (a message by
 * reference: while it is away only the partition touches it). */
tm_req *tm_req_new(tm_sm *sm)
{
    tm_req *r = sm->free_reqs;
    if (r) {
        sm->free_reqs = r->next;
        goto fresh;
    }
    if (sm->nreqs == sm->reqs_cap) {
        uint32_t cap = sm->reqs_cap ? 2 * sm->reqs_cap : 64;
        tm_req **v = realloc(sm->reqs, cap * sizeof *v);
        if (!v)
            return NULL;
        sm->reqs = v;
        sm->reqs_cap = cap;
    }
    if (!(r = malloc(sizeof *r)))
        return NULL;
    sm->reqs[sm->nreqs++] = r;
fresh:
    r->dmr_pair = r->dmr_seq = r->dmr_first = 0;
    r->dmr_warp = 0;
    r->dmr_copy = r->dmr_go = 0;
    r->twin = NULL;
    return r;
}

/* After a fault: every request and memory operation in flight is dropped
 * (the crossbars are drained, the queues emptied) and all are free again. */
static void timing_reset_inflight(timing_gpu *g)
{
    icnt *nets[2] = {g->reqnet, g->repnet};
    uint32_t nout[2] = {g->nparts, g->nsms};
    for (int k = 0; k < 2; k++) {
        uint64_t t = g->now;
        while (!icnt_idle(nets[k])) {
            t += 1000000;
            icnt_advance(nets[k], t);
            void *payload;
            uint32_t src;
            for (uint32_t o = 0; o < nout[k]; o++)
                while (icnt_pop(nets[k], o, &payload, &src))
                    ;
        }
        /* draining moved the crossbar's clock on: so does the GPU's */
        if (icnt_now(nets[k]) > g->now)
            g->now = icnt_now(nets[k]);
    }
    for (uint32_t s = 0; s < g->nsms; s++)
        sm_reset_inflight(&g->sms[s]);
    for (uint32_t p = 0; p < g->nparts; p++)
        part_reset_inflight(&g->parts[p]);
    for (uint32_t s = 0; s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        sm->free_reqs = NULL;
        for (uint32_t i = 0; i < sm->nreqs; i++) {
            sm->reqs[i]->next = sm->free_reqs;
            sm->free_reqs = sm->reqs[i];
        }
    }
}

void tm_req_free(tm_sm *sm, tm_req *r)
{
    LS_ASSERT(r != sm->free_reqs); /* freed twice in a row */
    r->next = sm->free_reqs;
    sm->free_reqs = r;
}

/* Address interleaving: consecutive chunks go round the partitions, each
 * group of n_mem chunks rotated by a hash of the group (so power-of-two
 * strides do not all land in one partition) and by the seeded offset of
 * where address 0 starts (modelled nondeterminism). */
static uint64_t group_hash(uint64_t grp)
{
    grp ^= grp >> 7;
    grp *= 0x9e3779b97f4a7c15ull;
    return grp >> 40;
}

uint32_t tm_part_of(const timing_gpu *g, uint64_t addr)
{
    uint64_t chunk = addr / g->cfg->partition_chunk;
    uint64_t grp = chunk / g->nparts;
    return (uint32_t)((chunk + g->part_offset + group_hash(grp)) % g->nparts);
}

uint64_t tm_part_local(const timing_gpu *g, uint64_t addr)
{
    uint64_t cs = g->cfg->partition_chunk;
    uint64_t chunk = addr / cs;
    return (chunk / g->nparts) * cs + addr % cs;
}

/* Crossbar packet bytes: an 8-byte header plus what the packet carries. */
uint32_t tm_req_bytes(const tm_req *r, int reply)
{
    uint32_t n = 8;
    if (!reply) {
        if (r->type == REQ_WR)
            n += (uint32_t)(__builtin_popcountll(r->bmask[0]) + __builtin_popcountll(r->bmask[1]));
        else if (r->type == REQ_ATOM)
            n += 8u * (uint32_t)popc32(r->lanes);
    } else {
        if (r->type == REQ_RD)
            n += TM_SECTOR * (uint32_t)popc32(r->sectors);
        else if (r->type == REQ_ATOM)
            n += 8u * (uint32_t)popc32(r->lanes);
    }
    return n;
}

/* ---- building the GPU -------------------------------------------------------------- */

static int parse_cache(const char *name, const char *s, cache_config *c, char *err, size_t n)
{
    char msg[200];
    if (cache_config_parse(s, c, msg, sizeof msg)) {
        snprintf(err, n, "%s: %s", name, msg);
        return -1;
    }
    if (c->line_bytes != TM_LINE && strcmp(name, "-gpgpu_const_cache:l1")) {
        snprintf(err, n, "%s: lockstep models %u-byte lines (the string has %u)", name, TM_LINE,
                 c->line_bytes);
        return -1;
    }
    return 0;
}

/* n cycles of a clock running at `ratio` times the core clock, in core
 * cycles, rounded up and at least 1. */
static uint32_t clock_cycles(uint32_t n, double ratio)
{
    double c = (double)n / ratio;
    uint64_t k = (uint64_t)c;
    if ((double)k < c)
        k++;
    return k < 1 ? 1 : k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
}

timing_gpu *timing_gpu_create(const lockstep_config *cfg, int *oom, char *err, size_t errlen)
{
    *oom = 0;
    timing_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        *oom = 1;
        snprintf(err, errlen, "out of host memory building the GPU model");
        return NULL;
    }
    g->cfg = cfg;
    g->nsms = cfg->n_clusters * cfg->cores_per_cluster;
    g->nparts = cfg->n_mem;
    g->nsched = cfg->num_sched;
    config_clocks(cfg, g->mhz);
    const char *lists[3][2] = {{cfg->lat_int, cfg->ii_int}, {cfg->lat_fp, cfg->ii_fp},
                               {cfg->lat_dp, cfg->ii_dp}};
    for (int k = 0; k < 3; k++) {
        config_list5(lists[k][0], g->lat[k]);
        config_list5(lists[k][1], g->ii[k]);
    }
    g->threads_per_sm = config_threads_per_sm(cfg);
    g->regs_per_sm = cfg->shader_registers;
    g->shmem_per_sm = cfg->shmem_size;
    if (!strcmp(cfg->scheduler, "lrr"))
        g->policy = 0;
    else if (!strcmp(cfg->scheduler, "gto"))
        g->policy = 1;
    else {
        g->policy = 2;
        g->two_level_n = 8;
        sscanf(cfg->scheduler, "two_level_active:%u", &g->two_level_n);
    }
    g->units[TU_SP] = cfg->num_sp_units;
    g->units[TU_SFU] = cfg->num_sfu_units;
    g->units[TU_DP] = cfg->num_dp_units;
    g->units[TU_INT] = cfg->num_int_units;
    g->units[TU_LDST] = 1;
    g->units[TU_NONE] = 0;
    g->units[TU_TENSOR] = cfg->num_tensor_units;
    g->have_l1 = strcmp(cfg->cache_dl1, "none") != 0;
    if ((g->have_l1 && parse_cache("-gpgpu_cache:dl1", cfg->cache_dl1, &g->l1cfg, err, errlen)) ||
        parse_cache("-gpgpu_const_cache:l1", cfg->cache_const, &g->ccfg, err, errlen) ||
        parse_cache("-gpgpu_tex_cache:l1", cfg->cache_tex, &g->tcfg, err, errlen) ||
        parse_cache("-gpgpu_cache:dl2", cfg->cache_dl2, &g->l2cfg, err, errlen))
        goto fail;
    if (g->threads_per_sm % WARP_SIZE) {
        snprintf(err, errlen, "threads per SM must be a multiple of 32");
        goto fail;
    }
    if (config_dram(cfg, &g->dcfg, err, errlen))
        goto fail;
    uint64_t seed = cfg->nondet ? cfg->nondet_seed : 0;
    /* Clock domains.  The model steps at the core clock.  Latencies given
     * in L2 cycles become core cycles (rounded up); the crossbar, at
     * icnt/core flits per core cycle, gets a flit of flit_size x icnt/core
     * bytes and its latency in core cycles. */
    double l2r = g->mhz[2] / g->mhz[0], ir = g->mhz[1] / g->mhz[0];
    g->rop_lat = clock_cycles(cfg->rop_latency, l2r);
    g->l2_lat = clock_cycles(cfg->l2_latency, l2r);
    g->dram_lat = cfg->dram_latency ? clock_cycles(cfg->dram_latency, l2r) : 0;
    uint32_t icnt_lat = clock_cycles(cfg->icnt_latency, ir);
    uint32_t flit = (uint32_t)((double)cfg->flit_size * ir + 0.5);
    if (flit < 1)
        flit = 1;
    /* windows as long as the crossbar latency; input space freed in the
     * crossbar reaches the source a window later (icnt.h, "Windows").  A
     * longer window (-lockstep_window) is relaxed synchronisation: a
     * message can then arrive up to a window late, so results move a
     * little, for fewer serial steps. */
    g->window = g->xwin = icnt_lat;
    if (cfg->window > icnt_lat)
        g->window = cfg->window;
    g->exact = g->window == icnt_lat;
    g->store_path = cfg->store_path != 0;
    icnt_config ic = {g->nsms * (g->store_path ? 2 : 1), g->nparts, flit, icnt_lat, cfg->icnt_in_buf,
                      cfg->icnt_out_buf, cfg->nondet && cfg->icnt_random, g->window - 1,
                      cfg->icnt_bypass, cfg->nondet && cfg->icnt_start,
                      g->store_path && cfg->store_after_loads ? g->nsms : 0};
    if (!(g->reqnet = icnt_create(&ic, seed, 0)))
        goto oom;
    ic.nin = g->nparts;
    ic.ordered_pairs = 0;
    ic.nout = g->nsms;
    if (!(g->repnet = icnt_create(&ic, seed, 1)))
        goto oom;
    if (!(g->sms = calloc(g->nsms, sizeof *g->sms)) || !(g->parts = calloc(g->nparts, sizeof *g->parts)))
        goto oom;
    g->dmr = !strcmp(cfg->redundancy, "dmr");
    g->dmr_pairing = !strcmp(cfg->dmr_pair, "slot")   ? DMR_PAIR_SLOT
                     : !strcmp(cfg->dmr_pair, "core") ? DMR_PAIR_CORE
                                                      : DMR_PAIR_SM;
    g->dmr_max_reissues = cfg->dmr_max_reissues;
    g->dmr_flip = cfg->dmr_flip_store;
    g->dmr_flip_line = cfg->dmr_flip_line;
    g->dmr_flip_load = cfg->dmr_flip_load;
    g->dmr_lvr = g->dmr && cfg->dmr_load_values;
    g->dmr_lvq_timeout = cfg->dmr_lvq_timeout;
    g->dmr_copy_timeout = cfg->dmr_copy_timeout;
    for (uint32_t s = 0; s < g->nsms; s++)
        if (sm_init(g, &g->sms[s], s))
            goto oom;
    for (uint32_t p = 0; p < g->nparts; p++)
        if (part_init(g, &g->parts[p], p))
            goto oom;
    g->icnt_lat = icnt_lat;
    g->det = !strcmp(cfg->det, "gpudet");
    g->dab = !strcmp(cfg->det, "dab");
    g->dab_warp_level = !strcmp(cfg->dab_level, "warp");
    g->dab_sched = !strcmp(cfg->dab_scheduler, "srr")    ? DAB_SRR
                   : !strcmp(cfg->dab_scheduler, "gtrr") ? DAB_GTRR
                   : !strcmp(cfg->dab_scheduler, "gtar") ? DAB_GTAR
                                                         : DAB_GWAT;
    g->dab_entries = cfg->dab_entries;
    g->dab_chunk = cfg->dab_chunk;
    g->dab_fusion = cfg->dab_fusion != 0;
    g->dab_coalesce = cfg->dab_coalesce != 0;
    g->dab_offset = cfg->dab_offset != 0;
    g->dab_overlap = cfg->dab_overlap != 0;
    g->dab_no_sync = cfg->dab_no_sync != 0;
    g->dab_no_reorder = cfg->dab_no_reorder != 0;
    g->det_quantum = cfg->gpudet_quantum;
    g->det_bloom_bits = cfg->gpudet_bloom;
    g->det_zunit = cfg->gpudet_zunit;
    g->det_sync = cfg->gpudet_sync;
    g->det_cu_ser = !strcmp(cfg->gpudet_serial, "cu");
    g->det_bta = cfg->gpudet_bta != 0;
    g->det_dwp = cfg->gpudet_dwp != 0;
    g->det_lock_commit = !strcmp(cfg->gpudet_commit, "lock");
    g->det_zlines = cfg->gpudet_zcache_kb * 1024u / 128u;
    g->det_zentries = cfg->gpudet_zunit_entries;
    if (g->det && !(g->det_zcache = calloc((size_t)g->nparts * g->det_zlines, sizeof *g->det_zcache)))
        goto oom;
    g->det_l1_lat = cfg->l1_latency;
    g->det_sb_l1 = cfg->gpudet_sb_l1 != 0;
    g->det_zdepth_bits = cfg->gpudet_zdepth_bits;
    g->det_livelock = cfg->gpudet_livelock != 0;
    if (!(g->det_scratch = calloc(g->nparts, sizeof *g->det_scratch)))
        goto oom;
    if (!(g->sys_next = calloc(g->nsms, sizeof *g->sys_next)))
        goto oom;
    if (cfg->nondet) {
        g->nd_skew = cfg->sm_skew;
        g->nd_drift = cfg->clock_drift;
        g->nd_cta_delay = cfg->cta_delay;
        g->nd_l2_jitter = cfg->l2_jitter;
        g->nd_reply_shuffle = cfg->reply_shuffle;
    } else {
        g->nd_reply_shuffle = 1;
    }
    if (cfg->nondet && cfg->part_start) {
        rng r;
        rng_seed(&r, cfg->nondet_seed, RNG_PARTMAP, 0);
        g->part_offset = rng_below(&r, g->nparts);
    }
    if (tm_observe_open(g, err, errlen))
        goto fail;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t threads = cfg->threads ? cfg->threads : cpus > 0 ? (uint32_t)cpus : 1;
    if (threads > g->nsms + g->nparts)
        threads = g->nsms + g->nparts;
    if (threads > 1 && (!(g->pool = pfor_create(threads)) ||
                        !(g->tally = aligned_alloc(64, threads * sizeof *g->tally))))
        goto oom;
    for (uint32_t t = 0; g->tally && t < threads; t++)
        g->tally[t].steps = 0;
    return g;
oom:
    *oom = 1;
    snprintf(err, errlen, "out of host memory building the GPU model");
fail:
    timing_gpu_free(g);
    return NULL;
}

void timing_gpu_free(timing_gpu *g)
{
    if (!g)
        return;
    tm_observe_close(g);
    pfor_free(g->pool);
    free(g->tally);
    dab_free(g);
    if (g->sms)
        for (uint32_t s = 0; s < g->nsms; s++)
            sm_release(&g->sms[s]);
    if (g->parts)
        for (uint32_t p = 0; p < g->nparts; p++)
            part_release(&g->parts[p]);
    free(g->sms);
    free(g->parts);
    icnt_free(g->reqnet);
    icnt_free(g->repnet);
    free(g->ti);
    free(g->det_scratch);
    free(g->sys_next);
    free(g->det_zcache);
    free(g->det_ztab);
    free(g->det_dwp_next);
    dmr_echo_free(g);
    free(g->dmr_pairs);
    free(g->lvq_b);
    free(g->dmr_half);
    free(g->dmr_redo);
    free(g->dmr_done);
    free(g->dmr_ev);
    free(g);
}

int timing_trace_finish(timing_gpu *g) { return tm_observe_close(g); }

uint64_t timing_total_cycles(const timing_gpu *g) { return g->now; }

/* The valid sectors of an L1 line (a normal cache's one sector is bit 0). */
static uint32_t l1_valid(const timing_gpu *g, const cache_line_state *st)
{
    uint32_t n = g->l1cfg.line_bytes / g->l1cfg.sector_bytes;
    return st->present && !st->reserved ? st->valid & (n >= 32 ? ~0u : (1u << n) - 1) : 0;
}

uint64_t timing_l1d_words(const timing_gpu *g)
{
    uint64_t n = 0;
    for (uint32_t s = 0; g->have_l1 && s < g->nsms; s++) {
        const cache *c = g->sms[s].l1;
        for (uint32_t i = 0; c && i < cache_nlines(c); i++) {
            cache_line_state st;
            cache_line_get(c, (int)i, &st);
            n += (uint64_t)__builtin_popcount(l1_valid(g, &st)) * (g->l1cfg.sector_bytes / 4);
        }
    }
    return n;
}

uint8_t *timing_l1d_word(timing_gpu *g, uint64_t k, uint32_t *sm, uint64_t *addr)
{
    uint32_t sector_words = g->l1cfg.sector_bytes / 4;
    for (uint32_t s = 0; g->have_l1 && s < g->nsms; s++) {
        cache *c = g->sms[s].l1;
        for (uint32_t i = 0; c && i < cache_nlines(c); i++) {
            cache_line_state st;
            cache_line_get(c, (int)i, &st);
            uint32_t v = l1_valid(g, &st);
            uint64_t here = (uint64_t)__builtin_popcount(v) * sector_words;
            if (k >= here) {
                k -= here;
                continue;
            }
            /* the (k / sector_words)-th valid sector, word k % sector_words */
            for (uint64_t j = k / sector_words; j; j--)
                v &= v - 1;
            uint32_t off = (uint32_t)__builtin_ctz(v) * g->l1cfg.sector_bytes +
                           (uint32_t)(k % sector_words) * 4;
            uint8_t *d = cache_data(c, (int)i);
            if (!d)
                return NULL;
            *sm = s;
            *addr = st.line_addr + off;
            return d + off;
        }
    }
    return NULL;
}

/* The global (physical) address of partition part's local address la: the
 * inverse of tm_part_of and tm_part_local. */
uint64_t tm_part_global(const timing_gpu *g, uint32_t part, uint64_t la)
{
    uint64_t cs = g->cfg->partition_chunk, n = g->nparts;
    uint64_t grp = la / cs;
    uint64_t first = (grp * n + g->part_offset + group_hash(grp)) % n; /* chunk grp*n's partition */
    uint64_t addr = (grp * n + (part + n - first) % n) * cs + la % cs;
    LS_ASSERT(tm_part_of(g, addr) == part && tm_part_local(g, addr) == la);
    return addr;
}

/* The device address whose modelled physical address (devmem_phys) is pa,
 * for the 4 bytes at pa inside one live allocation: 0, or -1. */
int tm_dev_of_phys(const devmem *dm, uint64_t pa, uint64_t *dev)
{
    uint32_t hint = 0;
    const devmem_alloc *a = devmem_find(dm, pa, 4, &hint);
    if (a && !a->host) {
        *dev = pa; /* device memory is its own physical address */
        return 0;
    }
    for (a = devmem_next(dm, 0); a; a = devmem_next(dm, a->base))
        if (a->host && pa >= a->phys && pa - a->phys + 4 <= a->size) {
            *dev = a->base + (pa - a->phys);
            return 0;
        }
    return -1;
}

/* The valid sectors of an L2 line with no fill pending. */
static uint32_t l2_valid(const timing_gpu *g, const cache_line_state *st)
{
    uint32_t n = g->l2cfg.line_bytes / g->l2cfg.sector_bytes;
    return st->present && !st->reserved ? st->valid & (n >= 32 ? ~0u : (1u << n) - 1) : 0;
}

/* Walk the L2 words timing_l2d_words counts to the k-th (k == UINT64_MAX:
 * count them all); its partition, line, offset in the line, device
 * address.  Returns the count walked past, or UINT64_MAX when found. */
static uint64_t l2d_walk(const timing_gpu *g, uint64_t k, uint32_t *part, int *line,
                         uint32_t *off, uint64_t *dev)
{
    uint64_t n = 0;
    uint32_t sb = g->l2cfg.sector_bytes;
    if (!g->L)
        return 0;
    for (uint32_t p = 0; p < g->nparts; p++) {
        const cache *c = g->parts[p].l2;
        for (uint32_t i = 0; i < cache_nlines(c); i++) {
            cache_line_state st;
            cache_line_get(c, (int)i, &st);
            uint32_t v = l2_valid(g, &st);
            if (!v)
                continue;
            uint64_t ga = tm_part_global(g, p, st.line_addr);
            for (; v; v &= v - 1)
                for (uint32_t o = (uint32_t)__builtin_ctz(v) * sb, e = o + sb; o < e; o += 4) {
                    uint64_t d;
                    if (tm_dev_of_phys(g->L->dm, ga + o, &d))
                        continue; /* no live allocation holds it */
                    if (n++ == k) {
                        *part = p;
                        *line = (int)i;
                        *off = o;
                        *dev = d;
                        return UINT64_MAX;
                    }
                }
        }
    }
    return n;
}

uint64_t timing_l2d_words(const timing_gpu *g)
{
    uint32_t part, off;
    int line;
    uint64_t dev;
    return l2d_walk(g, UINT64_MAX, &part, &line, &off, &dev);
}

int timing_l2d_word(const timing_gpu *g, uint64_t k, uint32_t *part, uint64_t *addr,
                    int *dirty, uint32_t *val)
{
    uint32_t off;
    int line;
    uint64_t dev;
    if (k == UINT64_MAX || l2d_walk(g, k, part, &line, &off, &dev) != UINT64_MAX)
        return -1;
    cache_line_state st;
    cache_line_get(g->parts[*part].l2, line, &st);
    *addr = tm_part_global(g, *part, st.line_addr) + off;
    *dirty = (st.dirty & cache_sector_mask(g->parts[*part].l2, st.line_addr + off, 4)) != 0;
    uint8_t b[4];
    exec_global_read(g->L, dev, b, 4);
    memcpy(val, b, 4);
    return 0;
}

int timing_l2d_write(timing_gpu *g, uint64_t k, uint32_t v)
{
    uint32_t part, off;
    int line;
    uint64_t dev;
    if (k == UINT64_MAX || l2d_walk(g, k, &part, &line, &off, &dev) != UINT64_MAX)
        return -1;
    tm_part *p = &g->parts[part];
    cache_line_state st;
    cache_line_get(p->l2, line, &st);
    uint32_t sector = cache_sector_mask(p->l2, st.line_addr + off, 4);
    uint8_t b[4];
    uint64_t mask[2] = {0xf, 0};
    exec_global_read(g->L, dev, b, 4);
    uint32_t old;
    memcpy(&old, b, 4);
    memcpy(b, &v, 4);
    if (exec_global_write(g->L, dev, b, mask, 4))
        return -1;
    if (!(st.dirty & sector)) {
        /* DRAM still holds old: the line must give it back when it leaves
         * the L2 with this sector clean (partition.c, l2_fault_evicted) */
        uint32_t w = off / 4;
        p->fault.on = 1;
        p->fault.line = st.line_addr;
        p->fault.words = 1u << w;
        p->fault.dev[w] = dev;
        p->fault.dram[w] = old;
        p->fault.l2[w] = v;
    }
    return 0;
}

/* Of the address bits a tag holds (log2(line bytes) to TIMING_TAG_BITS -
 * 1), those whose flip keeps line_addr in its set (bit b of *keep), and
 * those b whose flip together with b + 1 does (*keep2); inject.c chooses
 * among them. */
static void tag_bits(const cache *c, uint64_t line_addr, uint64_t *keep, uint64_t *keep2)
{
    uint32_t set = cache_set_of(c, line_addr);
    *keep = *keep2 = 0;
    for (uint32_t b = (uint32_t)__builtin_ctz(cache_get_config(c)->line_bytes);
         b < TIMING_TAG_BITS; b++) {
        if (cache_set_of(c, line_addr ^ (1ull << b)) == set)
            *keep |= 1ull << b;
        if (b + 1 < TIMING_TAG_BITS && cache_set_of(c, line_addr ^ (3ull << b)) == set)
            *keep2 |= 1ull << b;
    }
}

/* The k-th L1 line with a valid sector and no fill pending (SM by SM,
 * line by line; k == UINT64_MAX: count them).  Returns the count walked
 * past, or UINT64_MAX when found. */
static uint64_t l1_walk(const timing_gpu *g, uint64_t k, uint32_t *sm, int *line)
{
    uint64_t n = 0;
    for (uint32_t s = 0; g->have_l1 && s < g->nsms; s++) {
        const cache *c = g->sms[s].l1;
        for (uint32_t i = 0; c && i < cache_nlines(c); i++) {
            cache_line_state st;
            cache_line_get(c, (int)i, &st);
            if (!l1_valid(g, &st))
                continue;
            if (n++ == k) {
                *sm = s;
                *line = (int)i;
                return UINT64_MAX;
            }
        }
    }
    return n;
}

uint64_t timing_l1_lines(const timing_gpu *g)
{
    uint32_t sm;
    int line;
    return l1_walk(g, UINT64_MAX, &sm, &line);
}

int timing_l1_line(const timing_gpu *g, uint64_t k, uint32_t *sm, uint64_t *line_addr,
                   uint64_t *keep, uint64_t *keep2)
{
    int line;
    if (k == UINT64_MAX || l1_walk(g, k, sm, &line) != UINT64_MAX)
        return -1;
    cache_line_state st;
    cache_line_get(g->sms[*sm].l1, line, &st);
    *line_addr = st.line_addr;
    tag_bits(g->sms[*sm].l1, st.line_addr, keep, keep2);
    return 0;
}

int timing_l1_retag(timing_gpu *g, uint64_t k, uint64_t line_addr)
{
    uint32_t sm;
    int line;
    if (k == UINT64_MAX || l1_walk(g, k, &sm, &line) != UINT64_MAX)
        return -1;
    return cache_retag(g->sms[sm].l1, line, line_addr);
}

/* The k-th L2 line with a valid sector and no fill pending (partition by
 * partition, line by line; k == UINT64_MAX: count them).  Returns the
 * count walked past, or UINT64_MAX when found. */
static uint64_t l2_walk(const timing_gpu *g, uint64_t k, uint32_t *part, int *line)
{
    uint64_t n = 0;
    for (uint32_t p = 0; p < g->nparts; p++) {
        const cache *c = g->parts[p].l2;
        for (uint32_t i = 0; i < cache_nlines(c); i++) {
            cache_line_state st;
            cache_line_get(c, (int)i, &st);
            if (!l2_valid(g, &st))
                continue;
            if (n++ == k) {
                *part = p;
                *line = (int)i;
                return UINT64_MAX;
            }
        }
    }
    return n;
}

uint64_t timing_l2_lines(const timing_gpu *g)
{
    uint32_t part;
    int line;
    return g->parts[0].dram_copy ? l2_walk(g, UINT64_MAX, &part, &line) : 0;
}

int timing_l2_line(timing_gpu *g, uint64_t k, uint32_t *part, uint64_t *tag,
                   uint64_t *addr, int *dirty, uint64_t *keep, uint64_t *keep2)
{
    int line;
    if (k == UINT64_MAX || l2_walk(g, k, part, &line) != UINT64_MAX)
        return -1;
    tm_part *p = &g->parts[*part];
    cache_line_state st;
    cache_line_get(p->l2, line, &st);
    *tag = st.line_addr;
    *addr = tm_part_global(g, *part, st.line_addr);
    *dirty = st.dirty != 0;
    tag_bits(p->l2, st.line_addr, keep, keep2);
    /* a flip to an address the L2 holds already is left out (see
     * timing.h) */
    for (uint64_t m = *keep; m; m &= m - 1)
        if (!part_tag_free(p, st.line_addr ^ (m & -m)))
            *keep &= ~(m & -m);
    for (uint64_t m = *keep2; m; m &= m - 1)
        if (!part_tag_free(p, st.line_addr ^ (3 * (m & -m))))
            *keep2 &= ~(m & -m);
    return 0;
}

int timing_l2_retag(timing_gpu *g, uint64_t k, uint64_t tag, uint64_t *alias)
{
    uint32_t part;
    int line;
    if (k == UINT64_MAX || l2_walk(g, k, &part, &line) != UINT64_MAX)
        return -1;
    if (part_retag(&g->parts[part], line, tag))
        return -1;
    *alias = tm_part_global(g, part, tag);
    return 0;
}

double timing_core_mhz(const timing_gpu *g) { return g->mhz[0]; }
uint32_t timing_num_sms(const timing_gpu *g) { return g->nsms; }

int timing_sm_stalls(const timing_gpu *g, uint32_t sm, uint64_t stall[LOCKSTEP_STALL_COUNT])
{
    if (sm >= g->nsms)
        return -1;
    memcpy(stall, g->sms[sm].stall, sizeof g->sms[sm].stall);
    return 0;
}

/* ---- per-instruction facts --------------------------------------------------------- */

static int is_f64(int t) { return t == PT_F64; }
static int is_float(int t) { return ptx_type_is_float((ptx_type)t); }

/* The timing facts of instruction `in` of m, from its opcode's row of the
 * instruction table (optable.h: unit class, latency class) refined by its
 * type, and from its operands. */
void tm_insn_facts(const timing_gpu *g, const ir_module *m, const ir_insn *in, tm_insn *t)
{
    const ptx_opinfo *row = ptx_op_info(in->op);
    memset(t, 0, sizeof *t);
    int cls = row->lat == LAT_NONE ? -1 : row->lat, lrow = 0;
    uint32_t lat = 1, ii = 1;
    int unit;
    switch (row->unit) {
    case UNIT_MEM: unit = TU_LDST; cls = -1; break;
    case UNIT_SFU:
        if (is_f64(in->type)) {
            unit = TU_DP;
            lrow = 2;
        } else {
            unit = TU_SFU;
            lat = g->cfg->lat_sfu;
            ii = g->cfg->ii_sfu;
            cls = -1;
        }
        break;
    case UNIT_FP: case UNIT_INT: {
        int t2 = in->op == OP_CVT ? in->type2 : in->type; /* a conversion's other side */
        if (row->props & OPF_INTALU) {
            unit = TU_INT;
        } else if (is_f64(in->type) || is_f64(t2)) {
            unit = TU_DP;
            lrow = 2;
        } else if (is_float(in->type) || is_float(t2)) {
            unit = TU_SP;
            lrow = 1;
        } else {
            unit = TU_INT;
        }
        break;
    }
    case UNIT_WARP: unit = TU_SP; break; /* warp exchanges: the SP pipeline, integer latencies */
    case UNIT_TENSOR:
        /* the configured latency; the unit is busy in proportion to the
         * multiply-adds, the configured interval being that of a
         * 16 x 16 x 16 product (wmma's own shape) */
        unit = TU_TENSOR;
        lat = g->cfg->lat_tensor;
        ii = g->cfg->ii_tensor;
        if (IR_IS_MMA(in->op) && in->target < m->nmmas) {
            const ir_mma *mm = &m->mmas[in->target];
            uint64_t macs = (uint64_t)mm->m * mm->n * mm->k;
            if (mm->form == MMA_SYNC && mm->m == 8 && mm->k == 4 && mm->atype == PT_F16)
                macs *= 4; /* one product per quad pair */
            uint64_t v = ((uint64_t)ii * macs + 4095) / 4096;
            ii = (uint32_t)(v ? v : 1);
        }
        cls = -1;
        break;
    default: unit = TU_NONE; cls = -1; break;
    }
    if (cls >= 0) {
        lat = g->lat[lrow][cls];
        ii = g->ii[lrow][cls];
    }
    /* units the config does not have run on the SP pipelines */
    if ((unit == TU_DP || unit == TU_INT) && !g->units[unit])
        unit = TU_SP;
    t->unit = (uint8_t)unit;
    t->lat = (uint16_t)MIN(lat, 65535u);
    t->ii = (uint16_t)MIN(ii, 65535u);
    t->complex = (row->props & (OPF_CALL | OPF_RET)) != 0;
    /* A built-in call (printf, malloc, free, assert) reads and writes
     * memory at once, in the functional core: it waits, as a fence does,
     * until the warp's own loads and stores are done, so that printf sees
     * the arguments the warp stored and free never releases a block the
     * warp's stores are still on their way to. */
    if ((row->props & OPF_CALL) && (in->flags & IRF_BUILTIN))
        t->complex = 2;
#define ADD_R(o, arr, n, cap)                                                              \
    do {                                                                                   \
        if ((o).kind == IRO_REG && t->n < (cap))                                           \
            t->arr[t->n++] = (uint16_t)(o).idx;                                            \
    } while (0)
#define ADD_P(o, arr, n, cap)                                                              \
    do {                                                                                   \
        if ((o).kind == IRO_PRED && t->n < (cap))                                          \
            t->arr[t->n++] = (uint16_t)(o).idx;                                            \
    } while (0)
    ADD_P(in->guard, sp, nsp, 4);
    if (IR_IS_MMA(in->op) && in->target < m->nmmas) {
        /* wmma.mma, mma: the operands are in the module's table (at most
         * 18 registers read: 8 + 2 + 8 for wmma's m32n8k16 and m8n32k16) */
        const ir_mma *mm = &m->mmas[in->target];
        for (int i = 0; i < mm->na; i++)
            ADD_R(((ir_opnd){mm->a[i], IRO_REG, 0, 0}), sr, nsr, 20);
        for (int i = 0; i < mm->nb; i++)
            ADD_R(((ir_opnd){mm->b[i], IRO_REG, 0, 0}), sr, nsr, 20);
        for (int i = 0; i < mm->nc; i++)
            ADD_R(((ir_opnd){mm->c[i], IRO_REG, 0, 0}), sr, nsr, 20);
        for (int i = 0; i < mm->nd; i++)
            ADD_R(((ir_opnd){mm->d[i], IRO_REG, 0, 0}), dr, ndr, 8);
        for (int i = 0; i < 8; i++)
            if ((i < mm->na && mm->a[i] > 65535) || (i < mm->nb && mm->b[i] > 65535) ||
                (i < mm->nc && mm->c[i] > 65535) || (i < mm->nd && mm->d[i] > 65535))
                t->complex = 1;
    }
    for (int i = 0; i < 4; i++) {
        ADD_R(in->s[i], sr, nsr, 9);
        ADD_P(in->s[i], sp, nsp, 4);
        if (in->flags & IRF_DSRC) {
            ADD_R(in->d[i], sr, nsr, 9); /* sust's values are read */
        } else {
            ADD_R(in->d[i], dr, ndr, 4);
            ADD_P(in->d[i], dp, ndp, 2);
        }
    }
    ADD_R(in->addr, sr, nsr, 9);
#undef ADD_R
#undef ADD_P
    /* registers past 65535 rows or operands that did not fit: be conservative */
    for (int i = 0; i < 4; i++)
        if ((in->s[i].kind == IRO_REG || in->d[i].kind == IRO_REG) &&
            (in->s[i].idx > 65535 || in->d[i].idx > 65535))
            t->complex = 1;
}

static int prepare_insns(timing_gpu *g, const ir_module *m)
{
    if (g->ti_n < m->ncode) {
        tm_insn *t = realloc(g->ti, m->ncode * sizeof *t);
        if (!t)
            return -1;
        g->ti = t;
        g->ti_n = m->ncode;
    }
    for (uint32_t pc = 0; pc < m->ncode; pc++)
        tm_insn_facts(g, m, &m->code[pc], &g->ti[pc]);
    return 0;
}

/* ---- the cycle loop ---------------------------------------------------------------- */

static int age_cmp(const void *a, const void *b)
{
    const tm_warp *x = *(tm_warp *const *)a, *y = *(tm_warp *const *)b;
    if (!x || !y)
        return x ? -1 : y ? 1 : 0;
    return x->age < y->age ? -1 : x->age > y->age;
}

typedef struct launch_state {
    tm_cta *ctas;         /* nsms * occ */
    tm_warp *warps;       /* nsms * occ * nwarps */
    exec_cta *slots;
    uint32_t occ, nslots;
    uint32_t next_sm;     /* where the next round of CTA dispatch starts */
    uint64_t next_cta, total_ctas, done_ctas, age;
    /* slots that CTAs left since the last dispatch, with when they left */
    struct freed_slot {
        uint64_t at;
        uint32_t s, k;
    } *freed;
    uint32_t nfreed;
    uint64_t *slot_from;  /* DMR: per slot (s * occ + k), from when a CTA may start in it */
    struct dmr_cand {
        uint64_t from;
        uint32_t s, k;
    } *cand;              /* DMR: the free slots of a dispatch */
} launch_state;

static lockstep_status fail_launch(exec_launch *L, lockstep_status st, const char *fmt, uint32_t a,
                                   uint32_t b)
{
    exec_fault(L, NULL, NULL, -1, IR_NO_PC, st, 0, fmt, a, b);
    return L->fault;
}

/* Start CTA `id` in slot k (free) of SM s at the serial step at `now`, its
 * warps from cycle `from` on (or later, with the seeded dispatch delay): 1,
 * or 0 after a fault. */
static int dispatch_slot(timing_gpu *g, launch_state *ls, uint32_t s, uint32_t k, uint64_t id,
                         uint64_t now, uint64_t from)
{
    exec_launch *L = g->L;
    tm_sm *sm = &g->sms[s];
    tm_cta *tc = &sm->ctas[k];
    if (exec_cta_fit(L, tc->c)) {
        L->oom = 1;
        exec_fault(L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
                   "out of host memory for a CTA");
        return 0;
    }
    exec_cta_start(L, tc->c, id);
    ls->next_cta++;
    tc->c->smid = s;
    tc->active = 1;
    tc->age = ls->age++;
    tc->done_at = 0;
    tc->finished = 0;
    tm_observe_cta_start(g, s, k, now);
    uint64_t start = sm_cta_start_cycle(sm, MAX(now, from));
    for (uint32_t i = 0; i < L->nwarps; i++) {
        sm_warp_bind(sm, &tc->warps[i], &tc->c->warps[i], tc, tc->age * 64 + i);
        if (start > now)
            tm_warp_wait(sm, &tc->warps[i], start, LOCKSTEP_STALL_IDLE); /* not started yet */
    }
    sm_settle(sm, now); /* the cycles before count without it */
    sm->nresident++;
    /* the SM looks at the new warps when they can start: waking it at the
     * serial step instead would make its cycles (and its clock drift)
     * depend on where the window ended */
    sm->wake = MIN(sm->wake, start > now ? start : now);
    sm->sched_at = MIN(sm->sched_at, start > now ? start : now);
    if (g->dab)
        dab_cta_started(sm, k, now);
    if (g->policy != 0) {
        for (uint32_t q = 0; q < g->nsched; q++)
            qsort(sm->sched[q], sm->nsw, sizeof(tm_warp *), age_cmp);
        sm->rq_live = 0; /* the warps moved in the lists: the next scan rebuilds the queues */
    }
    return 1;
}

/* Start the next CTA on SM s if it has a free slot. */
static int dispatch(timing_gpu *g, launch_state *ls, uint32_t s, uint64_t now)
{
    tm_sm *sm = &g->sms[s];
    if (ls->next_cta >= ls->total_ctas || sm->nresident >= ls->occ)
        return 0;
    for (uint32_t k = 0; k < ls->occ; k++)
        if (!sm->ctas[k].active)
            return dispatch_slot(g, ls, s, k, ls->next_cta, now, now);
    return 0;
}

/* GPUDet's deterministic workgroup partitioning (DWP): slot k of SM s
 * (slot number k * SMs + s, the breadth-first order) runs CTAs G, G +
 * slots, G + 2 slots, ...; a free slot takes its next one whenever it
 * frees, in the middle of a quantum too, since which CTA runs where does
 * not depend on timing. */
static void dispatch_dwp(timing_gpu *g, launch_state *ls, uint64_t now)
{
    ls->nfreed = 0; /* each slot has its own CTAs: the order slots freed in does not matter */
    for (uint32_t s = 0; s < g->nsms && g->L->fault == LOCKSTEP_SUCCESS; s++)
        for (uint32_t k = 0; k < ls->occ; k++) {
            uint64_t *next = &g->det_dwp_next[(size_t)k * g->nsms + s];
            if (!g->sms[s].ctas[k].active && *next < ls->total_ctas &&
                dispatch_slot(g, ls, s, k, *next, now, now))
                *next += ls->nslots;
        }
}

/* Freed slots in the order they freed: cycle, SM, slot. */
static int freed_cmp(const void *a, const void *b)
{
    const struct freed_slot *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

/* Dispatch CTAs breadth-first, as GPGPU-Sim and the hardware's block
 * scheduler do: one CTA per SM in turn, round after round, starting after
 * the SM that got the last one, until the grid is placed or no SM has a
 * free slot.  (Filling one SM's slots before the next would run a small
 * grid on a few SMs while the rest idle.) */
static void dispatch_round_robin(timing_gpu *g, launch_state *ls, uint64_t now)
{
    /* Slots CTAs left take the next CTAs in the order they left (cycle,
     * SM, slot), each starting one crossbar latency after its slot freed:
     * that is never before this serial step (the CTA finished in the
     * window just run, which is that long), so neither the order nor the
     * start depends on where windows begin or on the cycles skipped
     * (-lockstep_skip 0 checks it). */
    qsort(ls->freed, ls->nfreed, sizeof *ls->freed, freed_cmp);
    for (uint32_t i = 0; i < ls->nfreed && ls->next_cta < ls->total_ctas &&
                         g->L->fault == LOCKSTEP_SUCCESS; i++) {
        const struct freed_slot *f = &ls->freed[i];
        LS_ASSERT(!g->sms[f->s].ctas[f->k].active);
        dispatch_slot(g, ls, f->s, f->k, ls->next_cta, now, f->at + g->xwin);
    }
    ls->nfreed = 0;
    /* the rest, at the launch's start: breadth-first */
    uint32_t s = ls->next_sm, idle = 0; /* idle: SMs in a row that took no CTA */
    while (idle < g->nsms && ls->next_cta < ls->total_ctas && g->L->fault == LOCKSTEP_SUCCESS) {
        if (dispatch(g, ls, s, now)) {
            idle = 0;
            ls->next_sm = (s + 1) % g->nsms;
        } else {
            idle++;
        }
        s = (s + 1) % g->nsms;
    }
}

/* DMR's free slots in the order they take pairs: from when they are
 * free, then breadth-first (slot, SM). */
static int cand_cmp(const void *a, const void *b)
{
    const struct dmr_cand *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    return x->s < y->s ? -1 : x->s > y->s;
}

/* Has DMR a pair to start: a CTA waiting (a reissue or the next) and two
 * free slots that may pair? */
static int dmr_can_dispatch(const timing_gpu *g, const launch_state *ls)
{
    if (!g->dmr_nredo && ls->next_cta >= ls->total_ctas)
        return 0;
    uint32_t free_slots = 0, free_sms = 0, most = 0;
    for (uint32_t s = 0; s < g->nsms; s++) {
        uint32_t f = ls->occ - g->sms[s].nresident;
        free_slots += f;
        free_sms += f > 0;
        most = MAX(most, f);
    }
    return g->dmr_pairing == DMR_PAIR_SLOT ? free_slots >= 2
           : g->dmr_pairing == DMR_PAIR_CORE ? most >= 2
                                             : free_sms >= 2;
}

/* DMR: each CTA starts as a pair of copies in two free slots (on two SMs;
 * -dmr_pair slot: any two; core: two of one SM), both from the later
 * slot's start: a reissued CTA if one is due by then, else the grid's
 * next.  A slot takes the first slot after it in the order (cand_cmp) that
 * it may pair with; a slot left alone waits for the next dispatch.  Pairing greedily in that order
 * gives the same pairs whichever serial step sees the slots free, so
 * dispatch does not depend on where windows fall. */
static void dispatch_dmr(timing_gpu *g, launch_state *ls, uint64_t now)
{
    for (uint32_t i = 0; i < ls->nfreed; i++)
        ls->slot_from[(size_t)ls->freed[i].s * ls->occ + ls->freed[i].k] =
            ls->freed[i].at + g->xwin;
    ls->nfreed = 0;
    if (!dmr_can_dispatch(g, ls))
        return;
    uint32_t n = 0;
    for (uint32_t s = 0; s < g->nsms; s++)
        for (uint32_t k = 0; k < ls->occ; k++)
            if (!g->sms[s].ctas[k].active)
                ls->cand[n++] = (struct dmr_cand){ls->slot_from[(size_t)s * ls->occ + k], s, k};
    qsort(ls->cand, n, sizeof *ls->cand, cand_cmp);
    for (uint32_t i = 0; i < n && g->L->fault == LOCKSTEP_SUCCESS; i++) {
        if (!g->dmr_nredo && ls->next_cta >= ls->total_ctas)
            break;
        struct dmr_cand *a = &ls->cand[i];
        if (a->s == UINT32_MAX)
            continue;
        uint32_t j = i + 1;
        while (j < n && (ls->cand[j].s == UINT32_MAX ||
                         (g->dmr_pairing == DMR_PAIR_SM && ls->cand[j].s == a->s) ||
                         (g->dmr_pairing == DMR_PAIR_CORE && ls->cand[j].s != a->s)))
            j++;
        if (j == n)
            continue;
        struct dmr_cand *b = &ls->cand[j];
        /* the CTA: the first reissue due by the pair's start (its copies
         * finished a crossbar latency before), else the grid's next, else
         * the first reissue, started when due */
        uint64_t cta, next = ls->next_cta, from = MAX(a->from, b->from);
        uint32_t reissues = 0, r = 0;
        while (r < g->dmr_nredo && g->dmr_pairs[g->dmr_redo[r]].done_at + g->xwin > from)
            r++;
        if (r == g->dmr_nredo && next >= ls->total_ctas)
            r = 0;
        if (r < g->dmr_nredo) {
            const tm_dmrpair *old = &g->dmr_pairs[g->dmr_redo[r]];
            cta = old->cta;
            reissues = old->reissues + 1;
            from = MAX(from, old->done_at + g->xwin);
            memmove(g->dmr_redo + r, g->dmr_redo + r + 1,
                    (--g->dmr_nredo - r) * sizeof *g->dmr_redo);
        } else {
            cta = next++;
        }
        uint32_t pid = dmr_pair_new(g, cta, reissues);
        if (!pid) {
            g->L->oom = 1;
            exec_fault(g->L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
                       "out of host memory for a DMR pair");
            return;
        }
        tm_dmrpair *pr = &g->dmr_pairs[pid];
        pr->start = from;
        const struct dmr_cand *ab[2] = {a, b};
        for (int c = 0; c < 2; c++) {
            tm_cta *tc = &g->sms[ab[c]->s].ctas[ab[c]->k];
            pr->s[c] = ab[c]->s;
            pr->k[c] = ab[c]->k;
            tc->dmr_pair = pid;
            tc->dmr_copy = (uint8_t)c;
            tc->flip_stores = tc->flip_writes = tc->flip_loads = 0;
            if (!dispatch_slot(g, ls, ab[c]->s, ab[c]->k, cta, now, from))
                return;
            /* printf, malloc and free happen once per pair (exec_echo) */
            if (!pr->echo && !(pr->echo = exec_echo_new(g->L->nwarps))) {
                g->L->oom = 1;
                exec_fault(g->L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
                           "out of host memory for a DMR pair");
                return;
            }
            tc->c->echo = pr->echo;
            tc->c->echo_copy = (uint8_t)c;
        }
        ls->next_cta = next;
        a->s = b->s = UINT32_MAX;
    }
}

/* Retire finished CTAs of SM s (all warps done, no memory operation in
 * flight) and catch barrier deadlocks. */
static void retire(timing_gpu *g, launch_state *ls, uint32_t s)
{
    exec_launch *L = g->L;
    tm_sm *sm = &g->sms[s];
    for (uint32_t k = 0; k < ls->occ; k++) {
        tm_cta *tc = &sm->ctas[k];
        if (!tc->active)
            continue;
        int running = 0, barrier = 0, out = 0;
        for (uint32_t i = 0; i < L->nwarps; i++) {
            running += tc->c->warps[i].state == WARP_RUNNING;
            barrier += tc->c->warps[i].state == WARP_BARRIER;
            out += tc->warps[i].loads_out + tc->warps[i].stores_out;
        }
        if (running || out)
            continue;
        if (barrier) {
            /* under DMR one copy's deadlock is a difference between the
             * copies (dmr_absorb_faults); it retires at the next step, as
             * finished when its last warp ended (not when the step saw it) */
            const exec_warp *bw = NULL;
            for (uint32_t i = 0; i < L->nwarps && !bw; i++)
                if (tc->c->warps[i].state == WARP_BARRIER)
                    bw = &tc->c->warps[i];
            if (g->dmr && tc->dmr_pair &&
                dmr_stop_copy(g, sm, tc, LOCKSTEP_ERROR_BARRIER_DEADLOCK,
                              bw->stack[bw->sp - 1].pc, tc->done_at))
                continue;
            exec_deadlock_fault(L, tc->c);
            return;
        }
        LS_ASSERT(sm->nresident > 0 && ls->done_ctas < ls->total_ctas);
        tc->active = 0;
        LS_ASSERT(ls->nfreed < ls->nslots);
        ls->freed[ls->nfreed++] = (struct freed_slot){tc->done_at, s, k};
        for (uint32_t i = 0; i < L->nwarps; i++)
            sm_warp_park(sm, &tc->warps[i]);
        sm_settle(sm, g->now + 1); /* (the window's cycles are counted already) */
        sm->nresident--;
        if (tc->finished) {
            tc->finished = 0;
            sm->nfinished--;
        }
        if (g->dmr)
            dmr_copy_done(g, tc); /* the pair counts once confirmed (dmr_step) */
        else
            ls->done_ctas++;
        tm_observe_cta_end(g, s, k, tc->c, MAX(sm->last_active + 1, g->now - g->window + 1));
    }
}

/* The earliest cycle after t at which SM s can act on its own: its LD/ST
 * queue or crossbar queue has work, its schedulers wake, or a reply
 * becomes deliverable. */
static uint64_t sm_next(const timing_gpu *g, const tm_sm *sm, uint64_t t)
{
    if (sm_lq_active(sm) || sm->out.n)
        return t + 1;
    uint64_t nx = sm->nresident > sm->nfinished ? sm->wake : TM_NEVER;
    uint64_t d = icnt_next_delivery(g->repnet, sm->id);
    if (d < nx)
        nx = d;
    return nx > t ? nx : t + 1;
}

/* The request network's input that request r of SM sm enters at cycle t:
 * the SM's own, or with -lockstep_store_path its store input (nsms + id)
 * for a store.  A request to a line that the other input still holds
 * follows it there, so one SM's requests to one line stay in order: a
 * thread never reads around its own store, and never reads its own later
 * one.  *until: the cycle from which that choice may change (TM_NEVER: not
 * within this window). */
static uint32_t sm_req_input(const timing_gpu *g, const tm_sm *sm, const tm_req *r, uint64_t t,
                             uint64_t *until)
{
    *until = TM_NEVER;
    if (!g->store_path)
        return sm->id;
    uint32_t ld = sm->id, st = g->nsms + sm->id;
    uint32_t own = r->type == REQ_WR ? st : ld, other = own == st ? ld : st;
    uint64_t held = icnt_in_held_until(g->reqnet, other, r->line, t);
    if (!held)
        return own;
    *until = held;
    return other;
}

/* SM s through the cycles [t, end): take the replies delivered, step the
 * pipeline, offer requests to the crossbar.  It touches only its own state,
 * its crossbar ports and its view of the launch (docs/ARCHITECTURE.md).
 * Returns the cycles it stepped. */
static uint64_t sm_window(timing_gpu *g, tm_sm *sm, uint64_t t, uint64_t end)
{
    const exec_launch *L = &sm->L;
    uint64_t steps = 0;
    sm->out_wait = 0;
    while (t < end && L->fault == LOCKSTEP_SUCCESS) {
        sm->now = t; /* the clock the interpreter's hook and %clock read */
        sm_settle(sm, t);
        icnt_msg m;
        while (icnt_pop_at(g->repnet, sm->id, t, &m)) {
            sm_reply(sm, m.payload, t);
            tm_progress(&sm->progress_at, t);
            sm->last_active = t;
        }
        if (sm->wake <= t || sm_lq_active(sm)) {
            if (sm->nresident > sm->nfinished || sm->lq_n)
                sm->last_active = t;
            sm_cycle(sm, t); /* it counts cycle t itself */
            steps++;
            sm->charged = t + 1;
        }
        while (sm->out.head && t >= sm->out_wait) {
            tm_req *r = sm->out.head;
            uint32_t bytes = tm_req_bytes(r, 0);
            uint64_t until;
            uint32_t in = sm_req_input(g, sm, r, t, &until);
            if (!icnt_has_space_at(g->reqnet, in, bytes, t)) {
                sm->out_wait = MIN(icnt_space_from(g->reqnet, in, bytes, t), until);
                break;
            }
            reqq_pop(&sm->out);
            icnt_push_tag(g->reqnet, t, in, r->part, bytes, r, r->line);
        }
        if (sm->out_waiters && sm->out.n < g->cfg->ldst_queue)
            sm_out_drained(sm, t);
        uint64_t nx = sm_next(g, sm, t);
        if (nx > end)
            nx = end;
        t = nx;
    }
    sm_settle(sm, t);
    sm->resume_at = t;
    return steps;
}

/* Partition p through the cycles [t, end): accept the requests delivered
 * and step the ROP, L2, atomic unit and DRAM at the cycles they can act.
 * Returns the cycles it stepped. */
static uint64_t part_window(timing_gpu *g, tm_part *p, uint64_t t, uint64_t end)
{
    uint64_t steps = 0;
    while (t < end && p->L.fault == LOCKSTEP_SUCCESS) {
        icnt_msg m;
        int took = 0;
        while (part_can_accept(p, t) && icnt_pop_at(g->reqnet, p->id, t, &m)) {
            part_accept(p, m.payload, t);
            took = 1;
        }
        /* its next event, remembered from the last step: nothing but a
         * delivery or a step changes it */
        if (took || p->next_ev <= t) {
            part_cycle(p, t);
            steps++;
            p->last_active = t;
            p->next_ev = part_next_event(p, t);
        }
        uint64_t nx = p->next_ev;
        uint64_t d = icnt_next_delivery(g->reqnet, p->id);
        if (d < nx)
            nx = d;
        t = nx > t ? nx : t + 1;
    }
    return steps;
}

/* The earliest cycle >= from at which any component can act, or TM_NEVER. */
static uint64_t next_event(const timing_gpu *g, const launch_state *ls, uint64_t from)
{
    uint64_t next = TM_NEVER;
    for (uint32_t s = 0; s < g->nsms && next > from; s++) {
        const tm_sm *sm = &g->sms[s];
        if (g->dmr && sm->retire_hint)
            return from; /* DMR's serial step finished a CTA (a copy's waiting load) */
        if (g->dmr ? s == 0 && dmr_can_dispatch(g, ls)
                   : sm->nresident < ls->occ && ls->next_cta < ls->total_ctas &&
            (!(g->det || g->dab) ||
             (tm_dwp(g) ? gpudet_dwp_pending(g, sm, ls->occ) : g->det_dispatch)))
            return from; /* a CTA to dispatch */
        uint64_t t = sm_next(g, sm, from - 1);
        if (t < next)
            next = t;
    }
    for (uint32_t p = 0; p < g->nparts && next > from; p++) {
        uint64_t t = g->parts[p].next_ev; /* as part_window left it */
        uint64_t d = icnt_next_delivery(g->reqnet, p);
        next = MIN(next, MIN(t, d));
    }
    /* the crossbars' own events (a flit that can move) come before any
     * delivery they cause, so a window must start no later than they do */
    next = MIN(next, icnt_next_event(g->reqnet));
    next = MIN(next, icnt_next_event(g->repnet));
    if (g->det && g->det_gate >= from)
        next = MIN(next, g->det_gate); /* GPUDet: a mode starts */
    for (uint32_t s = 0; g->dab && s < g->nsms; s++)
        if (g->sms[s].dab_gate >= from)
            next = MIN(next, g->sms[s].dab_gate); /* DAB: a flush ends */
    return next < from ? from : next;
}

/* One window's work for the pool: item i is an SM (i < nsms) or a
 * partition; -lockstep_window_order 1 takes them in reverse (on one thread
 * that changes the order they run in; the result must not change). */
typedef struct window_job {
    timing_gpu *g;
    uint64_t T, end;
    int rev;
    int fault;  /* a component's view faulted (or ran out of host memory) */
    int retire; /* an SM has a CTA that may retire */
} window_job;

static void window_item(void *ctx, uint32_t i)
{
    window_job *j = ctx;
    timing_gpu *g = j->g;
    uint32_t n = g->nsms + g->nparts;
    if (j->rev)
        i = n - 1 - i;
    const exec_launch *v;
    uint64_t steps;
    if (i < g->nsms) {
        tm_sm *sm = &g->sms[i];
        steps = sm_window(g, sm, j->T, j->end);
        if (sm->retire_hint)
            __atomic_store_n(&j->retire, 1, __ATOMIC_RELAXED);
        v = &sm->L;
    } else {
        tm_part *p = &g->parts[i - g->nsms];
        steps = part_window(g, p, j->T, j->end);
        v = &p->L;
    }
    if (g->tally)
        g->tally[pfor_self()].steps += steps;
    /* what the serial step must look at: the flags spare it a walk over
     * every component each window (any thread may set them, to 1 only) */
    if (v->fault != LOCKSTEP_SUCCESS || v->oom)
        __atomic_store_n(&j->fault, 1, __ATOMIC_RELAXED);
}

/* The serial step's crossbar advance, through cycle j->T: item 0 the
 * request direction, item 1 the reply direction. */
static void advance_item(void *ctx, uint32_t i)
{
    window_job *j = ctx;
    icnt_advance(i ? j->g->repnet : j->g->reqnet, j->T);
}

/* A fault in a component's view of the launch reaches the launch: of the
 * faults of one window, the first in the canonical order (cycle, then SM
 * before partition and by index, and within an SM its first), whatever
 * the host threads did.  Returns 1 if there was one. */
static int merge_faults(timing_gpu *g)
{
    exec_launch *L = g->L, *best = NULL;
    for (uint32_t i = 0; i < g->nsms + g->nparts; i++) {
        exec_launch *v = i < g->nsms ? &g->sms[i].L : &g->parts[i - g->nsms].L;
        if (v->oom)
            L->oom = 1;
        if (v->fault != LOCKSTEP_SUCCESS && (!best || v->fault_cycle < best->fault_cycle))
            best = v;
    }
    if (!best || L->fault != LOCKSTEP_SUCCESS)
        return best != NULL;
    L->fault = best->fault;
    L->fault_cycle = best->fault_cycle;
    L->fault_addr = best->fault_addr;
    L->fault_pc = best->fault_pc;
    L->fault_warp = best->fault_warp;
    L->fault_lane = best->fault_lane;
    memcpy(L->fault_cta, best->fault_cta, sizeof L->fault_cta);
    memcpy(L->fault_tid, best->fault_tid, sizeof L->fault_tid);
    sb_clear(&L->fault_msg);
    sb_append(&L->fault_msg, sb_cstr(&best->fault_msg), best->fault_msg.len);
    return 1;
}

/* DMR: a kernel fault of one copy of a pair is a difference between the
 * copies, as a differing write is (the fault is an output of the sphere
 * of replication): the copy is stopped, its SM runs on through the rest
 * of the window from where it stopped, and the pair fails when
 * both copies are done, to be reissued.  Both copies faulting alike is
 * the program's fault and stops the launch as without DMR.  In SM order,
 * at cycles fixed by the faults: the same for any thread count. */
static void dmr_absorb_faults(timing_gpu *g, uint64_t end)
{
    for (uint32_t s = 0; s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        while (dmr_copy_fault(g, sm))
            sm_window(g, sm, sm->resume_at, end);
    }
}

/* The latest progress of any component, into g->progress_at. */
static void gather_progress(timing_gpu *g)
{
    for (uint32_t s = 0; s < g->nsms; s++)
        g->progress_at = MAX(g->progress_at, g->sms[s].progress_at);
    for (uint32_t p = 0; p < g->nparts; p++)
        g->progress_at = MAX(g->progress_at, g->parts[p].progress_at);
}

/* The serial step's built-in calls: each warp that reached a call of
 * vprintf, malloc, free or __assertfail in the window runs it now on the
 * launch itself (device memory's allocator and the printf buffer are the
 * whole GPU's), in the order (cycle issued, SM, order on the SM), and goes
 * on one crossbar latency after it issued the call: never before this
 * step, and independent of where the window began. */
static int run_syscalls(timing_gpu *g, uint64_t now)
{
    exec_launch *L = g->L;
    uint32_t *done = g->sys_next; /* per SM: calls taken */
    int ran = 0;
    memset(done, 0, g->nsms * sizeof *done);
    while (L->fault == LOCKSTEP_SUCCESS) {
        tm_sm *first = NULL;
        for (uint32_t s = 0; s < g->nsms; s++) {
            tm_sm *sm = &g->sms[s];
            if (done[s] < sm->nsys &&
                (!first || sm->sys[done[s]]->sys_at < first->sys[done[first->id]]->sys_at))
                first = sm;
        }
        if (!first)
            break;
        tm_warp *tw = first->sys[done[first->id]++];
        sm_syscall(first, tw, L, MAX(now, tw->sys_at + g->xwin));
        ran = 1;
    }
    for (uint32_t s = 0; s < g->nsms; s++)
        g->sms[s].nsys = 0;
    return ran;
}

/* The launch in windows of g->window cycles [T, T+W).  Within a window
 * every SM and every partition runs on its own, on whichever host thread
 * the pool gives it: nothing one component does in a window can reach
 * another before the window ends, because crossbar deliveries take at
 * least the crossbar latency (>= W) and input space freed in the crossbar
 * reaches a source W - 1 cycles later (icnt.h, "Windows").  Between
 * windows, one serial step merges faults in the canonical order, runs
 * built-in calls, advances the crossbars, retires finished CTAs,
 * dispatches new ones, checks the limits and the watchdog, and jumps over
 * time in which nothing can happen.  The result is therefore the same for
 * every number of threads and every order (docs/ARCHITECTURE.md). */
static lockstep_status run_loop(timing_gpu *g, launch_state *ls)
{
    exec_launch *L = g->L;
    const lockstep_config *cfg = g->cfg;
    uint64_t T = g->now, last = g->now, start = g->now;
    g->progress_at = T;
    for (uint32_t s = 0; s < g->nsms; s++) {
        g->sms[s].last_active = 0;
        g->sms[s].progress_at = T;
        g->sms[s].charged = T;
    }
    for (uint32_t p = 0; p < g->nparts; p++) {
        g->parts[p].last_active = 0;
        g->parts[p].progress_at = T;
    }
    window_job job = {g, 0, 0, cfg->window_order != 0, 0, 0};
    for (;;) {
        uint64_t end = T + g->window;
        if (g->dmr) {
            dispatch_dmr(g, ls, T);
        } else if (tm_dwp(g)) {
            dispatch_dwp(g, ls, T);
        } else if (!g->det || g->det_dispatch) {
            /* GPUDet without DWP dispatches only between quanta */
            dispatch_round_robin(g, ls, T);
            g->det_dispatch = 0;
        }
        if (L->fault != LOCKSTEP_SUCCESS)
            break;
        job.T = T;
        job.end = end;
        /* A window is shared out only when there is enough in it to pay
         * for the threads' meeting (about as much host time as a hundred
         * SM steps here): at least two SMs hold work, and the last window
         * took TM_SHARE_STEPS steps or more (steps are simulated events,
         * the same on any number of threads).  Otherwise it runs on this
         * thread: any order gives the same result.  Without the first
         * rule a program of one-CTA launches was 2.5x slower on two
         * threads; without the second, programs whose windows hold a few
         * dozen steps (nw, bfs on the TITAN V config) ran 1.5 to 2.2x
         * slower. */
        uint64_t steps = 0;
        for (uint32_t k = 0; g->tally && k < pfor_threads(g->pool); k++) {
            steps += g->tally[k].steps;
            g->tally[k].steps = 0;
        }
        uint32_t busy = 0;
        for (uint32_t s = 0; g->pool && steps >= TM_SHARE_STEPS && s < g->nsms && busy < 2; s++)
            busy += sm_busy(&g->sms[s]) != 0;
        pfor *pool = busy >= 2 ? g->pool : NULL;
        job.fault = job.retire = 0;
        pfor_run(pool, g->nsms + g->nparts, window_item, &job);
        LS_ASSERT(end > T && g->window >= 1);
        g->now = end - 1;
        if (g->dmr) {
            dmr_absorb_faults(g, end);
            if (g->dmr_copy_timeout)
                dmr_stop_hung(g, end);
        }
        if ((job.fault || g->dmr) && merge_faults(g))
            break;
        if (run_syscalls(g, end))
            job.retire = 1;
        if (L->fault != LOCKSTEP_SUCCESS)
            break;
        /* the two directions are independent: on two host threads when
         * the window was shared out */
        job.T = end - 1;
        pfor_run(pool, 2, advance_item, &job);
        for (uint32_t s = 0; (job.retire || g->dmr) && s < g->nsms && L->fault == LOCKSTEP_SUCCESS;
             s++)
            if (g->sms[s].retire_hint) {
                g->sms[s].retire_hint = 0;
                retire(g, ls, s);
            }
        if (g->dmr && L->fault == LOCKSTEP_SUCCESS)
            dmr_step(g, end, &ls->done_ctas);
        if (g->det && L->fault == LOCKSTEP_SUCCESS)
            gpudet_step(g, ls->occ, L->nwarps, end, ls->done_ctas < ls->total_ctas);
        if (g->dab && L->fault == LOCKSTEP_SUCCESS)
            dab_step(g, ls->occ, L->nwarps, end, ls->done_ctas == ls->total_ctas);
        /* observers of the whole launch (fault injection lands here, the
         * same for any number of threads) */
        if (L->hooks && L->hooks->step && L->fault == LOCKSTEP_SUCCESS) {
            uint64_t n = L->warp_insts;
            for (uint32_t s = 0; s < g->nsms; s++)
                n += g->sms[s].L.warp_insts;
            L->hooks->step(L->hooks->ud, L, end - start, n, g);
        }
        tm_observe_window(g, end, ls->done_ctas, ls->total_ctas);
        if (L->fault == LOCKSTEP_SUCCESS && L->oom)
            exec_fault(L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
                       "out of host memory in the timing model");
        if (L->fault != LOCKSTEP_SUCCESS)
            break;
        uint64_t insts = L->warp_insts;
        for (uint32_t s = 0; s < g->nsms; s++)
            insts += g->sms[s].L.warp_insts;
        if (L->opt.max_warp_insts && insts > L->opt.max_warp_insts) {
            /* name the first warp still running, in SM, slot and warp order */
            exec_cta *fc = NULL;
            exec_warp *fw = NULL;
            for (uint32_t s = 0; s < g->nsms && !fw; s++)
                for (uint32_t k = 0; k < ls->occ && !fw; k++) {
                    tm_cta *tc = &g->sms[s].ctas[k];
                    for (uint32_t i = 0; tc->active && i < L->nwarps && !fw; i++)
                        if (tc->c->warps[i].state == WARP_RUNNING) {
                            fc = tc->c;
                            fw = &tc->c->warps[i];
                        }
                }
            exec_fault(L, fc, fw, -1, fw && fw->sp ? fw->stack[fw->sp - 1].pc : IR_NO_PC,
                       LOCKSTEP_ERROR_INSN_LIMIT, 0,
                       "the launch ran past the limit of %llu warp instructions "
                       "(-lockstep_max_warp_insts)%s",
                       (unsigned long long)L->opt.max_warp_insts,
                       fw ? "; this warp was running" : "");
            break;
        }
        if (exec_program_insts_limit(L, insts, NULL, NULL))
            break;
        if (exec_limits(L, end - start, ls->slots, ls->nslots))
            break;
        if (ls->done_ctas == ls->total_ctas) {
            int idle = icnt_idle(g->reqnet) && icnt_idle(g->repnet) && (!g->dab || dab_idle(g));
            for (uint32_t p = 0; idle && p < g->nparts; p++)
                idle = part_idle(&g->parts[p]);
            if (idle)
                break;
        }
        uint64_t next = next_event(g, ls, end);
        /* the watchdog: g->progress_at (a lower bound of the components'
         * latest progress) is brought up to date only when it would fire */
        if (next == TM_NEVER || (cfg->deadlock_cycles && next > g->progress_at &&
                                 next - g->progress_at > cfg->deadlock_cycles))
            gather_progress(g);
        if (next == TM_NEVER ||
            (cfg->deadlock_cycles && next > g->progress_at &&
             next - g->progress_at > cfg->deadlock_cycles)) {
            exec_fault(L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_BARRIER_DEADLOCK, 0,
                       "no progress for %llu cycles at cycle %llu (-lockstep_deadlock_cycles): "
                       "%llu of %llu CTAs finished; warps wait for each other or for memory "
                       "that never answers",
                       (unsigned long long)((next == TM_NEVER ? end : next) - g->progress_at),
                       (unsigned long long)end, (unsigned long long)ls->done_ctas,
                       (unsigned long long)ls->total_ctas);
            break;
        }
        if (!cfg->skip) /* -lockstep_skip 0: every window, to check that jumping is exact */
            next = end;
        /* nothing acts in [end, next): jump (the SMs count those cycles
         * when they next settle) */
        T = next;
    }
    /* the launch ends after the last cycle in which anything acted */
    for (uint32_t s = 0; s < g->nsms; s++)
        last = MAX(last, g->sms[s].last_active);
    for (uint32_t p = 0; p < g->nparts; p++)
        last = MAX(last, g->parts[p].last_active);
    if (L->fault != LOCKSTEP_SUCCESS)
        last = MAX(last, g->now);
    if (g->det && L->fault == LOCKSTEP_SUCCESS && g->det_gate)
        last = MAX(last, g->det_gate - 1); /* the last commit's cycles */
    if (g->dab && L->fault == LOCKSTEP_SUCCESS && g->dab_busy_until)
        last = MAX(last, g->dab_busy_until - 1); /* the last flush's cycles */
    g->end = last + 1;
    /* The schedulers' cycles were charged through the last window, which
     * ends up to a window after the launch does, wherever windows fell:
     * those cycles, in which nothing was resident any more (or only CTAs
     * all of whose warps had ended), are idle ones, and do not count. */
    uint64_t charged_to = g->now + 1;
    if (L->fault == LOCKSTEP_SUCCESS && charged_to > g->end)
        for (uint32_t s = 0; s < g->nsms; s++) {
            uint64_t over = (charged_to - g->end) * g->nsched;
            tm_sm *sm = &g->sms[s];
            LS_ASSERT(sm->stall[LOCKSTEP_STALL_IDLE] >= over);
            sm->stall[LOCKSTEP_STALL_IDLE] -= MIN(over, sm->stall[LOCKSTEP_STALL_IDLE]);
        }
    /* The next launch starts after the crossbars' time, so that its first
     * window holds (see icnt.h).  The last window ends less than a window
     * after the launch, so a window's length after the launch's end is
     * always enough, whatever the windows' placement: the gap is idle time
     * between launches. */
    g->now = MAX(g->end + g->window - 1, MAX(icnt_now(g->reqnet), icnt_now(g->repnet)) + 1);
    return L->fault;
}

/* The DRAM counters summed over the partitions. */
static void dram_totals(const timing_gpu *g, dram_stats *t)
{
    memset(t, 0, sizeof *t);
    for (uint32_t p = 0; p < g->nparts; p++) {
        dram_stats d;
        dram_get_stats(g->parts[p].dram, &d);
        t->reads += d.reads;
        t->writes += d.writes;
        t->row_hits += d.row_hits;
        t->activates += d.activates;
        t->refreshes += d.refreshes;
    }
}

/* A component's view of launch L: the same launch, with its own counters,
 * fault, memory answer and clock (timing_int.h, "Per-component state"). */
static void view_begin(exec_launch *v, const exec_launch *L, void *owner, const uint64_t *clock)
{
    strbuf msg = v->fault_msg; /* keep its buffer from launch to launch */
    *v = *L;
    v->fault_msg = msg;
    sb_clear(&v->fault_msg);
    v->warp_insts = v->thread_insts = 0;
    memset(v->mix, 0, sizeof v->mix);
    v->fault = LOCKSTEP_SUCCESS;
    v->fault_cycle = 0;
    v->oom = 0;
    v->mem_issue = sm_mem_issue;
    v->timing = owner;
    v->cycle = clock;
    v->mem.status = EXEC_MEM_NONE;
    /* the GPU-wide parts are the serial step's: no view reaches them */
    v->printf_out = NULL;
    v->dev = (exec_device_ops){0};
    v->pool = NULL;
    v->slots = NULL; /* other SMs' CTAs: the serial step's */
    v->nslots = 0;
}

/* Sum a view's counters into the launch. */
static void view_end(exec_launch *L, const exec_launch *v)
{
    L->warp_insts += v->warp_insts;
    L->thread_insts += v->thread_insts;
    for (int m = 0; m < MIX_COUNT; m++)
        L->mix[m] += v->mix[m];
}

/* Add a component's timing counters to the launch's (the table's
 * counters: a component has no cycle count, occupancy or stall breakdown
 * of its own in st). */
static void stats_add(lockstep_timing_stats *st, const lockstep_timing_stats *c)
{
#define ADD_COUNTER(member, name, what) st->member += c->member;
    LOCKSTEP_TIMING_COUNTERS(ADD_COUNTER)
#undef ADD_COUNTER
}

lockstep_status timing_run(timing_gpu *g, exec_launch *L, lockstep_timing_stats *st)
{
    memset(st, 0, sizeof *st);
    g->L = L;
    g->st = st;
    const ir_func *k = &L->mod->funcs[L->kernel];
    uint32_t regs = config_occupancy_regs(g->cfg, k->total_regs ? k->total_regs : k->reg32_count);
    launch_state ls;
    memset(&ls, 0, sizeof ls);
    ls.occ = config_cta_occupancy(g->cfg, L->nthreads, regs, L->shared_bytes);
    if (!ls.occ) {
        uint32_t warps = (L->nthreads + WARP_SIZE - 1) / WARP_SIZE;
        if (warps * WARP_SIZE > g->threads_per_sm)
            return fail_launch(L, LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES,
                               "a CTA of %u threads does not fit on an SM of %u threads "
                               "(-gpgpu_shader_core_pipeline)",
                               L->nthreads, g->threads_per_sm);
        if (L->shared_bytes > g->shmem_per_sm)
            return fail_launch(L, LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES,
                               "a CTA's %u bytes of shared memory do not fit in an SM's %u "
                               "(-gpgpu_shmem_size)",
                               L->shared_bytes, g->shmem_per_sm);
        exec_fault(L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES, 0,
                   "a CTA needs %u registers (%u per thread for occupancy), more than an SM's %u "
                   "(-gpgpu_shader_registers, -lockstep_regs_per_thread)",
                   regs * warps * WARP_SIZE, regs, g->regs_per_sm);
        return L->fault;
    }
    if (prepare_insns(g, L->mod)) {
        L->oom = 1;
        return fail_launch(L, LOCKSTEP_ERROR_OUT_OF_MEMORY, "out of host memory (%u, %u)", 0, 0);
    }
    ls.nslots = g->nsms * ls.occ;
    if (g->dmr && g->dmr_pairing == DMR_PAIR_SLOT && ls.nslots < 2)
        return fail_launch(L, LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES,
                           "-lockstep_redundancy dmr needs two CTA slots for a pair; "
                           "the GPU holds %u CTA%.0u of this kernel", ls.nslots, 0);
    if (g->dmr && g->dmr_pairing == DMR_PAIR_SM && g->nsms < 2)
        return fail_launch(L, LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES,
                           "-lockstep_redundancy dmr with -dmr_pair sm needs two SMs; "
                           "the GPU has %u%.0u (or use -dmr_pair slot)", g->nsms, 0);
    if (g->dmr && g->dmr_pairing == DMR_PAIR_CORE && ls.occ < 2)
        return fail_launch(L, LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES,
                           "-lockstep_redundancy dmr with -dmr_pair core needs two CTA slots "
                           "on an SM; an SM holds %u CTA%.0u of this kernel (or use -dmr_pair sm)",
                           ls.occ, 0);
    ls.total_ctas = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    ls.slots = exec_slots_get(L, ls.nslots);
    ls.ctas = calloc(ls.nslots, sizeof *ls.ctas);
    ls.freed = calloc(ls.nslots, sizeof *ls.freed);
    if (g->dmr) {
        ls.slot_from = calloc(ls.nslots, sizeof *ls.slot_from);
        ls.cand = calloc(ls.nslots, sizeof *ls.cand);
        dmr_echo_free(g);
        g->dmr_npairs = g->dmr_nredo = g->dmr_ndone = g->dmr_nhalf = 0;
        for (uint32_t p = 0; p < g->nparts; p++)
            g->parts[p].dmr_max = 0;
        if (!ls.slot_from || !ls.cand)
            ls.freed = (free(ls.freed), NULL); /* reported below, with the rest */
    }
    ls.warps = calloc((size_t)ls.nslots * L->nwarps, sizeof *ls.warps);
    uint32_t nsw = (ls.occ * L->nwarps + g->nsched - 1) / g->nsched;
    int ok = ls.slots && ls.ctas && ls.warps && ls.freed;
    L->cycle = &g->now; /* the serial step's clock */
    L->cycle_ns = 1000.0 / g->mhz[0];
    L->slots = ls.slots;
    L->nslots = ls.slots ? ls.nslots : 0;
    for (uint32_t s = 0; ok && s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        sm->ctas = ls.ctas + (size_t)s * ls.occ;
        sm->nresident_slots = ls.occ;
        sm->nresident = 0;
        sm->nfinished = 0;
        sm->nsw = nsw;
        sm->rq_live = 0; /* new warps and lists: sm_cycle builds the queues */
        for (uint32_t q = 0; ok && q < g->nsched; q++) {
            free(sm->sched[q]);
            ok = (sm->sched[q] = calloc(nsw ? nsw : 1, sizeof(tm_warp *))) != NULL;
        }
        uint32_t fill[TM_MAX_SCHED] = {0};
        for (uint32_t j = 0; ok && j < ls.occ; j++) {
            tm_cta *tc = &sm->ctas[j];
            tc->c = &ls.slots[(size_t)s * ls.occ + j];
            tc->c->active = 0;
            tc->warps = ls.warps + ((size_t)s * ls.occ + j) * L->nwarps;
            for (uint32_t i = 0; i < L->nwarps; i++) {
                tc->warps[i].tc = tc;
                sm_warp_park(sm, &tc->warps[i]);
                uint32_t q = (j * L->nwarps + i) % g->nsched;
                sm->sched[q][fill[q]++] = &tc->warps[i];
            }
        }
        sm_launch_begin(sm);
        view_begin(&sm->L, L, sm, &sm->now);
        sm->now = g->now;
        sm_nondet_begin(sm, g->now);
        if ((g->det || g->dab) && ok) {
            /* GPUDet's store buffer, or DAB's atomic buffers, are the first
             * stage of the chain */
            exec_interposer *ch = realloc(sm->det_chain, (1 + (size_t)L->nchain) * sizeof *ch);
            if (!(ok = ch != NULL))
                break;
            sm->det_chain = ch;
            ch[0] = g->det ? (exec_interposer){"gpudet store buffer", sm, gpudet_request}
                           : (exec_interposer){"dab atomic buffers", sm, dab_request};
            for (uint32_t c = 0; c < L->nchain; c++)
                ch[1 + c] = L->chain[c];
            sm->L.chain = ch;
            sm->L.nchain = 1 + L->nchain;
        }
    }
    for (uint32_t p = 0; ok && p < g->nparts; p++) {
        tm_part *pt = &g->parts[p];
        view_begin(&pt->L, L, pt, &g->now);
        memset(&pt->st, 0, sizeof pt->st);
        pt->next_ev = part_next_event(pt, g->now > 0 ? g->now - 1 : 0);
    }
    if (ok && tm_dwp(g)) {
        uint64_t *nx = realloc(g->det_dwp_next, ls.nslots * sizeof *nx);
        if ((ok = nx != NULL)) {
            g->det_dwp_next = nx;
            for (uint32_t q = 0; q < ls.nslots; q++)
                nx[q] = q;
            g->det_total_ctas = ls.total_ctas;
        }
    }
    if (g->det && ok)
        gpudet_launch_begin(g, g->now);
    if (g->dab && ok)
        ok = dab_launch_begin(g, L->mod, L->kernel, ls.occ, L->nwarps, ls.nslots) == 0;
    lockstep_status ret;
    if (!ok) {
        L->oom = 1;
        ret = fail_launch(L, LOCKSTEP_ERROR_OUT_OF_MEMORY, "out of host memory for %u CTA slots%.0u",
                          ls.nslots, 0);
    } else {
        uint64_t start = g->now;
        icnt_stats i0[2], i1[2];
        icnt_get_stats(g->reqnet, &i0[0]);
        icnt_get_stats(g->repnet, &i0[1]);
        dram_stats d0, d1;
        dram_totals(g, &d0);
        tm_observe_begin(g, ls.occ);
        hostfp_env env;
        hostfp_enter(&env);
        L->host_t0 = exec_host_ns();
        ret = run_loop(g, &ls);
        hostfp_leave(&env);
        for (uint32_t s = 0; s < g->nsms; s++) {
            view_end(L, &g->sms[s].L);
            stats_add(st, &g->sms[s].st);
        }
        for (uint32_t p = 0; p < g->nparts; p++) {
            stats_add(st, &g->parts[p].st);
            st->dmr_log_entries_max = MAX(st->dmr_log_entries_max, g->parts[p].dmr_max);
        }
        st->cycles = g->end - start;
        st->max_ctas_per_sm = ls.occ;
        icnt_get_stats(g->reqnet, &i1[0]);
        icnt_get_stats(g->repnet, &i1[1]);
        st->icnt_req_packets = i1[0].packets - i0[0].packets;
        st->icnt_req_flits = i1[0].flits - i0[0].flits;
        st->icnt_rep_packets = i1[1].packets - i0[1].packets;
        st->icnt_rep_flits = i1[1].flits - i0[1].flits;
        st->icnt_bypasses = (i1[0].bypasses + i1[1].bypasses) - (i0[0].bypasses + i0[1].bypasses);
        st->icnt_store_waits = i1[0].order_stalls - i0[0].order_stalls;
        st->icnt_stalls = (i1[0].arb_stalls + i1[0].out_full_stalls + i1[1].arb_stalls +
                           i1[1].out_full_stalls) -
                          (i0[0].arb_stalls + i0[0].out_full_stalls + i0[1].arb_stalls +
                           i0[1].out_full_stalls);
        dram_totals(g, &d1);
        st->dram_reads = d1.reads - d0.reads;
        st->dram_writes = d1.writes - d0.writes;
        st->dram_row_hits = d1.row_hits - d0.row_hits;
        st->dram_activates = d1.activates - d0.activates;
        st->dram_refreshes = d1.refreshes - d0.refreshes;
        for (uint32_t s = 0; s < g->nsms; s++)
            for (int r = 0; r < LOCKSTEP_STALL_COUNT; r++)
                st->stall[r] += g->sms[s].stall[r];
        tm_observe_end(g, st);
    }
    if (g->dmr_lvr)
        dmr_lvq_reset(g); /* (before the mops are freed for the next launch) */
    if (ret != LOCKSTEP_SUCCESS) {
        /* a fault leaves requests in flight: drop them so the next launch starts clean */
        timing_reset_inflight(g);
    }
    L->cycle = NULL;
    L->cycle_ns = 0;
    L->slots = NULL;
    L->nslots = 0;
    for (uint32_t s = 0; s < g->nsms; s++)
        g->sms[s].ctas = NULL;
    if (ls.warps)
        for (size_t i = 0; i < (size_t)ls.nslots * L->nwarps; i++) {
            free(ls.warps[i].rready);
            free(ls.warps[i].pready);
            free(ls.warps[i].det.log);
            free(ls.warps[i].dmr_acks);
        }
    free(ls.warps);
    free(ls.ctas);
    free(ls.freed);
    free(ls.slot_from);
    free(ls.cand);
    if (ls.slots)
        exec_slots_put(L, ls.slots, ls.nslots);
    g->L = NULL;
    g->st = NULL;
    return ret;
}
