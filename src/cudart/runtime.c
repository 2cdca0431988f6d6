/*
 * runtime.c -- lockstep's replacement for the CUDA runtime library.
 *
 * Built as libcudart.so.13 with the version node nvcc 13 programs import
 * from (exports.map), so a program linked with `nvcc -cudart shared` runs
 * on the simulator when this library is found first (`lockstep run` sets
 * LD_LIBRARY_PATH).  The program's own start-up code registers its fat
 * binaries, kernels and variables here; we load the embedded PTX into one
 * lockstep device and run launches on it.
 *
 * DESIGN
 * - The CUDA runtime API is a process-wide interface, so this library keeps
 *   one process-wide state (`rt`), created on first use and guarded by one
 *   mutex; everything below it (liblockstep) has no global state.  CUDA's
 *   per-thread parts (the last error, the <<<>>> call configuration) are
 *   thread-local.
 * - Functional mode executes every operation when it is issued, so each
 *   stream is trivially in order and every stream and event is complete
 *   when queried.  A simulated clock (rt.now_ns) advances by each kernel's
 *   and copy's modelled duration; events record it, so elapsed times are
 *   simulated time, never host time.
 * - A kernel fault is reported on stderr with its location, and becomes
 *   the sticky error every later call returns, as on a GPU; the launch
 *   itself returns success and the next synchronizing call the error.
 * - Device printf output is delivered at synchronization points, like
 *   CUDA's printf FIFO.
 * - At exit the statistics go to stderr or to the files `lockstep run`
 *   named in LOCKSTEP_STATS / LOCKSTEP_STATS_JSON.
 * - Every other exported CUDA function is a stub (stubs.c) that names
 *   itself and returns cudaErrorNotSupported.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cudart/cuda_abi.h"
#include "cudart/cuda_api.h"
#include "cudart/detrecord.h"
#include "cudart/modload.h"
#include "cudart/runtime.h"
#include "core/device_int.h"
#include "lockstep.h"

/* ---- state ---------------------------------------------------------------------------- */

typedef struct rt_module {
    const void *wrapper;
    lockstep_module *mod;
    int failed;           /* its PTX could not be extracted or loaded */
    char *error;
} rt_module;

struct rt_function {
    const void *host_fun;
    char *name;
    rt_module *m;
    lockstep_kernel *k;   /* resolved once the module is loaded */
    size_t ksum;          /* its entry in rt.ksums + 1; 0: none yet */
    int carveout;         /* cudaFuncAttributePreferredSharedMemoryCarveout (-1: none) */
    int retired;          /* its driver module was unloaded: found no more */
};

typedef struct rt_var {
    const void *host_var;
    char *name;
    rt_module *m;
    size_t size;
    int constant;
    void **managed_ptr;   /* __managed__: the host's pointer to the storage */
} rt_var;

/* Streams and events are entries of one table; the handle the program
 * gets is not a pointer but (generation, index, kind) packed into one, so
 * a destroyed, reused or made-up handle is recognised and refused with
 * cudaErrorInvalidResourceHandle instead of being followed. */
typedef struct rt_handle {
    uint32_t gen;         /* bumped at each destroy */
    uint8_t live, kind;
    uint32_t next_free;   /* free entries form a list (rt.free_handle) */
    unsigned flags;
    int priority;
    int recorded;         /* events: recorded at least once */
    double ns;            /* events: simulated time of the last record */
    void *obj;            /* graphs, executable graphs, pools: the object */
    void *capture;        /* streams and events: graph.c's capture state */
} rt_handle;

typedef struct rt_host_alloc {
    void *ptr;
    size_t size;
    int managed;
    int registered;       /* cudaHostRegister'd: the program's memory, not ours */
    unsigned flags;       /* cudaHostGetFlags's answer */
} rt_host_alloc;

/* One launch, for the statistics' per-launch list (the first
 * -lockstep_launch_records launches). */
typedef struct rt_launch_rec {
    const char *name;     /* the kernel's (owned by its rt_function) */
    dim3 grid, block;
    uint32_t shared;      /* a CTA's shared memory bytes, static + dynamic */
    lockstep_launch_stats st;
    double ns;
    int status;
} rt_launch_rec;

/* Every launch of one kernel, summed: the statistics stay complete, in
 * bounded memory, however many launches a program makes. */
typedef struct rt_ksum {
    const char *name;
    uint64_t launches, failed;
    lockstep_launch_stats sum;   /* t.max_ctas_per_sm: the largest */
    double ns;
} rt_ksum;

static struct {
    pthread_mutex_t lock;
    int ready;
    lockstep_config *cfg;
    lockstep_device *dev;
    rt_module **mods;
    size_t nmods, capmods;
    struct rt_function **funcs;
    size_t nfuncs, capfuncs;
    rt_var *vars;
    size_t nvars, capvars;
    rt_host_alloc *hosts;
    size_t nhosts, caphosts;
    rt_launch_rec *launches;  /* the first -lockstep_launch_records launches */
    size_t nrecords, caplaunches;
    size_t nlaunches;         /* every launch */
    rt_ksum *ksums;           /* per kernel */
    size_t nksums, capksums;
    cudaError_t sticky;   /* a kernel fault: every later call returns it */
    double now_ns;        /* the simulated clock */
    uint64_t memcpy_bytes;
    int current_device;
    double host_seconds;  /* host time spent inside launches */
    int timing;           /* some launch ran on the timing model */
    uint64_t *sm_stall;   /* per SM x lockstep_stall, summed over launches */
    uint32_t nsm_stall;
    rt_handle *handles;   /* streams and events */
    size_t nhandles, caphandles;
    uint32_t free_handle; /* first free entry + 1; 0: none */
} rt = {.lock = PTHREAD_MUTEX_INITIALIZER};

typedef struct call_config {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
} call_config;

static _Thread_local cudaError_t last_error;
static _Thread_local call_config config_stack[16];
static _Thread_local int config_depth;

/* The functional clock: one warp instruction per SM per cycle at 1 GHz, and
 * host<->device copies at 16 GB/s.  Timing mode (a later issue) replaces
 * these with simulated cycles. */
#define FUNCTIONAL_GHZ 1.0
#define COPY_BYTES_PER_NS 16.0

/* The owner of rt.lock, so that the exit path can tell whether it runs
 * inside a launch on this very thread (exit() from a signal handler). */
static pthread_t lock_owner;
static atomic_int lock_held;

/* In a child of fork(): the parent's simulation is not ours to use or to
 * finish; CUDA calls fail as they do in the child of a CUDA process. */
static int forked_child;

/* exit() has begun (in cudart_at_exit): a launch it interrupts does not
 * return to the program. */
static atomic_int exiting;

static void lock(void)
{
    pthread_mutex_lock(&rt.lock);
    lock_owner = pthread_self();
    atomic_store(&lock_held, 1);
}

static void unlock(void)
{
    atomic_store(&lock_held, 0);
    pthread_mutex_unlock(&rt.lock);
}

static int grow(void **v, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 16;
    while (c < need)
        c *= 2;
    void *n = realloc(*v, c * elem);
    if (!n)
        return -1;
    *v = n;
    *cap = c;
    return 0;
}

#define GROW(arr, n, cap) grow((void **)&(arr), &(cap), (n) + 1, sizeof *(arr))

/* Record an error as the thread's last error and return it. */
static cudaError_t set_error(cudaError_t e)
{
    if (e != cudaSuccess)
        last_error = e;
    return e;
}

#define say cudart_say

cudaError_t cudart_not_supported(const char *name)
{
    say("%s is not supported by lockstep's CUDA runtime (cudaErrorNotSupported)", name);
    return set_error(cudaErrorNotSupported);
}

static void fill_func_attributes(lockstep_kernel *k, int carveout, struct cudaFuncAttributes *attr)
{
    lockstep_kernel_info ki;
    lockstep_kernel_get_info(k, &ki);
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = ki.static_shared_bytes;
    attr->localSizeBytes = ki.local_bytes;
    attr->maxThreadsPerBlock = ki.maxntid[0] ? (int)(ki.maxntid[0] * ki.maxntid[1] * ki.maxntid[2]) : 1024;
    attr->numRegs = (int)ki.num_regs;
    /* the PTX target the kernel was built for (CUB picks its tuning and
     * checks its kernels were compiled for it by this number) */
    attr->ptxVersion = ki.ptx_target ? (int)ki.ptx_target : 75;
    attr->binaryVersion = attr->ptxVersion;
    attr->maxDynamicSharedSizeBytes = (int)ki.max_dynamic_shared_bytes;
    attr->preferredShmemCarveout = carveout;
}

/* Device code's cudaDeviceGetAttribute and cudaFuncGetAttributes (dynamic
 * parallelism): the same answers as the host's.  Called during a launch,
 * with the lock held by the launching thread. */
static int devrt_attribute(void *ud, int attr, int *value)
{
    (void)ud;
    return cudart_attribute(rt.dev, attr, value);
}

static int devrt_func_attributes(void *ud, lockstep_kernel *k, uint8_t *out, uint32_t cap)
{
    (void)ud;
    int carveout = -1;
    for (size_t i = 0; i < rt.nfuncs; i++)
        if (rt.funcs[i]->k == k)
            carveout = rt.funcs[i]->carveout;
    struct cudaFuncAttributes a;
    if (cap < sizeof a)
        return -1;
    fill_func_attributes(k, carveout, &a);
    memcpy(out, &a, sizeof a);
    return (int)sizeof a;
}

/* Create the device on first use, from LOCKSTEP_CONFIG / LOCKSTEP_OPTIONS.
 * Call with the lock held.  0, or -1 (reported). */
static int ensure_device(void)
{
    if (rt.ready)
        return rt.dev ? 0 : -1;
    rt.ready = 1;
    if (lockstep_config_create(&rt.cfg) != LOCKSTEP_SUCCESS) {
        say("cannot create a configuration (out of memory)");
        return -1;
    }
    const char *file = getenv("LOCKSTEP_CONFIG");
    if (file && *file && lockstep_config_load_file(rt.cfg, file) != LOCKSTEP_SUCCESS) {
        say("%s", lockstep_config_last_error(rt.cfg));
        return -1;
    }
    const char *opts = getenv("LOCKSTEP_OPTIONS");
    if (opts && *opts &&
        lockstep_config_parse(rt.cfg, opts, strlen(opts), "LOCKSTEP_OPTIONS") != LOCKSTEP_SUCCESS) {
        say("%s", lockstep_config_last_error(rt.cfg));
        return -1;
    }
    if (lockstep_config_validate(rt.cfg) != LOCKSTEP_SUCCESS) {
        say("%s", lockstep_config_last_error(rt.cfg));
        return -1;
    }
    if (lockstep_device_create(rt.cfg, &rt.dev) != LOCKSTEP_SUCCESS) {
        say("cannot create the simulated device (out of host memory)");
        rt.dev = NULL;
        return -1;
    }
    static const device_devrt_hooks hooks = {NULL, devrt_attribute, devrt_func_attributes};
    device_set_devrt_hooks(rt.dev, &hooks);
    detrec_open(); /* lockstep detcheck's record, if it asked for one */
    return 0;
}

/* Entry guard for API calls: the device exists and no fault is sticky. */
#define ENTER()                                                                            \
    do {                                                                                   \
        if (forked_child)                                                                  \
            return set_error(cudaErrorInitializationError);                                \
        lock();                                                                            \
        if (ensure_device()) {                                                             \
            unlock();                                                                      \
            return set_error(cudaErrorInitializationError);                                \
        }                                                                                  \
        drv_bind_thread();                                                                 \
        hostwatch_check();                                                                 \
        if (rt.sticky) {                                                                   \
            cudaError_t e_ = rt.sticky;                                                    \
            unlock();                                                                      \
            return set_error(e_);                                                          \
        }                                                                                  \
    } while (0)

#define LEAVE(e)                                                                           \
    do {                                                                                   \
        cudaError_t e2_ = (e);                                                             \
        hostwatch_refresh();                                                               \
        unlock();                                                                          \
        return set_error(e2_);                                                             \
    } while (0)

static cudaError_t from_status(lockstep_status st)
{
    switch (st) {
    case LOCKSTEP_SUCCESS: return cudaSuccess;
    case LOCKSTEP_ERROR_INVALID_VALUE: return cudaErrorInvalidValue;
    case LOCKSTEP_ERROR_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
    case LOCKSTEP_ERROR_INVALID_PTX: return cudaErrorInvalidPtx;
    case LOCKSTEP_ERROR_UNSUPPORTED_PTX: return cudaErrorInvalidPtx;
    case LOCKSTEP_ERROR_NOT_FOUND: return cudaErrorSymbolNotFound;
    case LOCKSTEP_ERROR_INVALID_LAUNCH: return cudaErrorInvalidConfiguration;
    case LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES: return cudaErrorLaunchOutOfResources;
    case LOCKSTEP_ERROR_ILLEGAL_ADDRESS: return cudaErrorIllegalAddress;
    case LOCKSTEP_ERROR_MISALIGNED_ADDRESS: return cudaErrorMisalignedAddress;
    case LOCKSTEP_ERROR_BARRIER_DEADLOCK: return cudaErrorLaunchTimeout;
    case LOCKSTEP_ERROR_INSN_LIMIT: return cudaErrorLaunchTimeout;
    case LOCKSTEP_ERROR_STACK_OVERFLOW: return cudaErrorHardwareStackError;
    case LOCKSTEP_ERROR_TRAP: return cudaErrorLaunchFailure;
    case LOCKSTEP_ERROR_ASSERT: return cudaErrorAssert;
    case LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION: return cudaErrorIllegalInstruction;
    case LOCKSTEP_ERROR_LAUNCH_TIMEOUT: return cudaErrorLaunchTimeout;
    case LOCKSTEP_ERROR_INTERRUPTED: return cudaErrorLaunchFailure;
    case LOCKSTEP_ERROR_REDUNDANCY: return cudaErrorLaunchFailure;
    default: return cudaErrorUnknown;
    }
}

/* Deliver device printf output (a synchronization point). */
static void sync_point(void)
{
    hostwatch_clear(); /* the program has waited for the kernels */
    if (rt.dev)
        lockstep_synchronize(rt.dev);
}

/* ---- the internal interface of runtime.h ---------------------------------------------- */

cudaError_t cudart_enter(void)
{
    ENTER();
    return cudaSuccess;
}

cudaError_t cudart_leave(cudaError_t e) { LEAVE(e); }

cudaError_t cudart_error(cudaError_t e) { return set_error(e); }

cudaError_t cudart_drv_enter(int sticky)
{
    if (forked_child)
        return cudaErrorInitializationError;
    lock();
    if (ensure_device()) {
        unlock();
        return cudaErrorInitializationError;
    }
    hostwatch_check();
    if (sticky && rt.sticky) {
        cudaError_t e = rt.sticky;
        unlock();
        return e;
    }
    return cudaSuccess;
}

void cudart_drv_leave(void)
{
    hostwatch_refresh();
    unlock();
}

cudaError_t cudart_last_error(void) { return last_error; }

void cudart_set_last_error(cudaError_t e) { last_error = e; }

void cudart_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("lockstep: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

lockstep_device *cudart_device(void) { return rt.dev; }

cudaError_t cudart_sticky(void) { return rt.sticky; }

void cudart_sync_point(void) { sync_point(); }

void cudart_call_host(cudaHostFn_t fn, void *data)
{
    hostwatch_clear(); /* it runs after the work before it: may write what that work read */
    unlock();
    fn(data);
    lock();
}

/* ---- registration ---------------------------------------------------------------- */

static void load_module(rt_module *m)
{
    if (m->mod || m->failed)
        return;
    if (ensure_device()) {
        m->failed = 1;
        return;
    }
    /* name the PTX after the program, so messages say where it came from */
    char name[300], exe[256] = "program";
    FILE *cmd = fopen("/proc/self/comm", "r");
    if (cmd) {
        if (fgets(exe, sizeof exe, cmd))
            exe[strcspn(exe, "\n")] = 0;
        fclose(cmd);
    }
    size_t idx = 0;
    for (size_t i = 0; i < rt.nmods; i++)
        if (rt.mods[i] == m)
            idx = i;
    snprintf(name, sizeof name, "%s.fatbin%zu", exe, idx);
    /* one module: the fat binary's PTX, or all the units of relocatable
     * device code (-rdc=true) linked (modload.c) */
    char *why = NULL;
    m->mod = cudart_load_fatbin(rt.dev, m->wrapper, name, &why);
    if (!m->mod) {
        m->failed = 1;
        m->error = why;
        say("%s", why ? why : "out of host memory loading the program's GPU code");
    }
}

CUDART_API void **__cudaRegisterFatBinary(void *fatCubin)
{
    lock();
    rt_module *m = calloc(1, sizeof *m);
    if (!m || GROW(rt.mods, rt.nmods, rt.capmods)) {
        free(m);
        unlock();
        say("out of host memory registering a fat binary");
        return NULL;
    }
    m->wrapper = fatCubin;
    rt.mods[rt.nmods++] = m;
    unlock();
    return (void **)m;
}

CUDART_API void __cudaRegisterFatBinaryEnd(void **handle)
{
    lock();
    if (handle)
        load_module((rt_module *)handle);
    /* __managed__ variables of this module: the host's pointer is the
     * variable's storage, at an address that is the device's too */
    for (size_t i = 0; i < rt.nvars; i++) {
        rt_var *v = &rt.vars[i];
        if (v->m != (rt_module *)handle || !v->managed_ptr || !v->m->mod)
            continue;
        lockstep_dptr addr;
        size_t size;
        if (lockstep_module_get_symbol(v->m->mod, v->name, &addr, &size) == LOCKSTEP_SUCCESS) {
            void *host = cudart_device_host_view(rt.dev, addr, size);
            if (host)
                *v->managed_ptr = host;
            else
                say("__managed__ variable '%s' (%zu bytes) cannot be shared with the host", v->name, size);
        }
    }
    unlock();
}

CUDART_API void __cudaUnregisterFatBinary(void **handle)
{
    (void)handle; /* modules live until the device is destroyed at exit */
}

CUDART_API char __cudaInitModule(void **handle)
{
    (void)handle;
    return 1;
}

CUDART_API void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                       const char *deviceName, int thread_limit, void *tid,
                                       void *bid, void *bDim, void *gDim, int *wSize)
{
    (void)deviceFun;
    (void)thread_limit;
    (void)tid;
    (void)bid;
    (void)bDim;
    (void)gDim;
    (void)wSize;
    lock();
    struct rt_function *f = calloc(1, sizeof *f);
    if (!f || GROW(rt.funcs, rt.nfuncs, rt.capfuncs) || !(f->name = strdup(deviceName))) {
        free(f);
        unlock();
        say("out of host memory registering kernel %s", deviceName);
        return;
    }
    f->host_fun = hostFun;
    f->m = (rt_module *)handle;
    f->carveout = -1;
    rt.funcs[rt.nfuncs++] = f;
    unlock();
}

static void register_var(void **handle, const void *host, const char *name, size_t size,
                         int constant, void **managed)
{
    lock();
    if (GROW(rt.vars, rt.nvars, rt.capvars)) {
        unlock();
        return;
    }
    rt_var *v = &rt.vars[rt.nvars];
    memset(v, 0, sizeof *v);
    v->host_var = host;
    v->name = strdup(name);
    v->m = (rt_module *)handle;
    v->size = size;
    v->constant = constant;
    v->managed_ptr = managed;
    if (v->name)
        rt.nvars++;
    unlock();
}

CUDART_API void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                                  const char *deviceName, int ext, size_t size, int constant,
                                  int global)
{
    (void)deviceAddress;
    (void)ext;
    (void)global;
    register_var(handle, hostVar, deviceName, size, constant, NULL);
}

CUDART_API void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
                                         char *deviceAddress, const char *deviceName, int ext,
                                         size_t size, int constant, int global)
{
    (void)deviceAddress;
    (void)ext;
    (void)global;
    register_var(handle, hostVarPtrAddress, deviceName, size, constant, hostVarPtrAddress);
}

static struct rt_function *find_function(const void *host_fun)
{
    for (size_t i = 0; i < rt.nfuncs; i++)
        if (!rt.funcs[i]->retired &&
            (rt.funcs[i]->host_fun == host_fun || (const void *)rt.funcs[i] == host_fun))
            return rt.funcs[i];
    return NULL;
}

/* A registered variable by its host symbol; a __managed__ one also by its
 * storage's address, which is what nvcc's host code passes for it. */
static rt_var *find_var(const void *symbol)
{
    for (size_t i = 0; i < rt.nvars; i++)
        if (rt.vars[i].host_var == symbol ||
            (rt.vars[i].managed_ptr && symbol && *rt.vars[i].managed_ptr == symbol))
            return &rt.vars[i];
    return NULL;
}

/* The device address of a registered variable. */
static cudaError_t var_address(const void *symbol, lockstep_dptr *addr, size_t *size)
{
    rt_var *v = find_var(symbol);
    if (!v)
        return cudaErrorInvalidSymbol;
    load_module(v->m);
    if (!v->m->mod)
        return cudaErrorInvalidSymbol;
    if (lockstep_module_get_symbol(v->m->mod, v->name, addr, size) != LOCKSTEP_SUCCESS)
        return cudaErrorInvalidSymbol;
    return cudaSuccess;
}

/* ---- the driver API's modules and functions (runtime.h) -------------------------------- */

struct rt_module *cudart_module_adopt(lockstep_module *mod)
{
    rt_module *m = calloc(1, sizeof *m);
    if (!m || GROW(rt.mods, rt.nmods, rt.capmods)) {
        free(m);
        return NULL;
    }
    m->mod = mod;
    rt.mods[rt.nmods++] = m;
    return m;
}

void cudart_module_retire(struct rt_module *m)
{
    for (size_t i = 0; i < rt.nfuncs; i++)
        if (rt.funcs[i]->m == m) {
            rt.funcs[i]->retired = 1;
            rt.funcs[i]->k = NULL;
        }
    /* the entries stay (the statistics name their kernels); the module goes */
    if (m->mod)
        lockstep_module_unload(m->mod);
    m->mod = NULL;
    m->failed = 1;
}

struct rt_function *cudart_function_new(struct rt_module *m, const char *name,
                                        lockstep_kernel *k)
{
    struct rt_function *f = calloc(1, sizeof *f);
    if (!f || GROW(rt.funcs, rt.nfuncs, rt.capfuncs) || !(f->name = strdup(name))) {
        free(f);
        return NULL;
    }
    f->host_fun = f; /* a driver function has no host stub: it is its own */
    f->m = m;
    f->k = k;
    f->carveout = -1;
    rt.funcs[rt.nfuncs++] = f;
    return f;
}

int cudart_function_live(const void *f)
{
    for (size_t i = 0; f && i < rt.nfuncs; i++)
        if ((const void *)rt.funcs[i] == f)
            return !rt.funcs[i]->retired;
    return 0;
}

const char *cudart_function_name(const struct rt_function *f) { return f->name; }

/* ---- launches -------------------------------------------------------------------------- */

CUDART_API unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                                void *stream)
{
    if (config_depth >= (int)(sizeof config_stack / sizeof config_stack[0]))
        return 1;
    config_stack[config_depth++] = (call_config){gridDim, blockDim, sharedMem, (cudaStream_t)stream};
    return 0;
}

CUDART_API cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                  size_t *sharedMem, void *stream)
{
    if (config_depth <= 0)
        return set_error(cudaErrorMissingConfiguration);
    call_config c = config_stack[--config_depth];
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shared;
    *(cudaStream_t *)stream = c.stream;
    return cudaSuccess;
}

CUDART_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    lock();
    struct rt_function *f = find_function(hostFun);
    unlock();
    if (!f)
        return set_error(cudaErrorInvalidDeviceFunction);
    *kernel = f;
    return cudaSuccess;
}

/* ---- streams and events: checked handles ---------------------------------------------- */

static void *handle_value(uint32_t id, int kind)
{
    return (void *)(((uintptr_t)rt.handles[id].gen << 32) | ((uintptr_t)id << 4) | (uintptr_t)kind);
}

/* The table entry behind a handle of `kind`, or NULL if it is not one we
 * gave out or it was destroyed.  Call with the lock held. */
static rt_handle *handle_get(const void *h, int kind)
{
    uintptr_t v = (uintptr_t)h;
    if ((v & 0xf) != (uintptr_t)kind)
        return NULL;
    uint32_t id = (uint32_t)((v >> 4) & 0x0fffffffu), gen = (uint32_t)(v >> 32);
    if (id >= rt.nhandles || !rt.handles[id].live || rt.handles[id].gen != gen ||
        rt.handles[id].kind != kind)
        return NULL;
    return &rt.handles[id];
}

/* Destroy a handle's entry (lock held): its handle never works again. */
static void handle_free(rt_handle *h)
{
    h->live = 0;
    if (++h->gen == UINT32_MAX)
        return; /* retired for good: its handles could come round again */
    h->next_free = rt.free_handle;
    rt.free_handle = (uint32_t)(h - rt.handles) + 1;
}

/* A new handle of `kind` (lock held); NULL when out of memory. */
static void *handle_new(int kind, unsigned flags, int priority)
{
    uint32_t id;
    if (rt.free_handle) {
        id = rt.free_handle - 1;
        rt.free_handle = rt.handles[id].next_free;
    } else {
        id = (uint32_t)rt.nhandles;
        if (id >= 0x0fffffffu || GROW(rt.handles, rt.nhandles, rt.caphandles))
            return NULL;
        memset(&rt.handles[rt.nhandles++], 0, sizeof *rt.handles);
    }
    rt_handle *e = &rt.handles[id];
    uint32_t gen = e->gen;
    memset(e, 0, sizeof *e);
    e->gen = gen;
    e->live = 1;
    e->kind = (uint8_t)kind;
    e->flags = flags;
    e->priority = priority;
    return handle_value(id, kind);
}

/* The null stream, the legacy and per-thread default streams, and live
 * streams we created (lock held). */
static int valid_stream(cudaStream_t s)
{
    return !s || s == CUDA_STREAM_LEGACY || s == CUDA_STREAM_PER_THREAD ||
           handle_get(s, H_STREAM) != NULL;
}

int cudart_stream_valid(cudaStream_t s) { return valid_stream(s); }

void *cudart_handle_new(int kind, void *obj)
{
    void *h = handle_new(kind, 0, 0);
    if (h)
        handle_get(h, kind)->obj = obj;
    return h;
}

void *cudart_handle_obj(const void *h, int kind)
{
    rt_handle *e = handle_get(h, kind);
    return e ? e->obj : NULL;
}

int cudart_handle_free(const void *h, int kind)
{
    rt_handle *e = handle_get(h, kind);
    if (!e)
        return -1;
    handle_free(e);
    return 0;
}

int cudart_handle_live(const void *h, int kind) { return handle_get(h, kind) != NULL; }

/* The per-thread default stream is each host thread's own: so is its
 * capture. */
static _Thread_local void *per_thread_capture;

void *cudart_capture_of(const void *h, int kind)
{
    if (kind == H_STREAM && h == CUDA_STREAM_PER_THREAD)
        return per_thread_capture;
    rt_handle *e = handle_get(h, kind);
    return e ? e->capture : NULL;
}

void cudart_set_capture(const void *h, int kind, void *capture)
{
    if (kind == H_STREAM && h == CUDA_STREAM_PER_THREAD) {
        per_thread_capture = capture;
        return;
    }
    rt_handle *e = handle_get(h, kind);
    if (e)
        e->capture = capture;
}



#define CHECK_STREAM(s)                                                                    \
    do {                                                                                   \
        if (!valid_stream(s))                                                              \
            LEAVE(cudaErrorInvalidResourceHandle);                                         \
    } while (0)

/* Add one launch's counters into a sum. */
static void stats_add(lockstep_launch_stats *sum, const lockstep_launch_stats *st)
{
    sum->warp_insts += st->warp_insts;
    sum->thread_insts += st->thread_insts;
    sum->ctas += st->ctas;
    sum->threads += st->threads;
    sum->printf_dropped += st->printf_dropped;
    sum->device_launches += st->device_launches;
    for (int m = 0; m < LOCKSTEP_MIX_COUNT; m++)
        sum->mix[m] += st->mix[m];
    if (!st->timing)
        return;
    sum->timing = 1;
    sum->t.cycles += st->t.cycles;
    uint64_t flushbuf_max = sum->t.dab_flushbuf_max > st->t.dab_flushbuf_max
                                ? sum->t.dab_flushbuf_max
                                : st->t.dab_flushbuf_max;
#define ADD_COUNTER(member, name, what) sum->t.member += st->t.member;
    LOCKSTEP_TIMING_COUNTERS(ADD_COUNTER)
#undef ADD_COUNTER
    sum->t.dab_flushbuf_max = flushbuf_max; /* a maximum, not a count */
    if (st->t.max_ctas_per_sm > sum->t.max_ctas_per_sm)
        sum->t.max_ctas_per_sm = st->t.max_ctas_per_sm;
    for (int k = 0; k < LOCKSTEP_STALL_COUNT; k++)
        sum->t.stall[k] += st->t.stall[k];
}

/* Count a launch in its kernel's sum, and list it while the list has room
 * (-lockstep_launch_records). */
static void record_launch(struct rt_function *f, dim3 grid, dim3 block, size_t shared,
                          const lockstep_launch_stats *st, double ns, lockstep_status s)
{
    rt.nlaunches++;
    if (!f->ksum && !GROW(rt.ksums, rt.nksums, rt.capksums)) {
        memset(&rt.ksums[rt.nksums], 0, sizeof *rt.ksums);
        rt.ksums[rt.nksums].name = f->name;
        f->ksum = ++rt.nksums;
    }
    if (f->ksum) {
        rt_ksum *k = &rt.ksums[f->ksum - 1];
        k->launches++;
        k->failed += s != LOCKSTEP_SUCCESS;
        k->ns += ns;
        stats_add(&k->sum, st);
    }
    char buf[32];
    unsigned long long cap = 10000;
    if (!lockstep_config_get(lockstep_device_config(rt.dev), "-lockstep_launch_records", buf,
                             sizeof buf))
        cap = strtoull(buf, NULL, 10);
    if (rt.nrecords >= cap || GROW(rt.launches, rt.nrecords, rt.caplaunches))
        return;
    rt_launch_rec *r = &rt.launches[rt.nrecords++];
    r->name = f->name;
    r->grid = grid;
    r->block = block;
    /* the CTA's shared memory: static (the kernel's) and dynamic (the launch's) */
    lockstep_kernel_info ki;
    uint32_t stat = f->k && !lockstep_kernel_get_info(f->k, &ki) ? ki.static_shared_bytes : 0;
    r->shared = stat + (uint32_t)shared;
    r->st = *st;
    r->ns = ns;
    r->status = (int)s;
}

/* Run a launch (lock held). */
static cudaError_t launch(struct rt_function *f, dim3 grid, dim3 block, void **args,
                          size_t shared, cudaStream_t stream, int cooperative)
{
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    if (!valid_stream(stream))
        return cudaErrorInvalidResourceHandle;
    if (shared > UINT32_MAX) { /* (the simulator's sizes are 32-bit: refuse, never truncate) */
        say("launch of %s: %zu bytes of dynamic shared memory, more than any GPU has "
            "(cudaErrorInvalidValue)",
            f->name, shared);
        return cudaErrorInvalidValue;
    }
    if (graph_capturing(stream)) {
        if (cooperative) {
            say("cudaLaunchCooperativeKernel cannot be captured into a graph by lockstep");
            return graph_capture_refuse(stream);
        }
        return graph_capture_kernel(stream, f->host_fun, grid, block, args, shared);
    }
    load_module(f->m);
    if (f->m->failed || !f->m->mod)
        return cudaErrorNoKernelImageForDevice;
    if (!f->k && lockstep_module_get_kernel(f->m->mod, f->name, &f->k) != LOCKSTEP_SUCCESS) {
        say("kernel '%s' is not in the program's PTX", f->name);
        return cudaErrorInvalidDeviceFunction;
    }
    lockstep_launch_stats st;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t block_threads = (uint64_t)block.x * block.y * block.z;
    if (cooperative && block_threads && block_threads <= 1024) {
        /* the co-residency check a GPU makes before anything runs (a bad
         * shape is the launch's own error, below) */
        uint32_t occ = 0, nsm = 0;
        lockstep_kernel_occupancy(rt.dev, f->k, (uint32_t)block_threads, (uint32_t)shared, &occ,
                                  &nsm);
        uint64_t nctas = (uint64_t)grid.x * grid.y * grid.z;
        if (nctas > (uint64_t)occ * nsm) {
            say("cooperative launch of %s: %llu blocks cannot all be resident at once "
                "(%u SMs x %u blocks of %u threads)",
                f->name, (unsigned long long)nctas, nsm, occ, (unsigned)block_threads);
            return cudaErrorCooperativeLaunchTooLarge;
        }
    }
    lockstep_dim3 lg = {grid.x, grid.y, grid.z}, lb = {block.x, block.y, block.z};
    lockstep_status s =
        cooperative ? lockstep_launch_cooperative(rt.dev, f->k, lg, lb, (uint32_t)shared, args, &st)
                    : lockstep_launch_args(rt.dev, f->k, lg, lb, (uint32_t)shared, args, &st);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    hostwatch_kernel(rt.dev, f->name);
    rt.host_seconds += (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    double ns;
    if (st.timing) {
        /* the timing model's cycles at its core clock */
        double mhz;
        device_total_cycles(rt.dev, &mhz);
        ns = mhz > 0 ? (double)st.t.cycles * 1000.0 / mhz : 0;
        rt.timing = 1;
        unsigned nsm = cudart_num_sms(rt.dev);
        if (rt.nsm_stall < nsm) {
            uint64_t *v = realloc(rt.sm_stall, (size_t)nsm * LOCKSTEP_STALL_COUNT * sizeof *v);
            if (v) {
                memset(v + (size_t)rt.nsm_stall * LOCKSTEP_STALL_COUNT, 0,
                       (size_t)(nsm - rt.nsm_stall) * LOCKSTEP_STALL_COUNT * sizeof *v);
                rt.sm_stall = v;
                rt.nsm_stall = nsm;
            }
        }
        for (unsigned k = 0; k < rt.nsm_stall; k++) {
            uint64_t one[LOCKSTEP_STALL_COUNT];
            if (!lockstep_last_launch_sm_stalls(rt.dev, k, one))
                for (int r = 0; r < LOCKSTEP_STALL_COUNT; r++)
                    rt.sm_stall[(size_t)k * LOCKSTEP_STALL_COUNT + r] += one[r];
        }
    } else {
        ns = (double)st.warp_insts /
             (double)(cudart_num_sms(rt.dev) ? cudart_num_sms(rt.dev) : 1) / FUNCTIONAL_GHZ;
    }
    rt.now_ns += ns;
    record_launch(f, grid, block, shared, &st, ns, s);
    detrec_launch(rt.dev, f->name, (int)s, st.timing ? st.t.cycles : 0);
    if (st.printf_dropped) {
        char fifo[32] = "?";
        lockstep_config_get(lockstep_device_config(rt.dev), "-lockstep_printf_fifo", fifo,
                            sizeof fifo);
        say("kernel %s: %llu printf records were dropped: the printf FIFO of %s bytes was full "
            "(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, ...) or -lockstep_printf_fifo makes it "
            "larger)",
            f->name, (unsigned long long)st.printf_dropped, fifo);
    }
    if (s == LOCKSTEP_SUCCESS)
        return cudaSuccess;
    cudaError_t e = from_status(s);
    if (s == LOCKSTEP_ERROR_INVALID_LAUNCH || s == LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES ||
        s == LOCKSTEP_ERROR_INVALID_VALUE || s == LOCKSTEP_ERROR_INVALID_CONFIG) {
        say("launch of %s failed: %s", f->name, lockstep_device_last_error(rt.dev));
        return e;
    }
    /* a fault inside the kernel: reported now, returned from the next
     * synchronizing call, and sticky afterwards, as on a GPU */
    sync_point();
    rt.sticky = e;
    if (s == LOCKSTEP_ERROR_INTERRUPTED) {
        say("the launch of %s was stopped: the program is exiting", f->name);
        if (atomic_load(&exiting)) {
            /* Another thread is running exit(): this one must not go back
             * to the program (which might call exit too, racing the
             * first); it waits here for the process to end. */
            unlock();
            for (;;)
                pause();
        }
        return cudaSuccess;
    }
    lockstep_fault_info fi;
    lockstep_device_last_fault(rt.dev, &fi);
    say("kernel fault: %s%s", fi.message ? fi.message : lockstep_status_string(s),
        fi.src_file || fi.pc == 0xffffffffu
            ? ""
            : "\n  (build the program with nvcc -lineinfo to see the CUDA source line)");
    return cudaSuccess;
}

CUDART_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                          void **args, size_t sharedMem, cudaStream_t stream)
{
    ENTER();
    LEAVE(launch(kernel, gridDim, blockDim, args, sharedMem, stream, 0));
}

CUDART_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                               void **args, size_t sharedMem, cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t stream)
{
    ENTER();
    LEAVE(launch(find_function(func), gridDim, blockDim, args, sharedMem, stream, 0));
}

cudaError_t cudart_launch(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                          cudaStream_t stream)
{
    return launch(find_function(func), grid, block, args, shared, stream, 0);
}

/* The registered function behind a host stub, its module loaded and its
 * kernel resolved. */
static cudaError_t function_of(const void *func, struct rt_function **out)
{
    struct rt_function *f = find_function(func);
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    load_module(f->m);
    if (f->m->failed || !f->m->mod)
        return cudaErrorNoKernelImageForDevice;
    if (!f->k && lockstep_module_get_kernel(f->m->mod, f->name, &f->k) != LOCKSTEP_SUCCESS)
        return cudaErrorInvalidDeviceFunction;
    *out = f;
    return cudaSuccess;
}

cudaError_t cudart_kernel(const void *func, lockstep_kernel **k)
{
    struct rt_function *f;
    cudaError_t e = function_of(func, &f);
    if (!e)
        *k = f->k;
    return e;
}

/* cudaLaunchKernelEx: the launch configuration with attributes.  The
 * cooperative attribute makes it a cooperative launch; priorities and cache
 * hints change nothing on the simulated device; thread-block clusters
 * (compute capability 9.0) are refused with a message. */
CUDART_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                           void **args)
{
    if (!config || (config->numAttrs && !config->attrs))
        return set_error(cudaErrorInvalidValue);
    int cooperative = 0;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        if (a->id == cudaLaunchAttributeCooperative)
            cooperative = a->val.cooperative != 0;
        else if (a->id == cudaLaunchAttributeClusterDimension &&
                 (uint64_t)a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z > 1) {
            say("cudaLaunchKernelEx: thread-block clusters (%ux%ux%u) are not supported by "
                "lockstep",
                a->val.clusterDim.x, a->val.clusterDim.y, a->val.clusterDim.z);
            return set_error(cudaErrorNotSupported);
        }
    }
    ENTER();
    LEAVE(launch(find_function(func), config->gridDim, config->blockDim, args,
                 config->dynamicSmemBytes, config->stream, cooperative));
}

CUDART_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
                                                const void *func, void **args)
{
    if (!config || config->stream)
        return cudaLaunchKernelExC(config, func, args);
    cudaLaunchConfig_t c = *config;
    c.stream = CUDA_STREAM_PER_THREAD;
    return cudaLaunchKernelExC(&c, func, args);
}

CUDART_API cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    if (!name)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    struct rt_function *f = find_function(func);
    if (!f)
        LEAVE(cudaErrorInvalidDeviceFunction);
    *name = f->name;
    LEAVE(cudaSuccess);
}

/* Every CTA resident at once, with grid-wide synchronization through
 * cooperative groups (the grid workspace in %envreg1:2). */
CUDART_API cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                                   void **args, size_t sharedMem,
                                                   cudaStream_t stream)
{
    ENTER();
    LEAVE(launch(find_function(func), gridDim, blockDim, args, sharedMem, stream, 1));
}

CUDART_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim,
                                                        dim3 blockDim, void **args,
                                                        size_t sharedMem, cudaStream_t stream)
{
    return cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem, cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                             void **args, size_t sharedMem, cudaStream_t stream)
{
    return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, cudart_ptsz(stream));
}

/* ---- errors ---------------------------------------------------------------------------- */

CUDART_API cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    lock();
    if (rt.sticky)
        e = rt.sticky; /* a sticky error cannot be cleared */
    unlock();
    return e;
}

CUDART_API cudaError_t cudaPeekAtLastError(void)
{
    lock();
    cudaError_t e = rt.sticky ? rt.sticky : last_error;
    unlock();
    return e;
}

CUDART_API const char *cudaGetErrorString(cudaError_t error)
{
    switch (error) {
#define X(name, value, text)                                                               \
    case value:                                                                            \
        return text;
        CUDA_ERRORS(X)
#undef X
    default:
        return "unrecognized error code";
    }
}

CUDART_API const char *cudaGetErrorName(cudaError_t error)
{
    switch (error) {
#define X(name, value, text)                                                               \
    case value:                                                                            \
        return #name;
        CUDA_ERRORS(X)
#undef X
    default:
        return "cudaErrorUnknown";
    }
}

/* ---- memory ---------------------------------------------------------------------------- */

static rt_host_alloc *find_host(const void *p)
{
    for (size_t i = 0; i < rt.nhosts; i++)
        if (rt.hosts[i].ptr == p)
            return &rt.hosts[i];
    return NULL;
}

CUDART_API cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    if (!devPtr)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    if (size == 0) {
        *devPtr = NULL;
        LEAVE(cudaSuccess);
    }
    lockstep_dptr p;
    if (lockstep_malloc(rt.dev, size, &p) != LOCKSTEP_SUCCESS)
        LEAVE(cudaErrorMemoryAllocation);
    *devPtr = (void *)(uintptr_t)p;
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaFree(void *devPtr)
{
    ENTER();
    if (!devPtr)
        LEAVE(cudaSuccess);
    rt_host_alloc *h = find_host(devPtr);
    if (h && h->managed) {
        hostwatch_forget(h->ptr, h->size);
        lockstep_unmap_host(rt.dev, h->ptr);
        munmap(h->ptr, h->size);
        *h = rt.hosts[--rt.nhosts];
        LEAVE(cudaSuccess);
    }
    if (!gmem_free(devPtr)) /* a graph allocation, live */
        LEAVE(cudaSuccess);
    if (lockstep_free(rt.dev, (lockstep_dptr)(uintptr_t)devPtr) != LOCKSTEP_SUCCESS)
        LEAVE(cudaErrorInvalidDevicePointer);
    mempool_forget(devPtr); /* cudaFree may free what cudaMallocAsync gave */
    LEAVE(cudaSuccess);
}

/* Host memory the device can reach at the same address (pinned, managed).
 * mmap keeps it page-aligned and away from the malloc heap. */
static cudaError_t host_alloc(void **p, size_t size, int managed, unsigned flags)
{
    if (!p)
        return cudaErrorInvalidValue;
    if (size == 0) {
        *p = NULL;
        return cudaSuccess;
    }
    void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return cudaErrorMemoryAllocation;
    if (GROW(rt.hosts, rt.nhosts, rt.caphosts) || lockstep_map_host(rt.dev, m, size) != LOCKSTEP_SUCCESS) {
        munmap(m, size);
        return cudaErrorMemoryAllocation;
    }
    rt.hosts[rt.nhosts++] = (rt_host_alloc){m, size, managed, 0, flags};
    *p = m;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    ENTER();
    LEAVE(host_alloc(ptr, size, 0, cudaHostAllocMapped));
}

CUDART_API cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    if (flags & ~0xfu)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    /* every pinned buffer is mapped (unified addressing) */
    LEAVE(host_alloc(pHost, size, 0, flags | cudaHostAllocMapped));
}

CUDART_API cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    (void)flags;
    ENTER();
    LEAVE(host_alloc(devPtr, size, 1, 0));
}

CUDART_API cudaError_t cudaFreeHost(void *ptr)
{
    ENTER();
    if (!ptr)
        LEAVE(cudaSuccess);
    rt_host_alloc *h = find_host(ptr);
    if (!h || h->managed || h->registered)
        LEAVE(cudaErrorInvalidValue);
    hostwatch_forget(h->ptr, h->size);
    lockstep_unmap_host(rt.dev, h->ptr);
    munmap(h->ptr, h->size);
    *h = rt.hosts[--rt.nhosts];
    LEAVE(cudaSuccess);
}

/* Page-lock existing host memory: it is mapped into the device's address
 * space at its own address, as pinned memory is (unified addressing). */
CUDART_API cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    if (!ptr || !size || (flags & ~0xfu))
        return set_error(cudaErrorInvalidValue);
    if (flags & cudaHostRegisterIoMemory) {
        say("cudaHostRegister: cudaHostRegisterIoMemory (I/O memory) is not supported by lockstep");
        return set_error(cudaErrorNotSupported);
    }
    ENTER();
    if (GROW(rt.hosts, rt.nhosts, rt.caphosts))
        LEAVE(cudaErrorMemoryAllocation);
    if (lockstep_map_host(rt.dev, ptr, size) != LOCKSTEP_SUCCESS)
        LEAVE(cudaErrorHostMemoryAlreadyRegistered);
    rt.hosts[rt.nhosts++] = (rt_host_alloc){ptr, size, 0, 1, cudaHostAllocMapped};
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaHostUnregister(void *ptr)
{
    ENTER();
    rt_host_alloc *h = ptr ? find_host(ptr) : NULL;
    if (!h || !h->registered)
        LEAVE(cudaErrorHostMemoryNotRegistered);
    hostwatch_forget(h->ptr, h->size);
    lockstep_unmap_host(rt.dev, h->ptr);
    *h = rt.hosts[--rt.nhosts];
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    if (!pFlags)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    for (size_t i = 0; i < rt.nhosts; i++) {
        const rt_host_alloc *h = &rt.hosts[i];
        if (!h->managed && (char *)pHost >= (char *)h->ptr &&
            (char *)pHost < (char *)h->ptr + h->size) {
            *pFlags = h->flags; /* with cudaHostAllocMapped: every pinned buffer is mapped */
            LEAVE(cudaSuccess);
        }
    }
    LEAVE(cudaErrorInvalidValue);
}

static int is_dev(const void *p, size_t n)
{
    return lockstep_is_device_range(rt.dev, (lockstep_dptr)(uintptr_t)p, n ? n : 1);
}

/* What a pointer is: device memory, host memory mapped for the device
 * (pinned or registered), managed memory, or host memory the device does
 * not know. */
CUDART_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                                                const void *ptr)
{
    if (!attributes)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    memset(attributes, 0, sizeof *attributes);
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = 0;
    for (size_t i = 0; i < rt.nhosts; i++) {
        const rt_host_alloc *h = &rt.hosts[i];
        if ((const char *)ptr >= (const char *)h->ptr &&
            (const char *)ptr < (const char *)h->ptr + h->size) {
            attributes->type = h->managed ? cudaMemoryTypeManaged : cudaMemoryTypeHost;
            attributes->devicePointer = attributes->hostPointer = (void *)(uintptr_t)ptr;
            LEAVE(cudaSuccess);
        }
    }
    for (size_t i = 0; ptr && i < rt.nvars; i++) {
        const rt_var *v = &rt.vars[i];
        if (v->managed_ptr && *v->managed_ptr && (const char *)ptr >= (const char *)*v->managed_ptr &&
            (const char *)ptr < (const char *)*v->managed_ptr + v->size) {
            attributes->type = cudaMemoryTypeManaged;
            attributes->devicePointer = attributes->hostPointer = (void *)(uintptr_t)ptr;
            LEAVE(cudaSuccess);
        }
    }
    if (ptr && is_dev(ptr, 1)) {
        attributes->type = cudaMemoryTypeDevice;
        attributes->devicePointer = (void *)(uintptr_t)ptr;
    }
    LEAVE(cudaSuccess);
}

/* Managed memory here is host memory mapped at its own address: there is
 * nothing to migrate, so prefetches and advice are accepted (after their
 * arguments are checked) and change nothing, as on a device without
 * concurrent managed access (cudaDevAttrConcurrentManagedAccess 0). */
CUDART_API cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                            struct cudaMemLocation location, unsigned int flags,
                                            cudaStream_t stream)
{
    (void)location;
    if (!devPtr || !count || flags)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    CHECK_STREAM(stream);
    LEAVE(is_dev(devPtr, count) ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
                                                 struct cudaMemLocation location,
                                                 unsigned int flags, cudaStream_t stream)
{
    return cudaMemPrefetchAsync(devPtr, count, location, flags, cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice,
                                     struct cudaMemLocation location)
{
    (void)location;
    if (!devPtr || !count || advice < 1 || advice > 6)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    LEAVE(is_dev(devPtr, count) ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    (void)flags;
    ENTER();
    if (!pDevice || !lockstep_is_device_range(rt.dev, (lockstep_dptr)(uintptr_t)pHost, 1))
        LEAVE(cudaErrorInvalidValue);
    *pDevice = pHost;
    LEAVE(cudaSuccess);
}


/* One copy of any kind (lock held). */
static cudaError_t copy(void *dst, const void *src, size_t n, int kind)
{
    if (n == 0)
        return cudaSuccess;
    if (!dst || !src)
        return cudaErrorInvalidValue;
    int dd = is_dev(dst, n), sd = is_dev(src, n);
    switch (kind) {
    case cudaMemcpyHostToHost: dd = sd = 0; break;
    case cudaMemcpyHostToDevice:
        if (!dd)
            return cudaErrorInvalidDevicePointer;
        sd = 0;
        break;
    case cudaMemcpyDeviceToHost:
        if (!sd)
            return cudaErrorInvalidDevicePointer;
        dd = 0;
        break;
    case cudaMemcpyDeviceToDevice:
        if (!dd || !sd)
            return cudaErrorInvalidDevicePointer;
        break;
    case cudaMemcpyDefault: break;
    default: return cudaErrorInvalidMemcpyDirection;
    }
    /* a side taken as host memory must not be a simulated address (a freed
     * or out-of-range device pointer, or a device pointer given with the
     * wrong kind): the host would read or write memory that is not there */
    if ((!dd && lockstep_is_simulated_address(rt.dev, (lockstep_dptr)(uintptr_t)dst)) ||
        (!sd && lockstep_is_simulated_address(rt.dev, (lockstep_dptr)(uintptr_t)src)))
        return cudaErrorInvalidValue;
    lockstep_status st;
    if (dd && sd)
        st = lockstep_memcpy_dtod(rt.dev, (lockstep_dptr)(uintptr_t)dst, (lockstep_dptr)(uintptr_t)src, n);
    else if (dd)
        st = lockstep_memcpy_htod(rt.dev, (lockstep_dptr)(uintptr_t)dst, src, n);
    else if (sd) {
        st = lockstep_memcpy_dtoh(rt.dev, dst, (lockstep_dptr)(uintptr_t)src, n);
        if (st == LOCKSTEP_SUCCESS)
            detrec_copy(dst, n);
    } else {
        memmove(dst, src, n);
        st = LOCKSTEP_SUCCESS;
    }
    rt.memcpy_bytes += n;
    rt.now_ns += (double)n / COPY_BYTES_PER_NS;
    return st == LOCKSTEP_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

CUDART_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind)
{
    ENTER();
    cudaError_t e = copy(dst, src, count, kind);
    sync_point(); /* a blocking copy synchronizes the device */
    LEAVE(e);
}

CUDART_API cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, int kind)
{
    return cudaMemcpy(dst, src, count, kind);
}

cudaError_t cudart_copy(void *dst, const void *src, size_t n, int kind)
{
    return copy(dst, src, n, kind);
}

CUDART_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                                       cudaStream_t stream)
{
    ENTER();
    CHECK_STREAM(stream);
    if (graph_capturing(stream)) {
        struct cudaMemcpy3DParms p = cudart_params2d(dst, count, src, count, count, 1, kind);
        LEAVE(graph_capture_copy(stream, &p));
    }
    LEAVE(copy(dst, src, count, kind));
}

CUDART_API cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, int kind,
                                            cudaStream_t stream)
{
    return cudaMemcpyAsync(dst, src, count, kind, cudart_ptsz(stream));
}

static cudaError_t set_bytes(void *devPtr, int value, size_t count)
{
    if (count == 0)
        return cudaSuccess;
    if (!is_dev(devPtr, count))
        return cudaErrorInvalidValue;
    if (lockstep_memset(rt.dev, (lockstep_dptr)(uintptr_t)devPtr, value, count) != LOCKSTEP_SUCCESS)
        return cudaErrorInvalidValue;
    rt.now_ns += (double)count / COPY_BYTES_PER_NS;
    return cudaSuccess;
}

cudaError_t cudart_fill(void *dst, int value, size_t n) { return set_bytes(dst, value, n); }

CUDART_API cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    ENTER();
    LEAVE(set_bytes(devPtr, value, count));
}

CUDART_API cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    ENTER();
    CHECK_STREAM(stream);
    if (graph_capturing(stream)) {
        struct cudaMemsetParams p = {devPtr, count, (unsigned)value & 0xff, 1, count, 1};
        LEAVE(graph_capture_memset(stream, &p));
    }
    LEAVE(set_bytes(devPtr, value, count));
}

CUDART_API cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
                                            cudaStream_t stream)
{
    return cudaMemsetAsync(devPtr, value, count, cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
    return cudaMemset(devPtr, value, count);
}

static cudaError_t symbol_copy(const void *symbol, size_t count, size_t offset, void *host,
                               int to_symbol, int kind, cudaStream_t stream)
{
    lockstep_dptr addr;
    size_t size;
    cudaError_t e = var_address(symbol, &addr, &size);
    if (e)
        return e;
    if (offset > size || count > size - offset)
        return cudaErrorInvalidValue;
    void *dev = (void *)(uintptr_t)(addr + offset);
    if (graph_capturing(stream)) {
        if (!to_symbol && kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
            kind != cudaMemcpyDefault)
            return cudaErrorInvalidMemcpyDirection;
        if (to_symbol && kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
            kind != cudaMemcpyDefault)
            return cudaErrorInvalidMemcpyDirection;
        struct cudaMemcpy3DParms p = cudart_params2d(to_symbol ? dev : host, count,
                                                     to_symbol ? host : dev, count, count, 1,
                                                     cudaMemcpyDefault);
        return graph_capture_copy(stream, &p);
    }
    if (to_symbol) {
        if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
            return cudaErrorInvalidMemcpyDirection;
        return copy(dev, host, count, kind == cudaMemcpyHostToDevice ? cudaMemcpyHostToDevice : cudaMemcpyDefault);
    }
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    return copy(host, dev, count, kind == cudaMemcpyDeviceToHost ? cudaMemcpyDeviceToHost : cudaMemcpyDefault);
}

CUDART_API cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                          size_t offset, int kind)
{
    ENTER();
    cudaError_t e = symbol_copy(symbol, count, offset, (void *)(uintptr_t)src, 1, kind, NULL);
    sync_point();
    LEAVE(e);
}

CUDART_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                            size_t offset, int kind)
{
    ENTER();
    cudaError_t e = symbol_copy(symbol, count, offset, dst, 0, kind, NULL);
    sync_point();
    LEAVE(e);
}

CUDART_API cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                               size_t offset, int kind, cudaStream_t stream)
{
    ENTER();
    CHECK_STREAM(stream);
    LEAVE(symbol_copy(symbol, count, offset, (void *)(uintptr_t)src, 1, kind, stream));
}

CUDART_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                 size_t offset, int kind, cudaStream_t stream)
{
    ENTER();
    CHECK_STREAM(stream);
    LEAVE(symbol_copy(symbol, count, offset, dst, 0, kind, stream));
}

CUDART_API cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                               size_t offset, int kind)
{
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

CUDART_API cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                                 size_t offset, int kind)
{
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

CUDART_API cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
                                                    size_t count, size_t offset, int kind,
                                                    cudaStream_t stream)
{
    return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                                                      size_t offset, int kind, cudaStream_t stream)
{
    return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    if (!devPtr)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    lockstep_dptr addr;
    size_t size;
    cudaError_t e = var_address(symbol, &addr, &size);
    const rt_var *v = e ? NULL : find_var(symbol);
    if (!e)
        *devPtr = v->managed_ptr && *v->managed_ptr ? *v->managed_ptr /* one address for both */
                                                    : (void *)(uintptr_t)addr;
    LEAVE(e);
}

CUDART_API cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    if (!size)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    lockstep_dptr addr;
    LEAVE(var_address(symbol, &addr, size));
}

CUDART_API cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
    ENTER();
    LEAVE(lockstep_mem_info(rt.dev, free, total) == LOCKSTEP_SUCCESS ? cudaSuccess : cudaErrorInvalidValue);
}

/* ---- synchronization, streams, events -------------------------------------------------- */

CUDART_API cudaError_t cudaDeviceSynchronize(void)
{
    ENTER();
    sync_point();
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaThreadSynchronize(void)
{
    return cudaDeviceSynchronize();
}

CUDART_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags,
                                                    int priority)
{
    if (!pStream)
        return set_error(cudaErrorInvalidValue);
    if (flags & ~1u) /* cudaStreamDefault 0, cudaStreamNonBlocking 1 */
        return set_error(cudaErrorInvalidValue);
    ENTER();
    void *h = handle_new(H_STREAM, flags, priority);
    if (!h)
        LEAVE(cudaErrorMemoryAllocation);
    *pStream = h;
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    return cudaStreamCreateWithPriority(pStream, 0, 0);
}

CUDART_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    return cudaStreamCreateWithPriority(pStream, flags, 0);
}

CUDART_API cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    ENTER();
    rt_handle *h = handle_get(stream, H_STREAM);
    if (!h)
        LEAVE(cudaErrorInvalidResourceHandle);
    sync_point(); /* work in the stream completes first */
    graph_forget(stream, H_STREAM);
    handle_free(h);
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    ENTER();
    CHECK_STREAM(stream);
    if (graph_capturing(stream))
        LEAVE(graph_capture_refuse(stream));
    sync_point();
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
    return cudaStreamSynchronize(cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    ENTER();
    CHECK_STREAM(stream);
    if (graph_capturing(stream))
        LEAVE(graph_capture_refuse(stream));
    hostwatch_clear(); /* "done": the program may now write what the work read */
    LEAVE(cudaSuccess); /* work completes when it is issued */
}

CUDART_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
    return cudaStreamQuery(cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags)
{
    if (!flags)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    CHECK_STREAM(stream);
    rt_handle *h = handle_get(stream, H_STREAM);
    *flags = h ? h->flags : 0;
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority)
{
    if (!priority)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    CHECK_STREAM(stream);
    rt_handle *h = handle_get(stream, H_STREAM);
    *priority = h ? h->priority : 0;
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                                unsigned int flags)
{
    return cudaStreamWaitEvent(cudart_ptsz(stream), event, flags);
}

CUDART_API cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t stream, unsigned int *flags)
{
    return cudaStreamGetFlags(cudart_ptsz(stream), flags);
}

CUDART_API cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t stream, int *priority)
{
    return cudaStreamGetPriority(cudart_ptsz(stream), priority);
}

CUDART_API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                           unsigned int flags)
{
    if (flags & ~1u)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    CHECK_STREAM(stream);
    if (!handle_get(event, H_EVENT))
        LEAVE(cudaErrorInvalidResourceHandle);
    if ((flags & 1) && graph_capturing(stream)) /* cudaEventWaitExternal */
        LEAVE(graph_capture_event_node(stream, event, 1));
    /* the event's work is complete (it completed when issued); an event
     * recorded during a capture brings this stream into the capture */
    LEAVE(graph_capture_event_wait(stream, event));
}

/* Host work in stream order.  Every earlier operation of the stream has
 * completed when it is issued, so the function runs now (outside the
 * runtime's lock, as CUDA runs it on a thread of its own). */
CUDART_API cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    if (!fn)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    CHECK_STREAM(stream);
    if (graph_capturing(stream))
        LEAVE(graph_capture_host(stream, fn, userData));
    cudart_call_host(fn, userData);
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn,
                                               void *userData)
{
    return cudaLaunchHostFunc(cudart_ptsz(stream), fn, userData);
}

CUDART_API cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                             void *userData, unsigned int flags)
{
    if (!callback || flags != 0)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    CHECK_STREAM(stream);
    if (graph_capturing(stream))
        LEAVE(graph_capture_refuse(stream)); /* as in CUDA: use cudaLaunchHostFunc */
    unlock();
    callback(stream, cudaSuccess, userData);
    lock();
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream,
                                                  cudaStreamCallback_t callback, void *userData,
                                                  unsigned int flags)
{
    return cudaStreamAddCallback(cudart_ptsz(stream), callback, userData, flags);
}

/* Streams keep the priority they are given, but the simulated device runs
 * every operation when it is issued, so priorities order nothing: the range
 * is [0, 0], which is what CUDA reports for a device without priorities
 * (cudaDevAttrStreamPrioritiesSupported is 0). */
CUDART_API cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = 0;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    if (!event)
        return set_error(cudaErrorInvalidValue);
    if (flags & ~0xfu) /* Default, BlockingSync, DisableTiming, Interprocess */
        return set_error(cudaErrorInvalidValue);
    ENTER();
    void *h = handle_new(H_EVENT, flags, 0);
    if (!h)
        LEAVE(cudaErrorMemoryAllocation);
    *event = h;
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, 0);
}

CUDART_API cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    ENTER();
    rt_handle *h = handle_get(event, H_EVENT);
    if (!h)
        LEAVE(cudaErrorInvalidResourceHandle);
    graph_forget(event, H_EVENT);
    handle_free(h);
    LEAVE(cudaSuccess);
}

void cudart_event_record(cudaEvent_t e)
{
    rt_handle *h = handle_get(e, H_EVENT);
    if (h) {
        h->recorded = 1;
        h->ns = rt.now_ns;
    }
}

CUDART_API cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    ENTER();
    rt_handle *h = handle_get(event, H_EVENT);
    if (!h)
        LEAVE(cudaErrorInvalidResourceHandle);
    CHECK_STREAM(stream);
    if (!graph_capture_event_record(event, stream))
        LEAVE(cudaSuccess); /* recorded into a capture: it marks a point of the graph */
    cudart_event_record(event);
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
    return cudaEventRecord(event, cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                                unsigned int flags)
{
    if (flags & ~1u)
        return set_error(cudaErrorInvalidValue);
    if (flags & 1) { /* cudaEventRecordExternal: a node of the capture */
        ENTER();
        if (!handle_get(event, H_EVENT))
            LEAVE(cudaErrorInvalidResourceHandle);
        CHECK_STREAM(stream);
        if (graph_capturing(stream))
            LEAVE(graph_capture_event_node(stream, event, 0));
        unlock();
    }
    return cudaEventRecord(event, stream);
}

CUDART_API cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                     unsigned int flags)
{
    return cudaEventRecordWithFlags(event, cudart_ptsz(stream), flags);
}

/* A stream's identity: its handle's slot (0 for the legacy stream; each
 * host thread's per-thread default stream has its own, from 2^32 up), and
 * its device. */
CUDART_API cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    if (!streamId)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    CHECK_STREAM(hStream);
    if (hStream == CUDA_STREAM_PER_THREAD) {
        static _Thread_local unsigned long long own;
        static unsigned long long threads;
        if (!own)
            own = (1ull << 32) + __atomic_fetch_add(&threads, 1, __ATOMIC_RELAXED);
        *streamId = own;
        LEAVE(cudaSuccess);
    }
    *streamId = !hStream || hStream == CUDA_STREAM_LEGACY
                    ? 0
                    : (((uintptr_t)hStream >> 4) & 0x0fffffffu) + 2;
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId)
{
    return cudaStreamGetId(cudart_ptsz(hStream), streamId);
}

CUDART_API cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
    if (!device)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    CHECK_STREAM(hStream);
    *device = 0;
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device)
{
    return cudaStreamGetDevice(cudart_ptsz(hStream), device);
}

/* Attaching managed memory to a stream limits which streams may touch it
 * while kernels run; with nothing migrating here it changes nothing, once
 * the arguments are checked. */
CUDART_API cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                                unsigned int flags)
{
    if (flags != 1 && flags != 2 && flags != 4) /* Global, Host, Single */
        return set_error(cudaErrorInvalidValue);
    ENTER();
    CHECK_STREAM(stream);
    rt_host_alloc *h = devPtr ? find_host(devPtr) : NULL;
    if (!h || !h->managed || (length && length != h->size))
        LEAVE(cudaErrorInvalidValue);
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr,
                                                     size_t length, unsigned int flags)
{
    return cudaStreamAttachMemAsync(cudart_ptsz(stream), devPtr, length, flags);
}

CUDART_API cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    ENTER();
    if (!handle_get(event, H_EVENT))
        LEAVE(cudaErrorInvalidResourceHandle);
    sync_point();
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaEventQuery(cudaEvent_t event)
{
    ENTER();
    if (!handle_get(event, H_EVENT))
        LEAVE(cudaErrorInvalidResourceHandle);
    hostwatch_clear(); /* "done", as cudaStreamQuery */
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    rt_handle *a = handle_get(start, H_EVENT), *b = handle_get(end, H_EVENT);
    if (!a || !b || ((a->flags | b->flags) & cudaEventDisableTiming))
        LEAVE(cudaErrorInvalidResourceHandle);
    if (!a->recorded || !b->recorded)
        LEAVE(cudaErrorInvalidResourceHandle);
    *ms = (float)((b->ns - a->ns) / 1e6);
    LEAVE(cudaSuccess);
}

/* ---- device management --------------------------------------------------------------- */

CUDART_API cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return set_error(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return set_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaSetDevice(int device)
{
    return device == 0 ? cudaSuccess : set_error(cudaErrorInvalidDevice);
}

static unsigned device_flags;

CUDART_API cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    if (flags & ~0x1fu) /* schedule (0-4), MapHost (8), LmemResizeToMax (16) */
        return set_error(cudaErrorInvalidValue);
    device_flags = flags;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags)
        return set_error(cudaErrorInvalidValue);
    *flags = device_flags | 0x8; /* mapped pinned memory is always on (unified addressing) */
    return cudaSuccess;
}

CUDART_API cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    if (device != 0)
        return set_error(cudaErrorInvalidDevice);
    if (flags & ~1u)
        return set_error(cudaErrorInvalidValue);
    cudaError_t e = cudaSetDeviceFlags(deviceFlags);
    if (e)
        return e;
    ENTER(); /* the device is created now, as CUDA initializes its context */
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaSetValidDevices(int *device_arr, int len)
{
    if (len < 0 || (len && !device_arr))
        return set_error(cudaErrorInvalidValue);
    for (int i = 0; i < len; i++)
        if (device_arr[i] != 0)
            return set_error(cudaErrorInvalidDevice);
    return cudaSuccess;
}

/* One device: a peer copy is a copy within it. */
CUDART_API cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src,
                                           int srcDevice, size_t count, cudaStream_t stream)
{
    if (dstDevice != 0 || srcDevice != 0)
        return set_error(cudaErrorInvalidDevice);
    return cudaMemcpyAsync(dst, src, count, cudaMemcpyDeviceToDevice, stream);
}

CUDART_API cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                                      size_t count)
{
    if (dstDevice != 0 || srcDevice != 0)
        return set_error(cudaErrorInvalidDevice);
    return cudaMemcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}

/* The one simulated device is the best match for any properties. */
CUDART_API cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    if (!device || !prop)
        return set_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

/* One device: there is no peer to access. */
CUDART_API cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    if (!canAccessPeer)
        return set_error(cudaErrorInvalidValue);
    if (device != 0 || peerDevice != 0)
        return set_error(cudaErrorInvalidDevice);
    *canAccessPeer = 0;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    if (!pciBusId || len <= 0)
        return set_error(cudaErrorInvalidValue);
    if (device != 0)
        return set_error(cudaErrorInvalidDevice);
    snprintf(pciBusId, (size_t)len, "0000:00:00.0"); /* cudaDeviceProp's pciBusID 0 */
    return cudaSuccess;
}

/* The device with a PCI bus id "[domain:]bus:device.function" (hex): the
 * one device answers to cudaDeviceGetPCIBusId's 0000:00:00.0. */
CUDART_API cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    if (!device || !pciBusId)
        return set_error(cudaErrorInvalidValue);
    unsigned v[4] = {0, 0, 0, 0};
    int end = 0, n = sscanf(pciBusId, "%x:%x:%x.%x%n", &v[0], &v[1], &v[2], &v[3], &end);
    if (n < 4) {
        end = 0;
        n = sscanf(pciBusId, "%x:%x.%x%n", &v[1], &v[2], &v[3], &end);
        if (n < 3)
            return set_error(cudaErrorInvalidValue);
    }
    if (pciBusId[end])
        return set_error(cudaErrorInvalidValue);
    if (v[0] || v[1] || v[2] || v[3])
        return set_error(cudaErrorInvalidDevice);
    *device = 0;
    return cudaSuccess;
}

/* Peer access: there is one device, and no device is its own peer. */
CUDART_API cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    if (flags)
        return set_error(cudaErrorInvalidValue);
    (void)peerDevice;
    return set_error(cudaErrorInvalidDevice);
}

CUDART_API cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
    return set_error(peerDevice == 0 ? cudaErrorPeerAccessNotEnabled : cudaErrorInvalidDevice);
}

/* Shared-memory bank width: the model's banks are 4 bytes wide. */
CUDART_API cudaError_t cudaDeviceGetSharedMemConfig(int *pConfig)
{
    if (!pConfig)
        return set_error(cudaErrorInvalidValue);
    *pConfig = cudaSharedMemBankSizeFourByte;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaDeviceSetSharedMemConfig(int config)
{
    return config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte
               ? set_error(cudaErrorInvalidValue)
               : cudaSuccess; /* a preference; the banks stay 4 bytes wide, as on Volta */
}

CUDART_API cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config)
{
    (void)func;
    return cudaDeviceSetSharedMemConfig(config);
}

CUDART_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (!prop)
        return set_error(cudaErrorInvalidValue);
    if (device != 0)
        return set_error(cudaErrorInvalidDevice);
    ENTER();
    cudart_fill_properties(rt.dev, prop);
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device)
{
    if (!value)
        return set_error(cudaErrorInvalidValue);
    if (device != 0)
        return set_error(cudaErrorInvalidDevice);
    ENTER();
    if (cudart_attribute(rt.dev, attr, value)) {
        say("cudaDeviceGetAttribute: attribute %d is not one lockstep knows "
            "(cudaErrorInvalidValue)",
            attr);
        LEAVE(cudaErrorInvalidValue);
    }
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    if (!attr)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    struct rt_function *f;
    cudaError_t e = function_of(func, &f);
    if (e)
        LEAVE(e);
    fill_func_attributes(f->k, f->carveout, attr);
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaFuncSetCacheConfig(const void *func, int cacheConfig)
{
    (void)func;
    (void)cacheConfig; /* accepted: the functional model has no caches */
    return cudaSuccess;
}

CUDART_API cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
    ENTER();
    struct rt_function *f;
    cudaError_t e = function_of(func, &f);
    if (e)
        LEAVE(e);
    switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize:
        if (value < 0 || lockstep_kernel_set_max_dynamic_shared(f->k, (uint32_t)value)) {
            if (value < 0)
                say("cudaFuncSetAttribute: a negative shared memory size (%d)", value);
            else
                say("cudaFuncSetAttribute: %s", lockstep_device_last_error(rt.dev));
            LEAVE(cudaErrorInvalidValue);
        }
        LEAVE(cudaSuccess);
    case cudaFuncAttributePreferredSharedMemoryCarveout:
        /* a hint (-1: none, else a percentage of the SM's shared memory); the
         * configuration fixes lockstep's L1/shared split, so it is kept for
         * cudaFuncGetAttributes only */
        if (value < -1 || value > 100)
            LEAVE(cudaErrorInvalidValue);
        f->carveout = value;
        LEAVE(cudaSuccess);
    case cudaFuncAttributeClusterDimMustBeSet: case cudaFuncAttributeRequiredClusterWidth:
    case cudaFuncAttributeRequiredClusterHeight: case cudaFuncAttributeRequiredClusterDepth:
    case cudaFuncAttributeNonPortableClusterSizeAllowed:
    case cudaFuncAttributeClusterSchedulingPolicyPreference:
        say("cudaFuncSetAttribute: attribute %d sets thread block clusters (compute capability "
            "9.0), which lockstep's GPUs do not have (cudaErrorNotSupported)",
            attr);
        LEAVE(cudaErrorNotSupported);
    default:
        say("cudaFuncSetAttribute: attribute %d is not one CUDA 13 defines (cudaErrorInvalidValue)",
            attr);
        LEAVE(cudaErrorInvalidValue);
    }
}

CUDART_API cudaError_t cudaDeviceSetCacheConfig(int cacheConfig)
{
    (void)cacheConfig;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaDeviceGetCacheConfig(int *cacheConfig)
{
    if (!cacheConfig)
        return set_error(cudaErrorInvalidValue);
    *cacheConfig = 0;
    return cudaSuccess;
}

/* The option behind a cudaLimit, or NULL. */
static const char *limit_option(int limit)
{
    switch (limit) {
    case cudaLimitStackSize: return "-lockstep_stack_size";
    case cudaLimitPrintfFifoSize: return "-lockstep_printf_fifo";
    case cudaLimitMallocHeapSize: return "-lockstep_heap_size";
    case cudaLimitDevRuntimeSyncDepth: return "-lockstep_cdp_sync_depth";
    case cudaLimitDevRuntimePendingLaunchCount: return "-lockstep_cdp_pending_launches";
    default: return NULL;
    }
}

static const char *limit_name(int limit)
{
    switch (limit) {
    case cudaLimitStackSize: return "cudaLimitStackSize";
    case cudaLimitPrintfFifoSize: return "cudaLimitPrintfFifoSize";
    case cudaLimitMallocHeapSize: return "cudaLimitMallocHeapSize";
    case cudaLimitDevRuntimeSyncDepth: return "cudaLimitDevRuntimeSyncDepth";
    case cudaLimitDevRuntimePendingLaunchCount: return "cudaLimitDevRuntimePendingLaunchCount";
    default: return "?";
    }
}

CUDART_API cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
    ENTER();
    char buf[32];
    snprintf(buf, sizeof buf, "%zu", value);
    const char *opt = limit_option(limit);
    if (!opt)
        LEAVE(cudaErrorUnsupportedLimit);
    if (cudart_set_option(rt.dev, opt, buf)) {
        say("cudaDeviceSetLimit(%s, %zu): %s (cudaErrorInvalidValue)", limit_name(limit), value,
            lockstep_device_last_error(rt.dev));
        LEAVE(cudaErrorInvalidValue);
    }
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
    if (!value)
        return set_error(cudaErrorInvalidValue);
    ENTER();
    char buf[32];
    const char *opt = limit_option(limit);
    if (!opt || lockstep_config_get(lockstep_device_config(rt.dev), opt, buf, sizeof buf))
        LEAVE(cudaErrorUnsupportedLimit);
    *value = (size_t)strtoull(buf, NULL, 10);
    LEAVE(cudaSuccess);
}

CUDART_API cudaError_t cudaDeviceReset(void)
{
    /* Frees every allocation, like a context reset; modules are kept (the
     * program's registrations stay valid) but their variables get their
     * initial values again, as a reloaded module's would; the sticky error
     * clears. */
    lock();
    if (rt.dev) {
        sync_point();
        for (size_t i = 0; i < rt.nhosts; i++) {
            lockstep_unmap_host(rt.dev, rt.hosts[i].ptr);
            if (!rt.hosts[i].registered)
                munmap(rt.hosts[i].ptr, rt.hosts[i].size);
        }
        rt.nhosts = 0;
        gmem_reset();
        cudart_free_user_allocations(rt.dev);
        mempool_reset();
        cudart_texture_reset();
    }
    rt.sticky = cudaSuccess;
    last_error = cudaSuccess;
    unlock();
    return cudaSuccess;
}

CUDART_API cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return set_error(cudaErrorInvalidValue);
    *driverVersion = CUDART_VERSION;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion)
        return set_error(cudaErrorInvalidValue);
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

CUDART_API struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

CUDART_API cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
CUDART_API cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

/* ---- statistics at exit --------------------------------------------------------------- */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* The instruction mix summed over every launch. */
/* An object with every class, zeros included, so readers see one shape. */
static void json_mix(FILE *f, const uint64_t mix[LOCKSTEP_MIX_COUNT])
{
    fputc('{', f);
    for (int m = 0; m < LOCKSTEP_MIX_COUNT; m++)
        fprintf(f, "%s\"%s\": %llu", m ? ", " : "", lockstep_mix_name((lockstep_mix)m),
                (unsigned long long)mix[m]);
    fputc('}', f);
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* The timing counters, from the table in lockstep.h. */
typedef struct counter_desc {
    const char *name;
    size_t off;
} counter_desc;
static const counter_desc counters[] = {
#define COUNTER_DESC(member, name, what) {name, offsetof(lockstep_timing_stats, member)},
    LOCKSTEP_TIMING_COUNTERS(COUNTER_DESC)
#undef COUNTER_DESC
};
/* Rates the text adds after a counter: name = num / den. */
static const struct {
    size_t after, num, den, den2;
    const char *name;
} rates[] = {
    {offsetof(lockstep_timing_stats, l1d_misses), offsetof(lockstep_timing_stats, l1d_misses),
     offsetof(lockstep_timing_stats, l1d_accesses), 0, "L1D_total_cache_miss_rate"},
    {offsetof(lockstep_timing_stats, l2_misses), offsetof(lockstep_timing_stats, l2_misses),
     offsetof(lockstep_timing_stats, l2_accesses), 0, "L2_total_cache_miss_rate"},
    {offsetof(lockstep_timing_stats, dram_row_hits), offsetof(lockstep_timing_stats, dram_row_hits),
     offsetof(lockstep_timing_stats, dram_reads), offsetof(lockstep_timing_stats, dram_writes),
     "dram_row_buffer_hit_rate"},
};

static uint64_t at(const lockstep_timing_stats *t, size_t off)
{
    uint64_t v;
    memcpy(&v, (const char *)t + off, sizeof v);
    return v;
}

/* The timing counters in GPGPU-Sim's names (text). */
static void text_timing(FILE *f, const lockstep_timing_stats *t, uint64_t insn, const char *pre)
{
    fprintf(f, "%-24s %llu\n", pre[0] ? "gpu_tot_sim_cycle" : "gpu_sim_cycle",
            (unsigned long long)t->cycles);
    fprintf(f, "%-24s %.4f\n", pre[0] ? "gpu_tot_ipc" : "gpu_ipc", ratio(insn, t->cycles));
    for (size_t k = 0; k < sizeof counters / sizeof counters[0]; k++) {
        fprintf(f, "%-24s %llu\n", counters[k].name, (unsigned long long)at(t, counters[k].off));
        for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++)
            if (rates[r].after == counters[k].off)
                fprintf(f, "%-24s %.4f\n", rates[r].name,
                        ratio(at(t, rates[r].num),
                              at(t, rates[r].den) + (rates[r].den2 ? at(t, rates[r].den2) : 0)));
    }
    fprintf(f, "scheduler cycles:");
    for (int k = 0; k < LOCKSTEP_STALL_COUNT; k++)
        fprintf(f, " %s %llu", lockstep_stall_name((lockstep_stall)k),
                (unsigned long long)t->stall[k]);
    fputc('\n', f);
}

/* The timing counters as JSON members (no braces). */
static void json_timing(FILE *f, const lockstep_timing_stats *t, uint64_t insn, const char *ind)
{
    fprintf(f, "%s\"gpu_ipc\": %.4f, ", ind, ratio(insn, t->cycles));
    for (size_t k = 0; k < sizeof counters / sizeof counters[0]; k++)
        fprintf(f, "\"%s\": %llu, ", counters[k].name, (unsigned long long)at(t, counters[k].off));
    fprintf(f, "\"stalls\": {");
    for (int k = 0; k < LOCKSTEP_STALL_COUNT; k++)
        fprintf(f, "%s\"%s\": %llu", k ? ", " : "", lockstep_stall_name((lockstep_stall)k),
                (unsigned long long)t->stall[k]);
    fputc('}', f);
}

/* Everything summed over every launch (from the per-kernel sums). */
static void total_stats(lockstep_launch_stats *t)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < rt.nksums; i++)
        stats_add(t, &rt.ksums[i].sum);
    t->t.max_ctas_per_sm = 0;
}

/* The mode the statistics describe: the configuration's, so that a run in
 * which no launch succeeded still says which model it used. */
static const char *stats_mode(void)
{
    char mode[32];
    const lockstep_config *cfg = rt.dev ? lockstep_device_config(rt.dev) : rt.cfg;
    if (cfg && !lockstep_config_get(cfg, "-lockstep_mode", mode, sizeof mode))
        return strcmp(mode, "functional") ? "timing" : "functional";
    return rt.timing ? "timing" : "functional";
}

/* The ACE analysis's report (-lockstep_ace 1) as text or JSON, malloc'd;
 * NULL when it is off (or no memory for it). */
static char *ace_report(int text)
{
    size_t n = rt.dev ? lockstep_ace_report(rt.dev, text, NULL, 0) : 0;
    char *buf = n ? malloc(n + 1) : NULL;
    if (buf)
        lockstep_ace_report(rt.dev, text, buf, n + 1);
    return buf;
}

static void write_stats_text(FILE *f)
{
    lockstep_launch_stats tot;
    total_stats(&tot);
    uint64_t wi = tot.warp_insts, ti = tot.thread_insts;
    fprintf(f, "lockstep %s statistics (%s mode)\n", lockstep_version(), stats_mode());
    fprintf(f, "kernel launches          %zu\n", rt.nlaunches);
    if (tot.device_launches)
        fprintf(f, "device launches          %llu\n", (unsigned long long)tot.device_launches);
    if (rt.timing)
        text_timing(f, &tot.t, ti, "gpu_tot_");
    fprintf(f, "gpu_tot_sim_insn         %llu\n", (unsigned long long)ti);
    fprintf(f, "warp instructions        %llu\n", (unsigned long long)wi);
    fprintf(f, "memcpy bytes             %llu\n", (unsigned long long)rt.memcpy_bytes);
    fprintf(f, "simulated time (ns)      %.0f\n", rt.now_ns);
    fprintf(f, "host seconds in kernels  %.3f\n", rt.host_seconds);
    if (tot.printf_dropped)
        fprintf(f, "printf records dropped   %llu\n", (unsigned long long)tot.printf_dropped);
    fprintf(f, "instruction mix (warp instructions)\n");
    for (int m = 0; m < LOCKSTEP_MIX_COUNT; m++)
        if (tot.mix[m])
            fprintf(f, "  %-22s %llu  (%.1f%%)\n", lockstep_mix_name((lockstep_mix)m),
                    (unsigned long long)tot.mix[m],
                    wi ? 100.0 * (double)tot.mix[m] / (double)wi : 0.0);
    for (size_t i = 0; i < rt.nrecords; i++) {
        const rt_launch_rec *r = &rt.launches[i];
        char dl[48] = "";
        if (r->st.device_launches)
            snprintf(dl, sizeof dl, " device_launches %llu",
                     (unsigned long long)r->st.device_launches);
        fprintf(f, "kernel %zu  %s  grid (%u,%u,%u) block (%u,%u,%u) shared %u  warp_insts %llu thread_insts %llu%s%s%s\n",
                i, r->name, r->grid.x, r->grid.y, r->grid.z, r->block.x, r->block.y,
                r->block.z, r->shared, (unsigned long long)r->st.warp_insts,
                (unsigned long long)r->st.thread_insts, dl, r->status ? "  FAILED: " : "",
                r->status ? lockstep_status_name((lockstep_status)r->status) : "");
        if (r->st.timing)
            fprintf(f, "  gpu_sim_cycle %llu  gpu_ipc %.4f  L1D_miss_rate %.4f  L2_miss_rate %.4f  "
                       "dram_reads %llu  dram_writes %llu\n",
                    (unsigned long long)r->st.t.cycles,
                    r->st.t.cycles ? (double)r->st.thread_insts / (double)r->st.t.cycles : 0.0,
                    ratio(r->st.t.l1d_misses, r->st.t.l1d_accesses),
                    ratio(r->st.t.l2_misses, r->st.t.l2_accesses),
                    (unsigned long long)r->st.t.dram_reads, (unsigned long long)r->st.t.dram_writes);
    }
    if (rt.nlaunches > rt.nrecords)
        fprintf(f, "(%zu later launches are not listed one by one: -lockstep_launch_records %zu; "
                   "the per-kernel sums below count them)\n",
                rt.nlaunches - rt.nrecords, rt.nrecords);
    fprintf(f, "per kernel: launches failed warp_insts thread_insts%s\n",
            rt.timing ? " gpu_sim_cycle" : "");
    for (size_t i = 0; i < rt.nksums; i++) {
        const rt_ksum *k = &rt.ksums[i];
        fprintf(f, "  %s  %llu %llu %llu %llu", k->name, (unsigned long long)k->launches,
                (unsigned long long)k->failed, (unsigned long long)k->sum.warp_insts,
                (unsigned long long)k->sum.thread_insts);
        if (rt.timing)
            fprintf(f, " %llu", (unsigned long long)k->sum.t.cycles);
        fputc('\n', f);
    }
    if (rt.timing) {
        fprintf(f, "per-SM scheduler cycles:");
        for (int k = 0; k < LOCKSTEP_STALL_COUNT; k++)
            fprintf(f, " %s", lockstep_stall_name((lockstep_stall)k));
        fputc('\n', f);
        for (uint32_t k = 0; k < rt.nsm_stall; k++) {
            fprintf(f, "  sm %-3u", k);
            for (int q = 0; q < LOCKSTEP_STALL_COUNT; q++)
                fprintf(f, " %llu", (unsigned long long)rt.sm_stall[(size_t)k * LOCKSTEP_STALL_COUNT + q]);
            fputc('\n', f);
        }
    }
    char *ace = ace_report(1);
    if (ace)
        fputs(ace, f);
    free(ace);
    fprintf(f, "effective configuration\n");
    const lockstep_config *cfg = rt.dev ? lockstep_device_config(rt.dev) : rt.cfg;
    for (size_t i = 0; cfg && i < lockstep_config_option_count(); i++) {
        const lockstep_option_info *o = lockstep_config_option(i);
        char buf[256];
        if (!lockstep_config_get(cfg, o->name, buf, sizeof buf))
            fprintf(f, "  %s %s\n", o->name, buf);
    }
}

static void json_launch_counts(FILE *f, const lockstep_launch_stats *st)
{
    fprintf(f, "\"warp_insts\": %llu, \"thread_insts\": %llu, \"ctas\": %llu, \"threads\": %llu, "
               "\"device_launches\": %llu, ",
            (unsigned long long)st->warp_insts, (unsigned long long)st->thread_insts,
            (unsigned long long)st->ctas, (unsigned long long)st->threads,
            (unsigned long long)st->device_launches);
}

static void write_stats_json(FILE *f)
{
    lockstep_launch_stats tot;
    total_stats(&tot);
    uint64_t wi = tot.warp_insts, ti = tot.thread_insts;
    fprintf(f, "{\n  \"lockstep_version\": \"%s\",\n  \"mode\": \"%s\",\n", lockstep_version(),
            stats_mode());
    fprintf(f, "  \"config\": {");
    const lockstep_config *cfg = rt.dev ? lockstep_device_config(rt.dev) : rt.cfg;
    for (size_t i = 0; cfg && i < lockstep_config_option_count(); i++) {
        const lockstep_option_info *o = lockstep_config_option(i);
        char buf[256];
        if (lockstep_config_get(cfg, o->name, buf, sizeof buf))
            continue;
        fprintf(f, "%s\n    ", i ? "," : "");
        json_string(f, o->name);
        fputs(": ", f);
        json_string(f, buf);
    }
    fprintf(f, "\n  },\n  \"gpu_tot_sim_insn\": %llu,\n  \"warp_insts\": %llu,\n",
            (unsigned long long)ti, (unsigned long long)wi);
    if (rt.timing) {
        fprintf(f, "  \"gpu_tot_sim_cycle\": %llu,\n", (unsigned long long)tot.t.cycles);
        json_timing(f, &tot.t, ti, "  ");
        fputs(",\n  \"sm_stalls\": [", f);
        for (uint32_t k = 0; k < rt.nsm_stall; k++) {
            fprintf(f, "%s{", k ? ", " : "");
            for (int q = 0; q < LOCKSTEP_STALL_COUNT; q++)
                fprintf(f, "%s\"%s\": %llu", q ? ", " : "", lockstep_stall_name((lockstep_stall)q),
                        (unsigned long long)rt.sm_stall[(size_t)k * LOCKSTEP_STALL_COUNT + q]);
            fputc('}', f);
        }
        fputs("],\n", f);
    }
    fprintf(f, "  \"memcpy_bytes\": %llu,\n  \"simulated_ns\": %.0f,\n  \"host_seconds\": %.6f,\n"
               "  \"printf_dropped\": %llu,\n",
            (unsigned long long)rt.memcpy_bytes, rt.now_ns, rt.host_seconds,
            (unsigned long long)tot.printf_dropped);
    char *ace = ace_report(0);
    if (ace)
        fprintf(f, "  \"ace\": %s,\n", ace);
    free(ace);
    fputs("  \"mix\": ", f);
    json_mix(f, tot.mix);
    fputs(",\n", f);
    fprintf(f, "  \"device_launches\": %llu,\n", (unsigned long long)tot.device_launches);
    fprintf(f, "  \"kernel_launches\": %zu,\n  \"kernels_listed\": %zu,\n", rt.nlaunches,
            rt.nrecords);
    fprintf(f, "  \"kernel_summary\": [");
    for (size_t i = 0; i < rt.nksums; i++) {
        const rt_ksum *k = &rt.ksums[i];
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_string(f, k->name);
        fprintf(f, ", \"launches\": %llu, \"failed\": %llu, \"simulated_ns\": %.0f, ",
                (unsigned long long)k->launches, (unsigned long long)k->failed, k->ns);
        json_launch_counts(f, &k->sum);
        fputs("\"mix\": ", f);
        json_mix(f, k->sum.mix);
        if (k->sum.timing) {
            fprintf(f, ", \"gpu_sim_cycle\": %llu, \"gpu_sim_insn\": %llu, \"max_ctas_per_sm\": %llu, ",
                    (unsigned long long)k->sum.t.cycles, (unsigned long long)k->sum.thread_insts,
                    (unsigned long long)k->sum.t.max_ctas_per_sm);
            json_timing(f, &k->sum.t, k->sum.thread_insts, "");
        }
        fputc('}', f);
    }
    fprintf(f, "%s],\n", rt.nksums ? "\n  " : "");
    fprintf(f, "  \"kernels\": [");
    for (size_t i = 0; i < rt.nrecords; i++) {
        const rt_launch_rec *r = &rt.launches[i];
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_string(f, r->name);
        fprintf(f, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"shared_bytes\": %u, ",
                r->grid.x, r->grid.y, r->grid.z, r->block.x, r->block.y, r->block.z, r->shared);
        json_launch_counts(f, &r->st);
        fprintf(f, "\"simulated_ns\": %.0f, \"status\": \"%s\", \"mix\": ", r->ns,
                lockstep_status_name((lockstep_status)r->status));
        json_mix(f, r->st.mix);
        if (r->st.timing) {
            fprintf(f, ", \"gpu_sim_cycle\": %llu, \"gpu_sim_insn\": %llu, \"max_ctas_per_sm\": %llu, ",
                    (unsigned long long)r->st.t.cycles, (unsigned long long)r->st.thread_insts,
                    (unsigned long long)r->st.t.max_ctas_per_sm);
            json_timing(f, &r->st.t, r->st.thread_insts, "");
        }
        fputc('}', f);
    }
    fprintf(f, "%s]\n}\n", rt.nrecords ? "\n  " : "");
}

/* ---- the end of the program ------------------------------------------------------------ */

/* The statistics files, resolved to absolute paths when the library is
 * loaded (before the program can chdir). */
static char *stats_path, *stats_json_path;
/* LOCKSTEP_FAULT_REPORT: where fault injection's report goes (one line of
 * JSON, docs/RELIABILITY.md), written at exit like the statistics. */
static char *fault_report_path;

/* A path made absolute against the current directory ("-": stderr). */
static char *absolute(const char *p)
{
    if (!p || !*p)
        return NULL;
    if (p[0] == '/' || !strcmp(p, "-"))
        return strdup(p);
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        return strdup(p);
    size_t n = strlen(cwd) + strlen(p) + 2;
    char *a = malloc(n);
    if (a)
        snprintf(a, n, "%s/%s", cwd, p);
    return a;
}

/* Write a statistics file whole or not at all: into DEST.partial, renamed
 * over DEST when complete (a run stopped half-way leaves no file that
 * looks finished; lockstep run removes the partial one).  0, or -1 said. */
static int write_stats(const char *dest, void (*fn)(FILE *))
{
    if (!dest || !*dest)
        return 0;
    if (!strcmp(dest, "-")) {
        fn(stderr);
        return 0;
    }
    size_t n = strlen(dest) + sizeof ".partial";
    char *tmp = malloc(n);
    if (!tmp)
        return -1;
    snprintf(tmp, n, "%s.partial", dest);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        say("cannot write statistics to %s: %s", dest, strerror(errno));
        free(tmp);
        return -1;
    }
    fn(f);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, dest)) {
        say("error writing statistics to %s: %s", dest, strerror(errno));
        remove(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

/* The fault-injection report of the device, one line. */
static void write_fault_report(FILE *f)
{
    size_t n = lockstep_fault_report(rt.dev, NULL, 0);
    char *buf = malloc(n + 1);
    if (!buf)
        return;
    lockstep_fault_report(rt.dev, buf, n + 1);
    /* the ACE analysis's result, when it ran, as the line's "ace" object
     * (lockstep inject's golden run; docs/RELIABILITY.md) */
    char *ace = ace_report(0);
    if (ace && n && buf[n - 1] == '}') {
        buf[n - 1] = 0;
        fprintf(f, "%s,\"ace\":%s}\n", buf, ace);
    } else {
        fprintf(f, "%s\n", buf);
    }
    free(ace);
    free(buf);
}

/* Write the report when one is asked for.  A program that never touched
 * CUDA gets its device now, so the report still says what was asked (and
 * that nothing landed); a configuration the device cannot be made from has
 * been reported already, and gets no report. */
static void finish_fault_report(int may_create)
{
    if (!fault_report_path)
        return;
    if (!rt.dev && may_create)
        ensure_device();
    if (rt.dev)
        write_stats(fault_report_path, write_fault_report);
}

static void at_fork_child(void) { forked_child = 1; }

__attribute__((constructor)) static void cudart_at_load(void)
{
    stats_path = absolute(getenv("LOCKSTEP_STATS"));
    stats_json_path = absolute(getenv("LOCKSTEP_STATS_JSON"));
    fault_report_path = absolute(getenv("LOCKSTEP_FAULT_REPORT"));
    pthread_atfork(NULL, NULL, at_fork_child);
}

/* At exit: stop a launch still running (another thread's, or ours if exit
 * was called from a signal handler during one), deliver device printf
 * output and write the statistics and the trace. */
__attribute__((destructor)) static void cudart_at_exit(void)
{
    if (forked_child)
        return; /* the parent delivers its printf output and writes its statistics */
    atomic_store(&exiting, 1);
    if (rt.dev)
        lockstep_device_interrupt(rt.dev);
    int locked = 0;
    if (!(atomic_load(&lock_held) && pthread_equal(lock_owner, pthread_self()))) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 30;
        locked = pthread_mutex_timedlock(&rt.lock, &until) == 0;
    }
    if (!locked) {
        /* A launch on this thread was interrupted by exit(), or another
         * thread's does not stop: the model is mid-step.  The launches that
         * finished are complete and consistent: write those; the trace,
         * cut short, cannot be finished validly: it is removed. */
        say("exiting during a launch: the statistics count the launches that finished; the "
            "trace, if any, is removed");
        fflush(stdout);
        write_stats(stats_path, write_stats_text);
        write_stats(stats_json_path, write_stats_json);
        finish_fault_report(0);
        return;
    }
    if (rt.dev) {
        lockstep_synchronize(rt.dev);
        if (lockstep_trace_finish(rt.dev) != LOCKSTEP_SUCCESS)
            say("%s", lockstep_device_last_error(rt.dev));
        detrec_finish(rt.dev);
    }
    fflush(stdout); /* the program's output comes before the statistics */
    write_stats(stats_path, write_stats_text);
    write_stats(stats_json_path, write_stats_json);
    finish_fault_report(1);
    fflush(stdout);
    /* The device (and with it the host mappings' bookkeeping) is left to the
     * process's exit: the program may still hold pointers into it. */
    pthread_mutex_unlock(&rt.lock);
}
