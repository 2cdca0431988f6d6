/*
 * kernel.c -- the harness kernel of a litmus test, as PTX text.
 *
 * Every hardware thread reads its role word (harness.h) and either runs one
 * litmus thread's code for one instance, stresses memory, or idles.  A
 * testing thread loads its instance's location addresses from the address
 * table, optionally meets the instance's other threads at a spin barrier
 * (sync incantation), runs the test's instructions (printed from lit_insn),
 * and stores the registers the final state observes.  With the bank
 * incantation, companion lanes run the same code with dummy addresses
 * chosen per memory instruction.  Shared locations are initialised and
 * recorded by one thread of the instance around CTA barriers.
 *
 * lit_kernel_body writes the statements only; lit_kernel_module wraps them
 * in an .entry for lockstep, and cuda.c wraps them in inline asm.
 */
#include <stdio.h>
#include <string.h>

#include "litmus/harness.h"
#include "litmus/place.h"

static const char *rtype_ptx(lit_rtype t)
{
    switch (t) {
    case LIT_S32: return "s32";
    case LIT_U32: return "u32";
    case LIT_B32: return "b32";
    case LIT_S64: return "s64";
    case LIT_U64: return "u64";
    case LIT_B64: return "b64";
    case LIT_PRED: return "pred";
    }
    return "b32";
}

static int rtype_bits(lit_rtype t)
{
    return t == LIT_S64 || t == LIT_U64 || t == LIT_B64 ? 64 : t == LIT_PRED ? 1 : 32;
}

static int rtype_signed(lit_rtype t)
{
    return t == LIT_S32 || t == LIT_S64;
}

/* Register declaration class. */
static const char *rdecl(lit_rtype t)
{
    int b = rtype_bits(t);
    return b == 64 ? ".b64" : b == 1 ? ".pred" : ".b32";
}

int lit_loc_used_by(const lit_test *t, int loc, int k)
{
    const lit_thread *th = &t->threads[k];
    for (int r = 0; r < th->nregs; r++)
        if (th->regs[r].init_loc == loc)
            return 1;
    for (int i = 0; i < th->ninsns; i++) {
        const lit_insn *in = &th->code[i];
        if ((in->addr.kind == LIT_O_LOC && in->addr.loc == loc) ||
            (in->dst.kind == LIT_O_LOC && in->dst.loc == loc) ||
            (in->src[0].kind == LIT_O_LOC && in->src[0].loc == loc) ||
            (in->src[1].kind == LIT_O_LOC && in->src[1].loc == loc))
            return 1;
    }
    return 0;
}

int lit_recorder(const lit_test *t, int loc)
{
    for (int k = 0; k < t->nthreads; k++)
        if (lit_loc_used_by(t, loc, k))
            return k;
    return -1;
}

int lit_has_backward_branch(const lit_test *t)
{
    for (int k = 0; k < t->nthreads; k++)
        for (int i = 0; i < t->threads[k].ninsns; i++)
            if (t->threads[k].code[i].op == LIT_BRA && t->threads[k].code[i].target <= i)
                return 1;
    return 0;
}

static int is_mem(const lit_insn *in)
{
    return in->op == LIT_LD || in->op == LIT_ST || in->op == LIT_ATOM || in->op == LIT_RED;
}

/* The region (shared or global) an address operand points into, when it is
 * known statically: a location operand, or a register initialised to a
 * location that the thread never writes.  Unknown: global. */
static int addr_shared(const lit_test *t, int k, const lit_operand *a)
{
    if (a->kind == LIT_O_LOC)
        return t->locs[a->loc].region == LIT_SHARED;
    if (a->kind != LIT_O_REG)
        return 0;
    const lit_thread *th = &t->threads[k];
    int loc = th->regs[a->reg].init_loc;
    if (loc < 0)
        return 0;
    for (int i = 0; i < th->ninsns; i++)
        if (th->code[i].dst.kind == LIT_O_REG && th->code[i].dst.reg == a->reg &&
            th->code[i].op != LIT_ST && th->code[i].op != LIT_RED)
            return 0;
    return t->locs[loc].region == LIT_SHARED;
}

/* Register names: %t<k>_<name>; locations' address registers %t<k>_L<l>. */
static void reg(strbuf *sb, int k, const lit_thread *th, int r)
{
    sb_printf(sb, "%%t%d_%s", k, th->regs[r].name);
}

/* A source operand of an instruction of `bits` width; immediates go
 * through the temporary %lit_i<n> (32-bit) or %lit_l<n> (64-bit), which
 * the caller materialised with materialise(). */
static void materialise(strbuf *sb, const lit_operand *o, int bits, int n, const char *pre)
{
    if (o->kind == LIT_O_IMM)
        sb_printf(sb, "%s mov.b%d %%lit_%c%d, %lld;\n", pre, bits, bits == 64 ? 'l' : 'i', n,
                  (long long)o->imm);
}

static void src(strbuf *sb, int k, const lit_thread *th, const lit_operand *o, int bits, int n)
{
    switch (o->kind) {
    case LIT_O_REG: reg(sb, k, th, o->reg); break;
    case LIT_O_LOC: sb_printf(sb, "%%t%d_L%d", k, o->loc); break;
    case LIT_O_IMM: sb_printf(sb, "%%lit_%c%d", bits == 64 ? 'l' : 'i', n); break;
    case LIT_O_NONE: sb_puts(sb, "0"); break;
    }
}

static const char *sem_name(lit_sem s)
{
    switch (s) {
    case LIT_SEM_NONE: return "";
    case LIT_SEM_RELAXED: return ".relaxed";
    case LIT_SEM_ACQUIRE: return ".acquire";
    case LIT_SEM_RELEASE: return ".release";
    case LIT_SEM_ACQ_REL: return ".acq_rel";
    case LIT_SEM_SC: return ".sc";
    }
    return "";
}

static const char *scope_name(lit_scope s, int membar)
{
    switch (s) {
    case LIT_SCOPE_NONE: return "";
    case LIT_SCOPE_CTA: return ".cta";
    case LIT_SCOPE_GPU: return membar ? ".gl" : ".gpu";
    case LIT_SCOPE_SYS: return ".sys";
    }
    return "";
}

static const char *cop_name(lit_cop c)
{
    static const char *const n[] = {"", ".ca", ".cg", ".cs", ".cv", ".lu", ".wb", ".wt", ".volatile"};
    return n[c];
}

static const char *aop_name(int a)
{
    static const char *const n[] = {"add", "exch", "cas", "inc", "dec", "and", "or", "xor", "min", "max"};
    return a >= 0 && a <= LIT_A_MAX ? n[a] : "add";
}

/* atom/red types: arithmetic ops want .s/.u, bitwise ones and exch/cas .b. */
static const char *atom_type(int a, lit_rtype t)
{
    int b = rtype_bits(t);
    if (a == LIT_A_ADD || a == LIT_A_INC || a == LIT_A_DEC || a == LIT_A_MIN || a == LIT_A_MAX) {
        if (t == LIT_B32)
            return "u32";
        if (t == LIT_B64)
            return "u64";
        return rtype_ptx(t);
    }
    return b == 64 ? "b64" : "b32";
}

static const char *alu_name(int a)
{
    static const char *const n[] = {"add", "sub", "mul.lo", "and", "or", "xor", "shl", "shr"};
    return a >= 0 && a <= LIT_SHR ? n[a] : "add";
}

static const char *cmp_name(int c)
{
    static const char *const n[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    return c >= 0 && c <= LIT_GE ? n[c] : "eq";
}

/* ALU types: and/or/xor/shl want .b, mul.lo/add/sub/shr keep s/u. */
static const char *alu_type(int a, lit_rtype t)
{
    int b = rtype_bits(t);
    if (a == LIT_AND || a == LIT_OR || a == LIT_XOR || a == LIT_SHL)
        return b == 64 ? "b64" : "b32";
    if (t == LIT_B32 || t == LIT_B64)
        return b == 64 ? "u64" : "u32"; /* shr of a bit type is logical */
    return rtype_ptx(t);
}

/* The bank incantation's dummy of thread k's memory instruction j (in),
 * computed before its test code (as the thesis's harness does, so that
 * the test's accesses follow each other as closely as without it): the
 * access type drawn for this iteration gives %lit_bc<j>, the dummy's base
 * in the scratch area of the location's region, %lit_bm<j>, the mask of
 * the testing address's bits it keeps, and %lit_bq<j>, whether this lane
 * takes the dummy.  Parallel: lane x the access's size (4 or 8 bytes: its
 * own banks, and aligned as the access must be); conflict:
 * lane x 128 bytes plus the testing address's offset in its 128 bytes
 * (every lane in the testing lane's bank, each in its own line); broadcast
 * (loads only): the testing address itself. */
static void dummy(strbuf *sb, const lit_test *t, int k, const lit_insn *in, int j)
{
    sb_printf(sb,
              "  ld.global.u32 %%lit_at, [%%lit_acc+%d];\n"
              "  setp.eq.u32 %%lit_q, %%lit_at, %d;\n"
              "  selp.b32 %%lit_u, 128, %d, %%lit_q;\n"
              "  selp.b64 %%lit_bm%d, 127, 0, %%lit_q;\n"
              "  mul.wide.u32 %%lit_bc%d, %%lit_lane, %%lit_u;\n"
              "  add.s64 %%lit_bc%d, %%lit_bc%d, %s;\n",
              (k * LIT_MAX_INSNS + j) * 4, LIT_ACC_CONFLICT, rtype_bits(in->type) > 32 ? 8 : 4,
              j, j, j, j,
              addr_shared(t, k, &in->addr) ? "%lit_dsh" : "%lit_dgl");
    if (in->op == LIT_LD)
        sb_printf(sb,
                  "  setp.ne.u32 %%lit_bq%d, %%lit_at, %d;\n"
                  "  and.pred %%lit_bq%d, %%lit_bq%d, %%lit_nt;\n",
                  j, LIT_ACC_BROADCAST, j, j);
    else
        sb_printf(sb, "  mov.pred %%lit_bq%d, %%lit_nt;\n", j);
}

/* Is the address of memory instruction `in` of thread k the same at every
 * step (a location, or a register no instruction of the thread writes)?
 * Then it is computed before the test code, into %lit_ba<j>. */
static int fixed_addr(const lit_test *t, int k, const lit_insn *in)
{
    const lit_thread *th = &t->threads[k];
    if (in->addr.kind != LIT_O_REG)
        return 1;
    for (int i = 0; i < th->ninsns; i++)
        if (th->code[i].dst.kind == LIT_O_REG && th->code[i].dst.reg == in->addr.reg)
            return 0;
    return 1;
}

/* The address of a memory instruction into %lit_ad (generic), with the
 * bank incantation's dummy (dummy) for companion lanes. */
static void address(strbuf *sb, const lit_test *t, int k, const lit_insn *in, int memidx,
                    const lit_shape *s, const char *ad)
{
    const lit_thread *th = &t->threads[k];
    sb_printf(sb, "  mov.b64 %s, ", ad);
    src(sb, k, th, &in->addr, 64, 0);
    sb_puts(sb, ";\n");
    if (in->addr.imm)
        sb_printf(sb, "  add.s64 %s, %s, %lld;\n", ad, ad, (long long)in->addr.imm);
    if (s->incant & LIT_INC_BANK)
        sb_printf(sb,
                  "  and.b64 %%lit_bo, %s, %%lit_bm%d;\n"
                  "  add.s64 %%lit_c, %%lit_bc%d, %%lit_bo;\n"
                  "  @%%lit_bq%d mov.b64 %s, %%lit_c;\n",
                  ad, memidx, memidx, memidx, ad);
    /* explicit state spaces take window addresses */
    if (in->space == LIT_SP_SHARED)
        sb_printf(sb, "  cvta.to.shared.u64 %s, %s;\n", ad, ad);
    else if (in->space == LIT_SP_GLOBAL)
        sb_printf(sb, "  cvta.to.global.u64 %s, %s;\n", ad, ad);
}

/* Before thread k's test code: its memory instructions' dummies (bank
 * incantation) and fixed addresses (fixed_addr), so that its accesses
 * follow each other with nothing in between: the thesis's harness
 * computes its addresses first too. */
static void addresses_first(strbuf *sb, const lit_test *t, int k, const lit_shape *s)
{
    const lit_thread *th = &t->threads[k];
    for (int step = 0; step < 2; step++) { /* the dummies, then the addresses */
        int j = 0;
        for (int i = 0; i < th->ninsns; i++) {
            const lit_insn *in = &th->code[i];
            if (!is_mem(in))
                continue;
            if (step == 0 && (s->incant & LIT_INC_BANK)) {
                dummy(sb, t, k, in, j);
            } else if (step == 1 && fixed_addr(t, k, in)) {
                char ad[24];
                snprintf(ad, sizeof ad, "%%lit_ba%d", j);
                address(sb, t, k, in, j, s, ad);
            }
            j++;
        }
    }
}

static void guard(strbuf *sb, int k, const lit_thread *th, const lit_insn *in)
{
    if (in->guard < 0) {
        sb_puts(sb, "  ");
        return;
    }
    sb_printf(sb, "  @%s", in->guard_neg ? "!" : "");
    reg(sb, k, th, in->guard);
    sb_puts(sb, " ");
}

static const char *space_name(lit_space s)
{
    return s == LIT_SP_SHARED ? ".shared" : s == LIT_SP_GLOBAL ? ".global" : "";
}

/* Memory-instruction qualifiers in PTX order. */
static void mem_quals(strbuf *sb, const lit_insn *in)
{
    if (in->cop == LIT_COP_VOLATILE)
        sb_puts(sb, ".volatile");
    else if (in->sem != LIT_SEM_NONE)
        sb_printf(sb, "%s%s", sem_name(in->sem), scope_name(in->scope, 0));
    sb_puts(sb, space_name(in->space));
    if (in->cop != LIT_COP_VOLATILE && in->op != LIT_ATOM && in->op != LIT_RED)
        sb_puts(sb, cop_name(in->cop));
}

/* "dst, src0, src1;" of an ALU or setp: src0 materialised if immediate,
 * src1 written inline if immediate (PTX allows it there). */
static void operands3(strbuf *sb, int k, const lit_thread *th, const lit_insn *in, int bits,
                      int bits1)
{
    reg(sb, k, th, in->dst.reg);
    sb_puts(sb, ", ");
    src(sb, k, th, &in->src[0], bits, 0);
    sb_puts(sb, ", ");
    if (in->src[1].kind == LIT_O_IMM)
        sb_printf(sb, "%lld", (long long)in->src[1].imm);
    else
        src(sb, k, th, &in->src[1], bits1, 1);
    sb_puts(sb, ";\n");
}

static void emit_insn(strbuf *sb, const lit_test *t, int k, int i, int memidx, const lit_shape *s)
{
    const lit_thread *th = &t->threads[k];
    const lit_insn *in = &th->code[i];
    int bits = rtype_bits(in->type);
    switch (in->op) {
    case LIT_LABEL:
        sb_printf(sb, "LIT_T%d_%s:\n", k, in->label);
        return;
    case LIT_BRA:
        guard(sb, k, th, in);
        sb_printf(sb, "bra LIT_T%d_%s;\n", k, in->label);
        return;
    case LIT_FENCE:
        guard(sb, k, th, in);
        if (in->membar)
            sb_printf(sb, "membar%s;\n", scope_name(in->scope, 1));
        else
            sb_printf(sb, "fence%s%s;\n", sem_name(in->sem), scope_name(in->scope, 0));
        return;
    case LIT_MOV:
        guard(sb, k, th, in);
        sb_printf(sb, "mov.%s ", bits == 1 ? "pred" : bits == 64 ? "b64" : "b32");
        reg(sb, k, th, in->dst.reg);
        sb_puts(sb, ", ");
        if (in->src[0].kind == LIT_O_IMM)
            sb_printf(sb, "%lld", (long long)in->src[0].imm);
        else
            src(sb, k, th, &in->src[0], bits, 0);
        sb_puts(sb, ";\n");
        return;
    case LIT_ALU:
        materialise(sb, &in->src[0], bits, 0, " ");
        guard(sb, k, th, in);
        sb_printf(sb, "%s.%s ", alu_name(in->sub), alu_type(in->sub, in->type));
        operands3(sb, k, th, in, bits, in->sub == LIT_SHL || in->sub == LIT_SHR ? 32 : bits);
        return;
    case LIT_SETP:
        materialise(sb, &in->src[0], bits, 0, " ");
        guard(sb, k, th, in);
        sb_printf(sb, "setp.%s.%s ", cmp_name(in->sub),
                  in->type == LIT_B32 ? "u32" : in->type == LIT_B64 ? "u64" : rtype_ptx(in->type));
        operands3(sb, k, th, in, bits, bits);
        return;
    case LIT_LD:
    case LIT_ST:
    case LIT_ATOM:
    case LIT_RED:
        break;
    }
    char ad[24] = "%lit_ad";
    if (fixed_addr(t, k, in))
        snprintf(ad, sizeof ad, "%%lit_ba%d", memidx);
    else
        address(sb, t, k, in, memidx, s, ad);
    materialise(sb, &in->src[0], bits, 0, " ");
    materialise(sb, &in->src[1], bits, 1, " ");
    guard(sb, k, th, in);
    switch (in->op) {
    case LIT_LD:
        sb_puts(sb, "ld");
        mem_quals(sb, in);
        sb_printf(sb, ".%s ", rtype_ptx(in->type));
        reg(sb, k, th, in->dst.reg);
        sb_printf(sb, ", [%s];\n", ad);
        break;
    case LIT_ST:
        sb_puts(sb, "st");
        mem_quals(sb, in);
        sb_printf(sb, ".%s [%s], ", rtype_ptx(in->type), ad);
        src(sb, k, th, &in->src[0], bits, 0);
        sb_puts(sb, ";\n");
        break;
    case LIT_ATOM:
    case LIT_RED:
        sb_puts(sb, in->op == LIT_ATOM ? "atom" : "red");
        mem_quals(sb, in);
        sb_printf(sb, ".%s.%s ", aop_name(in->sub), atom_type(in->sub, in->type));
        if (in->op == LIT_ATOM) {
            reg(sb, k, th, in->dst.reg);
            sb_puts(sb, ", ");
        }
        sb_printf(sb, "[%s], ", ad);
        src(sb, k, th, &in->src[0], bits, 0);
        if (in->sub == LIT_A_CAS) {
            sb_puts(sb, ", ");
            src(sb, k, th, &in->src[1], bits, 1);
        }
        sb_puts(sb, ";\n");
        break;
    default:
        break;
    }
}

/* Index of observed item i among the result slots: every item has one. */
static void record(strbuf *sb, const lit_test *t, int k)
{
    const lit_thread *th = &t->threads[k];
    for (int i = 0; i < t->nobserved; i++) {
        if (t->observed[i].thread != k)
            continue;
        int r = t->observed[i].index;
        lit_rtype ty = th->regs[r].type;
        if (ty == LIT_PRED) {
            sb_puts(sb, "  selp.b64 %lit_c, 1, 0, ");
            reg(sb, k, th, r);
            sb_puts(sb, ";\n");
        } else if (rtype_bits(ty) == 32) {
            sb_printf(sb, "  cvt.%s64.%s32 %%lit_c, ", rtype_signed(ty) ? "s" : "u",
                      rtype_signed(ty) ? "s" : "u");
            reg(sb, k, th, r);
            sb_puts(sb, ";\n");
        } else {
            sb_puts(sb, "  mov.b64 %lit_c, ");
            reg(sb, k, th, r);
            sb_puts(sb, ";\n");
        }
        sb_printf(sb, "  @%%lit_test st.global.u64 [%%lit_res+%d], %%lit_c;\n", i * 8);
    }
}

static int has_shared(const lit_test *t)
{
    for (int l = 0; l < t->nlocs; l++)
        if (t->locs[l].region == LIT_SHARED)
            return 1;
    return 0;
}

/* %lit_c = this instance's address of location l (generic). */
static void load_loc(strbuf *sb, const lit_test *t, int l)
{
    sb_printf(sb, "  ld.global.u64 %%lit_c, [%%lit_tab+%d];\n", l * 8);
    if (t->locs[l].region == LIT_SHARED)
        sb_puts(sb, "  add.s64 %lit_c, %lit_c, %lit_smem;\n");
}

int lit_kernel_body(const lit_test *t, const lit_shape *s, strbuf *sb, strbuf *err)
{
    (void)err;
    int shared = has_shared(t);
    sb_puts(sb,
            "{\n"
            "  .reg .b32 %lit_tid, %lit_ctaid, %lit_ntid, %lit_gid, %lit_role, %lit_k, %lit_inst,"
            " %lit_lane, %lit_u, %lit_v, %lit_at, %lit_gw, %lit_i0, %lit_i1;\n"
            "  .reg .b64 %lit_a, %lit_c, %lit_ad, %lit_tab, %lit_res, %lit_dgl, %lit_dsh,"
            " %lit_l0, %lit_l1, %lit_bo;\n"
            "  .reg .pred %lit_p, %lit_q, %lit_test, %lit_nt;\n");
    int most = 1; /* memory instructions of the longest thread */
    for (int k = 0; k < t->nthreads; k++) {
        int n = 0;
        for (int i = 0; i < t->threads[k].ninsns; i++)
            n += is_mem(&t->threads[k].code[i]);
        if (n > most)
            most = n;
    }
    sb_printf(sb, "  .reg .b64 %%lit_ba<%d>;\n", most);
    if (s->incant & LIT_INC_BANK)
        sb_printf(sb, "  .reg .b64 %%lit_bc<%d>, %%lit_bm<%d>;\n  .reg .pred %%lit_bq<%d>;\n",
                  most, most, most);
    for (int k = 0; k < t->nthreads; k++) {
        const lit_thread *th = &t->threads[k];
        for (int r = 0; r < th->nregs; r++) {
            sb_printf(sb, "  .reg %s ", rdecl(th->regs[r].type));
            reg(sb, k, th, r);
            sb_puts(sb, ";\n");
        }
        for (int l = 0; l < t->nlocs; l++)
            if (lit_loc_used_by(t, l, k))
                sb_printf(sb, "  .reg .b64 %%t%d_L%d;\n", k, l);
    }
    sb_printf(sb,
              "  mov.u32 %%lit_tid, %%tid.x;\n"
              "  mov.u32 %%lit_ctaid, %%ctaid.x;\n"
              "  mov.u32 %%lit_ntid, %%ntid.x;\n"
              "  mad.lo.u32 %%lit_gid, %%lit_ctaid, %%lit_ntid, %%lit_tid;\n"
              "  and.b32 %%lit_lane, %%lit_tid, 31;\n"
              "  shr.u32 %%lit_gw, %%lit_gid, 5;\n"
              "  mul.wide.u32 %%lit_a, %%lit_gid, 4;\n"
              "  add.s64 %%lit_a, %%lit_roles, %%lit_a;\n"
              "  ld.global.u32 %%lit_role, [%%lit_a];\n"
              "  and.b32 %%lit_k, %%lit_role, 15;\n"
              "  shr.u32 %%lit_inst, %%lit_role, 8;\n"
              "  and.b32 %%lit_u, %%lit_role, %u;\n"
              "  setp.ne.u32 %%lit_test, %%lit_u, 0;\n"
              "  not.pred %%lit_nt, %%lit_test;\n"
              "  mul.wide.u32 %%lit_a, %%lit_inst, %d;\n"
              "  add.s64 %%lit_tab, %%lit_addrs, %%lit_a;\n"
              "  mul.wide.u32 %%lit_a, %%lit_inst, %d;\n"
              "  add.s64 %%lit_res, %%lit_results, %%lit_a;\n"
              "  mov.b64 %%lit_dgl, %%lit_scratch;\n"
              "  add.s64 %%lit_dsh, %%lit_smem, %u;\n",
              LIT_ROLE_TEST, t->nlocs * 8, (t->nobserved ? t->nobserved : 1) * 8, s->smem_dummy);
    if (shared) {
        /* the recorder of each shared location initialises it */
        for (int l = 0; l < t->nlocs; l++) {
            int rec = lit_recorder(t, l);
            if (t->locs[l].region != LIT_SHARED || rec < 0)
                continue;
            sb_printf(sb,
                      "  setp.eq.u32 %%lit_p, %%lit_k, %d;\n"
                      "  and.pred %%lit_p, %%lit_p, %%lit_test;\n"
                      "  @!%%lit_p bra LIT_I%d;\n",
                      rec, l);
            load_loc(sb, t, l);
            sb_printf(sb, "  st.u%d [%%lit_c], %lld;\nLIT_I%d:\n",
                      rtype_bits(t->locs[l].type) == 64 ? 64 : 32, (long long)t->locs[l].init, l);
        }
        sb_puts(sb, "  bar.sync 0;\n");
    }
    for (int k = 0; k < t->nthreads; k++)
        sb_printf(sb, "  setp.eq.u32 %%lit_p, %%lit_k, %d;\n  @%%lit_p bra LIT_T%d;\n", k, k);
    sb_puts(sb, "  bra LIT_REST;\n");
    for (int k = 0; k < t->nthreads; k++) {
        const lit_thread *th = &t->threads[k];
        sb_printf(sb, "LIT_T%d:\n", k);
        for (int l = 0; l < t->nlocs; l++)
            if (lit_loc_used_by(t, l, k)) {
                load_loc(sb, t, l);
                sb_printf(sb, "  mov.b64 %%t%d_L%d, %%lit_c;\n", k, l);
            }
        for (int r = 0; r < th->nregs; r++) {
            const lit_reg *rg = &th->regs[r];
            sb_puts(sb, "  mov.");
            if (rg->type == LIT_PRED) {
                sb_puts(sb, "pred ");
                reg(sb, k, th, r);
                sb_printf(sb, ", %d;\n", rg->init != 0);
            } else if (rg->init_loc >= 0) {
                sb_printf(sb, "b%d ", rtype_bits(rg->type));
                reg(sb, k, th, r);
                if (rtype_bits(rg->type) == 64)
                    sb_printf(sb, ", %%t%d_L%d;\n", k, rg->init_loc);
                else
                    sb_puts(sb, ", 0;\n"); /* a 32-bit register cannot hold an address */
            } else {
                sb_printf(sb, "b%d ", rtype_bits(rg->type));
                reg(sb, k, th, r);
                sb_printf(sb, ", %lld;\n", (long long)rg->init);
            }
        }
        addresses_first(sb, t, k, s);
        if (s->incant & LIT_INC_SYNC) {
            /* the instance's testing threads meet: count in, spin until all are in */
            sb_printf(sb,
                      "  mul.wide.u32 %%lit_a, %%lit_inst, 4;\n"
                      "  add.s64 %%lit_a, %%lit_sync, %%lit_a;\n"
                      "  @%%lit_test atom.global.add.u32 %%lit_u, [%%lit_a], 1;\n"
                      "LIT_S%d:\n"
                      "  mov.u32 %%lit_u, %d;\n"
                      "  @%%lit_test ld.volatile.global.u32 %%lit_u, [%%lit_a];\n"
                      "  setp.lt.u32 %%lit_p, %%lit_u, %d;\n"
                      "  @%%lit_p bra LIT_S%d;\n",
                      k, t->nthreads, t->nthreads, k);
        }
        int memidx = 0;
        for (int i = 0; i < th->ninsns; i++) {
            if (s->src_lines && th->code[i].line > 0)
                sb_printf(sb, "  .loc 1 %d %d\n", th->code[i].line, th->code[i].col > 0 ? th->code[i].col : 0);
            emit_insn(sb, t, k, i, memidx, s);
            if (is_mem(&th->code[i]))
                memidx++;
        }
        if (s->src_lines) /* what follows is the harness's, not the test's */
            sb_puts(sb, "  .loc 1 0 0\n");
        record(sb, t, k);
        sb_puts(sb, "  bra LIT_END;\n");
    }
    sb_puts(sb, "LIT_REST:\n");
    if (s->incant & LIT_INC_STRESS) {
        /* stress warps: even global warps store, odd ones load; every lane
         * walks its own scratch line, so one instruction is 32 requests
         * spread over the partitions, and a scratch area larger than the L2
         * keeps them missing */
        sb_printf(sb,
                  "  and.b32 %%lit_u, %%lit_role, %u;\n"
                  "  setp.eq.u32 %%lit_p, %%lit_u, 0;\n"
                  "  @%%lit_p bra LIT_END;\n"
                  "  mov.u32 %%lit_v, 0;\n"
                  "  ld.global.u32 %%lit_at, [%%lit_acc+%d];\n"
                  "  and.b32 %%lit_i1, %%lit_gw, 1;\n"
                  "  setp.eq.u32 %%lit_q, %%lit_i1, 0;\n"
                  "LIT_STRESS:\n"
                  "  mul.lo.u32 %%lit_u, %%lit_v, 31;\n"
                  "  mad.lo.u32 %%lit_u, %%lit_gw, 7, %%lit_u;\n"
                  "  mad.lo.u32 %%lit_u, %%lit_lane, 97, %%lit_u;\n"
                  "  rem.u32 %%lit_u, %%lit_u, %u;\n"
                  "  mad.lo.u32 %%lit_u, %%lit_u, %u, %%lit_at;\n"
                  "  cvt.u64.u32 %%lit_a, %%lit_u;\n"
                  "  add.s64 %%lit_a, %%lit_a, %%lit_scratch;\n"
                  "  add.s64 %%lit_a, %%lit_a, 4096;\n"
                  "  @%%lit_q st.global.cg.u32 [%%lit_a], %%lit_gw;\n"
                  "  @!%%lit_q ld.global.cg.u32 %%lit_i0, [%%lit_a];\n"
                  "  add.u32 %%lit_v, %%lit_v, 1;\n"
                  "  setp.lt.u32 %%lit_p, %%lit_v, %u;\n"
                  "  @%%lit_p bra LIT_STRESS;\n",
                  LIT_ROLE_STRESS, LP_ACC_STRESS * 4, s->stress_lines ? s->stress_lines : 1,
                  s->stress_stride ? s->stress_stride : 128, s->stress_iters);
    }
    sb_puts(sb, "LIT_END:\n");
    if (shared) {
        sb_puts(sb, "  bar.sync 0;\n");
        for (int i = 0; i < t->nobserved; i++) {
            int l = t->observed[i].index;
            if (t->observed[i].thread >= 0 || t->locs[l].region != LIT_SHARED)
                continue;
            int rec = lit_recorder(t, l);
            if (rec < 0)
                continue;
            int b = rtype_bits(t->locs[l].type) == 64 ? 64 : 32;
            sb_printf(sb,
                      "  setp.eq.u32 %%lit_p, %%lit_k, %d;\n"
                      "  and.pred %%lit_p, %%lit_p, %%lit_test;\n"
                      "  @!%%lit_p bra LIT_R%d;\n",
                      rec, i);
            load_loc(sb, t, l);
            if (b == 64)
                sb_puts(sb, "  ld.volatile.u64 %lit_c, [%lit_c];\n");
            else
                sb_printf(sb, "  ld.volatile.u32 %%lit_u, [%%lit_c];\n  cvt.%s64.%s32 %%lit_c, %%lit_u;\n",
                          rtype_signed(t->locs[l].type) ? "s" : "u",
                          rtype_signed(t->locs[l].type) ? "s" : "u");
            sb_printf(sb, "  st.global.u64 [%%lit_res+%d], %%lit_c;\nLIT_R%d:\n", i * 8, i);
        }
    }
    sb_puts(sb, "}\n");
    return sb->oom ? -1 : 0;
}

int lit_kernel_module(const lit_test *t, const lit_shape *s, strbuf *out, strbuf *err)
{
    sb_puts(out,
            "// lockstep litmus harness kernel (generated)\n"
            ".version 7.0\n.target sm_70\n.address_size 64\n\n");
    if (s->src_lines) { /* the test's file, named as a PTX string */
        const char *f = t->filename[0] ? t->filename : t->name;
        sb_puts(out, ".file 1 \"");
        for (; *f; f++)
            sb_putc(out, *f == '"' || *f == '\\' || (unsigned char)*f < 0x20 ? '?' : *f);
        sb_puts(out, "\"\n\n");
    }
    sb_puts(out, ".visible .entry litmus_test(");
    int first = 1;
#define LIT_PARAM_DECL(n)                                                                          \
    sb_printf(out, "%s\n    .param .u64 p_" #n, first ? "" : ",");                               \
    first = 0;
    LIT_KPARAMS(LIT_PARAM_DECL)
#undef LIT_PARAM_DECL
    sb_printf(out, ")\n{\n  .shared .align 16 .b8 lit_sh[%u];\n", s->smem_bytes ? s->smem_bytes : 16);
    sb_puts(out, "  .reg .b64 %lit_smem");
#define LIT_PARAM_REG(n) sb_puts(out, ", %lit_" #n);
    LIT_KPARAMS(LIT_PARAM_REG)
#undef LIT_PARAM_REG
    sb_puts(out, ";\n  mov.u64 %lit_smem, lit_sh;\n  cvta.shared.u64 %lit_smem, %lit_smem;\n");
#define LIT_PARAM_LD(n) sb_puts(out, "  ld.param.u64 %lit_" #n ", [p_" #n "];\n");
    LIT_KPARAMS(LIT_PARAM_LD)
#undef LIT_PARAM_LD
    if (lit_kernel_body(t, s, out, err))
        return -1;
    sb_puts(out, "  ret;\n}\n");
    return out->oom ? -1 : 0;
}
