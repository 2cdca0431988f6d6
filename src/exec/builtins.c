/*
 * builtins.c -- the functions PTX calls but does not define, which
 * lockstep provides: vprintf (device printf), malloc and free (the device
 * heap) and __assertfail (device assert); the device runtime's are in
 * devrt.c.  Each runs for the active lanes
 * of the call in lane order; arguments and results travel through the
 * caller's .param variables in its frame, like any call.
 */
#include <stdio.h>
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

int exec_builtin(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active)
{
    const ir_call *cs = &L->mod->calls[in->aux];
    uint32_t pc = exec_insn_pc(L, in);
    for (uint32_t m = active; m; m &= m - 1) {
        int l = ctz32(m);
        rd_ctx r = {L, c, w, l};
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
            break;
        }
        case BI_MALLOC: {
            uint64_t size = frame_u64(L, c, w, l, cs->arg_off[0], cs->arg_size[0]), addr = 0;
            if (size && L->dev.dmalloc && L->dev.dmalloc(L->dev.ud, size, &addr))
                addr = 0;
            if (cs->nrets)
                frame_put(L, c, w, l, cs->ret_off[0], cs->ret_size[0], addr);
            break;
        }
        case BI_FREE: {
            uint64_t addr = frame_u64(L, c, w, l, cs->arg_off[0], cs->arg_size[0]);
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
