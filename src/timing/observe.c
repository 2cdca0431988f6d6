/*
 * observe.c -- what the timing model shows while it runs, without changing
 * it: the Chrome trace (-lockstep_trace FILE, opened in Perfetto or
 * chrome://tracing) and the terminal progress line (-lockstep_progress 1).
 * The engine (engine.c) calls in at launch start and end, after every
 * window and when a CTA retires; nothing here feeds back into the model,
 * and host time is read only to pace the progress line.
 *
 * The trace, in simulated microseconds (cycles / core MHz):
 *   - process "GPU", track "kernels": one slice per launch, with its grid,
 *     block, gpu_sim_cycle, gpu_sim_insn and IPC;
 *   - process "SM s", one track per CTA slot: one slice per CTA, from its
 *     dispatch to its retirement;
 *   - process "SM s", counters sampled every -lockstep_trace_interval
 *     cycles: "issue" (warp instructions per cycle, resident CTAs) and
 *     "stalls" (the share of scheduler-cycles of each stall reason).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing/timing_int.h"
#include "util/ctrace.h"

static const char *const stall_names[LOCKSTEP_STALL_COUNT] = {
    "issued", "idle", "scoreboard", "fu_busy", "memory", "barrier", "fence", "no_inst", "det", "sleep",
};

const char *timing_stall_name(lockstep_stall s)
{
    return (unsigned)s < LOCKSTEP_STALL_COUNT ? stall_names[s] : NULL;
}

#define GPU_PID 0u
#define SM_PID(s) (1u + (s))

static double host_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double us(const timing_gpu *g, uint64_t cycle) { return (double)cycle / g->mhz[0]; }

/* The trace's times are written to the nanosecond: a slice's start and
 * duration come from its start and end rounded, so a slice that ends
 * inside another (a CTA in its kernel) still does once both are rounded. */
static double ns_round(double t_us) { return floor(t_us * 1000.0 + 0.5) / 1000.0; }

static void slice(ctrace *t, uint32_t pid, uint32_t tid, const char *name, const char *cat,
                  const timing_gpu *g, uint64_t c0, uint64_t c1, const char *args)
{
    double t0 = ns_round(us(g, c0)), t1 = ns_round(us(g, c1));
    ctrace_complete(t, pid, tid, name, cat, t0, t1 - t0, args);
}

int tm_observe_open(timing_gpu *g, char *err, size_t errlen)
{
    const lockstep_config *cfg = g->cfg;
    if (!cfg->trace_file || !strcmp(cfg->trace_file, "none"))
        return 0;
    /* written as FILE.partial, renamed to FILE when finished: a run cut
     * short never leaves a trace that looks complete (lockstep run removes
     * the partial one) */
    char msg[512];
    size_t n = strlen(cfg->trace_file) + sizeof ".partial";
    if (!(g->trace_partial = malloc(n))) {
        snprintf(err, errlen, "out of host memory for the trace");
        return -1;
    }
    snprintf(g->trace_partial, n, "%s.partial", cfg->trace_file);
    if (!(g->trace = ctrace_open(g->trace_partial, msg, sizeof msg))) {
        free(g->trace_partial);
        g->trace_partial = NULL;
        snprintf(err, errlen, "-lockstep_trace: %s", msg);
        return -1;
    }
    g->obs_last = calloc(g->nsms, sizeof *g->obs_last);
    if (!g->obs_last) {
        ctrace_close(g->trace);
        g->trace = NULL;
        snprintf(err, errlen, "out of host memory for the trace");
        return -1;
    }
    ctrace_process_name(g->trace, GPU_PID, "GPU");
    ctrace_process_sort(g->trace, GPU_PID, 0);
    ctrace_thread_name(g->trace, GPU_PID, 0, "kernels");
    for (uint32_t s = 0; s < g->nsms; s++) {
        char name[32];
        snprintf(name, sizeof name, "SM %u", s);
        ctrace_process_name(g->trace, SM_PID(s), name);
        ctrace_process_sort(g->trace, SM_PID(s), (int32_t)(s + 1));
    }
    return 0;
}

int tm_observe_close(timing_gpu *g)
{
    int r = 0;
    if (g->trace) {
        r = ctrace_close(g->trace);
        if (!r && rename(g->trace_partial, g->cfg->trace_file))
            r = -1;
        if (r)
            remove(g->trace_partial);
    }
    g->trace = NULL;
    free(g->trace_partial);
    g->trace_partial = NULL;
    free(g->obs_last);
    g->obs_last = NULL;
    free(g->obs_slots);
    g->obs_slots = NULL;
    return r;
}

/* One counter sample per SM for the cycles since the last one. */
static void sample(timing_gpu *g, uint64_t now)
{
    uint64_t span = now - g->obs_at;
    if (!span)
        return;
    static const char *const issue_series[] = {"warp_ipc", "resident_ctas"};
    const char *stall_series[LOCKSTEP_STALL_COUNT];
    for (int r = 0; r < LOCKSTEP_STALL_COUNT; r++)
        stall_series[r] = timing_stall_name((lockstep_stall)r);
    for (uint32_t s = 0; s < g->nsms; s++) {
        tm_sm *sm = &g->sms[s];
        tm_obs_sm *o = &g->obs_last[s];
        double issue[2] = {(double)(sm->insts - o->insts) / (double)span, (double)sm->nresident};
        ctrace_counter(g->trace, SM_PID(s), "issue", us(g, now), 2, issue_series, issue);
        double st[LOCKSTEP_STALL_COUNT], all = 0;
        for (int r = 0; r < LOCKSTEP_STALL_COUNT; r++)
            all += (double)(sm->stall[r] - o->stall[r]);
        for (int r = 0; r < LOCKSTEP_STALL_COUNT; r++)
            st[r] = all > 0 ? (double)(sm->stall[r] - o->stall[r]) / all : 0;
        ctrace_counter(g->trace, SM_PID(s), "stalls", us(g, now), LOCKSTEP_STALL_COUNT,
                       stall_series, st);
        o->insts = sm->insts;
        memcpy(o->stall, sm->stall, sizeof o->stall);
    }
    g->obs_at = now;
}

void tm_observe_begin(timing_gpu *g, uint32_t slots_per_sm)
{
    g->obs_start = g->now;
    g->obs_windows = 0;
    g->obs_printed = 0;
    g->obs_host0 = g->cfg->progress ? host_seconds() : 0;
    g->obs_host_last = g->obs_host0;
    if (!g->trace)
        return;
    /* name the CTA-slot tracks this launch uses that no launch named yet */
    for (uint32_t k = g->obs_named_slots; k < slots_per_sm; k++)
        for (uint32_t s = 0; s < g->nsms; s++) {
            char name[32];
            snprintf(name, sizeof name, "CTA slot %u", k);
            ctrace_thread_name(g->trace, SM_PID(s), k, name);
            ctrace_thread_sort(g->trace, SM_PID(s), k, (int32_t)k);
        }
    if (slots_per_sm > g->obs_named_slots)
        g->obs_named_slots = slots_per_sm;
    free(g->obs_slots);
    g->obs_slots = calloc((size_t)g->nsms * slots_per_sm, sizeof *g->obs_slots);
    g->obs_nslots = g->obs_slots ? slots_per_sm : 0;
    for (uint32_t s = 0; s < g->nsms; s++) {
        g->obs_last[s].insts = g->sms[s].insts;
        memcpy(g->obs_last[s].stall, g->sms[s].stall, sizeof g->obs_last[s].stall);
    }
    g->obs_at = g->now;
    g->obs_next = g->now + g->cfg->trace_interval;
}

void tm_observe_cta_start(timing_gpu *g, uint32_t sm, uint32_t slot, uint64_t now)
{
    if (g->trace && slot < g->obs_nslots)
        g->obs_slots[(size_t)sm * g->obs_nslots + slot] = now;
}

void tm_observe_cta_end(timing_gpu *g, uint32_t sm, uint32_t slot, const exec_cta *c,
                        uint64_t now)
{
    if (!g->trace || slot >= g->obs_nslots)
        return;
    uint64_t t0 = g->obs_slots[(size_t)sm * g->obs_nslots + slot];
    char name[64], args[64];
    snprintf(name, sizeof name, "CTA %u,%u,%u", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
    snprintf(args, sizeof args, "{\"cta\":%llu}", (unsigned long long)c->linear);
    slice(g->trace, SM_PID(sm), slot, name, "cta", g, t0, now, args);
}

/* The progress line: at most twice a second, after the launch has run a
 * second of host time, so short launches never print. */
static void progress(timing_gpu *g, uint64_t now, int last)
{
    const exec_launch *L = g->L;
    if (last) {
        if (g->obs_printed)
            fputs("\r\033[K", stderr);
        return;
    }
    double t = host_seconds();
    if (t - g->obs_host0 < 1.0 || t - g->obs_host_last < 0.5)
        return;
    g->obs_host_last = t;
    uint64_t cyc = now - g->obs_start;
    fprintf(stderr, "\r\033[K[lockstep] %.40s: cycle %llu, IPC %.2f, %llu of %llu CTAs done",
            L->mod->funcs[L->kernel].name, (unsigned long long)cyc,
            cyc ? (double)L->thread_insts / (double)cyc : 0.0,
            (unsigned long long)g->obs_done, (unsigned long long)g->obs_total);
    fflush(stderr);
    g->obs_printed = 1;
}

void tm_observe_window(timing_gpu *g, uint64_t now, uint64_t done_ctas, uint64_t total_ctas)
{
    if (g->trace && now >= g->obs_next) {
        sample(g, now);
        uint64_t iv = g->cfg->trace_interval;
        g->obs_next = now - (now - g->obs_start) % iv + iv;
    }
    /* reading the host clock costs more than a window: look every 4096 */
    if (g->cfg->progress && (++g->obs_windows & 4095) == 0) {
        g->obs_done = done_ctas;
        g->obs_total = total_ctas;
        progress(g, now, 0);
    }
}

void tm_observe_end(timing_gpu *g, const lockstep_timing_stats *st)
{
    const exec_launch *L = g->L;
    if (g->cfg->progress)
        progress(g, g->end, 1);
    if (!g->trace)
        return;
    sample(g, g->end);
    char args[256];
    snprintf(args, sizeof args,
             "{\"grid\":\"%u,%u,%u\",\"block\":\"%u,%u,%u\",\"gpu_sim_cycle\":%llu,"
             "\"gpu_sim_insn\":%llu,\"warp_insts\":%llu,\"gpu_ipc\":%.4f,\"status\":%d}",
             L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2],
             (unsigned long long)st->cycles, (unsigned long long)L->thread_insts,
             (unsigned long long)L->warp_insts,
             st->cycles ? (double)L->thread_insts / (double)st->cycles : 0.0, (int)L->fault);
    slice(g->trace, GPU_PID, 0, L->mod->funcs[L->kernel].name, "kernel", g, g->obs_start,
          g->obs_start + st->cycles, args);
}
