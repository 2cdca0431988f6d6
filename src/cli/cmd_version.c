/*
 * cmd_version.c -- `lockstep version`.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "lockstep.h"

int cmd_version(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: lockstep version\n\nPrints lockstep's version.\n");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "lockstep version: unexpected argument '%s'\n", argv[1]);
        return 2;
    }
    printf("lockstep %s\n", lockstep_version());
    return 0;
}
