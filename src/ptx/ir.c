/*
 * ir.c -- the tables behind ir.h and the module's release.
 */
#include "ptx/ir.h"

#include <stdlib.h>

#include "util/arena.h"

const char *const ptx_op_names[OP_COUNT] = {
#define X(e, s, u) s,
    PTX_OPS(X)
#undef X
};

const uint8_t ptx_op_units[OP_COUNT] = {
#define X(e, s, u) u,
    PTX_OPS(X)
#undef X
};

const char *const ir_sreg_names[SREG_COUNT] = {
#define X(e, s) s,
    IR_SREGS(X)
#undef X
};

void ir_module_free(ir_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        free(m->funcs[i].shared_off);
        free(m->funcs[i].params);
        free(m->funcs[i].rets);
    }
    for (uint32_t i = 0; i < m->ncalls; i++)
        free(m->calls[i].arg_off); /* one block holds all four arrays */
    free(m->calls);
    free(m->shrefs);
    free(m->code);
    free(m->pos);
    free(m->funcs);
    free(m->vars);
    free(m->kpool);
    free(m->files);
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
