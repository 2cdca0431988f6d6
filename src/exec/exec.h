/*
 * exec.h -- the functional GPU core: executes decoded PTX (ir.h) for a
 * grid of CTAs, each a set of warps of 32 lanes, with a pre-Volta SIMT
 * stack per warp.  Functional mode executes memory operations at once and
 * is sequentially consistent; it is the fast emulator and the reference
 * for outputs (DESIGN principle 3).
 *
 * Pieces:
 *   interp.c   the interpreter: one warp runs until it blocks or its slice ends
 *   memops.c   memory instructions as two halves: address generation per
 *              lane, then the data access (what a timing model will call
 *              when the memory system services the request)
 *   sched.c    the grid: CTAs resident at once, warps round-robin, barriers,
 *              deadlock detection, the instruction limit, faults
 *   builtins.c vprintf, malloc, free, __assertfail
 *   devrt.c    CUDA's device runtime (dynamic parallelism): what a grid's
 *              threads launch from device code, recorded for the device
 *
 * All state of a launch hangs off exec_launch; nothing is global.
 */
#ifndef LOCKSTEP_EXEC_H
#define LOCKSTEP_EXEC_H

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "lockstep.h"
#include "mem/devmem.h"
#include "ptx/ir.h"
#include "util/common.h"
#include "util/strbuf.h"

#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu
#define MAX_BARRIERS 16
#define SIMT_MAX_DEPTH 4096
#define CALL_MAX_DEPTH 1024

/* What the device lends a launch. */
typedef struct exec_device_ops {
    void *ud;
    /* device-side malloc/free (the device heap); 0 on success */
    int (*dmalloc)(void *ud, uint64_t size, uint64_t *addr);
    int (*dfree)(void *ud, uint64_t addr);
} exec_device_ops;

/* Launch-wide options taken from the config. */
typedef struct exec_options {
    uint64_t max_warp_insts;   /* the instruction limit (0: none) */
    uint32_t stack_bytes;      /* per-thread stack for recursive call chains */
    uint32_t resident_ctas;    /* CTAs executing concurrently */
    uint32_t slice;            /* warp instructions per scheduling turn */
    uint32_t num_sms;          /* %nsmid; CTAs map to %smid round-robin */
    uint32_t warps_per_sm;     /* %nwarpid */
    uint32_t shared_per_sm;    /* %total_smem_size */
    uint32_t gridid;           /* %gridid of this launch */
    uint32_t its_yield;        /* independent thread scheduling: spin iterations before the
                                  lanes waiting to reconverge run ahead (0: pre-Volta SIMT) */
    uint64_t max_cycles;       /* timing mode: simulated cycles a launch may take (0: none) */
    /* program-wide bounds (0: none) and what the earlier launches used */
    uint64_t max_program_cycles, program_cycles;       /* timing mode */
    uint64_t max_program_insts, program_insts;         /* warp instructions */
    uint64_t timeout_ns;       /* host nanoseconds a launch may take (0: none) */
    const atomic_int *stop;    /* set from outside (another thread, a signal): stop now */
} exec_options;

/* A SIMT stack entry: execute `mask` from `pc` until `rpc`.  A CALL entry
 * marks a function call: the callee's entries sit above it. */
typedef struct simt_entry {
    uint32_t pc;
    uint32_t rpc;
    uint32_t mask;
    uint32_t is_call;
} simt_entry;

/* A function activation below the current one. */
typedef struct call_frame {
    uint32_t func;        /* caller */
    uint32_t reg_base, pred_base, frame_base;
    uint32_t call;        /* ir_call index */
    uint32_t callee;
    uint32_t returned;    /* lanes that executed ret */
} call_frame;

enum warp_state { WARP_RUNNING, WARP_BARRIER, WARP_DONE };

typedef struct exec_warp {
    uint32_t id;          /* warp index in the CTA */
    uint32_t live;        /* lanes not exited */
    uint32_t state;
    uint32_t bar_id;      /* barrier waited on */
    uint32_t bar_active;  /* lanes that arrived (bar.red results) */
    uint32_t carry;       /* CC.CF per lane */
    uint32_t func;        /* current function */
    uint32_t reg_base, pred_base, frame_base;
    simt_entry *stack;
    uint32_t sp, stack_cap;
    call_frame *calls;
    uint32_t ncalls, calls_cap;
    uint64_t *regs;       /* rows of 32 lanes; the current window starts at reg_base */
    uint32_t regs_cap;    /* rows */
    uint32_t *preds;      /* one lane mask per predicate */
    uint32_t preds_cap;
    uint64_t insts;       /* warp instructions executed (for %clock) */
    uint32_t spin;        /* uniform backward branches of the top path in a row (ITS) */
    uint32_t spin_pc;     /* ... to this target */
    uint32_t acp_commits; /* cp.async groups committed (commit_group, wait_all): the
                             group of the warp's next cp.async (async.c) */
    void *timing;         /* the timing model's state of this warp (timing mode) */
    uint32_t tid[3][WARP_SIZE]; /* %tid of each lane */
} exec_warp;

typedef struct exec_barrier {
    uint32_t arrived;     /* threads */
    uint32_t expected;    /* threads; 0: all live threads of the CTA */
    uint32_t waiting;     /* warps waiting (bit per warp) */
    uint32_t red_popc;
    uint32_t red_and, red_or;
    uint32_t red_any;     /* a bar.red is in progress */
} exec_barrier;

/* The built-in calls (builtins.c) a CTA shares with its redundant twin
 * (the timing model's DMR pairs): the first copy to make a warp's k-th
 * call performs it, the other takes its results, so printf prints, malloc
 * allocates and free frees once per pair, and both copies see the same
 * pointers (a free, once the pair is confirmed: exec_echo_commit).  Made by exec_echo_new, shared by the two copies' exec_cta
 * (echo, echo_copy), freed by exec_echo_free. */
typedef struct exec_echo exec_echo;

typedef struct exec_cta {
    uint32_t ctaid[3];
    uint32_t smid;        /* the SM it runs on (%smid) */
    uint64_t linear;
    uint32_t nwarps;
    uint32_t live_threads;
    uint32_t live_warps;
    int active;
    exec_warp *warps;
    uint8_t *shared;
    uint8_t *local;       /* nthreads * local_bytes */
    uint32_t warps_cap;   /* capacities, kept when a slot is reused */
    size_t shared_cap, local_cap;
    exec_barrier bars[MAX_BARRIERS];
    exec_echo *echo;      /* its twin's shared built-in calls, or NULL (exec_cta_start) */
    uint8_t echo_copy;    /* which of the two copies it is */
} exec_cta;

/* A resolved address per lane: the state space it falls in and the
 * address within it (memops.c). */
typedef struct exec_addr {
    uint64_t a[WARP_SIZE];
    uint8_t space[WARP_SIZE];
} exec_addr;

/*
 * The memory seam.  Address generation turns a memory instruction of one
 * warp into an exec_memreq: the lanes, their resolved addresses, and the
 * operands a store or an atomic carries, captured once, from every operand
 * kind the loader accepts (exec_mem_capture).  The request then passes a
 * fixed chain of interposers (L->chain, in order), each of which may pass
 * it on, take it (answering now or later) or delay it; what no interposer
 * takes reaches the memory system: exec_mem_perform in functional mode, the
 * timing model's LD/ST unit (L->mem_issue) in timing mode.  Every stage
 * answers with an exec_memres.  Determinism modes (store and atomic
 * buffers), litmus observers and fault injection into caches attach here.
 */
typedef struct exec_memreq {
    const ir_insn *in;
    uint32_t pc;
    uint32_t lanes;            /* active lanes */
    uint32_t size;             /* bytes one lane accesses */
    exec_addr ad;              /* each lane's address and state space */
    /* st: the rows of values of the .v1/.v2/.v4 elements; atom/red: v[0]
     * = b, v[1] = c.  They point at registers, immediates or tmp, and are
     * valid while the request is being answered: a stage that keeps the
     * request (a buffer, the timing model) copies what it needs. */
    const uint64_t *v[4];
    uint64_t tmp[4][WARP_SIZE]; /* rows built for special registers and symbols */
    /* tex, tld4: the addresses of every texel the instruction read (its
     * values were computed at issue); the timing model fetches their
     * lines through the texture cache.  NULL for other instructions. */
    const struct exec_texels *texels;
} exec_memreq;

/* Texel addresses a texture instruction read, for the timing model. */
#define EXEC_MAX_TEXELS (WARP_SIZE * 8)
typedef struct exec_texels {
    uint32_t n;
    uint64_t a[EXEC_MAX_TEXELS];
} exec_texels;

/* A texture object as a launch sees it: its description and whether the
 * handle (generation << 32 | index + 1) is live. */
typedef struct exec_texture {
    lockstep_texture_desc d;
    uint32_t gen;
    uint8_t live;
} exec_texture;

typedef enum exec_mem_status {
    EXEC_MEM_NONE,     /* no memory instruction ran */
    EXEC_MEM_DONE,     /* performed: destinations written */
    EXEC_MEM_PENDING,  /* accepted: destinations are written when replies come (exec_reply_*) */
    EXEC_MEM_RETRY,    /* not accepted now: the instruction is issued again at `ready` */
    EXEC_MEM_FAULT     /* a fault was recorded */
} exec_mem_status;

typedef struct exec_memres {
    uint8_t status;            /* exec_mem_status */
    uint64_t ready;            /* timing: when the data (or a retry) is ready */
    void *token;               /* the memory system's handle of a pending request */
} exec_memres;

struct exec_launch;
/* One stage of the chain: 0 passes the request on; 1 took it (*res says
 * how: DONE, PENDING or RETRY); -1 faulted (recorded). */
typedef struct exec_interposer {
    const char *name;
    void *ud;
    int (*request)(void *ud, struct exec_launch *L, struct exec_cta *c, struct exec_warp *w,
                   exec_memreq *rq, exec_memres *res);
} exec_interposer;

/* A replacement for one execution of an instruction, handed back by an
 * observer's exec_hooks.before (below): the instruction that runs instead,
 * and the value of its IRO_IMM source operands (an immediate the module's
 * constant pool does not hold), one value per lane. */
typedef struct exec_subst {
    ir_insn in;
    uint64_t imm[WARP_SIZE];
} exec_subst;

/*
 * The register write point and the per-instruction hook.  Every value an
 * instruction leaves in its destination registers or predicates is written
 * before `written` is called for it: at once for arithmetic and for memory
 * that completes at issue, when the reply arrives for memory that does not
 * (exec_reply_load, exec_reply_atom; an instruction whose lanes are served
 * by several replies is reported once per reply, for disjoint lane sets,
 * so every lane's write is seen exactly once).  `before` runs before an instruction
 * executes.  The interpreter tests one word, L->trap, per instruction; with
 * nothing attached it is 0 and nothing else is paid.  Observers may read and
 * change the warp's state (fault injection, redundant comparison, tracing).
 * In timing mode hooks and interposers run on the host thread of the SM
 * they serve, several at once: L is that SM's view of the launch (its
 * `timing` field tells which), so an observer keeps per-SM state, or locks.
 *
 * `before` may hand back a replacement for this one execution of `in` (a
 * corrupted instruction buffer: -lockstep_fault_site ibuf): a copy of *in
 * that the observer owns and keeps unchanged until the launch has ended
 * (a memory instruction in flight still points at it), differing from
 * *in only in operand indices, the guard and immediates (op, types and
 * flags stay, and operand kinds too, except that an immediate source
 * (IRO_CONST) may become IRO_IMM, read from the replacement's imm row: so
 * the handler exec_prepare chose for *in fits it).  The interpreter
 * executes it at in's pc, in place of the module's code, which is never
 * changed; a register or predicate index outside the function's rows is
 * an illegal-instruction fault, as on hardware.  NULL: execute `in`.  A
 * `before` that hands back a replacement should hand it back again when
 * the same instruction is issued again (a memory request a timing
 * interposer did not take: w->insts has not advanced).
 */
enum {
    EXEC_TRAP_BEFORE = 1u << 0,
    EXEC_TRAP_WRITTEN = 1u << 1,
    EXEC_TRAP_SUBST = 1u << 2 /* interp.c's own: the next instruction is L->subst */
};
typedef struct exec_hooks {
    void *ud;
    const exec_subst *(*before)(void *ud, struct exec_launch *L, struct exec_cta *c,
                                struct exec_warp *w, const ir_insn *in, uint32_t active);
    /* reply: 1 when the values arrived with a reply (timing mode) */
    void (*written)(void *ud, struct exec_launch *L, struct exec_cta *c, struct exec_warp *w,
                    const ir_insn *in, uint32_t lanes, int reply);
    /* Timing mode: called in the serial step between windows, when no
     * component runs, whatever the trap word says (NULL: not called).  L is
     * the launch (its `slots` are every SM's CTA slots); cycles: the
     * launch's cycles so far, insts: its warp instructions so far; machine:
     * the timing model (timing.h's timing_gpu) for observers that reach
     * into it.  It may read and change any warp's state, device memory and
     * the machine: that is the same for any number of host threads. */
    void (*step)(void *ud, struct exec_launch *L, uint64_t cycles, uint64_t insts,
                 void *machine);
} exec_hooks;

/* CTA slots with their warps' register, stack and memory buffers, kept
 * from one launch to the next so that a launch reuses memory that is
 * already mapped instead of faulting in fresh pages.  Owned by a device;
 * a launch without one allocates and frees its own. */
typedef struct exec_pool {
    exec_cta *slots;
    uint32_t nslots;
} exec_pool;

void exec_pool_free(exec_pool *p);

/*
 * Dynamic parallelism (devrt.c).  A grid's threads call CUDA's device
 * runtime (ir.h, BI_DR_*): they get parameter buffers, launch grids into
 * device streams and queue copies and fills.  Nothing runs at the call:
 * each launch becomes an exec_child of the grid's exec_cdp, and the
 * device runs them after the grid's threads have all finished (src/core,
 * docs/CUDART.md "Dynamic parallelism").  The calls are built-ins, so in
 * timing mode they run in the serial step, on the launch itself: exec_cdp
 * is touched by one host thread at a time.
 */
enum exec_child_kind { EXEC_CHILD_GRID, EXEC_CHILD_COPY, EXEC_CHILD_FILL };

/* One piece of work a grid's threads handed to the device. */
typedef struct exec_child {
    uint8_t kind;            /* exec_child_kind */
    uint8_t tail;            /* launched into cudaStreamTailLaunch */
    uint32_t func;           /* GRID: the kernel (function index) */
    uint32_t grid[3], block[3];
    uint32_t dyn_shared;
    uint64_t params;         /* GRID: its parameter buffer (device address) */
    uint64_t dst, src;       /* COPY, FILL: rows of `width` bytes, `height` of them */
    uint64_t dpitch, spitch, width, height;
    uint32_t value;          /* FILL: the byte */
    uint64_t cta;            /* the launching thread: its CTA (linear) and thread (linear) */
    uint32_t tid;
    uint64_t seq;            /* the order the grid's threads made their calls in */
} exec_child;

/* A parameter buffer handed out (cudaGetParameterBuffer[V2]) and not yet
 * launched: V2's carries its launch's kernel and shape. */
typedef struct exec_cdp_buf {
    uint64_t addr, size;
    uint32_t func;           /* UINT32_MAX: cudaGetParameterBuffer's (no kernel yet) */
    uint32_t grid[3], block[3], dyn_shared;
    uint64_t cta;
} exec_cdp_buf;

/* A device stream or event: block-scoped, live until destroyed. */
typedef struct exec_cdp_handle {
    uint64_t cta;
    uint8_t is_event;
    uint8_t live;
} exec_cdp_handle;

/* May kernel func of the launch's module run with this shape: the checks a
 * host launch makes (LOCKSTEP_SUCCESS, _INVALID_LAUNCH,
 * _LAUNCH_OUT_OF_RESOURCES); the reason goes to msg. */
typedef lockstep_status exec_cdp_check_fn(void *ud, uint32_t func, const uint32_t grid[3],
                                          const uint32_t block[3], uint32_t dyn_shared,
                                          char *msg, size_t msglen);

/* What the device lends the device runtime. */
typedef struct exec_cdp_ops {
    void *ud;
    /* size bytes of device memory aligned to align for a parameter
     * buffer: 0 and *addr, or -1 (out of device memory) */
    int (*buffer)(void *ud, uint64_t size, uint32_t align, uint64_t *addr);
    void (*buffer_free)(void *ud, uint64_t addr);
    exec_cdp_check_fn *check;
    /* a NUL-terminated copy of s in device memory, kept while the device
     * lives (cudaGetErrorString): 0 and *addr, or -1 */
    int (*string)(void *ud, const char *s, uint64_t *addr);
    /* cudaDeviceGetAttribute: 0 and *value; -1: no such attribute; -2: the
     * device cannot answer (no runtime registered the table) */
    int (*attribute)(void *ud, int attr, int *value);
    /* cudaFuncGetAttributes: the bytes of struct cudaFuncAttributes for
     * kernel func in out (at most cap): their count, or -1 (cannot answer) */
    int (*func_attributes)(void *ud, uint32_t func, uint8_t *out, uint32_t cap);
    /* CTAs of kernel func one SM holds (cudaOccupancyMaxActiveBlocksPerMultiprocessor) */
    uint32_t (*occupancy)(void *ud, uint32_t func, uint32_t block_threads, uint64_t dyn_shared);
} exec_cdp_ops;

typedef struct exec_cdp {
    const exec_cdp_ops *ops;
    uint32_t depth;          /* this grid's nesting depth: 0 launched by the host */
    uint32_t max_depth;      /* a launch past it fails: cudaErrorLaunchMaxDepthExceeded */
    uint64_t *pending;       /* the device's pending launches (buffers, children not yet run) */
    uint64_t pending_limit;  /* cudaLimitDevRuntimePendingLaunchCount */
    uint64_t limits[5];      /* cudaDeviceGetLimit's answers, by cudaLimit (0..4) */
    const char *refused;     /* non-NULL: a launch stops the kernel, saying why */
    VEC(exec_child) children;
    VEC(exec_cdp_buf) bufs;
    VEC(exec_cdp_handle) handles;
    uint64_t seq;
    /* each thread's last error (cudaGetLastError): open addressing on
     * (CTA linear x threads per CTA + thread), only threads that have one */
    uint64_t *err_keys;      /* key + 1; 0: empty */
    uint32_t *err_vals;
    uint32_t err_n, err_cap;
} exec_cdp;

/* Release what a grid's exec_cdp holds (not its parameter buffers' device
 * memory: the device frees those). */
void exec_cdp_release(exec_cdp *cdp);

typedef struct exec_launch exec_launch;
#define exec_launch_ exec_launch
struct exec_launch {
    const ir_module *mod;
    uint32_t kernel;          /* function index */
    const char *kernel_name;
    devmem *dm;
    exec_device_ops dev;
    exec_options opt;
    const uint8_t *params;
    uint32_t param_bytes;
    uint32_t grid[3], block[3];
    uint32_t nthreads;        /* per CTA */
    uint32_t nwarps;
    uint32_t shared_bytes;    /* per CTA: static + dynamic */
    uint32_t dyn_shared;
    uint32_t local_bytes;     /* per thread */
    uint32_t frame0;          /* kernel frame base (after module .local data) */
    uint64_t grid_ws;         /* cooperative launch: the grid-sync workspace (%envreg1:2); 0 */
    const exec_texture *tex;  /* the device's texture objects (read-only during the launch) */
    uint32_t ntex;
    exec_cdp *cdp;            /* dynamic parallelism: this grid's device-runtime state; NULL: none */
    uint64_t *shref_val;      /* per module shared reference */
    exec_pool *pool;          /* where CTA slots come from; NULL: this launch's own */
    exec_cta *slots;          /* the running launch's CTA slots (c->active: resident); for */
    uint32_t nslots;          /* observers (exec_hooks) that look beyond one warp */
    /* The memory seam: the interposers, in order, then the memory system.
     * Timing mode (src/timing) sets mem_issue, the last stage, instead of
     * accessing memory at once, and %clock reads *cycle. */
    const exec_interposer *chain;
    uint32_t nchain;
    int (*mem_issue)(exec_launch_ *L, exec_cta *c, exec_warp *w, const exec_memreq *rq,
                     exec_memres *res);
    void *timing;             /* the timing model's component running this launch view */
    const uint64_t *cycle;
    double cycle_ns;          /* nanoseconds per cycle of *cycle (%globaltimer); 0: no clock rate */
    uint32_t sleep_ns;        /* the last nanosleep's delay: the largest of its lanes' */
    exec_memres mem;          /* the last memory instruction's answer (EXEC_MEM_NONE: none) */
    uint8_t mem_space;        /* the state space of its first active lane */
    /* observers: the register write point and the per-instruction hook */
    uint32_t trap;            /* EXEC_TRAP_*: which hooks to call; 0: none */
    const exec_hooks *hooks;
    /* the replacement (exec_hooks.before) the last hooked instruction ran,
     * or NULL; subst_pc: the pc of the last replacement run (kept: requests
     * in flight map it back, exec_insn_pc) */
    const exec_subst *subst;
    uint32_t subst_pc;
    uint64_t warp_insts, thread_insts;
    uint64_t mix[MIX_COUNT];  /* warp instructions per ir_mix class */
    strbuf *printf_out;       /* device printf text, delivered at synchronize */
    uint64_t printf_limit;    /* bytes printf_out may hold (the FIFO, cudaLimitPrintfFifoSize) */
    uint64_t printf_dropped;  /* records that did not fit */
    /* the fault that stopped the launch */
    lockstep_status fault;
    strbuf fault_msg;
    uint32_t fault_cta[3], fault_tid[3], fault_warp, fault_lane, fault_pc;
    uint64_t fault_addr;
    uint64_t fault_cycle;     /* *cycle when it happened (timing mode; 0 otherwise) */
    const struct exec_cta *fault_c; /* the CTA it happened in (NULL: none) */
    int oom;
    uint64_t host_t0;         /* host clock (ns) at the launch's start, for the timeout */
    uint32_t limit_calls;     /* exec_limits calls, to read the host clock every few */
};

/* The pc of instruction `in`: its index in the module's code, or for a
 * replacement an observer handed back (exec_hooks.before), the pc it
 * stood for. */
static inline uint32_t exec_insn_pc(const exec_launch *L, const ir_insn *in)
{
    uintptr_t off = (uintptr_t)in - (uintptr_t)L->mod->code;
    if (off < (uintptr_t)L->mod->ncode * sizeof *in)
        return (uint32_t)(off / sizeof *in);
    return L->subst_pc;
}

/* Choose the interpreter handler (xop) of every instruction of m. */
void exec_prepare(ir_module *m);

/* Run a launch whose fields up to printf_out are filled in.  Returns
 * LOCKSTEP_SUCCESS or the fault (details in L->fault_*). */
lockstep_status exec_run(exec_launch *L);
void exec_launch_release(exec_launch *L);

/* ---- shared between interp.c, memops.c, sched.c, builtins.c ---- */

/* Record a fault at (cta, warp, lane, pc); formats the message.  Only the
 * first fault of a launch is kept. */
void exec_fault(exec_launch *L, const exec_cta *c, const exec_warp *w, int lane, uint32_t pc,
                lockstep_status st, uint64_t addr, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));

/* Per-thread ids of a lane. */
void exec_thread_id(const exec_launch *L, const exec_warp *w, int lane, uint32_t tid[3]);

/* Run warp w for at most `budget` instructions. Returns the number executed. */
uint32_t exec_warp_run(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t budget);

/* Barrier bookkeeping (sched.c): warp w arrives at barrier `id` with
 * `active` lanes; returns 1 if the warp must wait. */
int exec_barrier_arrive(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                        uint32_t active, uint32_t pred_mask);
/* Lanes of w exited: update counts and release barriers that now complete. */
void exec_lanes_exited(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t lanes);

/* Memory halves (memops.c); exec_addr is defined above. */

/* Address generation: the effective address of each active lane, resolved
 * from generic to a state space.  0, or -1 after recording a fault. */
int exec_mem_addr(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active,
                  exec_addr *out);
/* Capture what the request of `in` carries: its lanes and addresses, and
 * the values of a store or the operands of an atomic, from any operand
 * kind (register, immediate, special register, symbol address). */
void exec_mem_capture(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                      uint32_t active, const exec_addr *ad, exec_memreq *rq);
/* The functional memory system: perform rq at once (loads write their
 * destinations through the write point).  0, or -1 after a fault. */
int exec_mem_perform(exec_launch *L, exec_cta *c, exec_warp *w, const exec_memreq *rq);
/* Replies that bring values back (the timing model): write the
 * destinations of load `in` for `lanes` from bytes (lane l's data at
 * bytes + ad->a[l] - base), or the old values of atomic `in`, into the
 * register window starting at row reg_base of w, then tell the observers. */
void exec_reply_load(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t reg_base,
                     const ir_insn *in, uint32_t lanes, const exec_addr *ad, uint64_t base,
                     const uint8_t *bytes);
void exec_reply_atom(exec_launch *L, exec_cta *c, exec_warp *w, uint32_t reg_base,
                     const ir_insn *in, uint32_t lanes, const uint64_t *old);
/* The row of values of source operand o for the active lanes (tmp when it
 * must be built: special registers, symbols). */
const uint64_t *exec_operand(const exec_launch *L, const exec_cta *c, const exec_warp *w,
                             const ir_opnd *o, uint64_t *tmp, uint32_t active);
/* Read/write bytes at a generic address for one lane (builtins, call args). */
int exec_read_generic(exec_launch *L, exec_cta *c, exec_warp *w, int lane, uint64_t addr,
                      void *dst, uint32_t n);

/* Check every active lane's access (alignment, bounds, allocation) without
 * performing it: 0, or -1 after recording the first bad lane's fault. */
int exec_mem_check(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in,
                   uint32_t active, const exec_addr *ad);
/* Bytes one lane of `in` accesses (element size x vector width). */
uint32_t exec_mem_size(const ir_insn *in);
/* A store's bytes for lane l of a captured request: out gets
 * exec_mem_size(in) bytes. */
void exec_store_bytes(const exec_memreq *rq, int lane, uint8_t *out);
/* An atomic or reduction on global memory for `lanes`, in lane order, with
 * operand values b[l], c[l] captured at issue; the old values go to old[l].
 * Returns how many lanes changed the value in memory, or -1 (host out of
 * memory). */
int exec_atom_global(exec_launch *L, const ir_insn *in, uint32_t lanes, const exec_addr *ad,
                     const uint64_t *b, const uint64_t *cv, uint64_t *old);
/* The value an atomic leaves in global memory holding old, with operands
 * b and c (the L2's arithmetic: what a buffer that fuses atomics uses). */
uint64_t exec_atom_value(const ir_insn *in, uint64_t old, uint64_t b, uint64_t c);
/* Read n bytes of global memory at addr (bytes outside every allocation
 * read as zero). */
void exec_global_read(exec_launch *L, uint64_t addr, uint8_t *dst, uint32_t n);
/* Write the bytes of src selected by mask (bit i: byte i, n <= 128) at addr. */
int exec_global_write(exec_launch *L, uint64_t addr, const uint8_t *src, const uint64_t mask[2],
                      uint32_t n);

/* Report a bad global access of lane `lane` at a (no allocation holds the
 * `size` bytes): a null pointer, a use after free, past an end, anywhere. */
void exec_global_fault(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, int lane,
                       uint64_t a, uint32_t size, uint32_t pc);

/*
 * Asynchronous copies and mbarrier objects (async.c; ir.h, "Asynchronous
 * copies and mbarrier objects").  An mbarrier is 8 bytes of shared memory
 * holding lockstep's encoding of its phase and counts (async.c); its
 * operations are shared-memory accesses at issue in both modes.  A
 * cp.async copy is a request whose addresses (rq->ad) are the global
 * source's, with v[0] each lane's .shared destination and v[1] the bytes
 * it reads from the source (src-size).  Functional mode
 * (exec_async_perform) copies at once; the timing model checks the request
 * (exec_acp_check), zeroes what is not read (exec_acp_zero), sends the
 * reads through the memory system and writes shared memory as the data
 * arrives (exec_acp_deliver).  cp.async.mbarrier.arrive is a request whose
 * addresses are the mbarriers' (exec_acp_arrive).
 */
/* Execute an mbarrier or cp.async instruction for the active lanes: copies
 * through the memory seam, the rest at once.  The answer is left in L->mem,
 * and its status returned. */
int exec_async(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active);
/* The data access of a cp.async request, at once (exec_mem_perform calls
 * it).  0, or -1 after a fault. */
int exec_async_perform(exec_launch *L, exec_cta *c, exec_warp *w, const exec_memreq *rq);
/* Check every lane of a cp.async request (addresses, alignment, sizes)
 * without performing it: 0, or -1 after the fault. */
int exec_acp_check(exec_launch *L, exec_cta *c, exec_warp *w, const exec_memreq *rq);
/* Shared memory takes the part of each lane's copy in `lanes` that global
 * bytes [base, base + n) (at bytes) hold: lane l copies len[l] bytes from
 * src->a[l] to shared offset dst[l] (its low 32 bits). */
void exec_acp_deliver(exec_launch *L, exec_cta *c, uint32_t lanes, const exec_addr *src,
                      const uint64_t *dst, const uint64_t *len, uint64_t base, uint32_t n,
                      const uint8_t *bytes);
/* cp.async.mbarrier.arrive `in` on the mbarriers of `lanes` at ad: at
 * issue (done 0: checks the objects and, without .noinc, counts one more
 * pending arrival) or when the copies it waits for are done (done 1: the
 * arrival).  0, or -1 after a fault. */
int exec_acp_arrive(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t lanes,
                    const exec_addr *ad, int done);
/* Zero bytes len[l] .. size - 1 of each lane's destination dst[l] (a copy
 * that reads fewer bytes than it writes: src-size, ignore-src). */
void exec_acp_zero(exec_launch *L, exec_cta *c, uint32_t lanes, const uint64_t *dst,
                   const uint64_t *len, uint32_t size);

/* Texture objects (texture.c). */
/* The live texture object behind a handle, or NULL. */
const exec_texture *exec_texture_find(const exec_launch *L, uint64_t handle);
/* Sample texture d: float coordinates coord[] (or integer ones, icoord[],
 * when integer_coords or the texture is a buffer) in `layer`; gather: the
 * channel `comp` of the 2x2 footprint (tld4).  out: four 32-bit results
 * (float bits or integers); the texels' addresses are added to list. */
void exec_tex_sample(exec_launch *L, const lockstep_texture_desc *d, const float coord[3],
                     const int32_t icoord[3], int integer_coords, uint32_t layer, int gather,
                     int comp, uint32_t out[4], exec_texels *list);
/* A cube map's face (0..5: +x, -x, +y, -y, +z, -z) for the direction
 * c[0..2]; c[0..1] become the point on that face, in the texture's
 * coordinates (normalized, or texels), for exec_tex_sample. */
uint32_t exec_cube_face(const lockstep_texture_desc *d, float c[3]);
/* txq / suq: the value of query `query` (ir_texquery). */
uint32_t exec_tex_query(const lockstep_texture_desc *d, int query);
/* A surface access of `size` bytes at byte column xbytes, row y, slice z,
 * layer: 0 and *addr; 1 outside the surface under SURF_ZERO (no access);
 * -1 outside under SURF_TRAP; -2 misaligned. */
int exec_surface_addr(const lockstep_texture_desc *d, int64_t xbytes, int64_t y, int64_t z,
                      int64_t layer, uint32_t size, int clamp_mode, uint64_t *addr);
/* Execute a texture or surface instruction (texop.c); the answer is left
 * in L->mem as for mem_issue, and its status returned. */
int exec_texop(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active);
/* The seam for a request whose addresses are already in rq (surface
 * accesses): the interposers, then the memory system. */
int exec_mem_issue_req(exec_launch *L, exec_cta *c, exec_warp *w, exec_memreq *rq);

/* Warp matrix operations (wmma.c). */
/* The base addresses (before the instruction's offset) of the active lanes
 * of part `in` of a wmma.load/store or ldmatrix (IRF_WMMA; ir.h, WMP_*),
 * from the base register's rows `base` (NULL: 0) into out.  0, or -1 after
 * a fault: the part needs every lane of the warp. */
int exec_wmma_addr(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active,
                   const uint64_t *base, uint64_t *out);
/* wmma.mma and mma: D = A x B + C over the warp's fragments; 0, or -1 (fault). */
int exec_mma(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active);
/* movmatrix: transpose the 8 x 8 matrix of halves in the warp's s[0] into
 * d[0]; 0, or -1 (fault). */
int exec_movmatrix(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active);

/* CTA slots (sched.c), shared with the timing engine. */
exec_cta *exec_slots_get(exec_launch *L, uint32_t nslots);
void exec_slots_put(exec_launch *L, exec_cta *slots, uint32_t nslots);
int exec_cta_fit(exec_launch *L, exec_cta *c);
void exec_cta_start(exec_launch *L, exec_cta *c, uint64_t linear);
void exec_deadlock_fault(exec_launch *L, exec_cta *c);
/* The launch's limits that do not come from the kernel itself: the stop
 * flag, the simulated-cycle limit (cycles so far; 0 in functional mode)
 * and the host-time limit.  Records the fault, naming the warps of the
 * `nslots` CTA slots still running, and returns 1 when one is reached. */
int exec_limits(exec_launch *L, uint64_t cycles, const exec_cta *slots, uint32_t nslots);
/* The program-wide instruction bound (-lockstep_max_program_warp_insts):
 * with `insts` run by this launch so far, record the fault (naming warp w
 * of c, when given) and return 1 when the program is past it. */
int exec_program_insts_limit(exec_launch *L, uint64_t insts, const exec_cta *c,
                             const exec_warp *w);
/* Host monotonic clock in nanoseconds. */
uint64_t exec_host_ns(void);
/* The pc of w's next instruction after settling its SIMT stack (popping
 * reconverged entries), or IR_NO_PC if w has no lane left to run. */
uint32_t exec_warp_next_pc(exec_launch *L, exec_cta *c, exec_warp *w);

/* A built-in call for the active lanes (builtins.c); 0, or -1 after a fault. */
int exec_builtin(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, uint32_t active);
/* A pair's shared built-in calls (exec_echo, above exec_cta). */
exec_echo *exec_echo_new(uint32_t nwarps);
void exec_echo_free(exec_echo *e);
/* The frees of a confirmed pair (a free is held until its pair's writes are
 * committed: the block must not go to another CTA first); 0, or -1 after a
 * fault (an address malloc did not return).  A failed pair's are dropped
 * with it (exec_echo_free). */
int exec_echo_commit(exec_echo *e, exec_launch *L);
/* A call of CUDA's device runtime (BI_DR_*, devrt.c) for lane l; 0, or -1
 * after a fault. */
int exec_devrt_call(exec_launch *L, exec_cta *c, exec_warp *w, const ir_insn *in, int lane);
/* Write n bytes at a generic address for one lane (shared, local or
 * global memory): 0, or -1 when they are not all writable there. */
int exec_write_generic(exec_launch *L, exec_cta *c, exec_warp *w, int lane, uint64_t addr,
                       const void *src, uint32_t n);

/* Zero the register rows of f's window (starting at `rows`) that f may read
 * before writing (ir_func.zero_rows): the others are always written first,
 * so what they held before cannot show. */
static inline void exec_zero_rows(uint64_t *rows, const ir_func *f)
{
    for (uint32_t i = 0; i < f->nzero_rows; i++)
        memset(rows + (size_t)f->zero_rows[i] * WARP_SIZE, 0, WARP_SIZE * sizeof *rows);
}

/* Host pointer to lane l's local memory. */
static inline uint8_t *exec_local(const exec_launch *L, const exec_cta *c, const exec_warp *w,
                                  int lane)
{
    return c->local + ((uint64_t)w->id * WARP_SIZE + (uint64_t)lane) * L->local_bytes;
}

#endif
