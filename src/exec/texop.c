/*
 * texop.c -- the interpreter's texture and surface instructions: operands
 * in, results out, through texture.c's sampling and the memory seam.
 *
 * tex and tld4 sample every active lane when issued and write the four
 * destinations; in timing mode the request then goes to the SM's texture
 * cache (L->mem_issue) with the addresses of every texel read, and the
 * destinations wait for it.  txq and suq answer at once.  suld and sust
 * compute each lane's texel address and become ordinary global loads and
 * stores through the seam (exec_mem_issue_req), so they meet the
 * interposers, the caches and the memory system like ld and st.  A handle
 * that is no live texture object, and a surface access outside the surface
 * under .trap, fault with the lane and the handle.
 */
#include <string.h>

#include "exec/exec.h"
#include "util/common.h"

static int bad_handle(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, int lane,
                      uint64_t h)
{
    exec_fault(L, c, w, lane, exec_insn_pc(L, in), LOCKSTEP_ERROR_ILLEGAL_ADDRESS, 0,
               "%s with texture object 0x%llx, which is no live %s object", ptx_op_names[in->op],
               (unsigned long long)h,
               in->op == OP_SULD || in->op == OP_SUST || in->op == OP_SUQ ? "surface" : "texture");
    return L->mem.status = EXEC_MEM_FAULT;
}

static int not_cubemap(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, int lane)
{
    exec_fault(L, c, w, lane, exec_insn_pc(L, in), LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, 0,
               "tex%s on a texture object that is not a cube map (a CUDA array allocated with "
               "cudaArrayCubemap)",
               in->mode == TEXG_ACUBE ? ".acube" : ".cube");
    return L->mem.status = EXEC_MEM_FAULT;
}

static float f32of(uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

int exec_texop(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active)
{
    exec_memres *res = &L->mem;
    res->status = EXEC_MEM_NONE;
    res->ready = 0;
    res->token = NULL;
    uint64_t *R = w->regs + (size_t)w->reg_base * WARP_SIZE;
    uint64_t tmp[5][WARP_SIZE];
    const uint64_t *H = exec_operand(L, c, w, &in->addr, tmp[4], active);
    const uint64_t *S[4] = {NULL, NULL, NULL, NULL};
    for (int i = 0; i < in->nsrc && i < 4; i++)
        S[i] = exec_operand(L, c, w, &in->s[i], tmp[i], active);
    const exec_texture *T[WARP_SIZE];
    int surf = in->op == OP_SULD || in->op == OP_SUST || in->op == OP_SUQ;
    for (uint32_t m = active; m; m &= m - 1) {
        int l = ctz32(m);
        T[l] = exec_texture_find(L, H[l]);
        /* a surface instruction needs a surface object, a texture one a texture object */
        if (!T[l] || T[l]->d.surface != surf)
            return bad_handle(L, c, w, in, l, H[l]);
    }
    int arrayed = in->mode == TEXG_A1D || in->mode == TEXG_A2D || in->mode == TEXG_ACUBE;
    int cube = in->mode == TEXG_CUBE || in->mode == TEXG_ACUBE;

    if (in->op == OP_TXQ || in->op == OP_SUQ) {
        uint64_t *D = R + (size_t)in->d[0].idx * WARP_SIZE;
        for (uint32_t m = active; m; m &= m - 1) {
            int l = ctz32(m);
            const lockstep_texture_desc *d = &T[l]->d;
            D[l] = in->mode == TXQ_MEMORY_LAYOUT ? 0 /* not block-linear: rows */
                   : in->op == OP_SUQ && in->mode == TXQ_WIDTH
                       ? d->width /* elements */
                       : exec_tex_query(d, in->mode);
        }
        return res->status;
    }

    if (ptx_op_props(in->op) & OPF_SAMPLE) {
        /* tex / tld4: the values now; the texels' lines to the texture cache */
        exec_texels list;
        list.n = 0;
        int intc = in->type2 == PT_S32;
        uint64_t *D[4];
        for (int i = 0; i < 4; i++)
            D[i] = R + (size_t)in->d[i].idx * WARP_SIZE;
        for (uint32_t m = active; m; m &= m - 1) {
            int l = ctz32(m);
            float fc[3] = {0, 0, 0};
            int32_t ic[3] = {0, 0, 0};
            uint32_t layer = 0;
            int k0 = 0;
            if (arrayed) {
                int32_t ly = (int32_t)S[0][l];
                layer = ly < 0 ? 0 : (uint32_t)ly;
                k0 = 1;
            }
            for (int k = k0; k < in->nsrc; k++) {
                if (intc)
                    ic[k - k0] = (int32_t)S[k][l];
                else
                    fc[k - k0] = f32of(S[k][l]);
            }
            if (cube) {
                /* the direction picks a face and a point on it (2-D) */
                if (!T[l]->d.cubemap)
                    return not_cubemap(L, c, w, in, l);
                uint32_t cubes = T[l]->d.layers / 6;
                layer = (layer < cubes ? layer : cubes - 1) * 6 + exec_cube_face(&T[l]->d, fc);
            }
            uint32_t out[4];
            exec_tex_sample(L, &T[l]->d, fc, ic, intc, layer, in->op == OP_TLD4, in->bop, out,
                            L->mem_issue ? &list : NULL);
            for (int i = 0; i < 4; i++)
                D[i][l] = out[i];
        }
        if (L->mem_issue) {
            exec_memreq rq;
            rq.in = in;
            rq.pc = exec_insn_pc(L, in);
            rq.lanes = active;
            rq.size = 4;
            rq.texels = &list;
            for (int i = 0; i < 4; i++)
                rq.v[i] = NULL;
            for (uint32_t m = active; m; m &= m - 1) {
                int l = ctz32(m);
                rq.ad.a[l] = T[l]->d.base;
                rq.ad.space[l] = SP_GLOBAL;
            }
            L->mem_space = SP_GLOBAL;
            res->status = EXEC_MEM_DONE;
            if (L->mem_issue(L, c, w, &rq, res))
                res->status = EXEC_MEM_FAULT;
        }
        return res->status;
    }

    /* suld / sust: the texel's address, then an ordinary access */
    exec_memreq rq;
    uint32_t size = (uint32_t)ptx_type_size((ptx_type)in->type) * in->vec;
    uint32_t lanes = 0;
    for (uint32_t m = active; m; m &= m - 1) {
        int l = ctz32(m);
        const lockstep_texture_desc *d = &T[l]->d;
        int64_t co[3] = {0, 0, 0}, layer = 0;
        int k0 = 0;
        if (arrayed) {
            layer = (int32_t)S[0][l];
            k0 = 1;
        }
        for (int k = k0; k < in->nsrc; k++)
            co[k - k0] = (int32_t)S[k][l];
        uint64_t a = 0;
        int r = exec_surface_addr(d, co[0], co[1], co[2], layer, size, in->bop, &a);
        if (r == 1) {
            /* .zero: outside the surface a load reads zeros, a store nothing */
            if (in->op == OP_SULD)
                for (int i = 0; i < in->vec; i++)
                    R[(size_t)in->d[i].idx * WARP_SIZE + l] = 0;
            continue;
        }
        if (r < 0) {
            exec_fault(L, c, w, l, exec_insn_pc(L, in),
                       r == -2 ? LOCKSTEP_ERROR_MISALIGNED_ADDRESS : LOCKSTEP_ERROR_ILLEGAL_ADDRESS,
                       0,
                       "%s of %u bytes at byte %lld, row %lld, slice %lld, layer %lld %s "
                       "(%u x %u x %u texels of %u bytes%s)",
                       ptx_op_names[in->op], size, (long long)co[0], (long long)co[1],
                       (long long)co[2], (long long)layer,
                       r == -2 ? "is not aligned to its size" : "is outside the surface",
                       d->width, d->height, d->depth, (unsigned)(d->channels * d->bits / 8),
                       d->layers ? ", layered" : "");
            return res->status = EXEC_MEM_FAULT;
        }
        rq.ad.a[l] = a;
        rq.ad.space[l] = SP_GLOBAL;
        lanes |= 1u << l;
    }
    if (!lanes)
        return res->status;
    rq.in = in;
    rq.pc = exec_insn_pc(L, in);
    rq.lanes = lanes;
    rq.size = size;
    rq.texels = NULL;
    for (int i = 0; i < 4; i++)
        rq.v[i] = in->op == OP_SUST && i < in->vec ? R + (size_t)in->d[i].idx * WARP_SIZE : NULL;
    return exec_mem_issue_req(L, c, w, &rq);
}
