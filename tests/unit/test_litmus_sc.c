/*
 * test_litmus_sc.c -- the SC explorer (src/litmus/sc.c) on the classic
 * litmus shapes, built as lit_test structs in C so the test needs no
 * parser: MP, SB, LB, IRIW, CoRR, 2+2W, a CAS lock, a spin loop, atomics,
 * an address dependency, the instruction semantics one by one, a bad
 * address, the state bound, and two eight-thread tests (an SB ring, IRIW
 * with four writers and four readers) against the clock.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "litmus/litmus.h"
#include "test.h"

/* Building tests ----------------------------------------------------------- */

static lit_test *mk(const char *name)
{
    lit_test *t = calloc(1, sizeof *t);
    if (!t) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    snprintf(t->name, sizeof t->name, "%s", name);
    return t;
}

static int loc(lit_test *t, const char *name, int64_t init)
{
    lit_loc *l = &t->locs[t->nlocs];
    snprintf(l->name, sizeof l->name, "%s", name);
    l->init = init;
    l->type = LIT_S32;
    return t->nlocs++;
}

/* Thread th, created (with those before it) on first use. */
static lit_thread *thr(lit_test *t, int th)
{
    while (t->nthreads <= th) {
        lit_thread *nt = &t->threads[t->nthreads];
        snprintf(nt->name, sizeof nt->name, "T%d", t->nthreads);
        nt->cta = nt->warp = t->nthreads++;
        t->nctas = t->nwarps = t->nthreads;
    }
    return &t->threads[th];
}

/* The register called name of thread th, created on first use with type ty
 * and initial value 0. */
static int reg(lit_test *t, int th, const char *name, lit_rtype ty)
{
    lit_thread *p = thr(t, th);
    for (int r = 0; r < p->nregs; r++)
        if (!strcmp(p->regs[r].name, name))
            return r;
    lit_reg *r = &p->regs[p->nregs];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->type = ty;
    r->init_loc = -1;
    return p->nregs++;
}
static int r32(lit_test *t, int th, const char *name) { return reg(t, th, name, LIT_S32); }
static int prd(lit_test *t, int th, const char *name) { return reg(t, th, name, LIT_PRED); }

static lit_insn *emit(lit_test *t, int th, lit_op op, lit_rtype ty)
{
    lit_thread *p = thr(t, th);
    lit_insn *in = &p->code[p->ninsns++];
    memset(in, 0, sizeof *in);
    in->op = op;
    in->type = ty;
    in->guard = -1;
    in->line = p->ninsns; /* line k for the k-th instruction */
    in->col = 1;
    return in;
}

static lit_operand R(int r) { return (lit_operand){.kind = LIT_O_REG, .reg = r}; }
static lit_operand I(int64_t v) { return (lit_operand){.kind = LIT_O_IMM, .imm = v}; }
static lit_operand L(int k) { return (lit_operand){.kind = LIT_O_LOC, .loc = k}; }
static lit_operand A(lit_operand base, int64_t off) { base.imm = off; return base; }

static void st(lit_test *t, int th, lit_operand addr, lit_operand v)
{
    lit_insn *in = emit(t, th, LIT_ST, LIT_S32);
    in->addr = addr;
    in->src[0] = v;
}
static lit_insn *ld(lit_test *t, int th, int dst, lit_operand addr)
{
    lit_insn *in = emit(t, th, LIT_LD, LIT_S32);
    in->dst = R(dst);
    in->addr = addr;
    return in;
}
static lit_insn *atom(lit_test *t, int th, lit_aop aop, lit_rtype ty, int dst, lit_operand addr,
                      lit_operand a, lit_operand b)
{
    lit_insn *in = emit(t, th, dst < 0 ? LIT_RED : LIT_ATOM, ty);
    in->sub = aop;
    if (dst >= 0)
        in->dst = R(dst);
    in->addr = addr;
    in->src[0] = a;
    in->src[1] = b;
    return in;
}
static void alu(lit_test *t, int th, lit_alu op, lit_rtype ty, int dst, lit_operand a,
                lit_operand b)
{
    lit_insn *in = emit(t, th, LIT_ALU, ty);
    in->sub = op;
    in->dst = R(dst);
    in->src[0] = a;
    in->src[1] = b;
}
static void setp(lit_test *t, int th, lit_cmp c, lit_rtype ty, int dst, lit_operand a,
                 lit_operand b)
{
    lit_insn *in = emit(t, th, LIT_SETP, ty);
    in->sub = c;
    in->dst = R(dst);
    in->src[0] = a;
    in->src[1] = b;
}
static void mov(lit_test *t, int th, lit_rtype ty, int dst, lit_operand a)
{
    lit_insn *in = emit(t, th, LIT_MOV, ty);
    in->dst = R(dst);
    in->src[0] = a;
}
static int label(lit_test *t, int th, const char *name)
{
    lit_insn *in = emit(t, th, LIT_LABEL, LIT_S32);
    snprintf(in->label, sizeof in->label, "%s", name);
    return t->threads[th].ninsns - 1;
}
static lit_insn *bra(lit_test *t, int th, int target)
{
    lit_insn *in = emit(t, th, LIT_BRA, LIT_S32);
    in->target = target;
    return in;
}
static lit_insn *guard(lit_insn *in, int p, int neg)
{
    in->guard = p;
    in->guard_neg = neg;
    return in;
}
static void obs(lit_test *t, int th, int index)
{
    t->observed[t->nobserved++] = (lit_item){.thread = th, .index = index};
}

/* Explore t (which is freed) and check the outcome set is exactly want[0..n). */
static void expect(lit_test *t, int n, const int64_t *want, const int64_t *absent)
{
    lit_outcomes o;
    strbuf err = STRBUF_INIT;
    int got = lit_sc_outcomes(t, 1000000, &o, &err);
    CHECK_MSG(got == n, "%s: %d outcomes, want %d (%s)", t->name, got, n, sb_cstr(&err));
    if (got >= 0) {
        CHECK_EQ_INT(o.n, got);
        CHECK_EQ_INT(o.width, t->nobserved);
        for (int i = 0; i < n && want; i++)
            CHECK_MSG(lit_outcomes_has(&o, want + i * t->nobserved), "%s: outcome %d missing",
                      t->name, i);
        if (absent)
            CHECK_MSG(!lit_outcomes_has(&o, absent), "%s: a forbidden outcome is SC", t->name);
        for (int i = 1; i < o.n; i++) { /* sorted, no duplicates */
            const int64_t *a = o.vals + (size_t)(i - 1) * o.width, *b = a + o.width;
            int c = 0;
            for (int k = 0; k < o.width && !c; k++)
                c = a[k] < b[k] ? -1 : a[k] > b[k];
            CHECK_MSG(c < 0, "%s: rows %d and %d out of order", t->name, i - 1, i);
        }
    }
    lit_outcomes_free(&o);
    CHECK(o.vals == NULL && o.n == 0);
    sb_free(&err);
    free(t);
}

/* The classic shapes ------------------------------------------------------- */

static void test_mp(void)
{
    lit_test *t = mk("MP");
    int x = loc(t, "x", 0), y = loc(t, "y", 0);
    st(t, 0, L(x), I(1));
    st(t, 0, L(y), I(1));
    int r0 = r32(t, 1, "r0"), r1 = r32(t, 1, "r1");
    ld(t, 1, r0, L(y));
    ld(t, 1, r1, L(x));
    obs(t, 1, r0);
    obs(t, 1, r1);
    static const int64_t want[] = {0, 0, 0, 1, 1, 1}, bad[] = {1, 0};
    expect(t, 3, want, bad);
}

static void test_sb(void)
{
    lit_test *t = mk("SB");
    int x = loc(t, "x", 0), y = loc(t, "y", 0);
    int a = r32(t, 0, "r0"), b = r32(t, 1, "r0");
    st(t, 0, L(x), I(1));
    ld(t, 0, a, L(y));
    st(t, 1, L(y), I(1));
    ld(t, 1, b, L(x));
    obs(t, 0, a);
    obs(t, 1, b);
    static const int64_t want[] = {0, 1, 1, 0, 1, 1}, bad[] = {0, 0};
    expect(t, 3, want, bad);
}

static void test_lb(void)
{
    lit_test *t = mk("LB");
    int x = loc(t, "x", 0), y = loc(t, "y", 0);
    int a = r32(t, 0, "r0"), b = r32(t, 1, "r0");
    ld(t, 0, a, L(x));
    st(t, 0, L(y), I(1));
    ld(t, 1, b, L(y));
    st(t, 1, L(x), I(1));
    obs(t, 0, a);
    obs(t, 1, b);
    static const int64_t want[] = {0, 0, 0, 1, 1, 0}, bad[] = {1, 1};
    expect(t, 3, want, bad);
}

static void test_iriw(void)
{
    lit_test *t = mk("IRIW");
    int x = loc(t, "x", 0), y = loc(t, "y", 0);
    st(t, 0, L(x), I(1));
    st(t, 1, L(y), I(1));
    int a0 = r32(t, 2, "r0"), a1 = r32(t, 2, "r1"), b0 = r32(t, 3, "r0"), b1 = r32(t, 3, "r1");
    ld(t, 2, a0, L(x));
    ld(t, 2, a1, L(y));
    ld(t, 3, b0, L(y));
    ld(t, 3, b1, L(x));
    obs(t, 2, a0);
    obs(t, 2, a1);
    obs(t, 3, b0);
    obs(t, 3, b1);
    /* all 16 but the one where the readers see the writes in opposite orders */
    int64_t want[15 * 4];
    int n = 0;
    for (int v = 0; v < 16; v++) {
        int64_t row[4] = {v >> 3 & 1, v >> 2 & 1, v >> 1 & 1, v & 1};
        if (v != 0xa)
            memcpy(want + 4 * n++, row, sizeof row);
    }
    static const int64_t bad[] = {1, 0, 1, 0};
    expect(t, 15, want, bad);
}

static void test_corr(void)
{
    lit_test *t = mk("CoRR");
    int x = loc(t, "x", 0);
    st(t, 0, L(x), I(1));
    int a = r32(t, 1, "r0"), b = r32(t, 1, "r1");
    ld(t, 1, a, L(x));
    ld(t, 1, b, L(x));
    obs(t, 1, a);
    obs(t, 1, b);
    static const int64_t want[] = {0, 0, 0, 1, 1, 1}, bad[] = {1, 0};
    expect(t, 3, want, bad);
}

static void test_2p2w(void)
{
    lit_test *t = mk("2+2W");
    int x = loc(t, "x", 0), y = loc(t, "y", 0);
    st(t, 0, L(x), I(1));
    st(t, 0, L(y), I(2));
    st(t, 1, L(y), I(1));
    st(t, 1, L(x), I(2));
    obs(t, -1, x);
    obs(t, -1, y);
    static const int64_t want[] = {1, 2, 2, 1, 2, 2}, bad[] = {1, 1};
    expect(t, 3, want, bad);
}

/* Thesis Figure 4.7: a CAS lock.  If T1 takes the lock (r0 = 0) after T0
 * released it, it must see T0's write to x. */
static void test_cas_lock(void)
{
    lit_test *t = mk("CAS-lock");
    int x = loc(t, "x", 0), y = loc(t, "y", 1);
    int t0 = r32(t, 0, "r0");
    st(t, 0, L(x), I(1));
    atom(t, 0, LIT_A_EXCH, LIT_B32, t0, L(y), I(0), (lit_operand){0});
    int r0 = r32(t, 1, "r0"), r1 = prd(t, 1, "r1"), r2 = r32(t, 1, "r2");
    atom(t, 1, LIT_A_CAS, LIT_B32, r0, L(y), I(0), I(1));
    setp(t, 1, LIT_EQ, LIT_S32, r1, R(r0), I(0));
    guard(ld(t, 1, r2, L(x)), r1, 0);
    obs(t, 1, r0);
    obs(t, 1, r2);
    static const int64_t want[] = {0, 1, 1, 0}, bad[] = {0, 0};
    expect(t, 2, want, bad);
}

/* MP with a reader that spins until it sees the flag. */
static void test_spin_loop(void)
{
    lit_test *t = mk("MP+spin");
    int x = loc(t, "x", 0), y = loc(t, "y", 0);
    st(t, 0, L(x), I(1));
    st(t, 0, L(y), I(1));
    int r0 = r32(t, 1, "r0"), r1 = r32(t, 1, "r1"), p = prd(t, 1, "p");
    int top = label(t, 1, "L");
    ld(t, 1, r0, L(y));
    setp(t, 1, LIT_EQ, LIT_S32, p, R(r0), I(0));
    guard(bra(t, 1, top), p, 0);
    ld(t, 1, r1, L(x));
    obs(t, 1, r0);
    obs(t, 1, r1);
    static const int64_t want[] = {1, 1}, bad[] = {1, 0};
    expect(t, 1, want, bad);

    /* a reader that spins on a flag nobody sets never finishes: no outcome */
    t = mk("spin-forever");
    y = loc(t, "y", 0);
    r0 = r32(t, 0, "r0");
    p = prd(t, 0, "p");
    top = label(t, 0, "L");
    ld(t, 0, r0, L(y));
    setp(t, 0, LIT_EQ, LIT_S32, p, R(r0), I(0));
    guard(bra(t, 0, top), p, 0);
    obs(t, 0, r0);
    expect(t, 0, NULL, NULL);
}

static void test_atomic_add(void)
{
    lit_test *t = mk("2xatom.add");
    int x = loc(t, "x", 0);
    int a = r32(t, 0, "r0"), b = r32(t, 1, "r0");
    atom(t, 0, LIT_A_ADD, LIT_S32, a, L(x), I(1), (lit_operand){0});
    atom(t, 1, LIT_A_ADD, LIT_S32, b, L(x), I(1), (lit_operand){0});
    obs(t, 0, a);
    obs(t, 1, b);
    obs(t, -1, x);
    static const int64_t want[] = {0, 1, 2, 1, 0, 2}, bad[] = {0, 0, 1};
    expect(t, 2, want, bad);

    /* red + ld: the reader sees 0, 1 or 2 */
    t = mk("2xred");
    x = loc(t, "x", 0);
    atom(t, 0, LIT_A_ADD, LIT_U32, -1, L(x), I(1), (lit_operand){0});
    atom(t, 0, LIT_A_ADD, LIT_U32, -1, L(x), I(1), (lit_operand){0});
    a = r32(t, 1, "r0");
    ld(t, 1, a, L(x));
    obs(t, 1, a);
    obs(t, -1, x);
    static const int64_t want2[] = {0, 2, 1, 2, 2, 2};
    expect(t, 3, want2, NULL);
}

/* MP whose reader's second address depends on its first load:
 * "ld r0 [y]; xor r9, r0, r0; add r3, r1, r9; ld r2 [r3]" with r1 = &x. */
static void test_addr_dep(void)
{
    lit_test *t = mk("MP+addr");
    int x = loc(t, "x", 0), y = loc(t, "y", 0);
    st(t, 0, L(x), I(1));
    st(t, 0, L(y), I(1));
    int r0 = reg(t, 1, "r0", LIT_U64), r1 = reg(t, 1, "r1", LIT_U64);
    int r9 = reg(t, 1, "r9", LIT_U64), r3 = reg(t, 1, "r3", LIT_U64), r2 = r32(t, 1, "r2");
    t->threads[1].regs[r1].init_loc = x;
    ld(t, 1, r0, L(y));
    alu(t, 1, LIT_XOR, LIT_B64, r9, R(r0), R(r0));
    alu(t, 1, LIT_ADD, LIT_U64, r3, R(r1), R(r9));
    ld(t, 1, r2, A(R(r3), 0));
    obs(t, 1, r0);
    obs(t, 1, r2);
    obs(t, 1, r1);
    int64_t ax = (int64_t)lit_loc_addr(x);
    const int64_t want[] = {0, 0, ax, 0, 1, ax, 1, 1, ax}, bad[] = {1, 0, ax};
    expect(t, 3, want, bad);

    /* an address computed with an offset: [r1+16] is y when r1 = &x */
    t = mk("offset");
    x = loc(t, "x", 0);
    y = loc(t, "y", 7);
    r1 = reg(t, 0, "r1", LIT_U64);
    r2 = r32(t, 0, "r2");
    mov(t, 0, LIT_U64, r1, L(x));
    ld(t, 0, r2, A(R(r1), LIT_LOC_STRIDE));
    st(t, 0, A(L(x), LIT_LOC_STRIDE), I(9));
    obs(t, 0, r2);
    obs(t, -1, y);
    static const int64_t want2[] = {7, 9};
    expect(t, 1, want2, NULL);
}

/* Instruction semantics, one thread ---------------------------------------- */

/* Run a single-thread test and return its only outcome's first value. */
static int64_t only(lit_test *t)
{
    lit_outcomes o;
    strbuf err = STRBUF_INIT;
    int n = lit_sc_outcomes(t, 1000, &o, &err);
    CHECK_MSG(n == 1, "%s: %d outcomes (%s)", t->name, n, sb_cstr(&err));
    int64_t v = n == 1 ? o.vals[0] : -12345;
    lit_outcomes_free(&o);
    sb_free(&err);
    free(t);
    return v;
}

/* atom.<aop>.<ty> on a location holding init with operands a, b: the new value
 * (want_new) and the returned old one. */
static void check_atom(lit_aop aop, lit_rtype ty, int64_t init, int64_t a, int64_t b,
                       int64_t want_new)
{
    lit_test *t = mk("atom");
    int x = loc(t, "x", init);
    int r = reg(t, 0, "r", LIT_S64);
    atom(t, 0, aop, ty, r, L(x), I(a), I(b));
    obs(t, -1, x);
    int64_t got = only(t);
    CHECK_MSG(got == want_new, "aop %d type %d on %lld with %lld, %lld: %lld, want %lld", aop,
              ty, (long long)init, (long long)a, (long long)b, (long long)got,
              (long long)want_new);
}

static void test_atomics(void)
{
    check_atom(LIT_A_ADD, LIT_U32, 0xffffffff, 1, 0, 0);
    check_atom(LIT_A_ADD, LIT_S32, 0x7fffffff, 1, 0, INT32_MIN);
    check_atom(LIT_A_ADD, LIT_U64, 0xffffffff, 1, 0, 0x100000000);
    check_atom(LIT_A_EXCH, LIT_B32, 3, 5, 0, 5);
    check_atom(LIT_A_CAS, LIT_B32, 3, 3, 8, 8);
    check_atom(LIT_A_CAS, LIT_B32, 3, 4, 8, 3);
    check_atom(LIT_A_INC, LIT_U32, 5, 5, 0, 0);  /* old >= src: wraps to 0 */
    check_atom(LIT_A_INC, LIT_U32, 4, 5, 0, 5);
    check_atom(LIT_A_INC, LIT_U32, 9, 5, 0, 0);
    check_atom(LIT_A_DEC, LIT_U32, 0, 5, 0, 5);  /* old == 0: wraps to src */
    check_atom(LIT_A_DEC, LIT_U32, 9, 5, 0, 5);  /* old > src */
    check_atom(LIT_A_DEC, LIT_U32, 3, 5, 0, 2);
    check_atom(LIT_A_AND, LIT_B32, 6, 3, 0, 2);
    check_atom(LIT_A_OR, LIT_B32, 6, 3, 0, 7);
    check_atom(LIT_A_XOR, LIT_B32, 6, 3, 0, 5);
    check_atom(LIT_A_MIN, LIT_S32, 2, -1, 0, -1);
    check_atom(LIT_A_MIN, LIT_U32, 2, -1, 0, 2);  /* -1 is 0xffffffff unsigned */
    check_atom(LIT_A_MAX, LIT_S32, 2, -1, 0, 2);
    check_atom(LIT_A_MAX, LIT_U32, 2, -1, 0, 0xffffffff);

    /* the returned old value goes to the register, normalised */
    lit_test *t = mk("atom-old");
    int x = loc(t, "x", -2);
    int r = reg(t, 0, "r", LIT_U32);
    atom(t, 0, LIT_A_ADD, LIT_S32, r, L(x), I(1), (lit_operand){0});
    obs(t, 0, r);
    CHECK_EQ_INT(only(t), 0xfffffffe);
}

static int64_t run_alu(lit_alu op, lit_rtype ty, int64_t a, int64_t b, lit_rtype dty)
{
    lit_test *t = mk("alu");
    int r = reg(t, 0, "r", dty);
    alu(t, 0, op, ty, r, I(a), I(b));
    obs(t, 0, r);
    return only(t);
}

static int64_t run_setp(lit_cmp c, lit_rtype ty, int64_t a, int64_t b)
{
    lit_test *t = mk("setp");
    int p = prd(t, 0, "p");
    setp(t, 0, c, ty, p, I(a), I(b));
    obs(t, 0, p);
    return only(t);
}

static void test_local_ops(void)
{
    CHECK_EQ_INT(run_alu(LIT_ADD, LIT_S32, 0x7fffffff, 1, LIT_S64), INT32_MIN);
    CHECK_EQ_INT(run_alu(LIT_ADD, LIT_U32, 0xffffffff, 2, LIT_U64), 1);
    CHECK_EQ_INT(run_alu(LIT_SUB, LIT_U32, 0, 1, LIT_U64), 0xffffffff);
    CHECK_EQ_INT(run_alu(LIT_SUB, LIT_S32, 0, 1, LIT_S32), -1);
    CHECK_EQ_INT(run_alu(LIT_MUL, LIT_S32, 0x10000, 0x10000, LIT_S64), 0);
    CHECK_EQ_INT(run_alu(LIT_MUL, LIT_U64, 0x10000, 0x10000, LIT_U64), 0x100000000);
    CHECK_EQ_INT(run_alu(LIT_AND, LIT_B32, 12, 10, LIT_B32), 8);
    CHECK_EQ_INT(run_alu(LIT_OR, LIT_B32, 12, 10, LIT_B32), 14);
    CHECK_EQ_INT(run_alu(LIT_XOR, LIT_B32, 12, 10, LIT_B32), 6);
    CHECK_EQ_INT(run_alu(LIT_SHL, LIT_B32, 1, 31, LIT_U32), 0x80000000);
    CHECK_EQ_INT(run_alu(LIT_SHL, LIT_B32, 1, 32, LIT_U32), 0);
    CHECK_EQ_INT(run_alu(LIT_SHR, LIT_S32, -8, 1, LIT_S32), -4);
    CHECK_EQ_INT(run_alu(LIT_SHR, LIT_S32, -8, 40, LIT_S32), -1);
    CHECK_EQ_INT(run_alu(LIT_SHR, LIT_U32, -8, 1, LIT_U32), 0x7ffffffc);
    CHECK_EQ_INT(run_alu(LIT_SHR, LIT_B32, -8, 1, LIT_U32), 0x7ffffffc);
    CHECK_EQ_INT(run_alu(LIT_SHR, LIT_S64, -8, 1, LIT_S64), -4);
    CHECK_EQ_INT(run_alu(LIT_SHR, LIT_U64, -8, 60, LIT_U64), 15);
    CHECK_EQ_INT(run_alu(LIT_ADD, LIT_S64, 5, 0, LIT_S32), 5);
    CHECK_EQ_INT(run_alu(LIT_ADD, LIT_U64, 0x1ffffffff, 0, LIT_S32), -1); /* dst truncates */

    CHECK_EQ_INT(run_setp(LIT_LT, LIT_S32, -1, 0), 1);
    CHECK_EQ_INT(run_setp(LIT_LT, LIT_U32, -1, 0), 0);
    CHECK_EQ_INT(run_setp(LIT_GE, LIT_U32, -1, 0), 1);
    CHECK_EQ_INT(run_setp(LIT_LE, LIT_S32, 3, 3), 1);
    CHECK_EQ_INT(run_setp(LIT_GT, LIT_S32, 3, 3), 0);
    CHECK_EQ_INT(run_setp(LIT_NE, LIT_B32, 3, 3), 0);
    CHECK_EQ_INT(run_setp(LIT_EQ, LIT_B32, 0x100000003, 3), 1); /* compared at 32 bits */

    /* guards: @!p skips when p holds; a guarded-false store is a no-op;
     * a forward branch skips; a register initialised to a location */
    lit_test *t = mk("guards");
    int x = loc(t, "x", 5);
    int p = prd(t, 0, "p"), r = r32(t, 0, "r");
    int a = reg(t, 0, "a", LIT_U64);
    t->threads[0].regs[a].init_loc = x;
    setp(t, 0, LIT_EQ, LIT_S32, p, I(1), I(1));
    guard(ld(t, 0, r, L(x)), p, 1);                 /* skipped: r stays 0 */
    lit_insn *s = emit(t, 0, LIT_ST, LIT_S32);    /* @!p st [a], 7: skipped */
    s->addr = R(a);
    s->src[0] = I(7);
    guard(s, p, 1);
    lit_insn *b = guard(bra(t, 0, 0), p, 0);      /* forward, patched below */
    st(t, 0, L(x), I(99));                         /* jumped over */
    b->target = label(t, 0, "END");
    emit(t, 0, LIT_FENCE, LIT_S32)->membar = 1;
    obs(t, -1, x);
    obs(t, 0, r);
    obs(t, 0, a);
    lit_outcomes o;
    strbuf err = STRBUF_INIT;
    CHECK_EQ_INT(lit_sc_outcomes(t, 100, &o, &err), 1);
    if (o.n == 1) {
        CHECK_EQ_INT(o.vals[0], 5);
        CHECK_EQ_INT(o.vals[1], 0);
        CHECK_EQ_INT(o.vals[2], (int64_t)lit_loc_addr(x));
    }
    lit_outcomes_free(&o);
    sb_free(&err);
    free(t);
}

/* Errors and bounds -------------------------------------------------------- */

static void test_bad_address(void)
{
    lit_test *t = mk("bad");
    int x = loc(t, "x", 0);
    st(t, 0, L(x), I(1));
    int r0 = r32(t, 1, "r0");
    ld(t, 1, r0, L(x));
    ld(t, 1, r0, A(L(x), 4)); /* line 2: x + 4 is inside x, not a location */
    obs(t, 1, r0);
    lit_outcomes o;
    strbuf err = STRBUF_INIT;
    CHECK_EQ_INT(lit_sc_outcomes(t, 1000, &o, &err), -2);
    CHECK_STR_CONTAINS(sb_cstr(&err),
                       "T1: instruction at line 2 accesses an address that is no location");
    CHECK(o.n == 0 && o.vals == NULL);
    lit_outcomes_free(&o);
    /* with the test's file named, the message starts at the instruction */
    snprintf(t->filename, sizeof t->filename, "bad.litmus");
    t->threads[1].code[1].col = 7;
    sb_clear(&err);
    CHECK_EQ_INT(lit_sc_outcomes(t, 1000, &o, &err), -2);
    CHECK_STR_CONTAINS(sb_cstr(&err), "bad.litmus:2:7: error: T1: instruction at line 2");

    /* through a register that holds 0 (no location address) */
    sb_clear(&err);
    t->threads[1].code[1].addr = A(R(r32(t, 1, "z")), 0);
    CHECK_EQ_INT(lit_sc_outcomes(t, 1000, &o, &err), -2);
    CHECK_STR_CONTAINS(sb_cstr(&err), "T1: instruction at line 2 accesses an address");

    /* past the last location */
    sb_clear(&err);
    t->threads[1].code[1].addr = A(L(x), LIT_LOC_STRIDE);
    CHECK_EQ_INT(lit_sc_outcomes(t, 1000, &o, &err), -2);
    CHECK_STR_CONTAINS(sb_cstr(&err), "no location");

    /* a malformed test (a register index out of range) is refused */
    sb_clear(&err);
    t->threads[1].code[1].dst = R(40);
    CHECK_EQ_INT(lit_sc_outcomes(t, 1000, &o, &err), -2);
    CHECK_STR_CONTAINS(sb_cstr(&err), "malformed");
    sb_free(&err);
    free(t);
}

static void test_state_bound(void)
{
    lit_test *t = mk("MP");
    int x = loc(t, "x", 0), y = loc(t, "y", 0);
    st(t, 0, L(x), I(1));
    st(t, 0, L(y), I(1));
    int r0 = r32(t, 1, "r0"), r1 = r32(t, 1, "r1");
    ld(t, 1, r0, L(y));
    ld(t, 1, r1, L(x));
    obs(t, 1, r0);
    obs(t, 1, r1);
    lit_outcomes o;
    strbuf err = STRBUF_INIT;
    CHECK_EQ_INT(lit_sc_outcomes(t, 3, &o, &err), -1);
    CHECK_STR_CONTAINS(sb_cstr(&err), "state space larger than 3 states");
    CHECK(o.n == 0 && o.vals == NULL);
    sb_clear(&err);
    CHECK_EQ_INT(lit_sc_outcomes(t, 0, &o, &err), 3); /* 0: no bound */
    lit_outcomes_free(&o);
    free(t);

    /* a counter loop whose states never repeat ends at the bound */
    t = mk("count-forever");
    int c = reg(t, 0, "c", LIT_U64);
    int top = label(t, 0, "L");
    alu(t, 0, LIT_ADD, LIT_U64, c, R(c), I(1));
    bra(t, 0, top);
    obs(t, 0, c);
    sb_clear(&err);
    CHECK_EQ_INT(lit_sc_outcomes(t, 5000, &o, &err), -1);
    CHECK_STR_CONTAINS(sb_cstr(&err), "state space larger than 5000 states");
    free(t);

    /* "L: bra L" repeats at once: no final state, no error */
    t = mk("bra-self");
    top = label(t, 0, "L");
    bra(t, 0, top);
    sb_clear(&err);
    CHECK_EQ_INT(lit_sc_outcomes(t, 10, &o, &err), 0);
    lit_outcomes_free(&o);
    free(t);
    sb_free(&err);
}

static void test_outcomes_has(void)
{
    int64_t v[6] = {0, 0, 0, 1, 1, 1};
    lit_outcomes o = {.n = 3, .cap = 3, .width = 2, .vals = v};
    int64_t q[][2] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}, {-1, 0}, {2, 0}, {0, 2}};
    CHECK(lit_outcomes_has(&o, q[0]));
    CHECK(lit_outcomes_has(&o, q[1]));
    CHECK(lit_outcomes_has(&o, q[2]));
    CHECK(!lit_outcomes_has(&o, q[3]));
    CHECK(!lit_outcomes_has(&o, q[4]));
    CHECK(!lit_outcomes_has(&o, q[5]));
    CHECK(!lit_outcomes_has(&o, q[6]));
    lit_outcomes empty = {0};
    CHECK(!lit_outcomes_has(&empty, q[0]));
    lit_outcomes w0 = {.n = 1, .width = 0};
    CHECK(lit_outcomes_has(&w0, NULL)); /* nothing observed: the one empty outcome */

    /* nothing observed: one empty outcome */
    lit_test *t = mk("none");
    int x = loc(t, "x", 0);
    st(t, 0, L(x), I(1));
    expect(t, 1, NULL, NULL);
}

/* Size and speed ------------------------------------------------------------ */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Eight threads in a store-buffering ring: thread i stores x_i and loads
 * x_{i+1}, stores y_i and loads y_{i+1}.  Each ring alone forbids only the
 * all-zero outcome; the two rings are tied by program order. */
static void test_eight_threads(void)
{
    lit_test *t = mk("SB8");
    int x[8], y[8], r0[8], r1[8];
    for (int i = 0; i < 8; i++) {
        char n[16];
        snprintf(n, sizeof n, "x%d", i);
        x[i] = loc(t, n, 0);
        snprintf(n, sizeof n, "y%d", i);
        y[i] = loc(t, n, 0);
    }
    for (int i = 0; i < 8; i++) {
        r0[i] = r32(t, i, "r0");
        r1[i] = r32(t, i, "r1");
        st(t, i, L(x[i]), I(1));
        ld(t, i, r0[i], L(x[(i + 1) % 8]));
        st(t, i, L(y[i]), I(1));
        ld(t, i, r1[i], L(y[(i + 1) % 8]));
        obs(t, i, r0[i]);
    }
    lit_outcomes o;
    strbuf err = STRBUF_INIT;
    double t0 = now();
    int n = lit_sc_outcomes(t, 10000000, &o, &err);
    double dt = now() - t0;
    CHECK_MSG(n == 255, "SB8: %d outcomes (%s)", n, sb_cstr(&err));
    int64_t zero[8] = {0};
    CHECK(n < 0 || !lit_outcomes_has(&o, zero));
    CHECK_MSG(dt < 2.0, "SB8 took %.3f s", dt);
    printf("SB8: %d outcomes in %.3f s\n", n, dt);
    lit_outcomes_free(&o);

    /* Four writers of x0..x3 and four readers: reader k reads all four,
     * starting at x_k.  Reader 4 seeing x0 but not x1 while reader 5 sees x1
     * but not x0 would need the writes in two orders at once. */
    lit_test *u = mk("IRIW8");
    int w[4];
    for (int i = 0; i < 4; i++) {
        char nm[4] = {'x', (char)('0' + i), 0};
        w[i] = loc(u, nm, 0);
    }
    for (int i = 0; i < 4; i++)
        st(u, i, L(w[i]), I(1));
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++) {
            char nm[4] = {'r', (char)('0' + k), 0};
            int r = r32(u, 4 + i, nm);
            ld(u, 4 + i, r, L(w[(k + i) % 4]));
            obs(u, 4 + i, r);
        }
    sb_clear(&err);
    t0 = now();
    n = lit_sc_outcomes(u, 10000000, &o, &err);
    dt = now() - t0;
    CHECK_MSG(n == 27955, "IRIW8: %d outcomes (%s)", n, sb_cstr(&err));
    static const int64_t none[16], all[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    static const int64_t bad[16] = {1, 0, 0, 0, 1, 0, 0, 0};
    CHECK(n < 0 || (lit_outcomes_has(&o, none) && lit_outcomes_has(&o, all)));
    CHECK(n < 0 || !lit_outcomes_has(&o, bad));
    CHECK_MSG(dt < 2.0, "IRIW8 took %.3f s", dt);
    printf("IRIW8: %d outcomes in %.3f s\n", n, dt);
    lit_outcomes_free(&o);
    sb_free(&err);
    free(t);
    free(u);
}

int main(void)
{
    RUN(test_mp);
    RUN(test_sb);
    RUN(test_lb);
    RUN(test_iriw);
    RUN(test_corr);
    RUN(test_2p2w);
    RUN(test_cas_lock);
    RUN(test_spin_loop);
    RUN(test_atomic_add);
    RUN(test_addr_dep);
    RUN(test_atomics);
    RUN(test_local_ops);
    RUN(test_bad_address);
    RUN(test_state_bound);
    RUN(test_outcomes_has);
    RUN(test_eight_threads);
    return test_summary();
}
