/*
 * wmma.c -- warp matrix operations in the functional core: wmma, mma,
 * ldmatrix and movmatrix.
 *
 * wmma.load, wmma.store and ldmatrix arrive as ld/st parts (IRF_WMMA, see
 * ir.h's WMP_*): exec_wmma_addr gives each lane's address, so the parts go
 * through the memory seam like any ld and st.  A 16-bit part (a
 * column-major f16 accumulator, ldmatrix .trans) fills one half of its
 * register (memops.c) or stores one half (the interpreter's capture).
 *
 * wmma.mma and mma (exec_mma) gather the warp's A, B and C fragments into
 * matrices, compute D = A x B + C and scatter D back.  wmma's fragments are
 * lockstep's own (ir.h); mma's are the PTX ISA's, written below as one
 * function per operand from (lane, element) to (row, column).  The sum
 * runs over k in order: in single precision for f16, bf16 and tf32 inputs
 * (each product is exact there), rounded after every addition, then
 * rounded once to f16 for an f16 D; in 32-bit integers for s8/u8 inputs,
 * wrapping, or clamped once at the end with .satfinite; in double
 * precision for f64, one fused multiply-add per k in the instruction's
 * rounding mode.  A tf32 input is its register with the 13 low mantissa
 * bits dropped (cvt.rna.tf32.f32 leaves them zero).  That is a definition,
 * deterministic and exact wherever the sums are; a tensor core may add in
 * another order.
 *
 * Every one of these instructions is .sync.aligned: run by part of a warp
 * it faults.
 */
#include <string.h>

#include "exec/exec.h"
#include "util/common.h"
#include "util/fpmath.h"

/* ---- addresses of the load and store parts ------------------------------------------ */

static const char *part_name(const ir_insn *in)
{
    if (WMP_KIND(in->target) >= WMP_LDM)
        return "ldmatrix";
    return in->op == OP_ST ? "wmma.store" : "wmma.load";
}

int exec_wmma_addr(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active,
                   const uint64_t *base, uint64_t *out)
{
    if (active != FULL_MASK) {
        exec_fault(L, c, w, ctz32(active), exec_insn_pc(L, in), LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION,
                   0, "%s.sync.aligned needs every lane of the warp, and lanes 0x%08x run it",
                   part_name(in), active);
        return -1;
    }
    static const uint64_t zero[WARP_SIZE];
    if (!base)
        base = zero; /* the address is a symbol's alone */
    uint32_t t = in->target, idx = WMP_IDX(t), lp = WMP_LP(t), le = WMP_LE(t), les = WMP_LES(t);
    uint64_t mask = (1ull << le) - 1;
    uint32_t m = idx & 3; /* ldmatrix's matrix (at most 4, whatever the record says) */
    switch (WMP_KIND(t)) {
    case WMP_LINE: case WMP_CCOL: {
        /* lane l's chunk: elements l*P .. l*P+P-1 of the matrix in memory
         * order (WMP_LINE), or of its rows (WMP_CCOL, element idx of them) */
        uint64_t tmp[WARP_SIZE];
        const uint64_t *ldm = exec_operand(L, c, w, &in->s[0], tmp, active);
        for (int l = 0; l < WARP_SIZE; l++) {
            uint64_t first = (uint64_t)l << lp, line = first >> le, e0 = first & mask;
            uint64_t stride = (uint32_t)ldm[l];
            uint64_t off = WMP_KIND(t) == WMP_LINE ? ((line * stride + e0) << les) + idx
                                                   : ((e0 + idx) * stride + line) << les;
            out[l] = base[l] + off;
        }
        return 0;
    }
    case WMP_LDM:
        /* matrix m's row l/4 (lanes 8m .. 8m + 7 hold the rows' addresses),
         * its halves 2 (l%4) and 2 (l%4) + 1 */
        for (int l = 0; l < WARP_SIZE; l++)
            out[l] = base[8 * m + ((uint32_t)l >> 2)] + 4 * ((uint32_t)l & 3);
        return 0;
    default: /* WMP_LDMT: transposed, column l/4 of rows 2 (l%4) and 2 (l%4) + 1 */
        for (int l = 0; l < WARP_SIZE; l++)
            out[l] = base[8 * m + 2 * ((uint32_t)l & 3) + WMP_HI(t)] + 2 * ((uint32_t)l >> 2);
        return 0;
    }
}

/* ---- the fragments ----------------------------------------------------------------- */

enum { MAT_A, MAT_B, MAT_C };

/* Where element i of lane l of operand `mat` (of type t) is in the
 * matrices: the product q it belongs to (mma.m8n8k4 with f16 inputs has
 * four, one per quad pair), its row and column. */
static void elem_pos(const ir_mma *mm, int mat, int t, int l, int i, int *q, int *r, int *c)
{
    int M = mm->m, N = mm->n, K = mm->k;
    *q = 0;
    if (mm->form == MMA_WMMA) {
        /* lockstep's fragments: elements l*P .. l*P+P-1 in memory order */
        int rows = mat == MAT_B ? K : M, cols = mat == MAT_A ? K : N;
        int colmajor = mat == MAT_A ? mm->acol : mat == MAT_B ? mm->bcol : 0;
        int e = l * (rows * cols / WARP_SIZE) + i;
        if (colmajor) {
            *c = e / rows;
            *r = e % rows;
        } else {
            *r = e / cols;
            *c = e % cols;
        }
        return;
    }
    int g = l >> 2, tg = l & 3; /* the PTX ISA's groupID and threadID_in_group */
    int es = t == PT_F64 ? 8 : t == PT_S8 || t == PT_U8 ? 1 : t == PT_F16 || t == PT_BF16 ? 2 : 4;
    if (M == 8 && K == 4 && mm->atype == PT_F16) {
        /* m8n8k4 with f16 inputs: quad pair q = lanes 4q..4q+3 and 4q+16..4q+19 */
        int hi = l >= 16 ? 4 : 0;
        *q = g & 3;
        switch (mat) {
        case MAT_A:
            *r = mm->acol ? i + hi : tg + hi;
            *c = mm->acol ? tg : i;
            return;
        case MAT_B:
            *r = mm->bcol ? i : tg;
            *c = mm->bcol ? tg + hi : i + hi;
            return;
        default:
            if (t == PT_F16) {
                *r = tg + hi;
                *c = i;
            } else {
                *r = (l & 1) + (i & 2) + hi;
                *c = (i & 4) + (l & 2) + (i & 1);
            }
            return;
        }
    }
    if (M == 8) {
        /* m8n8k16 (s8, u8) and m8n8k4 (f64): one row (A) or column (B) per group */
        int per = 4 / (es > 4 ? 4 : es);
        switch (mat) {
        case MAT_A: *r = g; *c = tg * per + i; return;
        case MAT_B: *r = tg * per + i; *c = g; return;
        default: *r = g; *c = 2 * tg + i; return;
        }
    }
    /* m16n8k4, k8, k16, k32 */
    switch (mat) {
    case MAT_A:
        if (es == 2) {
            *r = g + 8 * ((i >> 1) & 1);
            *c = 2 * tg + (i & 1) + 8 * (i >> 2);
        } else if (es == 1) {
            *r = g + 8 * ((i >> 2) & 1);
            *c = 4 * tg + (i & 3) + 16 * (i >> 3);
        } else { /* tf32, f64 */
            *r = g + 8 * (i & 1);
            *c = tg + 4 * (i >> 1);
        }
        return;
    case MAT_B:
        if (es == 2)
            *r = 2 * tg + (i & 1) + 8 * (i >> 1);
        else if (es == 1)
            *r = 4 * tg + (i & 3) + 16 * (i >> 2);
        else
            *r = tg + 4 * i;
        *c = g;
        return;
    default:
        *r = g + 8 * (i >> 1);
        *c = 2 * tg + (i & 1);
        return;
    }
}

/* Elements of type t per register. */
static int per_reg(int t)
{
    switch (t) {
    case PT_S8: case PT_U8: return 4;
    case PT_F16: case PT_BF16: return 2;
    default: return 1;
    }
}

/* The raw bits of element i of lane l of the fragment in rows regs. */
static uint64_t elem_bits(const uint64_t *R, const uint32_t *regs, int t, int l, int i)
{
    int per = per_reg(t), bits = 32 / per;
    uint64_t word = R[(size_t)regs[i / per] * WARP_SIZE + l];
    if (t == PT_F64)
        return word;
    if (per == 1)
        return (uint32_t)word;
    return (word >> (bits * (i % per))) & ((1ull << bits) - 1);
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

static uint64_t f64bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static double f64of(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* An A or B element's value (exact in a double for every input type). */
static double in_value(int t, uint64_t bits)
{
    switch (t) {
    case PT_S8: return (double)(int8_t)bits;
    case PT_U8: return (double)(uint8_t)bits;
    case PT_F16: return f32of((uint32_t)fp_cvt_f2f(bits, FP_F16, FP_F32, FP_RN, 0, 0));
    case PT_BF16: return f32of((uint32_t)fp_cvt_f2f(bits, FP_BF16, FP_F32, FP_RN, 0, 0));
    case PT_TF32: return f32of((uint32_t)bits & 0xffffe000u);
    case PT_F64: return f64of(bits);
    default: return f32of((uint32_t)bits);
    }
}

/* ---- the operation ----------------------------------------------------------------- */

int exec_mma(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active)
{
    const ir_mma *mm = &L->mod->mmas[in->target];
    if (active != FULL_MASK) {
        exec_fault(L, c, w, ctz32(active), exec_insn_pc(L, in),
                   LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, 0,
                   "%s.sync.aligned needs every lane of the warp, and lanes 0x%08x run it",
                   mm->form == MMA_WMMA ? "wmma.mma" : "mma", active);
        return -1;
    }
    uint64_t *R = w->regs + (size_t)w->reg_base * WARP_SIZE;
    int M = mm->m, N = mm->n, K = mm->k;
    int nq = mm->form == MMA_SYNC && M == 8 && K == 4 && mm->atype == PT_F16 ? 4 : 1;
    /* the matrices, product q's element (r, c) at (q * rows + r) * cols + c:
     * at most 512 elements of A and B and 256 of C and D */
    double a[512], b[512];
    uint64_t cm[256], dm[256];
    int na = M * K * nq / WARP_SIZE, nb = K * N * nq / WARP_SIZE, nc = M * N * nq / WARP_SIZE;
    for (int l = 0; l < WARP_SIZE; l++) {
        int q, r, col;
        for (int i = 0; i < na; i++) {
            elem_pos(mm, MAT_A, mm->atype, l, i, &q, &r, &col);
            a[(q * M + r) * K + col] = in_value(mm->atype, elem_bits(R, mm->a, mm->atype, l, i));
        }
        for (int i = 0; i < nb; i++) {
            elem_pos(mm, MAT_B, mm->btype, l, i, &q, &r, &col);
            b[(q * K + r) * N + col] = in_value(mm->btype, elem_bits(R, mm->b, mm->btype, l, i));
        }
        for (int i = 0; i < nc; i++) {
            elem_pos(mm, MAT_C, mm->ctype, l, i, &q, &r, &col);
            cm[(q * M + r) * N + col] = elem_bits(R, mm->c, mm->ctype, l, i);
        }
    }
    for (int q = 0; q < nq; q++)
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                const double *ar = a + (q * M + m) * K, *bc = b + q * K * N + n;
                uint64_t cw = cm[(q * M + m) * N + n], *out = &dm[(q * M + m) * N + n];
                if (mm->dtype == PT_S32) {
                    int64_t acc = (int32_t)cw;
                    for (int k = 0; k < K; k++) {
                        acc += (int64_t)ar[k] * (int64_t)bc[k * N];
                        if (!mm->satfinite)
                            acc = (int32_t)(uint32_t)acc;
                    }
                    if (mm->satfinite)
                        acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                    *out = (uint32_t)(int32_t)acc;
                } else if (mm->dtype == PT_F64) {
                    uint64_t acc = cw;
                    for (int k = 0; k < K; k++)
                        acc = fp64_fma(f64bits(ar[k]), f64bits(bc[k * N]), acc, (fp_rnd)mm->rnd);
                    *out = acc;
                } else {
                    float acc = mm->ctype == PT_F16
                                    ? f32of((uint32_t)fp_cvt_f2f(cw, FP_F16, FP_F32, FP_RN, 0, 0))
                                    : f32of((uint32_t)cw);
                    for (int k = 0; k < K; k++)
                        acc += (float)ar[k] * (float)bc[k * N];
                    *out = mm->dtype == PT_F16
                               ? fp_cvt_f2f(f32bits(acc), FP_F32, FP_F16, FP_RN, 0, 0)
                               : f32bits(acc);
                }
            }
    /* scatter D (every element of a register is written, so no register
     * keeps a stale half) */
    int per = per_reg(mm->dtype), bits = per == 1 ? 64 : 32 / per;
    uint64_t dr[8][WARP_SIZE];
    memset(dr, 0, sizeof dr);
    for (int l = 0; l < WARP_SIZE; l++)
        for (int i = 0; i < nc; i++) {
            int q, r, col;
            elem_pos(mm, MAT_C, mm->dtype, l, i, &q, &r, &col);
            dr[i / per][l] |= dm[(q * M + r) * N + col] << (bits * (i % per) % 64);
        }
    for (int j = 0; j < mm->nd; j++)
        memcpy(R + (size_t)mm->d[j] * WARP_SIZE, dr[j], sizeof dr[j]);
    return 0;
}

int exec_movmatrix(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active)
{
    if (active != FULL_MASK) {
        exec_fault(L, c, w, ctz32(active), exec_insn_pc(L, in),
                   LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, 0,
                   "movmatrix.sync.aligned needs every lane of the warp, and lanes 0x%08x run it",
                   active);
        return -1;
    }
    uint64_t tmp[WARP_SIZE], out[WARP_SIZE];
    const uint64_t *S = exec_operand(L, c, w, &in->s[0], tmp, active);
    /* lane l holds row l/4, columns 2 (l%4) and 2 (l%4) + 1; element (r, c)
     * is in lane 4r + c/2, half c%2 */
    for (int l = 0; l < WARP_SIZE; l++) {
        uint32_t v = 0;
        int r = l >> 2;
        for (int h = 0; h < 2; h++) {
            int col = 2 * (l & 3) + h; /* D's (r, col) is the source's (col, r) */
            uint32_t word = (uint32_t)S[4 * col + r / 2];
            v |= ((word >> (16 * (r & 1))) & 0xffffu) << (16 * h);
        }
        out[l] = v;
    }
    memcpy(w->regs + ((size_t)w->reg_base + in->d[0].idx) * WARP_SIZE, out, sizeof out);
    return 0;
}
