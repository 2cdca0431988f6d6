/*
 * sched.c -- the functional grid scheduler.
 *
 * A launch keeps up to `resident_ctas` CTAs executing at once (so CTAs
 * that signal each other through global memory make progress, as on a
 * GPU); CTAs start in linear order as slots free up.  Within the resident
 * set, warps take turns of `slice` instructions in a fixed order (slot by
 * slot, warp by warp), so a launch is deterministic.
 *
 * Barriers count threads: a warp arriving adds its active lanes and waits
 * until the count reaches the barrier's thread count (or, without one,
 * every live thread of the CTA: exited threads are not waited for).  A CTA
 * in which every live warp waits at a barrier that cannot complete is a
 * barrier deadlock, reported with the barrier, the pc and the warps.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "exec/exec.h"
#include "exec/hostfp.h"
#include "util/common.h"
#include "util/status.h"

void exec_fault(exec_launch *L, const exec_cta *c, const exec_warp *w, int lane, uint32_t pc,
                lockstep_status st, uint64_t addr, const char *fmt, ...)
{
    if (L->fault != LOCKSTEP_SUCCESS)
        return;
    L->fault = st;
    L->fault_addr = addr;
    L->fault_pc = pc;
    L->fault_cycle = L->cycle ? *L->cycle : 0;
    L->fault_c = c;
    if (c)
        memcpy(L->fault_cta, c->ctaid, sizeof L->fault_cta);
    if (w) {
        if (lane < 0) {
            uint32_t m = w->sp ? w->stack[w->sp - 1].mask : w->live;
            lane = m ? ctz32(m) : 0;
        }
        L->fault_warp = w->id;
        L->fault_lane = (uint32_t)lane;
        exec_thread_id(L, w, lane, L->fault_tid);
    }
    strbuf *sb = &L->fault_msg;
    sb_clear(sb);
    sb_printf(sb, "%s in kernel '%s': ", status_text(st), L->kernel_name);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
    if (c && w)
        sb_printf(sb, "\n  at CTA (%u,%u,%u) thread (%u,%u,%u) [warp %u lane %u]", c->ctaid[0],
                  c->ctaid[1], c->ctaid[2], L->fault_tid[0], L->fault_tid[1], L->fault_tid[2],
                  w->id, L->fault_lane);
    const ir_module *m = L->mod;
    if (pc < m->ncode) {
        const ir_srcpos *sp = &m->pos[pc];
        const ir_func *f = &m->funcs[ir_func_of_pc(m, pc)];
        sb_printf(sb, ", pc %u in '%s', %s:%u", pc, f->name, ir_pc_ptx_file(m, pc),
                  sp->ptx_line);
        if (sp->src_file && sp->src_line)
            sb_printf(sb, " (%s:%u)", m->files[sp->src_file - 1], sp->src_line);
    }
}

/* Release barrier `id`: waiting warps go on past it; bar.red results land. */
static void barrier_release(exec_launch *L, exec_cta *c, uint32_t id, exec_warp *current)
{
    exec_barrier *b = &c->bars[id];
    for (uint32_t k = 0; k <= c->nwarps; k++) {
        exec_warp *w;
        if (k < c->nwarps) {
            if (!(b->waiting & (1u << k)))
                continue;
            w = &c->warps[k];
        } else {
            w = current;
            if (!w)
                break;
        }
        const ir_insn *in = &L->mod->code[w->stack[w->sp - 1].pc];
        if (in->mode == BARM_RED) {
            uint32_t lanes = w == current ? w->bar_active : w->bar_active;
            if (in->bop == BOP_POPC) {
                uint64_t *D = w->regs + ((size_t)w->reg_base + in->d[0].idx) * WARP_SIZE;
                for (uint32_t m = lanes; m; m &= m - 1)
                    D[ctz32(m)] = b->red_popc;
            } else {
                uint32_t v = (in->bop == BOP_AND ? b->red_and : b->red_or) ? FULL_MASK : 0;
                uint32_t *P = w->preds + w->pred_base;
                P[in->d[0].idx] = (P[in->d[0].idx] & ~lanes) | (v & lanes);
            }
        }
        if (w != current) {
            w->stack[w->sp - 1].pc++;
            w->state = WARP_RUNNING;
        }
    }
    memset(b, 0, sizeof *b);
}

static uint32_t first_lane_value(const exec_launch *L, const exec_warp *w, const ir_opnd *o,
                                 uint32_t active)
{
    int l = ctz32(active);
    if (o->kind == IRO_CONST)
        return (uint32_t)L->mod->kpool[(size_t)o->idx * WARP_SIZE];
    if (o->kind == IRO_IMM) /* a replacement's immediate (exec.h, exec_subst) */
        return L->subst ? (uint32_t)L->subst->imm[0] : 0;
    if (o->kind == IRO_REG)
        return (uint32_t)w->regs[((size_t)w->reg_base + o->idx) * WARP_SIZE + (size_t)l];
    return 0;
}

int exec_barrier_arrive(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                        uint32_t active, uint32_t pred_mask)
{
    uint32_t pc = w->stack[w->sp - 1].pc;
    uint32_t id = first_lane_value(L, w, &in->s[0], active);
    if (id >= MAX_BARRIERS) {
        exec_fault(L, c, w, ctz32(active), pc, LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, 0,
                   "barrier %u does not exist (0..%d)", id, MAX_BARRIERS - 1);
        return -1;
    }
    uint32_t count = 0;
    if (in->flags & IRF_HAS_C) {
        count = first_lane_value(L, w, &in->s[1], active);
        if (count == 0 || count % WARP_SIZE || count > L->nwarps * WARP_SIZE) {
            exec_fault(L, c, w, ctz32(active), pc, LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, 0,
                       "barrier thread count %u is not a multiple of %d up to the CTA's %u warps",
                       count, WARP_SIZE, L->nwarps);
            return -1;
        }
    }
    exec_barrier *b = &c->bars[id];
    if (b->arrived == 0 && b->waiting == 0) {
        b->red_and = 1;
        b->red_or = 0;
        b->red_popc = 0;
    }
    b->expected = count;
    b->arrived += (uint32_t)popc32(active);
    if (in->mode == BARM_RED) {
        b->red_popc += (uint32_t)popc32(pred_mask);
        b->red_and &= (pred_mask == active);
        b->red_or |= pred_mask != 0;
    }
    w->bar_active = active;
    uint32_t expected = count ? count : c->live_threads;
    if (b->arrived >= expected) {
        barrier_release(L, c, id, w);
        return 0;
    }
    if (in->mode == BARM_ARRIVE)
        return 0;
    w->state = WARP_BARRIER;
    w->bar_id = id;
    b->waiting |= 1u << w->id;
    return 1;
}

void exec_lanes_exited(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t lanes)
{
    c->live_threads -= (uint32_t)popc32(lanes);
    if (w->live == 0)
        c->live_warps--;
    for (uint32_t id = 0; id < MAX_BARRIERS; id++) {
        exec_barrier *b = &c->bars[id];
        if (b->waiting && b->expected == 0 && b->arrived >= c->live_threads)
            barrier_release(L, c, id, NULL);
    }
}

/* ---- CTAs --------------------------------------------------------------------------- */

/* Make slot c fit launch L: enough warps, and buffers at least as large as
 * L needs, keeping whatever c already has from an earlier launch.  Buffer
 * contents do not matter: cta_start clears what a CTA may read first. */
int exec_cta_fit(exec_launch *L, exec_cta *c)
{
    const ir_func *k = &L->mod->funcs[L->kernel];
    if (c->warps_cap < L->nwarps) {
        exec_warp *w = realloc(c->warps, L->nwarps * sizeof *w);
        if (!w)
            return -1;
        memset(w + c->warps_cap, 0, (L->nwarps - c->warps_cap) * sizeof *w);
        c->warps = w;
        c->warps_cap = L->nwarps;
    }
    c->nwarps = L->nwarps;
    size_t shared = L->shared_bytes ? L->shared_bytes : 1;
    if (c->shared_cap < shared) {
        free(c->shared);
        c->shared_cap = 0;
        if (!(c->shared = malloc(shared)))
            return -1;
        c->shared_cap = shared;
    }
    size_t local = (size_t)L->nthreads * L->local_bytes + 1;
    if (c->local_cap < local) {
        free(c->local);
        c->local_cap = 0;
        if (!(c->local = malloc(local)))
            return -1;
        c->local_cap = local;
    }
    uint32_t rows = k->nregs ? k->nregs : 1, preds = k->npreds ? k->npreds : 1;
    for (uint32_t i = 0; i < L->nwarps; i++) {
        exec_warp *w = &c->warps[i];
        if (w->stack_cap < 16) {
            free(w->stack);
            w->stack_cap = 0;
            if (!(w->stack = malloc(16 * sizeof *w->stack)))
                return -1;
            w->stack_cap = 16;
        }
        if (w->regs_cap < rows) {
            free(w->regs);
            w->regs_cap = 0;
            /* zeroed: what an observer reads in a row the CTA has not
             * written yet comes from the simulation, never from the host */
            if (!(w->regs = calloc((size_t)rows * WARP_SIZE, sizeof *w->regs)))
                return -1;
            w->regs_cap = rows;
        }
        if (w->preds_cap < preds) {
            free(w->preds);
            w->preds_cap = 0;
            if (!(w->preds = malloc(preds * sizeof *w->preds)))
                return -1;
            w->preds_cap = preds;
        }
    }
    return 0;
}

static void cta_free(exec_cta *c)
{
    if (c->warps)
        for (uint32_t i = 0; i < c->warps_cap; i++) {
            free(c->warps[i].stack);
            free(c->warps[i].regs);
            free(c->warps[i].preds);
            free(c->warps[i].calls);
        }
    free(c->warps);
    free(c->shared);
    free(c->local);
    memset(c, 0, sizeof *c);
}

void exec_pool_free(exec_pool *p)
{
    for (uint32_t s = 0; s < p->nslots; s++)
        cta_free(&p->slots[s]);
    free(p->slots);
    p->slots = NULL;
    p->nslots = 0;
}

/* nslots CTA slots for L: the pool's (grown if needed), or new ones. */
exec_cta *exec_slots_get(exec_launch *L, uint32_t nslots)
{
    exec_pool *p = L->pool;
    if (!p)
        return calloc(nslots, sizeof(exec_cta));
    if (p->nslots < nslots) {
        exec_cta *s = realloc(p->slots, nslots * sizeof *s);
        if (!s)
            return NULL;
        memset(s + p->nslots, 0, (nslots - p->nslots) * sizeof *s);
        p->slots = s;
        p->nslots = nslots;
    }
    return p->slots;
}

/* Give slots back: to the pool, or freed. */
void exec_slots_put(exec_launch *L, exec_cta *slots, uint32_t nslots)
{
    if (L->pool || !slots)
        return;
    for (uint32_t s = 0; s < nslots; s++)
        cta_free(&slots[s]);
    free(slots);
}

void exec_cta_start(exec_launch *L, exec_cta *c, uint64_t linear)
{
    const ir_func *k = &L->mod->funcs[L->kernel];
    c->linear = linear;
    c->echo = NULL;
    c->echo_copy = 0;
    c->ctaid[0] = (uint32_t)(linear % L->grid[0]);
    c->ctaid[1] = (uint32_t)((linear / L->grid[0]) % L->grid[1]);
    c->ctaid[2] = (uint32_t)(linear / ((uint64_t)L->grid[0] * L->grid[1]));
    c->live_threads = L->nthreads;
    c->live_warps = L->nwarps;
    c->smid = L->opt.num_sms ? (uint32_t)(linear % L->opt.num_sms) : 0;
    c->active = 1;
    memset(c->bars, 0, sizeof c->bars);
    memset(c->shared, 0, L->shared_bytes);
    memset(c->local, 0, (size_t)L->nthreads * L->local_bytes);
    for (uint32_t i = 0; i < L->nwarps; i++) {
        exec_warp *w = &c->warps[i];
        uint32_t first = i * WARP_SIZE;
        uint32_t n = L->nthreads - first < WARP_SIZE ? L->nthreads - first : WARP_SIZE;
        w->id = i;
        w->live = n == WARP_SIZE ? FULL_MASK : (1u << n) - 1;
        for (uint32_t l = 0; l < WARP_SIZE; l++) {
            uint32_t t = first + l;
            w->tid[0][l] = t % L->block[0];
            w->tid[1][l] = (t / L->block[0]) % L->block[1];
            w->tid[2][l] = t / (L->block[0] * L->block[1]);
        }
        w->state = WARP_RUNNING;
        w->carry = 0;
        w->func = L->kernel;
        w->reg_base = w->pred_base = 0;
        w->frame_base = L->frame0;
        w->ncalls = 0;
        w->insts = 0;
        w->spin = 0;
        w->acp_commits = 0;
        w->sp = 1;
        w->stack[0] = (simt_entry){k->start, IR_NO_PC, w->live, 0};
        exec_zero_rows(w->regs, k);
        memset(w->preds, 0, k->npreds * sizeof *w->preds);
    }
}

void exec_deadlock_fault(exec_launch *L, exec_cta *c)
{
    exec_warp *first = NULL;
    strbuf who = STRBUF_INIT;
    uint32_t id = 0;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        exec_warp *w = &c->warps[i];
        if (w->state != WARP_BARRIER)
            continue;
        if (!first) {
            first = w;
            id = w->bar_id;
        }
        sb_printf(&who, "%s%u", who.len ? "," : "", w->id);
        if (w->bar_active != w->live)
            sb_printf(&who, "(partial: lanes 0x%08x of 0x%08x)", w->bar_active, w->live);
    }
    exec_barrier *b = &c->bars[id];
    uint32_t expected = b->expected ? b->expected : c->live_threads;
    exec_fault(L, c, first, -1, first ? first->stack[first->sp - 1].pc : IR_NO_PC,
               LOCKSTEP_ERROR_BARRIER_DEADLOCK, 0,
               "barrier %u can never complete: %u of %u threads arrived; waiting warps %s; the other "
               "threads exited or wait where they cannot reach this barrier",
               id, b->arrived, expected, sb_cstr(&who));
    sb_free(&who);
}

uint64_t exec_host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Name the warps of the resident CTAs that have not finished: CTA, warp,
 * what it is doing and where (at most 8, then a count). */
static void describe_warps(const exec_launch *L, const exec_cta *slots, uint32_t nslots,
                           strbuf *sb)
{
    uint32_t shown = 0, more = 0;
    for (uint32_t s = 0; s < nslots; s++) {
        const exec_cta *c = &slots[s];
        if (!c->active)
            continue;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            const exec_warp *w = &c->warps[i];
            if (w->state == WARP_DONE)
                continue;
            if (shown == 8) {
                more++;
                continue;
            }
            shown++;
            uint32_t pc = w->sp ? w->stack[w->sp - 1].pc : IR_NO_PC;
            sb_printf(sb, "\n  CTA (%u,%u,%u) warp %u: %s", c->ctaid[0], c->ctaid[1], c->ctaid[2],
                      w->id, w->state == WARP_BARRIER ? "waiting at a barrier" : "running");
            const ir_module *m = L->mod;
            if (pc < m->ncode) {
                const ir_srcpos *sp = &m->pos[pc];
                sb_printf(sb, ", pc %u (%s:%u", pc, ir_pc_ptx_file(m, pc), sp->ptx_line);
                if (sp->src_file && sp->src_line)
                    sb_printf(sb, ", %s:%u", m->files[sp->src_file - 1], sp->src_line);
                sb_putc(sb, ')');
            }
        }
    }
    if (more)
        sb_printf(sb, "\n  and %u more warp%s", more, more == 1 ? "" : "s");
    if (!shown)
        sb_puts(sb, "\n  (no warp is running: memory operations are still in flight)");
}

int exec_program_insts_limit(exec_launch *L, uint64_t insts, const exec_cta *c,
                             const exec_warp *w)
{
    if (!L->opt.max_program_insts || L->opt.program_insts + insts <= L->opt.max_program_insts)
        return 0;
    exec_fault(L, c, w, -1, w && w->sp ? w->stack[w->sp - 1].pc : IR_NO_PC,
               LOCKSTEP_ERROR_INSN_LIMIT, 0,
               "the program ran past %llu warp instructions (-lockstep_max_program_warp_insts): "
               "the earlier launches ran %llu, this one %llu%s",
               (unsigned long long)L->opt.max_program_insts,
               (unsigned long long)L->opt.program_insts, (unsigned long long)insts,
               w ? "; this warp was running" : "");
    return 1;
}

int exec_limits(exec_launch *L, uint64_t cycles, const exec_cta *slots, uint32_t nslots)
{
    if (L->fault != LOCKSTEP_SUCCESS)
        return 1;
    lockstep_status st = LOCKSTEP_SUCCESS;
    strbuf why = STRBUF_INIT;
    if (L->opt.stop && atomic_load_explicit(L->opt.stop, memory_order_relaxed)) {
        st = LOCKSTEP_ERROR_INTERRUPTED;
        sb_puts(&why, "the launch was interrupted (the program is exiting, or was asked to stop)");
    } else if (L->opt.max_cycles && cycles > L->opt.max_cycles) {
        st = LOCKSTEP_ERROR_LAUNCH_TIMEOUT;
        sb_printf(&why, "the launch ran past %llu simulated cycles (-lockstep_max_cycles)",
                  (unsigned long long)L->opt.max_cycles);
    } else if (L->opt.max_program_cycles && cycles &&
               L->opt.program_cycles + cycles > L->opt.max_program_cycles) {
        st = LOCKSTEP_ERROR_LAUNCH_TIMEOUT;
        sb_printf(&why,
                  "the program ran past %llu simulated cycles (-lockstep_max_program_cycles): "
                  "the earlier launches took %llu, this one %llu so far",
                  (unsigned long long)L->opt.max_program_cycles,
                  (unsigned long long)L->opt.program_cycles, (unsigned long long)cycles);
    } else if (L->opt.timeout_ns && (++L->limit_calls & 15) == 0) {
        uint64_t now = exec_host_ns();
        if (now - L->host_t0 > L->opt.timeout_ns) {
            st = LOCKSTEP_ERROR_LAUNCH_TIMEOUT;
            sb_printf(&why,
                      "the launch ran past %.0f host seconds (-lockstep_timeout, lockstep run "
                      "--timeout)%s",
                      (double)L->opt.timeout_ns / 1e9,
                      cycles ? "" : "; functional mode");
            if (cycles)
                sb_printf(&why, " at cycle %llu", (unsigned long long)cycles);
        }
    }
    if (st == LOCKSTEP_SUCCESS) {
        sb_free(&why);
        return 0;
    }
    sb_puts(&why, "; the warps still running:");
    describe_warps(L, slots, nslots, &why);
    exec_fault(L, NULL, NULL, -1, IR_NO_PC, st, 0, "%s", sb_cstr(&why));
    sb_free(&why);
    return 1;
}

static lockstep_status run_ctas(exec_launch *L)
{
    uint64_t total = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    uint32_t nslots = L->opt.resident_ctas ? L->opt.resident_ctas : 1;
    if (nslots > total)
        nslots = (uint32_t)total;
    uint32_t slice = L->opt.slice ? L->opt.slice : 256;
    exec_cta *slots = exec_slots_get(L, nslots);
    if (!slots)
        goto oom;
    for (uint32_t s = 0; s < nslots; s++) {
        slots[s].active = 0;
        if (exec_cta_fit(L, &slots[s]))
            goto oom;
    }
    uint64_t next = 0;
    for (uint32_t s = 0; s < nslots; s++)
        exec_cta_start(L, &slots[s], next++);
    L->slots = slots;
    L->nslots = nslots;
    uint32_t active_slots = nslots;
    while (active_slots && L->fault == LOCKSTEP_SUCCESS) {
        uint64_t progress = 0;
        for (uint32_t s = 0; s < nslots && L->fault == LOCKSTEP_SUCCESS; s++) {
            exec_cta *c = &slots[s];
            if (!c->active)
                continue;
            int running = 0, waiting = 0;
            for (uint32_t i = 0; i < c->nwarps; i++) {
                exec_warp *w = &c->warps[i];
                if (w->state == WARP_RUNNING) {
                    uint32_t n = exec_warp_run(L, c, w, slice);
                    L->warp_insts += n;
                    progress += n;
                    if (L->fault != LOCKSTEP_SUCCESS)
                        break;
                    if (L->opt.max_warp_insts && L->warp_insts > L->opt.max_warp_insts) {
                        exec_fault(L, c, w, -1, w->sp ? w->stack[w->sp - 1].pc : IR_NO_PC,
                                   LOCKSTEP_ERROR_INSN_LIMIT, 0,
                                   "the launch ran past the limit of %llu warp instructions "
                                   "(-lockstep_max_warp_insts); this warp was running",
                                   (unsigned long long)L->opt.max_warp_insts);
                        break;
                    }
                    if (L->opt.max_program_insts &&
                        exec_program_insts_limit(L, L->warp_insts, c, w))
                        break;
                }
            }
            if (L->fault != LOCKSTEP_SUCCESS)
                break;
            for (uint32_t i = 0; i < c->nwarps; i++) {
                running += c->warps[i].state == WARP_RUNNING;
                waiting += c->warps[i].state == WARP_BARRIER;
            }
            if (!running && waiting) {
                exec_deadlock_fault(L, c);
                break;
            }
            if (!running) {
                c->active = 0;
                if (next < total) {
                    exec_cta_start(L, c, next++);
                } else {
                    active_slots--;
                }
            }
        }
        if (L->fault == LOCKSTEP_SUCCESS && exec_limits(L, 0, slots, nslots))
            break;
        if (!progress && active_slots && L->fault == LOCKSTEP_SUCCESS) {
            /* every warp waits and none can move: cannot happen without a
             * barrier deadlock, which is reported above; guard anyway */
            exec_fault(L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_BARRIER_DEADLOCK, 0,
                       "no warp can make progress");
        }
    }
    L->slots = NULL;
    L->nslots = 0;
    exec_slots_put(L, slots, nslots);
    return L->fault;
oom:
    exec_slots_put(L, slots, nslots);
    L->oom = 1;
    exec_fault(L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
               "out of host memory for %u resident CTAs", nslots);
    return L->fault;
}

void exec_launch_release(exec_launch *L)
{
    free(L->shref_val);
    L->shref_val = NULL;
    sb_free(&L->fault_msg);
}

lockstep_status exec_run(exec_launch *L)
{
    L->host_t0 = exec_host_ns();
    hostfp_env env;
    hostfp_enter(&env);
    lockstep_status st = run_ctas(L);
    hostfp_leave(&env);
    return st;
}
