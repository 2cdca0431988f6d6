/*
 * drvmodule.c -- the driver API's modules, libraries, functions and
 * kernels (cuModuleLoad*, cuLibraryLoad*, cuModuleGetFunction, ...).
 *
 * An image is PTX text, a fat binary (raw, as `nvcc -fatbin` writes it, or
 * behind a __fatBinC_Wrapper_t), or a cubin.  lockstep runs PTX: the PTX
 * of a fat binary is found by fatbin.c, and a cubin (machine code only) is
 * refused with a message saying how to build a loadable image.  A loaded
 * module is adopted by the runtime (cudart_module_adopt), and each
 * function asked for becomes an entry of the runtime's function table, so
 * cuLaunchKernel goes through the runtime's launch and the statistics
 * count it like any other.  A library (CUlibrary) is a module under
 * another handle; a CUkernel is a CUfunction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cudart/driver.h"
#include "cudart/fatbin.h"
#include "cudart/modload.h"
#include "cudart/runtime.h"
#include "util/strbuf.h"

typedef struct drv_module {
    struct rt_module *rtm;
    lockstep_module *mod;
    struct rt_function **funcs; /* the functions asked for, one entry per name */
    size_t nfuncs;
    CUlibrary library;          /* the library it belongs to, if any */
} drv_module;

typedef struct drv_library {
    CUmodule module;
} drv_library;

static unsigned module_count; /* names unnamed images in messages */

/* Write msg into a JIT log buffer option, as far as it fits. */
static void jit_log(unsigned n, const CUjit_option *opt, void **val, CUjit_option buf_opt,
                    CUjit_option size_opt, const char *msg)
{
    char *buf = NULL;
    size_t size = 0;
    for (unsigned i = 0; i < n; i++) {
        if (opt[i] == buf_opt)
            buf = val[i];
        else if (opt[i] == size_opt)
            size = (size_t)(uintptr_t)val[i];
    }
    if (buf && size)
        snprintf(buf, size, "%s", msg);
}

/* Load one image (lock held): the module, or NULL with *r set and the
 * reason said on stderr and kept in why[]. */
static lockstep_module *load_image(const void *image, size_t known_size, const char *name,
                                   CUresult *r, char *why, size_t whylen)
{
    lockstep_device *dev = cudart_device();
    const unsigned char *p = image;
    lockstep_module *mod = NULL;
    uint32_t magic = 0;
    if (known_size ? known_size >= 4 : strnlen(image, 4) == 4) /* none of the magics holds a 0 */
        memcpy(&magic, p, 4);
    why[0] = 0;
    if (magic == 0x466243b1u) { /* a __fatBinC_Wrapper_t */
        char *msg = NULL;
        mod = cudart_load_fatbin(dev, image, name, &msg);
        if (!mod) {
            snprintf(why, whylen, "%s", msg ? msg : "out of host memory");
            *r = CUDA_ERROR_NO_BINARY_FOR_GPU;
        }
        free(msg);
    } else if (magic == 0xBA55ED50u) { /* a fat binary: header, then entries */
        uint16_t hsize;
        uint64_t total;
        memcpy(&hsize, p + 6, 2);
        memcpy(&total, p + 8, 8);
        size_t size = known_size ? known_size : (size_t)(hsize + total);
        fatbin_ptx ptx;
        char err[512];
        if (fatbin_parse(image, size, 0, &ptx, err, sizeof err)) {
            snprintf(why, whylen, "cannot load %s: %s", name, err);
            *r = CUDA_ERROR_NO_BINARY_FOR_GPU;
        } else {
            lockstep_status st = lockstep_module_load_ptx(dev, ptx.text, ptx.len, name, &mod);
            if (st != LOCKSTEP_SUCCESS) {
                mod = NULL;
                snprintf(why, whylen, "cannot load the PTX of %s: %s\n%s", name,
                         lockstep_status_string(st), lockstep_device_last_error(dev));
                *r = CUDA_ERROR_INVALID_PTX;
            }
            free(ptx.text);
        }
    } else if (magic == 0x464c457fu) { /* "\177ELF" */
        snprintf(why, whylen,
                 "cannot load %s: it is a cubin, which holds only machine code; lockstep runs "
                 "PTX: load a .ptx file (nvcc -ptx) or a fat binary with PTX in it "
                 "(nvcc -fatbin -arch=sm_XX)",
                 name);
        *r = CUDA_ERROR_NO_BINARY_FOR_GPU;
    } else { /* PTX text, NUL-terminated */
        size_t len = known_size ? strnlen(image, known_size) : strlen(image);
        lockstep_status st = lockstep_module_load_ptx(dev, image, len, name, &mod);
        if (st != LOCKSTEP_SUCCESS) {
            mod = NULL;
            snprintf(why, whylen, "cannot load %s as PTX: %s\n%s", name,
                     lockstep_status_string(st), lockstep_device_last_error(dev));
            *r = CUDA_ERROR_INVALID_PTX;
        }
    }
    if (!mod && why[0])
        cudart_say("%s", why);
    return mod;
}

/* A module handle for the image (lock held). */
static CUresult module_new(CUmodule *out, const void *image, size_t size, const char *fname,
                           unsigned nopt, CUjit_option *opt, void **val)
{
    if (!out || !image)
        return CUDA_ERROR_INVALID_VALUE;
    if (nopt && (!opt || !val))
        return CUDA_ERROR_INVALID_VALUE;
    char name[300], why[4096];
    if (fname)
        snprintf(name, sizeof name, "%s", fname);
    else
        snprintf(name, sizeof name, "module%u.ptx", module_count);
    module_count++;
    CUresult r = CUDA_SUCCESS;
    lockstep_module *mod = load_image(image, size, name, &r, why, sizeof why);
    for (unsigned i = 0; i < nopt; i++)
        if (opt[i] == CU_JIT_WALL_TIME)
            memset(&val[i], 0, sizeof(float)); /* a float in the pointer's place */
    jit_log(nopt, opt, val, CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            mod ? "" : why);
    jit_log(nopt, opt, val, CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, "");
    if (!mod)
        return r;
    drv_module *m = calloc(1, sizeof *m);
    struct rt_module *rtm = m ? cudart_module_adopt(mod) : NULL;
    CUmodule h = rtm ? cudart_handle_new(H_MODULE, m) : NULL;
    if (!h) {
        if (rtm)
            cudart_module_retire(rtm);
        else
            lockstep_module_unload(mod);
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->rtm = rtm;
    m->mod = mod;
    *out = h;
    return CUDA_SUCCESS;
}

/* A whole file, NUL-terminated: malloc'd, or NULL (*r says why, and a
 * message what, unless the file is missing or unreadable).  At
 * most SB_MAX_PTX bytes: a larger file, or one that never ends, is refused
 * with a message rather than read until the host runs out of memory. */
static char *read_file(const char *fname, size_t *size, CUresult *r)
{
    struct stat st;
    if (stat(fname, &st)) {
        *r = CUDA_ERROR_FILE_NOT_FOUND;
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        cudart_say("cannot load %s: not a regular file", fname);
        *r = CUDA_ERROR_INVALID_IMAGE;
        return NULL;
    }
    strbuf sb = {0};
    int rc = sb_read_file(&sb, fname, SB_MAX_PTX);
    if (rc || sb.len < 4) {
        if (rc == -3)
            cudart_say("cannot load %s: a module file of more than %u MiB", fname,
                       SB_MAX_PTX >> 20);
        else if (!rc)
            cudart_say("cannot load %s: it is not a PTX, fat binary or cubin file", fname);
        *r = rc == -1   ? CUDA_ERROR_FILE_NOT_FOUND
             : rc == -2 ? CUDA_ERROR_OUT_OF_MEMORY
                        : CUDA_ERROR_INVALID_IMAGE;
        sb_free(&sb);
        return NULL;
    }
    *size = sb.len;
    char *buf = sb_detach(&sb); /* NUL-terminated */
    sb_free(&sb);
    if (!buf)
        *r = CUDA_ERROR_OUT_OF_MEMORY;
    return buf;
}

static CUresult load_file(CUmodule *module, const char *fname, unsigned nopt, CUjit_option *opt,
                          void **val)
{
    if (!module || !fname)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    size_t size;
    char *buf = read_file(fname, &size, &r);
    if (!buf)
        return r; /* read_file said why */
    if ((r = drv_enter_ctx())) {
        free(buf);
        return r;
    }
    r = module_new(module, buf, size, fname, nopt, opt, val);
    free(buf);
    return drv_leave(r);
}

/* ---- modules -------------------------------------------------------------------------------- */

CUDRV_API CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    return load_file(module, fname, 0, NULL, NULL);
}

CUDRV_API CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                      CUjit_option *options, void **optionValues)
{
    CUresult r = drv_enter_ctx();
    if (r)
        return r;
    return drv_leave(module_new(module, image, 0, NULL, numOptions, options, optionValues));
}

CUDRV_API CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    return cuModuleLoadDataEx(module, image, 0, NULL, NULL);
}

CUDRV_API CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
    return cuModuleLoadDataEx(module, fatCubin, 0, NULL, NULL);
}

static void module_free(CUmodule h, drv_module *m)
{
    cudart_module_retire(m->rtm);
    cudart_handle_free(h, H_MODULE);
    free(m->funcs);
    free(m);
}

CUDRV_API CUresult cuModuleUnload(CUmodule hmod)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    drv_module *m = cudart_handle_obj(hmod, H_MODULE);
    if (!m || m->library) /* a library's module goes with the library */
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    module_free(hmod, m);
    return drv_leave(CUDA_SUCCESS);
}

/* The function `name` of module m (lock held). */
static CUresult get_function(CUfunction *out, drv_module *m, const char *name)
{
    if (!out || !name)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < m->nfuncs; i++)
        if (!strcmp(cudart_function_name(m->funcs[i]), name)) {
            *out = m->funcs[i];
            return CUDA_SUCCESS;
        }
    lockstep_kernel *k;
    if (lockstep_module_get_kernel(m->mod, name, &k) != LOCKSTEP_SUCCESS)
        return CUDA_ERROR_NOT_FOUND;
    struct rt_function **v = realloc(m->funcs, (m->nfuncs + 1) * sizeof *v);
    if (!v)
        return CUDA_ERROR_OUT_OF_MEMORY;
    m->funcs = v;
    struct rt_function *f = cudart_function_new(m->rtm, name, k);
    if (!f)
        return CUDA_ERROR_OUT_OF_MEMORY;
    m->funcs[m->nfuncs++] = f;
    *out = f;
    return CUDA_SUCCESS;
}

CUDRV_API CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    drv_module *m = cudart_handle_obj(hmod, H_MODULE);
    if (!m)
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    return drv_leave(get_function(hfunc, m, name));
}

static CUresult get_global(CUdeviceptr *dptr, size_t *bytes, drv_module *m, const char *name)
{
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    lockstep_dptr a;
    size_t n;
    if (lockstep_module_get_symbol(m->mod, name, &a, &n) != LOCKSTEP_SUCCESS)
        return CUDA_ERROR_NOT_FOUND;
    if (dptr)
        *dptr = a;
    if (bytes)
        *bytes = n;
    return CUDA_SUCCESS;
}

CUDRV_API CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod,
                                        const char *name)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    drv_module *m = cudart_handle_obj(hmod, H_MODULE);
    if (!m)
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    return drv_leave(get_global(dptr, bytes, m, name));
}

CUDRV_API CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    drv_module *m = cudart_handle_obj(mod, H_MODULE);
    if (!m)
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    if (!count)
        return drv_leave(CUDA_ERROR_INVALID_VALUE);
    *count = (unsigned)lockstep_module_kernel_count(m->mod);
    return drv_leave(CUDA_SUCCESS);
}

CUDRV_API CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
    if (!mode)
        return CUDA_ERROR_INVALID_VALUE;
    *mode = CU_MODULE_EAGER_LOADING;
    return CUDA_SUCCESS;
}

/* ---- libraries and kernels ------------------------------------------------------------------ */

static CUresult library_new(CUlibrary *library, CUresult (*load)(CUmodule *, const void *),
                            const void *what)
{
    if (!library)
        return CUDA_ERROR_INVALID_VALUE;
    /* a library is not tied to a context: one current or not, it loads */
    CUmodule mod;
    CUresult r = load(&mod, what);
    if (r)
        return r;
    if ((r = drv_enter()))
        return r;
    drv_library *l = calloc(1, sizeof *l);
    CUlibrary h = l ? cudart_handle_new(H_LIBRARY, l) : NULL;
    drv_module *m = cudart_handle_obj(mod, H_MODULE);
    if (!h || !m) {
        free(l);
        if (m)
            module_free(mod, m);
        return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
    }
    l->module = mod;
    m->library = h;
    *library = h;
    return drv_leave(CUDA_SUCCESS);
}

static CUresult load_data_any(CUmodule *mod, const void *image)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    return drv_leave(module_new(mod, image, 0, NULL, 0, NULL, NULL));
}

static CUresult load_file_any(CUmodule *mod, const void *fname)
{
    CUresult r = CUDA_SUCCESS;
    size_t size;
    if (!fname)
        return CUDA_ERROR_INVALID_VALUE;
    char *buf = read_file(fname, &size, &r);
    if (!buf)
        return r; /* read_file said why */
    if ((r = drv_enter())) {
        free(buf);
        return r;
    }
    r = module_new(mod, buf, size, fname, 0, NULL, NULL);
    free(buf);
    return drv_leave(r);
}

CUDRV_API CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                     void **jitOptionsValues, unsigned int numJitOptions,
                                     CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                     unsigned int numLibraryOptions)
{
    (void)jitOptions, (void)jitOptionsValues, (void)numJitOptions;
    (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
    if (!code)
        return CUDA_ERROR_INVALID_VALUE;
    return library_new(library, load_data_any, code);
}

CUDRV_API CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName,
                                         CUjit_option *jitOptions, void **jitOptionsValues,
                                         unsigned int numJitOptions,
                                         CUlibraryOption *libraryOptions,
                                         void **libraryOptionValues,
                                         unsigned int numLibraryOptions)
{
    (void)jitOptions, (void)jitOptionsValues, (void)numJitOptions;
    (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
    return library_new(library, load_file_any, fileName);
}

CUDRV_API CUresult cuLibraryUnload(CUlibrary library)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    drv_library *l = cudart_handle_obj(library, H_LIBRARY);
    if (!l)
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    drv_module *m = cudart_handle_obj(l->module, H_MODULE);
    if (m)
        module_free(l->module, m);
    cudart_handle_free(library, H_LIBRARY);
    free(l);
    return drv_leave(CUDA_SUCCESS);
}

/* The module behind a library handle (lock held), or NULL. */
static drv_module *library_module(CUlibrary library)
{
    drv_library *l = cudart_handle_obj(library, H_LIBRARY);
    return l ? cudart_handle_obj(l->module, H_MODULE) : NULL;
}

CUDRV_API CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    drv_module *m = library_module(library);
    if (!m)
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    return drv_leave(get_function(pKernel, m, name));
}

CUDRV_API CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    drv_library *l = cudart_handle_obj(library, H_LIBRARY);
    if (!l)
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    if (!pMod)
        return drv_leave(CUDA_ERROR_INVALID_VALUE);
    *pMod = l->module;
    return drv_leave(CUDA_SUCCESS);
}

CUDRV_API CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library,
                                      const char *name)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    drv_module *m = library_module(library);
    if (!m)
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    return drv_leave(get_global(dptr, bytes, m, name));
}

CUDRV_API CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    if (!cudart_function_live(kernel))
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    if (!pFunc)
        return drv_leave(CUDA_ERROR_INVALID_VALUE);
    *pFunc = kernel;
    return drv_leave(CUDA_SUCCESS);
}

/* ---- functions ------------------------------------------------------------------------------ */

CUDRV_API CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter();
    if (r)
        return r;
    if (!cudart_function_live(hfunc))
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    drv_leave(CUDA_SUCCESS);
    struct cudaFuncAttributes a;
    cudaError_t saved = drv_rt_begin();
    cudaError_t e = cudaFuncGetAttributes(&a, hfunc);
    drv_rt_end(saved);
    if (e)
        return drv_result(e);
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = a.maxThreadsPerBlock; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)a.sharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = (int)a.constSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)a.localSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = a.numRegs; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = a.ptxVersion; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = a.binaryVersion; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = a.cacheModeCA; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = a.maxDynamicSharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = a.preferredShmemCarveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *pi = a.clusterDimMustBeSet; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        *pi = a.clusterSchedulingPolicyPreference;
        break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUDRV_API CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    if (!cudart_function_live(hfunc))
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    drv_leave(CUDA_SUCCESS);
    /* the writable attributes have the runtime's numbers */
    cudaError_t saved = drv_rt_begin();
    cudaError_t e = cudaFuncSetAttribute(hfunc, attrib, value);
    drv_rt_end(saved);
    return drv_result(e);
}

CUDRV_API CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    r = cudart_function_live(hfunc) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
    if (!r && (config < 0 || config > 3))
        r = CUDA_ERROR_INVALID_VALUE;
    return drv_leave(r); /* a preference: the simulated L1/shared split is configured */
}

CUDRV_API CUresult cuFuncGetName(const char **name, CUfunction hfunc)
{
    CUresult r = drv_enter();
    if (r)
        return r;
    if (!cudart_function_live(hfunc))
        return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    if (!name)
        return drv_leave(CUDA_ERROR_INVALID_VALUE);
    *name = cudart_function_name(hfunc);
    return drv_leave(CUDA_SUCCESS);
}
