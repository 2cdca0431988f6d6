/*
 * lockstep_cuda.c -- the part of include/lockstep.h the end-to-end drivers
 * use, implemented over the CUDA driver API, so the same drivers run on a
 * real GPU.  It exists to check the drivers themselves: when a driver passes
 * here, its CPU references agree with NVIDIA hardware, and a failure on
 * lockstep is lockstep's.  It is not part of the library or of `make test`
 * (the machines that run the tests have no GPU); tests/e2e/native/run.sh
 * builds and runs the drivers with it.
 *
 * What it does not model: instruction counts (launch stats carry only CTAs
 * and threads; e2e.h skips the rest under LOCKSTEP_E2E_NATIVE), fault
 * locations (only the status), and recovery after a fault (a CUDA context is
 * lost after one), so test_faults is not run natively.
 *
 * Device printf goes to the process's stdout; a launch redirects file
 * descriptor 1 into a temporary file around the kernel and synchronization,
 * and lockstep_synchronize() hands the captured text to the output callback.
 * Kernel parameter layouts come from parsing the .entry in the PTX text.
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lockstep.h"

struct lockstep_config {
    int unused;
};

struct lockstep_kernel {
    CUfunction fn;
    lockstep_kernel_info info;
    lockstep_param_info params[64];
    char name[256];
};

struct lockstep_module {
    lockstep_device *dev;
    CUmodule mod;
    char *text;
    lockstep_kernel kernels[64];
    size_t nkernels;
};

struct lockstep_device {
    CUcontext ctx;
    char err[1024];
    lockstep_output_fn out_fn;
    void *out_ud;
    char *pending;
    size_t pending_len;
    lockstep_status pending_status;
    lockstep_status fault_status;
    char fault_kernel[256];
};

static const char *const status_names[] = {
    "LOCKSTEP_SUCCESS", "LOCKSTEP_ERROR_INVALID_VALUE", "LOCKSTEP_ERROR_OUT_OF_MEMORY",
    "LOCKSTEP_ERROR_IO", "LOCKSTEP_ERROR_INVALID_PTX", "LOCKSTEP_ERROR_UNSUPPORTED_PTX",
    "LOCKSTEP_ERROR_NOT_FOUND", "LOCKSTEP_ERROR_INVALID_CONFIG", "LOCKSTEP_ERROR_INVALID_LAUNCH",
    "LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES", "LOCKSTEP_ERROR_ILLEGAL_ADDRESS",
    "LOCKSTEP_ERROR_MISALIGNED_ADDRESS", "LOCKSTEP_ERROR_BARRIER_DEADLOCK",
    "LOCKSTEP_ERROR_INSN_LIMIT", "LOCKSTEP_ERROR_STACK_OVERFLOW", "LOCKSTEP_ERROR_TRAP",
    "LOCKSTEP_ERROR_ASSERT", "LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION", "LOCKSTEP_ERROR_LAUNCH_TIMEOUT",
    "LOCKSTEP_ERROR_INTERRUPTED", "LOCKSTEP_ERROR_REDUNDANCY",
};

const char *lockstep_version(void) { return "native"; }

const char *lockstep_status_name(lockstep_status s)
{
    return (unsigned)s < LOCKSTEP_STATUS_COUNT ? status_names[s] : "?";
}

const char *lockstep_status_string(lockstep_status s) { return lockstep_status_name(s); }

lockstep_status lockstep_config_create(lockstep_config **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? LOCKSTEP_SUCCESS : LOCKSTEP_ERROR_OUT_OF_MEMORY;
}

void lockstep_config_destroy(lockstep_config *cfg) { free(cfg); }

lockstep_status lockstep_config_set(lockstep_config *cfg, const char *name, const char *value)
{
    (void)cfg;
    (void)name;
    (void)value;
    return LOCKSTEP_SUCCESS;
}

const char *lockstep_config_last_error(const lockstep_config *cfg)
{
    (void)cfg;
    return "";
}

static lockstep_status map(lockstep_device *dev, CUresult r, const char *what)
{
    if (r == CUDA_SUCCESS)
        return LOCKSTEP_SUCCESS;
    const char *s = "?";
    cuGetErrorName(r, &s);
    if (dev)
        snprintf(dev->err, sizeof dev->err, "%s: %s", what, s);
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
        return LOCKSTEP_ERROR_ILLEGAL_ADDRESS;
    case CUDA_ERROR_MISALIGNED_ADDRESS:
        return LOCKSTEP_ERROR_MISALIGNED_ADDRESS;
    case CUDA_ERROR_ASSERT:
        return LOCKSTEP_ERROR_ASSERT;
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
        return LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION;
    case CUDA_ERROR_LAUNCH_FAILED:
        return LOCKSTEP_ERROR_TRAP;
    case CUDA_ERROR_NOT_FOUND:
        return LOCKSTEP_ERROR_NOT_FOUND;
    case CUDA_ERROR_INVALID_PTX:
        return LOCKSTEP_ERROR_INVALID_PTX;
    case CUDA_ERROR_OUT_OF_MEMORY:
        return LOCKSTEP_ERROR_OUT_OF_MEMORY;
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
        return LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES;
    default:
        return LOCKSTEP_ERROR_INVALID_VALUE;
    }
}

lockstep_status lockstep_device_create(const lockstep_config *cfg, lockstep_device **out)
{
    (void)cfg;
    CUdevice d;
    lockstep_device *dev = calloc(1, sizeof *dev);
    if (!dev)
        return LOCKSTEP_ERROR_OUT_OF_MEMORY;
    lockstep_status s = map(dev, cuInit(0), "cuInit");
    if (!s)
        s = map(dev, cuDeviceGet(&d, 0), "cuDeviceGet");
    if (!s)
        s = map(dev, cuDevicePrimaryCtxRetain(&dev->ctx, d), "cuDevicePrimaryCtxRetain");
    if (!s)
        s = map(dev, cuCtxSetCurrent(dev->ctx), "cuCtxSetCurrent");
    if (s) {
        fprintf(stderr, "native: %s\n", dev->err);
        free(dev);
        return s;
    }
    *out = dev;
    return LOCKSTEP_SUCCESS;
}

static void deliver(lockstep_device *dev)
{
    if (!dev->pending_len)
        return;
    if (dev->out_fn) {
        dev->out_fn(dev->out_ud, dev->pending, dev->pending_len);
    } else {
        fwrite(dev->pending, 1, dev->pending_len, stdout);
        fflush(stdout);
    }
    dev->pending_len = 0;
}

void lockstep_device_destroy(lockstep_device *dev)
{
    CUdevice d;
    deliver(dev);
    cuCtxGetDevice(&d);
    cuDevicePrimaryCtxRelease(d);
    free(dev->pending);
    free(dev);
}

const char *lockstep_device_last_error(const lockstep_device *dev) { return dev->err; }

void lockstep_device_set_printf_output(lockstep_device *dev, lockstep_output_fn fn, void *ud)
{
    dev->out_fn = fn;
    dev->out_ud = ud;
}

lockstep_status lockstep_malloc(lockstep_device *dev, size_t bytes, lockstep_dptr *out)
{
    CUdeviceptr p = 0;
    lockstep_status s = map(dev, cuMemAlloc(&p, bytes), "cuMemAlloc");
    *out = p;
    return s;
}

lockstep_status lockstep_free(lockstep_device *dev, lockstep_dptr ptr)
{
    return map(dev, cuMemFree(ptr), "cuMemFree");
}

lockstep_status lockstep_memcpy_htod(lockstep_device *dev, lockstep_dptr dst, const void *src,
                                     size_t bytes)
{
    return map(dev, cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD");
}

lockstep_status lockstep_memcpy_dtoh(lockstep_device *dev, void *dst, lockstep_dptr src,
                                     size_t bytes)
{
    return map(dev, cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
}

lockstep_status lockstep_memcpy_dtod(lockstep_device *dev, lockstep_dptr dst, lockstep_dptr src,
                                     size_t bytes)
{
    return map(dev, cuMemcpyDtoD(dst, src, bytes), "cuMemcpyDtoD");
}

lockstep_status lockstep_memset(lockstep_device *dev, lockstep_dptr dst, int value, size_t bytes)
{
    return map(dev, cuMemsetD8(dst, (unsigned char)value, bytes), "cuMemsetD8");
}

/* Size in bytes of a PTX scalar type name like "u32", "b8", "f64". */
static uint32_t type_size(const char *t)
{
    int bits = atoi(t + 1);
    return bits > 0 ? (uint32_t)bits / 8 : 0;
}

/* Fill k->info from the parameter list of ".entry NAME(" in the PTX. */
static void parse_params(lockstep_kernel *k, const char *text)
{
    char pat[300];
    snprintf(pat, sizeof pat, ".entry %s(", k->name);
    const char *p = strstr(text, pat);
    uint32_t off = 0, n = 0;
    if (p) {
        p += strlen(pat);
        const char *end = strchr(p, ')');
        while (p && p < end && n < 64) {
            const char *q = strstr(p, ".param");
            if (!q || q > end)
                break;
            q += 6;
            uint32_t align = 0, size, count = 1;
            while (*q == ' ' || *q == '\t')
                q++;
            if (!strncmp(q, ".align", 6)) {
                align = (uint32_t)strtoul(q + 6, (char **)&q, 10);
                while (*q == ' ' || *q == '\t')
                    q++;
            }
            size = type_size(q + 1); /* skip '.' */
            while (*q && *q != ' ' && *q != '\t')
                q++;
            while (*q == ' ' || *q == '\t')
                q++;
            while (*q && *q != '[' && *q != ',' && *q != '\n' && *q != ')')
                q++;
            if (*q == '[')
                count = (uint32_t)strtoul(q + 1, NULL, 10);
            if (!align)
                align = size;
            off = (off + align - 1) / align * align;
            k->params[n].offset = off;
            k->params[n].size = size * count;
            k->params[n].align = align;
            off += size * count;
            n++;
            p = q;
        }
    }
    k->info.name = k->name;
    k->info.num_params = n;
    k->info.params = k->params;
    k->info.param_bytes = off;
}

lockstep_status lockstep_module_load_ptx(lockstep_device *dev, const char *text, size_t len,
                                         const char *filename, lockstep_module **out)
{
    (void)filename;
    lockstep_module *m = calloc(1, sizeof *m);
    if (!m)
        return LOCKSTEP_ERROR_OUT_OF_MEMORY;
    m->dev = dev;
    m->text = malloc(len + 1);
    memcpy(m->text, text, len);
    m->text[len] = 0;
    lockstep_status s = map(dev, cuModuleLoadData(&m->mod, m->text), "cuModuleLoadData");
    if (s) {
        free(m->text);
        free(m);
        return s;
    }
    *out = m;
    return LOCKSTEP_SUCCESS;
}

lockstep_status lockstep_module_load_file(lockstep_device *dev, const char *path,
                                          lockstep_module **out)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(dev->err, sizeof dev->err, "cannot open %s", path);
        return LOCKSTEP_ERROR_IO;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    size_t got = fread(buf, 1, (size_t)len, f);
    fclose(f);
    lockstep_status s = lockstep_module_load_ptx(dev, buf, got, path, out);
    free(buf);
    return s;
}

void lockstep_module_unload(lockstep_module *mod)
{
    cuModuleUnload(mod->mod);
    free(mod->text);
    free(mod);
}

lockstep_status lockstep_module_get_kernel(lockstep_module *mod, const char *name,
                                           lockstep_kernel **out)
{
    for (size_t i = 0; i < mod->nkernels; i++)
        if (!strcmp(mod->kernels[i].name, name)) {
            *out = &mod->kernels[i];
            return LOCKSTEP_SUCCESS;
        }
    if (mod->nkernels == 64)
        return LOCKSTEP_ERROR_OUT_OF_MEMORY;
    lockstep_kernel *k = &mod->kernels[mod->nkernels];
    lockstep_status s = map(mod->dev, cuModuleGetFunction(&k->fn, mod->mod, name),
                            "cuModuleGetFunction");
    if (s)
        return s;
    snprintf(k->name, sizeof k->name, "%s", name);
    parse_params(k, mod->text);
    mod->nkernels++;
    *out = k;
    return LOCKSTEP_SUCCESS;
}

lockstep_status lockstep_module_get_symbol(lockstep_module *mod, const char *name,
                                           lockstep_dptr *addr, size_t *bytes)
{
    CUdeviceptr p = 0;
    size_t b = 0;
    lockstep_status s = map(mod->dev, cuModuleGetGlobal(&p, &b, mod->mod, name),
                            "cuModuleGetGlobal");
    if (addr)
        *addr = p;
    if (bytes)
        *bytes = b;
    return s;
}

lockstep_status lockstep_kernel_get_info(const lockstep_kernel *k, lockstep_kernel_info *out)
{
    *out = k->info;
    return LOCKSTEP_SUCCESS;
}

static lockstep_status run(lockstep_device *dev, const lockstep_kernel *k, lockstep_dim3 grid,
                           lockstep_dim3 block, uint32_t shmem, void **args, void **extra,
                           lockstep_launch_stats *stats)
{
    fflush(stdout);
    int saved = dup(1);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 1);
    CUresult r = cuLaunchKernel(k->fn, grid.x, grid.y, grid.z, block.x, block.y, block.z, shmem,
                                NULL, args, extra);
    if (r == CUDA_SUCCESS)
        r = cuCtxSynchronize();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    long len = ftell(tmp);
    if (len > 0) {
        char *np = realloc(dev->pending, dev->pending_len + (size_t)len);
        if (np) {
            dev->pending = np;
            fseek(tmp, 0, SEEK_SET);
            dev->pending_len += fread(np + dev->pending_len, 1, (size_t)len, tmp);
        }
    }
    fclose(tmp);
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->ctas = (uint64_t)grid.x * grid.y * grid.z;
        stats->threads = stats->ctas * block.x * block.y * block.z;
    }
    lockstep_status s = map(dev, r, k->name);
    if (s >= LOCKSTEP_ERROR_ILLEGAL_ADDRESS) {
        dev->pending_status = s;
        dev->fault_status = s;
        snprintf(dev->fault_kernel, sizeof dev->fault_kernel, "%s", k->name);
    }
    return s;
}

lockstep_status lockstep_launch(lockstep_device *dev, const lockstep_kernel *k,
                                lockstep_dim3 grid, lockstep_dim3 block,
                                uint32_t dynamic_shared_bytes, const void *params,
                                size_t params_bytes, lockstep_launch_stats *stats)
{
    if (params_bytes != k->info.param_bytes) {
        snprintf(dev->err, sizeof dev->err, "params_bytes %zu != %u", params_bytes,
                 k->info.param_bytes);
        return LOCKSTEP_ERROR_INVALID_LAUNCH;
    }
    size_t size = params_bytes;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, (void *)params, CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &size, CU_LAUNCH_PARAM_END};
    return run(dev, k, grid, block, dynamic_shared_bytes, NULL, extra, stats);
}

lockstep_status lockstep_launch_args(lockstep_device *dev, const lockstep_kernel *k,
                                     lockstep_dim3 grid, lockstep_dim3 block,
                                     uint32_t dynamic_shared_bytes, void *const *args,
                                     lockstep_launch_stats *stats)
{
    return run(dev, k, grid, block, dynamic_shared_bytes, (void **)args, NULL, stats);
}

lockstep_status lockstep_synchronize(lockstep_device *dev)
{
    deliver(dev);
    lockstep_status s = dev->pending_status;
    dev->pending_status = LOCKSTEP_SUCCESS;
    return s;
}

void lockstep_device_last_fault(const lockstep_device *dev, lockstep_fault_info *out)
{
    memset(out, 0, sizeof *out);
    out->status = dev->fault_status;
    out->kernel = dev->fault_kernel;
    out->message = dev->err;
}
