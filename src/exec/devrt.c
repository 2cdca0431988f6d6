/*
 * devrt.c -- CUDA's device runtime (cudadevrt) as lockstep built-ins:
 * what a kernel calls to launch kernels from device code (dynamic
 * parallelism), and the rest of the runtime API that device code may call.
 * nvcc 12 and later emit calls of __cudaCDP2NAME; older code and
 * hand-written PTX call cudaNAME (ir.h, IR_BUILTINS, lists both).
 *
 * DESIGN
 * - Nothing runs at the call.  cudaGetParameterBuffer[V2] hands out a
 *   buffer in device memory (the device's, exec_cdp_ops.buffer) for the
 *   child's arguments; cudaLaunchDevice[V2] checks the launch as a host
 *   launch is checked and records it as an exec_child of the grid, as do
 *   cudaMemcpyAsync and cudaMemsetAsync.  The device runs the grid's
 *   children after all the grid's threads have finished (src/core), in an
 *   order that does not depend on timing: docs/CUDART.md, "Dynamic
 *   parallelism".  What the calls return to the thread is therefore the
 *   same in functional and timing mode.
 * - Errors are CUDA's (util/cuda_errors.h), returned to the calling thread
 *   and kept as its last error (cudaGetLastError, cudaPeekAtLastError),
 *   per thread, as CUDA keeps them.  A call that cannot work on lockstep
 *   (BI_DR_MISSING: a device-runtime function lockstep does not provide,
 *   or a launch under redundant execution) stops the kernel with a message
 *   naming it, never a silent success.
 * - Streams and events are block-scoped handles (the calling CTA's), checked
 *   at every use; since the device runs a grid's children one after
 *   another in an order that keeps every stream's order, they order
 *   nothing beyond that.
 * - cudaGraphSetConditional (CUDA graphs' conditional nodes) is a store to
 *   the word its handle names (set_conditional).
 * - In timing mode the calls are built-ins and run in the serial step in
 *   the canonical order (docs/ARCHITECTURE.md), on the launch itself: one
 *   host thread at a time touches exec_cdp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "util/addrmap.h"
#include "util/common.h"
#include "util/cuda_errors.h"

enum {
#define X(name, value, text) DR_##name = value,
    CUDA_ERRORS(X)
#undef X
};

/* CUDA's device-side stream handles, and flags (cuda_device_runtime_api.h,
 * driver_types.h). */
enum {
    STREAM_NULL = 0,
    STREAM_LEGACY = 1,
    STREAM_PER_THREAD = 2,
    STREAM_TAIL_LAUNCH = 3,
    STREAM_FIRE_AND_FORGET = 4,
    STREAM_NON_BLOCKING = 1,
    EVENT_BLOCKING_SYNC = 1,
    EVENT_DISABLE_TIMING = 2,
    MEMCPY_DEFAULT = 4,
    CUDA_RUNTIME_VERSION = 13000,
    SHARED_MEM_BANK_FOUR_BYTE = 1,
};

/* Stream and event handles: HANDLE_BASE + 16 x index, never one of the
 * special streams above and never a device address. */
#define HANDLE_BASE 0x00000d0000000000ull

/* ---- arguments ---------------------------------------------------------------------- */

typedef struct dr_call {
    exec_launch *L;
    exec_cta *c;
    exec_warp *w;
    const ir_call *cs;
    int lane;
    uint32_t pc;
    int bi;
} dr_call;

static const char *dr_name(const dr_call *d)
{
    return d->L->mod->funcs[d->cs->decl].name;
}

static uint8_t *arg_ptr(const dr_call *d, uint32_t i)
{
    return exec_local(d->L, d->c, d->w, d->lane) + d->w->frame_base + d->cs->arg_off[i];
}

static uint64_t arg(const dr_call *d, uint32_t i)
{
    uint64_t v = 0;
    memcpy(&v, arg_ptr(d, i), d->cs->arg_size[i] > 8 ? 8 : d->cs->arg_size[i]);
    return v;
}

/* A dim3 argument (12 bytes). */
static void arg_dim3(const dr_call *d, uint32_t i, uint32_t out[3])
{
    memcpy(out, arg_ptr(d, i), 12);
}

static void ret(const dr_call *d, uint64_t v)
{
    if (!d->cs->nrets)
        return;
    uint32_t n = d->cs->ret_size[0] > 8 ? 8 : d->cs->ret_size[0];
    memcpy(exec_local(d->L, d->c, d->w, d->lane) + d->w->frame_base + d->cs->ret_off[0], &v, n);
}

/* Store a result through a pointer the thread passed; a bad pointer stops
 * the kernel, as the store would. */
static int put(const dr_call *d, uint64_t addr, const void *v, uint32_t n)
{
    if (!exec_write_generic(d->L, d->c, d->w, d->lane, addr, v, n))
        return 0;
    exec_fault(d->L, d->c, d->w, d->lane, d->pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, addr,
               "%s: its result pointer 0x%llx does not point at %u writable bytes", dr_name(d),
               (unsigned long long)addr, n);
    return -1;
}

/* ---- each thread's last error ------------------------------------------------------- */

static uint64_t thread_key(const dr_call *d)
{
    return d->c->linear * d->L->nthreads + (uint64_t)d->w->id * WARP_SIZE + (uint64_t)d->lane;
}

static uint32_t err_slot(const exec_cdp *p, uint64_t key)
{
    uint64_t h = (key + 1) * 0x9e3779b97f4a7c15ull;
    uint32_t i = (uint32_t)(h >> 32) & (p->err_cap - 1);
    while (p->err_keys[i] && p->err_keys[i] != key + 1)
        i = (i + 1) & (p->err_cap - 1);
    return i;
}

static uint32_t err_get(const exec_cdp *p, uint64_t key)
{
    if (!p->err_cap)
        return 0;
    uint32_t i = err_slot(p, key);
    return p->err_keys[i] ? p->err_vals[i] : 0;
}

/* Keep e as the thread's last error (0 clears it); -1: out of host memory. */
static int err_set(exec_cdp *p, uint64_t key, uint32_t e)
{
    if (!e && !err_get(p, key))
        return 0;
    if (2 * (p->err_n + 1) > p->err_cap) {
        uint32_t cap = p->err_cap ? 2 * p->err_cap : 64;
        uint64_t *k = calloc(cap, sizeof *k);
        uint32_t *v = calloc(cap, sizeof *v);
        if (!k || !v) {
            free(k);
            free(v);
            return -1;
        }
        exec_cdp old = *p;
        p->err_keys = k;
        p->err_vals = v;
        p->err_cap = cap;
        for (uint32_t i = 0; i < old.err_cap; i++)
            if (old.err_keys[i]) {
                uint32_t j = err_slot(p, old.err_keys[i] - 1);
                p->err_keys[j] = old.err_keys[i];
                p->err_vals[j] = old.err_vals[i];
            }
        free(old.err_keys);
        free(old.err_vals);
    }
    uint32_t i = err_slot(p, key);
    if (!p->err_keys[i]) {
        p->err_keys[i] = key + 1;
        p->err_n++;
    }
    p->err_vals[i] = e; /* a cleared entry stays, holding 0 */
    return 0;
}

static int oom(const dr_call *d)
{
    d->L->oom = 1;
    exec_fault(d->L, d->c, d->w, d->lane, d->pc, LOCKSTEP_ERROR_OUT_OF_MEMORY, 0,
               "out of host memory in %s", dr_name(d));
    return -1;
}

/* Return e to the thread; a failure also becomes its last error. */
static int done(const dr_call *d, uint32_t e)
{
    ret(d, e);
    if (e && err_set(d->L->cdp, thread_key(d), e))
        return oom(d);
    return 0;
}

/* ---- kernels, streams, events --------------------------------------------------------- */

/* The kernel at a function address (mov of an .entry's name), or UINT32_MAX. */
static uint32_t kernel_at(const exec_launch *L, uint64_t fa)
{
    if (fa < ADDR_FUNC_WINDOW || (fa - ADDR_FUNC_WINDOW) % 16)
        return UINT32_MAX;
    uint64_t idx = (fa - ADDR_FUNC_WINDOW) / 16;
    if (idx >= L->mod->nfuncs || !L->mod->funcs[idx].is_entry || !L->mod->funcs[idx].has_body)
        return UINT32_MAX;
    return (uint32_t)idx;
}

/* The live handle h of the calling CTA, of the kind asked: its index, or -1. */
static int64_t handle_of(const dr_call *d, uint64_t h, int is_event)
{
    const exec_cdp *p = d->L->cdp;
    if (h < HANDLE_BASE || (h - HANDLE_BASE) % 16)
        return -1;
    uint64_t i = (h - HANDLE_BASE) / 16;
    if (i >= p->handles.n)
        return -1;
    const exec_cdp_handle *e = &p->handles.v[i];
    if (!e->live || e->is_event != is_event || e->cta != d->c->linear)
        return -1;
    return (int64_t)i;
}

/* A stream a thread may launch into: the NULL stream (and the per-thread
 * one), the tail-launch and fire-and-forget streams, or one its CTA made. */
static int stream_ok(const dr_call *d, uint64_t s)
{
    return s == STREAM_NULL || s == STREAM_PER_THREAD || s == STREAM_TAIL_LAUNCH ||
           s == STREAM_FIRE_AND_FORGET || handle_of(d, s, 0) >= 0;
}

static int new_handle(const dr_call *d, int is_event, uint64_t out)
{
    exec_cdp *p = d->L->cdp;
    exec_cdp_handle h = {d->c->linear, (uint8_t)is_event, 1};
    uint64_t v = HANDLE_BASE + 16 * (uint64_t)p->handles.n;
    if (put(d, out, &v, 8))
        return -1;
    if (vec_push(&p->handles, h))
        return oom(d);
    return done(d, DR_cudaSuccess);
}

/* ---- launches ------------------------------------------------------------------------- */

static int refused(const dr_call *d)
{
    exec_fault(d->L, d->c, d->w, d->lane, d->pc, LOCKSTEP_ERROR_UNSUPPORTED_PTX, 0,
               "%s: kernels cannot be launched from device code %s", dr_name(d),
               d->L->cdp->refused);
    return -1;
}

/* Reserve a pending launch: 0, or the error. */
static uint32_t reserve(const dr_call *d)
{
    exec_cdp *p = d->L->cdp;
    if (*p->pending >= p->pending_limit)
        return DR_cudaErrorLaunchPendingCountExceeded;
    ++*p->pending;
    return 0;
}

/* A parameter buffer: the address (0 and the thread's last error when
 * there is none). */
static int get_buffer(const dr_call *d, uint64_t size, uint32_t align, uint32_t func,
                      const uint32_t grid[3], const uint32_t block[3], uint32_t dyn)
{
    exec_cdp *p = d->L->cdp;
    uint32_t e = reserve(d);
    if (e) {
        ret(d, 0);
        return err_set(p, thread_key(d), e) ? oom(d) : 0;
    }
    uint64_t addr = 0;
    if (p->ops->buffer(p->ops->ud, size ? size : 1, align, &addr)) {
        --*p->pending;
        ret(d, 0);
        return err_set(p, thread_key(d), DR_cudaErrorMemoryAllocation) ? oom(d) : 0;
    }
    exec_cdp_buf b = {addr, size, func, {0}, {0}, dyn, d->c->linear};
    if (grid)
        memcpy(b.grid, grid, sizeof b.grid);
    if (block)
        memcpy(b.block, block, sizeof b.block);
    if (vec_push(&p->bufs, b)) {
        p->ops->buffer_free(p->ops->ud, addr);
        --*p->pending;
        return oom(d);
    }
    ret(d, addr);
    return 0;
}

/* The buffer at addr handed out to the calling CTA, or -1 (searched from
 * the newest: a thread launches what it was just given). */
static int64_t find_buffer(const dr_call *d, uint64_t addr)
{
    const exec_cdp *p = d->L->cdp;
    for (size_t i = p->bufs.n; i-- > 0;)
        if (p->bufs.v[i].addr == addr && p->bufs.v[i].cta == d->c->linear)
            return (int64_t)i;
    return -1;
}

/* The buffer is launched or dropped: it leaves the list. */
static void take_buffer(exec_cdp *p, size_t i)
{
    p->bufs.v[i] = p->bufs.v[p->bufs.n - 1];
    p->bufs.n--;
}

static uint32_t status_error(lockstep_status st)
{
    switch (st) {
    case LOCKSTEP_SUCCESS: return DR_cudaSuccess;
    case LOCKSTEP_ERROR_INVALID_LAUNCH: return DR_cudaErrorInvalidConfiguration;
    case LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES: return DR_cudaErrorLaunchOutOfResources;
    case LOCKSTEP_ERROR_OUT_OF_MEMORY: return DR_cudaErrorMemoryAllocation;
    default: return DR_cudaErrorInvalidValue;
    }
}

/* Launch buffer bi (found) of kernel func with this shape into stream s. */
static int launch(const dr_call *d, size_t bi, uint32_t func, const uint32_t grid[3],
                  const uint32_t block[3], uint32_t dyn, uint64_t s)
{
    exec_cdp *p = d->L->cdp;
    exec_cdp_buf b = p->bufs.v[bi];
    uint32_t e = DR_cudaSuccess;
    char msg[256];
    if (!stream_ok(d, s))
        e = DR_cudaErrorInvalidResourceHandle;
    else if (p->depth + 1 > p->max_depth)
        e = DR_cudaErrorLaunchMaxDepthExceeded;
    else if (b.size < d->L->mod->funcs[func].param_bytes)
        e = DR_cudaErrorInvalidValue;
    else
        e = status_error(p->ops->check(p->ops->ud, func, grid, block, dyn, msg, sizeof msg));
    take_buffer(p, bi);
    if (e) {
        p->ops->buffer_free(p->ops->ud, b.addr);
        --*p->pending;
        return done(d, e);
    }
    exec_child ch;
    memset(&ch, 0, sizeof ch);
    ch.kind = EXEC_CHILD_GRID;
    ch.tail = s == STREAM_TAIL_LAUNCH;
    ch.func = func;
    memcpy(ch.grid, grid, sizeof ch.grid);
    memcpy(ch.block, block, sizeof ch.block);
    ch.dyn_shared = dyn;
    ch.params = b.addr;
    ch.cta = d->c->linear;
    ch.tid = d->w->id * WARP_SIZE + (uint32_t)d->lane;
    ch.seq = p->seq++;
    if (vec_push(&p->children, ch)) {
        p->ops->buffer_free(p->ops->ud, b.addr);
        --*p->pending;
        return oom(d);
    }
    return done(d, DR_cudaSuccess);
}

/* A copy or fill into stream s, run with the grid's children. */
static int queue_copy(const dr_call *d, exec_child *ch, uint64_t s)
{
    exec_cdp *p = d->L->cdp;
    if (!stream_ok(d, s))
        return done(d, DR_cudaErrorInvalidResourceHandle);
    if (!ch->width || !ch->height)
        return done(d, DR_cudaSuccess);
    uint32_t e = reserve(d);
    if (e)
        return done(d, e);
    ch->tail = s == STREAM_TAIL_LAUNCH;
    ch->cta = d->c->linear;
    ch->tid = d->w->id * WARP_SIZE + (uint32_t)d->lane;
    ch->seq = p->seq++;
    if (vec_push(&p->children, *ch)) {
        --*p->pending;
        return oom(d);
    }
    return done(d, DR_cudaSuccess);
}

/* ---- the calls ------------------------------------------------------------------------ */

static const char *error_text(uint32_t e, int name)
{
    switch (e) {
#define X(n, value, text)                                                                  \
    case value:                                                                            \
        return name ? #n : text;
        CUDA_ERRORS(X)
#undef X
    default:
        return name ? "cudaErrorUnknown" : "unrecognized error code";
    }
}

/* cudaGraphSetConditional(handle, value): a conditional handle is the
 * tagged address of the word that holds the condition's value
 * (util/addrmap.h; the CUDA runtime makes them and reads the word when the
 * conditional node runs), so setting it is a 4-byte store there, made at
 * the call.  Anything else passed as a handle stops the kernel. */
static int set_conditional(const dr_call *d)
{
    uint64_t h = arg(d, 0), addr = ADDR_COND_HANDLE_ADDR(h);
    uint32_t v = (uint32_t)arg(d, 1);
    if (!ADDR_IS_COND_HANDLE(h) || addr < ADDR_GLOBAL_BASE) {
        exec_fault(d->L, d->c, d->w, d->lane, d->pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, 0,
                   "%s: 0x%llx is not a conditional handle (cudaGraphConditionalHandleCreate "
                   "makes them)",
                   dr_name(d), (unsigned long long)h);
        return -1;
    }
    if (exec_write_generic(d->L, d->c, d->w, d->lane, addr, &v, 4)) {
        exec_fault(d->L, d->c, d->w, d->lane, d->pc, LOCKSTEP_ERROR_ILLEGAL_ADDRESS, addr,
                   "%s: the conditional handle 0x%llx is no longer valid (the graph it was "
                   "made for has been destroyed)",
                   dr_name(d), (unsigned long long)h);
        return -1;
    }
    return 0;
}

int exec_devrt_call(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, int lane)
{
    const ir_call *cs = &L->mod->calls[in->aux];
    dr_call d = {L, c, w, cs, lane, exec_insn_pc(L, in), (int)cs->callee};
    if (d.bi == BI_DR_GRAPH_SET_CONDITIONAL)
        return set_conditional(&d); /* needs none of the device runtime's state */
    exec_cdp *p = L->cdp;
    if (d.bi == BI_DR_MISSING || !p) {
        const char *name = dr_name(&d);
        exec_fault(L, c, w, lane, d.pc, LOCKSTEP_ERROR_UNSUPPORTED_PTX, 0,
                   "'%s' is a function of CUDA's device runtime (cudadevrt) that lockstep does "
                   "not provide%s (docs/CUDART.md, \"Dynamic parallelism\")",
                   name,
                   !p ? ": this launch has no device runtime"
                   : !strcmp(name, "cudaDeviceSynchronize")
                       ? ": device-side cudaDeviceSynchronize was removed in CUDA 12"
                       : "");
        return -1;
    }
    uint64_t key = thread_key(&d);
    switch (d.bi) {
    case BI_DR_GET_PARAMETER_BUFFER: {
        if (p->refused)
            return refused(&d);
        uint64_t align = arg(&d, 0), size = arg(&d, 1);
        if (align < 8)
            align = 8;
        if ((align & (align - 1)) || align > 4096 || size > 65536) {
            ret(&d, 0);
            return err_set(p, key, DR_cudaErrorInvalidValue) ? oom(&d) : 0;
        }
        return get_buffer(&d, size, (uint32_t)align, UINT32_MAX, NULL, NULL, 0);
    }
    case BI_DR_GET_PARAMETER_BUFFER_V2: {
        if (p->refused)
            return refused(&d);
        uint32_t func = kernel_at(L, arg(&d, 0)), grid[3], block[3];
        if (func == UINT32_MAX) {
            ret(&d, 0);
            return err_set(p, key, DR_cudaErrorInvalidDeviceFunction) ? oom(&d) : 0;
        }
        arg_dim3(&d, 1, grid);
        arg_dim3(&d, 2, block);
        return get_buffer(&d, L->mod->funcs[func].param_bytes, 64, func, grid, block,
                          (uint32_t)arg(&d, 3));
    }
    case BI_DR_LAUNCH_DEVICE: {
        if (p->refused)
            return refused(&d);
        uint32_t func = kernel_at(L, arg(&d, 0)), grid[3], block[3];
        int64_t bi = find_buffer(&d, arg(&d, 1));
        if (bi < 0 || p->bufs.v[bi].func != UINT32_MAX)
            return done(&d, DR_cudaErrorInvalidValue);
        if (func == UINT32_MAX) {
            exec_cdp_buf b = p->bufs.v[bi];
            take_buffer(p, (size_t)bi);
            p->ops->buffer_free(p->ops->ud, b.addr);
            --*p->pending;
            return done(&d, DR_cudaErrorInvalidDeviceFunction);
        }
        arg_dim3(&d, 2, grid);
        arg_dim3(&d, 3, block);
        return launch(&d, (size_t)bi, func, grid, block, (uint32_t)arg(&d, 4), arg(&d, 5));
    }
    case BI_DR_LAUNCH_DEVICE_V2: {
        if (p->refused)
            return refused(&d);
        int64_t bi = find_buffer(&d, arg(&d, 0));
        if (bi < 0 || p->bufs.v[bi].func == UINT32_MAX)
            return done(&d, DR_cudaErrorInvalidValue);
        exec_cdp_buf b = p->bufs.v[bi];
        return launch(&d, (size_t)bi, b.func, b.grid, b.block, b.dyn_shared, arg(&d, 1));
    }
    case BI_DR_GET_LAST_ERROR: {
        uint32_t e = err_get(p, key);
        ret(&d, e);
        return e && err_set(p, key, 0) ? oom(&d) : 0;
    }
    case BI_DR_PEEK_AT_LAST_ERROR:
        ret(&d, err_get(p, key));
        return 0;
    case BI_DR_GET_ERROR_STRING:
    case BI_DR_GET_ERROR_NAME: {
        uint64_t addr = 0;
        const char *t = error_text((uint32_t)arg(&d, 0), d.bi == BI_DR_GET_ERROR_NAME);
        if (p->ops->string(p->ops->ud, t, &addr))
            return oom(&d);
        ret(&d, addr);
        return 0;
    }
    case BI_DR_GET_DEVICE:
    case BI_DR_GET_DEVICE_COUNT: {
        int32_t v = d.bi == BI_DR_GET_DEVICE ? 0 : 1;
        return put(&d, arg(&d, 0), &v, 4) ? -1 : done(&d, DR_cudaSuccess);
    }
    case BI_DR_DEVICE_GET_ATTRIBUTE: {
        int v = 0;
        if ((int32_t)arg(&d, 2) != 0)
            return done(&d, DR_cudaErrorInvalidDevice);
        int rc = p->ops->attribute(p->ops->ud, (int)(int32_t)arg(&d, 1), &v);
        if (rc)
            return done(&d, rc == -1 ? DR_cudaErrorInvalidValue : DR_cudaErrorNotSupported);
        int32_t v32 = v;
        return put(&d, arg(&d, 0), &v32, 4) ? -1 : done(&d, DR_cudaSuccess);
    }
    case BI_DR_DEVICE_GET_LIMIT: {
        uint32_t lim = (uint32_t)arg(&d, 1);
        if (lim >= sizeof p->limits / sizeof p->limits[0])
            return done(&d, DR_cudaErrorUnsupportedLimit);
        return put(&d, arg(&d, 0), &p->limits[lim], 8) ? -1 : done(&d, DR_cudaSuccess);
    }
    case BI_DR_DEVICE_GET_CACHE_CONFIG:
    case BI_DR_DEVICE_GET_SHARED_MEM_CONFIG:
    case BI_DR_RUNTIME_GET_VERSION: {
        int32_t v = d.bi == BI_DR_RUNTIME_GET_VERSION           ? CUDA_RUNTIME_VERSION
                    : d.bi == BI_DR_DEVICE_GET_SHARED_MEM_CONFIG ? SHARED_MEM_BANK_FOUR_BYTE
                                                                 : 0; /* PreferNone */
        return put(&d, arg(&d, 0), &v, 4) ? -1 : done(&d, DR_cudaSuccess);
    }
    case BI_DR_STREAM_CREATE_WITH_FLAGS:
        if ((uint32_t)arg(&d, 1) != STREAM_NON_BLOCKING)
            return done(&d, DR_cudaErrorInvalidValue);
        return new_handle(&d, 0, arg(&d, 0));
    case BI_DR_EVENT_CREATE_WITH_FLAGS:
        if ((uint32_t)arg(&d, 1) & ~(uint32_t)(EVENT_BLOCKING_SYNC | EVENT_DISABLE_TIMING))
            return done(&d, DR_cudaErrorInvalidValue);
        return new_handle(&d, 1, arg(&d, 0));
    case BI_DR_STREAM_DESTROY:
    case BI_DR_EVENT_DESTROY: {
        int64_t h = handle_of(&d, arg(&d, 0), d.bi == BI_DR_EVENT_DESTROY);
        if (h < 0)
            return done(&d, DR_cudaErrorInvalidResourceHandle);
        p->handles.v[h].live = 0;
        return done(&d, DR_cudaSuccess);
    }
    case BI_DR_EVENT_RECORD:
        /* an event orders nothing here: the children run in launch order */
        if (handle_of(&d, arg(&d, 0), 1) < 0 || !stream_ok(&d, arg(&d, 1)))
            return done(&d, DR_cudaErrorInvalidResourceHandle);
        return done(&d, DR_cudaSuccess);
    case BI_DR_STREAM_WAIT_EVENT:
        if (!stream_ok(&d, arg(&d, 0)) || handle_of(&d, arg(&d, 1), 1) < 0)
            return done(&d, DR_cudaErrorInvalidResourceHandle);
        return done(&d, (uint32_t)arg(&d, 2) ? DR_cudaErrorInvalidValue : DR_cudaSuccess);
    case BI_DR_MALLOC: {
        uint64_t out = arg(&d, 0), size = arg(&d, 1), addr = 0;
        if (size && (!L->dev.dmalloc || L->dev.dmalloc(L->dev.ud, size, &addr)))
            return done(&d, DR_cudaErrorMemoryAllocation);
        if (put(&d, out, &addr, 8)) {
            if (addr)
                L->dev.dfree(L->dev.ud, addr);
            return -1;
        }
        return done(&d, DR_cudaSuccess);
    }
    case BI_DR_FREE: {
        uint64_t addr = arg(&d, 0);
        if (addr && (!L->dev.dfree || L->dev.dfree(L->dev.ud, addr)))
            return done(&d, DR_cudaErrorInvalidDevicePointer);
        return done(&d, DR_cudaSuccess);
    }
    case BI_DR_MEMCPY_ASYNC:
    case BI_DR_MEMCPY_2D_ASYNC: {
        int two = d.bi == BI_DR_MEMCPY_2D_ASYNC;
        exec_child ch;
        memset(&ch, 0, sizeof ch);
        ch.kind = EXEC_CHILD_COPY;
        ch.dst = arg(&d, 0);
        ch.dpitch = two ? arg(&d, 1) : 0;
        ch.src = arg(&d, two ? 2 : 1);
        ch.spitch = two ? arg(&d, 3) : 0;
        ch.width = arg(&d, two ? 4 : 2);
        ch.height = two ? arg(&d, 5) : 1;
        uint32_t kind = (uint32_t)arg(&d, two ? 6 : 3);
        if (kind > MEMCPY_DEFAULT)
            return done(&d, DR_cudaErrorInvalidMemcpyDirection);
        if (two && ch.height > 1 && (ch.width > ch.dpitch || ch.width > ch.spitch))
            return done(&d, DR_cudaErrorInvalidPitchValue);
        return queue_copy(&d, &ch, arg(&d, two ? 7 : 4));
    }
    case BI_DR_MEMSET_ASYNC:
    case BI_DR_MEMSET_2D_ASYNC: {
        int two = d.bi == BI_DR_MEMSET_2D_ASYNC;
        exec_child ch;
        memset(&ch, 0, sizeof ch);
        ch.kind = EXEC_CHILD_FILL;
        ch.dst = arg(&d, 0);
        ch.dpitch = two ? arg(&d, 1) : 0;
        ch.value = (uint32_t)arg(&d, two ? 2 : 1) & 0xff;
        ch.width = arg(&d, two ? 3 : 2);
        ch.height = two ? arg(&d, 4) : 1;
        if (two && ch.height > 1 && ch.width > ch.dpitch)
            return done(&d, DR_cudaErrorInvalidPitchValue);
        return queue_copy(&d, &ch, arg(&d, two ? 5 : 3));
    }
    case BI_DR_FUNC_GET_ATTRIBUTES: {
        uint32_t func = kernel_at(L, arg(&d, 1));
        if (func == UINT32_MAX)
            return done(&d, DR_cudaErrorInvalidDeviceFunction);
        uint8_t buf[256];
        int n = p->ops->func_attributes(p->ops->ud, func, buf, sizeof buf);
        if (n < 0)
            return done(&d, DR_cudaErrorNotSupported);
        return put(&d, arg(&d, 0), buf, (uint32_t)n) ? -1 : done(&d, DR_cudaSuccess);
    }
    case BI_DR_OCCUPANCY:
    case BI_DR_OCCUPANCY_FLAGS: {
        uint32_t func = kernel_at(L, arg(&d, 1));
        if (func == UINT32_MAX)
            return done(&d, DR_cudaErrorInvalidDeviceFunction);
        uint32_t threads = (uint32_t)arg(&d, 2);
        if (d.bi == BI_DR_OCCUPANCY_FLAGS && (uint32_t)arg(&d, 4) > 1)
            return done(&d, DR_cudaErrorInvalidValue);
        int32_t n = threads ? (int32_t)p->ops->occupancy(p->ops->ud, func, threads, arg(&d, 3)) : 0;
        return put(&d, arg(&d, 0), &n, 4) ? -1 : done(&d, DR_cudaSuccess);
    }
    default:
        exec_fault(L, c, w, lane, d.pc, LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION, 0,
                   "internal: unknown device-runtime built-in %d", d.bi);
        return -1;
    }
}

void exec_cdp_release(exec_cdp *cdp)
{
    vec_free(&cdp->children);
    vec_free(&cdp->bufs);
    vec_free(&cdp->handles);
    free(cdp->err_keys);
    free(cdp->err_vals);
    cdp->err_keys = NULL;
    cdp->err_vals = NULL;
    cdp->err_n = cdp->err_cap = 0;
}
