/*
 * cmd_ptx.c -- `lockstep ptx check FILE.ptx...`: load each file the way a
 * launch would (parse, check, decode) and list its kernels with their
 * parameters, registers and memory, or print the errors.  Exit status 1
 * if any file has an error.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "lockstep.h"

static void ptx_usage(FILE *f)
{
    fprintf(f, "usage: lockstep ptx check [--quiet] FILE.ptx...\n"
               "\n"
               "Parses, checks and decodes each PTX file. For every kernel prints its\n"
               "parameters (offset:size), registers, shared and local memory and decoded\n"
               "instructions; errors are printed as FILE:LINE:COLUMN: error: ...\n"
               "  --quiet   print only errors and one summary line per file\n");
}

int cmd_ptx(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        ptx_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "check")) {
        fprintf(stderr, "lockstep ptx: unknown subcommand '%s' (expected 'check')\n", argv[1]);
        return 2;
    }
    int quiet = 0, first = 2;
    if (argc > 2 && !strcmp(argv[2], "--quiet")) {
        quiet = 1;
        first = 3;
    }
    if (first >= argc) {
        ptx_usage(stderr);
        return 2;
    }
    lockstep_device *dev;
    if (lockstep_device_create(NULL, &dev) != LOCKSTEP_SUCCESS) {
        fprintf(stderr, "lockstep: cannot create a device (out of memory)\n");
        return 1;
    }
    int failed = 0;
    for (int i = first; i < argc; i++) {
        lockstep_module *mod;
        lockstep_status st = lockstep_module_load_file(dev, argv[i], &mod);
        if (st != LOCKSTEP_SUCCESS) {
            fprintf(stderr, "%s\n", lockstep_device_last_error(dev));
            if (st != LOCKSTEP_ERROR_IO) /* (the message above already says why) */
                fprintf(stderr, "%s: %s\n", argv[i], lockstep_status_string(st));
            failed = 1;
            continue;
        }
        size_t nk = lockstep_module_kernel_count(mod);
        printf("%s: ok, %zu kernel%s\n", argv[i], nk, nk == 1 ? "" : "s");
        for (size_t k = 0; k < nk && !quiet; k++) {
            lockstep_kernel_info ki;
            lockstep_kernel_get_info(lockstep_module_kernel_at(mod, k), &ki);
            printf("  kernel %s (line %u)\n", ki.name, ki.ptx_line);
            printf("    params    %u (%u bytes)", ki.num_params, ki.param_bytes);
            for (uint32_t p = 0; p < ki.num_params; p++)
                printf("%s%u:%u", p ? " " : ": ", ki.params[p].offset, ki.params[p].size);
            printf("\n    registers %u (32-bit), %u predicates\n", ki.num_regs, ki.num_pred_regs);
            printf("    shared    %u bytes static%s\n", ki.static_shared_bytes,
                   ki.uses_dynamic_shared ? " + dynamic" : "");
            printf("    local     %u bytes per thread\n", ki.local_bytes);
            printf("    insts     %u\n", ki.num_insts);
            if (ki.maxntid[0])
                printf("    maxntid   %u,%u,%u\n", ki.maxntid[0], ki.maxntid[1], ki.maxntid[2]);
            if (ki.reqntid[0])
                printf("    reqntid   %u,%u,%u\n", ki.reqntid[0], ki.reqntid[1], ki.reqntid[2]);
        }
        lockstep_module_unload(mod);
    }
    lockstep_device_destroy(dev);
    return failed;
}
