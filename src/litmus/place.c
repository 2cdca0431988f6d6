/*
 * place.c -- placing a litmus test's instances on the grid, one iteration
 * at a time (place.h).  Plain C99 with no lockstep dependency: the CUDA
 * generator copies this file into the programs it writes.
 *
 * Warps are handed out in groups, one group per set of instances that share
 * warps: each CTA group of the test gets a distinct CTA, each warp group a
 * distinct free warp of that CTA.  A group holds 32/m instances, m the most
 * threads any warp group has (lane packing: lane j of a T0 warp and lane j of
 * a T1 warp form one instance), or one instance with the bank incantation,
 * whose other lanes are companions running the same code on dummy addresses.
 * With memory stress, half of each CTA's warps stress instead of testing.
 * Random placement draws CTAs, warps and lanes from the stream; without it
 * they are taken in order.  The locations' addresses are always permuted
 * between instances.
 */
#include "place.h"

#include <stdio.h>
#include <string.h>

uint64_t lp_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint32_t lp_below(uint64_t *state, uint32_t n)
{
    return n ? (uint32_t)(((lp_next(state) >> 32) * (uint64_t)n) >> 32) : 0;
}

/* Fisher-Yates over a[0..n). */
static void shuffle(uint32_t *a, uint32_t n, uint64_t *rng)
{
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = lp_below(rng, i);
        uint32_t x = a[i - 1];
        a[i - 1] = a[j];
        a[j] = x;
    }
}

/* Threads in each warp group, the most in any, warp groups per CTA group. */
static int group_sizes(const lp_test *t, int *wthreads, int *cwarps)
{
    int most = 1;
    memset(wthreads, 0, sizeof(int) * LP_MAX_THREADS);
    memset(cwarps, 0, sizeof(int) * LP_MAX_THREADS);
    for (int k = 0; k < t->nthreads; k++)
        if (++wthreads[t->thread_warp[k]] > most)
            most = wthreads[t->thread_warp[k]];
    for (int w = 0; w < t->nwarps; w++)
        for (int k = 0; k < t->nthreads; k++)
            if (t->thread_warp[k] == w) {
                cwarps[t->thread_cta[k]]++;
                break;
            }
    return most;
}

static uint32_t testing_warps(const lp_opts *o)
{
    return (o->incant & LP_INC_STRESS) ? (o->warps + 1) / 2 : o->warps;
}

int lp_sizes_of(const lp_test *t, const lp_opts *o, lp_sizes *s, char *msg, int msglen)
{
    int wthreads[LP_MAX_THREADS], cwarps[LP_MAX_THREADS];
    int most = group_sizes(t, wthreads, cwarps);
    memset(s, 0, sizeof *s);
    if (o->ctas < (uint32_t)t->nctas) {
        snprintf(msg, (size_t)msglen, "the test needs %d CTAs; the grid has %u", t->nctas,
                 o->ctas);
        return -1;
    }
    for (int c = 0; c < t->nctas; c++)
        if ((uint32_t)cwarps[c] > testing_warps(o)) {
            snprintf(msg, (size_t)msglen,
                     "the test needs %d warps in one CTA; %u warps per CTA test%s", cwarps[c],
                     testing_warps(o), (o->incant & LP_INC_STRESS) ? " (half stress)" : "");
            return -1;
        }
    s->threads = o->ctas * o->warps * 32;
    uint32_t per = (o->incant & LP_INC_BANK) ? 1 : (uint32_t)(32 / most);
    s->max_inst = o->ctas * testing_warps(o) * per;
    if (o->max_instances && s->max_inst > o->max_instances)
        s->max_inst = o->max_instances;
    int nglobal = 0, nshared = 0, wide = 0;
    for (int l = 0; l < t->nlocs; l++) {
        if (t->loc_shared[l])
            nshared++;
        else
            nglobal++;
        if (t->loc_bytes[l] > 4)
            wide = 1;
    }
    uint32_t stride = o->stride < 8 && wide ? 8 : o->stride;
    s->loc_span = ((uint64_t)s->max_inst * stride + LP_LOC_ALIGN - 1) / LP_LOC_ALIGN * LP_LOC_ALIGN;
    s->region_bytes = (uint64_t)(nglobal ? nglobal : 1) * s->loc_span;
    s->sstride = wide ? 8 : 4;
    /* a CTA holds at most warps * 32 instances */
    s->smem_loc_bytes = (uint32_t)nshared * o->warps * 32 * s->sstride;
    return 0;
}

void lp_place(const lp_test *t, const lp_opts *o, const lp_sizes *s, uint64_t *rng, lp_layout *l)
{
    int wthreads[LP_MAX_THREADS], cwarps[LP_MAX_THREADS];
    int most = group_sizes(t, wthreads, cwarps);
    const int random = (o->incant & LP_INC_RANDOM) != 0, bank = (o->incant & LP_INC_BANK) != 0;
    const uint32_t tw = testing_warps(o), per = bank ? 1 : (uint32_t)(32 / most);
    uint32_t stride = o->stride;
    for (int k = 0; k < t->nlocs; k++)
        if (t->loc_bytes[k] > 4 && stride < 8)
            stride = 8;

    /* every thread idle; stress warps marked */
    for (uint32_t c = 0; c < o->ctas; c++)
        for (uint32_t w = 0; w < o->warps; w++)
            for (uint32_t ln = 0; ln < 32; ln++)
                l->roles[(c * o->warps + w) * 32 + ln] =
                    LP_ROLE_NONE | (w >= tw ? LP_ROLE_STRESS : 0u);

    /* free testing warps per CTA: free[c*tw .. c*tw+nfree[c]) */
    uint32_t freew[4096], nfree[1024];
    uint32_t nctas = o->ctas > 1024 ? 1024 : o->ctas;
    uint32_t ntw = tw * nctas > 4096 ? 4096 / nctas : tw;
    for (uint32_t c = 0; c < nctas; c++) {
        nfree[c] = ntw;
        for (uint32_t w = 0; w < ntw; w++)
            freew[c * ntw + w] = w;
    }
    uint32_t ptr = 0, inst = 0;
    uint32_t lanes[32];
    for (;;) {
        uint32_t take = inst + per > s->max_inst ? s->max_inst - inst : per;
        if (!take)
            break;
        /* pick a CTA per CTA group and warps in it */
        uint32_t cta_of[LP_MAX_THREADS], warp_of[LP_MAX_THREADS];
        int ok = 1;
        for (int g = 0; g < t->nctas && ok; g++) {
            uint32_t cand[1024], nc = 0;
            for (uint32_t i = 0; i < nctas; i++) {
                uint32_t c = (ptr + i) % nctas;
                int used = 0;
                for (int h = 0; h < g; h++)
                    used |= cta_of[h] == c;
                if (!used && nfree[c] >= (uint32_t)cwarps[g])
                    cand[nc++] = c;
            }
            if (!nc) {
                ok = 0;
                break;
            }
            cta_of[g] = random ? cand[lp_below(rng, nc)] : cand[0];
        }
        if (!ok)
            break;
        if (!random)
            ptr = (cta_of[0] + 1) % nctas;
        for (int w = 0; w < t->nwarps; w++) {
            int g = -1;
            for (int k = 0; k < t->nthreads; k++)
                if (t->thread_warp[k] == w)
                    g = t->thread_cta[k];
            uint32_t c = cta_of[g];
            uint32_t pick = random ? lp_below(rng, nfree[c]) : 0;
            warp_of[w] = c * o->warps + freew[c * ntw + pick];
            freew[c * ntw + pick] = freew[c * ntw + nfree[c] - 1];
            nfree[c]--;
            if (!random) /* keep the free list in order */
                for (uint32_t i = 0; i + 1 < nfree[c]; i++)
                    if (freew[c * ntw + i] > freew[c * ntw + i + 1]) {
                        uint32_t x = freew[c * ntw + i];
                        freew[c * ntw + i] = freew[c * ntw + i + 1];
                        freew[c * ntw + i + 1] = x;
                    }
        }
        /* lanes */
        for (int w = 0; w < t->nwarps; w++) {
            for (uint32_t ln = 0; ln < 32; ln++)
                lanes[ln] = ln;
            if (random)
                shuffle(lanes, 32, rng);
            uint32_t *row = &l->roles[warp_of[w] * 32];
            int q = 0, first = -1;
            for (int k = 0; k < t->nthreads; k++) {
                if (t->thread_warp[k] != w)
                    continue;
                if (first < 0)
                    first = k;
                for (uint32_t j = 0; j < take; j++)
                    row[lanes[j * (uint32_t)wthreads[w] + (uint32_t)q]] =
                        (uint32_t)k | LP_ROLE_TEST | ((inst + j) << 8);
                q++;
            }
            if (bank) /* companions: every other lane runs the first thread's code */
                for (uint32_t ln = 0; ln < 32; ln++)
                    if ((row[ln] & 15u) == LP_ROLE_NONE)
                        row[ln] = (uint32_t)first | (inst << 8);
        }
        inst += take;
    }
    l->ninst = inst;

    /* locations: each global location's copies permuted over the instances;
     * each shared location's copies permuted within the CTA */
    uint32_t *perm = l->scratch_u32;
    int gord = 0, sord = 0;
    for (int k = 0; k < t->nlocs; k++) {
        if (!t->loc_shared[k]) {
            for (uint32_t i = 0; i < inst; i++)
                perm[i] = i;
            shuffle(perm, inst, rng);
            for (uint32_t i = 0; i < inst; i++)
                l->offs[(uint64_t)i * (uint32_t)t->nlocs + (uint32_t)k] =
                    (uint64_t)gord * s->loc_span + (uint64_t)perm[i] * stride;
            gord++;
            continue;
        }
        uint32_t cap = o->warps * 32;
        for (uint32_t i = 0; i < cap; i++)
            perm[i] = i;
        shuffle(perm, cap, rng);
        /* instance i's index among the instances in its CTA: count in a
         * per-CTA counter, found from the role table */
        uint32_t cnt[1024];
        memset(cnt, 0, sizeof cnt);
        for (uint32_t i = 0; i < inst; i++)
            l->offs[(uint64_t)i * (uint32_t)t->nlocs + (uint32_t)k] = UINT64_MAX;
        for (uint32_t th = 0; th < s->threads; th++) {
            uint32_t r = l->roles[th];
            if (!(r & LP_ROLE_TEST) || (r & 15u) == LP_ROLE_NONE)
                continue;
            if (t->thread_cta[r & 15u] != t->loc_cta[k])
                continue;
            uint32_t i = r >> 8, c = th / (o->warps * 32);
            uint64_t *slot = &l->offs[(uint64_t)i * (uint32_t)t->nlocs + (uint32_t)k];
            if (*slot == UINT64_MAX && c < 1024)
                *slot = ((uint64_t)sord * cap + perm[cnt[c]++ % cap]) * s->sstride;
        }
        for (uint32_t i = 0; i < inst; i++)
            if (l->offs[(uint64_t)i * (uint32_t)t->nlocs + (uint32_t)k] == UINT64_MAX)
                l->offs[(uint64_t)i * (uint32_t)t->nlocs + (uint32_t)k] = 0;
        sord++;
    }

    /* bank incantation: an access type per memory instruction */
    for (int k = 0; k < LP_MAX_THREADS; k++)
        for (int j = 0; j < LP_MAX_MEM; j++) {
            uint32_t a = LP_ACC_PARALLEL;
            if (bank && k < t->nthreads && j < t->nmem[k]) {
                if (t->mem_load[k][j] && t->loops)
                    a = LP_ACC_BROADCAST;
                else if (t->mem_load[k][j])
                    a = lp_below(rng, 3);
                else
                    a = lp_below(rng, 2) ? LP_ACC_CONFLICT : LP_ACC_PARALLEL;
            }
            l->acc[k * LP_MAX_MEM + j] = a;
        }
    /* memory stress: which line of the stride the stress lines start at
     * (the address map's hash spreads the lines over the partitions) */
    l->acc[LP_ACC_STRESS] =
        (o->incant & LP_INC_STRESS) && o->stress_stride > 128 ? lp_below(rng, o->stress_stride / 128) * 128 : 0;
}
