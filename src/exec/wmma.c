/*
 * wmma.c -- warp matrix operations in the functional core.
 *
 * wmma.load and wmma.store arrive as ld/st parts (IRF_WMMA, see ir.h's
 * ir_wmfrag): exec_wmma_offset gives each lane's offset from the base
 * address, so the parts go through the memory seam like any ld and st.
 * wmma.mma (exec_wmma_mma) gathers the warp's A, B and C fragments into
 * 16 x 16 matrices, computes D = A x B + C and scatters D back.  The sum
 * runs over k in order, in single precision for f16 and bf16 inputs (each
 * product is exact there) rounded after every addition, then rounded once
 * to f16 for an f16 D; in 32-bit integers for s8/u8 inputs, wrapping, or
 * clamped with .satfinite.  That is a definition, deterministic and exact
 * wherever the sums are; a tensor core may add in another order.
 */
#include <string.h>

#include "exec/exec.h"
#include "util/common.h"
#include "util/fpmath.h"

uint64_t exec_wmma_offset(const ir_insn *in, int lane, uint64_t ldm)
{
    uint32_t part = in->target & 0xff, frag = (in->target >> 8) & 0xf, col = (in->target >> 12) & 1;
    uint64_t line = (uint64_t)lane >> 1, e0 = (uint64_t)(lane & 1) * 8;
    switch (frag) {
    case WM_AB16: return (line * ldm + e0) * 2;
    case WM_AB8: return line * ldm + e0;
    case WM_C16: return (line * ldm + e0) * 2;
    default: /* WM_C32: row (lane >> 1), columns e0 .. e0 + 7 */
        if (col)
            return ((e0 + part) * ldm + line) * 4;
        return (line * ldm + e0 + (uint64_t)part * 4) * 4;
    }
}

static float f32of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t f32bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Element e of line q of an A or B fragment, as a float or an integer. */
static double frag_elem(const uint64_t *const *regs, int atype, int q, int e)
{
    if (atype == PT_S8 || atype == PT_U8) {
        int lane = q * 2 + (e >> 3);
        uint32_t word = (uint32_t)regs[(e & 7) >> 2][lane];
        uint32_t byte = (word >> (8 * (e & 3))) & 0xff;
        return atype == PT_S8 ? (double)(int8_t)byte : (double)byte;
    }
    int lane = q * 2 + (e >> 3);
    uint32_t word = (uint32_t)regs[(e & 7) >> 1][lane];
    uint32_t half = (word >> (16 * (e & 1))) & 0xffff;
    uint32_t f = (uint32_t)fp_cvt_f2f(half, atype == PT_BF16 ? FP_BF16 : FP_F16, FP_F32, FP_RN, 0, 0);
    return f32of(f);
}

int exec_wmma_mma(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active)
{
    const ir_mma *mm = &L->mod->mmas[in->target];
    if (active != FULL_MASK) {
        exec_fault(L, c, w, ctz32(active), exec_insn_pc(L, in),
                   LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, 0,
                   "wmma.mma.sync.aligned needs every lane of the warp, and lanes 0x%08x run it",
                   active);
        return -1;
    }
    uint64_t *R = w->regs + (size_t)w->reg_base * WARP_SIZE;
    const uint64_t *A[8], *B[8], *C[8];
    for (int i = 0; i < mm->na; i++) {
        A[i] = R + (size_t)mm->a[i] * WARP_SIZE;
        B[i] = R + (size_t)mm->b[i] * WARP_SIZE;
    }
    for (int i = 0; i < mm->nc; i++)
        C[i] = R + (size_t)mm->c[i] * WARP_SIZE;
    int integer = mm->dtype == PT_S32;
    /* the matrices: A[m][k], B[k][n] from their lines; C[m][n] canonical */
    double a[16][16], b[16][16];
    for (int q = 0; q < 16; q++)
        for (int e = 0; e < 16; e++) {
            double av = frag_elem(A, mm->atype, q, e), bv = frag_elem(B, mm->btype, q, e);
            if (mm->acol)
                a[e][q] = av; /* line q is column k = q */
            else
                a[q][e] = av;
            if (mm->bcol)
                b[e][q] = bv; /* line q is column n = q */
            else
                b[q][e] = bv;
        }
    uint32_t out[16][16];
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            int lane = m * 2 + (n >> 3), k8 = n & 7;
            uint32_t cw = mm->ctype == PT_F16 ? (uint32_t)(C[k8 >> 1][lane] >> (16 * (k8 & 1))) & 0xffff
                                              : (uint32_t)C[k8][lane];
            if (integer) {
                int64_t acc = (int32_t)cw;
                for (int k = 0; k < 16; k++) {
                    acc += (int64_t)a[m][k] * (int64_t)b[k][n];
                    if (!mm->satfinite)
                        acc = (int32_t)(uint32_t)acc;
                }
                if (mm->satfinite)
                    acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                out[m][n] = (uint32_t)(int32_t)acc;
            } else {
                float acc = mm->ctype == PT_F16
                                ? f32of((uint32_t)fp_cvt_f2f(cw, FP_F16, FP_F32, FP_RN, 0, 0))
                                : f32of(cw);
                for (int k = 0; k < 16; k++)
                    acc += (float)a[m][k] * (float)b[k][n];
                out[m][n] = mm->dtype == PT_F16
                                ? (uint32_t)fp_cvt_f2f(f32bits(acc), FP_F32, FP_F16, FP_RN, 0, 0)
                                : f32bits(acc);
            }
        }
    /* scatter D: lane l holds row l >> 1, columns (l & 1) * 8 .. + 7 */
    for (int l = 0; l < WARP_SIZE; l++) {
        int m = l >> 1, n0 = (l & 1) * 8;
        if (mm->dtype == PT_F16) {
            for (int j = 0; j < 4; j++)
                R[(size_t)mm->d[j] * WARP_SIZE + l] =
                    out[m][n0 + 2 * j] | (uint64_t)out[m][n0 + 2 * j + 1] << 16;
        } else {
            for (int j = 0; j < 8; j++)
                R[(size_t)mm->d[j] * WARP_SIZE + l] = out[m][n0 + j];
        }
    }
    return 0;
}
