/*
 * test_ptx_bad.c -- every file in tests/ptx/bad is malformed or unsupported
 * PTX whose first line says which error it must produce:
 *     // expect: 8:2: error: unknown instruction 'frob'
 * Loading it must fail with INVALID_PTX or UNSUPPORTED_PTX, the message
 * must start with the file name and a line:column, and contain the
 * expected text.  (Under ASan/UBSan in CI: and nothing may crash or leak.)
 * The same files are also loaded with every prefix length cut off at a few
 * points, so truncated input is covered too.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_bad_files(void)
{
    const char *dir = LOCKSTEP_SRC_DIR "/tests/ptx/bad";
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d)
        return;
    char *names[512];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512)
        if (strstr(e->d_name, ".ptx"))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp);
    CHECK_MSG(n >= 20, "only %d bad PTX cases", n);
    lockstep_device *dev;
    CHECK(lockstep_device_create(NULL, &dev) == LOCKSTEP_SUCCESS);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len;
        char *text = test_read_file(path, &len);
        CHECK_MSG(text != NULL, "cannot read %s", path);
        if (!text)
            continue;
        char expect[512] = "";
        if (!strncmp(text, "// expect: ", 11)) {
            const char *nl = strchr(text, '\n');
            size_t k = nl ? (size_t)(nl - text - 11) : 0;
            if (k >= sizeof expect)
                k = sizeof expect - 1;
            memcpy(expect, text + 11, k);
            expect[k] = 0;
        }
        CHECK_MSG(expect[0], "%s has no '// expect:' line", names[i]);
        lockstep_module *mod = NULL;
        lockstep_status st = lockstep_module_load_ptx(dev, text, len, names[i], &mod);
        const char *msg = lockstep_device_last_error(dev);
        CHECK_MSG(st == LOCKSTEP_ERROR_INVALID_PTX || st == LOCKSTEP_ERROR_UNSUPPORTED_PTX,
                  "%s: status %s", names[i], lockstep_status_name(st));
        CHECK_MSG(mod == NULL, "%s: a module was returned", names[i]);
        char prefix[600];
        snprintf(prefix, sizeof prefix, "%s:", names[i]);
        CHECK_MSG(!strncmp(msg, prefix, strlen(prefix)), "%s: message does not start with the file name: %s",
                  names[i], msg);
        CHECK_MSG(strstr(msg, expect) != NULL, "%s: expected '%s' in:\n%s", names[i], expect, msg);
        CHECK_MSG(!strstr(msg, "internal"), "%s: an internal error leaks out:\n%s", names[i], msg);
        /* unsupported instructions are reported as such */
        if (strstr(expect, "unsupported instruction"))
            CHECK_MSG(st == LOCKSTEP_ERROR_UNSUPPORTED_PTX, "%s: %s", names[i],
                      lockstep_status_name(st));
        /* truncated copies of the file must fail cleanly too (or load, if the cut
         * happens to leave valid PTX), never crash */
        for (size_t cut = 1; cut < len; cut += len / 7 + 1) {
            lockstep_module *m2 = NULL;
            lockstep_status s2 = lockstep_module_load_ptx(dev, text, cut, names[i], &m2);
            if (s2 == LOCKSTEP_SUCCESS)
                lockstep_module_unload(m2);
            else
                CHECK_MSG(lockstep_device_last_error(dev)[0], "%s cut at %zu: empty message",
                          names[i], cut);
        }
        free(text);
    }
    lockstep_device_destroy(dev);
    for (int i = 0; i < n; i++)
        free(names[i]);
}

/* Every committed good PTX file loads (the census-driven coverage lives in
 * the e2e kernels, the conformance suite and the examples). */
static void test_good_files(void)
{
    static const char *const files[] = {
        "examples/saxpy.ptx",
        "tests/e2e/kernels/atomics.ptx",
        "tests/e2e/kernels/control_flow.ptx",
        "tests/e2e/kernels/device_functions.ptx",
        "tests/e2e/kernels/half_ops.ptx",
        "tests/e2e/kernels/printf.ptx",
        "tests/e2e/kernels/warp_intrinsics.ptx",
        "tests/ptx/good/syntax.ptx",
    };
    lockstep_device *dev;
    CHECK(lockstep_device_create(NULL, &dev) == LOCKSTEP_SUCCESS);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", LOCKSTEP_SRC_DIR, files[i]);
        lockstep_module *mod;
        lockstep_status st = lockstep_module_load_file(dev, path, &mod);
        CHECK_MSG(st == LOCKSTEP_SUCCESS, "%s: %s\n%s", files[i], lockstep_status_name(st),
                  lockstep_device_last_error(dev));
        if (st == LOCKSTEP_SUCCESS)
            lockstep_module_unload(mod);
    }
    lockstep_device_destroy(dev);
}

int main(void)
{
    RUN(test_bad_files);
    RUN(test_good_files);
    return test_summary();
}
