/*
 * interp.c -- the interpreter: runs one warp of decoded PTX until it
 * blocks (barrier), finishes, faults or uses up its slice.
 *
 * DESIGN
 * Registers are stored lane-major per register ("rows" of 32 64-bit
 * slots), so a warp instruction is a loop over the active lanes of a few
 * rows; the compiler vectorises the full-warp case.  Every source operand
 * is fetched as a row (srow): a register row, a row of the module's
 * constant pool for immediates, or a scratch row for special registers and
 * symbol addresses, so handlers never branch on operand kinds per lane.
 * Values narrower than 64 bits live in the low bits of a slot; readers
 * always truncate or extend by the instruction's type, so the upper bits
 * of a slot never matter.
 *
 * Control flow follows the pre-Volta SIMT stack: a divergent branch
 * pushes the two paths with the branch's reconvergence point (its
 * immediate post-dominator, cfg.c) as their RPC; an entry is popped when
 * its pc reaches its RPC or its mask empties.  Calls push a boundary entry
 * and a new register window and local-memory frame; `ret` retires lanes
 * up to the boundary, and the call completes when the boundary surfaces.
 *
 * Dispatch is one switch per warp instruction on the decoded opcode
 * (xop); type and modifier checks happen once per warp instruction, never
 * per lane.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exec/exec.h"
#include "util/check.h"
#include "util/fpmath.h"
#include "util/addrmap.h"
#include "util/common.h"

/* Specialised handlers, numbered after the base opcodes. */
enum {
    XOP_MOV_R = OP_COUNT, XOP_ADD_32, XOP_ADD_64, XOP_SUB_32, XOP_SUB_64, XOP_MUL_LO_32,
    XOP_MUL_LO_64, XOP_MUL_WIDE_S32, XOP_MUL_WIDE_U32, XOP_MAD_LO_32, XOP_MAD_LO_64,
    XOP_MAD_WIDE_S32, XOP_SHL_32, XOP_SHL_64, XOP_SHR_U32, XOP_SHR_S32, XOP_AND, XOP_OR,
    XOP_XOR, XOP_ADD_F32, XOP_SUB_F32, XOP_MUL_F32, XOP_FMA_F32, XOP_SETP_INT
};

/* ---- value helpers ---------------------------------------------------------- */

static inline float f32of(uint64_t x)
{
    uint32_t u = (uint32_t)x;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint64_t bitsf32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline double f64of(uint64_t x)
{
    double d;
    memcpy(&d, &x, 8);
    return d;
}

static inline uint64_t bitsf64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* f32 results: NaN becomes the canonical NaN, as on the GPU.  (f64 keeps
 * NaN payloads: the fast paths hand any NaN result to fpmath.) */
static inline uint64_t c32(float r) { return r != r ? FP32_CANONICAL_NAN : bitsf32(r); }

static inline uint64_t wmask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static inline int64_t sext(uint64_t v, int bits)
{
    if (bits >= 64)
        return (int64_t)v;
    uint64_t m = 1ull << (bits - 1);
    v &= wmask(bits);
    return (int64_t)((v ^ m) - m);
}

/* Loop over the active lanes: `l` is the lane. */
#define LANES(active, ...)                                                                 \
    do {                                                                                   \
        uint32_t m_ = (active);                                                            \
        if (m_ == FULL_MASK) {                                                             \
            for (int l = 0; l < WARP_SIZE; l++) {                                          \
                __VA_ARGS__;                                                               \
            }                                                                              \
        } else {                                                                           \
            while (m_) {                                                                   \
                int l = ctz32(m_);                                                         \
                m_ &= m_ - 1;                                                              \
                __VA_ARGS__;                                                               \
            }                                                                              \
        }                                                                                  \
    } while (0)

/* f32 fma over a warp.  With the FMA instruction (checked at run time; no
 * -march flags) fmaf is one instruction instead of a libm call; the result
 * is the same correctly rounded value either way. */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) static void fma32_rows_hw(uint32_t active, uint64_t *D,
                                                         const uint64_t *A, const uint64_t *B,
                                                         const uint64_t *C)
{
    LANES(active, D[l] = c32(__builtin_fmaf(f32of(A[l]), f32of(B[l]), f32of(C[l]))));
}
#endif

static void fma32_rows(uint32_t active, uint64_t *D, const uint64_t *A, const uint64_t *B,
                       const uint64_t *C)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("fma")) {
        fma32_rows_hw(active, D, A, B, C);
        return;
    }
#endif
    LANES(active, D[l] = c32(fmaf(f32of(A[l]), f32of(B[l]), f32of(C[l]))));
}

/* ---- operands -------------------------------------------------------------------- */

void exec_thread_id(const exec_launch *L, const exec_warp *w, int lane, uint32_t tid[3])
{
    (void)L;
    tid[0] = w->tid[0][lane];
    tid[1] = w->tid[1][lane];
    tid[2] = w->tid[2][lane];
}

/* %globaltimer counts nanoseconds: the timing model's cycles at its core
 * clock; without one, the same count as %clock64. */
static uint64_t globaltimer(const exec_launch *L, uint64_t clock)
{
    return L->cycle_ns > 0 ? (uint64_t)((double)clock * L->cycle_ns) : clock;
}

static uint64_t sreg_value(const exec_launch *L, const exec_cta *c, const exec_warp *w, int lane,
                           uint32_t id, uint32_t aux, uint64_t clock)
{
    switch (id) {
    case SREG_TID_X: case SREG_TID_Y: case SREG_TID_Z:
        return w->tid[id - SREG_TID_X][lane];
    case SREG_NTID_X: case SREG_NTID_Y: case SREG_NTID_Z:
        return L->block[id - SREG_NTID_X];
    case SREG_CTAID_X: case SREG_CTAID_Y: case SREG_CTAID_Z:
        return c->ctaid[id - SREG_CTAID_X];
    case SREG_NCTAID_X: case SREG_NCTAID_Y: case SREG_NCTAID_Z:
        return L->grid[id - SREG_NCTAID_X];
    case SREG_LANEID: return (uint64_t)lane;
    case SREG_WARPID: return w->id;
    case SREG_NWARPID: return L->opt.warps_per_sm;
    case SREG_SMID: return c->smid;
    case SREG_NSMID: return L->opt.num_sms;
    case SREG_GRIDID: return L->opt.gridid;
    case SREG_LANEMASK_EQ: return 1ull << lane;
    case SREG_LANEMASK_LE: return wmask(lane + 1);
    case SREG_LANEMASK_LT: return wmask(lane);
    case SREG_LANEMASK_GE: return (uint32_t)~wmask(lane);
    case SREG_LANEMASK_GT: return (uint32_t)~wmask(lane + 1);
    case SREG_CLOCK: return (uint32_t)clock;
    case SREG_CLOCK_HI: return (uint32_t)(clock >> 32);
    case SREG_CLOCK64: return clock;
    case SREG_GLOBALTIMER: return globaltimer(L, clock);
    case SREG_GLOBALTIMER_LO: return (uint32_t)globaltimer(L, clock);
    case SREG_GLOBALTIMER_HI: return (uint32_t)(globaltimer(L, clock) >> 32);
    case SREG_TOTAL_SMEM: return L->opt.shared_per_sm;
    case SREG_DYNAMIC_SMEM: return L->dyn_shared;
    /* the kernel's reserved shared region (ir.h, IR_RSMEM_BYTES): offsets in
     * the shared window; _0 and _1 are its two halves */
    case SREG_RSMEM_BEGIN: case SREG_RSMEM_0:
        return L->mod->funcs[L->kernel].rsmem_off;
    case SREG_RSMEM_END:
        return L->mod->funcs[L->kernel].rsmem_off + L->mod->funcs[L->kernel].rsmem_bytes;
    case SREG_RSMEM_CAP: return L->mod->funcs[L->kernel].rsmem_bytes;
    case SREG_RSMEM_1:
        return L->mod->funcs[L->kernel].rsmem_off + L->mod->funcs[L->kernel].rsmem_bytes / 2;
    case SREG_ENVREG:
        /* the driver's ABI for cooperative groups: %envreg1 and %envreg2 are
         * the high and low halves of the grid workspace's address (0 when
         * the launch is not cooperative: grid_group::is_valid() is false) */
        return aux == 1 ? L->grid_ws >> 32 : aux == 2 ? (uint32_t)L->grid_ws : 0;
    default: return 0;
    }
}

/* The row of values of a source operand that is not a register or constant. */
static const uint64_t *srow_slow(const exec_launch *L, const exec_cta *c, const exec_warp *w,
                                 const uint64_t *R, const ir_opnd *o, uint64_t *tmp,
                                 uint32_t active)
{
    switch (o->kind) {
    case IRO_REG:
        return R + (size_t)o->idx * WARP_SIZE;
    case IRO_CONST:
        return L->mod->kpool + (size_t)o->idx * WARP_SIZE;
    case IRO_SREG: {
        if (o->idx <= SREG_TID_Z) {
            const uint32_t *t = w->tid[o->idx - SREG_TID_X];
            for (int l = 0; l < WARP_SIZE; l++)
                tmp[l] = t[l];
            return tmp;
        }
        uint64_t clock = L->cycle ? *L->cycle : L->warp_insts + w->insts;
        LANES(active, tmp[l] = sreg_value(L, c, w, l, o->idx, o->aux, clock));
        return tmp;
    }
    case IRO_SHSYM: {
        uint64_t v = L->shref_val[o->idx];
        for (int l = 0; l < WARP_SIZE; l++)
            tmp[l] = v;
        return tmp;
    }
    case IRO_FRAME: {
        uint64_t v = (uint64_t)w->frame_base + o->idx;
        for (int l = 0; l < WARP_SIZE; l++)
            tmp[l] = v;
        return tmp;
    }
    case IRO_IMM: /* a replacement's immediate (exec.h, exec_subst) */
        if (L->subst)
            return L->subst->imm;
        memset(tmp, 0, WARP_SIZE * sizeof *tmp);
        return tmp;
    default:
        memset(tmp, 0, WARP_SIZE * sizeof *tmp);
        return tmp;
    }
}

/* The row of values of a source operand: registers and immediates (the
 * common case) inline, the rest through srow_slow. */
static inline const uint64_t *srow(const exec_launch *L, const exec_cta *c, const exec_warp *w,
                                   const uint64_t *R, const ir_opnd *o, uint64_t *tmp,
                                   uint32_t active)
{
    if (LIKELY(o->kind == IRO_REG))
        return R + (size_t)o->idx * WARP_SIZE;
    if (o->kind == IRO_CONST)
        return L->mod->kpool + (size_t)o->idx * WARP_SIZE;
    return srow_slow(L, c, w, R, o, tmp, active);
}

const uint64_t *exec_operand(const exec_launch *L, const exec_cta *c, const exec_warp *w,
                             const ir_opnd *o, uint64_t *tmp, uint32_t active)
{
    return srow(L, c, w, w->regs + (size_t)w->reg_base * WARP_SIZE, o, tmp, active);
}

/* Lane mask of a predicate source (with its '!'). */
static inline uint32_t pval(const exec_launch *L, const uint32_t *P, const ir_opnd *o)
{
    uint32_t v = o->kind == IRO_PRED    ? P[o->idx]
                 : o->kind == IRO_CONST ? (uint32_t)L->mod->kpool[(size_t)o->idx * WARP_SIZE]
                 : o->kind == IRO_IMM && L->subst ? (uint32_t)L->subst->imm[0]
                                                  : 0;
    return o->neg ? ~v : v;
}

static inline void pset(uint32_t *P, const ir_opnd *o, uint32_t active, uint32_t v)
{
    P[o->idx] = (P[o->idx] & ~active) | (v & active);
}

/* ---- the SIMT stack ---------------------------------------------------------------- */

static int simt_push(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t pc, uint32_t rpc,
                     uint32_t mask, uint32_t is_call)
{
    if (w->sp == w->stack_cap) {
        if (w->stack_cap >= SIMT_MAX_DEPTH) {
            exec_fault(L, c, w, -1, pc, LOCKSTEP_ERROR_STACK_OVERFLOW, 0,
                       "SIMT stack deeper than %d entries (unbounded divergence or recursion)",
                       SIMT_MAX_DEPTH);
            return -1;
        }
        uint32_t cap = w->stack_cap ? w->stack_cap * 2 : 16;
        simt_entry *s = realloc(w->stack, cap * sizeof *s);
        if (!s) {
            L->oom = 1;
            exec_fault(L, c, w, -1, pc, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0, "out of host memory");
            return -1;
        }
        w->stack = s;
        w->stack_cap = cap;
    }
    w->stack[w->sp++] = (simt_entry){pc, rpc, mask, is_call};
    return 0;
}

/*
 * Independent thread scheduling, as far as a SIMT stack can give it (Volta
 * and later; -lockstep_its).  The top path T takes a uniform backward branch:
 * it loops.  When it has done so its_yield times in a row while the entry
 * below, E, is where T reconverges and holds lanes not in T (lanes that left
 * the loop and wait for T), those lanes would wait for ever if T spins on
 * something only they can do (an intra-warp lock they hold).  So they run
 * ahead: E keeps only T's lanes, and a new top entry runs the waiting lanes
 * from E's pc to E's own reconvergence point, where they join the rest again.
 * The choice of when is a fixed count, so execution stays deterministic.
 * Returns 1 if the stack changed (T continues at `target` below the new top).
 */
static int its_yield(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t target)
{
    if (w->spin_pc != target) {
        w->spin_pc = target; /* another loop: count again */
        w->spin = 0;
    }
    if (++w->spin < L->opt.its_yield)
        return 0;
    w->spin = 0;
    /* sibling paths that already reached T's reconvergence point wait in
     * the reconvergence entry's mask: their own entries are done */
    while (w->sp >= 3) {
        simt_entry *s = &w->stack[w->sp - 2];
        if (s->is_call || s->pc != s->rpc || s->rpc != w->stack[w->sp - 1].rpc)
            break;
        w->stack[w->sp - 2] = w->stack[w->sp - 1];
        w->sp--;
    }
    if (w->sp < 2)
        return 0;
    simt_entry *t = &w->stack[w->sp - 1], *e = &w->stack[w->sp - 2];
    if (t->is_call || e->is_call || e->pc != t->rpc || e->pc == e->rpc)
        return 0;
    uint32_t waiting = e->mask & ~t->mask & w->live;
    if (!waiting)
        return 0;
    t->pc = target;
    e->mask = t->mask;
    uint32_t pc = e->pc, rpc = e->rpc;
    return simt_push(L, c, w, pc, rpc, waiting, 0) ? -1 : 1;
}

/*
 * A CTA barrier under independent thread scheduling: the top path reaches
 * bar.sync while other lanes of the warp are still on their way (paths
 * that ran ahead or were left behind).  Paths already waiting at this
 * barrier just below join the top one.  If other paths can still run, the
 * top path waits for them: its entry moves down to just above the entry
 * where it reconverges, and the others run first; the last to arrive finds
 * the rest below it and joins them.  Returns 1 if the stack changed (the
 * barrier is not executed yet), 0 to execute it now, -1 on a fault.
 */
static int its_barrier(exec_warp *w, uint32_t pc)
{
    simt_entry *t = &w->stack[w->sp - 1];
    while (w->sp >= 2) {
        simt_entry *b = &w->stack[w->sp - 2];
        if (b->is_call || b->pc != pc || b->rpc != t->rpc)
            break;
        b->mask |= t->mask;
        w->sp--;
        t = b;
    }
    if (!(w->live & ~t->mask))
        return 0;
    /* where the path reconverges: the highest entry waiting at its rpc */
    uint32_t j = 0;
    for (uint32_t i = w->sp - 1; i-- > 0;)
        if (w->stack[i].is_call || w->stack[i].pc == t->rpc) {
            j = i + 1;
            break;
        }
    if (j >= w->sp - 1)
        return 0; /* nothing else to run first */
    simt_entry parked = *t;
    parked.pc = pc;
    memmove(&w->stack[j + 1], &w->stack[j], (size_t)(w->sp - 1 - j) * sizeof *w->stack);
    w->stack[j] = parked;
    return 1;
}

/* Make sure the register file holds `rows` rows and `preds` predicates. */
static int warp_reserve(exec_launch *L, exec_warp *w, uint32_t rows, uint32_t preds)
{
    if (rows > w->regs_cap) {
        uint32_t cap = w->regs_cap ? w->regs_cap : 64;
        while (cap < rows)
            cap *= 2;
        uint64_t *r = realloc(w->regs, (size_t)cap * WARP_SIZE * sizeof *r);
        if (!r) {
            L->oom = 1;
            return -1;
        }
        /* rows a thread has not written yet hold zero, never host garbage:
         * nothing reads them (cfg.c), but observers may (fault injection) */
        memset(r + (size_t)w->regs_cap * WARP_SIZE, 0,
               (size_t)(cap - w->regs_cap) * WARP_SIZE * sizeof *r);
        w->regs = r;
        w->regs_cap = cap;
    }
    if (preds > w->preds_cap) {
        uint32_t cap = w->preds_cap ? w->preds_cap : 16;
        while (cap < preds)
            cap *= 2;
        uint32_t *p = realloc(w->preds, (size_t)cap * sizeof *p);
        if (!p) {
            L->oom = 1;
            return -1;
        }
        w->preds = p;
        w->preds_cap = cap;
    }
    return 0;
}

/* Complete the call whose boundary entry is on top of the stack. */
static void do_return(exec_launch *L, exec_cta *c, exec_warp *w)
{
    call_frame *cf = &w->calls[--w->ncalls];
    const ir_func *callee = &L->mod->funcs[w->func];
    const ir_call *cs = &L->mod->calls[cf->call];
    uint32_t lanes = cf->returned & w->live;
    for (uint32_t i = 0; i < cs->nrets && i < callee->nrets; i++) {
        uint32_t n = MIN(cs->ret_size[i], callee->rets[i].size);
        LANES(lanes, {
            uint8_t *loc = exec_local(L, c, w, l);
            memcpy(loc + cf->frame_base + cs->ret_off[i], loc + w->frame_base + callee->rets[i].offset,
                   n);
        });
    }
    w->func = cf->func;
    w->reg_base = cf->reg_base;
    w->pred_base = cf->pred_base;
    w->frame_base = cf->frame_base;
    w->sp--; /* the boundary */
}

/* Pop finished entries; returns 1 if the warp can go on, 0 if it is done,
 * -1 on a fault. */
static int simt_settle(exec_launch *L, exec_cta *c, exec_warp *w)
{
    for (;;) {
        if (w->sp == 0) {
            w->state = WARP_DONE;
            return 0;
        }
        simt_entry *t = &w->stack[w->sp - 1];
        LS_ASSERT(w->sp <= w->stack_cap && (t->mask & ~w->live) == 0);
        if (t->is_call) {
            do_return(L, c, w);
            continue;
        }
        if (t->mask == 0 || t->pc == t->rpc) {
            w->sp--;
            continue;
        }
        if (t->pc == IR_NO_PC) {
            exec_fault(L, c, w, -1, IR_NO_PC, LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, 0,
                       "lanes 0x%08x have no instruction to continue at (diverged paths that never reconverge)",
                       t->mask);
            return -1;
        }
        return 1;
    }
}

uint32_t exec_warp_next_pc(exec_launch *L, exec_cta *c, exec_warp *w)
{
    if (w->state != WARP_RUNNING || simt_settle(L, c, w) <= 0)
        return IR_NO_PC;
    return w->stack[w->sp - 1].pc;
}

/* Lanes leave the kernel. */
static void lanes_exit(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t lanes)
{
    lanes &= w->live;
    if (!lanes)
        return;
    for (uint32_t i = 0; i < w->sp; i++)
        w->stack[i].mask &= ~lanes;
    for (uint32_t i = 0; i < w->ncalls; i++)
        w->calls[i].returned &= ~lanes;
    w->live &= ~lanes;
    exec_lanes_exited(L, c, w, lanes);
}

/* ---- calls ------------------------------------------------------------------------ */

/* Start executing the callee for lanes S; the caller's entry must already
 * point at its return pc. */
static int enter_call(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t pc, uint32_t call_idx,
                      uint32_t callee_idx, uint32_t S)
{
    const ir_module *m = L->mod;
    const ir_func *caller = &m->funcs[w->func];
    const ir_func *callee = &m->funcs[callee_idx];
    const ir_call *cs = &m->calls[call_idx];
    if (w->ncalls >= CALL_MAX_DEPTH) {
        exec_fault(L, c, w, -1, pc, LOCKSTEP_ERROR_STACK_OVERFLOW, 0,
                   "call depth exceeds %d (runaway recursion?)", CALL_MAX_DEPTH);
        return -1;
    }
    uint64_t nframe = (uint64_t)w->frame_base + caller->frame_bytes;
    if (nframe + callee->frame_bytes > L->local_bytes) {
        exec_fault(L, c, w, -1, pc, LOCKSTEP_ERROR_STACK_OVERFLOW, 0,
                   "call to '%s' needs %u bytes of stack; the per-thread stack (%u bytes) is exhausted",
                   callee->name, callee->frame_bytes, L->local_bytes);
        return -1;
    }
    uint32_t nreg = w->reg_base + caller->nregs, npred = w->pred_base + caller->npreds;
    if (warp_reserve(L, w, nreg + callee->nregs, npred + callee->npreds)) {
        exec_fault(L, c, w, -1, pc, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0, "out of host memory");
        return -1;
    }
    if (w->ncalls == w->calls_cap) {
        uint32_t cap = w->calls_cap ? w->calls_cap * 2 : 8;
        call_frame *nc = realloc(w->calls, cap * sizeof *nc);
        if (!nc) {
            L->oom = 1;
            exec_fault(L, c, w, -1, pc, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0, "out of host memory");
            return -1;
        }
        w->calls = nc;
        w->calls_cap = cap;
    }
    /* arguments: caller's .param variables to the callee's parameters */
    for (uint32_t i = 0; i < cs->nargs && i < callee->nparams; i++) {
        uint32_t n = MIN(cs->arg_size[i], callee->params[i].size);
        LANES(S, {
            uint8_t *loc = exec_local(L, c, w, l);
            memcpy(loc + nframe + callee->params[i].offset, loc + w->frame_base + cs->arg_off[i], n);
        });
    }
    call_frame *cf = &w->calls[w->ncalls++];
    cf->func = w->func;
    cf->reg_base = w->reg_base;
    cf->pred_base = w->pred_base;
    cf->frame_base = w->frame_base;
    cf->call = call_idx;
    cf->callee = callee_idx;
    cf->returned = 0;
    if (simt_push(L, c, w, pc + 1, IR_NO_PC, S, 1) ||
        simt_push(L, c, w, callee->start, IR_NO_PC, S, 0))
        return -1;
    w->func = callee_idx;
    w->reg_base = nreg;
    w->pred_base = npred;
    w->frame_base = (uint32_t)nframe;
    exec_zero_rows(w->regs + (size_t)nreg * WARP_SIZE, callee);
    memset(w->preds + npred, 0, callee->npreds * sizeof(uint32_t));
    return 0;
}

/* ---- arithmetic ------------------------------------------------------------------- */

static uint32_t half_op2(uint32_t a, uint32_t b, ptx_type t, int op, fp_rnd r, unsigned fl)
{
    fp_fmt f = (t == PT_BF16 || t == PT_BF16X2) ? FP_BF16 : FP_F16;
    int pairs = (t == PT_F16X2 || t == PT_BF16X2) ? 2 : 1;
    uint32_t d = 0;
    for (int h = 0; h < pairs; h++) {
        uint32_t x = (a >> (16 * h)) & 0xffff, y = (b >> (16 * h)) & 0xffff, z = 0;
        switch (op) {
        case OP_ADD: z = fp16_add(x, y, f, r, fl); break;
        case OP_SUB: z = fp16_sub(x, y, f, r, fl); break;
        case OP_MUL: z = fp16_mul(x, y, f, r, fl); break;
        case OP_MIN: z = fp16_min(x, y, f, fl); break;
        case OP_MAX: z = fp16_max(x, y, f, fl); break;
        case OP_NEG: z = fp16_neg(x, f, fl); break;
        case OP_ABS: z = fp16_abs(x, f, fl); break;
        default: break;
        }
        d |= (z & 0xffff) << (16 * h);
    }
    return d;
}

static uint32_t half_fma(uint32_t a, uint32_t b, uint32_t c, ptx_type t, fp_rnd r, unsigned fl)
{
    fp_fmt f = (t == PT_BF16 || t == PT_BF16X2) ? FP_BF16 : FP_F16;
    int pairs = (t == PT_F16X2 || t == PT_BF16X2) ? 2 : 1;
    uint32_t d = 0;
    for (int h = 0; h < pairs; h++) {
        uint32_t z = fp16_fma((a >> (16 * h)) & 0xffff, (b >> (16 * h)) & 0xffff,
                              (c >> (16 * h)) & 0xffff, f, r, fl);
        d |= (z & 0xffff) << (16 * h);
    }
    return d;
}

static unsigned fpfl(const ir_insn *in)
{
    unsigned f = 0;
    if (in->flags & IRF_FTZ)
        f |= FP_FTZ;
    if (in->flags & IRF_SAT)
        f |= FP_SAT;
    if (in->flags & IRF_NAN)
        f |= FP_MINMAX_NAN;
    if (in->flags & IRF_XORSIGN_ABS)
        f |= FP_XORSIGN_ABS;
    return f;
}

/* f32 reciprocal and square roots by one or two IEEE double operations,
 * rounded once more to f32: correctly rounded, because 53 >= 2 * 24 + 2
 * makes the double rounding innocuous for division and square root, and
 * bit-identical to fpmath's integer versions (checked over 3 * 10^8
 * operands).  Only where the result is a normal f32 and no .ftz applies
 * to the operand; everything else goes to fpmath.  The host environment is
 * the IEEE default during a launch (hostfp.h). */
static inline uint64_t rcp32_rn(uint32_t a, unsigned fl)
{
    uint32_t e = (a >> 23) & 0xff;
    if ((e >= 1 && e <= 252) || (e == 0 && (a & 0x7fffff) && !(fl & FP_FTZ)))
        return bitsf32((float)(1.0 / (double)f32of(a)));
    return fp32_rcp_approx(a, fl);
}

static inline uint64_t sqrt32_rn(uint32_t a, unsigned fl)
{
    uint32_t e = (a >> 23) & 0xff;
    if (!(a >> 31) && ((e >= 1 && e <= 254) || (e == 0 && a && !(fl & FP_FTZ))))
        return bitsf32(sqrtf(f32of(a)));
    return fp32_sqrt_approx(a, fl);
}

/* rsqrt.approx: 1/sqrt(a) rounded in f64 twice, then to f32 (as fpmath). */
static inline uint64_t rsqrt32(uint32_t a, unsigned fl)
{
    uint32_t e = (a >> 23) & 0xff;
    if (!(a >> 31) && ((e >= 1 && e <= 254) || (e == 0 && a && !(fl & FP_FTZ))))
        return bitsf32((float)(1.0 / sqrt((double)f32of(a))));
    return fp32_rsqrt_approx(a, fl);
}

static int is_halft(int t)
{
    return t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_BF16X2;
}

/* Floating add/sub/mul/min/max/abs/neg/fma/div and the SFU functions. */
static void float_op(const ir_insn *in, uint32_t active, uint64_t *D, const uint64_t *A,
                     const uint64_t *B, const uint64_t *C)
{
    int t = in->type;
    fp_rnd r = (fp_rnd)in->rnd;
    unsigned fl = fpfl(in);
    int fast = r == FP_RN && !(in->flags & (IRF_FTZ | IRF_SAT));
    int op = in->op;
    if (t == PT_F32) {
        switch (op) {
        case OP_ADD:
            if (fast) LANES(active, D[l] = c32(f32of(A[l]) + f32of(B[l])));
            else LANES(active, D[l] = fp32_add((uint32_t)A[l], (uint32_t)B[l], r, fl));
            return;
        case OP_SUB:
            if (fast) LANES(active, D[l] = c32(f32of(A[l]) - f32of(B[l])));
            else LANES(active, D[l] = fp32_sub((uint32_t)A[l], (uint32_t)B[l], r, fl));
            return;
        case OP_MUL:
            if (fast) LANES(active, D[l] = c32(f32of(A[l]) * f32of(B[l])));
            else LANES(active, D[l] = fp32_mul((uint32_t)A[l], (uint32_t)B[l], r, fl));
            return;
        case OP_FMA:
            if (fast) LANES(active, D[l] = c32(fmaf(f32of(A[l]), f32of(B[l]), f32of(C[l]))));
            else LANES(active, D[l] = fp32_fma((uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l], r, fl));
            return;
        case OP_DIV:
            if (in->flags & IRF_APPROX)
                LANES(active, D[l] = fp32_div_approx((uint32_t)A[l], (uint32_t)B[l], fl));
            else if (in->flags & IRF_FULL)
                LANES(active, D[l] = fp32_div_full((uint32_t)A[l], (uint32_t)B[l], fl));
            else if (fast)
                LANES(active, D[l] = c32(f32of(A[l]) / f32of(B[l])));
            else
                LANES(active, D[l] = fp32_div((uint32_t)A[l], (uint32_t)B[l], r, fl));
            return;
        case OP_MIN: LANES(active, D[l] = fp32_min((uint32_t)A[l], (uint32_t)B[l], fl)); return;
        case OP_MAX: LANES(active, D[l] = fp32_max((uint32_t)A[l], (uint32_t)B[l], fl)); return;
        case OP_ABS: LANES(active, D[l] = fp32_abs((uint32_t)A[l], fl)); return;
        case OP_NEG: LANES(active, D[l] = fp32_neg((uint32_t)A[l], fl)); return;
        case OP_COPYSIGN: LANES(active, D[l] = fp32_copysign((uint32_t)A[l], (uint32_t)B[l])); return;
        /* .approx rcp and sqrt are modelled as correctly rounded (fpmath.c) */
        case OP_RCP:
            if ((in->flags & IRF_APPROX) || r == FP_RN) LANES(active, D[l] = rcp32_rn((uint32_t)A[l], fl));
            else LANES(active, D[l] = fp32_rcp((uint32_t)A[l], r, fl));
            return;
        case OP_SQRT:
            if ((in->flags & IRF_APPROX) || r == FP_RN) LANES(active, D[l] = sqrt32_rn((uint32_t)A[l], fl));
            else LANES(active, D[l] = fp32_sqrt((uint32_t)A[l], r, fl));
            return;
        case OP_RSQRT: LANES(active, D[l] = rsqrt32((uint32_t)A[l], fl)); return;
        case OP_SIN: LANES(active, D[l] = fp32_sin_approx((uint32_t)A[l], fl)); return;
        case OP_COS: LANES(active, D[l] = fp32_cos_approx((uint32_t)A[l], fl)); return;
        case OP_LG2: LANES(active, D[l] = fp32_lg2_approx((uint32_t)A[l], fl)); return;
        case OP_EX2: LANES(active, D[l] = fp32_ex2_approx((uint32_t)A[l], fl)); return;
        case OP_TANH: LANES(active, D[l] = fp32_tanh_approx((uint32_t)A[l], fl)); return;
        default: return;
        }
    }
    if (t == PT_F64) {
        switch (op) {
        case OP_ADD:
            if (r == FP_RN) LANES(active, { double v = f64of(A[l]) + f64of(B[l]); D[l] = v == v ? bitsf64(v) : fp64_add(A[l], B[l], r); });
            else LANES(active, D[l] = fp64_add(A[l], B[l], r));
            return;
        case OP_SUB:
            if (r == FP_RN) LANES(active, { double v = f64of(A[l]) - f64of(B[l]); D[l] = v == v ? bitsf64(v) : fp64_sub(A[l], B[l], r); });
            else LANES(active, D[l] = fp64_sub(A[l], B[l], r));
            return;
        case OP_MUL:
            if (r == FP_RN) LANES(active, { double v = f64of(A[l]) * f64of(B[l]); D[l] = v == v ? bitsf64(v) : fp64_mul(A[l], B[l], r); });
            else LANES(active, D[l] = fp64_mul(A[l], B[l], r));
            return;
        case OP_FMA:
            if (r == FP_RN) LANES(active, { double v = fma(f64of(A[l]), f64of(B[l]), f64of(C[l])); D[l] = v == v ? bitsf64(v) : fp64_fma(A[l], B[l], C[l], r); });
            else LANES(active, D[l] = fp64_fma(A[l], B[l], C[l], r));
            return;
        case OP_DIV:
            if (r == FP_RN) LANES(active, { double v = f64of(A[l]) / f64of(B[l]); D[l] = v == v ? bitsf64(v) : fp64_div(A[l], B[l], r); });
            else LANES(active, D[l] = fp64_div(A[l], B[l], r));
            return;
        case OP_MIN: LANES(active, D[l] = fp64_min(A[l], B[l], fl)); return;
        case OP_MAX: LANES(active, D[l] = fp64_max(A[l], B[l], fl)); return;
        case OP_ABS: LANES(active, D[l] = fp64_abs(A[l])); return;
        case OP_NEG: LANES(active, D[l] = fp64_neg(A[l])); return;
        case OP_COPYSIGN: LANES(active, D[l] = fp64_copysign(A[l], B[l])); return;
        case OP_RCP:
            if (in->flags & IRF_APPROX) LANES(active, D[l] = fp64_rcp_approx(A[l], fl));
            else LANES(active, D[l] = fp64_rcp(A[l], r));
            return;
        case OP_SQRT:
            if (r == FP_RN) LANES(active, { double v = sqrt(f64of(A[l])); D[l] = v == v ? bitsf64(v) : fp64_sqrt(A[l], r); });
            else LANES(active, D[l] = fp64_sqrt(A[l], r));
            return;
        case OP_RSQRT: LANES(active, D[l] = fp64_rsqrt_approx(A[l], fl)); return;
        default: return;
        }
    }
    if (is_halft(t)) {
        if (op == OP_FMA)
            LANES(active, D[l] = half_fma((uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l], (ptx_type)t, r, fl));
        else
            LANES(active, D[l] = half_op2((uint32_t)A[l], B ? (uint32_t)B[l] : 0, (ptx_type)t, op, r, fl));
    }
}

/* add, min, max (.relu) on .u16x2/.s16x2: each 16-bit half on its own. */
static void int16x2_op(const ir_insn *in, uint32_t active, uint64_t *D, const uint64_t *A,
                       const uint64_t *B)
{
    int sgn = in->type == PT_S16X2, relu = (in->flags & IRF_RELU) != 0, op = in->op;
    LANES(active, {
        uint32_t d = 0;
        for (int h = 0; h < 32; h += 16) {
            uint32_t ua = (uint32_t)(A[l] >> h) & 0xffffu, ub = (uint32_t)(B[l] >> h) & 0xffffu;
            int32_t a = sgn ? (int16_t)ua : (int32_t)ua, b = sgn ? (int16_t)ub : (int32_t)ub;
            int32_t r = op == OP_ADD ? a + b : op == OP_MIN ? (a < b ? a : b) : (a > b ? a : b);
            if (relu && r < 0)
                r = 0;
            d |= ((uint32_t)r & 0xffffu) << h;
        }
        D[l] = d;
    });
}

/* Integer add/sub with optional carry (.cc, addc, subc) and .sat. */
static void int_addsub(exec_warp *w, const ir_insn *in, uint32_t active, uint64_t *D,
                       const uint64_t *A, const uint64_t *B)
{
    int bits = ptx_type_bits((ptx_type)in->type);
    uint64_t m = wmask(bits);
    int sub = in->op == OP_SUB || in->op == OP_SUBC;
    if (in->flags & (IRF_CC | IRF_CI)) {
        uint32_t carry = w->carry, nc = 0;
        LANES(active, {
            unsigned __int128 a = A[l] & m, b = B[l] & m;
            unsigned __int128 cin = (in->flags & IRF_CI) ? (carry >> l) & 1 : 0;
            unsigned __int128 r;
            int cout;
            if (sub) {
                r = a - b - cin;
                cout = a < b + cin; /* borrow */
            } else {
                r = a + b + cin;
                cout = (r >> bits) & 1;
            }
            D[l] = (uint64_t)r & m;
            nc |= (uint32_t)cout << l;
        });
        if (in->flags & IRF_CC)
            w->carry = (carry & ~active) | nc;
        return;
    }
    if (in->flags & IRF_SAT) { /* .sat.s32 */
        LANES(active, {
            int64_t a = (int32_t)A[l], b = (int32_t)B[l];
            int64_t r = sub ? a - b : a + b;
            r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
            D[l] = (uint32_t)r;
        });
        return;
    }
    if (sub)
        LANES(active, D[l] = (A[l] - B[l]) & m);
    else
        LANES(active, D[l] = (A[l] + B[l]) & m);
}

/* Full product of two `bits`-bit values as 128 bits. */
static inline unsigned __int128 mulfull(uint64_t a, uint64_t b, int bits, int sgn)
{
    if (sgn)
        return (unsigned __int128)((__int128)sext(a, bits) * (__int128)sext(b, bits));
    return (unsigned __int128)(a & wmask(bits)) * (unsigned __int128)(b & wmask(bits));
}

/* mul/mad integer forms (.lo .hi .wide, .cc, madc, .sat), mul24/mad24. */
static void int_mul(exec_warp *w, const ir_insn *in, uint32_t active, uint64_t *D,
                    const uint64_t *A, const uint64_t *B, const uint64_t *C)
{
    int t = in->type, bits = ptx_type_bits((ptx_type)t);
    int sgn = ptx_type_is_signed((ptx_type)t);
    int mad = in->op == OP_MAD || in->op == OP_MADC || in->op == OP_MAD24;
    uint64_t m = wmask(bits);
    if (in->op == OP_MUL24 || in->op == OP_MAD24) {
        LANES(active, {
            int64_t a = sgn ? sext(A[l], 24) : (int64_t)(A[l] & 0xffffff);
            int64_t b = sgn ? sext(B[l], 24) : (int64_t)(B[l] & 0xffffff);
            uint64_t p = (uint64_t)(a * b);
            uint64_t r = (in->flags & IRF_HI) ? (p >> 16) & 0xffffffffu : p & 0xffffffffu;
            if (mad) {
                if ((in->flags & IRF_SAT) && sgn) {
                    int64_t s = (int64_t)(int32_t)r + (int64_t)(int32_t)C[l];
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                    r = (uint32_t)s;
                } else {
                    r = (r + C[l]) & 0xffffffffu;
                }
            }
            D[l] = r;
        });
        return;
    }
    if (in->flags & IRF_WIDE) {
        int wb = 2 * bits;
        uint64_t wm = wmask(wb);
        LANES(active, {
            uint64_t p = (uint64_t)mulfull(A[l], B[l], bits, sgn);
            D[l] = (mad ? p + C[l] : p) & wm;
        });
        return;
    }
    int hi = (in->flags & IRF_HI) != 0;
    if (!mad) {
        if (!hi)
            LANES(active, D[l] = (A[l] * B[l]) & m);
        else
            LANES(active, D[l] = (uint64_t)(mulfull(A[l], B[l], bits, sgn) >> bits) & m);
        return;
    }
    uint32_t carry = w->carry, nc = 0;
    int cc = (in->flags & IRF_CC) != 0, ci = (in->flags & IRF_CI) != 0;
    LANES(active, {
        uint64_t p = hi ? (uint64_t)(mulfull(A[l], B[l], bits, sgn) >> bits) & m : (A[l] * B[l]) & m;
        if ((in->flags & IRF_SAT) && sgn && hi && bits == 32) {
            int64_t s = (int64_t)(int32_t)p + (int64_t)(int32_t)C[l];
            s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
            D[l] = (uint32_t)s;
        } else {
            unsigned __int128 r = (unsigned __int128)p + (C[l] & m) + (ci ? (carry >> l) & 1 : 0);
            D[l] = (uint64_t)r & m;
            nc |= (uint32_t)((r >> bits) & 1) << l;
        }
    });
    if (cc)
        w->carry = (carry & ~active) | nc;
}

static uint64_t int_div(uint64_t a, uint64_t b, int bits, int sgn, int rem)
{
    uint64_t m = wmask(bits);
    if ((b & m) == 0) /* measured on the GPU: a/0 and a%0 are all ones, signed or not */
        return m;
    if (!sgn) {
        a &= m;
        b &= m;
        return rem ? a % b : a / b;
    }
    int64_t x = sext(a, bits), y = sext(b, bits);
    if (y == -1) /* avoids INT_MIN / -1 overflow: the quotient wraps */
        return rem ? 0 : (uint64_t)(0 - (uint64_t)x) & m;
    return (uint64_t)(rem ? x % y : x / y) & m;
}

static void int_misc(const ir_insn *in, uint32_t active, uint64_t *D, const uint64_t *A,
                     const uint64_t *B, const uint64_t *C)
{
    int t = in->type, bits = ptx_type_bits((ptx_type)t);
    int sgn = ptx_type_is_signed((ptx_type)t);
    uint64_t m = wmask(bits);
    switch (in->op) {
    case OP_DIV: case OP_REM: {
        int rem = in->op == OP_REM;
        LANES(active, D[l] = int_div(A[l], B[l], bits, sgn, rem));
        return;
    }
    case OP_MIN: case OP_MAX: {
        int mx = in->op == OP_MAX;
        if (sgn)
            LANES(active, {
                int64_t a = sext(A[l], bits), b = sext(B[l], bits);
                int64_t r = mx ? (a > b ? a : b) : (a < b ? a : b);
                if ((in->flags & IRF_RELU) && r < 0)
                    r = 0;
                D[l] = (uint64_t)r & m;
            });
        else
            LANES(active, {
                uint64_t a = A[l] & m, b = B[l] & m;
                D[l] = mx ? (a > b ? a : b) : (a < b ? a : b);
            });
        return;
    }
    case OP_ABS:
        LANES(active, {
            int64_t a = sext(A[l], bits);
            D[l] = (a < 0 ? 0 - (uint64_t)a : (uint64_t)a) & m;
        });
        return;
    case OP_NEG: LANES(active, D[l] = (0 - A[l]) & m); return;
    case OP_SAD:
        LANES(active, {
            uint64_t d;
            if (sgn) {
                int64_t a = sext(A[l], bits), b = sext(B[l], bits);
                d = a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
            } else {
                uint64_t a = A[l] & m, b = B[l] & m;
                d = a > b ? a - b : b - a;
            }
            D[l] = (C[l] + d) & m;
        });
        return;
    default:
        return;
    }
}

static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, int bits, int sgn)
{
    pos &= 0xff;
    len &= 0xff;
    int msb = bits - 1;
    int sbit = 0;
    if (sgn && len) {
        uint32_t i = pos + len - 1 < (uint32_t)msb ? pos + len - 1 : (uint32_t)msb;
        sbit = (int)((a >> i) & 1);
    }
    uint64_t d = 0;
    for (int i = 0; i <= msb; i++) {
        int bit = ((uint32_t)i < len && pos + (uint32_t)i <= (uint32_t)msb) ? (int)((a >> (pos + (uint32_t)i)) & 1) : sbit;
        d |= (uint64_t)bit << i;
    }
    return d;
}

static uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, int bits)
{
    pos &= 0xff;
    len &= 0xff;
    uint64_t f = b;
    for (uint32_t i = 0; i < len && pos + i < (uint32_t)bits; i++) {
        uint64_t bit = (a >> i) & 1;
        f = (f & ~(1ull << (pos + i))) | (bit << (pos + i));
    }
    return f & wmask(bits);
}

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, int mode)
{
    uint64_t src = ((uint64_t)b << 32) | a;
    uint32_t d = 0;
    if (mode == PRMT_DEFAULT) {
        for (int i = 0; i < 4; i++) {
            uint32_t sel = (c >> (4 * i)) & 0xf;
            uint32_t byte = (uint32_t)(src >> (8 * (sel & 7))) & 0xff;
            if (sel & 8)
                byte = (byte & 0x80) ? 0xff : 0;
            d |= byte << (8 * i);
        }
        return d;
    }
    static const uint8_t tab[7][4][4] = {
        {{0}},
        /* f4e */ {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
        /* b4e */ {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
        /* rc8 */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
        /* ecl */ {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
        /* ecr */ {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
        /* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
    };
    const uint8_t *sel = tab[mode][c & 3];
    for (int i = 0; i < 4; i++)
        d |= ((uint32_t)(src >> (8 * sel[i])) & 0xff) << (8 * i);
    return d;
}

static uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
    uint32_t r = 0;
    for (int k = 0; k < 8; k++)
        if (lut & (1u << k))
            r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
    return r;
}

static int bfind(uint64_t a, int bits, int sgn, int shiftamt)
{
    a &= wmask(bits);
    if (sgn && ((a >> (bits - 1)) & 1))
        a = ~a & wmask(bits);
    if (!a)
        return -1;
    int pos = 63 - __builtin_clzll(a);
    return shiftamt ? bits - 1 - pos : pos;
}

static void bits_op(exec_warp *w, const ir_insn *in, uint32_t active, uint64_t *D,
                    const uint64_t *A, const uint64_t *B, const uint64_t *C, const uint64_t *E)
{
    (void)w;
    int t = in->type, bits = ptx_type_bits((ptx_type)t);
    int sgn = ptx_type_is_signed((ptx_type)t);
    uint64_t m = wmask(bits);
    switch (in->op) {
    case OP_AND: LANES(active, D[l] = A[l] & B[l]); return;
    case OP_OR: LANES(active, D[l] = A[l] | B[l]); return;
    case OP_XOR: LANES(active, D[l] = A[l] ^ B[l]); return;
    case OP_NOT: LANES(active, D[l] = ~A[l] & m); return;
    case OP_CNOT: LANES(active, D[l] = (A[l] & m) == 0); return;
    case OP_POPC: LANES(active, D[l] = (uint64_t)__builtin_popcountll(A[l] & m)); return;
    case OP_CLZ:
        LANES(active, {
            uint64_t a = A[l] & m;
            D[l] = a ? (uint64_t)(__builtin_clzll(a) - (64 - bits)) : (uint64_t)bits;
        });
        return;
    case OP_BREV:
        LANES(active, {
            uint64_t a = A[l], r = 0;
            for (int i = 0; i < bits; i++)
                r |= ((a >> i) & 1) << (bits - 1 - i);
            D[l] = r;
        });
        return;
    case OP_BFIND:
        LANES(active, D[l] = (uint32_t)bfind(A[l], bits, sgn, (in->flags & IRF_SHIFTAMT) != 0));
        return;
    case OP_SHL:
        LANES(active, {
            uint32_t s = (uint32_t)B[l];
            D[l] = s >= (uint32_t)bits ? 0 : (A[l] << s) & m;
        });
        return;
    case OP_SHR:
        if (sgn)
            LANES(active, {
                uint32_t s = (uint32_t)B[l];
                int64_t a = sext(A[l], bits);
                D[l] = (uint64_t)(a >> (s >= (uint32_t)bits ? (uint32_t)bits - 1 : s)) & m;
            });
        else
            LANES(active, {
                uint32_t s = (uint32_t)B[l];
                D[l] = s >= (uint32_t)bits ? 0 : (A[l] & m) >> s;
            });
        return;
    case OP_BFE:
        LANES(active, D[l] = bfe(A[l], (uint32_t)B[l], (uint32_t)C[l], bits, sgn) & m);
        return;
    case OP_BFI:
        LANES(active, D[l] = bfi(A[l], B[l], (uint32_t)C[l], (uint32_t)E[l], bits));
        return;
    case OP_BMSK:
        LANES(active, {
            uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l];
            if (in->flags & IRF_CLAMP) {
                a = a > 32 ? 32 : a;
                b = b > 32 ? 32 : b;
            } else {
                a &= 31;
                b &= 31;
            }
            uint64_t mask = (wmask((int)b) << a) & 0xffffffffu;
            D[l] = mask;
        });
        return;
    case OP_SZEXT:
        LANES(active, {
            uint32_t b = (uint32_t)B[l];
            b = (in->flags & IRF_CLAMP) ? (b > 32 ? 32 : b) : (b & 31);
            uint64_t a = A[l] & 0xffffffffu;
            if (b == 0)
                D[l] = 0;
            else if (sgn)
                D[l] = (uint64_t)sext(a, (int)b) & 0xffffffffu;
            else
                D[l] = a & wmask((int)b);
        });
        return;
    case OP_SHF:
        LANES(active, {
            uint32_t n = (uint32_t)C[l];
            n = (in->flags & IRF_CLAMP) ? (n > 32 ? 32 : n) : (n & 31);
            uint64_t v = ((uint64_t)(uint32_t)B[l] << 32) | (uint32_t)A[l];
            D[l] = (in->flags & IRF_LEFT) ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
        });
        return;
    case OP_PRMT:
        LANES(active, D[l] = prmt((uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l], in->mode));
        return;
    case OP_LOP3:
        LANES(active, D[l] = lop3((uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l], (uint32_t)in->imm));
        return;
    case OP_DP4A: case OP_DP2A: {
        int sa = in->type == PT_S32, sb = in->type2 == PT_S32;
        int hi = (in->flags & IRF_HI) != 0;
        LANES(active, {
            uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l];
            int64_t acc = (sa || sb) ? (int64_t)(int32_t)C[l] : (int64_t)(uint32_t)C[l];
            if (in->op == OP_DP4A) {
                for (int i = 0; i < 4; i++) {
                    int64_t x = sa ? (int8_t)(a >> (8 * i)) : (int64_t)((a >> (8 * i)) & 0xff);
                    int64_t y = sb ? (int8_t)(b >> (8 * i)) : (int64_t)((b >> (8 * i)) & 0xff);
                    acc += x * y;
                }
            } else {
                for (int i = 0; i < 2; i++) {
                    int64_t x = sa ? (int16_t)(a >> (16 * i)) : (int64_t)((a >> (16 * i)) & 0xffff);
                    int k = (hi ? 2 : 0) + i;
                    int64_t y = sb ? (int8_t)(b >> (8 * k)) : (int64_t)((b >> (8 * k)) & 0xff);
                    acc += x * y;
                }
            }
            D[l] = (uint32_t)acc;
        });
        return;
    }
    default:
        return;
    }
}

/* Integer and float comparisons for setp/set. */
static uint32_t compare(const ir_insn *in, uint32_t active, const uint64_t *A, const uint64_t *B)
{
    int t = in->type2, bits = ptx_type_bits((ptx_type)t);
    uint32_t r = 0;
    int cmp = in->mode;
    if (t == PT_F32) {
        if (!(in->flags & IRF_FTZ) && cmp <= CMP_GE) {
            switch (cmp) {
            case CMP_EQ: LANES(active, r |= (uint32_t)(f32of(A[l]) == f32of(B[l])) << l); break;
            case CMP_NE: LANES(active, { float a = f32of(A[l]), b = f32of(B[l]); r |= (uint32_t)(a != b && a == a && b == b) << l; }); break;
            case CMP_LT: LANES(active, r |= (uint32_t)(f32of(A[l]) < f32of(B[l])) << l); break;
            case CMP_LE: LANES(active, r |= (uint32_t)(f32of(A[l]) <= f32of(B[l])) << l); break;
            case CMP_GT: LANES(active, r |= (uint32_t)(f32of(A[l]) > f32of(B[l])) << l); break;
            default: LANES(active, r |= (uint32_t)(f32of(A[l]) >= f32of(B[l])) << l); break;
            }
            return r;
        }
        unsigned fl = (in->flags & IRF_FTZ) ? FP_FTZ : 0;
        fp_cmp fc = (fp_cmp)(cmp - (cmp >= CMP_EQU ? CMP_EQU - FPC_EQU : 0));
        LANES(active, r |= (uint32_t)fp32_cmp((uint32_t)A[l], (uint32_t)B[l], fc, fl) << l);
        return r;
    }
    if (t == PT_F64) {
        fp_cmp fc = (fp_cmp)(cmp - (cmp >= CMP_EQU ? CMP_EQU - FPC_EQU : 0));
        LANES(active, r |= (uint32_t)fp64_cmp(A[l], B[l], fc) << l);
        return r;
    }
    if (is_halft(t)) {
        fp_fmt f = (t == PT_BF16 || t == PT_BF16X2) ? FP_BF16 : FP_F16;
        fp_cmp fc = (fp_cmp)(cmp - (cmp >= CMP_EQU ? CMP_EQU - FPC_EQU : 0));
        unsigned fl = (in->flags & IRF_FTZ) ? FP_FTZ : 0;
        LANES(active, r |= (uint32_t)fp16_cmp((uint32_t)A[l] & 0xffff, (uint32_t)B[l] & 0xffff, f, fc, fl) << l);
        return r;
    }
    int sgn = ptx_type_is_signed((ptx_type)t);
    if (cmp == CMP_LO || cmp == CMP_LS || cmp == CMP_HI || cmp == CMP_HS)
        sgn = 0;
    uint64_t m = wmask(bits);
    /* one loop per comparison: values are sign- or zero-extended to 64 bits */
#define ICMP(op)                                                                           \
    do {                                                                                   \
        if (sgn)                                                                           \
            LANES(active, r |= (uint32_t)(sext(A[l], bits) op sext(B[l], bits)) << l);     \
        else                                                                               \
            LANES(active, r |= (uint32_t)((A[l] & m) op (B[l] & m)) << l);                 \
    } while (0)
    switch (cmp) {
    case CMP_EQ: ICMP(==); break;
    case CMP_NE: ICMP(!=); break;
    case CMP_LT: case CMP_LO: ICMP(<); break;
    case CMP_LE: case CMP_LS: ICMP(<=); break;
    case CMP_GT: case CMP_HI: ICMP(>); break;
    default: ICMP(>=); break;
    }
#undef ICMP
    return r;
}

/* The upper-half comparison of setp.f16x2 (the lower goes through compare()). */
static uint32_t compare_hi_half(const ir_insn *in, uint32_t active, const uint64_t *A,
                                const uint64_t *B)
{
    fp_fmt f = in->type2 == PT_BF16X2 ? FP_BF16 : FP_F16;
    int cmp = in->mode;
    fp_cmp fc = (fp_cmp)(cmp - (cmp >= CMP_EQU ? CMP_EQU - FPC_EQU : 0));
    unsigned fl = (in->flags & IRF_FTZ) ? FP_FTZ : 0;
    uint32_t r = 0;
    LANES(active, r |= (uint32_t)fp16_cmp((uint32_t)(A[l] >> 16) & 0xffff,
                                          (uint32_t)(B[l] >> 16) & 0xffff, f, fc, fl) << l);
    return r;
}

/* What set writes for true in a destination of type t (the PTX ISA's two
 * set instructions): 1.0 in a float type, all ones in an integer type; for
 * .f16x2, .bf16x2, .u32 and .s32 from a packed source, the low 16 bits of
 * this in each half. */
static uint64_t set_true(int t)
{
    switch (t) {
    case PT_F32: return 0x3f800000u;
    case PT_F16: case PT_F16X2: return 0x3c00u;
    case PT_BF16: case PT_BF16X2: return 0x3f80u;
    case PT_U16: case PT_S16: return 0xffffu;
    default: return 0xffffffffu;
    }
}

static uint32_t boolop(int op, uint32_t a, uint32_t c)
{
    switch (op) {
    case BOP_AND: return a & c;
    case BOP_OR: return a | c;
    case BOP_XOR: return a ^ c;
    default: return a;
    }
}

static fp_fmt fmt_of(int t)
{
    switch (t) {
    case PT_F16: return FP_F16;
    case PT_BF16: return FP_BF16;
    case PT_TF32: return FP_TF32;
    case PT_F64: return FP_F64;
    default: return FP_F32;
    }
}

/* One cvt lane. */
static uint64_t cvt1(const ir_insn *in, uint64_t a)
{
    int dt = in->type, st = in->type2;
    int df = ptx_type_is_float((ptx_type)dt), sf = ptx_type_is_float((ptx_type)st);
    unsigned fl = fpfl(in);
    fp_rnd r = (fp_rnd)in->rnd;
    int dbits = ptx_type_bits((ptx_type)dt), sbits = ptx_type_bits((ptx_type)st);
    if (df && sf)
        return fp_cvt_f2f(a, fmt_of(st), fmt_of(dt), r, (in->flags & IRF_IRND) != 0, fl);
    if (df) {
        /* round-to-nearest integer to f32/f64: the host's conversion is exact IEEE */
        if (r == FP_RN && !fl && sbits >= 32) {
            int s = ptx_type_is_signed((ptx_type)st);
            if (dt == PT_F32) {
                float f = s ? (sbits == 32 ? (float)(int32_t)a : (float)(int64_t)a)
                            : (sbits == 32 ? (float)(uint32_t)a : (float)a);
                return bitsf32(f);
            }
            if (dt == PT_F64) {
                double d = s ? (sbits == 32 ? (double)(int32_t)a : (double)(int64_t)a)
                             : (sbits == 32 ? (double)(uint32_t)a : (double)a);
                return bitsf64(d);
            }
        }
        return fp_cvt_i2f(a, sbits, ptx_type_is_signed((ptx_type)st), fmt_of(dt), r, fl);
    }
    if (sf) {
        uint64_t v = fp_cvt_f2i(a, fmt_of(st), dbits, ptx_type_is_signed((ptx_type)dt), r, fl);
        return ptx_type_is_signed((ptx_type)dt) ? (uint64_t)sext(v, dbits) : v;
    }
    /* integer to integer */
    int ss = ptx_type_is_signed((ptx_type)st), ds = ptx_type_is_signed((ptx_type)dt);
    if (in->flags & IRF_SAT) {
        /* clamp the source value (as a mathematical integer) to the destination range */
        if (ss) {
            int64_t v = sext(a, sbits);
            if (ds) {
                int64_t lo = dbits >= 64 ? INT64_MIN : -(int64_t)(1ull << (dbits - 1));
                int64_t hi = dbits >= 64 ? INT64_MAX : (int64_t)((1ull << (dbits - 1)) - 1);
                v = v < lo ? lo : v > hi ? hi : v;
                return (uint64_t)v; /* sign-extended, like every signed result */
            }
            if (v < 0)
                return 0;
            return (uint64_t)v > wmask(dbits) ? wmask(dbits) : (uint64_t)v;
        }
        uint64_t v = a & wmask(sbits);
        uint64_t hi = ds ? wmask(dbits - 1) : wmask(dbits);
        return v > hi ? hi : v;
    }
    uint64_t v = ss ? (uint64_t)sext(a, sbits) : (a & wmask(sbits));
    return ds ? (uint64_t)sext(v, dbits) : v & wmask(dbits);
}

/* cvta: between a state space's addresses and generic ones. */
static uint64_t cvta1(const ir_insn *in, uint64_t a)
{
    uint64_t base = 0;
    switch (in->space) {
    case SP_SHARED: base = ADDR_SHARED_WINDOW; break;
    case SP_LOCAL: base = ADDR_LOCAL_WINDOW; break;
    case SP_KPARAM: base = ADDR_PARAM_WINDOW; break;
    default: base = 0; break;
    }
    uint64_t r = (in->flags & IRF_TO) ? a - base : a + base;
    if ((in->flags & IRF_TO) && base && !addr_in_window(a, base))
        r = a; /* not an address of that space; the GPU's result is undefined */
    return in->type == PT_U32 ? (uint32_t)r : r;
}

/* vop4: four byte lanes selected from {b, a}, operated on, saturated or
 * accumulated into c or merged with c's bytes under the mask. */
static uint32_t vop4(const ir_insn *in, uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t pool = ((uint64_t)b << 32) | a;
    uint32_t asel = (uint32_t)in->imm & 0xffff, bsel = (uint32_t)(in->imm >> 16) & 0xffff;
    uint32_t mask = (uint32_t)(in->imm >> 32) & 0xf;
    int sa = in->type2 == PT_S32, sb = in->mode != 0, sd = in->type == PT_S32;
    int32_t t[4];
    for (int i = 0; i < 4; i++) {
        uint32_t ba = (uint32_t)(pool >> (8 * ((asel >> (4 * i)) & 7))) & 0xff;
        uint32_t bb = (uint32_t)(pool >> (8 * ((bsel >> (4 * i)) & 7))) & 0xff;
        int32_t x = sa ? (int8_t)ba : (int32_t)ba, y = sb ? (int8_t)bb : (int32_t)bb, r;
        switch (in->op) {
        case OP_VABSDIFF4: r = x > y ? x - y : y - x; break;
        case OP_VADD4: r = x + y; break;
        case OP_VSUB4: r = x - y; break;
        case OP_VAVRG4: r = (x + y + ((x + y) >= 0 ? 1 : 1)) >> 1; break;
        case OP_VMIN4: r = x < y ? x : y; break;
        default: r = x > y ? x : y; break;
        }
        if (in->flags & IRF_SAT)
            r = sd ? (r > 127 ? 127 : r < -128 ? -128 : r) : (r > 255 ? 255 : r < 0 ? 0 : r);
        t[i] = r;
    }
    if (in->flags & IRF_ACCUM) {
        uint32_t d = c;
        for (int i = 0; i < 4; i++)
            if (mask & (1u << i))
                d += (uint32_t)t[i];
        return d;
    }
    uint32_t d = 0;
    for (int i = 0; i < 4; i++)
        d |= ((mask & (1u << i)) ? ((uint32_t)t[i] & 0xff) : ((c >> (8 * i)) & 0xff)) << (8 * i);
    return d;
}

/* ---- warp-level operations -------------------------------------------------------- */

static void shfl(const ir_insn *in, uint32_t active, uint64_t *D, uint32_t *pout,
                 const uint64_t *A, const uint64_t *B, const uint64_t *C)
{
    uint64_t src[WARP_SIZE];
    memcpy(src, A, sizeof src);
    uint32_t p = 0;
    LANES(active, {
        uint32_t b = (uint32_t)B[l], c = (uint32_t)C[l];
        uint32_t segmask = (c >> 8) & 0x1f;
        uint32_t maxlane = ((uint32_t)l & segmask) | (c & 0x1f & ~segmask);
        uint32_t minlane = (uint32_t)l & segmask;
        int32_t j;
        int ok;
        switch (in->mode) {
        case SHFL_UP: j = l - (int32_t)(b & 0x1f); ok = j >= (int32_t)maxlane; break;
        case SHFL_DOWN: j = l + (int32_t)(b & 0x1f); ok = j <= (int32_t)maxlane; break;
        case SHFL_BFLY: j = l ^ (int32_t)(b & 0x1f); ok = j <= (int32_t)maxlane; break;
        default: j = (int32_t)(minlane | (b & 0x1f & ~segmask)); ok = j <= (int32_t)maxlane; break;
        }
        if (!ok)
            j = l;
        D[l] = src[j] & 0xffffffffu;
        p |= (uint32_t)ok << l;
    });
    *pout = p;
}

/* ---- the interpreter loop ---------------------------------------------------------- */

/* Fill rq for `in` (exec_mem_capture), its addresses already in rq->ad: the
 * rows of a store's values or an atomic's operands, from any operand kind. */
static inline void capture(const exec_launch *L, const exec_cta *c, const exec_warp *w,
                           const ir_insn *in, uint32_t active, exec_memreq *rq)
{
    rq->in = in;
    rq->pc = exec_insn_pc(L, in);
    rq->lanes = active;
    rq->texels = NULL;
    uint32_t props = ptx_op_props(in->op);
    int vec = props & (OPF_LOAD | OPF_STORE) ? in->vec : 1;
    rq->size = (uint32_t)(ptx_type_size((ptx_type)in->type) * vec);
    rq->v[0] = rq->v[1] = rq->v[2] = rq->v[3] = NULL;
    if (props & OPF_LOAD)
        return;
    int nv = props & OPF_STORE ? in->vec : in->nsrc;
    const uint64_t *R = w->regs + (size_t)w->reg_base * WARP_SIZE;
    const ir_opnd *vals = in->flags & IRF_DSRC ? in->d : in->s; /* wmma.store's in d[] */
    for (int i = 0; i < nv && i < 4; i++)
        rq->v[i] = srow(L, c, w, R, &vals[i], rq->tmp[i], active);
    if (UNLIKELY(in->flags & IRF_WMMA) && WMP_HI(in->target)) {
        /* a 16-bit part of wmma.store that stores its register's high half */
        for (uint32_t m = active; m; m &= m - 1) {
            int l = ctz32(m);
            rq->tmp[1][l] = (uint32_t)rq->v[0][l] >> 16;
        }
        rq->v[0] = rq->tmp[1];
    }
}

void exec_mem_capture(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                      uint32_t active, const exec_addr *ad, exec_memreq *rq)
{
    if (ad != &rq->ad)
        memcpy(&rq->ad, ad, sizeof *ad);
    capture(L, c, w, in, active, rq);
}

/* The interposers, then the memory system (exec_mem_issue_req). */
static inline int mem_issue_req(exec_launch *L, exec_cta *c, exec_warp *w, exec_memreq *rq)
{
    exec_memres *res = &L->mem;
    L->mem_space = rq->ad.space[ctz32(rq->lanes)];
    if (LIKELY(!L->nchain && !L->mem_issue)) /* functional mode, nothing attached */
        return res->status = exec_mem_perform(L, c, w, rq) ? EXEC_MEM_FAULT : EXEC_MEM_DONE;
    res->status = EXEC_MEM_DONE;
    res->ready = 0;
    res->token = NULL;
    for (uint32_t i = 0; i < L->nchain; i++) {
        int took = L->chain[i].request(L->chain[i].ud, L, c, w, rq, res);
        if (took < 0)
            return res->status = EXEC_MEM_FAULT;
        if (took)
            return res->status;
    }
    int rc = L->mem_issue ? L->mem_issue(L, c, w, rq, res) : exec_mem_perform(L, c, w, rq);
    if (rc)
        res->status = EXEC_MEM_FAULT;
    return res->status;
}

/* A memory instruction through the seam: address generation, the captured
 * request, the interposers in order, then the memory system (exec.h, "The
 * memory seam").  The answer is left in L->mem; returns its status. */
static int mem_issue(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                     uint32_t active)
{
    exec_memreq rq;
    exec_memres *res = &L->mem;
    if (exec_mem_addr(L, c, w, in, active, &rq.ad))
        return res->status = EXEC_MEM_FAULT;
    capture(L, c, w, in, active, &rq);
    return mem_issue_req(L, c, w, &rq);
}

int exec_mem_issue_req(exec_launch *L, exec_cta *c, exec_warp *w, exec_memreq *rq)
{
    return mem_issue_req(L, c, w, rq);
}

static uint32_t hooked_step(exec_launch *L, exec_cta *c, exec_warp *w);


uint32_t exec_warp_run(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t budget)
{
    const ir_module *mod = L->mod;
    const ir_insn *code = mod->code;
    uint64_t *R = w->regs + (size_t)w->reg_base * WARP_SIZE;
    uint32_t *P = w->preds + w->pred_base;
    uint64_t t0[WARP_SIZE], t1[WARP_SIZE], t2[WARP_SIZE], t3[WARP_SIZE];
    uint32_t executed = 0;
    uint64_t thread_insts = 0;
    uint64_t *mix = L->mix;

    if (w->state != WARP_RUNNING)
        return 0;
    if (simt_settle(L, c, w) <= 0)
        return 0;
    simt_entry *top = &w->stack[w->sp - 1];
    uint32_t pc = top->pc;

#define RELOAD()                                                                           \
    do {                                                                                   \
        int s_ = simt_settle(L, c, w);                                                     \
        if (s_ <= 0)                                                                       \
            goto out_noreload;                                                             \
        top = &w->stack[w->sp - 1];                                                        \
        pc = top->pc;                                                                      \
        R = w->regs + (size_t)w->reg_base * WARP_SIZE;                                     \
        P = w->preds + w->pred_base;                                                       \
    } while (0)
#define SRC(i) srow(L, c, w, R, &in->s[i], (i) == 0 ? t0 : (i) == 1 ? t1 : (i) == 2 ? t2 : t3, active)
#define DST(i) (R + (size_t)in->d[i].idx * WARP_SIZE)

    while (executed < budget) {
        const ir_insn *in;
        if (UNLIKELY(pc == top->rpc || top->mask == 0)) {
            top->pc = pc;
            RELOAD();
            continue;
        }
        /* the one check per instruction for observers (exec.h): with any
         * attached, the instruction runs alone between the hooks */
        if (UNLIKELY(L->trap)) {
            if (L->trap == EXEC_TRAP_SUBST) {
                /* hooked_step's own run of one instruction, with the
                 * replacement an observer handed back (exec_hooks.before)
                 * in place of code[pc] */
                L->trap = 0;
                in = &L->subst->in;
                goto run;
            }
            top->pc = pc;
            L->thread_insts += thread_insts;
            thread_insts = 0;
            executed += hooked_step(L, c, w);
            if (w->state != WARP_RUNNING || L->fault != LOCKSTEP_SUCCESS ||
                L->mem.status == EXEC_MEM_RETRY)
                goto out_noreload;
            RELOAD();
            continue;
        }
        in = &code[pc];
    run:;
        uint32_t active = top->mask;
        if (in->guard.kind)
            active &= pval(L, P, &in->guard);
        executed++;
        w->insts++;
        thread_insts += (uint64_t)popc32(active);
        mix[in->mix]++;

        switch (in->xop) {
        /* ---- specialised forms (exec_prepare picks them) ---- */
        case XOP_MOV_R: {
            const uint64_t *A = SRC(0);
            uint64_t *D = DST(0);
            LANES(active, D[l] = A[l]);
            pc++;
            break;
        }
#define XBIN(x, expr)                                                                      \
        case x: {                                                                          \
            const uint64_t *A = SRC(0), *B = SRC(1);                                       \
            uint64_t *D = DST(0);                                                          \
            LANES(active, D[l] = (expr));                                                  \
            pc++;                                                                          \
            break;                                                                         \
        }
        XBIN(XOP_ADD_32, (uint32_t)(A[l] + B[l]))
        XBIN(XOP_ADD_64, A[l] + B[l])
        XBIN(XOP_SUB_32, (uint32_t)(A[l] - B[l]))
        XBIN(XOP_SUB_64, A[l] - B[l])
        XBIN(XOP_MUL_LO_32, (uint32_t)(A[l] * B[l]))
        XBIN(XOP_MUL_LO_64, A[l] * B[l])
        XBIN(XOP_MUL_WIDE_S32, (uint64_t)((int64_t)(int32_t)A[l] * (int64_t)(int32_t)B[l]))
        XBIN(XOP_MUL_WIDE_U32, (uint64_t)(uint32_t)A[l] * (uint32_t)B[l])
        XBIN(XOP_SHL_32, (uint32_t)B[l] >= 32 ? 0 : (uint32_t)(A[l] << (uint32_t)B[l]))
        XBIN(XOP_SHL_64, (uint32_t)B[l] >= 64 ? 0 : A[l] << (uint32_t)B[l])
        XBIN(XOP_SHR_U32, (uint32_t)B[l] >= 32 ? 0 : (uint32_t)A[l] >> (uint32_t)B[l])
        XBIN(XOP_SHR_S32, (uint32_t)((int32_t)A[l] >> ((uint32_t)B[l] >= 32 ? 31 : (uint32_t)B[l])))
        XBIN(XOP_AND, A[l] & B[l])
        XBIN(XOP_OR, A[l] | B[l])
        XBIN(XOP_XOR, A[l] ^ B[l])
        XBIN(XOP_ADD_F32, c32(f32of(A[l]) + f32of(B[l])))
        XBIN(XOP_SUB_F32, c32(f32of(A[l]) - f32of(B[l])))
        XBIN(XOP_MUL_F32, c32(f32of(A[l]) * f32of(B[l])))
#undef XBIN
        case XOP_MAD_LO_32: {
            const uint64_t *A = SRC(0), *B = SRC(1), *C = SRC(2);
            uint64_t *D = DST(0);
            LANES(active, D[l] = (uint32_t)(A[l] * B[l] + C[l]));
            pc++;
            break;
        }
        case XOP_MAD_LO_64: {
            const uint64_t *A = SRC(0), *B = SRC(1), *C = SRC(2);
            uint64_t *D = DST(0);
            LANES(active, D[l] = A[l] * B[l] + C[l]);
            pc++;
            break;
        }
        case XOP_MAD_WIDE_S32: {
            const uint64_t *A = SRC(0), *B = SRC(1), *C = SRC(2);
            uint64_t *D = DST(0);
            LANES(active, D[l] = (uint64_t)((int64_t)(int32_t)A[l] * (int64_t)(int32_t)B[l]) + C[l]);
            pc++;
            break;
        }
        case XOP_FMA_F32: {
            const uint64_t *A = SRC(0), *B = SRC(1), *C = SRC(2);
            fma32_rows(active, DST(0), A, B, C);
            pc++;
            break;
        }
        case XOP_SETP_INT: {
            const uint64_t *A = SRC(0), *B = SRC(1);
            pset(P, &in->d[0], active, compare(in, active, A, B));
            pc++;
            break;
        }
        /* ---- general handlers, one per base opcode ---- */
        case OP_MOV:
            if (in->flags & IRF_PACK) {
                int eb = ptx_type_bits((ptx_type)in->type) / in->vec;
                uint64_t em = wmask(eb);
                uint64_t *D = DST(0);
                const uint64_t *S[4];
                for (int i = 0; i < in->vec; i++)
                    S[i] = srow(L, c, w, R, &in->s[i], i == 0 ? t0 : i == 1 ? t1 : i == 2 ? t2 : t3, active);
                LANES(active, {
                    uint64_t v = 0;
                    for (int i = 0; i < in->vec; i++)
                        v |= (S[i][l] & em) << (eb * i);
                    D[l] = v;
                });
            } else if (in->flags & IRF_UNPACK) {
                int eb = ptx_type_bits((ptx_type)in->type) / in->vec;
                uint64_t em = wmask(eb);
                const uint64_t *A = SRC(0);
                uint64_t v[WARP_SIZE];
                memcpy(v, A, sizeof v);
                for (int i = 0; i < in->vec; i++) {
                    uint64_t *D = DST(i);
                    LANES(active, D[l] = (v[l] >> (eb * i)) & em);
                }
            } else if (in->type == PT_PRED) {
                pset(P, &in->d[0], active, pval(L, P, &in->s[0]));
            } else {
                const uint64_t *A = SRC(0);
                uint64_t *D = DST(0);
                LANES(active, D[l] = A[l]);
            }
            pc++;
            break;

        case OP_ADD: case OP_SUB: case OP_ADDC: case OP_SUBC: {
            const uint64_t *A = SRC(0), *B = SRC(1);
            uint64_t *D = DST(0);
            if (ptx_type_is_float((ptx_type)in->type))
                float_op(in, active, D, A, B, NULL);
            else if (UNLIKELY(ptx_type_is_int16x2((ptx_type)in->type)))
                int16x2_op(in, active, D, A, B);
            else
                int_addsub(w, in, active, D, A, B);
            pc++;
            break;
        }
        case OP_MUL: case OP_MAD: case OP_MADC: case OP_MUL24: case OP_MAD24: {
            const uint64_t *A = SRC(0), *B = SRC(1);
            const uint64_t *C = in->nsrc > 2 ? SRC(2) : NULL;
            uint64_t *D = DST(0);
            if (ptx_type_is_float((ptx_type)in->type))
                float_op(in, active, D, A, B, C);
            else
                int_mul(w, in, active, D, A, B, C);
            pc++;
            break;
        }
        case OP_FMA: {
            const uint64_t *A = SRC(0), *B = SRC(1), *C = SRC(2);
            float_op(in, active, DST(0), A, B, C);
            pc++;
            break;
        }
        case OP_DIV: case OP_REM: case OP_MIN: case OP_MAX: case OP_ABS: case OP_NEG:
        case OP_SAD: {
            const uint64_t *A = SRC(0);
            const uint64_t *B = in->nsrc > 1 ? SRC(1) : NULL;
            const uint64_t *C = in->nsrc > 2 ? SRC(2) : NULL;
            uint64_t *D = DST(0);
            if (ptx_type_is_float((ptx_type)in->type))
                float_op(in, active, D, A, B, C);
            else if (UNLIKELY(ptx_type_is_int16x2((ptx_type)in->type)))
                int16x2_op(in, active, D, A, B);
            else
                int_misc(in, active, D, A, B, C);
            pc++;
            break;
        }
        case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_LG2:
        case OP_EX2: case OP_TANH: {
            const uint64_t *A = SRC(0);
            float_op(in, active, DST(0), A, NULL, NULL);
            pc++;
            break;
        }
        case OP_COPYSIGN: {
            const uint64_t *A = SRC(0), *B = SRC(1);
            float_op(in, active, DST(0), A, B, NULL);
            pc++;
            break;
        }
        case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT:
            if (in->type == PT_PRED) {
                uint32_t a = pval(L, P, &in->s[0]);
                uint32_t b = in->nsrc > 1 ? pval(L, P, &in->s[1]) : 0;
                uint32_t r = in->op == OP_AND ? a & b : in->op == OP_OR ? a | b
                             : in->op == OP_XOR ? a ^ b : ~a;
                pset(P, &in->d[0], active, r);
                pc++;
                break;
            }
            /* fall through */
        case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFIND: case OP_SHL: case OP_SHR:
        case OP_BFE: case OP_BFI: case OP_BMSK: case OP_SZEXT: case OP_SHF: case OP_PRMT:
        case OP_LOP3: case OP_DP4A: case OP_DP2A: {
            const uint64_t *A = SRC(0);
            const uint64_t *B = in->nsrc > 1 ? SRC(1) : NULL;
            const uint64_t *C = in->nsrc > 2 ? SRC(2) : NULL;
            const uint64_t *E = in->nsrc > 3 ? SRC(3) : NULL;
            bits_op(w, in, active, DST(0), A, B, C, E);
            pc++;
            break;
        }
        case OP_VABSDIFF4: case OP_VADD4: case OP_VAVRG4: case OP_VMAX4: case OP_VMIN4:
        case OP_VSUB4: {
            const uint64_t *A = SRC(0), *B = SRC(1), *C = SRC(2);
            uint64_t *D = DST(0);
            LANES(active, D[l] = vop4(in, (uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l]));
            pc++;
            break;
        }
        case OP_SETP: case OP_SET: {
            const uint64_t *A = SRC(0), *B = SRC(1);
            uint32_t t = compare(in, active, A, B);
            uint32_t cpred = in->nsrc > 2 ? pval(L, P, &in->s[2]) : 0;
            if (in->type2 == PT_F16X2 || in->type2 == PT_BF16X2) {
                /* setp.f16x2 p|q: p from the low halves, q from the high halves;
                 * set.f16x2: each half's result in its half of d */
                uint32_t th = compare_hi_half(in, active, A, B);
                uint32_t rl = boolop(in->bop, t, cpred), rh = boolop(in->bop, th, cpred);
                if (in->op == OP_SET) {
                    uint64_t *D = DST(0);
                    uint64_t one = set_true(in->type) & 0xffffu;
                    LANES(active, D[l] = (((rl >> l) & 1) ? one : 0) |
                                         (((rh >> l) & 1) ? one << 16 : 0));
                    pc++;
                    break;
                }
                pset(P, &in->d[0], active, rl);
                if (in->ndst > 1)
                    pset(P, &in->d[1], active, rh);
                pc++;
                break;
            }
            uint32_t r = boolop(in->bop, t, cpred);
            if (in->op == OP_SETP) {
                pset(P, &in->d[0], active, r);
                if (in->ndst > 1)
                    pset(P, &in->d[1], active, boolop(in->bop, ~t, cpred));
            } else {
                uint64_t *D = DST(0);
                uint64_t one = set_true(in->type);
                LANES(active, D[l] = ((r >> l) & 1) ? one : 0);
            }
            pc++;
            break;
        }
        case OP_SELP: {
            const uint64_t *A = SRC(0), *B = SRC(1);
            uint32_t p = pval(L, P, &in->s[2]);
            uint64_t *D = DST(0);
            LANES(active, D[l] = ((p >> l) & 1) ? A[l] : B[l]);
            pc++;
            break;
        }
        case OP_SLCT: {
            const uint64_t *A = SRC(0), *B = SRC(1), *C = SRC(2);
            uint64_t *D = DST(0);
            if (in->type2 == PT_F32) {
                unsigned fl = (in->flags & IRF_FTZ) ? FP_FTZ : 0;
                LANES(active, D[l] = fp32_cmp((uint32_t)C[l], 0, FPC_GE, fl) ? A[l] : B[l]);
            } else {
                LANES(active, D[l] = (int32_t)C[l] >= 0 ? A[l] : B[l]);
            }
            pc++;
            break;
        }
        case OP_TESTP: {
            const uint64_t *A = SRC(0);
            uint32_t r = 0;
            if (in->type == PT_F32)
                LANES(active, r |= (uint32_t)fp32_testp((uint32_t)A[l], (fp_test)in->mode) << l);
            else
                LANES(active, r |= (uint32_t)fp64_testp(A[l], (fp_test)in->mode) << l);
            pset(P, &in->d[0], active, r);
            pc++;
            break;
        }
        case OP_CVT: {
            const uint64_t *A = SRC(0);
            uint64_t *D = DST(0);
            if (in->flags & IRF_PACK) {
                /* cvt.rn.f16x2.f32 d, a, b: a to the upper half, b to the lower */
                const uint64_t *B = SRC(1);
                fp_fmt f = in->type == PT_BF16X2 ? FP_BF16 : FP_F16;
                unsigned fl = fpfl(in);
                LANES(active, D[l] = (fp_cvt_f2f(A[l], FP_F32, f, (fp_rnd)in->rnd, 0, fl) << 16) |
                                     (fp_cvt_f2f(B[l], FP_F32, f, (fp_rnd)in->rnd, 0, fl) & 0xffff));
            } else {
                LANES(active, D[l] = cvt1(in, A[l]));
            }
            pc++;
            break;
        }
        case OP_CVTA: {
            const uint64_t *A = SRC(0);
            uint64_t *D = DST(0);
            LANES(active, D[l] = cvta1(in, A[l]));
            pc++;
            break;
        }
        case OP_ISSPACEP: {
            const uint64_t *A = SRC(0);
            uint32_t r = 0;
            LANES(active, {
                uint64_t a = A[l];
                int in_sh = addr_in_window(a, ADDR_SHARED_WINDOW);
                int in_lo = addr_in_window(a, ADDR_LOCAL_WINDOW);
                int in_pa = addr_in_window(a, ADDR_PARAM_WINDOW);
                int res;
                switch (in->space) {
                case SP_SHARED: res = in_sh; break;
                case SP_LOCAL: res = in_lo; break;
                case SP_PARAM: case SP_KPARAM: res = in_pa; break;
                default: res = a >= ADDR_GLOBAL_BASE; break;
                }
                r |= (uint32_t)res << l;
            });
            pset(P, &in->d[0], active, r);
            pc++;
            break;
        }
        case OP_LD: case OP_ST: case OP_ATOM: case OP_RED:
        case OP_TEX: case OP_TLD4: case OP_TXQ: case OP_SULD: case OP_SUST: case OP_SUQ:
        case OP_CP: case OP_MBARRIER: {
            /* asynchronous copies and mbarriers (async.c) go through the
             * memory seam as a load does */
            if (active) {
                int async = in->op == OP_CP || in->op == OP_MBARRIER;
                int st = async ? exec_async(L, c, w, in, active)
                         : (ptx_op_props(in->op) & OPF_TEX) ? exec_texop(L, c, w, in, active)
                                                            : mem_issue(L, c, w, in, active);
                if (st == EXEC_MEM_FAULT) {
                    top->pc = pc;
                    goto out_noreload;
                }
                if (st == EXEC_MEM_RETRY) {
                    /* not accepted: the instruction was not executed, and is
                     * issued again later */
                    executed--;
                    w->insts--;
                    thread_insts -= (uint64_t)popc32(active);
                    mix[in->mix]--;
                    top->pc = pc;
                    goto out_noreload;
                }
                if (in->space == SP_GENERIC && !async) {
                    /* class a generic access by where its first lane went */
                    ir_mix m = ir_mem_mix(in, L->mem_space);
                    mix[in->mix]--;
                    mix[m]++;
                }
            }
            pc++;
            break;
        }
        case OP_BRA: {
            uint32_t nt = top->mask & ~active;
            if (!nt) {
                if (UNLIKELY(L->opt.its_yield) && in->target <= pc) {
                    int y = its_yield(L, c, w, in->target);
                    if (y < 0)
                        goto out_noreload;
                    if (y) {
                        RELOAD();
                        break;
                    }
                }
                pc = in->target;
                break;
            }
            w->spin = 0;
            if (!active) {
                pc++;
                break;
            }
            uint32_t r = in->reconv;
            if (r == top->rpc) {
                top->pc = pc + 1;
                top->mask = nt;
            } else {
                top->pc = r;
                if (simt_push(L, c, w, pc + 1, r, nt, 0))
                    goto out_noreload;
            }
            if (simt_push(L, c, w, in->target, r, active, 0))
                goto out_noreload;
            RELOAD();
            break;
        }
        case OP_CALL: {
            if (!active) {
                pc++;
                break;
            }
            if (in->flags & IRF_BUILTIN) {
                if (exec_builtin(L, c, w, in, active)) {
                    top->pc = pc;
                    goto out_noreload;
                }
                pc++;
                break;
            }
            const ir_call *cs = &mod->calls[in->aux];
            uint32_t callee = cs->callee, S = active;
            if (in->flags & IRF_INDIRECT) {
                const uint64_t *T = srow(L, c, w, R, &cs->target_reg, t0, active);
                int first = ctz32(active);
                uint64_t fa = T[first];
                uint64_t idx = (fa - ADDR_FUNC_WINDOW) / 16;
                if (fa < ADDR_FUNC_WINDOW || (fa - ADDR_FUNC_WINDOW) % 16 || idx >= mod->nfuncs ||
                    !mod->funcs[idx].has_body || mod->funcs[idx].is_entry) {
                    top->pc = pc;
                    exec_fault(L, c, w, first, pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, fa,
                               "indirect call to 0x%016llx, which is not a function",
                               (unsigned long long)fa);
                    goto out_noreload;
                }
                callee = (uint32_t)idx;
                S = 0;
                LANES(active, S |= (uint32_t)(T[l] == fa) << l);
            }
            top->pc = pc + 1;
            if (S != active && simt_push(L, c, w, pc, pc + 1, active & ~S, 0))
                goto out_noreload;
            if (enter_call(L, c, w, pc, in->aux, callee, S))
                goto out_noreload;
            RELOAD();
            break;
        }
        case OP_RET:
            if (w->ncalls == 0) /* ret from the kernel: the lanes are done */
                goto do_exit;
            if (active) {
                call_frame *cf = &w->calls[w->ncalls - 1];
                uint32_t b = w->sp - 1;
                while (b > 0 && !w->stack[b].is_call)
                    b--;
                top->pc = pc + 1;
                for (uint32_t i = b + 1; i < w->sp; i++)
                    w->stack[i].mask &= ~active;
                cf->returned |= active;
                RELOAD();
            } else {
                pc++;
            }
            break;
        case OP_EXIT:
        do_exit:
            top->pc = pc + 1;
            lanes_exit(L, c, w, active);
            RELOAD();
            break;
        case OP_TRAP: case OP_BRKPT:
            if (!active) {
                pc++;
                break;
            }
            top->pc = pc;
            exec_fault(L, c, w, ctz32(active), pc, LOCKSTEP_ERROR_TRAP, 0, "%s executed",
                       in->op == OP_TRAP ? "trap" : "brkpt");
            goto out_noreload;
        case OP_BAR: case OP_BARRIER: {
            if (in->mode == BARM_WARPSYNC || !active) {
                pc++;
                break;
            }
            if (UNLIKELY(L->opt.its_yield)) {
                top->pc = pc;
                if (its_barrier(w, pc)) {
                    RELOAD();
                    break;
                }
                top = &w->stack[w->sp - 1];
                active = top->mask;
                if (in->guard.kind)
                    active &= pval(L, P, &in->guard);
            }
            uint32_t pm = in->mode == BARM_RED ? pval(L, P, &in->s[2]) & active : 0;
            top->pc = pc;
            int wait = exec_barrier_arrive(L, c, w, in, active, pm);
            if (wait < 0)
                goto out_noreload;
            if (wait) {
                w->state = WARP_BARRIER;
                goto out_noreload;
            }
            pc++;
            P = w->preds + w->pred_base;
            break;
        }
        case OP_NANOSLEEP: {
            /* the delay the timing model puts the warp to sleep for (PTX
             * caps it at a millisecond); functional mode has no time */
            const uint64_t *A = SRC(0);
            uint32_t ns = 0;
            LANES(active, if ((uint32_t)A[l] > ns) ns = (uint32_t)A[l]);
            L->sleep_ns = ns < 1000000 ? ns : 1000000;
            pc++;
            break;
        }
        case OP_MEMBAR: case OP_FENCE: case OP_PMEVENT: case OP_GRIDDEPCONTROL:
        case OP_PREFETCH: case OP_PREFETCHU:
            pc++;
            break;
        case OP_WMMA: case OP_MMA:
            if (exec_mma(L, c, w, in, active)) {
                top->pc = pc;
                goto out_noreload;
            }
            pc++;
            break;
        case OP_MOVMATRIX:
            if (exec_movmatrix(L, c, w, in, active)) {
                top->pc = pc;
                goto out_noreload;
            }
            pc++;
            break;
        case OP_ACTIVEMASK: {
            uint64_t *D = DST(0);
            LANES(active, D[l] = active);
            pc++;
            break;
        }
        case OP_VOTE: {
            /* each lane votes among the lanes of its own mask (lanes may
             * name different groups: a labeled partition's) */
            const uint64_t *M = in->flags & IRF_SYNC ? SRC(1) : NULL;
            uint32_t pall = pval(L, P, &in->s[0]);
            if (in->mode == VOTE_BALLOT) {
                uint64_t *D = DST(0);
                LANES(active, D[l] = pall & (M ? (uint32_t)M[l] & active : active));
            } else {
                uint32_t r = 0;
                LANES(active, {
                    uint32_t member = M ? (uint32_t)M[l] & active : active;
                    uint32_t p = pall & member;
                    int yes = in->mode == VOTE_ALL   ? p == member
                              : in->mode == VOTE_ANY ? p != 0
                                                     : (p == member || p == 0);
                    r |= (uint32_t)yes << l;
                });
                pset(P, &in->d[0], active, r);
            }
            pc++;
            break;
        }
        case OP_SHFL: {
            const uint64_t *A = SRC(0), *B = SRC(1), *C = SRC(2);
            uint64_t *D = DST(0);
            uint32_t p;
            shfl(in, active, D, &p, A, B, C);
            if (in->ndst > 1)
                pset(P, &in->d[1], active, p);
            pc++;
            break;
        }
        case OP_MATCH: {
            /* over each lane's own mask, as OP_VOTE */
            const uint64_t *A = SRC(0), *M = SRC(1);
            uint64_t vm = in->type == PT_B32 ? 0xffffffffu : ~0ull;
            uint64_t v[WARP_SIZE];
            memcpy(v, A, sizeof v);
            uint64_t *D = DST(0);
            uint32_t all = 0;
            LANES(active, {
                uint32_t member = (uint32_t)M[l] & active, r = 0;
                for (uint32_t mm = member; mm; mm &= mm - 1) {
                    int k = ctz32(mm);
                    if ((v[k] & vm) == (v[l] & vm))
                        r |= 1u << k;
                }
                if (in->mode == MATCH_ANY) {
                    D[l] = r;
                } else {
                    int same = r == member;
                    D[l] = same ? member : 0;
                    all |= (uint32_t)same << l;
                }
            });
            if (in->mode != MATCH_ANY && in->ndst > 1)
                pset(P, &in->d[1], active, all);
            pc++;
            break;
        }
        case OP_REDUX: {
            /* over each lane's own mask, as OP_VOTE; lanes that share a
             * mask share the reduction */
            uint64_t A[WARP_SIZE], M[WARP_SIZE]; /* (the destination may be either) */
            memcpy(A, SRC(0), sizeof A);
            memcpy(M, SRC(1), sizeof M);
            int sgn = in->type == PT_S32;
            uint64_t *D = DST(0);
            uint32_t done = 0;
            LANES(active, {
                if (!(done >> l & 1)) {
                    uint32_t member = (uint32_t)M[l] & active;
                    uint64_t acc = 0;
                    int first = 1;
                    for (uint32_t mm = member; mm; mm &= mm - 1) {
                        uint32_t x = (uint32_t)A[ctz32(mm)];
                        if (first) {
                            acc = x;
                            first = 0;
                            continue;
                        }
                        switch (in->mode) {
                        case ATOM_ADD: acc = (uint32_t)(acc + x); break;
                        case ATOM_AND: acc &= x; break;
                        case ATOM_OR: acc |= x; break;
                        case ATOM_XOR: acc ^= x; break;
                        case ATOM_MIN: acc = sgn ? (uint32_t)((int32_t)x < (int32_t)acc ? x : (uint32_t)acc) : (x < acc ? x : acc); break;
                        default: acc = sgn ? (uint32_t)((int32_t)x > (int32_t)acc ? x : (uint32_t)acc) : (x > acc ? x : acc); break;
                        }
                    }
                    /* every active lane with the same mask gets this result */
                    for (uint32_t mm = active & ~done; mm; mm &= mm - 1) {
                        int k = ctz32(mm);
                        if (((uint32_t)M[k] & active) == member) {
                            D[k] = acc;
                            done |= 1u << k;
                        }
                    }
                }
            });
            pc++;
            break;
        }
        default:
            top->pc = pc;
            exec_fault(L, c, w, -1, pc, LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, 0,
                       "internal: no handler for '%s'", ptx_op_names[in->op]);
            goto out_noreload;
        }
    }
    top->pc = pc;
out_noreload:
    L->thread_insts += thread_insts;
    return executed;
#undef RELOAD
#undef SRC
#undef DST
}

/* Whether replacement `in` for pc (exec_hooks.before) names only register
 * and predicate rows of the warp's function; if not, the illegal
 * instruction hardware reports for a bad encoding is recorded. */
static int subst_legal(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t pc,
                       const ir_insn *in)
{
    const ir_func *f = &L->mod->funcs[w->func];
    const ir_opnd *o[10] = {&in->guard, &in->d[0], &in->d[1], &in->d[2], &in->d[3],
                            &in->s[0], &in->s[1], &in->s[2], &in->s[3], &in->addr};
    for (int i = 0; i < 10; i++) {
        int reg = o[i]->kind == IRO_REG;
        if (!reg && o[i]->kind != IRO_PRED)
            continue;
        uint32_t rows = reg ? f->nregs : f->npreds;
        if (o[i]->idx < rows)
            continue;
        exec_fault(L, c, w, -1, pc, LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, 0,
                   "the instruction names %s %u, past the %u %s of function '%s' "
                   "(a corrupted encoding)", reg ? "register row" : "predicate", o[i]->idx,
                   rows, reg ? "register rows" : "predicates", f->name);
        return 0;
    }
    return 1;
}

/* The slow path of the trap word: one instruction between the observers'
 * hooks (exec.h), run by the same interpreter with the trap word cleared
 * (or set to EXEC_TRAP_SUBST alone when `before` handed back a replacement
 * to run instead).  Returns the instructions executed (0 or 1). */
static uint32_t hooked_step(exec_launch *L, exec_cta *c, exec_warp *w)
{
    if (simt_settle(L, c, w) <= 0)
        return 0;
    const simt_entry *top = &w->stack[w->sp - 1];
    uint32_t pc = top->pc;
    const ir_insn *in = &L->mod->code[pc];
    uint32_t active = top->mask;
    if (in->guard.kind)
        active &= pval(L, w->preds + w->pred_base, &in->guard);
    uint32_t trap = L->trap, reg_base = w->reg_base;
    const exec_hooks *h = L->hooks;
    const exec_subst *run = NULL;
    if ((trap & EXEC_TRAP_BEFORE) && h->before)
        run = h->before(h->ud, L, c, w, in, active);
    L->subst = NULL;
    L->mem.status = EXEC_MEM_NONE;
    if (L->fault != LOCKSTEP_SUCCESS)
        return 0;
    uint32_t inner = 0;
    if (UNLIKELY(run)) {
        if (!subst_legal(L, c, w, pc, &run->in))
            return 0;
        L->subst = run;
        L->subst_pc = pc;
        in = &run->in;
        inner = EXEC_TRAP_SUBST;
        active = top->mask;
        if (in->guard.kind)
            active &= pval(L, w->preds + w->pred_base, &in->guard);
    }
    L->trap = inner;
    uint32_t n = exec_warp_run(L, c, w, 1);
    L->trap = trap;
    /* destinations a reply brings are reported with the reply (exec_reply_*;
     * a texture fetch wrote its values at issue, whatever its timing); a
     * call's are its callee's business; the window it wrote is reg_base's */
    uint32_t props = ptx_op_props(in->op);
    if ((trap & EXEC_TRAP_WRITTEN) && h->written && n && in->ndst && active &&
        L->fault == LOCKSTEP_SUCCESS && in->op != OP_CALL &&
        !((props & OPF_MEM) && !(props & OPF_SAMPLE) && L->mem.status == EXEC_MEM_PENDING)) {
        uint32_t now_base = w->reg_base;
        w->reg_base = reg_base;
        h->written(h->ud, L, c, w, in, active, 0);
        w->reg_base = now_base;
    }
    return n;
}

/* Pick a specialised handler for the most frequent exact forms. */
static uint16_t select_xop(const ir_insn *in)
{
    int t = in->type, bits = ptx_type_bits((ptx_type)t);
    int isint = ptx_type_is_int((ptx_type)t);
    uint32_t fl = in->flags;
    int src_ok = 1;
    for (int i = 0; i < in->nsrc; i++)
        src_ok &= in->s[i].kind == IRO_REG || in->s[i].kind == IRO_CONST;
    if (!src_ok)
        return in->op;
    switch (in->op) {
    case OP_MOV:
        if (!(fl & (IRF_PACK | IRF_UNPACK)) && t != PT_PRED)
            return XOP_MOV_R;
        break;
    case OP_ADD: case OP_SUB:
        if (isint && !ptx_type_is_int16x2((ptx_type)t) && !(fl & (IRF_CC | IRF_CI | IRF_SAT)) &&
            (bits == 32 || bits == 64))
            return in->op == OP_ADD ? (bits == 32 ? XOP_ADD_32 : XOP_ADD_64)
                                    : (bits == 32 ? XOP_SUB_32 : XOP_SUB_64);
        if (t == PT_F32 && in->rnd == FP_RN && !(fl & (IRF_FTZ | IRF_SAT)))
            return in->op == OP_ADD ? XOP_ADD_F32 : XOP_SUB_F32;
        break;
    case OP_MUL:
        if (isint && (fl & IRF_LO) && (bits == 32 || bits == 64))
            return bits == 32 ? XOP_MUL_LO_32 : XOP_MUL_LO_64;
        if (isint && (fl & IRF_WIDE) && bits == 32)
            return t == PT_S32 ? XOP_MUL_WIDE_S32 : XOP_MUL_WIDE_U32;
        if (t == PT_F32 && in->rnd == FP_RN && !(fl & (IRF_FTZ | IRF_SAT)))
            return XOP_MUL_F32;
        break;
    case OP_MAD:
        if (isint && (fl & IRF_LO) && !(fl & (IRF_CC | IRF_CI | IRF_SAT)) && (bits == 32 || bits == 64))
            return bits == 32 ? XOP_MAD_LO_32 : XOP_MAD_LO_64;
        if (t == PT_S32 && (fl & IRF_WIDE))
            return XOP_MAD_WIDE_S32;
        break;
    case OP_FMA:
        if (t == PT_F32 && in->rnd == FP_RN && !(fl & (IRF_FTZ | IRF_SAT | IRF_RELU)))
            return XOP_FMA_F32;
        break;
    case OP_SHL:
        if (bits == 32 || bits == 64)
            return bits == 32 ? XOP_SHL_32 : XOP_SHL_64;
        break;
    case OP_SHR:
        if (bits == 32)
            return ptx_type_is_signed((ptx_type)t) ? XOP_SHR_S32 : XOP_SHR_U32;
        break;
    case OP_AND: case OP_OR: case OP_XOR:
        if (t != PT_PRED)
            return in->op == OP_AND ? XOP_AND : in->op == OP_OR ? XOP_OR : XOP_XOR;
        break;
    case OP_SETP:
        if (ptx_type_is_int((ptx_type)in->type2) && in->bop == BOP_NONE && in->ndst == 1)
            return XOP_SETP_INT;
        break;
    default:
        break;
    }
    return in->op;
}

void exec_prepare(ir_module *m)
{
    for (uint32_t i = 0; i < m->ncode; i++)
        m->code[i].xop = select_xop(&m->code[i]);
}
