/*
 * inject.c -- one fault in one run (inject.h; docs/RELIABILITY.md).
 *
 * The fault point is -lockstep_fault_at, counted over the whole program:
 * the program-wide simulated cycle in timing mode (the earlier launches'
 * cycles plus this launch's), the program-wide warp instruction in
 * functional mode.  The fault lands at the first point at or after it
 * where the site has something to corrupt:
 *
 *   timing mode      the serial step between windows (exec_hooks.step):
 *                    no component runs, so what the injector reads and
 *                    changes cannot depend on host threads or window order;
 *   functional mode  before a warp instruction executes (exec_hooks.before;
 *                    the functional core runs on one host thread).
 *
 * There the seeded stream (RNG_FAULT, -lockstep_fault_seed) draws the
 * target uniformly among what the site offers, in a canonical order (CTA
 * slot, warp, lane, register or byte), and the model changes its value.
 * Instruction-output sites (insn_out, alu) draw a warp instead and corrupt
 * one lane of that warp's next register write (exec_hooks.written) -- the
 * only hook that runs inside a window in timing mode: it acts for the armed
 * warp alone, on that warp's SM's thread, so it too is deterministic.  The
 * instruction-buffer site (ibuf) arms a warp the same way and corrupts
 * one field of a copy of its next instruction in exec_hooks.before, which
 * hands the copy to the interpreter (in timing mode `before` too runs
 * inside windows and acts for the armed warp alone).
 *
 * DESIGN: the injector never reaches into the interpreter or the timing
 * model's structures; it sees warps through exec.h, memory through
 * devmem.h, and the caches (l1d, l2d, l1tag, l2tag) through the small functions
 * timing.h offers for them, in the serial step.
 */
#include "rel/inject.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/cfg.h"
#include "ptx/optable.h"
#include "ptx/types.h"
#include "timing/timing.h"
#include "util/rng.h"

/* What the fault hit (docs/RELIABILITY.md, "The report"). */
typedef struct fault_report {
    int landed;
    int has_cycle, has_sm, has_cta, has_warp, has_lane, has_addr, has_bit, has_line;
    int has_part, dirty;  /* l2d, l2tag: the partition, and whether the word's sector (a
                           * sector of the line) was dirty */
    const char *entry;    /* dmr_log: the entry's state (held, agreed, committing) */
    int has_alias;        /* l1tag, l2tag: the address the line answers for now */
    uint64_t alias;
    uint64_t cycle, warp_inst;
    uint64_t launch;
    char *kernel;
    uint32_t sm, cta[3], warp, lane, bit, ptx_line, part;
    char target[32];
    char field[16];       /* ibuf: the instruction's field that changed */
    int has_pc;           /* ibuf: the pc of the corrupted instruction */
    uint32_t pc;
    uint64_t addr, old, new_;
} fault_report;

/* Facts about one function, computed when a site first needs them. */
typedef struct func_facts {
    uint64_t *live;  /* cfg_live_in: rows live on entry to each instruction */
    uint8_t *width;  /* bits of each register row */
    int done;
} func_facts;

struct rel_injector {
    int site, model;
    uint64_t at, seed;
    devmem *dm;
    uint32_t dram_tags;
    exec_hooks hooks;
    uint32_t trap;
    rng r;
    /* the program so far: finished launches */
    uint64_t cycles, insts, launches;
    /* redundant execution (-lockstep_redundancy): its name ("" when none),
     * and the program's mismatches and reissues so far */
    char redundancy[16];
    uint64_t dmr_mismatches, dmr_reissues;
    /* the running launch */
    int timing;
    uint64_t count;     /* functional mode: warp instructions begun */
    uint64_t t0;        /* timing mode: the launch's first cycle on the GPU's clock */
    int t0_known;
    /* insn_out, alu: the warp whose next register write gets the fault;
     * ibuf: the warp whose next instruction runs corrupted */
    exec_cta *arm_c;
    exec_warp *arm_w;
    int fired;          /* written by the armed warp's hook */
    /* ibuf: the corrupted copy the armed warp runs (exec_hooks.before; kept
     * unchanged while the injector lives: a request in flight points at
     * it), its pc, and the warp's instruction count when it was handed out
     * (unchanged while it has not executed: a retried memory request) */
    exec_subst ib;
    uint32_t ib_pc;
    uint64_t ib_insts;
    /* facts of the running module's functions */
    const ir_module *mod;
    func_facts *facts;
    uint32_t nfacts;
    fault_report rep;
    int done;           /* landed: nothing more to do */
};

/* ---- drawing ---------------------------------------------------------------------------- */

/* Uniform in [0, n), n >= 1 (the bias of a 64-bit remainder is negligible). */
static uint64_t draw(rel_injector *inj, uint64_t n) { return rng_next(&inj->r) % n; }

/* The model applied to the low `bits` bits of old (1 to 64); *bit the
 * lowest bit flipped, or -1. */
static uint64_t corrupt(rel_injector *inj, uint64_t old, uint32_t bits, int *bit)
{
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    *bit = -1;
    switch (inj->model) {
    case FMODEL_BIT2:
        if (bits >= 2) {
            *bit = (int)draw(inj, bits - 1);
            return old ^ (3ull << *bit);
        }
        /* a one-bit value has no neighbour: one bit */
        /* fall through */
    case FMODEL_BIT1:
        *bit = (int)draw(inj, bits);
        return old ^ (1ull << *bit);
    case FMODEL_RANDOM:
        return (old & ~mask) | (rng_next(&inj->r) & mask);
    default: /* FMODEL_ZERO */
        return old & ~mask;
    }
}

/* ---- function facts --------------------------------------------------------------------- */

/* Bits an instruction's register destinations hold. */
static uint32_t dest_bits(const ir_insn *in)
{
    int bits = ptx_type_bits((ptx_type)in->type);
    if (in->flags & IRF_WIDE)
        bits *= 2;
    return bits <= 0 || bits > 64 ? 64 : (uint32_t)bits;
}

static void facts_clear(rel_injector *inj)
{
    for (uint32_t i = 0; i < inj->nfacts; i++) {
        free(inj->facts[i].live);
        free(inj->facts[i].width);
    }
    free(inj->facts);
    inj->facts = NULL;
    inj->nfacts = 0;
    inj->mod = NULL;
}

/* The facts of function fi of L's module, or NULL (host OOM: the site then
 * offers nothing in that function). */
static const func_facts *facts_of(rel_injector *inj, const exec_launch *L, uint32_t fi)
{
    if (inj->mod != L->mod) {
        facts_clear(inj);
        inj->facts = calloc(L->mod->nfuncs ? L->mod->nfuncs : 1, sizeof *inj->facts);
        if (!inj->facts)
            return NULL;
        inj->mod = L->mod;
        inj->nfacts = L->mod->nfuncs;
    }
    if (fi >= inj->nfacts)
        return NULL;
    func_facts *ff = &inj->facts[fi];
    if (ff->done)
        return ff->live && ff->width ? ff : NULL;
    ff->done = 1;
    const ir_func *f = &L->mod->funcs[fi];
    ff->live = cfg_live_in(L->mod, f);
    ff->width = calloc(f->nregs ? f->nregs : 1, 1);
    if (!ff->live || !ff->width)
        return NULL;
    /* a row is as wide as the widest value an instruction writes into it
     * (32 bits when none says) */
    for (uint32_t pc = f->start; pc < f->end; pc++) {
        const ir_insn *in = &L->mod->code[pc];
        if (in->flags & IRF_DSRC)
            continue;
        for (int d = 0; d < 4; d++)
            if (in->d[d].kind == IRO_REG && in->d[d].idx < f->nregs) {
                uint32_t b = dest_bits(in);
                if (b > ff->width[in->d[d].idx])
                    ff->width[in->d[d].idx] = (uint8_t)b;
            }
    }
    for (uint32_t r = 0; r < f->nregs; r++)
        if (!ff->width[r])
            ff->width[r] = 32;
    return ff;
}

/* ---- the report --------------------------------------------------------------------------- */

/* Fill the report's common part: where and when the fault landed. */
static void report_where(rel_injector *inj, const exec_launch *L, const exec_cta *c,
                         const exec_warp *w, int lane, uint64_t cycle, uint64_t inst)
{
    fault_report *r = &inj->rep;
    r->landed = 1;
    r->has_cycle = inj->timing;
    r->cycle = cycle;
    r->warp_inst = inst;
    r->launch = inj->launches;
    free(r->kernel);
    r->kernel = strdup(L->kernel_name ? L->kernel_name : "");
    if (c) {
        r->has_sm = r->has_cta = 1;
        r->sm = c->smid;
        memcpy(r->cta, c->ctaid, sizeof r->cta);
    }
    if (w) {
        r->has_warp = 1;
        r->warp = w->id;
    }
    if (lane >= 0) {
        r->has_lane = 1;
        r->lane = (uint32_t)lane;
    }
}

static void report_value(rel_injector *inj, uint64_t old, uint64_t new_, int bit)
{
    inj->rep.old = old;
    inj->rep.new_ = new_;
    inj->rep.has_bit = bit >= 0;
    inj->rep.bit = bit >= 0 ? (uint32_t)bit : 0;
}

/* ---- sites over the warps' state ---------------------------------------------------------- */

static int warp_resident(const exec_warp *w)
{
    return w->state != WARP_DONE && w->live && w->sp;
}

/* The lanes a register site chooses from in w, and the rows of each lane:
 * reg_any, pred: every live lane, every row (predicate) of the function the
 * warp is in; reg_live: the lanes at the warp's next instruction, the rows
 * live there.  *live: the live-row bitset (reg_live), else NULL. */
static uint32_t reg_choices(rel_injector *inj, const exec_launch *L, const exec_warp *w,
                            uint32_t *lanes, const uint64_t **live)
{
    const ir_func *f = &L->mod->funcs[w->func];
    *live = NULL;
    *lanes = w->live;
    if (inj->site == FSITE_PRED)
        return f->npreds;
    if (inj->site == FSITE_REG_ANY)
        return f->nregs;
    const simt_entry *top = &w->stack[w->sp - 1];
    const func_facts *ff = facts_of(inj, L, w->func);
    if (!ff || top->pc < f->start || top->pc >= f->end || !f->nregs)
        return 0;
    *lanes = top->mask & w->live;
    uint32_t nw = (f->nregs + 63) / 64, n = 0;
    *live = ff->live + (size_t)(top->pc - f->start) * nw;
    for (uint32_t i = 0; i < nw; i++)
        n += (uint32_t)__builtin_popcountll((*live)[i]);
    return n;
}

/* The k-th set bit of m (k < popcount(m)). */
static int nth_bit64(const uint64_t *m, uint32_t nw, uint64_t k)
{
    for (uint32_t i = 0; i < nw; i++) {
        uint64_t b = m[i];
        uint32_t n = (uint32_t)__builtin_popcountll(b);
        if (k < n) {
            for (; k; k--)
                b &= b - 1;
            return (int)(i * 64 + (uint32_t)__builtin_ctzll(b));
        }
        k -= n;
    }
    return -1;
}

static int nth_lane(uint32_t m, uint64_t k)
{
    uint64_t mm = m;
    return nth_bit64(&mm, 1, k);
}

/* reg_live, reg_any, pred: a register (predicate) of a lane of a resident
 * warp, uniform over all of them.  1 if it landed. */
static int land_register(rel_injector *inj, exec_launch *L, uint64_t cycle, uint64_t inst)
{
    uint64_t total = 0;
    for (uint32_t s = 0; s < L->nslots; s++) {
        exec_cta *c = &L->slots[s];
        for (uint32_t i = 0; c->active && i < c->nwarps; i++) {
            exec_warp *w = &c->warps[i];
            uint32_t lanes;
            const uint64_t *live;
            if (warp_resident(w))
                total += (uint64_t)reg_choices(inj, L, w, &lanes, &live) *
                         (uint32_t)__builtin_popcount(lanes);
        }
    }
    if (!total)
        return 0;
    uint64_t k = draw(inj, total);
    for (uint32_t s = 0; s < L->nslots; s++) {
        exec_cta *c = &L->slots[s];
        for (uint32_t i = 0; c->active && i < c->nwarps; i++) {
            exec_warp *w = &c->warps[i];
            uint32_t lanes;
            const uint64_t *live;
            if (!warp_resident(w))
                continue;
            uint32_t nrows = reg_choices(inj, L, w, &lanes, &live);
            uint64_t here = (uint64_t)nrows * (uint32_t)__builtin_popcount(lanes);
            if (k >= here) {
                k -= here;
                continue;
            }
            const ir_func *f = &L->mod->funcs[w->func];
            int lane = nth_lane(lanes, k / nrows);
            uint32_t j = (uint32_t)(k % nrows);
            report_where(inj, L, c, w, lane, cycle, inst);
            int bit;
            if (inj->site == FSITE_PRED) {
                uint32_t *p = &w->preds[w->pred_base + j];
                uint64_t old = *p >> lane & 1;
                uint64_t nv = corrupt(inj, old, 1, &bit) & 1;
                *p = (*p & ~(1u << lane)) | (uint32_t)nv << lane;
                report_value(inj, old, nv, bit);
                snprintf(inj->rep.target, sizeof inj->rep.target, "p%u", j);
                return 1;
            }
            uint32_t row = live ? (uint32_t)nth_bit64(live, (f->nregs + 63) / 64, j) : j;
            const func_facts *ff = facts_of(inj, L, w->func);
            uint32_t bits = ff ? ff->width[row] : 64;
            uint64_t *v = &w->regs[((size_t)w->reg_base + row) * WARP_SIZE + (uint32_t)lane];
            uint64_t old = *v;
            *v = corrupt(inj, old, bits, &bit);
            report_value(inj, old, *v, bit);
            snprintf(inj->rep.target, sizeof inj->rep.target, "r%u", row);
            return 1;
        }
    }
    return 0;
}

/* simt: the active mask of a resident warp's top SIMT stack entry, at a
 * live lane; the new mask keeps to the warp's live lanes (an exited thread
 * never runs again). */
static int land_simt(rel_injector *inj, exec_launch *L, uint64_t cycle, uint64_t inst)
{
    uint64_t total = 0;
    for (uint32_t s = 0; s < L->nslots; s++) {
        exec_cta *c = &L->slots[s];
        for (uint32_t i = 0; c->active && i < c->nwarps; i++)
            if (warp_resident(&c->warps[i]))
                total += (uint32_t)__builtin_popcount(c->warps[i].live);
    }
    if (!total)
        return 0;
    uint64_t k = draw(inj, total);
    for (uint32_t s = 0; s < L->nslots; s++) {
        exec_cta *c = &L->slots[s];
        for (uint32_t i = 0; c->active && i < c->nwarps; i++) {
            exec_warp *w = &c->warps[i];
            if (!warp_resident(w))
                continue;
            uint32_t n = (uint32_t)__builtin_popcount(w->live);
            if (k >= n) {
                k -= n;
                continue;
            }
            int lane = nth_lane(w->live, k);
            simt_entry *top = &w->stack[w->sp - 1];
            uint32_t old = top->mask, nv;
            int bit = -1;
            switch (inj->model) {
            case FMODEL_BIT1: nv = old ^ (1u << lane); bit = lane; break;
            case FMODEL_BIT2: /* the lane and its neighbour in its pair */
                nv = old ^ (3u << (lane & ~1));
                bit = lane & ~1;
                break;
            case FMODEL_RANDOM: nv = (uint32_t)rng_next(&inj->r); break;
            default: nv = 0; break;
            }
            nv &= w->live;
            top->mask = nv;
            report_where(inj, L, c, w, lane, cycle, inst);
            report_value(inj, old, nv, bit);
            snprintf(inj->rep.target, sizeof inj->rep.target, "simt_mask");
            return 1;
        }
    }
    return 0;
}

/* A 32-bit word of memory at host pointer p (little-endian, as the device's). */
static void corrupt_word(rel_injector *inj, uint8_t *p, int *bit, uint64_t *old, uint64_t *nv)
{
    uint32_t v;
    memcpy(&v, p, 4);
    *old = v;
    *nv = corrupt(inj, v, 32, bit) & 0xffffffffu;
    v = (uint32_t)*nv;
    memcpy(p, &v, 4);
}

/* shared: a 32-bit word of a resident CTA's shared memory. */
static int land_shared(rel_injector *inj, exec_launch *L, uint64_t cycle, uint64_t inst)
{
    uint64_t words = L->shared_bytes / 4, total = 0;
    for (uint32_t s = 0; s < L->nslots; s++)
        total += L->slots[s].active && L->slots[s].live_warps ? words : 0;
    if (!total)
        return 0;
    uint64_t k = draw(inj, total);
    for (uint32_t s = 0; s < L->nslots; s++) {
        exec_cta *c = &L->slots[s];
        if (!c->active || !c->live_warps)
            continue;
        if (k >= words) {
            k -= words;
            continue;
        }
        report_where(inj, L, c, NULL, -1, cycle, inst);
        int bit;
        corrupt_word(inj, c->shared + k * 4, &bit, &inj->rep.old, &inj->rep.new_);
        report_value(inj, inj->rep.old, inj->rep.new_, bit);
        inj->rep.has_addr = 1;
        inj->rep.addr = k * 4;
        snprintf(inj->rep.target, sizeof inj->rep.target, "shared");
        return 1;
    }
    return 0;
}

/* local: a 32-bit word of the local memory of a live thread of a resident
 * warp. */
static int land_local(rel_injector *inj, exec_launch *L, uint64_t cycle, uint64_t inst)
{
    uint64_t words = L->local_bytes / 4, total = 0;
    for (uint32_t s = 0; s < L->nslots; s++) {
        exec_cta *c = &L->slots[s];
        for (uint32_t i = 0; c->active && i < c->nwarps; i++)
            if (warp_resident(&c->warps[i]))
                total += words * (uint32_t)__builtin_popcount(c->warps[i].live);
    }
    if (!total)
        return 0;
    uint64_t k = draw(inj, total);
    for (uint32_t s = 0; s < L->nslots; s++) {
        exec_cta *c = &L->slots[s];
        for (uint32_t i = 0; c->active && i < c->nwarps; i++) {
            exec_warp *w = &c->warps[i];
            if (!warp_resident(w))
                continue;
            uint64_t here = words * (uint32_t)__builtin_popcount(w->live);
            if (k >= here) {
                k -= here;
                continue;
            }
            int lane = nth_lane(w->live, k / words);
            uint64_t off = (k % words) * 4;
            report_where(inj, L, c, w, lane, cycle, inst);
            int bit;
            corrupt_word(inj, exec_local(L, c, w, lane) + off, &bit, &inj->rep.old,
                         &inj->rep.new_);
            report_value(inj, inj->rep.old, inj->rep.new_, bit);
            inj->rep.has_addr = 1;
            inj->rep.addr = off;
            snprintf(inj->rep.target, sizeof inj->rep.target, "local");
            return 1;
        }
    }
    return 0;
}

/* dram: a 32-bit word inside a live allocation (of the tags asked for),
 * uniform over their words, in address order. */
static int land_dram(rel_injector *inj, exec_launch *L, uint64_t cycle, uint64_t inst)
{
    uint64_t total = 0;
    for (const devmem_alloc *a = devmem_next(inj->dm, 0); a; a = devmem_next(inj->dm, a->base))
        if (a->tag < 32 && (inj->dram_tags >> a->tag & 1))
            total += a->size / 4;
    if (!total)
        return 0;
    uint64_t k = draw(inj, total);
    for (const devmem_alloc *a = devmem_next(inj->dm, 0); a; a = devmem_next(inj->dm, a->base)) {
        if (a->tag >= 32 || !(inj->dram_tags >> a->tag & 1))
            continue;
        if (k >= a->size / 4) {
            k -= a->size / 4;
            continue;
        }
        uint64_t addr = a->base + k * 4;
        uint8_t b[4];
        if (devmem_read(inj->dm, addr, b, 4))
            return 0;
        report_where(inj, L, NULL, NULL, -1, cycle, inst);
        int bit;
        corrupt_word(inj, b, &bit, &inj->rep.old, &inj->rep.new_);
        if (devmem_write(inj->dm, addr, b, 4)) {
            inj->rep.landed = 0;
            return 0;
        }
        report_value(inj, inj->rep.old, inj->rep.new_, bit);
        inj->rep.has_addr = 1;
        inj->rep.addr = addr;
        snprintf(inj->rep.target, sizeof inj->rep.target, "dram");
        return 1;
    }
    return 0;
}

/* l1d: a 32-bit word in a valid sector of an SM's L1 data cache, changed
 * in the L1's own copy of the line: loads that hit the line see it, a
 * store that hits it overwrites it, it is gone when the line is evicted or
 * invalidated (the L1 writes global stores through).  Memory never sees it. */
static int land_l1d(rel_injector *inj, exec_launch *L, void *machine, uint64_t cycle,
                    uint64_t inst)
{
    timing_gpu *g = machine;
    uint64_t total = g ? timing_l1d_words(g) : 0;
    if (!total)
        return 0;
    uint32_t sm;
    uint64_t addr;
    uint8_t *p = timing_l1d_word(g, draw(inj, total), &sm, &addr);
    if (!p)
        return 0;
    report_where(inj, L, NULL, NULL, -1, cycle, inst);
    inj->rep.has_sm = 1;
    inj->rep.sm = sm;
    int bit;
    corrupt_word(inj, p, &bit, &inj->rep.old, &inj->rep.new_);
    report_value(inj, inj->rep.old, inj->rep.new_, bit);
    inj->rep.has_addr = 1;
    inj->rep.addr = addr;
    snprintf(inj->rep.target, sizeof inj->rep.target, "l1d");
    return 1;
}

/* l2d: a 32-bit word in a valid sector of an L2 line in a memory
 * partition.  Physically: a bit cell of the L2 slice's data array is hit
 * while the line sits there.  Every access that the L2 serves from the
 * line -- loads that miss in the L1 or bypass it, atomics, loads of other
 * SMs -- sees the fault; a store to the word overwrites it.  What happens
 * when the line leaves the L2 depends on its sector: a dirty sector is
 * written back, so DRAM gets the corrupted word and it stays; a clean one
 * is dropped, and the next access fetches DRAM's intact copy (the timing
 * model keeps L2 values in device memory and restores the word then:
 * timing_l2d_write, partition.c). */
static int land_l2d(rel_injector *inj, exec_launch *L, void *machine, uint64_t cycle,
                    uint64_t inst)
{
    timing_gpu *g = machine;
    uint64_t total = g ? timing_l2d_words(g) : 0;
    if (!total)
        return 0;
    uint64_t k = draw(inj, total), addr;
    uint32_t part, old;
    int dirty, bit;
    if (timing_l2d_word(g, k, &part, &addr, &dirty, &old))
        return 0;
    uint64_t nv = corrupt(inj, old, 32, &bit) & 0xffffffffu;
    if (timing_l2d_write(g, k, (uint32_t)nv))
        return 0;
    report_where(inj, L, NULL, NULL, -1, cycle, inst);
    report_value(inj, old, nv, bit);
    inj->rep.has_part = 1;
    inj->rep.part = part;
    inj->rep.dirty = dirty;
    inj->rep.has_addr = 1;
    inj->rep.addr = addr;
    snprintf(inj->rep.target, sizeof inj->rep.target, "l2d");
    return 1;
}

/* dmr_log: a 32-bit word of a store held in DMR's comparator log (its
 * partition's full/empty entries).  The comparator is outside the sphere
 * of replication: a word of a held entry (the first copy's store, waiting
 * for the second copy's) makes the comparison fail, so the pair is
 * reissued; a word of an agreed entry is what memory gets when the pair is
 * confirmed (and what the copies' own loads of it see until then); a
 * committing entry's write is already on its way with its own bytes, so
 * only the copies' loads of it see the fault. */
static int land_dmr_log(rel_injector *inj, exec_launch *L, void *machine, uint64_t cycle,
                        uint64_t inst)
{
    static const char *const states[] = {"held", "agreed", "committing"};
    timing_gpu *g = machine;
    uint64_t total = g ? timing_dmr_log_words(g) : 0;
    if (!total)
        return 0;
    uint32_t part;
    uint64_t addr;
    int state;
    uint8_t *p = timing_dmr_log_word(g, draw(inj, total), &part, &addr, &state);
    if (!p)
        return 0;
    report_where(inj, L, NULL, NULL, -1, cycle, inst);
    int bit;
    corrupt_word(inj, p, &bit, &inj->rep.old, &inj->rep.new_);
    report_value(inj, inj->rep.old, inj->rep.new_, bit);
    inj->rep.has_part = 1;
    inj->rep.part = part;
    inj->rep.has_addr = 1;
    inj->rep.addr = addr;
    inj->rep.entry = states[state];
    snprintf(inj->rep.target, sizeof inj->rep.target, "dmr_log");
    return 1;
}

/* The k-th set bit of m (k < popcount(m)). */
static uint32_t nth_set(uint64_t m, uint64_t k)
{
    return (uint32_t)nth_bit64(&m, 1, k);
}

/* The new tag of a tag fault on line address a: the model applied to the
 * tag bits in keep (those whose flip keeps the line in its set; keep2:
 * those b whose flip with b + 1 does).  bit1 flips one of them, bit2 two
 * adjacent ones (one if no pair qualifies), random replaces them with
 * random bits (at least one changes), zero clears them (which may change
 * nothing).  *bit: the lowest bit flipped, or -1. */
static uint64_t corrupt_tag(rel_injector *inj, uint64_t a, uint64_t keep, uint64_t keep2,
                            int *bit)
{
    *bit = -1;
    switch (inj->model) {
    case FMODEL_BIT2:
        if (keep2) {
            *bit = (int)nth_set(keep2, draw(inj, (uint64_t)__builtin_popcountll(keep2)));
            return a ^ (3ull << *bit);
        }
        /* fall through */
    case FMODEL_BIT1:
        *bit = (int)nth_set(keep, draw(inj, (uint64_t)__builtin_popcountll(keep)));
        return a ^ (1ull << *bit);
    case FMODEL_RANDOM: {
        uint64_t m = rng_next(&inj->r) & keep;
        return a ^ (m ? m : keep & -keep);
    }
    default: /* FMODEL_ZERO */
        return a & ~keep;
    }
}

/* l1tag: the tag of a line of an SM's L1 data cache that holds a valid
 * sector (and is not waiting for a fill).  Physically: a bit cell of the
 * tag array is hit, so the line -- its data, valid bits, recency -- now
 * claims another line address.  Only tag bits that keep the line in its
 * set are chosen (the other bits are not stored in the tag: they select
 * the set).  Then the original address misses and is fetched again; the
 * new address, if a load asks for it, hits and gets the original line's
 * bytes.  If the set holds the new address already, two ways do: lookups
 * take the lower way (cache_retag).  The L1 writes global stores through,
 * so no wrong address reaches memory from here. */
static int land_l1tag(rel_injector *inj, exec_launch *L, void *machine, uint64_t cycle,
                      uint64_t inst)
{
    timing_gpu *g = machine;
    uint64_t total = g ? timing_l1_lines(g) : 0;
    if (!total)
        return 0;
    uint64_t k = draw(inj, total), a, keep, keep2;
    uint32_t sm;
    if (timing_l1_line(g, k, &sm, &a, &keep, &keep2) || !keep)
        return 0;
    int bit;
    uint64_t na = corrupt_tag(inj, a, keep, keep2, &bit);
    if (timing_l1_retag(g, k, na))
        return 0;
    report_where(inj, L, NULL, NULL, -1, cycle, inst);
    inj->rep.has_sm = 1;
    inj->rep.sm = sm;
    report_value(inj, a, na, bit);
    inj->rep.has_addr = 1;
    inj->rep.addr = a;
    inj->rep.has_alias = 1;
    inj->rep.alias = na;
    snprintf(inj->rep.target, sizeof inj->rep.target, "l1tag");
    return 1;
}

/* l2tag: the tag of a line of an L2 slice that holds a valid sector (and
 * is not waiting for a fill).  Physically: a bit cell of the slice's tag
 * array is hit; the line now claims another address of its set.  The
 * original address misses and reads DRAM again: the bytes DRAM had, which
 * for a dirty sector are older than the line's (the stores it held are
 * lost to that address).  The new address, while the line stays, is
 * served the line's bytes; when the line leaves, a dirty sector is
 * written back to the new address and a clean one is dropped, so the new
 * address reads DRAM's own bytes again.  A flip to an address the slice
 * holds or is filling is not drawn (timing.h). */
static int land_l2tag(rel_injector *inj, exec_launch *L, void *machine, uint64_t cycle,
                      uint64_t inst)
{
    timing_gpu *g = machine;
    uint64_t total = g ? timing_l2_lines(g) : 0;
    if (!total)
        return 0;
    uint64_t k = draw(inj, total), tag, addr, keep, keep2, alias;
    uint32_t part;
    int dirty;
    if (timing_l2_line(g, k, &part, &tag, &addr, &dirty, &keep, &keep2) || !keep)
        return 0;
    int bit;
    uint64_t nt = corrupt_tag(inj, tag, keep, keep2, &bit);
    if (timing_l2_retag(g, k, nt, &alias))
        return 0;
    report_where(inj, L, NULL, NULL, -1, cycle, inst);
    report_value(inj, tag, nt, bit);
    inj->rep.has_part = 1;
    inj->rep.part = part;
    inj->rep.dirty = dirty;
    inj->rep.has_addr = 1;
    inj->rep.addr = addr;
    inj->rep.has_alias = 1;
    inj->rep.alias = alias;
    snprintf(inj->rep.target, sizeof inj->rep.target, "l2tag");
    return 1;
}

/* insn_out, alu: choose a resident warp; its next register write gets the
 * fault (on_written); ibuf: its next instruction runs corrupted
 * (on_before).  1 if one was armed. */
static int arm(rel_injector *inj, exec_launch *L)
{
    uint64_t total = 0;
    for (uint32_t s = 0; s < L->nslots; s++) {
        exec_cta *c = &L->slots[s];
        for (uint32_t i = 0; c->active && i < c->nwarps; i++)
            total += warp_resident(&c->warps[i]);
    }
    if (!total)
        return 0;
    uint64_t k = draw(inj, total);
    for (uint32_t s = 0; s < L->nslots; s++) {
        exec_cta *c = &L->slots[s];
        for (uint32_t i = 0; c->active && i < c->nwarps; i++) {
            if (!warp_resident(&c->warps[i]) || k--)
                continue;
            inj->arm_c = c;
            inj->arm_w = &c->warps[i];
            inj->fired = 0;
            return 1;
        }
    }
    return 0;
}

/* The fault point is reached: land the fault now if the site has anything
 * to corrupt (else it is tried again at the next point). */
static void land(rel_injector *inj, exec_launch *L, void *machine, uint64_t cycle,
                 uint64_t inst)
{
    int ok = 0;
    switch (inj->site) {
    case FSITE_REG_LIVE: case FSITE_REG_ANY: case FSITE_PRED:
        ok = land_register(inj, L, cycle, inst);
        break;
    case FSITE_SIMT: ok = land_simt(inj, L, cycle, inst); break;
    case FSITE_SHARED: ok = land_shared(inj, L, cycle, inst); break;
    case FSITE_LOCAL: ok = land_local(inj, L, cycle, inst); break;
    case FSITE_DRAM: ok = land_dram(inj, L, cycle, inst); break;
    case FSITE_L1D: ok = land_l1d(inj, L, machine, cycle, inst); break;
    case FSITE_L2D: ok = land_l2d(inj, L, machine, cycle, inst); break;
    case FSITE_L1TAG: ok = land_l1tag(inj, L, machine, cycle, inst); break;
    case FSITE_L2TAG: ok = land_l2tag(inj, L, machine, cycle, inst); break;
    case FSITE_DMR_LOG: ok = land_dmr_log(inj, L, machine, cycle, inst); break;
    case FSITE_INSN_OUT: case FSITE_ALU: case FSITE_IBUF:
        if (!inj->arm_w && arm(inj, L)) {
            /* where it was armed; the write's cycle replaces it (timing) */
            inj->rep.cycle = cycle;
            inj->rep.warp_inst = inst;
        }
        return;
    default: return;
    }
    if (ok)
        inj->done = 1;
}

/* ---- the hooks ------------------------------------------------------------------------------ */

/* Timing mode: the serial step. */
static void on_step(void *ud, exec_launch *L, uint64_t cycles, uint64_t insts, void *machine)
{
    rel_injector *inj = ud;
    if (!inj->t0_known && L->cycle) {
        /* the step runs at the window's last cycle; the launch began `cycles` before its end */
        inj->t0 = *L->cycle + 1 - cycles;
        inj->t0_known = 1;
    }
    if (inj->done)
        return;
    if (inj->arm_w) {
        const exec_warp *aw = inj->arm_w;
        if (inj->fired && inj->site == FSITE_IBUF && inj->arm_c->active &&
            aw->state != WARP_DONE && aw->insts == inj->ib_insts && aw->sp &&
            aw->stack[aw->sp - 1].pc == inj->ib_pc) {
            return; /* handed out, not executed yet (a retried request): wait */
        } else if (inj->fired) {
            inj->done = 1;
            inj->arm_w = NULL;
            inj->arm_c = NULL;
        } else if (!inj->arm_c->active || inj->arm_w->state == WARP_DONE) {
            inj->arm_w = NULL; /* it ended without writing a register: choose again */
            inj->arm_c = NULL;
        }
        if (inj->arm_w || inj->done)
            return;
    }
    uint64_t cycle = inj->cycles + cycles;
    if (cycle >= inj->at)
        land(inj, L, machine, cycle, inj->insts + insts);
}

/* ---- ibuf: a corrupted instruction ---------------------------------------------------- */

/* The fields of an instruction an ibuf fault may change, in this order:
 * the guard's index and negation, the destinations' indices, the sources'
 * indices or immediate values, the address register's index, the record's
 * immediate. */
enum { IBF_GUARD, IBF_GUARD_NEG, IBF_D, IBF_S = IBF_D + 4, IBF_ADDR = IBF_S + 4, IBF_IMM,
       IBF_COUNT };

/* Bits of an index field for `rows` rows: as many as numbering them takes
 * (at least one), as an encoding sized to that register file would have. */
static uint32_t index_bits(uint32_t rows)
{
    return rows <= 1 ? 1 : 32 - (uint32_t)__builtin_clz(rows - 1);
}

/* Whether `in` reads its `imm` field as an immediate: the address offset
 * (or absolute address) of a load, store or atomic; lop3's truth table. */
static int imm_used(const ir_insn *in)
{
    return in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED ||
           in->op == OP_LOP3;
}

/* The operand field f of `in` names (NULL for the guard's negation and the
 * record's immediate). */
static const ir_opnd *ib_opnd(const ir_insn *in, int f)
{
    if (f == IBF_GUARD_NEG || f == IBF_IMM)
        return NULL;
    return f == IBF_GUARD  ? &in->guard
           : f == IBF_ADDR ? &in->addr
           : f >= IBF_S    ? &in->s[f - IBF_S]
                           : &in->d[f - IBF_D];
}

/* Whether `in` has field f: a guard; a register or predicate operand (an
 * index); an immediate source (IRO_CONST: a value); the record's imm. */
static int ib_has(const ir_insn *in, int f)
{
    if (f == IBF_GUARD || f == IBF_GUARD_NEG)
        return in->guard.kind == IRO_PRED;
    if (f == IBF_IMM)
        return imm_used(in);
    const ir_opnd *o = ib_opnd(in, f);
    return o->kind == IRO_REG || o->kind == IRO_PRED ||
           (f >= IBF_S && f < IBF_ADDR && o->kind == IRO_CONST);
}

static void ib_field_name(const ir_insn *in, int f, char *buf, size_t n)
{
    const ir_opnd *o = ib_opnd(in, f);
    if (f == IBF_GUARD)
        snprintf(buf, n, "guard");
    else if (f == IBF_GUARD_NEG)
        snprintf(buf, n, "guard_neg");
    else if (f == IBF_IMM)
        snprintf(buf, n, in->op == OP_LOP3 ? "imm_lut" : "imm_offset");
    else if (f == IBF_ADDR)
        snprintf(buf, n, "addr");
    else if (f >= IBF_S)
        snprintf(buf, n, "%s%d", o->kind == IRO_CONST ? "imm_s" : "s", f - IBF_S);
    else /* sust's and wmma.store's d[] are read: sources all the same */
        snprintf(buf, n, "%s%d", in->flags & IRF_DSRC ? "dsrc" : "d", f - IBF_D);
}

/* The model applied to the low `bits` bits of v as an immediate field of
 * that width: old and new within the width (a 32-bit field sign-extends
 * when `sext`). */
static uint64_t corrupt_field(rel_injector *inj, uint64_t v, uint32_t bits, int sext,
                              uint64_t *old, uint64_t *nv, int *bit)
{
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    *old = v & mask;
    *nv = corrupt(inj, *old, bits, bit) & mask;
    if (bits == 32 && sext)
        return (uint64_t)(int64_t)(int32_t)(uint32_t)*nv;
    return (v & ~mask) | *nv;
}

/* The armed warp's next instruction, `in` at its pc: draw one of its
 * fields, corrupt it in the injector's copy, and hand the copy to the
 * interpreter (exec_hooks.before).  NULL when `in` has no such field (the
 * warp's next instruction is tried) or the copy has run already. */
static const exec_subst *ib_fire(rel_injector *inj, exec_launch *L, exec_cta *c, exec_warp *w,
                                 const ir_insn *in)
{
    uint32_t pc = exec_insn_pc(L, in);
    if (inj->fired) /* issued again, not executed yet: the same corrupted copy */
        return w->insts == inj->ib_insts && pc == inj->ib_pc ? &inj->ib : NULL;
    int fields[IBF_COUNT], n = 0;
    for (int f = 0; f < IBF_COUNT; f++)
        if (ib_has(in, f))
            fields[n++] = f;
    if (!n)
        return NULL;
    int f = fields[draw(inj, (uint64_t)n)];
    const ir_func *fn = &L->mod->funcs[w->func];
    inj->ib.in = *in;
    ir_opnd *op = (ir_opnd *)ib_opnd(&inj->ib.in, f); /* the copy's own: writable */
    uint64_t old, nv;
    int bit;
    if (f == IBF_GUARD_NEG) {
        old = in->guard.neg & 1;
        nv = corrupt(inj, old, 1, &bit) & 1;
        inj->ib.in.guard.neg = (uint8_t)nv;
    } else if (f == IBF_IMM) {
        /* lop3: the 8-bit table; an address: a 32-bit offset, sign-extended
         * (a variable's absolute address, which does not fit: all 64) */
        int64_t v = in->imm;
        uint32_t bits = in->op == OP_LOP3 ? 8 : v == (int32_t)v ? 32 : 64;
        inj->ib.in.imm = (int64_t)corrupt_field(inj, (uint64_t)v, bits, 1, &old, &nv, &bit);
    } else if (op->kind == IRO_CONST) {
        /* an immediate source: a 32-bit field (64 for a 64-bit operation or
         * a value that needs them), held by the copy now, not the pool */
        uint64_t v = L->mod->kpool[(size_t)op->idx * WARP_SIZE];
        int wide = ptx_type_bits((ptx_type)in->type) == 64 ||
                   ptx_type_bits((ptx_type)in->type2) == 64 || v != (uint32_t)v;
        uint64_t nvv = corrupt_field(inj, v, wide ? 64 : 32, 0, &old, &nv, &bit);
        for (int l = 0; l < WARP_SIZE; l++)
            inj->ib.imm[l] = nvv;
        op->kind = IRO_IMM;
        op->idx = 0;
    } else {
        /* an index field as wide as the function's register (predicate)
         * file needs; past its rows is an illegal instruction (interp.c) */
        uint32_t rows = op->kind == IRO_REG ? fn->nregs : fn->npreds;
        uint32_t bits = index_bits(rows);
        old = op->idx;
        nv = corrupt(inj, old, bits, &bit) & ((1ull << bits) - 1);
        op->idx = (uint32_t)nv;
    }
    uint64_t cycle = inj->rep.cycle, inst = inj->rep.warp_inst;
    if (inj->timing && L->cycle && inj->t0_known)
        cycle = inj->cycles + (*L->cycle - inj->t0);
    if (!inj->timing)
        inst = inj->insts + inj->count - 1;
    report_where(inj, L, c, w, -1, cycle, inst);
    report_value(inj, old, nv, bit);
    snprintf(inj->rep.target, sizeof inj->rep.target, "ibuf");
    ib_field_name(in, f, inj->rep.field, sizeof inj->rep.field);
    inj->rep.has_pc = 1;
    inj->rep.pc = pc;
    const ir_srcpos *sp = L->mod->pos && pc < L->mod->ncode ? &L->mod->pos[pc] : NULL;
    if (sp) {
        inj->rep.has_line = 1;
        inj->rep.ptx_line = sp->ptx_line;
    }
    inj->ib_pc = pc;
    inj->ib_insts = w->insts;
    inj->fired = 1;
    return &inj->ib;
}

/* Before each warp instruction: in functional mode the fault point (every
 * site), in timing mode only for ibuf's armed warp (on its SM's thread:
 * nothing else is touched there). */
static const exec_subst *on_before(void *ud, exec_launch *L, exec_cta *c, exec_warp *w,
                                   const ir_insn *in, uint32_t active)
{
    (void)active;
    rel_injector *inj = ud;
    if (inj->timing)
        return w == inj->arm_w && c == inj->arm_c && !inj->done ? ib_fire(inj, L, c, w, in)
                                                                : NULL;
    uint64_t inst = inj->insts + inj->count++;
    if (inj->done)
        return NULL;
    if (inj->arm_w) {
        if (inj->arm_w->state != WARP_DONE && inj->arm_c->active) {
            if (inj->site != FSITE_IBUF || w != inj->arm_w || c != inj->arm_c)
                return NULL;
            const exec_subst *r = ib_fire(inj, L, c, w, in);
            if (r)
                inj->done = 1; /* functional mode takes every request at once */
            return r;
        }
        inj->arm_w = NULL;
        inj->arm_c = NULL;
    }
    if (inst >= inj->at) {
        land(inj, L, NULL, 0, inst);
        if (inj->site == FSITE_IBUF && w == inj->arm_w && c == inj->arm_c) {
            const exec_subst *r = ib_fire(inj, L, c, w, in);
            if (r)
                inj->done = 1;
            return r;
        }
    }
    return NULL;
}

static int is_alu(const ir_insn *in)
{
    int u = ptx_op_info(in->op)->unit;
    return (u == UNIT_INT || u == UNIT_FP || u == UNIT_SFU) &&
           !(ptx_op_props(in->op) & OPF_MEM);
}

/* The write point: the armed warp's next register write, one lane. */
static void on_written(void *ud, exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                       uint32_t lanes, int reply)
{
    rel_injector *inj = ud;
    if (w != inj->arm_w || c != inj->arm_c || inj->fired || inj->done)
        return;
    if (inj->site == FSITE_ALU && (reply || !is_alu(in)))
        return;
    if (in->flags & IRF_DSRC)
        return;
    const ir_func *f = &L->mod->funcs[w->func];
    uint32_t rows[4], n = 0;
    for (int d = 0; d < 4 && d < in->ndst; d++)
        if (in->d[d].kind == IRO_REG && in->d[d].idx < f->nregs)
            rows[n++] = in->d[d].idx;
    if (!n || !lanes)
        return;
    uint32_t row = rows[draw(inj, n)];
    int lane = nth_lane(lanes, draw(inj, (uint32_t)__builtin_popcount(lanes)));
    uint64_t cycle = inj->rep.cycle, inst = inj->rep.warp_inst;
    if (inj->timing && L->cycle && inj->t0_known)
        cycle = inj->cycles + (*L->cycle - inj->t0);
    if (!inj->timing)
        inst = inj->insts + inj->count - 1;
    report_where(inj, L, c, w, lane, cycle, inst);
    uint64_t *v = &w->regs[((size_t)w->reg_base + row) * WARP_SIZE + (uint32_t)lane];
    uint64_t old = *v;
    int bit;
    *v = corrupt(inj, old, dest_bits(in), &bit);
    report_value(inj, old, *v, bit);
    snprintf(inj->rep.target, sizeof inj->rep.target, "r%u", row);
    const ir_srcpos *sp = L->mod->pos ? &L->mod->pos[exec_insn_pc(L, in)] : NULL;
    if (sp) {
        inj->rep.has_line = 1;
        inj->rep.ptx_line = sp->ptx_line;
    }
    inj->fired = 1;
    if (!inj->timing) {
        inj->done = 1; /* one host thread: no serial step to wait for */
        inj->arm_w = NULL;
        inj->arm_c = NULL;
    }
}

/* ---- lifetime -------------------------------------------------------------------------------- */

rel_injector *rel_inject_create(const lockstep_config *cfg, devmem *dm, uint32_t dram_tags)
{
    rel_injector *inj = calloc(1, sizeof *inj);
    if (!inj)
        return NULL;
    inj->site = config_fault_site(cfg->fault_site);
    inj->model = config_fault_model(cfg->fault_model);
    if (inj->site < 0)
        inj->site = FSITE_NONE;
    if (inj->model < 0)
        inj->model = FMODEL_BIT1;
    inj->at = cfg->fault_at;
    inj->seed = cfg->fault_seed;
    inj->dm = dm;
    inj->dram_tags = dram_tags;
    if (cfg->redundancy && strcmp(cfg->redundancy, "none"))
        snprintf(inj->redundancy, sizeof inj->redundancy, "%s", cfg->redundancy);
    rng_seed(&inj->r, inj->seed, RNG_FAULT, 0);
    inj->hooks.ud = inj;
    inj->hooks.step = on_step;
    inj->hooks.before = on_before;
    inj->hooks.written = on_written;
    return inj;
}

void rel_inject_free(rel_injector *inj)
{
    if (!inj)
        return;
    facts_clear(inj);
    free(inj->rep.kernel);
    free(inj);
}

const exec_hooks *rel_inject_hooks(rel_injector *inj, uint32_t *trap)
{
    *trap = 0;
    if (!inj || inj->site == FSITE_NONE)
        return NULL;
    /* the trap bits are chosen per launch (rel_inject_launch_begin) */
    return &inj->hooks;
}

void rel_inject_launch_begin(rel_injector *inj, exec_launch *L, int timing)
{
    inj->timing = timing;
    inj->count = 0;
    inj->t0_known = 0;
    inj->arm_w = NULL;
    inj->arm_c = NULL;
    inj->fired = 0;
    if (inj->site == FSITE_NONE || L->hooks != &inj->hooks)
        return;
    if (inj->done) {
        /* landed in an earlier launch: nothing attached, nothing paid */
        L->hooks = NULL;
        L->trap = 0;
        return;
    }
    int insn = inj->site == FSITE_INSN_OUT || inj->site == FSITE_ALU;
    int ibuf = inj->site == FSITE_IBUF;
    L->trap = (timing && !ibuf ? 0 : EXEC_TRAP_BEFORE) | (insn ? EXEC_TRAP_WRITTEN : 0);
}

void rel_inject_launch_end(rel_injector *inj, const exec_launch *L, uint64_t cycles,
                           uint64_t dmr_mismatches, uint64_t dmr_reissues)
{
    if (inj->arm_w && inj->fired)
        inj->done = 1;
    inj->arm_w = NULL; /* the slots go back to the pool: choose again next launch */
    inj->arm_c = NULL;
    inj->cycles += cycles;
    inj->insts += L->warp_insts;
    inj->launches++;
    inj->dmr_mismatches += dmr_mismatches;
    inj->dmr_reissues += dmr_reissues;
}

void rel_inject_totals(const rel_injector *inj, uint64_t *cycles, uint64_t *insts,
                       uint64_t *launches)
{
    *cycles = inj->cycles;
    *insts = inj->insts;
    *launches = inj->launches;
}

void rel_inject_report_json(const rel_injector *inj, strbuf *sb)
{
    const fault_report *r = &inj->rep;
    sb_printf(sb, "{\"site\":\"%s\",\"model\":\"%s\",\"at\":%llu,\"seed\":%llu,\"landed\":%d",
              config_fault_site_names[inj->site], config_fault_model_names[inj->model],
              (unsigned long long)inj->at, (unsigned long long)inj->seed, r->landed);
    if (r->landed) {
        if (r->has_cycle)
            sb_printf(sb, ",\"cycle\":%llu", (unsigned long long)r->cycle);
        sb_printf(sb, ",\"warp_inst\":%llu,\"launch\":%llu,\"kernel\":",
                  (unsigned long long)r->warp_inst, (unsigned long long)r->launch);
        sb_json_string(sb, r->kernel ? r->kernel : "");
        if (r->has_sm)
            sb_printf(sb, ",\"sm\":%u", r->sm);
        if (r->has_part)
            sb_printf(sb, ",\"partition\":%u", r->part);
        if (r->has_cta)
            sb_printf(sb, ",\"cta\":[%u,%u,%u]", r->cta[0], r->cta[1], r->cta[2]);
        if (r->has_warp)
            sb_printf(sb, ",\"warp\":%u", r->warp);
        if (r->has_lane)
            sb_printf(sb, ",\"lane\":%u", r->lane);
        sb_puts(sb, ",\"target\":");
        sb_json_string(sb, r->target);
        if (r->field[0]) {
            sb_puts(sb, ",\"field\":");
            sb_json_string(sb, r->field);
        }
        if (r->has_pc)
            sb_printf(sb, ",\"pc\":%u", r->pc);
        if (r->has_line)
            sb_printf(sb, ",\"ptx_line\":%u", r->ptx_line);
        if (r->has_addr)
            sb_printf(sb, ",\"addr\":\"0x%llx\"", (unsigned long long)r->addr);
        if (r->has_alias)
            sb_printf(sb, ",\"alias\":\"0x%llx\"", (unsigned long long)r->alias);
        if (inj->site == FSITE_L2D || inj->site == FSITE_L2TAG)
            sb_printf(sb, ",\"dirty\":%d", r->dirty);
        if (r->entry)
            sb_printf(sb, ",\"entry\":\"%s\"", r->entry);
        if (r->has_bit)
            sb_printf(sb, ",\"bit\":%u", r->bit);
        sb_printf(sb, ",\"old\":\"0x%llx\",\"new\":\"0x%llx\"", (unsigned long long)r->old,
                  (unsigned long long)r->new_);
    }
    sb_printf(sb, ",\"total_cycles\":%llu,\"total_warp_insts\":%llu,\"launches\":%llu",
              (unsigned long long)inj->cycles, (unsigned long long)inj->insts,
              (unsigned long long)inj->launches);
    /* with redundant execution on: what it found and repaired over the
     * program (lockstep inject's corrected outcome) */
    if (inj->redundancy[0]) {
        sb_puts(sb, ",\"redundancy\":");
        sb_json_string(sb, inj->redundancy);
        sb_printf(sb, ",\"dmr_mismatches\":%llu,\"dmr_reissues\":%llu",
                  (unsigned long long)inj->dmr_mismatches, (unsigned long long)inj->dmr_reissues);
    }
    sb_putc(sb, '}');
}
