/*
 * test_frontend.c -- the parser, the lowering and the CFG analysis on small
 * PTX texts: AST shape (scopes, labels, calls, initializers), the decoded
 * IR (register windows, ranges, constant pool, address modes, parameter
 * layout), and the reconvergence points computed from post-dominators.
 */
#include <string.h>

#include "ptx/cfg.h"
#include "ptx/lower.h"
#include "ptx/parse.h"
#include "test.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

static ir_module *load(const char *src, diag *d)
{
    ast_module am;
    ir_module *m = NULL;
    diag_init(d, "t.ptx");
    if (!ptx_parse(src, strlen(src), "t.ptx", &am, d))
        ptx_lower(&am, NULL, d, &m);
    ast_module_free(&am);
    return m;
}

static void test_parse_shape(void)
{
    const char *src = HDR
        ".global .align 4 .u32 g[3] = {1, -2, 0x10};\n"
        ".visible .entry k(.param .u64 p, .param .align 8 .b8 s[24])\n"
        ".maxntid 128, 1, 1\n"
        "{\n"
        "  .reg .b32 %r<4>;\n"
        "  { .reg .b32 t; mov.u32 t, 1; }\n"
        "L1:\n"
        "  @%p1 bra L1;\n"
        "}\n";
    ast_module am;
    diag d;
    diag_init(&d, "t.ptx");
    int rc = ptx_parse(src, strlen(src), "t.ptx", &am, &d);
    CHECK_MSG(rc == 0, "%s", sb_cstr(&d.text));
    CHECK_EQ_INT(am.version_major, 9);
    CHECK(am.target && !strcmp(am.target, "sm_75"));
    CHECK_EQ_INT(am.vars.n, 1);
    CHECK_EQ_INT(am.vars.v[0].count, 3);
    CHECK_EQ_INT(am.vars.v[0].ninit, 3);
    CHECK_EQ_U64(am.vars.v[0].init[1].bits, (uint64_t)-2);
    CHECK_EQ_INT(am.funcs.n, 1);
    const ast_func *f = &am.funcs.v[0];
    CHECK(f->is_entry && f->has_body);
    CHECK_EQ_INT(f->nparams, 2);
    CHECK_EQ_INT(f->params[1].count, 24);
    CHECK_EQ_INT(f->params[1].align, 8);
    CHECK_EQ_INT(f->maxntid[0], 128);
    CHECK_EQ_INT(f->scope_parent.n, 2); /* the body and one nested block */
    CHECK_EQ_INT(f->insns.n, 2);
    CHECK_EQ_INT(f->insns.v[0].scope, 1);
    CHECK_EQ_INT(f->labels.n, 1);
    CHECK_EQ_INT(f->labels.v[0].insn, 1);
    CHECK(f->insns.v[1].guard && !strcmp(f->insns.v[1].guard, "%p1"));
    ast_module_free(&am);
    diag_free(&d);
}

static void test_lowering(void)
{
    const char *src = HDR
        ".shared .align 8 .b8 sh[16];\n"
        ".visible .entry k(.param .u32 n, .param .u64 p)\n"
        "{\n"
        "  .reg .b32 %r<3>;\n"
        "  .reg .b64 %rd<3>;\n"
        "  .reg .pred %p<2>;\n"
        "  ld.param.u32 %r1, [n];\n"
        "  ld.param.u64 %rd1, [p];\n"
        "  add.s32 %r2, %r1, 7;\n"
        "  add.s32 %r2, %r2, 7;\n"
        "  st.shared.u32 [sh+8], %r2;\n"
        "  setp.lt.s32 %p1, %r1, %r2;\n"
        "  ret;\n"
        "}\n";
    diag d;
    ir_module *m = load(src, &d);
    CHECK_MSG(m != NULL, "%s", sb_cstr(&d.text));
    if (m) {
        const ir_func *f = &m->funcs[0];
        CHECK_EQ_INT(f->nparams, 2);
        CHECK_EQ_INT(f->params[0].offset, 0);
        CHECK_EQ_INT(f->params[1].offset, 8); /* u64 aligned to 8 */
        CHECK_EQ_INT(f->param_bytes, 16);
        CHECK_EQ_INT(f->nregs, 6); /* %r<3> and %rd<3> */
        CHECK_EQ_INT(f->npreds, 2);
        const ir_insn *ld = &m->code[f->start];
        CHECK(ld->op == OP_LD && ld->space == SP_KPARAM && ld->imm == 0);
        CHECK(m->code[f->start + 1].imm == 8);
        const ir_insn *a1 = &m->code[f->start + 2], *a2 = &m->code[f->start + 3];
        CHECK(a1->s[1].kind == IRO_CONST && a1->s[1].idx == a2->s[1].idx); /* one pool row for 7 */
        CHECK_EQ_U64(m->kpool[a1->s[1].idx * 32 + 17], 7);
        const ir_insn *st = &m->code[f->start + 4];
        CHECK(st->op == OP_ST && st->space == SP_SHARED && st->amode == AM_SHSYM);
        CHECK_EQ_INT(m->shrefs[st->aux].off, 0);
        CHECK_EQ_INT(st->imm, 8);
        CHECK_EQ_INT(f->shared_bytes, 16);
        CHECK(m->code[f->start + 5].d[0].kind == IRO_PRED);
        CHECK_EQ_INT(m->pos[f->start + 2].ptx_line, 12);
        ir_module_free(m);
    }
    diag_free(&d);
}

static void test_call_frames(void)
{
    const char *src = HDR
        ".func (.param .b32 r) f(.param .b32 a, .param .align 8 .b8 s[12])\n"
        "{\n  .local .align 4 .b8 depot[20];\n  .reg .b32 %x;\n"
        "  ld.param.u32 %x, [a];\n  st.param.b32 [r], %x;\n  ret;\n}\n"
        ".visible .entry k()\n{\n  .reg .b32 %y;\n"
        "  { .param .b32 a0; .param .align 8 .b8 a1[12]; .param .b32 r0;\n"
        "    st.param.b32 [a0], 1;\n    call.uni (r0), f, (a0, a1);\n    ld.param.b32 %y, [r0]; }\n"
        "  ret;\n}\n";
    diag d;
    ir_module *m = load(src, &d);
    CHECK_MSG(m != NULL, "%s", sb_cstr(&d.text));
    if (m) {
        const ir_func *f = &m->funcs[0], *k = &m->funcs[1];
        CHECK_EQ_INT(f->params[0].offset, 0);
        CHECK_EQ_INT(f->params[1].offset, 8);
        CHECK_EQ_INT(f->rets[0].offset, 20);
        CHECK_EQ_INT(f->frame_bytes, 48); /* 24 params/ret, 20 locals at 24, rounded to 16 */
        CHECK_EQ_INT(m->ncalls, 1);
        CHECK_EQ_INT(m->calls[0].nargs, 2);
        CHECK_EQ_INT(m->calls[0].arg_off[1], 8);
        CHECK_EQ_INT(m->calls[0].ret_off[0], 20);
        CHECK(!k->recursive);
        CHECK_EQ_INT(k->max_frame_depth_bytes, k->frame_bytes + f->frame_bytes);
        ir_module_free(m);
    }
    diag_free(&d);
}

/* Reconvergence points: if/else, a loop with a divergent break, and a path
 * that never returns (its branch has no post-dominator short of the exit). */
static void test_reconvergence(void)
{
    const char *src = HDR
        ".visible .entry k()\n{\n  .reg .pred %p<4>;\n  .reg .b32 %r<4>;\n"
        "  @%p1 bra ELSE;\n"   /* 0: if/else, joins at 4 */
        "  add.s32 %r1, %r1, 1;\n" /* 1 */
        "  bra JOIN;\n"        /* 2 */
        "ELSE:\n  add.s32 %r1, %r1, 2;\n" /* 3 */
        "JOIN:\nLOOP:\n  add.s32 %r2, %r2, 1;\n" /* 4 */
        "  @%p2 bra OUT;\n"    /* 5: break out of the loop, rejoins at 8 */
        "  @%p3 bra LOOP;\n"   /* 6: back edge: every path leaves through 8 */
        "  add.s32 %r3, %r3, 1;\n" /* 7 */
        "OUT:\n  @%p1 bra DIE;\n" /* 8: one side exits: no reconvergence */
        "  ret;\n"             /* 9 */
        "DIE:\n  exit;\n"      /* 10 */
        "}\n";
    diag d;
    ir_module *m = load(src, &d);
    CHECK_MSG(m != NULL, "%s", sb_cstr(&d.text));
    if (m) {
        uint32_t s = m->funcs[0].start;
        CHECK_EQ_INT(m->code[s + 0].reconv, s + 4);
        CHECK_EQ_INT(m->code[s + 5].reconv, s + 8);
        CHECK_EQ_INT(m->code[s + 6].reconv, s + 8);
        CHECK_EQ_U64(m->code[s + 8].reconv, IR_NO_PC);
        CHECK_EQ_U64(m->code[s + 2].reconv, IR_NO_PC); /* unconditional: none needed */
        uint32_t *ip = cfg_ipdom(m, &m->funcs[0]);
        CHECK(ip != NULL);
        if (ip) {
            CHECK_EQ_INT(ip[1], 2);
            CHECK_EQ_INT(ip[9], 11); /* ret -> the exit node (n) */
            free(ip);
        }
        ir_module_free(m);
    }
    diag_free(&d);
}

static void test_infinite_loop_has_no_ipdom(void)
{
    const char *src = HDR ".visible .entry k()\n{\n  .reg .pred %p<2>;\n"
                          "SPIN:\n  @%p1 bra SPIN;\nSTUCK:\n  bra STUCK;\n}\n";
    diag d;
    ir_module *m = load(src, &d);
    CHECK_MSG(m != NULL, "%s", sb_cstr(&d.text));
    if (m) {
        CHECK_EQ_U64(m->code[m->funcs[0].start].reconv, IR_NO_PC);
        ir_module_free(m);
    }
    diag_free(&d);
}

int main(void)
{
    RUN(test_parse_shape);
    RUN(test_lowering);
    RUN(test_call_frames);
    RUN(test_reconvergence);
    RUN(test_infinite_loop_has_no_ipdom);
    return test_summary();
}
