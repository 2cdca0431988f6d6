/*
 * ptx_fuzz.c -- libFuzzer target for the PTX front end.  Each input is
 * loaded as a module (lex, parse, lower, CFG, decode) on one device that
 * lives for the whole run, and unloaded again; any crash, sanitizer report,
 * leak or hang is a bug.  When a module loads, its kernels are also
 * launched once with a tiny grid, zeroed parameters and a small
 * instruction limit, so the interpreter sees what the parser lets through.
 * An input holding lines "//@@unit" is cut there into up to 8 texts that
 * are linked (lockstep_module_load_ptx_linked) instead.
 *
 *   make fuzz && build-fuzz/ptx_fuzz -max_total_time=60 fuzz/corpus-ptx
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"

static lockstep_device *dev;

static void discard(void *ud, const char *text, size_t len)
{
    (void)ud;
    (void)text;
    (void)len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dev) {
        lockstep_config *cfg;
        if (lockstep_config_create(&cfg) != LOCKSTEP_SUCCESS)
            abort();
        lockstep_config_set(cfg, "-lockstep_max_warp_insts", "20000");
        lockstep_config_set(cfg, "-lockstep_device_memory", "67108864");
        lockstep_config_set(cfg, "-lockstep_max_local_per_thread", "65536");
        if (lockstep_device_create(cfg, &dev) != LOCKSTEP_SUCCESS)
            abort();
        lockstep_config_destroy(cfg);
        lockstep_device_set_printf_output(dev, discard, NULL);
    }
    lockstep_module *mod = NULL;
    static const char cut[] = "\n//@@unit\n";
    const char *texts[8], *p = (const char *)data, *end = p + size;
    size_t lens[8], n = 0;
    while (n < 7) {
        const char *at = memmem(p, (size_t)(end - p), cut, sizeof cut - 1);
        if (!at)
            break;
        texts[n] = p;
        lens[n++] = (size_t)(at - p);
        p = at + sizeof cut - 1;
    }
    texts[n] = p;
    lens[n++] = (size_t)(end - p);
    static const char *const names[8] = {"f0.ptx", "f1.ptx", "f2.ptx", "f3.ptx",
                                         "f4.ptx", "f5.ptx", "f6.ptx", "f7.ptx"};
    lockstep_status st = n == 1
        ? lockstep_module_load_ptx(dev, (const char *)data, size, "fuzz.ptx", &mod)
        : lockstep_module_load_ptx_linked(dev, n, texts, lens, names, &mod);
    if (st != LOCKSTEP_SUCCESS)
        return 0;
    for (size_t i = 0; i < lockstep_module_kernel_count(mod) && i < 4; i++) {
        lockstep_kernel *k = lockstep_module_kernel_at(mod, i);
        lockstep_kernel_info ki;
        lockstep_kernel_get_info(k, &ki);
        if (ki.param_bytes > 4096)
            continue;
        uint8_t params[4096];
        memset(params, 0, sizeof params);
        lockstep_launch(dev, k, (lockstep_dim3){2, 1, 1}, (lockstep_dim3){40, 1, 1}, 64, params,
                        ki.param_bytes, NULL);
        lockstep_synchronize(dev);
    }
    lockstep_module_unload(mod);
    return 0;
}
