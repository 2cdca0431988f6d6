/*
 * sc.c -- the sequential-consistency explorer (litmus.h): every final state
 * a litmus test reaches when its threads' instructions interleave, each
 * instruction atomic and each thread in program order.  The harness marks
 * an observed outcome outside this set as a weak (non-SC) behaviour.
 *
 * DESIGN
 *
 *   States.  A state is the threads' pcs, the registers some instruction
 *   writes (the others keep their initial values and stay out of it) and one
 *   value per location, packed into a row of words: word 0 holds the pcs, 8
 *   bits each, then come the variable registers, then the locations.  Rows
 *   live in one growing array; a hash set of row indices (open addressing,
 *   linear probing, 32 bits of the hash kept in the slot) finds repeats, so a
 *   spin loop ends when its states come round again.  The search is
 *   depth-first from an explicit stack of row indices.
 *
 *   Local steps are merged.  An instruction that touches no location (mov,
 *   ALU, setp, bra, label, fence, or a memory instruction whose guard is
 *   false) commutes with every step of every other thread, so a thread runs
 *   its local instructions at once after each memory step: in a stored state
 *   each thread stands at a memory instruction or at its end.  Merging stops
 *   after a taken backward branch, so even a loop without memory accesses is
 *   a finite chain of states between two hash look-ups.
 *
 *   Persistent sets.  A state expands only a set P of threads such that no
 *   thread outside P may ever do anything that conflicts with the next step
 *   of a thread in P (a read conflicts with a write of the same location, a
 *   write with any access).  Every final state stays reachable: in a run to
 *   it, the first step of a P thread is preceded only by steps of other
 *   threads, which commute with it, so it can go first (all threads must
 *   finish, and a thread can always step).  "May ever do" is the union of
 *   the accesses of the instructions reachable in the thread's control-flow
 *   graph from its pc, an address through a register that changes counting
 *   as any location.  P is the smallest closure {i} + the threads that
 *   conflict with P's next steps, over every start i; often one thread.  A
 *   thread standing on a cycle of its graph never goes in a reduced P, so
 *   no thread is postponed forever behind a spinning one, and a bad address
 *   reachable in any run is found.
 *
 *   Dead values are forgotten.  A register no path reads before writing it
 *   (and the outcome does not show), and a location no thread may read again
 *   (and the outcome does not show), are set to 0 in the stored state, so
 *   states that differ only there are one.
 *
 *   The reductions were checked against plain one-instruction interleaving
 *   on tens of thousands of random tests (loops, guards, atomics, address
 *   registers, bad addresses): same outcomes, same errors.
 *
 *   Outcomes.  The observed vector of each final state goes into a second
 *   hash set of rows; at the end the rows are sorted.
 */
#include "litmus/litmus.h"

#include <stdlib.h>
#include <string.h>

#include "util/common.h"
#include "util/hash.h"

#define SC_ANY (1u << LIT_MAX_LOCS) /* access mask bit: a location not known statically */
#define SC_MAX_WORDS (1 + LIT_MAX_THREADS * LIT_MAX_REGS + LIT_MAX_LOCS)
#define SC_MAX_ROWS 0xfffffff0u /* row indices are 32-bit in the hash slots */

/* A set of equal-width rows of words, in insertion order. */
typedef struct sc_set {
    int width;       /* words per row, >= 1 */
    uint32_t n, cap; /* rows stored, rows allocated */
    uint64_t *rows;
    uint64_t *slot;  /* 0: empty; else (row index + 1) | (hash >> 32) << 32 */
    size_t mask;     /* slots - 1, 0 before the first insertion */
} sc_set;

/* What the explorer knows about one thread before it starts. */
typedef struct sc_thread {
    int word[LIT_MAX_REGS];    /* row word of a register some instruction writes, or -1 */
    int64_t init[LIT_MAX_REGS];/* initial values (normalised) */
    uint64_t in_loop;          /* bit pc: instruction pc lies on a cycle */
    uint32_t fut_rd[LIT_MAX_INSNS + 1]; /* locations possibly read from pc on (SC_ANY) */
    uint32_t fut_wr[LIT_MAX_INSNS + 1]; /* locations possibly written from pc on */
    uint32_t live[LIT_MAX_INSNS + 1];   /* registers whose value may still matter at pc */
} sc_thread;

typedef struct sc {
    const lit_test *t;
    strbuf *err;
    int nwords;  /* words per state row */
    int memword; /* first location word */
    uint32_t obs_locs; /* locations the outcome shows */
    sc_thread th[LIT_MAX_THREADS];
} sc;

/* Values ------------------------------------------------------------------ */

/* v truncated/extended to ty's width and signedness: lit_norm's rule, kept
 * here so the explorer stands alone. */
static int64_t sc_norm(lit_rtype ty, int64_t v)
{
    switch (ty) {
    case LIT_S32:
        return (int32_t)(uint32_t)v;
    case LIT_U32:
    case LIT_B32:
        return (int64_t)(uint32_t)v;
    case LIT_PRED:
        return v != 0;
    case LIT_S64:
    case LIT_U64:
    case LIT_B64:
        break;
    }
    return v;
}

static int sc_signed(lit_rtype ty) { return ty == LIT_S32 || ty == LIT_S64; }
static unsigned sc_bits(lit_rtype ty)
{
    return ty == LIT_PRED ? 1 : ty == LIT_S64 || ty == LIT_U64 || ty == LIT_B64 ? 64 : 32;
}

/* v seen as an unsigned number of ty's width. */
static uint64_t sc_unsigned(lit_rtype ty, int64_t v)
{
    unsigned w = sc_bits(ty);
    return w == 64 ? (uint64_t)v : (uint64_t)v & ((1ull << w) - 1);
}

/* a < b with ty's signedness; a and b normalised to ty. */
static int sc_less(lit_rtype ty, int64_t a, int64_t b)
{
    return sc_signed(ty) ? a < b : sc_unsigned(ty, a) < sc_unsigned(ty, b);
}

static int64_t sc_alu(int op, lit_rtype ty, int64_t a, int64_t b)
{
    a = sc_norm(ty, a);
    b = sc_norm(ty, b);
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b, r = 0;
    uint64_t sh = (uint32_t)b; /* PTX shift amounts are .u32, clamped to the width */
    unsigned w = sc_bits(ty);
    switch ((lit_alu)op) {
    case LIT_ADD: r = ua + ub; break;
    case LIT_SUB: r = ua - ub; break;
    case LIT_MUL: r = ua * ub; break;
    case LIT_AND: r = ua & ub; break;
    case LIT_OR: r = ua | ub; break;
    case LIT_XOR: r = ua ^ ub; break;
    case LIT_SHL: r = sh >= w ? 0 : ua << sh; break;
    case LIT_SHR:
        if (sc_signed(ty)) /* arithmetic: a < 0 fills with ones */
            r = a < 0 ? ~(~ua >> (sh >= w ? 63 : sh)) : sh >= w ? 0 : ua >> sh;
        else
            r = sh >= w ? 0 : sc_unsigned(ty, a) >> sh;
        break;
    }
    return sc_norm(ty, (int64_t)r);
}

static int sc_compare(int cmp, lit_rtype ty, int64_t a, int64_t b)
{
    a = sc_norm(ty, a);
    b = sc_norm(ty, b);
    switch ((lit_cmp)cmp) {
    case LIT_EQ: return a == b;
    case LIT_NE: return a != b;
    case LIT_LT: return sc_less(ty, a, b);
    case LIT_LE: return !sc_less(ty, b, a);
    case LIT_GT: return sc_less(ty, b, a);
    case LIT_GE: return !sc_less(ty, a, b);
    }
    return 0;
}

/* The new memory value of an atomic: old, a (= src0) and b (= src1)
 * normalised to ty.  inc/dec wrap as PTX's atom.inc/atom.dec do. */
static int64_t sc_atom(int aop, lit_rtype ty, int64_t old, int64_t a, int64_t b)
{
    uint64_t uo = (uint64_t)old;
    switch ((lit_aop)aop) {
    case LIT_A_ADD: return (int64_t)(uo + (uint64_t)a);
    case LIT_A_EXCH: return a;
    case LIT_A_CAS: return old == a ? b : old;
    case LIT_A_INC: return sc_unsigned(ty, old) >= sc_unsigned(ty, a) ? 0 : (int64_t)(uo + 1);
    case LIT_A_DEC:
        return old == 0 || sc_unsigned(ty, old) > sc_unsigned(ty, a) ? a : (int64_t)(uo - 1);
    case LIT_A_AND: return old & a;
    case LIT_A_OR: return old | a;
    case LIT_A_XOR: return old ^ a;
    case LIT_A_MIN: return sc_less(ty, a, old) ? a : old;
    case LIT_A_MAX: return sc_less(ty, old, a) ? a : old;
    }
    return old;
}

/* Instructions ------------------------------------------------------------ */

static int sc_is_mem(lit_op op)
{
    return op == LIT_LD || op == LIT_ST || op == LIT_ATOM || op == LIT_RED;
}
static int sc_writes_reg(lit_op op)
{
    return op == LIT_LD || op == LIT_ATOM || op == LIT_MOV || op == LIT_ALU || op == LIT_SETP;
}

static int64_t sc_operand(const lit_operand *o, const int64_t *reg)
{
    switch (o->kind) {
    case LIT_O_REG: return reg[o->reg];
    case LIT_O_IMM: return o->imm;
    case LIT_O_LOC: return (int64_t)lit_loc_addr(o->loc);
    case LIT_O_NONE: break;
    }
    return 0;
}

/* The location at symbolic address a, or -1. */
static int sc_loc_at(const lit_test *t, uint64_t a)
{
    if (a < LIT_LOC_BASE || (a - LIT_LOC_BASE) % LIT_LOC_STRIDE)
        return -1;
    uint64_t k = (a - LIT_LOC_BASE) / LIT_LOC_STRIDE;
    return k < (uint64_t)t->nlocs ? (int)k : -1;
}

static int sc_guard(const lit_insn *in, const int64_t *reg)
{
    return in->guard < 0 || (reg[in->guard] != 0) != (in->guard_neg != 0);
}

/* Does this instruction, with these registers, touch no location? */
static int sc_is_local(const lit_insn *in, const int64_t *reg)
{
    return !sc_is_mem(in->op) || !sc_guard(in, reg);
}

static int sc_access(const lit_test *t, const lit_insn *in, const int64_t *reg)
{
    return sc_loc_at(t, (uint64_t)sc_operand(&in->addr, reg) + (uint64_t)in->addr.imm);
}

static void sc_set_reg(const lit_thread *th, int64_t *reg, int r, int64_t v)
{
    reg[r] = sc_norm(th->regs[r].type, v);
}

/* Execute the instruction at *pc of thread ti.  Returns 0; 1 after a taken
 * backward branch; -1 with a message for an address that is no location. */
static int sc_exec(const sc *s, int ti, int *pc, int64_t *reg, int64_t *mem)
{
    const lit_thread *th = &s->t->threads[ti];
    int at = *pc;
    const lit_insn *in = &th->code[at];
    *pc = at + 1;
    if (!sc_guard(in, reg))
        return 0;
    lit_rtype ty = in->type;
    int64_t a = sc_norm(ty, sc_operand(&in->src[0], reg));
    int64_t b = sc_norm(ty, sc_operand(&in->src[1], reg));
    int k;
    switch (in->op) {
    case LIT_LD:
    case LIT_ST:
    case LIT_ATOM:
    case LIT_RED:
        k = sc_access(s->t, in, reg);
        if (k < 0) {
            if (s->t->filename[0] && in->line > 0)
                sb_printf(s->err, "%s:%d:%d: error: ", s->t->filename, in->line,
                          in->col > 0 ? in->col : 1);
            if (th->name[0])
                sb_printf(s->err, "%s", th->name);
            else
                sb_printf(s->err, "T%d", ti);
            sb_printf(s->err, ": instruction at line %d accesses an address that is no location "
                              "(a location's own address, not inside or past it)",
                      in->line);
            return -1;
        }
        if (in->op == LIT_LD) {
            sc_set_reg(th, reg, in->dst.reg, sc_norm(ty, mem[k]));
        } else if (in->op == LIT_ST) {
            mem[k] = a;
        } else {
            int64_t old = sc_norm(ty, mem[k]);
            mem[k] = sc_norm(ty, sc_atom(in->sub, ty, old, a, b));
            if (in->op == LIT_ATOM)
                sc_set_reg(th, reg, in->dst.reg, old);
        }
        return 0;
    case LIT_MOV:
        sc_set_reg(th, reg, in->dst.reg, a);
        return 0;
    case LIT_ALU:
        sc_set_reg(th, reg, in->dst.reg, sc_alu(in->sub, ty, a, b));
        return 0;
    case LIT_SETP:
        sc_set_reg(th, reg, in->dst.reg, sc_compare(in->sub, ty, a, b));
        return 0;
    case LIT_BRA:
        *pc = in->target;
        return in->target <= at;
    case LIT_FENCE:
    case LIT_LABEL:
        break;
    }
    return 0;
}

/* Run thread ti's local instructions from *pc on: stop at a memory
 * instruction whose guard holds, at the end, or after a taken backward
 * branch (local instructions never fail). */
static void sc_local(const sc *s, int ti, int *pc, int64_t *reg, int64_t *mem)
{
    const lit_thread *th = &s->t->threads[ti];
    while (*pc < th->ninsns && sc_is_local(&th->code[*pc], reg))
        if (sc_exec(s, ti, pc, reg, mem))
            break;
}

/* One step of thread ti: its instruction at *pc, then its local ones. */
static int sc_step(const sc *s, int ti, int *pc, int64_t *reg, int64_t *mem)
{
    int r = sc_exec(s, ti, pc, reg, mem);
    if (r < 0)
        return -1;
    if (r == 0)
        sc_local(s, ti, pc, reg, mem);
    return 0;
}

/* Checking and analysing the test ---------------------------------------- */

static int sc_bad_operand(const lit_test *t, const lit_thread *th, const lit_operand *o)
{
    switch (o->kind) {
    case LIT_O_NONE:
    case LIT_O_IMM:
        return 0;
    case LIT_O_REG:
        return o->reg < 0 || o->reg >= th->nregs;
    case LIT_O_LOC:
        return o->loc < 0 || o->loc >= t->nlocs;
    }
    return 1;
}

/* The structure must be sound before anything indexes with it: the parser
 * guarantees this, a hand-built test may not.  Returns a reason or NULL. */
static const char *sc_bad_insn(const lit_test *t, const lit_thread *th, const lit_insn *in)
{
    if ((unsigned)in->op > LIT_LABEL)
        return "unknown operation";
    if ((unsigned)in->type > LIT_PRED)
        return "unknown type";
    if (in->guard < -1 || in->guard >= th->nregs)
        return "bad guard register";
    if (sc_bad_operand(t, th, &in->src[0]) || sc_bad_operand(t, th, &in->src[1]) ||
        sc_bad_operand(t, th, &in->addr) || sc_bad_operand(t, th, &in->dst))
        return "bad operand";
    if (sc_writes_reg(in->op) && in->dst.kind != LIT_O_REG)
        return "destination is not a register";
    if (sc_is_mem(in->op) && in->addr.kind != LIT_O_REG && in->addr.kind != LIT_O_LOC)
        return "address is not a register or location";
    if ((in->op == LIT_ALU && (unsigned)in->sub > LIT_SHR) ||
        ((in->op == LIT_ATOM || in->op == LIT_RED) && (unsigned)in->sub > LIT_A_MAX) ||
        (in->op == LIT_SETP && (unsigned)in->sub > LIT_GE))
        return "unknown sub-operation";
    if (in->op == LIT_BRA && (in->target < 0 || in->target > th->ninsns))
        return "branch target out of range";
    return NULL;
}

static int sc_check(const lit_test *t, strbuf *err)
{
    if (t->nthreads < 0 || t->nthreads > LIT_MAX_THREADS || t->nlocs < 0 ||
        t->nlocs > LIT_MAX_LOCS || t->nobserved < 0 || t->nobserved > LIT_MAX_OBSERVED) {
        sb_printf(err, "malformed litmus test: %d threads, %d locations, %d observed items",
                  t->nthreads, t->nlocs, t->nobserved);
        return -1;
    }
    for (int i = 0; i < t->nthreads; i++) {
        const lit_thread *th = &t->threads[i];
        if (th->nregs < 0 || th->nregs > LIT_MAX_REGS || th->ninsns < 0 ||
            th->ninsns > LIT_MAX_INSNS) {
            sb_printf(err, "malformed litmus test: thread %d has %d registers, %d instructions",
                      i, th->nregs, th->ninsns);
            return -1;
        }
        for (int r = 0; r < th->nregs; r++)
            if (th->regs[r].init_loc >= t->nlocs || (unsigned)th->regs[r].type > LIT_PRED) {
                sb_printf(err, "malformed litmus test: thread %d register %d", i, r);
                return -1;
            }
        for (int pc = 0; pc < th->ninsns; pc++) {
            const char *why = sc_bad_insn(t, th, &th->code[pc]);
            if (why) {
                sb_printf(err, "malformed litmus test: thread %d instruction %d (line %d): %s",
                          i, pc, th->code[pc].line, why);
                return -1;
            }
        }
    }
    for (int i = 0; i < t->nobserved; i++) {
        lit_item it = t->observed[i];
        if (it.thread < -1 || it.thread >= t->nthreads || it.index < 0 ||
            it.index >= (it.thread < 0 ? t->nlocs : t->threads[it.thread].nregs)) {
            sb_printf(err, "malformed litmus test: observed item %d", i);
            return -1;
        }
    }
    return 0;
}

/* The locations instruction `in` may access, as a mask (SC_ANY when its
 * address goes through a register that changes, or names no location). */
static uint32_t sc_static_access(const lit_test *t, const sc_thread *st, const lit_insn *in)
{
    uint64_t a;
    if (in->addr.kind == LIT_O_LOC)
        a = lit_loc_addr(in->addr.loc);
    else if (st->word[in->addr.reg] < 0)
        a = (uint64_t)st->init[in->addr.reg];
    else
        return SC_ANY;
    int k = sc_loc_at(t, a + (uint64_t)in->addr.imm);
    return k < 0 ? SC_ANY : 1u << k;
}

/* Control flow of thread ti: which instructions lie on a cycle, what each
 * pc may still access, and which registers are live there. */
static void sc_analyse(sc *s, int ti)
{
    const lit_thread *th = &s->t->threads[ti];
    sc_thread *st = &s->th[ti];
    int n = th->ninsns;
    uint64_t succ[LIT_MAX_INSNS], reach[LIT_MAX_INSNS];
    uint32_t rd[LIT_MAX_INSNS], wr[LIT_MAX_INSNS], use[LIT_MAX_INSNS], def[LIT_MAX_INSNS];
    uint32_t observed = 0, at_end[LIT_MAX_INSNS];
    for (int i = 0; i < s->t->nobserved; i++)
        if (s->t->observed[i].thread == ti)
            observed |= 1u << s->t->observed[i].index;
    for (int pc = 0; pc < n; pc++) {
        const lit_insn *in = &th->code[pc];
        int jumps = in->op == LIT_BRA, falls = !jumps || in->guard >= 0;
        succ[pc] = (falls && pc + 1 < n ? 1ull << (pc + 1) : 0) |
                   (jumps && in->target < n ? 1ull << in->target : 0);
        at_end[pc] = (falls && pc + 1 == n) || (jumps && in->target == n) ? observed : 0;
        reach[pc] = succ[pc];
        uint32_t m = sc_is_mem(in->op) ? sc_static_access(s->t, st, in) : 0;
        rd[pc] = in->op == LIT_ST ? 0 : m; /* atom and red read the old value */
        wr[pc] = in->op == LIT_LD ? 0 : m;
        use[pc] = in->guard >= 0 ? 1u << in->guard : 0;
        for (int k = 0; k < 2; k++)
            if (in->src[k].kind == LIT_O_REG)
                use[pc] |= 1u << in->src[k].reg;
        if (in->addr.kind == LIT_O_REG)
            use[pc] |= 1u << in->addr.reg;
        def[pc] = sc_writes_reg(in->op) && in->guard < 0 ? 1u << in->dst.reg : 0;
        st->live[pc] = use[pc];
    }
    /* Fixpoints over at most 64 instructions: reachability (transitive
     * closure of succ) and liveness (live = use | (live of succs - def)). */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int pc = n - 1; pc >= 0; pc--) {
            uint64_t r = reach[pc];
            uint32_t out = at_end[pc];
            for (uint64_t b = succ[pc]; b; b &= b - 1) {
                r |= reach[__builtin_ctzll(b)];
                out |= st->live[__builtin_ctzll(b)];
            }
            uint32_t l = use[pc] | (out & ~def[pc]);
            changed |= r != reach[pc] || l != st->live[pc];
            reach[pc] = r;
            st->live[pc] = l;
        }
    }
    st->in_loop = 0;
    for (int pc = 0; pc < n; pc++) {
        st->in_loop |= reach[pc] & (1ull << pc);
        uint32_t frd = rd[pc], fwr = wr[pc];
        for (uint64_t b = reach[pc]; b; b &= b - 1) {
            frd |= rd[__builtin_ctzll(b)];
            fwr |= wr[__builtin_ctzll(b)];
        }
        st->fut_rd[pc] = frd;
        st->fut_wr[pc] = fwr;
    }
    st->fut_rd[n] = st->fut_wr[n] = 0;
    st->live[n] = observed;
}

/* Rows and sets ----------------------------------------------------------- */

static uint64_t sc_hash(const uint64_t *row, int width)
{
    return hash_final(hash_bytes(HASH_INIT, row, (size_t)width * 8), (uint64_t)width);
}

static void sc_set_free(sc_set *set)
{
    free(set->rows);
    free(set->slot);
    set->rows = set->slot = NULL;
    set->n = set->cap = 0;
    set->mask = 0;
}

static uint64_t *sc_slot_find(const sc_set *set, uint64_t *slot, size_t mask, const uint64_t *row,
                              uint64_t h)
{
    uint64_t tag = h >> 32 << 32;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        uint64_t v = slot[i];
        if (!v)
            return &slot[i];
        if ((v & ~0xffffffffull) == tag &&
            !memcmp(set->rows + (size_t)((v & 0xffffffffu) - 1) * (size_t)set->width, row,
                    (size_t)set->width * 8))
            return &slot[i];
    }
}

/* Add row unless present.  Returns 1 if added, 0 if present, -1 if the host
 * is out of memory or the set is full (the set is unchanged). */
static int sc_set_add(sc_set *set, const uint64_t *row)
{
    size_t w = (size_t)set->width;
    if (set->n >= SC_MAX_ROWS)
        return -1;
    if ((size_t)(set->n + 1) * 2 > set->mask + 1 || !set->slot) {
        size_t cap = set->slot ? (set->mask + 1) * 2 : 1024;
        uint64_t *slot = calloc(cap, sizeof *slot);
        if (!slot)
            return -1;
        for (uint32_t i = 0; i < set->n; i++) {
            const uint64_t *r = set->rows + (size_t)i * w;
            uint64_t h = sc_hash(r, set->width);
            *sc_slot_find(set, slot, cap - 1, r, h) = (h >> 32 << 32) | (i + 1);
        }
        free(set->slot);
        set->slot = slot;
        set->mask = cap - 1;
    }
    uint64_t h = sc_hash(row, set->width);
    uint64_t *s = sc_slot_find(set, set->slot, set->mask, row, h);
    if (*s)
        return 0;
    if (set->n == set->cap) {
        uint32_t cap = set->cap ? (set->cap > SC_MAX_ROWS / 2 ? SC_MAX_ROWS : set->cap * 2) : 256;
        uint64_t *rows = (size_t)cap > SIZE_MAX / 8 / w ? NULL : realloc(set->rows, cap * w * 8);
        if (!rows)
            return -1;
        set->rows = rows;
        set->cap = cap;
    }
    memcpy(set->rows + (size_t)set->n * w, row, w * 8);
    *s = (h >> 32 << 32) | (set->n + 1);
    set->n++;
    return 1;
}

/* Lexicographic order of two rows of int64 values. */
static int sc_row_cmp(const uint64_t *a, const uint64_t *b, int width)
{
    for (int i = 0; i < width; i++)
        if ((int64_t)a[i] != (int64_t)b[i])
            return (int64_t)a[i] < (int64_t)b[i] ? -1 : 1;
    return 0;
}

/* Sort the row indices idx[0..n) by their rows (bottom-up merge sort). */
static void sc_sort(const sc_set *set, uint32_t *idx, uint32_t *tmp, size_t n)
{
    size_t w = (size_t)set->width;
    for (size_t run = 1; run < n; run *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * run) {
            size_t mid = MIN(lo + run, n), hi = MIN(lo + 2 * run, n);
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = sc_row_cmp(set->rows + idx[j] * w, set->rows + idx[i] * w,
                                      set->width) < 0
                               ? idx[j++]
                               : idx[i++];
            while (i < mid)
                tmp[k++] = idx[i++];
            while (j < hi)
                tmp[k++] = idx[j++];
        }
        memcpy(idx, tmp, n * sizeof *idx);
    }
}

/* The exploration --------------------------------------------------------- */

static int sc_pc(const uint64_t *row, int ti) { return (int)(row[0] >> (8 * ti) & 0xff); }

/* Thread ti's registers in the state row. */
static void sc_load_regs(const sc *s, const uint64_t *row, int ti, int64_t *reg)
{
    const sc_thread *st = &s->th[ti];
    for (int r = 0; r < s->t->threads[ti].nregs; r++)
        reg[r] = st->word[r] < 0 ? st->init[r] : (int64_t)row[st->word[r]];
}

static void sc_store(const sc *s, uint64_t *row, int ti, int pc, const int64_t *reg,
                     const int64_t *mem)
{
    const sc_thread *st = &s->th[ti];
    row[0] = (row[0] & ~(0xffull << (8 * ti))) | (uint64_t)pc << (8 * ti);
    for (int r = 0; r < s->t->threads[ti].nregs; r++)
        if (st->word[r] >= 0)
            row[st->word[r]] = (uint64_t)reg[r];
    for (int k = 0; k < s->t->nlocs; k++)
        row[s->memword + k] = (uint64_t)mem[k];
}

/* The threads to expand in a state: the smallest persistent set found (see
 * DESIGN), or every unfinished thread. */
static uint32_t sc_choose(const sc *s, const uint64_t *row)
{
    const lit_test *t = s->t;
    int pc[LIT_MAX_THREADS];
    uint32_t active = 0, loopy = 0, conf[LIT_MAX_THREADS] = {0};
    for (int i = 0; i < t->nthreads; i++) {
        pc[i] = sc_pc(row, i);
        if (pc[i] < t->threads[i].ninsns) {
            active |= 1u << i;
            if (s->th[i].in_loop >> pc[i] & 1)
                loopy |= 1u << i;
        }
    }
    /* conf[i]: the threads whose future may conflict with i's next step (a
     * local step, or one that fails on a bad address, conflicts with none) */
    for (uint32_t a = active; a; a &= a - 1) {
        int i = ctz32(a);
        int64_t reg[LIT_MAX_REGS];
        sc_load_regs(s, row, i, reg);
        const lit_insn *in = &t->threads[i].code[pc[i]];
        int k = sc_is_local(in, reg) ? -1 : sc_access(t, in, reg);
        if (k < 0)
            continue;
        uint32_t bit = 1u << k | SC_ANY;
        for (uint32_t b = active & ~(1u << i); b; b &= b - 1) {
            int j = ctz32(b);
            uint32_t m = s->th[j].fut_wr[pc[j]] | (in->op == LIT_LD ? 0 : s->th[j].fut_rd[pc[j]]);
            if (m & bit)
                conf[i] |= 1u << j;
        }
    }
    uint32_t best = active;
    for (uint32_t a = active; a; a &= a - 1) {
        uint32_t set = 1u << ctz32(a), prev;
        do {
            prev = set;
            for (uint32_t b = prev; b; b &= b - 1)
                set |= conf[ctz32(b)];
        } while (set != prev);
        if (!(set & loopy) && popc32(set) < popc32(best)) {
            best = set;
            if (popc32(best) == 1)
                break;
        }
    }
    return best;
}

/* Forget the values that can no longer matter: thread ti's dead registers
 * (every thread's if ti < 0) and the locations no thread may read again and
 * the outcome does not show.  States that differ only there merge. */
static void sc_canon(const sc *s, uint64_t *row, int ti)
{
    const lit_test *t = s->t;
    uint32_t rd = s->obs_locs;
    for (int i = 0; i < t->nthreads; i++) {
        const sc_thread *st = &s->th[i];
        int pc = sc_pc(row, i);
        rd |= st->fut_rd[pc];
        if (ti >= 0 && i != ti)
            continue;
        for (int r = 0; r < t->threads[i].nregs; r++)
            if (st->word[r] >= 0 && !(st->live[pc] >> r & 1))
                row[st->word[r]] = 0;
    }
    if (rd & SC_ANY)
        return;
    for (int k = 0; k < t->nlocs; k++)
        if (!(rd >> k & 1))
            row[s->memword + k] = 0;
}

/* Are all threads at their ends? */
static int sc_final(const sc *s, const uint64_t *row)
{
    for (int i = 0; i < s->t->nthreads; i++)
        if (sc_pc(row, i) < s->t->threads[i].ninsns)
            return 0;
    return 1;
}

/* The observed vector of a final state, padded to at least one word. */
static void sc_observe(const sc *s, const uint64_t *row, uint64_t *obs)
{
    const lit_test *t = s->t;
    obs[0] = 0;
    for (int i = 0; i < t->nobserved; i++) {
        lit_item it = t->observed[i];
        if (it.thread < 0) {
            obs[i] = row[s->memword + it.index];
        } else {
            const sc_thread *st = &s->th[it.thread];
            int w = st->word[it.index];
            obs[i] = w < 0 ? (uint64_t)st->init[it.index] : row[w];
        }
    }
}

/* Lay out the rows and build the initial state. */
static void sc_setup(sc *s, uint64_t *row)
{
    const lit_test *t = s->t;
    int w = 1;
    for (int i = 0; i < t->nthreads; i++) {
        const lit_thread *th = &t->threads[i];
        sc_thread *st = &s->th[i];
        for (int r = 0; r < th->nregs; r++) {
            const lit_reg *rg = &th->regs[r];
            int64_t v = rg->init_loc >= 0 ? (int64_t)lit_loc_addr(rg->init_loc) : rg->init;
            st->init[r] = sc_norm(rg->type, v);
            st->word[r] = -1;
        }
        for (int pc = 0; pc < th->ninsns; pc++)
            if (sc_writes_reg(th->code[pc].op) && st->word[th->code[pc].dst.reg] < 0)
                st->word[th->code[pc].dst.reg] = w++;
        sc_analyse(s, i);
    }
    s->memword = w;
    s->nwords = w + t->nlocs;
    memset(row, 0, sizeof(uint64_t) * (size_t)s->nwords);
    int64_t mem[LIT_MAX_LOCS];
    for (int k = 0; k < t->nlocs; k++)
        mem[k] = t->locs[k].init;
    for (int i = 0; i < t->nthreads; i++) {
        int64_t reg[LIT_MAX_REGS];
        int pc = 0;
        memcpy(reg, s->th[i].init, sizeof reg);
        sc_local(s, i, &pc, reg, mem);
        sc_store(s, row, i, pc, reg, mem);
    }
    for (int k = 0; k < t->nlocs; k++)
        row[s->memword + k] = (uint64_t)mem[k];
    for (int i = 0; i < t->nobserved; i++)
        if (t->observed[i].thread < 0)
            s->obs_locs |= 1u << t->observed[i].index;
    sc_canon(s, row, -1);
}

int lit_sc_outcomes(const lit_test *t, uint64_t max_states, lit_outcomes *out, strbuf *err)
{
    sc s;
    sc_set states = {0}, finals = {0};
    uint32_t *stack = NULL, *idx = NULL;
    size_t nstack = 0, capstack = 0;
    uint64_t row[SC_MAX_WORDS], child[SC_MAX_WORDS], obs[LIT_MAX_OBSERVED + 1];
    int bad_test = 0;

    memset(out, 0, sizeof *out);
    memset(&s, 0, sizeof s);
    s.t = t;
    s.err = err;
    if (sc_check(t, err))
        return -2;
    sc_setup(&s, row);
    states.width = s.nwords;
    finals.width = t->nobserved > 0 ? t->nobserved : 1;

    /* Each state is pushed once, when it is first seen: the stack never
     * holds more entries than there are states. */
    if (sc_set_add(&states, row) < 0 || vec_grow_((void **)&stack, &capstack, 1, sizeof *stack))
        goto oom;
    stack[nstack++] = 0;
    while (nstack) {
        /* copy the row: adding children may move the row array */
        memcpy(row, states.rows + (size_t)stack[--nstack] * (size_t)s.nwords,
               sizeof(uint64_t) * (size_t)s.nwords);
        if (sc_final(&s, row)) {
            sc_observe(&s, row, obs);
            if (sc_set_add(&finals, obs) < 0)
                goto oom;
            continue;
        }
        for (uint32_t ready = sc_choose(&s, row); ready; ready &= ready - 1) {
            int i = ctz32(ready);
            int pc = sc_pc(row, i);
            int64_t reg[LIT_MAX_REGS], mem[LIT_MAX_LOCS];
            sc_load_regs(&s, row, i, reg);
            for (int k = 0; k < t->nlocs; k++)
                mem[k] = (int64_t)row[s.memword + k];
            if (sc_step(&s, i, &pc, reg, mem)) {
                bad_test = 1;
                goto fail;
            }
            memcpy(child, row, sizeof(uint64_t) * (size_t)s.nwords);
            sc_store(&s, child, i, pc, reg, mem);
            sc_canon(&s, child, i);
            int added = sc_set_add(&states, child);
            if (added < 0)
                goto oom;
            if (!added)
                continue;
            if ((max_states && states.n > max_states) || states.n >= SC_MAX_ROWS) {
                sb_printf(err, "state space larger than %llu states",
                          (unsigned long long)(max_states && max_states < SC_MAX_ROWS
                                                   ? max_states
                                                   : SC_MAX_ROWS - 1));
                goto fail;
            }
            if (vec_grow_((void **)&stack, &capstack, nstack + 1, sizeof *stack))
                goto oom;
            stack[nstack++] = states.n - 1;
        }
    }

    /* The outcomes, sorted. */
    uint32_t n = finals.n;
    int width = t->nobserved;
    if (n > INT32_MAX) {
        sb_printf(err, "more than %d SC outcomes", INT32_MAX);
        goto fail;
    }
    idx = malloc(2 * (size_t)n * sizeof *idx + 1);
    if (!idx)
        goto oom;
    for (uint32_t i = 0; i < n; i++)
        idx[i] = i;
    sc_sort(&finals, idx, idx + n, n);
    if (width > 0 && n > 0) {
        out->vals = malloc((size_t)n * (size_t)width * sizeof *out->vals);
        if (!out->vals)
            goto oom;
        for (uint32_t i = 0; i < n; i++)
            memcpy(out->vals + (size_t)i * width, finals.rows + (size_t)idx[i] * finals.width,
                   (size_t)width * sizeof *out->vals);
    }
    out->n = out->cap = (int)n;
    out->width = width;
    free(idx);
    free(stack);
    sc_set_free(&states);
    sc_set_free(&finals);
    return (int)n;

oom:
    sb_printf(err, "out of host memory exploring the SC states of %s (%u states so far)",
              t->name[0] ? t->name : "the litmus test", states.n);
fail:
    free(idx);
    free(stack);
    sc_set_free(&states);
    sc_set_free(&finals);
    memset(out, 0, sizeof *out);
    return bad_test ? -2 : -1;
}

void lit_outcomes_free(lit_outcomes *o)
{
    if (!o)
        return;
    free(o->vals);
    memset(o, 0, sizeof *o);
}

int lit_outcomes_has(const lit_outcomes *o, const int64_t *vals)
{
    if (!o || o->n <= 0)
        return 0;
    if (o->width <= 0)
        return 1;
    int lo = 0, hi = o->n; /* search [lo, hi) */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        const int64_t *r = o->vals + (size_t)mid * (size_t)o->width;
        int c = 0;
        for (int i = 0; i < o->width && !c; i++)
            c = r[i] < vals[i] ? -1 : r[i] > vals[i];
        if (!c)
            return 1;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}
