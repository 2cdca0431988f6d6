/*
 * device.c -- the public API of lockstep.h: devices, device memory,
 * modules, kernels, launches, synchronization and error reporting.
 *
 * A device owns its configuration, its simulated memory (devmem), the
 * modules loaded onto it and the printf text waiting for the next
 * synchronize.  Every failing call leaves its message in the device's
 * last_error; a kernel fault additionally becomes the pending error that
 * the next lockstep_synchronize returns, and the fault's location is kept
 * for lockstep_device_last_fault.  No state is global.
 *
 * A launch runs a grid (run_grid) and then, after all its threads have
 * finished, the grids and copies its threads launched from device code
 * (dynamic parallelism, run_children: exec/devrt.c records them), each
 * with its own children, in a fixed order (child_order); the launch's
 * statistics sum them all (docs/CUDART.md, "Dynamic parallelism").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "core/device_int.h"
#include "exec/exec.h"
#include "util/addrmap.h"
#include "mem/cache.h"
#include "mem/devmem.h"
#include "ptx/link.h"
#include "ptx/lower.h"
#include "ptx/parse.h"
#include "rel/ace.h"
#include "rel/inject.h"
#include "timing/timing.h"
#include "util/common.h"
#include "util/status.h"

/* TAG_GRAPH: a CUDA graph allocation mapped in its reserved range (device_va_map) */
/* TAG_CDP: a parameter buffer of a launch from device code; TAG_DEVRT: a
 * string the device runtime hands to device code (cudaGetErrorString) */
/* TAG_ALIAS: a module variable's second, host-side address (device_host_view) */
enum { TAG_USER = 0, TAG_MODULE = 1, TAG_HEAP = 2, TAG_GRID_WS = 3, TAG_GRAPH = 4, TAG_CDP = 5,
       TAG_DEVRT = 6, TAG_ALIAS = 7 };

struct lockstep_kernel {
    lockstep_module *mod;
    uint32_t func;
    lockstep_param_info *params;
    uint32_t max_dyn_shared; /* lockstep_kernel_set_max_dynamic_shared */
    int max_dyn_set;         /* 0: the configuration's default */
};

struct lockstep_module {
    lockstep_device *dev;
    ir_module *ir;
    lockstep_kernel *kernels;
    size_t nkernels;
    uint32_t *kernel_of;  /* per function: its index in kernels, UINT32_MAX if not a kernel */
    char *filename;
};

/* A string in device memory for device code (exec_cdp_ops.string). */
typedef struct dr_string {
    const char *text;     /* static (util/cuda_errors.h) */
    uint64_t addr;
} dr_string;

struct lockstep_device {
    lockstep_config *cfg;
    devmem *dm;
    strbuf last_error;
    strbuf printf_pending;
    lockstep_output_fn out_fn;
    void *out_ud;
    VEC(lockstep_module *) mods;
    lockstep_status pending;
    uint32_t gridid;
    uint64_t heap_used;
    /* a launched kernel's module calls malloc/free (the heap's size is then
     * fixed: cudaLimitMallocHeapSize) or printf (the FIFO's) */
    int heap_fixed, fifo_fixed;
    exec_pool pool;       /* CTA slots kept between launches */
    atomic_int stop;      /* lockstep_device_interrupt: the running launch stops */
    const exec_interposer *chain; /* the seams' attachments (device_set_*) */
    uint32_t nchain;
    const exec_hooks *hooks;
    uint32_t trap;
    timing_gpu *tg;       /* the timing model (timing mode), built at the first launch */
    rel_injector *inj;    /* fault injection (-lockstep_fault_*) and the program's totals */
    rel_ace *ace;         /* ACE lifetime analysis (-lockstep_ace) */
    int last_timing;      /* the last launch ran on it */
    VEC(exec_texture) tex; /* texture and surface objects; handle: gen << 32 | index + 1 */
    uint32_t free_tex;     /* first free entry + 1; 0: none (the free list runs through d.base) */
    /* dynamic parallelism */
    uint64_t cdp_pending;  /* launches from device code waiting to run (the running launch's) */
    VEC(dr_string) dr_strings;
    device_devrt_hooks dr_hooks; /* the CUDA runtime's answers for device code */
    uint64_t *sm_stall;    /* the last launch's per-SM stall breakdown, its grids summed */
    uint32_t nsm_stall;
    /* the last fault */
    lockstep_fault_info fault;
    char *fault_kernel, *fault_function, *fault_msg;
};

/* ---- status ------------------------------------------------------------------------ */

const char *lockstep_status_name(lockstep_status s) { return status_name(s); }
const char *lockstep_status_string(lockstep_status s) { return status_text(s); }

const char *lockstep_version(void) { return "0.1.0"; }

/* ---- errors ------------------------------------------------------------------------- */

static lockstep_status fail(lockstep_device *dev, lockstep_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static lockstep_status fail(lockstep_device *dev, lockstep_status st, const char *fmt, ...)
{
    if (!dev)
        return st;
    sb_clear(&dev->last_error);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&dev->last_error, fmt, ap);
    va_end(ap);
    return st;
}

static lockstep_status ok(lockstep_device *dev)
{
    sb_clear(&dev->last_error);
    return LOCKSTEP_SUCCESS;
}

const char *lockstep_device_last_error(const lockstep_device *dev)
{
    return dev ? sb_cstr(&dev->last_error) : "no device";
}

/* ---- devices ------------------------------------------------------------------------- */

static void default_output(void *ud, const char *text, size_t len)
{
    (void)ud;
    fwrite(text, 1, len, stdout);
    fflush(stdout);
}

lockstep_status lockstep_device_create(const lockstep_config *cfg, lockstep_device **out)
{
    if (!out)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    *out = NULL;
    lockstep_device *dev = calloc(1, sizeof *dev);
    if (!dev)
        return LOCKSTEP_ERROR_OUT_OF_MEMORY;
    lockstep_status st = cfg ? lockstep_config_copy(cfg, &dev->cfg) : lockstep_config_create(&dev->cfg);
    if (st == LOCKSTEP_SUCCESS && (st = lockstep_config_validate(dev->cfg)) != LOCKSTEP_SUCCESS)
        lockstep_config_destroy(dev->cfg);
    if (st != LOCKSTEP_SUCCESS) {
        free(dev);
        return st;
    }
    dev->dm = devmem_create(dev->cfg->device_memory);
    if (!dev->dm) {
        lockstep_config_destroy(dev->cfg);
        free(dev);
        return LOCKSTEP_ERROR_OUT_OF_MEMORY;
    }
    dev->inj = rel_inject_create(dev->cfg, dev->dm,
                                 1u << TAG_USER | 1u << TAG_MODULE | 1u << TAG_GRAPH);
    if (!dev->inj) {
        devmem_destroy(dev->dm);
        lockstep_config_destroy(dev->cfg);
        free(dev);
        return LOCKSTEP_ERROR_OUT_OF_MEMORY;
    }
    dev->ace = rel_ace_create(dev->cfg);
    if (!dev->ace) {
        rel_inject_free(dev->inj);
        devmem_destroy(dev->dm);
        lockstep_config_destroy(dev->cfg);
        free(dev);
        return LOCKSTEP_ERROR_OUT_OF_MEMORY;
    }
    /* one observer at a time: the injector's, only when there is a fault to
     * inject, or the ACE analysis's (the config refuses both at once) */
    uint32_t trap;
    const exec_hooks *h = rel_inject_hooks(dev->inj, &trap);
    if (!h)
        h = rel_ace_hooks(dev->ace, &trap);
    if (h)
        device_set_hooks(dev, h, trap);
    dev->out_fn = default_output;
    *out = dev;
    return LOCKSTEP_SUCCESS;
}

void device_set_interposers(lockstep_device *dev, const exec_interposer *chain, uint32_t n)
{
    dev->chain = n ? chain : NULL;
    dev->nchain = chain ? n : 0;
}

void device_set_hooks(lockstep_device *dev, const exec_hooks *hooks, uint32_t trap)
{
    dev->hooks = hooks;
    dev->trap = hooks ? trap : 0;
}

void lockstep_device_interrupt(lockstep_device *dev)
{
    if (dev)
        atomic_store(&dev->stop, 1);
}

static void deliver_printf(lockstep_device *dev)
{
    if (dev->printf_pending.len)
        dev->out_fn(dev->out_ud, sb_cstr(&dev->printf_pending), dev->printf_pending.len);
    sb_clear(&dev->printf_pending);
}

static void free_fault(lockstep_device *dev)
{
    free(dev->fault_kernel);
    free(dev->fault_function);
    free(dev->fault_msg);
    dev->fault_kernel = dev->fault_function = dev->fault_msg = NULL;
    memset(&dev->fault, 0, sizeof dev->fault);
}

void lockstep_device_destroy(lockstep_device *dev)
{
    if (!dev)
        return;
    deliver_printf(dev);
    while (dev->mods.n)
        lockstep_module_unload(dev->mods.v[dev->mods.n - 1]);
    vec_free(&dev->mods);
    vec_free(&dev->tex);
    vec_free(&dev->dr_strings);
    free(dev->sm_stall);
    exec_pool_free(&dev->pool);
    timing_gpu_free(dev->tg);
    rel_inject_free(dev->inj);
    rel_ace_free(dev->ace);
    devmem_destroy(dev->dm);
    lockstep_config_destroy(dev->cfg);
    sb_free(&dev->last_error);
    sb_free(&dev->printf_pending);
    free_fault(dev);
    free(dev);
}

const lockstep_config *lockstep_device_config(const lockstep_device *dev)
{
    return dev ? dev->cfg : NULL;
}

void lockstep_device_set_printf_output(lockstep_device *dev, lockstep_output_fn fn, void *ud)
{
    if (!dev)
        return;
    dev->out_fn = fn ? fn : default_output;
    dev->out_ud = fn ? ud : NULL;
}

/* ---- memory ------------------------------------------------------------------------- */

lockstep_status lockstep_malloc(lockstep_device *dev, size_t bytes, lockstep_dptr *out)
{
    if (!dev || !out)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (bytes == 0)
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE, "lockstep_malloc: size 0");
    int rc = devmem_alloc_block(dev->dm, bytes, 256, TAG_USER, out);
    if (rc == -2)
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY,
                    "lockstep_malloc: out of host memory allocating %zu bytes", bytes);
    if (rc)
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY,
                    "lockstep_malloc: cannot allocate %zu bytes (%llu of %llu bytes in use)", bytes,
                    (unsigned long long)devmem_used(dev->dm),
                    (unsigned long long)devmem_capacity(dev->dm));
    return ok(dev);
}

lockstep_status lockstep_free(lockstep_device *dev, lockstep_dptr ptr)
{
    if (!dev)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (ptr == 0)
        return ok(dev);
    uint32_t hint = 0;
    const devmem_alloc *a = devmem_find(dev->dm, ptr, 1, &hint);
    if (!a || a->base != ptr || a->tag != TAG_USER || devmem_free_block(dev->dm, ptr))
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE,
                    "lockstep_free: 0x%llx is not the start of a live allocation",
                    (unsigned long long)ptr);
    return ok(dev);
}

/* Is [p, p+n) inside one live allocation? */
static int range_ok(lockstep_device *dev, lockstep_dptr p, size_t n, const char *what)
{
    uint32_t hint = 0;
    if (n == 0)
        return 1;
    if (devmem_find(dev->dm, p, n, &hint))
        return 1;
    fail(dev, LOCKSTEP_ERROR_INVALID_VALUE,
         "%s: [0x%llx, +%zu) is not inside one live device allocation", what,
         (unsigned long long)p, n);
    return 0;
}

lockstep_status lockstep_memcpy_htod(lockstep_device *dev, lockstep_dptr dst, const void *src,
                                     size_t bytes)
{
    if (!dev || (!src && bytes))
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (!range_ok(dev, dst, bytes, "lockstep_memcpy_htod"))
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (bytes && devmem_write(dev->dm, dst, src, bytes))
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "lockstep_memcpy_htod: out of host memory");
    return ok(dev);
}

lockstep_status lockstep_memcpy_dtoh(lockstep_device *dev, void *dst, lockstep_dptr src,
                                     size_t bytes)
{
    if (!dev || (!dst && bytes))
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (!range_ok(dev, src, bytes, "lockstep_memcpy_dtoh"))
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (bytes && devmem_read(dev->dm, src, dst, bytes))
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "lockstep_memcpy_dtoh: out of host memory");
    return ok(dev);
}

lockstep_status lockstep_memcpy_dtod(lockstep_device *dev, lockstep_dptr dst, lockstep_dptr src,
                                     size_t bytes)
{
    if (!dev)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (!range_ok(dev, src, bytes, "lockstep_memcpy_dtod (source)") ||
        !range_ok(dev, dst, bytes, "lockstep_memcpy_dtod (destination)"))
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (bytes && devmem_copy(dev->dm, dst, src, bytes))
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "lockstep_memcpy_dtod: out of host memory");
    return ok(dev);
}

lockstep_status lockstep_memset(lockstep_device *dev, lockstep_dptr dst, int value, size_t bytes)
{
    if (!dev)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (!range_ok(dev, dst, bytes, "lockstep_memset"))
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (bytes && devmem_fill(dev->dm, dst, (uint8_t)value, bytes))
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "lockstep_memset: out of host memory");
    return ok(dev);
}

lockstep_status lockstep_map_host(lockstep_device *dev, void *host, size_t bytes)
{
    if (!dev || !host || !bytes)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (devmem_map_host(dev->dm, host, bytes, TAG_USER))
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE,
                    "lockstep_map_host: [%p, +%zu) overlaps device memory or another mapping", host,
                    bytes);
    return ok(dev);
}

size_t lockstep_mapped_accesses(lockstep_device *dev, void **host, size_t *bytes, size_t max)
{
    if (!dev || (max && (!host || !bytes)))
        return 0;
    return devmem_take_host_accesses(dev->dm, host, bytes, max);
}

lockstep_status lockstep_unmap_host(lockstep_device *dev, void *host)
{
    if (!dev)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (devmem_unmap_host(dev->dm, host))
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE, "lockstep_unmap_host: %p is not mapped", host);
    return ok(dev);
}

/* ---- texture and surface objects -------------------------------------------------- */

/* Why the texture unit cannot use d, or NULL. */
static const char *texture_problem(const lockstep_texture_desc *d)
{
    if (d->dims < 1 || d->dims > 3)
        return "dims must be 1, 2 or 3";
    if (d->channels != 1 && d->channels != 2 && d->channels != 4)
        return "a texel has 1, 2 or 4 channels";
    if (d->bits != 8 && d->bits != 16 && d->bits != 32)
        return "channels are 8, 16 or 32 bits";
    if (d->kind > LOCKSTEP_TEX_FLOAT)
        return "unknown channel kind";
    if (d->kind == LOCKSTEP_TEX_FLOAT && d->bits == 8)
        return "float channels are 16 or 32 bits";
    if (!d->width || !d->height || !d->depth)
        return "width, height and depth must be at least 1";
    if ((d->dims < 2 && d->height != 1) || (d->dims < 3 && d->depth != 1))
        return "a dimension the texture does not have must be 1";
    if (d->layers && d->dims == 3)
        return "only 1-D and 2-D textures can be layered";
    if (d->cubemap && (d->dims != 2 || d->width != d->height || !d->layers || d->layers % 6))
        return "a cube map is square 2-D layers, six per cube";
    for (int k = 0; k < 3; k++)
        if (d->address[k] > LOCKSTEP_TEX_BORDER)
            return "unknown address mode";
    if (d->read_normalized && d->kind != LOCKSTEP_TEX_FLOAT && d->bits == 32)
        return "32-bit integers cannot be read as normalized floats";
    if (d->linear_filter && d->kind != LOCKSTEP_TEX_FLOAT && !d->read_normalized)
        return "linear filtering needs float texels or the normalized-float read mode";
    if (d->buffer && (d->dims != 1 || d->linear_filter || d->normalized_coords || d->layers))
        return "a buffer (linear memory) texture is 1-D, unfiltered, with unnormalized coordinates";
    uint64_t tb = (uint64_t)d->channels * d->bits / 8;
    if (d->dims >= 2 && d->pitch < (uint64_t)d->width * tb)
        return "the pitch is smaller than a row";
    if (d->dims == 3 && d->slice_stride < d->pitch * d->height)
        return "the slice stride is smaller than a slice";
    if (d->layers && d->layer_stride < (d->dims == 2 ? d->pitch * d->height : (uint64_t)d->width * tb))
        return "the layer stride is smaller than a layer";
    return NULL;
}

lockstep_status lockstep_texture_create(lockstep_device *dev, const lockstep_texture_desc *desc,
                                        uint64_t *handle)
{
    if (!dev || !desc || !handle)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    const char *why = texture_problem(desc);
    if (why)
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE, "lockstep_texture_create: %s", why);
    /* every texel must lie in device memory the program allocated */
    uint64_t tb = (uint64_t)desc->channels * desc->bits / 8;
    uint64_t last = (uint64_t)(desc->layers ? desc->layers - 1 : 0) * desc->layer_stride +
                    (uint64_t)(desc->depth - 1) * desc->slice_stride +
                    (uint64_t)(desc->height - 1) * desc->pitch + (uint64_t)desc->width * tb;
    if (!lockstep_is_device_range(dev, desc->base, last))
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE,
                    "lockstep_texture_create: the %llu bytes at 0x%llx the texture spans are not "
                    "all in one allocation of device memory",
                    (unsigned long long)last, (unsigned long long)desc->base);
    uint32_t idx;
    if (dev->free_tex) {
        idx = dev->free_tex - 1;
        dev->free_tex = (uint32_t)dev->tex.v[idx].d.base;
    } else {
        if (dev->tex.n >= 0xfffffffeu)
            return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "too many texture objects");
        exec_texture z;
        memset(&z, 0, sizeof z);
        if (vec_push(&dev->tex, z))
            return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "out of host memory");
        idx = (uint32_t)dev->tex.n - 1;
    }
    exec_texture *t = &dev->tex.v[idx];
    t->d = *desc;
    t->live = 1;
    *handle = ((uint64_t)t->gen << 32) | (idx + 1);
    return ok(dev);
}

static exec_texture *texture_of(const lockstep_device *dev, uint64_t h)
{
    uint32_t idx = (uint32_t)h;
    if (!idx || idx > dev->tex.n)
        return NULL;
    exec_texture *t = &dev->tex.v[idx - 1];
    return t->live && t->gen == (uint32_t)(h >> 32) ? t : NULL;
}

lockstep_status lockstep_texture_destroy(lockstep_device *dev, uint64_t handle)
{
    if (!dev)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    exec_texture *t = texture_of(dev, handle);
    if (!t)
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE,
                    "lockstep_texture_destroy: 0x%llx is no live texture object",
                    (unsigned long long)handle);
    t->live = 0;
    t->gen++;
    t->d.base = dev->free_tex; /* the free list */
    dev->free_tex = (uint32_t)handle;
    return ok(dev);
}

lockstep_status lockstep_texture_get(const lockstep_device *dev, uint64_t handle,
                                     lockstep_texture_desc *out)
{
    if (!dev || !out)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    const exec_texture *t = texture_of(dev, handle);
    if (!t)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    *out = t->d;
    return LOCKSTEP_SUCCESS;
}

int lockstep_is_simulated_address(const lockstep_device *dev, lockstep_dptr ptr)
{
    if (!dev)
        return 0;
    return (ptr >= ADDR_GLOBAL_BASE && ptr - ADDR_GLOBAL_BASE < devmem_capacity(dev->dm) + (1ull << 32)) ||
           (ptr >= ADDR_PARAM_WINDOW && ptr < ADDR_WINDOWS_END);
}

int lockstep_is_device_range(const lockstep_device *dev, lockstep_dptr ptr, size_t bytes)
{
    uint32_t hint = 0;
    return dev && devmem_find(dev->dm, ptr, bytes ? bytes : 1, &hint) != NULL;
}

lockstep_status lockstep_mem_info(lockstep_device *dev, size_t *free_bytes, size_t *total_bytes)
{
    if (!dev)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    uint64_t cap = devmem_capacity(dev->dm), used = devmem_used(dev->dm);
    if (free_bytes)
        *free_bytes = (size_t)(cap - used);
    if (total_bytes)
        *total_bytes = (size_t)cap;
    return ok(dev);
}

/* ---- modules ------------------------------------------------------------------------- */

static int env_alloc(void *ud, uint64_t size, uint32_t align, uint64_t *addr)
{
    lockstep_device *dev = ud;
    return devmem_alloc_block(dev->dm, size, align, TAG_MODULE, addr);
}

static int env_free(void *ud, uint64_t addr)
{
    lockstep_device *dev = ud;
    return devmem_free_block(dev->dm, addr);
}

static int env_write(void *ud, uint64_t addr, const void *data, uint64_t n)
{
    lockstep_device *dev = ud;
    return devmem_write(dev->dm, addr, data, n);
}

/* A load that failed in the front end: its messages become the last error. */
static lockstep_status load_failed(lockstep_device *dev, diag *d)
{
    lockstep_status st = d->oom ? LOCKSTEP_ERROR_OUT_OF_MEMORY
                         : d->nunsupported == d->nerrors ? LOCKSTEP_ERROR_UNSUPPORTED_PTX
                                                         : LOCKSTEP_ERROR_INVALID_PTX;
    sb_clear(&dev->last_error);
    sb_append(&dev->last_error, sb_cstr(&d->text), d->text.len && d->text.s[d->text.len - 1] == '\n'
                                                       ? d->text.len - 1 : d->text.len);
    diag_free(d);
    return st;
}

/* The module around a lowered ir (which it takes, also on failure). */
static lockstep_status module_create(lockstep_device *dev, ir_module *ir, const char *filename,
                                     lockstep_module **out)
{
    exec_prepare(ir);
    lockstep_module *m = calloc(1, sizeof *m);
    size_t nk = 0;
    for (uint32_t i = 0; i < ir->nfuncs; i++)
        nk += ir->funcs[i].is_entry && ir->funcs[i].has_body;
    if (m) {
        m->dev = dev;
        m->ir = ir;
        m->filename = strdup(filename);
        m->kernels = calloc(nk ? nk : 1, sizeof *m->kernels);
        m->kernel_of = malloc((ir->nfuncs ? ir->nfuncs : 1) * sizeof *m->kernel_of);
    }
    if (!m || !m->filename || !m->kernels || !m->kernel_of || vec_push(&dev->mods, m)) {
        if (m) {
            free(m->filename);
            free(m->kernels);
            free(m->kernel_of);
            free(m);
        }
        for (uint32_t i = 0; i < ir->nvars; i++)
            if (ir->vars[i].space == SP_GLOBAL || ir->vars[i].space == SP_CONST)
                devmem_free_block(dev->dm, ir->vars[i].addr);
        ir_module_free(ir);
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "out of host memory loading %s", filename);
    }
    ir->filename = m->filename;
    for (uint32_t i = 0; i < ir->nfuncs; i++) {
        const ir_func *f = &ir->funcs[i];
        m->kernel_of[i] = UINT32_MAX;
        if (!f->is_entry || !f->has_body)
            continue;
        m->kernel_of[i] = (uint32_t)m->nkernels;
        lockstep_kernel *k = &m->kernels[m->nkernels++];
        k->mod = m;
        k->func = i;
        k->params = calloc(f->nparams ? f->nparams : 1, sizeof *k->params);
        if (!k->params) {
            lockstep_module_unload(m);
            return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "out of host memory loading %s", filename);
        }
        for (uint32_t p = 0; p < f->nparams; p++) {
            k->params[p].offset = f->params[p].offset;
            k->params[p].size = f->params[p].size;
            k->params[p].align = f->params[p].align;
        }
    }
    *out = m;
    return ok(dev);
}

lockstep_status lockstep_module_load_ptx(lockstep_device *dev, const char *text, size_t len,
                                         const char *filename, lockstep_module **out)
{
    if (!dev || !out || (!text && len))
        return LOCKSTEP_ERROR_INVALID_VALUE;
    *out = NULL;
    if (!filename)
        filename = "<ptx>";
    diag d;
    diag_init(&d, filename);
    ast_module am;
    ir_module *ir = NULL;
    lower_env env = {dev, env_alloc, env_free, env_write};
    int rc = ptx_parse(text ? text : "", len, filename, &am, &d);
    if (!rc)
        rc = ptx_lower(&am, &env, &d, &ir);
    ast_module_free(&am);
    if (rc)
        return load_failed(dev, &d);
    diag_free(&d);
    return module_create(dev, ir, filename, out);
}

lockstep_status lockstep_module_load_ptx_linked(lockstep_device *dev, size_t n,
                                                const char *const texts[], const size_t lens[],
                                                const char *const names[], lockstep_module **out)
{
    if (!dev || !out || !n || !texts || n > 65535)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    *out = NULL;
    for (size_t i = 0; i < n; i++)
        if (!texts[i] && (!lens || lens[i]))
            return LOCKSTEP_ERROR_INVALID_VALUE;
    ptx_link_unit *u = calloc(n, sizeof *u);
    char **dflt = calloc(n, sizeof *dflt);
    strbuf whole = STRBUF_INIT; /* the module's name: its texts' names joined by '+' */
    lockstep_status st;
    if (!u || !dflt)
        goto oom;
    for (size_t i = 0; i < n; i++) {
        u[i].text = texts[i] ? texts[i] : "";
        u[i].len = lens ? lens[i] : strlen(u[i].text);
        u[i].name = names ? names[i] : NULL;
        if (!u[i].name) {
            char b[32];
            snprintf(b, sizeof b, "<ptx%zu>", i);
            if (!(dflt[i] = strdup(b)))
                goto oom;
            u[i].name = dflt[i];
        }
        if (whole.len < 200)
            sb_printf(&whole, "%s%s", i ? "+" : "", u[i].name);
        else if (i == n - 1)
            sb_printf(&whole, "+...+%s (%zu texts)", u[i].name, n);
    }
    if (whole.oom)
        goto oom;
    diag d;
    diag_init(&d, sb_cstr(&whole));
    ir_module *ir = NULL;
    lower_env env = {dev, env_alloc, env_free, env_write};
    if (ptx_link(u, n, &env, &d, &ir)) {
        st = load_failed(dev, &d);
        goto done;
    }
    diag_free(&d);
    st = module_create(dev, ir, sb_cstr(&whole), out);
    goto done;
oom:
    st = fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "out of host memory linking %zu PTX texts", n);
done:
    if (dflt)
        for (size_t i = 0; i < n; i++)
            free(dflt[i]);
    free(dflt);
    free(u);
    sb_free(&whole);
    return st;
}

lockstep_status lockstep_module_load_file(lockstep_device *dev, const char *path,
                                          lockstep_module **out)
{
    if (!dev || !path || !out)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    strbuf text = STRBUF_INIT;
    int rc = sb_read_file(&text, path, SB_MAX_PTX);
    if (rc) {
        int err = errno;
        sb_free(&text);
        if (rc == -2)
            return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", path);
        if (rc == -3)
            return fail(dev, LOCKSTEP_ERROR_INVALID_PTX, "%s: more than %u MiB: too large for a "
                        "PTX module", path, SB_MAX_PTX >> 20);
        return fail(dev, LOCKSTEP_ERROR_IO, "%s: cannot open: %s", path, strerror(err));
    }
    lockstep_status st = lockstep_module_load_ptx(dev, sb_cstr(&text), text.len, path, out);
    sb_free(&text);
    return st;
}

void lockstep_module_unload(lockstep_module *m)
{
    if (!m)
        return;
    lockstep_device *dev = m->dev;
    for (size_t i = 0; i < dev->mods.n; i++)
        if (dev->mods.v[i] == m) {
            memmove(&dev->mods.v[i], &dev->mods.v[i + 1], (dev->mods.n - i - 1) * sizeof(m));
            dev->mods.n--;
            break;
        }
    ir_module *ir = m->ir;
    for (uint32_t i = 0; i < ir->nvars; i++)
        if (ir->vars[i].space == SP_GLOBAL || ir->vars[i].space == SP_CONST)
            devmem_free_block(dev->dm, ir->vars[i].addr);
    for (size_t i = 0; i < m->nkernels; i++)
        free(m->kernels[i].params);
    free(m->kernels);
    free(m->kernel_of);
    ir->filename = NULL;
    ir_module_free(ir);
    free(m->filename);
    free(m);
}

lockstep_status lockstep_module_get_kernel(lockstep_module *mod, const char *name,
                                           lockstep_kernel **out)
{
    if (!mod || !name || !out)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < mod->nkernels; i++)
        if (!strcmp(mod->ir->funcs[mod->kernels[i].func].name, name)) {
            *out = &mod->kernels[i];
            return ok(mod->dev);
        }
    *out = NULL;
    return fail(mod->dev, LOCKSTEP_ERROR_NOT_FOUND, "no kernel named '%s' in %s", name,
                mod->filename);
}

size_t lockstep_module_kernel_count(const lockstep_module *mod) { return mod ? mod->nkernels : 0; }

lockstep_kernel *lockstep_module_kernel_at(lockstep_module *mod, size_t i)
{
    return mod && i < mod->nkernels ? &mod->kernels[i] : NULL;
}

lockstep_status lockstep_module_get_symbol(lockstep_module *mod, const char *name,
                                           lockstep_dptr *addr, size_t *bytes)
{
    if (!mod || !name)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    const ir_module *ir = mod->ir;
    for (uint32_t i = 0; i < ir->nvars; i++) {
        const ir_var *v = &ir->vars[i];
        if ((v->space == SP_GLOBAL || v->space == SP_CONST) && !strcmp(v->name, name)) {
            if (addr)
                *addr = v->addr;
            if (bytes)
                *bytes = (size_t)v->size;
            return ok(mod->dev);
        }
    }
    return fail(mod->dev, LOCKSTEP_ERROR_NOT_FOUND, "no .global or .const variable named '%s' in %s",
                name, mod->filename);
}

/* The most shared memory a CTA may use: -lockstep_max_shared_per_cta, and
 * no more than its SM has (-gpgpu_shmem_size), in both modes. */
static uint32_t cta_shared(const lockstep_config *c)
{
    return c->max_cta_shared < c->shmem_size ? c->max_cta_shared : c->shmem_size;
}

/* The most shared memory a CTA may use once its kernel opts in. */
static uint32_t shared_optin(const lockstep_config *c)
{
    uint32_t lim = cta_shared(c);
    uint32_t optin = c->max_cta_shared_optin < c->shmem_size ? c->max_cta_shared_optin : c->shmem_size;
    return optin > lim ? optin : lim;
}

/* The most dynamic shared memory a launch of k may ask for. */
static uint32_t kernel_max_dyn_shared(const lockstep_kernel *k)
{
    if (k->max_dyn_set)
        return k->max_dyn_shared;
    uint32_t lim = cta_shared(k->mod->dev->cfg), st = k->mod->ir->funcs[k->func].shared_bytes;
    return lim > st ? lim - st : 0;
}

lockstep_status lockstep_kernel_get_info(const lockstep_kernel *k, lockstep_kernel_info *out)
{
    if (!k || !out)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    const ir_func *f = &k->mod->ir->funcs[k->func];
    memset(out, 0, sizeof *out);
    out->name = f->name;
    out->ptx_file = ir_func_ptx_file(k->mod->ir, f);
    out->ptx_line = f->ptx_line;
    out->num_params = f->nparams;
    out->params = k->params;
    out->param_bytes = f->param_bytes;
    out->num_regs = f->total_regs;
    out->num_pred_regs = f->npreds;
    out->static_shared_bytes = f->shared_bytes;
    out->local_bytes = f->frame_bytes + k->mod->ir->module_local_bytes;
    out->num_insts = f->total_insts;
    out->ptx_target = 0; /* "sm_90", "sm_90a", "compute_80": the number */
    const char *tg = k->mod->ir->target;
    if (tg && (!strncmp(tg, "sm_", 3) || !strncmp(tg, "compute_", 8)))
        for (tg = strchr(tg, '_') + 1; *tg >= '0' && *tg <= '9' && out->ptx_target < 100000; tg++)
            out->ptx_target = out->ptx_target * 10 + (uint32_t)(*tg - '0');
    memcpy(out->maxntid, f->maxntid, sizeof out->maxntid);
    memcpy(out->reqntid, f->reqntid, sizeof out->reqntid);
    out->minnctapersm = f->minnctapersm;
    out->uses_dynamic_shared = f->uses_dyn_shared;
    out->max_dynamic_shared_bytes = kernel_max_dyn_shared(k);
    return LOCKSTEP_SUCCESS;
}

lockstep_status lockstep_kernel_set_max_dynamic_shared(lockstep_kernel *k, uint32_t bytes)
{
    if (!k)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    lockstep_device *dev = k->mod->dev;
    const ir_func *f = &k->mod->ir->funcs[k->func];
    uint32_t optin = shared_optin(dev->cfg);
    if ((uint64_t)f->dyn_shared_off + bytes > optin)
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE,
                    "kernel '%s': %u bytes of dynamic shared memory and its %u static exceed the %u a "
                    "CTA may opt in to (-lockstep_max_shared_per_cta_optin, at most "
                    "-gpgpu_shmem_size)",
                    f->name, bytes, f->shared_bytes, optin);
    k->max_dyn_shared = bytes;
    k->max_dyn_set = 1;
    return LOCKSTEP_SUCCESS;
}

/* ---- launches ------------------------------------------------------------------------ */

static int heap_malloc(void *ud, uint64_t size, uint64_t *addr)
{
    lockstep_device *dev = ud;
    uint64_t rounded = align_up64(size, 256);
    if (dev->heap_used + rounded > dev->cfg->heap_size)
        return -1;
    if (devmem_alloc_block(dev->dm, size, 256, TAG_HEAP, addr))
        return -1;
    dev->heap_used += rounded;
    return 0;
}

static int heap_free(void *ud, uint64_t addr)
{
    lockstep_device *dev = ud;
    uint32_t hint = 0;
    const devmem_alloc *a = devmem_find(dev->dm, addr, 1, &hint);
    if (!a || a->base != addr || a->tag != TAG_HEAP)
        return -1;
    dev->heap_used -= align_up64(a->size, 256);
    return devmem_free_block(dev->dm, addr);
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static void record_fault(lockstep_device *dev, const exec_launch *L)
{
    free_fault(dev);
    const ir_module *m = L->mod;
    lockstep_fault_info *fi = &dev->fault;
    fi->status = L->fault;
    dev->fault_kernel = dup_or_null(L->kernel_name);
    dev->fault_msg = dup_or_null(sb_cstr(&L->fault_msg));
    fi->kernel = dev->fault_kernel;
    fi->message = dev->fault_msg;
    memcpy(fi->cta, L->fault_cta, sizeof fi->cta);
    memcpy(fi->thread, L->fault_tid, sizeof fi->thread);
    fi->warp = L->fault_warp;
    fi->lane = L->fault_lane;
    fi->pc = L->fault_pc;
    fi->address = L->fault_addr;
    fi->ptx_file = ir_pc_ptx_file(m, L->fault_pc);
    if (L->fault_pc < m->ncode) {
        const ir_srcpos *sp = &m->pos[L->fault_pc];
        dev->fault_function = dup_or_null(m->funcs[ir_func_of_pc(m, L->fault_pc)].name);
        fi->function = dev->fault_function;
        fi->ptx_line = sp->ptx_line;
        if (sp->src_file) {
            fi->src_file = m->files[sp->src_file - 1];
            fi->src_line = sp->src_line;
        }
    }
    sb_clear(&dev->last_error);
    sb_puts(&dev->last_error, sb_cstr(&L->fault_msg));
}

/* lockstep_mix is the public face of ir_mix: same classes, same order. */
#define X(e, s) _Static_assert((int)LOCKSTEP_MIX_##e == (int)MIX_##e, "lockstep_mix order: " #e);
IR_MIXES(X)
#undef X
_Static_assert((int)LOCKSTEP_MIX_COUNT == (int)MIX_COUNT, "lockstep_mix and ir_mix differ");

const char *lockstep_stall_name(lockstep_stall s) { return timing_stall_name(s); }

int lockstep_last_launch_sm_stalls(const lockstep_device *dev, uint32_t sm,
                                   uint64_t stall[LOCKSTEP_STALL_COUNT])
{
    if (!dev || !dev->tg || !dev->last_timing || sm >= dev->nsm_stall)
        return -1;
    memcpy(stall, dev->sm_stall + (size_t)sm * LOCKSTEP_STALL_COUNT,
           LOCKSTEP_STALL_COUNT * sizeof *stall);
    return 0;
}

lockstep_status lockstep_trace_finish(lockstep_device *dev)
{
    if (!dev)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (dev->tg && timing_trace_finish(dev->tg))
        return fail(dev, LOCKSTEP_ERROR_IO, "error writing the trace file %s",
                    dev->cfg->trace_file);
    return LOCKSTEP_SUCCESS;
}

/* Simulated time on the device's timing model (0 without one). */
uint64_t device_total_cycles(const lockstep_device *dev, double *core_mhz)
{
    if (!dev->tg) {
        *core_mhz = 0;
        return 0;
    }
    *core_mhz = timing_core_mhz(dev->tg);
    return timing_total_cycles(dev->tg);
}

const char *lockstep_mix_name(lockstep_mix m)
{
    return (unsigned)m < MIX_COUNT ? ir_mix_names[m] : NULL;
}

static uint32_t kernel_occupancy(const lockstep_config *cfg, const ir_func *f,
                                 uint32_t threads, uint64_t dynamic_shared)
{
    uint64_t shared = (uint64_t)f->dyn_shared_off + dynamic_shared;
    if (shared > UINT32_MAX)
        return 0;
    return config_cta_occupancy(cfg, threads,
                                config_occupancy_regs(cfg, f->total_regs ? f->total_regs
                                                                          : f->reg32_count),
                                (uint32_t)shared);
}

lockstep_status lockstep_kernel_occupancy(const lockstep_device *dev, const lockstep_kernel *k,
                                          uint32_t block_threads, uint32_t dynamic_shared_bytes,
                                          uint32_t *ctas_per_sm, uint32_t *num_sms)
{
    if (!dev || !k || k->mod->dev != dev || !ctas_per_sm)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    const ir_func *f = &k->mod->ir->funcs[k->func];
    *ctas_per_sm = block_threads ? kernel_occupancy(dev->cfg, f, block_threads, dynamic_shared_bytes) : 0;
    if (num_sms)
        *num_sms = dev->cfg->n_clusters * dev->cfg->cores_per_cluster;
    return LOCKSTEP_SUCCESS;
}

/* Release a launch's host state and its grid workspace. */
static void launch_release(lockstep_device *dev, exec_launch *L)
{
    if (L->grid_ws)
        devmem_free_block(dev->dm, L->grid_ws);
    exec_launch_release(L);
}

/* Bytes of local memory a thread of f needs (its frames, or its stack when
 * it recurses), after the module's own .local data. */
static uint64_t launch_local_bytes(const lockstep_config *cfg, const ir_module *m,
                                   const ir_func *f)
{
    uint32_t frame0 = (uint32_t)align_up64(m->module_local_bytes, 16);
    uint64_t local = f->recursive ? (uint64_t)frame0 + f->frame_bytes + cfg->stack_size
                                  : (uint64_t)frame0 + f->max_frame_depth_bytes;
    return align_up64(local, 16);
}

/* Can kernel k run with this shape on dev: the checks every launch makes,
 * from the host or from device code.  LOCKSTEP_SUCCESS, or the status with
 * the reason in msg. */
static lockstep_status check_shape(const lockstep_device *dev, const lockstep_kernel *k,
                                   lockstep_dim3 grid, lockstep_dim3 block,
                                   uint32_t dynamic_shared_bytes, char *msg, size_t msglen)
{
    const lockstep_config *cfg = dev->cfg;
    const ir_module *m = k->mod->ir;
    const ir_func *f = &m->funcs[k->func];
    if (!grid.x || !grid.y || !grid.z || grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535) {
        snprintf(msg, msglen,
                 "launch of '%s': grid (%u,%u,%u) is invalid (x 1..2^31-1, y and z 1..65535)",
                 f->name, grid.x, grid.y, grid.z);
        return LOCKSTEP_ERROR_INVALID_LAUNCH;
    }
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (!block.x || !block.y || !block.z || block.x > 1024 || block.y > 1024 || block.z > 64 ||
        threads > cfg->max_cta_threads) {
        snprintf(msg, msglen,
                 "launch of '%s': block (%u,%u,%u) is invalid (at most %u threads; x, y <= 1024, z <= 64)",
                 f->name, block.x, block.y, block.z, cfg->max_cta_threads);
        return LOCKSTEP_ERROR_INVALID_LAUNCH;
    }
    if (f->reqntid[0] && (block.x != f->reqntid[0] || block.y != f->reqntid[1] || block.z != f->reqntid[2])) {
        snprintf(msg, msglen, "launch of '%s': block (%u,%u,%u) differs from its .reqntid %u,%u,%u",
                 f->name, block.x, block.y, block.z, f->reqntid[0], f->reqntid[1], f->reqntid[2]);
        return LOCKSTEP_ERROR_INVALID_LAUNCH;
    }
    if (f->maxntid[0] && threads > (uint64_t)f->maxntid[0] * f->maxntid[1] * f->maxntid[2]) {
        snprintf(msg, msglen, "launch of '%s': %llu threads exceed its .maxntid %u,%u,%u", f->name,
                 (unsigned long long)threads, f->maxntid[0], f->maxntid[1], f->maxntid[2]);
        return LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES;
    }
    uint64_t shared = (uint64_t)f->dyn_shared_off + dynamic_shared_bytes;
    uint32_t max_dyn = kernel_max_dyn_shared(k);
    if (dynamic_shared_bytes > max_dyn || shared > shared_optin(cfg)) {
        snprintf(msg, msglen,
                 "launch of '%s': %u bytes of static and %u of dynamic shared memory exceed what "
                 "it may use: %u of dynamic (%u a CTA may use, %s; a kernel may opt in to up to "
                 "%u in all: CUDA's cudaFuncSetAttribute(kernel, "
                 "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes))",
                 f->name, f->shared_bytes, dynamic_shared_bytes, max_dyn, cta_shared(cfg),
                 cfg->shmem_size < cfg->max_cta_shared ? "all an SM has (-gpgpu_shmem_size)"
                                                       : "-lockstep_max_shared_per_cta",
                 shared_optin(cfg));
        return LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES;
    }
    uint64_t local = launch_local_bytes(cfg, m, f);
    if (local > cfg->max_local) {
        snprintf(msg, msglen,
                 "launch of '%s': %llu bytes of local memory per thread exceed -lockstep_max_local_per_thread %u",
                 f->name, (unsigned long long)local, cfg->max_local);
        return LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES;
    }
    return LOCKSTEP_SUCCESS;
}

/* Add one grid's counters into a launch's (the grids a launch's threads
 * launched from device code count in it). */
static void stats_add(lockstep_launch_stats *sum, const lockstep_launch_stats *st)
{
    sum->warp_insts += st->warp_insts;
    sum->thread_insts += st->thread_insts;
    sum->ctas += st->ctas;
    sum->threads += st->threads;
    sum->printf_dropped += st->printf_dropped;
    for (int m = 0; m < LOCKSTEP_MIX_COUNT; m++)
        sum->mix[m] += st->mix[m];
    if (!st->timing)
        return;
    uint64_t flushbuf = MAX(sum->t.dab_flushbuf_max, st->t.dab_flushbuf_max);
    uint64_t dmrlog = MAX(sum->t.dmr_log_entries_max, st->t.dmr_log_entries_max);
    sum->timing = 1;
    sum->t.cycles += st->t.cycles;
#define ADD_COUNTER(member, name, what) sum->t.member += st->t.member;
    LOCKSTEP_TIMING_COUNTERS(ADD_COUNTER)
#undef ADD_COUNTER
    sum->t.dab_flushbuf_max = flushbuf; /* maxima, not counts */
    sum->t.dmr_log_entries_max = dmrlog;
    sum->t.max_ctas_per_sm = MAX(sum->t.max_ctas_per_sm, st->t.max_ctas_per_sm);
    for (int k = 0; k < LOCKSTEP_STALL_COUNT; k++)
        sum->t.stall[k] += st->t.stall[k];
}

/* ---- dynamic parallelism: the device runtime's side in the device ---------------------- */

/* What the device runtime's calls of one grid reach (exec_cdp_ops.ud). */
typedef struct cdp_grid {
    lockstep_device *dev;
    lockstep_module *mod;
} cdp_grid;

static int cdp_buffer(void *ud, uint64_t size, uint32_t align, uint64_t *addr)
{
    cdp_grid *g = ud;
    return devmem_alloc_block(g->dev->dm, size, align, TAG_CDP, addr) ? -1 : 0;
}

static void cdp_buffer_free(void *ud, uint64_t addr)
{
    cdp_grid *g = ud;
    devmem_free_block(g->dev->dm, addr);
}

static lockstep_kernel *kernel_of_func(lockstep_module *m, uint32_t func)
{
    uint32_t i = func < m->ir->nfuncs ? m->kernel_of[func] : UINT32_MAX;
    return i < m->nkernels ? &m->kernels[i] : NULL;
}

static lockstep_status cdp_check(void *ud, uint32_t func, const uint32_t grid[3],
                                 const uint32_t block[3], uint32_t dyn_shared, char *msg,
                                 size_t msglen)
{
    cdp_grid *g = ud;
    lockstep_kernel *k = kernel_of_func(g->mod, func);
    if (!k) {
        snprintf(msg, msglen, "not a kernel");
        return LOCKSTEP_ERROR_INVALID_VALUE;
    }
    lockstep_dim3 lg = {grid[0], grid[1], grid[2]}, lb = {block[0], block[1], block[2]};
    lockstep_status st = check_shape(g->dev, k, lg, lb, dyn_shared, msg, msglen);
    if (st == LOCKSTEP_SUCCESS &&
        !kernel_occupancy(g->dev->cfg, &g->mod->ir->funcs[func], block[0] * block[1] * block[2],
                          dyn_shared)) {
        snprintf(msg, msglen, "a CTA does not fit on an SM");
        st = LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES;
    }
    return st;
}

/* Strings the device runtime hands to device code (cudaGetErrorString)
 * live in device memory, one copy of each, allocated at first use. */
static int cdp_string(void *ud, const char *s, uint64_t *addr)
{
    lockstep_device *dev = ((cdp_grid *)ud)->dev;
    for (size_t i = 0; i < dev->dr_strings.n; i++)
        if (!strcmp(dev->dr_strings.v[i].text, s)) {
            *addr = dev->dr_strings.v[i].addr;
            return 0;
        }
    size_t n = strlen(s) + 1;
    dr_string e = {s, 0};
    if (vec_reserve(&dev->dr_strings, dev->dr_strings.n + 1) ||
        devmem_alloc_block(dev->dm, n, 16, TAG_DEVRT, &e.addr))
        return -1;
    if (devmem_write(dev->dm, e.addr, s, n)) {
        devmem_free_block(dev->dm, e.addr);
        return -1;
    }
    dev->dr_strings.v[dev->dr_strings.n++] = e;
    *addr = e.addr;
    return 0;
}

static int cdp_attribute(void *ud, int attr, int *value)
{
    lockstep_device *dev = ((cdp_grid *)ud)->dev;
    if (!dev->dr_hooks.attribute)
        return -2;
    return dev->dr_hooks.attribute(dev->dr_hooks.ud, attr, value) ? -1 : 0;
}

static int cdp_func_attributes(void *ud, uint32_t func, uint8_t *out, uint32_t cap)
{
    cdp_grid *g = ud;
    lockstep_kernel *k = kernel_of_func(g->mod, func);
    if (!k || !g->dev->dr_hooks.func_attributes)
        return -1;
    return g->dev->dr_hooks.func_attributes(g->dev->dr_hooks.ud, k, out, cap);
}

static uint32_t cdp_occupancy(void *ud, uint32_t func, uint32_t block_threads, uint64_t dyn_shared)
{
    cdp_grid *g = ud;
    return kernel_occupancy(g->dev->cfg, &g->mod->ir->funcs[func], block_threads, dyn_shared);
}

void device_set_devrt_hooks(lockstep_device *dev, const device_devrt_hooks *hooks)
{
    if (hooks)
        dev->dr_hooks = *hooks;
    else
        memset(&dev->dr_hooks, 0, sizeof dev->dr_hooks);
}

/* Where a grid launched from device code came from, for its messages. */
typedef struct cdp_origin {
    const char *kernel;
    uint32_t cta[3], tid[3];
    uint32_t depth;
} cdp_origin;

static void linear_to_3d(uint64_t v, const uint32_t dim[3], uint32_t out[3])
{
    out[0] = (uint32_t)(v % dim[0]);
    out[1] = (uint32_t)(v / dim[0] % dim[1]);
    out[2] = (uint32_t)(v / dim[0] / dim[1]);
}

/* The order the device runs a grid's children in: first the work launched
 * into the NULL stream, named streams and the fire-and-forget stream, by
 * launching CTA, and within a CTA in the order its threads launched it;
 * then the tail launches, in the order they were made. */
static int child_order(const void *pa, const void *pb)
{
    const exec_child *a = *(const exec_child *const *)pa, *b = *(const exec_child *const *)pb;
    if (a->tail != b->tail)
        return a->tail < b->tail ? -1 : 1;
    if (!a->tail && a->cta != b->cta)
        return a->cta < b->cta ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* A device-side copy or fill whose memory is not there: the launch's fault. */
static lockstep_status copy_fault(lockstep_device *dev, const exec_child *ch,
                                  const cdp_origin *from, uint64_t bad, const char *which)
{
    free_fault(dev);
    strbuf msg = {0};
    sb_printf(&msg, "device-side %s of %llu row%s of %llu bytes ",
              ch->kind == EXEC_CHILD_COPY ? "cudaMemcpyAsync" : "cudaMemsetAsync",
              (unsigned long long)ch->height, ch->height == 1 ? "" : "s",
              (unsigned long long)ch->width);
    if (ch->kind == EXEC_CHILD_COPY)
        sb_printf(&msg, "to 0x%llx from 0x%llx", (unsigned long long)ch->dst,
                  (unsigned long long)ch->src);
    else
        sb_printf(&msg, "at 0x%llx", (unsigned long long)ch->dst);
    sb_printf(&msg,
              ": its %s (0x%llx) is not device memory [queued by kernel '%s', CTA (%u,%u,%u), "
              "thread (%u,%u,%u)]",
              which, (unsigned long long)bad, from->kernel, from->cta[0], from->cta[1],
              from->cta[2], from->tid[0], from->tid[1], from->tid[2]);
    dev->fault.status = LOCKSTEP_ERROR_ILLEGAL_ADDRESS;
    dev->fault_kernel = dup_or_null(from->kernel);
    dev->fault_msg = dup_or_null(sb_cstr(&msg));
    dev->fault.kernel = dev->fault_kernel;
    dev->fault.message = dev->fault_msg;
    memcpy(dev->fault.cta, from->cta, sizeof dev->fault.cta);
    memcpy(dev->fault.thread, from->tid, sizeof dev->fault.thread);
    dev->fault.pc = 0xffffffffu;
    dev->fault.address = bad;
    sb_clear(&dev->last_error);
    sb_puts(&dev->last_error, sb_cstr(&msg));
    sb_free(&msg);
    dev->pending = LOCKSTEP_ERROR_ILLEGAL_ADDRESS;
    return LOCKSTEP_ERROR_ILLEGAL_ADDRESS;
}

/* Run a device-side copy or fill, row by row, on device memory (between
 * grids, as a host copy runs). */
static lockstep_status run_copy(lockstep_device *dev, const exec_child *ch, const cdp_origin *from)
{
    for (uint64_t r = 0; r < ch->height; r++) {
        uint64_t dst = ch->dst + r * ch->dpitch, src = ch->src + r * ch->spitch;
        uint32_t hint = 0;
        if (!devmem_find(dev->dm, dst, ch->width, &hint))
            return copy_fault(dev, ch, from, dst, "destination");
        if (ch->kind == EXEC_CHILD_COPY && !devmem_find(dev->dm, src, ch->width, &hint))
            return copy_fault(dev, ch, from, src, "source");
        int rc = ch->kind == EXEC_CHILD_COPY
                     ? devmem_copy(dev->dm, dst, src, ch->width)
                     : devmem_fill(dev->dm, dst, (uint8_t)ch->value, ch->width);
        if (rc)
            return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "out of host memory");
    }
    return LOCKSTEP_SUCCESS;
}

static lockstep_status run_grid(lockstep_device *dev, const lockstep_kernel *k, lockstep_dim3 grid,
                                lockstep_dim3 block, uint32_t dynamic_shared_bytes,
                                const void *params, size_t params_bytes, int cooperative,
                                const cdp_origin *from, lockstep_launch_stats *acc);

/* Run what grid `parent` (of kernel pk, shape pgrid x pblock, at depth
 * `depth`) handed to the device, in child_order, each grid with its own
 * children before the next; the first that fails ends it (the rest are
 * dropped). */
static lockstep_status run_children(lockstep_device *dev, lockstep_module *mod, exec_cdp *cdp,
                                    const char *pk, const uint32_t pgrid[3],
                                    const uint32_t pblock[3], uint32_t depth,
                                    lockstep_launch_stats *acc)
{
    size_t n = cdp->children.n;
    const exec_child **order = malloc(n * sizeof *order);
    if (!order) {
        for (size_t i = 0; i < n; i++)
            if (cdp->children.v[i].kind == EXEC_CHILD_GRID)
                devmem_free_block(dev->dm, cdp->children.v[i].params);
        dev->cdp_pending -= n;
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "out of host memory");
    }
    for (size_t i = 0; i < n; i++)
        order[i] = &cdp->children.v[i];
    qsort(order, n, sizeof *order, child_order);
    lockstep_status st = LOCKSTEP_SUCCESS;
    size_t i = 0;
    for (; i < n && st == LOCKSTEP_SUCCESS; i++) {
        const exec_child *ch = order[i];
        cdp_origin from = {pk, {0}, {0}, depth + 1};
        linear_to_3d(ch->cta, pgrid, from.cta);
        linear_to_3d(ch->tid, pblock, from.tid);
        dev->cdp_pending--;
        if (ch->kind != EXEC_CHILD_GRID) {
            st = run_copy(dev, ch, &from);
            continue;
        }
        lockstep_kernel *kk = kernel_of_func(mod, ch->func);
        uint32_t nbytes = mod->ir->funcs[ch->func].param_bytes;
        uint8_t small[256];
        uint8_t *buf = nbytes <= sizeof small ? small : malloc(nbytes);
        if (!kk || !buf || devmem_read(dev->dm, ch->params, buf, nbytes)) {
            devmem_free_block(dev->dm, ch->params);
            if (buf != small)
                free(buf);
            st = fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "out of host memory");
            continue;
        }
        devmem_free_block(dev->dm, ch->params); /* the arguments are the child's now */
        lockstep_dim3 g = {ch->grid[0], ch->grid[1], ch->grid[2]};
        lockstep_dim3 b = {ch->block[0], ch->block[1], ch->block[2]};
        acc->device_launches++;
        st = run_grid(dev, kk, g, b, ch->dyn_shared, buf, nbytes, 0, &from, acc);
        if (buf != small)
            free(buf);
    }
    for (; i < n; i++) { /* dropped: a grid before them failed */
        if (order[i]->kind == EXEC_CHILD_GRID)
            devmem_free_block(dev->dm, order[i]->params);
        dev->cdp_pending--;
    }
    free(order);
    return st;
}

/* Run one grid of kernel k, checked, on the device's model, then what its
 * threads launched from device code (from: NULL for the host's launch).
 * Its counters are added to *acc; a fault is recorded as the device's. */
static lockstep_status run_grid(lockstep_device *dev, const lockstep_kernel *k, lockstep_dim3 grid,
                                lockstep_dim3 block, uint32_t dynamic_shared_bytes,
                                const void *params, size_t params_bytes, int cooperative,
                                const cdp_origin *from, lockstep_launch_stats *acc)
{
    const lockstep_config *cfg = dev->cfg;
    const ir_module *m = k->mod->ir;
    const ir_func *f = &m->funcs[k->func];
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    uint32_t frame0 = (uint32_t)align_up64(m->module_local_bytes, 16);
    uint64_t nctas = (uint64_t)grid.x * grid.y * grid.z;

    exec_launch L;
    memset(&L, 0, sizeof L);
    L.mod = m;
    L.kernel = k->func;
    L.kernel_name = f->name;
    L.dm = dev->dm;
    L.dev = (exec_device_ops){dev, heap_malloc, heap_free};
    L.opt.max_warp_insts = cfg->max_warp_insts;
    L.opt.stack_bytes = cfg->stack_size;
    L.opt.resident_ctas = cfg->resident_ctas;
    L.opt.slice = cfg->warp_slice;
    L.opt.num_sms = cfg->n_clusters * cfg->cores_per_cluster;
    L.opt.warps_per_sm = config_threads_per_sm(cfg) / WARP_SIZE;
    L.opt.shared_per_sm = cfg->shmem_size;
    L.opt.gridid = ++dev->gridid;
    L.opt.its_yield = cfg->its ? cfg->its_yield : 0;
    L.opt.max_cycles = cfg->max_cycles;
    uint64_t prog_launches;
    rel_inject_totals(dev->inj, &L.opt.program_cycles, &L.opt.program_insts, &prog_launches);
    L.opt.max_program_cycles = cfg->max_program_cycles;
    L.opt.max_program_insts = cfg->max_program_insts;
    L.opt.timeout_ns = cfg->timeout_s > UINT64_MAX / 1000000000u ? 0 : cfg->timeout_s * 1000000000u;
    L.opt.stop = &dev->stop;
    L.params = params;
    L.param_bytes = (uint32_t)params_bytes;
    L.grid[0] = grid.x;
    L.grid[1] = grid.y;
    L.grid[2] = grid.z;
    L.block[0] = block.x;
    L.block[1] = block.y;
    L.block[2] = block.z;
    L.nthreads = (uint32_t)threads;
    L.nwarps = (L.nthreads + WARP_SIZE - 1) / WARP_SIZE;
    L.shared_bytes = (uint32_t)((uint64_t)f->dyn_shared_off + dynamic_shared_bytes);
    L.dyn_shared = dynamic_shared_bytes;
    L.local_bytes = (uint32_t)launch_local_bytes(cfg, m, f);
    L.frame0 = frame0;
    L.tex = dev->tex.v;
    L.ntex = (uint32_t)dev->tex.n;
    /* the device runtime: what the grid's threads launch from device code */
    cdp_grid cg = {dev, k->mod};
    const exec_cdp_ops ops = {&cg,         cdp_buffer,          cdp_buffer_free, cdp_check,
                              cdp_string,  cdp_attribute,       cdp_func_attributes,
                              cdp_occupancy};
    exec_cdp cdp;
    memset(&cdp, 0, sizeof cdp);
    cdp.ops = &ops;
    cdp.depth = from ? from->depth : 0;
    cdp.max_depth = cfg->cdp_max_depth;
    cdp.pending = &dev->cdp_pending;
    cdp.pending_limit = cfg->cdp_pending;
    cdp.limits[0] = cfg->stack_size;
    cdp.limits[1] = cfg->printf_fifo;
    cdp.limits[2] = cfg->heap_size;
    cdp.limits[3] = cfg->cdp_sync_depth;
    cdp.limits[4] = cfg->cdp_pending;
    if (!strcmp(cfg->redundancy, "dmr"))
        cdp.refused = "under -lockstep_redundancy dmr (both copies of the CTA would launch it)";
    L.cdp = &cdp;
    if (cooperative) {
        /* every CTA resident (the co-residency check above holds in timing
         * mode; functional mode gets a slot per CTA) and a zeroed workspace */
        if (nctas > L.opt.resident_ctas)
            L.opt.resident_ctas = (uint32_t)nctas;
        int rc = devmem_alloc_block(dev->dm, 8, 256, TAG_GRID_WS, &L.grid_ws);
        if (rc)
            return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY,
                        "cooperative launch of '%s': no device memory for the grid workspace",
                        f->name);
        static const uint8_t zero[8];
        devmem_write(dev->dm, L.grid_ws, zero, sizeof zero);
    }
    L.printf_out = &dev->printf_pending;
    L.chain = dev->chain;
    L.nchain = dev->nchain;
    L.hooks = dev->hooks;
    L.trap = dev->hooks ? dev->trap : 0;
    L.printf_limit = cfg->printf_fifo;
    L.pool = &dev->pool;
    L.shref_val = calloc(m->nshrefs ? m->nshrefs : 1, sizeof *L.shref_val);
    if (!L.shref_val) {
        launch_release(dev, &L);
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "out of host memory");
    }
    for (uint32_t i = 0; i < m->nshrefs; i++) {
        uint32_t off = f->shared_off[m->shrefs[i].var];
        /* a variable this kernel cannot reach lies beyond its shared memory */
        L.shref_val[i] = (off == UINT32_MAX ? (uint64_t)1 << 32 : off) + (uint64_t)m->shrefs[i].off;
    }
    lockstep_status st;
    lockstep_timing_stats ts;
    int timing = !strcmp(cfg->mode, "timing");
    if (!timing && strcmp(cfg->trace_file, "none")) {
        launch_release(dev, &L);
        return fail(dev, LOCKSTEP_ERROR_INVALID_CONFIG,
                    "launch of '%s': -lockstep_trace traces the timing model; it needs "
                    "-lockstep_mode timing",
                    f->name);
    }
    if (timing && !dev->tg) {
        char err[300];
        int oom;
        if (!(dev->tg = timing_gpu_create(cfg, &oom, err, sizeof err))) {
            launch_release(dev, &L);
            return fail(dev, oom ? LOCKSTEP_ERROR_OUT_OF_MEMORY : LOCKSTEP_ERROR_INVALID_CONFIG,
                        "launch of '%s': %s", f->name, err);
        }
    }
    dev->last_timing = timing;
    rel_inject_launch_begin(dev->inj, &L, timing);
    rel_ace_launch_begin(dev->ace, &L, timing);
    if (timing)
        st = timing_run(dev->tg, &L, &ts);
    else
        st = exec_run(&L);
    rel_inject_launch_end(dev->inj, &L, timing ? ts.cycles : 0, timing ? ts.dmr_mismatches : 0,
                          timing ? ts.dmr_reissues : 0);
    rel_ace_launch_end(dev->ace, &L, timing ? ts.cycles : 0);
    lockstep_launch_stats one;
    memset(&one, 0, sizeof one);
    if (timing) {
        one.timing = 1;
        one.t = ts;
        uint64_t s1[LOCKSTEP_STALL_COUNT];
        for (uint32_t s = 0; s < dev->nsm_stall && !timing_sm_stalls(dev->tg, s, s1); s++)
            for (int r = 0; r < LOCKSTEP_STALL_COUNT; r++)
                dev->sm_stall[(size_t)s * LOCKSTEP_STALL_COUNT + r] += s1[r];
    }
    one.warp_insts = L.warp_insts;
    one.thread_insts = L.thread_insts;
    memcpy(one.mix, L.mix, sizeof one.mix);
    one.ctas = nctas;
    one.threads = nctas * threads;
    one.printf_dropped = L.printf_dropped;
    stats_add(acc, &one);
    if (st != LOCKSTEP_SUCCESS) {
        if (from && L.fault != LOCKSTEP_SUCCESS)
            sb_printf(&L.fault_msg,
                      " [a grid launched from device code by kernel '%s', CTA (%u,%u,%u), "
                      "thread (%u,%u,%u), at nesting depth %u]",
                      from->kernel, from->cta[0], from->cta[1], from->cta[2], from->tid[0],
                      from->tid[1], from->tid[2], from->depth);
        record_fault(dev, &L);
        dev->pending = st;
    }
    launch_release(dev, &L);
    /* parameter buffers handed out but never launched */
    for (size_t i = 0; i < cdp.bufs.n; i++) {
        devmem_free_block(dev->dm, cdp.bufs.v[i].addr);
        dev->cdp_pending--;
    }
    if (st == LOCKSTEP_SUCCESS && cdp.children.n)
        st = run_children(dev, k->mod, &cdp, f->name, L.grid, L.block, cdp.depth, acc);
    else
        for (size_t i = 0; i < cdp.children.n; i++) {
            if (cdp.children.v[i].kind == EXEC_CHILD_GRID)
                devmem_free_block(dev->dm, cdp.children.v[i].params);
            dev->cdp_pending--;
        }
    exec_cdp_release(&cdp);
    return st;
}

/* Does the module call this built-in anywhere? */
static int module_calls(const ir_module *m, int builtin)
{
    for (uint32_t pc = 0; pc < m->ncode; pc++)
        if ((m->code[pc].flags & IRF_BUILTIN) && m->code[pc].aux < m->ncalls &&
            m->calls[m->code[pc].aux].callee == (uint32_t)builtin)
            return 1;
    return 0;
}

static lockstep_status launch(lockstep_device *dev, const lockstep_kernel *k, lockstep_dim3 grid,
                              lockstep_dim3 block, uint32_t dynamic_shared_bytes,
                              const void *params, size_t params_bytes,
                              lockstep_launch_stats *stats, int cooperative)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!dev)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (!k || k->mod->dev != dev)
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE, "lockstep_launch: kernel is not from this device");
    const lockstep_config *cfg = dev->cfg;
    const ir_func *f = &k->mod->ir->funcs[k->func];
    char msg[512];
    lockstep_status st = check_shape(dev, k, grid, block, dynamic_shared_bytes, msg, sizeof msg);
    if (st != LOCKSTEP_SUCCESS)
        return fail(dev, st, "%s", msg);
    if (params_bytes != f->param_bytes || (!params && params_bytes))
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE,
                    "launch of '%s': %zu bytes of parameters given, the kernel takes %u", f->name,
                    params_bytes, f->param_bytes);
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    uint64_t nctas = (uint64_t)grid.x * grid.y * grid.z;
    uint32_t nsms = cfg->n_clusters * cfg->cores_per_cluster;
    if (cooperative && !strcmp(cfg->redundancy, "dmr"))
        return fail(dev, LOCKSTEP_ERROR_INVALID_LAUNCH,
                    "cooperative launch of '%s' under -lockstep_redundancy dmr: a grid "
                    "synchronisation cannot complete while each CTA's writes wait in the DMR "
                    "comparator until its pair finishes",
                    f->name);
    if (cooperative) {
        uint32_t occ = kernel_occupancy(cfg, f, (uint32_t)threads, dynamic_shared_bytes);
        if (nctas > (uint64_t)occ * nsms)
            return fail(dev, LOCKSTEP_ERROR_INVALID_LAUNCH,
                        "cooperative launch of '%s': %llu CTAs cannot all be resident at once: "
                        "%u SMs hold %u CTAs of %llu threads each",
                        f->name, (unsigned long long)nctas, nsms, occ,
                        (unsigned long long)threads);
    }
    atomic_store(&dev->stop, 0);
    /* as on a GPU, the heap and the printf FIFO are set up for a module
     * that uses them when its kernel is first launched; then their sizes
     * are fixed until a reset (device_set_option) */
    const ir_module *m = k->mod->ir;
    if (!dev->heap_fixed && (module_calls(m, BI_MALLOC) || module_calls(m, BI_FREE)))
        dev->heap_fixed = 1;
    if (!dev->fifo_fixed && module_calls(m, BI_VPRINTF))
        dev->fifo_fixed = 1;
    /* the per-SM stall breakdown covers the launch's grids, device-launched ones too */
    uint32_t want = cfg->n_clusters * cfg->cores_per_cluster;
    if (dev->nsm_stall != want) {
        uint64_t *v = realloc(dev->sm_stall, (size_t)want * LOCKSTEP_STALL_COUNT * sizeof *v);
        if (!v && want)
            return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "out of host memory");
        dev->sm_stall = v;
        dev->nsm_stall = want;
    }
    memset(dev->sm_stall, 0, (size_t)dev->nsm_stall * LOCKSTEP_STALL_COUNT * sizeof *dev->sm_stall);
    dev->cdp_pending = 0;
    lockstep_launch_stats acc;
    memset(&acc, 0, sizeof acc);
    st = run_grid(dev, k, grid, block, dynamic_shared_bytes, params, params_bytes, cooperative,
                  NULL, &acc);
    if (stats)
        *stats = acc;
    if (st == LOCKSTEP_SUCCESS)
        sb_clear(&dev->last_error);
    return st;
}

lockstep_status lockstep_launch(lockstep_device *dev, const lockstep_kernel *k,
                                lockstep_dim3 grid, lockstep_dim3 block,
                                uint32_t dynamic_shared_bytes, const void *params,
                                size_t params_bytes, lockstep_launch_stats *stats)
{
    return launch(dev, k, grid, block, dynamic_shared_bytes, params, params_bytes, stats, 0);
}

static lockstep_status launch_args(lockstep_device *dev, const lockstep_kernel *k,
                                   lockstep_dim3 grid, lockstep_dim3 block,
                                   uint32_t dynamic_shared_bytes, void *const *args,
                                   lockstep_launch_stats *stats, int cooperative)
{
    if (stats) /* a launch refused here reports zeros, as launch() does */
        memset(stats, 0, sizeof *stats);
    if (!dev)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    if (!k || k->mod->dev != dev)
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE, "lockstep_launch_args: kernel is not from this device");
    const ir_func *f = &k->mod->ir->funcs[k->func];
    if (f->nparams && !args)
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE, "launch of '%s': no arguments given for %u parameters",
                    f->name, f->nparams);
    uint8_t small[4096];
    uint8_t *buf = f->param_bytes <= sizeof small ? small : calloc(1, f->param_bytes);
    if (!buf)
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "out of host memory");
    memset(buf, 0, f->param_bytes <= sizeof small ? sizeof small : 0);
    for (uint32_t i = 0; i < f->nparams; i++) {
        if (!args[i]) {
            if (buf != small)
                free(buf);
            return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE, "launch of '%s': argument %u is NULL",
                        f->name, i);
        }
        memcpy(buf + k->params[i].offset, args[i], k->params[i].size);
    }
    lockstep_status st = launch(dev, k, grid, block, dynamic_shared_bytes, buf, f->param_bytes,
                                stats, cooperative);
    if (buf != small)
        free(buf);
    return st;
}

lockstep_status lockstep_launch_args(lockstep_device *dev, const lockstep_kernel *k,
                                     lockstep_dim3 grid, lockstep_dim3 block,
                                     uint32_t dynamic_shared_bytes, void *const *args,
                                     lockstep_launch_stats *stats)
{
    return launch_args(dev, k, grid, block, dynamic_shared_bytes, args, stats, 0);
}

lockstep_status lockstep_launch_cooperative(lockstep_device *dev, const lockstep_kernel *k,
                                            lockstep_dim3 grid, lockstep_dim3 block,
                                            uint32_t dynamic_shared_bytes, void *const *args,
                                            lockstep_launch_stats *stats)
{
    return launch_args(dev, k, grid, block, dynamic_shared_bytes, args, stats, 1);
}

lockstep_status lockstep_synchronize(lockstep_device *dev)
{
    if (!dev)
        return LOCKSTEP_ERROR_INVALID_VALUE;
    deliver_printf(dev);
    lockstep_status st = dev->pending;
    dev->pending = LOCKSTEP_SUCCESS;
    return st;
}

size_t lockstep_fault_report(const lockstep_device *dev, char *buf, size_t size)
{
    if (!dev || !dev->inj) {
        if (buf && size)
            buf[0] = 0;
        return 0;
    }
    strbuf sb = STRBUF_INIT;
    rel_inject_report_json(dev->inj, &sb);
    size_t n = sb.len;
    if (buf && size) {
        size_t k = n < size - 1 ? n : size - 1;
        memcpy(buf, sb_cstr(&sb), k);
        buf[k] = 0;
    }
    sb_free(&sb);
    return n;
}

size_t lockstep_ace_report(const lockstep_device *dev, int text, char *buf, size_t size)
{
    if (!dev || !dev->ace || !dev->cfg->ace) {
        if (buf && size)
            buf[0] = 0;
        return 0;
    }
    strbuf sb = STRBUF_INIT;
    if (text)
        rel_ace_report_text(dev->ace, &sb);
    else
        rel_ace_report_json(dev->ace, &sb);
    size_t n = sb.len;
    if (buf && size) {
        size_t k = n < size - 1 ? n : size - 1;
        memcpy(buf, sb_cstr(&sb), k);
        buf[k] = 0;
    }
    sb_free(&sb);
    return n;
}

void lockstep_device_last_fault(const lockstep_device *dev, lockstep_fault_info *out)
{
    if (!out)
        return;
    if (!dev) {
        memset(out, 0, sizeof *out);
        return;
    }
    *out = dev->fault;
}

/* ---- internal hooks (device_int.h) ------------------------------------------------- */

void device_get_shape(const lockstep_device *dev, device_shape *out)
{
    const lockstep_config *c = dev->cfg;
    out->sms = c->n_clusters * c->cores_per_cluster;
    out->threads_per_sm = config_threads_per_sm(c);
    out->max_cta_threads = c->max_cta_threads;
    out->max_cta_shared = cta_shared(c);
    out->max_cta_shared_optin = shared_optin(c);
    out->shmem_per_sm = c->shmem_size;
    out->ctas_per_sm = c->shader_cta;
    out->regs_per_sm = c->shader_registers;
    out->device_memory = c->device_memory;
    double mhz[4];
    config_clocks(c, mhz);
    out->core_khz = (uint32_t)(mhz[0] * 1000.0 + 0.5);
    out->dram_khz = (uint32_t)(mhz[3] * 1000.0 + 0.5);
    out->bus_bits = c->n_mem * c->dram_chips * c->dram_buswidth * 8;
    cache_config l2;
    char err[8];
    out->l2_bytes = cache_config_parse(c->cache_dl2, &l2, err, sizeof err)
                        ? 0
                        : (uint64_t)l2.nsets * l2.line_bytes * l2.assoc * c->n_mem;
}

lockstep_status device_set_option(lockstep_device *dev, const char *name, const char *value)
{
    int heap = !strcmp(name, "-lockstep_heap_size"), fifo = !strcmp(name, "-lockstep_printf_fifo");
    if ((heap && dev->heap_fixed) || (fifo && dev->fifo_fixed)) {
        char now[32];
        if (!lockstep_config_get(dev->cfg, name, now, sizeof now) && strcmp(now, value)) {
            /* (the same value again changes nothing, and passes) */
            return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE,
                        "%s is fixed at %s bytes once a kernel whose module calls %s has been "
                        "launched (until a device reset)",
                        name, now, heap ? "malloc() or free()" : "printf()");
        }
    }
    return lockstep_config_set(dev->cfg, name, value);
}

int device_next_user_allocation(const lockstep_device *dev, lockstep_dptr after,
                                lockstep_dptr *base, size_t *size)
{
    for (const devmem_alloc *a = devmem_next(dev->dm, after); a; a = devmem_next(dev->dm, a->base))
        if ((a->tag == TAG_USER || a->tag == TAG_GRAPH) && !a->host) {
            *base = a->base;
            *size = (size_t)a->size;
            return 0;
        }
    return -1;
}

lockstep_status device_va_reserve(lockstep_device *dev, size_t bytes, lockstep_dptr *addr)
{
    int rc = devmem_reserve(dev->dm, bytes, addr);
    if (rc == -2)
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY,
                    "reserving device addresses: out of host memory");
    if (rc)
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY,
                    "no free range of %zu bytes of device addresses to reserve", bytes);
    return ok(dev);
}

lockstep_status device_va_release(lockstep_device *dev, lockstep_dptr addr, size_t bytes)
{
    if (devmem_unreserve(dev->dm, addr, bytes))
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE,
                    "0x%llx is not a reserved range of %zu bytes with nothing mapped in it",
                    (unsigned long long)addr, bytes);
    return ok(dev);
}

lockstep_status device_va_map(lockstep_device *dev, lockstep_dptr addr, size_t bytes)
{
    int rc = devmem_map_reserved(dev->dm, addr, bytes, TAG_GRAPH);
    if (rc == -2)
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY, "mapping device memory: out of host memory");
    if (rc)
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE,
                    "[0x%llx, +%zu) is not inside a reserved range, or is mapped already",
                    (unsigned long long)addr, bytes);
    return ok(dev);
}

lockstep_status device_va_unmap(lockstep_device *dev, lockstep_dptr addr)
{
    if (devmem_unmap_reserved(dev->dm, addr))
        return fail(dev, LOCKSTEP_ERROR_INVALID_VALUE,
                    "0x%llx is not memory mapped in a reserved range", (unsigned long long)addr);
    return ok(dev);
}

lockstep_status device_mem_charge(lockstep_device *dev, size_t bytes)
{
    if (devmem_charge(dev->dm, bytes))
        return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY,
                    "cannot take %zu bytes of device memory (%llu of %llu bytes in use)", bytes,
                    (unsigned long long)devmem_used(dev->dm),
                    (unsigned long long)devmem_capacity(dev->dm));
    return ok(dev);
}

void device_mem_uncharge(lockstep_device *dev, size_t bytes) { devmem_uncharge(dev->dm, bytes); }

void *device_host_view(lockstep_device *dev, lockstep_dptr addr, size_t size)
{
    if (!size)
        return NULL;
    return devmem_alias(dev->dm, addr, size, TAG_ALIAS);
}

lockstep_status device_reset_module_vars(lockstep_device *dev)
{
    /* zeros first, initializers second: a variable another module declares
     * .extern shares its definer's bytes, whose initializer wins */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < dev->mods.n; i++) {
            const ir_module *m = dev->mods.v[i]->ir;
            for (uint32_t k = 0; m && k < m->nvars; k++) {
                const ir_var *v = &m->vars[k];
                if ((v->space != SP_GLOBAL && v->space != SP_CONST) || !v->size ||
                    (pass == 0) != (v->init == NULL))
                    continue;
                int rc = v->init ? devmem_write(dev->dm, v->addr, v->init, v->size)
                                 : devmem_fill(dev->dm, v->addr, 0, v->size);
                if (rc)
                    return fail(dev, LOCKSTEP_ERROR_OUT_OF_MEMORY,
                                "out of host memory restoring the module variable '%s'", v->name);
            }
        }
    return ok(dev);
}

void device_free_user_allocations(lockstep_device *dev)
{
    devmem_free_tagged(dev->dm, TAG_USER);
    devmem_free_tagged(dev->dm, TAG_HEAP);
    dev->heap_used = 0;
    dev->heap_fixed = dev->fifo_fixed = 0; /* a reset: the sizes may change again */
}
