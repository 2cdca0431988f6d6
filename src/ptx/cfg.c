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
 *
 * The same graph answers which register rows a thread can read before it
 * wrote them.  PTX leaves such reads undefined; lockstep gives them zero,
 * so a run never depends on what a CTA slot held before.  Zeroing every
 * row of every warp at each CTA start (and of each callee at every call)
 * costs more than many kernels' work when nvcc declares hundreds of
 * registers; the dataflow below finds the few rows (usually none) that
 * need it.
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
    uint32_t props = ptx_op_props(in->op);
    if (props & (OPF_BRANCH | OPF_ENDS)) {
        /* a branch goes to its target, a ret/exit/trap to the exit node;
         * a guarded one may also fall through */
        out[0] = props & OPF_BRANCH ? in->target - f->start : exit;
        if (guarded) {
            out[1] = next;
            return 2;
        }
        return 1;
    }
    out[0] = next;
    return 1;
}

/* The predecessors of every node (f's instructions and the exit, n), as
 * CSR: node v's are preds[npred[v] .. npred[v + 1]).  0, or -1 on OOM
 * (nothing to free then). */
static int pred_csr(const ir_module *m, const ir_func *f, uint32_t **npred_out,
                    uint32_t **preds_out)
{
    uint32_t n = f->end - f->start, nn = n + 1;
    uint32_t *npred = calloc(nn + 1, sizeof *npred);
    uint32_t *preds = malloc(2 * nn * sizeof *preds);
    uint32_t *fill = calloc(nn, sizeof *fill);
    if (!npred || !preds || !fill) {
        free(npred);
        free(preds);
        free(fill);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t s[2];
        int k = succs(m, f, i, s);
        for (int j = 0; j < k; j++)
            npred[s[j] + 1]++;
    }
    for (uint32_t i = 0; i < nn; i++)
        npred[i + 1] += npred[i];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t s[2];
        int k = succs(m, f, i, s);
        for (int j = 0; j < k; j++)
            preds[npred[s[j]] + fill[s[j]]++] = i;
    }
    free(fill);
    *npred_out = npred;
    *preds_out = preds;
    return 0;
}

uint32_t *cfg_ipdom(const ir_module *m, const ir_func *f)
{
    uint32_t n = f->end - f->start, exit = n, nn = n + 1;
    uint32_t *result = NULL;
    uint32_t *ipdom = malloc(nn * sizeof *ipdom);
    uint32_t *po = malloc(nn * sizeof *po);        /* postorder number of each node */
    uint32_t *order = malloc(nn * sizeof *order);  /* nodes by postorder */
    uint32_t *npred = NULL, *preds = NULL; /* forward predecessors: the reverse graph's successors */
    uint32_t *stack = malloc(nn * sizeof *stack);
    uint32_t *iter = malloc(nn * sizeof *iter);
    if (!ipdom || !po || !order || !stack || !iter || pred_csr(m, f, &npred, &preds))
        goto done;
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
            if (!(ptx_op_props(in->op) & OPF_BRANCH) || in->guard.kind == IRO_NONE)
                continue;
            uint32_t r = ipdom[i];
            in->reconv = (r == UINT32_MAX || r >= n) ? IR_NO_PC : f->start + r;
        }
        free(ipdom);
    }
    return 0;
}

/* ---- registers read before written ---------------------------------------------- */

/* The register rows instruction `in` reads (at most 28; cfg.h). */
int cfg_reg_reads(const ir_module *m, const ir_insn *in, uint32_t out[28])
{
    int n = 0;
    if (IR_IS_MMA(in->op) && in->target < m->nmmas) {
        const ir_mma *mm = &m->mmas[in->target];
        for (int i = 0; i < mm->na; i++)
            out[n++] = mm->a[i];
        for (int i = 0; i < mm->nb; i++)
            out[n++] = mm->b[i];
        for (int i = 0; i < mm->nc; i++)
            out[n++] = mm->c[i];
        return n;
    }
    for (int i = 0; i < 4; i++)
        if (in->s[i].kind == IRO_REG)
            out[n++] = in->s[i].idx;
    for (int i = 0; i < 4 && (in->flags & IRF_DSRC); i++)
        if (in->d[i].kind == IRO_REG)
            out[n++] = in->d[i].idx;
    if (in->addr.kind == IRO_REG)
        out[n++] = in->addr.idx;
    if (in->op == OP_CALL && (in->flags & IRF_INDIRECT) && in->aux < m->ncalls &&
        m->calls[in->aux].target_reg.kind == IRO_REG)
        out[n++] = m->calls[in->aux].target_reg.idx;
    return n;
}

/* Whether `in` writes its destination rows in every lane that executes it.
 * A guarded instruction may not (its false lanes keep the old value); a
 * bar.red's result arrives when the barrier completes; a call writes none
 * of the caller's rows. */
static int writes_all_lanes(const ir_insn *in)
{
    return in->guard.kind == IRO_NONE && !(ptx_op_props(in->op) & (OPF_BARRIER | OPF_CALL));
}

/* The rows definitely written on entry to instruction i: none at the
 * function's start, else what every predecessor's `out` has. */
static void written_before(uint32_t i, uint32_t nw, const uint64_t *out, const uint32_t *npred,
                           const uint32_t *preds, uint64_t *cur)
{
    memset(cur, i == 0 ? 0 : 0xff, nw * sizeof *cur);
    for (uint32_t p = npred[i]; p < npred[i + 1]; p++)
        for (uint32_t w = 0; w < nw; w++)
            cur[w] &= out[(size_t)preds[p] * nw + w];
}

/* Forward "definitely written" dataflow over f's instructions, one bit per
 * register row; a row read where it is not definitely written goes into
 * f->zero_rows.  0, or -1 on host OOM. */
static int zero_rows_of(ir_module *m, ir_func *f)
{
    uint32_t n = f->end - f->start, nw = (f->nregs + 63) / 64;
    int rc = -1;
    uint64_t *out = NULL, *cur = NULL, *need = NULL;
    uint32_t *npred = NULL, *preds = NULL;
    if (!nw)
        return 0;
    out = malloc((size_t)n * nw * sizeof *out);
    cur = malloc(nw * sizeof *cur);
    need = calloc(nw, sizeof *need);
    if (!out || !cur || !need || pred_csr(m, f, &npred, &preds))
        goto done;
    /* out = everything written, until shown otherwise (unreachable code
     * keeps it, so it flags nothing) */
    memset(out, 0xff, (size_t)n * nw * sizeof *out);
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 0; i < n; i++) {
            const ir_insn *in = &m->code[f->start + i];
            written_before(i, nw, out, npred, preds, cur);
            if (writes_all_lanes(in) && !(in->flags & IRF_DSRC))
                for (int d = 0; d < 4; d++)
                    if (in->d[d].kind == IRO_REG && in->d[d].idx < f->nregs)
                        cur[in->d[d].idx / 64] |= 1ull << (in->d[d].idx % 64);
            if (IR_IS_MMA(in->op) && in->target < m->nmmas && writes_all_lanes(in))
                for (int d = 0; d < m->mmas[in->target].nd; d++) {
                    uint32_t r = m->mmas[in->target].d[d];
                    if (r < f->nregs)
                        cur[r / 64] |= 1ull << (r % 64);
                }
            uint64_t *o = out + (size_t)i * nw;
            if (memcmp(o, cur, nw * sizeof *cur)) {
                memcpy(o, cur, nw * sizeof *cur);
                changed = 1;
            }
        }
    }
    /* the reads: against what is definitely written before each one */
    for (uint32_t i = 0; i < n; i++) {
        const ir_insn *in = &m->code[f->start + i];
        uint32_t r[28];
        int k = cfg_reg_reads(m, in, r);
        written_before(i, nw, out, npred, preds, cur);
        for (int j = 0; j < k; j++) {
            if (r[j] >= f->nregs)
                continue;
            /* a warp exchange (shfl, match, ...) reads the row in other lanes,
             * which may not have written it */
            int cross_lane = (ptx_op_props(in->op) & OPF_WARPX) != 0;
            if (cross_lane || !(cur[r[j] / 64] >> (r[j] % 64) & 1))
                need[r[j] / 64] |= 1ull << (r[j] % 64);
        }
    }
    uint32_t count = 0;
    for (uint32_t w = 0; w < nw; w++)
        count += (uint32_t)__builtin_popcountll(need[w]);
    free(f->zero_rows);
    f->zero_rows = NULL;
    f->nzero_rows = 0;
    if (count) {
        f->zero_rows = malloc(count * sizeof *f->zero_rows);
        if (!f->zero_rows)
            goto done;
        for (uint32_t r = 0; r < f->nregs; r++)
            if (need[r / 64] >> (r % 64) & 1)
                f->zero_rows[f->nzero_rows++] = r;
    }
    rc = 0;
done:
    free(out);
    free(cur);
    free(need);
    free(npred);
    free(preds);
    return rc;
}

int cfg_compute_zero_rows(ir_module *m, diag *d)
{
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        ir_func *f = &m->funcs[fi];
        if (!f->has_body || f->end == f->start)
            continue;
        if (zero_rows_of(m, f)) {
            d->oom = 1;
            return -1;
        }
    }
    return 0;
}

/* ---- live registers ------------------------------------------------------------------ */

/* Backward "may be read before written" dataflow, one bit per register
 * row: live[i] = reads(i) | (live after i minus the rows i surely writes),
 * live after i = the union of its successors' live sets (none after the
 * exit).  A guarded write, a barrier's and a call's leave the row live (some
 * lanes may keep the old value). */
uint64_t *cfg_live_in(const ir_module *m, const ir_func *f)
{
    uint32_t n = f->end - f->start, nw = (f->nregs + 63) / 64;
    if (!n || !nw)
        return calloc(1, sizeof(uint64_t));
    uint64_t *live = calloc((size_t)n * nw, sizeof *live);
    uint64_t *cur = malloc(nw * sizeof *cur);
    if (!live || !cur) {
        free(live);
        free(cur);
        return NULL;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = n; i-- > 0;) {
            const ir_insn *in = &m->code[f->start + i];
            uint32_t s[2];
            int k = succs(m, f, i, s);
            memset(cur, 0, nw * sizeof *cur);
            for (int j = 0; j < k; j++)
                if (s[j] < n)
                    for (uint32_t w = 0; w < nw; w++)
                        cur[w] |= live[(size_t)s[j] * nw + w];
            if (writes_all_lanes(in) && !(in->flags & IRF_DSRC)) {
                for (int d = 0; d < 4; d++)
                    if (in->d[d].kind == IRO_REG && in->d[d].idx < f->nregs)
                        cur[in->d[d].idx / 64] &= ~(1ull << (in->d[d].idx % 64));
                if (IR_IS_MMA(in->op) && in->target < m->nmmas)
                    for (int d = 0; d < m->mmas[in->target].nd; d++) {
                        uint32_t r = m->mmas[in->target].d[d];
                        if (r < f->nregs)
                            cur[r / 64] &= ~(1ull << (r % 64));
                    }
            }
            uint32_t r[28];
            int nr = cfg_reg_reads(m, in, r);
            for (int j = 0; j < nr; j++)
                if (r[j] < f->nregs)
                    cur[r[j] / 64] |= 1ull << (r[j] % 64);
            uint64_t *o = live + (size_t)i * nw;
            if (memcmp(o, cur, nw * sizeof *cur)) {
                memcpy(o, cur, nw * sizeof *cur);
                changed = 1;
            }
        }
    }
    free(cur);
    return live;
}
