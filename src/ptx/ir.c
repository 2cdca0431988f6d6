/*
 * ir.c -- the tables behind ir.h and the module's release.
 */
#include "ptx/ir.h"

#include <stdlib.h>
#include <string.h>

#include "util/arena.h"

const char *const ptx_op_names[OP_COUNT] = {
#define X(e, name, unit, lat, fam, mix, cats, mflags, props, sample) name,
    PTX_OPS(X)
#undef X
};

const ptx_opinfo ptx_ops[OP_COUNT] = {
#define X(e, name, unit, lat, fam, mix, cats, mflags, props, sample)                          \
    {name, unit, lat, fam, mix, cats, mflags, props, sample},
    PTX_OPS(X)
#undef X
};

const char *const ir_mix_names[MIX_COUNT] = {
#define X(e, s) s,
    IR_MIXES(X)
#undef X
};

const char *const ir_sreg_names[SREG_COUNT] = {
#define X(e, s) s,
    IR_SREGS(X)
#undef X
};

const char *const ir_builtin_names[BI_COUNT] = {
#define X(id, name, params, ret) name,
    IR_BUILTINS(X)
#undef X
};

const char *const ir_builtin_params[BI_COUNT] = {
#define X(id, name, params, ret) params,
    IR_BUILTINS(X)
#undef X
};

const uint8_t ir_builtin_ret[BI_COUNT] = {
#define X(id, name, params, ret) ret,
    IR_BUILTINS(X)
#undef X
};

int ir_devrt_name(const char *name)
{
    return !strncmp(name, "cuda", 4) || !strncmp(name, "__cuda", 6) || !strncmp(name, "cnp", 3);
}

int ir_builtin_lookup(const char *name)
{
    for (int k = 0; k < BI_FIRST_DEVRT; k++)
        if (!strcmp(name, ir_builtin_names[k]))
            return k;
    if (!ir_devrt_name(name))
        return -1;
    /* __cudaCDP2X is cudaX; X_ptsz is X */
    char buf[128];
    const char *base = name;
    size_t n = strlen(name);
    static const char cdp2[] = "__cudaCDP2";
    if (!strncmp(name, cdp2, sizeof cdp2 - 1)) {
        base = name + sizeof cdp2 - 1;
        n -= sizeof cdp2 - 1;
        if (n + 4 >= sizeof buf)
            return BI_DR_MISSING;
        memcpy(buf, "cuda", 4);
        memcpy(buf + 4, base, n + 1);
        n += 4;
    } else {
        if (n >= sizeof buf)
            return BI_DR_MISSING;
        memcpy(buf, name, n + 1);
    }
    if (n > 5 && !strcmp(buf + n - 5, "_ptsz"))
        buf[n - 5] = 0;
    for (int k = BI_FIRST_DEVRT; k < BI_DR_MISSING; k++)
        if (!strcmp(buf, ir_builtin_names[k]))
            return k;
    return BI_DR_MISSING;
}

static const char *ptx_file_at(const ir_module *m, uint32_t idx)
{
    if (idx && idx <= m->nptx_files)
        return m->ptx_files[idx - 1];
    return m->filename ? m->filename : "<ptx>";
}

const char *ir_pc_ptx_file(const ir_module *m, uint32_t pc)
{
    return ptx_file_at(m, pc < m->ncode ? m->pos[pc].ptx_file : 0);
}

const char *ir_func_ptx_file(const ir_module *m, const ir_func *f) { return ptx_file_at(m, f->ptx_file); }

void ir_module_free(ir_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        free(m->funcs[i].shared_off);
        free(m->funcs[i].zero_rows);
        free(m->funcs[i].params);
        free(m->funcs[i].rets);
    }
    for (uint32_t i = 0; i < m->ncalls; i++)
        free(m->calls[i].arg_off); /* one block holds all four arrays */
    free(m->calls);
    free(m->shrefs);
    free(m->mmas);
    free(m->code);
    free(m->pos);
    free(m->funcs);
    for (uint32_t i = 0; m->vars && i < m->nvars; i++)
        free(m->vars[i].init);
    free(m->vars);
    free(m->kpool);
    free(m->files);
    free(m->ptx_files);
    if (m->strings) {
        arena_free(m->strings);
        free(m->strings);
    }
    free(m);
}

uint32_t ir_func_of_pc(const ir_module *m, uint32_t pc)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].has_body && pc >= m->funcs[i].start && pc < m->funcs[i].end)
            return i;
    return 0;
}

ir_mix ir_mem_mix(const ir_insn *in, int space)
{
    int st = (ptx_op_props(in->op) & OPF_STORE) != 0;
    if (in->op == OP_ATOM || in->op == OP_RED)
        return space == SP_SHARED ? MIX_ATOM_SHARED : MIX_ATOM_GLOBAL;
    switch (space) {
    case SP_SHARED: return st ? MIX_ST_SHARED : MIX_LD_SHARED;
    case SP_LOCAL: return st ? MIX_ST_LOCAL : MIX_LD_LOCAL;
    case SP_CONST: return MIX_LD_CONST;
    case SP_PARAM: case SP_KPARAM: case SP_FPARAM: return st ? MIX_ST_PARAM : MIX_LD_PARAM;
    default: return st ? MIX_ST_GLOBAL : MIX_LD_GLOBAL;
    }
}

/* The arithmetic class of a type. */
static ir_mix type_mix(int t)
{
    if (!ptx_type_is_float((ptx_type)t))
        return MIX_INT;
    if (t == PT_F64)
        return MIX_FP64;
    if (t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_BF16X2)
        return MIX_FP16;
    return MIX_FP32;
}

/* An instruction's mix class, from its row's mix kind (optable.h). */
static ir_mix insn_mix(const ir_insn *in)
{
    switch (ptx_ops[in->op].mix) {
    case MK_INT: return MIX_INT;
    case MK_MEM:
        /* function parameters are registers on hardware, frame memory here */
        return ir_mem_mix(in, in->flags & IRF_FPARAM ? SP_PARAM : in->space);
    case MK_BRANCH: return MIX_BRANCH;
    case MK_CALL: return MIX_CALL;
    case MK_BARRIER: return MIX_BARRIER;
    case MK_FENCE: return MIX_FENCE;
    case MK_WARP: return MIX_WARP;
    case MK_CVT: {
        /* a conversion runs where its wider float side does */
        ir_mix a = type_mix(in->type), b = type_mix(in->type2);
        if (a == MIX_FP64 || b == MIX_FP64)
            return MIX_FP64;
        if (a == MIX_FP32 || b == MIX_FP32)
            return MIX_FP32;
        return a != MIX_INT ? a : b;
    }
    case MK_TYPE2: return type_mix(in->type2); /* the comparison's type decides */
    case MK_TYPE: return type_mix(in->type);
    case MK_SFU: return in->type == PT_F64 ? MIX_FP64 : MIX_SFU;
    case MK_ASYNC:
        /* an asynchronous copy reads global memory; the rest synchronizes */
        return in->op == OP_CP && in->mode == CPA_COPY ? MIX_LD_GLOBAL : MIX_BARRIER;
    default: return MIX_OTHER;
    }
}

void ir_classify(ir_module *m)
{
    for (uint32_t i = 0; i < m->ncode; i++)
        m->code[i].mix = (uint8_t)insn_mix(&m->code[i]);
    /* ret from a kernel is its exit, not the end of a call */
    for (uint32_t f = 0; f < m->nfuncs; f++)
        if (m->funcs[f].is_entry && m->funcs[f].has_body)
            for (uint32_t pc = m->funcs[f].start; pc < m->funcs[f].end; pc++)
                if (ptx_ops[m->code[pc].op].props & OPF_RET)
                    m->code[pc].mix = MIX_OTHER;
}
