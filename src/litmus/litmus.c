/*
 * litmus.c -- what every user of a parsed lit_test needs besides the parser:
 * printing it back in its own format (lit_print), naming final-state items,
 * evaluating the condition on a final state, normalising values to a type's
 * width, and the type inference the parser and the printer share.
 *
 * The printer's contract is parse(print(t)) == t (except positions and the
 * file name).  Two things make that hold without extra fields in lit_test:
 *   - every location and register is written in the initial state, in index
 *     order, so the reparse creates them with the same indices;
 *   - a type is written only where inference would not find it again
 *     (lit_reg_infer_type, lit_loc_access_type): the thesis format always
 *     declares registers (".reg .s32 r0"), the others only when needed.
 * The "locations [...]" clause is the shortest prefix of observed[] that,
 * followed by the condition's items, gives observed[] back.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "litmus/litmus.h"

/* Names ------------------------------------------------------------------ */

static const char *const type_names[] = {".s32", ".u32", ".b32", ".s64", ".u64", ".b64", ".pred"};
static const char *const alu_names[] = {"add", "sub", "mul.lo", "and", "or", "xor", "shl", "shr"};
static const char *const aop_names[] = {".add", ".exch", ".cas", ".inc", ".dec",
                                        ".and", ".or",   ".xor", ".min", ".max"};
static const char *const cmp_names[] = {".eq", ".ne", ".lt", ".le", ".gt", ".ge"};
static const char *const space_names[] = {"", ".global", ".shared"};
static const char *const cop_names[] = {"", ".ca", ".cg", ".cs", ".cv", ".lu", ".wb", ".wt", ".volatile"};
static const char *const sem_names[] = {"", ".relaxed", ".acquire", ".release", ".acq_rel", ".sc"};
static const char *const scope_names[] = {"", ".cta", ".gpu", ".sys"};

#define NAME_OF(tab, i) ((unsigned)(i) < sizeof(tab) / sizeof((tab)[0]) ? (tab)[i] : "?")

/* Values ------------------------------------------------------------------ */

int64_t lit_norm(lit_rtype type, int64_t v)
{
    switch (type) {
    case LIT_S32: return (int64_t)(int32_t)(uint32_t)(uint64_t)v;
    case LIT_U32:
    case LIT_B32: return (int64_t)(uint32_t)(uint64_t)v;
    case LIT_PRED: return v != 0;
    case LIT_S64:
    case LIT_U64:
    case LIT_B64:
    default: return v;
    }
}

/* The type of a final-state item (its register's or location's). */
lit_rtype lit_item_type(const lit_test *t, lit_item it)
{
    if (it.thread >= 0) {
        if (it.thread < t->nthreads && it.index >= 0 && it.index < t->threads[it.thread].nregs)
            return t->threads[it.thread].regs[it.index].type;
        return LIT_B64;
    }
    if (it.index >= 0 && it.index < t->nlocs)
        return t->locs[it.index].type;
    return LIT_B64;
}

static int observed_index(const lit_test *t, lit_item it)
{
    for (int i = 0; i < t->nobserved && i < LIT_MAX_OBSERVED; i++)
        if (t->observed[i].thread == it.thread && t->observed[i].index == it.index)
            return i;
    return -1;
}

/* Evaluate expression e; depth bounds the recursion even on a hand-made
 * test whose expression indices form a cycle. */
static int eval(const lit_test *t, int e, const int64_t *vals, int depth)
{
    if (e < 0 || e >= t->nexprs || e >= LIT_MAX_EXPRS || depth > LIT_MAX_EXPRS)
        return 0;
    const lit_expr *x = &t->exprs[e];
    switch (x->kind) {
    case LIT_E_TRUE: return 1;
    case LIT_E_FALSE: return 0;
    case LIT_E_EQ: {
        int i = observed_index(t, x->item);
        if (i < 0)
            return 0;
        lit_rtype ty = lit_item_type(t, x->item);
        return lit_norm(ty, vals[i]) == lit_norm(ty, x->value);
    }
    case LIT_E_NOT: return !eval(t, x->a, vals, depth + 1);
    case LIT_E_AND: return eval(t, x->a, vals, depth + 1) && eval(t, x->b, vals, depth + 1);
    case LIT_E_OR: return eval(t, x->a, vals, depth + 1) || eval(t, x->b, vals, depth + 1);
    }
    return 0;
}

int lit_cond_eval(const lit_test *t, const int64_t *vals)
{
    return eval(t, t->cond, vals, 0);
}

/* Type inference ---------------------------------------------------------- */

static int is_reg(const lit_operand *o, int r) { return o->kind == LIT_O_REG && o->reg == r; }

lit_rtype lit_reg_infer_type(const lit_thread *th, int r)
{
    int n = th->ninsns < LIT_MAX_INSNS ? th->ninsns : LIT_MAX_INSNS;
    /* the first write */
    for (int i = 0; i < n; i++) {
        const lit_insn *in = &th->code[i];
        if (!is_reg(&in->dst, r))
            continue;
        switch (in->op) {
        case LIT_SETP: return LIT_PRED;
        case LIT_LD:
        case LIT_ATOM:
        case LIT_MOV:
        case LIT_ALU: return in->type;
        default: break;
        }
    }
    /* else the first read, in the order the operands are written */
    for (int i = 0; i < n; i++) {
        const lit_insn *in = &th->code[i];
        if (in->guard == r)
            return LIT_PRED;
        if (is_reg(&in->addr, r))
            return LIT_B64;
        if (is_reg(&in->src[0], r))
            return in->type;
        if (is_reg(&in->src[1], r)) {
            if (in->op == LIT_ALU && (in->sub == LIT_SHL || in->sub == LIT_SHR))
                return LIT_U32; /* a shift amount is .u32 */
            return in->type;
        }
    }
    if (r >= 0 && r < th->nregs && th->regs[r].init_loc >= 0)
        return LIT_B64;
    return LIT_S32;
}

int lit_loc_access_type(const lit_test *t, int k, lit_rtype *type)
{
    for (int ti = 0; ti < t->nthreads && ti < LIT_MAX_THREADS; ti++) {
        const lit_thread *th = &t->threads[ti];
        for (int i = 0; i < th->ninsns && i < LIT_MAX_INSNS; i++) {
            const lit_insn *in = &th->code[i];
            if (in->op != LIT_LD && in->op != LIT_ST && in->op != LIT_ATOM && in->op != LIT_RED)
                continue;
            if (in->addr.imm != 0)
                continue;
            int hit = 0;
            if (in->addr.kind == LIT_O_LOC)
                hit = in->addr.loc == k;
            else if (in->addr.kind == LIT_O_REG && in->addr.reg >= 0 && in->addr.reg < th->nregs)
                hit = th->regs[in->addr.reg].init_loc == k;
            if (hit) {
                *type = in->type;
                return 1;
            }
        }
    }
    return 0;
}

/* Printing ---------------------------------------------------------------- */

static const char *reg_name(const lit_thread *th, int r)
{
    return r >= 0 && r < th->nregs ? th->regs[r].name : "?";
}

static const char *loc_name(const lit_test *t, int k)
{
    return k >= 0 && k < t->nlocs ? t->locs[k].name : "?";
}

void lit_item_name(strbuf *sb, const lit_test *t, lit_item it)
{
    if (it.thread >= 0 && it.thread < t->nthreads && it.thread < LIT_MAX_THREADS)
        sb_printf(sb, "%d:%s", it.thread, reg_name(&t->threads[it.thread], it.index));
    else if (it.thread >= 0)
        sb_printf(sb, "%d:?", it.thread);
    else
        sb_puts(sb, loc_name(t, it.index));
}

static void print_operand(strbuf *sb, const lit_test *t, const lit_thread *th, const lit_operand *o)
{
    switch (o->kind) {
    case LIT_O_REG: sb_puts(sb, reg_name(th, o->reg)); break;
    case LIT_O_LOC: sb_puts(sb, loc_name(t, o->loc)); break;
    case LIT_O_IMM: sb_printf(sb, "%" PRId64, o->imm); break;
    case LIT_O_NONE: sb_puts(sb, "?"); break;
    }
}

static void print_addr(strbuf *sb, const lit_test *t, const lit_thread *th, const lit_operand *o)
{
    sb_putc(sb, '[');
    if (o->kind == LIT_O_REG)
        sb_puts(sb, reg_name(th, o->reg));
    else
        sb_puts(sb, loc_name(t, o->loc));
    if (o->imm > 0)
        sb_printf(sb, "+%" PRId64, o->imm);
    else if (o->imm < 0)
        sb_printf(sb, "-%" PRIu64, (uint64_t)0 - (uint64_t)o->imm);
    sb_putc(sb, ']');
}

/* One instruction as PTX text, qualifiers in PTX order. */
static void print_insn(strbuf *sb, const lit_test *t, const lit_thread *th, const lit_insn *in)
{
    if (in->op == LIT_LABEL) {
        sb_printf(sb, "%s:", in->label);
        return;
    }
    if (in->guard >= 0)
        sb_printf(sb, "@%s%s ", in->guard_neg ? "!" : "", reg_name(th, in->guard));
    const char *ty = NAME_OF(type_names, in->type);
    switch (in->op) {
    case LIT_LD:
    case LIT_ST:
        sb_puts(sb, in->op == LIT_LD ? "ld" : "st");
        if (in->cop == LIT_COP_VOLATILE)
            sb_puts(sb, ".volatile");
        sb_puts(sb, NAME_OF(sem_names, in->sem));
        sb_puts(sb, NAME_OF(scope_names, in->scope));
        sb_puts(sb, NAME_OF(space_names, in->space));
        if (in->cop != LIT_COP_VOLATILE)
            sb_puts(sb, NAME_OF(cop_names, in->cop));
        sb_printf(sb, "%s ", ty);
        if (in->op == LIT_LD) {
            print_operand(sb, t, th, &in->dst);
            sb_puts(sb, ",");
            print_addr(sb, t, th, &in->addr);
        } else {
            print_addr(sb, t, th, &in->addr);
            sb_puts(sb, ",");
            print_operand(sb, t, th, &in->src[0]);
        }
        break;
    case LIT_ATOM:
    case LIT_RED:
        sb_puts(sb, in->op == LIT_ATOM ? "atom" : "red");
        sb_puts(sb, NAME_OF(sem_names, in->sem));
        sb_puts(sb, NAME_OF(scope_names, in->scope));
        sb_puts(sb, NAME_OF(space_names, in->space));
        sb_printf(sb, "%s%s ", NAME_OF(aop_names, in->sub), ty);
        if (in->op == LIT_ATOM) {
            print_operand(sb, t, th, &in->dst);
            sb_puts(sb, ",");
        }
        print_addr(sb, t, th, &in->addr);
        sb_puts(sb, ",");
        print_operand(sb, t, th, &in->src[0]);
        if (in->op == LIT_ATOM && in->sub == LIT_A_CAS) {
            sb_puts(sb, ",");
            print_operand(sb, t, th, &in->src[1]);
        }
        break;
    case LIT_FENCE:
        if (in->membar)
            sb_printf(sb, "membar%s",
                      in->scope == LIT_SCOPE_GPU ? ".gl" : NAME_OF(scope_names, in->scope));
        else
            sb_printf(sb, "fence%s%s", NAME_OF(sem_names, in->sem), NAME_OF(scope_names, in->scope));
        break;
    case LIT_MOV:
        sb_printf(sb, "mov%s ", ty);
        print_operand(sb, t, th, &in->dst);
        sb_puts(sb, ",");
        print_operand(sb, t, th, &in->src[0]);
        break;
    case LIT_ALU:
    case LIT_SETP:
        if (in->op == LIT_ALU)
            sb_printf(sb, "%s%s ", NAME_OF(alu_names, in->sub), ty);
        else
            sb_printf(sb, "setp%s%s ", NAME_OF(cmp_names, in->sub), ty);
        print_operand(sb, t, th, &in->dst);
        sb_puts(sb, ",");
        print_operand(sb, t, th, &in->src[0]);
        sb_puts(sb, ",");
        print_operand(sb, t, th, &in->src[1]);
        break;
    case LIT_BRA: sb_printf(sb, "bra %s", in->label); break;
    case LIT_LABEL: break;
    }
}

/* A location's type as a declaration keyword (the parser reads these). */
static const char *loc_type_word(lit_rtype ty)
{
    switch (ty) {
    case LIT_S32: return "int";
    case LIT_U32: return "uint32_t";
    case LIT_S64: return "int64_t";
    case LIT_U64: return "uint64_t";
    case LIT_B32: return ".b32";
    case LIT_B64: return ".b64";
    default: return "int";
    }
}

static void print_init(strbuf *sb, const lit_test *t)
{
    sb_puts(sb, "{\n");
    for (int k = 0; k < t->nlocs && k < LIT_MAX_LOCS; k++) {
        const lit_loc *l = &t->locs[k];
        lit_rtype inferred = LIT_S32;
        lit_loc_access_type(t, k, &inferred);
        if (l->type != inferred)
            sb_printf(sb, "%s %s = %" PRId64 ";\n", loc_type_word(l->type), l->name, l->init);
        else
            sb_printf(sb, "%s=%" PRId64 ";\n", l->name, l->init);
    }
    for (int ti = 0; ti < t->nthreads && ti < LIT_MAX_THREADS; ti++) {
        const lit_thread *th = &t->threads[ti];
        for (int r = 0; r < th->nregs && r < LIT_MAX_REGS; r++) {
            const lit_reg *g = &th->regs[r];
            char prefix[16];
            if (t->format == LIT_FMT_PTXMM)
                snprintf(prefix, sizeof prefix, "P%d:", ti);
            else
                snprintf(prefix, sizeof prefix, "%d:", ti);
            int typed = t->format == LIT_FMT_THESIS || g->type != lit_reg_infer_type(th, r);
            if (typed) {
                sb_printf(sb, "%s.reg %s %s", prefix, NAME_OF(type_names, g->type), g->name);
                if (g->init_loc >= 0)
                    sb_printf(sb, " = %s", loc_name(t, g->init_loc));
                else if (g->init != 0)
                    sb_printf(sb, " = %" PRId64, g->init);
            } else {
                sb_printf(sb, "%s%s=", prefix, g->name);
                if (g->init_loc >= 0)
                    sb_puts(sb, loc_name(t, g->init_loc));
                else
                    sb_printf(sb, "%" PRId64, g->init);
            }
            sb_puts(sb, ";\n");
        }
    }
    sb_puts(sb, "}\n");
}

/* The code as columns, one per thread, each padded to its widest cell. */
static void print_code(strbuf *sb, const lit_test *t)
{
    int nt = t->nthreads < LIT_MAX_THREADS ? t->nthreads : LIT_MAX_THREADS;
    int rows = 0, width[LIT_MAX_THREADS];
    strbuf cell = STRBUF_INIT;
    for (int ti = 0; ti < nt; ti++) {
        const lit_thread *th = &t->threads[ti];
        int n = th->ninsns < LIT_MAX_INSNS ? th->ninsns : LIT_MAX_INSNS;
        if (n > rows)
            rows = n;
        char head[48];
        if (t->format == LIT_FMT_PTXMM)
            snprintf(head, sizeof head, "P%d@cta %d,gpu 0", ti, th->cta);
        else
            snprintf(head, sizeof head, "%c%d", t->format == LIT_FMT_THESIS ? 'T' : 'P', ti);
        width[ti] = (int)strlen(head);
        for (int i = 0; i < n; i++) {
            sb_clear(&cell);
            print_insn(&cell, t, th, &th->code[i]);
            if ((int)cell.len > width[ti])
                width[ti] = (int)cell.len;
        }
    }
    for (int row = -1; row < rows; row++) {
        for (int ti = 0; ti < nt; ti++) {
            const lit_thread *th = &t->threads[ti];
            sb_clear(&cell);
            if (row < 0) {
                if (t->format == LIT_FMT_PTXMM)
                    sb_printf(&cell, "P%d@cta %d,gpu 0", ti, th->cta);
                else
                    sb_printf(&cell, "%c%d", t->format == LIT_FMT_THESIS ? 'T' : 'P', ti);
            } else if (row < th->ninsns && row < LIT_MAX_INSNS) {
                print_insn(&cell, t, th, &th->code[row]);
            }
            if (ti > 0)
                sb_puts(sb, " | ");
            sb_append(sb, cell.s ? cell.s : "", cell.len);
            for (int k = (int)cell.len; k < width[ti]; k++)
                sb_putc(sb, ' ');
        }
        sb_puts(sb, " ;\n");
    }
    sb_free(&cell);
}

/* "(device (cta (warp T0) (warp T1)) (cta (warp T2)))" */
static void print_scope_tree(strbuf *sb, const lit_test *t)
{
    char letter = t->format == LIT_FMT_THESIS ? 'T' : 'P';
    sb_puts(sb, t->format == LIT_FMT_THESIS ? "ScopeTree\n(device" : "scopeTree\n(device");
    for (int c = 0; c < t->nctas; c++) {
        sb_puts(sb, " (cta");
        for (int w = 0; w < t->nwarps; w++) {
            int any = 0;
            for (int ti = 0; ti < t->nthreads && ti < LIT_MAX_THREADS; ti++) {
                if (t->threads[ti].cta != c || t->threads[ti].warp != w)
                    continue;
                sb_printf(sb, "%s%c%d", any ? " " : " (warp ", letter, ti);
                any = 1;
            }
            if (any)
                sb_putc(sb, ')');
        }
        sb_putc(sb, ')');
    }
    sb_puts(sb, ")\n");
}

static void print_memory_map(strbuf *sb, const lit_test *t)
{
    int any_shared = 0;
    for (int k = 0; k < t->nlocs && k < LIT_MAX_LOCS; k++)
        any_shared |= t->locs[k].region == LIT_SHARED;
    if (t->nlocs == 0 || (t->format == LIT_FMT_PTXMM && !any_shared))
        return;
    for (int k = 0; k < t->nlocs && k < LIT_MAX_LOCS; k++)
        sb_printf(sb, "%s%s: %s", k ? ", " : "", t->locs[k].name,
                  t->locs[k].region == LIT_SHARED ? "shared" : "global");
    sb_putc(sb, '\n');
}

/* Collect the condition's items in order of appearance (each once). */
static void cond_items(const lit_test *t, int e, lit_item *items, int *n, int depth)
{
    if (e < 0 || e >= t->nexprs || e >= LIT_MAX_EXPRS || depth > LIT_MAX_EXPRS)
        return;
    const lit_expr *x = &t->exprs[e];
    switch (x->kind) {
    case LIT_E_EQ:
        for (int i = 0; i < *n; i++)
            if (items[i].thread == x->item.thread && items[i].index == x->item.index)
                return;
        if (*n < LIT_MAX_EXPRS)
            items[(*n)++] = x->item;
        break;
    case LIT_E_NOT: cond_items(t, x->a, items, n, depth + 1); break;
    case LIT_E_AND:
    case LIT_E_OR:
        cond_items(t, x->a, items, n, depth + 1);
        cond_items(t, x->b, items, n, depth + 1);
        break;
    default: break;
    }
}

/* The "locations [...]" clause: the shortest prefix of observed[] that the
 * condition's items complete to observed[]. */
static void print_locations(strbuf *sb, const lit_test *t)
{
    lit_item items[LIT_MAX_EXPRS];
    int n = 0, nobs = t->nobserved < LIT_MAX_OBSERVED ? t->nobserved : LIT_MAX_OBSERVED;
    cond_items(t, t->cond, items, &n, 0);
    int k;
    for (k = 0; k < nobs; k++) {
        /* does observed[0..k) ++ (items not in it) == observed? */
        int m = k, ok = 1;
        for (int i = 0; i < n && ok; i++) {
            int seen = 0;
            for (int j = 0; j < k; j++)
                seen |= t->observed[j].thread == items[i].thread &&
                        t->observed[j].index == items[i].index;
            if (seen)
                continue;
            if (m >= nobs || t->observed[m].thread != items[i].thread ||
                t->observed[m].index != items[i].index)
                ok = 0;
            m++;
        }
        if (ok && m == nobs)
            break;
    }
    if (k == 0)
        return;
    sb_puts(sb, "locations [");
    for (int i = 0; i < k; i++) {
        lit_item_name(sb, t, t->observed[i]);
        sb_puts(sb, i + 1 < k ? "; " : ";");
    }
    sb_puts(sb, "]\n");
}

/* A formula: a binary operand is parenthesised unless it is the left operand
 * of the same operator (the parser's operators associate to the left), so
 * the reparse builds the same tree. */
static void print_expr(strbuf *sb, const lit_test *t, int e, int depth)
{
    if (e < 0 || e >= t->nexprs || e >= LIT_MAX_EXPRS || depth > LIT_MAX_EXPRS) {
        sb_puts(sb, "false");
        return;
    }
    const lit_expr *x = &t->exprs[e];
    switch (x->kind) {
    case LIT_E_TRUE: sb_puts(sb, "true"); break;
    case LIT_E_FALSE: sb_puts(sb, "false"); break;
    case LIT_E_EQ:
        lit_item_name(sb, t, x->item);
        if (x->value_loc >= 0)
            sb_printf(sb, "=%s", loc_name(t, x->value_loc));
        else if (LIT_PRINTS_UNSIGNED(lit_item_type(t, x->item)))
            sb_printf(sb, "=%" PRIu64, (uint64_t)x->value);
        else
            sb_printf(sb, "=%" PRId64, x->value);
        break;
    case LIT_E_NOT: {
        /* parenthesise only a binary operand, so the text nests no deeper
         * than what was parsed (the parser bounds the depth) */
        int c = x->a;
        int bin = c >= 0 && c < t->nexprs && c < LIT_MAX_EXPRS &&
                  (t->exprs[c].kind == LIT_E_AND || t->exprs[c].kind == LIT_E_OR);
        sb_puts(sb, bin ? "~(" : "~");
        print_expr(sb, t, c, depth + 1);
        if (bin)
            sb_putc(sb, ')');
        break;
    }
    case LIT_E_AND:
    case LIT_E_OR: {
        int kids[2] = {x->a, x->b};
        for (int i = 0; i < 2; i++) {
            int c = kids[i];
            int bin = c >= 0 && c < t->nexprs && c < LIT_MAX_EXPRS &&
                      (t->exprs[c].kind == LIT_E_AND || t->exprs[c].kind == LIT_E_OR);
            int paren = bin && !(i == 0 && t->exprs[c].kind == x->kind);
            if (i == 1)
                sb_puts(sb, x->kind == LIT_E_AND ? " /\\ " : " \\/ ");
            if (paren)
                sb_putc(sb, '(');
            print_expr(sb, t, c, depth + 1);
            if (paren)
                sb_putc(sb, ')');
        }
        break;
    }
    }
}

void lit_cond_print(strbuf *sb, const lit_test *t)
{
    print_expr(sb, t, t->cond, 0);
}

void lit_print(strbuf *sb, const lit_test *t)
{
    sb_printf(sb, "%s %s\n", t->format == LIT_FMT_PTXMM ? "PTX" : "GPU_PTX", t->name);
    print_init(sb, t);
    print_code(sb, t);
    if (t->format != LIT_FMT_PTXMM)
        print_scope_tree(sb, t);
    print_memory_map(sb, t);
    print_locations(sb, t);
    sb_puts(sb, t->quant == LIT_EXISTS ? "exists" : t->quant == LIT_NOT_EXISTS ? "~exists" : "forall");
    sb_puts(sb, "\n(");
    print_expr(sb, t, t->cond, 0);
    sb_puts(sb, ")\n");
}
