/*
 * builtins.c -- the functions PTX calls but does not define, which
 * lockstep provides: vprintf (device printf), malloc and free (the device
 * heap) and __assertfail (device assert); the device runtime's are in
 * devrt.c.  Each runs for the active lanes
 * of the call in lane order; arguments and results travel through the
 * caller's .param variables in its frame, like any call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "exec/printf_fmt.h"
#include "util/common.h"

#define PRINTF_MAX_FORMAT 4096
#define PRINTF_MAX_ARGBYTES 264 /* 32 arguments of 8 bytes, and slack */

typedef struct rd_ctx {
    exec_launch *L;
    exec_cta *c;
    exec_warp *w;
    int lane;
} rd_ctx;

static int rd_generic(void *ud, uint64_t addr, void *dst, size_t n)
{
    rd_ctx *r = ud;
    return exec_read_generic(r->L, r->c, r->w, r->lane, addr, dst, (uint32_t)n);
}

static uint64_t frame_u64(exec_launch *L, exec_cta *c, exec_warp *w, int l, uint32_t off,
                          uint32_t size)
{
    uint64_t v = 0;
    memcpy(&v, exec_local(L, c, w, l) + w->frame_base + off, size > 8 ? 8 : size);
    return v;
}

static void frame_put(exec_launch *L, exec_cta *c, exec_warp *w, int l, uint32_t off,
                      uint32_t size, uint64_t v)
{
    memcpy(exec_local(L, c, w, l) + w->frame_base + off, &v, size > 8 ? 8 : size);
}

/* Read a NUL-terminated device string (at most max-1 bytes). */
static int read_string(rd_ctx *r, uint64_t addr, char *buf, size_t max)
{
    size_t n = 0;
    while (n + 1 < max) {
        char ch;
        if (rd_generic(r, addr + n, &ch, 1))
            break;
        if (!ch)
            break;
        buf[n++] = ch;
    }
    buf[n] = 0;
    return (int)n;
}

/* One built-in call of one warp: each lane's result (printf's count,
 * malloc's address). */
typedef struct echo_rec {
    uint64_t r[WARP_SIZE];
    uint32_t frees;       /* a free: the lanes whose r[] the pair frees once confirmed */
} echo_rec;

struct exec_echo {
    uint32_t nwarps;
    struct echo_warp {
        echo_rec *v;      /* the calls the first copy to make them performed */
        uint32_t n, cap;
        uint32_t made[2]; /* calls each copy has made */
    } *w;
};

exec_echo *exec_echo_new(uint32_t nwarps)
{
    exec_echo *e = calloc(1, sizeof *e);
    if (e && !(e->w = calloc(nwarps ? nwarps : 1, sizeof *e->w))) {
        free(e);
        return NULL;
    }
    if (e)
        e->nwarps = nwarps;
    return e;
}

int exec_echo_commit(exec_echo *e, exec_launch *L)
{
    if (!e)
        return 0;
    for (uint32_t i = 0; i < e->nwarps; i++)
        for (uint32_t k = 0; k < e->w[i].n; k++) {
            echo_rec *rec = &e->w[i].v[k];
            for (uint32_t m = rec->frees; m; m &= m - 1) {
                uint64_t addr = rec->r[ctz32(m)];
                if (addr && L->dev.dfree && L->dev.dfree(L->dev.ud, addr)) {
                    exec_fault(L, NULL, NULL, -1, IR_NO_PC, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, addr,
                               "free(0x%llx): not an address device malloc returned",
                               (unsigned long long)addr);
                    return -1;
                }
            }
            rec->frees = 0;
        }
    return 0;
}

void exec_echo_free(exec_echo *e)
{
    if (!e)
        return;
    for (uint32_t i = 0; i < e->nwarps; i++)
        free(e->w[i].v);
    free(e->w);
    free(e);
}

/* The record of warp w's next call under c's echo; *replay: the twin made
 * it already (take its results, perform nothing).  NULL when out of host
 * memory. */
static echo_rec *echo_next(exec_cta *c, exec_warp *w, int *replay)
{
    struct echo_warp *ew = &c->echo->w[w->id];
    uint32_t k = ew->made[c->echo_copy & 1]++;
    *replay = k < ew->n;
    if (*replay)
        return &ew->v[k];
    if (ew->n == ew->cap) {
        uint32_t cap = ew->cap ? 2 * ew->cap : 4;
        echo_rec *v = realloc(ew->v, cap * sizeof *v);
        if (!v)
            return NULL;
        ew->v = v;
        ew->cap = cap;
    }
    echo_rec *rec = &ew->v[ew->n++];
    memset(rec, 0, sizeof *rec);
    return rec;
}

int exec_builtin(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active)
{
    const ir_call *cs = &L->mod->calls[in->aux];
    uint32_t pc = exec_insn_pc(L, in);
    echo_rec *rec = NULL;
    int replay = 0;
    if (c->echo && w->id < c->echo->nwarps &&
        (cs->callee == BI_VPRINTF || cs->callee == BI_MALLOC || cs->callee == BI_FREE) &&
        !(rec = echo_next(c, w, &replay))) {
        L->oom = 1;
        exec_fault(L, c, w, -1, pc, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
                   "out of host memory for a redundant copy's built-in call");
        return -1;
    }
    for (uint32_t m = active; m; m &= m - 1) {
        int l = ctz32(m);
        rd_ctx r = {L, c, w, l};
        if (replay) {
            /* the twin printed, allocated or freed: the same results, once */
            if (cs->callee != BI_FREE && cs->nrets)
                frame_put(L, c, w, l, cs->ret_off[0], cs->ret_size[0], rec->r[l]);
            continue;
        }
        switch (cs->callee) {
        case BI_VPRINTF: {
            uint64_t fmt_addr = frame_u64(L, c, w, l, cs->arg_off[0], cs->arg_size[0]);
            uint64_t arg_addr = cs->nargs > 1 ? frame_u64(L, c, w, l, cs->arg_off[1], cs->arg_size[1]) : 0;
            char fmt[PRINTF_MAX_FORMAT];
            if (rd_generic(&r, fmt_addr, fmt, 1)) {
                exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, fmt_addr,
                           "printf format string at 0x%llx is not readable",
                           (unsigned long long)fmt_addr);
                return -1;
            }
            read_string(&r, fmt_addr, fmt, sizeof fmt);
            uint8_t args[PRINTF_MAX_ARGBYTES];
            size_t nargs = 0;
            if (arg_addr)
                while (nargs + 8 <= sizeof args && !rd_generic(&r, arg_addr + nargs, args + nargs, 8))
                    nargs += 8;
            /* The FIFO holds printf_limit bytes until the next synchronization;
             * a record that does not fit is lost, and printf returns -1, as on
             * a GPU whose printf buffer is full. */
            size_t before = L->printf_out->len;
            int got = printf_format(fmt, args, nargs, rd_generic, &r, L->printf_out);
            if (L->printf_limit && L->printf_out->len > L->printf_limit) {
                L->printf_out->len = before;
                if (L->printf_out->s)
                    L->printf_out->s[before] = 0;
                L->printf_dropped++;
                got = -1;
            }
            if (cs->nrets)
                frame_put(L, c, w, l, cs->ret_off[0], cs->ret_size[0], (uint64_t)(int64_t)got);
            if (rec)
                rec->r[l] = (uint64_t)(int64_t)got;
            break;
        }
        case BI_MALLOC: {
            uint64_t size = frame_u64(L, c, w, l, cs->arg_off[0], cs->arg_size[0]), addr = 0;
            if (size && L->dev.dmalloc && L->dev.dmalloc(L->dev.ud, size, &addr))
                addr = 0;
            if (cs->nrets)
                frame_put(L, c, w, l, cs->ret_off[0], cs->ret_size[0], addr);
            if (rec)
                rec->r[l] = addr;
            break;
        }
        case BI_FREE: {
            uint64_t addr = frame_u64(L, c, w, l, cs->arg_off[0], cs->arg_size[0]);
            if (rec) {
                /* the pair's writes to the block are committed when it is
                 * confirmed: only then may the block go to another CTA */
                rec->r[l] = addr;
                rec->frees |= 1u << l;
                break;
            }
            if (addr && L->dev.dfree && L->dev.dfree(L->dev.ud, addr)) {
                exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, addr,
                           "free(0x%llx): not an address device malloc returned",
                           (unsigned long long)addr);
                return -1;
            }
            break;
        }
        case BI_ASSERTFAIL: {
            char msg[512], file[512], func[256];
            msg[0] = file[0] = func[0] = 0;
            uint64_t line = 0;
            if (cs->nargs >= 4) {
                read_string(&r, frame_u64(L, c, w, l, cs->arg_off[0], cs->arg_size[0]), msg, sizeof msg);
                read_string(&r, frame_u64(L, c, w, l, cs->arg_off[1], cs->arg_size[1]), file, sizeof file);
                line = frame_u64(L, c, w, l, cs->arg_off[2], cs->arg_size[2]) & 0xffffffffu;
                read_string(&r, frame_u64(L, c, w, l, cs->arg_off[3], cs->arg_size[3]), func, sizeof func);
            }
            uint32_t tid[3];
            exec_thread_id(L, w, l, tid);
            exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ASSERT, 0,
                       "%s:%llu: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.",
                       file, (unsigned long long)line, func, c->ctaid[0], c->ctaid[1], c->ctaid[2],
                       tid[0], tid[1], tid[2], msg);
            return -1;
        }
        default:
            if (cs->callee >= BI_FIRST_DEVRT && cs->callee < BI_COUNT) {
                if (exec_devrt_call(L, c, w, in, l))
                    return -1;
                break;
            }
            exec_fault(L, c, w, l, pc, LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, 0,
                       "internal: unknown built-in %u", cs->callee);
            return -1;
        }
    }
    return 0;
}
