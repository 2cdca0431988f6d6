/*
 * test_litmus_parse.c -- the litmus front end (src/litmus/parse.c, litmus.c).
 *
 *   - every file in tests/litmus/good parses, prints, and parses again to an
 *     equal test (field by field, positions and file name aside); printing
 *     the reparse gives the same text;
 *   - field checks on a few of them (SB, CAS-SL, MP+loop, IRIW, WRC);
 *   - every file in tests/litmus/bad fails, and its first error line holds
 *     "FILE:LINE:COL: error:" and the text its first line promises:
 *         (* expect: 14:21: unknown instruction 'frob' *)
 *   - every prefix of every good and bad file parses or fails cleanly (each
 *     prefix in its own exact-size buffer, so ASan sees any read past len);
 *   - lit_cond_eval and lit_norm on hand-made values; a few inline cases
 *     (offsets, hex, the 64-bit extremes, deep nesting, the error cap).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus.h"
#include "test.h"

#define GOOD_DIR LOCKSTEP_SRC_DIR "/tests/litmus/good"
#define BAD_DIR LOCKSTEP_SRC_DIR "/tests/litmus/bad"

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The sorted .litmus names in dir; returns the count. */
static int list_dir(const char *dir, char **names, int max)
{
    DIR *d = opendir(dir);
    CHECK_MSG(d != NULL, "cannot open %s", dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t l = strlen(e->d_name);
        if (l > 7 && !strcmp(e->d_name + l - 7, ".litmus"))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp);
    return n;
}

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
}

/* Equality -------------------------------------------------------------- */

#define DIFF(cond, ...)                                                                     \
    do {                                                                                    \
        if (cond) {                                                                         \
            snprintf(why, nwhy, __VA_ARGS__);                                               \
            return 0;                                                                       \
        }                                                                                   \
    } while (0)

static int operand_eq(const lit_operand *a, const lit_operand *b)
{
    if (a->kind != b->kind || a->imm != b->imm)
        return 0;
    if (a->kind == LIT_O_REG && a->reg != b->reg)
        return 0;
    if (a->kind == LIT_O_LOC && a->loc != b->loc)
        return 0;
    return 1;
}

/* Field by field, except line/col and filename; why says what differs. */
static int tests_equal(const lit_test *a, const lit_test *b, char *why, size_t nwhy)
{
    DIFF(strcmp(a->name, b->name), "name '%s' vs '%s'", a->name, b->name);
    DIFF(a->format != b->format, "format %d vs %d", a->format, b->format);
    DIFF(a->nthreads != b->nthreads, "nthreads %d vs %d", a->nthreads, b->nthreads);
    DIFF(a->nctas != b->nctas || a->nwarps != b->nwarps, "nctas/nwarps %d/%d vs %d/%d", a->nctas, a->nwarps,
         b->nctas, b->nwarps);
    for (int i = 0; i < a->nthreads; i++) {
        const lit_thread *x = &a->threads[i], *y = &b->threads[i];
        DIFF(strcmp(x->name, y->name), "thread %d name", i);
        DIFF(x->cta != y->cta || x->warp != y->warp, "thread %d placement %d/%d vs %d/%d", i, x->cta, x->warp,
             y->cta, y->warp);
        DIFF(x->nregs != y->nregs, "thread %d nregs %d vs %d", i, x->nregs, y->nregs);
        for (int r = 0; r < x->nregs; r++) {
            const lit_reg *g = &x->regs[r], *h = &y->regs[r];
            DIFF(strcmp(g->name, h->name), "thread %d reg %d name %s vs %s", i, r, g->name, h->name);
            DIFF(g->type != h->type, "thread %d reg %s type %d vs %d", i, g->name, g->type, h->type);
            DIFF(g->init_loc != h->init_loc, "thread %d reg %s init_loc", i, g->name);
            DIFF(g->init_loc < 0 && g->init != h->init, "thread %d reg %s init", i, g->name);
        }
        DIFF(x->ninsns != y->ninsns, "thread %d ninsns %d vs %d", i, x->ninsns, y->ninsns);
        for (int k = 0; k < x->ninsns; k++) {
            const lit_insn *p = &x->code[k], *q = &y->code[k];
            DIFF(p->op != q->op || p->sub != q->sub || p->type != q->type, "thread %d insn %d op/sub/type", i,
                 k);
            DIFF(p->space != q->space || p->cop != q->cop || p->sem != q->sem || p->scope != q->scope ||
                     p->membar != q->membar,
                 "thread %d insn %d qualifiers", i, k);
            DIFF(p->guard != q->guard || p->guard_neg != q->guard_neg, "thread %d insn %d guard", i, k);
            DIFF(!operand_eq(&p->dst, &q->dst) || !operand_eq(&p->addr, &q->addr) ||
                     !operand_eq(&p->src[0], &q->src[0]) || !operand_eq(&p->src[1], &q->src[1]),
                 "thread %d insn %d operands", i, k);
            DIFF(p->target != q->target || strcmp(p->label, q->label), "thread %d insn %d label/target", i,
                 k);
        }
    }
    DIFF(a->nlocs != b->nlocs, "nlocs %d vs %d", a->nlocs, b->nlocs);
    for (int k = 0; k < a->nlocs; k++) {
        const lit_loc *l = &a->locs[k], *m = &b->locs[k];
        DIFF(strcmp(l->name, m->name) || l->region != m->region || l->init != m->init || l->type != m->type,
             "location %d (%s vs %s)", k, l->name, m->name);
    }
    DIFF(a->quant != b->quant, "quantifier");
    DIFF(a->cond != b->cond || a->nexprs != b->nexprs, "condition root/size");
    for (int e = 0; e < a->nexprs; e++) {
        const lit_expr *x = &a->exprs[e], *y = &b->exprs[e];
        DIFF(x->kind != y->kind || x->a != y->a || x->b != y->b, "expr %d shape", e);
        DIFF(x->kind == LIT_E_EQ && (x->item.thread != y->item.thread || x->item.index != y->item.index ||
                                     x->value != y->value || x->value_loc != y->value_loc),
             "expr %d atom", e);
    }
    DIFF(a->nobserved != b->nobserved, "nobserved %d vs %d", a->nobserved, b->nobserved);
    for (int i = 0; i < a->nobserved; i++)
        DIFF(a->observed[i].thread != b->observed[i].thread || a->observed[i].index != b->observed[i].index,
             "observed %d", i);
    return 1;
}

/* Parse text from an exact-size copy (no NUL after it). */
static int parse_exact(const char *text, size_t len, const char *name, lit_test *t, strbuf *err)
{
    char *copy = malloc(len ? len : 1);
    if (!copy)
        return -2;
    memcpy(copy, text, len);
    int rc = lit_parse(copy, len, name, t, err);
    free(copy);
    return rc;
}

static lit_test ta, tb; /* big: kept off the stack */

/* The good corpus ------------------------------------------------------- */

static void test_round_trip(void)
{
    char *names[256];
    int n = list_dir(GOOD_DIR, names, 256);
    CHECK_MSG(n >= 8, "only %d good litmus tests", n);
    int formats[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", GOOD_DIR, names[i]);
        strbuf err = STRBUF_INIT, p1 = STRBUF_INIT, p2 = STRBUF_INIT;
        int rc = lit_parse_file(path, &ta, &err);
        CHECK_MSG(rc == 0, "%s:\n%s", names[i], sb_cstr(&err));
        CHECK_MSG(err.len == 0, "%s: errors on success: %s", names[i], sb_cstr(&err));
        if (rc == 0) {
            formats[ta.format]++;
            CHECK_STR_CONTAINS(ta.filename, names[i]);
            lit_print(&p1, &ta);
            sb_clear(&err);
            rc = parse_exact(p1.s, p1.len, "printed", &tb, &err);
            CHECK_MSG(rc == 0, "%s: the printed test does not parse:\n%s\n%s", names[i], sb_cstr(&err),
                      sb_cstr(&p1));
            if (rc == 0) {
                char why[256] = "";
                int eq = tests_equal(&ta, &tb, why, sizeof why);
                CHECK_MSG(eq, "%s: reparse differs: %s\n%s", names[i], why, sb_cstr(&p1));
                lit_print(&p2, &tb);
                CHECK_MSG(p1.len == p2.len && !memcmp(p1.s, p2.s, p1.len),
                          "%s: printing twice differs:\n%s\n---\n%s", names[i], sb_cstr(&p1), sb_cstr(&p2));
            }
        }
        sb_free(&err);
        sb_free(&p1);
        sb_free(&p2);
    }
    CHECK_MSG(formats[LIT_FMT_THESIS] >= 2 && formats[LIT_FMT_HERD] >= 2 && formats[LIT_FMT_PTXMM] >= 2,
              "formats covered: thesis %d, herd %d, ptx %d", formats[0], formats[1], formats[2]);
    free_names(names, n);
}

static int parse_good(const char *name, lit_test *t)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", GOOD_DIR, name);
    strbuf err = STRBUF_INIT;
    int rc = lit_parse_file(path, t, &err);
    CHECK_MSG(rc == 0, "%s: %s", name, sb_cstr(&err));
    sb_free(&err);
    return rc;
}

static int reg_of(const lit_test *t, int ti, const char *name)
{
    for (int r = 0; r < t->threads[ti].nregs; r++)
        if (!strcmp(t->threads[ti].regs[r].name, name))
            return r;
    return -1;
}

static int loc_of(const lit_test *t, const char *name)
{
    for (int k = 0; k < t->nlocs; k++)
        if (!strcmp(t->locs[k].name, name))
            return k;
    return -1;
}

static void test_sb_fields(void)
{
    lit_test *t = &ta;
    if (parse_good("SB.litmus", t))
        return;
    CHECK_EQ_INT(t->format, LIT_FMT_THESIS);
    CHECK(!strcmp(t->name, "SB"));
    CHECK_EQ_INT(t->nthreads, 2);
    CHECK(!strcmp(t->threads[0].name, "T0") && !strcmp(t->threads[1].name, "T1"));
    CHECK_EQ_INT(t->threads[0].cta, t->threads[1].cta);
    CHECK(t->threads[0].warp != t->threads[1].warp);
    CHECK_EQ_INT(t->nctas, 1);
    CHECK_EQ_INT(t->nwarps, 2);
    int x = loc_of(t, "x"), y = loc_of(t, "y");
    CHECK(x >= 0 && y >= 0);
    if (x >= 0 && y >= 0) {
        CHECK_EQ_INT(t->locs[x].region, LIT_SHARED);
        CHECK_EQ_INT(t->locs[y].region, LIT_GLOBAL);
        CHECK_EQ_INT(t->locs[x].type, LIT_S32);
    }
    CHECK_EQ_INT(t->quant, LIT_EXISTS);
    CHECK_EQ_INT(t->nobserved, 2);
    CHECK_EQ_INT(t->observed[0].thread, 0);
    CHECK_EQ_INT(t->observed[0].index, reg_of(t, 0, "r2"));
    CHECK_EQ_INT(t->observed[1].thread, 1);
    CHECK_EQ_INT(t->observed[1].index, reg_of(t, 1, "r2"));
    strbuf sb = STRBUF_INIT;
    lit_item_name(&sb, t, t->observed[1]);
    lit_item_name(&sb, t, (lit_item){-1, x});
    CHECK(!strcmp(sb_cstr(&sb), "1:r2x"));
    sb_free(&sb);
    /* T0: mov.s32 r0,1 ; st.cg.s32 [r1],r0 ; ld.cg.s32 r2,[r3] */
    const lit_thread *th = &t->threads[0];
    CHECK_EQ_INT(th->ninsns, 3);
    CHECK_EQ_INT(th->nregs, 4);
    int r1 = reg_of(t, 0, "r1");
    CHECK(r1 >= 0 && th->regs[r1].type == LIT_B64 && th->regs[r1].init_loc == x);
    CHECK_EQ_INT(th->code[0].op, LIT_MOV);
    CHECK_EQ_INT(th->code[0].src[0].kind, LIT_O_IMM);
    CHECK_EQ_INT(th->code[0].src[0].imm, 1);
    CHECK_EQ_INT(th->code[1].op, LIT_ST);
    CHECK_EQ_INT(th->code[1].cop, LIT_COP_CG);
    CHECK_EQ_INT(th->code[1].type, LIT_S32);
    CHECK_EQ_INT(th->code[1].addr.kind, LIT_O_REG);
    CHECK_EQ_INT(th->code[1].addr.reg, r1);
    CHECK_EQ_INT(th->code[1].src[0].reg, reg_of(t, 0, "r0"));
    CHECK_EQ_INT(th->code[2].op, LIT_LD);
    CHECK_EQ_INT(th->code[2].dst.reg, reg_of(t, 0, "r2"));
    CHECK_EQ_INT(th->code[2].guard, -1);
    CHECK_EQ_INT(th->code[2].line, 15);
    CHECK_EQ_INT(th->code[2].col, 1);
    /* the condition: 0:r2=0 /\ 1:r2=0 */
    const lit_expr *root = &t->exprs[t->cond];
    CHECK_EQ_INT(root->kind, LIT_E_AND);
    CHECK_EQ_INT(t->exprs[root->a].kind, LIT_E_EQ);
    CHECK_EQ_INT(t->exprs[root->a].value, 0);
}

static void test_cas_sl_fields(void)
{
    lit_test *t = &ta;
    if (parse_good("CAS-SL.litmus", t))
        return;
    int x = loc_of(t, "x"), y = loc_of(t, "y");
    CHECK(x >= 0 && y >= 0);
    if (x < 0 || y < 0)
        return;
    CHECK_EQ_INT(t->locs[y].init, 1);
    CHECK_EQ_INT(t->locs[x].init, 0);
    CHECK_EQ_INT(t->locs[x].type, LIT_U32); /* st.cg.u32 [x],1 first */
    CHECK_EQ_INT(t->locs[y].type, LIT_B32);
    CHECK(t->threads[0].cta != t->threads[1].cta);
    /* T0: st.cg.u32 [x],1 ; membar.gl ; atom.exch.b32 r0,[y],0 */
    const lit_thread *t0 = &t->threads[0];
    CHECK_EQ_INT(t0->code[0].addr.kind, LIT_O_LOC);
    CHECK_EQ_INT(t0->code[0].addr.loc, x);
    CHECK_EQ_INT(t0->code[0].src[0].kind, LIT_O_IMM);
    CHECK_EQ_INT(t0->code[1].op, LIT_FENCE);
    CHECK_EQ_INT(t0->code[1].membar, 1);
    CHECK_EQ_INT(t0->code[1].scope, LIT_SCOPE_GPU);
    CHECK_EQ_INT(t0->code[2].op, LIT_ATOM);
    CHECK_EQ_INT(t0->code[2].sub, LIT_A_EXCH);
    /* T1: atom.cas.b32 r0,[y],0,1 ; setp.eq.u32 r1,r0,0 ; @r1 membar.gl ; @r1 ld.cg.u32 r2,[x] */
    const lit_thread *t1 = &t->threads[1];
    CHECK_EQ_INT(t1->ninsns, 4);
    CHECK_EQ_INT(t1->code[0].op, LIT_ATOM);
    CHECK_EQ_INT(t1->code[0].sub, LIT_A_CAS);
    CHECK_EQ_INT(t1->code[0].type, LIT_B32);
    CHECK_EQ_INT(t1->code[0].addr.loc, y);
    CHECK_EQ_INT(t1->code[0].src[0].imm, 0);
    CHECK_EQ_INT(t1->code[0].src[1].kind, LIT_O_IMM);
    CHECK_EQ_INT(t1->code[0].src[1].imm, 1);
    int r1 = reg_of(t, 1, "r1");
    CHECK(r1 >= 0 && t1->regs[r1].type == LIT_PRED); /* written by setp, never declared */
    CHECK_EQ_INT(t1->code[1].op, LIT_SETP);
    CHECK_EQ_INT(t1->code[1].sub, LIT_EQ);
    CHECK_EQ_INT(t1->code[1].type, LIT_U32);
    CHECK_EQ_INT(t1->code[2].guard, r1);
    CHECK_EQ_INT(t1->code[2].guard_neg, 0);
    CHECK_EQ_INT(t1->code[3].guard, r1);
    CHECK_EQ_INT(t1->code[3].op, LIT_LD);
    CHECK_EQ_INT(t1->code[3].addr.loc, x);
}

static void test_other_fields(void)
{
    lit_test *t = &ta;
    if (!parse_good("MP-loop.litmus", t)) {
        CHECK_EQ_INT(t->format, LIT_FMT_HERD);
        CHECK_EQ_INT(t->quant, LIT_FORALL);
        const lit_thread *t1 = &t->threads[1];
        CHECK_EQ_INT(t1->code[0].op, LIT_LABEL);
        CHECK_EQ_INT(t1->code[3].op, LIT_BRA);
        CHECK_EQ_INT(t1->code[3].target, 0);
        CHECK(!strcmp(t1->code[3].label, "L0"));
        int p0 = reg_of(t, 1, "p0");
        CHECK(p0 >= 0 && t1->regs[p0].type == LIT_PRED);
        CHECK_EQ_INT(t1->code[3].guard, p0);
        CHECK_EQ_INT(t1->regs[reg_of(t, 1, "r1")].type, LIT_B64); /* initialised to y */
        /* locations [1:r0; y;] then the condition's 1:r2 */
        CHECK_EQ_INT(t->nobserved, 3);
        CHECK(t->observed[0].thread == 1 && t->observed[0].index == reg_of(t, 1, "r0"));
        CHECK(t->observed[1].thread == -1 && t->observed[1].index == loc_of(t, "y"));
        CHECK(t->observed[2].thread == 1 && t->observed[2].index == reg_of(t, 1, "r2"));
    }
    if (!parse_good("IRIW-acq.litmus", t)) {
        CHECK_EQ_INT(t->format, LIT_FMT_PTXMM);
        CHECK_EQ_INT(t->nthreads, 4);
        CHECK_EQ_INT(t->nctas, 4);
        CHECK_EQ_INT(t->nwarps, 4);
        for (int i = 0; i < 4; i++)
            CHECK(t->threads[i].cta == i && t->threads[i].warp == i);
        CHECK_EQ_INT(t->threads[1].code[0].sem, LIT_SEM_ACQUIRE);
        CHECK_EQ_INT(t->threads[1].code[0].scope, LIT_SCOPE_GPU);
        CHECK_EQ_INT(t->threads[0].code[0].sem, LIT_SEM_RELAXED);
        CHECK_EQ_INT(t->nobserved, 4);
    }
    if (!parse_good("MP-rel-acq.litmus", t)) {
        CHECK_EQ_INT(t->threads[0].code[0].sem, LIT_SEM_NONE); /* .weak */
        CHECK_EQ_INT(t->threads[0].code[1].sem, LIT_SEM_RELEASE);
        CHECK_EQ_INT(t->threads[1].code[1].sem, LIT_SEM_NONE);
        CHECK(t->threads[0].cta != t->threads[1].cta);
    }
    if (!parse_good("WRC-shared.litmus", t)) {
        /* (device (kernel (cta (warp T0) (warp T1)) (cta T2))) */
        CHECK_EQ_INT(t->nctas, 2);
        CHECK_EQ_INT(t->nwarps, 3);
        CHECK(t->threads[0].cta == 0 && t->threads[1].cta == 0 && t->threads[2].cta == 1);
        CHECK(t->threads[0].warp == 0 && t->threads[1].warp == 1 && t->threads[2].warp == 2);
        int z = loc_of(t, "z");
        CHECK(z >= 0 && t->locs[z].type == LIT_S32); /* "int z", though first used as .u32 */
        CHECK_EQ_INT(t->threads[0].code[1].cop, LIT_COP_VOLATILE);
        CHECK_EQ_INT(t->threads[2].code[5].op, LIT_RED);
        CHECK_EQ_INT(t->threads[2].code[5].sub, LIT_A_OR);
        CHECK_EQ_INT(t->threads[2].code[5].src[0].imm, 16);
        CHECK_EQ_INT(t->threads[1].code[3].src[1].imm, -1);
    }
    if (!parse_good("Dat3M-style.litmus", t)) {
        CHECK_EQ_INT(t->quant, LIT_NOT_EXISTS);
        CHECK_EQ_INT(t->exprs[t->exprs[t->cond].b].kind, LIT_E_NOT); /* != */
        const lit_thread *t1 = &t->threads[1];
        CHECK_EQ_INT(t1->code[0].addr.kind, LIT_O_LOC); /* bare "y" */
        CHECK_EQ_INT(t1->code[4].op, LIT_MOV);
        CHECK_EQ_INT(t1->code[4].src[0].kind, LIT_O_LOC);
        CHECK_EQ_INT(t->threads[0].code[1].sem, LIT_SEM_SC);
        CHECK_EQ_INT(t1->code[1].sem, LIT_SEM_ACQ_REL);
        CHECK_EQ_INT(t1->code[1].membar, 0);
    }
}

/* The bad corpus -------------------------------------------------------- */

static void test_bad_files(void)
{
    char *names[256];
    int n = list_dir(BAD_DIR, names, 256);
    CHECK_MSG(n >= 30, "only %d bad litmus tests", n);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", BAD_DIR, names[i]);
        size_t len;
        char *text = test_read_file(path, &len);
        CHECK_MSG(text != NULL, "cannot read %s", path);
        if (!text)
            continue;
        /* (* expect: LINE:COL: TEXT *) */
        char expect[512] = "";
        const char *pre = "(* expect: ";
        const char *end = strstr(text, " *)");
        if (!strncmp(text, pre, strlen(pre)) && end) {
            size_t k = (size_t)(end - text) - strlen(pre);
            if (k >= sizeof expect)
                k = sizeof expect - 1;
            memcpy(expect, text + strlen(pre), k);
            expect[k] = 0;
        }
        int line = 0, col = 0, used = 0;
        CHECK_MSG(sscanf(expect, "%d:%d: %n", &line, &col, &used) == 2 && used > 0,
                  "%s has no '(* expect: LINE:COL: TEXT *)' first line", names[i]);
        strbuf err = STRBUF_INIT;
        int rc = parse_exact(text, len, names[i], &ta, &err);
        CHECK_MSG(rc == -1, "%s: parsed", names[i]);
        const char *msg = sb_cstr(&err);
        const char *nl = strchr(msg, '\n');
        char first[1024];
        size_t fl = nl ? (size_t)(nl - msg) : strlen(msg);
        if (fl >= sizeof first)
            fl = sizeof first - 1;
        memcpy(first, msg, fl);
        first[fl] = 0;
        char want[700];
        snprintf(want, sizeof want, "%s:%d:%d: error: ", names[i], line, col);
        CHECK_MSG(!strncmp(first, want, strlen(want)), "%s: first error is not at %d:%d:\n%s", names[i], line,
                  col, msg);
        CHECK_MSG(used > 0 && strstr(first + strlen(want) - 0, expect + used), "%s: expected '%s' in:\n%s",
                  names[i], expect + used, msg);
        /* every line is an error line */
        for (const char *s = msg; *s;) {
            CHECK_MSG(!strncmp(s, names[i], strlen(names[i])) && strstr(s, ": error: "), "%s: odd line in %s",
                      names[i], msg);
            const char *e = strchr(s, '\n');
            if (!e)
                break;
            s = e + 1;
        }
        sb_free(&err);
        free(text);
    }
    free_names(names, n);
}

/* Every prefix of every file parses or fails with a message, never crashes. */
static void test_prefixes(void)
{
    const char *dirs[2] = {GOOD_DIR, BAD_DIR};
    for (int d = 0; d < 2; d++) {
        char *names[256];
        int n = list_dir(dirs[d], names, 256);
        for (int i = 0; i < n; i++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dirs[d], names[i]);
            size_t len;
            char *text = test_read_file(path, &len);
            if (!text)
                continue;
            int bad = 0;
            for (size_t cut = 0; cut <= len; cut++) {
                strbuf err = STRBUF_INIT;
                int rc = parse_exact(text, cut, "cut", &ta, &err);
                if (rc != 0 && (err.len == 0 || strncmp(sb_cstr(&err), "cut:", 4)))
                    bad++;
                if (rc == 0 && err.len)
                    bad++;
                sb_free(&err);
            }
            CHECK_MSG(!bad, "%s: %d prefixes failed without a proper message", names[i], bad);
            free(text);
        }
        free_names(names, n);
    }
}

/* Inline cases ---------------------------------------------------------- */

static int parse_str(const char *s, lit_test *t, strbuf *err)
{
    sb_clear(err);
    return parse_exact(s, strlen(s), "inline", t, err);
}

/* parse, print, reparse, compare */
static void round_trip_str(const char *s)
{
    strbuf err = STRBUF_INIT, out = STRBUF_INIT;
    int rc = parse_str(s, &ta, &err);
    CHECK_MSG(rc == 0, "%s\n%s", s, sb_cstr(&err));
    if (rc == 0) {
        lit_print(&out, &ta);
        rc = parse_exact(out.s, out.len, "printed", &tb, &err);
        CHECK_MSG(rc == 0, "%s\n%s", sb_cstr(&out), sb_cstr(&err));
        char why[256] = "";
        CHECK_MSG(rc == 0 && tests_equal(&ta, &tb, why, sizeof why), "%s: %s", why, sb_cstr(&out));
    }
    sb_free(&err);
    sb_free(&out);
}

static void test_inline(void)
{
    strbuf err = STRBUF_INIT;
    /* offsets, hex, the 64-bit extremes, a location's address as a value,
     * negated guards, every ALU and atomic operation */
    const char *ok1 =
        "PTX extremes\n"
        "{ x=-9223372036854775808; y=0x7fffffffffffffff; uint64_t z=0xffffffffffffffff; P0:r1=x; }\n"
        "P0@cta 5,gpu 0 | P1 ;\n"
        "ld.relaxed.cta.global.u64 r0,[r1] | mov.b64 r1,y ;\n"
        "st.relaxed.sys.global.b64 [x],r0 | setp.ge.s64 p1,r1,-1 ;\n"
        "atom.acquire.gpu.global.min.s64 r2,[z],-5 | @!p1 red.relaxed.gpu.inc.u32 [r1+8],3 ;\n"
        "atom.max.u64 r3,[z],r2 | sub.s64 r4,r1,1 ;\n"
        "atom.dec.u32 r5,[x],1 | shl.b64 r5,r4,2 ;\n"
        "atom.and.b64 r6,[x],0 | shr.u64 r5,r5,1 ;\n"
        "atom.or.b32 r7,[x],0 | and.b32 r6,r6,1 ;\n"
        "atom.xor.b32 r8,[x],0 | or.b64 r7,r7,r1 ;\n"
        "fence.cta | setp.ne.b32 p2,r6,0 ;\n"
        "membar.sys | @p2 bra.uni out ;\n"
        "membar.cta | out: ld.cv.s32 r9,[r1-8] ;\n"
        "exists (0:r1=x /\\ 1:r1=y \\/ ~~(0:r0=-1) /\\ [z]=0xffffffffffffffff \\/ "
        "0:r2=-9223372036854775808)\n";
    round_trip_str(ok1);
    if (!parse_str(ok1, &ta, &err)) {
        /* (offsets through a register the thread computes: a constant
         * location plus an offset is refused, as no location) */
        CHECK_EQ_INT(ta.threads[1].code[2].addr.imm, 8);
        CHECK_EQ_INT(ta.threads[1].code[ta.threads[1].ninsns - 1].addr.imm, -8);
        CHECK_EQ_INT(ta.threads[0].code[1].space, LIT_SP_GLOBAL);
        CHECK_EQ_INT(ta.threads[0].code[1].scope, LIT_SCOPE_SYS);
        CHECK_EQ_INT(ta.threads[0].cta, 0);
        CHECK_EQ_INT(ta.threads[1].cta, 1); /* no @: a CTA of its own */
        CHECK_EQ_U64(ta.locs[0].init, 0x8000000000000000ull);
        CHECK_EQ_U64(ta.locs[1].init, 0x7fffffffffffffffull);
        CHECK_EQ_U64(ta.locs[2].init, ~0ull);
        CHECK_EQ_INT(ta.locs[2].type, LIT_U64);
        CHECK_EQ_INT(ta.locs[0].type, LIT_U64); /* the first access decides: ld.u64 [r1], r1 = x */
        CHECK_EQ_INT(ta.threads[0].code[8].op, LIT_FENCE);
        CHECK_EQ_INT(ta.threads[0].code[8].sem, LIT_SEM_ACQ_REL); /* fence.cta */
        CHECK_EQ_INT(ta.threads[0].code[9].scope, LIT_SCOPE_SYS);
        CHECK_EQ_INT(ta.threads[0].code[9].membar, 1);
        CHECK_EQ_INT(ta.threads[1].code[2].guard_neg, 1);
        CHECK_EQ_INT(ta.threads[1].code[1].op, LIT_SETP);
        CHECK_EQ_INT(ta.threads[1].code[1].sub, LIT_GE);
        const lit_thread *t1 = &ta.threads[1];
        CHECK_EQ_INT(t1->code[9].op, LIT_BRA);
        CHECK_EQ_INT(t1->code[9].target, 10);
        CHECK_EQ_INT(t1->code[10].op, LIT_LABEL);
        CHECK_EQ_INT(t1->code[11].op, LIT_LD);
        CHECK_EQ_INT(t1->regs[reg_of(&ta, 1, "p1")].type, LIT_PRED);
        CHECK_EQ_INT(t1->regs[reg_of(&ta, 1, "r6")].type, LIT_B32);
        /* the value "x" in 0:r1=x is its symbolic address */
        const lit_expr *e = NULL;
        for (int i = 0; i < ta.nexprs; i++)
            if (ta.exprs[i].kind == LIT_E_EQ && ta.exprs[i].value_loc >= 0) {
                e = &ta.exprs[i];
                break;
            }
        CHECK(e && e->value_loc == 0 && (uint64_t)e->value == lit_loc_addr(0));
    } else {
        CHECK_MSG(0, "%s", sb_cstr(&err));
    }

    /* error cap: many bad instructions, at most ~20 lines */
    strbuf many = STRBUF_INIT;
    sb_puts(&many, "PTX many\n{ }\nP0 ;\n");
    for (int i = 0; i < 200; i++)
        sb_puts(&many, "frob r0 ;\n");
    sb_puts(&many, "exists (true)\n");
    CHECK(parse_exact(many.s, many.len, "many", &ta, &err) == -1);
    int lines = 0;
    for (const char *s = sb_cstr(&err); *s; s++)
        lines += *s == '\n';
    CHECK_MSG(lines >= 2 && lines <= 21, "%d error lines", lines);
    CHECK_STR_CONTAINS(sb_cstr(&err), "too many errors");
    sb_free(&many);

    /* deep nesting in the condition and the scope tree: an error, no crash */
    strbuf deep = STRBUF_INIT;
    sb_puts(&deep, "PTX deep\n{ x=0; }\nP0 ;\nmembar.gl ;\nexists ");
    for (int i = 0; i < 100000; i++)
        sb_putc(&deep, '(');
    CHECK(parse_exact(deep.s, deep.len, "deep", &ta, &err) == -1);
    CHECK_STR_CONTAINS(sb_cstr(&err), "nested too deeply");
    sb_clear(&deep);
    sb_puts(&deep, "PTX notnot\n{ x=0; }\nP0 ;\nmembar.gl ;\nexists ");
    for (int i = 0; i < 100000; i++)
        sb_putc(&deep, '~');
    CHECK(parse_exact(deep.s, deep.len, "notnot", &ta, &err) == -1);
    sb_clear(&deep);
    sb_puts(&deep, "GPU_PTX tree\n{ 0:r0=0; }\nP0 ;\nmembar.gl ;\nscopeTree\n");
    for (int i = 0; i < 100000; i++)
        sb_puts(&deep, "(device ");
    CHECK(parse_exact(deep.s, deep.len, "tree", &ta, &err) == -1);
    sb_free(&deep);

    /* the empty text, and NULL */
    CHECK(parse_exact("", 0, "empty", &ta, &err) == -1);
    CHECK_STR_CONTAINS(sb_cstr(&err), "empty:1:1: error:");
    sb_clear(&err);
    CHECK(lit_parse(NULL, 0, NULL, &ta, &err) == -1);
    CHECK_STR_CONTAINS(sb_cstr(&err), "<input>:1:1: error:");

    /* a file that is not there */
    sb_clear(&err);
    CHECK(lit_parse_file(LOCKSTEP_SRC_DIR "/tests/litmus/no-such-file.litmus", &ta, &err) == -1);
    CHECK_STR_CONTAINS(sb_cstr(&err), "no-such-file.litmus:1:1: error: cannot read");

    /* herd dialect: a predicate typed by its use as a guard, registers by
     * their first write; ld/st without a type are an error outside PTX */
    round_trip_str("GPU_PTX g\n{ 0:r1=x; }\nP0 ;\n@p3 ld.cg.u64 r0,[r1] ;\nmov.u32 r0,2 ;\n"
                   "scopeTree (device (cta P0))\nexists (0:r0=2 /\\ 0:p3=0)\n");
    if (!parse_str("GPU_PTX g\n{ 0:r1=x; }\nP0 ;\n@p3 ld.cg.u64 r0,[r1] ;\nmov.u32 r0,2 ;\n"
                   "scopeTree (device (cta P0))\nexists (0:r0=2 /\\ 0:p3=0)\n",
                   &ta, &err)) {
        CHECK_EQ_INT(ta.threads[0].regs[reg_of(&ta, 0, "p3")].type, LIT_PRED);
        CHECK_EQ_INT(ta.threads[0].regs[reg_of(&ta, 0, "r0")].type, LIT_U64);
        CHECK_EQ_INT(ta.nctas, 1);
        CHECK_EQ_INT(ta.nwarps, 1);
        CHECK_EQ_INT(ta.locs[0].type, LIT_U64);
    }
    CHECK(parse_str(
              "GPU_PTX g\n{ 0:r1=x; }\nP0 ;\nld.cg r0,[r1] ;\nscopeTree (device (cta P0))\nexists (true)\n",
              &ta, &err) == -1);
    CHECK_STR_CONTAINS(sb_cstr(&err), "'ld' needs a type");
    /* a test with several errors reports them in order */
    CHECK(parse_str("PTX two\n{ }\nP0 | P1 ;\nfrob | st.acquire.gpu.s32 [x],1 ;\nexists (true)\n", &ta,
                    &err) == -1);
    CHECK_STR_CONTAINS(sb_cstr(&err), "inline:4:1: error: unknown instruction 'frob'\n"
                                      "inline:4:10: error: '.acquire' is not allowed on a store");
    sb_free(&err);
}

/* Condition and values ---------------------------------------------------- */

static void test_cond_eval(void)
{
    strbuf err = STRBUF_INIT;
    /* observed: 0:r0 (.u32), x (.s32), 1:r1 (.b64), y */
    const char *s = "PTX eval\n{ x=0; y=0; }\nP0 | P1 ;\n"
                    "ld.relaxed.gpu.u32 r0,[x] | mov.b64 r1,y ;\n"
                    "locations [0:r0; x;]\n"
                    "exists ((0:r0=-1 /\\ x=-1) \\/ (1:r1=y /\\ ~(y=3)) \\/ false)\n";
    int rc = parse_str(s, &ta, &err);
    CHECK_MSG(rc == 0, "%s", sb_cstr(&err));
    if (rc == 0) {
        CHECK_EQ_INT(ta.nobserved, 4);
        int64_t v[4] = {0xffffffff, -1, 0, 3};
        CHECK(lit_cond_eval(&ta, v)); /* 0:r0 is .u32: -1 is 0xffffffff */
        v[1] = 0xffffffff;            /* x is .s32: 0xffffffff is -1 */
        CHECK(lit_cond_eval(&ta, v));
        v[1] = 0;
        CHECK(!lit_cond_eval(&ta, v));
        v[2] = (int64_t)lit_loc_addr(1); /* 1:r1 holds y's address */
        CHECK(!lit_cond_eval(&ta, v));   /* but y = 3 */
        v[3] = 4;
        CHECK(lit_cond_eval(&ta, v));
        v[2] = (int64_t)lit_loc_addr(0);
        CHECK(!lit_cond_eval(&ta, v));
    }
    CHECK(parse_str("PTX t\n{ x=0; }\nP0 ;\nmembar.gl ;\nforall (true)\n", &ta, &err) == 0);
    CHECK(lit_cond_eval(&ta, NULL));
    CHECK_EQ_INT(ta.nobserved, 0);
    CHECK(parse_str("PTX t\n{ x=0; }\nP0 ;\nmembar.gl ;\nforall (~true \\/ false)\n", &ta, &err) == 0);
    CHECK(!lit_cond_eval(&ta, NULL));
    sb_free(&err);
}

static void test_norm(void)
{
    CHECK_EQ_INT(lit_norm(LIT_S32, 0xffffffff), -1);
    CHECK_EQ_INT(lit_norm(LIT_S32, 0x180000000ll), INT32_MIN);
    CHECK_EQ_INT(lit_norm(LIT_S32, 7), 7);
    CHECK_EQ_INT(lit_norm(LIT_U32, -1), 0xffffffffll);
    CHECK_EQ_INT(lit_norm(LIT_B32, 0x1234567890ll), 0x34567890ll);
    CHECK_EQ_INT(lit_norm(LIT_S64, -5), -5);
    CHECK_EQ_INT(lit_norm(LIT_U64, -5), -5); /* 64 bits: unchanged */
    CHECK_EQ_INT(lit_norm(LIT_B64, INT64_MIN), INT64_MIN);
    CHECK_EQ_INT(lit_norm(LIT_PRED, 0), 0);
    CHECK_EQ_INT(lit_norm(LIT_PRED, 42), 1);
    CHECK_EQ_INT(lit_norm(LIT_PRED, INT64_MIN), 1);
}

/* herd's spellings: nested comments, not, <> and => (A => B is ~A \/ B). */
static void test_herd_condition_syntax(void)
{
    lit_test *t = &ta;
    if (parse_good("LB-herd-syntax.litmus", t))
        return;
    CHECK_EQ_INT(t->nobserved, 2); /* 0:r0, 1:r0 */
    int64_t v[2];
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            v[0] = a;
            v[1] = b;
            /* 0:r0=1 => not (1:r0=0) */
            CHECK_EQ_INT(lit_cond_eval(t, v), !(a == 1) || b == 1);
        }
    /* <> is != */
    strbuf err = STRBUF_INIT;
    const char *ne = "PTX NE\n{ x=0; }\nP0 ;\nld.relaxed.gpu.s32 r0,[x] ;\nexists (0:r0 <> 1)\n";
    if (!parse_str(ne, t, &err)) {
        v[0] = 1;
        CHECK_EQ_INT(lit_cond_eval(t, v), 0);
        v[0] = 0;
        CHECK_EQ_INT(lit_cond_eval(t, v), 1);
    } else {
        CHECK_MSG(0, "%s", sb_cstr(&err));
    }
    sb_free(&err);
}

int main(void)
{
    RUN(test_round_trip);
    RUN(test_sb_fields);
    RUN(test_cas_sl_fields);
    RUN(test_other_fields);
    RUN(test_herd_condition_syntax);
    RUN(test_bad_files);
    RUN(test_prefixes);
    RUN(test_inline);
    RUN(test_cond_eval);
    RUN(test_norm);
    return test_summary();
}
