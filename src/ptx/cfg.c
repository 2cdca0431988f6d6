/*
 * cfg.c -- post-dominators over a function's instructions.
 *
 * The graph's nodes are the function's instructions plus one exit node
 * (ret, exit and trap lead there).  Immediate post-dominators are the
 * immediate dominators of the reverse graph rooted at the exit, found with
 * the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
 * Dominance Algorithm").  Working per instruction rather than per basic
 * block keeps the code short; functions are small enough that it is fast.
 * Instructions from which the exit cannot be reached (an infinite loop)
 * have no post-dominator: their branches get no reconvergence point and
 * diverged paths only rejoin when lanes exit.
 */
#include "ptx/cfg.h"

#include <stdlib.h>
#include <string.h>

/* Successors of instruction i (function-relative); returns their number. */
static int succs(const ir_module *m, const ir_func *f, uint32_t i, uint32_t out[2])
{
    uint32_t n = f->end - f->start, exit = n;
    const ir_insn *in = &m->code[f->start + i];
    int guarded = in->guard.kind != IRO_NONE;
    uint32_t next = i + 1 < n ? i + 1 : exit;
    switch (in->op) {
    case OP_BRA:
        out[0] = in->target - f->start;
        if (guarded) {
            out[1] = next;
            return 2;
        }
        return 1;
    case OP_RET: case OP_EXIT: case OP_TRAP: case OP_BRKPT:
        out[0] = exit;
        if (guarded) {
            out[1] = next;
            return 2;
        }
        return 1;
    default:
        out[0] = next;
        return 1;
    }
}

uint32_t *cfg_ipdom(const ir_module *m, const ir_func *f)
{
    uint32_t n = f->end - f->start, exit = n, nn = n + 1;
    uint32_t *result = NULL;
    uint32_t *ipdom = malloc(nn * sizeof *ipdom);
    uint32_t *po = malloc(nn * sizeof *po);        /* postorder number of each node */
    uint32_t *order = malloc(nn * sizeof *order);  /* nodes by postorder */
    uint32_t *npred = calloc(nn + 1, sizeof *npred);
    uint32_t *preds = malloc(2 * nn * sizeof *preds);
    uint32_t *stack = malloc(nn * sizeof *stack);
    uint32_t *iter = malloc(nn * sizeof *iter);
    if (!ipdom || !po || !order || !npred || !preds || !stack || !iter)
        goto done;
    /* forward predecessors (the reverse graph's successors), as CSR */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t s[2];
        int k = succs(m, f, i, s);
        for (int j = 0; j < k; j++)
            npred[s[j] + 1]++;
    }
    for (uint32_t i = 0; i < nn; i++)
        npred[i + 1] += npred[i];
    {
        uint32_t *fill = calloc(nn, sizeof *fill);
        if (!fill)
            goto done;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t s[2];
            int k = succs(m, f, i, s);
            for (int j = 0; j < k; j++)
                preds[npred[s[j]] + fill[s[j]]++] = i;
        }
        free(fill);
    }
    /* iterative DFS from the exit over predecessors: postorder numbers */
    for (uint32_t i = 0; i < nn; i++) {
        po[i] = UINT32_MAX;
        ipdom[i] = UINT32_MAX;
    }
    uint32_t sp = 0, count = 0;
    stack[sp] = exit;
    iter[sp] = npred[exit];
    sp++;
    po[exit] = UINT32_MAX - 1; /* visited */
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (iter[sp - 1] < npred[v + 1]) {
            uint32_t w = preds[iter[sp - 1]++];
            if (po[w] == UINT32_MAX) {
                po[w] = UINT32_MAX - 1;
                stack[sp] = w;
                iter[sp] = npred[w];
                sp++;
            }
        } else {
            po[v] = count;
            order[count++] = v;
            sp--;
        }
    }
    /* Cooper-Harvey-Kennedy on the reverse graph: a node's "predecessors" there
     * are its forward successors */
    ipdom[exit] = exit;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t k = count; k-- > 0;) {
            uint32_t b = order[k];
            if (b == exit)
                continue;
            uint32_t s[2], nb = UINT32_MAX;
            int ns = succs(m, f, b, s);
            for (int j = 0; j < ns; j++) {
                uint32_t p = s[j];
                if (ipdom[p] == UINT32_MAX)
                    continue;
                if (nb == UINT32_MAX) {
                    nb = p;
                    continue;
                }
                uint32_t f1 = p, f2 = nb;
                while (f1 != f2) {
                    while (po[f1] < po[f2])
                        f1 = ipdom[f1];
                    while (po[f2] < po[f1])
                        f2 = ipdom[f2];
                }
                nb = f1;
            }
            if (nb != ipdom[b]) {
                ipdom[b] = nb;
                changed = 1;
            }
        }
    }
    result = ipdom;
    ipdom = NULL;
done:
    free(ipdom);
    free(po);
    free(order);
    free(npred);
    free(preds);
    free(stack);
    free(iter);
    return result;
}

int cfg_compute_reconvergence(ir_module *m, diag *d)
{
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ir_func *f = &m->funcs[fi];
        if (!f->has_body || f->end == f->start)
            continue;
        uint32_t *ipdom = cfg_ipdom(m, f);
        if (!ipdom) {
            d->oom = 1;
            return -1;
        }
        uint32_t n = f->end - f->start;
        for (uint32_t i = 0; i < n; i++) {
            ir_insn *in = &m->code[f->start + i];
            if (in->op != OP_BRA || in->guard.kind == IRO_NONE)
                continue;
            uint32_t r = ipdom[i];
            in->reconv = (r == UINT32_MAX || r >= n) ? IR_NO_PC : f->start + r;
        }
        free(ipdom);
    }
    return 0;
}
