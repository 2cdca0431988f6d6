/*
 * modload.c -- loading a registered fat binary (modload.h).
 *
 * An ordinary program (one wrapper per translation unit, version 1) holds
 * its PTX in the wrapper's own fat binary: it is loaded as it is.  A
 * program built with relocatable device code registers one version-2
 * wrapper for all of its units (fatbin.c); their PTX texts are linked by
 * the library (lockstep_module_load_ptx_linked) into one module, so the
 * kernels and variables every unit's host code registers under this
 * wrapper's handle are all found in it by name.
 */
#include "cudart/modload.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/fatbin.h"

static char *msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s) {
        va_start(ap, fmt);
        vsnprintf(s, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return s;
}

lockstep_module *cudart_load_fatbin(lockstep_device *dev, const void *wrapper, const char *prefix,
                                    char **why)
{
    *why = NULL;
    char err[512];
    fatbin_ptx *u;
    size_t n;
    int linked;
    if (fatbin_extract_units(wrapper, &u, &n, &linked, err, sizeof err)) {
        *why = msg("cannot load the program's GPU code: %s", err);
        return NULL;
    }
    const char **texts = calloc(n, sizeof *texts);
    size_t *lens = calloc(n, sizeof *lens);
    char **names = calloc(n, sizeof *names);
    lockstep_module *mod = NULL;
    if (!texts || !lens || !names)
        goto oom;
    for (size_t i = 0; i < n; i++) {
        texts[i] = u[i].text;
        lens[i] = u[i].len;
        names[i] = linked ? msg("%s.tu%zu.ptx", prefix, i) : msg("%s.ptx", prefix);
        if (!names[i])
            goto oom;
    }
    lockstep_status st = linked ? lockstep_module_load_ptx_linked(dev, n, texts, lens,
                                                                  (const char *const *)names, &mod)
                                : lockstep_module_load_ptx(dev, texts[0], lens[0], names[0], &mod);
    if (st != LOCKSTEP_SUCCESS) {
        mod = NULL;
        /* the architectures and PTX versions, as nvcc wrote them */
        unsigned lo = u[0].arch, hi = u[0].arch, vlo = 0, vhi = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned v = u[i].ptx_major * 100 + u[i].ptx_minor;
            lo = u[i].arch < lo ? u[i].arch : lo;
            hi = u[i].arch > hi ? u[i].arch : hi;
            vlo = !i || v < vlo ? v : vlo;
            vhi = v > vhi ? v : vhi;
        }
        char archs[40], isas[48], what[128];
        if (lo == hi)
            snprintf(archs, sizeof archs, "sm_%u", lo);
        else
            snprintf(archs, sizeof archs, "sm_%u to sm_%u", lo, hi);
        if (vlo == vhi)
            snprintf(isas, sizeof isas, "%u.%u", vlo / 100, vlo % 100);
        else
            snprintf(isas, sizeof isas, "%u.%u to %u.%u", vlo / 100, vlo % 100, vhi / 100,
                     vhi % 100);
        snprintf(what, sizeof what, "%s, PTX ISA %s", archs, isas);
        if (linked)
            *why = msg("cannot link the program's relocatable device code (%zu translation "
                       "unit%s, %s): %s\n%s",
                       n, n == 1 ? "" : "s", what, lockstep_status_string(st),
                       lockstep_device_last_error(dev));
        else
            *why = msg("cannot load the program's PTX (%s): %s\n%s", what,
                       lockstep_status_string(st), lockstep_device_last_error(dev));
    }
    goto done;
oom:
    *why = msg("out of host memory loading the program's GPU code");
done:
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    free(texts);
    free(lens);
    fatbin_units_free(u, n);
    return mod;
}
