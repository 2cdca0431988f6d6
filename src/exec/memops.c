/*
 * memops.c -- memory instructions, written as the two halves DESIGN.md
 * asks for: address generation per lane at issue (exec_mem_addr), and the
 * data access (exec_mem_access), which functional mode runs at once and a
 * timing model runs when the memory system services the request.
 *
 * Every access is checked: natural alignment of the whole access (vectors
 * included), global addresses against the live allocations (devmem_find),
 * shared and local offsets against the CTA's and thread's sizes, kernel
 * parameters against the parameter buffer.  A bad access stops the launch
 * with a fault naming the lane, the address and what it missed.
 * Atomics and reductions execute lane by lane in lane order.
 */
#include <stdio.h>
#include <string.h>

#include "exec/exec.h"
#include "util/fpmath.h"
#include "util/addrmap.h"
#include "util/common.h"

static const char *space_word(int sp)
{
    switch (sp) {
    case SP_SHARED: return "shared";
    case SP_LOCAL: return "local";
    case SP_KPARAM: return "kernel parameter";
    case SP_CONST: return "constant";
    default: return "global";
    }
}

static const char *kind_word(const ir_insn *in)
{
    switch (in->op) {
    case OP_ST: return "store";
    case OP_ATOM: return "atomic";
    case OP_RED: return "reduction";
    default: return "load";
    }
}

int exec_mem_addr(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active,
                  exec_addr *out)
{
    const uint64_t *base = NULL;
    if (in->addr.kind == IRO_REG)
        base = w->regs + ((size_t)w->reg_base + in->addr.idx) * WARP_SIZE;
    uint64_t off = (uint64_t)in->imm;
    if (in->amode == AM_FRAME)
        off += w->frame_base;
    else if (in->amode == AM_SHSYM)
        off += L->shref_val[in->aux];
    uint8_t sp = in->space == SP_CONST ? SP_GLOBAL : in->space;
    uint64_t wbase[WARP_SIZE];
    if (UNLIKELY(in->flags & IRF_WMMA)) {
        /* a part of wmma.load/store or ldmatrix: each lane's place in the
         * fragment, from the stride or other lanes' row addresses */
        if (exec_wmma_addr(L, c, w, in, active, base, wbase))
            return -1;
        base = wbase;
    }
    uint32_t m = active;
    while (m) {
        int l = ctz32(m);
        m &= m - 1;
        uint64_t a = (base ? base[l] : 0) + off;
        uint8_t s = sp;
        if (s == SP_GENERIC) {
            if (addr_in_window(a, ADDR_SHARED_WINDOW)) {
                s = SP_SHARED;
                a -= ADDR_SHARED_WINDOW;
            } else if (addr_in_window(a, ADDR_LOCAL_WINDOW)) {
                s = SP_LOCAL;
                a -= ADDR_LOCAL_WINDOW;
            } else if (addr_in_window(a, ADDR_PARAM_WINDOW)) {
                s = SP_KPARAM;
                a -= ADDR_PARAM_WINDOW;
            } else {
                s = SP_GLOBAL;
            }
        } else if (s == SP_SHARED || s == SP_LOCAL) {
            a &= 0xffffffffu; /* 32-bit state-space offsets */
        }
        out->a[l] = a;
        out->space[l] = s;
    }
    return 0;
}

/* Report a bad global access of lane l at a (after devmem_find failed): a null
 * pointer, a use after free, just past the end of a buffer, or anywhere. */
static void global_fault(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, int l,
                         uint64_t a, uint32_t size, uint32_t pc)
{
    const devmem_alloc *near = devmem_nearest(L->dm, a);
    const devmem_alloc *freed = devmem_freed(L->dm, a);
    if (a < 4096)
        exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, a,
                   "%u-byte global %s at address 0x%llx (a null pointer)", size, kind_word(in),
                   (unsigned long long)a);
    else if (freed)
        exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, a,
                   "%u-byte global %s at address 0x%llx is inside the %llu-byte allocation at 0x%llx that was freed (use after free)",
                   size, kind_word(in), (unsigned long long)a, (unsigned long long)freed->size,
                   (unsigned long long)freed->base);
    else if (near && a >= near->base && a < near->base + near->size)
        /* it starts inside and runs out */
        exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, a,
                   "%u-byte global %s at address 0x%llx, byte %llu of the %llu-byte allocation at 0x%llx, runs %llu bytes past its end",
                   size, kind_word(in), (unsigned long long)a,
                   (unsigned long long)(a - near->base), (unsigned long long)near->size,
                   (unsigned long long)near->base,
                   (unsigned long long)(a + size - (near->base + near->size)));
    else if (near && a >= near->base && a < near->base + near->size + 4096)
        exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, a,
                   "%u-byte global %s at address 0x%llx is %llu bytes past the end of the %llu-byte allocation at 0x%llx",
                   size, kind_word(in), (unsigned long long)a,
                   (unsigned long long)(a + size - (near->base + near->size)),
                   (unsigned long long)near->size, (unsigned long long)near->base);
    else
        exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, a,
                   "%u-byte global %s at address 0x%llx is not in any allocation", size,
                   kind_word(in), (unsigned long long)a);
}

void exec_global_fault(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, int lane,
                       uint64_t a, uint32_t size, uint32_t pc)
{
    global_fault(L, c, w, in, lane, a, size, pc);
}

/*
 * Host pointers for `size` bytes at each active lane's address, every one
 * checked.  Lanes of a warp usually touch one allocation and one page, so
 * the last allocation's bounds and the last page's host pointer are kept
 * across lanes.  Returns 0, or -1 after recording the first bad lane's fault.
 */
static int resolve(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active,
                   const exec_addr *ad, uint32_t size, int write, uint8_t **ptr)
{
    uint32_t pc = exec_insn_pc(L, in);
    uint64_t lo = 1, hi = 0, page = ~0ull;
    uint8_t *page_ptr = NULL, *host = NULL;
    uint32_t hint = 0;
    for (uint32_t m = active; m; m &= m - 1) {
        int l = ctz32(m);
        uint64_t a = ad->a[l];
        int space = ad->space[l];
        if (UNLIKELY(a & (size - 1))) {
            exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_MISALIGNED_ADDRESS, a,
                       "misaligned %u-byte %s %s at address 0x%llx (must be %u-byte aligned)", size,
                       space_word(space), kind_word(in), (unsigned long long)a, size);
            return -1;
        }
        switch (space) {
        case SP_SHARED:
            if (UNLIKELY(a + size > L->shared_bytes)) {
                exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, a,
                           "%u-byte shared %s at offset 0x%llx is outside the CTA's %u bytes of shared memory",
                           size, kind_word(in), (unsigned long long)a, L->shared_bytes);
                return -1;
            }
            ptr[l] = c->shared + a;
            break;
        case SP_LOCAL:
            if (UNLIKELY(a + size > L->local_bytes)) {
                exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, a,
                           "%u-byte local %s at offset 0x%llx is outside the thread's %u bytes of local memory",
                           size, kind_word(in), (unsigned long long)a, L->local_bytes);
                return -1;
            }
            ptr[l] = exec_local(L, c, w, l) + a;
            break;
        case SP_KPARAM:
            if (UNLIKELY(write || a + size > L->param_bytes)) {
                exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, a,
                           write ? "%u-byte %s to the kernel parameters at offset 0x%llx (they are read-only)"
                                 : "%u-byte %s at offset 0x%llx is outside the kernel's parameters",
                           size, kind_word(in), (unsigned long long)a);
                return -1;
            }
            ptr[l] = (uint8_t *)L->params + a;
            break;
        default:
            if (!(a >= lo && a + size <= hi)) {
                const devmem_alloc *al = devmem_find(L->dm, a, size, &hint);
                if (UNLIKELY(!al)) {
                    global_fault(L, c, w, in, l, a, size, pc);
                    return -1;
                }
                lo = al->base;
                hi = al->base + al->size;
                host = al->host;
                if (host) /* for the runtime's host-write check (hostwatch.c) */
                    devmem_note_host_access(L->dm, al);
            }
            if (host) { /* a mapped host buffer (pinned or managed memory) */
                ptr[l] = host + (a - lo);
                break;
            }
            if ((a >> DEVMEM_PAGE_SHIFT) != page) {
                page = a >> DEVMEM_PAGE_SHIFT;
                uint64_t base = page << DEVMEM_PAGE_SHIFT;
                page_ptr = write ? devmem_wptr(L->dm, base) : (uint8_t *)devmem_rptr(L->dm, base);
                if (UNLIKELY(!page_ptr)) {
                    L->oom = 1;
                    exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_OUT_OF_MEMORY, a, "out of host memory");
                    return -1;
                }
            }
            ptr[l] = page_ptr + (a & (DEVMEM_PAGE_SIZE - 1));
            break;
        }
    }
    return 0;
}

int exec_mem_check(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                   uint32_t active, const exec_addr *ad)
{
    uint8_t *ptr[WARP_SIZE];
    return resolve(L, c, w, in, active, ad, exec_mem_size(in),
                   !(ptx_op_props(in->op) & OPF_LOAD), ptr);
}

uint32_t exec_mem_size(const ir_insn *in)
{
    int es = ptx_type_size((ptx_type)in->type);
    return (uint32_t)(es * (ptx_op_props(in->op) & (OPF_LOAD | OPF_STORE) ? in->vec : 1));
}

static inline uint64_t load_bytes(const uint8_t *p, int size)
{
    uint64_t v = 0;
    memcpy(&v, p, (size_t)size); /* little-endian host */
    return v;
}

static inline uint64_t extend(uint64_t v, int type)
{
    switch (type) {
    case PT_S8: return (uint64_t)(int64_t)(int8_t)v;
    case PT_S16: return (uint64_t)(int64_t)(int16_t)v;
    case PT_S32: return (uint64_t)(int64_t)(int32_t)v;
    default: return v;
    }
}

static uint64_t atom_apply(const ir_insn *in, int space, uint64_t old, uint64_t b, uint64_t cv, int size)
{
    int t = in->type;
    uint64_t m = size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
    int sgn = ptx_type_is_signed((ptx_type)t);
    switch (in->mode) {
    case ATOM_ADD:
        /* measured on the GPU: global f32 atomic adds (done at the L2) flush
         * subnormal inputs and results; shared ones keep them */
        if (t == PT_F32)
            return fp32_add((uint32_t)old, (uint32_t)b, FP_RN, space == SP_SHARED ? 0 : FP_FTZ);
        if (t == PT_F64) {
            /* NaN operands, as measured on the GPU: a global (L2) atomic passes
             * NaNs through unchanged, signalling or not, the added value's
             * first; a shared one returns the memory operand's NaN first,
             * quietened */
            int bnan = (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
            int anan = (old & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
            if (space != SP_SHARED && (bnan || anan))
                return bnan ? b : old;
            if (space == SP_SHARED && anan)
                return old | 0x0008000000000000ull;
            return fp64_add(old, b, FP_RN);
        }
        if (t == PT_F16 || t == PT_BF16 || t == PT_F16X2 || t == PT_BF16X2) {
            /* .add.noftz: round to nearest even, subnormals kept, each half of
             * an x2 added on its own (NaN results are the canonical NaN, as
             * add.f16's) */
            fp_fmt f = (t == PT_BF16 || t == PT_BF16X2) ? FP_BF16 : FP_F16;
            uint64_t r = fp16_add((uint32_t)old & 0xffff, (uint32_t)b & 0xffff, f, FP_RN, 0);
            if (size == 4)
                r |= (uint64_t)fp16_add((uint32_t)(old >> 16) & 0xffff,
                                        (uint32_t)(b >> 16) & 0xffff, f, FP_RN, 0) << 16;
            return r;
        }
        return (old + b) & m;
    case ATOM_MIN: case ATOM_MAX: {
        int mx = in->mode == ATOM_MAX, lt;
        if (sgn) {
            int64_t x = size == 4 ? (int32_t)old : (int64_t)old, y = size == 4 ? (int32_t)b : (int64_t)b;
            lt = x < y;
        } else {
            lt = (old & m) < (b & m);
        }
        return (mx ? (lt ? b : old) : (lt ? old : b)) & m;
    }
    case ATOM_INC: return ((uint32_t)old >= (uint32_t)b) ? 0 : (uint32_t)(old + 1);
    case ATOM_DEC:
        return ((uint32_t)old == 0 || (uint32_t)old > (uint32_t)b) ? (uint32_t)b : (uint32_t)(old - 1);
    case ATOM_EXCH: return b & m;
    case ATOM_CAS: return (old & m) == (b & m) ? cv & m : old;
    case ATOM_AND: return old & b & m;
    case ATOM_OR: return (old | b) & m;
    case ATOM_XOR: return (old ^ b) & m;
    default: return old;
    }
}

uint64_t exec_atom_value(const ir_insn *in, uint64_t old, uint64_t b, uint64_t c)
{
    return atom_apply(in, SP_GLOBAL, old, b, c, ptx_type_size((ptx_type)in->type));
}

/* A 16-bit part of a wmma load or ldmatrix (IRF_WMMA; ir.h): its halfword
 * goes into one half of each lane's register, the other half kept. */
static void merge_half(const ir_insn *in, uint64_t *D, uint32_t lanes, const uint8_t *const *ptr)
{
    int sh = 16 * (int)WMP_HI(in->target);
    for (uint32_t m = lanes; m; m &= m - 1) {
        int l = ctz32(m);
        uint16_t v;
        memcpy(&v, ptr[l], 2);
        D[l] = (uint32_t)((D[l] & ~(0xffffull << sh)) | (uint64_t)v << sh);
    }
}

int exec_mem_perform(exec_launch *L, exec_cta *c, exec_warp *w, const exec_memreq *rq)
{
    const ir_insn *in = rq->in;
    uint32_t active = rq->lanes;
    const exec_addr *ad = &rq->ad;
    uint64_t *R = w->regs + (size_t)w->reg_base * WARP_SIZE;
    int es = ptx_type_size((ptx_type)in->type);
    uint32_t props = ptx_op_props(in->op);
    int n = props & (OPF_LOAD | OPF_STORE) ? in->vec : 1;
    uint32_t size = (uint32_t)(es * n);
    if (UNLIKELY(props & OPF_ASYNC))
        return exec_async_perform(L, c, w, rq);
    uint8_t *ptr[WARP_SIZE];
    if (resolve(L, c, w, in, active, ad, size, !(props & OPF_LOAD), ptr))
        return -1;

    if (props & OPF_LOAD) {
        /* every address is already in `ad`, so writing a destination that is
         * also the address register cannot disturb another lane */
        for (int i = 0; i < n; i++) {
            uint64_t *D = R + (size_t)in->d[i].idx * WARP_SIZE;
            int off = i * es;
            switch (in->type) {
            case PT_S32:
                for (uint32_t m = active; m; m &= m - 1) {
                    int l = ctz32(m);
                    int32_t v;
                    memcpy(&v, ptr[l] + off, 4);
                    D[l] = (uint64_t)(int64_t)v;
                }
                break;
            case PT_U32: case PT_B32: case PT_F32:
                for (uint32_t m = active; m; m &= m - 1) {
                    int l = ctz32(m);
                    uint32_t v;
                    memcpy(&v, ptr[l] + off, 4);
                    D[l] = v;
                }
                break;
            case PT_U64: case PT_S64: case PT_B64: case PT_F64:
                for (uint32_t m = active; m; m &= m - 1) {
                    int l = ctz32(m);
                    memcpy(&D[l], ptr[l] + off, 8);
                }
                break;
            default:
                if (UNLIKELY(in->flags & IRF_WMMA)) {
                    merge_half(in, D, active, (const uint8_t *const *)ptr);
                    break;
                }
                for (uint32_t m = active; m; m &= m - 1) {
                    int l = ctz32(m);
                    D[l] = extend(load_bytes(ptr[l] + off, es), in->type);
                }
                break;
            }
        }
        return 0;
    }
    if (props & OPF_STORE) {
        for (int i = 0; i < n; i++) {
            int off = i * es;
            const uint64_t *Si = rq->v[i];
            if (es == 4)
                for (uint32_t m = active; m; m &= m - 1) {
                    int l = ctz32(m);
                    uint32_t v = (uint32_t)Si[l];
                    memcpy(ptr[l] + off, &v, 4);
                }
            else
                for (uint32_t m = active; m; m &= m - 1) {
                    int l = ctz32(m);
                    memcpy(ptr[l] + off, &Si[l], (size_t)es); /* little-endian host */
                }
        }
        return 0;
    }
    /* atom / red: one lane at a time, in lane order */
    uint64_t *D = in->op == OP_ATOM ? R + (size_t)in->d[0].idx * WARP_SIZE : NULL;
    uint64_t old_v[WARP_SIZE];
    for (uint32_t m = active; m; m &= m - 1) {
        int l = ctz32(m);
        uint8_t *p = ptr[l];
        uint64_t old = load_bytes(p, es);
        uint64_t nv = atom_apply(in, ad->space[l], old, rq->v[0][l],
                                 in->nsrc > 1 ? rq->v[1][l] : 0, es);
        memcpy(p, &nv, (size_t)es);
        old_v[l] = extend(old, in->type);
    }
    if (D)
        for (uint32_t m = active; m; m &= m - 1) {
            int l = ctz32(m);
            D[l] = old_v[l];
        }
    return 0;
}

int exec_read_generic(exec_launch *L, exec_cta *c, exec_warp *w, int lane, uint64_t addr,
                      void *dst, uint32_t n)
{
    uint8_t *d = dst;
    while (n) {
        uint64_t a = addr;
        const uint8_t *p = NULL;
        uint32_t avail = n;
        if (addr_in_window(a, ADDR_SHARED_WINDOW)) {
            a -= ADDR_SHARED_WINDOW;
            if (a >= L->shared_bytes)
                return -1;
            avail = MIN(avail, (uint32_t)(L->shared_bytes - a));
            p = c->shared + a;
        } else if (addr_in_window(a, ADDR_LOCAL_WINDOW)) {
            a -= ADDR_LOCAL_WINDOW;
            if (a >= L->local_bytes)
                return -1;
            avail = MIN(avail, (uint32_t)(L->local_bytes - a));
            p = exec_local(L, c, w, lane) + a;
        } else if (addr_in_window(a, ADDR_PARAM_WINDOW)) {
            a -= ADDR_PARAM_WINDOW;
            if (a >= L->param_bytes)
                return -1;
            avail = MIN(avail, (uint32_t)(L->param_bytes - a));
            p = L->params + a;
        } else {
            uint32_t hint = 0;
            const devmem_alloc *al = devmem_find(L->dm, a, 1, &hint);
            if (!al)
                return -1;
            if (al->host)
                devmem_note_host_access(L->dm, al);
            uint64_t left = al->base + al->size - a;
            uint64_t page_left = DEVMEM_PAGE_SIZE - (a & (DEVMEM_PAGE_SIZE - 1));
            avail = (uint32_t)MIN((uint64_t)avail, al->host ? left : MIN(left, page_left));
            p = al->host ? al->host + (a - al->base) : devmem_rptr(L->dm, a);
            if (!p)
                return -1;
        }
        memcpy(d, p, avail);
        d += avail;
        addr += avail;
        n -= avail;
    }
    return 0;
}

int exec_write_generic(exec_launch *L, exec_cta *c, exec_warp *w, int lane, uint64_t addr,
                       const void *src, uint32_t n)
{
    const uint8_t *sp = src;
    if (addr_in_window(addr, ADDR_SHARED_WINDOW)) {
        uint64_t a = addr - ADDR_SHARED_WINDOW;
        if (a > L->shared_bytes || n > L->shared_bytes - a)
            return -1;
        memcpy(c->shared + a, sp, n);
        return 0;
    }
    if (addr_in_window(addr, ADDR_LOCAL_WINDOW)) {
        uint64_t a = addr - ADDR_LOCAL_WINDOW;
        if (a > L->local_bytes || n > L->local_bytes - a)
            return -1;
        memcpy(exec_local(L, c, w, lane) + a, sp, n);
        return 0;
    }
    if (addr_in_window(addr, ADDR_PARAM_WINDOW))
        return -1; /* kernel parameters are read-only */
    uint32_t hint = 0;
    const devmem_alloc *al = devmem_find(L->dm, addr, n ? n : 1, &hint);
    if (!al || addr < al->base || addr - al->base + n > al->size)
        return -1;
    if (al->host) {
        devmem_note_host_access(L->dm, al);
        memcpy(al->host + (addr - al->base), sp, n);
        return 0;
    }
    return devmem_write(L->dm, addr, sp, n) ? -1 : 0;
}

/* Tell the observers of a reply's writes, with w's register window the one
 * the instruction wrote (the warp may have called or returned since), as
 * the interpreter does for writes at issue. */
static void reply_written(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t reg_base,
                          const ir_insn *in, uint32_t lanes)
{
    uint32_t now_base = w->reg_base;
    w->reg_base = reg_base;
    L->hooks->written(L->hooks->ud, L, c, w, in, lanes, 1);
    w->reg_base = now_base;
}

void exec_reply_load(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t reg_base,
                     const ir_insn *in, uint32_t lanes, const exec_addr *ad, uint64_t base,
                     const uint8_t *bytes)
{
    uint64_t *R = w->regs + (size_t)reg_base * WARP_SIZE;
    int es = ptx_type_size((ptx_type)in->type);
    if (UNLIKELY(in->flags & IRF_WMMA) && es == 2) {
        const uint8_t *ptr[WARP_SIZE];
        for (uint32_t m = lanes; m; m &= m - 1) {
            int l = ctz32(m);
            ptr[l] = bytes + (ad->a[l] - base);
        }
        merge_half(in, R + (size_t)in->d[0].idx * WARP_SIZE, lanes, ptr);
    } else {
        for (int i = 0; i < in->vec; i++) {
            uint64_t *D = R + (size_t)in->d[i].idx * WARP_SIZE;
            for (uint32_t m = lanes; m; m &= m - 1) {
                int l = ctz32(m);
                D[l] = extend(load_bytes(bytes + (ad->a[l] - base) + (uint64_t)(i * es), es),
                              in->type);
            }
        }
    }
    if (UNLIKELY(L->trap & EXEC_TRAP_WRITTEN) && L->hooks->written)
        reply_written(L, c, w, reg_base, in, lanes);
}

void exec_reply_atom(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t reg_base,
                     const ir_insn *in, uint32_t lanes, const uint64_t *old)
{
    if (in->op != OP_ATOM || in->d[0].kind != IRO_REG)
        return;
    uint64_t *D = w->regs + ((size_t)reg_base + in->d[0].idx) * WARP_SIZE;
    for (uint32_t m = lanes; m; m &= m - 1) {
        int l = ctz32(m);
        D[l] = old[l];
    }
    if (UNLIKELY(L->trap & EXEC_TRAP_WRITTEN) && L->hooks->written)
        reply_written(L, c, w, reg_base, in, lanes);
}

void exec_store_bytes(const exec_memreq *rq, int lane, uint8_t *out)
{
    int es = ptx_type_size((ptx_type)rq->in->type);
    for (int i = 0; i < rq->in->vec; i++) {
        uint64_t v = rq->v[i][lane];
        memcpy(out + i * es, &v, (size_t)es); /* little-endian host */
    }
}

/* Host pointer for `size` bytes of global memory at a (checked at issue);
 * *room: bytes from a to the end of its allocation or page. */
static uint8_t *global_ptr(exec_launch *L, uint64_t a, uint32_t size, int write, uint64_t *room)
{
    uint32_t hint = 0;
    const devmem_alloc *al = devmem_find(L->dm, a, size, &hint);
    if (!al) {
        *room = 0; /* no allocation (any more): not a host failure */
        return NULL;
    }
    *room = al->base + al->size - a;
    if (al->host) {
        devmem_note_host_access(L->dm, al);
        return al->host + (a - al->base);
    }
    uint64_t page_left = DEVMEM_PAGE_SIZE - (a & (DEVMEM_PAGE_SIZE - 1));
    if (*room > page_left)
        *room = page_left;
    return write ? devmem_wptr(L->dm, a) : (uint8_t *)devmem_rptr(L->dm, a);
}

int exec_atom_global(exec_launch *L, const ir_insn *in, uint32_t lanes, const exec_addr *ad,
                     const uint64_t *b, const uint64_t *cv, uint64_t *old)
{
    int es = ptx_type_size((ptx_type)in->type), changed = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        int l = ctz32(m);
        uint64_t room;
        uint8_t *p = global_ptr(L, ad->a[l], (uint32_t)es, 1, &room);
        if (!p && !room) {
            /* In timing mode the access was checked at issue; the block was
             * freed (cudaFree, device free) while the request travelled: a
             * GPU's atomic would act on freed memory, which no one can read
             * any more.  It is dropped; the old value reads as zero. */
            old[l] = 0;
            continue;
        }
        if (!p)
            return -1;
        uint64_t o = load_bytes(p, es);
        uint64_t nv = atom_apply(in, SP_GLOBAL, o, b[l], cv ? cv[l] : 0, es);
        memcpy(p, &nv, (size_t)es);
        changed += memcmp(&nv, &o, (size_t)es) != 0; /* little-endian host */
        old[l] = extend(o, in->type);
    }
    return changed;
}

void exec_global_read(exec_launch *L, uint64_t addr, uint8_t *dst, uint32_t n)
{
    /* a line may straddle the end of an allocation or a page: go by pieces */
    while (n) {
        uint32_t hint = 0;
        const devmem_alloc *al = devmem_find(L->dm, addr, 1, &hint);
        uint32_t k = n;
        if (!al) {
            *dst = 0;
            k = 1;
        } else {
            uint64_t left = al->base + al->size - addr;
            if (k > left)
                k = (uint32_t)left;
            if (al->host) {
                devmem_note_host_access(L->dm, al);
                memcpy(dst, al->host + (addr - al->base), k);
            } else {
                uint64_t page_left = DEVMEM_PAGE_SIZE - (addr & (DEVMEM_PAGE_SIZE - 1));
                if (k > page_left)
                    k = (uint32_t)page_left;
                memcpy(dst, devmem_rptr(L->dm, addr), k);
            }
        }
        dst += k;
        addr += k;
        n -= k;
    }
}

int exec_global_write(exec_launch *L, uint64_t addr, const uint8_t *src, const uint64_t mask[2],
                      uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (!((mask[i >> 6] >> (i & 63)) & 1))
            continue;
        uint32_t j = i;
        while (j + 1 < n && ((mask[(j + 1) >> 6] >> ((j + 1) & 63)) & 1))
            j++;
        /* bytes i..j: inside one allocation (each lane's access was checked) */
        for (uint32_t k = i; k <= j;) {
            uint64_t a = addr + k, room;
            uint32_t len = j + 1 - k;
            uint8_t *p = global_ptr(L, a, 1, 1, &room);
            if (!p && !room) {
                /* freed while the store travelled (timing mode): a store
                 * into freed memory, which nothing can read: dropped */
                k++;
                continue;
            }
            if (!p)
                return -1;
            if (len > room)
                len = (uint32_t)room;
            memcpy(p, src + k, len);
            k += len;
        }
        i = j;
    }
    return 0;
}
