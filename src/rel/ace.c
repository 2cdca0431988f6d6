/*
 * ace.c -- ACE lifetime analysis: AVF per structure (ace.h;
 * docs/RELIABILITY.md, "ACE lifetime analysis").
 *
 * Every storage cell the analysis follows -- a register row's lane, a
 * predicate's lane, a shared-memory word of a CTA -- keeps one time stamp,
 * its mark: when its value was written or last read, or NONE while it
 * holds no value.  A read at time t adds (t - mark) x bits to the
 * structure's ACE bit-time and moves the mark to t; a write moves the mark
 * to t without adding anything.  So a value's ACE time is exactly the span
 * from its write to its last read, counted as the reads come, and nothing
 * has to happen when a value dies: time after the last read, values never
 * read and cells never written simply add nothing (first-order ACE
 * analysis, with no dynamic-dead or logical masking).
 *
 *   reads    before an instruction executes (exec_hooks.before): the rows
 *            cfg_reg_reads lists, at the width the function writes them
 *            (the widest value an instruction writes into the row, 32 bits
 *            when none says), in the active lanes; the guard predicate in
 *            the lanes of the SIMT stack's top entry, predicate sources in
 *            the active lanes; for ld/ldu/atom/red of shared memory, each
 *            32-bit word an active lane's access touches;
 *   writes   at the register write point (exec_hooks.written) for
 *            registers and predicates, in the lanes written; before an
 *            instruction executes for the shared words st/atom/red write
 *            (an atomic reads, then writes).
 *
 * Residency: a warp is resident from its first observed event (an
 * instruction or a write) to its last, a CTA from its warps' first to
 * their last.  The allocated bit-time of a structure is its bits per warp
 * (the kernel's register rows at their widths -- the PTX virtual
 * registers the loader gives a warp, what fault injection's reg_any site
 * draws from -- and its predicates, 32 lanes each) or per CTA (the
 * launch's shared bytes) times that residency.
 *
 * State: one ace_sm per SM, touched only by that SM's host thread in
 * timing mode (the hooks run there; c->smid names it), holding its CTA
 * slots' marks and integer sums.  The sums are merged in SM order at the
 * end of a launch, on the device's thread; integers make the merge
 * independent of the order anyway.
 */
#include "rel/ace.h"

#include <stdlib.h>
#include <string.h>

#include "ptx/cfg.h"
#include "ptx/optable.h"
#include "ptx/types.h"

#define NONE UINT64_MAX

const char *const rel_ace_struct_names[ACE_NSTRUCT] = {"reg", "pred", "shared"};

typedef struct ace_sums {
    uint64_t ace[ACE_NSTRUCT];    /* ACE bit-time */
    uint64_t alloc[ACE_NSTRUCT];  /* allocated bits x residency */
} ace_sums;

typedef struct ace_warp {
    uint64_t *reg;      /* marks per (row, lane) */
    uint32_t nreg;      /* rows */
    uint64_t *pred;     /* marks per (predicate, lane) */
    uint32_t npred;
    uint64_t first, last;
    int seen;
} ace_warp;

typedef struct ace_slot {
    const exec_cta *c;  /* the CTA slot it follows */
    uint64_t linear;    /* the CTA in it, */
    uint64_t launch;    /* in this launch */
    ace_warp *w;
    uint32_t nw;
    uint64_t *sh;       /* marks per shared word */
    uint32_t sh_cap;
    uint32_t sh_words;  /* this CTA's */
    uint64_t first, last;
    int seen;
} ace_slot;

typedef struct ace_sm {
    ace_slot *slot;
    uint32_t n, cap;
    ace_sums s;
    int oom;
} ace_sm;

struct rel_ace {
    int on, timing_cfg;
    uint32_t nsms;
    uint64_t cfg_bits[ACE_NSTRUCT]; /* the configured structures' bits (0: none) */
    exec_hooks hooks;
    ace_sm *sm;
    /* the running launch */
    int timing;
    uint64_t count;           /* functional mode: warp instructions begun */
    uint64_t reg_bits, pred_bits, sh_bytes; /* per lane, per lane, per CTA */
    /* facts of the running module */
    const ir_module *mod;
    uint32_t *func_of;        /* per instruction: its function */
    uint8_t **width;          /* per function, per row: bits */
    uint32_t nfuncs;
    /* the program: finished launches */
    uint64_t time;            /* cycles (timing) or warp instructions (functional) */
    uint64_t insts, launches;
    ace_sums tot;
    int incomplete;           /* host OOM lost part of the analysis */
};

/* ---- facts ------------------------------------------------------------------------------ */

/* Bits an instruction's register destinations hold (as fault injection's
 * register sites count them). */
static uint32_t dest_bits(const ir_insn *in)
{
    int bits = ptx_type_bits((ptx_type)in->type);
    if (in->flags & IRF_WIDE)
        bits *= 2;
    return bits <= 0 || bits > 64 ? 64 : (uint32_t)bits;
}

static void facts_clear(rel_ace *a)
{
    for (uint32_t i = 0; i < a->nfuncs; i++)
        free(a->width[i]);
    free(a->width);
    free(a->func_of);
    a->width = NULL;
    a->func_of = NULL;
    a->nfuncs = 0;
    a->mod = NULL;
}

/* Each instruction's function and each function's row widths; 0 or -1 (OOM). */
static int facts_build(rel_ace *a, const ir_module *m)
{
    facts_clear(a);
    a->func_of = calloc(m->ncode ? m->ncode : 1, sizeof *a->func_of);
    a->width = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *a->width);
    if (!a->func_of || !a->width)
        goto fail;
    a->nfuncs = m->nfuncs;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ir_func *f = &m->funcs[fi];
        uint8_t *wd = calloc(f->nregs ? f->nregs : 1, 1);
        if (!wd)
            goto fail;
        a->width[fi] = wd;
        for (uint32_t pc = f->start; pc < f->end && pc < m->ncode; pc++) {
            const ir_insn *in = &m->code[pc];
            a->func_of[pc] = fi;
            if (in->flags & IRF_DSRC)
                continue;
            for (int d = 0; d < 4; d++)
                if (in->d[d].kind == IRO_REG && in->d[d].idx < f->nregs &&
                    dest_bits(in) > wd[in->d[d].idx])
                    wd[in->d[d].idx] = (uint8_t)dest_bits(in);
        }
        for (uint32_t r = 0; r < f->nregs; r++)
            if (!wd[r])
                wd[r] = 32;
    }
    a->mod = m;
    return 0;
fail:
    facts_clear(a);
    return -1;
}

/* ---- the SMs' state ---------------------------------------------------------------------- */

/* Marks to NONE. */
static void unmark(uint64_t *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        m[i] = NONE;
}

/* Grow a mark array from *n to at least want rows of `per` marks (new ones
 * NONE); 0 or -1 (OOM). */
static int grow(uint64_t **m, uint32_t *n, uint32_t want, size_t per)
{
    if (want <= *n)
        return 0;
    uint64_t *p = realloc(*m, (size_t)want * per * sizeof *p);
    if (!p)
        return -1;
    unmark(p + (size_t)*n * per, (size_t)(want - *n) * per);
    *m = p;
    *n = want;
    return 0;
}

/* The residency of the CTA in s goes into the SM's allocated bit-time. */
static void slot_close(const rel_ace *a, ace_sm *sm, ace_slot *s)
{
    for (uint32_t i = 0; i < s->nw; i++) {
        ace_warp *w = &s->w[i];
        if (!w->seen)
            continue;
        uint64_t span = w->last - w->first;
        sm->s.alloc[ACE_REG] += span * WARP_SIZE * a->reg_bits;
        sm->s.alloc[ACE_PRED] += span * WARP_SIZE * a->pred_bits;
        w->seen = 0;
    }
    if (s->seen)
        sm->s.alloc[ACE_SHARED] += (s->last - s->first) * s->sh_words * 32;
    s->seen = 0;
}

/* The analysis's warp for (c, w) at time t, its CTA slot in *sp and SM in
 * *smp, with residency extended to t; NULL on host OOM (the SM's oom flag
 * says so). */
static ace_warp *touch(rel_ace *a, const exec_launch *L, const exec_cta *c, const exec_warp *w,
                       uint64_t t, ace_sm **smp, ace_slot **sp)
{
    ace_sm *sm = &a->sm[c->smid < a->nsms ? c->smid : 0];
    ace_slot *s = NULL;
    for (uint32_t i = 0; i < sm->n; i++)
        if (sm->slot[i].c == c) {
            s = &sm->slot[i];
            break;
        }
    if (!s) {
        if (sm->n == sm->cap) {
            uint32_t cap = sm->cap ? 2 * sm->cap : 8;
            ace_slot *p = realloc(sm->slot, cap * sizeof *p);
            if (!p)
                goto oom;
            sm->slot = p;
            sm->cap = cap;
        }
        s = &sm->slot[sm->n++];
        memset(s, 0, sizeof *s);
        s->c = c;
        s->launch = NONE;
    }
    if (s->linear != c->linear || s->launch != a->launches) {
        /* a new CTA in the slot: the last one's residency counts, its marks go */
        slot_close(a, sm, s);
        s->linear = c->linear;
        s->launch = a->launches;
        s->sh_words = 0;
        if (grow(&s->sh, &s->sh_cap, L->shared_bytes / 4, 1))
            goto oom;
        s->sh_words = L->shared_bytes / 4;
        unmark(s->sh, s->sh_cap);
        for (uint32_t i = 0; i < s->nw; i++) {
            unmark(s->w[i].reg, (size_t)s->w[i].nreg * WARP_SIZE);
            unmark(s->w[i].pred, (size_t)s->w[i].npred * WARP_SIZE);
        }
    }
    if (w->id >= s->nw) {
        ace_warp *p = realloc(s->w, ((size_t)w->id + 1) * sizeof *p);
        if (!p)
            goto oom;
        memset(p + s->nw, 0, (w->id + 1 - s->nw) * sizeof *p);
        s->w = p;
        s->nw = w->id + 1;
    }
    ace_warp *aw = &s->w[w->id];
    if (grow(&aw->reg, &aw->nreg, w->regs_cap, WARP_SIZE) ||
        grow(&aw->pred, &aw->npred, w->preds_cap, WARP_SIZE))
        goto oom;
    if (!aw->seen) {
        aw->seen = 1;
        aw->first = t;
    }
    if (!s->seen) {
        s->seen = 1;
        s->first = t;
    }
    if (t > aw->last)
        aw->last = t;
    if (t > s->last)
        s->last = t;
    *smp = sm;
    *sp = s;
    return aw;
oom:
    sm->oom = 1;
    return NULL;
}

/* A read of `bits`-bit cells marks[lane] in `lanes` at t. */
static void cells_read(uint64_t *sum, uint64_t *marks, uint32_t lanes, uint32_t bits, uint64_t t)
{
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint64_t *k = &marks[__builtin_ctz(m)];
        if (*k != NONE && t > *k) {
            *sum += (t - *k) * bits;
            *k = t;
        }
    }
}

static void cells_write(uint64_t *marks, uint32_t lanes, uint64_t t)
{
    for (uint32_t m = lanes; m; m &= m - 1)
        marks[__builtin_ctz(m)] = t;
}

/* The analysis's clock: the SM's cycle (timing mode) or the program's
 * current warp instruction (functional mode). */
static uint64_t now(const rel_ace *a, const exec_launch *L)
{
    if (a->timing)
        return L->cycle ? *L->cycle : 0;
    return a->insts + (a->count ? a->count - 1 : 0);
}

/* ---- the hooks ---------------------------------------------------------------------------- */

/* Shared-memory words an ld/ldu/st/atom/red of the active lanes touches. */
static void shared_access(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                          uint32_t active, ace_sm *sm, ace_slot *s, uint64_t t)
{
    uint32_t props = ptx_op_props(in->op);
    if (!(props & (OPF_LOAD | OPF_STORE | OPF_ATOMIC)) || (props & OPF_TEX) || !active ||
        !s->sh_words || (in->space != SP_SHARED && in->space != SP_GENERIC))
        return;
    exec_addr ad;
    if (exec_mem_addr(L, c, w, in, active, &ad))
        return;
    int vec = props & (OPF_LOAD | OPF_STORE) ? in->vec : 1;
    uint64_t size = (uint64_t)ptx_type_size((ptx_type)in->type) * (uint64_t)(vec > 0 ? vec : 1);
    if (!size)
        size = 4;
    int rd = (props & (OPF_LOAD | OPF_ATOMIC)) != 0, wr = (props & (OPF_STORE | OPF_ATOMIC)) != 0;
    for (uint32_t m = active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        if (ad.space[l] != SP_SHARED)
            continue;
        uint64_t lo = ad.a[l] / 4, hi = (ad.a[l] + size - 1) / 4;
        for (uint64_t k = lo; k <= hi && k < s->sh_words; k++) {
            if (rd)
                cells_read(&sm->s.ace[ACE_SHARED], &s->sh[k], 1, 32, t);
            if (wr)
                s->sh[k] = t;
        }
    }
}

static const exec_subst *on_before(void *ud, exec_launch *L, exec_cta *c, exec_warp *w,
                                    const ir_insn *in, uint32_t active)
{
    rel_ace *a = ud;
    if (!a->timing)
        a->count++;
    uint64_t t = now(a, L);
    ace_sm *sm;
    ace_slot *s;
    ace_warp *aw = touch(a, L, c, w, t, &sm, &s);
    uint32_t pc = exec_insn_pc(L, in);
    if (!aw || a->mod != L->mod || pc >= L->mod->ncode)
        return NULL;
    uint32_t fi = a->func_of[pc];
    const ir_func *f = &L->mod->funcs[fi];
    uint32_t r[28];
    int k = cfg_reg_reads(L->mod, in, r);
    for (int j = 0; j < k; j++) {
        uint32_t row = w->reg_base + r[j];
        if (r[j] < f->nregs && row < aw->nreg)
            cells_read(&sm->s.ace[ACE_REG], aw->reg + (size_t)row * WARP_SIZE, active,
                       a->width[fi][r[j]], t);
    }
    if (in->guard.kind == IRO_PRED && w->sp && w->pred_base + in->guard.idx < aw->npred)
        cells_read(&sm->s.ace[ACE_PRED],
                   aw->pred + (size_t)(w->pred_base + in->guard.idx) * WARP_SIZE,
                   w->stack[w->sp - 1].mask, 1, t);
    for (int i = 0; i < 4; i++)
        if (in->s[i].kind == IRO_PRED && w->pred_base + in->s[i].idx < aw->npred)
            cells_read(&sm->s.ace[ACE_PRED],
                       aw->pred + (size_t)(w->pred_base + in->s[i].idx) * WARP_SIZE, active, 1, t);
    shared_access(L, c, w, in, active, sm, s, t);
    return NULL;
}

static void on_written(void *ud, exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                       uint32_t lanes, int reply)
{
    (void)reply;
    rel_ace *a = ud;
    uint64_t t = now(a, L);
    ace_sm *sm;
    ace_slot *s;
    ace_warp *aw = touch(a, L, c, w, t, &sm, &s);
    if (!aw)
        return;
    const ir_module *m = L->mod;
    if (IR_IS_MMA(in->op) && in->target < m->nmmas) {
        const ir_mma *mm = &m->mmas[in->target];
        for (int i = 0; i < mm->nd && i < 8; i++)
            if (w->reg_base + mm->d[i] < aw->nreg)
                cells_write(aw->reg + (size_t)(w->reg_base + mm->d[i]) * WARP_SIZE, lanes, t);
        return;
    }
    for (int d = 0; d < 4 && d < in->ndst; d++) {
        const ir_opnd *o = &in->d[d];
        if (o->kind == IRO_REG && !(in->flags & IRF_DSRC) && w->reg_base + o->idx < aw->nreg)
            cells_write(aw->reg + (size_t)(w->reg_base + o->idx) * WARP_SIZE, lanes, t);
        else if (o->kind == IRO_PRED && w->pred_base + o->idx < aw->npred)
            cells_write(aw->pred + (size_t)(w->pred_base + o->idx) * WARP_SIZE, lanes, t);
    }
}

/* ---- lifetime ------------------------------------------------------------------------------ */

rel_ace *rel_ace_create(const lockstep_config *cfg)
{
    rel_ace *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->on = cfg->ace != 0;
    a->timing_cfg = !strcmp(cfg->mode, "timing");
    a->nsms = cfg->n_clusters * cfg->cores_per_cluster;
    if (!a->nsms)
        a->nsms = 1;
    a->cfg_bits[ACE_REG] = (uint64_t)cfg->shader_registers * 32 * a->nsms;
    a->cfg_bits[ACE_SHARED] = (uint64_t)cfg->shmem_size * 8 * a->nsms;
    a->sm = calloc(a->nsms, sizeof *a->sm);
    if (!a->sm) {
        free(a);
        return NULL;
    }
    a->hooks.ud = a;
    a->hooks.before = on_before;
    a->hooks.written = on_written;
    return a;
}

void rel_ace_free(rel_ace *a)
{
    if (!a)
        return;
    for (uint32_t i = 0; i < a->nsms; i++) {
        ace_sm *sm = &a->sm[i];
        for (uint32_t j = 0; j < sm->n; j++) {
            ace_slot *s = &sm->slot[j];
            for (uint32_t k = 0; k < s->nw; k++) {
                free(s->w[k].reg);
                free(s->w[k].pred);
            }
            free(s->w);
            free(s->sh);
        }
        free(sm->slot);
    }
    free(a->sm);
    facts_clear(a);
    free(a);
}

const exec_hooks *rel_ace_hooks(rel_ace *a, uint32_t *trap)
{
    *trap = 0;
    if (!a || !a->on)
        return NULL;
    *trap = EXEC_TRAP_BEFORE | EXEC_TRAP_WRITTEN;
    return &a->hooks;
}

int rel_ace_launch_begin(rel_ace *a, exec_launch *L, int timing)
{
    if (!a->on || L->hooks != &a->hooks)
        return 0;
    a->timing = timing;
    a->count = 0;
    const ir_func *k = &L->mod->funcs[L->kernel];
    if (a->mod != L->mod && facts_build(a, L->mod)) {
        a->incomplete = 1;
        L->hooks = NULL; /* this launch goes unobserved; the report says so */
        L->trap = 0;
        return -1;
    }
    /* the kernel's register rows a warp holds, at their widths */
    a->reg_bits = 0;
    for (uint32_t r = 0; r < k->nregs; r++)
        a->reg_bits += a->width[L->kernel][r];
    a->pred_bits = k->npreds;
    a->sh_bytes = L->shared_bytes;
    L->trap = EXEC_TRAP_BEFORE | EXEC_TRAP_WRITTEN;
    return 0;
}

void rel_ace_launch_end(rel_ace *a, const exec_launch *L, uint64_t cycles)
{
    if (!a->on)
        return;
    for (uint32_t i = 0; i < a->nsms; i++) {
        ace_sm *sm = &a->sm[i];
        for (uint32_t j = 0; j < sm->n; j++)
            slot_close(a, sm, &sm->slot[j]);
        for (int st = 0; st < ACE_NSTRUCT; st++) {
            a->tot.ace[st] += sm->s.ace[st];
            a->tot.alloc[st] += sm->s.alloc[st];
        }
        memset(&sm->s, 0, sizeof sm->s);
        if (sm->oom)
            a->incomplete = 1;
        sm->oom = 0;
    }
    a->time += a->timing ? cycles : L->warp_insts;
    a->insts += L->warp_insts;
    a->launches++;
}

/* ---- the report ---------------------------------------------------------------------------- */

static double ratio(uint64_t n, double d) { return d > 0 ? (double)n / d : 0.0; }

void rel_ace_report_json(const rel_ace *a, strbuf *sb)
{
    sb_printf(sb, "{\"time_base\":\"%s\",\"run_time\":%llu,\"launches\":%llu,\"complete\":%d",
              a->timing_cfg ? "cycles" : "warp_insts", (unsigned long long)a->time,
              (unsigned long long)a->launches, !a->incomplete);
    for (int st = 0; st < ACE_NSTRUCT; st++) {
        sb_printf(sb, ",\"%s\":{\"ace_bit_time\":%llu,\"allocated_bit_time\":%llu,"
                      "\"avf_allocated\":%.6f",
                  rel_ace_struct_names[st], (unsigned long long)a->tot.ace[st],
                  (unsigned long long)a->tot.alloc[st],
                  ratio(a->tot.ace[st], (double)a->tot.alloc[st]));
        if (a->cfg_bits[st])
            sb_printf(sb, ",\"configured_bits\":%llu,\"avf_configured\":%.6f",
                      (unsigned long long)a->cfg_bits[st],
                      ratio(a->tot.ace[st], (double)a->cfg_bits[st] * (double)a->time));
        sb_putc(sb, '}');
    }
    sb_putc(sb, '}');
}

void rel_ace_report_text(const rel_ace *a, strbuf *sb)
{
    sb_printf(sb, "ACE lifetime analysis (time: %s, run time %llu, %llu launches%s)\n",
              a->timing_cfg ? "simulated cycles" : "warp instructions",
              (unsigned long long)a->time, (unsigned long long)a->launches,
              a->incomplete ? ", INCOMPLETE: host out of memory" : "");
    sb_printf(sb, "  %-8s %20s %20s %13s %14s %14s\n", "struct", "ace_bit_time",
              "allocated_bit_time", "avf_allocated", "configured_bits", "avf_configured");
    for (int st = 0; st < ACE_NSTRUCT; st++) {
        sb_printf(sb, "  %-8s %20llu %20llu %13.6f", rel_ace_struct_names[st],
                  (unsigned long long)a->tot.ace[st], (unsigned long long)a->tot.alloc[st],
                  ratio(a->tot.ace[st], (double)a->tot.alloc[st]));
        if (a->cfg_bits[st])
            sb_printf(sb, " %14llu %14.6f\n", (unsigned long long)a->cfg_bits[st],
                      ratio(a->tot.ace[st], (double)a->cfg_bits[st] * (double)a->time));
        else
            sb_printf(sb, " %14s %14s\n", "-", "-");
    }
}
